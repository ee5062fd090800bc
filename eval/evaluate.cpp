// eval/evaluate.cpp: terms and weights of the evaluation (see evaluate.h).
#include "evaluate.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <memory>
#include <sstream>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "nnue/accumulator.h"

namespace klinzha::eval {
namespace {

enum Term { Material, Mobility, ShutIn, HeartSafety, Walls, Pressure, Hunt, kTerms };
const char* kTermName[kTerms] = {"material", "mobility", "shut-in", "heart safety",
                                 "walls",    "pressure", "hunt"};

// The hunt (issue 28: games drawn by repetition or the move count while one player led by
// thousands of centi-pawns, its men never going near the heart it could not yet reach): a
// player whose material exceeds an opponent's by kHuntLead or more gains kHuntCp for each
// step each of its men (walls aside) stands closer than kHuntReach steps to that opponent's
// heart, so the search walks its men toward the heart it must take, as a chess engine's
// mop-up term brings its king to the lone king. Not tuned: set by matches (docs/search.md).
constexpr int kHuntLead = 700;  // centi-pawns of material
constexpr int kHuntReach = 12;  // steps
constexpr int kHuntCp = 4;      // centi-pawns a step a man

/// The hunt term of colour c (centi-pawns), given every colour's material (material()
/// under the tuned weights, kWeights; colours out ignored).
int hunt(const Position& pos, Colour c, const std::array<int, kColours>& mat) {
    if (pos.phase() != Phase::Play) return 0;
    const Bitboard men = pos.pieces(c) & ~pos.pieces(c, WALL);
    int v = 0;
    for (int o = 0; o < pos.players(); ++o) {
        const Cell h = pos.heart(Colour(o));
        if (o == c || !pos.is_in(Colour(o)) || h == NO_CELL) continue;
        if (mat[c] - mat[o] < kHuntLead) continue;
        for (Bitboard b = men; b;)
            v += kHuntCp * std::max(0, kHuntReach - geo::distance(pop_lsb(b), h));
    }
    return v;
}

using Terms = std::array<int, kTerms>;

/// The game phase, 256 = every set complete, 0 = only walls left: the share of the
/// non-wall material still on the board.
int game_phase(const Position& pos) {
    // In the setup phases the sets are not complete yet; weigh them as a middle game.
    if (pos.phase() != Phase::Play) return 256;
    constexpr int kFullSet = [] {
        int v = 0;
        for (int pt = 0; pt < kPieceTypes; ++pt)
            if (pt != WALL) v += kPieceValue[pt] * kSetCount[pt];
        return v;
    }();
    int now = 0;
    for (int pt = 0; pt < kPieceTypes; ++pt) {
        if (pt == WALL) continue;
        Bitboard all = 0;  // colours never share a cell: one popcount per type
        for (int c = 0; c < kColours; ++c) all |= pos.pieces(Colour(c), PieceType(pt));
        now += kPieceValue[pt] * popcount(all);
    }
    return std::clamp(now * 256 / (kFullSet * pos.players()), 0, 256);
}

int taper(int mg, int eg, int phase) {
    return (mg * phase + eg * (256 - phase)) / 256;
}

Terms terms_for(const Position& pos, Colour c, const std::array<Reach, kColours>& reach,
                const std::array<int, kColours>& mat, const std::array<int, kColours>& lead,
                int phase, const WeightTable& w) {
    Terms t{};
    t[Material] = mat[c];
    const Reach& r = reach[c];
    t[Mobility] = taper(w[MOBILITY_MG], w[MOBILITY_EG], phase) * r.moves;
    Bitboard movers = pos.pieces(c) & ~pos.pieces(c, WALL);
    if (pos.phase() == Phase::Play) t[ShutIn] = -w[SHUT_IN] * popcount(movers & ~r.mobile);
    t[Pressure] = taper(w[PRESSURE_MG], w[PRESSURE_EG], phase) * popcount(r.targets);
    t[Hunt] = hunt(pos, c, lead);

    const Cell h = pos.heart(c);
    if (h != NO_CELL) {
        int s = 0;
        const Bitboard near3 = geo::ball(h, 3);
        for (int o = 0; o < kColours; ++o) {
            if (o == c || !pos.is_in(Colour(o))) continue;
            s -= w[HEART_ATTACKER] * reach[o].heart_attackers[c];
            s -= w[ENEMY_NEAR_HEART] *
                 popcount(pos.pieces(Colour(o)) & ~pos.pieces(Colour(o), WALL) & near3);
        }
        const Bitboard carriers = pos.carriers(c);  // Kinta: the wall too (SPEC 26)
        const Bitboard near2 = geo::ball(h, 2);
        s += taper(w[CARRIER_NEAR_MG], w[CARRIER_NEAR_EG], phase) *
             popcount(carriers & near2 & ~bit(h));
        s += test(carriers, h) ? w[HEART_CARRIED] : -w[HEART_ALONE];
        t[HeartSafety] = s;
        t[Walls] = w[ZONE_SHIELD] * popcount(pos.zones(c) & near2);
    }
    return t;
}

/// Every colour's material() under weights w (centi-pawns; 0 for a colour out).
std::array<int, kColours> materials(const Position& pos, const WeightTable& w = kWeights) {
    std::array<int, kColours> mat{};
    for (int c = 0; c < kColours; ++c)
        if (pos.is_in(Colour(c))) mat[c] = material(pos, Colour(c), w);
    return mat;
}

/// Every colour's terms under weights w. The hunt's lead is measured in the material of the
/// tuned table (kWeights) whatever w is, so that no weight scales the hunt: klinzha-tune fit
/// counts it in each sample's constant, with the heart points.
std::array<Terms, kColours> all_terms(const Position& pos,
                                      std::array<Reach, kColours>* reach_out = nullptr,
                                      const WeightTable& w = kWeights) {
    std::array<Reach, kColours> local{};
    auto& reach = reach_out ? *reach_out : local;
    for (int c = 0; c < kColours; ++c)
        if (pos.is_in(Colour(c))) reach[c] = reach_of(pos, Colour(c));
    const std::array<int, kColours> mat = materials(pos, w);
    const std::array<int, kColours> lead = &w == &kWeights ? mat : materials(pos, kWeights);
    std::array<Terms, kColours> terms{};
    const int phase = game_phase(pos);
    for (int c = 0; c < kColours; ++c)
        if (pos.is_in(Colour(c))) terms[c] = terms_for(pos, Colour(c), reach, mat, lead, phase, w);
    return terms;
}

int sum(const Terms& t) {
    int s = 0;
    for (int v : t) s += v;
    return s;
}

}  // namespace

namespace {

/// us against the mean of the other colours still in, the hearts taken (RH 11.1) included.
int combine(const Position& pos, Colour us, const std::array<std::int32_t, kColours>& total) {
    return against_others(pos, us, total) + heart_points(pos, us);
}

std::array<std::int32_t, kColours> totals(const Position& pos, std::array<Reach, kColours>* reach,
                                          const WeightTable& w = kWeights) {
    const auto terms = all_terms(pos, reach, w);
    std::array<std::int32_t, kColours> t{};
    for (int c = 0; c < kColours; ++c) t[c] = sum(terms[c]);
    return t;
}

}  // namespace

int material(const Position& pos, Colour c, const WeightTable& w) {
    int m = 0;
    for (int pt = 0; pt < kPieceTypes; ++pt)
        m += w[W_QUEEN + pt] * popcount(pos.pieces(c, PieceType(pt)));
    if (pos.kinta()) {  // SPEC 26: a damaged warrior is worth less (kKintaFloor at strength 0)
        Bitboard men = pos.pieces(c);
        while (men) {
            const Cell sq = pop_lsb(men);
            const PieceType pt = man_type(pos.man_on(sq));
            const int initial = kInitialStrength[pt], s = pos.strength(sq);
            if (s < initial)
                m -= w[W_QUEEN + int(pt)] * (100 - kKintaFloor) * (initial - s) / (100 * initial);
        }
    }
    return m;
}

int material_for_mover(const Position& pos, Colour root) {
    if (pos.rules().reflective) return 0;
    const int v = combine(pos, root, materials(pos));
    return pos.to_move() == root ? v : -v;
}

EvalCache::EvalCache()
    : memory_(allocate_large(kSize * sizeof(Entry))), table_(static_cast<Entry*>(memory_.get())) {
    std::uninitialized_value_construct_n(table_, kSize);
}

void EvalCache::clear() {
    std::fill(table_, table_ + kSize, Entry{});
}

namespace {
std::atomic<const nnue::Network*> g_network{nullptr};        // two-player games
std::atomic<const nnue::Network*> g_network_three{nullptr};  // three-player games
}  // namespace

const nnue::Network* network(int players) {
    return (players == 3 ? g_network_three : g_network).load(std::memory_order_relaxed);
}

void set_network(const nnue::Network* net, bool in_three_player_games) {
    set_networks(net, in_three_player_games ? net : nullptr);
}

void set_networks(const nnue::Network* two, const nnue::Network* three) {
    g_network_three.store(three, std::memory_order_relaxed);
    g_network.store(two, std::memory_order_relaxed);
}

bool nnue_applies(const Position& pos) {
    return network(pos.players()) && pos.phase() == Phase::Play && !pos.rules().kinta &&
           !pos.rules().reflective && !pos.rules().blind && !pos.hidden();
}

int nnue_evaluate(const Position& pos, Colour c) {
    const nnue::Network& net = *network(pos.players());
    nnue::Accumulator acc;
    acc.refresh(net, pos);
    return nnue::evaluate(net, acc, pos, c);
}

int network_value(const Position& pos, Colour us) {
    return nnue_evaluate(pos, us) + beside_network(pos, us);
}

int against_others(const Position& pos, Colour us, const std::array<int, kColours>& v) {
    int others = 0, n = 0;
    for (int c = 0; c < kColours; ++c)
        if (c != us && pos.is_in(Colour(c))) {
            others += v[c];
            ++n;
        }
    return n ? v[us] - others / n : v[us];
}

int heart_points(const Position& pos, Colour us) {
    if (pos.players() != 3) return 0;
    std::array<int, kColours> points{};
    for (int c = 0; c < kColours; ++c) points[c] = kHeartPoint * pos.hearts_taken(Colour(c));
    return against_others(pos, us, points);
}

int beside_network(const Position& pos, Colour us) {
    int v = heart_points(pos, us);
    if (pos.players() != 3) return v;
    const std::array<int, kColours> mat = materials(pos);
    std::array<int, kColours> h{};
    for (int c = 0; c < kColours; ++c)
        if (pos.is_in(Colour(c))) h[c] = hunt(pos, Colour(c), mat);
    return v + against_others(pos, us, h);
}

int evaluate(const Position& pos, Colour us, std::array<Reach, kColours>* reach) {
    // Reflective (SPEC 21): one army, and both players always have the same moves, so no
    // static term favours either; the search decides by heart captures and lost positions.
    if (pos.rules().reflective) return 0;
    if (!reach && nnue_applies(pos)) return network_value(pos, us);
    return combine(pos, us, totals(pos, reach));
}

int evaluate_with(const Position& pos, Colour us, const WeightTable& w) {
    if (pos.rules().reflective) return 0;
    return combine(pos, us, totals(pos, nullptr, w));
}

int evaluate(const Position& pos, Colour us, EvalCache& cache) {
    if (pos.rules().reflective) return 0;
    if (nnue_applies(pos)) return network_value(pos, us);
    auto& e = cache.slot(pos.key());
    if (!e.valid || e.key != pos.key()) {
        e.total = totals(pos, nullptr);
        e.key = pos.key();
        e.valid = 1;
    }
    return combine(pos, us, e.total);
}

int evaluate_for_mover(const Position& pos, Colour root) {
    int v = evaluate(pos, root);
    return pos.to_move() == root ? v : -v;
}

int evaluate_for_mover(const Position& pos, Colour root, EvalCache& cache) {
    int v = evaluate(pos, root, cache);
    return pos.to_move() == root ? v : -v;
}

std::string trace(const Position& pos) {
    auto terms = all_terms(pos);
    std::ostringstream o;
    char buf[128];
    std::snprintf(buf, sizeof buf, "%-14s %8s %8s %8s", "term", "green", "blue", "black");
    o << buf << '\n';
    auto cell = [&](int c, int v) {
        return pos.is_in(Colour(c)) ? std::to_string(v) : std::string("-");
    };
    for (int t = 0; t < kTerms; ++t) {
        std::snprintf(buf, sizeof buf, "%-14s %8s %8s %8s", kTermName[t],
                      cell(0, terms[0][t]).c_str(), cell(1, terms[1][t]).c_str(),
                      cell(2, terms[2][t]).c_str());
        o << buf << '\n';
    }
    std::snprintf(buf, sizeof buf, "%-14s %8s %8s %8s", "total", cell(0, sum(terms[0])).c_str(),
                  cell(1, sum(terms[1])).c_str(), cell(2, sum(terms[2])).c_str());
    o << buf << '\n';
    o << "Game phase: " << game_phase(pos) << "/256 (256 = full sets, 0 = bare board)\n";
    o << "Classical evaluation for the player to move (" << kColourChar[pos.to_move()]
      << "): " << combine(pos, pos.to_move(), totals(pos, nullptr)) << " cp";
    if (nnue_applies(pos)) {
        o << "\nNNUE standing:";
        for (int c = 0; c < pos.players(); ++c)
            o << ' ' << kColourChar[c] << ' '
              << (pos.is_in(Colour(c)) ? std::to_string(nnue_evaluate(pos, Colour(c))) + " cp"
                                       : std::string("out"));
        o << "\nEvaluation for the player to move (NNUE): " << network_value(pos, pos.to_move())
          << " cp (the network, the heart points, in three players the hunt)";
    } else {
        o << "\nEvaluation for the player to move: " << evaluate(pos, pos.to_move()) << " cp"
          << (network() ? " (the network does not apply here: classical)" : "");
    }
    return o.str();
}

}  // namespace klinzha::eval
