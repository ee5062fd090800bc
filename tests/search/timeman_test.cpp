// tests/search/timeman_test.cpp: the time manager's budgets (RH article 6.2 clocks).
#include <doctest/doctest.h>

#include "search/timeman.h"

using namespace klinzha;

TEST_CASE("no clock: untimed, movetime: exactly that less the overhead") {
    SearchLimits l;
    auto b = plan_time(l, GREEN, 30);
    CHECK(b.soft_ms < 0);
    CHECK(b.hard_ms < 0);
    l.movetime = 1000;
    b = plan_time(l, GREEN, 30);
    CHECK(b.soft_ms == 970);
    CHECK(b.hard_ms == 970);
}

TEST_CASE("sudden death: a small share, the hard limit well inside the clock") {
    SearchLimits l;
    l.time = {60000, 60000, -1};
    auto b = plan_time(l, GREEN, 30);
    CHECK(b.soft_ms > 500);
    CHECK(b.soft_ms < 3000);
    CHECK(b.hard_ms >= b.soft_ms);
    CHECK(b.hard_ms <= 60000 / 3);
    // Blue's clock is what counts when Blue moves.
    l.time = {60000, 1000, -1};
    CHECK(plan_time(l, BLUE, 30).hard_ms < 400);
}

TEST_CASE("increment and delay add time, tiny clocks never overspend") {
    SearchLimits l;
    l.time = {10000, 10000, 10000};
    auto base = plan_time(l, BLACK, 0);
    l.inc = {0, 0, 1000};
    auto inc = plan_time(l, BLACK, 0);
    CHECK(inc.soft_ms >= base.soft_ms + 400);  // 3/4 of the increment, 60% of it soft
    l.inc = {0, 0, 0};
    l.delay = {0, 0, 300};
    auto del = plan_time(l, BLACK, 0);
    CHECK(del.soft_ms == base.soft_ms + 300);  // the delay never reaches the clock
    CHECK(del.hard_ms == base.hard_ms + 300);
    SearchLimits t;
    t.time = {20, 20, -1};
    auto tiny = plan_time(t, GREEN, 30);
    CHECK(tiny.hard_ms >= 1);
    CHECK(tiny.hard_ms <= 10);
}

TEST_CASE("moves per period: time spread over movestogo, the last move may use most") {
    SearchLimits l;
    l.time = {30000, 30000, -1};
    l.movestogo = 10;
    auto ten = plan_time(l, GREEN, 0);
    CHECK(ten.soft_ms >= 30000 / 10 * 6 / 10 - 1);
    l.movestogo = 1;
    auto last = plan_time(l, GREEN, 0);
    CHECK(last.hard_ms > ten.hard_ms);
    CHECK(last.hard_ms <= 30000);
}

TEST_CASE("instability and danger stretch the soft limit, never past the hard one") {
    TimeBudget b{1000, 3000};
    CHECK(adjusted_soft(b, 0, false) == 1000);
    CHECK(adjusted_soft(b, 2, false) > 1000);
    CHECK(adjusted_soft(b, 0, true) > 1000);
    CHECK(adjusted_soft(b, 100, true) <= 3000);
}

TEST_CASE("issue 9: an empty clock spends at most the delay less the overhead, and no increment") {
    SearchLimits l;
    l.time = {0, 0, -1};
    l.delay = {500, 500, 0};
    auto b = plan_time(l, GREEN, 30);
    CHECK(b.hard_ms <= 470);  // was 500 + latency: every move ended below zero
    CHECK(b.soft_ms <= b.hard_ms);
    SearchLimits inc;
    inc.time = {0, 0, -1};
    inc.inc = {100, 100, 0};
    CHECK(plan_time(inc, GREEN, 30).hard_ms <= 1);  // the increment comes after the move
    inc.time = {40, 40, -1};
    CHECK(plan_time(inc, GREEN, 30).hard_ms <= 10);
}

TEST_CASE("issue 9: the clock is spread over the expected length of the game") {
    SearchLimits l;
    l.time = {60000, 60000, 60000};
    const auto opening = plan_time(l, GREEN, 30, 0, 2);
    const auto middle = plan_time(l, GREEN, 30, 60, 2);
    const auto late = plan_time(l, GREEN, 30, 200, 2);
    // The same clock buys more per move the fewer moves a game of this size has left...
    CHECK(opening.soft_ms < middle.soft_ms);
    CHECK(middle.soft_ms <= late.soft_ms);
    // ...never more than the 20-move floor: 60 s less the overhead, over 20 moves, 60% soft.
    CHECK(late.soft_ms <= (60000 - 30) / 20 * 6 / 10);
    // At the start a two-player game plans for 70 own moves: about 60 s / 70 * 0.6.
    CHECK(opening.soft_ms >= (60000 - 30) / 70 * 6 / 10 - 1);
    CHECK(opening.soft_ms <= (60000 - 30) / 60 * 6 / 10);
    // Three-player games last longer for each player (240 plies, 80 own moves).
    CHECK(plan_time(l, GREEN, 30, 0, 3).soft_ms < opening.soft_ms);
}

TEST_CASE("a setup's planning placement may take several moves' time, within the hard cap") {
    SearchLimits l;
    l.time = {5000, 5000, -1};
    l.inc = {50, 50, 0};
    const auto one = plan_time(l, GREEN, 30, 0, 2);
    const auto eight = plan_time(l, GREEN, 30, 0, 2, 8);
    // 4,970 ms over 70 own moves plus 3/4 of the increment, 60% soft: about 65 ms a move.
    CHECK(one.soft_ms >= ((5000 - 30) / 70 + 37) * 6 / 10 - 1);
    CHECK(eight.soft_ms >= 8 * one.soft_ms - 8);
    CHECK(eight.soft_ms <= 8 * one.soft_ms + 8);
    // The hard cap (a third of the clock and half the increment) holds whatever the weight.
    CHECK(eight.hard_ms <= (5000 - 30) / 3 + 25);
    CHECK(plan_time(l, GREEN, 30, 0, 2, 64).hard_ms <= (5000 - 30) / 3 + 25);
    CHECK(plan_time(l, GREEN, 30, 0, 2, 64).soft_ms <= (5000 - 30) / 3 + 25);
    // A weight below one is one; a fixed movetime and an untimed search ignore it.
    CHECK(plan_time(l, GREEN, 30, 0, 2, 0).soft_ms == one.soft_ms);
    SearchLimits m;
    m.movetime = 500;
    CHECK(plan_time(m, GREEN, 30, 0, 2, 8).soft_ms == 470);
    CHECK(plan_time(SearchLimits{}, GREEN, 30, 0, 2, 8).soft_ms < 0);
}
