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

std::optional<Worker::BrsReply> Worker::brs_table_reply(Move tt_move, int ply) {
    if (tt_move.kind() != Move::Normal) return std::nullopt;
    const Man man = pos_.man_on(tt_move.from());
    if (man == kNoMan || takes_other_opponents_heart(tt_move)) return std::nullopt;
    if (man_colour(man) == pos_.to_move()) {
        if (!is_legal(pos_, tt_move)) return std::nullopt;
        return BrsReply{tt_move, Move(), 1 << 30, is_capture(tt_move)};
    }
    // The second's move: legal once the first played its idle reply. The first must have
    // a legal move (else it is out: no_moves, after the generation).
    if (!has_legal_move(pos_)) return std::nullopt;
    const Move idle = idle_reply(ply);
    pos_.do_move(with_likelier_outcome(idle));
    const bool ok =
        second_opponent_moves() && man_colour(man) == pos_.to_move() && is_legal(pos_, tt_move);
    const bool capture = ok && is_capture(tt_move);
    pos_.undo_move();
    if (!ok) return std::nullopt;
    return BrsReply{idle, tt_move, 1 << 30, capture};
}

std::size_t Worker::brs_generate(std::vector<BrsReply>& replies, Move tt_move, int ply) {
    MoveList l;
    generate_legal(pos_, l);
    if (l.size == 0) return 0;
    // Step BRS-1. The first opponent moves; the second is idle. Neither opponent takes the
    // other's heart in the layer (takes_other_opponents_heart).
    const OrderContext oc = order_context(tt_move, ply);
    auto add_first = [&](bool all) {
        for (Move m : l)
            if (all || !takes_other_opponents_heart(m))
                replies.push_back({m, Move(), order_score(oc, m), is_capture(oc, m)});
    };
    add_first(false);
    // Step BRS-2. The first opponent is idle; the second moves.
    const Move idle = idle_reply(ply);
    pos_.do_move(with_likelier_outcome(idle));
    if (second_opponent_moves()) {
        MoveList l2;
        generate_legal(pos_, l2);
        // The table's move may be the second's (it stores whichever reply was best): then
        // it comes first here too. Equal scores otherwise put the first's replies first.
        const OrderContext oc2 = order_context(tt_move, ply + 1);
        for (Move m : l2)
            if (!takes_other_opponents_heart(m))
                replies.push_back(
                    {idle, m, order_score(oc2, m) - (m == tt_move ? 0 : 1), is_capture(oc2, m)});
    }
    pos_.undo_move();
    if (replies.empty()) add_first(true);  // each reply takes a heart: the first's stay
    return l.size;
}

int Worker::brs_reply(const BrsReply& rp, std::size_t i, bool danger, int alpha, int beta,
                      int depth, int ply, bool pv_node, Move& second) {
    // Step BRS-3. Play the pair: the first opponent's move (or idle reply), then the
    // second's (or its idle reply), unless the game or the layer ended in between.
    // Kinta: the layer plays each attack's likelier outcome (no chance node here).
    const Colour mover = pos_.to_move();
    int done = 1;
    pos_.do_move(with_likelier_outcome(rp.first));
    second = rp.second;
    if (second.is_none() && second_opponent_moves()) second = idle_reply(ply + 1);
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
    return score;
}

int Worker::brs_search(int alpha, int beta, int depth, int ply, bool pv_node, Move tt_move,
                       std::uint64_t key) {
    std::vector<BrsReply>& replies = brs_replies_[std::size_t(ply)];  // kept: no allocation
    replies.clear();
    // Step BRS-0. The table's reply alone first: when it cuts off, neither opponent's moves
    // are generated nor scored (as at the root player's nodes).
    const std::optional<BrsReply> table = brs_table_reply(tt_move, ply);
    if (table) replies.push_back(*table);
    bool generated = !table;
    if (generated && brs_generate(replies, tt_move, ply) == 0)
        return no_moves(alpha, beta, depth, ply);
    const bool danger = heart_in_danger();
    const int alpha0 = alpha;
    int best = -kInfinite;
    Move best_move;
    const Colour mover = pos_.to_move(), second_mover = pos_.next(mover);
    // Each opponent's quiet replies that did not cut off (the history malus): [0] the
    // first's, [1] the second's, each rewarded and punished under its own colour.
    std::array<std::array<Move, 64>, 2> quiets_tried;
    std::array<std::size_t, 2> n_quiets_tried{};
    // Best first: picked one by one for the first few (a cut-off comes early as a rule),
    // the rest sorted once when the layer goes on.
    constexpr std::size_t kPicked = 6;
    auto by_order = [](const BrsReply& a, const BrsReply& b) { return a.order > b.order; };
    for (std::size_t i = 0; i < replies.size(); ++i) {
        if (generated && i < kPicked)
            std::iter_swap(
                replies.begin() + std::ptrdiff_t(i),
                std::min_element(replies.begin() + std::ptrdiff_t(i), replies.end(), by_order));
        else if (generated && i == kPicked)
            std::stable_sort(replies.begin() + std::ptrdiff_t(i), replies.end(), by_order);
        const BrsReply rp = replies[i];
        Move second;
        const int score = brs_reply(rp, i, danger, alpha, beta, depth, ply, pv_node, second);
        if (stopped()) return 0;
        // The reply's own move: the first opponent's, or the second's after an idle first.
        const int who = rp.second.is_none() ? 0 : 1;
        const Move own = who == 0 ? rp.first : rp.second;
        const bool quiet = !rp.capture && own.kind() == Move::Normal;
        if (score < beta && quiet && n_quiets_tried[who] < quiets_tried[who].size())
            quiets_tried[who][n_quiets_tried[who]++] = own;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = own;
                if (score >= beta) {  // (the PV of a cut-off is not used)
                    if (quiet)
                        history_.reward_quiet(who == 0 ? mover : second_mover, own,
                                              quiets_tried[who].data(), n_quiets_tried[who], depth);
                    break;
                }
                alpha = score;
                update_pv(ply, rp.first, second);
            }
        }
        if (!generated) {  // the table's reply did not cut off: now the others
            generated = true;
            brs_generate(replies, tt_move, ply);
            const auto dup = std::find_if(
                replies.begin() + 1, replies.end(),
                [&](const BrsReply& x) { return x.first == rp.first && x.second == rp.second; });
            if (dup != replies.end()) replies.erase(dup);
        }
    }
    return store(key, best_move, best, alpha0, beta, depth, ply);
}

}  // namespace klinzha::detail
