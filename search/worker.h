// search/worker.h: the search's worker, one per thread (Lazy SMP): its position, its
// tables and the node kinds of the tree (search.cpp: the alpha-beta nodes, the quiescence and
// Kinta's chance nodes; brs.cpp: Best-Reply Search's opponents' layer; report.cpp: the info
// lines), with the state the threads of one search share (Searcher::Shared) and the search's
// constants. Internal to search/: the engine speaks to Searcher (search.h).
//
// Sources: SPEC 7 (three players), 12 (hearts), 13 (info), 26 (Kinta); the chess
// programming literature cited at each method.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/combat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "eval/evaluate.h"
#include "eval/nnue/accumulator.h"
#include "history.h"
#include "mcts.h"
#include "movepick.h"
#include "search.h"

namespace klinzha {

using Clock = std::chrono::steady_clock;

namespace detail {

using eval::kInfinite;
using eval::kMate;
using eval::kMateBound;

constexpr int kMaxPly = 128;
constexpr int kPlacementDepth = 2;
constexpr std::uint64_t kSetupSearchNodes = 200000;  // SetupSearch: nodes at most per judgement
/// SetupSearch in three players: the plies of the shallow search by which each player before the
/// judged one places its heart (searcher.cpp, judge_setup).
constexpr int kSetupSearchBeforeDepth = 3;
constexpr int kPlannerRuns = 16;       // greedy+climb runs of the setup planner when untimed
constexpr int kPlannerRunsTimed = 64;  // at most, on a clock (while half the soft limit lasts)
constexpr int kRfpDepth = 5;           // reverse futility pruning up to this depth (plies)
constexpr int kRfpMargin = 120;        // its margin per ply (centi-pawns)
constexpr int kDeltaMargin = 150;      // delta pruning's margin in the quiescence (centi-pawns)
// Kinta (SPEC 26): the value a fight's outcome may take in a chance node. A fight is never a
// proven mate, so the expectation of its outcomes stays below kMateBound; these are the
// bounds L and U of Ballard's Star1 pruning.
constexpr int kChanceWin = kMateBound - 1;
// Kinta: the quiescence weighs both outcomes of a fight (a chance node) in its first
// kChanceQPlies plies only; deeper, an attack plays its likelier outcome. Both outcomes
// leave captures to play, so full chance nodes there double the tree at every capture
// (a three-player heart placement took 9.6 M nodes at depth 1, 3 s, and lost on time).
constexpr int kChanceQPlies = 2;

inline int mate_in(int ply) {
    return kMate - ply;
}
inline int mated_in(int ply) {
    return -kMate + ply;
}
inline int to_tt(int s, int ply) {
    return s >= kMateBound ? s + ply : s <= -kMateBound ? s - ply : s;
}
inline int from_tt(int s, int ply) {
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
inline const Reductions kReductions;

struct RootMove {
    Move move;
    int score = -kInfinite;
    int prev_score = -kInfinite;
    int seldepth = 0;
    std::vector<Move> pv;
};

inline std::int64_t ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

}  // namespace detail

/// The state the threads of one search share: the table, the stop flags, the limits and
/// settings, the clock and the time budget, every thread's node counter.
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
        std::int64_t e = detail::ms_since(start);
        return ph >= 0 ? e - ph : e;
    }
};

namespace detail {

struct MctsState;  // mcts.cpp: one Monte Carlo tree search's tree and tables

/// One thread's search (Lazy SMP): iterative deepening over its own copy of the root
/// position, sharing the transposition table and the stop flag through Searcher::Shared.
class Worker {
  public:
    /// `history`, `eval_cache` and `accumulators`: the thread's, kept by the Searcher from
    /// one search to the next (Searcher::ThreadState); the accumulators are emptied here (a
    /// network may have been loaded since).
    Worker(Searcher::Shared& sh, int id, const Position& root, History& history,
           eval::EvalCache& eval_cache, std::vector<nnue::Accumulator>& accumulators)
        : sh_(sh),
          id_(id),
          pos_(root),
          root_(root.to_move()),
          root_ply_(root.ply()),
          eval_cache_(eval_cache),
          net_(eval::network(root.players())),
          acc_(accumulators),
          history_(history) {
        if (!net_) return;
        acc_.resize(kAccPlies);
        for (nnue::Accumulator& a : acc_) a.key = 0;
    }

