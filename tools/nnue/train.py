#!/usr/bin/env python3
"""tools/nnue/train.py: trains klinzha's evaluation network on self-play data, on the CPU.

    train.py DATA... -o NET.nnue [--epochs N] [--lambda L] [--lr LR] [--batch B]
                     [--max-positions N] [--seed S] [--init NET.nnue] [--threads T]

DATA: files of klinzha-gen (eval/nnue/sample.h: 104-byte records). The network is the one of
eval/nnue/network.h: features (eval/nnue/features.h) -> 128 per perspective -> the three slots'
clipped accumulators (384) -> 32 -> 1, the perspective's standing. The loss mixes the search's
score and the game's result, both as win probabilities (Stockfish's lambda):

    target = lambda * sigmoid(score / S) + (1 - lambda) * result,   pred = sigmoid(cp / S)

with S fitted to the data first (the scale at which the scores best predict the results).
The quantisation (network.h) is emulated while training by keeping the dense weights where
int8 with scale 64 can hold them. The output file is the .nnue of network.h; training prints
the loss per epoch on the data and on a held-out tenth (deduplicated by position key first).
Needs Debian's python3-torch and python3-numpy. Errors: unreadable data, no positions.
Source: the NNUE of Stockfish (Nasu 2018) and its trainer's loss (nnue-pytorch).
"""
import argparse
import math
import struct
import sys

import numpy as np
import torch
import torch.nn as nn

DTYPE = np.dtype([('key', '<u8'), ('board', 'u1', 81), ('heart', 'u1', 3), ('players', 'u1'),
                  ('stm', 'u1'), ('out', 'u1'), ('result', 'u1'), ('score', '<i2'),
                  ('halfmove', 'u1'), ('depth', 'u1'), ('options', '<u2'), ('ply', '<u2')])
assert DTYPE.itemsize == 104

KINDS, SLOTS, CELLS = 8, 3, 81
INPUTS = SLOTS * KINDS * CELLS  # 1944
PAD = INPUTS                    # the embedding row of "no feature"
FT, L1 = 128, 32
MAX_ACTIVE = 30
CP_SCALE = 300                  # centi-pawns per unit of the float output
VERSION = 1


# -- The board (SPEC 1), built here from its definition, not from klinzha's tables ---------
def cells():
    """(u, v, w) of each cell index: row r holds indices (r-1)^2 .. r^2-1 left to right; the
    k-th cell of row r is named <row><R><L> with R = r - ceil(k/2), L = 9 - floor(k/2)."""
    out = []
    for r in range(1, 10):
        for k in range(2 * r - 1):
            R, L = r - (k + 1) // 2, 9 - k // 2
            out.append((9 - r, R - 1, 9 - L))
    return out


COORD = cells()
AT = {c: i for i, c in enumerate(COORD)}


def turned_table():
    """turned[three][p][cell]: the cell as perspective p sees it (features.h)."""
    t = np.zeros((2, 3, CELLS), dtype=np.int64)
    for three in (0, 1):
        for p in range(3):
            for i, (u, v, w) in enumerate(COORD):
                a, b, d = u, v, w
                if three:
                    if p == 1:
                        a, b, d = v, w, u
                    if p == 2:
                        a, b, d = w, u, v
                elif p != 0:
                    b, d = w, v
                t[three, p, i] = AT[(a, b, d)]
    return t


def slot_table():
    """slot[three][p][c]: 0 own, 1 next in turn order (two players: the opponent), 2 after."""
    s = np.zeros((2, 3, 3), dtype=np.int64)
    for three in (0, 1):
        for p in range(3):
            for c in range(3):
                s[three, p, c] = 0 if c == p else (1 if not three else (c - p) % 3)
    return s


TURNED, SLOT = turned_table(), slot_table()


