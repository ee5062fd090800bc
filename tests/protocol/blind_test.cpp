// tests/protocol/blind_test.cpp: `position blind` (SPEC 25) in the protocol: every token kind
// read, every rejection with the previous state kept, `d` showing the view, and answers that
// depend only on the line (not on the hidden truth behind it).
#include <doctest/doctest.h>

#include <optional>
#include <random>

#include "engine/blind.h"
#include "engine/blind_games.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "session.h"

using namespace klinzha;
using testutil::Session;

namespace {

Rules blind_rules() {
    Rules r;
    r.blind = true;
    return r;
}

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += " " + x;
    return s;
}

/// A random blind game played until `colour` is to move in play with a history of at least
/// `min_plies` tokens; its tokens for that colour.
testing::BlindGame game_until(int players, Colour colour, std::uint64_t seed, int min_plies) {
    testing::BlindGame g(players, blind_rules(), seed, 400);
    while (g.step())
        if (g.pos.phase() == Phase::Play && g.pos.to_move() == colour &&
            int(g.tokens[colour].size()) >= min_plies)
            break;
    return g;
}

}  // namespace

TEST_CASE("position blind: a history read, d shows the view, go proposes a legal move") {
    Session s;
    s.send("setoption name Blind value true");
    auto g = game_until(2, BLUE, 3, 30);
    REQUIRE(g.pos.phase() == Phase::Play);
    REQUIRE(g.pos.to_move() == BLUE);
    s.clear();
    s.send("position blind b startpos moves" + join(g.tokens[BLUE]));
    CHECK(s.lines().empty());
    s.send("d");
    CHECK_FALSE(s.wait_for("Blind view of blue", 1000).empty());
    CHECK(s.with_prefix("Fen: 2 - ").size() == 1);  // Green's men are hidden
    s.clear();
    s.send("go nodes 2000");
    const std::string best = s.wait_for("bestmove ");
    REQUIRE_FALSE(best.empty());
    CHECK_FALSE(s.wait_for("info string blind boards", 100).empty());
    const std::string m = best.substr(9, best.find(' ', 9) - 9);
    auto view = blind::View::parse(BLUE, Position(2, blind_rules()), g.tokens[BLUE], {});
    REQUIRE(std::holds_alternative<blind::View>(view));
    const auto props = std::get<blind::View>(view).proposals();
    bool found = false;
    for (Move x : props) found |= move_to_string(x) == m;
    CHECK(found);
    // The same history with a refused proposal: that move is not proposed again.
    s.uci().engine().wait();
    s.clear();
    s.send("position blind b startpos moves" + join(g.tokens[BLUE]) + " refused " + m);
    CHECK(s.lines().empty());
    s.send("go nodes 2000");
    const std::string again = s.wait_for("bestmove ");
    CHECK(again.substr(9, again.find(' ', 9) - 9) != m);
    s.uci().engine().wait();
}

TEST_CASE("position blind: every rejection says why and keeps the previous view") {
    Session s;
    s.expect_one_error("position blind g startpos", "Blind option is off");
    s.send("setoption name Blind value true");
    s.send("position blind g startpos moves W@h78");
    s.clear();
    s.send("d");
    const auto fen_before = s.with_prefix("Fen: ");
    REQUIRE(fen_before.size() == 1);
    const std::pair<const char*, const char*> bad[] = {
        {"position blind", "expected 'position blind <colour>"},
        {"position blind z startpos", "colour must be g, b or k"},
        {"position blind g", "expected 'startpos' or 'fen'"},
        {"position blind g nonsense", "expected 'startpos' or 'fen'"},
        {"position blind g startpos moves ?", "own turn"},
        {"position blind g startpos moves W@h78 W@h79", "not legal in the view"},
        {"position blind b startpos moves W@h78", "its ply is ?"},
        {"position blind b startpos moves ?x", "before the play phase"},
        {"position blind g startpos moves -b", "that colour's turn"},
        {"position blind g startpos moves W@h78x", "placement captures"},
        {"position blind g startpos refused W@h78 W@h78", "refused twice"},
        {"position blind b startpos refused W@i33", "not the viewer's turn"},
        {"position blind g startpos bogus", "expected 'moves' or 'refused'"},
        {"position blind g fen 2 Wi11 - - g place 0 1", "position"},
        {"position blind g fen 2 - - - g play 0 1", "position"},
        {"position blind k startpos", "not a player"},
    };
    for (auto& [line, why] : bad) {
        s.expect_one_error(line, why);
        s.clear();
        s.send("d");
        CHECK(s.with_prefix("Fen: ") == fen_before);  // unchanged
    }
    // A plain `position` ends blind play.
    s.send("position startpos");
    s.clear();
    s.send("d");
    CHECK(s.with_prefix("Blind view").empty());
}

