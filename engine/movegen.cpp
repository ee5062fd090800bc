// engine/movegen.cpp: move generation from precomputed path tables (geometry.h).
//
// For each piece, the cells it can reach are the destinations of the path-table entries
// whose intermediate cells are all free; then the destination rules of SPEC 3-5 are
// applied as bitboard masks. Sources: SPEC 3 (paths), 4 (hearts), 5 (walls), 6 (setup),
// 8 (options); RH 3.1, 3.6-3.8, Q2-Q6; Laws of KZ 3.6-3.11.
#include "movegen.h"

#include <algorithm>

#include "geometry.h"

namespace klinzha {

bool MoveList::contains(Move m) const {
    return std::find(begin(), end(), m) != end();
}

namespace {

using geo::PathClass;

PathClass path_class(PieceType t, const Rules& r) {
    switch (t) {
        case QUEEN:
            return PathClass::Queen;
        case ROOK:
            return PathClass::Rook;
        case BISHOP:
            return PathClass::Bishop;
        case KNIGHT:
            return PathClass::Knight;
        case PAWN:
            return r.power_vanguard ? PathClass::Step2 : PathClass::Step1;
        default:
            return PathClass::Step2;  // WALL
    }
}

/// Cells reachable from `from` by a path of class pc whose intermediate cells avoid `block`.
inline Bitboard reach(PathClass pc, Cell from, Bitboard block) {
    Bitboard r = 0;
    for (const auto& e : geo::paths(pc, from))
        if (!(e.mid & block)) r |= bit(e.dest);
    return r;
}

/// Calls emit(Move) for every move of colour `us` in play that is legal but for GoalSafety
/// (and whoever's turn it is), restricted to destinations in `filter`. Returns early when
/// emit returns true (found what it wanted); the result says whether that happened.
template <typename Emit>
bool play_moves(const Position& pos, Colour us, Bitboard filter, Emit&& emit) {
    const Rules& rules = pos.rules();
    const Bitboard all = pos.occupied();
    const Bitboard own = pos.pieces(us);
    const Bitboard opp = all & ~own;
    Bitboard opp_walls = 0;
    for (int c = 0; c < kColours; ++c)
        if (c != us) opp_walls |= pos.pieces(Colour(c), WALL);
    const Bitboard opp_zones = geo::neighbours_of(opp_walls);
    const Bitboard own_zones = pos.zones(us);
    const Bitboard block = all | opp_zones;  // SPEC 3: intermediate cells
    const Bitboard knight_block = rules.flier_jumps_walls ? Bitboard(0) : opp_walls;
    const Cell own_heart = pos.heart(us);
    const Bitboard own_heart_alone =
        own_heart != NO_CELL && !test(all, own_heart) ? bit(own_heart) : Bitboard(0);
    // SPEC 3: the destination holds no own piece, is in no opposing zone, is no wall.
    const Bitboard base = ~own & ~opp_zones & ~opp_walls & kAllCells & filter;
    // SPEC 5: a wall's new zone may hold no opposing piece and no heart, and may not meet
    // an opposing zone; equivalently the wall may not stand next to any of those cells.
    const Bitboard wall_forbidden = geo::neighbours_of(opp | pos.hearts() | opp_zones);

    for (int t = 0; t < kPieceTypes; ++t) {
        Bitboard from_set = pos.pieces(us, PieceType(t));
        if (!from_set) continue;
        const PieceType pt = PieceType(t);
        const PathClass pc = path_class(pt, rules);
        Bitboard dest_mask = base;
        if (!is_carrier(pt)) dest_mask &= ~own_heart_alone;   // SPEC 4
        if (pt == WALL) dest_mask &= ~opp & ~wall_forbidden;  // walls capture no piece
        const Bitboard blk = pt == KNIGHT ? knight_block : block;
        while (from_set) {
            const Cell from = pop_lsb(from_set);
            Bitboard dests = reach(pc, from, blk) & dest_mask;
            const bool on_heart = from == own_heart;  // only a carrier can stand there
            while (dests) {
                const Cell to = pop_lsb(dests);
                if (emit(Move::normal(from, to, false))) return true;
                // SPEC 4: take the heart along unless it would rest in a wall's zone.
                if (on_heart && !test(own_zones, to) && emit(Move::normal(from, to, true)))
                    return true;
            }
        }
    }
    return false;
}

template <typename Emit>
void placement_moves(const Position& pos, Emit&& emit) {
    const Colour us = pos.to_move();
    const Rules& rules = pos.rules();
    const Bitboard all = pos.occupied();
    const Bitboard opp = all & ~pos.pieces(us);
    const Bitboard opp_zones = pos.opposing_zones(us);
    Bitboard cells = geo::region(us);
    if (rules.forward_placement) cells |= geo::adjacent_separators(us);
    cells &= ~all & ~opp_zones;  // SPEC 6.1: empty, outside opposing zones
    const Bitboard wall_cells = cells & ~geo::neighbours_of(opp | pos.hearts() | opp_zones);
    for (int t = 0; t < kPieceTypes; ++t) {
        if (popcount(pos.pieces(us, PieceType(t))) >= kSetCount[t]) continue;
        for_each_cell(t == WALL ? wall_cells : cells,
                      [&](Cell c) { emit(Move::place(PieceType(t), c)); });
    }
}

template <typename Emit>
void heart_moves(const Position& pos, Emit&& emit) {
    const Colour us = pos.to_move();
    Bitboard walls = 0;
    for (int c = 0; c < kColours; ++c) walls |= pos.pieces(Colour(c), WALL);
    Bitboard carriers = pos.pieces(us, QUEEN) | pos.pieces(us, ROOK) | pos.pieces(us, PAWN);
    for_each_cell(carriers & ~geo::neighbours_of(walls),  // SPEC 6.2
                  [&](Cell c) { emit(Move::place_heart(c)); });
}

/// GoalSafety (SPEC 8): after m, may no opponent capture the mover's heart? A move that
/// wins the game is always allowed.
bool goal_safe_after(Position& pos, Move m) {
    const Colour us = pos.to_move();
    pos.do_move(m);
    bool safe = true;
    if (!pos.game_over()) {
        for (int c = 0; c < kColours && safe; ++c)
            if (c != us && pos.is_in(Colour(c)) && attacks_heart(pos, Colour(c), us)) safe = false;
    }
    pos.undo_move();
    return safe;
}

template <typename Emit>
void legal_moves(const Position& pos, Emit&& emit) {
    switch (pos.phase()) {
        case Phase::Place:
            placement_moves(pos, emit);
            return;
        case Phase::Heart:
            heart_moves(pos, emit);
            return;
        case Phase::Play:
            break;
    }
    if (pos.game_over()) return;
    if (!pos.rules().goal_safety) {
        play_moves(pos, pos.to_move(), kAllCells, [&](Move m) {
            emit(m);
            return false;
        });
        return;
    }
    Position& scratch = const_cast<Position&>(pos);  // do/undo leave it as it was
    MoveList pseudo;
    play_moves(pos, pos.to_move(), kAllCells, [&](Move m) {
        pseudo.push(m);
        return false;
    });
    for (Move m : pseudo)
        if (goal_safe_after(scratch, m)) emit(m);
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list) {
    list.size = 0;
    legal_moves(pos, [&](Move m) { list.push(m); });
}

std::size_t count_legal(const Position& pos) {
    std::size_t n = 0;
    if (pos.phase() == Phase::Play && !pos.rules().goal_safety && !pos.game_over()) {
        play_moves(pos, pos.to_move(), kAllCells, [&](Move) {
            ++n;
            return false;
        });
        return n;
    }
    legal_moves(pos, [&](Move) { ++n; });
    return n;
}

bool has_legal_move(const Position& pos) {
    if (pos.phase() == Phase::Play && !pos.rules().goal_safety) {
        if (pos.game_over()) return false;
        return play_moves(pos, pos.to_move(), kAllCells, [](Move) { return true; });
    }
    MoveList l;
    generate_legal(pos, l);
    return l.size > 0;
}

bool is_legal(const Position& pos, Move m) {
    MoveList l;
    generate_legal(pos, l);
    return l.contains(m);
}

Reach reach_of(const Position& pos, Colour c) {
    Reach r;
    std::array<Cell, kColours> hearts{pos.heart(GREEN), pos.heart(BLUE), pos.heart(BLACK)};
    Bitboard last_from_on_heart[kColours] = {0, 0, 0};
    play_moves(pos, c, kAllCells, [&](Move m) {
        r.targets |= bit(m.to());
        r.mobile |= bit(m.from());
        ++r.moves;
        for (int x = 0; x < kColours; ++x)
            if (x != c && hearts[x] == m.to() && !test(last_from_on_heart[x], m.from())) {
                last_from_on_heart[x] |= bit(m.from());
                ++r.heart_attackers[x];
            }
        return false;
    });
    return r;
}

bool attacks_heart(const Position& pos, Colour attacker, Colour victim) {
    const Cell h = pos.heart(victim);
    if (h == NO_CELL || !pos.is_in(attacker) || attacker == victim) return false;
    return play_moves(pos, attacker, bit(h), [](Move) { return true; });
}

}  // namespace klinzha
