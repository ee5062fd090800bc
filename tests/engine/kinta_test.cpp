// tests/engine/kinta_test.cpp: the rules of Klin Zha Kinta (SPEC 26) one by one, by hand-made
// positions: the wall as a carrier and as a target, pawns and walls, attack outcomes in
// do_move/undo_move, a lost attack with the heart carried, the `strength` field of SPEC 10 with
// every rejection, and the key.
#include <doctest/doctest.h>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "test_util.h"

using namespace klinzha;
using testutil::legal;
using testutil::make;

namespace {
Rules kinta(bool power_vanguard = false) {
    Rules r;
    r.kinta = true;
    r.power_vanguard = power_vanguard;
    return r;
}
Cell cell(const char* name) {
    return *geo::parse_cell(name);
}
}  // namespace

TEST_CASE(
    "Kinta: an opposing wall may be attacked through its own zone, pawns only under "
    "PowerVanguard") {
    // Blue's pawn i23 is two steps from Green's wall i34, through i33 in the wall's zone.
    const char* fen = "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1";
    CHECK(legal(make(fen, kinta(true)), "i23i34"));
    CHECK_FALSE(legal(make(fen, kinta(false)), "i23i34"));  // one step: never next to a wall
    Rules pv;
    pv.power_vanguard = true;
    CHECK_FALSE(legal(make(fen, pv), "i23i34"));           // no Kinta: walls cannot be taken
    CHECK_FALSE(legal(make(fen, kinta(true)), "i23i33"));  // the zone is still no destination
}

TEST_CASE(
    "Kinta: a wall whose cell lies in the zone of another opposing wall cannot be "
    "attacked") {
    // Black is out and Blue holds two walls (three players, after a transfer). Green's pawn
    // i23 reaches Blue's wall i34 through i33 (PowerVanguard), unless Blue's other wall
    // stands next to i34 (h34) and not when it stands elsewhere (h24).
    CHECK_FALSE(legal(make("3 Hi99,Qi99,Pi23 Hi11,Ri11,Wi34,Wh34,Pd16 - g play 0 1", kinta(true)),
                      "i23i34"));
    CHECK(legal(make("3 Hi99,Qi99,Pi23 Hi11,Ri11,Wi34,Wh24,Pd16 - g play 0 1", kinta(true)),
                "i23i34"));
}

TEST_CASE("Kinta: the wall carries its heart, in the heart phase and in play") {
    // Heart phase: the wall's cell is offered under Kinta only.
    const char* heart =
        "2 Qi99,Rh89,Bg47,Ni56,Ng79,Pi78,Ph68,Ph67,Wf69 "
        "Qi44,Rh45,Bg24,Ni33,Ni12,Pg25,Pf25,Pf14,Wh34 - g heart 0 1";
    CHECK(legal(make(heart, kinta()), "H@f69"));
    CHECK_FALSE(legal(make(heart), "H@f69"));
    // Play: the wall carrying its heart takes its zone along; a one-step move that would leave
    // the heart in the wall's new zone is legal only with the heart.
    const char* play = "2 Hi34,Qi99,Wi34 Hi11,Ri11,Pi23 - g play 0 1";
    Position p = make(play, kinta());
    CHECK(legal(p, "i34h34h"));
    CHECK_FALSE(legal(p, "i34h34"));
    CHECK(legal(p, "i34h35h"));  // two steps: with or without the heart
    CHECK(legal(p, "i34h35"));
    CHECK_FALSE(legal(p, "i34i33h"));  // next to Blue's pawn i23: never
    // Without Kinta the string is refused: a heart on a wall is not carried.
    Position q;
    CHECK(q.set(play, Rules{}));
}

TEST_CASE("Kinta: a wall picks up its own heart standing alone, and captures no man") {
    Position p = make("2 Hh35,Qi99,Wi34 Hi11,Ri11,Pi23 - g play 0 1", kinta());
    CHECK(legal(p, "i34h35"));
    testutil::play(p, "i34h35");
    CHECK(p.heart(GREEN) == cell("h35"));
    CHECK(man_type(p.man_on(cell("h35"))) == WALL);
}

