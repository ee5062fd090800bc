// search/mcts.cpp: Monte Carlo tree search for three players (MultiplayerSearch mcts; the
// tree in mcts.h): max^n backups of one value per player, the evaluation at the leaves (each
// player's standing after a quiescence with it as the root; Params::quiescence_all false: the
// mover's alone, the others' static standings), PUCT selection with a
// prior from move ordering, Progressive History. Kinta's fights take an outcome drawn by
// their odds each time they are played (an open-loop tree: a node stands for the moves, not
// for one position). Sources: SPEC 7 (three players), 26 (Kinta); the papers in mcts.h.
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <random>

#include "worker.h"

namespace klinzha {

namespace mcts {

int value_to_cp(double v, double scale) {
    v = std::clamp(v, 1e-4, 1 - 1e-4);
    return std::clamp(int(std::lround(scale * std::log(v / (1 - v)))), -3000, 3000);
}

double cp_to_value(int cp, double scale) {
    if (cp >= eval::kMateBound) return 1.0;
    if (cp <= -eval::kMateBound) return 0.0;
    return 1.0 / (1.0 + std::exp(-double(cp) / scale));
}

}  // namespace mcts

namespace detail {

/// One search's tree, its Progressive History, the path of the current iteration and the
/// random draws of Kinta's fights.
struct MctsState {
    mcts::Params params;
    std::vector<mcts::Node> tree;
    mcts::ProgressiveHistory history;
    std::vector<std::uint32_t> path;  ///< node indices from the root
    std::vector<Colour> movers;       ///< who chose each move of the path
    std::mt19937_64 rng;
    std::uint64_t iterations = 0;
    std::uint64_t leaf_plies = 0;  ///< summed over the iterations (the mean depth)
    int max_ply = 0;
};

namespace {

using Values = std::array<float, kColours>;

/// Progressive History's index of move m for colour c.
std::size_t history_index(Colour c, Move m) {
    return mcts::ProgressiveHistory::index(c, History::from_index(m), m.to());
}

}  // namespace

bool Worker::mcts_applies() const {
    return sh_.settings.multiplayer == MultiplayerSearch::Mcts && pos_.players() == 3 &&
           pos_.players_in() == 3 && pos_.phase() == Phase::Play && !pos_.rules().blind &&
           !root_moves.empty();
}

int Worker::standing_of(Colour c) {
    if (net_ && eval::nnue_applies(pos_))
        return toward_draw(nnue_standing(c) + eval::beside_network(pos_, c) - heart_lateness(c));
    return toward_draw(eval::evaluate(pos_, c, eval_cache_) - heart_lateness(c));
}

bool Worker::mcts_game_end(Values& u) const {
    u.fill(0.0f);
    if (pos_.game_over()) {
        const Colour w = pos_.winner();
        if (w != NO_COLOUR) {
            u[w] = 1.0f;
            return true;
        }
    } else if (!pos_.move_count_draw() && !pos_.repetition_draw(2)) {
        return false;
    }
    const int in = std::max(1, pos_.players_in());
    for (int c = 0; c < pos_.players(); ++c)
        if (pos_.is_in(Colour(c))) u[c] = 1.0f / float(in);
    return true;
}

Values Worker::mcts_leaf(MctsState& s, int ply) {
    Values u{};
    const Colour p = pos_.to_move();
    if (!has_legal_move(pos_)) {  // SPEC 7: it loses, or drops out and the others go on
        if (pos_.removal_ends_game()) {
            const Colour w = pos_.players_in() <= 2 ? pos_.next(p) : pos_.winner_over(p);
            if (w != NO_COLOUR) u[w] = 1.0f;
            return u;
        }
        pos_.eliminate_to_move();
        if (!mcts_game_end(u)) u = mcts_leaf(s, ply + 1);
        pos_.undo_move();
        u[p] = 0.0f;
        return u;
    }
    // A player's standing once the captures settle: the quiescence with that player as the
    // root (the others as the coalition, which captures only its men), from its side.
    const Colour root = root_;
    const int contempt = contempt_;
    contempt_ = 0;
    for (int c = 0; c < pos_.players(); ++c) {
        if (!pos_.is_in(Colour(c))) continue;
        int cp;
        if (Colour(c) == p || s.params.quiescence_all) {
            root_ = Colour(c);
            const int q = qsearch(-kInfinite, kInfinite, std::min(ply, kMaxPly - 8), 0);
            cp = Colour(c) == p ? q : -q;
        } else {
            cp = standing_of(Colour(c));
        }
        u[c] = float(mcts::cp_to_value(cp, s.params.scale));
    }
    root_ = root;
    contempt_ = contempt;
    return u;
}

bool Worker::mcts_expand(MctsState& s, std::uint32_t idx, int ply) {
    if (ply >= kMaxPly / 2) return false;
    MoveList l;
    if (idx == 0) {  // the root: its moves (searchmoves applied)
        for (const RootMove& rm : root_moves) l.moves[l.size++] = rm.move;
    } else {
        generate_legal(pos_, l);
    }
    if (s.tree.size() + l.size > s.params.max_nodes) return false;
    std::array<int, 1024> sc;
    const OrderContext oc = order_context(Move(), std::min(ply, kMaxPly));
    for (std::size_t i = 0; i < l.size; ++i) sc[i] = order_score(oc, l.moves[i]);
    std::vector<std::size_t> order(l.size);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return sc[a] > sc[b]; });
    // The prior of the move ranked r (from 0) by ordering: 1 / (r + 1), normalised.
    double harmonic = 0;
    for (std::size_t r = 0; r < l.size; ++r) harmonic += 1.0 / double(r + 1);
    const auto first = std::uint32_t(s.tree.size());
    for (std::size_t r = 0; r < l.size; ++r) {
        mcts::Node n;
        n.move = l.moves[order[r]];
        n.prior = float(1.0 / (double(r + 1) * harmonic));
        s.tree.push_back(n);
    }
    mcts::Node& node = s.tree[idx];
    node.first_child = first;
    node.children = std::uint16_t(l.size);
    node.expanded = 1;
    return true;
}

