// tests/search/planner_test.cpp: the setup planner: legal complete plans, followed while
// the position is as expected, re-planned otherwise, safe hearts, varied setups.
#include <doctest/doctest.h>

#include <set>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "search/planner.h"
#include "test_util.h"

using namespace klinzha;

namespace {
auto always = [] { return true; };
}

TEST_CASE("planner: a complete legal setup, followed move by move") {
    SetupPlanner planner;
    std::mt19937_64 rng(1);
    Position p = testutil::make(kStartFen2);
    auto first = planner.next(p, {}, 2, always, rng, false);
    CHECK(first.replanned);
    REQUIRE(first.plan.size() == 9);
    for (std::size_t i = 0; i < first.plan.size(); ++i) {
        auto r = planner.next(p, {}, 2, always, rng, false);
        CHECK(r.move == first.plan[i]);
        CHECK_FALSE(r.replanned);  // the first call made the plan
        REQUIRE(is_legal(p, r.move));
        p.do_move(r.move);
    }
    CHECK(p.to_move() == BLUE);
    CHECK(p.piece_count(GREEN) == 9);
}

TEST_CASE("planner: re-plans when the position is not the one it expected") {
    SetupPlanner planner;
    std::mt19937_64 rng(2);
    Position p = testutil::make(kStartFen2);
    auto first = planner.next(p, {}, 1, always, rng, false);
    // Play something else than the plan's first placement.
    MoveList l;
    generate_legal(p, l);
    Move other = l.moves[0] == first.move ? l.moves[1] : l.moves[0];
    p.do_move(other);
    auto again = planner.next(p, {}, 1, always, rng, false);
    CHECK(again.replanned);
    CHECK(is_legal(p, again.move));
    CHECK(again.plan.size() == 8);
}

TEST_CASE("planner: Blue's setup leaves a heart cell Green cannot take on move one") {
    SetupPlanner planner;
    std::mt19937_64 rng(3);
    // Green's aggressive setup is in place; Blue plans against it.
    Position p = testutil::make("2 Qh56,Rg57,Bg47,Nh67,Ng58,Pi56,Pi66,Ph57,Wi99 - - b place 0 1");
    while (p.phase() == Phase::Place) p.do_move(planner.next(p, {}, 3, always, rng, false).move);
    REQUIRE(p.phase() == Phase::Heart);
    p.do_move(Move::place_heart(lsb(p.pieces(GREEN, QUEEN) | p.pieces(GREEN, PAWN))));
    // Some Blue heart cell must be safe from Green's first move.
    Bitboard walls = p.pieces(GREEN, WALL) | p.pieces(BLUE, WALL);
    Bitboard spots = (p.pieces(BLUE, QUEEN) | p.pieces(BLUE, ROOK) | p.pieces(BLUE, PAWN)) &
                     ~geo::neighbours_of(walls);
    bool safe = false;
    for_each_cell(spots, [&](Cell h) {
        p.do_move(Move::place_heart(h));
        safe |= !attacks_heart(p, GREEN, BLUE);
        p.undo_move();
    });
    CHECK(safe);
}

TEST_CASE("planner: near-equal setups vary between games") {
    std::set<std::uint32_t> firsts;
    std::set<std::vector<std::uint32_t>> plans;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        SetupPlanner planner;
        std::mt19937_64 rng(seed);
        auto r = planner.next(testutil::make(kStartFen3), {}, 4, always, rng, true);
        std::vector<std::uint32_t> raw;
        for (Move m : r.plan) raw.push_back(m.raw());
        plans.insert(raw);
    }
    CHECK(plans.size() >= 2);
    // Without variety the same seed gives the same plan.
    SetupPlanner a, b;
    std::mt19937_64 ra(5), rb(5);
    CHECK(a.next(testutil::make(kStartFen2), {}, 2, always, ra, false).plan ==
          b.next(testutil::make(kStartFen2), {}, 2, always, rb, false).plan);
}