TEST_CASE("Kinta: attack outcomes in do_move and undo_move") {
    const char* fen = "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1";
    Position p = make(fen, kinta(true));
    const Move m = std::get<Move>(parse_move(p, "i23i34"));
    CHECK(p.is_attack(m));
    const std::string before = p.fen();
    const std::uint64_t key = p.key();

    SUBCASE("a bare attack: the attacker wins with its strength unchanged (perft's child)") {
        p.do_move(m);
        CHECK(man_type(p.man_on(cell("i34"))) == PAWN);
        CHECK(p.strength(cell("i34")) == 120);
        CHECK(p.halfmove() == 0);
    }
    SUBCASE("the attacker wins with 87") {
        p.do_move(m.with_outcome(false, 87));
        CHECK(man_colour(p.man_on(cell("i34"))) == BLUE);
        CHECK(p.strength(cell("i34")) == 87);
        CHECK(p.fen() == "2 Hi99,Qi99 Hi11,Ri11,Pi34 - g play 0 2 strength=i34:87");
        CHECK(p.key() == p.compute_key());
    }
    SUBCASE("the defender wins with 54: the attacker is removed, the wall stays") {
        p.do_move(m.with_outcome(true, 54));
        CHECK(man_type(p.man_on(cell("i34"))) == WALL);
        CHECK(p.man_on(cell("i23")) == kNoMan);
        CHECK(p.strength(cell("i34")) == 54);
        CHECK(p.to_move() == GREEN);
        CHECK(p.halfmove() == 0);
        CHECK(p.fen() == "2 Hi99,Qi99,Wi34 Hi11,Ri11 - g play 0 2 strength=i34:54");
        CHECK(p.key() == p.compute_key());
    }
    p.undo_move();
    CHECK(p.fen() == before);
    CHECK(p.key() == key);
}

TEST_CASE("Kinta: outcomes are checked against the survivor's strength before the fight") {
    Position p =
        make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:40,i34:9", kinta(true));
    const Move m = std::get<Move>(parse_move(p, "i23i34"));
    CHECK_FALSE(p.check_outcome(m.with_outcome(false, 40)));
    CHECK(p.check_outcome(m.with_outcome(false, 41)));  // above A's 40
    CHECK_FALSE(p.check_outcome(m.with_outcome(true, 9)));
    CHECK(p.check_outcome(m.with_outcome(true, 10)));  // above D's 9
    const Move quiet = std::get<Move>(parse_move(p, "i23h23"));
    CHECK(p.check_outcome(quiet.with_outcome(false, 5)));  // no attack
}

TEST_CASE(
    "Kinta: an attacker that loses while carrying its heart loses the heart to the "
    "defender's owner") {
    // Two players: Blue's queen carries its heart onto Green's queen and loses.
    Position p = make("2 Hi99,Qc28,Wg79 Hd38,Qd38,Pi22 - b play 0 1", kinta());
    REQUIRE(legal(p, "d38c28h"));
    const Move m = std::get<Move>(parse_move(p, "d38c28h"));
    p.do_move(m.with_outcome(true, 50));
    CHECK(p.heart(BLUE) == NO_CELL);
    CHECK(p.game_over());
    CHECK(p.winner() == GREEN);
    CHECK(p.strength(cell("c28")) == 50);
    // The same move leaving the heart behind: the heart stays alone on d38.
    p.undo_move();
    const Move leave = std::get<Move>(parse_move(p, "d38c28"));
    p.do_move(leave.with_outcome(true, 50));
    CHECK(p.heart(BLUE) == cell("d38"));
    CHECK(p.man_on(cell("d38")) == kNoMan);
    CHECK_FALSE(p.game_over());
}

TEST_CASE("Kinta, three players: the loser's army passes to the defender's owner") {
    Position p = make("3 Hi99,Qi99,Wg79 Hd38,Qd38,Pi22 Hc17,Qc28,Pd16 b play 0 1", kinta());
    REQUIRE(legal(p, "d38c28h"));
    p.do_move(std::get<Move>(parse_move(p, "d38c28h")).with_outcome(true, 20));
    CHECK(p.heart(BLUE) == NO_CELL);
    CHECK_FALSE(p.is_in(BLUE));
    CHECK(man_colour(p.man_on(cell("i22"))) == BLACK);  // Blue's pawn is Black's now
    CHECK(p.strength(cell("c28")) == 20);
    CHECK(p.key() == p.compute_key());
    CHECK(p.to_move() == BLACK);
}

