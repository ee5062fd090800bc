// eval/nnue/accumulator.h: the feature transformer's output for every perspective of one
// position, kept up to date move by move.
//
// An Accumulator holds, for each colour p of the game, bias + the sum of the feature
// transformer's rows of p's active features (features.h): 3 x ft int16 (network.h), and the
// sums of their material weights per slot (3 x 3 int32). refresh() computes it
// from scratch; update() from the accumulator of the position one move before, by the cells
// the move changed (their men and hearts before and after: a move, a capture, a heart taken
// and an army changing hands alike), so a node of the search costs a few rows per perspective
// instead of every man's. The search keeps one per ply (search.cpp).
#pragma once

#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/position.h"
#include "network.h"

namespace klinzha::nnue {

struct Accumulator {
    alignas(64) std::int16_t v[kColours][kMaxFt];
    /// Per perspective p and slot s: the material weights of p's features of slot s.
    std::int32_t material[kColours][kSlots];
    std::uint64_t key = 0;  ///< the position it was computed for (0: none)
    /// The network's output for each perspective of this position once computed (the search
    /// asks a node's evaluation more than once); kNoOutput until then.
    static constexpr int kNoOutput = -0x7FFFFFFF;
    int output[kColours] = {kNoOutput, kNoOutput, kNoOutput};

    /// From scratch for pos.
    void refresh(const Network& net, const Position& pos) {
        const int players = pos.players();
        std::array<int, kMaxActive> f{};
        for (int p = 0; p < players; ++p) {
            std::copy(net.ft_bias.begin(), net.ft_bias.end(), v[p]);
            material[p][0] = material[p][1] = material[p][2] = 0;
            const int n = active_features(pos, Colour(p), f);
            for (int k = 0; k < n; ++k) add(net, p, f[std::size_t(k)]);
        }
        key = pos.key();
        output[0] = output[1] = output[2] = kNoOutput;
    }

    /// From `parent` (computed for the state `before`) to the state `after` (one move
    /// later; pos is the game they belong to, for its number of players). Returns false and
    /// changes nothing when more than 8 cells changed (an army changing hands): the caller
    /// refreshes instead.
    [[nodiscard]] bool update(const Network& net, const Accumulator& parent,
                              const Position::State& before, const Position::State& after,
                              const Position& pos) {
        Bitboard changed = changed_cells(before, after);
        for (int c = 0; c < kColours; ++c)
            if (before.heart[c] != after.heart[c]) {
                if (before.heart[c] != NO_CELL) changed |= bit(before.heart[c]);
                if (after.heart[c] != NO_CELL) changed |= bit(after.heart[c]);
            }
        if (popcount(changed) > 8) return false;
        const int players = pos.players();
        for (int p = 0; p < players; ++p) {
            std::copy(parent.v[p], parent.v[p] + net.ft, v[p]);
            std::copy(parent.material[p], parent.material[p] + kSlots, material[p]);
        }
        auto owner = [](const Position::State& s, Cell sq) {
            for (int c = 0; c < kColours; ++c)
                if (s.heart[c] == sq) return Colour(c);
            return NO_COLOUR;
        };
        while (changed) {
            const Cell sq = pop_lsb(changed);
            for (int p = 0; p < players; ++p) {
                int f[2];
                int n =
                    cell_features(before.board[sq], owner(before, sq), sq, Colour(p), players, f);
                for (int k = 0; k < n; ++k) sub(net, p, f[k]);
                n = cell_features(after.board[sq], owner(after, sq), sq, Colour(p), players, f);
                for (int k = 0; k < n; ++k) add(net, p, f[k]);
            }
        }
        key = after.key;
        output[0] = output[1] = output[2] = kNoOutput;
        return true;
    }

    /// The cells whose man differs between two states (sixteen cells a compare where SSE2
    /// is there).
    static Bitboard changed_cells(const Position::State& before, const Position::State& after) {
        Bitboard changed = 0;
        int sq = 0;
#if defined(__SSE2__)
        for (; sq + 16 <= kCells; sq += 16) {
            const __m128i a =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(&before.board[std::size_t(sq)]));
            const __m128i b =
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(&after.board[std::size_t(sq)]));
            const unsigned same = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)));
            changed |= Bitboard(~same & 0xFFFFu) << sq;
        }
#endif
        for (; sq < kCells; ++sq)
            if (before.board[std::size_t(sq)] != after.board[std::size_t(sq)])
                changed |= bit(Cell(sq));
        return changed;
    }

    /// Adds (sub: removes) feature f to perspective p: its row and its material weight.
    void add(const Network& net, int p, int f) {
        const std::int16_t* w = net.row(f);
        std::int16_t* acc = v[p];
        for (int i = 0; i < net.ft; ++i) acc[i] = std::int16_t(acc[i] + w[i]);
        material[p][f / (kKinds * kCells)] += net.psqt[std::size_t(f)];
    }
    void sub(const Network& net, int p, int f) {
        const std::int16_t* w = net.row(f);
        std::int16_t* acc = v[p];
        for (int i = 0; i < net.ft; ++i) acc[i] = std::int16_t(acc[i] - w[i]);
        material[p][f / (kKinds * kCells)] -= net.psqt[std::size_t(f)];
    }
};

/// Colour p's standing in centi-pawns by the network, from the accumulator of pos. A net of
/// layer stacks (network.h, version 3) takes the stack of the mover's slot seen from p.
inline int evaluate(const Network& net, const Accumulator& acc, const Position& pos, Colour p) {
    const int players = pos.players();
    auto slot = [&](int k) -> const std::int16_t* {
        if (k >= players) return nullptr;
        const Colour c = players == 2 ? Colour(1 - p) : Colour((p + k) % kColours);
        return pos.is_in(c) ? acc.v[c] : nullptr;
    };
    // The material term: own slot minus the mean of the other slots still in (evaluate.h).
    std::int32_t others = 0;
    int in = 0;
    for (int k = 1; k < players; ++k)
        if (slot(k)) {
            others += acc.material[p][k];
            ++in;
        }
    const std::int32_t material = acc.material[p][0] - (in ? others / in : 0);
    const int bucket = net.buckets > 1 ? slot_of(pos.to_move(), p, players) : 0;
    return net.propagate(acc.v[p], slot(1), players == 3 ? slot(2) : nullptr, material, bucket);
}

}  // namespace klinzha::nnue
