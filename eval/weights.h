// eval/weights.h: the evaluation's weights (eval/evaluate.h, enum Weight), in centi-pawns.
// Written by `klinzha-tune fit` (tools/tune/, the Texel method); edit by re-tuning.
#pragma once

namespace klinzha::eval {

inline constexpr WeightTable kWeights = {
    330, 240, 390, 430, 100, 250,  // queen rook bishop knight pawn wall
    4,   6,                        // mobility_mg mobility_eg
    2,   4,                        // pressure_mg pressure_eg
    18,  8,                        // carrier_near_mg carrier_near_eg
    25,                            // shut_in
    90,                            // heart_attacker
    35,                            // heart_alone
    20,                            // heart_carried
    12,                            // enemy_near_heart
    10,                            // zone_shield
};

}  // namespace klinzha::eval
