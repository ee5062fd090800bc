// tests/eval/evaluate_test.cpp: the classical evaluation's hunt term (eval/evaluate.cpp): a player
// far ahead in material is drawn toward the heart it must take; where the network applies, and
// what the evaluation adds beside it.
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "engine/geometry.h"
#include "eval/evaluate.h"
#include "test_util.h"

using namespace klinzha;

namespace {

/// The `hunt` row of the evaluation's trace: green, blue, black ("-" for a colour out: -1).
std::array<int, 3> hunt_row(const Position& p) {
    std::istringstream in(eval::trace(p));
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("hunt", 0) != 0) continue;
        std::istringstream row(line.substr(4));
        std::array<int, 3> v{-1, -1, -1};
        for (auto& x : v) {
            std::string s;
            row >> s;
            x = s == "-" || s.empty() ? -1 : std::stoi(s);
        }
        return v;
    }
    FAIL("no hunt row in the trace");
    return {};
}

/// 4 cp for each step each listed man stands closer than 12 steps to `heart`: the rule as
/// docs/search.md states it, from the board's distances.
int expected(std::initializer_list<const char*> men, const char* heart) {
    int v = 0;
    const Cell h = *geo::parse_cell(heart);
    for (const char* m : men) v += 4 * std::max(0, 12 - geo::distance(*geo::parse_cell(m), h));
    return v;
}

}  // namespace

TEST_CASE("evaluation: the hunt draws a player far ahead toward the opponent's heart") {
    // Green: pawn (carrying its heart), rook, queen, knight, a wall: 1,276 cp of material
    // against Blue's lone pawn (27 cp); a lead of 700 or more turns the hunt on.
    const Position ahead = testutil::make("2 Hi99,Pi99,Rd27,Qd28,Nc28,Wg79 Ha19,Pa19 - g play 0 1");
    const auto h = hunt_row(ahead);
    CHECK(h[0] == expected({"i99", "d27", "d28", "c28"}, "a19"));  // the wall does not count
    CHECK(h[0] > 0);
    CHECK(h[1] == 0);
    // The rook four steps nearer the heart: 16 cp more.
    const Position nearer =
        testutil::make("2 Hi99,Pi99,Rb18,Qd28,Nc28,Wg79 Ha19,Pa19 - g play 0 1");
    CHECK(hunt_row(nearer)[0] == expected({"i99", "b18", "d28", "c28"}, "a19"));
    CHECK(hunt_row(nearer)[0] == h[0] + 16);  // d27 -> b18: 6 steps -> 2
    // A lead under 700 cp (pawn and rook against a pawn): no hunt.
    const Position level = testutil::make("2 Hi99,Pi99,Rb18 Ha19,Pa19 - g play 0 1");
    CHECK(hunt_row(level)[0] == 0);
}

TEST_CASE("evaluation: a heart taken in three players counts its RH 11.1 point for its taker") {
    // Green's rook on c29 takes Black's lone heart on c28 (RH 5.1: Black is out, its wall
    // passes to Green). RH 11.1 gives Green +1, Blue 0: Green's standing against Blue (the one
    // other player still in) gains kHeartPoint, Blue's loses it, before and after alike by
    // the same board terms.
    Position p = testutil::make(
        "3 Hd17,Qd17,Rc29,Bg46,Ph79,Wg47 Hi12,Ph13,Pi12,Wg35 Hc28,Wb19 g play 44 78");
    CHECK(p.hearts_taken(GREEN) == 0);
    CHECK(eval::heart_points(p, GREEN) == 0);
    testutil::play(p, "c29c28");
    REQUIRE_FALSE(p.is_in(BLACK));
    CHECK(p.hearts_taken(GREEN) == 1);
    CHECK(p.hearts_taken(BLUE) == 0);
    CHECK(eval::heart_points(p, GREEN) == eval::kHeartPoint);
    CHECK(eval::heart_points(p, BLUE) == -eval::kHeartPoint);
    // The evaluation is the board standing plus the point: the same position read from its
    // string (no history, so no heart taken) lies kHeartPoint below for Green.
    const Position fresh = testutil::make(p.fen());
    CHECK(fresh.hearts_taken(GREEN) == 0);
    CHECK(eval::evaluate(p, GREEN) - eval::evaluate(fresh, GREEN) == eval::kHeartPoint);
}

