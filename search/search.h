// search/search.h: iterative-deepening principal variation search.
//
// Two players: negamax alpha-beta with PVS, aspiration windows, a shared transposition
// table, quiescence over captures (pieces and hearts), TT/capture/killer/history move
// ordering, null-move pruning and late move reductions. Three players (MultiplayerSearch):
// Best-Reply Search by default (Schadd and Winands 2011: the root player's moves against the
// one strongest reply of all opponents together), BRS+ (the other opponents play their first
// ordered move), or paranoid search (Sturtevant and Korf 2000: the root player against the
// coalition of the others, negating only where the team to move changes). Heart captures
// score as mates. Threads > 1 run Lazy SMP helpers on the same table.
// Source: SPEC 7 (game end, draws), 12-13 (protocol), RH 5.1-5.5.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/position.h"
#include "limits.h"
#include "planner.h"
#include "skill.h"
#include "timeman.h"
#include "tt.h"

namespace klinzha {

struct History;   // search/history.h
struct MoveList;  // engine/movegen.h

/// One `info` line's worth of search state. score is in centi-pawns from the point of view
/// of the player to move at the root; when mate_in != 0 the score is a heart capture in
/// that many of the mover's moves (negative: the mover's heart falls).
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    int score = 0;
    int mate_in = 0;
    Bound bound = BOUND_EXACT;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

/// What a long search says between its iterations (Stockfish's `currmove` lines and a
/// line a second): from the first second on, each root move as it is searched (currmove
/// set), and at least once a second the counters (currmove none).
struct SearchProgress {
    int depth = 0;
    Move currmove;
    int currmovenumber = 0;  ///< 1-based
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    int hashfull = 0;
};

/// How the search reports: every call comes from the search's main thread.
struct SearchCallbacks {
    std::function<void(const SearchInfo&)> on_info;
    std::function<void(Move best, Move ponder)> on_bestmove;
    std::function<void(const std::string&)> on_string;       ///< `info string` text
    std::function<void(const SearchProgress&)> on_progress;  ///< may be empty
};

/// How the three-player search treats the two opponents (docs/search.md).
/// Paranoid: both move in turn against the root player (Sturtevant and Korf 2000).
/// Brs: Best-Reply Search (Schadd and Winands 2011): one layer holds every move of either
/// opponent, the other passes. BrsPlus: BRS+ (Esser et al. 2013): the other plays its first
/// move by move ordering instead of passing. Mcts: Monte Carlo tree search with a value per
/// player (max^n), the evaluation at its leaves (search/mcts.h); where it does not apply (a
/// player out, a Blind board) the search is BRS.
enum class MultiplayerSearch { Paranoid, Brs, BrsPlus, Mcts };

/// Option spellings of MultiplayerSearch, in enum order.
inline constexpr const char* kMultiplayerSearchNames[] = {"paranoid", "brs", "brs+", "mcts"};

/// Settings copied into each search.
struct SearchSettings {
    MultiplayerSearch multiplayer = MultiplayerSearch::Brs;
    int threads = 1;
    int multipv = 1;
    std::int64_t move_overhead_ms = 30;
    bool vary_setup = true;  ///< pick among near-equal setup moves at random
    /// With vary_setup: the seed of that choice (0: drawn from std::random_device, so games
    /// differ; otherwise the same seed and position give the same placement, as klinzha-gen
    /// needs for data reproducible from its --seed).
    std::uint64_t setup_seed = 0;
    SetupPlanner::Params planner;  ///< the setup planner's weights and time (the Setup* options)
    /// Kinta (SPEC 26): attacks are chance nodes weighed by their odds; false plays every
    /// attack as a sure win with the attacker's strength unchanged (a baseline for matches).
    bool kinta_odds = true;
    /// Skill Level 0..20 (skill.h): below kSkillMax the search is weakened for people.
    int skill_level = kSkillMax;
    /// The seed of the weakened choices (0: drawn from std::random_device, so games differ).
    std::uint64_t skill_seed = 0;
};

/// Runs searches on background threads. start() returns at once; the result comes through
/// the callbacks (always exactly one on_bestmove per start()). stop() and ponderhit() may
/// be called from any thread.
class Searcher {
  public:
    explicit Searcher(TranspositionTable& tt);
    ~Searcher();
    Searcher(const Searcher&) = delete;
    Searcher& operator=(const Searcher&) = delete;