    std::atomic<std::uint64_t> nodes{0};
    std::vector<RootMove> root_moves;
    int completed_depth = 0;
    double best_move_changes = 0;
    bool root_in_danger = false;

    void init_root(const MoveList& legal);

    /// Iterative deepening. The main worker (id 0) reports and manages time.
    void iterate(const SearchCallbacks& cb);

    int mate_moves(int score) const;

    void set_players_in_root(int n) { players_in_root_ = n; }

  private:
    bool stopped() const { return sh_.stop.load(std::memory_order_relaxed); }

    void check_limits();

    int team(Colour c) const { return pos_.players() == 3 ? int(c == root_) : int(c); }

    /// The mover's heart can be taken next: two players, by the opponent; three players,
    /// the root player's by anyone, a coalition heart only by the root player (its partner
    /// will not take it in the paranoid model, so that is no emergency).
    bool heart_in_danger() const {
        if (pos_.phase() != Phase::Play) return false;
        return heart_in_danger_for(pos_.army(pos_.to_move()), pos_.to_move());
    }

    bool heart_in_danger_for(Colour own, Colour mover) const;

    /// The mover can take a heart now, and that ends the game in its favour as the search
    /// sees it (two players in; or the root player's heart, taken by the coalition).
    bool can_take_deciding_heart() const;

    /// Whether taking colour v's heart now decides the game for the search (the mover's
    /// opponent in two players; the root player's, taken by the coalition, in three), and is
    /// a sure capture (Kinta: a carried heart is a fight, SPEC 26).
    bool deciding_victim(Colour v) const;

    /// Step 1's mate, with its move as the principal variation's last (so a mating line
    /// ends with the heart capture): the first legal move taking a deciding heart
    /// (among the moves onto those hearts only, generate_legal_to).
    int take_deciding_heart(int ply);

    /// Colour p's standing by the network, from this ply's accumulator: kept if it is this
    /// position's, else updated from the previous ply's by the cells the last move changed,
    /// else computed from scratch (eval/nnue/accumulator.h).
    int nnue_standing(Colour p);

    /// Brings acc_[idx] to the current position from the nearest of the last kAccWalk
    /// ancestors whose accumulator is its position's, one update a ply (each ply's
    /// accumulator on the way is then its position's too), as Stockfish does: a node whose
    /// parent was never evaluated (a table cut, a node in check) need not refresh. False when
    /// no such ancestor is found or a move changed too many cells (the caller refreshes).
    bool update_from_ancestor(int idx);

    /// Step toward the draw as the move-count rule nears (SPEC 7, 22; as Stockfish scales by
    /// its rule50 counter): v * (2L - halfmove) / 2L in play, L the rule's plies, so a side
    /// ahead prefers the captures that reset the count, and a lead that cannot be converted
    /// fades smoothly instead of dropping to 0 only when the rule enters the horizon.
    int toward_draw(int v) const;
    /// RH 11.1 in three players: a heart taken sooner is worth more. For the hearts taken
    /// on the path from the root to here, kHeartLateness centi-pawns a ply between the root
    /// and the capture, combined as the standing (the taker's lateness against the mean of
    /// the others still in): what colour `us` loses, in centi-pawns (0 when no heart fell on
    /// the path). Without it a capture at the horizon scores as high as one now (higher:
    /// toward_draw rewards a later reset of the move count), and a leader defers the capture
    /// move after move.
    int heart_lateness(Colour us) const;
    static constexpr int kHeartLateness = 20;

    int static_eval();

    bool is_capture(Move m) const { return pos_.is_capture(m); }

    /// Kinta (SPEC 26): the odds of the attack m in the current position.
    combat::Odds fight_odds(Move m) const {
        return klinzha::fight_odds(pos_, m, sh_.settings.kinta_odds);
    }

