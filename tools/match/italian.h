// tools/match/italian.h: the Italian tournament of the Italian Klin Zha Society rules
// (seed 002, Italian rules v.9/04, "TOURNAMENT"): a game with a wall-clock limit, the tally
// of killed pieces at its expiry, BACH'SAN ("will of fate": another game with a piece fewer,
// a die choosing it) and the toss-up that gives a victory "without honour".
//
// Decisions where the text is open (docs/match.md, "Italian tournaments"):
// * Two players only (the Italian rules are a two-player game).
// * The limit (GameConfig::game_limit_ms, 20 minutes) is wall-clock time over the whole game,
//   setup included, for both players together; the players' own clocks (-tc) run as well.
//   A game that ends with no winner for any reason (the limit, a draw rule, an adjudication)
//   has "no winner declared": in tournaments draws are "not provided" ("All square match").
// * The tally (tally()): each piece killed is worth its value to the killer (vanguard 1,
//   lancer 2, fencer 3, swift 4, flier 5; a blockader is not on the scale: 0); killed means
//   missing at the end from what the colour had when play began. Under BlockaderTraps a man
//   held in a wall's zone (SPEC 23.2) is worth n/2 to its owner's opponent, whichever wall
//   holds it (a rival's man held is a point taken; one's own held, a point given).
// * An equal tally leads to BACH'SAN: the same players in the same seats play again from the
//   position where the first game's play began, one man of a type the die chose taken off for
//   each colour (die face 1-6: vanguard, lancer, fencer, swift, flier, blockader; of several
//   men of that type, one drawn by the generator, never the one carrying the heart while
//   another is free; a heart whose only carrier of that type goes stays on its cell, alone).
//   The BACH'SAN game is decided as the first (outright, else by its tally); if its tally is
//   equal too, the toss-up decides: a victory "without honour".
// * The die and the toss-up use the generator of SPEC 16 (engine/clouds.h, SplitMix64) from
//   the seed fate_seed + the bout's number: the first draw is the die (1 + next() mod 6),
//   then one draw per colour for the man (next() mod count), then the toss-up (next() mod 2:
//   0 Green, 1 Blue). Records carry the seed (FateSeed), the tally and the die.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/clouds.h"
#include "engine/position.h"
#include "referee.h"

namespace klinzha::match {

/// The Italian scale (TOURNAMENT) by PieceType (Q R B N P W): fencer 3, lancer 2, swift 4,
/// flier 5, vanguard 1; the blockader is not on it.
inline constexpr std::array<int, kPieceTypes> kItalianValue = {3, 2, 4, 5, 1, 0};
/// The die's faces 1-6 as piece types: vanguard, lancer, fencer, swift, flier, blockader.
inline constexpr std::array<PieceType, 6> kDieFace = {PAWN, ROOK, QUEEN, BISHOP, KNIGHT, WALL};
/// The Italian names of the piece types (Q R B N P W).
inline constexpr std::array<const char*, kPieceTypes> kItalianName = {
    "fencer", "lancer", "swift", "flier", "vanguard", "blockader"};

/// Each colour's tally in half points (a held man is worth n/2): start is the position where
/// play began, now the position at the end (both two-player, under the same rules). Errors:
/// none; a colour's men that are more at the end than at the start count nothing.
std::array<int, kColours> tally(const Position& start, const Position& now);

/// A tally in half points as text: "7", "7.5".
std::string half_points(int half);

/// BACH'SAN's start: the position string `play_start` (a two-player position in play) with
/// one man of type `t` taken off for each colour (the man chosen as the header says, by
/// `fate`). Returns the position string, or nullopt when a colour has no man of that type
/// left to take (then the die is cast again by the caller). Errors: a bad `play_start`
/// returns nullopt.
std::optional<std::string> bachsan_start(const std::string& play_start, const Rules& rules,
                                         PieceType t, SplitMix64& fate);

/// How a bout was decided.
enum class ItalianKind { Outright, Tally, BachSan, WithoutHonour };
const char* to_string(ItalianKind k);

/// A bout: the first game, and BACH'SAN when its tally was equal. The last record carries
/// the bout's result (a win for one player), the first one's own result when BACH'SAN
/// followed it (no winner). Each record's extra_tags say how it was decided.
struct ItalianBout {
    std::vector<GameRecord> games;
    ItalianKind kind = ItalianKind::Outright;
    std::string aborted;  ///< a game that could not be played (GameRecord::aborted)
};

/// Plays one bout between seats (two players) under cfg (its game_limit_ms the Italian
/// limit, its start_fen the first game's start), the die and toss-up drawn from fate_seed.
/// Errors: none thrown; an aborted game ends the bout with `aborted` set.
ItalianBout play_italian(const std::vector<Player*>& seats, const GameConfig& cfg,
                         std::uint64_t fate_seed);

}  // namespace klinzha::match
