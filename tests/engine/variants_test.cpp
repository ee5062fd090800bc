// tests/engine/variants_test.cpp: one hand-made position per rule of SPEC 15-23, each
// Decision of those sections among them; the option table and presets of SPEC 8 and 14.
//
// Counts come from the rules as SPEC states them, worked out by hand on the positions below
// (the perft files test the same rules on random positions).
#include <doctest/doctest.h>

#include <map>

#include <sstream>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/perft.h"
#include "test_util.h"

using namespace klinzha;
using testutil::legal;
using testutil::make;
using testutil::play;

namespace {
Rules with(std::initializer_list<std::pair<const char*, const char*>> words) {
    Rules r;
    for (auto [k, v] : words) REQUIRE_FALSE(r.set(k, v));
    return r;
}
std::string rejected(const std::string& fen, const Rules& r = {}) {
    Position p;
    auto err = p.set(fen, r);
    return err ? *err : "";
}
Cell cell(const char* name) {
    return *geo::parse_cell(name);
}
}  // namespace

TEST_CASE("SPEC 8: the option table, values as text, presets, effective rules") {
    Rules r;
    CHECK(r.to_string().find("Ablative=0 KaggasCrown=off") != std::string::npos);
    CHECK_FALSE(r.set("ablative", "-1"));
    CHECK(r.ablative == -1);
    CHECK(r.set("Ablative", "82"));
    CHECK(r.set("Ablative", "x"));
    CHECK(r.ablative == -1);  // unchanged by the errors
    CHECK_FALSE(r.set("KaggasCrown", "APEX"));
    CHECK(r.kaggas_crown == Crown::Apex);
    CHECK(r.set("DrawRule", "sometimes"));
    CHECK(r.set("Courrier", "true"));
    Rules back;
    std::istringstream words(r.to_string());
    for (std::string w; words >> w;)
        REQUIRE_FALSE(back.set(w.substr(0, w.find('=')), w.substr(w.find('=') + 1)));
    CHECK(back == r);
    auto it = Rules::preset("klin-zha-italian");
    REQUIRE(it);
    CHECK(it->goal_safety);
    CHECK(it->courier);
    CHECK(it->blockader_traps);
    CHECK(it->goal_crosses_zone_if_threatened);
    CHECK(it->blockader_takes_goal_last);
    CHECK_FALSE(it->flier_jumps_walls);
    CHECK(it->draw_rule == DrawRule::Italian);
    CHECK(it->variant_name() == "klin-zha-italian");
    CHECK(Rules::preset("klin-zha-reflective")->reflective);
    CHECK_FALSE(Rules::preset("chess"));
    // SPEC 14: an option for the other game size has no effect.
    Rules both = with({{"RelationDilemma", "true"}, {"KaggasCrown", "region"}});
    CHECK_FALSE(both.effective(2).relation_dilemma);
    CHECK(both.effective(2).kaggas_crown == Crown::Region);
    CHECK(both.effective(3).kaggas_crown == Crown::Off);
    CHECK(both.required_players() == -1);
    CHECK(with({{"Reflective", "true"}}).required_players() == 2);
    CHECK(Rules{}.required_players() == 0);
}

TEST_CASE("SPEC 8: each rule option is bound to a field of its own, defaults as SPEC 8 gives") {
    // SPEC 8's defaults, written here from the SPEC's table (not from the code).
    const std::map<std::string, std::string> spec8 = {{"GoalSafety", "false"},
                                                      {"PowerVanguard", "false"},
                                                      {"FlierJumpsWalls", "true"},
                                                      {"ForwardPlacement", "false"},
                                                      {"AlternatingPlacement", "false"},
                                                      {"RelationDilemma", "false"},
                                                      {"Ablative", "0"},
                                                      {"KaggasCrown", "off"},
                                                      {"HonorInSetup", "false"},
                                                      {"HeartFirst", "false"},
                                                      {"Reflective", "false"},
                                                      {"DrawRule", "standard"},
                                                      {"Courier", "false"},
                                                      {"BlockaderTraps", "false"},
                                                      {"GoalCrossesZoneIfThreatened", "false"},
                                                      {"BlockaderTakesGoalLast", "false"},
                                                      {"Blind", "false"},
                                                      {"Kinta", "false"}};
    REQUIRE(kRuleOptions.size() == spec8.size());
    for (const RuleOption& o : kRuleOptions) {
        CAPTURE(o.name);
        REQUIRE(spec8.count(o.name) == 1);
        CHECK(o.default_text() == spec8.at(o.name));
        // Setting one option to a value other than its default changes that option's text
        // alone: no two names share a field, and each reaches the field it names.
        const std::string other = o.type() == RuleOption::Type::Check
                                      ? (o.default_text() == "true" ? "false" : "true")
                                  : o.type() == RuleOption::Type::Spin ? "3"
                                                                       : o.choices[2];
        Rules r;
        REQUIRE_FALSE(r.set(o.name, other));
        for (const RuleOption& p : kRuleOptions)
            CHECK(p.value_text(r) == (&p == &o ? other : spec8.at(p.name)));
    }
}

