// search/search.cpp: see search.h.
#include "search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>

#include "engine/combat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "eval/evaluate.h"
#include "eval/nnue/accumulator.h"
#include "movepick.h"

namespace klinzha {

using Clock = std::chrono::steady_clock;
using eval::kInfinite;
using eval::kMate;
using eval::kMateBound;

namespace {

constexpr int kMaxPly = 128;
constexpr int kPlacementDepth = 2;
constexpr int kSetupSearchDepth = 5;  // SetupSearch: plies searched after a judged setup
constexpr std::uint64_t kSetupSearchNodes = 200000;  // SetupSearch: nodes at most per judgement
constexpr int kPlannerRuns = 16;   // greedy+climb runs of the setup planner when untimed
constexpr int kRfpDepth = 5;       // reverse futility pruning up to this depth (plies)
constexpr int kRfpMargin = 120;    // its margin per ply (centi-pawns)
constexpr int kDeltaMargin = 150;  // delta pruning's margin in the quiescence (centi-pawns)
// Kinta (SPEC 26): the value a fight's outcome may take in a chance node. A fight is never a
// proven mate, so the expectation of its outcomes stays below kMateBound; these are the
// bounds L and U of Ballard's Star1 pruning.
constexpr int kChanceWin = kMateBound - 1;
// Kinta: the quiescence weighs both outcomes of a fight (a chance node) in its first
// kChanceQPlies plies only; deeper, an attack plays its likelier outcome. Both outcomes
// leave captures to play, so full chance nodes there double the tree at every capture
// (a three-player heart placement took 9.6 M nodes at depth 1, 3 s, and lost on time).
constexpr int kChanceQPlies = 2;

int mate_in(int ply) {
    return kMate - ply;
}
int mated_in(int ply) {
    return -kMate + ply;
}
int to_tt(int s, int ply) {
    return s >= kMateBound ? s + ply : s <= -kMateBound ? s - ply : s;
}
int from_tt(int s, int ply) {
    return s >= kMateBound ? s - ply : s <= -kMateBound ? s + ply : s;
}

/// Late move reduction table, in plies, by depth and move number.
struct Reductions {
    int r[64][64];
    Reductions() {
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m)
                r[d][m] = (d && m) ? int(0.4 + std::log(double(d)) * std::log(double(m)) / 2.3) : 0;
    }
};
const Reductions kReductions;

struct RootMove {
    Move move;
    int score = -kInfinite;
    int prev_score = -kInfinite;
    int seldepth = 0;
    std::vector<Move> pv;
};

std::int64_t ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

}  // namespace

struct Searcher::Shared {
    TranspositionTable& tt;
    std::atomic<bool>& stop;
    std::atomic<bool>& pondering;
    std::atomic<std::int64_t>& ponderhit_ms;
    SearchLimits limits;
    SearchSettings settings;
    Clock::time_point start = Clock::now();
    TimeBudget budget;
    std::uint64_t noise_seed = 0;  // 0: no setup noise (deterministic)
    std::vector<std::atomic<std::uint64_t>*> node_counters;

    std::uint64_t nodes() const {
        std::uint64_t n = 0;
        for (auto* c : node_counters) n += c->load(std::memory_order_relaxed);
        return n;
    }
    /// ms that count against the time limits (from ponderhit when pondering began).
    std::int64_t elapsed_for_limits() const {
        std::int64_t ph = ponderhit_ms.load();
        std::int64_t e = ms_since(start);
        return ph >= 0 ? e - ph : e;
    }
};

namespace {

class Worker {
  public:
    Worker(Searcher::Shared& sh, int id, const Position& root, History& history)
        : sh_(sh),
          id_(id),
          pos_(root),
          root_(root.to_move()),
          root_ply_(root.ply()),
          history_(history) {
        if (net_) acc_.resize(kAccPlies);
    }

    std::atomic<std::uint64_t> nodes{0};
    std::vector<RootMove> root_moves;
    int completed_depth = 0;
    double best_move_changes = 0;
    bool root_in_danger = false;

    void init_root(const MoveList& legal) {
        for (Move m : legal) {
            if (!sh_.limits.searchmoves.empty() &&
                std::find(sh_.limits.searchmoves.begin(), sh_.limits.searchmoves.end(), m) ==
                    sh_.limits.searchmoves.end())
                continue;
            root_moves.push_back({m, -kInfinite, -kInfinite, 0, {m}});
        }
    }

