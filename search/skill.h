// search/skill.h: playing strength below the engine's best, for people (issue 26): the UCI
// options `Skill Level` (0-20) and `UCI_LimitStrength` with `UCI_Elo`, as chess GUIs know
// them from Stockfish.
//
// A level below 20 weakens the engine in three ways, each growing as the level falls:
// * each move's search is capped at 100 * 1.5^level nodes (100 at level 0, 5,800 at 10,
//   222,000 at 19): fewer nodes, a shallower view, and a quicker answer. The cap only
//   lowers a limit the caller gave (a clock, movetime, nodes);
// * a move is a uniformly random legal move with probability 0.8 * 0.75^level (80% at
//   level 0, 8% at 8, 0.3% at 19): the blunders beginners make, a heart left or not taken
//   among them;
// * in the setup (SPEC 6) it places without SetupSearch's judging, and below level 10 it
//   places a man at random with probability (10 - level) / 20.
// The Elo scale is this game's own, pinned to the baselines everyone can run: `Baseline
// random` is 0 (docs/search.md, "Levels", has the table measured with klinzha-match, and
// tools/levels.sh reproduces it).
#pragma once

#include <cstdint>
#include <random>

namespace klinzha {

/// The levels of `Skill Level`: 0 (weakest) .. kSkillMax (full strength, no weakening).
inline constexpr int kSkillMax = 20;

/// The UCI_Elo range (this game's scale, Baseline random = 0): the Elo of level 0 as
/// measured and of level 19 as interpolated (docs/search.md, "Levels").
inline constexpr int kSkillEloMin = 436;
inline constexpr int kSkillEloMax = 2445;

/// The measured Elo of level 0..19 (interpolated between the calibrated levels); level 20
/// (full strength) counts as level 19's. Never throws.
int skill_elo(int level);

/// Skill Level 0..19 for a UCI_Elo (clamped to [kSkillEloMin, kSkillEloMax]): the highest
/// level whose measured Elo is at or below it (level 0 below that). Never throws.
int skill_level_for_elo(int elo);

/// One search's weakening, from the level (0..20; 20: none).
struct Skill {
    int level = kSkillMax;

    bool enabled() const { return level < kSkillMax; }
    /// The most nodes a move's search may take; 0 (no cap) when not enabled.
    std::uint64_t node_cap() const;
    /// The chance that a move is a uniformly random legal one: 0.8 * 0.75^level; 0 when
    /// not enabled.
    double random_move_probability() const;
    /// Whether this move is a uniformly random legal one (random_move_probability()).
    bool random_move(std::mt19937_64& rng) const;
    /// In the setup: whether this placement is drawn at random (probability
    /// (10 - level) / 20 below level 10).
    bool random_placement(std::mt19937_64& rng) const;
};

}  // namespace klinzha
