// eval/evaluate.h: the static evaluation of a position, in centi-pawns.
//
// Terms (weights in evaluate.cpp, all in one table): material, mobility, heart safety
// (attackers that reach the heart's cell, own carriers near it, a heart left alone), wall
// zones and what they shield, pieces shut in. Sources: SPEC 2-5; the Italian rules'
// tournament points (002, "Tournament") for the order of piece values.
#pragma once

#include <array>
#include <string>

#include "engine/movegen.h"
#include "engine/position.h"

namespace klinzha::eval {

/// Score magnitudes. Heart captures are scored as mates: kMate - ply (SPEC 7).
inline constexpr int kMate = 30000;
inline constexpr int kMateBound = kMate - 1000;  ///< scores beyond this are mates
inline constexpr int kInfinite = 32000;

/// Piece values in centi-pawns, indexed by PieceType (Q R B N P W).
inline constexpr int kPieceValue[kPieceTypes] = {330, 240, 390, 430, 100, 250};

/// The evaluation for colour `us` in centi-pawns (positive = good for us). In a
/// three-player game it is us against the mean of the other players still in. If reach is
/// given it receives the Reach (movegen.h) of every colour still in, as computed here.
int evaluate(const Position& pos, Colour us, std::array<Reach, kColours>* reach = nullptr);

/// The evaluation from the point of view of the player to move (two players), or of the
/// team of `root` against the coalition (paranoid, three players): +evaluate(root) when
/// root is to move, -evaluate(root) otherwise.
int evaluate_for_mover(const Position& pos, Colour root);

/// A table of every term for each colour, for the `eval` command (one line per term).
std::string trace(const Position& pos);

}  // namespace klinzha::eval
