// search/searcher.cpp: the search facade (search.h): its thread, the limits and the clock,
// the setup phases (the placement planner and the judged setups) and the Lazy SMP workers.
// Sources: SPEC 6 (setup), 13 (go, stop, ponderhit), RH 6.2 (time).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <new>
#include <random>

#include <spdlog/spdlog.h>

#include "worker.h"

namespace klinzha {

using namespace detail;

namespace {

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

struct Searcher::ThreadState {
    History history;
    eval::EvalCache eval_cache;
    std::vector<nnue::Accumulator> accumulators;  ///< one per ply (Worker::kAccPlies)
    /// Where the thread's Worker is built for a search (placement new) and unbuilt after it.
    alignas(Worker) std::byte worker[sizeof(Worker)];
    struct Unbuild {
        void operator()(Worker* w) const { w->~Worker(); }
    };
};

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
    threads_.clear();
}

void Searcher::run(Position root, SearchLimits limits, SearchSettings settings,
                   SearchCallbacks cb) {
    Shared sh{tt_, stop_, pondering_, ponderhit_ms_, limits, settings, started_at_, {}, 0, {}};
    run_search(sh, root, cb);
}

std::uint64_t Searcher::search_sync(const Position& root, const SearchLimits& limits,
                                    const SearchSettings& settings, SearchCallbacks callbacks,
                                    const std::atomic<bool>* also_stop) {
    prepare(false);
    if (also_stop && also_stop->load()) stop_ = true;  // raised before prepare() reset stop_
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
    // The first placement of our setup plans all of it (planner.h); the rest follow at once.
    const bool plans_setup = root.phase() == Phase::Place && !root.pieces(root.to_move());
    sh.budget = plan_time(sh.limits, root.to_move(), sh.settings.move_overhead_ms, root.ply(),
                          root.players(), plans_setup ? sh.settings.planner.time_moves : 1);
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
            p, params, std::max(1, params.reply_runs), [] { return true; }, r2, false);
        judge_nodes += their.evaluations;
        if (their.move.is_none()) break;
        p.do_move(their.move);
    }
    TranspositionTable tt;
    tt.resize(1);
    Searcher nested(tt);
    SearchLimits lim;
    lim.depth = std::max(1, params.judge_depth);
    lim.nodes = kSetupSearchNodes;
    if (timed) lim.movetime = left;
    SearchSettings set = sh.settings;
    set.threads = 1;
    set.multipv = 1;
    set.planner.judged = 0;
    int score = 0;
    Move best;
    auto search = [&](const SearchLimits& l) {
        judge_nodes += nested.search_sync(p, l, set,
                                          {[&](const SearchInfo& i) { score = i.score; },
                                           [&](Move b, Move) { best = b; },
                                           [](const std::string&) {},
                                           {}});
    };
    // Three players: those before us (Green's heart, then Blue's) move by a shallow search of
    // their own, so that the judgement's search is rooted at us and its score is ours.
    SearchLimits before = lim;
    before.depth = std::min(lim.depth, kSetupSearchBeforeDepth);
    while (p.players() == 3 && p.to_move() != us && p.phase() != Phase::Play && !p.game_over() &&
           !stop_.load()) {
        best = Move();
        search(before);
        if (best.is_none()) break;
        p.do_move(best);
    }
    if (p.players() == 3 && p.to_move() != us) return std::nullopt;  // stopped before our turn
    search(lim);
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
    int calls = 0, judgements = 0;  // candidates put to the judge, judged to the end (debug log)
    const Colour us = root.to_move();
    auto judge = [&](const Position& placed) {
        auto v = judge_setup(sh, placed, us, timed, judge_nodes);
        ++calls;
        judgements += v.has_value();
        return v;
    };
    // Not in Blind (SPEC 25): the judge's opponent would plan seeing our setup, which a blind
    // opponent never does, and a view's hidden plies make its search meaningless. Three
    // players: every setup, the nested search rooted at the judged player's own heart
    // placement (judge_setup; issue 28).
    const bool judging = sh.settings.planner.judged > 0 && !root.rules().blind;
    auto res = planner_.next(root, sh.settings.planner,
                             timed ? std::max(kPlannerRunsTimed, 2 * sh.settings.planner.judged)
                                   : std::max(kPlannerRuns, sh.settings.planner.judged),
                             keep_going, rng, sh.noise_seed != 0,
                             judging ? SetupPlanner::Judge(judge) : nullptr);
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
    if (calls > 0)
        spdlog::debug("setup planner: {} candidates judged of {} in {} ms (soft {} ms)", judgements,
                      sh.settings.planner.judged, ms_since(sh.start), sh.budget.soft_ms);
    report_best(sh, cb, res.move, Move());
    return res.evaluations + judge_nodes;
}

std::uint64_t Searcher::search_tree(Shared& sh, const Position& root, const MoveList& legal,
                                    const SearchCallbacks& cb) {
    const int threads = std::max(1, sh.settings.threads);
    std::vector<std::unique_ptr<Worker, ThreadState::Unbuild>> workers;
    workers.reserve(std::size_t(threads));  // emplace_back below never throws
    while (threads_.size() < std::size_t(threads))
        threads_.push_back(std::make_unique<ThreadState>());
    if (root.rules() != cache_rules_ || root.players() != cache_players_) {
        for (auto& t : threads_) t->eval_cache.clear();
        cache_rules_ = root.rules();
        cache_players_ = root.players();
    }
    for (int i = 0; i < threads; ++i) {
        ThreadState& t = *threads_[std::size_t(i)];
        workers.emplace_back(new (t.worker)
                                 Worker(sh, i, root, t.history, t.eval_cache, t.accumulators));
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
