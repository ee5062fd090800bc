// tests/engine/blind_test.cpp: the Blind game's announcements and views (SPEC 25).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>

#include "blind_games.h"
#include "engine/blind.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"

using namespace klinzha;
using namespace klinzha::blind;

namespace {

Rules blind_rules() {
    Rules r;
    r.blind = true;
    return r;
}

Cell cell(const char* name) {
    return *geo::parse_cell(name);
}

}  // namespace

TEST_CASE("blind view: every random game's views agree with the whole game (2 and 3 players)") {
    // The arbiter's tokens, read back by each player's View, give that player's men, the
    // turn, the phase and who is out exactly as in the whole position, and every move legal
    // in the whole position is a proposal the view allows (SPEC 25).
    std::map<std::string, int> kinds;  // token kinds seen, so the test covers each
    auto kind_of = [](const std::string& t) -> std::string {
        if (t[0] == '+' || t[0] == '-') return t.substr(0, 1);
        if (t[0] == '?') return t.size() == 1 ? "?" : t == "?xH" ? t : t.substr(0, 2);
        if (t.size() > 2 && t.substr(t.size() - 2) == "xH") return "xH";
        return t.back() == 'x' ? "x" : "move";
    };
    for (int players : {2, 3}) {
        for (std::uint64_t seed = 1; seed <= 12; ++seed) {
            CAPTURE(players);
            CAPTURE(seed);
            testing::BlindGame g(players, blind_rules(), seed);
            std::vector<View> views;
            for (int c = 0; c < players; ++c)
                views.push_back(std::get<View>(View::start(Colour(c), g.start)));
            std::array<std::size_t, kColours> told{};
            while (g.step()) {
                for (int c = 0; c < players; ++c) {
                    View& v = views[std::size_t(c)];
                    auto& mine = g.tokens[std::size_t(c)];
                    for (; told[std::size_t(c)] < mine.size(); ++told[std::size_t(c)]) {
                        const auto err = v.apply(mine[told[std::size_t(c)]]);
                        INFO("colour " << c << " token " << told[std::size_t(c)] << " "
                                       << mine[told[std::size_t(c)]] << ": " << err.value_or(""));
                        REQUIRE_FALSE(err);
                    }
                }
                for (int c = 0; c < players; ++c) {
                    const View& v = views[std::size_t(c)];
                    const Position& p = g.pos;
                    if (v.over()) continue;
                    CHECK(v.position().pieces(Colour(c)) == p.pieces(Colour(c)));
                    CHECK(v.position().heart(Colour(c)) == p.heart(Colour(c)));
                    CHECK(v.position().to_move() == p.to_move());
                    CHECK(v.position().phase() == p.phase());
                    CHECK(v.position().state().out == p.state().out);
                    if (p.to_move() == c && !p.game_over()) {
                        MoveList whole;
                        generate_legal(p, whole);
                        const auto mine = v.proposals();
                        for (Move m : whole)
                            CHECK(std::find(mine.begin(), mine.end(), m) != mine.end());
                    }
                }
            }
            for (auto& list : g.tokens)
                for (auto& t : list) kinds[kind_of(t)]++;
            // A view never holds a man of another colour.
            for (int c = 0; c < players; ++c)
                CHECK((views[std::size_t(c)].position().occupied() &
                       ~views[std::size_t(c)].position().pieces(Colour(c))) == 0);
        }
    }
    for (const char* k : {"move", "x", "xH", "+", "?", "?x", "?xH", "?-"}) {
        INFO("token kind " << std::string(k));
        CHECK(kinds[k] > 0);
    }
}

