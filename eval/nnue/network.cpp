// eval/nnue/network.cpp: see network.h.
#include "network.h"

#include <algorithm>
#include <cstring>
#if defined(__SSSE3__)
#include <immintrin.h>
#endif
#include <fstream>
#include <iterator>

namespace klinzha::nnue {

Network::Network(int ft_width, int l1_width, int layer_stacks)
    : ft(ft_width),
      l1(l1_width),
      buckets(layer_stacks),
      ft_bias(std::size_t(ft_width)),
      ft_weight(std::size_t(kInputs) * std::size_t(ft_width)),
      psqt(std::size_t(kInputs)),
      l1_bias(std::size_t(layer_stacks * l1_width)),
      l1_weight(std::size_t(layer_stacks * l1_width) * std::size_t(kSlots * ft_width)),
      out_bias(std::size_t(layer_stacks)),
      out_weight(std::size_t(layer_stacks * l1_width)) {}

std::size_t Network::file_bytes(std::uint32_t version, int ft, int l1, int buckets) {
    const auto f = std::size_t(ft), h = std::size_t(l1), b = std::size_t(buckets);
    return 4 + 4 * 4 + 4 + (version >= 3 ? 4 : 0) + 2 * f + 2 * std::size_t(kInputs) * f +
           (version >= 2 ? 4 * std::size_t(kInputs) : 0) + b * (4 * h + h * kSlots * f + 4 + h);
}

std::variant<std::unique_ptr<Network>, std::string> Network::read(const std::uint8_t* data,
                                                                  std::size_t size) {
    if (size < 4 || std::memcmp(data, "KZNN", 4) != 0)
        return std::string("not a klinzha network (no KZNN at its start)");
    if (size < 24)
        return "a network file of " + std::to_string(size) + " bytes: too short for its header";
    std::size_t at = 4;
    auto u32 = [&] {
        std::uint32_t v;
        std::memcpy(&v, data + at, 4);
        at += 4;
        return v;
    };
    const std::uint32_t version = u32();
    if (version < 1 || version > kVersion)
        return "network version " + std::to_string(version) + ", this build reads 1 to " +
               std::to_string(kVersion);
    const std::uint32_t in = u32(), ft = u32(), l1 = u32();
    if (in != std::uint32_t(kInputs) || ft < 8 || ft > std::uint32_t(kMaxFt) || ft % 8 != 0 ||
        l1 < 1 || l1 > std::uint32_t(kMaxL1))
        return "a network of shape " + std::to_string(in) + "x" + std::to_string(ft) + "x" +
               std::to_string(l1) + "; this build reads " + std::to_string(kInputs) +
               " inputs, a feature transformer of 8.." + std::to_string(kMaxFt) +
               " (a multiple of 8) and a hidden layer of 1.." + std::to_string(kMaxL1);
    std::int32_t cp_scale;
    std::memcpy(&cp_scale, data + at, 4);
    at += 4;
    std::uint32_t buckets = 1;
    if (version >= 3) {
        if (size < 28)
            return "a network file of " + std::to_string(size) + " bytes: too short for its header";
        buckets = u32();
        if (buckets != 1 && buckets != std::uint32_t(kMaxBuckets))
            return std::to_string(buckets) + " layer stacks; this build reads 1 or " +
                   std::to_string(kMaxBuckets);
    }
    const std::size_t want = file_bytes(version, int(ft), int(l1), int(buckets));
    if (size != want)
        return "a network file of " + std::to_string(size) + " bytes; version " +
               std::to_string(version) + " of shape " + std::to_string(in) + "x" +
               std::to_string(ft) + "x" + std::to_string(l1) + " needs " + std::to_string(want);
    auto net = std::make_unique<Network>(int(ft), int(l1), int(buckets));
    auto take = [&](auto& vec) {
        const std::size_t n = vec.size() * sizeof vec[0];
        std::memcpy(vec.data(), data + at, n);
        at += n;
    };
    net->cp_scale = cp_scale;
    take(net->ft_bias);
    take(net->ft_weight);
    if (version >= 2) take(net->psqt);
    take(net->l1_bias);
    take(net->l1_weight);
    take(net->out_bias);
    take(net->out_weight);
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

namespace {

/// The clipped ReLU of the three slots (each `ft` int16, nullptr: zero) as bytes 0..127 into
/// x[3 ft] (written so the compiler vectorises it).
template <int FT>
inline void clip_slots(std::uint8_t* x, const std::int16_t* const (&slots)[kSlots], int ft_rt) {
    const int ft = FT ? FT : ft_rt;
    for (int s = 0; s < kSlots; ++s) {
        std::uint8_t* dst = x + s * ft;
        if (!slots[s]) {
            std::memset(dst, 0, std::size_t(ft));
            continue;
        }
        int i = 0;
#if defined(__SSSE3__)
        // Sixteen at a time: packus clamps int16 to 0..255, min to 127.
        const __m128i top = _mm_set1_epi8(127);
        for (; i + 16 <= ft; i += 16) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(slots[s] + i));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(slots[s] + i + 8));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i),
                             _mm_min_epu8(_mm_packus_epi16(a, b), top));
        }
