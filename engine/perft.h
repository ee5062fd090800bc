// engine/perft.h: perft (SPEC 12): the number of legal move sequences of a given length.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "position.h"

namespace klinzha {

/// perft(depth) from pos (pos is restored). Bulk-counts at the last ply. A finished game
/// or a player with no legal move has no children (SPEC 12).
/// With `stop` set (by another thread) it returns early with a partial count.
std::uint64_t perft(Position& pos, int depth, const std::atomic<bool>* stop = nullptr);

/// The divide: each legal move (protocol string) with perft(depth - 1) after it, in
/// generation order. depth must be >= 1.
/// With `stop` set it returns the moves counted so far.
std::vector<std::pair<std::string, std::uint64_t>> perft_divide(
    Position& pos, int depth, const std::atomic<bool>* stop = nullptr);

}  // namespace klinzha
