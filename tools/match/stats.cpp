// tools/match/stats.cpp: see stats.h.
#include "stats.h"

#include <cmath>
#include <limits>

namespace klinzha::match {

double expected_score(double elo) {
    return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0));
}

double elo_from_score(double s) {
    if (s <= 0) return -std::numeric_limits<double>::infinity();
    if (s >= 1) return std::numeric_limits<double>::infinity();
    return -400.0 * std::log10(1.0 / s - 1.0);
}

namespace {
constexpr double kZ95 = 1.959963984540054;

/// Mean and variance (per sample) of scores `x` with counts `c`.
template <std::size_t N>
void moments(const std::array<double, N>& x, const std::array<double, N>& c, double& mean,
             double& var, double& n) {
    n = 0;
    for (double v : c) n += v;
    mean = 0;
    for (std::size_t i = 0; i < N; ++i) mean += x[i] * c[i];
    mean /= n;
    var = 0;
    for (std::size_t i = 0; i < N; ++i) var += c[i] * (x[i] - mean) * (x[i] - mean);
    var /= n;
}

template <std::size_t N>
EloEstimate estimate(const std::array<double, N>& x, const std::array<double, N>& c) {
    EloEstimate e;
    double mean, var, n;
    moments(x, c, mean, var, n);
    if (n == 0) return e;
    e.score = mean;
    e.elo = elo_from_score(mean);
    double se = std::sqrt(var / n);
    double lo = elo_from_score(mean - kZ95 * se), hi = elo_from_score(mean + kZ95 * se);
    e.error = (hi - lo) / 2;
    return e;
}

/// GSPRT log-likelihood ratio, normal approximation: n (s1 - s0)(2 mean - s0 - s1) / (2 var).
template <std::size_t N>
double gsprt(const std::array<double, N>& x, const std::array<double, N>& c, double s0, double s1) {
    double mean, var, n;
    moments(x, c, mean, var, n);
    if (n == 0 || var <= 0) return 0;
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

// Zero counts make a degenerate variance; a tiny pseudo-count keeps it defined.
template <std::size_t N>
std::array<double, N> regularised(std::array<double, N> c) {
    for (auto& v : c) v += 1e-3;
    return c;
}
}  // namespace

EloEstimate elo_estimate(const Trinomial& t) {
    return estimate<3>({0, 0.5, 1}, {double(t.l), double(t.d), double(t.w)});
}

EloEstimate elo_estimate(const Pentanomial& p) {
    // A pair's score per game is its total / 2.
    return estimate<5>({0, 0.25, 0.5, 0.75, 1}, {double(p.c[0]), double(p.c[1]), double(p.c[2]),
                                                 double(p.c[3]), double(p.c[4])});
}

double Sprt::lower() const {
    return std::log(beta / (1 - alpha));
}
double Sprt::upper() const {
    return std::log((1 - beta) / alpha);
}

double Sprt::llr(const Trinomial& t) const {
    return gsprt<3>({0, 0.5, 1}, regularised<3>({double(t.l), double(t.d), double(t.w)}),
                    expected_score(elo0), expected_score(elo1));
}

double Sprt::llr(const Pentanomial& p) const {
    return gsprt<5>({0, 0.25, 0.5, 0.75, 1},
                    regularised<5>({double(p.c[0]), double(p.c[1]), double(p.c[2]), double(p.c[3]),
                                    double(p.c[4])}),
                    expected_score(elo0), expected_score(elo1));
}

std::string Sprt::decision(double llr) const {
    if (llr >= upper()) return "H1";
    if (llr <= lower()) return "H0";
    return "";
}

}  // namespace klinzha::match
