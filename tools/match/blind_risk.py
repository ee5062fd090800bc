#!/usr/bin/python3
"""tools/match/blind_risk.py: how open a blind engine kept its heart against the random player
(issue 28; SPEC 25), measured as the heart losses it should expect, per set of two-player
records, and whether one set's are higher than another's.

    blind_risk.py RECORDS.pgn... [--vs RECORDS.pgn...] [--engine NAME] [--klinzha PATH]
                                  (defaults: NAME blind, PATH build/release/klinzha)

The random blind player (`--Baseline random`) proposes uniformly among the moves its view
allows and is refused the illegal ones, so the move it plays is uniform over the legal moves
of the whole position. At each of its turns in play, p = (its legal moves that end on the
heart of NAME) / (its legal moves); a game's chance of losing the heart to it is
P = 1 - prod(1 - p). The sum of P over a set's games is the number of heart losses the
engine's play would bring on average, with far less noise than the losses counted: the
random player's one draw per turn is replaced by its whole distribution. Heart losses
counted and by type of the man that could take it are printed beside.

Each record of a two-player klinzha-match file (-pgnout) in which NAME played is replayed by
`klinzha replay` (SPEC 10's position strings, one a ply), and each position where the
opponent moves in play is given to one `klinzha` process (`position fen`, `go perft 1`: a
line `<move>: 1` per legal move, docs/protocol.md); a move ends on the heart when its
destination (the move string less a trailing `h`) is the heart's cell.

Prints, per set: games, heart losses counted, the expected ones (sum of P) with the standard
error of that sum over games (sqrt(n) x the standard deviation of P), the opponent's turns
and the mean p per turn, the expected losses by the taker's piece letter (SPEC 2), and on a
second line, by the number of men the opponent had left (its heart aside), its turns, the
sum of p over them and that sum per 1,000 turns (a random mover with few men picks each of
them more often: issue 28's twentieth round, docs/search.md), and on a third the model's own
check: over the same turns, the moves onto the heart and the captures of our other men the
uniform choice expects (the sums of their shares) beside those the opponent played, each with
its binomial z (the played count less the expected, over the square root of the sum of
share x (1 - share)): a z far from 0 says the opponent does not choose as the model says
(issue 28's forty-third round). With
--vs, also z = (difference of the mean P per game) / (its standard error, Welch): above 0
when the first set's heart was more open. Errors: an unreadable file raises OSError; a
klinzha that cannot be run ends the program with a message (exit 1); a record that
`klinzha replay` rejects is counted as skipped.
"""
import argparse
import math
import subprocess

from won_draws import games as records  # the records of a file, one string each
from won_draws import heart as heart_of, men, replay, tag, two_player


class Perft:
    """One `klinzha` process answering `go perft 1` (the legal moves of a position)."""

    def __init__(self, klinzha):
        try:
            self.proc = subprocess.Popen([klinzha], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True, bufsize=1)
        except OSError as e:
            raise SystemExit(f'blind_risk.py: cannot run {klinzha} (--klinzha): {e.strerror}')
        self.send('uci')
        while 'uciok' not in self.read():
            pass

    def send(self, line):
        self.proc.stdin.write(line + '\n')
        self.proc.stdin.flush()

    def read(self):
        line = self.proc.stdout.readline()
        if line == '':
            raise SystemExit('blind_risk.py: klinzha ended unexpectedly')
        return line

    def moves(self, fen):
        """The legal moves of the position string fen (SPEC 10), as move strings."""
        self.send('position fen ' + fen)
        self.send('go perft 1')
        out = []
        while True:
            line = self.read()
            if line.startswith('Nodes searched'):
                return out
            if 'error' in line:
                raise SystemExit(f'blind_risk.py: klinzha: {line.strip()} (position {fen})')
            elif ':' in line and not line.startswith('info'):
                out.append(line.split(':')[0].strip())

    def close(self):
        self.send('quit')
        self.proc.wait()



def destination(move):
    """The cell a move string (SPEC 9) ends on: its last three characters, a trailing `h`
    (the heart carried along) aside."""
    return move.rstrip('h')[-3:]


