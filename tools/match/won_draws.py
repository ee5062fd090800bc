#!/usr/bin/python3
"""tools/match/won_draws.py: how many games drawn by the move-count rule (SPEC 7, 22) were
"won": the median of one side's last N reported scores at or above CP (issue 20's measure of
endings that the engine failed to convert: the score stays high while the engine shuffles and
falls to 0 only in the last moves, when the rule enters the horizon).

    won_draws.py RECORDS.pgn... [--last N] [--cp CP]     (defaults 20 and 300)

Reads klinzha-match records (-pgnout): the Termination tag and the move comments
`{+3.12/10 0.101s}` (score for the mover in pawns). Prints: games, draws by the move-count
rule, of them "won" ones, and the share. Errors: an unreadable file raises OSError.

games() (the records of a file), tag() (a record's PGN tag), two_player() (whether it is a
two-player game), replay() (a record's positions by `klinzha replay`), men() (a colour
field's men) and heart() (where its heart stands, and whether carried) serve first_heart.py, blind_hunts.py,
blind_risk.py, blind_heart_cells.py and blind_trace.py too.
"""
import argparse
import re
import subprocess

SCORE = re.compile(r'\{([+-]\d+\.\d+)/\d+ ')


def games(path):
    text = open(path, encoding='utf-8').read()
    for chunk in re.split(r'\n(?=\[Event )', text):
        if '[Termination' in chunk:
            yield chunk


def tag(record, name):
    """The value of the PGN tag `name` in one record, '' when it has none."""
    m = re.search(r'\[%s "([^"]*)"\]' % name, record)
    return m.group(1) if m else ''


def two_player(record):
    """Whether one record is of a two-player game: its Players tag is 2, or it has none
    (a record without it is read as two players, the game's default; klinzha-match writes
    the tag in every record)."""
    return tag(record, 'Players') in ('', '2')


def replay(record, klinzha, tool):
    """The position lines of `klinzha replay` on one record, each split in its nine fields
    ('<move> <players> <green> <blue> <black> <to move> <phase> <halfmove> <fullmove>', SPEC
    10), or None when klinzha rejects the record. A klinzha that cannot be run ends the
    program with a message naming `tool` (exit 1)."""
    try:
        run = subprocess.run([klinzha, 'replay', '-'], input=record, capture_output=True,
                             text=True)
    except OSError as e:
        raise SystemExit(f'{tool}: cannot run {klinzha} (--klinzha): {e.strerror}')
    if run.returncode != 0:
        return None
    return [f for f in (line.split() for line in run.stdout.splitlines()) if len(f) == 9]


def men(field):
    """The men of one colour field of a position string (SPEC 10: 'Hi99,Qi67,...' or '-'),
    each '<letter><cell>'; [] for '-'."""
    return [] if field == '-' else field.split(',')


def heart(field):
    """Where the heart of one colour field stands and whether a man of its colour stands on
    it (carried, SPEC 4): (cell, carried), (None, False) when the field has no heart."""
    ms = men(field)
    cell = next((m[1:] for m in ms if m[0] == 'H'), None)
    return cell, cell is not None and any(m[0] != 'H' and m[1:] == cell for m in ms)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records', nargs='+')
    ap.add_argument('--last', type=int, default=20)
    ap.add_argument('--cp', type=int, default=300)
    a = ap.parse_args()
    total = draws = won = 0
    by_engine = {}  # the engine that held the lead (Green moves first in play)
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
            names = [re.search(r'\[%s "([^"]*)"\]' % tag, g) for tag in ('Green', 'Blue')]
            for side, scores_of in enumerate(sides):
                if len(scores_of) >= a.last and sorted(scores_of[-a.last:])[a.last // 2] >= a.cp:
                    won += 1
                    name = names[side].group(1) if names[side] else '?'
                    by_engine[name] = by_engine.get(name, 0) + 1
                    break
    share = won / draws if draws else 0.0
    print(f'games {total}  move-count draws {draws}  with a side whose last {a.last} scores '
          f'have a median >= {a.cp} cp: {won} ({100 * share:.0f}%)' +
          ''.join(f'  {n}: {k}' for n, k in sorted(by_engine.items())))


if __name__ == '__main__':
    main()
