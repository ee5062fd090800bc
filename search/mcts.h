// search/mcts.h: the tree of the three-player Monte Carlo tree search (MultiplayerSearch
// mcts): one value per player backed up by max^n (each player chooses by its own value), the
// evaluation at the leaves, PUCT selection with a prior from move ordering, and Progressive
// History (Nijssen and Winands 2011: the mean value a move earned wherever it was played,
// weighed less as the move's own visits grow). The search over it is Worker::mcts (mcts.cpp).
//
// Sources: Sturtevant 2008 ("An analysis of UCT in multi-player games": max^n backups);
// Nijssen and Winands 2011/2012 ("Enhancements for multi-player Monte-Carlo tree search";
// "An overview of search techniques in multi-player games": max^n is the best backup inside
// MCTS, Progressive History a considerable gain); SPEC 7 (three players, the end of a game).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "engine/types.h"

namespace klinzha::mcts {

/// The constants of the search (docs/search.md, "Monte Carlo tree search").
struct Params {
    /// Centi-pawns of standing that move a player's value from 0.5 to 0.73 (the logistic
    /// scale of the leaves: value = 1 / (1 + exp(-standing / kScale))).
    double scale = 400.0;
    double c_puct = 1.0;           ///< PUCT's exploration weight (values lie in [0, 1])
    double history_weight = 0.25;  ///< Progressive History's W
    double fpu_reduction = 0.05;   ///< an unvisited child's value: the parent's, less this
    /// Every player's value by a quiescence with that player as the root (false: the
    /// mover's alone; the others' by their static standing).
    bool quiescence_all = true;
    std::size_t max_nodes = 1 << 21;  ///< the tree's size at most (32 bytes a node: 64 MiB)
};

/// One node of the tree: the move that led to it and the sums of the values each player got
/// through it (max^n backups: a vector of kColours values a visit, each in [0, 1]).
struct Node {
    Move move;                      ///< the move from the parent (none at the root)
    std::uint32_t first_child = 0;  ///< index of the first child; children are contiguous
    std::uint16_t children = 0;     ///< number of children (0: not expanded yet)
    std::uint8_t expanded = 0;      ///< 1 once the children were made (possibly none)
    std::uint8_t pad = 0;
    std::uint32_t visits = 0;
    float prior = 0;                    ///< PUCT's prior, from the move's rank by ordering
    std::array<float, kColours> sum{};  ///< per colour, the values backed up through here
};

/// Progressive History's table: per colour, per move's from index and destination cell, the
/// sum and the number of the values the mover got from a move anywhere in the tree.
struct ProgressiveHistory {
    static constexpr int kFrom = kCells + 8;
    std::vector<float> sum = std::vector<float>(std::size_t(kColours) * kFrom * kCells);
    std::vector<std::uint32_t> count = std::vector<std::uint32_t>(sum.size());
    static std::size_t index(Colour c, int from, Cell to) {
        return (std::size_t(c) * kFrom + std::size_t(from)) * kCells + std::size_t(to);
    }
};

/// The principal line's statistics of one root move, for the info lines.
struct RootStat {
    Move move;
    std::uint32_t visits = 0;
    double value = 0;  ///< the root player's mean value through it, in [0, 1]
};

/// Centi-pawns for a value in [0, 1] on the leaves' logistic scale (clamped to +-3000).
int value_to_cp(double v, double scale);

/// The value in [0, 1] of a standing in centi-pawns (mate scores give 0 or 1).
double cp_to_value(int cp, double scale);

}  // namespace klinzha::mcts
