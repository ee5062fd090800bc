// search/timeman.cpp: see timeman.h. Source: RH article 6.2 (clocks), SPEC 13 (`go`).
#include "timeman.h"

#include <algorithm>

namespace klinzha {

TimeBudget plan_time(const SearchLimits& limits, Colour us, std::int64_t overhead_ms, int ply_hint,
                     int players, int weight) {
    TimeBudget b;
    if (limits.movetime >= 0) {
        std::int64_t t = std::max<std::int64_t>(1, limits.movetime - overhead_ms);
        b.soft_ms = b.hard_ms = t;
        return b;
    }
    if (limits.time[us] < 0) return b;  // no clock for us: untimed
    const std::int64_t left = limits.time[us];
    const std::int64_t inc = std::max<std::int64_t>(0, limits.inc[us]);
    const std::int64_t delay = std::max<std::int64_t>(0, limits.delay[us]);
    // Moves still to play under this clock: the period's count, or an estimate from the
    // expected length of a game of this size, placements included (self-play games last
    // 60-130 plies with two players, more with three), and never fewer than 20.
    const int n = std::clamp(players, 2, 3);
    const int game_plies = n == 3 ? 240 : 140;
    int expected = std::max(20, (game_plies - ply_hint) / n);
    int mtg = limits.movestogo > 0 ? std::min(limits.movestogo, expected) : expected;
    // What may be spent without losing on time: the clock less the margin; the delay, free
    // every move (it never reaches the clock), is added less the overhead below.
    const std::int64_t usable = std::max<std::int64_t>(0, left - overhead_ms);
    std::int64_t base = (usable / mtg + inc * 3 / 4) * std::max(1, weight);
    std::int64_t hard_cap = usable / 3 + inc / 2;
    if (limits.movestogo == 1) hard_cap = usable * 4 / 5;  // the last move of a period
    // The increment is credited only after the move: never plan past what the clock holds.
    hard_cap = std::min(hard_cap, usable);
    // The delay is free time, less the reply latency (Move Overhead): with an empty clock a
    // search of the whole delay would end below zero.
    const std::int64_t free_ms = std::max<std::int64_t>(0, delay - overhead_ms);
    b.soft_ms = std::min(base * 6 / 10, hard_cap) + free_ms;
    b.hard_ms = std::min(base * 3, hard_cap) + free_ms;
    b.soft_ms = std::max<std::int64_t>(1, b.soft_ms);
    b.hard_ms = std::max<std::int64_t>(1, std::max(b.hard_ms, b.soft_ms));
    return b;
}

std::int64_t adjusted_soft(const TimeBudget& b, double best_move_changes, bool heart_in_danger) {
    if (b.soft_ms < 0) return -1;
    double f = 1.0 + std::min(best_move_changes, 4.0) * 0.35;
    if (heart_in_danger) f *= 1.4;
    return std::min<std::int64_t>(b.hard_ms, std::int64_t(b.soft_ms * f));
}

}  // namespace klinzha
