// tests/engine/combat_test.cpp: Kinta's fights (SPEC 26, App. D): the exact outcome against
// every line of shared/perft/combat.txt (copied to tests/data; one test per file), a Monte
// Carlo run of the literal procedure (written here from the SPEC text, not the engine's code)
// against the exact odds, the search tables against the exact values, the referee's cast and
// its record comment.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/combat.h"
#include "test_util.h"

using namespace klinzha;
using namespace klinzha::combat;

namespace {

Fighter fighter(const std::string& s) {
    auto r = parse_fighter(s);
    REQUIRE(std::holds_alternative<Fighter>(r));
    return std::get<Fighter>(r);
}

/// SPEC 26 written out again, step by step, for the simulation: IDs and defense by letter.
struct Literal {
    static int id(char c) { return int(std::string("WQPRNB").find(c)) + 1; }
    static int defense(char c) { return 7 - id(c); }
    static int base(int s, int t, int a, int d) {
        if (a != d && ((s == a && t == d) || (s == d && t == a))) return 20;
        if (s == a && t == a) return 16;
        if (s == d && t == d) return 5;
        if (s == a || t == a) return 12 + (s == a ? t : s);
        if (s == d || t == d) return 2 + (s == d ? t : s);
        return s + t;
    }
    /// One whole fight with std::mt19937_64-like dice from `rng`; returns (A won, survivor).
    template <typename Rng>
    static std::pair<bool, int> fight(char at, int as, bool ah, char dt, int ds, bool dh,
                                      Rng& rng) {
        int str[2] = {as + (ah ? 15 : 0), ds + (dh ? 5 : 0)};
        const char type[2] = {at, dt};
        int two = 0;
        auto die = [&] { return int(rng() % 6) + 1; };
        while (true) {
            const int one = 1 - two;
            const int s = die(), t = die(), u = die();
            int hit, dmg;
            if (s == t && t == u) {
                hit = one;
                dmg = u;
            } else {
                const int att = u > std::max(s, t) ? one : two;
                hit = 1 - att;
                const int a = id(type[att]), d = id(type[hit]);
                const int best =
                    std::max(std::max(base(s, t, a, d), base(s, u, a, d)), base(t, u, a, d));
                dmg = std::max(0, best - defense(type[hit]));
            }
            str[hit] -= dmg;
            if (str[hit] <= 0) {
                const int w = 1 - hit;
                return {w == 0, std::min(str[w], w == 0 ? as : ds)};
            }
            if (!(s == t && t == u)) two = hit;
        }
    }
};

}  // namespace

TEST_CASE("combat agrees with every line of combat.txt") {
    std::ifstream f(testutil::data("combat.txt"));
    REQUIRE(f);
    std::string line;
    int lines = 0;
    while (std::getline(f, line)) {
        if (line.empty()) continue;
        ++lines;
        std::vector<std::string> parts;
        for (std::size_t p = 0, q; p != std::string::npos; p = q == std::string::npos ? q : q + 2) {
            q = line.find(" ;", p);
            parts.push_back(line.substr(p, q == std::string::npos ? q : q - p));
        }
        std::istringstream head(parts[0]);
        std::string as, ds;
        head >> as >> ds;
        CAPTURE(parts[0]);
        const Fighter a = fighter(as), d = fighter(ds);
        REQUIRE_FALSE(check(a, d));
        const FightDistribution o = exact(a, d);
        std::map<std::pair<char, int>, double> want;
        double win = -1;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            std::istringstream in(parts[i]);
            std::string kind;
            in >> kind;
            if (kind == "win") {
                in >> win;
            } else {
                int n = 0;
                double p = 0;
                in >> n >> p;
                want[{kind[0], n}] = p;
            }
        }
        CHECK(std::abs(o.win - win) < 1e-9);
        // Every strength either side lists (a line left out counts as probability 0).
        std::map<std::pair<char, int>, double> got;
        for (std::size_t n = 1; n < o.attacker.size(); ++n)
            if (o.attacker[n] > 0) got[{'A', int(n)}] = o.attacker[n];
        for (std::size_t n = 1; n < o.defender.size(); ++n)
            if (o.defender[n] > 0) got[{'D', int(n)}] = o.defender[n];
        CHECK(got.size() == want.size());
        double worst = 0;
        for (auto& [k, p] : want) worst = std::max(worst, std::abs(got[k] - p));
        for (auto& [k, p] : got) worst = std::max(worst, std::abs(want[k] - p));
        CHECK(worst < 1e-9);
        // The printed form reads back to the same numbers.
        CHECK(format(o).rfind("win ", 0) == 0);
    }
    CHECK(lines == 12);
}

