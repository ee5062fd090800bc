#!/usr/bin/python3
"""tools/match/blind_trace.py: the Blind engine's hunt read again, turn by turn, from one
two-player record (issue 28's way of reading a long hunt or a move-count draw; SPEC 25).

    blind_trace.py RECORDS.pgn --round N [--from PLY] [--to PLY] [--engine NAME]
                   [--klinzha PATH] [--go CMD] [--pre-go CMD] [--tokens]
    (defaults: every ply, NAME blind, PATH build/release/klinzha,
     --go 'go btime 3000 gtime 3000 binc 30 ginc 30', --pre-go 'go depth 1')

The record of round N (a klinzha-match -pgnout record of a two-player Blind game from the
start position) is replayed by `klinzha replay`, and NAME's view is rebuilt from it, one
token a ply as docs/protocol.md ("Blind in the protocol") gives it: NAME's own move string
with `x` or `xH` when it took a man or the heart, `?`, `?x<cell>` or `?xH` for the other's
ply. One `klinzha --log-level debug` process (PATH, the Blind option set) is then given every
one of NAME's turns in order, as the game gave it: `position blind ...`, then once more after
each proposal the record's comment says was refused in that turn (`refused a,b`: `... refused
a`, `... refused a b`), each with a go: CMD for the turns of play whose ply (the index of the
move in `klinzha replay`'s lines, placements counted) lies in FROM..TO, PRE-GO for the earlier
ones (the belief is brought up to date by each, and draws its random numbers as often as in
the game; ucinewgame seeds them again, so a fresh engine starts from the game's).

With --tokens, prints the view's tokens of the whole record on one line and runs no engine.
Otherwise prints one line per turn of NAME's in play within FROM..TO:
`<ply> hm <halfmove> heart <cell> <alone|carried> value <v> lone <l> odds <o> since <s> top
<cell>:<value>(<plies since one of NAME's men stood there, - never>)... best <move> played
<move> refused <moves>`: the opposing heart's true cell and the hunt's value of it (the
engine's `blind hunt` debug line, BlindSearch::hunt_novelty; `<.05` when the line leaves it
out; no hunt fields when the engine logged none that turn), the five cells the hunt values
most, the engine's best move now and the move the record played.

The engine's choices depend on the boards its belief drew, and the draws depend on what each
earlier turn's go did (how much of the update the turn's time allowed): with PRE-GO a go of
about the game's time per move the choices of the game are mostly made again; with `go depth
1` the hunt is another sample of the same belief. `go movetime T` thinks T less `Move
Overhead` (30 ms by default): the record's moves at -tc 3+0.03 took about 75 ms each for the
first 40 moves and 30 ms once the clock was spent (past move 50), so `go movetime 105` early
and `go movetime 60` in a long hunt (`go movetime 35` thinks 5 ms, far less than the game did).

Errors: an unreadable file raises OSError; no such round, a record that is not a two-player
game from the start position, one `klinzha replay` rejects, or a `blind hunt:` line without
its lone, odds, since or cells field (fields added to it are skipped) ends the program with a
message (exit 2); a klinzha that cannot be run, or that answers a command with `info string error`
(a token this tool built wrong), ends it with the message (exit 1).
"""
import argparse
import re
import subprocess
import sys
import tempfile

from won_draws import games, heart as heart_of, men, replay, tag, two_player

HUNT_FIELDS = {name: re.compile(pattern) for name, pattern in (
    ('lone', r'\blone (\S+?),? '), ('odds', r'\bodds (\S+?),? '),
    ('since', r'\bsince ply (-?\d+)'), ('cells', r'\bcells((?: \S+:\S+)*)\s*$'))}


def parse_hunt(line):
    """The fields of the engine's `blind hunt:` debug line (BlindSearch::hunt_novelty) as
    strings: (lone, odds, since, cells), cells the text after `cells` (` <cell>:<value>`
    pairs). Each field is found by its name, so that a line with fields added (a throw-away
    build's, say `age 3,`) still reads. Raises ValueError, naming the line, when one of the
    four is missing."""
    found = {name: pattern.search(line) for name, pattern in HUNT_FIELDS.items()}
    missing = [name for name, m in found.items() if m is None]
    if missing:
        raise ValueError(f'a "blind hunt:" line without {", ".join(missing)}: {line.strip()}')
    return tuple(found[name].group(1) for name in ('lone', 'odds', 'since', 'cells'))


def refusals(record):
    """Per ply (1-based, as `klinzha replay`'s move lines), the proposals refused before the
    move of that ply (its comment's `refused a,b`)."""
    body = record.split('\n\n', 1)[1] if '\n\n' in record else record
    out = {}
    ply = 0
    for m in re.finditer(r'\{([^}]*)\}|(\S+)', body):
        if m.group(1) is not None:
            if 'refused' in m.group(1) and ply > 0:
                out[ply] = re.split(r'[,\s]+', m.group(1).split('refused', 1)[1].strip())
            continue
        t = m.group(2)
        if re.fullmatch(r'\d+\.(\.\.)?', t) or t in ('1-0', '0-1', '1/2-1/2', '*'):
            continue
        ply += 1
    return out


def turn_stages(line, refused):
    """The position commands of one turn as the game gave them: `line` (the turn's `position
    blind ...` without refusals), then once more after each refused proposal with the
    refusals so far (`line refused a`, `line refused a b`, ...). Each gets a go, so the
    belief updates, and draws its random numbers, as often as in the game."""
    return [line + (' refused ' + ' '.join(refused[:k]) if k else '')
            for k in range(len(refused) + 1)]


