#!/usr/bin/python3
"""tools/match/blind_hunt_starts.py: a benchmark of the Blind engine's long hunts (issue 28;
SPEC 25): two-player records cut where a long hunt began, and runs played from them compared.

    blind_hunt_starts.py cut RECORDS.pgn... -o STARTS.pgn [--min MOVES | --reduced | --late]
                         [--late-from PLIES] [--late-reach PLIES] [--engine NAME] [--klinzha PATH]
    blind_hunt_starts.py compare STARTS.pgn RUN.pgn [RUN2.pgn] [--engine NAME] [--klinzha PATH]
    blind_hunt_starts.py compare STARTS.pgn RUN.pgn... --vs RUN.pgn... [--engine NAME] ...
    (defaults: --min 25, NAME blind, PATH build/release/klinzha)

`cut` writes to STARTS.pgn each record of NAME's two-player games that NAME won after a hunt
of MOVES or more of its moves, or that was drawn by the move count with the opposing heart
alone (blind_hunts.py's hunt: the last stretch of play in which the heart stood alone), cut
at the ply where that stretch began: the record's tags (Result `*`, Termination
`unterminated`, Round
`<file>:<round>`, the hunt's length in a HuntMoves tag), its setup and play to that ply.
With --reduced instead, each record of NAME's two-player games (any result) in which NAME's
army fell to pawns and walls during play (blind_hunts.py's "armies reduced to pawns and
walls": no queen, rook, bishop or knight), cut at the first such ply while the game was still
on, the ply in a Reduced tag (issue 28's thirty-eighth round: the draws' main companion).
With --late instead, each record of NAME's two-player games (any result) in which a stretch of
play without a capture reached --late-reach plies (default 60: the last 20 moves of each player
before the move-count draw, SPEC 7, where the engine weighs a capture that starts the count
again, BlindSearch::kResetMoves), cut at the ply of that stretch with --late-from (default 40)
plies since its last capture, the ply in a Late tag (issue 28's forty-third round: a benchmark
of the games the move count threatens, where about one in eight of the own seat's games ends
drawn; --late-from must be at least 1 and less than --late-reach, else an error, exit 2).
Prints how many it wrote.

A run is klinzha-match played from those openings, one pair of games per opening in the
file's order (`-openings file=STARTS.pgn plies=100000 order=sequential -games 2N`, N the
openings; under Blind the referee plays each opening's moves as the arbiter,
docs/match.md): game k (its Round tag) starts from opening (k - 1) // 2, NAME in the record's
own seat in one game of the pair (the hard hunt) and in the other seat in the other.

`compare` prints per run and seat: games, won-drawn-lost, and the hunts (each won game's
hunt; a move-count draw counts 100) with their mean and how many took 25 and 50 moves or
more. With two runs, the own-seat games opening by opening: the second run's hunt (a draw
100, a loss 150) against the first's, and the Wilcoxon signed-rank z (above 0: the second
hunts longer).
With --vs, two groups of runs (the runs before it and those after it, each any number, as of
two builds): the own seat's move-count draws opening by opening, each group's count, and the
Cochran-Mantel-Haenszel z of the first group's draws against the second's, the openings as
strata (above 0: the first group draws more); then the same for the swapped seat (NAME
hunting with the other side's army, the random player holding NAME's: on a late benchmark
cut from games at `-tc 1+0.01` it drew a quarter of its games, issue 28's forty-seventh
round). The draws of a late benchmark crowd on a few openings, drawn in nearly every run,
while most are never drawn (issue 28's forty-fourth round), so a group's count varies less
than a binomial count would, and the z, which compares the groups within each opening, tells
builds apart with fewer runs.

Errors: an unreadable file raises OSError; a run whose Round tags name no opening of STARTS
ends the program with a message (exit 2); a klinzha that cannot be run ends it (exit 1).
"""
import argparse
import math
import re
import sys

from blind_hunts import HUNT_CAP, first_reduced, hunt, lone_stretch
from won_draws import games, replay, tag, two_player

LOST = 150  # a lost game's weight in the paired comparison (our moves; a draw is HUNT_CAP)
LATE_FROM, LATE_REACH = 40, 60  # cut --late's defaults: plies since the last capture (SPEC 10)
MOVE_NUMBER = re.compile(r'^\d+\.+$')
RESULTS = ('1-0', '0-1', '1/2-1/2', '*')


def cut_record(record, plies, name, moves, label='HuntMoves'):
    """The record cut after its first `plies` moves (comments dropped), Result `*`, Round
    `name`, a tag `label` (HuntMoves by default) holding `moves`."""
    head, body = record.split('\n\n', 1)
    tokens = [t for t in re.sub(r'\{[^}]*\}', ' ', body).split()
              if not MOVE_NUMBER.match(t) and t not in RESULTS]
    head = re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', head)
    head = re.sub(r'\[Termination "[^"]*"\]', '[Termination "unterminated"]', head)
    head = re.sub(r'\[Round "[^"]*"\]', f'[Round "{name}"]', head)
    head = re.sub(r'\[PlyCount "[^"]*"\]', f'[PlyCount "{plies}"]', head)
    return f'{head}\n[{label} "{moves}"]\n\n{" ".join(tokens[:plies])} *\n\n'


