// tests/engine/geometry_test.cpp: facts of SPEC 1 about the board.
#include "engine/geometry.h"
#include "engine/clouds.h"

#include <doctest/doctest.h>

#include <set>

using namespace klinzha;

TEST_CASE("the board has 81 cells, 45 down and 36 up, and names round-trip") {
    std::set<std::string> names;
    int up = 0;
    for (Cell c = 0; c < kCells; ++c) {
        auto n = geo::cell_name(c);
        names.insert(n);
        auto back = geo::parse_cell(n);
        REQUIRE(back);
        CHECK(*back == c);
        const auto& ci = geo::info(c);
        int sum = ci.coord[0] + ci.coord[1] + ci.coord[2];
        CHECK(sum == (ci.up ? 7 : 8));
        up += ci.up;
    }
    CHECK(names.size() == 81);
    CHECK(up == 36);
}

TEST_CASE("cell names accept either digit order and case, and reject non-cells") {
    CHECK(geo::parse_cell("e38") == geo::parse_cell("E83"));
    CHECK(geo::cell_name(*geo::parse_cell("E83")) == "e38");
    CHECK(geo::parse_cell("a19"));
    CHECK_FALSE(geo::parse_cell("a11"));  // row a has only a19
    CHECK_FALSE(geo::parse_cell("j11"));
    CHECK_FALSE(geo::parse_cell("e3"));
    CHECK_FALSE(geo::parse_cell("e380"));
    CHECK_FALSE(geo::parse_cell("e08"));
    CHECK_FALSE(geo::parse_cell(""));
}

TEST_CASE("corners and the row table of SPEC 1") {
    CHECK(geo::cell_name(64) == "i99");  // top left
    CHECK(geo::cell_name(80) == "i11");  // top right
    CHECK(geo::cell_name(0) == "a19");   // bottom
    // SPEC 1 rows, left to right.
    const char* rows[] = {"a19",
                          "b29 b19 b18",
                          "c39 c29 c28 c18 c17",
                          "d49 d39 d38 d28 d27 d17 d16",
                          "e59 e49 e48 e38 e37 e27 e26 e16 e15",
                          "f69 f59 f58 f48 f47 f37 f36 f26 f25 f15 f14",
                          "g79 g69 g68 g58 g57 g47 g46 g36 g35 g25 g24 g14 g13",
                          "h89 h79 h78 h68 h67 h57 h56 h46 h45 h35 h34 h24 h23 h13 h12",
                          "i99 i89 i88 i78 i77 i67 i66 i56 i55 i45 i44 i34 i33 i23 i22 i12 i11"};
    int idx = 0;
    for (const char* row : rows) {
        std::string r(row);
        for (std::size_t p = 0; p < r.size(); p += 4)
            CHECK(geo::cell_name(Cell(idx++)) == r.substr(p, 3));
    }
    CHECK(idx == 81);
}

TEST_CASE("108 shared edges, every up cell has 3 neighbours, neighbour relation is symmetric") {
    int degree_sum = 0;
    for (Cell c = 0; c < kCells; ++c) {
        Bitboard n = geo::neighbours(c);
        degree_sum += popcount(n);
        if (geo::info(c).up) CHECK(popcount(n) == 3);
        for_each_cell(n, [&](Cell o) { CHECK(test(geo::neighbours(o), c)); });
        CHECK(popcount(n) >= 1);  // the three corners have one
    }
    CHECK(degree_sum == 2 * 108);
    CHECK(popcount(geo::neighbours(*geo::parse_cell("a19"))) == 1);
    CHECK(popcount(geo::neighbours(*geo::parse_cell("i99"))) == 1);
}

TEST_CASE("regions of 24 cells and the 9 separators of SPEC 1") {
    Bitboard all = 0;
    for (Colour c : {GREEN, BLUE, BLACK}) {
        CHECK(popcount(geo::region(c)) == 24);
        CHECK((all & geo::region(c)) == 0);
        all |= geo::region(c);
    }
    Bitboard seps = 0;
    for (const char* n : {"i55", "h46", "g46", "f47", "f48", "f36", "f26", "e59", "e15"})
        seps |= bit(*geo::parse_cell(n));
    CHECK(geo::separators() == seps);
    CHECK((all | seps) == kAllCells);
    CHECK(test(geo::region(GREEN), *geo::parse_cell("i99")));
    CHECK(test(geo::region(BLUE), *geo::parse_cell("i11")));
    CHECK(test(geo::region(BLACK), *geo::parse_cell("a19")));
    CHECK(test(geo::region(BLACK), *geo::parse_cell("f37")));  // the lone k in row f
    // Each separator borders exactly two regions.
    CHECK(popcount(geo::adjacent_separators(GREEN)) == 6);  // i55 h46 g46 f47 f48 e59
    CHECK((geo::adjacent_separators(GREEN) & geo::adjacent_separators(BLUE)) ==
          (bit(*geo::parse_cell("i55")) | bit(*geo::parse_cell("h46")) |
           bit(*geo::parse_cell("g46"))));
}

TEST_CASE("strips hold 17 down to 1 cells and straight paths stay in one") {
    for (int axis = 0; axis < 3; ++axis)
        for (int v = 0; v <= 8; ++v) CHECK(popcount(geo::strip(axis, v)) == 2 * (9 - v) - 1);
    for (Cell c = 0; c < kCells; ++c)
        for (const auto& e : geo::paths(geo::PathClass::Knight, c)) {
            Bitboard cells = e.mid | bit(c) | bit(e.dest);
            bool in_one = false;
            for (int axis = 0; axis < 3; ++axis)
                in_one |= (cells & geo::strip(axis, geo::info(c).coord[axis])) == cells;
            CHECK(in_one);
            int d = geo::distance(c, e.dest);
            CHECK(d >= 3);
            CHECK(d <= 6);
        }
}

TEST_CASE("distances and the swift's long way round a hexagon") {
    Cell e38 = *geo::parse_cell("e38");
    CHECK(geo::distance(e38, e38) == 0);
    CHECK(geo::distance(*geo::parse_cell("a19"), *geo::parse_cell("i99")) == 16);
    // From an interior cell, a cell two steps away is reached by the 2-step path and by a
    // 4-step path round the hexagon of their shared corner: two entries, disjoint mids.
    int with_two = 0;
    for (Cell d = 0; d < kCells; ++d) {
        if (geo::distance(e38, d) != 2) continue;
        int ways = 0;
        for (const auto& e : geo::paths(geo::PathClass::Bishop, e38)) ways += e.dest == d;
        with_two += ways == 2;
    }
    CHECK(with_two == 6);  // e38 is interior: all six 2-step cells have the long way too
    // Queens never turn back to a neighbour in 3 steps (no 4-cycles in the cell graph).
    for (const auto& e : geo::paths(geo::PathClass::Queen, e38))
        CHECK(geo::distance(e38, e.dest) >= 1);
}

TEST_CASE("clouds are drawn by the procedure of SPEC 16 (its check values)") {
    SplitMix64 r(0);
    CHECK(r.next() == 0xe220a8397b1dcdafULL);
    CHECK(r.next() == 0x6e789e6aa1b965f4ULL);
    CHECK(clouds_field(draw_clouds(1, 5, 5)) == "clouds=f37,g13,g35,g79,i99");
    CHECK(clouds_field(draw_clouds(12345, 3, 9)) == "clouds=a19,b19,c28,c39,f48,f59,i34,i89");
    CHECK(clouds_field(draw_clouds(7, 0, 0)).empty());
}