def view_tokens(pos, me):
    """The view's tokens of colour index me for the moves of pos[1:] (SPEC 25)."""
    toks = []
    for i in range(1, len(pos)):
        before, after = pos[i - 1], pos[i]
        in_play = before[6] == 'play'
        if before[5] == 'gb'[me]:
            t = after[0]
            if in_play:
                theirs_before, theirs_after = men(before[3 - me]), men(after[3 - me])
                if len(theirs_after) < len(theirs_before):
                    t += 'x' if heart_of(after[3 - me])[0] else 'xH'
        else:
            t = '?'
            if in_play:
                ours_before, ours_after = men(before[2 + me]), men(after[2 + me])
                left = {m[1:] for m in ours_after}
                gone = [m[1:] for m in ours_before if m[1:] not in left]
                if heart_of(before[2 + me])[0] and not heart_of(after[2 + me])[0]:
                    t = '?xH'
                elif gone:
                    t = '?x' + gone[0]
        toks.append(t)
    return toks


def run_engine(klinzha, turns):
    """Drives one engine through `turns` ((position line, go line) pairs); per turn, the
    stderr chunk of its go and its best move."""
    err = tempfile.TemporaryFile(mode='w+')
    try:
        proc = subprocess.Popen([klinzha, '--log-level', 'debug'], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=err, text=True)
    except OSError as e:
        raise SystemExit(f'blind_trace.py: cannot run {klinzha} (--klinzha): {e.strerror}')
    proc.stdin.write('setoption name Blind value true\n')
    best = []
    for position, go in turns:
        proc.stdin.write(position + '\n' + go + '\n')
        proc.stdin.flush()
        for line in proc.stdout:
            if line.startswith('info string error'):
                proc.kill()
                sys.stderr.write(f'blind_trace.py: klinzha said: {line.strip()}\n'
                                 f'  to: {position[:200]}\n')
                sys.exit(1)
            if line.startswith('bestmove'):
                best.append(line.split()[1])
                break
        else:
            sys.exit('blind_trace.py: klinzha ended before its bestmove')
    proc.stdin.write('quit\n')
    proc.stdin.close()
    proc.wait()
    err.seek(0)
    chunks = err.read().split('command: position')[1:]
    return list(zip(chunks, best))


def fail(message):
    """Ends the program: a record this tool cannot read (exit 2)."""
    sys.stderr.write(f'blind_trace.py: {message}\n')
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records')
    ap.add_argument('--round', required=True)
    ap.add_argument('--from', dest='first', type=int, default=0)
    ap.add_argument('--to', type=int, default=10**9)
    ap.add_argument('--engine', default='blind')
    ap.add_argument('--klinzha', default='build/release/klinzha')
    ap.add_argument('--go', default='go btime 3000 gtime 3000 binc 30 ginc 30')
    ap.add_argument('--pre-go', default='go depth 1')
    ap.add_argument('--tokens', action='store_true')
    a = ap.parse_args()
    record = next((r for r in games(a.records) if tag(r, 'Round') == a.round), None)
    if record is None:
        fail(f'no record of round {a.round} in {a.records}')
    if not two_player(record) or a.engine not in (tag(record, 'Green'), tag(record, 'Blue')):
        fail(f'round {a.round} is not a two-player game of {a.engine}')
    me = 0 if tag(record, 'Green') == a.engine else 1
    pos = replay(record, a.klinzha, 'blind_trace.py')
    if not pos or pos[0][2:7] != ['-', '-', '-', 'g', 'place']:
        fail(f'round {a.round}: not a game klinzha replays from the start')
    refused = refusals(record)
    toks = view_tokens(pos, me)
    if a.tokens:
        print(' '.join(toks))
        return
    turns, plies = [], []
    for i in range(1, min(len(pos), a.to + 1)):
        if pos[i - 1][5] != 'gb'[me]:
            continue
        line = f'position blind {"gb"[me]} startpos moves {" ".join(toks[:i - 1])}'.rstrip()
        traced = a.first <= i and pos[i - 1][6] == 'play'
        stages = turn_stages(line, refused.get(i, []))
        for k, stage in enumerate(stages):
            turns.append((stage, a.go if traced else a.pre_go))
            plies.append((i, traced and k == len(stages) - 1))
    for (i, traced), (chunk, best) in zip(plies, run_engine(a.klinzha, turns)):
        if not traced:
            continue
        p = pos[i - 1]
        heart, carried = heart_of(p[3 - me])
        out = f'{i} hm {p[7]} heart {heart} {"carried" if carried else "alone"}'
        hunt = [l for l in chunk.splitlines() if 'blind hunt:' in l]
        if hunt:
            try:
                lone, odds, since, cells = parse_hunt(hunt[-1])
            except ValueError as e:
                fail(str(e))
            values = {c.split(':')[0]: float(c.split(':')[1]) for c in cells.split()}

            def ago(cell):
                for j in range(i - 1, 0, -1):
                    if any(m[1:] == cell for m in men(pos[j][2 + me])):
                        return str(i - 1 - j)
                return '-'
            top = sorted(values.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
            out += (f' value {values[heart] if heart in values else "<.05"} lone {lone}'
                    f' odds {odds} since {since} top '
                    + ' '.join(f'{c}:{v:.2f}({ago(c)})' for c, v in top))
        out += f' best {best} played {pos[i][0]} refused {",".join(refused.get(i, [])) or "-"}'
        print(out)


if __name__ == '__main__':
    main()
