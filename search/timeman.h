// search/timeman.h: the time manager. From the `go` clocks of the player to move it gives
// a soft limit (do not start another iteration after it) and a hard limit (stop the
// search), in ms. Clock rules of RH article 6.2: sudden death, Fischer increment, moves per
// period (movestogo, with the time saved carried over), time delay (the first `delay` ms of
// each move do not count), and the Move Overhead margin.
#pragma once

#include <cstdint>

#include "limits.h"

namespace klinzha {

struct TimeBudget {
    std::int64_t soft_ms = -1;  ///< -1: no time limit
    std::int64_t hard_ms = -1;
};

/// Budget for colour `us` under `limits`, keeping `overhead_ms` (Move Overhead) in hand.
/// `ply_hint`: plies played so far in the game, placements included; `players`: 2 or 3.
/// Both only shape the expected number of own moves left (the game's expected length
/// spread over its players, at least 20). Never returns a hard limit that, with the
/// overhead, exceeds the time on the clock plus the delay; never less than 1 ms when a
/// clock is given; never plans on an increment before it is credited. `weight`: how many
/// moves' time this move may take (>= 1): a placement that plans the player's whole setup
/// (SPEC 6.1; SetupPlanner::Params::time_moves), whose later placements follow the plan at
/// once; the soft and hard limits grow with it up to the same hard cap (a third of the
/// clock). A fixed `movetime` and an untimed search are left as they are.
TimeBudget plan_time(const SearchLimits& limits, Colour us, std::int64_t overhead_ms,
                     int ply_hint = 0, int players = 2, int weight = 1);

/// Scales the soft limit as the search learns: `best_move_changes` (a decaying count of
/// changes of the best move) and `heart_in_danger` buy more time; the result never exceeds
/// the hard limit.
std::int64_t adjusted_soft(const TimeBudget& b, double best_move_changes, bool heart_in_danger);

}  // namespace klinzha
