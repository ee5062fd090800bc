// engine/movegen.h: legal moves of every phase under the rule options (SPEC 3-6, 8).
//
// Placement (SPEC 6.1), heart placement (6.2) and play (3-5), with GoalSafety (SPEC 8)
// applied by trying each move, and the variants of SPEC 15-23 (RelationDilemma's spared
// colour, clouds, ablated cells, HonorInSetup, Reflective's shared army, Courier,
// BlockaderTraps, GoalCrossesZoneIfThreatened, BlockaderTakesGoalLast) as masks computed once
// per call. Generation reads Rules; it never checks a rule of its own.
#pragma once

#include <array>
#include <cstddef>

#include "geometry.h"
#include "position.h"

namespace klinzha {

/// A fixed-capacity list of moves (no allocation). 1024 is above the most moves any
/// position can have (three full sets under PowerVanguard stay below 700).
struct MoveList {
    /// Storage left uninitialised (Move's default constructor would zero 4 KiB per list,
    /// at every node): only moves[0, size) are ever read, each written first.
    MoveList() {}
    union {
        std::array<Move, 1024> moves;
    };
    std::size_t size = 0;
    void push(Move m) { moves[size++] = m; }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + size; }
    Move* begin() { return moves.data(); }
    Move* end() { return moves.data() + size; }
    bool contains(Move m) const;
};

/// The path class of each piece type (SPEC 2-3: steps, straight or any, the knight's
/// jump), by PieceType; PowerVanguard (SPEC 8) gives the pawn the wall's two steps. The
/// heart has none (it is carried, SPEC 4): HEART is not a valid argument.
inline geo::PathClass path_class(PieceType t, const Rules& r) {
    using geo::PathClass;
    constexpr std::array<std::array<PathClass, kPieceTypes>, 2> kPathClass{{
        {PathClass::Queen, PathClass::Rook, PathClass::Bishop, PathClass::Knight, PathClass::Step1,
         PathClass::Step2},
        {PathClass::Queen, PathClass::Rook, PathClass::Bishop, PathClass::Knight, PathClass::Step2,
         PathClass::Step2},
    }};
    return kPathClass[r.power_vanguard][t];
}

/// Appends every legal move of the player to move to `list` (cleared first). A finished
/// game (Position::game_over) has none.
void generate_legal(const Position& pos, MoveList& list);

/// As generate_legal, but in the play phase only the moves that end on a cell of `targets`
/// (e.g. the occupied cells and hearts: the captures); in the setup phases every move.
void generate_legal_to(const Position& pos, MoveList& list, Bitboard targets);

/// Number of legal moves (faster than generate_legal when GoalSafety is off).
std::size_t count_legal(const Position& pos);

/// True if the player to move has at least one legal move.
bool has_legal_move(const Position& pos);

/// True if m is a legal move in pos.
bool is_legal(const Position& pos, Move m);

/// True if `attacker` has a move, legal but for GoalSafety and whoever's turn it is, that
/// ends on the heart of `victim` and so captures it (SPEC 4, 8, 14). False if victim has no
/// heart on the board or attacker is out. Reflective (SPEC 21): whether any move ends on the
/// one heart, whatever the colours.
bool attacks_heart(const Position& pos, Colour attacker, Colour victim);

/// True if any colour but `owner` attacks owner's heart (SPEC 14); Reflective: whether the
/// one heart is attacked at all. False if owner has no heart on the board.
bool heart_attacked(const Position& pos, Colour owner);

/// The cells where a man would capture or stand in the way of an attack on victim's heart:
/// the cells of the men (of every other colour in, or of `only` alone) that can take it now,
/// and every intermediate cell of their paths to it. A superset of what matters (paths
/// already blocked are included); a move that saves the heart ends on one of these cells,
/// carries the heart, moves a wall, leaves from the heart's cell or takes a heart. Empty if
/// victim has no heart on the board; every cell under Reflective (SPEC 21). SPEC 3, 4, 5.
Bitboard heart_attack_lines(const Position& pos, Colour victim, Colour only = NO_COLOUR);

/// What colour c's pieces can do in play (moves legal but for GoalSafety and the turn):
/// the evaluation's raw material (eval/). Works in every phase on the men on the board.
struct Reach {
    Bitboard targets = 0;  ///< every cell some piece of c can move to
    Bitboard mobile = 0;   ///< cells of c's pieces that have at least one move
    int moves = 0;         ///< number of such moves (carry variants included)
    std::array<int, kColours> heart_attackers{};  ///< pieces of c that can take colour x's heart
};

/// The Reach of colour c in pos.
Reach reach_of(const Position& pos, Colour c);

}  // namespace klinzha
