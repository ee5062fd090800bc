// tools/match/tournament.h: runs many refereed games: schedule with seats rotated so every
// engine plays every colour equally, concurrency, stop and resume through a state file,
// PGN output, result tables per engine and per seat, Elo with a 95% interval and SPRT.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "openings.h"
#include "referee.h"
#include "stats.h"

namespace klinzha::match {

struct TournamentConfig {
    std::vector<EngineSpec> engines;
    GameConfig game;
    int games = 2;  ///< games per pairing (two players) or per triple (three)
    int concurrency = 1;
    std::vector<std::string> setups;  ///< fixed start positions (SPEC 10), used in pairs
    /// Blind -openings (SPEC 25): each opening's start and moves (GameConfig::history),
    /// used in pairs as `setups` are; the referee plays the moves as the arbiter.
    std::vector<Opening> blind_openings;
    std::string pgn_path;      ///< "" = no PGN file
    std::string state_path;    ///< "" = no resume file
    std::optional<Sprt> sprt;  ///< two engines, two players only
    std::string event = "klinzha-match";
    /// -gauntlet: the first engine meets each other one (two players: pairs (0, i); three:
    /// triples (0, i, j)); otherwise every pair or triple meets.
    bool gauntlet = false;
    /// -tournament italian (italian.h): each game of the schedule is an Italian bout (a game
    /// under game.game_limit_ms, then the tally, BACH'SAN, the toss-up); two players only.
    bool italian = false;
    /// The die and toss-up of bout k (the k-th game of the schedule) come from fate_seed + k.
    std::uint64_t fate_seed = 0;
    int report_every = 10;  ///< print the rating lines every this many games (0 = never)
    bool recover = false;   ///< -recover: retry an engine that fails to start
    /// Per engine (same order as `engines`): its own time control from `tc=`, `st=`,
    /// `timemargin=` (cutechess-cli style), else none (the match's applies).
    std::vector<std::optional<TimeControl>> engine_tc;
    std::string shard;  ///< "K/N": play only the games of shard K of N (index % N == K - 1)
    /// Clouded cells (SPEC 16): drawn for each group of games (a colour-swapped pair; in
    /// three-player games the six seatings) from seed cloud_seed + group, lo..hi cells.
    int clouds_lo = 0, clouds_hi = 0;
    std::uint64_t cloud_seed = 0;
    /// Kinta (SPEC 26): group k of games (a colour-swapped pair; three players, the six
    /// seatings) casts its spindles from seed dice_seed + k.
    std::uint64_t dice_seed = 0;
};

/// One finished game as the tables need it (also one line of the state file, state.h).
struct GameSummary {
    int index = 0;
    int players = 2;
    std::array<int, kColours> engine{-1, -1, -1};  ///< engine index per colour
    std::array<Outcome, kColours> outcome{};
    std::array<int, kColours> rh{};
    std::array<double, kColours> kz{};
    std::array<int, kColours> refused{};  ///< Blind (SPEC 25): proposals refused, per colour
    std::string termination;
    /// Italian tournaments: how the bout was decided (outright, tally, BACH'SAN, without
    /// honour); "" otherwise.
    std::string italian;
};

/// The seating of game `index`: engine index per colour.
std::array<int, kColours> seating(int index, int players, int engines, int games_per_group,
                                  bool gauntlet = false);
/// Number of games in the schedule.
int schedule_size(int players, int engines, int games_per_group, bool gauntlet = false);

class Tournament {
  public:
    /// Players are made by `factory` (ProcessPlayer for the real tool; tests may script).
    using Factory = std::function<std::unique_ptr<Player>(const EngineSpec&)>;
    Tournament(TournamentConfig cfg, std::ostream& out, Factory factory = {});

    /// Reads the state file (resume; refused with std::runtime_error when its settings
    /// differ), and checks that the output files can be written (std::runtime_error if not).
    /// Runs until every scheduled game is done, the SPRT decides, or stop() is called.
    /// Returns the summaries of all finished games (resumed ones included).
    std::vector<GameSummary> run();
    /// Starts no new game; the games under way are played to their end.
    void stop() { stop_ = true; }
    /// Also abandons the games under way (they are no results and are not recorded).
    void abandon() {
        stop_ = true;
        abandon_ = true;
    }
    /// Games under way now.
    int running() const { return running_.load(); }
    /// Why the match stopped early ("" if it did not): an engine that could not start.
    std::string error() const {
        std::lock_guard lock(mutex_);
        return error_;
    }

    /// Adds finished games read elsewhere (`-merge` of shards). Throws std::runtime_error
    /// for a game index given twice.
    void add_results(const std::vector<GameSummary>& games);
    /// The games this run plays: all, or those of its shard.
    int games_to_play() const;
    /// Games finished so far (this run and those read from the state file).
    int finished() const;
    /// The result table (per engine and per seat; Elo and SPRT lines for two engines; the
    /// rating list of every engine when there are more).
    std::string table() const;
    /// The SPRT decision so far: "H0", "H1" or "".
    std::string sprt_decision() const;
    double sprt_llr() const;

  private:
    void worker();
    /// Records a finished game (or an Italian bout: its games in order, the last one
    /// carrying the result `s` counts).
    void record(const std::vector<GameRecord>& games, const GameSummary& s);
    Pentanomial pentanomial() const;
    Trinomial trinomial() const;
    /// Results, Elo (nElo, LOS, draw ratio), the pentanomial counts and the SPRT line, as
    /// fastchess prints them (two engines, two players). The caller holds mutex_.
    std::string rating_lines() const;
    /// The rating list of every engine by maximum likelihood (stats.h, rating_list): each
    /// two-player game one result; each three-player game the pairwise results it implies
    /// (of two seats held by different engines, the better outcome beats the worse: win >
    /// draw > loss; equal outcomes are a draw). "" with fewer than two engines. The caller
    /// holds mutex_.
    std::string rating_table() const;
    /// The per-engine lines of table(): games (and seats in three players), wins, draws,
    /// losses, score, RH 11.1 and KZ 10.1 points, refused proposals a seat under Blind, and
    /// w-d-l by colour. The caller holds mutex_.
    std::string standings() const;
    /// The Italian results (seed 002, "TOURNAMENT"; italian.h): each engine's wins by kind
    /// (outright, tally, BACH'SAN, without honour). The caller holds mutex_.
    std::string italian_table() const;
    /// Kinta's fights (SPEC 26): predicted against observed win rates by decile of the
    /// predicted probability. The caller holds mutex_.
    std::string fights_table() const;

    TournamentConfig cfg_;
    std::ostream& out_;
    Factory factory_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> abandon_{false};
    std::atomic<int> running_{0};
    int shard_k_ = 1, shard_n_ = 1;
    int finished_this_run_ = 0;  ///< for the estimate of the time left
    std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
    bool in_shard(int index) const { return index % shard_n_ == shard_k_ - 1; }
    std::string error_;
    std::atomic<int> next_{0};
    int total_ = 0;
    mutable std::mutex mutex_;
    std::vector<GameSummary> done_;
    /// Kinta: every fight of this run, the attacker's predicted win probability and whether
    /// it won (the calibration lines of table()).
    std::vector<std::pair<double, bool>> fights_;
    std::vector<bool> finished_;
};

}  // namespace klinzha::match