def game_risk(positions, me, perft, by_type, by_men, check):
    """P = 1 - prod(1 - p) over the opponent's turns in play (colour index me is ours);
    also the turns and the sum of p. by_type (letter -> expected takes) and by_men (the
    opponent's men left, its heart aside -> [turns, sum of p]) are added to; so is check,
    the model's own test: per kind ('heart': a move onto our heart, 'man': one onto another
    of our men), [the sum of the shares, the sum of share x (1 - share), the moves played]."""
    opp = 1 - me
    survive, turns, total = 1.0, 0, 0.0
    for i, p in enumerate(positions[:-1]):
        if p[6] != 'play' or p[5] != 'gb'[opp]:
            continue
        heart = heart_of(p[2 + me])[0]
        if not heart:
            continue
        moves = perft.moves(' '.join(p[1:]))
        if not moves:
            continue
        takes = [m for m in moves if destination(m) == heart]
        share = len(takes) / len(moves)
        ours = {x[1:] for x in men(p[2 + me]) if x[0] != 'H' and x[1:] != heart}
        captures = sum(1 for m in moves if destination(m) in ours) / len(moves)
        played = destination(positions[i + 1][0])
        for kind, q, hit in (('heart', share, played == heart),
                             ('man', captures, played in ours)):
            sums = check.setdefault(kind, [0.0, 0.0, 0])
            sums[0] += q
            sums[1] += q * (1.0 - q)
            sums[2] += hit
        theirs = men(p[2 + opp])
        row = by_men.setdefault(sum(1 for x in theirs if x[0] != 'H'), [0, 0.0])
        row[0] += 1
        row[1] += share
        for m in takes:
            letter = next((x[0] for x in theirs if x[0] != 'H' and x[1:] == m[:3]), '?')
            by_type[letter] = by_type.get(letter, 0.0) + 1.0 / len(moves)
        survive *= 1.0 - share
        turns += 1
        total += share
    return 1.0 - survive, turns, total


def read_set(paths, engine, klinzha, perft):
    s = {'games': 0, 'lost': 0, 'skipped': 0, 'P': [], 'turns': 0, 'p': 0.0, 'type': {},
         'men': {}, 'check': {}}
    for path in paths:
        for g in records(path):
            if not two_player(g) or engine not in (tag(g, 'Green'), tag(g, 'Blue')):
                continue
            me = 0 if tag(g, 'Green') == engine else 1
            positions = replay(g, klinzha, 'blind_risk.py')
            if positions is None:
                s['skipped'] += 1
                continue
            s['games'] += 1
            if tag(g, 'Result') == ('0-1', '1-0')[me] and 'heart' in tag(g, 'Termination'):
                s['lost'] += 1
            P, turns, total = game_risk(positions, me, perft, s['type'], s['men'], s['check'])
            s['P'].append(P)
            s['turns'] += turns
            s['p'] += total
    return s


def mean_var(xs):
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), 0.0
    m = sum(xs) / n
    return m, sum((x - m) ** 2 for x in xs) / (n - 1)


def report(label, s):
    n = len(s['P'])
    _, var = mean_var(s['P'])
    types = ' '.join(f'{k} {v:.2f}' for k, v in sorted(s['type'].items()))
    skipped = f', skipped {s["skipped"]}' if s['skipped'] else ''
    print(f'{label}: games {s["games"]}{skipped}, heart losses {s["lost"]}, expected '
          f'{sum(s["P"]):.2f} +- {math.sqrt(n * var):.2f} '
          f'({100.0 * sum(s["P"]) / max(n, 1):.2f}% of games); opponent turns {s["turns"]}, '
          f'mean p {s["p"] / max(s["turns"], 1):.5f}; by taker: {types}')
    rows = '; '.join(f'{k} men {t} turns {e:.2f} ({1000.0 * e / t:.2f} per 1,000)'
                     for k, (t, e) in sorted(s['men'].items(), reverse=True))
    print(f'{label} by the opponent\'s men left (its heart aside): {rows}')
    checks = []
    for kind, words in (('heart', 'moves onto the heart'), ('man', 'captures of our other men')):
        expected, var, played = s['check'].get(kind, [0.0, 0.0, 0])
        z = (played - expected) / math.sqrt(var) if var > 0 else 0.0
        checks.append(f'{words} expected {expected:.2f}, played {played} (z {z:+.2f})')
    print(f'{label} model check (the opponent uniform over its legal moves): ' + '; '.join(checks))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('records', nargs='+')
    ap.add_argument('--vs', nargs='+', default=[])
    ap.add_argument('--engine', default='blind')
    ap.add_argument('--klinzha', default='build/release/klinzha')
    a = ap.parse_args()
    perft = Perft(a.klinzha)
    first = read_set(a.records, a.engine, a.klinzha, perft)
    report('records', first)
    if a.vs:
        second = read_set(a.vs, a.engine, a.klinzha, perft)
        report('--vs', second)
        m1, v1 = mean_var(first['P'])
        m2, v2 = mean_var(second['P'])
        se = math.sqrt(v1 / max(len(first['P']), 1) + v2 / max(len(second['P']), 1))
        z = (m1 - m2) / se if se > 0 else 0.0
        print(f'z of the expected losses per game (above 0: the records\' heart more open): '
              f'{z:.2f}')
    perft.close()


if __name__ == '__main__':
    main()