def cut(a):
    written = 0
    with open(a.output, 'w') as out:
        for path in a.records:
            for r in games(path):
                seats = [tag(r, 'Green'), tag(r, 'Blue')]
                if not two_player(r) or a.engine not in seats:
                    continue
                me = seats.index(a.engine)
                name = f'{path.split("/")[-1]}:{tag(r, "Round")}'
                if a.reduced:
                    written += cut_reduced(r, me, name, a.klinzha, out)
                    continue
                if a.late:
                    written += cut_late(r, name, a.klinzha, out, a.late_from, a.late_reach)
                    continue
                result = tag(r, 'Result')
                won = result == ('1-0' if me == 0 else '0-1')
                count_draw = result == '1/2-1/2' and 'moves-each' in tag(r, 'Termination')
                if not won and not count_draw:
                    continue
                positions = replay(r, a.klinzha, 'blind_hunt_starts.py')
                start = lone_stretch(positions, 1 - me) if positions else None
                if start is None:
                    continue
                h = hunt(positions, me)
                if h < a.min and not count_draw:
                    continue
                out.write(cut_record(r, start, name, h))
                written += 1
    print(f'{written} openings written to {a.output}')


def cut_reduced(record, me, name, klinzha, out):
    """Writes record (colour index me NAME's) to out cut at the first ply of play at which
    NAME had no queen, rook, bishop or knight, when the game went on from there (a Reduced tag
    holding the ply); returns 1 when written, else 0."""
    positions = replay(record, klinzha, 'blind_hunt_starts.py')
    i = first_reduced(positions or [], me)
    if i is None or i >= len(positions) - 1:
        return 0
    out.write(cut_record(record, i, name, i, 'Reduced'))
    return 1


def late_ply(positions, late_from=LATE_FROM, late_reach=LATE_REACH):
    """The index of the position of play with `late_from` plies since the last capture (the
    halfmove field of SPEC 10) in the first stretch that reaches `late_reach`; None when none
    does."""
    start = None
    for i, p in enumerate(positions):
        if p[6] != 'play':
            continue
        count = int(p[7])
        if count == 0:
            start = None
        elif count == late_from:
            start = i
        elif count >= late_reach and start is not None:
            return start
    return None


def cut_late(record, name, klinzha, out, late_from=LATE_FROM, late_reach=LATE_REACH):
    """Writes record to out cut at late_ply() (a Late tag holding the ply); returns 1 when
    written, else 0."""
    i = late_ply(replay(record, klinzha, 'blind_hunt_starts.py') or [], late_from, late_reach)
    if i is None:
        return 0
    out.write(cut_record(record, i, name, i, 'Late'))
    return 1


