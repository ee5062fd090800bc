// tests/tools/stats_test.cpp: Elo intervals and SPRT decisions against values computed
// independently (Python, from the textbook formulas: logistic Elo, normal 95% interval; the
// ML GSPRT by a bisection on the Lagrange multiplier, checked against a brute-force
// maximisation of the constrained likelihood on a grid), and the SPRT's error rate by
// simulating thousands of tests between equal engines.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include "stats.h"

using namespace klinzha::match;

TEST_CASE("logistic Elo model") {
    CHECK(expected_score(0) == doctest::Approx(0.5));
    CHECK(elo_from_score(0.75) == doctest::Approx(190.8485).epsilon(1e-6));
    CHECK(elo_from_score(0.25) == doctest::Approx(-190.8485).epsilon(1e-6));
    CHECK(expected_score(elo_from_score(0.6)) == doctest::Approx(0.6));
    CHECK(std::isinf(elo_from_score(1.0)));
}

TEST_CASE("Elo and 95% interval from single games and from pairs") {
    Trinomial t{40, 0, 60};
    auto e = elo_estimate(t);
    CHECK(e.score == doctest::Approx(0.6));
    CHECK(e.elo == doctest::Approx(70.4365).epsilon(1e-5));
    CHECK(e.error == doctest::Approx(70.5712).epsilon(1e-5));
    Pentanomial p{{5, 20, 40, 25, 10}};
    auto f = elo_estimate(p);
    CHECK(f.elo == doctest::Approx(26.1067).epsilon(1e-5));
    CHECK(f.error == doctest::Approx(34.8264).epsilon(1e-5));
}

TEST_CASE("an interval open on one side is given by its bounds, never as +/- inf") {
    // 9 wins, 1 loss: score 0.9, standard error sqrt(0.09 / 10); the upper bound passes a
    // score of 1. Elo 381.697, lower bound elo(0.9 - 1.96 se) = 158.985 (Python).
    Trinomial t;
    t.w = 9;
    t.l = 1;
    const auto e = elo_estimate(t);
    CHECK(e.elo == doctest::Approx(381.697).epsilon(1e-5));
    CHECK(e.lo == doctest::Approx(158.985).epsilon(1e-5));
    CHECK(std::isinf(e.hi));
    CHECK(e.describe() == "+381.7 (95%: +159.0 to +inf)");
    t.w = 1;
    t.l = 9;
    CHECK(elo_estimate(t).describe() == "-381.7 (95%: -inf to -159.0)");
}

TEST_CASE("SPRT bounds, LLR and decisions") {
    Sprt s;  // elo0 0, elo1 5, alpha = beta = 0.05
    CHECK(s.lower() == doctest::Approx(std::log(0.05 / 0.95)));
    CHECK(s.upper() == doctest::Approx(std::log(0.95 / 0.05)));
    Pentanomial p{{5, 20, 40, 25, 10}};
    CHECK(s.llr(p) == doctest::Approx(0.374955).epsilon(1e-4));
    CHECK(s.decision(s.llr(p)) == "");
    Pentanomial strong{{50, 200, 400, 250, 100}};  // the same mix, ten times as many pairs
    CHECK(s.llr(strong) > s.llr(p));
    Pentanomial much{{20, 150, 600, 600, 300}};
    CHECK(s.decision(s.llr(much)) == "H1");
    Pentanomial weak{{300, 600, 600, 150, 20}};
    CHECK(s.decision(s.llr(weak)) == "H0");
    Trinomial even{1000, 1000, 1000};
    CHECK(s.llr(even) < 0);  // equal strength: evidence for elo0 = 0 over elo1 = 5
    Trinomial wins{900, 200, 1200};
    CHECK(s.decision(s.llr(wins)) == "H1");
    CHECK(s.llr(even) == doctest::Approx(-0.465959).epsilon(1e-4));
    Sprt ten{0, 10, 0.05, 0.05};
    CHECK(ten.llr(Trinomial{40, 0, 60}) == doctest::Approx(0.534231).epsilon(1e-4));
}

