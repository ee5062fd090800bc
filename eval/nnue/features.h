// eval/nnue/features.h: the network's input features (the "HalfKP" of this game: every man,
// seen from one perspective).
//
// A perspective is a colour p. The board is turned so that p's region becomes Green's (the
// cells are mapped by their strip coordinates: a rotation by 120 degrees in three-player
// games, the mirror that swaps Green's and Blue's regions in two-player games), and each
// other colour is named by its seat relative to p: slot 0 p itself, slot 1 the colour after p
// in turn order (the opponent in two players), slot 2 the one after that. A feature is one
// man or heart on one cell:
//
//     index = (slot * kKinds + kind) * 81 + turned cell        (kInputs = 3 * 8 * 81 = 1944)
//
// with kind 0..5 the piece types Q R B N P W, 6 a heart standing alone, 7 a heart carried (its
// carrier is a feature of its own too). So one set of weights serves every colour and both
// game sizes. tools/nnue/train.py computes the same features (its tables are built from the
// same rules: a test compares them). Source: SPEC 1 (strip coordinates, regions), 2, 4, 6.3.
#pragma once

#include <array>
#include <cstdint>

#include "engine/position.h"

namespace klinzha::nnue {

inline constexpr int kKinds = 8;
inline constexpr int kSlots = 3;
inline constexpr int kInputs = kSlots * kKinds * kCells;  // 1944
/// The most features one perspective can have: 27 men and 3 hearts.
inline constexpr int kMaxActive = 3 * kSetSize + kColours;

/// The cell c as perspective p sees it in a game of `players` (2 or 3).
Cell turned_cell(Cell c, Colour p, int players);
/// The slot of colour c seen from perspective p (0 own, 1 next in turn order, 2 the one
/// after that; in two players the opponent is always 1).
int slot_of(Colour c, Colour p, int players);

/// The feature of a man of colour c and kind k (0..7) on cell sq, seen from p.
inline int feature_index(Colour c, int kind, Cell sq, Colour p, int players) {
    return (slot_of(c, p, players) * kKinds + kind) * kCells + turned_cell(sq, p, players);
}

/// The active features of pos from perspective p; returns how many (at most kMaxActive).
int active_features(const Position& pos, Colour p, std::array<int, kMaxActive>& out);

/// The features of one cell: its man and the heart on it (0, 1 or 2 features). Used to
/// update an accumulator by the cells a move changed.
int cell_features(Man man, Colour heart_owner, Cell sq, Colour p, int players, int out[2]);

}  // namespace klinzha::nnue
