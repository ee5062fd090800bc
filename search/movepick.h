// search/movepick.h: move ordering: the score that decides which move a node searches first.
//
// Order (higher first): the transposition table's move, a heart capture, captures of men by
// victim then attacker (Kinta, SPEC 26: by the fight's expected gain), the two killers, the
// counter-move, then the history and the continuation history of the move before, summed
// (history.h; placements by the type placed). A node gathers what ordering reads once
// (OrderContext), scores every move, then picks the best unsearched one at a time
// (pick_next: most nodes cut off after a few moves, so a full sort wastes work).
// Source: Stockfish's movepick.cpp (the stages), adapted to this game's captures and hearts.
#pragma once

#include <array>
#include <cstddef>

#include "engine/combat.h"
#include "engine/movegen.h"
#include "history.h"

namespace klinzha {

/// What move ordering reads of a node, gathered once (order_score runs for every move).
struct OrderContext {
    Move tt, killer0, killer1, counter;
    int prev = kNoContinuation;  ///< the continuation index of the move before (history.h)
    Bitboard hearts;             ///< cells where a move takes a heart (Position::takeable_hearts)
    Colour us;
    bool kinta;
    bool kinta_odds;  ///< Kinta: weigh fights by their odds (false: the sure-win baseline)
};

/// The context of pos: the table's move tt, the ply's two killers, the history's counter-move.
OrderContext order_context(const Position& pos, const History& h, Move tt, Move killer0,
                           Move killer1, bool kinta_odds);

/// Kinta (SPEC 26): the odds of the attack m in pos; with kinta_odds false, a sure win that
/// leaves both strengths as they are (a baseline for matches).
combat::Odds fight_odds(const Position& pos, Move m, bool kinta_odds);

/// Move ordering's score of m in pos (higher first), as the file's header orders them.
int order_score(const Position& pos, const History& h, const OrderContext& o, Move m);

/// Position::is_capture(m), the hearts read from the node's context.
inline bool is_capture(const Position& pos, const OrderContext& o, Move m) {
    return m.kind() == Move::Normal && (pos.man_on(m.to()) != kNoMan || test(o.hearts, m.to()));
}

/// Moves the best-scored of l's moves i.. (with its score in sc) to index i.
inline void pick_next(MoveList& l, std::array<int, 1024>& sc, std::size_t i) {
    std::size_t best = i;
    for (std::size_t j = i + 1; j < l.size; ++j)
        if (sc[j] > sc[best]) best = j;
    std::swap(l.moves[i], l.moves[best]);
    std::swap(sc[i], sc[best]);
}

}  // namespace klinzha
