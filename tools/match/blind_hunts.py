#!/usr/bin/python3
"""tools/match/blind_hunts.py: how long a blind engine hunted the opponent's lone heart
(issue 28's measure of the Blind hunt, SPEC 25), per set of two-player records, and whether
one set's hunts are longer than another's.

    blind_hunts.py RECORDS.pgn... [--vs RECORDS.pgn...] [--engine NAME] [--klinzha PATH]
                   [--pieces-after N]  (defaults: NAME blind, PATH build/release/klinzha, N 10)

Each record of a two-player klinzha-match file (-pgnout) in which the engine NAME played is
replayed by `klinzha replay` (SPEC 10's position strings, one a ply). A game NAME won by
taking the heart counts one hunt: NAME's moves in the last stretch of play in which the
opponent's heart stood with no man of its own on its cell (a heart standing alone never
moves, SPEC 4), up to the capture; 0 when it was taken carried. A game drawn by the move
count (SPEC 7) counts as the longest hunt (HUNT_CAP moves in the mean). Lost games, and other
draws, count no hunt.

Prints, per set: games, won-lost-drawn and the move-count draws; hunts, their mean (a
move-count draw as HUNT_CAP), and how many took 25 moves or more, and 50 or more; then the
same hunts (a move-count draw whose game ends with the heart alone among them; a heart taken
carried left out) by the last time one of NAME's men stood on the heart's cell before the
heart came there (never; 1-10, 11-40 or 41 or more plies before): a heart carried onto a cell
the hunt counts explored (BlindSearch::kExploreWindow) is hunted longer (issue 28's
twenty-second round); then the
games in which NAME's army fell, at some position of play, to pawns and walls (no queen,
rook, bishop or knight: slow hunters; half the move-count draws of issue 28's nineteenth
round), with their won-lost-drawn and move-count draws; then the games that lasted N moves of
NAME's in play by NAME's queens, rooks, bishops and knights after its N-th move (the pieces
that hunt; 0 to 5), with their mean and, per count, won-lost-drawn and the move-count draws
(issue 28's thirty-second round: the fewer left early, the more draws). With --vs,
also the rank-sum (Mann-Whitney) z of the first set's hunts against the second's, ties
shared, normal approximation: above 0 when the first set's hunts are longer. Errors: an
unreadable file raises OSError; a klinzha that cannot be run ends the program with a message
(exit 1); a record that `klinzha replay` rejects is counted as skipped.
"""
import argparse
import math

from won_draws import games as records  # the records of a file, one string each
from won_draws import heart as heart_of, men as men_of, replay, tag, two_player

HUNT_CAP = 100  # a move-count draw's weight in the mean (our moves)
DRAWN = 10**6  # a move-count draw's hunt, longer than any played



def lone_stretch(positions, opp):
    """The first position of the last stretch of play to the game's end in which colour index
    opp's heart stood alone (no man of its own on its cell), None when it ends carried or out
    of play."""
    start = None
    for i, p in enumerate(positions):
        heart, carried = heart_of(p[2 + opp])
        if not heart or p[6] != 'play':
            continue
        if carried:
            start = None
        elif start is None:
            start = i
    return start


def hunt(positions, me):
    """Our (colour index me) moves in the last lone-heart stretch before the game's end."""
    start = lone_stretch(positions, 1 - me)
    if start is None:
        return 0
    return sum(1 for i in range(start + 1, len(positions))
               if positions[i - 1][5] == 'gb'[me])


STANDS = ((0, 'never'), (10, '1-10 plies'), (40, '11-40 plies'), (None, '41+ plies'))


def last_stand(positions, me):
    """The plies between the last position at which one of our (colour index me) men stood on
    the cell of the opponent's heart's last lone stretch and the ply the heart came to that
    cell: 0 when none of ours stood there before, None when the game ends with no lone
    stretch (the heart carried, or none in play)."""
    opp = 1 - me
    start = lone_stretch(positions, opp)
    if start is None:
        return None
    cell = heart_of(positions[start][2 + opp])[0]
    came = start
    while came > 0 and heart_of(positions[came - 1][2 + opp])[0] == cell:
        came -= 1
    stood = [i for i in range(came)
             if any(m[0] != 'H' and m[1:] == cell for m in men_of(positions[i][2 + me]))]
    return came - stood[-1] if stood else 0


def stand_bucket(gap):
    """The STANDS label of last_stand()'s gap (not None)."""
    for bound, label in STANDS:
        if bound is None or gap <= bound:
            return label


def hunters(field):
    """The queens, rooks, bishops and knights of a position string's colour field."""
    return sum(1 for m in men_of(field) if m[0] in 'QRBN')


def first_reduced(positions, me):
    """The index of the first position of play at which colour index me had no queen, rook,
    bishop or knight; None when there is none."""
    return next((i for i, p in enumerate(positions)
                 if p[6] == 'play' and hunters(p[2 + me]) == 0), None)


def pawns_and_walls(positions, me):
    """Whether at some position of play colour index me had no queen, rook, bishop or knight."""
    return first_reduced(positions, me) is not None


def pieces_after(positions, me, moves):
    """Colour index me's queens, rooks, bishops and knights in the position after its
    `moves`-th move in play; None when the game ends before."""
    made = 0
    for i in range(1, len(positions)):
        before = positions[i - 1]
        if before[6] == 'play' and before[5] == 'gb'[me]:
            made += 1
            if made == moves:
                return hunters(positions[i][2 + me])
    return None


def tally(row, outcome, count_draw):
    """Counts one game in row ({'W','L','D','C'}): its outcome, and C when drawn by the move
    count."""
    row[outcome] += 1
    row['C'] += count_draw


