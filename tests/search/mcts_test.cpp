// tests/search/mcts_test.cpp: the three-player Monte Carlo tree search (search/mcts.h,
// MultiplayerSearch mcts): it takes a heart, saves its own, keeps to searchmoves, repeats
// itself, reports its lines, plays Kinta's fights, and leaves two-player positions to PVS.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "eval/evaluate.h"
#include "search/engine.h"
#include "search/mcts.h"
#include "test_util.h"

using namespace klinzha;

namespace {

struct Result {
    Move best;
    std::vector<SearchInfo> infos;
    std::vector<std::string> strings;
    std::uint64_t nodes = 0;
};

/// A synchronous MCTS search of fen: `go depth d` caps it at 64 * 2^d iterations.
Result search(const std::string& fen, int depth, const Rules& rules = {},
              std::vector<Move> only = {}, int multipv = 1) {
    Result r;
    Engine e({});
    e.set_rules(rules);
    e.set_multiplayer(MultiplayerSearch::Mcts);
    e.set_multipv(multipv);
    REQUIRE_FALSE(e.set_position(fen, {}));
    SearchLimits l;
    l.depth = depth;
    l.searchmoves = std::move(only);
    SearchCallbacks cb{[&](const SearchInfo& i) { r.infos.push_back(i); },
                       [&](Move b, Move) { r.best = b; },
                       [&](const std::string& s) { r.strings.push_back(s); },
                       {}};
    e.analyse(e.position(), l, cb);
    if (!r.infos.empty()) r.nodes = r.infos.back().nodes;
    return r;
}

bool said(const Result& r, const std::string& start) {
    for (const auto& s : r.strings)
        if (s.rfind(start, 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("mcts: the values' logistic scale is 1 / (1 + e^(-cp / scale))") {
    // Independent figures: 1 / (1 + e^-1) = 0.7310586, and the logit of 0.9 is ln 9 = 2.1972.
    CHECK(mcts::cp_to_value(400, 400.0) == doctest::Approx(0.7310586).epsilon(1e-6));
    CHECK(mcts::cp_to_value(0, 400.0) == doctest::Approx(0.5));
    CHECK(mcts::value_to_cp(0.9, 400.0) == 879);  // 400 * 2.1972 = 878.9
    CHECK(mcts::cp_to_value(eval::kMateBound, 400.0) == 1.0);
    CHECK(mcts::cp_to_value(-eval::kMateBound, 400.0) == 0.0);
    CHECK(mcts::value_to_cp(1.0, 400.0) == 3000);  // clamped, never a mate
}

TEST_CASE("mcts: the root player takes a heart when it can") {
    // Green's rook on e38 takes Black's heart on d38 and with it Black's knight (RH 5.1).
    auto r = search("3 Hi99,Pi99,Re38 Hi11,Pi11 Hd38,Pd38,Na19 g play 0 1", 6);
    CHECK(move_to_string(r.best) == "e38d38");
    REQUIRE_FALSE(r.infos.empty());
    CHECK(r.infos.back().score > 300);
}

TEST_CASE("mcts: the root player saves its heart from the coalition") {
    // Green's heart on e48 is attacked by Blue's rook from e27; the pawn carrying it must
    // take it away. Any other move loses it.
    const char* fen = "3 He48,Pe48,Pi99 Hi11,Pi11,Re27 Ha19,Pa19 g play 0 1";
    auto r = search(fen, 6);
    Position p = testutil::make(fen);
    REQUIRE(is_legal(p, r.best));
    p.do_move(r.best);
    CHECK_FALSE(attacks_heart(p, BLUE, GREEN));
}

TEST_CASE("mcts: the same search twice gives the same move and nodes, and legal lines") {
    const char* fen =
        "3 Hg79,Qf58,Rh56,Bg47,Ni56,Ni66,Pg79,Pi67,Pi89,Wh78 Hh24,Qh24,Rh45,Bf25,Ni44,Ni45,Pf15,"
        "Pi12,Pi34,Wg36 Hc18,Qd28,Rc18,Be49,Ne27,Nf37,Pb19,Pe16,Pe26,We37 g play 0 1";
    auto a = search(fen, 6, {}, {}, 3);
    auto b = search(fen, 6, {}, {}, 3);
    CHECK(a.best == b.best);
    CHECK(a.nodes == b.nodes);
    CHECK(a.nodes > 0);
    CHECK(said(a, "mcts iterations 4096 "));  // 64 * 2^6
    CHECK(said(a, "standing g "));
    // MultiPV 3: three lines, each legal from the root, the first the best move's.
    int lines = 0;
    for (const auto& i : a.infos) {
        Position p = testutil::make(fen);
        for (Move m : i.pv) {
            REQUIRE(is_legal(p, m));
            p.do_move(m);
        }
        lines = std::max(lines, i.multipv);
    }
    CHECK(lines == 3);
    const SearchInfo* first = nullptr;
    for (const auto& i : a.infos)
        if (i.multipv == 1) first = &i;
    REQUIRE(first);
    CHECK(first->pv.front() == a.best);
}

TEST_CASE("mcts: searchmoves keeps the root to the moves named") {
    const char* fen = "3 Hi99,Pi99,Re38 Hi11,Pi11 Hd38,Pd38,Na19 g play 0 1";
    Position p = testutil::make(fen);
    MoveList legal;
    generate_legal(p, legal);
    Move pawn;
    for (Move m : legal)
        if (!p.is_capture(m) && p.heart_victim(m) == NO_COLOUR) pawn = m;
    REQUIRE(is_legal(p, pawn));
    auto r = search(fen, 4, {}, {pawn});
    CHECK(r.best == pawn);  // not the heart capture, which was not named
}

TEST_CASE("mcts: Kinta's fights are played by their odds and the move is legal") {
    Rules k;
    k.kinta = true;
    const char* fen = "3 Hi99,Qi99,Wg79 Hd38,Qd38,Pi22 Hc17,Qc28,Pd16 g play 0 1";
    auto r = search(fen, 5, k);
    CHECK(is_legal(testutil::make(fen, k), r.best));
    CHECK(said(r, "mcts iterations "));
}

TEST_CASE("mcts: two players, or a player out, are searched by PVS") {
    auto two = search("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1", 3);
    CHECK(move_to_string(two.best) == "e38d38");
    CHECK_FALSE(said(two, "mcts iterations"));
    // Black is out (no heart): Green and Blue play on as two.
    auto out = search("3 Hi99,Pi99,Re38 Hd38,Pd38 - g play 0 1", 3);
    CHECK(move_to_string(out.best) == "e38d38");
    CHECK_FALSE(said(out, "mcts iterations"));
}
