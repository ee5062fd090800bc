// tests/search/skill_test.cpp: the skill levels (search/skill.h, issue 26): the weakening
// grows as the level falls, UCI_Elo maps onto the levels, and a weakened search still
// plays legal moves within its node budget.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "search/engine.h"
#include "search/skill.h"
#include "test_util.h"

using namespace klinzha;

namespace {

/// A two-player position in the play phase, Blue to move (bench's fifth position).
constexpr const char* kPlay =
    "2 Hi88,Qg79,Rg57,Bh68,Nh78,Nf37,Pi88,Pf48,Pe59,Wg58 Hf14,Qi23,Rf26,Bh35,Ni44,Nd38,Pg25,"
    "Pg24,Pf14,Wh13 - b play 9 5";

struct Searched {
    Move best;
    std::uint64_t nodes = 0;
};

/// One synchronous search of kPlay at `level` with `seed` (the weakened choices' seed).
Searched search_at(int level, std::uint64_t seed, int depth = 0) {
    Searched r;
    Engine e({});
    e.set_skill_level(level);
    e.set_skill_seed(seed);
    REQUIRE_FALSE(e.set_position(std::string(kPlay), {}));
    SearchLimits l;
    l.depth = depth;
    if (depth == 0) l.nodes = 5'000'000;  // a limit above every level's cap
    SearchCallbacks cb{
        [&](const SearchInfo& i) { r.nodes = i.nodes; }, [&](Move b, Move) { r.best = b; }, {}, {}};
    e.analyse(e.position(), l, cb);
    return r;
}

}  // namespace

TEST_CASE("skill: the node budget grows and the random moves fall as the level rises") {
    CHECK_FALSE(Skill{kSkillMax}.enabled());
    CHECK(Skill{kSkillMax}.node_cap() == 0);
    CHECK(Skill{kSkillMax}.random_move_probability() == 0.0);
    for (int l = 1; l < kSkillMax; ++l) {
        CHECK(Skill{l}.node_cap() > Skill{l - 1}.node_cap());
        CHECK(Skill{l}.random_move_probability() < Skill{l - 1}.random_move_probability());
    }
    CHECK(Skill{0}.node_cap() == 100);  // skill.h: 100 * 1.5^level
    CHECK(Skill{10}.node_cap() == std::uint64_t(100 * std::pow(1.5, 10)));
}

TEST_CASE("skill: level 0 plays a random move as often as its probability says") {
    // 20,000 draws at p = 0.8: the binomial's standard deviation is sqrt(n p (1-p)) = 56.6;
    // the count must lie within 5 of them of n p.
    std::mt19937_64 rng(7);
    const Skill s{0};
    const int n = 20000;
    int k = 0;
    for (int i = 0; i < n; ++i) k += s.random_move(rng);
    const double p = s.random_move_probability(), sd = std::sqrt(n * p * (1 - p));
    CHECK(std::abs(k - n * p) < 5 * sd);
    // Placements below level 10: (10 - level) / 20, so level 0 draws half of them.
    int placed = 0;
    for (int i = 0; i < n; ++i) placed += s.random_placement(rng);
    CHECK(std::abs(placed - n * 0.5) < 5 * std::sqrt(n * 0.25));
    CHECK_FALSE(Skill{10}.random_placement(rng));
}

TEST_CASE("skill: UCI_Elo maps onto the levels in order, within the documented range") {
    CHECK(skill_level_for_elo(kSkillEloMin) == 0);
    CHECK(skill_level_for_elo(kSkillEloMin - 500) == 0);
    CHECK(skill_level_for_elo(kSkillEloMax) == kSkillMax - 1);
    int prev = 0;
    for (int elo = kSkillEloMin; elo <= kSkillEloMax; elo += 25) {
        const int l = skill_level_for_elo(elo);
        CHECK(l >= prev);
        CHECK(skill_elo(l) <= elo);  // the level chosen is at or below the Elo asked
        if (l + 1 < kSkillMax) CHECK(skill_elo(l + 1) > elo);
        prev = l;
    }
    for (int l = 1; l < kSkillMax; ++l) CHECK(skill_elo(l) > skill_elo(l - 1));
}

TEST_CASE("skill: a weakened search plays legal moves within its node budget, and varies") {
    Position root = testutil::make(kPlay);
    MoveList legal;
    generate_legal(root, legal);
    std::set<std::string> seen;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        const Searched r = search_at(0, seed);
        REQUIRE(legal.contains(r.best));
        CHECK(r.nodes <= Skill{0}.node_cap() + 64);
        seen.insert(move_to_string(r.best));
    }
    CHECK(seen.size() >= 4);  // 80% of level 0's moves are random among ~40 legal moves
    // The same seed gives the same move.
    CHECK(search_at(3, 5).best == search_at(3, 5).best);
    // Level 12's search stays within its budget too.
    const Searched r12 = search_at(12, 1);
    CHECK(legal.contains(r12.best));
    CHECK(r12.nodes <= Skill{12}.node_cap() + 64);
}

TEST_CASE("skill: full strength is untouched (same move and nodes as without the option)") {
    const Searched a = search_at(kSkillMax, 1, 6);
    Engine e({});
    REQUIRE_FALSE(e.set_position(std::string(kPlay), {}));
    SearchLimits l;
    l.depth = 6;
    Searched b;
    e.analyse(e.position(), l,
              {[&](const SearchInfo& i) { b.nodes = i.nodes; },
               [&](Move m, Move) { b.best = m; },
               {},
               {}});
    CHECK(a.best == b.best);
    CHECK(a.nodes == b.nodes);
}

TEST_CASE("skill: UCI_LimitStrength puts UCI_Elo's level in force, Skill Level's otherwise") {
    Engine e({});
    CHECK(e.settings().skill_level == kSkillMax);
    e.set_skill_level(7);
    CHECK(e.settings().skill_level == 7);
    e.set_elo(1000);
    CHECK(e.settings().skill_level == 7);  // UCI_Elo waits for UCI_LimitStrength
    e.set_limit_strength(true);
    CHECK(e.settings().skill_level == skill_level_for_elo(1000));
    e.set_limit_strength(false);
    CHECK(e.settings().skill_level == 7);
}
