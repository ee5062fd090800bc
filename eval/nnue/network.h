// eval/nnue/network.h: the network's layers, quantised, and the file that holds them.
//
//   input (features.h, 1944 per perspective, sparse)
//     -> feature transformer: 1944 x ft (ft = 8..256, a multiple of 8, from the file), int16,
//        one accumulator per perspective (accumulator.h)
//     -> clipped ReLU to 0..127 of the three slots' accumulators [own, next, after next]
//        (two players: the third slot is zero; a player who is out: zero)   = 3 * ft inputs
//     -> dense 3 ft -> l1 (1..64), int8 weights (scale 64), int32 sums, rounded >> 6
//        ((sum + 32) >> 6: a truncating shift would bias every unit down by half a step),
//        clipped ReLU 0..127
//     -> dense l1 -> 1, int8 weights (scale 64)
//        (version 3: `buckets` stacks of these two dense layers, 1 or 3; the stack used is the
//        slot of the player to move seen from the perspective: 0 the perspective itself moves,
//        1 the player after it, 2 the one after that; so a three-player net knows whether the
//        player it evaluates for moves now or waits one or two plies; Stockfish's layer stacks)
//     -> plus the material term (version 2): one int32 weight per feature, summed per slot in
//        the own perspective's accumulator; own slot minus the mean of the other slots still
//        in the game (evaluate.h's standing). The trainer initialises it from the piece values
//        (Fairy-Stockfish's PSQT initialisation), so a fresh net starts at the material count.
//     = the perspective's standing; centi-pawns = sum * cp_scale / (127 * 64)
//
// The float model of tools/nnue/train.py has the same shape: feature transformer weights and
// bias times 127, dense weights times 64, dense biases and material weights times 127 * 64
// (clipped on training so they fit); its activations are clamp(x, 0, 1).
//
// File (`.nnue`, little-endian): "KZNN", u32 version (1, 2 or 3), u32 inputs (1944), u32 ft,
// u32 l1, i32 cp_scale, (version 3:) u32 buckets (1 or 3); then int16 ft_bias[ft], int16
// ft_weight[1944][ft], (version 2 and 3:) int32 psqt[1944], then int32 l1_bias[B][l1], int8
// l1_weight[B][l1][3 ft], int32 out_bias[B], int8 out_weight[B][l1] (B = buckets, 1 before
// version 3). Version 1 (128 x 32, no material term: net1) is 510,396 bytes and still read.
// Source: the NNUE design of Stockfish (Nasu 2018), sized for this game (issues 20, 27).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "features.h"

namespace klinzha::nnue {

/// The widest feature transformer and hidden layer a file may have.
inline constexpr int kMaxFt = 256;
inline constexpr int kMaxL1 = 64;
/// The newest file version; 1 and 2 are still read.
inline constexpr std::uint32_t kVersion = 3;
/// The most layer stacks (output buckets) a file may have.
inline constexpr int kMaxBuckets = 3;

struct Network {
    std::int32_t cp_scale = 100;
    int ft = 0;                           ///< feature transformer width per perspective
    int l1 = 0;                           ///< hidden layer width
    int buckets = 1;                      ///< layer stacks: 1, or 3 (by the mover's slot)
    std::vector<std::int16_t> ft_bias;    ///< [ft]
    std::vector<std::int16_t> ft_weight;  ///< [kInputs][ft]
    std::vector<std::int32_t> psqt;       ///< [kInputs], the material term (zero: version 1)
    std::vector<std::int32_t> l1_bias;    ///< [buckets][l1]
    std::vector<std::int8_t> l1_weight;   ///< [buckets][l1][3 ft]
    std::vector<std::int32_t> out_bias;   ///< [buckets]
    std::vector<std::int8_t> out_weight;  ///< [buckets][l1]

    /// A zero network of this shape (ft a multiple of 8 in 8..kMaxFt, l1 in 1..kMaxL1,
    /// buckets 1 or kMaxBuckets).
    Network(int ft_width, int l1_width, int layer_stacks = 1);

    /// The row of feature f in the feature transformer (ft int16).
    const std::int16_t* row(int f) const {
        return ft_weight.data() + std::size_t(f) * std::size_t(ft);
    }

    /// The size of a `.nnue` file of this version and shape, in bytes (buckets: version 3).
    static std::size_t file_bytes(std::uint32_t version, int ft, int l1, int buckets = 1);

    /// Reads a network from the bytes of a `.nnue` file. Errors: a wrong magic, version,
    /// shape or size, with what was found.
    static std::variant<std::unique_ptr<Network>, std::string> read(const std::uint8_t* data,
                                                                    std::size_t size);
    /// Reads the file at `path` (errors: unreadable, or as read()).
    static std::variant<std::unique_ptr<Network>, std::string> read_file(const std::string& path);

    /// The output in centi-pawns from the three slots' accumulators (each ft int16, or
    /// nullptr for a slot that is empty: no such colour, or out) and the material term
    /// (out units: 127 * 64 per cp_scale centi-pawns), through layer stack `bucket`
    /// (0..buckets-1).
    int propagate(const std::int16_t* own, const std::int16_t* next, const std::int16_t* after,
                  std::int32_t material, int bucket = 0) const;
};

/// The network built into the executable (eval/nnue/default.nnue), or nullptr when the build
/// has none that reads.
const Network* default_network();
/// The network built in for three-player games (eval/nnue/default3.nnue: trained on
/// three-player games alone, issue 27), or nullptr when the build has none that reads.
const Network* default_network_three();

}  // namespace klinzha::nnue
