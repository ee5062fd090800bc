// engine/bitboard.h: a 128-bit set of cells.
//
// Bit layout: bit i stands for cell index i (see types.h: row by row from a19 = bit 0 up to
// i11 = bit 80); bits 81..127 are always zero. Source: SPEC 1 (81 cells).
#pragma once

#include <bit>
#include <cstdint>

#include "types.h"

namespace klinzha {

/// A set of cells as one unsigned 128-bit integer. Plain value type, no invariants beyond
/// "bits 81..127 are zero", which every operation here keeps.
using Bitboard = unsigned __int128;

inline constexpr Bitboard kEmpty = 0;
inline constexpr Bitboard kAllCells = (Bitboard(1) << kCells) - 1;

/// The one-cell set {c}; c must be a real cell (0..80).
constexpr Bitboard bit(Cell c) {
    return Bitboard(1) << c;
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

/// Removes and returns the lowest cell of b; b must not be empty.
inline Cell pop_lsb(Bitboard& b) {
    Cell c = lsb(b);
    b &= b - 1;
    return c;
}

/// Calls f(cell) for every cell of b, lowest first.
template <typename F>
inline void for_each_cell(Bitboard b, F&& f) {
    while (b) f(pop_lsb(b));
}

}  // namespace klinzha
