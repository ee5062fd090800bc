// tests/engine/notation_test.cpp: SPEC 9 move strings and SPEC 11 algebraic notation.
#include <doctest/doctest.h>

#include <set>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "test_util.h"

using namespace klinzha;
using testutil::make;

TEST_CASE("move strings of SPEC 9 print and parse") {
    auto p = make(kStartFen2);
    auto m = parse_move(p, "w@H87");
    REQUIRE(std::holds_alternative<Move>(m));
    CHECK(move_to_string(std::get<Move>(m)) == "W@h78");
    CHECK(std::holds_alternative<std::string>(parse_move(p, "W@i11")));  // Blue's region
    CHECK(std::holds_alternative<std::string>(parse_move(p, "X@i99")));
    CHECK(std::holds_alternative<std::string>(parse_move(p, "i99i89")));  // placement phase
    CHECK(std::holds_alternative<std::string>(parse_move(p, "")));
    CHECK(std::holds_alternative<std::string>(parse_move(p, "0000")));
    auto q = make("2 He38,Qe38,Pi99 Hi11,Pi11 - g play 0 1");
    auto c = parse_move(q, "e38e48h");
    REQUIRE(std::holds_alternative<Move>(c));
    CHECK(std::get<Move>(c).carries_heart());
    CHECK(move_to_string(std::get<Move>(c)) == "e38e48h");
    CHECK(move_to_string(Move::null()) == "0000");
}

TEST_CASE("algebraic notation: the forms of SPEC 11") {
    auto p = make("2 He38,Qe38,Pi99,Nd17,Nd16,Pd28 Hi11,Pi11,Rd38,Pc28 - g play 0 1");
    auto alg = [&](const char* s) {
        auto m = parse_move(p, s);
        REQUIRE(std::holds_alternative<Move>(m));
        return to_algebraic(p, std::get<Move>(m));
    };
    CHECK(alg("e38e48") == "Qe48");
    CHECK(alg("e38e48h") == "HQe48");
    CHECK(alg("e38d38") == "Qxd38");
    CHECK(alg("d28c28") == "dxc28");  // a pawn capture names its departure row
    CHECK(alg("i99i89") == "i89");
    auto s = make(kStartFen2);
    auto w = parse_move(s, "W@h78");
    CHECK(to_algebraic(s, std::get<Move>(w)) == "Wh78");
}

TEST_CASE("algebraic notation round-trips for every legal move of several positions") {
    const char* fens[] = {
        kStartFen3,
        "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,"
        "Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2",
        "3 - Hf25,Qi67,Rh56,Bg14,Nh89,Pf25 Hb29,Qi22,Qh45,Rh34,Rg36,Be16,Bd49,Ng13,Nf69,Nf48,"
        "Pi89,Pg68,Pf59,Pf36,Pb29,Wi45,Wi34 k play 28 19",
        "2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,Ng24,Ph35,Ph13,"
        "Ph12,Wg35 - b heart 0 1",
        "2 Hi45,Re15,Ng79,Pi45 Hh35,Nb18,Ph35 - g play 4 50",
    };
    for (const char* fen : fens) {
        auto p = make(fen);
        MoveList l;
        generate_legal(p, l);
        REQUIRE(l.size > 0);
        std::set<std::string> seen;
        for (Move m : l) {
            std::string a = to_algebraic(p, m);
            CAPTURE(a);
            CHECK(seen.insert(a).second);  // unambiguous
            auto back = parse_algebraic(p, a);
            REQUIRE(std::holds_alternative<Move>(back));
            CHECK(std::get<Move>(back) == m);
        }
    }
}

TEST_CASE("algebraic disambiguation: the departure row, else the columns") {
    auto p = make("3 Hi99,Pi99,Nd17,Nd49,Ng79 Hi11,Pi11 - g play 0 1");
    std::set<std::string> names;
    MoveList l;
    generate_legal(p, l);
    for (Move m : l) names.insert(to_algebraic(p, m));
    // d49 and g79 both reach f59: rows d and g differ.
    CHECK(names.count("Ndf59"));
    CHECK(names.count("Ngf59"));
    // d17 and d49 both reach a19: same row, so the columns.
    CHECK(names.count("N17a19"));
    CHECK(names.count("N49a19"));
    CHECK(names.count("Nd28"));  // only d49 reaches d28
}
