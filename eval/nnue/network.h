// eval/nnue/network.h: the network's layers, quantised, and the file that holds them.
//
//   input (features.h, 1944 per perspective, sparse)
//     -> feature transformer: 1944 x 128, int16, one accumulator per perspective (accumulator.h)
//     -> clipped ReLU to 0..127 of the three slots' accumulators [own, next, after next]
//        (two players: the third slot is zero; a player who is out: zero)   = 384 inputs
//     -> dense 384 -> 32, int8 weights (scale 64), int32 sums, rounded >> 6
//        ((sum + 32) >> 6: a truncating shift would bias every unit down by half a step),
//        clipped ReLU 0..127
//     -> dense 32 -> 1, int8 weights (scale 64): the perspective's standing;
//        centi-pawns = sum * cp_scale / (127 * 64)
//
// The float model of tools/nnue/train.py has the same shape: feature transformer weights and
// bias times 127, dense weights times 64, dense biases times 127 * 64 (clipped on training so
// they fit); its activations are clamp(x, 0, 1).
//
// File (`.nnue`, little-endian): "KZNN", u32 version (1), u32 inputs (1944), u32 ft (128), u32
// l1 (32), i32 cp_scale; then int16 ft_bias[128], int16 ft_weight[1944][128], int32
// l1_bias[32], int8 l1_weight[32][384], int32 out_bias, int8 out_weight[32]: 510,396 bytes.
// Source: the NNUE design of Stockfish (Nasu 2018), sized for this game (issue 20).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "features.h"

namespace klinzha::nnue {

inline constexpr int kFt = 128;
inline constexpr int kL1In = kSlots * kFt;
inline constexpr int kL1 = 32;
inline constexpr std::uint32_t kVersion = 1;

struct Network {
    std::int32_t cp_scale = 100;
    alignas(64) std::int16_t ft_bias[kFt];
    alignas(64) std::int16_t ft_weight[kInputs][kFt];
    alignas(64) std::int32_t l1_bias[kL1];
    alignas(64) std::int8_t l1_weight[kL1][kL1In];
    std::int32_t out_bias;
    alignas(64) std::int8_t out_weight[kL1];

    /// The size of a `.nnue` file of this shape, in bytes.
    static constexpr std::size_t kFileBytes =
        4 + 4 * 4 + 4 + 2 * kFt + 2 * kInputs * kFt + 4 * kL1 + kL1 * kL1In + 4 + kL1;

    /// Reads a network from the bytes of a `.nnue` file. Errors: a wrong magic, version,
    /// shape or size, with what was found.
    static std::variant<std::unique_ptr<Network>, std::string> read(const std::uint8_t* data,
                                                                    std::size_t size);
    /// Reads the file at `path` (errors: unreadable, or as read()).
    static std::variant<std::unique_ptr<Network>, std::string> read_file(const std::string& path);

    /// The output in centi-pawns from the three slots' accumulators (each kFt int16, or
    /// nullptr for a slot that is empty: no such colour, or out).
    int propagate(const std::int16_t* own, const std::int16_t* next,
                  const std::int16_t* after) const;
};

/// The network built into the executable (eval/nnue/default.nnue), or nullptr when the build
/// has none that reads.
const Network* default_network();

}  // namespace klinzha::nnue
