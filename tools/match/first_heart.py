#!/usr/bin/python3
"""tools/match/first_heart.py: in three-player games, who took the first heart and who won
after it (issue 28's measure of where a build's share of wins comes from).

    first_heart.py RECORDS.pgn... [--klinzha PATH]     (default build/release/klinzha)

In Romulan Heart the player whose heart is taken is out and its men pass to the capturer
(SPEC 7, RH 5.1), so the first heart capture of a game mostly decides it. Each record of a
three-player klinzha-match file (-pgnout) is replayed by `klinzha replay` (SPEC 10's position
strings, one a ply); the first play ply after which a colour's field is empty is the first
elimination, its mover the capturer (a player put out by having no legal move counts as
taken by the player whose ply left it so; a flag fall, which no ply shows, is not seen).

Prints, per engine and seat kind (one seat against two of another engine, two seats, or
all), the games where it took the first heart and how they ended for it (won-drawn-lost: the
conversion), where its seat was taken first, and where the two others met first (and how
those ended for it); then the games without an elimination. Errors: an unreadable file
raises OSError; a klinzha that cannot be run ends the program with a message (exit 1); a
record that `klinzha replay` rejects is counted as skipped.
"""
import argparse
import re
from collections import defaultdict

from won_draws import games as records  # the records of a file, one string each
from won_draws import replay

SEATS = ('Green', 'Blue', 'Black')


def first_elimination(record, klinzha):
    """(capturer seat, victim seat) of the first elimination in play, None if none, or
    'skip' when the record does not replay."""
    positions = replay(record, klinzha, 'first_heart.py')
    if positions is None:
        return 'skip'
    prev = None
    for f in positions:
        if f[1] != '3':
            continue
        if prev is not None and prev[6] == 'play':
            for i in range(3):
                if prev[2 + i] != '-' and f[2 + i] == '-':
                    return 'gbk'.index(prev[5]), i
        prev = f
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records', nargs='+')
    ap.add_argument('--klinzha', default='build/release/klinzha')
    a = ap.parse_args()
    # stats[(engine, kind)][event] = [won, drawn, lost]
    stats = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    skipped = 0
    for path in a.records:
        for g in records(path):
            tags = [re.search(r'\[%s "([^"]*)"\]' % s, g) for s in SEATS]
            players = re.search(r'\[Players "(\d)"\]', g)
            if not all(tags) or not players or players.group(1) != '3':
                continue
            names = [t.group(1) for t in tags]
            result = re.search(r'\[Result "([^"]*)"\]', g).group(1).split('-')
            first = first_elimination(g, a.klinzha) if len(result) == 3 else 'skip'
            if first == 'skip':
                skipped += 1
                continue
            for seat, name in enumerate(names):
                kind = {1: 'one seat', 2: 'two seats', 3: 'three seats'}[names.count(name)]
                if first is None:
                    event = 'no heart taken'
                elif first[0] == seat:
                    event = 'took the first heart'
                elif first[1] == seat:
                    event = 'its heart taken first'
                else:
                    event = 'the two others first'
                outcome = 0 if result[seat] == '1' else 2 if result[seat] == '0' else 1
                for k in (kind, 'all seats'):
                    stats[(name, k)][event][outcome] += 1
    events = ('took the first heart', 'its heart taken first', 'the two others first',
              'no heart taken')
    for (name, kind), ev in sorted(stats.items()):
        seats = sum(sum(v) for v in ev.values())
        parts = []
        for e in events:
            w, d, l = ev[e]
            n = w + d + l
            if n:
                parts.append(f'{e} {n} ({100 * n / seats:.0f}%; won-drawn-lost {w}-{d}-{l})')
        print(f'{name}, {kind}: {seats} seats: ' + '; '.join(parts))
    if skipped:
        print(f'skipped {skipped} records that did not replay')


if __name__ == '__main__':
    main()