TEST_CASE("issue 11: one won pair is no evidence to stop on (was LLR 17.8, H1 accepted)") {
    Sprt s{0, 50, 0.05, 0.05};
    const double llr = s.llr(Pentanomial{{0, 0, 0, 0, 1}});
    CHECK(llr == doctest::Approx(0.133593).epsilon(1e-4));
    CHECK(s.decision(llr) == "");
    CHECK(s.llr(Pentanomial{}) == 0);
    CHECK(s.llr(Trinomial{0, 0, 1}) < 1);
}

TEST_CASE("issue 11: SPRT parameters are validated") {
    CHECK_FALSE(Sprt{0, 5, 0.05, 0.05}.validate());
    CHECK(Sprt{5, 0, 0.05, 0.05}.validate());
    CHECK(Sprt{5, 5, 0.05, 0.05}.validate());
    CHECK(Sprt{0, 5, 0, 0.05}.validate());
    CHECK(Sprt{0, 5, 0.05, 1}.validate());
    CHECK(Sprt{0, 5, 0.6, 0.5}.validate());
}

TEST_CASE("issue 11: Elo of degenerate samples is said, never printed as a number") {
    CHECK(elo_estimate(Trinomial{1, 0, 1}).describe().find("n/a") == std::string::npos);
    CHECK_FALSE(elo_estimate(Pentanomial{{0, 0, 1, 0, 0}}).finite);  // one pair: no spread
    CHECK(elo_estimate(Pentanomial{{0, 0, 1, 0, 0}}).describe().rfind("n/a", 0) == 0);
    CHECK(elo_estimate(Pentanomial{{0, 0, 3, 0, 0}}).describe().rfind("n/a", 0) == 0);
    CHECK(elo_estimate(Trinomial{0, 0, 4}).describe().rfind("+inf", 0) == 0);
    CHECK(elo_estimate(Trinomial{4, 0, 0}).describe().rfind("-inf", 0) == 0);
    CHECK(elo_estimate(Trinomial{}).describe().rfind("n/a", 0) == 0);
    auto even = elo_estimate(Trinomial{10, 0, 10});
    CHECK(even.finite);
    CHECK(even.describe().rfind("+0.0 +/- ", 0) == 0);
    // LOS and normalised Elo: 60 wins of 100 games, no draws: sigma 0.49, se 0.049.
    auto e = elo_estimate(Trinomial{40, 0, 60});
    CHECK(e.los == doctest::Approx(0.979387).epsilon(1e-4));
    CHECK(e.nelo == doctest::Approx(0.1 / 0.489898 * 800 / std::log(10.0)).epsilon(1e-6));
}

TEST_SUITE("slow") {
    TEST_CASE("issue 11: SPRTs between equal engines accept H1 at most at the nominal rate") {
        // 2000 simulated SPRTs, elo0 = 0, elo1 = 10, alpha = beta = 0.05, equal engines with no
        // draws (the case that accepted H1 25% of the time with the normal approximation).
        // The LLR is looked at after every pair, as the runner does. The false-positive rate
        // must stay below 5% plus three standard errors (0.0146).
        std::mt19937_64 rng(20261123);
        const Sprt s{0, 10, 0.05, 0.05};
        int h1 = 0, runs = 2000;
        for (int r = 0; r < runs; ++r) {
            Pentanomial p;
            for (int pair = 0; pair < 200000; ++pair) {
                const int wins = int(rng() & 1) + int((rng() >> 1) & 1);
                p.c[std::size_t(2 * wins)]++;  // LL, LW (=DD slot), WW
                const std::string d = s.decision(s.llr(p));
                if (d.empty()) continue;
                h1 += d == "H1";
                break;
            }
        }
        const double rate = double(h1) / runs;
        MESSAGE("false-positive rate ", rate);
        CHECK(rate <= 0.05 + 3 * std::sqrt(0.05 * 0.95 / runs));
    }
}  // TEST_SUITE("slow")