TEST_CASE(
    "SPEC 15 RelationDilemma: each colour captures only the next, the first heart capture ends "
    "it") {
    const Rules rd = with({{"RelationDilemma", "true"}});
    // Green's queen on e38 touches a Blue pawn (d38) and a Black pawn (e48).
    auto p = make("3 Hi99,Pi99,Qe38 Hi11,Pi11,Pd38 Hc17,Pc17,Pe48 g play 0 1", rd);
    CHECK(legal(p, "e38d38"));        // Green captures Blue
    CHECK_FALSE(legal(p, "e38e48"));  // Green spares Black
    auto plain = make("3 Hi99,Pi99,Qe38 Hi11,Pi11,Pd38 Hc17,Pc17,Pe48 g play 0 1");
    CHECK(legal(plain, "e38e48"));
    // The capture of Blue's heart ends the game at once; Green wins; no army changes hands.
    auto h = make("3 Hi99,Pi99,Qe38 Hd38,Pi11 Hc17,Pc17 g play 0 1", rd);
    play(h, "e38d38");
    CHECK(h.game_over());
    CHECK(h.winner() == GREEN);
    CHECK(h.fen().find(" - ") == std::string::npos);  // Blue's pawn stays Blue's
    CHECK(perft(h, 1) == 0);
    // Decision: the spared colour's wall still bars entry to its zone.
    auto z = make("3 Hi99,Pi99,Qe37 Hi11,Pi11 Hc17,Pc17,Wd38 g play 0 1", rd);
    CHECK_FALSE(legal(z, "e37e38"));
    // Decision: a player with no legal move loses; the one allowed to capture it wins.
    auto s = make("3 Hi99,Pi99 Hi11,Pi11 Hc17,Pc17 k play 0 1", rd);
    CHECK(s.removal_ends_game());
    CHECK(s.winner_over(BLACK) == BLUE);
    CHECK(s.winner_over(GREEN) == BLACK);
    // A finished game (a colour without a heart, men still on the board) is accepted.
    auto done = make("3 Hi99,Pi99 Pi11 Hc17,Pc17 k play 0 1", rd);
    CHECK(done.game_over());
    CHECK(done.winner() == GREEN);
    CHECK(rejected("3 Hi99,Pi99 Pi11 Hc17,Pc17 k play 0 1") != "");  // not without the option
}

TEST_CASE("SPEC 16 clouds: no capture on a cloud, no heart onto one, paths cross them") {
    auto p = make("2 Hi99,Pi99,Qe38 Hi11,Pi11,Pd38 - g play 0 1 clouds=d38,e37,e27");
    CHECK_FALSE(legal(p, "e38d38"));  // the man on the cloud cannot be captured
    CHECK(legal(p, "e38e37"));        // Decision: an empty clouded cell may be landed on
    CHECK(legal(p, "e38e27"));
    CHECK(legal(p, "e38d49"));
    auto c = make("2 He38,Qe38,Pi99 Hi11,Pi11 - g play 0 1 clouds=e37");
    CHECK(legal(c, "e38e37"));
    CHECK_FALSE(legal(c, "e38e37h"));  // the heart may not end on a cloud
    CHECK(legal(c, "e38e27h"));        // Decision: a carried heart crosses a cloud
    // Decision: a piece may be placed on an empty clouded cell; no heart goes onto one.
    auto s = make("2 - - - g place 0 1 clouds=i99");
    CHECK(legal(s, "Q@i99"));
    auto h = make(
        "2 Qi99,Ri89,Bi88,Ni78,Ni77,Pi67,Pi66,Ph89,Wh57 Qi11,Ri12,Bi22,Ni23,Ni33,"
        "Pi34,Pi44,Ph12,Wh35 - g heart 0 1 clouds=i99");
    CHECK_FALSE(legal(h, "H@i99"));
    CHECK(legal(h, "H@i89"));
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 clouds=i99").rfind("green:", 0) == 0);
    // The field: sorted on output, duplicates and unknown cells rejected; part of the key.
    auto k = make("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 clouds=f37,e38");
    CHECK(k.fen() == "2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 clouds=e38,f37");
    CHECK(k.key() != make("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1").key());
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 clouds=e38,e38").rfind("clouds:", 0) == 0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 clouds=z99").rfind("clouds:", 0) == 0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 clouds=").rfind("clouds:", 0) == 0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 fog=e38").find("unknown") !=
          std::string::npos);
}

