#!/usr/bin/env python3
"""tools/nnue/shuffle.py: the training data deduplicated, shuffled and split, as trainers want it.

    shuffle.py DATA... -o TRAIN.bin --held-out HELD.bin [--held-out-share F] [--seed S]

DATA: files of klinzha-gen (eval/nnue/sample.h, 104-byte records; shards of many runs). Each
position (by its key) is kept once, the records are put in a random order (a trainer reading a
file front to back sees no game's positions in a row: viridithas measured -68 Elo for
unshuffled data against -16 shuffled, notes/networkhistory.txt), and the positions of a share F
of the games (default 0.02, at most 200,000 positions) are written apart as the held-out set,
which train.py's --held-out reads for its early stop. Whole games are held out, not scattered
positions: the positions of one game are alike, and a held-out set drawn from the training
games measured memorising, not learning (its loss kept falling while the net lost more
games). A game is a run of records whose ply rises, as klinzha-gen writes them; a position
also met in a training game is dropped from the held-out set. The same seed gives the same
files. Prints the counts.
Errors: unreadable data, no positions: a message and exit status 2.
Source: issue 27.
"""
import argparse
import sys

import numpy as np

RECORD = 104


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('data', nargs='+')
    ap.add_argument('-o', '--output', required=True)
    ap.add_argument('--held-out', required=True)
    ap.add_argument('--held-out-share', type=float, default=0.02)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args(argv)
    parts, games = [], []
    for p in args.data:
        try:
            raw = np.fromfile(p, dtype=np.uint8)
        except OSError as e:
            print(f'shuffle.py: cannot read {p}: {e}', file=sys.stderr)
            return 2
        whole = len(raw) // RECORD * RECORD   # a shard cut mid-record by a kill: its last
        parts.append(raw[:whole].reshape(-1, RECORD))   # whole record is kept
        ply = parts[-1][:, 102:104].copy().view('<u2').ravel().astype(np.int64)
        starts = np.concatenate([[1], (ply[1:] <= ply[:-1]).astype(np.int64)]) if len(ply) else ply
        games.append(np.cumsum(starts) + (games[-1].max() + 1 if games and len(games[-1]) else 0))
    rec = np.concatenate(parts)
    if len(rec) == 0:
        print('shuffle.py: no positions', file=sys.stderr)
        return 2
    game = np.concatenate(games)
    rng = np.random.default_rng(args.seed)
    ids = np.unique(game)
    rng.shuffle(ids)
    want = min(200000, max(1, int(len(rec) * args.held_out_share)))
    sizes = np.bincount(game)[ids]
    n_held = int(np.searchsorted(np.cumsum(sizes), want)) + 1    # games to reach `want`
    if n_held >= len(ids):
        n_held = max(1, len(ids) // 5)   # a tiny set: hold out a fifth of the games
    held_mask = np.isin(game, ids[:n_held])
    keys = rec[:, :8].copy().view('<u8').ravel()
    train_keys, first = np.unique(keys[~held_mask], return_index=True)
    train = rec[~held_mask][np.sort(first)]
    held_rec, held_keys = rec[held_mask], keys[held_mask]
    _, hfirst = np.unique(held_keys, return_index=True)
    hfirst = np.sort(hfirst)
    hfirst = hfirst[~np.isin(held_keys[hfirst], train_keys)]
    held_rec = held_rec[hfirst]
    train = train[rng.permutation(len(train))]
    held_rec = held_rec[rng.permutation(len(held_rec))]
    if len(train) == 0 or len(held_rec) == 0:
        print('shuffle.py: too few games to hold some out', file=sys.stderr)
        return 2
    held_rec.tofile(args.held_out)
    train.tofile(args.output)
    print(f'shuffle.py: {len(rec)} records of {len(ids)} games: {len(train)} distinct positions '
          f'to {args.output}, {len(held_rec)} of {n_held} games held out to {args.held_out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