def perspectives(stm, players):
    """The colour of each slot (own, next, after next) for the side to move; -1: none."""
    three = players == 3
    p0 = stm
    p1 = np.where(three, (stm + 1) % 3, 1 - np.minimum(stm, 1))
    p2 = np.where(three, (stm + 2) % 3, -1)
    return np.stack([p0, p1, p2], axis=1)


def features(a):
    """Feature indices [N, 3, 30] (PAD for none) and slot masks [N, 3] of records a."""
    n = len(a)
    board = a['board'].astype(np.int64)
    hearts = a['heart'].astype(np.int64)
    three = (a['players'] == 3).astype(np.int64)
    persp = perspectives(a['stm'].astype(np.int64), a['players'].astype(np.int64))
    out = np.full((n, 3, MAX_ACTIVE), PAD, dtype=np.int64)
    mask = np.zeros((n, 3), dtype=np.float32)
    empty = board == 0xFF
    col = np.where(empty, 0, board >> 3)
    typ = np.where(empty, 0, board & 7)
    cell = np.arange(CELLS)[None, :]
    for k in range(3):
        p = persp[:, k]
        valid = p >= 0
        pp = np.maximum(p, 0)
        # A slot of a colour that is out (or absent) is zero.
        in_game = valid & ((a['out'].astype(np.int64) >> pp) & 1 == 0)
        mask[:, k] = in_game
        slot = SLOT[three[:, None], pp[:, None], col]
        f = (slot * KINDS + typ) * CELLS + TURNED[three[:, None], pp[:, None], cell]
        f = np.where(empty, PAD, f)
        f.sort(axis=1)
        out[:, k, :27] = f[:, :27]
        for c in range(3):
            h = hearts[:, c]
            has = h != 0xFF
            hh = np.where(has, h, 0)
            man = board[np.arange(n), hh]
            carried = has & (man != 0xFF) & ((man >> 3) == c)
            kind = np.where(carried, 7, 6)
            fh = (SLOT[three, pp, c] * KINDS + kind) * CELLS + TURNED[three, pp, hh]
            out[:, k, 27 + c] = np.where(has & valid, fh, PAD)
        out[:, k, :] = np.where(valid[:, None], out[:, k, :], PAD)
    return out, mask


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.ft = nn.Embedding(INPUTS + 1, FT, padding_idx=PAD)
        self.ft_bias = nn.Parameter(torch.zeros(FT))
        self.l1 = nn.Linear(SLOTS * FT, L1)
        self.out = nn.Linear(L1, 1)
        nn.init.normal_(self.ft.weight, 0.0, 0.05)
        with torch.no_grad():
            self.ft.weight[PAD].zero_()
            self.ft_bias.fill_(0.3)

    def forward(self, feats, mask):
        acc = self.ft(feats).sum(dim=2) + self.ft_bias           # [B, 3, 128]
        x = torch.clamp(acc, 0.0, 1.0) * mask[:, :, None]
        h = torch.clamp(self.l1(x.reshape(x.shape[0], -1)), 0.0, 1.0)
        return self.out(h).squeeze(1)                            # in units of CP_SCALE cp

    def clip(self):
        """Keeps the dense weights where int8 with scale 64 holds them (network.h)."""
        with torch.no_grad():
            self.l1.weight.clamp_(-127 / 64, 127 / 64)
            self.out.weight.clamp_(-127 / 64, 127 / 64)


def load(paths, max_positions=0):
    parts = []
    for p in paths:
        try:
            parts.append(np.fromfile(p, dtype=DTYPE))
        except OSError as e:
            sys.exit(f'train.py: cannot read {p}: {e}')
    a = np.concatenate(parts) if parts else np.zeros(0, dtype=DTYPE)
    _, first = np.unique(a['key'], return_index=True)   # each position once
    a = a[np.sort(first)]
    if max_positions and len(a) > max_positions:
        a = a[:max_positions]
    if len(a) == 0:
        sys.exit('train.py: no positions')
    return a


