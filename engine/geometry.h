// engine/geometry.h: the triangular board of SPEC section 1, computed once into tables.
//
// Cells are indexed as in types.h. Strip coordinates (u, v, w) follow SPEC 1: for the name
// <row><R><L> with R <= L, u = 9 - r, v = R - 1, w = 9 - L; u+v+w = 8 for a cell pointing
// down, 7 for one pointing up. All functions are pure lookups into tables built on first
// use (thread-safe static initialisation) and never fail for valid cells.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bitboard.h"
#include "types.h"

namespace klinzha::geo {

/// Per-cell facts. row: 1 (a) .. 9 (i); coord: {u, v, w}; up: the cell points up.
struct CellInfo {
    int row;
    std::array<int, 3> coord;
    bool up;
};

/// Facts about cell c (0..80).
const CellInfo& info(Cell c);

/// The cell with strip coordinates (u, v, w), or NO_CELL if there is none.
Cell cell_at(int u, int v, int w);

/// Parses a cell name (SPEC 1): row letter a..i in either case, then two column digits in
/// either order (`e38` == `E83`). Returns nullopt for anything that names no cell.
std::optional<Cell> parse_cell(std::string_view s);

/// The canonical name of c: lower case, smaller column digit first (`e38`).
std::string cell_name(Cell c);

/// The setup region of colour col (SPEC 1): 24 cells where col's coordinate (v for Green,
/// w for Blue, u for Black) is strictly the largest.
Bitboard region(Colour col);

/// The 9 separator cells of SPEC 1 (the largest coordinate shared).
Bitboard separators();

/// The separators that border col's region (those where col's coordinate ties for the
/// largest): the extra setup cells under ForwardPlacement (SPEC 8, RH V10).
Bitboard adjacent_separators(Colour col);

/// The cells of the strip with coordinate `axis` (0 = u, 1 = v, 2 = w) equal to value.
Bitboard strip(int axis, int value);

/// The move patterns of SPEC 2/3, one per kind of path a piece may take.
enum class PathClass : std::uint8_t {
    Queen,   ///< any path of 1, 2 or 3 steps
    Rook,    ///< straight path of 1, 2 or 3 steps
    Bishop,  ///< any path of 2, 3 or 4 steps (incl. 4 steps round a hexagon to a cell 2 away)
    Knight,  ///< straight path of 3, 4, 5 or 6 steps (the knight jumps: mid cells may hold men)
    Step1,   ///< any path of 1 step (pawn)
    Step2,   ///< any path of 1 or 2 steps (wall; pawn under PowerVanguard)
    Count
};

/// One way to reach `dest`: the path's intermediate cells are `mid` (empty for one step).
/// For a given origin and class, entries are sorted by dest, and an entry is kept only if
/// no other entry to the same dest has a subset of its mid cells (those are redundant).
struct PathEntry {
    Bitboard mid;
    Cell dest;
};

namespace detail {

/// The tables behind the lookups (built once, before main). Hot lookups are
/// inline so that move generation pays no call per cell.
struct Tables {
    static constexpr int kClasses = int(PathClass::Count);
    static constexpr int kMaxBall = 6;
    std::array<CellInfo, kCells> cells{};
    std::array<std::array<std::array<Cell, 9>, 9>, 9> by_uvw{};
    std::array<Bitboard, kCells> nbrs{};
    std::array<Bitboard, 3> regions{};
    std::array<Bitboard, 3> adj_separators{};
    Bitboard seps = 0;
    std::array<std::array<Bitboard, 9>, 3> strips{};
    std::array<std::array<std::uint8_t, kCells>, kCells> dist{};
    std::array<std::array<Bitboard, kCells>, kMaxBall + 1> balls{};  ///< [d][c]: within d of c
    std::vector<PathEntry> entries;
    std::array<std::array<std::uint32_t, kCells + 1>, kClasses> offsets{};
    std::array<std::array<Bitboard, kCells>, kClasses> dests{};
    std::array<std::array<Bitboard, kCells>, kClasses> spans{};  ///< union of the mid cells
    /// Neighbour relations as index differences: n = c + delta for every c in `from`.
    struct Shift {
        int delta = 0;
        Bitboard from = 0;
    };
    std::array<Shift, 24> shifts{};
    int shift_count = 0;

    Tables();

  private:
    struct Spec;
    void build_paths();
    void walk(const Spec& sp, std::vector<Cell>& path, int axes, std::vector<PathEntry>& out);
};

/// The one instance, built before any other static object (init_priority; GCC and clang), so
/// a lookup needs no first-use guard (a guarded function-local static cost a load and a
/// branch per lookup and kept lookups from being inlined: 10% of a search's instructions).
extern const Tables kTables;

inline const Tables& tables() {
    return kTables;
}

}  // namespace detail

/// The neighbours of c (cells sharing an edge): 1..3 cells. This is also a wall's zone
/// when a wall stands on c (SPEC 5).
inline Bitboard neighbours(Cell c) {
    return detail::tables().nbrs[c];
}

/// Union of neighbours(c) over every cell c of b (the "dilation" of b, without b itself
/// unless a cell of b neighbours another). Small sets by lookup, large ones by shifts.
inline Bitboard neighbours_of(Bitboard b) {
    const auto& t = detail::tables();
    Bitboard r = 0;
    if (popcount(b) <= 6) {
        while (b) r |= t.nbrs[pop_lsb(b)];
        return r;
    }
    for (int k = 0; k < t.shift_count; ++k) {
        const auto& s = t.shifts[k];
        const Bitboard m = b & s.from;
        r |= s.delta > 0 ? m << s.delta : m >> -s.delta;
    }
    return r;
}

/// Number of steps of the shortest path from a to b over the whole board (ignoring men).
inline int distance(Cell a, Cell b) {
    return detail::tables().dist[a][b];
}

/// The cells at most d steps from c (c included), d in 0..6.
inline Bitboard ball(Cell c, int d) {
    return detail::tables().balls[d][c];
}

/// All ways of class pc from cell `from`, as above.
inline std::span<const PathEntry> paths(PathClass pc, Cell from) {
    const auto& t = detail::tables();
    const auto b = t.offsets[int(pc)][from], e = t.offsets[int(pc)][from + 1];
    return {t.entries.data() + b, e - b};
}

/// Every destination of class pc from `from` on an empty board.
inline Bitboard path_destinations(PathClass pc, Cell from) {
    return detail::tables().dests[int(pc)][from];
}

/// The union of the intermediate cells of every path of class pc from `from`: the only
/// cells whose occupancy can change which destinations are reached.
inline Bitboard path_span(PathClass pc, Cell from) {
    return detail::tables().spans[int(pc)][from];
}

}  // namespace klinzha::geo
