// tests/tools/stats_test.cpp: Elo intervals and SPRT decisions against values computed
// independently (a Python transcription of the textbook formulas: logistic Elo, normal
// 95% interval, GSPRT LLR = n (s1 - s0)(2 mean - s0 - s1) / (2 var)).
#include <doctest/doctest.h>

#include <cmath>

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

TEST_CASE("SPRT bounds, LLR and decisions") {
    Sprt s;  // elo0 0, elo1 5, alpha = beta = 0.05
    CHECK(s.lower() == doctest::Approx(std::log(0.05 / 0.95)));
    CHECK(s.upper() == doctest::Approx(std::log(0.95 / 0.05)));
    Pentanomial p{{5, 20, 40, 25, 10}};
    CHECK(s.llr(p) == doctest::Approx(0.37982).epsilon(1e-4));
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
}
