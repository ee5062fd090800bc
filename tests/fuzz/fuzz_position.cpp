// tests/fuzz/fuzz_position.cpp: libFuzzer target over position strings (SPEC 10) under
// random rule options (SPEC 8). The first two bytes choose the options; the rest is the
// string. Properties checked on every accepted position: its fen() reads back to the same
// string and key; the incremental key equals the recomputed one after every legal move and
// its undo; and the position after each legal move is itself a valid position string (the
// class of bug where the engine rejected a string it had produced).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/movegen.h"
#include "engine/position.h"

using namespace klinzha;

namespace {
Rules rules_from(std::uint8_t a, std::uint8_t b) {
    Rules r;
    r.goal_safety = a & 1;
    r.power_vanguard = a & 2;
    r.flier_jumps_walls = !(a & 4);
    r.forward_placement = a & 8;
    r.alternating_placement = a & 16;
    r.relation_dilemma = a & 32;
    r.honor_in_setup = a & 64;
    r.heart_first = a & 128;
    r.reflective = b & 1;
    r.courier = b & 2;
    r.blockader_traps = b & 4;
    r.goal_crosses_zone_if_threatened = b & 8;
    r.blockader_takes_goal_last = b & 16;
    r.kaggas_crown = Crown((b >> 5) % 3);
    static const int ablative[] = {0, 0, 1, 6, -1, 10, 0, 3};
    r.ablative = ablative[(a ^ b) & 7];
    return r;
}
[[noreturn]] void fail(const char* what) {
    __builtin_trap();
    (void)what;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 2) return 0;
    const Rules rules = rules_from(data[0], data[1]);
    const std::string fen(reinterpret_cast<const char*>(data) + 2, size - 2);
    Position p;
    if (p.set(fen, rules)) return 0;  // rejected: fine, it must only not crash
    const std::string canonical = p.fen();
    Position q;
    if (q.set(canonical, rules) || q.fen() != canonical || q.key() != p.key()) fail("round trip");
    if (p.key() != p.compute_key()) fail("key");
    MoveList l;
    generate_legal(p, l);
    for (Move m : l) {
        p.do_move(m);
        if (p.key() != p.compute_key()) fail("incremental key");
        Position after;
        if (after.set(p.fen(), rules)) fail("a legal move led to a rejected position string");
        p.undo_move();
    }
    if (p.fen() != canonical) fail("undo");
    return 0;
}
