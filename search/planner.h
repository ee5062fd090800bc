// search/planner.h: the setup planner for the placement phase (SPEC 6.1).
//
// Plans the whole remaining setup of the player to place: randomized greedy construction
// followed by hill climbing (move one planned piece to another cell), restarted while the
// budget lasts. A full setup is scored by the evaluation (eval/) with the heart on the
// best of the planned carriers, less a heavy penalty for any heart cell the opponents'
// pieces already placed could take on their first move (the opponents' replies), so
// carriers, walls and attackers are placed with a purpose. Among setups within
// Params::variety_cp of the best one is chosen at random, so games differ. One placement is
// returned per call; the plan is kept and followed while the position is the one it
// expected, and made again otherwise.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "engine/position.h"

namespace klinzha {

/// The cells from which an opposing knight could take `us`'s heart standing on h: a knight's
/// destinations from h (its moves are symmetric, geo::path_destinations) less `us`'s men and
/// its walls' zones (SPEC 5: no opposing piece lands in them). Blind's cover of the heart
/// (SPEC 25; SetupPlanner::Params::open_knight_cp). A
/// bitboard; empty when h is NO_CELL.
Bitboard open_knight_cells(const Position& p, Colour us, Cell h);

class SetupPlanner {
  public:
    /// The planner's own weights, in centi-pawns (the setup itself is scored by the tuned
    /// evaluation). Matches found no better values than these defaults (docs/search.md,
    /// "The planner's own weights, by matches").
    struct Params {
        /// Penalty per opposing piece that could take the planned heart on its first move of
        /// play when that opponent moves before us (SPEC 6 step 3: play goes g, b, k, so the
        /// heart would be lost before we could answer).
        int threat_first_cp = 3000;
        /// The same when we move first and can still react.
        int threat_later_cp = 200;
        /// Blind (SPEC 25) only: penalty per cell from which an opposing knight could take
        /// the planned heart, where no own man stands and no own wall's zone lies. Unseen
        /// knights (fliers: nothing blocks them) take most of the hearts a blind player loses
        /// (docs/search.md); the men of a setup cover those cells, a zone for good.
        int open_knight_cp = 100;
        /// Setups scoring within this many centi-pawns of the best count as near-equal; one
        /// of them is chosen at random (vary), and the greedy construction adds noise of
        /// +-variety_cp/2 to each cell's score.
        int variety_cp = 12;
        /// Candidate setups (the best distinct ones of the runs) judged by a search of what
        /// follows them (`judge` of next()): the opponents' setup as their planner would
        /// make it, then the heart phase and the first moves of play. 0: the evaluation's
        /// score alone decides (the planner of one ply). 32 against 16 at -tc 5+0.05: +82 Elo;
        /// 64 won nothing more (docs/search.md).
        int judged = 32;
        /// A clock's time for the placement that plans our whole setup, in moves' worth of
        /// the time manager's budget (plan_time's weight): the placements after it follow the
        /// plan at once, and the setup decides most two-player games (docs/search.md). At
        /// -tc 5+0.05 one move's budget (65 ms) judged one or two candidates of the 16.
        int time_moves = 8;
        /// Greedy+climb runs of each opponent's planner inside a judgement (the opponents'
        /// setup as they would make it, seeing ours). Their real planner makes many more.
        int reply_runs = 2;
        /// Plies of each judgement's search after the opponents' setup (the hearts, then the
        /// first moves of play; SPEC 6): at -tc 5+0.05 with time_moves 8, the 32 candidates
        /// at depth 5 take about 390 ms of the 520 ms soft limit. 0 counts as 1.
        int judge_depth = 5;
    };

    struct Result {
        Move move;               ///< the placement to play now
        std::vector<Move> plan;  ///< the rest of the planned setup, move first
        int score = 0;           ///< the plan's score for the player, centi-pawns
        std::uint64_t evaluations = 0;
        bool replanned = false;
        /// The score is a judgement (Params::judged): a search's, on the play scale already.
        bool judged = false;
    };

    /// The next placement for the player to move in pos, which must be in the Place phase
    /// with a legal placement, planned with `params`. One greedy+climb run always; further ones, up
    /// to max_runs, while keep_going() says so (time budget, stop). rng drives the variety (vary:
    /// pick among near-equal setups at random; otherwise deterministic for a given rng).
    /// judge, if given and params.judged > 0, scores a position where our whole setup is
    /// placed (centi-pawns for us), or answers nullopt when it has no time left: judging
    /// stops there, and the candidates judged so far are chosen among (none: the
    /// evaluation's scores stand). It is asked only when our remaining placements come one
    /// after another (the default order of SPEC 6, not AlternatingPlacement).
    using Judge = std::function<std::optional<int>(const Position&)>;
    Result next(const Position& pos, const Params& params, int max_runs,
                const std::function<bool()>& keep_going, std::mt19937_64& rng, bool vary,
                const Judge& judge = {});

    /// Forgets the plan (ucinewgame).
    void clear() { plan_.reset(); }

  private:
    /// The rest of the plan when pos is the one it expects (the same opponents' men, our men
    /// those of the plan so far) and its next placement is still legal; nullopt otherwise.
    std::optional<Result> follow_plan(const Position& pos) const;

    struct Plan {
        Colour colour = GREEN;
        std::vector<Move> placements;  ///< still to play, in order
        Bitboard others = 0;           ///< opponents' men when planned
        Bitboard own = 0;              ///< own men when planned (before the placements)
        int score = 0;
        bool judged = false;
    };
    std::optional<Plan> plan_;
};

}  // namespace klinzha
