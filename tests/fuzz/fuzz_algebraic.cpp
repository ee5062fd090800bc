// tests/fuzz/fuzz_algebraic.cpp: libFuzzer target over algebraic notation (SPEC 11) and game
// records. The first byte picks a position (one per phase, two and three players, and a
// variant); the rest is read as a token: reading it must not crash, and a token that names
// one legal move must name it again when that move is written canonically. The whole input
// is also read as a record and replayed (engine/record.h), strictly and leniently.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "engine/notation.h"
#include "engine/record.h"

using namespace klinzha;

namespace {
struct Start {
    const char* fen;
    const char* rules;
};
const Start kStarts[] = {
    {"2 - - - g place 0 1", ""},
    {"3 - - - g place 0 1", ""},
    {"2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,Ng24,Ph35,Ph13,"
     "Ph12,Wg35 - b heart 0 1",
     ""},
    {"3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,"
     "Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2",
     ""},
    {"2 Hg79,Qg69,Rh79,Bd38,Nh68,Pg57,Wi78 - - b play 4 8", "Reflective"},
    {"2 Hi89,Ri78,Ne48,Pf58,Wg79 Hf15,Qf36,Ri45,Pf14,Wh12 - g play 15 20 courier=g:i78,b:f14",
     "UCI_Variant"},
};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const Start& s = kStarts[data[0] % (sizeof kStarts / sizeof kStarts[0])];
    Rules rules;
    if (std::string(s.rules) == "Reflective") rules.reflective = true;
    if (std::string(s.rules) == "UCI_Variant") (void)rules.set("UCI_Variant", "klin-zha-italian");
    Position p;
    if (p.set(s.fen, rules)) __builtin_trap();
    const std::string token(reinterpret_cast<const char*>(data) + 1, size - 1);
    const AlgebraicReading r = read_algebraic(p, token);
    if (r.moves.size() == 1) {
        const auto again = parse_algebraic(p, to_algebraic(p, r.moves[0]));
        if (!std::holds_alternative<Move>(again) || std::get<Move>(again) != r.moves[0])
            __builtin_trap();
    }
    std::istringstream in(token);
    for (const auto& g : read_records(in)) {
        (void)replay(g, rules, 2, false);
        (void)replay(g, rules, 3, true);
    }
    return 0;
}
