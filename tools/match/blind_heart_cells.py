#!/usr/bin/python3
"""tools/match/blind_heart_cells.py: where the opponent's lone heart stood while a blind engine
hunted it, by the move count: the rate at which a free cell of each kind held it (issue 28's
measure of the hunt's prior, BlindSearch::hunt_values, SPEC 25).

    blind_heart_cells.py RECORDS.pgn... [--engine NAME] [--klinzha PATH]
                                        (defaults: NAME blind, PATH build/release/klinzha)

Each record of a two-player klinzha-match file (-pgnout) in which the engine NAME played is
replayed by `klinzha replay` (SPEC 10's position strings, one a ply). At each position of play
where NAME is to move and the opponent's heart stands alone (no man of its own on its cell,
SPEC 4), every free cell (no man of either side, in no wall's zone: SPEC 4 and 5 keep a heart
off both) is counted once in its kind, and as a hit when the heart stands there. A cell's kind:
its steps from the nearest cell of the opponent's region (docs/rules.md; 6 for 6 or more) when
none of NAME's men has stood on it in the game so far, or for a cell of the region that one
has, how many plies ago one last stood there (under 40, 40 to 79, 80 or more).

Prints, per bucket of the halfmove (plies since the last capture, SPEC 7: 0-14, 15-29, 30-59,
60 or more): the positions, then per kind the cells, the hits, the rate (hits / cells) and the
rate over that of the region's cells never stood on ("rel"), the prior's measure. Errors: an
unreadable file raises OSError; a klinzha that cannot be run ends the program with a message
(exit 1); a record that `klinzha replay` rejects is counted as skipped.
"""
import argparse
import collections

from won_draws import games as records  # the records of a file, one string each
from won_draws import heart as heart_of, men, replay, tag, two_player

BUCKETS = (0, 15, 30, 60)  # halfmove buckets' lower bounds, plies
FAR = 6  # steps counted together from here on
AGES = ((40, '<40'), (80, '40-79'), (None, '80+'))  # plies since one of ours stood there


def cell_names():
    """The 81 cell names (docs/rules.md: row letter, the two column numbers smaller first)."""
    out = []
    for r in range(1, 10):
        for a in range(1, 10):
            for b in range(a, 10):
                u, v, w = 9 - r, a - 1, 9 - b
                if u + v + w in (7, 8):
                    out.append(f'{chr(96 + r)}{a}{b}')
    return out


CELLS = cell_names()
COORDS = {c: (9 - (ord(c[0]) - 96), int(c[1]) - 1, 9 - int(c[2])) for c in CELLS}
BY_COORDS = {v: k for k, v in COORDS.items()}


def neighbours(cell):
    """The cells sharing an edge with cell (docs/rules.md, strip coordinates)."""
    u, v, w = COORDS[cell]
    d = -1 if u + v + w == 8 else 1
    return [BY_COORDS[t] for t in ((u + d, v, w), (u, v + d, w), (u, v, w + d)) if t in BY_COORDS]


def region(cell):
    """'g', 'b', 'k' or '.' (a separator): where the cell's largest coordinate is alone."""
    u, v, w = COORDS[cell]
    top = max(u, v, w)
    if [u, v, w].count(top) > 1:
        return '.'
    return 'g' if v == top else ('b' if w == top else 'k')


def steps_from(colour):
    """Per cell, the steps to the nearest cell of colour's region (breadth first)."""
    dist = {c: 0 for c in CELLS if region(c) == colour}
    frontier = list(dist)
    while frontier:
        nxt = []
        for c in frontier:
            for n in neighbours(c):
                if n not in dist:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


STEPS = {c: steps_from(c) for c in 'gb'}


def kind(cell, opp, last, ply):
    """The kind of a free cell (module comment) at position index ply."""
    d = min(STEPS[opp][cell], FAR)
    if cell not in last:
        return f'{d} steps, never stood on'
    if d > 0:
        return None  # stood on, out of the region: not counted
    ago = ply - last[cell]
    label = next(name for limit, name in AGES if limit is None or ago < limit)
    return f'region, stood on {label} plies ago'


def count_game(positions, me, tally):
    """Adds one record's positions (NAME is colour index me) to tally[bucket][kind]."""
    opp = 1 - me
    last = {}  # cell -> the last position index one of our men stood there
    for i, p in enumerate(positions):
        ours = men(p[2 + me])
        for m in ours:
            if m[0] != 'H':
                last[m[1:]] = i
        if p[6] != 'play' or p[5] != 'gb'[me]:
            continue
        theirs = men(p[2 + opp])
        heart, carried = heart_of(p[2 + opp])
        if not heart or carried:
            continue
        bucket = max(b for b in BUCKETS if int(p[7]) >= b)
        tally[bucket]['positions'][0] += 1
        taken = {m[1:] for m in ours + theirs if m[0] != 'H'}
        walls = [m[1:] for m in ours + theirs if m[0] == 'W']
        zones = {n for w in walls for n in neighbours(w)}
        for c in CELLS:
            if c in taken or c in zones:
                continue
            k = kind(c, 'gb'[opp], last, i)
            if k is None:
                continue
            tally[bucket][k][0] += 1
            tally[bucket][k][1] += c == heart


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('records', nargs='+')
    ap.add_argument('--engine', default='blind')
    ap.add_argument('--klinzha', default='build/release/klinzha')
    args = ap.parse_args()
    tally = {b: collections.defaultdict(lambda: [0, 0]) for b in BUCKETS}
    skipped = 0
    for path in args.records:
        for r in records(path):
            seats = [tag(r, 'Green'), tag(r, 'Blue')]
            if not two_player(r) or args.engine not in seats:
                continue
            positions = replay(r, args.klinzha, 'blind_heart_cells.py')
            if not positions:
                skipped += 1
                continue
            count_game(positions, seats.index(args.engine), tally)
    for i, b in enumerate(BUCKETS):
        top = f'-{BUCKETS[i + 1] - 1}' if i + 1 < len(BUCKETS) else ' or more'
        t = tally[b]
        print(f'halfmove {b}{top}: positions {t["positions"][0]}')
        base = t.get('0 steps, never stood on', [0, 0])
        base_rate = base[1] / base[0] if base[0] else 0.0
        order = [f'{d} steps, never stood on' for d in range(FAR + 1)]
        order += [f'region, stood on {name} plies ago' for _, name in AGES]
        for k in (x for x in order if x in t):
            cells, hits = t[k]
            rate = hits / cells if cells else 0.0
            rel = f'{rate / base_rate:.2f}' if base_rate else '-'
            print(f'  {k}: cells {cells}, hits {hits}, rate {rate:.4f}, rel {rel}')
    if skipped:
        print(f'skipped {skipped}')


if __name__ == '__main__':
    main()
