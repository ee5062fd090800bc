// search/history.h: the move-ordering statistics one search thread keeps between searches:
// the history of quiet moves and the counter-moves.
//
// History: a score per colour, "from" index and destination cell, raised for a quiet move
// that cut off and lowered for the quiet moves tried before it (the bonus depth^2-shaped,
// with gravity so scores stay within +-kHistoryMax, below the killers' 2^27 in movepick.h).
// The "from" index is the from-cell of a normal move, 81 + the type of a placement, 87 for a
// heart placement. Counter-moves: the quiet move that last refuted a move, by that move's
// from and to cells. Source: Schaeffer's history heuristic (1989), Uiterwijk's counter-move
// heuristic (1992); Stockfish's history.h for the gravity update.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>

#include "engine/position.h"

namespace klinzha {

/// The "from" indices of the history: 81 cells, 6 placement types, the heart placement.
inline constexpr int kHistoryFrom = kCells + 7;
/// History scores stay within +-kHistoryMax.
inline constexpr int kHistoryMax = 1 << 14;

/// The history bonus of a quiet move that cut off at `depth` plies (its malus for the quiet
/// moves tried before it).
inline int history_bonus(int depth) {
    return std::min(32 * depth * depth + 64 * depth, 2400);
}

struct History {
    int butterfly[kColours][kHistoryFrom][kCells]{};
    Move counter[kCells][kCells]{};  ///< by the previous move's from and to cells

    /// The history "from" index of m (any kind of move).
    static int from_index(Move m) {
        return m.kind() == Move::Normal  ? m.from()
               : m.kind() == Move::Place ? kCells + m.placed_type()
                                         : kCells + 6;
    }

    /// The history score of m for colour us.
    int score(Colour us, Move m) const { return butterfly[us][from_index(m)][m.to()]; }

    /// Gravity update of a quiet move's score by `bonus` (negative: a malus).
    void update(Colour us, Move m, int bonus) {
        int& h = butterfly[us][from_index(m)][m.to()];
        h += bonus - h * std::abs(bonus) / kHistoryMax;
    }

    /// The quiet move `best` cut off at `depth`: it gains the bonus, and the `n_tried` quiet
    /// moves tried before it lose it.
    void reward_quiet(Colour us, Move best, const Move* tried, std::size_t n_tried, int depth) {
        const int bonus = history_bonus(depth);
        update(us, best, bonus);
        for (std::size_t k = 0; k < n_tried; ++k) update(us, tried[k], -bonus);
    }

    /// The counter-move slot of the move `prev`, or nullptr when it was not a normal move.
    Move* counter_slot(Move prev) {
        return prev.kind() == Move::Normal ? &counter[prev.from()][prev.to()] : nullptr;
    }
    /// The quiet move that last refuted `prev`, or none.
    Move counter_move(Move prev) const {
        return prev.kind() == Move::Normal ? counter[prev.from()][prev.to()] : Move();
    }
};

}  // namespace klinzha