    /// Starts searching `root` (copied) under `limits`. A search already running is
    /// stopped and waited for first.
    void start(const Position& root, const SearchLimits& limits, const SearchSettings& settings,
               SearchCallbacks callbacks);
    /// Ends the search as soon as possible (bestmove follows).
    void stop();
    /// The ponder search becomes a normal search with the clocks counting from now.
    void ponderhit();
    /// Blocks until the current search (if any) has sent its bestmove.
    void wait();
    bool searching() const { return running_.load(); }
    /// Forgets what is kept between searches: the setup plan and each thread's state (the
    /// move-ordering statistics, the evaluation cache, the accumulators; ucinewgame).
    void clear();

    /// Runs a search synchronously and returns the nodes searched (bench, analyse), with
    /// settings.threads threads; setup choices without random variation. `also_stop` (may be
    /// null): a caller's stop flag, read once the search's own flag is reset, so that a stop
    /// the caller raised just before this call (its flag first, then stop()) is not lost.
    std::uint64_t search_sync(const Position& root, const SearchLimits& limits,
                              const SearchSettings& settings, SearchCallbacks callbacks,
                              const std::atomic<bool>* also_stop = nullptr);

    struct Shared;  // state shared by the threads of one search (search.cpp)
    /// One search thread's move-ordering statistics (history, counter-moves), kept from one
    /// search to the next of a game as Stockfish keeps its history (search.cpp).

  private:
    void run(Position root, SearchLimits limits, SearchSettings settings, SearchCallbacks cb);
    /// One search from `root` (the search thread's body): a finished game's answer, a skill
    /// level's random move, the setup planner's placement or the tree search. Returns the nodes.
    std::uint64_t run_search(Shared& sh, const Position& root, const SearchCallbacks& cb);
    /// The placement phase: the setup planner (planner.h), with SetupSearch's judging.
    std::uint64_t plan_placement(Shared& sh, const Position& root, const SearchCallbacks& cb);
    /// SetupSearch's judgement of a candidate setup for `us`: the opponents' setup as their
    /// planner makes it, then a nested search (centi-pawns for us; nullopt when stopped or
    /// out of time). Three players: the hearts of those before us are placed by a
    /// kSetupSearchBeforeDepth-ply search each, so that the nested search is rooted at our
    /// own heart placement (issue 28). Adds the nodes spent to judge_nodes.
    std::optional<int> judge_setup(Shared& sh, const Position& placed, Colour us, bool timed,
                                   std::uint64_t& judge_nodes);
    /// The tree search on `threads` workers (Lazy SMP); the main worker's best move.
    std::uint64_t search_tree(Shared& sh, const Position& root, const MoveList& legal,
                              const SearchCallbacks& cb);
    /// Reports bestmove once ponder/infinite allow it (UCI).
    void report_best(const Shared& sh, const SearchCallbacks& cb, Move best, Move ponder);
    std::int64_t ponder_clock_ms() const;
    /// Ends any running search and resets the flags and the start time for a new one.
    void prepare(bool ponder);

    std::chrono::steady_clock::time_point started_at_ = std::chrono::steady_clock::now();
    SetupPlanner planner_;
    /// One search thread's state kept from one search to the next, as Stockfish keeps its
    /// threads' (searcher.cpp): its move-ordering statistics (history.h), its static
    /// evaluations by position key (eval::EvalCache) and the storage its Worker is built in.
    /// A blind turn runs dozens of searches of a few milliseconds each, and building these
    /// afresh for each (zeroing 1.5 MiB, faulting in new pages) took a fifth of its time.
    struct ThreadState;
    std::vector<std::unique_ptr<ThreadState>> threads_;  ///< per search thread; clear() drops
    /// The rules and number of players the evaluation caches were filled under (the key
    /// holds neither, and the evaluation reads both): a search under others empties them.
    Rules cache_rules_;
    int cache_players_ = 0;

    TranspositionTable& tt_;
    std::thread main_;
    std::atomic<bool> running_{false};
    std::atomic<bool> stop_{false};            ///< the search threads end (stop, or done)
    std::atomic<bool> stop_requested_{false};  ///< `stop` arrived: infinite/ponder may answer
    std::atomic<bool> pondering_{false};
    std::atomic<std::int64_t> ponderhit_ms_{-1};
};

}  // namespace klinzha