namespace {

/// Maximum likelihood by the MM algorithm of Hunter (2004) for the Bradley-Terry model, a
/// draw as half a win: gamma_i = W_i / sum_j n_ij / (gamma_i + gamma_j). Written apart from
/// rating_list (which uses Newton's method), as the independent computation.
std::vector<double> mm_elo(int n, const std::vector<PairResult>& rs) {
    std::vector<double> w(std::size_t(n), 0), g(std::size_t(n), 1);
    std::vector<std::vector<double>> games(std::size_t(n), std::vector<double>(std::size_t(n), 0));
    for (const auto& r : rs) {
        w[std::size_t(r.a)] += r.score;
        w[std::size_t(r.b)] += 1 - r.score;
        games[std::size_t(r.a)][std::size_t(r.b)] += 1;
        games[std::size_t(r.b)][std::size_t(r.a)] += 1;
    }
    for (int it = 0; it < 20000; ++it) {
        auto next = std::vector<double>(std::size_t(n));
        for (int i = 0; i < n; ++i) {
            double d = 0;
            for (int j = 0; j < n; ++j)
                if (j != i)
                    d += games[std::size_t(i)][std::size_t(j)] /
                         (g[std::size_t(i)] + g[std::size_t(j)]);
            next[std::size_t(i)] = w[std::size_t(i)] / d;
        }
        g = next;
    }
    auto elo = std::vector<double>(std::size_t(n));
    double mean = 0;
    for (int i = 0; i < n; ++i)
        mean += (elo[std::size_t(i)] = 400 * std::log10(g[std::size_t(i)])) / n;
    for (auto& e : elo) e -= mean;
    return elo;
}

}  // namespace

TEST_CASE("rating list: maximum likelihood Elo against an independent computation") {
    // Three engines, a gauntlet of engine 0 against 1 and 2, plus a few games of 1 against 2.
    std::vector<PairResult> rs;
    auto add = [&](int a, int b, int wins, int draws, int losses) {
        for (int k = 0; k < wins; ++k) rs.push_back({a, b, 1.0});
        for (int k = 0; k < draws; ++k) rs.push_back({a, b, 0.5});
        for (int k = 0; k < losses; ++k) rs.push_back({a, b, 0.0});
    };
    add(0, 1, 30, 10, 20);
    add(0, 2, 40, 5, 15);
    add(1, 2, 12, 6, 10);
    const auto list = rating_list(3, rs);
    const auto mm = mm_elo(3, rs);
    REQUIRE(list.size() == 3);
    double mean = 0;
    for (const auto& r : list) {
        CAPTURE(r.engine);
        CHECK(r.finite);
        CHECK(r.elo == doctest::Approx(mm[std::size_t(r.engine)]).epsilon(1e-6));
        CHECK(r.lo < r.elo);
        CHECK(r.hi > r.elo);
        mean += r.elo;
    }
    CHECK(mean == doctest::Approx(0).epsilon(1e-9));
    CHECK(list[0].engine == 0);  // sorted, highest first
    // Two engines: the standard error of each is half that of the difference, whose Fisher
    // information is n p (1 - p) (natural units): the textbook interval.
    std::vector<PairResult> two;
    for (int k = 0; k < 60; ++k) two.push_back({0, 1, 1.0});
    for (int k = 0; k < 40; ++k) two.push_back({0, 1, 0.0});
    const auto l2 = rating_list(2, two);
    const double p = 0.6, diff = std::log(p / (1 - p)), se = 1 / std::sqrt(100 * p * (1 - p));
    const double k = 400 / std::log(10.0);
    CHECK(l2[0].elo == doctest::Approx(k * diff / 2).epsilon(1e-6));
    CHECK(l2[0].hi - l2[0].elo == doctest::Approx(k * 1.959963984540054 * se / 2).epsilon(1e-6));
    // An engine that won every result has no finite estimate.
    std::vector<PairResult> all = {{0, 1, 1.0}, {0, 1, 1.0}, {1, 2, 0.5}, {1, 2, 1.0}};
    const auto l3 = rating_list(3, all);
    CHECK(l3[0].engine == 0);
    CHECK_FALSE(l3[0].finite);
    CHECK(std::isinf(l3[0].elo));
}
