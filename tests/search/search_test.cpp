// tests/search/search_test.cpp: mate scores, draws, paranoid search on small three-player
// positions, the setup phases played by the search, and bench determinism.
#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "eval/evaluate.h"
#include "search/engine.h"
#include "test_util.h"

using namespace klinzha;

namespace {
struct Result {
    Move best;
    SearchInfo last;
};

/// A two-player middlegame of many legal moves (search_sync's tests).
constexpr const char* kMiddlegame =
    "2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 "
    "Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,Ph12,Pf26,Wi44 - g play 0 1";

Result search(const std::string& fen, int depth, const Rules& rules = {}) {
    Result r;
    Engine e({});
    e.set_rules(rules);
    REQUIRE_FALSE(e.set_position(fen, {}));
    SearchLimits l;
    l.depth = depth;
    SearchCallbacks cb{
        [&](const SearchInfo& i) { r.last = i; }, [&](Move b, Move) { r.best = b; }, {}, {}};
    e.analyse(e.position(), l, cb);
    return r;
}
}  // namespace

TEST_CASE("a heart capture in one is found and scored as mate 1") {
    auto r = search("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1", 3);
    CHECK(move_to_string(r.best) == "e38d38");
    CHECK(r.last.mate_in == 1);
}

TEST_CASE("a heart that falls next move scores as being mated") {
    // Blue to move; Green's rook takes the blue heart alone on d38 whatever Blue does
    // (Blue's only piece is a far pawn, the heart cannot move).
    auto r = search("2 Hi99,Pi99,Re38 Hd38,Pi11 - b play 0 1", 4);
    CHECK(r.last.mate_in == -1);
}

TEST_CASE("a mating line ends with the heart capture") {
    // As above: Blue moves, then Green's rook takes the heart. The line says both.
    const char* fen = "2 Hi99,Pi99,Re38 Hd38,Pi11 - b play 0 1";
    auto r = search(fen, 4);
    REQUIRE(r.last.pv.size() == 2);
    Position p = testutil::make(fen);
    p.do_move(r.last.pv[0]);
    CHECK(p.heart_victim(r.last.pv[1]) == BLUE);
}

TEST_CASE("three players: a Best-Reply line is whole, its passes kept as null moves") {
    // A three-player start of play: the line goes beyond the first opponents' layer, each
    // move legal where it stands or a pass (0000, SPEC 9) of the layer's idle opponent.
    const char* fen =
        "3 Hg79,Qf58,Rh56,Bg47,Ni56,Ni66,Pg79,Pi67,Pi89,Wh78 Hh24,Qh24,Rh45,Bf25,Ni44,Ni45,Pf15,"
        "Pi12,Pi34,Wg36 Hc18,Qd28,Rc18,Be49,Ne27,Nf37,Pb19,Pe16,Pe26,We37 g play 0 1";
    auto r = search(fen, 6);
    CHECK(r.last.pv.size() >= 4);
    Position p = testutil::make(fen);
    int passes = 0;
    for (Move m : r.last.pv) {
        if (m == Move::null()) {
            ++passes;
        } else {
            REQUIRE(is_legal(p, m));
        }
        p.do_move(m);
    }
    CHECK(passes >= 1);
    CHECK(r.last.pv.back() != Move::null());
}

TEST_CASE("three players: the opponents' layer never takes the other opponent's heart") {
    // Blue's rook on e38 can take Black's lone heart on d38. Best-Reply Search follows only
    // replies against Green, the root player, so Black would never defend there: the layer
    // leaves that capture out (issue 28), and the line's reply is another of Blue's moves.
    const char* fen = "3 Hi99,Pi99 Hi11,Pi11,Re38 Hd38,Pg24 g play 0 1";
    for (int depth : {2, 3, 4}) {
        auto r = search(fen, depth);
        REQUIRE(r.last.pv.size() >= 2);
        Position p = testutil::make(fen);
        p.do_move(r.last.pv[0]);
        CHECK(p.heart_victim(r.last.pv[1]) == NO_COLOUR);
    }
}