    /// Iterative deepening. The main worker (id 0) reports and manages time.
    void iterate(const SearchCallbacks& cb) {
        cb_ = &cb;
        const bool main = id_ == 0;
        const int multipv = std::min<int>(sh_.settings.multipv, int(root_moves.size()));
        int max_depth =
            sh_.limits.depth > 0 ? std::min(sh_.limits.depth, kMaxPly - 8) : kMaxPly - 8;
        // Placement: one player's placements come in a row (no opposing reply, so no
        // alpha-beta cut-offs), so deeper searches only multiply ~150-wide levels. The
        // setup is chosen two placements ahead by the evaluation (docs/search.md).
        if (pos_.phase() == Phase::Place) max_depth = std::min(max_depth, kPlacementDepth);
        root_in_danger = heart_in_danger();
        // Three players: a draw shares the points (RH 11.1), so a root player who stands
        // better avoids repetitions; one who stands worse takes them.
        if (pos_.players() == 3 && pos_.phase() == Phase::Play)
            contempt_ = std::clamp(static_eval() / 4, 0, 50);
        for (int depth = 1 + (main ? 0 : (id_ & 1)); depth <= max_depth; ++depth) {
            root_depth_ = depth;
            for (auto& rm : root_moves) rm.prev_score = rm.score;
            Move prev_best = root_moves[0].move;
            for (int pv_idx = 0; pv_idx < multipv; ++pv_idx) {
                for (std::size_t i = pv_idx; i < root_moves.size(); ++i)
                    root_moves[i].score = -kInfinite;
                int prev = root_moves[pv_idx].prev_score;
                int delta = 30;
                int alpha = -kInfinite, beta = kInfinite;
                if (depth >= 4 && std::abs(prev) < kMateBound) {
                    alpha = std::max(prev - delta, -kInfinite);
                    beta = std::min(prev + delta, kInfinite);
                }
                while (true) {
                    seldepth_ = 0;
                    int score = root_search(alpha, beta, depth, pv_idx);
                    std::stable_sort(
                        root_moves.begin() + pv_idx, root_moves.end(),
                        [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
                    if (stopped()) break;
                    if (score <= alpha) {
                        beta = (alpha + beta) / 2;
                        alpha = std::max(score - delta, -kInfinite);
                    } else if (score >= beta) {
                        beta = std::min(score + delta, kInfinite);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 10;
                }
                if (stopped() && root_moves[pv_idx].score == -kInfinite) {
                    // Nothing of this iteration finished: keep the previous order.
                    std::stable_sort(root_moves.begin() + pv_idx, root_moves.end(),
                                     [](const RootMove& a, const RootMove& b) {
                                         return a.prev_score > b.prev_score;
                                     });
                    for (std::size_t i = pv_idx; i < root_moves.size(); ++i)
                        root_moves[i].score = root_moves[i].prev_score;
                    break;
                }
                if (main && !stopped()) report(cb, depth, pv_idx);
            }
            if (stopped()) break;
            completed_depth = depth;
            if (root_moves[0].move != prev_best) best_move_changes += 1;
            best_move_changes *= 0.6;
            if (!main) continue;
            // Stop conditions checked between iterations.
            const int best = root_moves[0].score;
            if (sh_.limits.mate > 0 && best >= kMateBound && mate_moves(best) <= sh_.limits.mate)
                break;
            // A proven heart capture: deeper iterations cannot change it.
            if (std::abs(best) >= kMateBound && depth >= kMate - std::abs(best) + 2 &&
                !sh_.limits.infinite && !sh_.pondering.load())
                break;
            if (!sh_.pondering.load() && !sh_.limits.infinite && sh_.budget.soft_ms >= 0) {
                std::int64_t soft = adjusted_soft(sh_.budget, best_move_changes, root_in_danger);
                if (sh_.elapsed_for_limits() >= soft) break;
            }
            if (root_moves.size() == 1 && !sh_.limits.untimed() && depth >= 4 &&
                !sh_.pondering.load() && !sh_.limits.infinite)
                break;  // a forced move: no need to think long
        }
    }

    int mate_moves(int score) const {
        int n = std::max(1, players_in_root_);
        int plies = kMate - std::abs(score);
        int moves = (plies + n - 1) / n;
        return score > 0 ? moves : -moves;
    }

    void set_players_in_root(int n) { players_in_root_ = n; }

  private:
    bool stopped() const { return sh_.stop.load(std::memory_order_relaxed); }

    void check_limits() {
        if (id_ != 0) return;
        if (sh_.limits.nodes && sh_.nodes() >= sh_.limits.nodes) sh_.stop = true;
        if ((nodes.load(std::memory_order_relaxed) & 1023) != 0) return;
        progress(Move(), 0);
        if (sh_.pondering.load() || sh_.limits.infinite || sh_.budget.hard_ms < 0) return;
        // The hard limit stops the search once a root move has a score (its first iteration's
        // first move): a depth-1 iteration may itself outlast the clock.
        if (root_scored_ && sh_.elapsed_for_limits() >= sh_.budget.hard_ms) sh_.stop = true;
    }

    int team(Colour c) const { return pos_.players() == 3 ? int(c == root_) : int(c); }

    /// The mover's heart can be taken next: two players, by the opponent; three players,
    /// the root player's by anyone, a coalition heart only by the root player (its partner
    /// will not take it in the paranoid model, so that is no emergency).
    bool heart_in_danger() const {
        if (pos_.phase() != Phase::Play) return false;
        return heart_in_danger_for(pos_.army(pos_.to_move()), pos_.to_move());
    }

    bool heart_in_danger_for(Colour own, Colour mover) const {
        if (pos_.players() == 3 && mover != root_ && !pos_.rules().reflective)
            return pos_.is_in(root_) && attacks_heart(pos_, root_, own);
        return heart_attacked(pos_, own);
    }

    /// The mover can take a heart now, and that ends the game in its favour as the search
    /// sees it (two players in; or the root player's heart, taken by the coalition).
    bool can_take_deciding_heart() const {
        if (pos_.phase() != Phase::Play || pos_.rules().reflective) return false;
        const Colour stm = pos_.to_move();
        for (int o = 0; o < kColours; ++o)
            if (deciding_victim(Colour(o)) && attacks_heart(pos_, stm, Colour(o))) return true;
        return false;
    }

    /// Whether taking colour v's heart now decides the game for the search (the mover's
    /// opponent in two players; the root player's, taken by the coalition, in three), and is
    /// a sure capture (Kinta: a carried heart is a fight, SPEC 26).
    bool deciding_victim(Colour v) const {
        const Colour stm = pos_.to_move();
        if (v == pos_.army(stm) || !pos_.is_in(v) || pos_.heart(v) == NO_CELL) return false;
        if (pos_.kinta() && pos_.man_on(pos_.heart(v)) != kNoMan) return false;
        return pos_.players_in() <= 2 || (v == root_ && team(stm) != team(root_));
    }

    /// Step 1's mate, with its move as the principal variation's last (so a mating line
    /// ends with the heart capture): the first legal move taking a deciding heart.
    int take_deciding_heart(int ply) {
        MoveList l;
        generate_legal(pos_, l);
        for (Move m : l)
            if (const Colour v = pos_.heart_victim(m); v != NO_COLOUR && deciding_victim(v)) {
                pv_[ply][ply] = m;
                pv_len_[ply] = ply + 1;
                break;
            }
        return mate_in(ply + 1);
    }

    /// Colour p's standing by the network, from this ply's accumulator: kept if it is this
    /// position's, else updated from the previous ply's by the cells the last move changed,
    /// else computed from scratch (eval/nnue/accumulator.h).
    int nnue_standing(Colour p) {
        const int idx = pos_.ply() - root_ply_;
        nnue::Accumulator& a = idx < kAccPlies ? acc_[std::size_t(idx)] : acc_scratch_;
        if (idx >= kAccPlies || (a.key != pos_.key() && !update_from_ancestor(idx)))
            a.refresh(*net_, pos_);
        if (a.output[p] == nnue::Accumulator::kNoOutput)
            a.output[p] = nnue::evaluate(*net_, a, pos_, p);
        return a.output[p];
    }

    /// Brings acc_[idx] to the current position from the nearest of the last kAccWalk
    /// ancestors whose accumulator is its position's, one update a ply (each ply's
    /// accumulator on the way is then its position's too), as Stockfish does: a node whose
    /// parent was never evaluated (a table cut, a node in check) need not refresh. False when
    /// no such ancestor is found or a move changed too many cells (the caller refreshes).
    bool update_from_ancestor(int idx) {
        const int ply = pos_.ply();
        int from = -1;
        for (int k = 1; k <= kAccWalk && idx - k >= 0; ++k)
            if (acc_[std::size_t(idx - k)].key == pos_.state_at(ply - k).key) {
                from = idx - k;
                break;
            }
        if (from < 0) return false;
        for (int j = from + 1; j <= idx; ++j) {
            const int pj = ply - (idx - j);
            if (!acc_[std::size_t(j)].update(*net_, acc_[std::size_t(j - 1)], pos_.state_at(pj - 1),
                                             pos_.state_at(pj), pos_))
                return false;
        }
        return true;
    }

    /// Step toward the draw as the move-count rule nears (SPEC 7, 22; as Stockfish scales by
    /// its rule50 counter): v * (2L - halfmove) / 2L in play, L the rule's plies, so a side
    /// ahead prefers the captures that reset the count, and a lead that cannot be converted
    /// fades smoothly instead of dropping to 0 only when the rule enters the horizon.
    int toward_draw(int v) const {
        const int limit = pos_.move_count_limit();
        if (limit <= 0 || pos_.phase() != Phase::Play) return v;
        const int hm = std::min(pos_.halfmove(), limit);
        return v * (2 * limit - hm) / (2 * limit);
    }

    int static_eval() {
        if (net_ && eval::nnue_applies(pos_)) {
            const int v = nnue_standing(root_);
            return toward_draw(pos_.to_move() == root_ ? v : -v);
        }
        int v = toward_draw(eval::evaluate_for_mover(pos_, root_, eval_cache_));
        if (sh_.noise_seed && pos_.phase() != Phase::Play) {
            std::uint64_t h = (pos_.key() ^ sh_.noise_seed) * 0x9E3779B97F4A7C15ULL;
            v += int((h >> 60) % 11) - 5;  // vary choices among near-equal setups
        }
        return v;
    }

    bool is_capture(Move m) const { return pos_.is_capture(m); }

    /// Kinta (SPEC 26): the odds of the attack m in the current position.
    combat::Odds fight_odds(Move m) const {
        return klinzha::fight_odds(pos_, m, sh_.settings.kinta_odds);
    }

    /// m with the likelier outcome of its fight attached when it is a Kinta attack (where
    /// the search plays one outcome only: the opponents' layer of Best-Reply Search).
    Move with_likelier_outcome(Move m) const {
        if (!pos_.is_attack(m)) return m;
        const combat::Odds o = fight_odds(m);
        return o.win >= 0.5f ? m.with_outcome(false, o.attacker_strength)
                             : m.with_outcome(true, o.defender_strength);
    }

    /// Kinta (SPEC 26): the value of the attack m for its mover, the expectation over its
    /// fight's two outcomes (the attacker wins, left with its expected strength, or the
    /// defender wins, left with its own), by expectimax with Ballard's Star1 pruning: the
    /// likelier outcome first, each searched with the window the other's bounds leave, and a
    /// cut as soon as the bounds of the expectation pass alpha or beta. child_of(a, b) searches
    /// the position after an outcome with window (a, b) for the mover. Values are clamped to
    /// +-kChanceWin. Returns 0 when stopped.
    template <typename Child>
    int chance(Move m, int alpha, int beta, bool tt_child, Child&& child_of) {
        constexpr double L = -kChanceWin, U = kChanceWin;
        if (alpha >= kChanceWin) return kChanceWin;  // no fight can reach it
        if (beta <= -kChanceWin) return -kChanceWin;
        const combat::Odds o = fight_odds(m);
        std::array<std::pair<Move, double>, 2> out{
            {{m.with_outcome(false, o.attacker_strength), double(o.win)},
             {m.with_outcome(true, o.defender_strength), 1.0 - double(o.win)}}};
        if (out[1].second > out[0].second) std::swap(out[0], out[1]);
        double sum = 0, left = 1;
        for (const auto& [om, p] : out) {
            left -= p;
            if (p <= 0) continue;
            const double a = std::max(L, (alpha - sum - left * U) / p);
            const double b = std::min(U, (beta - sum - left * L) / p);
            const int ai = int(std::floor(a));
            const int bi = std::max(int(std::ceil(b)), ai + 1);
            make_move(om, tt_child);
            const int v = std::clamp(child_of(ai, bi), -kChanceWin, kChanceWin);
            pos_.undo_move();
            if (stopped()) return 0;
            sum += p * v;
            if (sum + left * L >= beta) return std::max(beta, int(std::floor(sum + left * L)));
            if (sum + left * U <= alpha) return std::min(alpha, int(std::ceil(sum + left * U)));
        }
        return int(std::lround(sum));
    }

    /// Plays m and starts loading the child's transposition table bucket (when the child
    /// is a full-width node that probes it) and evaluation cache slot, so the memory
    /// latency overlaps the child's first steps.
    void make_move(Move m, bool tt_child) {
        pos_.do_move(m);
        if (tt_child) sh_.tt.prefetch(pos_.key());
        eval_cache_.prefetch(pos_.key());
    }

    /// Terminal positions: the game decided or drawn (SPEC 7). Returns true and sets v.
    bool terminal(int ply, int& v) const {
        if (pos_.phase() != Phase::Play) return false;
        const Colour stm = pos_.to_move();
        if (pos_.players() == 3 && !pos_.is_in(root_)) {  // the root player's heart fell
            v = team(stm) == team(root_) ? mated_in(ply) : mate_in(ply);
            return true;
        }
        if (pos_.game_over()) {
            const Colour winner = pos_.winner();
            v = winner != NO_COLOUR && team(winner) == team(stm) ? mate_in(ply) : mated_in(ply);
            return true;
        }
        if (ply > 0 && (pos_.move_count_draw() || pos_.repetition_draw(2))) {
            v = team(stm) == team(root_) ? -contempt_ : contempt_;
            return true;
        }
        return false;
    }

    /// The player to move has no legal move (SPEC 7): two players, a loss; three players,
    /// it drops out and the search goes on (the root player dropping out is its loss).
    int no_moves(int alpha, int beta, int depth, int ply) {
        if (pos_.phase() != Phase::Play || pos_.removal_ends_game()) {
            const Colour stm = pos_.to_move();
            const Colour winner = pos_.players_in() <= 2 ? NO_COLOUR : pos_.winner_over(stm);
            return winner != NO_COLOUR && team(winner) == team(stm) ? mate_in(ply) : mated_in(ply);
        }
        if (pos_.to_move() == root_) return mated_in(ply);
        const Colour mover = pos_.to_move();
        pos_.eliminate_to_move();
        int v;
        if (team(mover) != team(pos_.to_move()))
            v = -search(-beta, -alpha, depth, ply + 1, false);
        else
            v = search(alpha, beta, depth, ply + 1, false);
        pos_.undo_move();
        return v;
    }

    /// The node's ordering context (movepick.h), the table's move tt_move.
    OrderContext order_context(Move tt_move, int ply) const {
        return klinzha::order_context(pos_, history_, tt_move, killers_[ply][0], killers_[ply][1],
                                      sh_.settings.kinta_odds);
    }
    int order_score(const OrderContext& o, Move m) const {
        return klinzha::order_score(pos_, history_, o, m);
    }
    bool is_capture(const OrderContext& o, Move m) const { return klinzha::is_capture(pos_, o, m); }

    int child(int alpha, int beta, int depth, int ply, bool pv, Colour mover) {
        if (team(mover) != team(pos_.to_move())) return -search(-beta, -alpha, depth, ply + 1, pv);
        return search(alpha, beta, depth, ply + 1, pv);
    }

    /// Main thread, after the first second: currmove lines (currmove set), and the
    /// counters at least once a second (currmove none).
    void progress(Move currmove, int number) {
        if (id_ != 0 || !cb_ || !cb_->on_progress) return;
        const std::int64_t t = ms_since(sh_.start);
        if (t < 1000) return;
        if (currmove.is_none()) {  // the once-a-second line keeps its own clock
            if (t - last_progress_ms_ < 1000) return;
            last_progress_ms_ = t;
        }
        cb_->on_progress({root_depth_, currmove, number, sh_.nodes(), t, sh_.tt.hashfull()});
    }

    int root_search(int alpha, int beta, int depth, int pv_idx) {
        int best = -kInfinite;
        const Colour mover = pos_.to_move();
        for (std::size_t i = pv_idx; i < root_moves.size(); ++i) {
            RootMove& rm = root_moves[i];
            progress(rm.move, int(i) + 1);
            const bool attack = pos_.is_attack(rm.move);  // Kinta: a chance node
            if (!attack) pos_.do_move(rm.move);
            nodes.fetch_add(1, std::memory_order_relaxed);
            pv_len_[1] = 1;
            auto search_child = [&](int a, int b, bool pv) {
                if (!attack) return child(a, b, depth - 1, 0, pv, mover);
                return chance(rm.move, a, b, true, [&](int ca, int cb) {
                    pv_len_[1] = 1;
                    return child(ca, cb, depth - 1, 0, pv, mover);
                });
            };
            int score;
            if (i == std::size_t(pv_idx)) {
                score = search_child(alpha, beta, true);
            } else {
                score = search_child(alpha, alpha + 1, false);
                if (score > alpha && score < beta) score = search_child(alpha, beta, true);
            }
            if (!attack) pos_.undo_move();
            if (stopped()) break;
            if (i == std::size_t(pv_idx) || score > alpha) {
                rm.score = score;
                root_scored_ = true;
                rm.seldepth = seldepth_;
                rm.pv = shown_line(rm.move, pv_[1], pv_len_[1]);
            }
            if (score > best) best = score;
            if (score > alpha) alpha = score;
            if (alpha >= beta) break;
        }
        return best;
    }

    /// What every node does first: count itself, check the limits, and settle stopped,
    /// finished, drawn and too-deep nodes. Returns true with the node's value in v then.
    bool enter_node(int ply, int& v) {
        pv_len_[ply] = ply;
        nodes.fetch_add(1, std::memory_order_relaxed);
        check_limits();
        v = 0;
        if (stopped()) return true;
        seldepth_ = std::max(seldepth_, ply);
        if (terminal(ply, v)) return true;
        if (ply >= kMaxPly - 2) {
            v = static_eval();
            return true;
        }
        return false;
    }

  public:
    int search(int alpha, int beta, int depth, int ply, bool pv_node, bool allow_null = true) {
        if (depth <= 0) return qsearch(alpha, beta, ply, 0);
        int v;
        if (enter_node(ply, v)) return v;
        // Step 1. A heart capture that decides the game is a mate now.
        if (can_take_deciding_heart()) return pv_node ? take_deciding_heart(ply) : mate_in(ply + 1);
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(ply + 1));
        if (alpha >= beta) return alpha;

        // Step 2. Transposition table.
        const std::uint64_t key = pos_.key();
        TTHit hit;
        const bool tt_hit = sh_.tt.probe(key, hit);
        const Move tt_move = tt_hit ? hit.move : Move();
        if (!pv_node && tt_hit && hit.depth >= depth) {
            int s = from_tt(hit.score, ply);
            if ((hit.bound == BOUND_EXACT) || (hit.bound == BOUND_LOWER && s >= beta) ||
                (hit.bound == BOUND_UPPER && s <= alpha))
                return s;
        }

        // Step 3. Best-Reply Search: the opponents' layer of a three-player tree.
        if (brs_layer()) return brs_search(alpha, beta, depth, ply, pv_node, tt_move, key);

        if (!has_legal_move(pos_)) return no_moves(alpha, beta, depth, ply);

        const bool danger = heart_in_danger();
        const bool play = pos_.phase() == Phase::Play;
        // Step 4. Reverse futility pruning: near the leaves, a static evaluation this far
        // above beta is taken as a fail high (where null move is sound, below).
        const bool null_ok = pos_.players() == 2 || (brs_mode() && pos_.to_move() == root_);
        // The node's static evaluation, taken once, when a step below first needs it.
        int node_eval = kNoEval;
        auto eval_once = [&] {
            if (node_eval == kNoEval) node_eval = static_eval();
            return node_eval;
        };
        // Improving: two players, the static evaluation above the one of our move before
        // (two plies up). Not improving, the pruning below is bolder.
        eval_stack_[ply] = play && !danger && pos_.players() == 2 ? eval_once() : kNoEval;
        const bool improving = ply >= 2 && eval_stack_[ply] != kNoEval &&
                               eval_stack_[ply - 2] != kNoEval &&
                               eval_stack_[ply] > eval_stack_[ply - 2];
        if (!pv_node && play && !danger && null_ok && depth <= kRfpDepth &&
            std::abs(beta) < kMateBound) {
            const int ev = eval_once();
            const int margin = kRfpMargin * (depth - (improving ? 1 : 0));
            if (ev - margin >= beta) return ev - margin;
        }

        // Step 5. Null move: two players, and the root player's nodes of Best-Reply Search
        // (a pass there hands the one opponents' layer the move, as in two players). Not in
        // paranoid three-player search: a pass hands the coalition two moves in a row.
        if (!pv_node && allow_null && play && !danger && depth >= 3 && null_ok &&
            std::abs(beta) < kMateBound &&
            popcount(pos_.pieces(pos_.to_move()) & ~pos_.pieces(pos_.to_move(), PAWN)) >= 3) {
            if (eval_once() >= beta) {
                int r = 2 + depth / 4;
                const Colour mover = pos_.to_move();
                pos_.do_move(Move::null());
                int s = team(mover) != team(pos_.to_move())
                            ? -search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false)
                            : search(beta - 1, beta, depth - 1 - r, ply + 1, false, false);
                pos_.undo_move();
                if (stopped()) return 0;
                if (s >= beta) return s >= kMateBound ? beta : s;
            }
        }
        if (danger && ply < 2 * root_depth_) ++depth;  // like a check extension

        // Step 6. The transposition table's move before any generation: when it cuts off, the
        // other moves are never generated nor scored. Otherwise they are generated and scored
        // after its subtree (with the killers and history it left), the table's move at 0.
        MoveList list;
        list.size = 0;
        std::array<int, 1024> sc;
        bool generated = false;
        auto generate = [&] {
            generate_legal(pos_, list);
            const OrderContext oc = order_context(tt_move, ply);
            for (std::size_t i = 0; i < list.size; ++i) sc[i] = order_score(oc, list.moves[i]);
            generated = true;
        };
        const bool tt_first =
            play && !pos_.rules().goal_safety && !tt_move.is_none() && is_legal(pos_, tt_move);
        if (!tt_first) generate();

        // Step 7. Futility and late move pruning of quiet moves near the leaves.
        const bool prune_quiet = !pv_node && play && !danger && depth <= 3 &&
                                 std::abs(alpha) < kMateBound && std::abs(beta) < kMateBound;
        const bool futile = prune_quiet && eval_once() + 150 * depth <= alpha;
        const std::size_t late =
            std::size_t(improving ? 6 + 4 * depth * depth : 4 + 2 * depth * depth);

        const int alpha0 = alpha;
        int best = -kInfinite;
        Move best_move;
        const Colour mover = pos_.to_move();
        std::size_t quiets = 0;
        std::array<Move, 64> quiets_tried;  // quiet moves that did not cut off (history malus)
        std::size_t n_quiets_tried = 0;
        for (std::size_t i = 0; i < (generated ? list.size : 1); ++i) {
            if (generated) pick_next(list, sc, i);
            const Move m = generated ? list.moves[i] : tt_move;
            const int move_score = generated ? sc[i] : 1 << 30;
            const bool capture = is_capture(m);
            if (!capture && move_score < (1 << 27) && i > 0 && best > -kMateBound) {
                ++quiets;
                // Moves come in falling score, and every capture or killer scores above
                // 2^27: the moves left are quiet too, and pruned as well.
                if (futile || (prune_quiet && quiets > late)) break;
            }
            const bool attack = pos_.is_attack(m);  // Kinta: a chance node (SPEC 26)
            if (!attack) make_move(m, depth > 1);
            auto child = [&](int a, int b, int d, int pl, bool pv, Colour mv) {
                if (!attack) return this->child(a, b, d, pl, pv, mv);
                return chance(m, a, b, d > 0,
                              [&](int ca, int cb) { return this->child(ca, cb, d, pl, pv, mv); });
            };
            int score;
            const int nd = depth - 1;
            if (i == 0) {
                score = child(alpha, beta, nd, ply, pv_node, mover);
            } else {
                int r = 0;
                if (depth >= 3 && i >= (pv_node ? 4u : 2u) && !capture && !danger &&
                    move_score < (1 << 27)) {
                    r = kReductions.r[std::min(depth, 63)][std::min<std::size_t>(i, 63)];
                    if (pv_node) r = std::max(0, r - 1);
                    if (!pv_node && !improving) ++r;
                    r = std::clamp(r, 0, nd - 1);
                }
                score = child(alpha, alpha + 1, nd - r, ply, false, mover);
                if (score > alpha && r > 0) score = child(alpha, alpha + 1, nd, ply, false, mover);
                if (pv_node && score > alpha && score < beta)
                    score = child(alpha, beta, nd, ply, true, mover);
            }
            if (!attack) pos_.undo_move();
            if (stopped()) return 0;
            if (!capture && score < beta && n_quiets_tried < quiets_tried.size())
                quiets_tried[n_quiets_tried++] = m;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    best_move = m;
                    pv_[ply][ply] = m;
                    for (int k = ply + 1; k < pv_len_[ply + 1]; ++k) pv_[ply][k] = pv_[ply + 1][k];
                    pv_len_[ply] = std::max(pv_len_[ply + 1], ply + 1);
                    if (score >= beta) {
                        if (!capture) {
                            if (m.kind() == Move::Normal && killers_[ply][0] != m) {
                                killers_[ply][1] = killers_[ply][0];
                                killers_[ply][0] = m;
                            }
                            history_.reward_quiet(pos_.to_move(), m, quiets_tried.data(),
                                                  n_quiets_tried, depth);
                            if (Move* slot = history_.counter_slot(pos_.state().last_move))
                                *slot = m;
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if (!generated) {  // the table's move did not cut off: now the others
                generate();
                pick_next(list, sc, 0);  // the table's move, at 0 as before
            }
        }
        Bound b = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
        sh_.tt.store(key, best_move, to_tt(best, ply), depth, b);
        return best;
    }

    bool brs_mode() const {
        return sh_.settings.multiplayer != MultiplayerSearch::Paranoid && pos_.players() == 3;
    }

    /// A node where Best-Reply Search takes both opponents' moves as one layer: play phase,
    /// three players in, the first opponent after the root player to move.
    bool brs_layer() const {
        return brs_mode() && pos_.phase() == Phase::Play && pos_.players_in() == 3 &&
               pos_.to_move() != root_ && pos_.next(pos_.to_move()) != root_;
    }

    /// The move the idle opponent plays under BRS+ (its best by move ordering: a heart or
    /// piece capture, a killer, then history), or the null move (BRS; or it has none).
    Move idle_reply(int ply) {
        if (sh_.settings.multiplayer != MultiplayerSearch::BrsPlus) return Move::null();
        return first_by_ordering(ply);
    }

    /// The mover's first legal move by move ordering (a heart or piece capture, a killer,
    /// then history); the null move when it has none.
    Move first_by_ordering(int ply) {
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

    /// Best-Reply Search over the opponents' layer (Schadd and Winands 2011; BRS+ of Esser
    /// et al. 2013): every move of the first opponent (the second answers with idle_reply)
    /// and every move of the second (the first played idle_reply before it), each searched
    /// as one ply of the root player's opponent; the root player moves next in each child.
    int brs_search(int alpha, int beta, int depth, int ply, bool pv_node, Move tt_move,
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
            int score;
            const int nd = depth - 1;
            const bool same = team(mover) == team(pos_.to_move());
            auto child_at = [&](int a, int b, int d, bool pv) {
                return same ? search(a, b, d, ply + done, pv) : -search(-b, -a, d, ply + done, pv);
            };
            pv_len_[ply + done] = ply + done;
            if (i == 0) {
                score = child_at(alpha, beta, nd, pv_node);
            } else {
                int r = 0;
                if (depth >= 3 && i >= 3 && !rp.capture && !danger && rp.order < (1 << 27))
                    r = std::clamp(kReductions.r[std::min(depth, 63)][std::min<std::size_t>(i, 63)],
                                   0, nd - 1);
                score = child_at(alpha, alpha + 1, nd - r, false);
                if (score > alpha && r > 0) score = child_at(alpha, alpha + 1, nd, false);
                if (pv_node && score > alpha && score < beta)
                    score = child_at(alpha, beta, nd, true);
            }
            for (int k = 0; k < done; ++k) pos_.undo_move();
            if (stopped()) return 0;
            if (score < beta && !rp.capture && rp.second.is_none() &&
                rp.first.kind() == Move::Normal && n_quiets_tried < quiets_tried.size())
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
                    pv_[ply][ply] = rp.first;
                    if (done == 2) pv_[ply][ply + 1] = second;
                    for (int k = ply + done; k < pv_len_[ply + done]; ++k)
                        pv_[ply][k] = pv_[ply + done][k];
                    pv_len_[ply] = std::max(pv_len_[ply + done], ply + done);
                }
            }
        }
        Bound b = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
        sh_.tt.store(key, best_move, to_tt(best, ply), depth, b);
        return best;
    }

    int qsearch(int alpha, int beta, int ply, int qply) {
        int v;
        if (enter_node(ply, v)) return v;
        if (can_take_deciding_heart()) return take_deciding_heart(ply);

        const bool danger = heart_in_danger();
        const bool evasions = danger && qply == 0;
        int best = -kInfinite;
        if (!evasions) {
            // Lazy stand-pat: far above beta on material alone, the rest cannot bring it
            // back below; far below alpha, it cannot lift it to alpha, and only the
            // captures can (the margins bound the other terms in practice).
            bool lazy_low = false;
            if (pos_.phase() == Phase::Play) {
                // Scaled as static_eval is (toward_draw shrinks, so the margins still bound).
                const int quick = toward_draw(eval::material_for_mover(pos_, root_));
                if (quick - eval::kLazyMarginBelow >= beta) return quick - eval::kLazyMarginBelow;
                if (quick + eval::kLazyMarginAbove <= alpha) {
                    best = quick + eval::kLazyMarginAbove;
                    lazy_low = true;
                }
            }
            if (!lazy_low) best = static_eval();
            if (best >= beta) return best;
            alpha = std::max(alpha, best);
        }
        // Paranoid quiescence: a coalition member only looks at captures of the root
        // player's men (captures among the coalition cannot lower the root's score much).
        const bool coalition = pos_.players() == 3 && pos_.to_move() != root_;
        const Bitboard root_men =
            pos_.pieces(root_) | (pos_.heart(root_) != NO_CELL ? bit(pos_.heart(root_)) : 0);
        MoveList list;
        if (evasions) {
            generate_legal(pos_, list);
            if (list.size == 0) return no_moves(alpha, beta, 0, ply);
        } else {  // captures only: moves ending on a man or a heart
            generate_legal_to(pos_, list, coalition ? root_men : pos_.occupied() | pos_.hearts());
            if (list.size == 0) return has_legal_move(pos_) ? best : no_moves(alpha, beta, 0, ply);
        }
        std::array<int, 1024> sc;
        std::size_t n = 0;
        const Colour own = pos_.army(pos_.to_move());
        const Colour stm = pos_.to_move();
        // Evasions: only moves that can save the heart are tried (SPEC 3-5: capture or block
        // an attacker, carry the heart, move a wall, leave the heart's cell, take a heart).
        Bitboard lines = 0;
        Cell own_heart = NO_CELL;
        if (evasions) {
            const bool root_only = pos_.players() == 3 && stm != root_ && !pos_.rules().reflective;
            lines = heart_attack_lines(pos_, own, root_only ? root_ : NO_COLOUR);
            own_heart = pos_.heart(own);
        }
        const OrderContext oc = order_context(Move(), ply);
        for (std::size_t i = 0; i < list.size; ++i) {
            const Move m = list.moves[i];
            if (!evasions && !is_capture(oc, m)) continue;
            // Delta pruning: a man's capture that cannot lift the stand-pat to alpha even
            // with a margin (heart captures are always tried).
            if (!evasions && best + kDeltaMargin < alpha && pos_.heart_victim(m) == NO_COLOUR) {
                const Man victim = pos_.man_on(m.to());
                if (victim != kNoMan &&
                    best + eval::kWeights[eval::W_QUEEN + int(man_type(victim))] + kDeltaMargin <=
                        alpha)
                    continue;
            }
            if (evasions) {  // only the moves that save the heart (or take one)
                if (!test(lines, m.to()) && !m.carries_heart() && m.from() != own_heart &&
                    man_type(pos_.man_on(m.from())) != WALL && pos_.heart_victim(m) == NO_COLOUR)
                    continue;
                pos_.do_move(m);
                const bool saved = pos_.game_over() || !pos_.is_in(own) ||
                                   pos_.heart(own) == NO_CELL || !heart_in_danger_for(own, stm);
                pos_.undo_move();
                if (!saved) continue;
            }
            list.moves[n] = m;
            sc[n++] = order_score(oc, m);
        }
        // Nothing saves the heart: search every move; the reply takes it (a mate).
        if (evasions && n == 0)
            for (std::size_t i = 0; i < list.size; ++i) sc[n++] = order_score(oc, list.moves[i]);
        list.size = n;
        const Colour mover = pos_.to_move();
        for (std::size_t i = 0; i < list.size; ++i) {
            pick_next(list, sc, i);
            const Move m = list.moves[i];
            auto qchild = [&](int a, int b) {
                return team(mover) != team(pos_.to_move()) ? -qsearch(-b, -a, ply + 1, qply + 1)
                                                           : qsearch(a, b, ply + 1, qply + 1);
            };
            int score;
            if (pos_.is_attack(m) && qply < kChanceQPlies) {  // Kinta: the expectation
                score = chance(m, alpha, beta, false, qchild);
            } else {
                make_move(with_likelier_outcome(m), false);
                score = qchild(alpha, beta);
                pos_.undo_move();
            }
            if (stopped()) return 0;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    if (score >= beta) return score;
                    alpha = score;
                }
            }
        }
        return best;
    }

