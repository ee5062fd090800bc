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

TEST_CASE("planner: SetupSearch takes the candidate its judge likes best, in order only") {
    // A judge that likes the wall far from the cell i99 (an arbitrary, checkable taste): the
    // plan chosen is the judged candidate with the highest judgement, and every position it
    // was shown has our whole setup placed and the opponent to place.
    Position p = testutil::make(kStartFen2);
    const Cell corner = *geo::parse_cell("i99");
    std::vector<int> seen;
    auto judge = [&](const Position& placed) {
        CHECK(placed.piece_count(GREEN) == 9);
        CHECK(placed.to_move() == BLUE);
        const Cell w = lsb(placed.pieces(GREEN, WALL));
        const int v = geo::distance(w, corner) * 100 + int(w);
        seen.push_back(v);
        return v;
    };
    SetupPlanner::Params params;
    params.judged = 5;
    SetupPlanner planner;
    std::mt19937_64 rng(3);
    auto r = planner.next(p, params, 8, always, rng, false, judge);
    REQUIRE_FALSE(seen.empty());
    CHECK(seen.size() <= 5u);
    CHECK(r.judged);
    CHECK(r.score == *std::max_element(seen.begin(), seen.end()));
    // Without a judge (or with judged 0) the evaluation decides, as before.
    SetupPlanner plain;
    std::mt19937_64 rng2(3);
    seen.clear();
    params.judged = 0;
    auto q = plain.next(p, params, 8, always, rng2, false, judge);
    CHECK(seen.empty());
    CHECK_FALSE(q.judged);
    // A judge out of time after two judgements (nullopt): judging stops there, and the plan
    // is the better of the two judged.
    int asked = 0;
    std::vector<int> given;
    auto short_judge = [&](const Position& placed) -> std::optional<int> {
        if (asked++ >= 2) return std::nullopt;
        given.push_back(judge(placed));
        return given.back();
    };
    params.judged = 5;
    SetupPlanner timed;
    std::mt19937_64 rng3(3);
    auto t = timed.next(p, params, 8, always, rng3, false, short_judge);
    CHECK(asked == 3);
    REQUIRE(given.size() == 2u);
    CHECK(t.judged);
    CHECK(t.score == std::max(given[0], given[1]));
    // No time at all: the evaluation's scores stand.
    SetupPlanner none;
    std::mt19937_64 rng4(3);
    auto u = none.next(p, params, 8, always, rng4, false,
                       [](const Position&) -> std::optional<int> { return std::nullopt; });
    CHECK_FALSE(u.judged);
    CHECK(is_legal(p, u.move));
    seen.clear();
    // AlternatingPlacement: our placements do not come in a row; the judge is never asked.
    Rules alt;
    alt.alternating_placement = true;
    Position a(2, alt);
    params.judged = 5;
    SetupPlanner third;
    auto s = third.next(a, params, 4, always, rng, false, judge);
    CHECK(seen.empty());
    CHECK_FALSE(s.judged);
    CHECK(is_legal(a, s.move));
}

TEST_CASE("planner: a blind setup covers the cells an unseen knight would take its heart from") {
    // SPEC 25: a blind player sees no opposing man, and knights (nothing blocks them) take
    // most of the hearts it loses. Over the blind setups from the empty board, the heart cell
    // the setup leaves best covered (own men or own walls' zones on the knight's cells
    // around it) has fewer open cells with Params::open_knight_cp than without it.
    Rules blind;
    blind.blind = true;
    auto least_open = [](const Position& p, Colour us) {
        int least = 99;
        const Bitboard spots =
            (p.pieces(us, QUEEN) | p.pieces(us, ROOK) | p.pieces(us, PAWN)) & ~p.all_zones();
        for_each_cell(spots, [&](Cell h) {
            Bitboard from = 0;
            for (const geo::PathEntry& e : geo::paths(geo::PathClass::Knight, h))
                from |= bit(e.dest);
            least = std::min(least, popcount(from & ~p.pieces(us) & ~p.zones(us)));
        });
        return least;
    };
    int with = 0, without = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        for (int cover : {0, 1}) {
            SetupPlanner planner;
            SetupPlanner::Params params;
            params.judged = 0;
            params.open_knight_cp = cover ? SetupPlanner::Params{}.open_knight_cp : 0;
            std::mt19937_64 rng(seed);
            Position p(2, blind);
            while (p.phase() == Phase::Place && p.to_move() == GREEN)
                p.do_move(planner.next(p, params, 2, always, rng, true).move);
            REQUIRE(p.piece_count(GREEN) == 9);
            (cover ? with : without) += least_open(p, GREEN);
        }
    }
    MESSAGE("open knight cells around the best heart cell, six setups: " << with << " with the "
                                                                         << "cover, " << without
                                                                         << " without");
    CHECK(with < without);
}
