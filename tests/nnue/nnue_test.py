#!/usr/bin/env python3
"""tests/nnue/nnue_test.py: the network's trainer and the engine's inference agree.

    nnue_test.py <build dir>

1. klinzha-gen plays a few fast games: a tiny data set in the format of eval/nnue/sample.h.
2. A fresh net (the material term initialised from the piece values) evaluates each position
   as the material count does, computed here from the board; its piece values are those of
   eval/weights.h. tools/nnue/shuffle.py deduplicates and splits the data.
   tools/nnue/train.py trains on it for a few epochs (seconds) and writes a .nnue; the loss
   falls, and the quantised network's outputs match the float model's within a tolerance.
3. klinzha, given that file (EvalFile, Use NNUE, NNUE Three Players), evaluates each
   position (the protocol's `eval`): its output equals the trainer's own integer inference of
   network.h, written apart from the engine's, for every position (the features, the turned
   board and the quantised layers of two independent implementations agree).
4. Three-player nets of three layer stacks (train.py --perspectives): every seat's sample and
   label is the one a plain walk over the games finds, and the engine's standing of every
   colour equals the trainer's inference through the stack of the mover's slot.
Exit status 0 when every check passes.
"""
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = os.path.join(HERE, '..', '..', 'eval', 'weights.h')
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tools', 'nnue'))
import train  # noqa: E402

failures = 0


def check(ok, what):
    global failures
    print(('PASS ' if ok else 'FAIL ') + what, flush=True)
    if not ok:
        failures += 1


def cell_name(i):
    u, v, w = train.COORD[i]
    r, R, L = 9 - u, v + 1, 9 - w
    return 'abcdefghi'[r - 1] + str(min(R, L)) + str(max(R, L))


def fen_of(rec):
    fields = []
    for c in range(3):
        toks = []
        h = rec['heart'][c]
        if h != 0xFF:
            toks.append('H' + cell_name(h))
        for i in range(81):
            m = rec['board'][i]
            if m != 0xFF and (m >> 3) == c:
                toks.append('QRBNPW'[m & 7] + cell_name(i))
        fields.append(','.join(toks) if toks else '-')
    return f"{rec['players']} {fields[0]} {fields[1]} {fields[2]} {'gbk'[rec['stm']]} play " \
           f"{rec['halfmove']} 1"


def material_count(rec):
    """The material standing of the player to move, centi-pawns, from the board alone: its
    men's piece values minus the mean of each other colour's still in (evaluate.h)."""
    values = [int(v) for v in re.findall(r'^\s*(\d+),\s*// (?:queen|rook|bishop|knight|pawn|wall)$',
                                         open(WEIGHTS).read(), re.M)]
    out = []
    for r in rec:
        per = [0, 0, 0]
        for m in r['board']:
            if m != 0xFF:
                per[m >> 3] += values[m & 7]
        stm, n = int(r['stm']), int(r['players'])
        others = [per[c] for c in range(n) if c != stm and not (int(r['out']) >> c) & 1]
        out.append(per[stm] - (sum(others) / len(others) if others else 0))
    return np.array(out), values


def check_material_init(a):
    """A fresh net is the material count (the PSQT initialisation of issue 27)."""
    rows = a[:300]
    expected, values = material_count(rows)
    check(tuple(values) == train.PIECE_VALUES,
          f'train.py\'s piece values {train.PIECE_VALUES} are eval/weights.h\'s {tuple(values)}')
    feats, mask = train.features(rows)
    net = train.Net(16, 8)
    with torch.no_grad():
        got = (net(torch.from_numpy(feats), torch.from_numpy(mask)) * train.CP_SCALE).numpy()
    diff = np.abs(got - expected)
    check(diff.max() < 0.5 and np.abs(expected).max() > 100,
          f'a fresh net evaluates as the material count (max |diff| {diff.max():.2f} cp over '
          f'{len(rows)} positions, |material| up to {np.abs(expected).max():.0f} cp)')
    qd = np.abs(train.quantised_eval(train.quantise(net), feats, mask) - expected)
    check(qd.max() <= 2, f'and so does its quantisation (max |diff| {qd.max():.1f} cp)')