  private:
    /// Kinta (SPEC 26): `odds <move> win <p> A <n> D <n>`, the chance the attack m wins and
    /// the survivor strengths the search assumes, for the info string after each line (MultiPV)
    /// that starts with an attack.
    std::string odds_text(Move m) const {
        const combat::Odds o = fight_odds(m);
        char buf[96];
        std::snprintf(buf, sizeof buf, "odds %s win %.3f A %d D %d", move_to_string(m).c_str(),
                      double(o.win), int(o.attacker_strength), int(o.defender_strength));
        return buf;
    }

    void report(const SearchCallbacks& cb, int depth, int pv_idx) {
        if (!cb.on_info) return;
        const RootMove& rm = root_moves[pv_idx];
        SearchInfo info;
        info.depth = depth;
        info.seldepth = std::max(rm.seldepth, depth);
        info.multipv = pv_idx + 1;
        info.score = rm.score;
        if (std::abs(rm.score) >= kMateBound) info.mate_in = mate_moves(rm.score);
        info.nodes = sh_.nodes();
        info.time_ms = ms_since(sh_.start);
        info.hashfull = sh_.tt.hashfull();
        info.pv = rm.pv;
        cb.on_info(info);
        if (pv_idx == 0 && pos_.players() == 3 && cb.on_string) cb.on_string(standings(rm.pv));
        if (cb.on_string && pos_.is_attack(rm.move))  // every MultiPV line's attack
            cb.on_string(odds_text(rm.move));
    }

