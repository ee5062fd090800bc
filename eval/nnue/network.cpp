// eval/nnue/network.cpp: see network.h.
#include "network.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

namespace klinzha::nnue {

static_assert(Network::kFileBytes == 510396, "the .nnue file's size (network.h)");

std::variant<std::unique_ptr<Network>, std::string> Network::read(const std::uint8_t* data,
                                                                  std::size_t size) {
    if (size < 8 || std::memcmp(data, "KZNN", 4) != 0)
        return std::string("not a klinzha network (no KZNN at its start)");
    std::size_t at = 4;
    auto u32 = [&] {
        std::uint32_t v;
        std::memcpy(&v, data + at, 4);
        at += 4;
        return v;
    };
    const std::uint32_t version = u32();
    if (version != kVersion)
        return "network version " + std::to_string(version) + ", this build reads " +
               std::to_string(kVersion);
    if (size != kFileBytes)
        return "a network file of " + std::to_string(size) + " bytes; this shape needs " +
               std::to_string(kFileBytes);
    const std::uint32_t in = u32(), ft = u32(), l1 = u32();
    if (in != std::uint32_t(kInputs) || ft != std::uint32_t(kFt) || l1 != std::uint32_t(kL1))
        return "a network of shape " + std::to_string(in) + "x" + std::to_string(ft) + "x" +
               std::to_string(l1) + "; this build reads " + std::to_string(kInputs) + "x" +
               std::to_string(kFt) + "x" + std::to_string(kL1);
    auto net = std::make_unique<Network>();
    auto take = [&](void* dst, std::size_t n) {
        std::memcpy(dst, data + at, n);
        at += n;
    };
    take(&net->cp_scale, 4);
    take(net->ft_bias, sizeof net->ft_bias);
    take(net->ft_weight, sizeof net->ft_weight);
    take(net->l1_bias, sizeof net->l1_bias);
    take(net->l1_weight, sizeof net->l1_weight);
    take(&net->out_bias, 4);
    take(net->out_weight, sizeof net->out_weight);
    if (net->cp_scale <= 0 || net->cp_scale > 100000)
        return "cp_scale " + std::to_string(net->cp_scale) + " is out of range";
    return net;
}

std::variant<std::unique_ptr<Network>, std::string> Network::read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read '" + path + "'";
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
    auto r = read(bytes.data(), bytes.size());
    if (auto* e = std::get_if<std::string>(&r)) return "'" + path + "': " + *e;
    return r;
}

int Network::propagate(const std::int16_t* own, const std::int16_t* next,
                       const std::int16_t* after) const {
    // Clipped ReLU of the slots, as bytes 0..127 (written so the compiler vectorises it).
    alignas(64) std::uint8_t x[kL1In];
    const std::int16_t* slots[kSlots] = {own, next, after};
    for (int s = 0; s < kSlots; ++s) {
        std::uint8_t* dst = x + s * kFt;
        if (!slots[s]) {
            std::memset(dst, 0, kFt);
            continue;
        }
        for (int i = 0; i < kFt; ++i) dst[i] = std::uint8_t(std::clamp<int>(slots[s][i], 0, 127));
    }
    // Only the slots that hold something (two players: never the third): the rest is zero.
    const int used = after ? kL1In : next ? 2 * kFt : kFt;
    std::int32_t out = out_bias;
    for (int j = 0; j < kL1; ++j) {
        std::int32_t sum = 0;
        const std::int8_t* w = l1_weight[j];
        // int16 products summed in int32: the multiply-add pattern (pmaddwd) the compiler
        // vectorises.
        for (int i = 0; i < used; ++i) sum += std::int16_t(x[i]) * std::int16_t(w[i]);
        const int h = std::clamp((sum + l1_bias[j] + 32) >> 6, 0, 127);  // rounded
        out += h * out_weight[j];
    }
    return int(std::int64_t(out) * cp_scale / (127 * 64));
}

}  // namespace klinzha::nnue
