// engine/clouds.cpp: SPEC 16's procedure for drawing clouds.
#include "clouds.h"

#include <algorithm>

#include "geometry.h"

namespace klinzha {

std::uint64_t SplitMix64::next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::vector<Cell> draw_clouds(std::uint64_t seed, int lo, int hi) {
    lo = std::clamp(lo, 0, kCells);
    hi = std::clamp(hi, lo, kCells);
    SplitMix64 rng(seed);
    int n = lo;
    if (hi > lo) n = lo + int(rng.next() % std::uint64_t(hi - lo + 1));
    // The cells in the order of the SPEC 1 table: row i (top) to a, each left to right.
    std::vector<Cell> cells;
    for (int r = 9; r >= 1; --r)
        for (int i = 0; i < 2 * r - 1; ++i) cells.push_back(Cell((r - 1) * (r - 1) + i));
    for (int i = 0; i < n; ++i) {
        const auto j = std::size_t(i) + std::size_t(rng.next() % std::uint64_t(kCells - i));
        std::swap(cells[std::size_t(i)], cells[j]);
    }
    cells.resize(std::size_t(n));
    std::sort(cells.begin(), cells.end(),
              [](Cell a, Cell b) { return geo::cell_name(a) < geo::cell_name(b); });
    return cells;
}

std::string clouds_field(const std::vector<Cell>& cells) {
    std::string s;
    for (Cell c : cells) s += (s.empty() ? "clouds=" : ",") + geo::cell_name(c);
    return s;
}

}  // namespace klinzha