    /// The principal variation as reported, from the root: first, then line[1..n), while its
    /// moves stay legal. A pass of Best-Reply Search (the idle opponent of a layer) stays in
    /// the line as the null move `0000` (SPEC 9), so a three-player line is whole rather than
    /// cut at the first pass.
    std::vector<Move> shown_line(Move first, const Move* line, int n) {
        std::vector<Move> out{first};
        pos_.do_move(with_likelier_outcome(first));
        int done = 1;
        for (int k = 1; k < n; ++k) {
            const Move m = line[k];
            if (m.is_none() || pos_.phase() != Phase::Play || pos_.game_over()) break;
            if (m != Move::null() && !is_legal(pos_, m)) break;
            out.push_back(m);
            pos_.do_move(with_likelier_outcome(m));
            ++done;
        }
        // A line does not end on passes.
        while (out.size() > 1 && out.back() == Move::null()) out.pop_back();
        for (int k = 0; k < done; ++k) pos_.undo_move();
        return out;
    }

    /// Three players: each player's standing at the end of the principal variation, by the
    /// static evaluation (that player against the mean of the others, centi-pawns), so that
    /// a GUI can show all three: `standing g <cp> b <cp> k <cp>` (`out` for a player out).
    std::string standings(const std::vector<Move>& pv) const {
        Position p = pos_;
        for (Move m : pv) {
            if (m.is_none() || (m != Move::null() && !is_legal(p, m))) break;
            p.do_move(m);
        }
        std::string out = "standing";
        for (int c = 0; c < p.players(); ++c) {
            out += ' ';
            out += kColourChar[c];
            out += p.is_in(Colour(c)) ? " " + std::to_string(eval::evaluate(p, Colour(c))) : " out";
        }
        return out;
    }

