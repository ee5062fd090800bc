// engine/bitboard.h: a 128-bit set of cells.
//
// Bit layout: bit i stands for cell index i (see types.h: row by row from a19 = bit 0 up to
// i11 = bit 80); bits 81..127 are always zero. Source: SPEC 1 (81 cells).
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "types.h"

namespace klinzha {

/// A set of cells as one unsigned 128-bit integer. Plain value type, no invariants beyond
/// "bits 81..127 are zero", which every operation here keeps.
using Bitboard = unsigned __int128;

inline constexpr Bitboard kEmpty = 0;
inline constexpr Bitboard kAllCells = (Bitboard(1) << kCells) - 1;

namespace detail {
/// bit(c) by lookup: a 128-bit shift by a variable amount takes several instructions.
inline constexpr auto kBit = [] {
    std::array<Bitboard, 128> t{};
    for (int c = 0; c < 128; ++c) t[c] = Bitboard(1) << c;
    return t;
}();
}  // namespace detail

/// The one-cell set {c}; c must be a real cell (0..80).
constexpr Bitboard bit(Cell c) {
    return detail::kBit[c & 127];
}

/// True if c is in b.
constexpr bool test(Bitboard b, Cell c) {
    return (b >> c) & 1;
}

/// Number of cells in b.
inline int popcount(Bitboard b) {
    return std::popcount(std::uint64_t(b)) + std::popcount(std::uint64_t(b >> 64));
}

/// Lowest cell in b; b must not be empty.
inline Cell lsb(Bitboard b) {
    auto lo = std::uint64_t(b);
    return lo ? Cell(std::countr_zero(lo)) : Cell(64 + std::countr_zero(std::uint64_t(b >> 64)));
}

/// Removes and returns the lowest cell of b; b must not be empty. Works on the 64-bit half
/// that holds it (a 128-bit b & (b - 1) carries across the halves).
inline Cell pop_lsb(Bitboard& b) {
    const auto lo = std::uint64_t(b);
    if (lo) {
        b ^= Bitboard(lo & (0 - lo));
        return Cell(std::countr_zero(lo));
    }
    const auto hi = std::uint64_t(b >> 64);
    b ^= Bitboard(hi & (0 - hi)) << 64;
    return Cell(64 + std::countr_zero(hi));
}

/// Calls f(cell) for every cell of b, lowest first.
template <typename F>
inline void for_each_cell(Bitboard b, F&& f) {
    while (b) f(pop_lsb(b));
}

}  // namespace klinzha