    /// m with the likelier outcome of its fight attached when it is a Kinta attack (where
    /// the search plays one outcome only: the opponents' layer of Best-Reply Search).
    Move with_likelier_outcome(Move m) const;

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
    void make_move(Move m, bool tt_child);

    /// Terminal positions: the game decided or drawn (SPEC 7). Returns true and sets v.
    bool terminal(int ply, int& v) const;

    /// The player to move has no legal move (SPEC 7): two players, a loss; three players,
    /// it drops out and the search goes on (the root player dropping out is its loss).
    int no_moves(int alpha, int beta, int depth, int ply);

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
    void progress(Move currmove, int number);

    int root_search(int alpha, int beta, int depth, int pv_idx);

    /// What every node does first: count itself, check the limits, and settle stopped,
    /// finished, drawn and too-deep nodes. Returns true with the node's value in v then.
    bool enter_node(int ply, int& v);

    /// What a PVS node knows before its moves (search's steps 4-8): the mover's heart in
    /// danger, the play phase, whether a null move is sound here, whether the static
    /// evaluation improves on two plies up, and that evaluation once taken (kNoEval: not yet).
    struct NodeState {
        bool danger = false, play = false, null_ok = false, improving = false;
        int eval = kNoEval;
    };
    NodeState node_state(int ply);
    /// The node's static evaluation (centi-pawns), taken the first time a step needs it.
    int node_eval(NodeState& n) {
        if (n.eval == kNoEval) n.eval = static_eval();
        return n.eval;
    }
    /// Steps 4-5 of a non-PV node: reverse futility pruning and the null move. The node's
    /// value when one of them cuts it off, else nullopt.
    std::optional<int> prune_early(NodeState& n, int beta, int depth, int ply, bool allow_null);
    /// A quiet move that cut off at `ply`: a killer, a history bonus (and a malus for the
    /// `n` quiet moves `tried` before it), the counter-move of the move before.
    void reward_quiet_cutoff(Move m, int ply, int depth, const Move* tried, std::size_t n);

    /// The late move reduction (plies) of the i-th move (from 0) of a node at depth, for a
    /// quiet move that is no killer, the heart not attacked: none for the first 2 (4 at PV
    /// nodes) nor below depth 3; one less at PV nodes, one more where not improving; at most
    /// depth - 2.
    static int late_move_reduction(int depth, std::size_t i, bool pv_node, bool improving);
    /// Step 2's cut-off by the table: the stored score where the entry is at least depth
    /// deep and its bound settles the window (alpha, beta); nullopt otherwise.
    std::optional<int> tt_cutoff(const TTHit& hit, int alpha, int beta, int depth, int ply) const;
    /// The late move reduction of move number i at `depth` (plies), before adjustments.
    static int reduction(int depth, std::size_t i) {
        return kReductions.r[std::min(depth, 63)][std::min<std::size_t>(i, 63)];
    }
    /// Principal variation search of one move, for every node kind: the first move with the
    /// full window; the others with a null window at depth - 1 - r, again unreduced when they
    /// beat alpha, and with the full window at a PV node when the score falls inside it.
    /// child(a, b, depth, pv) searches the position after the move from the mover's side.
    template <typename Child>
    int pvs(Child&& child, bool first, int r, int alpha, int beta, int depth, bool pv_node) {
        const int nd = depth - 1;
        if (first) return child(alpha, beta, nd, pv_node);
        int score = child(alpha, alpha + 1, nd - r, false);
        if (score > alpha && r > 0) score = child(alpha, alpha + 1, nd, false);
        if (pv_node && score > alpha && score < beta) score = child(alpha, beta, nd, true);
        return score;
    }
    /// The principal variation at `ply`: `first` (and `second`, when Best-Reply Search's
    /// layer played two moves), then the child's line.
    void update_pv(int ply, Move first, Move second = Move()) {
        int done = 1;
        pv_[ply][ply] = first;
        if (!second.is_none()) pv_[ply][ply + done++] = second;
        for (int k = ply + done; k < pv_len_[ply + done]; ++k) pv_[ply][k] = pv_[ply + done][k];
        pv_len_[ply] = std::max(pv_len_[ply + done], ply + done);
    }
    /// Stores a node's result in the transposition table, its bound from the window it was
    /// searched with (alpha0, beta); returns `best`.
    int store(std::uint64_t key, Move best_move, int best, int alpha0, int beta, int depth,
              int ply) {
        const Bound b = best >= beta ? BOUND_LOWER : best > alpha0 ? BOUND_EXACT : BOUND_UPPER;
        sh_.tt.store(key, best_move, to_tt(best, ply), depth, b);
        return best;
    }

