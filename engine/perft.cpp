// engine/perft.cpp: SPEC 12.
#include "perft.h"

#include "movegen.h"
#include "notation.h"

namespace klinzha {

std::uint64_t perft(Position& pos, int depth, const std::atomic<bool>* stop) {
    if (depth == 0) return 1;
    if (depth == 1) return count_legal(pos);
    if (stop && stop->load(std::memory_order_relaxed)) return 0;
    MoveList list;
    generate_legal(pos, list);
    std::uint64_t n = 0;
    for (Move m : list) {
        pos.do_move(m);
        n += perft(pos, depth - 1, stop);
        pos.undo_move();
    }
    return n;
}

std::vector<std::pair<std::string, std::uint64_t>> perft_divide(Position& pos, int depth,
                                                                const std::atomic<bool>* stop) {
    std::vector<std::pair<std::string, std::uint64_t>> out;
    MoveList list;
    generate_legal(pos, list);
    for (Move m : list) {
        if (stop && stop->load(std::memory_order_relaxed)) break;
        pos.do_move(m);
        out.emplace_back(move_to_string(m), perft(pos, depth - 1, stop));
        pos.undo_move();
    }
    return out;
}

}  // namespace klinzha
