// eval/nnue/features.cpp: see features.h.
#include "features.h"

#include "engine/geometry.h"

namespace klinzha::nnue {

namespace {

/// turned[players == 3][p][c].
struct Turned {
    std::array<std::array<std::array<Cell, kCells>, kColours>, 2> cell{};
    Turned() {
        for (int three = 0; three < 2; ++three)
            for (int p = 0; p < kColours; ++p)
                for (int c = 0; c < kCells; ++c) {
                    const auto& [u, v, w] = geo::info(Cell(c)).coord;
                    int a = u, b = v, d = w;  // Green: as it is
                    if (three) {
                        // Blue: (v, w, u) makes Blue's region (w largest) Green's (v);
                        // Black: (w, u, v) does the same for Black's (u largest).
                        if (p == BLUE) a = v, b = w, d = u;
                        if (p == BLACK) a = w, b = u, d = v;
                    } else if (p != GREEN) {
                        b = w, d = v;  // two players: the mirror swapping Green and Blue
                    }
                    cell[std::size_t(three)][std::size_t(p)][std::size_t(c)] =
                        geo::cell_at(a, b, d);
                }
    }
};

const Turned& turned() {
    static const Turned t;
    return t;
}

}  // namespace

Cell turned_cell(Cell c, Colour p, int players) {
    return turned().cell[players == 3][p][c];
}

int slot_of(Colour c, Colour p, int players) {
    if (c == p) return 0;
    if (players == 2) return 1;
    return (c - p + kColours) % kColours;
}

int cell_features(Man man, Colour heart_owner, Cell sq, Colour p, int players, int out[2]) {
    int n = 0;
    if (man != kNoMan) out[n++] = feature_index(man_colour(man), man_type(man), sq, p, players);
    if (heart_owner != NO_COLOUR) {
        const bool carried = man != kNoMan && man_colour(man) == heart_owner;
        out[n++] = feature_index(heart_owner, carried ? 7 : 6, sq, p, players);
    }
    return n;
}

int active_features(const Position& pos, Colour p, std::array<int, kMaxActive>& out) {
    const int players = pos.players();
    int n = 0;
    Bitboard men = pos.occupied();
    while (men) {
        const Cell sq = pop_lsb(men);
        const Man m = pos.man_on(sq);
        out[std::size_t(n++)] = feature_index(man_colour(m), man_type(m), sq, p, players);
    }
    for (int c = 0; c < kColours; ++c) {
        const Cell h = pos.heart(Colour(c));
        if (h == NO_CELL) continue;
        const Man m = pos.man_on(h);
        const bool carried = m != kNoMan && man_colour(m) == c;
        out[std::size_t(n++)] = feature_index(Colour(c), carried ? 7 : 6, h, p, players);
    }
    return n;
}

}  // namespace klinzha::nnue