TEST_CASE("nnue_applies: play positions of the games the network was trained for") {
    const nnue::Network* net = nnue::default_network();
    if (net == nullptr) return;  // a build without eval/nnue/default.nnue
    const nnue::Network* before = eval::network(2);
    const nnue::Network* before_three = eval::network(3);
    const char* two =
        "2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,"
        "Ph12,Pf26,Wi44 - g play 0 1";
    const char* three =
        "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,"
        "Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2";
    auto applies = [](const char* fen, Rules r) {
        Position p;
        REQUIRE_FALSE(p.set(fen, r));
        return eval::nnue_applies(p);
    };
    eval::set_network(net, false);
    CHECK(applies(two, Rules{}));
    CHECK_FALSE(applies(three, Rules{}));  // three-player games: the classical terms
    Rules blind;
    blind.blind = true;  // the blind search's boards keep the terms its hunt was tuned with
    CHECK_FALSE(applies(two, blind));
    Rules kinta;
    kinta.kinta = true;
    CHECK_FALSE(applies(two, kinta));
    eval::set_network(net, true);
    CHECK(applies(three, Rules{}));
    eval::set_network(nullptr, true);
    CHECK_FALSE(applies(two, Rules{}));
    // A network per game size (EvalFile Three Players): each applies to its own games only.
    eval::set_networks(nullptr, net);
    CHECK_FALSE(applies(two, Rules{}));
    CHECK(applies(three, Rules{}));
    CHECK(eval::network(3) == net);
    eval::set_networks(net, nullptr);
    CHECK(applies(two, Rules{}));
    CHECK_FALSE(applies(three, Rules{}));
    CHECK(eval::network(3) == nullptr);
    eval::set_networks(before, before_three);
}

TEST_CASE("beside_network: the heart points, and in three players the hunt's standing") {
    // Two players: only the heart points, none in two-player games.
    const Position two = testutil::make("2 Hi99,Pi99,Rd27,Qd28,Nc28,Wg79 Ha19,Pa19 - g play 0 1");
    CHECK(eval::beside_network(two, GREEN) == 0);
    // Three players: Green (1,276 cp of men) leads Blue's and Black's lone pawns by more than
    // 700 cp, so its hunt counts the steps to both hearts; theirs is zero. Green's standing is
    // its hunt less the mean of the others' (SPEC 7), Blue's and Black's minus half of it.
    const Position three =
        testutil::make("3 Hi99,Pi99,Rd27,Qd28,Nc28,Wg79 Ha19,Pa19 He59,Pe59 g play 0 1");
    const int green = expected({"i99", "d27", "d28", "c28"}, "a19") +
                      expected({"i99", "d27", "d28", "c28"}, "e59");
    CHECK(green > 0);
    CHECK(eval::beside_network(three, GREEN) == green);
    CHECK(eval::beside_network(three, BLUE) == -green / 2);
    CHECK(eval::beside_network(three, BLACK) == -green / 2);
    // No lead of 700 cp: nothing beside the network.
    const Position level = testutil::make("3 Hi99,Pi99,Rb18 Ha19,Pa19 He59,Pe59 g play 0 1");
    CHECK(eval::beside_network(level, GREEN) == 0);
}

TEST_CASE("evaluate_with: the hunt and the heart points are no weight's (the tuner's constant)") {
    // klinzha-tune fit reads a sample's value under weights w as its value under zero weights
    // plus each weight times the change a unit weight makes. Green leads Blue and Black by
    // 700 cp and more, so its hunt counts; it must count under zero weights (in the constant)
    // and not again under a unit queen, which alone would make Green lead by 1,024.
    const Position p =
        testutil::make("3 Hi99,Pi99,Rd27,Qd28,Nc28,Wg79 Ha19,Pa19 He59,Pe59 g play 0 1");
    const int base = eval::evaluate_with(p, GREEN, eval::WeightTable{});
    CHECK(base == eval::beside_network(p, GREEN));  // the hunt's standing
    CHECK(base > 0);
    eval::WeightTable queen{};
    queen[eval::W_QUEEN] = 1024;  // one queen against none: +1,024 and nothing else
    CHECK(eval::evaluate_with(p, GREEN, queen) - base == 1024);
    // A heart taken: the RH 11.1 point is in the constant too.
    Position q = testutil::make(
        "3 Hd17,Qd17,Rc29,Bg46,Ph79,Wg47 Hi12,Ph13,Pi12,Wg35 Hc28,Wb19 g play 44 78");
    testutil::play(q, "c29c28");
    CHECK(eval::evaluate_with(q, GREEN, eval::WeightTable{}) == eval::beside_network(q, GREEN));
    CHECK(eval::beside_network(q, GREEN) >= eval::kHeartPoint);
}
