#!/usr/bin/env python3
"""tools/nnue/train.py: trains klinzha's evaluation network on self-play data, on the CPU.

    train.py DATA... -o NET.nnue [--ft W] [--l1 H] [--epochs N] [--lambda L] [--lr LR]
                     [--lr-decay G] [--patience P] [--batch B] [--held-out FILE]
                     [--max-positions N] [--seed S] [--init NET.nnue] [--threads T]
                     [--perspectives]

DATA: files of klinzha-gen (eval/nnue/sample.h: 104-byte records). The network is the one of
eval/nnue/network.h: features (eval/nnue/features.h) -> W per perspective -> the three slots'
clipped accumulators (3 W) -> H -> 1, plus the material term (one weight per feature, own slot
minus the mean of the others), the perspective's standing. The material term starts at the
tuned piece values of eval/weights.h and the output layer at zero, so a fresh net evaluates
as the material count (Fairy-Stockfish's PSQT initialisation). The loss mixes the search's
score and the game's result, both as win probabilities (Stockfish's lambda):

    target = lambda * sigmoid(score / S) + (1 - lambda) * result,   pred = sigmoid(cp / S)

with S fitted to the data first (the scale at which the scores best predict the results).
The quantisation (network.h) is emulated while training by keeping the dense weights where
int8 with scale 64 can hold them. Training runs up to N epochs over the shuffled data, the
learning rate times G after each, and stops when the held-out loss has not improved for P
epochs; the network written is the one of the best held-out loss. The held-out set is FILE
(tools/nnue/shuffle.py writes one apart), else a tenth of the data (deduplicated by position
key first). 
--perspectives (three-player nets, issue 27): the data are klinzha-gen's files as written
(game order, not shuffle.py's output; --held-out likewise), and each position is learnt from
the seat of every player still in, not only the mover's: the label of the player who moves
k plies later is the search's score of the first record of the same game where that player
moves, within k plies (its own search of the position after the moves between). The net
gets three layer stacks (network.h version 3), chosen by the mover's slot seen from the
perspective, so it knows whether the player it evaluates for moves now or waits.
Needs Debian's python3-torch and python3-numpy. Errors: unreadable data, no
positions, a shape network.h cannot hold.
Source: the NNUE of Stockfish (Nasu 2018) and its trainer's loss (nnue-pytorch); issue 27.
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
FT, L1 = 32, 32                 # the default widths (--ft, --l1)
MAX_FT, MAX_L1 = 256, 64        # network.h's kMaxFt, kMaxL1
MAX_ACTIVE = 30
CP_SCALE = 300                  # centi-pawns per unit of the float output
VERSION = 2                     # the file version of a net of one layer stack
VERSION_STACKS = 3              # and of three (network.h)
SLOT_SIZE = KINDS * CELLS       # features of one slot: feature // SLOT_SIZE is its slot
# The tuned piece values of eval/weights.h (queen rook bishop knight pawn wall), centi-pawns:
# the material term's start. tests/nnue/nnue_test.py checks they match that file.
PIECE_VALUES = (347, 243, 400, 415, 27, 244)


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


def features(a, chunk=200000):
    """Feature indices [N, 3, 30] (int16; PAD for none) and slot masks [N, 3] of records a,
    computed a chunk at a time and narrowed per chunk (the int64 work arrays of all records
    would not fit: 21.6 M three-player seats took 15.5 GB before the narrowing)."""
    def narrowed(b):
        f, m = features_of(b)
        return f.astype(np.int16), m
    parts = [narrowed(a[i:i + chunk]) for i in range(0, len(a), chunk)] or [narrowed(a)]
    return np.concatenate([f for f, _ in parts]), np.concatenate([m for _, m in parts])


def features_of(a):
    """features() of a few records, as int64."""
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
    """The float model of network.h: ft per perspective, l1 hidden, the material term; with
    buckets = 3, three stacks of the dense layers (unit b * l1 + j of l1 is stack b's j)."""

    def __init__(self, ft=FT, l1=L1, buckets=1):
        super().__init__()
        self.ft_width, self.l1_width, self.buckets = ft, l1, buckets
        self.ft = nn.Embedding(INPUTS + 1, ft, padding_idx=PAD)
        self.ft_bias = nn.Parameter(torch.zeros(ft))
        self.psqt = nn.Embedding(INPUTS + 1, 1, padding_idx=PAD)
        self.l1 = nn.Linear(SLOTS * ft, buckets * l1)
        self.out = nn.Linear(l1, buckets)   # weight [buckets, l1]: stack b's output row b
        nn.init.normal_(self.ft.weight, 0.0, 0.05)
        with torch.no_grad():
            self.ft.weight[PAD].zero_()
            self.ft_bias.fill_(0.3)
            self.psqt.weight.copy_(torch.from_numpy(material_init()))
            self.out.weight.zero_()   # a fresh net is its material term
            self.out.bias.zero_()

    def material(self, feats, mask):
        """The material term of the own perspective's features [B, 30] (float units)."""
        own = feats[:, 0, :]
        vals = self.psqt(own).squeeze(-1)                          # [B, 30]
        slot = torch.div(own, SLOT_SIZE, rounding_mode='floor')    # PAD: slot 3
        s = [(vals * (slot == k)).sum(dim=1) for k in range(3)]
        n = mask[:, 1] + mask[:, 2]
        others = (s[1] * mask[:, 1] + s[2] * mask[:, 2]) / torch.clamp(n, min=1.0)
        return s[0] - others

    def forward(self, feats, mask, bucket=None):
        """Float output (units of CP_SCALE cp); bucket [B] (long) the layer stack of each
        position (None: stack 0)."""
        feats = feats.long()
        acc = self.ft(feats).sum(dim=2) + self.ft_bias           # [B, 3, ft]
        x = torch.clamp(acc, 0.0, 1.0) * mask[:, :, None]
        h = torch.clamp(self.l1(x.reshape(x.shape[0], -1)), 0.0, 1.0)
        h = h.view(h.shape[0], self.buckets, self.l1_width)      # [B, buckets, l1]
        if bucket is None:
            bucket = torch.zeros(h.shape[0], dtype=torch.long)
        rows = torch.arange(h.shape[0])
        out = (h[rows, bucket] * self.out.weight[bucket]).sum(dim=1) + self.out.bias[bucket]
        return out + self.material(feats, mask)

    def clip(self):
        """Keeps the dense weights where int8 with scale 64 holds them (network.h)."""
        with torch.no_grad():
            self.l1.weight.clamp_(-127 / 64, 127 / 64)
            self.out.weight.clamp_(-127 / 64, 127 / 64)


def material_init():
    """The material term's weights [INPUTS + 1, 1]: each man's piece value in float units
    (any slot: the slots' combination gives the sign), hearts and PAD zero."""
    w = np.zeros((INPUTS + 1, 1), dtype=np.float32)
    for f in range(INPUTS):
        kind = (f // CELLS) % KINDS
        if kind < len(PIECE_VALUES):
            w[f, 0] = PIECE_VALUES[kind] / CP_SCALE
    return w


def load_games(paths, max_positions=0):
    """The records of paths in the order written (klinzha-gen's game order), none dropped."""
    parts = []
    for p in paths:
        try:
            parts.append(np.fromfile(p, dtype=DTYPE))
        except OSError as e:
            sys.exit(f'train.py: cannot read {p}: {e}')
    a = np.concatenate(parts) if parts else np.zeros(0, dtype=DTYPE)
    return a[:max_positions] if max_positions else a


def load(paths, max_positions=0):
    """The records of paths, each position once (in the order first met), at most
    max_positions of them (0: all)."""
    a = load_games(paths)
    _, first = np.unique(a['key'], return_index=True)   # each position once
    a = a[np.sort(first)]
    if max_positions and len(a) > max_positions:
        a = a[:max_positions]
    if len(a) == 0:
        sys.exit('train.py: no positions')
    return a


def expand_perspectives(a):
    """The records a (game order) as one sample per seat: (records, stack [N] int64). Each
    record of a three-player game once for each player still in: 'stm' set to that player
    (the perspective features() reads), 'score' and 'result' that player's: the record's own
    for the mover (stack 0); for the player who moves k plies later (k = 1, 2), those of the
    first record of the same game (a run of rising plies) where it moves, 1..k plies on
    (stack (3 - k) % 3: the mover's slot seen from it). A seat without such a record (its
    position was not written: a capture or a check there) gives no sample. Two-player
    records stay as they are (stack 0)."""
    n = len(a)
    if n == 0:
        return a, np.zeros(0, dtype=np.int64)
    game = np.cumsum(np.concatenate([[1], a['ply'][1:] <= a['ply'][:-1]]))
    stm, ply = a['stm'].astype(np.int64), a['ply'].astype(np.int64)
    out_bits = a['out'].astype(np.int64)
    recs, stacks = [a.copy()], [np.zeros(n, dtype=np.int64)]
    idx = np.arange(n)
    for k in (1, 2):
        p = (stm + k) % 3
        seat = (a['players'] == 3) & ((out_bits >> p) & 1 == 0)
        found = np.full(n, -1, dtype=np.int64)
        for d in (3, 2, 1):   # the nearest later record last, so that it wins
            j = np.minimum(idx + d, n - 1)
            m = (seat & (idx + d < n) & (game[j] == game) & (stm[j] == p) & (ply[j] - ply >= 1)
                 & (ply[j] - ply <= k))
            found = np.where(m, j, found)
        sel = np.nonzero(found >= 0)[0]
        b = a[sel].copy()
        b['stm'] = p[sel]
        b['score'] = a['score'][found[sel]]
        b['result'] = a['result'][found[sel]]
        recs.append(b)
        stacks.append(np.full(len(sel), (3 - k) % 3, dtype=np.int64))
    return np.concatenate(recs), np.concatenate(stacks)


def load_perspectives(paths, max_positions=0):
    """expand_perspectives() of the files' records, each (position, perspective) once."""
    a, stack = expand_perspectives(load_games(paths, max_positions))
    ident = a['key'] ^ (a['stm'].astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15))
    _, first = np.unique(ident, return_index=True)
    first = np.sort(first)
    if len(first) == 0:
        sys.exit('train.py: no positions')
    return a[first], stack[first]


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
    q = {'ft': net.ft_width, 'l1': net.l1_width, 'buckets': net.buckets}
    ft_w = net.ft.weight.detach().numpy()[:INPUTS]
    q['ft_bias'] = np.round(net.ft_bias.detach().numpy() * 127).astype(np.int16)
    q['ft_weight'] = np.clip(np.round(ft_w * 127), -32767, 32767).astype(np.int16)
    q['psqt'] = np.round(net.psqt.weight.detach().numpy()[:INPUTS, 0] * 127 * 64).astype(np.int32)
    q['l1_bias'] = np.round(net.l1.bias.detach().numpy() * 127 * 64).astype(np.int32)
    q['l1_weight'] = np.clip(np.round(net.l1.weight.detach().numpy() * 64), -127, 127).astype(np.int8)
    q['out_bias'] = np.round(net.out.bias.detach().numpy() * 127 * 64).astype(np.int32)   # [buckets]
    q['out_weight'] = np.clip(np.round(net.out.weight.detach().numpy() * 64), -127, 127).astype(np.int8)
    return q


def write_nnue(path, q):
    """Writes q (quantise()) as a .nnue file (network.h): version 2 for one layer stack,
    version 3 for three."""
    stacks = q.get('buckets', 1)
    with open(path, 'wb') as f:
        f.write(b'KZNN')
        f.write(struct.pack('<IIIIi', VERSION if stacks == 1 else VERSION_STACKS, INPUTS,
                            q['ft'], q['l1'], CP_SCALE))
        if stacks != 1:
            f.write(struct.pack('<I', stacks))
        f.write(q['ft_bias'].astype('<i2').tobytes())
        f.write(q['ft_weight'].astype('<i2').tobytes())
        f.write(q['psqt'].astype('<i4').tobytes())
        f.write(q['l1_bias'].astype('<i4').tobytes())
        f.write(q['l1_weight'].astype('i1').tobytes())
        f.write(np.asarray(q['out_bias']).astype('<i4').tobytes())
        f.write(q['out_weight'].astype('i1').tobytes())


def file_bytes(version, ft, l1, buckets=1):
    """The size of a .nnue file (network.h, Network::file_bytes)."""
    return (24 + (4 if version >= 3 else 0) + 2 * ft + 2 * INPUTS * ft
            + (4 * INPUTS if version >= 2 else 0) + buckets * (4 * l1 + l1 * SLOTS * ft + 4 + l1))


def read_nnue(path):
    """q (as quantise()) and cp_scale of a version 1, 2 or 3 .nnue file; exits on a bad one."""
    b = open(path, 'rb').read()
    if b[:4] != b'KZNN':
        sys.exit(f'{path}: not a klinzha network')
    version, inputs, ft, l1, scale = struct.unpack('<IIIIi', b[4:24])
    at = 24
    stacks = 1
    if version == 3:
        stacks = struct.unpack('<I', b[24:28])[0]
        at = 28
    if (version not in (1, 2, 3) or inputs != INPUTS or stacks not in (1, 3)
            or len(b) != file_bytes(version, ft, l1, stacks)):
        sys.exit(f'{path}: version {version} shape {inputs}x{ft}x{l1}, {stacks} stacks, '
                 f'{len(b)} bytes: not a network this trainer reads')

    def take(dtype, count):
        nonlocal at
        arr = np.frombuffer(b, dtype=dtype, count=count, offset=at)
        at += arr.nbytes
        return arr
    q = {'ft': ft, 'l1': l1, 'buckets': stacks, 'ft_bias': take('<i2', ft),
         'ft_weight': take('<i2', INPUTS * ft).reshape(INPUTS, ft)}
    q['psqt'] = take('<i4', INPUTS) if version >= 2 else np.zeros(INPUTS, dtype=np.int32)
    q['l1_bias'] = take('<i4', stacks * l1)
    q['l1_weight'] = take('i1', stacks * l1 * SLOTS * ft).reshape(stacks * l1, SLOTS * ft)
    q['out_bias'] = take('<i4', stacks)
    q['out_weight'] = take('i1', stacks * l1).reshape(stacks, l1)
    return q, scale


def quantised_eval(q, feats, mask, scale=CP_SCALE, bucket=None):
    """The integer inference of network.h (Network::propagate and evaluate() of
    accumulator.h), in numpy, written apart from the engine: centi-pawns. bucket: the layer
    stack of each position (None: 0)."""
    feats = feats.astype(np.int64)
    ft = q['ft']
    w = np.concatenate([q['ft_weight'].astype(np.int64), np.zeros((1, ft), dtype=np.int64)])
    acc = q['ft_bias'].astype(np.int64)[None, None, :] + w[feats].sum(axis=2)   # [N, 3, ft]
    acc = acc.astype(np.int16).astype(np.int64)  # int16 wrap, as the accumulator
    x = np.clip(acc, 0, 127) * mask[:, :, None].astype(np.int64)
    x = x.reshape(len(x), -1)
    stacks, l1 = q.get('buckets', 1), q['l1']
    b = np.zeros(len(x), dtype=np.int64) if bucket is None else np.asarray(bucket, dtype=np.int64)
    s = x @ q['l1_weight'].astype(np.int64).T + q['l1_bias'].astype(np.int64)[None, :]
    h = np.clip((s + 32) >> 6, 0, 127).reshape(len(x), stacks, l1)  # rounded, as network.cpp
    h = h[np.arange(len(x)), b]                                       # [N, l1] of its stack
    ow = np.asarray(q['out_weight']).reshape(stacks, l1).astype(np.int64)
    out = np.asarray(q['out_bias']).reshape(stacks).astype(np.int64)[b] + (h * ow[b]).sum(axis=1)
    # The material term: own slot minus the mean of the other slots in, C++ integer division.
    pw = np.concatenate([q['psqt'].astype(np.int64), [0]])
    own = feats[:, 0, :]
    slot = own // SLOT_SIZE
    per = [np.where(slot == k, pw[own], 0).sum(axis=1) for k in range(3)]
    m = mask.astype(np.int64)
    n = m[:, 1] + m[:, 2]
    others = per[1] * m[:, 1] + per[2] * m[:, 2]
    mean = np.sign(others) * (np.abs(others) // np.maximum(n, 1))
    out = out + per[0] - mean
    v = out * scale
    return (np.sign(v) * (np.abs(v) // (127 * 64))).astype(np.int64)  # C++ division truncates


def load_net(net, q):
    """Sets the float model net from q (read_nnue). A net of one layer stack starts each of
    net's stacks."""
    rep = net.buckets // q.get('buckets', 1)
    with torch.no_grad():
        net.ft.weight[:INPUTS] = torch.from_numpy(q['ft_weight'].astype(np.float32) / 127)
        net.ft_bias[:] = torch.from_numpy(q['ft_bias'].astype(np.float32) / 127)
        net.psqt.weight[:INPUTS, 0] = torch.from_numpy(q['psqt'].astype(np.float32) / (127 * 64))
        net.l1.weight[:] = torch.from_numpy(np.tile(q['l1_weight'].astype(np.float32) / 64, (rep, 1)))
        net.l1.bias[:] = torch.from_numpy(np.tile(q['l1_bias'].astype(np.float32) / (127 * 64), rep))
        ow = np.asarray(q['out_weight']).reshape(-1, net.l1_width).astype(np.float32) / 64
        net.out.weight[:] = torch.from_numpy(np.tile(ow, (rep, 1)))
        ob = np.asarray(q['out_bias']).reshape(-1).astype(np.float32) / (127 * 64)
        net.out.bias[:] = torch.from_numpy(np.tile(ob, rep))


def train(args):
    """Trains by args (main()'s options); returns the best net (float), its quantisation,
    and the held-out features and masks (for the checks of tests/nnue)."""
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    if args.threads:
        torch.set_num_threads(args.threads)
    if not (8 <= args.ft <= MAX_FT and args.ft % 8 == 0 and 1 <= args.l1 <= MAX_L1):
        sys.exit(f'train.py: --ft must be a multiple of 8 in 8..{MAX_FT}, --l1 in 1..{MAX_L1}')
    if args.perspectives:
        a, stack = load_perspectives(args.data, args.max_positions)
    else:
        a = load(args.data, args.max_positions)
        stack = np.zeros(len(a), dtype=np.int64)
    if args.held_out:
        if args.perspectives:
            h, hstack = load_perspectives([args.held_out])
        else:
            h = load([args.held_out])
            hstack = np.zeros(len(h), dtype=np.int64)
        apart = ~np.isin(h['key'], a['key'])    # no position in both sets
        h, hstack = h[apart], hstack[apart]
        if len(h) == 0:
            sys.exit('train.py: the held-out set has no position apart from the data')
        a = np.concatenate([a, h])
        stack = np.concatenate([stack, hstack])
        hold = np.arange(len(a) - len(h), len(a))
        fit = np.arange(len(a) - len(h))
    else:
        idx = np.random.permutation(len(a))
        hold = idx[: max(1, len(a) // 10)]
        fit = idx[len(hold):] if len(a) > 1 else idx
    score = a['score'].astype(np.float64)
    result = a['result'].astype(np.float64) / 2
    S = fit_scale(score[fit], result[fit])
    buckets = 3 if args.perspectives else 1
    print(f'positions {len(fit)} + held out {len(hold)} (three players '
          f'{np.mean(a["players"] == 3):.0%}; seats by stack {np.bincount(stack, minlength=3)}), '
          f'sigmoid scale S = {S}, net {args.ft}x{args.l1}x{buckets} stacks, lambda {args.lam}',
          flush=True)
    feats, mask = features(a)
    target = args.lam / (1 + np.exp(-score / S)) + (1 - args.lam) * result
    F = torch.from_numpy(feats)
    M = torch.from_numpy(mask)
    K = torch.from_numpy(stack)
    T = torch.from_numpy(target.astype(np.float32))
    net = Net(args.ft, args.l1, buckets)
    if args.init:
        q, _ = read_nnue(args.init)
        if (q['ft'], q['l1']) != (args.ft, args.l1) or buckets % q['buckets']:
            sys.exit(f'train.py: --init is {q["ft"]}x{q["l1"]}x{q["buckets"]}, the net '
                     f'{args.ft}x{args.l1}x{buckets}')
        load_net(net, q)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=args.lr_decay)

    def loss_on(rows):
        pred = torch.sigmoid(net(F[rows], M[rows], K[rows]) * CP_SCALE / S)
        return torch.mean((pred - T[rows]) ** 2)

    def held_loss():
        net.eval()
        with torch.no_grad():
            parts = [float(loss_on(torch.from_numpy(hold[i:i + 65536]))) * len(hold[i:i + 65536])
                     for i in range(0, len(hold), 65536)]
        return sum(parts) / len(hold)

    best = (held_loss(), 0, quantise(net), {k: v.clone() for k, v in net.state_dict().items()})
    start = f'the net {args.init}' if args.init else 'the material term alone'
    print(f'epoch 0  held-out loss {best[0]:.5f} ({start})', flush=True)
    for epoch in range(1, args.epochs + 1):
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
        held = held_loss()
        print(f'epoch {epoch}/{args.epochs}  train loss {total / max(batches, 1):.5f}  '
              f'held-out loss {held:.5f}', flush=True)
        if held < best[0]:
            best = (held, epoch, quantise(net), {k: v.clone() for k, v in net.state_dict().items()})
            # Written at each improvement, so an interrupted run leaves a usable network.
            write_nnue(args.output, best[2])
        elif epoch - best[1] >= args.patience:
            print(f'no better held-out loss for {args.patience} epochs: stopped', flush=True)
            break
    net.load_state_dict(best[3])
    q = best[2]
    write_nnue(args.output, q)
    # The quantised network against the float model on held-out positions.
    rows = hold[:2000]
    with torch.no_grad():
        fl = (net(F[rows], M[rows], K[rows]) * CP_SCALE).numpy()
    qu = quantised_eval(q, feats[rows], mask[rows], bucket=stack[rows])
    print(f'wrote {args.output} (epoch {best[1]}, held-out loss {best[0]:.5f}); quantised vs '
          f'float on {len(rows)} positions: mean |diff| {np.mean(np.abs(qu - fl)):.1f} cp, '
          f'max {np.max(np.abs(qu - fl)):.1f} cp, mean |score| {np.mean(np.abs(fl)):.0f} cp',
          flush=True)
    return net, q, feats[hold], mask[hold]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('data', nargs='*')
    ap.add_argument('-o', '--output', default='klinzha.nnue')
    ap.add_argument('--ft', type=int, default=FT, help='feature transformer width')
    ap.add_argument('--l1', type=int, default=L1, help='hidden layer width')
    ap.add_argument('--epochs', type=int, default=40)
    ap.add_argument('--lambda', dest='lam', type=float, default=1.0)
    ap.add_argument('--lr', type=float, default=1e-3)
    ap.add_argument('--lr-decay', type=float, default=0.93, help='learning rate factor per epoch')
    ap.add_argument('--patience', type=int, default=4, help='epochs without a better held-out loss')
    ap.add_argument('--held-out', default='', help='held-out data file (default: a tenth)')
    ap.add_argument('--batch', type=int, default=4096)
    ap.add_argument('--max-positions', type=int, default=0)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--init', default='')
    ap.add_argument('--threads', type=int, default=0)
    ap.add_argument('--perspectives', action='store_true',
                    help='three-player: every seat of each position, three layer stacks '
                         '(data in game order)')
    args = ap.parse_args(argv)
    if not args.data:
        ap.error('give the data files')
    train(args)


if __name__ == '__main__':
    main()