TEST_CASE("SPEC 17 Ablative: the cell left is ablated, oldest cleared first, no landing there") {
    const Rules a2 = with({{"Ablative", "2"}});
    auto p = make("2 Hi99,Pi99,Qe38 Hi11,Pi11,Pd38 - g play 0 1 ablated=e27,d27", a2);
    CHECK_FALSE(legal(p, "e38e27"));
    CHECK_FALSE(legal(p, "e38d27"));
    CHECK(legal(p, "e38e26"));  // crossing an ablated cell is allowed
    const int half = p.halfmove();
    play(p, "e38e37");
    CHECK(p.fen().find("ablated=d27,e38") != std::string::npos);  // e27, the oldest, cleared
    CHECK(p.halfmove() == half + 1);                              // Decision: not a capture
    // Order is part of the key and of repetition.
    auto x = make("2 Hi99,Pi99,Qe37 Hi11,Pi11,Pd38 - b play 1 1 ablated=d27,e38", a2);
    auto y = make("2 Hi99,Pi99,Qe37 Hi11,Pi11,Pd38 - b play 1 1 ablated=e38,d27", a2);
    CHECK(x.key() != y.key());
    CHECK(x.key() == p.key());
    // Decision: a heart left behind stays on its ablated cell, alone, and cannot be taken.
    auto h = make("2 He38,Qe38,Pi99 Hi11,Pi11,Nb19 - g play 0 1", with({{"Ablative", "-1"}}));
    play(h, "e38e48");
    CHECK(h.fen().find("ablated=e38") != std::string::npos);
    MoveList l;
    generate_legal(h, l);
    for (Move m : l) CHECK(m.to() != cell("e38"));
    // Decision: knights may not land on an ablated cell either.
    auto n = make("2 Hi99,Pi99,Nf58 Hi11,Pi11 - g play 0 1 ablated=c28", a2);
    auto free_n = make("2 Hi99,Pi99,Nf58 Hi11,Pi11 - g play 0 1", a2);
    CHECK(legal(free_n, "f58c28"));
    CHECK_FALSE(legal(n, "f58c28"));
    // Position strings (SPEC 10).
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 ablated=e38").rfind("ablated:", 0) == 0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 ablated=e38,e37,e27", a2)
              .rfind("ablated:", 0) == 0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 ablated=i99", a2).rfind("ablated:", 0) == 0);
    CHECK(rejected("2 Qi99 - - g place 0 1 ablated=e38", a2).rfind("ablated:", 0) == 0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 ablated=e38,e38", a2).rfind("ablated:", 0) ==
          0);
    CHECK(rejected("2 Hi99,Qi99 Hi11,Pi11 - g play 0 1 ablated=e38", a2) == "");
}

