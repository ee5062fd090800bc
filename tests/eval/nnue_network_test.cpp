// tests/eval/nnue_network_test.cpp: the `.nnue` file (eval/nnue/network.h): version 1 (net1's
// 128 x 32, no material term), version 2 (any width 8..256 in steps of 8, hidden 1..64, the
// material term) and version 3 (layer stacks: 1 or 3) read; a wrong magic, version, shape,
// number of stacks or size is refused with a message.
// The bytes are written here from network.h's layout, not by the code under test.
// propagate() is checked against the layers written out here from network.h's formula.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "eval/nnue/network.h"

using namespace klinzha;

namespace {

void put32(std::vector<std::uint8_t>& b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
}

/// A file of `version` with ft x l1 (and `buckets` layer stacks, version 3), every weight w
/// (int16 and int32 little-endian, int8).
std::vector<std::uint8_t> file(std::uint32_t version, std::uint32_t ft, std::uint32_t l1,
                               std::int8_t w, std::uint32_t buckets = 1) {
    std::vector<std::uint8_t> b = {'K', 'Z', 'N', 'N'};
    put32(b, version);
    put32(b, 1944);
    put32(b, ft);
    put32(b, l1);
    put32(b, 300);  // cp_scale
    if (version >= 3) put32(b, buckets);
    auto i16 = [&](std::size_t n) {
        for (std::size_t k = 0; k < n; ++k)
            b.push_back(std::uint8_t(w)), b.push_back(w < 0 ? 0xFF : 0);
    };
    auto i32 = [&](std::size_t n) {
        for (std::size_t k = 0; k < n; ++k) put32(b, std::uint32_t(std::int32_t(w)));
    };
    auto i8 = [&](std::size_t n) { b.insert(b.end(), n, std::uint8_t(w)); };
    i16(ft);                      // ft_bias
    i16(1944 * ft);               // ft_weight
    if (version >= 2) i32(1944);  // psqt
    i32(buckets * l1);            // l1_bias
    i8(buckets * l1 * 3 * ft);    // l1_weight
    i32(buckets);                 // out_bias
    i8(buckets * l1);             // out_weight
    return b;
}

std::string error_of(const std::vector<std::uint8_t>& b) {
    auto r = nnue::Network::read(b.data(), b.size());
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

}  // namespace

TEST_CASE("nnue: network files of version 1 and 2 read, with their widths and material term") {
    const auto v1 = file(1, 128, 32, 3);
    CHECK(v1.size() == 510396);  // net1's file
    auto r1 = nnue::Network::read(v1.data(), v1.size());
    REQUIRE(std::holds_alternative<std::unique_ptr<nnue::Network>>(r1));
    const auto& n1 = *std::get<std::unique_ptr<nnue::Network>>(r1);
    CHECK(n1.ft == 128);
    CHECK(n1.l1 == 32);
    CHECK(n1.cp_scale == 300);
    CHECK(n1.psqt[0] == 0);  // version 1: no material term
    CHECK(n1.out_weight[31] == 3);
    for (const auto& shape : {std::pair{16, 8}, std::pair{32, 32}, std::pair{256, 64}}) {
        const int ft = shape.first, l1 = shape.second;  // (clang: no capture of a binding)
        CAPTURE(ft);
        const auto v2 = file(2, std::uint32_t(ft), std::uint32_t(l1), -2);
        CHECK(v2.size() == nnue::Network::file_bytes(2, ft, l1));
        auto r2 = nnue::Network::read(v2.data(), v2.size());
        REQUIRE(std::holds_alternative<std::unique_ptr<nnue::Network>>(r2));
        const auto& n2 = *std::get<std::unique_ptr<nnue::Network>>(r2);
        CHECK(n2.ft == ft);
        CHECK(n2.l1 == l1);
        CHECK(n2.psqt[1943] == -2);
        CHECK(n2.row(1943)[ft - 1] == -2);
        CHECK(n2.out_weight[std::size_t(l1 - 1)] == -2);
    }
}

TEST_CASE("nnue: version 3 files read with one or three layer stacks") {
    for (const std::uint32_t buckets : {1u, 3u}) {
        CAPTURE(buckets);
        const auto v3 = file(3, 32, 32, -3, buckets);
        CHECK(v3.size() == nnue::Network::file_bytes(3, 32, 32, int(buckets)));
        // One stack: version 2's bytes and four more in the header.
        if (buckets == 1) CHECK(v3.size() == file(2, 32, 32, -3).size() + 4);
        auto r = nnue::Network::read(v3.data(), v3.size());
        REQUIRE(std::holds_alternative<std::unique_ptr<nnue::Network>>(r));
        const auto& n = *std::get<std::unique_ptr<nnue::Network>>(r);
        CHECK(n.buckets == int(buckets));
        CHECK(n.out_bias.size() == buckets);
        CHECK(n.out_bias[buckets - 1] == -3);
        CHECK(n.out_weight.size() == buckets * 32);
        CHECK(n.l1_weight.size() == buckets * 32 * 3 * 32);
        CHECK(n.psqt[1943] == -3);
    }
}

TEST_CASE("nnue: a network file of a wrong magic, version, shape or size is refused, saying why") {
    auto v2 = file(2, 32, 16, 1);
    CHECK(error_of(v2).empty());
    auto bad = v2;
    bad[0] = 'X';
    CHECK(error_of(bad).find("not a klinzha network") != std::string::npos);
    CHECK(error_of(file(4, 32, 16, 1)).find("version 4") != std::string::npos);
    CHECK(error_of(file(3, 32, 16, 1, 2)).find("2 layer stacks") != std::string::npos);
    CHECK(error_of(file(3, 32, 16, 1, 0)).find("0 layer stacks") != std::string::npos);
    CHECK(error_of(file(2, 20, 16, 1)).find("multiple of 8") != std::string::npos);
    CHECK(error_of(file(2, 264, 16, 1)).find("8..256") != std::string::npos);
    CHECK(error_of(file(2, 32, 65, 1)).find("1..64") != std::string::npos);
    bad = v2;
    bad.pop_back();
    CHECK(error_of(bad).find("bytes") != std::string::npos);
    const std::vector<std::uint8_t> tiny = {'K', 'Z', 'N', 'N', 2, 0};
    CHECK(error_of(tiny).find("too short") != std::string::npos);
}

TEST_CASE("nnue: propagate of every shape equals the layers as network.h writes them") {
    // The shapes with loops of constant length (16 x 32, 32 x 32) and others at run time
    // (8 x 1, 24 x 5, 256 x 64), with random weights and accumulators beyond the clip range,
    // one, two and three slots in use, each of three layer stacks: the result against the
    // formula of network.h's header, computed here in 64-bit arithmetic.
    std::mt19937 rng(7);
    auto rnd = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const std::pair<int, int> shapes[] = {{16, 32}, {32, 32}, {8, 1}, {24, 5}, {256, 64}};
    for (const auto& shape : shapes) {
        const int ft = shape.first, l1 = shape.second;
        CAPTURE(ft);
        CAPTURE(l1);
        nnue::Network n(ft, l1, 3);
        n.cp_scale = rnd(50, 400);
        for (auto& b : n.l1_bias) b = rnd(-3000, 3000);
        for (auto& w : n.l1_weight) w = std::int8_t(rnd(-127, 127));
        for (auto& b : n.out_bias) b = rnd(-5000, 5000);
        for (auto& w : n.out_weight) w = std::int8_t(rnd(-127, 127));
        for (int used = 1; used <= 3; ++used)
            for (int k = 0; k < 3; ++k) {
                std::vector<std::vector<std::int16_t>> acc(3, std::vector<std::int16_t>(ft));
                for (auto& a : acc)
                    for (auto& v : a) v = std::int16_t(rnd(-60, 200));
                const std::int32_t material = rnd(-100000, 100000);
                std::int64_t out = n.out_bias[std::size_t(k)];
                for (int j = 0; j < l1; ++j) {
                    const int unit = k * l1 + j;  // stack k's unit j
                    std::int64_t sum = n.l1_bias[std::size_t(unit)];
                    for (int s = 0; s < used; ++s)
                        for (int i = 0; i < ft; ++i) {
                            const int x = std::min(127, std::max(0, int(acc[s][std::size_t(i)])));
                            sum += x * n.l1_weight[std::size_t(unit * 3 * ft + s * ft + i)];
                        }
                    // Rounded >> 6 (an arithmetic shift: floor of the quotient), clipped to 0..127.
                    const std::int64_t h = std::min<std::int64_t>(
                        127,
                        std::max<std::int64_t>(0, (sum + 32 - ((sum + 32) % 64 + 64) % 64) / 64));
                    out += h * n.out_weight[std::size_t(unit)];
                }
                const int expected = int((out + material) * n.cp_scale / (127 * 64));
                CHECK(n.propagate(acc[0].data(), used >= 2 ? acc[1].data() : nullptr,
                                  used == 3 ? acc[2].data() : nullptr, material, k) == expected);
            }
    }
}
