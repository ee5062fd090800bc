// search/brs.cpp: Best-Reply Search's opponents' layer in three players (worker.h):
// Schadd and Winands 2011; BRS+ of Esser et al. 2013. Source: SPEC 7 (three players).
#include <algorithm>
#include <limits>

#include "worker.h"

namespace klinzha::detail {

Move Worker::first_by_ordering(int ply) {
    MoveList l;
    generate_legal(pos_, l);
    Move best = Move::null();
    int best_score = std::numeric_limits<int>::min();
    const OrderContext oc = order_context(Move(), ply);
    for (Move m : l)
        if (int sc = order_score(oc, m); sc > best_score) {
            best_score = sc;
            best = m;
        }
    return best;
}

int Worker::brs_search(int alpha, int beta, int depth, int ply, bool pv_node, Move tt_move,
                       std::uint64_t key) {
    std::vector<BrsReply>& replies = brs_replies_[std::size_t(ply)];  // kept: no allocation
    replies.clear();
    MoveList l;
    generate_legal(pos_, l);
    if (l.size == 0) return no_moves(alpha, beta, depth, ply);
    // Step BRS-1. The first opponent moves; the second is idle.
    const OrderContext oc = order_context(tt_move, ply);
    for (Move m : l) replies.push_back({m, Move(), order_score(oc, m), is_capture(oc, m)});
    // Step BRS-2. The first opponent is idle; the second moves.
    const Move idle = idle_reply(ply);
    pos_.do_move(with_likelier_outcome(idle));
    if (pos_.to_move() != root_ && pos_.phase() == Phase::Play && !pos_.game_over()) {
        MoveList l2;
        generate_legal(pos_, l2);
        const OrderContext oc2 = order_context(Move(), ply + 1);
        for (Move m : l2)
            replies.push_back(
                {idle, m, order_score(oc2, m) - (m == tt_move ? 0 : 1), is_capture(oc2, m)});
    }
    pos_.undo_move();
    const bool danger = heart_in_danger();
    const int alpha0 = alpha;
    int best = -kInfinite;
    Move best_move;
    const Colour mover = pos_.to_move();
    // The first opponent's quiet replies that did not cut off (the history malus).
    std::array<Move, 64> quiets_tried;
    std::size_t n_quiets_tried = 0;
    // Best first: picked one by one for the first few (a cut-off comes early as a rule),
    // the rest sorted once when the layer goes on.
    constexpr std::size_t kPicked = 6;
    auto by_order = [](const BrsReply& a, const BrsReply& b) { return a.order > b.order; };
    for (std::size_t i = 0; i < replies.size(); ++i) {
        if (i < kPicked)
            std::iter_swap(
                replies.begin() + std::ptrdiff_t(i),
                std::min_element(replies.begin() + std::ptrdiff_t(i), replies.end(), by_order));
        else if (i == kPicked)
            std::stable_sort(replies.begin() + std::ptrdiff_t(i), replies.end(), by_order);
        const BrsReply& rp = replies[i];
        // Step BRS-3. Play the pair: the first opponent's move (or idle reply), then the
        // second's (or its idle reply), unless the game or the layer ended in between.
        // Kinta: the layer plays each attack's likelier outcome (no chance node here).
        int done = 1;
        pos_.do_move(with_likelier_outcome(rp.first));
        Move second = rp.second;
        if (second.is_none() && !pos_.game_over() && pos_.phase() == Phase::Play &&
            pos_.to_move() != root_)
            second = idle_reply(ply + 1);
        if (!second.is_none() && !pos_.game_over() && pos_.to_move() != root_) {
            pos_.do_move(with_likelier_outcome(second));
            ++done;
        } else {
            second = Move();
        }
        const bool same = team(mover) == team(pos_.to_move());
        auto child_at = [&](int a, int b, int d, bool pv) {
            return same ? search(a, b, d, ply + done, pv) : -search(-b, -a, d, ply + done, pv);
        };
        pv_len_[ply + done] = ply + done;
        int r = 0;
        if (i > 0 && depth >= 3 && i >= 3 && !rp.capture && !danger && rp.order < (1 << 27))
            r = std::clamp(reduction(depth, i), 0, depth - 2);
        const int score = pvs(child_at, i == 0, r, alpha, beta, depth, pv_node);
        for (int k = 0; k < done; ++k) pos_.undo_move();
        if (stopped()) return 0;
        if (score < beta && !rp.capture && rp.second.is_none() && rp.first.kind() == Move::Normal &&
            n_quiets_tried < quiets_tried.size())
            quiets_tried[n_quiets_tried++] = rp.first;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = rp.second.is_none() ? rp.first : rp.second;
                if (score >= beta) {  // (the PV of a cut-off is not used)
                    if (!rp.capture && rp.second.is_none() && rp.first.kind() == Move::Normal) {
                        history_.reward_quiet(pos_.to_move(), rp.first, quiets_tried.data(),
                                              n_quiets_tried, depth);
                    }
                    break;
                }
                alpha = score;
                update_pv(ply, rp.first, second);
            }
        }
    }
    return store(key, best_move, best, alpha0, beta, depth, ply);
}

}  // namespace klinzha::detail