#endif
        for (; i < ft; ++i) dst[i] = std::uint8_t(std::clamp<int>(slots[s][i], 0, 127));
    }
}

/// The dot product of `used` inputs x (0..127) with the int8 weights w, in int32.
inline std::int32_t dot(const std::uint8_t* x, const std::int8_t* w, int used) {
    std::int32_t sum = 0;
    int i = 0;
#if defined(__SSSE3__)
    // Sixteen at a time: pmaddubsw multiplies the unsigned bytes by the signed ones and adds
    // neighbouring pairs into int16, which cannot saturate here (|2 x 127 x 128| = 32,512 <
    // 32,767), then pmaddwd by ones adds pairs into int32: the scalar sum exactly.
    const __m128i ones = _mm_set1_epi16(1);
    __m128i acc = _mm_setzero_si128();
    for (; i + 16 <= used; i += 16) {
        const __m128i xv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i));
        const __m128i wv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + i));
        acc = _mm_add_epi32(acc, _mm_madd_epi16(_mm_maddubs_epi16(xv, wv), ones));
    }
    acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0x4E));
    acc = _mm_add_epi32(acc, _mm_shuffle_epi32(acc, 0xB1));
    sum = _mm_cvtsi128_si32(acc);
#endif
    for (; i < used; ++i) sum += std::int16_t(x[i]) * std::int16_t(w[i]);
    return sum;
}

/// The hidden layer and the output of layer stack `bucket`: for each of the l1 units the dot
/// product of the first `used` inputs x with its row of w (rows of `width`), rounded >> 6 and
/// clipped to 0..127, times its output weight. USED and L1 as template arguments (0: the
/// runtime values) let the compiler unroll the loops of a common shape.
template <int USED, int L1>
inline std::int32_t hidden_and_output(const Network& n, const std::uint8_t* x, int width,
                                      int used_rt, int bucket) {
    const int used = USED ? USED : used_rt;
    const int l1 = L1 ? L1 : n.l1;
    const std::size_t first = std::size_t(bucket) * std::size_t(l1);  // the stack's first unit
    std::int32_t out = n.out_bias[std::size_t(bucket)];
    for (int j = 0; j < l1; ++j) {
        const std::size_t unit = first + std::size_t(j);
        const std::int8_t* w = n.l1_weight.data() + unit * std::size_t(width);
        const std::int32_t sum = dot(x, w, used);
        const int h = std::clamp((sum + n.l1_bias[unit] + 32) >> 6, 0, 127);  // rounded
        out += h * n.out_weight[unit];
    }
    return out;
}

/// propagate() for a feature transformer of FT and a hidden layer of L1 (0: the network's
/// own widths, read at run time).
template <int FT, int L1>
std::int32_t propagate_shape(const Network& n, const std::int16_t* const (&slots)[kSlots],
                             int bucket) {
    alignas(64) std::uint8_t x[kSlots * kMaxFt];
    const int ft = FT ? FT : n.ft;
    clip_slots<FT>(x, slots, ft);
    // Only the slots that hold something (two players: never the third): the rest is zero.
    const int width = kSlots * ft;
    if (slots[2]) return hidden_and_output<3 * FT, L1>(n, x, width, width, bucket);
    if (slots[1]) return hidden_and_output<2 * FT, L1>(n, x, width, 2 * ft, bucket);
    return hidden_and_output<FT, L1>(n, x, width, ft, bucket);
}

}  // namespace

int Network::propagate(const std::int16_t* own, const std::int16_t* next, const std::int16_t* after,
                       std::int32_t material, int bucket) const {
    const std::int16_t* const slots[kSlots] = {own, next, after};
    // The shapes nets are trained in (docs/search.md) get loops of constant length.
    const std::int32_t out = ft == 16 && l1 == 32   ? propagate_shape<16, 32>(*this, slots, bucket)
                             : ft == 32 && l1 == 32 ? propagate_shape<32, 32>(*this, slots, bucket)
                                                    : propagate_shape<0, 0>(*this, slots, bucket);
    return int((std::int64_t(out) + material) * cp_scale / (127 * 64));
}

}  // namespace klinzha::nnue