def check_pipeline(build, work):
    """tools/nnue/pipeline.sh from nothing to a net: every step runs and the net reads."""
    out = os.path.join(work, 'pipeline')
    env = dict(os.environ, KLINZHA_GEN=os.path.join(build, 'klinzha-gen'),
               KLINZHA=os.path.join(build, 'klinzha'))
    r = subprocess.run(['bash', os.path.join(HERE, '..', '..', 'tools', 'nnue', 'pipeline.sh'),
                        out, '2', '3', '16', '8'], capture_output=True, text=True, env=env,
                       timeout=240)
    steps = [s for s in ('generate', 'shuffle', 'train', 'check')
             if f'pipeline.sh: {s} took' in r.stdout]
    net = os.path.join(out, 'net.nnue')
    check(r.returncode == 0 and len(steps) == 4 and os.path.exists(net) and
          os.path.getsize(net) == 70468,
          f'pipeline.sh ran {steps} and wrote a 16 x 8 net (exit {r.returncode}; {r.stderr[-200:]})')


def expected_seats(a):
    """The (record, perspective, label) triples of expand_perspectives(), found by walking the
    games one record at a time (written apart from train.py's vectorised search)."""
    out = set()
    for i in range(len(a)):
        if a[i]['players'] != 3:
            continue
        out.add((i, int(a[i]['stm']), int(a[i]['score'])))
        for k in (1, 2):
            p = (int(a[i]['stm']) + k) % 3
            if (int(a[i]['out']) >> p) & 1:
                continue
            for j in range(i + 1, min(i + 4, len(a))):
                if a[j]['ply'] <= a[j - 1]['ply']:
                    break   # the next game
                gap = int(a[j]['ply']) - int(a[i]['ply'])
                if int(a[j]['stm']) == p and 1 <= gap <= k:
                    out.add((i, p, int(a[j]['score'])))
                    break
    return out


def check_perspectives(build, work):
    """train.py --perspectives: its samples, and the engine's use of the three stacks."""
    data = os.path.join(work, 'tiny3.bin')
    subprocess.run([os.path.join(build, 'klinzha-gen'), '--out', data, '--games', '4',
                    '--nodes', '300', '--seed', '5', '--players', '3', '--options', 'default'],
                   check=True, stdout=subprocess.DEVNULL)
    a = np.fromfile(data, dtype=train.DTYPE)
    r, stack = train.expand_perspectives(a)
    by_key = {int(k): i for i, k in reversed(list(enumerate(a['key'])))}
    got = {(by_key[int(x['key'])], int(x['stm']), int(x['score'])) for x in r}
    want = expected_seats(a)
    turn = [(int(x['stm']) - int(a[by_key[int(x['key'])]]['stm'])) % 3 for x in r]
    check(got == want and len(want) > len(a) and
          all(s == (3 - t) % 3 for s, t in zip(stack, turn)),
          f'train.py --perspectives: {len(r)} seats of {len(a)} positions, as a walk over the '
          f'games finds ({len(got ^ want)} differ), each in the stack of the mover\'s slot')
    net_path = os.path.join(work, 'tiny3.nnue')
    args = train.argparse.Namespace(data=[data], output=net_path, ft=16, l1=8, epochs=2,
                                    lam=1.0, lr=3e-3, lr_decay=0.9, patience=2, batch=256,
                                    held_out='', max_positions=0, seed=1, init='',
                                    perspectives=True, threads=1)
    train.train(args)
    # version 3: 28 header + 2*16 + 2*1944*16 + 4*1944 + 3 * (4*8 + 8*48 + 4 + 8)
    check(os.path.getsize(net_path) == 70468 + 4 + 2 * (4 * 8 + 8 * 48 + 4 + 8),
          'a net of three stacks has the size of network.h (version 3, 16 x 8 x 3)')
    q, _ = train.read_nnue(net_path)
    rows = a[:40]
    lines = ['setoption name Players value 3', 'setoption name EvalFile Three Players value ' +
             net_path, 'setoption name NNUE Three Players value true']
    for rec in rows:
        lines += ['position fen ' + fen_of(rec), 'eval']
    lines.append('quit')
    out = subprocess.run([os.path.join(build, 'klinzha')], input='\n'.join(lines) + '\n',
                         capture_output=True, text=True, timeout=120).stdout
    got = [[int(v) if v != 'out' else None for v in re.findall(r' [gbk] (-?\d+|out)(?: cp)?', l)]
           for l in out.splitlines() if l.startswith('NNUE standing:')]
    expected = []
    for rec in rows:
        seats = []
        for c in range(3):
            if (int(rec['out']) >> c) & 1:
                seats.append(None)
                continue
            r1 = rec.copy()
            r1['stm'] = c
            f, m = train.features(np.array([r1]))
            seats.append(int(train.quantised_eval(q, f, m, bucket=[(int(rec['stm']) - c) % 3])[0]))
        expected.append(seats)
    same = sum(1 for g, e in zip(got, expected) if g == e)
    if same != len(rows):
        print('engine, trainer:', [(g, e) for g, e in zip(got, expected) if g != e][:4])
    check(same == len(rows),
          f'every colour\'s standing by a three-stack net: the engine as the trainer ({same} of '
          f'{len(rows)} positions)')
    check_gen_three(build, work, net_path)


