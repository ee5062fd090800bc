// search/blind_tour.cpp: the hunt's sweep (search/blind_tour.h; SPEC 25, issue 28).
#include "blind_tour.h"

#include <algorithm>

#include "engine/geometry.h"
#include "engine/movegen.h"

namespace klinzha {

HuntTour::HuntTour(const std::array<double, kCells>& value, const Position& v, Colour us,
                   Bitboard wall_blind)
    : v_(v), us_(us), wall_blind_(wall_blind) {
    double sum = 0;
    for (int sq = 0; sq < kCells; ++sq)
        if (value[std::size_t(sq)] > 0) sum += value[std::size_t(sq)];
    if (sum > 0)
        for (int sq = 0; sq < kCells; ++sq)
            if (value[std::size_t(sq)] > 0) {
                share_[std::size_t(sq)] = value[std::size_t(sq)] / sum;
                cells_ |= bit(Cell(sq));
            }
    for (Bitboard b = v.pieces(us); b;) {
        const Cell c = pop_lsb(b);
        men_.push_back({man_type(v.man_on(c)), c});
    }
    if (const int limit = v.move_count_limit(); limit > 0)
        horizon_ = std::clamp((limit - v.halfmove()) / std::max(1, v.players_in()), 1, kHorizon);
}

const std::array<std::uint8_t, kCells>& HuntTour::distances(PieceType t, Cell from) {
    auto [it, fresh] = dist_.try_emplace({int(t), int(from)});
    auto& d = it->second;
    if (!fresh) return d;
    d.fill(std::uint8_t(kFar + 1));
    const geo::PathClass pc = path_class(t, v_.rules());
    const Bitboard own = v_.pieces(us_) & ~bit(from);
    Bitboard barred = own | v_.clouds() | v_.ablated();
    if (const Cell heart = v_.heart(us_); heart != NO_CELL) {
        // Only a carrier ends a move on its own heart (SPEC 4); a wall may not end a move
        // with a heart in its zone (SPEC 5): not beside our own heart.
        if (!v_.is_carrier_type(t)) barred |= bit(heart);
        if (t == WALL) barred |= geo::path_destinations(geo::PathClass::Step1, heart);
    }
    d[from] = 0;
    Bitboard seen = bit(from), frontier = bit(from);
    for (int step = 1; step <= kFar && frontier; ++step) {
        Bitboard next = 0;
        for (Bitboard f = frontier; f;) {
            const Cell c = pop_lsb(f);
            for (const geo::PathEntry& e : geo::paths(pc, c))
                if ((t == KNIGHT || !(e.mid & own)) && !test(barred, e.dest)) next |= bit(e.dest);
        }
        next &= ~seen;
        seen |= next;
        frontier = next;
        for (Bitboard f = next; f;) d[pop_lsb(f)] = std::uint8_t(step);
    }
    return d;
}

double HuntTour::visit_finds(PieceType t, Cell c, const std::array<double, kCells>& rest,
                             Bitboard left, Bitboard walled) const {
    if (t != WALL) return test(left, c) ? rest[c] : 0.0;
    double found = test(left & ~walled, c) ? kWallTakes * rest[c] : 0.0;
    for (Bitboard z = geo::neighbours(c) & left & ~wall_blind_; z;) found += rest[pop_lsb(z)];
    return found;
}

double HuntTour::visit(PieceType t, Cell c, std::array<double, kCells>& rest, Bitboard& left,
                       Bitboard& walled, int at) const {
    if (t != WALL) {
        const double found = test(left, c) ? rest[c] : 0.0;
        left &= ~bit(c);
        return found * at;
    }
    double timed = 0;
    if (test(left & ~walled, c)) {
        const double found = kWallTakes * rest[c];
        timed += found * at;
        rest[c] -= found;
        walled |= bit(c);
    }
    // A heart in the zone bars the wall's move (SPEC 5): the refusal tells where it stands,
    // and a man takes it the move after.
    for (Bitboard z = geo::neighbours(c) & left & ~wall_blind_; z;) {
        const Cell s = pop_lsb(z);
        timed += rest[s] * (at + 1);
        left &= ~bit(s);
    }
    return timed;
}

double HuntTour::tour(std::vector<Man> men, std::array<double, kCells> rest, Bitboard left,
                      Bitboard walled, int t0) {
    double expected = 0;
    int t = t0;
    while (left && t < horizon_) {
        // The man and cell with the most share found per move needed (ties: the nearer),
        // among those reached before the draw.
        double best_rate = 0;
        int best_man = -1, best_d = 0;
        Cell best_cell = NO_CELL;
        for (std::size_t i = 0; i < men.size(); ++i) {
            const auto& d = distances(men[i].type, men[i].cell);
            const bool wall = men[i].type == WALL;
            // A wall's move may end beside the cells (its zone sweeps them, SPEC 5).
            for (Bitboard b = wall ? (left & ~walled) | geo::neighbours_of(left & ~wall_blind_)
                                   : left;
                 b;) {
                const Cell c = pop_lsb(b);
                const int moves = d[c];
                if (moves > kFar || moves == 0 || t + moves > horizon_) continue;
                const double rate = visit_finds(men[i].type, c, rest, left, walled) / moves;
                if (rate > best_rate || (rate == best_rate && moves < best_d)) {
                    best_rate = rate, best_man = int(i), best_d = moves, best_cell = c;
                }
            }
        }
        if (best_man < 0) break;  // nothing left within reach before the draw
        t += best_d;
        Man& man = men[std::size_t(best_man)];
        expected += visit(man.type, best_cell, rest, left, walled, t);
        man.cell = best_cell;
    }
    double unfound = 0;
    for (Bitboard b = left; b;) unfound += rest[pop_lsb(b)];
    return expected + unfound * (horizon_ + 1);
}

double HuntTour::expected_time(int t0) {
    return tour(men_, share_, cells_, 0, t0);
}

double HuntTour::probe(Move m) const {
    if (!cells_ || m.kind() != Move::Normal || !test(v_.pieces(us_), m.from())) return 0.0;
    return test(cells_, m.to()) ? takes(man_type(v_.man_on(m.from()))) * share_[m.to()] : 0.0;
}

double HuntTour::gain(Move m) {
    if (!cells_ || m.kind() != Move::Normal || !test(v_.pieces(us_), m.from())) return 0.0;
    std::vector<Man> men = men_;
    for (Man& man : men)
        if (man.cell == m.from()) man.cell = m.to();
    if (pass_ < 0) pass_ = tour(men_, share_, cells_, 0, 1);
    // The move's probe finds its share at move 1; a wall's leaves the rest of its cell to the
    // others, and its zone's shares are found at move 2.
    std::array<double, kCells> rest = share_;
    Bitboard left = cells_, walled = 0;
    const double found = visit(man_type(v_.man_on(m.from())), m.to(), rest, left, walled, 1);
    const double after = found + tour(men, rest, left, walled, 1);
    return std::clamp(pass_ - after, 0.0, 1.0);
}

}  // namespace klinzha