  public:
    int search(int alpha, int beta, int depth, int ply, bool pv_node, bool allow_null = true);

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
    Move first_by_ordering(int ply);

    /// One reply of Best-Reply Search's opponents' layer (brs_search).
    struct BrsReply {
        Move first, second;  // first by the first opponent, then by the second
        int order;
        bool capture;
    };
    /// After the first opponent's move in the layer: the second opponent is to move in play
    /// (the game goes on and the root player is not next).
    bool second_opponent_moves() const {
        return pos_.to_move() != root_ && pos_.phase() == Phase::Play && !pos_.game_over();
    }
    /// Whether m, a move of an opponent in the layer, takes the other opponent's heart. The
    /// layer leaves such replies out: it follows only replies against the root player, so
    /// the victim never defends its heart in it, and every heart the opponents could take
    /// from each other counted as taken (the taker holding both armies, the root player's
    /// worst leaf): the root player spent its moves guarding the opponents' hearts, which
    /// they guard themselves (issue 28, the sixteenth round: docs/search.md).
    bool takes_other_opponents_heart(Move m) const {
        const Colour v = pos_.heart_victim(m);
        return v != NO_COLOUR && v != root_;
    }
    /// Step BRS-0: the table's move as a reply of the layer, when it is a legal move of the
    /// first opponent ({move, none}) or of the second after the first's idle reply ({idle,
    /// move}; the first must have a legal move) that takes no opponent's heart; nullopt
    /// otherwise. Scored first (2^30).
    std::optional<BrsReply> brs_table_reply(Move tt_move, int ply);
    /// Steps BRS-1 and BRS-2: appends every reply of the layer to replies, scored by move
    /// ordering (the table's move first, either opponent's), but those that take the other
    /// opponent's heart (takes_other_opponents_heart; unless no other reply is left: then
    /// the first opponent's moves). Returns the number of the first opponent's legal moves
    /// (0: it has none, and nothing is appended).
    std::size_t brs_generate(std::vector<BrsReply>& replies, Move tt_move, int ply);
    /// Step BRS-3: plays the reply rp (the i-th of the layer; late quiet ones reduced) and
    /// searches the root player's child by PVS. Returns the score for the layer's mover
    /// (centi-pawns); `second` gets the second opponent's move played (idle or none).
    int brs_reply(const BrsReply& rp, std::size_t i, bool danger, int alpha, int beta, int depth,
                  int ply, bool pv_node, Move& second);
    /// Best-Reply Search over the opponents' layer (Schadd and Winands 2011; BRS+ of Esser
    /// et al. 2013): every move of the first opponent (the second answers with idle_reply)
    /// and every move of the second (the first played idle_reply before it), each searched
    /// as one ply of the root player's opponent; the root player moves next in each child.
    int brs_search(int alpha, int beta, int depth, int ply, bool pv_node, Move tt_move,
                   std::uint64_t key);

    /// Quiescence (numbered steps in search.cpp): the stand-pat, then captures (the
    /// coalition's of the root player's men alone), or at its first ply with the mover's heart
    /// attacked every move that saves it. Returns the score for the mover (centi-pawns).
    int qsearch(int alpha, int beta, int ply, int qply);
    /// The quiescence's stand-pat score for the mover (centi-pawns): the lazy bound from
    /// material alone where it lies beyond beta or below alpha by the lazy margins, else
    /// static_eval().
    int stand_pat(int alpha, int beta);
    /// Quiescence's moves: keeps in list (and scores in sc, by move ordering) the captures
    /// that delta pruning leaves against best and alpha, or with evasions the moves that
    /// save the mover's heart (every move when none does: the reply takes it).
    void keep_quiescence_moves(MoveList& list, std::array<int, 1024>& sc, bool evasions, int best,
                               int alpha, int ply);