def check_gen_three(build, work, net3):
    """klinzha-gen --eval-file-three: the three-player games are searched with that net, the
    two-player games are not (the same records as without it); a file it cannot read is
    refused with exit status 2 and a message naming the option."""
    def gen(name, players, *extra):
        out = os.path.join(work, name)
        r = subprocess.run([os.path.join(build, 'klinzha-gen'), '--out', out, '--games', '2',
                            '--nodes', '300', '--seed', '6', '--players', players,
                            '--options', 'default', *extra], capture_output=True, text=True,
                           timeout=120)
        return r, open(out, 'rb').read() if os.path.exists(out) else b''
    _, two = gen('g2.bin', '2')
    _, two_net3 = gen('g2n.bin', '2', '--eval-file-three', net3)
    _, three = gen('g3.bin', '3')
    _, three_net3 = gen('g3n.bin', '3', '--eval-file-three', net3)
    check(len(two) > 0 and two == two_net3 and len(three) > 0 and three != three_net3,
          'klinzha-gen --eval-file-three: three-player games searched with the net, two-player '
          'games as without it')
    bad = os.path.join(work, 'not-a-net.nnue')
    with open(bad, 'wb') as f:
        f.write(b'not a network')
    r, written = gen('gbad.bin', '3', '--eval-file-three', bad)
    check(r.returncode == 2 and '--eval-file-three' in r.stderr and written == b'',
          f'klinzha-gen refuses an unreadable --eval-file-three (exit {r.returncode}: '
          f'{r.stderr.strip()[:120]})')


