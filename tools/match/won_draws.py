#!/usr/bin/python3
"""tools/match/won_draws.py: how many games drawn by the move-count rule (SPEC 7, 22) were
"won": one side's last N reported scores all at or above CP (issue 20's measure of endings
that the engine failed to convert).

    won_draws.py RECORDS.pgn... [--last N] [--cp CP]     (defaults 5 and 300)

Reads klinzha-match records (-pgnout): the Termination tag and the move comments
`{+3.12/10 0.101s}` (score for the mover in pawns). Prints: games, draws by the move-count
rule, of them "won" ones, and the share. Errors: an unreadable file raises OSError.
"""
import argparse
import re

SCORE = re.compile(r'\{([+-]\d+\.\d+)/\d+ ')


def games(path):
    text = open(path, encoding='utf-8').read()
    for chunk in re.split(r'\n(?=\[Event )', text):
        if '[Termination' in chunk:
            yield chunk


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records', nargs='+')
    ap.add_argument('--last', type=int, default=5)
    ap.add_argument('--cp', type=int, default=300)
    a = ap.parse_args()
    total = draws = won = 0
    for path in a.records:
        for g in games(path):
            total += 1
            term = re.search(r'\[Termination "([^"]*)"\]', g).group(1)
            if 'moves-each rule' not in term:
                continue
            draws += 1
            movetext = g.split('{play}', 1)[-1]
            scores = [float(s) * 100 for s in SCORE.findall(movetext)]
            # Alternate movers in two-player games: the side to move first in play takes the
            # even entries.
            sides = [scores[0::2], scores[1::2]]
            if any(len(s) >= a.last and min(s[-a.last:]) >= a.cp for s in sides):
                won += 1
    share = won / draws if draws else 0.0
    print(f'games {total}  move-count draws {draws}  with a side at >= {a.cp} cp for its '
          f'last {a.last} moves {won} ({100 * share:.0f}%)')


if __name__ == '__main__':
    main()
