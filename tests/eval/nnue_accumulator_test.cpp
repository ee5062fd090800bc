// tests/eval/nnue_accumulator_test.cpp: the network's accumulators kept move by move
// (eval/nnue/accumulator.h) equal those computed from scratch, over random games of two and
// three players (captures, hearts carried and taken, armies changing hands), for one ply and
// for chains of plies as the search walks them; and the network's output agrees.
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "engine/movegen.h"
#include "eval/nnue/accumulator.h"

using namespace klinzha;

namespace {

std::unique_ptr<nnue::Network> random_network(std::uint64_t seed, int ft) {
    auto net = std::make_unique<nnue::Network>(ft, 16);
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> small(-40, 40), byte(-60, 60);
    for (auto& b : net->ft_bias) b = std::int16_t(small(rng));
    for (auto& w : net->ft_weight) w = std::int16_t(small(rng));
    for (auto& w : net->psqt) w = small(rng) * 50;
    for (auto& b : net->l1_bias) b = small(rng) * 64;
    for (auto& w : net->l1_weight) w = std::int8_t(byte(rng));
    net->out_bias[0] = small(rng);
    for (auto& w : net->out_weight) w = std::int8_t(byte(rng));
    net->cp_scale = 400;
    return net;
}

bool same(const nnue::Accumulator& a, const nnue::Accumulator& b, const Position& pos, int ft) {
    for (int p = 0; p < pos.players(); ++p)
        if (std::memcmp(a.v[p], b.v[p], std::size_t(ft) * 2) != 0 ||
            std::memcmp(a.material[p], b.material[p], sizeof a.material[p]) != 0)
            return false;
    return a.key == b.key;
}

}  // namespace

TEST_CASE("nnue: accumulators updated move by move equal a refresh, one ply and chains") {
    for (int ft : {16, 128}) {
        CAPTURE(ft);
        const auto net = random_network(7, ft);
        std::mt19937_64 rng(11);
        int compared = 0, chains = 0;
        for (int players : {2, 3}) {
            for (int game = 0; game < 30; ++game) {
                Position pos(players, Rules{});
                std::vector<nnue::Accumulator> acc;   // per ply of play, from its parent
                std::vector<Position::State> states;  // the state each of acc is for
                MoveList l;
                for (int ply = 0; ply < 400; ++ply) {
                    if (pos.phase() == Phase::Play && pos.game_over()) break;
                    generate_legal(pos, l);
                    if (l.size == 0) break;
                    const bool was_play = pos.phase() == Phase::Play;
                    pos.do_move(l.moves[rng() % std::size_t(l.size)]);
                    if (pos.phase() != Phase::Play) continue;
                    nnue::Accumulator fresh;
                    fresh.refresh(*net, pos);
                    if (!was_play || acc.empty()) {
                        acc.assign(1, fresh);
                        states.assign(1, pos.state());
                        continue;
                    }
                    nnue::Accumulator next;
                    if (next.update(*net, acc.back(), pos.state_before(), pos.state(), pos)) {
                        CAPTURE(pos.fen());
                        REQUIRE(same(next, fresh, pos, ft));
                        for (int p = 0; p < players; ++p)
                            if (pos.is_in(Colour(p)))
                                CHECK(nnue::evaluate(*net, next, pos, Colour(p)) ==
                                      nnue::evaluate(*net, fresh, pos, Colour(p)));
                        ++compared;
                    } else {
                        next = fresh;  // an army changed hands: refreshed, as the search does
                    }
                    // A chain: from three plies back, one update a ply (update composes).
                    if (acc.size() >= 3) {
                        const std::size_t from = acc.size() - 3;
                        nnue::Accumulator chain = acc[from];
                        bool ok = true;
                        for (std::size_t k = from; ok && k < acc.size(); ++k) {
                            nnue::Accumulator step;
                            const Position::State& after =
                                k + 1 < states.size() ? states[k + 1] : pos.state();
                            ok = step.update(*net, chain, states[k], after, pos);
                            chain = step;
                        }
                        if (ok) {
                            CHECK(same(chain, fresh, pos, ft));
                            ++chains;
                        }
                    }
                    acc.push_back(next);
                    states.push_back(pos.state());
                }
            }
        }
        CHECK(compared > 1000);
        CHECK(chains > 500);
    }
}
