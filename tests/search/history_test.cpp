// tests/search/history_test.cpp: the continuation history of search/history.h (a score per
// pair of the move before and the move, by the man's type and destination): a cut-off raises
// its pair and lowers the pairs of the moves tried before it, another move before shares
// none of it, and gravity keeps every score within +-kHistoryMax.
#include <doctest/doctest.h>

#include <memory>

#include "engine/movegen.h"
#include "search/history.h"
#include "test_util.h"

using namespace klinzha;

namespace {
/// The normal moves of the side to move in p.
std::vector<Move> normal_moves(const Position& p) {
    MoveList l;
    generate_legal(p, l);
    std::vector<Move> v;
    for (Move m : l)
        if (m.kind() == Move::Normal && !p.is_capture(m)) v.push_back(m);
    return v;
}
}  // namespace

TEST_CASE("continuation history: a cut-off scores its pair, and only after that move before") {
    // Two players in play: Blue moves first, then Green's replies are scored.
    Position p = testutil::make("2 Hi99,Pi99,Re38 Hd38,Pd38,Ni11 - b play 0 1");
    const std::vector<Move> blue = normal_moves(p);
    REQUIRE(blue.size() >= 2);
    auto h = std::make_unique<History>();

    p.do_move(blue[0]);
    const std::vector<Move> green = normal_moves(p);
    REQUIRE(green.size() >= 3);
    const int prev = History::last_continuation(p);
    REQUIRE(prev != kNoContinuation);
    auto score = [&](int before, Move m) {
        return h->continuation_score(before, History::continuation_index(p, m));
    };
    CHECK(score(prev, green[0]) == 0);
    h->reward_continuation(p, green[0], &green[1], 1, 6);
    CHECK(score(prev, green[0]) > 0);
    CHECK(score(prev, green[1]) < 0);
    CHECK(score(prev, green[2]) == 0);  // neither the cut-off nor tried before it
    // The same reply after another move before: that pair learnt nothing.
    p.undo_move();
    Move other = Move();
    for (Move m : blue)
        if (History::continuation_index(p, m) != History::continuation_index(p, blue[0])) other = m;
    REQUIRE_FALSE(other.is_none());
    p.do_move(other);
    const int prev2 = History::last_continuation(p);
    CHECK(prev2 != prev);
    if (is_legal(p, green[0])) CHECK(score(prev2, green[0]) == 0);
}

TEST_CASE("continuation history: gravity keeps scores within +-kHistoryMax") {
    Position p = testutil::make("2 Hi99,Pi99,Re38 Hd38,Pd38,Ni11 - b play 0 1");
    p.do_move(normal_moves(p).front());
    const std::vector<Move> green = normal_moves(p);
    REQUIRE(green.size() >= 2);
    auto h = std::make_unique<History>();
    const int prev = History::last_continuation(p);
    for (int i = 0; i < 1000; ++i) h->reward_continuation(p, green[0], &green[1], 1, 20);
    const int up = h->continuation_score(prev, History::continuation_index(p, green[0]));
    const int down = h->continuation_score(prev, History::continuation_index(p, green[1]));
    CHECK(up <= kHistoryMax);
    CHECK(up > kHistoryMax / 2);  // many cut-offs: near the top, not wrapped round
    CHECK(down >= -kHistoryMax);
    CHECK(down < -kHistoryMax / 2);
}

TEST_CASE("continuation history: placements have no index") {
    Position p = testutil::make("2 - - - g place 0 1");
    MoveList l;
    generate_legal(p, l);
    REQUIRE(l.size > 0);
    CHECK(History::continuation_index(p, l.moves[0]) == kNoContinuation);
    CHECK(History::last_continuation(p) == kNoContinuation);
}