def fit_scale(score, result):
    """The S at which sigmoid(score / S) best predicts the results (a coarse search)."""
    best = None
    for s in [100, 150, 200, 250, 300, 400, 500, 600, 800, 1000]:
        err = np.mean((1 / (1 + np.exp(-score / s)) - result) ** 2)
        if best is None or err < best[0]:
            best = (err, s)
    return best[1]


def quantise(net):
    """The integers of network.h from the float model."""
    q = {}
    ft_w = net.ft.weight.detach().numpy()[:INPUTS]
    q['ft_bias'] = np.round(net.ft_bias.detach().numpy() * 127).astype(np.int16)
    q['ft_weight'] = np.clip(np.round(ft_w * 127), -32767, 32767).astype(np.int16)
    q['l1_bias'] = np.round(net.l1.bias.detach().numpy() * 127 * 64).astype(np.int32)
    q['l1_weight'] = np.clip(np.round(net.l1.weight.detach().numpy() * 64), -127, 127).astype(np.int8)
    q['out_bias'] = np.int32(round(float(net.out.bias.detach().numpy()[0]) * 127 * 64))
    q['out_weight'] = np.clip(np.round(net.out.weight.detach().numpy()[0] * 64), -127, 127).astype(np.int8)
    return q


def write_nnue(path, q):
    with open(path, 'wb') as f:
        f.write(b'KZNN')
        f.write(struct.pack('<IIIIi', VERSION, INPUTS, FT, L1, CP_SCALE))
        f.write(q['ft_bias'].astype('<i2').tobytes())
        f.write(q['ft_weight'].astype('<i2').tobytes())
        f.write(q['l1_bias'].astype('<i4').tobytes())
        f.write(q['l1_weight'].astype('i1').tobytes())
        f.write(struct.pack('<i', int(q['out_bias'])))
        f.write(q['out_weight'].astype('i1').tobytes())


def read_nnue(path):
    b = open(path, 'rb').read()
    if b[:4] != b'KZNN':
        sys.exit(f'{path}: not a klinzha network')
    version, inputs, ft, l1, scale = struct.unpack('<IIIIi', b[4:24])
    if (version, inputs, ft, l1) != (VERSION, INPUTS, FT, L1):
        sys.exit(f'{path}: shape {inputs}x{ft}x{l1} version {version}, expected {INPUTS}x{FT}x{L1}')
    at = 24
    def take(dtype, count):
        nonlocal at
        arr = np.frombuffer(b, dtype=dtype, count=count, offset=at)
        at += arr.nbytes
        return arr
    q = {'ft_bias': take('<i2', FT), 'ft_weight': take('<i2', INPUTS * FT).reshape(INPUTS, FT),
         'l1_bias': take('<i4', L1), 'l1_weight': take('i1', L1 * SLOTS * FT).reshape(L1, SLOTS * FT)}
    q['out_bias'] = np.frombuffer(b, dtype='<i4', count=1, offset=at)[0]
    at += 4
    q['out_weight'] = take('i1', L1)
    return q, scale


