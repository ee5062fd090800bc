// search/skill.cpp: the weakened search's limits and the Elo table of the levels (skill.h).
#include "skill.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace klinzha {
namespace {

/// The calibration (docs/search.md, "Levels"; tools/levels.sh reproduces it): the Elo of
/// levels 0, 2, 5, 8, 11, 14, 17 and of full strength (20, at 300,000 nodes a move) on this
/// game's scale (Baseline random = 0), from a ladder of two-player matches of 40 games
/// between neighbours. Levels between are interpolated linearly (18 and 19 towards 20).
constexpr std::array<int, 8> kCalibratedLevels = {0, 2, 5, 8, 11, 14, 17, 20};
constexpr std::array<int, 8> kCalibratedElo = {436, 774, 1246, 1487, 1772, 2027, 2174, 2581};

}  // namespace

int skill_elo(int level) {
    level = std::clamp(level, 0, kSkillMax - 1);
    std::size_t i = 0;
    while (i + 2 < kCalibratedLevels.size() && level > kCalibratedLevels[i + 1]) ++i;
    const int l0 = kCalibratedLevels[i], l1 = kCalibratedLevels[i + 1];
    const int e0 = kCalibratedElo[i], e1 = kCalibratedElo[i + 1];
    return e0 + (e1 - e0) * (level - l0) / (l1 - l0);
}

int skill_level_for_elo(int elo) {
    elo = std::clamp(elo, kSkillEloMin, kSkillEloMax);
    int level = 0;
    for (int l = 0; l < kSkillMax; ++l)
        if (skill_elo(l) <= elo) level = l;
    return level;
}

std::uint64_t Skill::node_cap() const {
    if (!enabled()) return 0;
    return std::uint64_t(100.0 * std::pow(1.5, level));
}

double Skill::random_move_probability() const {
    return enabled() ? 0.8 * std::pow(0.75, level) : 0.0;
}

bool Skill::random_move(std::mt19937_64& rng) const {
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng) < random_move_probability();
}

bool Skill::random_placement(std::mt19937_64& rng) const {
    if (!enabled() || level >= 10) return false;
    return std::uniform_int_distribution<int>(0, 19)(rng) < 10 - level;
}

}  // namespace klinzha