    Searcher::Shared& sh_;
    int id_;
    Position pos_;
    Colour root_;
    int root_ply_;  ///< pos_.ply() at the root: accumulators are indexed from it
    eval::EvalCache eval_cache_;
    /// The network (nullptr: the classical evaluation) and one accumulator per ply below the
    /// root (static_eval); deeper plies use a scratch one.
    static constexpr int kAccPlies = 2 * kMaxPly + 16;
    /// How many plies back update_from_ancestor looks for an evaluated ancestor.
    static constexpr int kAccWalk = 4;
    const nnue::Network* net_ = eval::network();
    std::vector<nnue::Accumulator> acc_;
    nnue::Accumulator acc_scratch_;
    /// One reply of Best-Reply Search's opponents' layer (brs_search).
    struct BrsReply {
        Move first, second;  // first by the first opponent, then by the second
        int order;
        bool capture;
    };
    std::array<std::vector<BrsReply>, kMaxPly> brs_replies_;  ///< per ply, reused
    const SearchCallbacks* cb_ = nullptr;
    std::int64_t last_progress_ms_ = 0;
    int root_depth_ = 1;
    bool root_scored_ = false;  // a root move has a score of this search (main thread)
    int contempt_ = 0;          ///< draw score for the root team, negated (cp)
    int seldepth_ = 0;
    int players_in_root_ = 2;
    Move killers_[kMaxPly + 1][2]{};
    static constexpr int kNoEval = std::numeric_limits<int>::min();
    int eval_stack_[kMaxPly + 2]{};  ///< static evaluation by ply (kNoEval: none taken)
    History& history_;               ///< the thread's, kept between searches (history.h)
    Move pv_[kMaxPly + 1][kMaxPly + 1]{};
    int pv_len_[kMaxPly + 2]{};
};