def quantised_eval(q, feats, mask, scale=CP_SCALE):
    """The integer inference of network.h (Network::propagate), in numpy: centi-pawns."""
    w = np.concatenate([q['ft_weight'].astype(np.int64), np.zeros((1, FT), dtype=np.int64)])
    acc = q['ft_bias'].astype(np.int64)[None, None, :] + w[feats].sum(axis=2)   # [N, 3, 128]
    acc = acc.astype(np.int16).astype(np.int64)  # int16 wrap, as the accumulator
    x = np.clip(acc, 0, 127) * mask[:, :, None].astype(np.int64)
    x = x.reshape(len(x), -1)
    s = x @ q['l1_weight'].astype(np.int64).T + q['l1_bias'].astype(np.int64)[None, :]
    h = np.clip((s + 32) >> 6, 0, 127)  # rounded, as network.cpp
    out = int(q['out_bias']) + h @ q['out_weight'].astype(np.int64)
    v = out * scale
    return (np.sign(v) * (np.abs(v) // (127 * 64))).astype(np.int64)  # C++ division truncates


def train(args):
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    a = load(args.data, args.max_positions)
    score = a['score'].astype(np.float64)
    result = a['result'].astype(np.float64) / 2
    S = fit_scale(score, result)
    print(f'positions {len(a)} (three players {np.mean(a["players"] == 3):.0%}), '
          f'sigmoid scale S = {S}', flush=True)
    feats, mask = features(a)
    target = args.lam / (1 + np.exp(-score / S)) + (1 - args.lam) * result
    idx = np.random.permutation(len(a))
    hold = idx[: max(1, len(a) // 10)]
    fit = idx[len(hold):] if len(a) > 1 else idx
    F = torch.from_numpy(feats)
    M = torch.from_numpy(mask)
    T = torch.from_numpy(target.astype(np.float32))
    net = Net()
    if args.init:
        q, _ = read_nnue(args.init)
        with torch.no_grad():
            net.ft.weight[:INPUTS] = torch.from_numpy(q['ft_weight'].astype(np.float32) / 127)
            net.ft_bias[:] = torch.from_numpy(q['ft_bias'].astype(np.float32) / 127)
            net.l1.weight[:] = torch.from_numpy(q['l1_weight'].astype(np.float32) / 64)
            net.l1.bias[:] = torch.from_numpy(q['l1_bias'].astype(np.float32) / (127 * 64))
            net.out.weight[0] = torch.from_numpy(q['out_weight'].astype(np.float32) / 64)
            net.out.bias[0] = float(q['out_bias']) / (127 * 64)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=max(1, args.epochs // 3), gamma=0.3)

    def loss_on(rows):
        pred = torch.sigmoid(net(F[rows], M[rows]) * CP_SCALE / S)
        return torch.mean((pred - T[rows]) ** 2)

    for epoch in range(args.epochs):
        net.train()
        perm = fit[np.random.permutation(len(fit))]
        total, batches = 0.0, 0
        for b in range(0, len(perm), args.batch):
            rows = torch.from_numpy(perm[b:b + args.batch])
            opt.zero_grad()
            loss = loss_on(rows)
            loss.backward()
            opt.step()
            net.clip()
            total += float(loss)
            batches += 1
        sched.step()
        net.eval()
        with torch.no_grad():
            held = float(loss_on(torch.from_numpy(hold)))
        print(f'epoch {epoch + 1}/{args.epochs}  train loss {total / max(batches, 1):.5f}  '
              f'held-out loss {held:.5f}', flush=True)
        # Written after every epoch, so an interrupted run leaves a usable network.
        write_nnue(args.output, quantise(net))
    q = quantise(net)
    write_nnue(args.output, q)
    # The quantised network against the float model on held-out positions.
    rows = hold[:2000]
    with torch.no_grad():
        fl = (net(F[rows], M[rows]) * CP_SCALE).numpy()
    qu = quantised_eval(q, feats[rows], mask[rows])
    print(f'wrote {args.output}; quantised vs float on {len(rows)} positions: '
          f'mean |diff| {np.mean(np.abs(qu - fl)):.1f} cp, max {np.max(np.abs(qu - fl)):.1f} cp, '
          f'mean |score| {np.mean(np.abs(fl)):.0f} cp', flush=True)
    return net, q, feats, mask


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('data', nargs='*')
    ap.add_argument('-o', '--output', default='klinzha.nnue')
    ap.add_argument('--epochs', type=int, default=10)
    ap.add_argument('--lambda', dest='lam', type=float, default=0.75)
    ap.add_argument('--lr', type=float, default=1e-3)
    ap.add_argument('--batch', type=int, default=4096)
    ap.add_argument('--max-positions', type=int, default=0)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--init', default='')
    ap.add_argument('--threads', type=int, default=0)
    args = ap.parse_args(argv)
    if not args.data:
        ap.error('give the data files')
    train(args)


if __name__ == '__main__':
    main()
