// tests/search/tt_test.cpp: the transposition table's resize (issue 9: peak memory one
// table): the same size keeps the entries; another size gives a cleared table of that size.
#include <doctest/doctest.h>

#include "search/tt.h"

using namespace klinzha;

TEST_CASE("transposition table: resize to the same size keeps entries, another size clears") {
    TranspositionTable tt;
    tt.resize(2);
    CHECK(tt.size_mib() == 2);
    const std::uint64_t key = 0x123456789abcdefULL;
    tt.store(key, Move::normal(3, 4), 17, 5, BOUND_EXACT);
    TTHit hit;
    REQUIRE(tt.probe(key, hit));
    CHECK(hit.score == 17);
    tt.resize(2);  // unchanged: nothing freed, nothing lost
    CHECK(tt.probe(key, hit));
    tt.resize(3);
    CHECK(tt.size_mib() == 3);
    CHECK_FALSE(tt.probe(key, hit));
    tt.resize(0);  // at least 1 MiB
    CHECK(tt.size_mib() == 1);
}