std::uint32_t Worker::mcts_select(MctsState& s, std::uint32_t idx) const {
    const mcts::Node& parent = s.tree[idx];
    const Colour p = pos_.to_move();
    const double sqrt_n = std::sqrt(double(std::max<std::uint32_t>(parent.visits, 1)));
    const double fpu =
        parent.visits ? parent.sum[p] / double(parent.visits) - s.params.fpu_reduction : 0.5;
    std::uint32_t best = parent.first_child;
    double best_score = -1e9;
    for (std::uint32_t k = 0; k < parent.children; ++k) {
        const std::uint32_t ci = parent.first_child + k;
        const mcts::Node& c = s.tree[ci];
        const double q = c.visits ? c.sum[p] / double(c.visits) : fpu;
        double score = q + s.params.c_puct * c.prior * sqrt_n / (1.0 + c.visits);
        const std::size_t h = history_index(p, c.move);
        if (const std::uint32_t n = s.history.count[h])
            score += s.params.history_weight * (s.history.sum[h] / double(n)) /
                     (double(c.visits) * (1.0 - q) + 1.0);
        if (score > best_score) {
            best_score = score;
            best = ci;
        }
    }
    return best;
}

void Worker::mcts_iteration(MctsState& s) {
    s.path.assign(1, 0);
    s.movers.clear();
    std::uint32_t idx = 0;
    int ply = 0;
    Values u{};
    // Step 1. Selection: down the tree by each mover's choice, to a node never valued, the
    // end of the game or a node that cannot be expanded.
    while (true) {
        if (ply > 0 && mcts_game_end(u)) break;
        if (ply > 0 && s.tree[idx].visits == 0) {
            u = mcts_leaf(s, ply);  // Step 2. The leaf's values
            break;
        }
        if (!s.tree[idx].expanded && !mcts_expand(s, idx, ply)) {
            u = mcts_leaf(s, ply);
            break;
        }
        if (s.tree[idx].children == 0) {  // no legal move: valued as a leaf (it drops out)
            u = mcts_leaf(s, ply);
            break;
        }
        const Colour mover = pos_.to_move();
        idx = mcts_select(s, idx);
        Move m = s.tree[idx].move;
        if (pos_.is_attack(m)) {  // Kinta: the fight's outcome by its odds
            const combat::Odds o = fight_odds(m);
            const bool won = std::uniform_real_distribution<float>(0, 1)(s.rng) < o.win;
            m = won ? m.with_outcome(false, o.attacker_strength)
                    : m.with_outcome(true, o.defender_strength);
        }
        make_move(m, false);
        nodes.fetch_add(1, std::memory_order_relaxed);
        ++ply;
        s.path.push_back(idx);
        s.movers.push_back(mover);
    }
    for (int k = 0; k < ply; ++k) pos_.undo_move();
    if (stopped()) return;  // the leaf's quiescence was cut short: its values mean nothing
    // Step 3. Backup: every node of the path adds the values (max^n), and each move's mover
    // its own value to the move's Progressive History.
    for (std::size_t k = 0; k < s.path.size(); ++k) {
        mcts::Node& n = s.tree[s.path[k]];
        ++n.visits;
        for (int c = 0; c < kColours; ++c) n.sum[c] += u[c];
        if (k > 0) {
            const std::size_t h = history_index(s.movers[k - 1], n.move);
            s.history.sum[h] += u[s.movers[k - 1]];
            ++s.history.count[h];
        }
    }
    ++s.iterations;
    s.leaf_plies += std::uint64_t(ply);
    s.max_ply = std::max(s.max_ply, ply);
    root_scored_ = true;
}

