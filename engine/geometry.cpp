// engine/geometry.cpp: builds the tables of geometry.h once. Source: SPEC 1-3.
#include "geometry.h"

#include <algorithm>
#include <cctype>
#include <queue>
#include <vector>

namespace klinzha::geo::detail {

#if defined(__GNUC__)
const Tables kTables __attribute__((init_priority(101)));
#else
const Tables kTables;
#endif

Tables::Tables() {
    for (auto& a : by_uvw)
        for (auto& b : a) b.fill(NO_CELL);
    // Cells, row by row: index (r-1)^2 + 2w + up.
    for (int r = 1; r <= 9; ++r) {
        int u = 9 - r;
        for (int w = 0; w <= 8; ++w)
            for (int up = 0; up <= 1; ++up) {
                int v = 8 - up - u - w;
                if (v < 0) continue;
                Cell c = Cell((r - 1) * (r - 1) + 2 * w + up);
                cells[c] = CellInfo{r, {u, v, w}, up == 1};
                by_uvw[u][v][w] = c;
            }
    }
    for (Cell c = 0; c < kCells; ++c) {
        auto [u, v, w] = cells[c].coord;
        int d = cells[c].up ? 1 : -1;
        std::array<std::array<int, 3>, 3> cand = {{{u + d, v, w}, {u, v + d, w}, {u, v, w + d}}};
        for (auto& k : cand) {
            if (std::any_of(k.begin(), k.end(), [](int x) { return x < 0 || x > 8; })) continue;
            Cell n = by_uvw[k[0]][k[1]][k[2]];
            if (n != NO_CELL) nbrs[c] |= bit(n);
        }
        for (int axis = 0; axis < 3; ++axis) strips[axis][cells[c].coord[axis]] |= bit(c);
        // Regions: Green = v largest, Blue = w, Black = u (SPEC 1).
        std::array<int, 3> by_colour = {v, w, u};
        int mx = std::max({u, v, w});
        int ties = int(std::count(by_colour.begin(), by_colour.end(), mx));
        for (int col = 0; col < 3; ++col) {
            if (by_colour[col] != mx) continue;
            if (ties == 1)
                regions[col] |= bit(c);
            else
                adj_separators[col] |= bit(c);
        }
        if (ties > 1) seps |= bit(c);
    }
    for (Cell s = 0; s < kCells; ++s) {  // breadth-first distances
        dist[s].fill(0xFF);
        std::queue<Cell> q;
        dist[s][s] = 0;
        q.push(s);
        while (!q.empty()) {
            Cell c = q.front();
            q.pop();
            for_each_cell(nbrs[c], [&](Cell n) {
                if (dist[s][n] == 0xFF) {
                    dist[s][n] = std::uint8_t(dist[s][c] + 1);
                    q.push(n);
                }
            });
        }
    }
    build_paths();
    for (Cell s = 0; s < kCells; ++s)
        for (Cell c = 0; c < kCells; ++c)
            for (int d = dist[s][c]; d < kMaxBall + 1; ++d) balls[d][s] |= bit(c);
    // Dilation by shifts: each neighbour relation is a fixed index difference.
    for (Cell c = 0; c < kCells; ++c)
        for_each_cell(nbrs[c], [&](Cell n) {
            const int delta = int(n) - int(c);
            int k = 0;
            while (k < shift_count && shifts[k].delta != delta) ++k;
            if (k == shift_count) shifts[shift_count++].delta = delta;
            shifts[k].from |= bit(c);
        });
}

struct Tables::Spec {
    int min_len, max_len;
    bool straight;
};

void Tables::build_paths() {
    const std::array<Spec, kClasses> specs = {{
        {1, 3, false},  // Queen
        {1, 3, true},   // Rook
        {2, 4, false},  // Bishop
        {3, 6, true},   // Knight
        {1, 1, false},  // Step1
        {1, 2, false},  // Step2
    }};
    for (int pc = 0; pc < kClasses; ++pc) {
        for (Cell s = 0; s < kCells; ++s) {
            offsets[pc][s] = std::uint32_t(entries.size());
            std::vector<PathEntry> found;
            std::vector<Cell> path = {s};
            walk(specs[pc], path, 0b111, found);
            // Keep, per destination, only the minimal intermediate sets.
            std::vector<PathEntry> kept;
            for (const auto& e : found) {
                bool redundant = std::any_of(found.begin(), found.end(), [&](const auto& o) {
                    return o.dest == e.dest && (o.mid & e.mid) == o.mid &&
                           (o.mid != e.mid || &o < &e);
                });
                if (!redundant) kept.push_back(e);
            }
            std::stable_sort(kept.begin(), kept.end(),
                             [](const auto& a, const auto& b) { return a.dest < b.dest; });
            for (const auto& e : kept) {
                entries.push_back(e);
                dests[pc][s] |= bit(e.dest);
                spans[pc][s] |= e.mid;
            }
        }
        offsets[pc][kCells] = std::uint32_t(entries.size());
    }
}

// Depth-first walk over simple paths. axes: the strip axes shared by every cell so far
// with the origin (a straight path keeps at least one).
void Tables::walk(const Spec& sp, std::vector<Cell>& path, int axes, std::vector<PathEntry>& out) {
    int len = int(path.size()) - 1;
    if (len >= sp.min_len) {
        Bitboard mid = 0;
        for (std::size_t i = 1; i + 1 < path.size(); ++i) mid |= bit(path[i]);
        out.push_back({mid, path.back()});
    }
    if (len == sp.max_len) return;
    for_each_cell(nbrs[path.back()], [&](Cell n) {
        if (std::find(path.begin(), path.end(), n) != path.end()) return;
        int a = axes;
        for (int k = 0; k < 3; ++k)
            if (cells[n].coord[k] != cells[path.front()].coord[k]) a &= ~(1 << k);
        if (sp.straight && a == 0) return;
        path.push_back(n);
        walk(sp, path, a, out);
        path.pop_back();
    });
}

}  // namespace klinzha::geo::detail

namespace klinzha::geo {
using detail::tables;

const CellInfo& info(Cell c) {
    return tables().cells[c];
}

Cell cell_at(int u, int v, int w) {
    if (u < 0 || v < 0 || w < 0 || u > 8 || v > 8 || w > 8) return NO_CELL;
    return tables().by_uvw[u][v][w];
}

std::optional<Cell> parse_cell(std::string_view s) {
    if (s.size() != 3) return std::nullopt;
    char letter = char(std::tolower(static_cast<unsigned char>(s[0])));
    if (letter < 'a' || letter > 'i' || s[1] < '1' || s[1] > '9' || s[2] < '1' || s[2] > '9')
        return std::nullopt;
    int r = letter - 'a' + 1;
    int R = std::min(s[1], s[2]) - '0', L = std::max(s[1], s[2]) - '0';
    Cell c = cell_at(9 - r, R - 1, 9 - L);
    if (c == NO_CELL) return std::nullopt;
    return c;
}

std::string cell_name(Cell c) {
    const auto& ci = info(c);
    int R = ci.coord[1] + 1, L = 9 - ci.coord[2];
    return {char('a' + ci.row - 1), char('0' + R), char('0' + L)};
}

Bitboard region(Colour col) {
    return tables().regions[col];
}
Bitboard separators() {
    return tables().seps;
}
Bitboard adjacent_separators(Colour col) {
    return tables().adj_separators[col];
}
Bitboard strip(int axis, int value) {
    return tables().strips[axis][value];
}

}  // namespace klinzha::geo