TEST_CASE("50 moves each: every line is a draw, scored 0") {
    // Halfmove 99: the next move that captures nothing ends the game drawn. No captures
    // are possible here.
    auto r = search("2 Hi99,Pi99 Hi11,Pi11 - g play 99 80", 4);
    CHECK(r.last.score == 0);
    CHECK(r.last.mate_in == 0);
}

TEST_CASE("paranoid search: the root player takes a heart when it can") {
    auto r = search("3 Hi99,Pi99,Re38 Hi11,Pi11 Hd38,Pd38,Na19 g play 0 1", 3);
    CHECK(move_to_string(r.best) == "e38d38");
}

TEST_CASE("paranoid search: the root player saves its heart from the coalition") {
    // Green's heart on e48 is attacked by Blue's rook from e27 (through e37, e38). The pawn
    // carrying it must take it away (e49 or f48); everything else loses the heart.
    const char* fen = "3 He48,Pe48,Pi99 Hi11,Pi11,Re27 Ha19,Pa19 g play 0 1";
    auto r = search(fen, 3);
    Position p = testutil::make(fen);
    CHECK(r.best.carries_heart());
    p.do_move(r.best);
    CHECK_FALSE(attacks_heart(p, BLUE, GREEN));
    CHECK(r.last.score > -eval::kMateBound);
}

TEST_CASE("the setup phases: searching every placement gives a legal, finished setup") {
    for (int players : {2, 3}) {
        Engine e({});
        e.set_players(players);
        REQUIRE_FALSE(e.set_position(std::nullopt, {}));
        std::vector<std::string> moves;
        for (int ply = 0; ply < 10 * players; ++ply) {
            Move best;
            SearchLimits l;
            l.depth = 2;
            e.analyse(e.position(), l, {{}, [&](Move b, Move) { best = b; }, {}, {}});
            REQUIRE_FALSE(best.is_none());
            CHECK(is_legal(e.position(), best));
            moves.push_back(move_to_string(best));
            REQUIRE_FALSE(e.set_position(std::nullopt, moves));
        }
        CHECK(e.position().phase() == Phase::Play);
        CHECK(e.position().to_move() == GREEN);
        MoveList l;
        generate_legal(e.position(), l);
        CHECK(l.size > 0);
    }
}

TEST_CASE("three players: SetupSearch judges every player's setup") {
    // Each judgement's nested search is rooted at the judged player's heart placement (those
    // before it place theirs by a shallow search), so its score is that player's own (issue
    // 28). The judging's nested searches add their nodes.
    auto placement_nodes = [](const std::vector<std::string>& moves, int judged) {
        Engine e({});
        e.set_players(3);
        SetupPlanner::Params pp;
        pp.judged = judged;
        e.set_planner(pp);
        REQUIRE_FALSE(e.set_position(std::nullopt, moves));
        SearchLimits l;
        l.depth = 2;
        std::uint64_t nodes = 0;
        Move best;
        e.analyse(e.position(), l,
                  {[&](const SearchInfo& i) { nodes = i.nodes; },
                   [&](Move b, Move) { best = b; },
                   {},
                   {}});
        REQUIRE(is_legal(e.position(), best));
        return std::pair{nodes, move_to_string(best)};
    };
    const auto green_judged = placement_nodes({}, 4);
    const auto green_plain = placement_nodes({}, 0);
    CHECK(green_judged.first > green_plain.first + 10000);
    // Green's whole set placed (its planner's), Blue to place; then Black.
    std::vector<std::string> moves;
    while (moves.size() < 9) moves.push_back(placement_nodes(moves, 0).second);
    CHECK(placement_nodes(moves, 4).first > placement_nodes(moves, 0).first + 10000);
    while (moves.size() < 18) moves.push_back(placement_nodes(moves, 0).second);
    CHECK(placement_nodes(moves, 4).first > placement_nodes(moves, 0).first + 10000);
}

TEST_CASE("bench: the node count is the same in two runs") {
    Engine a({}), b({});
    auto ra = a.bench(3);
    auto rb = b.bench(3);
    CHECK(ra.nodes == rb.nodes);
    CHECK(ra.nodes > 1000);
}

