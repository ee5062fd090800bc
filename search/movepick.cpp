// search/movepick.cpp: see movepick.h.
#include "movepick.h"

#include "eval/evaluate.h"

namespace klinzha {

OrderContext order_context(const Position& pos, const History& h, Move tt, Move killer0,
                           Move killer1, bool kinta_odds) {
    OrderContext o;
    o.tt = tt;
    o.killer0 = killer0;
    o.killer1 = killer1;
    o.counter = h.counter_move(pos.state().last_move);
    o.prev = History::last_continuation(pos);
    o.us = pos.to_move();
    o.kinta = pos.kinta();
    o.kinta_odds = kinta_odds;
    o.hearts = pos.takeable_hearts();
    return o;
}

combat::Odds fight_odds(const Position& pos, Move m, bool kinta_odds) {
    const auto [a, d] = combat::fighters(pos, m);
    if (!kinta_odds) return {1.0f, std::uint8_t(a.strength), std::uint8_t(d.strength)};
    return combat::odds(a, d);
}

int order_score(const Position& pos, const History& h, const OrderContext& o, Move m) {
    if (m == o.tt) return 1 << 30;
    if (m.kind() != Move::Normal) return h.score(o.us, m);  // placements by the type placed
    if (test(o.hearts, m.to())) return 1 << 29;
    const Man victim = pos.man_on(m.to());
    if (victim != kNoMan && o.kinta) {  // the fight's expected gain
        const double p = fight_odds(pos, m, o.kinta_odds).win;
        const double gain = p * eval::kPieceValue[man_type(victim)] -
                            (1 - p) * eval::kPieceValue[man_type(pos.man_on(m.from()))];
        return (1 << 28) + 4096 + int(gain * 4);
    }
    if (victim != kNoMan)
        return (1 << 28) + eval::kPieceValue[man_type(victim)] * 16 -
               eval::kPieceValue[man_type(pos.man_on(m.from()))];
    if (m == o.killer0) return (1 << 27) + 2;
    if (m == o.killer1) return (1 << 27) + 1;
    if (m == o.counter) return 1 << 27;
    return h.score(o.us, m) + h.continuation_score(o.prev, History::continuation_index(pos, m));
}

}  // namespace klinzha
