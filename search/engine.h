// search/engine.h: the engine facade. Owns the game position, the rule options, the
// transposition table and the searcher, and answers through callbacks, so the protocol
// layer holds no game logic (Stockfish's Engine). Every setter validates first and changes
// nothing on error, returning the message instead.
#pragma once

#include <atomic>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "blind_search.h"
#include "engine/blind.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "eval/nnue/network.h"
#include "search.h"
#include "tt.h"

namespace klinzha {

/// Weaker reference players for tests and strength measurement (tools/, issue 5):
/// Normal searches; Random plays a uniformly random legal move; Greedy plays the move with
/// the best static evaluation after it (a heart capture first).
enum class Baseline { Normal, Random, Greedy };

/// Result of `bench`: total nodes of the fixed searches and the time they took.
struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t ms = 0;
    std::vector<std::pair<std::string, std::uint64_t>> per_position;
};

/// Whether the network evaluates by default (`Use NNUE`): true since the built-in network
/// passed the SPRT against the classical evaluation at 10+0.1 (docs/search.md, "The net
/// becomes the default"); two-player games only (kNnueThreePlayersDefault).
inline constexpr bool kUseNnueDefault = true;
/// Whether the network, when in use, also evaluates three-player games (`NNUE Three Players`):
/// false while a network loses there (docs/search.md, "Three players with the net").
inline constexpr bool kNnueThreePlayersDefault = false;

class Engine {
  public:
    /// The transposition table's size at start (the Hash option's default), MiB.
    static constexpr int kDefaultHashMiB = 16;
    explicit Engine(SearchCallbacks callbacks);
    ~Engine();

    // --- options (SPEC 13); each returns an error message or nullopt -------------------
    std::optional<std::string> set_hash(int mib);
    void clear_hash();
    /// The transposition table's size in MiB.
    std::size_t hash_mib() const { return tt_.size_mib(); }
    void set_threads(int n) { settings_.threads = n; }
    void set_multipv(int n) { settings_.multipv = n; }
    void set_multiplayer(MultiplayerSearch m) { settings_.multiplayer = m; }
    void set_move_overhead(int ms) { settings_.move_overhead_ms = ms; }
    /// Kinta: weigh attacks by their odds (true) or take each as a sure win (SearchSettings).
    void set_kinta_odds(bool on) { settings_.kinta_odds = on; }
    /// The network (eval/nnue): on or off (`Use NNUE`), and which file (`EvalFile`; "" or
    /// "<built-in>": the one built into the executable). The network is one per process
    /// (eval::set_network). Errors: an unreadable or malformed file (the network in use is
    /// kept); a network asked for when the build has none.
    std::optional<std::string> set_use_nnue(bool on);
    /// Whether the network evaluates three-player games too (`NNUE Three Players`; false:
    /// they keep the classical terms). Error: not while searching.
    std::optional<std::string> set_nnue_three_players(bool on);
    std::optional<std::string> set_eval_file(const std::string& path);
    /// The network of three-player games (`EvalFile Three Players`; "" or "<built-in>": the
    /// built-in three-player network, else the two-player one). Errors as set_eval_file.
    std::optional<std::string> set_eval_file_three(const std::string& path);
    /// The setup planner's weights (SetupPlanner::Params; centi-pawns, >= 0).
    void set_planner(const SetupPlanner::Params& p) { settings_.planner = p; }
    const SetupPlanner::Params& planner() const { return settings_.planner; }
    void set_baseline(Baseline b) { baseline_ = b; }
    /// Playing strength (search/skill.h): `Skill Level` 0..20, `UCI_LimitStrength` and
    /// `UCI_Elo` (this game's scale). The level in force (SearchSettings::skill_level) is
    /// skill_level_for_elo(elo) while the strength is limited, else the Skill Level.
    void set_skill_level(int level) {
        skill_level_ = level;
        update_skill();
    }
    void set_limit_strength(bool on) {
        limit_strength_ = on;
        update_skill();
    }
    void set_elo(int elo) {
        elo_ = elo;
        update_skill();
    }
    /// The seed of the weakened choices (0: a fresh one each search; tests fix it).
    void set_skill_seed(std::uint64_t seed) { settings_.skill_seed = seed; }
    /// What `startpos` means: 2 or 3 players. The current position is kept.
    void set_players(int n) { players_ = n; }
    int players() const { return players_; }
    /// New rule options. The current position is re-read under them; if it is not valid
    /// under the new rules it is reset to the start position (the returned note says so).
    std::optional<std::string> set_rules(const Rules& r);
    const Rules& rules() const { return rules_; }
    const SearchSettings& settings() const { return settings_; }

    // --- position --------------------------------------------------------------------------
    /// Sets the position: the start position for `players()` when fen is nullopt, else the
    /// SPEC 10 string; then plays `moves` (SPEC 9 strings). In a three-player game a player
    /// to move with no legal move is removed before the next move (SPEC 7). On any error
    /// nothing changes and the message names the move and its index (1-based) or the field.
    std::optional<std::string> set_position(const std::optional<std::string>& fen,
                                            const std::vector<std::string>& moves);
    const Position& position() const { return pos_; }