TEST_CASE("SPEC 18 KaggasCrown: a crowned heart must be captured at once, or its owner wins") {
    const Rules region = with({{"KaggasCrown", "region"}});
    // Green carries its heart from the separator f48 into Black's region (e48).
    auto p = make("2 Hf48,Qf48,Pi99 Hi11,Pi11,Ri22 - g play 0 1", region);
    REQUIRE(legal(p, "f48e48h"));
    play(p, "f48e48h");
    CHECK_FALSE(p.game_over());
    play(p, "i11i12");  // Blue does not capture it
    CHECK(p.game_over());
    CHECK(p.winner() == GREEN);
    // apex: only a19 crowns.
    const Rules apex = with({{"KaggasCrown", "apex"}});
    auto q = make("2 Hf48,Qf48,Pi99 Hi11,Pi11,Ri22 - g play 0 1", apex);
    play(q, "f48e48h");
    play(q, "i11i12");
    CHECK_FALSE(q.game_over());
    // No effect with three players (SPEC 14).
    auto t = make("3 Hd49,Qd49,Pi99 Hi11,Pi11 Hc17,Pc17 g play 0 1", region);
    CHECK_FALSE(t.game_over());
    // Decision: a string with the heart of the player to move crowned is a finished game.
    auto done = make("2 Hd49,Qd49,Pi99 Hi11,Pi11 - g play 0 1", region);
    CHECK(done.game_over());
    CHECK(done.winner() == GREEN);
    CHECK(perft(done, 1) == 0);
}

TEST_CASE("SPEC 19 HonorInSetup: no man where an enemy fencer could never reach it") {
    const Rules honor = with({{"HonorInSetup", "true"}});
    // Green's wall on h78: its zone cells are not honourable for Green's other men.
    auto p = make("2 Wh78 - - g place 0 1", honor);
    for_each_cell(geo::neighbours(cell("h78")), [&](Cell c) {
        if (test(geo::region(GREEN), c)) CHECK_FALSE(legal(p, "Q@" + geo::cell_name(c)));
    });
    auto plain = make("2 Wh78 - - g place 0 1");
    CHECK(legal(plain, "Q@i78"));
    // A wall on i89 has the pawn on i99 in its zone: refused with the option only.
    auto corner = make("2 Pi99 - - g place 0 1", honor);
    CHECK_FALSE(legal(corner, "W@i89"));
    CHECK(legal(make("2 Pi99 - - g place 0 1"), "W@i89"));
    // Decision: walls themselves are exempt: a wall in the corner i99 (its one neighbour i89
    // its zone) cannot be reached, and is still legal.
    CHECK(legal(make(kStartFen2, honor), "W@i99"));
}

TEST_CASE("SPEC 20 HeartFirst: each player places its heart right after its pieces") {
    const Rules hf = with({{"HeartFirst", "true"}});
    auto p = make("2 Qi99,Ri89,Bi88,Ni78,Ni77,Pi67,Pi66,Ph89 - - g place 0 1", hf);
    play(p, "W@h57");
    CHECK(p.phase() == Phase::Heart);
    CHECK(p.to_move() == GREEN);
    play(p, "H@i99");
    CHECK(p.phase() == Phase::Place);
    CHECK(p.to_move() == BLUE);
    CHECK(p.fen() == "2 Hi99,Qi99,Ri89,Bi88,Ni77,Ni78,Ph89,Pi66,Pi67,Wh57 - - b place 0 1");
    // The SPEC 20 example is valid; a heart placed early without the option is not.
    make("2 Hi99,Qi99,Ri89,Bi88,Ni78,Nh89,Pi77,Pi67,Ph79,Wg57 - - b place 0 1", hf);
    CHECK(rejected("2 Hi99,Qi99,Ri89,Bi88,Ni78,Nh89,Pi77,Pi67,Ph79,Wg57 - - b place 0 1") != "");
    // Decision: no effect under AlternatingPlacement.
    CHECK_FALSE(
        with({{"HeartFirst", "true"}, {"AlternatingPlacement", "true"}}).effective(2).heart_first);
}