/// The setup planner scores our whole planned set against the others' men placed so far, so
/// its score holds the material the others have not placed yet (about 2900 cp at the first
/// placement). Shown to GUIs, it is put on the scale of play scores: as if every set were
/// complete (our planned set's material less the mean of the others' full sets, which equal
/// it, instead of their material so far), and scaled by the share of the others' men placed:
/// before they place, the planner cannot see their positional terms and no one stands better.
int setup_score_on_play_scale(const Position& root, int planner_score) {
    if (std::abs(planner_score) >= kMateBound) return planner_score;
    int full = 0;
    for (int pt = 0; pt < kPieceTypes; ++pt)
        full += eval::kWeights[eval::W_QUEEN + pt] * kSetCount[pt];
    int others = 0, n = 0, placed = 0;
    for (int c = 0; c < root.players(); ++c) {
        if (Colour(c) == root.army(root.to_move()) || !root.is_in(Colour(c))) continue;
        others += eval::material(root, Colour(c));
        placed += popcount(root.pieces(Colour(c)));
        ++n;
    }
    if (!n) return planner_score;
    const int adjusted = planner_score - (full - others / n);
    return adjusted * placed / (kSetSize * n);
}

/// Why the game at root is over, or "" if it is not (SPEC 7, 13).
std::string finished_reason(const Position& root, const MoveList& legal) {
    if (root.phase() == Phase::Play) {
        if (root.game_over())
            return root.winner() == NO_COLOUR
                       ? std::string("game over")
                       : std::string("game over: ") + kColourChar[root.winner()] + " has won";
        if (root.move_count_draw()) return "game over: draw by the move-count rule";
        if (root.repetition_draw(3)) return "game over: draw by third repetition";
    }
    if (legal.size == 0)
        return std::string("no legal move for ") + kColourChar[root.to_move()] +
               (root.players() == 3 ? ": the player is out" : ": the player loses");
    return "";
}

}  // namespace