TEST_CASE("Kinta under RelationDilemma: the defender's owner that takes the heart wins") {
    // Blue may attack Black (SPEC 15); only Green may capture Blue's heart, but Black's queen
    // wins the fight against Blue's queen that carried it, so Black takes it and wins.
    Rules rd = kinta();
    rd.relation_dilemma = true;
    Position p = make("3 Hi99,Qi99,Wg79 Hd38,Qd38,Pi22 Hc28,Qc28,Pd16 b play 0 1", rd);
    REQUIRE(legal(p, "d38c28h"));
    p.do_move(std::get<Move>(parse_move(p, "d38c28h")).with_outcome(true, 30));
    CHECK(p.game_over());
    CHECK(p.winner() == BLACK);
    p.undo_move();
    p.do_move(std::get<Move>(parse_move(p, "d38c28h")).with_outcome(false, 30));
    CHECK(p.game_over());  // Blue won the fight and took Black's heart
    CHECK(p.winner() == BLUE);
}

TEST_CASE("Kinta: the strength field (SPEC 10, 26)") {
    const Rules k = kinta();
    SUBCASE("read in any order and digit order, written sorted by cell name") {
        Position p = make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i32:7", k);
        CHECK(p.strength(cell("i23")) == 7);
        Position q = make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i34:90,i23:7", k);
        CHECK(q.fen() == "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7,i34:90");
        CHECK(p.fen() == "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7");
    }
    for (const char* bad :
         {"2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7,i32:8",  // twice
          "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=h23:7",        // no man
          "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:120",      // not below
          "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:0",        // below 1
          "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23",          // malformed
          "2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7 strength=i34:9",
          "2 Qi99,Wi34 Ri11,Pi23 - b place 0 1 strength=i23:7"}) {  // not in play
        CAPTURE(bad);
        Position p = make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7", k);
        const std::string kept = p.fen();
        auto err = p.set(bad, k);
        CHECK(err);
        if (err) CHECK(err->rfind("strength", 0) == 0);
        CHECK(p.fen() == kept);  // nothing changed
    }
    Position p;
    auto off = p.set("2 Hi99,Qi99 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7", Rules{});
    REQUIRE(off);
    CHECK(off->find("Kinta off") != std::string::npos);
    Rules refl = kinta();
    refl.reflective = true;
    auto none = p.set("2 Hi99,Qi99,Ri11,Pi23 - - g play 0 1 strength=i23:7", refl);
    REQUIRE(none);
    CHECK(none->find("no effect") != std::string::npos);
}

TEST_CASE("Kinta: strengths are part of the key") {
    const Rules k = kinta();
    Position a = make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1", k);
    Position b = make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:7", k);
    Position c = make("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1 strength=i23:8", k);
    CHECK(a.key() != b.key());
    CHECK(b.key() != c.key());
    // A damaged man that moves takes its strength (and its share of the key) along.
    testutil::play(b, "i23h23");
    CHECK(b.strength(cell("h23")) == 7);
    CHECK(b.key() == b.compute_key());
}

TEST_CASE("Kinta has no effect under Blind or Reflective (SPEC 25, 26)") {
    Rules r = kinta();
    r.blind = true;
    CHECK_FALSE(r.effective(2).kinta);
    r.blind = false;
    r.reflective = true;
    CHECK_FALSE(r.effective(2).kinta);
    CHECK(kinta().effective(3).kinta);
    Rules b;
    b.blind = true;
    b.goal_safety = true;
    b.ablative = 6;
    CHECK_FALSE(b.effective(2).goal_safety);
    CHECK(b.effective(2).ablative == 0);
    CHECK_FALSE(Rules{}.set("Kinta", "true"));
    CHECK(Rules{}.set("Kinta", "maybe"));
}