TEST_CASE("SPEC 21 Reflective: one army, every other man an enemy") {
    const Rules r = with({{"Reflective", "true"}});
    auto p = make(kStartFen2, r);
    CHECK_FALSE(legal(p, "Q@i99"));   // the first placement brings the heart
    CHECK_FALSE(legal(p, "B@i99h"));  // and is a carrier
    play(p, "R@i99h");
    CHECK(p.to_move() == BLUE);
    CHECK(p.fen() == "2 Hi99,Ri99 - - b place 0 1");
    for (const char* m : {"Q@i89", "B@i88", "N@i78", "N@i77", "P@i67", "P@i66", "P@h89"})
        play(p, m);
    CHECK(p.to_move() == GREEN);
    play(p, "W@g57");
    CHECK(p.phase() == Phase::Play);
    CHECK(p.to_move() == GREEN);  // the first to place is the first to move
    // Both players have the same moves.
    auto g = make("2 Hg79,Qg69,Rh79,Bd38,Nh68,Pg57,Wi78 - - g play 4 8", r);
    auto b = make("2 Hg79,Qg69,Rh79,Bd38,Nh68,Pg57,Wi78 - - b play 4 8", r);
    CHECK(perft(g, 1) == perft(b, 1));
    CHECK(perft(g, 1) == 55);  // variants.epd row, Blue to move
    // A man may capture another man of the army; ending on the heart captures it and wins.
    auto h = make("2 Hi66,Qh56,Ri77,Pi67 - - g play 0 1", r);
    CHECK(legal(h, "h56i66"));
    play(h, "h56i66");
    CHECK(h.game_over());
    CHECK(h.winner() == GREEN);
    CHECK(rejected("2 Hi99,Ri99 Qi11 - g play 0 1", r).rfind("blue:", 0) == 0);
    CHECK(rejected("2 Hi99,Ri99,Qi89 - - b heart 0 1", r).rfind("phase:", 0) == 0);
    CHECK(rejected("2 Hi99,Ri99,Qi89 - - b place 0 1", r).rfind("to-move:", 0) == 0);
}

TEST_CASE("SPEC 22 DrawRule: none has no draws, italian draws after 20 moves each") {
    auto std_rule = make("2 Hi99,Pi99 Hi11,Pi11 - g play 100 60");
    CHECK(std_rule.move_count_draw());
    auto none = make("2 Hi99,Pi99 Hi11,Pi11 - g play 100 60", with({{"DrawRule", "none"}}));
    CHECK_FALSE(none.move_count_draw());
    const Rules it = with({{"DrawRule", "italian"}});
    CHECK(make("2 Hi99,Pi99 Hi11,Pi11 - g play 40 30", it).move_count_draw());
    CHECK_FALSE(make("2 Hi99,Pi99 Hi11,Pi11 - g play 39 30", it).move_count_draw());
    CHECK(make("3 Hi99,Pi99 Hi11,Pi11 Hc17,Pc17 g play 60 30", it).move_count_draw());
    // No repetition draw under none or italian.
    for (const Rules& r : {with({{"DrawRule", "none"}}), it}) {
        auto p = make("2 Hi99,Qi89 Hi11,Qi12 - g play 0 1", r);
        for (int i = 0; i < 2; ++i)
            for (const char* m : {"i89i88", "i12i22", "i88i89", "i22i12"}) play(p, m);
        CHECK(p.is_repetition(3));
        CHECK_FALSE(p.repetition_draw(3));
    }
}

TEST_CASE("SPEC 23.1 Courier: only the carrier the heart was placed on carries it") {
    const Rules c = with({{"Courier", "true"}});
    auto h = make(
        "2 Qi99,Ri89,Bi88,Ni78,Ni77,Pi67,Pi66,Ph89,Wh57 Qi11,Ri12,Bi22,Ni23,Ni33,"
        "Pi34,Pi44,Ph12,Wh35 - g heart 0 1",
        c);
    play(h, "H@i89");
    CHECK(h.courier(GREEN) == cell("i89"));
    CHECK(h.fen().find("courier=g:i89") != std::string::npos);
    // Another carrier may not pick the heart up.
    auto p = make("2 Hi89,Ri99,Qi78 Hi11,Pi11 - g play 0 1 courier=g:i78,b:i11", c);
    CHECK_FALSE(legal(p, "i99i89"));
    CHECK(legal(p, "i78i89"));
    play(p, "i78i89");
    CHECK(p.courier(GREEN) == cell("i89"));
    // With the courier gone, no carrier may take the heart again.
    auto gone = make("2 Hi89,Ri99 Hi11,Pi11 - g play 0 1 courier=b:i11", c);
    CHECK_FALSE(legal(gone, "i99i89"));
    CHECK(
        rejected("2 Hi89,Ri89,Qi78 Hi11,Pi11 - g play 0 1 courier=g:i78", c).rfind("courier:", 0) ==
        0);
    CHECK(rejected("2 Hi89,Ri89 Hi11,Pi11 - g play 0 1 courier=g:i89").rfind("courier:", 0) == 0);
    CHECK(rejected("2 Hi89,Ri89 Hi11,Pi11 - g play 0 1 courier=g:i89,g:i89", c)
              .rfind("courier:", 0) == 0);
    CHECK(
        rejected("2 Hi89,Ri89,Bi78 Hi11,Pi11 - g play 0 1 courier=g:i78", c).rfind("courier:", 0) ==
        0);
}