def read_run(path, own_seats, engine, klinzha):
    """Per seat kind ('own', 'swapped'): {opening index: (outcome W/D/L, hunt)}."""
    out = {'own': {}, 'swapped': {}}
    for r in games(path):
        k = int(tag(r, 'Round') or 0) - 1
        if not 0 <= k // 2 < len(own_seats):
            sys.stderr.write(f'blind_hunt_starts.py: {path}: round {k + 1} names no opening\n')
            sys.exit(2)
        seats = [tag(r, 'Green'), tag(r, 'Blue')]
        if engine not in seats:
            continue
        me = seats.index(engine)
        result = tag(r, 'Result')
        outcome = 'D' if result == '1/2-1/2' else 'W' if result == ('1-0', '0-1')[me] else 'L'
        positions = replay(r, klinzha, 'blind_hunt_starts.py') if outcome == 'W' else None
        h = hunt(positions, me) if positions else 0
        kind = 'own' if seats[own_seats[k // 2]] == engine else 'swapped'
        count_draw = outcome == 'D' and 'moves-each' in tag(r, 'Termination')
        out[kind][k // 2] = (outcome, h, count_draw)
    return out


def weight(game):
    """A game's hunt for the comparison: the hunt when won, HUNT_CAP drawn, LOST lost."""
    outcome, h = game[:2]
    return h if outcome == 'W' else HUNT_CAP if outcome == 'D' else LOST


def signed_rank_z(diffs):
    """Wilcoxon signed-rank z of paired differences (zeros dropped, tied |d| get their mean
    rank, normal approximation); 0 when none differ."""
    d = sorted((x for x in diffs if x), key=abs)
    if not d:
        return 0.0
    rank, i = {}, 0
    while i < len(d):
        j = i
        while j < len(d) and abs(d[j]) == abs(d[i]):
            j += 1
        rank[abs(d[i])] = (i + j + 1) / 2
        i = j
    w = sum(rank[abs(x)] * (1 if x > 0 else -1) for x in d)
    n = len(d)
    return w / math.sqrt(n * (n + 1) * (2 * n + 1) / 6)


def cmh_z(strata):
    """Cochran-Mantel-Haenszel z of 2x2 tables, one a stratum: (a, n1, b, n2), a events of n1
    in the first group and b of n2 in the second. Each stratum's a against its expectation
    given the stratum's events, n1 m / N (m = a + b, N = n1 + n2), over the square root of the
    summed hypergeometric variances n1 n2 m (N - m) / (N^2 (N - 1)); 0 when no stratum varies."""
    diff = var = 0.0
    for a, n1, b, n2 in strata:
        n, m = n1 + n2, a + b
        if n1 == 0 or n2 == 0 or n < 2:
            continue
        diff += a - n1 * m / n
        var += n1 * n2 * m * (n - m) / (n * n * (n - 1))
    return diff / math.sqrt(var) if var > 0 else 0.0


def compare_groups(first, second, names, seat='own'):
    """Prints one seat's ('own' or 'swapped') move-count draws of two groups of runs opening by
    opening."""
    def tally(runs):
        t = {}
        for run in runs:
            for k, game in run[seat].items():
                draws, n = t.get(k, (0, 0))
                t[k] = (draws + game[2], n + 1)
        return t
    a, b = tally(first), tally(second)
    keys = sorted(set(a) & set(b))
    strata = [a[k] + b[k] for k in keys]
    drawn_a, n_a = sum(x[0] for x in strata), sum(x[1] for x in strata)
    drawn_b, n_b = sum(x[2] for x in strata), sum(x[3] for x in strata)
    differ = sum(1 for x in strata if x[0] * x[3] != x[2] * x[1])
    print(f'{seat} seat, move-count draws opening by opening ({len(keys)} openings): '
          f'{names[0]} {drawn_a} of {n_a} ({100.0 * drawn_a / max(1, n_a):.1f}%), '
          f'{names[1]} {drawn_b} of {n_b} ({100.0 * drawn_b / max(1, n_b):.1f}%); '
          f'openings whose rates differ {differ}; Cochran-Mantel-Haenszel z {cmh_z(strata):+.2f}')


def report(path, run):
    for kind in ('own', 'swapped'):
        g = list(run[kind].values())
        if not g:
            continue
        h = [min(weight(x), HUNT_CAP) for x in g if x[0] != 'L']
        count = {o: sum(x[0] == o for x in g) for o in 'WDL'}
        mean = sum(h) / len(h) if h else 0.0
        print(f"{path}, {kind} seat: games {len(g)}, won-drawn-lost {count['W']}-{count['D']}-"
              f"{count['L']}; hunts {len(h)}, mean {mean:.2f}, 25 or more "
              f"{sum(x >= 25 for x in h)}, 50 or more {sum(x >= 50 for x in h)}")


def compare(a):
    own_seats = []
    for r in games(a.starts):
        own_seats.append([tag(r, 'Green'), tag(r, 'Blue')].index(a.engine))
    runs = [read_run(p, own_seats, a.engine, a.klinzha) for p in a.runs + a.vs]
    for path, run in zip(a.runs + a.vs, runs):
        report(path, run)
    if a.vs:
        for seat in ('own', 'swapped'):
            compare_groups(runs[:len(a.runs)], runs[len(a.runs):], ('the runs', 'the --vs runs'),
                           seat)
    elif len(runs) == 2:
        first, second = runs[0]['own'], runs[1]['own']
        keys = sorted(set(first) & set(second))
        diffs = [weight(second[k]) - weight(first[k]) for k in keys]
        print(f'own seat, opening by opening: {len(keys)} openings, the second run longer in '
              f'{sum(d > 0 for d in diffs)}, shorter in {sum(d < 0 for d in diffs)}; '
              f'signed-rank z {signed_rank_z(diffs):+.2f}')


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='command', required=True)
    c = sub.add_parser('cut')
    c.add_argument('records', nargs='+')
    c.add_argument('-o', '--output', required=True)
    kind = c.add_mutually_exclusive_group()
    kind.add_argument('--min', type=int, default=25)
    kind.add_argument('--reduced', action='store_true')
    kind.add_argument('--late', action='store_true')
    c.add_argument('--late-from', type=int, default=LATE_FROM)
    c.add_argument('--late-reach', type=int, default=LATE_REACH)
    m = sub.add_parser('compare')
    m.add_argument('starts')
    m.add_argument('runs', nargs='+')
    m.add_argument('--vs', nargs='+', default=[])
    for p in (c, m):
        p.add_argument('--engine', default='blind')
        p.add_argument('--klinzha', default='build/release/klinzha')
    a = ap.parse_args()
    if a.command == 'compare' and len(a.runs) > 2 and not a.vs:
        ap.error('compare: one or two runs, or groups of runs with --vs')
    if a.command == 'cut' and not 1 <= a.late_from < a.late_reach:
        ap.error('cut: --late-from must be at least 1 and less than --late-reach')
    (cut if a.command == 'cut' else compare)(a)


if __name__ == '__main__':
    main()
