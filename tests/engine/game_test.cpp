// tests/engine/game_test.cpp: one game as played (engine/game.h): its movetext written by hand
// for a small game of each kind, its history and take-back, its result tokens, and the stored
// records of every kind read into a Game and written again byte for byte as they were.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "engine/game.h"
#include "engine/record.h"
#include "test_util.h"

using namespace klinzha;

namespace {

PlayedMove played(const char* algebraic, Colour mover, bool setup, const char* move = "") {
    PlayedMove m;
    m.move = move;
    m.algebraic = algebraic;
    m.mover = mover;
    m.setup = setup;
    return m;
}

}  // namespace

TEST_CASE("a game's movetext: phases, move numbers, comments, spindles, notes, removals") {
    Game g;
    g.moves = {played("Hg25", GREEN, true), played("Hb88", BLUE, true),
               played("Ne37", GREEN, false), played("Nxb88", BLUE, false)};
    g.moves[2].comment = "+0.35/12 0.512s";
    g.moves[3].spindles = "spindles 5,3|6";
    g.moves[3].annotation = {"$2", "-1.00 best +0.50 Qe48"};
    g.lead_comment = "klinzha analysis: g: 1 moves";
    g.outcome = {Outcome::Win, Outcome::Loss, Outcome::Draw};
    CHECK(g.movetext() ==
          "{klinzha analysis: g: 1 moves} {setup} Hg25 Hb88 {play} 1. Ne37 {+0.35/12\n"
          "0.512s} Nxb88 $2 {spindles 5,3|6} {-1.00 best +0.50 Qe48} 1-0\n");
    // Three players, a game begun in play by Blue: numbers go with the first mover; a
    // removal stands before the move it came before, and after the last.
    Game t;
    t.players = 3;
    t.moves = {played("Ra1", BLUE, false), played("Rb1", BLACK, false), played("Rc1", GREEN, false),
               played("Rd1", BLUE, false)};
    t.removals = {{2, GREEN, "flag fall"}, {4, BLACK, ""}};
    t.unfinished = true;
    CHECK(t.movetext() == "{play} 1. Ra1 Rb1 {g out: flag fall} Rc1 2. Rd1 {k out} *\n");
    // Long movetext is broken before 80 columns (PGN export format).
    Game l;
    for (int i = 0; i < 40; ++i) l.moves.push_back(played("Qxe48", i % 2 ? BLUE : GREEN, false));
    l.outcome = {Outcome::Draw, Outcome::Draw, Outcome::Draw};
    const std::string text = l.movetext();
    std::istringstream lines(text);
    int n = 0;
    for (std::string line; std::getline(lines, line); ++n) CHECK(line.size() <= 80);
    CHECK(n > 3);
    CHECK(text.substr(text.size() - 9) == " 1/2-1/2\n");
}

TEST_CASE("a game's history, take-back and result") {
    Game g;
    g.players = 3;
    g.moves = {played("", GREEN, false, "a1b1"), played("", BLUE, false, "a2b2"),
               played("", BLACK, false, "a3b3")};
    g.removals = {{1, BLUE, "resigned"}, {3, GREEN, "flag fall"}};
    using V = std::vector<std::string>;
    CHECK(g.history(0) == V{});
    CHECK(g.history(1) == V{"a1b1", "out:resigned"});
    CHECK(g.history(3) == V{"a1b1", "out:resigned", "a2b2", "a3b3", "out:flag fall"});
    CHECK(g.history(99) == g.history(3));
    g.truncate(2);
    REQUIRE(g.moves.size() == 2);
    REQUIRE(g.removals.size() == 1);
    CHECK(g.removals[0].why == "resigned");
    g.truncate(0);
    CHECK(g.moves.empty());
    CHECK(g.removals.empty());

    // Result tokens (PGN; three players one score per colour in turn order).
    g.set_result("0-1/2-1/2");
    CHECK_FALSE(g.unfinished);
    CHECK(g.result() == "0-1/2-1/2");
    CHECK(g.points(GREEN) == 0.0);
    CHECK(g.points(BLUE) == 0.5);
    CHECK(g.kz_points(BLUE) == -0.5);  // Laws of KZ 10.1: a draw costs half a point
    g.set_result("1-0");               // two fields for three players: no result
    CHECK(g.unfinished);
    CHECK(g.result() == "*");
    Game two;
    two.set_result("0-1");
    CHECK(two.result() == "0-1");
    CHECK(two.outcome[BLUE] == Outcome::Win);
    two.hearts_captured[BLUE] = 1;
    two.heart_lost[GREEN] = true;
    CHECK(two.rh_points(BLUE) == 1);  // RH 11.1: +1 a heart taken, -1 one's own lost
    CHECK(two.rh_points(GREEN) == -1);
}

TEST_CASE("stored records of every kind read into a Game and are written again as they were") {
    // tests/data/records (klinzha-match and klinzha-gui wrote them before the Game type): the
    // movetext each game's Game writes is the file's own, byte for byte (line breaks too).
    for (const char* file :
         {"two.pgn", "three.pgn", "kinta.pgn", "blind.pgn", "italian.pgn", "gui-three.pgn"}) {
        CAPTURE(file);
        std::ifstream in(testutil::data(std::string("records/") + file));
        REQUIRE(in);
        std::stringstream text;
        text << in.rdbuf();
        // The movetext sections: the blocks after a blank line that are no tag section.
        std::vector<std::string> movetexts;
        std::string s = text.str();
        for (std::size_t at = 0; at < s.size();) {
            std::size_t end = s.find("\n\n", at);
            if (end == std::string::npos) end = s.size();
            const std::string block = s.substr(at, end - at);
            if (!block.empty() && block[0] != '[') movetexts.push_back(block + "\n");
            at = end + 2;
        }
        std::istringstream again(s);
        const auto games = read_records(again);
        REQUIRE(games.size() == movetexts.size());
        for (std::size_t i = 0; i < games.size(); ++i) {
            const Replay r = replay(games[i], Rules{}, 2, false);
            REQUIRE(r.error.empty());
            const Game g = game_from_record(games[i], r);
            CHECK(g.moves.size() + g.removals.size() == r.moves.size());
            CHECK(g.movetext() == movetexts[i]);
        }
    }
}