Searcher::Searcher(TranspositionTable& tt) : tt_(tt) {}

Searcher::~Searcher() {
    stop();
    wait();
}

void Searcher::start(const Position& root, const SearchLimits& limits,
                     const SearchSettings& settings, SearchCallbacks callbacks) {
    prepare(limits.ponder);
    running_ = true;
    main_ = std::thread(&Searcher::run, this, root, limits, settings, std::move(callbacks));
}

void Searcher::prepare(bool ponder) {
    stop();
    wait();
    stop_ = false;
    stop_requested_ = false;
    pondering_ = ponder;
    ponderhit_ms_ = -1;
    started_at_ = Clock::now();
}

void Searcher::stop() {
    stop_requested_ = true;
    stop_ = true;
    pondering_ = false;
}

void Searcher::ponderhit() {
    // Time counts from now: remember when, relative to the start (see elapsed_for_limits).
    if (pondering_.exchange(false)) ponderhit_ms_ = ponder_clock_ms();
}

std::int64_t Searcher::ponder_clock_ms() const {
    return ms_since(started_at_);
}

void Searcher::wait() {
    if (main_.joinable()) main_.join();
}

void Searcher::clear() {
    planner_.clear();
    histories_.clear();
}

void Searcher::run(Position root, SearchLimits limits, SearchSettings settings,
                   SearchCallbacks cb) {
    Shared sh{tt_, stop_, pondering_, ponderhit_ms_, limits, settings, started_at_, {}, 0, {}};
    run_search(sh, root, cb);
}

std::uint64_t Searcher::search_sync(const Position& root, const SearchLimits& limits,
                                    const SearchSettings& settings, SearchCallbacks callbacks) {
    prepare(false);
    SearchSettings s = settings;
    s.vary_setup = false;
    Shared sh{tt_, stop_, pondering_, ponderhit_ms_, limits, s, started_at_, {}, 0, {}};
    return run_search(sh, root, callbacks);
}