TEST_CASE("the literal procedure of Appendix D, simulated, agrees with the exact odds") {
    std::uint64_t s = 12345;
    auto rng = [&s] {  // xorshift64*: independent of the engine's spindle generator
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1DULL;
    };
    struct Case {
        const char* a;
        const char* d;
    };
    for (Case c : {Case{"N140", "Q96h"}, Case{"Q110h", "W100h"}, Case{"R64", "Q110h"},
                   Case{"P30", "B150"}, Case{"Q37h", "B88"}}) {
        CAPTURE(c.a);
        CAPTURE(c.d);
        const Fighter a = fighter(c.a), d = fighter(c.d);
        const FightDistribution o = exact(a, d);
        const int n = 40000;
        int wins = 0;
        double mean_a = 0, mean_d = 0;
        for (int i = 0; i < n; ++i) {
            auto [won, left] =
                Literal::fight(c.a[0], a.strength, a.heart, c.d[0], d.strength, d.heart, rng);
            wins += won;
            (won ? mean_a : mean_d) += left;
        }
        // Win rate within 4.5 standard errors of the exact probability.
        const double sd = std::sqrt(o.win * (1 - o.win) / n);
        CHECK(std::abs(double(wins) / n - o.win) < 4.5 * sd + 1e-9);
        // The survivor's mean strength (over all fights, zero for the loser's side).
        double ea = 0, ed = 0, ea2 = 0, ed2 = 0;
        for (std::size_t k = 1; k < o.attacker.size(); ++k)
            ea += double(k) * o.attacker[k], ea2 += double(k * k) * o.attacker[k];
        for (std::size_t k = 1; k < o.defender.size(); ++k)
            ed += double(k) * o.defender[k], ed2 += double(k * k) * o.defender[k];
        CHECK(std::abs(mean_a / n - ea) < 4.5 * std::sqrt((ea2 - ea * ea) / n) + 1e-9);
        CHECK(std::abs(mean_d / n - ed) < 4.5 * std::sqrt((ed2 - ed * ed) / n) + 1e-9);
    }
}

TEST_CASE("the referee's cast is the literal procedure: its fights follow the exact odds") {
    Spindles dice(7);
    const Fighter a = fighter("R130h"), d = fighter("N140");
    const FightDistribution o = exact(a, d);
    const int n = 20000;
    int wins = 0;
    for (int i = 0; i < n; ++i) {
        const Fight f = cast(a, d, dice);
        wins += f.attacker_won;
        CHECK(f.strength >= 1);
        CHECK(f.strength <= (f.attacker_won ? a.strength : d.strength));
    }
    CHECK(std::abs(double(wins) / n - o.win) < 4.5 * std::sqrt(o.win * (1 - o.win) / n));
}

TEST_CASE("spindles: SPEC 16's generator, the record comment and its replay") {
    Spindles g(0);  // SPEC 16's check values
    CHECK(g.next() == 0xe220a8397b1dcdafULL);
    CHECK(g.next() == 0x6e789e6aa1b965f4ULL);
    Spindles dice(99);
    const Fighter a = fighter("Q110"), d = fighter("P120h");
    const Fight f = cast(a, d, dice);
    const std::string text = spindles_text(f);
    REQUIRE(text.rfind("spindles ", 0) == 0);
    auto rounds = parse_spindles(text.substr(9));
    REQUIRE(rounds);
    auto again = replay(a, d, *rounds);
    REQUIRE(std::holds_alternative<Fight>(again));
    CHECK(std::get<Fight>(again).attacker_won == f.attacker_won);
    CHECK(std::get<Fight>(again).strength == f.strength);
    // A round too few, or one too many, is not the whole fight.
    auto fewer = *rounds;
    fewer.pop_back();
    CHECK(std::holds_alternative<std::string>(replay(a, d, fewer)));
    auto more = *rounds;
    more.push_back({1, 2, 3});
    CHECK(std::holds_alternative<std::string>(replay(a, d, more)));
    CHECK_FALSE(parse_spindles("5,3|7"));
    CHECK_FALSE(parse_spindles("5,3-6"));
    CHECK_FALSE(parse_spindles(""));
    // A triple is a round of its own and keeps the roles: 2,2|2 costs the caster of one 2.
    auto t = replay(fighter("B150"), fighter("W2"), {{2, 2, 2}});
    REQUIRE(std::holds_alternative<Fight>(t));
    CHECK(std::get<Fight>(t).attacker_won);
    CHECK(std::get<Fight>(t).strength == 150);
}

TEST_CASE("combat rejects a wall attacking, h on B or N, strengths out of range") {
    CHECK(check(fighter("W100"), fighter("Q110")));
    CHECK(check(fighter("B150h"), fighter("Q110")));
    CHECK(check(fighter("Q110"), fighter("N140h")));
    CHECK(check(fighter("Q111"), fighter("N140")));
    CHECK(check(fighter("Q0"), fighter("N140")));
    CHECK_FALSE(check(fighter("P120h"), fighter("W100h")));
    CHECK(std::holds_alternative<std::string>(parse_fighter("X100")));
    CHECK(std::holds_alternative<std::string>(parse_fighter("Q")));
    CHECK(std::holds_alternative<std::string>(parse_fighter("Q1x")));
}

TEST_CASE("the search's odds tables agree with the exact outcome") {
    for (const auto& pair : {std::pair{"N140", "Q96h"},
                             {"Q37h", "B88"},
                             {"P120", "W100h"},
                             {"B1", "R130"},
                             {"R64", "Q110h"}}) {
        // Plain copies, not structured bindings: clang (C++17) cannot capture those in the
        // lambda CAPTURE makes.
        const char* as = pair.first;
        const char* ds = pair.second;
        CAPTURE(as);
        CAPTURE(ds);
        const Fighter a = fighter(as), d = fighter(ds);
        const FightDistribution o = exact(a, d);
        const Odds t = odds(a, d);
        CHECK(std::abs(t.win - o.win) < 1e-6);
        double ea = 0;
        for (std::size_t k = 1; k < o.attacker.size(); ++k) ea += double(k) * o.attacker[k];
        if (o.win > 1e-3) {  // uncapped expectation, capped after: never above the exact mean
            CHECK(t.attacker_strength >= 1);
            CHECK(t.attacker_strength <= a.strength);
            CHECK(double(t.attacker_strength) >= ea / o.win - 1.0);
        }
        CHECK(t.defender_strength <= d.strength);
    }
}
