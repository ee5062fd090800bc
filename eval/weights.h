// eval/weights.h: the evaluation's weights (eval/evaluate.h, enum Weight), in centi-pawns.
// Written by `klinzha-tune fit` (tools/tune/, the Texel method) from 178056 samples:
// K 0.272192, error 0.118471 -> 0.114128. Edit by re-tuning.
#pragma once

namespace klinzha::eval {

inline constexpr WeightTable kWeights = {
    347,  // queen
    243,  // rook
    400,  // bishop
    415,  // knight
    27,  // pawn
    244,  // wall
    10,  // mobility_mg
    14,  // mobility_eg
    0,  // pressure_mg
    0,  // pressure_eg
    11,  // carrier_near_mg
    0,  // carrier_near_eg
    24,  // shut_in
    88,  // heart_attacker
    34,  // heart_alone
    19,  // heart_carried
    3,  // enemy_near_heart
    18,  // zone_shield
};

}  // namespace klinzha::eval
