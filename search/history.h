// search/history.h: the move-ordering statistics one search thread keeps between searches:
// the history of quiet moves and the counter-moves.
//
// History: a score per colour, "from" index and destination cell, raised for a quiet move
// that cut off and lowered for the quiet moves tried before it (the bonus depth^2-shaped,
// with gravity so scores stay within +-kHistoryMax, below the killers' 2^27 in movepick.h).
// The "from" index is the from-cell of a normal move, 81 + the type of a placement, 87 for a
// heart placement. Counter-moves: the quiet move that last refuted a move, by that move's
// from and to cells. The continuation history: a score per pair (the move before, the move),
// each named by the type of the man moved and its destination cell, updated as the history
// is; a quiet move is ordered by the sum of the two. Source: Schaeffer's history heuristic
// (1989), Uiterwijk's counter-move heuristic (1992); Stockfish's history.h for the gravity
// update and its continuation history (the "counter-move history" of one ply).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
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

/// The continuation history's indices: a piece type times 81 plus the destination cell;
/// kNoContinuation for a move that is not a normal move of a man (placements, passes).
inline constexpr int kContinuations = kPieceTypes * kCells;
inline constexpr int kNoContinuation = -1;

/// Gravity update of one history score h by `bonus` (negative: a malus): h stays within
/// +-kHistoryMax however many updates come.
inline int with_bonus(int h, int bonus) {
    return h + bonus - h * std::abs(bonus) / kHistoryMax;
}

struct History {
    int butterfly[kColours][kHistoryFrom][kCells]{};
    Move counter[kCells][kCells]{};  ///< by the previous move's from and to cells
    /// [the move before][the move], by continuation index (486 x 486 x 2 bytes, 461 KiB).
    std::int16_t continuation[kContinuations][kContinuations]{};

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
        h = with_bonus(h, bonus);
    }

    /// The quiet move `best` cut off at `depth`: it gains the bonus, and the `n_tried` quiet
    /// moves tried before it lose it.
    void reward_quiet(Colour us, Move best, const Move* tried, std::size_t n_tried, int depth) {
        const int bonus = history_bonus(depth);
        update(us, best, bonus);
        for (std::size_t k = 0; k < n_tried; ++k) update(us, tried[k], -bonus);
    }

    /// The continuation index of the move m about to be played in pos (kNoContinuation for
    /// a placement or a pass).
    static int continuation_index(const Position& pos, Move m) {
        if (m.kind() != Move::Normal) return kNoContinuation;
        return continuation_of(pos.man_on(m.from()), m.to());
    }
    /// The continuation index of the move that led to pos: the man now on its destination
    /// (kNoContinuation when there was none, it was no normal move, or, in Kinta, the
    /// attacker fell and left the cell empty).
    static int last_continuation(const Position& pos) {
        const Move m = pos.state().last_move;
        if (m.kind() != Move::Normal) return kNoContinuation;
        return continuation_of(pos.man_on(m.to()), m.to());
    }
    /// The continuation index of `man` arriving on cell `to` (kNoContinuation for kNoMan).
    static int continuation_of(Man man, Cell to) {
        return man == kNoMan ? kNoContinuation : man_type(man) * kCells + to;
    }
    /// The continuation score of the move of index `idx` after the move of index `prev`
    /// (0 when either is kNoContinuation).
    int continuation_score(int prev, int idx) const {
        return prev == kNoContinuation || idx == kNoContinuation ? 0 : continuation[prev][idx];
    }
    /// The quiet move `best` cut off at `depth` in pos: in the continuation history of the
    /// move that led to pos it gains the bonus, and the `n_tried` quiet moves tried before
    /// it lose it (reward_quiet's rule).
    void reward_continuation(const Position& pos, Move best, const Move* tried, std::size_t n_tried,
                             int depth) {
        const int prev = last_continuation(pos);
        if (prev == kNoContinuation) return;
        const int bonus = history_bonus(depth);
        auto update = [&](Move m, int b) {
            const int idx = continuation_index(pos, m);
            if (idx == kNoContinuation) return;
            std::int16_t& h = continuation[prev][idx];
            h = std::int16_t(with_bonus(h, b));
        };
        update(best, bonus);
        for (std::size_t k = 0; k < n_tried; ++k) update(tried[k], -bonus);
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