    /// Sets a Blind view (SPEC 25, `position blind`): the game started from `fen` (nullopt:
    /// the start position for players()), then the tokens of `viewer`'s history and the
    /// proposals refused this turn (blind::View::parse). Needs the Blind rule option. On
    /// error nothing changes and the message names the token. position() becomes the view's
    /// position; `go` then chooses a proposal (search/blind_search.h) until a `position`
    /// without `blind` comes.
    std::optional<std::string> set_blind_position(Colour viewer,
                                                  const std::optional<std::string>& fen,
                                                  const std::vector<std::string>& tokens,
                                                  const std::vector<std::string>& refused);
    /// The Blind view set by set_blind_position, or nullptr.
    const blind::View* blind_view() const { return blind_view_ ? &*blind_view_ : nullptr; }
    /// The blind player's settings (BlindBoards, BlindSetups, BlindSamples options).
    void set_blind_params(const BlindSearch::Params& p) { blind_params_ = p; }
    const BlindSearch::Params& blind_params() const { return blind_params_; }
    const BlindSearch& blind_search() const { return blind_; }

    // --- search ----------------------------------------------------------------------------
    /// Starts a search of the current position (returns at once; bestmove via callback).
    void go(const SearchLimits& limits);
    void stop() {
        blind_.stop();
        searcher_.stop();
    }
    void ponderhit() {
        blind_.ponderhit();
        searcher_.ponderhit();
    }
    void wait() {
        blind_.wait();
        searcher_.wait();
    }
    bool searching() const { return searcher_.searching() || blind_.searching(); }
    /// Forgets what the search learnt (TT, history): ucinewgame.
    void new_game();

    /// perft divide of `root` (SPEC 12), a copy: the caller may change the engine's position
    /// while it runs on another thread. `stop`, set by another thread, ends it early.
    static std::vector<std::pair<std::string, std::uint64_t>> perft(
        Position root, int depth, const std::atomic<bool>* stop = nullptr);
    /// Fixed-depth searches of `positions` (SPEC 10 strings with their depths; empty: the
    /// built-in ones) with `threads` threads (SPEC 13 `bench`, Stockfish's `bench hash threads
    /// depth file`). depth 0 uses each position's own depth. The table is cleared before each
    /// position. `stop`, when set by another thread, ends it after the current search (which
    /// stop() ends at once). Errors: a position string that does not parse throws
    /// std::invalid_argument naming it (nothing searched).
    BenchResult bench(int depth = 0, const std::atomic<bool>* stop = nullptr, int threads = 1,
                      std::vector<std::pair<std::string, int>> positions = {});
    /// Reads bench positions from a text file: one SPEC 10 string a line, optionally
    /// followed by `; depth N`; blank lines and `#` comments skipped. Throws
    /// std::runtime_error (file unreadable) or std::invalid_argument (line N: why).
    static std::vector<std::pair<std::string, int>> read_bench_file(const std::string& path,
                                                                    int default_depth);
    /// The built-in bench positions (SPEC 10 strings) and their default depths.
    static const std::vector<std::pair<std::string, int>>& bench_positions();

    /// Runs a synchronous search of pos (for `analyse`), reporting through `cb`.
    void analyse(const Position& pos, const SearchLimits& limits, SearchCallbacks cb);

  private:
    Move baseline_move(const MoveList& legal);
    /// Ends a running blind search and a normal one, and waits for both.
    void halt();

    SearchCallbacks callbacks_;
    TranspositionTable tt_;
    Searcher searcher_{tt_};
    SearchSettings settings_;
    Rules rules_;
    int players_ = 2;
    Position pos_;
    Baseline baseline_ = Baseline::Normal;
    int skill_level_ = kSkillMax;
    bool limit_strength_ = false;
    int elo_ = kSkillEloMax;
    /// settings_.skill_level from the three strength options.
    void update_skill() {
        settings_.skill_level = limit_strength_ ? skill_level_for_elo(elo_) : skill_level_;
        if (!searching()) apply_network();
    }
    std::optional<blind::View> blind_view_;
    bool use_nnue_ = kUseNnueDefault;
    bool nnue_three_players_ = kNnueThreePlayersDefault;
    /// EvalFile's network, when not the built-in one. Networks read are kept for the life of
    /// the process (0.5 MB each), as the evaluation's pointer to one is process-wide.
    const nnue::Network* loaded_net_ = nullptr;
    /// EvalFile Three Players's network, when not the built-in one (kept as loaded_net_).
    const nnue::Network* loaded_net_three_ = nullptr;
    /// Reads the network at `path` into `slot` (nullptr for "" or "<built-in>") and applies
    /// it; an error (the file's) leaves slot and the networks in use as they were.
    std::optional<std::string> load_network(const std::string& path, const nnue::Network*& slot);
    /// Sets eval::set_networks from use_nnue_, nnue_three_players_ and the loaded nets. The levels
    /// below kSkillMax keep the classical evaluation: their Elo scale was measured with it
    /// (docs/search.md, "Levels"). Called by the setters and before each search.
    void apply_network();
    BlindSearch blind_{searcher_};
    BlindSearch::Params blind_params_;
    std::uint64_t rng_state_ = 0x9E3779B97F4A7C15ULL;
};

}  // namespace klinzha
