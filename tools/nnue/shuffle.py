#!/usr/bin/env python3
"""tools/nnue/shuffle.py: the training data deduplicated, shuffled and split, as trainers want it.

    shuffle.py DATA... -o TRAIN.bin --held-out HELD.bin [--held-out-share F] [--seed S]

DATA: files of klinzha-gen (eval/nnue/sample.h, 104-byte records; shards of many runs). Each
position (by its key) is kept once, the records are put in a random order (a trainer reading a
file front to back sees no game's positions in a row: viridithas measured -68 Elo for
unshuffled data against -16 shuffled, notes/networkhistory.txt), and a share F (default 0.02,
at most 200,000 positions) is written apart as the held-out set, which train.py's --held-out
reads for its early stop. The same seed gives the same files. Prints the counts.
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
    parts = []
    for p in args.data:
        try:
            raw = np.fromfile(p, dtype=np.uint8)
        except OSError as e:
            print(f'shuffle.py: cannot read {p}: {e}', file=sys.stderr)
            return 2
        whole = len(raw) // RECORD * RECORD   # a shard cut mid-record by a kill: its last
        parts.append(raw[:whole].reshape(-1, RECORD))   # whole record is kept
    rec = np.concatenate(parts)
    if len(rec) == 0:
        print('shuffle.py: no positions', file=sys.stderr)
        return 2
    keys = rec[:, :8].copy().view('<u8').ravel()
    _, first = np.unique(keys, return_index=True)
    rec = rec[np.sort(first)]
    rec = rec[np.random.default_rng(args.seed).permutation(len(rec))]
    held = min(200000, max(1, int(len(rec) * args.held_out_share)))
    rec[:held].tofile(args.held_out)
    rec[held:].tofile(args.output)
    print(f'shuffle.py: {sum(len(p) for p in parts)} records, {len(rec)} distinct positions: '
          f'{len(rec) - held} to {args.output}, {held} held out to {args.held_out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
