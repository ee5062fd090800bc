// eval/nnue/sample.h: one training position of the network's data, as the generator
// (tools/nnue/gen.cpp, klinzha-gen) writes it and the trainer (tools/nnue/train.py) reads it.
//
// A data file is a plain sequence of 104-byte records, little-endian, no header (so shards
// concatenate with `cat`). Layout (byte offsets; numpy dtype in train.py):
//   0  u64  key      Zobrist key of the position (Position::key; deduplication)
//   8  u8   board[81] man per cell (engine/types.h cell order): 0xFF none, else
//                    colour << 3 | piece type (Q R B N P W = 0..5)
//   89 u8   heart[3] each colour's heart cell, 0xFF when off the board
//   92 u8   players  2 or 3
//   93 u8   stm      colour to move (0 g, 1 b, 2 k): the perspective of score and result
//   94 u8   out      bit c set: colour c is out (or not playing)
//   95 u8   result   the game's result for stm: 0 lost, 1 drawn, 2 won
//   96 i16  score    the search's score for stm less what the evaluation adds to the
//                    network's output (eval::beside_network: the RH 11.1 heart points, which
//                    the features cannot see, and in three players the hunt's standing),
//                    centi-pawns (never a mate score). Three-player data of klinzha-gen before
//                    2026-11-28 hold the score with the heart points (+-1000 cp after a heart
//                    was taken), and those of builds before eval::beside_network (the same
//                    day) the hunt's standing too.
//   98 u8   halfmove plies since the last capture (clamped to 255)
//   99 u8   depth    the depth the search reached
//  100 u16  options  rule options in force: bit 0 GoalSafety, 1 PowerVanguard,
//                    2 AlternatingPlacement, 3 ForwardPlacement, 4 FlierJumpsWalls off
//  102 u16  ply      plies from the start of the game (clamped to 65535)
// Only play-phase positions are written (SPEC 6.3), with every field above valid.
// Source: SPEC 1-2 (cells, colours, pieces), 10 (what a position holds).
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/position.h"

namespace klinzha::nnue {

#pragma pack(push, 1)
struct PackedSample {
    std::uint64_t key;
    std::uint8_t board[kCells];
    std::uint8_t heart[kColours];
    std::uint8_t players;
    std::uint8_t stm;
    std::uint8_t out;
    std::uint8_t result;
    std::int16_t score;
    std::uint8_t halfmove;
    std::uint8_t depth;
    std::uint16_t options;
    std::uint16_t ply;
};
#pragma pack(pop)
static_assert(sizeof(PackedSample) == 104, "the data format's record is 104 bytes");

/// The options bits of PackedSample::options for rules r.
inline std::uint16_t option_bits(const Rules& r) {
    return std::uint16_t((r.goal_safety ? 1 : 0) | (r.power_vanguard ? 2 : 0) |
                         (r.alternating_placement ? 4 : 0) | (r.forward_placement ? 8 : 0) |
                         (r.flier_jumps_walls ? 0 : 16));
}

/// Packs the play-phase position pos with the search's score (centi-pawns, for the player to
/// move), its depth, and result (0 lost, 1 drawn, 2 won for the player to move).
inline PackedSample pack(const Position& pos, int score, int depth, int result) {
    PackedSample s;
    std::memset(&s, 0, sizeof s);
    s.key = pos.key();
    for (int c = 0; c < kCells; ++c) s.board[c] = pos.man_on(Cell(c));
    for (int c = 0; c < kColours; ++c) s.heart[c] = pos.heart(Colour(c));
    s.players = std::uint8_t(pos.players());
    s.stm = pos.to_move();
    s.out = pos.state().out;
    s.result = std::uint8_t(result);
    s.score = std::int16_t(score < -32000 ? -32000 : score > 32000 ? 32000 : score);
    s.halfmove = std::uint8_t(pos.halfmove() > 255 ? 255 : pos.halfmove());
    s.depth = std::uint8_t(depth > 255 ? 255 : depth);
    s.options = option_bits(pos.rules());
    s.ply = std::uint16_t(pos.ply() > 65535 ? 65535 : pos.ply());
    return s;
}

}  // namespace klinzha::nnue
