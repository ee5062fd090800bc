// engine/movegen.cpp: move generation from precomputed path tables (geometry.h).
//
// For each piece, the cells it can reach are the destinations of the path-table entries
// whose intermediate cells are all free; then the destination rules of SPEC 3-5 are
// applied as bitboard masks. Sources: SPEC 3 (paths), 4 (hearts), 5 (walls), 6 (setup),
// 8 (options); RH 3.1, 3.6-3.8, Q2-Q6; Laws of KZ 3.6-3.11.
#include "movegen.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "geometry.h"

namespace klinzha {

bool MoveList::contains(Move m) const {
    return std::find(begin(), end(), m) != end();
}

namespace {

using geo::PathClass;

/// The answers of reach_uncached, per thread, keyed by (class, origin, the blockers on the
/// span). Each entry holds the blockers and the answer, with the key's (class, origin) tag in
/// the answer's unused high bits (cells use 81 of 128), so a hit is checked exactly. 2^13
/// entries of 32 bytes: 256 KiB per thread. A piece at a cell mostly sees the same blockers
/// from one node to the next, so most lookups hit.
struct ReachEntry {
    Bitboard blockers = 0;
    Bitboard tagged = 0;
};
constexpr int kReachCacheBits = 13;
thread_local std::array<ReachEntry, std::size_t(1) << kReachCacheBits> reach_cache;

Bitboard reach_uncached(PathClass pc, Cell from, Bitboard block) {
    Bitboard r = 0;
    for (const auto& e : geo::paths(pc, from))
        if (!(e.mid & block)) r |= bit(e.dest);
    return r;
}

Bitboard reach_cached(PathClass pc, Cell from, Bitboard blockers) {
    const std::uint64_t tag = std::uint64_t(int(pc) * kCells + from + 1);
    const auto lo = std::uint64_t(blockers), hi = std::uint64_t(blockers >> 64);
    const std::uint64_t h =
        (lo * 0x9E3779B97F4A7C15ull) ^ ((hi ^ (tag << 24)) * 0xC2B2AE3D27D4EB4Full);
    ReachEntry& e = reach_cache[h >> (64 - kReachCacheBits)];
    if (e.blockers == blockers && std::uint64_t(e.tagged >> 96) == tag) return e.tagged & kAllCells;
    const Bitboard r = reach_uncached(pc, from, blockers);
    e.blockers = blockers;
    e.tagged = r | (Bitboard(tag) << 96);
    return r;
}

/// Cells reachable from `from` by a path of class pc whose intermediate cells avoid `block`.
/// Only the blockers on the paths' span matter: none, and every destination is reached.
inline Bitboard reach(PathClass pc, Cell from, Bitboard block) {
    const Bitboard blockers = block & geo::path_span(pc, from);
    if (!blockers) return geo::path_destinations(pc, from);
    return reach_cached(pc, from, blockers);
}

/// The men and heart that `us` may not capture: RelationDilemma's spared colour (SPEC 15).
inline Bitboard spared_men(const Position& pos, Colour us) {
    const Colour sp = pos.spared(us);
    if (sp == NO_COLOUR) return 0;
    const Cell h = pos.heart(sp);
    return pos.pieces(sp) | (h != NO_CELL ? bit(h) : Bitboard(0));
}

template <bool kCarry, typename Sink>
bool play_moves(const Position& pos, Colour us, Bitboard filter, Sink&& sink,
                Bitboard from_filter = kAllCells);

/// A sink for play_moves that hands each move to emit(Move), in the order: per destination,
/// the move that leaves the heart, then the one that carries it. Stops when emit returns true.
/// `carry` is a subset of `dests` but for a Kinta wall carrying its heart (SPEC 26), which may
/// end next to its old cell only with the heart.
template <typename Emit>
auto each_move(Emit&& emit) {
    return [&emit](Cell from, Bitboard dests, Bitboard carry) {
        if (carry & ~dests) {  // a Kinta wall with its heart: some moves carry it only
            for (Bitboard all = dests | carry; all;) {
                const Cell to = pop_lsb(all);
                if (test(dests, to) && emit(Move::normal(from, to, false))) return true;
                if (test(carry, to) && emit(Move::normal(from, to, true))) return true;
            }
            return false;
        }
        while (dests) {
            const Cell to = pop_lsb(dests);
            if (emit(Move::normal(from, to, false))) return true;
            if (carry && test(carry, to) && emit(Move::normal(from, to, true))) return true;
        }
        return false;
    };
}

/// A sink that answers "some move exists" at the first piece that has one.
inline bool any_move(Cell, Bitboard dests, Bitboard carry) {
    return (dests | carry) != 0;
}

/// Reflective (SPEC 21): one army, and every man but the one moving is its enemy, the heart
/// too unless the man carries it. The moves do not depend on whose turn it is.
template <bool kCarry, typename Sink>
bool shared_army_moves(const Position& pos, Bitboard filter, Sink&& sink, Bitboard from_filter) {
    const Rules& rules = pos.rules();
    const Bitboard all = pos.occupied();
    const Bitboard walls = pos.pieces(GREEN, WALL);
    const Bitboard zone = geo::neighbours_of(walls);
    const Cell heart = pos.heart(GREEN);
    const Bitboard heart_bb = heart != NO_CELL ? bit(heart) : Bitboard(0);
    const Bitboard block = all | zone;
    const Bitboard knight_block = rules.flier_jumps_walls ? Bitboard(0) : walls;
    // Any man but the wall may be taken, none on a cloud; no ablated cell (SPEC 16, 17).
    const Bitboard base = kAllCells & filter & ~walls & ~(pos.clouds() & all) & ~pos.ablated();
    for (int t = 0; t < kPieceTypes; ++t) {
        Bitboard from_set = pos.pieces(GREEN, PieceType(t)) & from_filter;
        const PieceType pt = PieceType(t);
        const PathClass pc = path_class(pt, rules);
        while (from_set) {
            const Cell from = pop_lsb(from_set);
            Bitboard dests;
            if (pt == WALL)  // not hindered by its own zone; no man nor the heart next to it
                dests = reach(pc, from, all) & base & ~all &
                        ~geo::neighbours_of((all & ~bit(from)) | heart_bb);
            else
                dests = reach(pc, from, pt == KNIGHT ? knight_block : block) & base & ~zone;
            const Bitboard carry =
                kCarry && from == heart ? dests & ~zone & ~pos.clouds() : Bitboard(0);
            if (sink(from, dests, carry)) return true;
        }
    }
    return false;
}

/// Calls sink(from, dests, carry) for every piece of colour `us` in play: `dests` are the
/// cells it can move to, legal but for GoalSafety (and whoever's turn it is), within
/// `filter`; `carry` those to which it can also take its heart along (with kCarry false
/// always empty: enough to find attacks, as each carrying move has a twin that leaves the
/// heart). Returns early when sink returns true (found what it wanted); the result says
/// whether that happened. Every rule option acts through the masks below.
template <bool kCarry, bool kKinta, typename Sink>
bool play_moves_impl(const Position& pos, Colour us, Bitboard filter, Sink&& sink,
                     Bitboard from_filter);

template <bool kCarry, typename Sink>
bool play_moves(const Position& pos, Colour us, Bitboard filter, Sink&& sink,
                Bitboard from_filter) {
    const Rules& rules = pos.rules();
    if (rules.reflective) return shared_army_moves<kCarry>(pos, filter, sink, from_filter);
    // Kinta's wall rules (SPEC 26) in their own instantiation: the default game's loop is
    // the same code as without them.
    if (rules.kinta) return play_moves_impl<kCarry, true>(pos, us, filter, sink, from_filter);
    return play_moves_impl<kCarry, false>(pos, us, filter, sink, from_filter);
}

/// The wall destinations among `dests` whose new zone is clear (SPEC 5): no cell next to it
/// in `shun` (opposing men, or any men under BlockaderTraps, 23.2; hearts; opposing zones),
/// but for `ignore` (a heart the wall carries along, Kinta, SPEC 26). A wall has few
/// destinations, so each is checked alone (cheaper than dilating the set to avoid).
inline Bitboard wall_zone_clear(Bitboard dests, Bitboard shun, Bitboard ignore = 0) {
    shun &= ~ignore;
    Bitboard ok = 0;
    for (Bitboard d = dests; d;) {
        const Cell x = pop_lsb(d);
        if (!(geo::neighbours(x) & shun)) ok |= bit(x);
    }
    return ok;
}

/// Kinta (SPEC 26): the opposing walls a piece of `us` may attack: among `opp_walls` and
/// `filter`, not spared, not on a cloud, not in the zone of another opposing wall.
inline Bitboard kinta_wall_targets(const Position& pos, Colour us, Bitboard opp_walls,
                                   Bitboard filter) {
    Bitboard targets = opp_walls & filter & ~spared_men(pos, us) & ~pos.clouds();
    for (Bitboard w = targets; w;) {
        const Cell x = pop_lsb(w);
        if (test(geo::neighbours_of(opp_walls & ~bit(x)), x)) targets &= ~bit(x);
    }
    return targets;
}

/// Kinta (SPEC 26): which of `targets` a man of path class pc on `from` reaches: its path may
/// cross the target's own zone, not another opposing wall's; a flier is blocked by
/// `knight_block` alone; `extra` blocks more cells.
inline Bitboard kinta_wall_attacks(Bitboard targets, PathClass pc, Cell from, bool knight,
                                   Bitboard knight_block, Bitboard all, Bitboard opp_walls,
                                   Bitboard extra) {
    Bitboard r = 0;
    for (Bitboard w = targets & geo::path_destinations(pc, from); w;) {
        const Cell x = pop_lsb(w);
        const Bitboard blk_x =
            knight ? knight_block : all | geo::neighbours_of(opp_walls & ~bit(x));
        if (test(reach(pc, from, blk_x | extra), x)) r |= bit(x);
    }
    return r;
}

template <bool kCarry, bool kKinta, typename Sink>
bool play_moves_impl(const Position& pos, Colour us, Bitboard filter, Sink&& sink,
                     Bitboard from_filter) {
    const Rules& rules = pos.rules();
    const Bitboard own = pos.pieces(us);
    if (!(own & from_filter)) return false;
    const Bitboard all = pos.occupied();
    const Bitboard opp = all & ~own;
    Bitboard opp_walls = 0;
    for (int c = 0; c < kColours; ++c)
        if (c != us) opp_walls |= pos.pieces(Colour(c), WALL);
    const Bitboard own_walls = pos.pieces(us, WALL);
    const Bitboard opp_zones = geo::neighbours_of(opp_walls);
    const Bitboard own_zones = geo::neighbours_of(own_walls);
    const Bitboard block = all | opp_zones;  // SPEC 3: intermediate cells
    const Bitboard knight_block = rules.flier_jumps_walls ? Bitboard(0) : opp_walls;
    const Cell own_heart = pos.heart(us);
    const Bitboard hearts = pos.hearts();
    const Bitboard lone_hearts = hearts & ~all;
    const Bitboard own_heart_alone =
        own_heart != NO_CELL ? lone_hearts & bit(own_heart) : Bitboard(0);
    // SPEC 3, 15-17: the destination holds no own piece, no spared man or heart, no wall and
    // no man on a cloud, lies in no opposing zone and is not ablated.
    const Bitboard base = ~own & ~opp_zones & ~opp_walls & kAllCells & filter &
                          ~spared_men(pos, us) & ~(pos.clouds() & all) & ~pos.ablated();
    // SPEC 5: a wall's new zone may hold no opposing piece (BlockaderTraps, 23.2: any men) and
    // no heart, and may not meet an opposing zone: the wall may not stand next to those cells.
    // A wall has few destinations, so each is checked alone (cheaper than dilating that set).
    Bitboard wall_mask = base & ~opp;  // walls capture no piece
    // SPEC 23.4: a wall ends on an opposing lone heart only as its owner's last piece (its own
    // heart it may pick up as any carrier, Kinta under Courier: SPEC 23.1, 26).
    if (rules.blockader_takes_goal_last && popcount(own) > 1)
        wall_mask &= ~(lone_hearts & ~own_heart_alone);
    // SPEC 5 (wall_zone_clear): what a wall's new zone may not hold or meet.
    auto shun = [&] { return (rules.blockader_traps ? Bitboard(0) : opp) | hearts | opp_zones; };
    // SPEC 4: who may end on the own heart standing alone: the carriers (Courier: the
    // courier only, SPEC 23.1).
    const Cell courier = pos.courier(us);
    const Bitboard pickers =
        rules.courier ? (courier != NO_CELL ? bit(courier) : Bitboard(0)) : pos.carriers(us);
    // SPEC 23.2: a man other than a wall in the zone of any wall is held.
    const Bitboard movable = rules.blockader_traps
                                 ? own & (~geo::neighbours_of(own_walls | opp_walls) | own_walls)
                                 : own;
    // SPEC 4, 16: a carried heart never comes to rest in a zone or on a cloud. SPEC 23.3: it
    // crosses its own zones only when attacked.
    const Bitboard carry_forbidden = own_zones | pos.clouds();
    Bitboard carry_block = 0;
    // A Blind view counts the viewer's heart as attacked: it cannot see attackers (SPEC 25).
    if (kCarry && rules.goal_crosses_zone_if_threatened && own_heart != NO_CELL &&
        test(own, own_heart) && !pos.hidden() && !heart_attacked(pos, us))
        carry_block = own_zones;

    // Kinta (SPEC 26): opposing walls a piece may attack.
    Bitboard wall_targets = 0;
    if constexpr (kKinta) wall_targets = kinta_wall_targets(pos, us, opp_walls, filter);
    auto wall_attacks = [&](PathClass pc, Cell from, bool knight, Bitboard extra) {
        return kinta_wall_attacks(wall_targets, pc, from, knight, knight_block, all, opp_walls,
                                  extra);
    };

    for (int t = 0; t < kPieceTypes; ++t) {
        Bitboard from_set = pos.pieces(us, PieceType(t)) & movable & from_filter;
        if (!from_set) continue;
        const PieceType pt = PieceType(t);
        const PathClass pc = path_class(pt, rules);
        const Bitboard dest_mask = pt == WALL ? wall_mask : base;
        const Bitboard blk = pt == KNIGHT ? knight_block : block;
        while (from_set) {
            const Cell from = pop_lsb(from_set);
            Bitboard dests = reach(pc, from, blk) & dest_mask;
            Bitboard wall_dests = 0;  // a Kinta wall's destinations before its zone check
            if constexpr (kKinta) {
                if (wall_targets && pt != WALL) dests |= wall_attacks(pc, from, pt == KNIGHT, 0);
                wall_dests = dests;
            }
            if (pt == WALL) dests = wall_zone_clear(dests, shun());
            if (!test(pickers, from)) dests &= ~own_heart_alone;  // SPEC 4, 23.1
            Bitboard carry = 0;
            // Only a carrier can stand on the own heart. A Kinta wall's carrying moves are
            // found even without kCarry: some have no twin that leaves the heart.
            if (from == own_heart && (kCarry || (kKinta && pt == WALL))) {
                if (kKinta && pt == WALL) {
                    // Kinta: the wall takes its heart and its zone along (SPEC 26 Decision):
                    // neither its own zone nor the heart it carries counts against it.
                    const Bitboard other_zones = geo::neighbours_of(own_walls & ~bit(from));
                    if (carry_block) wall_dests = reach(pc, from, blk | other_zones) & dest_mask;
                    carry = wall_zone_clear(wall_dests, shun(), bit(from)) &
                            ~(other_zones | pos.clouds());
                } else {
                    Bitboard crossing = 0;  // Kinta: wall targets behind the own zones
                    if constexpr (kKinta)
                        if (carry_block && wall_targets)
                            crossing = wall_attacks(pc, from, pt == KNIGHT, carry_block);
                    carry =
                        (carry_block ? (reach(pc, from, blk | carry_block) & dest_mask) | crossing
                                     : dests) &
                        ~carry_forbidden;
                }
            }
            if (sink(from, dests, carry)) return true;  // SPEC 4: carry the heart, or leave it
        }
    }
    return false;
}

/// HonorInSetup (SPEC 19): the honourable cells of `us` when its walls' zones are `z`: the
/// cells reached from the other players' setup cells without entering z.
Bitboard honourable(const Position& pos, Colour us, Bitboard z) {
    Bitboard r = 0;
    for (int c = 0; c < pos.players(); ++c)
        if (c != us) r |= pos.setup_cells(Colour(c));
    r &= ~z;
    for (Bitboard prev = 0; r != prev;) {
        prev = r;
        r = (r | geo::neighbours_of(r)) & ~z;
    }
    return r;
}

template <typename Emit>
void placement_moves(const Position& pos, Emit&& emit) {
    const Rules& rules = pos.rules();
    const Colour us = pos.to_move();
    const Colour army = pos.army(us);
    const Bitboard all = pos.occupied();
    // SPEC 6.1: empty and outside opposing zones. Reflective (21) and BlockaderTraps (23.2):
    // outside every zone, and a wall may have no man at all next to it.
    const bool every_man = rules.reflective || rules.blockader_traps;
    const Bitboard hostile = every_man ? all : all & ~pos.pieces(us);
    const Bitboard opp_zones = pos.opposing_zones(us);
    Bitboard cells = pos.setup_cells(army) & ~all & ~(every_man ? pos.all_zones() : opp_zones);
    Bitboard wall_cells = cells & ~geo::neighbours_of(hostile | pos.hearts() | opp_zones);
    if (rules.reflective && !all) {  // SPEC 21: the first placement is a carrier with the heart
        for (PieceType t : {QUEEN, ROOK, PAWN})
            for_each_cell(cells & ~pos.clouds(), [&](Cell c) { emit(Move::place(t, c, true)); });
        return;
    }
    if (rules.honor_in_setup) {  // SPEC 19
        const Bitboard own_zones = pos.zones(us);
        cells &= honourable(pos, us, own_zones);
        const Cell h = pos.heart(us);
        const Bitboard guarded =
            (pos.pieces(us) & ~pos.pieces(us, WALL)) | (h != NO_CELL ? bit(h) : Bitboard(0));
        Bitboard ok = 0;
        for_each_cell(wall_cells, [&](Cell c) {
            if (!(guarded & ~honourable(pos, us, own_zones | geo::neighbours(c)))) ok |= bit(c);
        });
        wall_cells = ok;
    }
    for (int t = 0; t < kPieceTypes; ++t) {
        if (popcount(pos.pieces(army, PieceType(t))) >= kSetCount[t]) continue;
        for_each_cell(t == WALL ? wall_cells : cells,
                      [&](Cell c) { emit(Move::place(PieceType(t), c)); });
    }
}

template <typename Emit>
void heart_moves(const Position& pos, Emit&& emit) {
    const Colour us = pos.to_move();
    const Bitboard carriers = pos.carriers(us);  // Kinta: the wall too (SPEC 26)
    // SPEC 6.2: on a carrier in no wall's zone; SPEC 16: not on a cloud; SPEC 19: honourable.
    Bitboard cells = carriers & ~pos.all_zones() & ~pos.clouds();
    if (pos.rules().honor_in_setup) cells &= honourable(pos, us, pos.zones(us));
    for_each_cell(cells, [&](Cell c) { emit(Move::place_heart(c)); });
}

/// GoalSafety (SPEC 8, 14): after m, may no opponent capture the mover's heart? A move after
/// which the game is over is always allowed.
bool goal_safe_after(Position& pos, Move m) {
    const Colour owner = pos.army(pos.to_move());
    pos.do_move(m);
    const bool safe = pos.game_over() || !heart_attacked(pos, owner);
    pos.undo_move();
    return safe;
}

template <typename Emit>
void legal_moves(const Position& pos, Emit&& emit, Bitboard targets = kAllCells) {
    // A Blind view (SPEC 25): a hidden player's ply is unseen; in the view it is the null
    // move, which advances the turn and the phase as that ply would.
    if (pos.hidden_to_move()) {
        if (!pos.game_over()) emit(Move::null());
        return;
    }
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
        play_moves<true>(pos, pos.to_move(), targets, each_move([&](Move m) {
                             emit(m);
                             return false;
                         }));
        return;
    }
    Position& scratch = const_cast<Position&>(pos);  // do/undo leave it as it was
    MoveList pseudo;
    play_moves<true>(pos, pos.to_move(), targets, each_move([&](Move m) {
                         pseudo.push(m);
                         return false;
                     }));
    for (Move m : pseudo)
        if (goal_safe_after(scratch, m)) emit(m);
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list) {
    list.size = 0;
    legal_moves(pos, [&](Move m) { list.push(m); });
}

void generate_legal_to(const Position& pos, MoveList& list, Bitboard targets) {
    list.size = 0;
    legal_moves(
        pos, [&](Move m) { list.push(m); }, targets);
}

std::size_t count_legal(const Position& pos) {
    std::size_t n = 0;
    if (pos.phase() == Phase::Play && !pos.rules().goal_safety && !pos.game_over() &&
        !pos.hidden_to_move()) {
        play_moves<true>(pos, pos.to_move(), kAllCells, [&](Cell, Bitboard dests, Bitboard carry) {
            n += std::size_t(popcount(dests) + popcount(carry));
            return false;
        });
        return n;
    }
    legal_moves(pos, [&](Move) { ++n; });
    return n;
}

bool has_legal_move(const Position& pos) {
    if (pos.phase() == Phase::Play && !pos.rules().goal_safety && !pos.hidden_to_move()) {
        if (pos.game_over()) return false;
        return play_moves<false>(pos, pos.to_move(), kAllCells, any_move);
    }
    MoveList l;
    generate_legal(pos, l);
    return l.size > 0;
}

bool is_legal(const Position& pos, Move m) {
    // A play move without GoalSafety: generated from its own cell to its own destination
    // only (the search asks this of every transposition table move before generating).
    if (m.kind() == Move::Normal && pos.phase() == Phase::Play && !pos.rules().goal_safety &&
        !pos.hidden_to_move()) {
        if (pos.game_over()) return false;
        bool found = false;
        play_moves<true>(pos, pos.to_move(), bit(m.to()), each_move([&](Move x) {
                             found = x == m;
                             return found;
                         }),
                         bit(m.from()));
        return found;
    }
    MoveList l;
    generate_legal(pos, l);
    return l.contains(m);
}

Reach reach_of(const Position& pos, Colour c) {
    Reach r;
    const std::array<Cell, kColours> hearts{pos.heart(GREEN), pos.heart(BLUE), pos.heart(BLACK)};
    Bitboard other_hearts = 0;
    for (int x = 0; x < kColours; ++x)
        if (x != c && hearts[x] != NO_CELL) other_hearts |= bit(hearts[x]);
    play_moves<true>(pos, c, kAllCells, [&](Cell from, Bitboard dests, Bitboard carry) {
        if (!dests) return false;
        r.targets |= dests;
        r.mobile |= bit(from);
        r.moves += popcount(dests);
        if (carry) r.moves += popcount(carry);
        if (dests & other_hearts)
            for (int x = 0; x < kColours; ++x)
                if (x != c && hearts[x] != NO_CELL && test(dests, hearts[x]))
                    ++r.heart_attackers[x];
        return false;
    });
    return r;
}

namespace {

/// The men of colour c that could reach cell h on an empty board (paths are symmetric, so
/// these are the cells of c's pieces among h's destinations per piece type): the only ones
/// that can attack h. Walls included: a wall takes a heart standing alone (SPEC 4).
Bitboard attack_candidates(const Position& pos, Colour c, Cell h) {
    Bitboard r = 0;
    for (int t = 0; t < kPieceTypes; ++t)
        r |= pos.pieces(c, PieceType(t)) &
             geo::path_destinations(path_class(PieceType(t), pos.rules()), h);
    return r;
}

}  // namespace

bool attacks_heart(const Position& pos, Colour attacker, Colour victim) {
    const Cell h = pos.heart(victim);
    if (h == NO_CELL) return false;
    if (pos.rules().reflective) return heart_attacked(pos, victim);
    if (!pos.is_in(attacker) || attacker == victim) return false;
    const Bitboard from = attack_candidates(pos, attacker, h);
    return from && play_moves<false>(pos, attacker, bit(h), any_move, from);
}

Bitboard heart_attack_lines(const Position& pos, Colour victim, Colour only) {
    const Cell h = pos.heart(victim);
    if (h == NO_CELL) return 0;
    if (pos.rules().reflective) return kAllCells;
    Bitboard lines = 0;
    for (int c = 0; c < kColours; ++c) {
        if (c == victim || !pos.is_in(Colour(c)) || (only != NO_COLOUR && c != only)) continue;
        Bitboard from_set = attack_candidates(pos, Colour(c), h);
        while (from_set) {
            const Cell from = pop_lsb(from_set);
            if (!play_moves<false>(pos, Colour(c), bit(h), any_move, bit(from))) continue;
            lines |= bit(from);
            const PathClass pc = path_class(man_type(pos.man_on(from)), pos.rules());
            for (const auto& e : geo::paths(pc, from))
                if (e.dest == h) lines |= e.mid;
        }
    }
    return lines;
}

bool heart_attacked(const Position& pos, Colour owner) {
    const Cell h = pos.heart(owner);
    if (h == NO_CELL) return false;
    if (pos.rules().reflective) {
        const Bitboard from = attack_candidates(pos, GREEN, h);
        return from && play_moves<false>(pos, GREEN, bit(h), any_move, from);
    }
    for (int c = 0; c < kColours; ++c) {
        if (c == owner || !pos.is_in(Colour(c))) continue;
        const Bitboard from = attack_candidates(pos, Colour(c), h);
        if (from && play_moves<false>(pos, Colour(c), bit(h), any_move, from)) return true;
    }
    return false;
}

}  // namespace klinzha
