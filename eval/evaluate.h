// eval/evaluate.h: the static evaluation of a position, in centi-pawns.
//
// Terms (weights in evaluate.cpp, all in one table): material, mobility, heart safety
// (attackers that reach the heart's cell, own carriers near it, a heart left alone), wall
// zones and what they shield, pieces shut in. Sources: SPEC 2-5; the Italian rules'
// tournament points (002, "Tournament") for the order of piece values.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/memory.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "nnue/network.h"

namespace klinzha::eval {

/// Score magnitudes. Heart captures are scored as mates: kMate - ply (SPEC 7).
inline constexpr int kMate = 30000;
inline constexpr int kMateBound = kMate - 1000;  ///< scores beyond this are mates
inline constexpr int kInfinite = 32000;

/// Piece values in centi-pawns, indexed by PieceType (Q R B N P W).
inline constexpr int kPieceValue[kPieceTypes] = {330, 240, 390, 430, 100, 250};

/// The evaluation's weights, one table in centi-pawns (per piece, per move, per cell...),
/// indexed by Weight. Its values are kWeights (eval/weights.h), written by the tuner
/// (tools/tune, the Texel method); the names are kWeightNames.
enum Weight : int {
    W_QUEEN,
    W_ROOK,
    W_BISHOP,
    W_KNIGHT,
    W_PAWN,
    W_WALL,  ///< material, per piece
    MOBILITY_MG,
    MOBILITY_EG,  ///< per move available (middle game, end game)
    PRESSURE_MG,
    PRESSURE_EG,  ///< per cell our pieces reach
    CARRIER_NEAR_MG,
    CARRIER_NEAR_EG,   ///< per own carrier within 2 steps of the heart
    SHUT_IN,           ///< per piece (walls aside) with no move, negated
    HEART_ATTACKER,    ///< per opposing piece that can take the heart now, negated
    HEART_ALONE,       ///< the heart stands alone, negated
    HEART_CARRIED,     ///< the heart stands on a carrier
    ENEMY_NEAR_HEART,  ///< per opposing piece within 3 steps of the heart, negated
    ZONE_SHIELD,       ///< per own wall-zone cell within 2 steps of the heart
    kWeightCount
};
using WeightTable = std::array<int, kWeightCount>;
inline constexpr std::array<const char*, kWeightCount> kWeightNames = {"queen",
                                                                       "rook",
                                                                       "bishop",
                                                                       "knight",
                                                                       "pawn",
                                                                       "wall",
                                                                       "mobility_mg",
                                                                       "mobility_eg",
                                                                       "pressure_mg",
                                                                       "pressure_eg",
                                                                       "carrier_near_mg",
                                                                       "carrier_near_eg",
                                                                       "shut_in",
                                                                       "heart_attacker",
                                                                       "heart_alone",
                                                                       "heart_carried",
                                                                       "enemy_near_heart",
                                                                       "zone_shield"};

}  // namespace klinzha::eval

#include "weights.h"  // kWeights, the tuned values

namespace klinzha::eval {

/// The classical evaluate(pos, us) under other weights w (centi-pawns; the network never
/// applies): the tuner's view. Affine in w: the heart points and the hunt (three players)
/// no weight scales (the hunt's lead is measured in kWeights whatever w is), so the value
/// under zero weights is the constant; the rest is linear but for rounding (a tapered
/// weight is rounded before it multiplies its count). Reflective: 0. Source: tools/tune,
/// docs/search.md ("Tuning the evaluation by self-play").
int evaluate_with(const Position& pos, Colour us, const WeightTable& w);

/// A small direct-mapped cache of per-colour evaluation totals by position key, one per
/// search thread (not shared, no locking). 2^16 entries of 24 bytes: 1.5 MiB, in huge pages
/// where available (engine/memory.h).
class EvalCache {
  public:
    EvalCache();
    struct Entry {
        std::uint64_t key = 0;
        std::array<std::int32_t, kColours> total{};
        std::uint32_t valid = 0;
    };
    Entry& slot(std::uint64_t key) { return table_[key & (kSize - 1)]; }
    /// Asks the CPU to load key's slot into the cache (no effect on the contents).
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&table_[key & (kSize - 1)]); }
    void clear();

  private:
    static constexpr std::size_t kSize = std::size_t(1) << 16;
    LargeMemory memory_;      ///< kSize entries, in huge pages where available
    Entry* table_ = nullptr;  ///< the entries in memory_
};

/// The evaluation for colour `us` in centi-pawns (positive = good for us). In a
/// three-player game it is us against the mean of the other players still in. The network's
/// when nnue_applies(pos) and reach is not asked for; else the classical terms. If reach is
/// given it receives the Reach (movegen.h) of every colour still in, as computed here.
int evaluate(const Position& pos, Colour us, std::array<Reach, kColours>* reach = nullptr);

