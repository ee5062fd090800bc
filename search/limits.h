// search/limits.h: what `go` asks for, parsed into a plain struct (SPEC 13).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/types.h"

namespace klinzha {

/// The limits of one search. Times in ms; -1 = not given. Colours indexed g, b, k.
struct SearchLimits {
    std::array<std::int64_t, kColours> time{-1, -1, -1};  ///< gtime btime ktime (wtime = gtime)
    std::array<std::int64_t, kColours> inc{0, 0, 0};      ///< ginc binc kinc (Fischer)
    std::array<std::int64_t, kColours> delay{0, 0, 0};    ///< gdelay bdelay kdelay (RH 6.2)
    int movestogo = 0;           ///< moves to the next time control, 0 = sudden death
    std::int64_t movetime = -1;  ///< exactly this long, ms
    int depth = 0;               ///< plies, 0 = no limit
    std::uint64_t nodes = 0;     ///< 0 = no limit
    int mate = 0;                ///< find a heart capture in this many moves, 0 = no limit
    bool infinite = false;
    bool ponder = false;
    std::vector<Move> searchmoves;  ///< restrict the root to these (empty = all)
    int perft = 0;                  ///< `go perft d`: count instead of search

    /// True when the clocks say nothing: search until depth/nodes/mate/stop.
    bool untimed() const { return movetime < 0 && time[0] < 0 && time[1] < 0 && time[2] < 0; }
};

}  // namespace klinzha