void Worker::mcts_report(MctsState& s, const SearchCallbacks& cb) {
    const mcts::Node& root = s.tree[0];
    const Colour us = pos_.to_move();
    std::vector<std::uint32_t> kids(root.children);
    std::iota(kids.begin(), kids.end(), root.first_child);
    auto by_visits = [&](std::uint32_t a, std::uint32_t b) {
        const mcts::Node &x = s.tree[a], &y = s.tree[b];
        if (x.visits != y.visits) return x.visits > y.visits;
        return x.sum[us] * float(y.visits) > y.sum[us] * float(x.visits);
    };
    std::stable_sort(kids.begin(), kids.end(), by_visits);
    root_moves.clear();
    for (std::uint32_t ci : kids) {
        const mcts::Node& c = s.tree[ci];
        RootMove rm;
        rm.move = c.move;
        const double v = c.visits ? c.sum[us] / double(c.visits) : 0.5;
        rm.score = c.visits ? mcts::value_to_cp(v, s.params.scale) : -kInfinite;
        rm.seldepth = s.max_ply;
        // The principal variation: each mover's most visited child, while visited twice.
        rm.pv = {c.move};
        for (std::uint32_t at = ci; s.tree[at].children && rm.pv.size() < 32;) {
            const mcts::Node& n = s.tree[at];
            std::uint32_t next = n.first_child;
            for (std::uint32_t k = 1; k < n.children; ++k)
                if (s.tree[n.first_child + k].visits > s.tree[next].visits)
                    next = n.first_child + k;
            if (s.tree[next].visits < 2) break;
            rm.pv.push_back(s.tree[next].move);
            at = next;
        }
        rm.prev_score = rm.score;
        root_moves.push_back(std::move(rm));
    }
    const int depth =
        s.iterations ? std::max(1, int(std::lround(double(s.leaf_plies) / double(s.iterations))))
                     : 1;
    root_depth_ = depth;
    completed_depth = depth;
    const int lines = std::min<int>(sh_.settings.multipv, int(root_moves.size()));
    for (int i = 0; i < lines; ++i)
        if (root_moves[std::size_t(i)].score != -kInfinite) report(cb, depth, i);
}

void Worker::mcts(const SearchCallbacks& cb) {
    auto s = std::make_unique<MctsState>();
    s->tree.reserve(s->params.max_nodes);
    s->tree.emplace_back();
    s->rng.seed(pos_.key() ^ 0x6d637473ULL);
    if (!mcts_expand(*s, 0, 0)) return;
    const std::uint64_t depth_cap =
        sh_.limits.depth > 0 ? std::uint64_t(64) << std::min(sh_.limits.depth, 24) : 0;
    std::uint64_t next_report = 1024;
    std::int64_t last_report_ms = 0;
    while (!stopped()) {
        mcts_iteration(*s);
        check_limits();
        if (stopped()) break;
        if (depth_cap && s->iterations >= depth_cap) break;
        if ((s->iterations & 31) == 0 && !sh_.pondering.load() && !sh_.limits.infinite &&
            sh_.budget.soft_ms >= 0) {
            const std::int64_t e = sh_.elapsed_for_limits();
            if (e >= adjusted_soft(sh_.budget, 0, root_in_danger) || e >= sh_.budget.hard_ms) break;
        }
        const std::int64_t t = ms_since(sh_.start);
        if (s->iterations >= next_report || t - last_report_ms >= 1000) {
            mcts_report(*s, cb);
            next_report = s->iterations * 2;
            last_report_ms = t;
        }
    }
    if (!s->iterations) return;
    mcts_report(*s, cb);
    if (cb.on_string) {
        const std::int64_t ms = std::max<std::int64_t>(1, ms_since(sh_.start));
        cb.on_string("mcts iterations " + std::to_string(s->iterations) + " ips " +
                     std::to_string(s->iterations * 1000 / std::uint64_t(ms)) + " tree " +
                     std::to_string(s->tree.size()));
    }
}

}  // namespace detail
}  // namespace klinzha