/// As evaluate(pos, us), answered from `cache` when it holds pos (same value).
int evaluate(const Position& pos, Colour us, EvalCache& cache);

/// The evaluation from the point of view of the player to move (two players), or of the
/// team of `root` against the coalition (paranoid, three players): +evaluate(root) when
/// root is to move, -evaluate(root) otherwise.
int evaluate_for_mover(const Position& pos, Colour root);
int evaluate_for_mover(const Position& pos, Colour root, EvalCache& cache);

/// Colour us's value against the mean of the values of the other colours still in (integer
/// division), v holding one value per colour in any unit: how the standing combines the
/// players' totals (SPEC 7; in two players us's value less the opponent's; with no other
/// colour in, v[us]).
int against_others(const Position& pos, Colour us, const std::array<int, kColours>& v);

/// RH 11.1 in three players: a heart taken is worth kHeartPoint centi-pawns to its taker
/// in the standing, so that a leader takes a weak player's heart (the point is its own for
/// good) though the standing against the one player left may fall when it does. 300, not
/// the 1,000 of its first round: at 1,000 the engine took hearts that left it weaker than the
/// third player, and lost more of those games (docs/search.md, "Who takes the first heart").
inline constexpr int kHeartPoint = 300;

/// The hearts taken in this position's history (Position::hearts_taken), combined as the
/// standing is: kHeartPoint x (us's hearts minus the mean of the others still in), in
/// centi-pawns for colour `us`. 0 outside three-player games. Source: RH 11.1, SPEC 7.
int heart_points(const Position& pos, Colour us);

/// What the evaluation adds to a network's output for colour `us` (centi-pawns): the heart
/// points (heart_points()) and, in three players, the hunt's standing (a leader's men's steps
/// toward a trailing player's heart, combined by against_others()), a term the network's
/// features cannot hold. Source: RH 11.1, SPEC 7; docs/search.md, "The hunt".
int beside_network(const Position& pos, Colour us);

/// Kinta (SPEC 26): a warrior's material value falls linearly with its strength, to this
/// percentage of its value at strength 0 (a weak man still moves, blocks and threatens).
inline constexpr int kKintaFloor = 40;

/// Colour c's material on the board (the men, hearts aside) under weights w, centi-pawns:
/// the evaluation's material term. Under Kinta each man counts by its strength (kKintaFloor).
int material(const Position& pos, Colour c, const WeightTable& w = kWeights);

/// The material term alone, combined as evaluate() does (us against the mean of the others
/// still in), in centi-pawns, from the mover's or root team's side as evaluate_for_mover:
/// the quiescence's lazy stand-pat bound. Reflective: 0.
int material_for_mover(const Position& pos, Colour root);

/// How far the full evaluation may lie below and above material_for_mover in practice
/// (centi-pawns): beyond them the quiescence does not compute the rest. Measured over the
/// quiescence nodes of `bench 16 1 9` (1.3 M evaluations, tuned weights): 1.5% lie more than
/// 500 below material (heart danger), 0.1% more than 370 above.
inline constexpr int kLazyMarginBelow = 500;
inline constexpr int kLazyMarginAbove = 400;

/// A table of every term for each colour, for the `eval` command (one line per term), and
/// the network's output when one is in use.
std::string trace(const Position& pos);

/// The network in use for games of `players` players (2 or 3; eval/nnue), or nullptr for the
/// classical evaluation alone. Set between searches (the engine's `Use NNUE`, `NNUE Three
/// Players`, `EvalFile` and `EvalFile Three Players` options); read by every search thread.
const nnue::Network* network(int players = 2);
/// One network for both game sizes; in_three_player_games false: three-player positions keep
/// the classical terms (docs/search.md "The network").
void set_network(const nnue::Network* net, bool in_three_player_games = true);
/// A network per game size (either may be nullptr: the classical terms there).
void set_networks(const nnue::Network* two, const nnue::Network* three);
/// True when the network evaluates pos: one is set for pos's number of players, pos is in the
/// play phase (the setup planner keeps the classical terms), and its rules are ones the
/// network was trained for (not Kinta, not Reflective, not Blind: neither a view nor the
/// boards the blind search samples, which keep the terms its hunt was tuned with).
bool nnue_applies(const Position& pos);
/// Colour c's standing in pos by the network, computed from scratch (centi-pawns; needs
/// nnue_applies(pos)). The search keeps accumulators move by move instead.
int nnue_evaluate(const Position& pos, Colour c);

}  // namespace klinzha::eval