def main():
    build = sys.argv[1]
    work = tempfile.mkdtemp()
    data = os.path.join(work, 'tiny.bin')
    net_path = os.path.join(work, 'tiny.nnue')
    subprocess.run([os.path.join(build, 'klinzha-gen'), '--out', data, '--games', '8',
                    '--nodes', '300', '--seed', '4', '--options', 'default'],
                   check=True, stdout=subprocess.DEVNULL)
    # The same --seed writes the same records (the setup planner's variety included: it came
    # from std::random_device, so the data, the net and this test's figures changed per run).
    again = os.path.join(work, 'again.bin')
    subprocess.run([os.path.join(build, 'klinzha-gen'), '--out', again, '--games', '8',
                    '--nodes', '300', '--seed', '4', '--options', 'default'],
                   check=True, stdout=subprocess.DEVNULL)
    check(open(data, 'rb').read() == open(again, 'rb').read(),
          'klinzha-gen with the same --seed writes the same records')
    a = np.fromfile(data, dtype=train.DTYPE)
    check(len(a) > 100, f'klinzha-gen wrote a tiny data set ({len(a)} positions)')

    torch.set_num_threads(1)
    check_material_init(a)
    fit_path, held_path = os.path.join(work, 'fit.bin'), os.path.join(work, 'held.bin')
    subprocess.run([sys.executable, os.path.join(HERE, '..', '..', 'tools', 'nnue', 'shuffle.py'),
                    data, '-o', fit_path, '--held-out', held_path, '--held-out-share', '0.2'],
                   check=True, stdout=subprocess.DEVNULL)
    fit, held = np.fromfile(fit_path, dtype=train.DTYPE), np.fromfile(held_path, dtype=train.DTYPE)
    distinct = len(np.unique(a['key']))
    check(len(np.unique(fit['key'])) == len(fit) and len(held) > 0 and
          not np.isin(held['key'], fit['key']).any() and
          0.95 * distinct <= len(fit) + len(held) <= distinct,
          f'shuffle.py: each position once, none both trained on and held out '
          f'({len(fit)} + {len(held)} held out of {distinct})')
    # Whole games held out: each held-out position's game (a run of rising plies in the
    # generator's file) is held out whole.
    game = np.cumsum(np.concatenate([[1], a['ply'][1:] <= a['ply'][:-1]]))
    held_games = np.unique(game[np.isin(a['key'], held['key'])])
    whole = np.isin(a['key'][np.isin(game, held_games)], held['key']).mean()
    check(whole > 0.95, f'shuffle.py holds out whole games ({whole:.0%} of their positions)')
    args = train.argparse.Namespace(data=[fit_path], output=net_path, ft=16, l1=8, epochs=6,
                                    lam=0.75, lr=3e-3, lr_decay=0.9, patience=6, batch=256,
                                    held_out=held_path, max_positions=0, seed=1, init='', perspectives=False,
                                    threads=1)
    net, q, feats, mask = train.train(args)
    # 24 header + 2*16 + 2*1944*16 + 4*1944 + 4*8 + 8*48 + 4 + 8 (network.h's layout)
    check(os.path.getsize(net_path) == 70468,
          'the .nnue file has the size of network.h (version 2, 16 x 8)')
    with torch.no_grad():
        fl = (net(torch.from_numpy(feats), torch.from_numpy(mask)) * train.CP_SCALE).numpy()
    qu = train.quantised_eval(q, feats, mask)
    diff = np.abs(qu - fl)
    check(diff.mean() < 8 and diff.max() < 60,
          f'quantised vs float: mean |diff| {diff.mean():.1f} cp, max {diff.max():.1f} cp')

    # The engine's inference against the trainer's integer inference.
    rows = np.arange(min(60, len(a)))
    lines = ['setoption name EvalFile value ' + net_path, 'setoption name Use NNUE value true',
             'setoption name NNUE Three Players value true']
    for i in rows:
        lines += ['setoption name Players value ' + str(a[i]['players']),
                  'position fen ' + fen_of(a[i]), 'eval']
    lines.append('quit')
    out = subprocess.run([os.path.join(build, 'klinzha')], input='\n'.join(lines) + '\n',
                         capture_output=True, text=True, timeout=120).stdout
    errors = [l for l in out.splitlines() if 'error' in l]
    check(not errors, 'the engine takes the network and every position: ' + '; '.join(errors[:3]))
    # The network's own output for the player to move (the `NNUE standing` line; the evaluation
    # line adds the heart points and, in three players, the hunt: eval::beside_network).
    standings = [re.findall(r' [gbk] (-?\d+|out)(?: cp)?', l) for l in out.splitlines()
                 if l.startswith('NNUE standing:')]
    got = [int(s[int(a[i]['stm'])]) for s, i in zip(standings, rows)]
    fa, ma = train.features(a[rows])
    expected = train.quantised_eval(q, fa, ma)
    check(len(got) == len(rows), f'the engine evaluated {len(got)} of {len(rows)} positions')
    same = sum(1 for g, e in zip(got, expected) if g == e)
    if same != len(rows):
        print('engine, trainer:', [(g, int(e)) for g, e in zip(got, expected) if g != e][:8])
    check(same == len(rows), f'the engine and the trainer give the same output ({same} of {len(rows)})')
    check_perspectives(build, work)
    check_pipeline(build, work)
    print(f'{failures} failure(s)')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