TEST_CASE("three players: a leader takes a weak player's heart at once (RH 11.1)") {
    // Green stands 17 pawns up; Black has a lone heart on c28 that Green's rook (c29) and
    // queen (d17, carrying Green's heart) can take. A self-play game from here was drawn by
    // repetition: the capture was worth no more now than at the horizon, so it was deferred
    // move after move. A heart taken counts its point (RH 11.1), sooner more than later.
    const char* fen = "3 Hd17,Qd17,Rc29,Bg46,Ph79,Wg47 Hi12,Ph13,Pi12,Wg35 Hc28,Wb19 g play 44 78";
    for (int depth : {5, 6, 7}) {
        CAPTURE(depth);
        auto r = search(fen, depth);
        const Position p = testutil::make(fen);
        CHECK(p.heart_victim(r.best) == BLACK);
    }
}

TEST_CASE("search_sync: a caller's stop raised before the call ends the search at once") {
    // Engine::bench checks its stop flag, then search_sync resets the searcher's own: a stop
    // (flag, then Searcher::stop) landing between the two was lost, and `bench 30` ran on.
    TranspositionTable tt;
    tt.resize(16);
    Searcher searcher(tt);
    const Position root = testutil::make(kMiddlegame);
    SearchLimits lim;
    lim.depth = 6;
    SearchSettings settings;
    const std::uint64_t whole = searcher.search_sync(root, lim, settings, {});
    std::atomic<bool> raised{true};
    tt.clear();
    const std::uint64_t stopped = searcher.search_sync(root, lim, settings, {}, &raised);
    CHECK(whole > 1000);
    CHECK(stopped < whole / 10);
}

TEST_CASE("a timed search of one move among several (searchmoves) deepens past depth 4") {
    // A root of one legal move stops deepening after depth 4 on a clock (it is forced). A
    // `searchmoves` list of one, in a position with other legal moves, asks for that move's
    // score instead: the blind search scores its candidates so on each board (step 2,
    // search/blind_search.h), and with the stop they were scored to depth 4 beside the boards'
    // own lines at 6 or 7 (issue 28's forty-sixth round).
    TranspositionTable tt;
    tt.resize(16);
    Searcher searcher(tt);
    const Position root = testutil::make(kMiddlegame);
    MoveList legal;
    generate_legal(root, legal);
    REQUIRE(legal.size > 1);
    SearchLimits lim;
    lim.movetime = 1000;
    lim.searchmoves = {legal.moves[0]};
    int deepest = 0;
    searcher.search_sync(root, lim, SearchSettings{},
                         {[&](const SearchInfo& i) { deepest = std::max(deepest, i.depth); },
                          [](Move, Move) {},
                          [](const std::string&) {},
                          {}});
    CHECK(deepest > 4);
}

TEST_CASE("search_sync: the evaluations a searcher keeps are not read under other rules") {
    // Searcher::ThreadState keeps each thread's evaluation cache from one search to the next
    // (a blind turn runs dozens of short searches); the position key holds no rule option, so
    // a search under PowerVanguard after one under the standard rules scores as a fresh
    // searcher's does.
    Rules power;
    power.power_vanguard = true;
    const Position standard = testutil::make(kMiddlegame);
    const Position vanguard = testutil::make(kMiddlegame, power);
    SearchLimits lim;
    lim.depth = 1;
    auto score = [&](Searcher& s, const Position& root) {
        int v = 0;
        s.search_sync(root, lim, SearchSettings{},
                      {[&](const SearchInfo& i) { v = i.score; }, {}, {}, {}});
        return v;
    };
    TranspositionTable fresh_tt, kept_tt;
    fresh_tt.resize(1);
    kept_tt.resize(1);
    Searcher fresh(fresh_tt), kept(kept_tt);
    const int expected = score(fresh, vanguard);
    REQUIRE(score(kept, standard) != expected);  // the option changes the evaluation
    kept_tt.clear();                             // the table's entries are not the question
    CHECK(score(kept, vanguard) == expected);
}