TEST_CASE("blind view: parse reads a history and refused proposals, and says what is wrong") {
    Position start(2, blind_rules());
    // Green's view of a placement, then Blue's unseen one.
    auto ok = View::parse(GREEN, start, {"W@h78"}, {});
    REQUIRE(std::holds_alternative<View>(ok));
    CHECK(std::get<View>(ok).position().to_move() == GREEN);  // sequential placement
    CHECK(std::get<View>(ok).position().pieces(GREEN, WALL) == bit(cell("h78")));

    auto bad = [&](Colour c, std::vector<std::string> toks, std::vector<std::string> refused,
                   const char* needle) {
        auto r = View::parse(c, start, toks, refused);
        REQUIRE(std::holds_alternative<std::string>(r));
        INFO(std::get<std::string>(r));
        CHECK(std::get<std::string>(r).find(needle) != std::string::npos);
    };
    bad(GREEN, {"?"}, {}, "own turn");                   // Green places first
    bad(BLUE, {"W@h78"}, {}, "its ply is ?");            // Green's ply, seen by Blue
    bad(GREEN, {"W@a19"}, {}, "not legal in the view");  // not Green's region
    bad(GREEN, {"W@h78x"}, {}, "placement captures");    // placements capture nothing
    bad(BLUE, {"?x"}, {}, "before the play phase");      // nothing taken in setup
    bad(BLUE, {"?q"}, {}, "before the play phase");
    bad(GREEN, {"-b"}, {}, "that colour's turn");  // out only at its turn
    bad(GREEN, {"-z"}, {}, "followed by g, b or k");
    bad(GREEN, {}, {"W@h78", "W@h78"}, "refused twice");  // one refusal per proposal a turn
    bad(GREEN, {}, {"Q@a19"}, "not legal in the view");   // a refusal was a legal proposal
    bad(BLUE, {}, {"W@i33"}, "not the viewer's turn");
    bad(GREEN, {""}, {}, "empty token");
    Rules off;
    auto r = View::parse(GREEN, Position(2, off), {}, {});
    REQUIRE(std::holds_alternative<std::string>(r));
    CHECK(std::get<std::string>(r).find("Blind is off") != std::string::npos);
    Position placed;
    REQUIRE_FALSE(placed.set("2 Wh78 - - g place 0 1", blind_rules()));
    CHECK(std::holds_alternative<std::string>(View::parse(BLUE, placed, {}, {})));
}

TEST_CASE("blind view: the play phase tokens, captures and the game's end (two players)") {
    // Play a fixed random game until Green captures, then check the tokens of that ply.
    testing::BlindGame g(2, blind_rules(), 7);
    bool saw_man = false, saw_heart = false;
    while (g.step()) {
        const auto& gt = g.tokens[GREEN].back();
        const auto& bt = g.tokens[BLUE].back();
        if (g.last_mover == GREEN && gt.back() == 'x') {
            saw_man = true;
            CHECK(bt.rfind("?x", 0) == 0);
            CHECK(bt.size() == 5);  // ?x<cell>
        }
        if (gt.size() > 2 && gt.substr(gt.size() - 2) == "xH") {
            saw_heart = true;
            CHECK(bt == "?xH");
        }
    }
    CHECK((saw_man || saw_heart));
    // After the game is over for a viewer, nothing more is accepted.
    auto v = View::parse(GREEN, g.start, g.tokens[GREEN], {});
    REQUIRE(std::holds_alternative<View>(v));
    if (std::get<View>(v).over()) CHECK(std::get<View>(v).apply("?"));
}

TEST_CASE("blind announce: three players, a heart capture tells the men received") {
    // Green takes Blue's heart carried on e38... built by hand: Green's queen on e37 next to
    // Blue's pawn carrying Blue's heart on e38.
    Position p;
    REQUIRE_FALSE(p.set("3 Hi99,Qe37,Pi89 He38,Pe38,Ri11 Ha19,Qa19 g play 0 1", blind_rules()));
    const Move m = Move::normal(cell("e37"), cell("e38"));
    REQUIRE(is_legal(p, m));
    auto g = announce(p, m, GREEN);
    REQUIRE(g.size() == 2);
    CHECK(g[0] == "e37e38xH");
    CHECK(g[1] == "+b:Ri11");
    CHECK(announce(p, m, BLUE) == std::vector<std::string>{"?xH"});
    CHECK(announce(p, m, BLACK) == std::vector<std::string>{"?-b"});
    CHECK(men_field({{ROOK, cell("i11")}, {QUEEN, cell("d38")}}) == "Qd38,Ri11");
    CHECK(men_field({}) == "-");
}