void Searcher::report_best(const Shared& sh, const SearchCallbacks& cb, Move best, Move ponder) {
    // UCI: while pondering or in infinite mode, bestmove waits for stop/ponderhit, also when
    // the search ends by itself (a forced line, one legal move, a depth limit).
    while ((pondering_.load() || sh.limits.infinite) && !stop_requested_.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // Not "searching" any more before the GUI can see bestmove: its next `go` may come at once
    // (start() joins this thread before starting another).
    running_ = false;
    if (cb.on_bestmove) cb.on_bestmove(best, ponder);
}

std::uint64_t Searcher::run_search(Shared& sh, const Position& root, const SearchCallbacks& cb) {
    tt_.new_search();
    MoveList legal;
    generate_legal(root, legal);
    if (std::string why = finished_reason(root, legal); !why.empty()) {
        if (cb.on_string) cb.on_string(why);
        report_best(sh, cb, Move(), Move());
        return 0;
    }
    sh.budget = plan_time(sh.limits, root.to_move(), sh.settings.move_overhead_ms, root.ply(),
                          root.players());
    if (sh.settings.vary_setup && root.phase() != Phase::Play)
        sh.noise_seed =
            (sh.settings.setup_seed ? sh.settings.setup_seed : std::random_device{}()) | 1;

    // Skill (skill.h): a weakened search for people. Its random choices come from one seed.
    const Skill skill{std::clamp(sh.settings.skill_level, 0, kSkillMax)};
    if (skill.enabled()) {
        std::mt19937_64 skill_rng(sh.settings.skill_seed ? sh.settings.skill_seed
                                                         : std::random_device{}());
        sh.settings.planner.judged = 0;  // no SetupSearch below full strength
        const bool random = root.phase() == Phase::Place ? skill.random_placement(skill_rng)
                                                         : skill.random_move(skill_rng);
        if (random && sh.limits.searchmoves.empty()) {
            report_best(sh, cb,
                        legal.moves[std::uniform_int_distribution<std::size_t>(
                            0, legal.size - 1)(skill_rng)],
                        Move());
            return 0;
        }
        if (root.phase() == Phase::Play)
            sh.limits.nodes =
                sh.limits.nodes ? std::min(sh.limits.nodes, skill.node_cap()) : skill.node_cap();
    }
    if (root.phase() == Phase::Place && sh.limits.searchmoves.empty())
        return plan_placement(sh, root, cb);
    return search_tree(sh, root, legal, cb);
}

std::optional<int> Searcher::judge_setup(Shared& sh, const Position& placed, Colour us, bool timed,
                                         std::uint64_t& judge_nodes) {
    const std::int64_t left =
        std::max<std::int64_t>(sh.budget.soft_ms, 1) - sh.elapsed_for_limits();
    if (stop_.load() || (timed && left <= 0)) return std::nullopt;
    Position p = placed;
    SetupPlanner theirs;
    SetupPlanner::Params params = sh.settings.planner;
    params.judged = 0;
    std::mt19937_64 r2(0x5e7u);
    while (p.phase() == Phase::Place && !stop_.load()) {
        auto their = theirs.next(
            p, params, 2, [] { return true; }, r2, false);
        judge_nodes += their.evaluations;
        if (their.move.is_none()) break;
        p.do_move(their.move);
    }
    TranspositionTable tt;
    tt.resize(1);
    Searcher nested(tt);
    SearchLimits lim;
    lim.depth = kSetupSearchDepth;
    lim.nodes = kSetupSearchNodes;
    if (timed) lim.movetime = left;
    SearchSettings set = sh.settings;
    set.threads = 1;
    set.multipv = 1;
    set.planner.judged = 0;
    int score = 0;
    judge_nodes += nested.search_sync(p, lim, set,
                                      {[&](const SearchInfo& i) { score = i.score; },
                                       [](Move, Move) {},
                                       [](const std::string&) {},
                                       {}});
    return p.to_move() == us ? score : -score;
}

std::uint64_t Searcher::plan_placement(Shared& sh, const Position& root,
                                       const SearchCallbacks& cb) {
    // The setup planner chooses placements (planner.h); the tree search would have no opposing
    // replies to prune with. Untimed: a fixed effort; timed: half the budget.
    std::mt19937_64 rng(sh.noise_seed ? sh.noise_seed : 0x5e7u);
    const bool timed = !sh.limits.untimed() && !sh.limits.infinite;
    auto keep_going = [&] {
        if (stop_.load()) return false;
        return !timed || sh.elapsed_for_limits() * 2 < std::max<std::int64_t>(sh.budget.soft_ms, 1);
    };
    // SetupSearch (planner.h, Params::judged): a candidate setup is judged by the opponents'
    // setup as their planner makes it, then a search of the hearts and the first moves of play
    // (two players; a table of its own, 1 MiB). Timed, the judging has the rest of the soft
    // budget (the runs above took half): each nested search may use what is left, and none
    // starts once it is spent. Untimed, each is capped at kSetupSearchNodes (under Kinta a
    // depth-5 search of the first moves, with its chance nodes, took seconds: the engine lost
    // on time at its first placement).
    std::uint64_t judge_nodes = 0;  // the nested searches' nodes, counted as this search's
    const Colour us = root.to_move();
    auto judge = [&](const Position& placed) {
        return judge_setup(sh, placed, us, timed, judge_nodes);
    };
    // Not in Blind (SPEC 25): the judge's opponent would plan seeing our setup, which a blind
    // opponent never does, and a view's hidden plies make its search meaningless.
    const bool judging =
        root.players() == 2 && sh.settings.planner.judged > 0 && !root.rules().blind;
    auto res = planner_.next(root, sh.settings.planner, timed ? 64 : kPlannerRuns, keep_going, rng,
                             sh.noise_seed != 0, judging ? SetupPlanner::Judge(judge) : nullptr);
    if (cb.on_info) {
        SearchInfo info;
        info.depth = 1;
        info.seldepth = int(res.plan.size());
        info.score = res.judged ? res.score : setup_score_on_play_scale(root, res.score);
        info.nodes = res.evaluations + judge_nodes;
        info.time_ms = ms_since(sh.start);
        info.hashfull = tt_.hashfull();
        info.pv = res.plan;
        cb.on_info(info);
    }
    report_best(sh, cb, res.move, Move());
    return res.evaluations + judge_nodes;
}

std::uint64_t Searcher::search_tree(Shared& sh, const Position& root, const MoveList& legal,
                                    const SearchCallbacks& cb) {
    const int threads = std::max(1, sh.settings.threads);
    std::vector<std::unique_ptr<Worker>> workers;
    while (histories_.size() < std::size_t(threads))
        histories_.push_back(std::make_unique<History>());
    for (int i = 0; i < threads; ++i) {
        workers.push_back(std::make_unique<Worker>(sh, i, root, *histories_[std::size_t(i)]));
        workers.back()->init_root(legal);
        workers.back()->set_players_in_root(root.players_in());
        sh.node_counters.push_back(&workers.back()->nodes);
    }
    if (workers[0]->root_moves.empty()) {  // searchmoves named no legal move
        if (cb.on_string) cb.on_string("searchmoves holds no legal move; searching all");
        for (auto& w : workers) {
            sh.limits.searchmoves.clear();
            w->init_root(legal);
        }
    }
    std::vector<std::thread> helpers;
    for (int i = 1; i < threads; ++i) helpers.emplace_back([&, i] { workers[i]->iterate(cb); });
    workers[0]->iterate(cb);
    stop_ = true;  // helpers end with the main search
    for (auto& h : helpers) h.join();

    const RootMove& best = workers[0]->root_moves[0];
    const Move ponder = best.pv.size() > 1 ? best.pv[1] : Move();
    const std::uint64_t nodes = sh.nodes();
    report_best(sh, cb, best.move, ponder);
    return nodes;
}

}  // namespace klinzha