    /// Whether this root is searched by Monte Carlo tree search (MultiplayerSearch mcts): the
    /// play phase with three players in, not a Blind board (the alpha-beta families answer
    /// the rest, as BRS).
    bool mcts_applies() const;

  private:
    // Monte Carlo tree search (mcts.h, mcts.cpp), run by the main worker alone.

    /// The search: iterations until the time, node or depth limit (`go depth d`: 64 * 2^d
    /// iterations) or stop; fills root_moves (by visits) and reports them as info lines.
    void mcts(const SearchCallbacks& cb);
    /// One iteration: select from the root to a leaf, value it, back the values up.
    void mcts_iteration(MctsState& s);
    /// Makes the children of node idx (the legal moves, by ordering) at `ply`; false when the
    /// tree is full or too deep (the node is then valued as a leaf).
    bool mcts_expand(MctsState& s, std::uint32_t idx, int ply);
    /// The child of node idx that its mover picks: PUCT on its own value, plus Progressive
    /// History.
    std::uint32_t mcts_select(MctsState& s, std::uint32_t idx) const;
    /// The values of a finished game (SPEC 7: the winner 1; a draw shared among the players
    /// in): true and u set, or false when the game goes on.
    bool mcts_game_end(std::array<float, kColours>& u) const;
    /// The values of a leaf at `ply`: each player's standing after the captures settle (the
    /// quiescence with that player as root; with Params::quiescence_all false, the mover's
    /// alone and the others' static standings); 0 for a player out. A mover without a legal
    /// move drops out first (SPEC 7).
    std::array<float, kColours> mcts_leaf(MctsState& s, int ply);
    /// Colour c's static standing in centi-pawns (the network's when it applies), scaled
    /// toward the move-count draw as static_eval is.
    int standing_of(Colour c);
    /// Root moves by visits, scores and lines from the tree; the info lines.
    void mcts_report(MctsState& s, const SearchCallbacks& cb);

  public:
  private:
    /// Kinta (SPEC 26): `odds <move> win <p> A <n> D <n>`, the chance the attack m wins and
    /// the survivor strengths the search assumes, for the info string after each line (MultiPV)
    /// that starts with an attack.
    std::string odds_text(Move m) const;

    void report(const SearchCallbacks& cb, int depth, int pv_idx);

    /// The principal variation as reported, from the root: first, then line[1..n), while its
    /// moves stay legal. A pass of Best-Reply Search (the idle opponent of a layer) stays in
    /// the line as the null move `0000` (SPEC 9), so a three-player line is whole rather than
    /// cut at the first pass.
    std::vector<Move> shown_line(Move first, const Move* line, int n);

    /// Three players: each player's standing at the end of the principal variation, by the
    /// static evaluation (that player against the mean of the others, centi-pawns), so that
    /// a GUI can show all three: `standing g <cp> b <cp> k <cp>` (`out` for a player out).
    std::string standings(const std::vector<Move>& pv) const;

    Searcher::Shared& sh_;
    int id_;
    Position pos_;
    Colour root_;
    int root_ply_;                 ///< pos_.ply() at the root: accumulators are indexed from it
    eval::EvalCache& eval_cache_;  ///< the thread's, kept between searches (Searcher)
    /// The network (nullptr: the classical evaluation) and one accumulator per ply below the
    /// root (static_eval); deeper plies use a scratch one.
    static constexpr int kAccPlies = 2 * kMaxPly + 16;
    /// How many plies back update_from_ancestor looks for an evaluated ancestor.
    static constexpr int kAccWalk = 16;
    const nnue::Network* net_;             ///< the network for the root's game size, or nullptr
    std::vector<nnue::Accumulator>& acc_;  ///< the thread's (Searcher::ThreadState)
    nnue::Accumulator acc_scratch_;
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

}  // namespace detail
}  // namespace klinzha