TEST_CASE("SPEC 23.2 BlockaderTraps: walls may end next to any men, which are held") {
    const Rules t = with({{"BlockaderTraps", "true"}});
    // Green's wall on f47 steps to e48, next to Blue's pawn on e38: allowed only with traps.
    auto p = make("2 Hi99,Pi99,Wf47 Hi11,Pi11,Pe38 - g play 0 1", t);
    auto plain = make("2 Hi99,Pi99,Wf47 Hi11,Pi11,Pe38 - g play 0 1");
    CHECK(legal(p, "f47e48"));
    CHECK_FALSE(legal(plain, "f47e48"));
    play(p, "f47e48");
    CHECK_FALSE(legal(p, "e38e37"));  // Blue's pawn is held
    // Decision: an own man in the own wall's zone is held too.
    auto own = make("2 Hi99,Pi99,We48,Pe38 Hi11,Pi11 - g play 0 1", t);
    CHECK_FALSE(legal(own, "e38e37"));
    CHECK(legal(own, "i99i89"));
    // Setup: no man at all next to a wall.
    auto s = make("2 Wh78 - - g place 0 1", t);
    CHECK_FALSE(legal(s, "Q@i78"));
    CHECK(legal(make("2 Wh78 - - g place 0 1"), "Q@i78"));
}

TEST_CASE(
    "SPEC 23.3 GoalCrossesZoneIfThreatened: the heart crosses its own zone only when attacked") {
    const Rules g = with({{"GoalCrossesZoneIfThreatened", "true"}});
    // Green's queen carries its heart from e38 to e26; the straight way crosses e37 and
    // e27, both in the zone of Green's wall on d27... the queen finds other paths only if
    // they avoid the zone. Compare the carrying moves with and without the option.
    const char* fen = "2 He38,Qe38,Pi99,Wd27 Hi11,Pi11 - g play 0 1";
    auto on = make(fen, g), off = make(fen);
    MoveList a, b;
    generate_legal(on, a);
    generate_legal(off, b);
    int carry_on = 0, carry_off = 0;
    for (Move m : a) carry_on += m.carries_heart();
    for (Move m : b) carry_off += m.carries_heart();
    CHECK(carry_on < carry_off);
    // Attacked by Blue's rook: the crossing is allowed again.
    const char* attacked = "2 He38,Qe38,Pi99,Wd27 Hi11,Pi11,Re59 - g play 0 1";
    REQUIRE(heart_attacked(make(attacked), GREEN));
    MoveList c, d;
    generate_legal(make(attacked, g), c);
    generate_legal(make(attacked), d);
    CHECK(c.size == d.size);
}

TEST_CASE("SPEC 23.4 BlockaderTakesGoalLast: a wall takes a lone heart only as the last piece") {
    const Rules last = with({{"BlockaderTakesGoalLast", "true"}});
    auto p = make("2 Hi99,Pi99,Wf47 He48,Pi11 - g play 0 1", last);
    CHECK_FALSE(legal(p, "f47e48"));
    CHECK(legal(make("2 Hi99,Pi99,Wf47 He48,Pi11 - g play 0 1"), "f47e48"));
    auto alone = make("2 Hi99,Wf47 He48,Pi11 - g play 0 1", last);
    CHECK(legal(alone, "f47e48"));
}

TEST_CASE("SPEC 10: all colours together hold at most one set per player") {
    // Green and Blue with two queens each in a three-player game with Black out.
    CHECK(rejected("3 Hh46,Qf58,Qh57 Hi44,Qd16,Qh24 - b play 4 22").find("all colours") !=
          std::string::npos);
    CHECK(rejected("3 Hh46,Qf58,Qh57 Hi44,Qd16 - b play 4 22") == "");
}