def read_set(paths, engine, klinzha, moves=10):
    """{'won','lost','drawn','count_draws','skipped','reduced','pieces'} and the hunts of the
    records in paths; 'reduced' counts the games whose army fell to pawns and walls by result
    (W, L, D) and the move-count draws among them (C); 'pieces' the same per count of our
    pieces after our `moves`-th move in play (pieces_after)."""
    out = dict(won=0, lost=0, drawn=0, count_draws=0, skipped=0, hunts=[],
               reduced=dict(W=0, L=0, D=0, C=0), stands={label: [] for _, label in STANDS},
               pieces={}, moves=moves)
    for path in paths:
        for r in records(path):
            seats = [tag(r, 'Green'), tag(r, 'Blue')]
            if not two_player(r) or engine not in seats:
                continue
            me = seats.index(engine)
            result, term = tag(r, 'Result'), tag(r, 'Termination')
            won = result == ('1-0' if me == 0 else '0-1')
            outcome = 'D' if result == '1/2-1/2' else ('W' if won else 'L')
            out[dict(W='won', L='lost', D='drawn')[outcome]] += 1
            count_draw = outcome == 'D' and 'moves-each' in term
            if count_draw:
                out['count_draws'] += 1
                out['hunts'].append(DRAWN)
            positions = replay(r, klinzha, 'blind_hunts.py')
            if positions is None:
                out['skipped'] += 1
                continue
            if pawns_and_walls(positions, me):
                tally(out['reduced'], outcome, count_draw)
            left = pieces_after(positions, me, moves)
            if left is not None:
                tally(out['pieces'].setdefault(left, dict(W=0, L=0, D=0, C=0)), outcome,
                      count_draw)
            if (won and term == 'heart capture') or count_draw:
                h = DRAWN if count_draw else hunt(positions, me)
                if not count_draw:
                    out['hunts'].append(h)
                gap = last_stand(positions, me)
                if gap is not None:
                    out['stands'][stand_bucket(gap)].append(h)
    return out


def rank_sum_z(a, b):
    """Mann-Whitney z of sample a against b (ties get their mean rank); 0 when empty."""
    if not a or not b:
        return 0.0
    values = sorted(a + b)
    rank, i = {}, 0
    while i < len(values):
        j = i
        while j < len(values) and values[j] == values[i]:
            j += 1
        rank[values[i]] = (i + j + 1) / 2
        i = j
    n1, n2 = len(a), len(b)
    u = sum(rank[v] for v in a) - n1 * (n1 + 1) / 2
    return (u - n1 * n2 / 2) / math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)


def summary(h):
    """The mean of hunts h (a move-count draw as HUNT_CAP; 0 when none) and how many took 25
    moves or more, and 50 or more."""
    mean = sum(min(x, HUNT_CAP) for x in h) / len(h) if h else 0.0
    return mean, sum(x >= 25 for x in h), sum(x >= 50 for x in h)


def report(label, s):
    h = s['hunts']
    n = len(h)
    mean, long25, long50 = summary(h)
    games = s['won'] + s['lost'] + s['drawn']
    print(f"{label}: games {games}, won-lost-drawn {s['won']}-{s['lost']}-{s['drawn']} "
          f"(move-count draws {s['count_draws']}); hunts {n}, mean {mean:.2f} moves, "
          f"25 or more {long25} ({100 * long25 / max(n, 1):.1f}%), 50 or more {long50} "
          f"({100 * long50 / max(n, 1):.1f}%)" +
          (f"; skipped {s['skipped']}" if s['skipped'] else ''))
    parts = []
    for _, name in STANDS:
        h = s['stands'][name]
        mean, long25, long50 = summary(h)
        parts.append(f'{name} {len(h)}' + (
            f' (mean {mean:.1f}, 25 or more {long25}, 50 or more {long50})' if h else ''))
    print(f"{label}: lone hearts by our last stand on their cell before they came: "
          + '; '.join(parts))
    red = s['reduced']
    print(f"{label}: armies reduced to pawns and walls: games {red['W'] + red['L'] + red['D']}, "
          f"won-lost-drawn {red['W']}-{red['L']}-{red['D']} (move-count draws {red['C']})")
    rows = s['pieces']
    n = sum(r['W'] + r['L'] + r['D'] for r in rows.values())
    mean = sum(k * (r['W'] + r['L'] + r['D']) for k, r in rows.items()) / n if n else 0.0
    print(f"{label}: our pieces after {s['moves']} moves: games {n}, mean {mean:.2f}" + ''.join(
        f"; {k}: {r['W']}-{r['L']}-{r['D']} (move-count draws {r['C']})"
        for k, r in sorted(rows.items())))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records', nargs='+')
    ap.add_argument('--vs', nargs='+', default=[])
    ap.add_argument('--engine', default='blind')
    ap.add_argument('--klinzha', default='build/release/klinzha')
    ap.add_argument('--pieces-after', type=int, default=10, metavar='N')
    a = ap.parse_args()
    if a.pieces_after < 1:
        ap.error('--pieces-after must be at least 1')
    first = read_set(a.records, a.engine, a.klinzha, a.pieces_after)
    report('records', first)
    if a.vs:
        second = read_set(a.vs, a.engine, a.klinzha, a.pieces_after)
        report('--vs', second)
        z = rank_sum_z(first['hunts'], second['hunts'])
        print(f'rank-sum z of the hunts (above 0: the records hunt longer): {z:.2f}')


if __name__ == '__main__':
    main()