TEST_CASE("position blind: three-player tokens (+, ?-, -) are read") {
    Session s;
    s.send("setoption name Blind value true");
    s.send("setoption name Players value 3");
    // Random three-player games until one has a heart capture token for some colour.
    bool plus = false, other = false;
    for (std::uint64_t seed = 1; seed < 40 && !(plus && other); ++seed) {
        testing::BlindGame g(3, blind_rules(), seed, 300);
        while (g.step()) {
        }
        for (int c = 0; c < 3; ++c) {
            // Every prefix of every colour's history up to a point where it may propose.
            const auto& toks = g.tokens[std::size_t(c)];
            const bool has_plus =
                std::any_of(toks.begin(), toks.end(), [](auto& t) { return t[0] == '+'; });
            const bool has_other = std::any_of(toks.begin(), toks.end(),
                                               [](auto& t) { return t.rfind("?-", 0) == 0; });
            if (!has_plus && !has_other) continue;
            s.clear();
            s.send(std::string("position blind ") + kColourChar[c] + " startpos moves" +
                   join(toks));
            INFO(join(toks));
            CHECK(s.lines().empty());
            plus |= has_plus;
            other |= has_other;
        }
    }
    CHECK(plus);
    CHECK(other);
}

TEST_CASE("position blind: the answer depends on the line only, not on the hidden truth") {
    // Two different whole games that give Green the same history: Blue's unseen plies differ
    // (a second game is built by choosing, at each of Blue's plies, a random move that Green
    // would be told of in the same words). The engine's answers to the two lines are the same.
    auto a = game_until(2, GREEN, 11, 24);
    REQUIRE(a.pos.to_move() == GREEN);
    const auto& told = a.tokens[GREEN];
    std::optional<Position> b;
    for (std::uint64_t seed = 1; seed < 200 && !b; ++seed) {
        std::mt19937_64 rng(seed);
        Position p(2, blind_rules());
        bool ok = true;
        for (std::size_t i = 0; i < told.size() && ok; ++i) {
            MoveList legal;
            generate_legal(p, legal);
            std::vector<Move> fit;
            for (Move m : legal)
                if (blind::announce(p, m, GREEN)[0] == told[i]) fit.push_back(m);
            if (fit.empty())
                ok = false;
            else
                p.do_move(fit[rng() % fit.size()]);
        }
        if (ok && p.pieces(BLUE) != a.pos.pieces(BLUE)) b = p;
    }
    REQUIRE(b.has_value());  // another truth behind the same line
    CHECK(b->pieces(GREEN) == a.pos.pieces(GREEN));
    const std::string line = "position blind g startpos moves" + join(told);
    std::vector<std::string> answers;
    for (int run = 0; run < 2; ++run) {
        Session s;
        s.send("setoption name Blind value true");
        s.send("setoption name BlindSamples value 4");
        s.send(line);
        s.send("go depth 2");
        const std::string best = s.wait_for("bestmove ");
        REQUIRE_FALSE(best.empty());
        answers.push_back(best);
        s.uci().engine().wait();
    }
    CHECK(answers[0] == answers[1]);
}

namespace {

/// The nodes of the info line reported with the last bestmove in `lines` (0: none).
std::uint64_t last_nodes(const std::vector<std::string>& lines) {
    std::uint64_t nodes = 0;
    for (const auto& l : lines)
        if (auto at = l.find(" nodes "); l.rfind("info ", 0) == 0 && at != std::string::npos)
            nodes = std::stoull(l.substr(at + 7));
    return nodes;
}

}  // namespace

TEST_CASE("position blind: Move Overhead is kept once a proposal, not once a board") {
    // The same proposal time (600 ms) with Move Overhead 0 and 300: the boards' searches must
    // share that time either way. With the overhead taken again from each board's few ms,
    // every board searched 1 ms and the proposal searched a small fraction of the nodes.
    Session s;
    s.send("setoption name Blind value true");
    auto g = game_until(2, BLUE, 5, 40);
    REQUIRE(g.pos.phase() == Phase::Play);
    const std::string position = "position blind b startpos moves" + join(g.tokens[BLUE]);
    s.send(position);
    s.send("go nodes 2000");  // the belief is built here, not in the timed proposals below
    REQUIRE_FALSE(s.wait_for("bestmove ").empty());
    s.uci().engine().wait();
    std::uint64_t nodes[2] = {0, 0};
    const int overhead[2] = {0, 300};
    for (int i = 0; i < 2; ++i) {
        s.send("setoption name Move Overhead value " + std::to_string(overhead[i]));
        s.send(position);
        s.clear();
        s.send("go movetime " + std::to_string(600 + overhead[i]));
        REQUIRE_FALSE(s.wait_for("bestmove ").empty());
        s.uci().engine().wait();
        nodes[i] = last_nodes(s.lines());
    }
    REQUIRE(nodes[0] > 0);
    CHECK(nodes[1] * 5 > nodes[0] * 2);  // within 2.5 times: about 1.3 measured, 4.8 before
}
