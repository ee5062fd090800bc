// tools/match/stats.cpp: see stats.h.
#include "stats.h"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdio>
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
const double kNeloScale = 800.0 / std::log(10.0);

/// Mean and variance (per sample) of scores `x` with counts `c`.
template <std::size_t N>
void moments(const std::array<double, N>& x, const std::array<double, N>& c, double& mean,
             double& var, double& n) {
    n = 0;
    for (double v : c) n += v;
    mean = 0;
    var = 0;
    if (n == 0) return;
    for (std::size_t i = 0; i < N; ++i) mean += x[i] * c[i];
    mean /= n;
    for (std::size_t i = 0; i < N; ++i) var += c[i] * (x[i] - mean) * (x[i] - mean);
    var /= n;
}

/// `per_game`: how many games one sample holds (1 for games, 2 for pairs).
template <std::size_t N>
EloEstimate estimate(const std::array<double, N>& x, const std::array<double, N>& c, int per_game) {
    EloEstimate e;
    double mean, var, n;
    moments(x, c, mean, var, n);
    e.samples = (long long)n;
    if (n == 0) return e;
    e.score = mean;
    e.elo = elo_from_score(mean);
    e.finite = n >= 2 && var > 0 && mean > 0 && mean < 1;
    if (!e.finite) return e;
    const double se = std::sqrt(var / n);
    const double lo = elo_from_score(mean - kZ95 * se), hi = elo_from_score(mean + kZ95 * se);
    e.lo = mean - kZ95 * se <= 0 ? -INFINITY : lo;
    e.hi = mean + kZ95 * se >= 1 ? INFINITY : hi;
    e.error = std::isfinite(e.lo) && std::isfinite(e.hi) ? (hi - lo) / 2 : INFINITY;
    const double sigma_game = std::sqrt(var * per_game);  // one game's score
    e.nelo = (mean - 0.5) / sigma_game * kNeloScale;
    e.nelo_error = kZ95 * se / sigma_game * kNeloScale;
    e.los = 0.5 * std::erfc(-(mean - 0.5) / se / std::sqrt(2.0));
    return e;
}

/// The distribution over scores `a` closest (maximum likelihood) to the frequencies `p`
/// whose mean is s: q_i = p_i / (1 + lambda (a_i - s)), lambda solving
/// sum p_i (a_i - s) / (1 + lambda (a_i - s)) = 0 (Van den Bergh). Needs every p_i > 0 and
/// min a < s < max a.
template <std::size_t N>
std::array<double, N> constrained_mle(const std::array<double, N>& a,
                                      const std::array<double, N>& p, double s) {
    double amin = a[0], amax = a[0];
    for (double v : a) amin = std::min(amin, v), amax = std::max(amax, v);
    auto f = [&](double lambda) {
        double sum = 0;
        for (std::size_t i = 0; i < N; ++i) sum += p[i] * (a[i] - s) / (1 + lambda * (a[i] - s));
        return sum;
    };
    // 1 + lambda (a_i - s) > 0 for every i: lambda in (-1 / (amax - s), 1 / (s - amin)).
    const double shrink = 1 - 1e-9;
    double lo = -shrink / (amax - s), hi = shrink / (s - amin);
    double lambda = 0;
    const double flo = f(lo), fhi = f(hi);
    if (flo <= 0)
        lambda = lo;
    else if (fhi >= 0)
        lambda = hi;
    else {
        std::uintmax_t iters = 200;
        auto r = boost::math::tools::toms748_solve(
            f, lo, hi, flo, fhi, boost::math::tools::eps_tolerance<double>(60), iters);
        lambda = (r.first + r.second) / 2;
    }
    std::array<double, N> q{};
    for (std::size_t i = 0; i < N; ++i) q[i] = p[i] / (1 + lambda * (a[i] - s));
    return q;
}

/// GSPRT log-likelihood ratio by maximum likelihood: n sum p_i log(q1_i / q0_i), where q0, q1
/// are the constrained MLEs for the mean scores s0, s1 and p the observed frequencies.
template <std::size_t N>
double gsprt(const std::array<double, N>& a, const std::array<double, N>& counts, double s0,
             double s1) {
    double n = 0;
    for (double v : counts) n += v;
    if (n == 0) return 0;
    std::array<double, N> p{};
    // Zero counts would leave outcomes outside the support; a small pseudo-count keeps every
    // outcome possible (as fishtest and fastchess do), which also keeps small samples sane.
    double total = 0;
    for (std::size_t i = 0; i < N; ++i) total += p[i] = counts[i] + 1e-3;
    for (auto& v : p) v /= total;
    const auto q0 = constrained_mle(a, p, s0), q1 = constrained_mle(a, p, s1);
    double llr = 0;
    for (std::size_t i = 0; i < N; ++i) llr += counts[i] * std::log(q1[i] / q0[i]);
    return llr;
}
}  // namespace

std::string EloEstimate::describe() const {
    char buf[96];
    if (samples == 0) return "n/a (no games)";
    if (score >= 1) return "+inf (every game won)";
    if (score <= 0) return "-inf (every game lost)";
    if (!finite) {
        std::snprintf(buf, sizeof buf, "n/a (score %.3f from %lld sample%s, no spread)", score,
                      samples, samples == 1 ? "" : "s");
        return buf;
    }
    const double shown = std::abs(elo) < 0.05 ? 0.0 : elo;  // never "-0.0"
    if (!std::isfinite(error)) {  // open on one side: the bounds, not a symmetric error
        auto bound = [](double v) {
            char b[32];
            if (!std::isfinite(v)) return std::string(v > 0 ? "+inf" : "-inf");
            std::snprintf(b, sizeof b, "%+.1f", v);
            return std::string(b);
        };
        std::snprintf(buf, sizeof buf, "%+.1f (95%%: %s to %s)", shown, bound(lo).c_str(),
                      bound(hi).c_str());
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%+.1f +/- %.1f", shown, error);
    return buf;
}

EloEstimate elo_estimate(const Trinomial& t) {
    return estimate<3>({0, 0.5, 1}, {double(t.l), double(t.d), double(t.w)}, 1);
}

EloEstimate elo_estimate(const Pentanomial& p) {
    // A pair's score per game is its total / 2.
    return estimate<5>(
        {0, 0.25, 0.5, 0.75, 1},
        {double(p.c[0]), double(p.c[1]), double(p.c[2]), double(p.c[3]), double(p.c[4])}, 2);
}

std::optional<std::string> Sprt::validate() const {
    if (!(elo0 < elo1)) return "-sprt: elo0 must be below elo1";
    if (!(alpha > 0 && alpha < 1) || !(beta > 0 && beta < 1) || !(alpha + beta < 1))
        return "-sprt: alpha and beta must lie in (0, 1) with alpha + beta < 1";
    return std::nullopt;
}

double Sprt::lower() const {
    return std::log(beta / (1 - alpha));
}
double Sprt::upper() const {
    return std::log((1 - beta) / alpha);
}

double Sprt::llr(const Trinomial& t) const {
    return gsprt<3>({0, 0.5, 1}, {double(t.l), double(t.d), double(t.w)}, expected_score(elo0),
                    expected_score(elo1));
}

double Sprt::llr(const Pentanomial& p) const {
    return gsprt<5>(
        {0, 0.25, 0.5, 0.75, 1},
        {double(p.c[0]), double(p.c[1]), double(p.c[2]), double(p.c[3]), double(p.c[4])},
        expected_score(elo0), expected_score(elo1));
}

std::string Sprt::decision(double llr) const {
    if (llr >= upper()) return "H1";
    if (llr <= lower()) return "H0";
    return "";
}

namespace {

/// The maximum-likelihood ratings of the logistic (Bradley-Terry) model, in natural units
/// (r * 400 / ln 10 = Elo), of the `free` engines (the others stay 0), their mean 0: Newton's
/// method on the log-likelihood of `results`, at most 100 steps. `h` receives the Hessian of
/// the last step (n x n), for the standard errors.
std::vector<double> fit_ratings(std::size_t n, const std::vector<PairResult>& results,
                                const std::vector<bool>& free,
                                std::vector<std::vector<double>>& h) {
    std::vector<double> r(n, 0);  // in natural units (r * 400 / ln 10 = Elo)
    h.assign(n, std::vector<double>(n, 0));
    for (int iter = 0; iter < 100; ++iter) {
        // Gradient and Hessian of the log-likelihood, over the results between free engines.
        std::vector<double> g(n, 0);
        for (auto& row : h) std::fill(row.begin(), row.end(), 0.0);
        for (const auto& x : results) {
            const auto a = std::size_t(x.a), b = std::size_t(x.b);
            if (!free[a] || !free[b] || a == b) continue;
            const double p = 1 / (1 + std::exp(r[b] - r[a]));
            g[a] += x.score - p;
            g[b] -= x.score - p;
            const double w = p * (1 - p);
            h[a][a] -= w, h[b][b] -= w, h[a][b] += w, h[b][a] += w;
        }
        // Newton step on the free engines with their mean fixed: solve (-H + J/m) d = g,
        // J the all-ones matrix over them (it makes the system regular and keeps the mean).
        std::vector<std::size_t> idx;
        for (std::size_t i = 0; i < n; ++i)
            if (free[i]) idx.push_back(i);
        const std::size_t m = idx.size();
        if (m == 0) break;
        std::vector<std::vector<double>> a(m, std::vector<double>(m + 1, 0));
        for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < m; ++j) a[i][j] = -h[idx[i]][idx[j]] + 1.0 / double(m);
            a[i][m] = g[idx[i]];
        }
        for (std::size_t c = 0; c < m; ++c) {  // Gauss-Jordan with partial pivoting
            std::size_t piv = c;
            for (std::size_t i = c + 1; i < m; ++i)
                if (std::abs(a[i][c]) > std::abs(a[piv][c])) piv = i;
            std::swap(a[c], a[piv]);
            if (std::abs(a[c][c]) < 1e-300) continue;
            for (std::size_t i = 0; i < m; ++i) {
                if (i == c) continue;
                const double f = a[i][c] / a[c][c];
                for (std::size_t j = c; j <= m; ++j) a[i][j] -= f * a[c][j];
            }
        }
        double step = 0;
        for (std::size_t i = 0; i < m; ++i) {
            const double d = std::abs(a[i][i]) < 1e-300 ? 0 : a[i][m] / a[i][i];
            r[idx[i]] += d;
            step = std::max(step, std::abs(d));
        }
        double mean = 0;
        for (std::size_t i : idx) mean += r[i];
        for (std::size_t i : idx) r[i] -= mean / double(m);
        if (step < 1e-10) break;
    }
    return r;
}

/// Standard errors (natural units) of the free engines' ratings from the Hessian `h` of the
/// fit; infinite for the others, and for all when the system is singular.
std::vector<double> rating_errors(std::size_t n, const std::vector<bool>& free,
                                  const std::vector<std::vector<double>>& h) {
    // Standard errors: the diagonal of (-H + J/m)^-1 restricted to the free engines (the
    // covariance of the estimates with the mean fixed).
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < n; ++i)
        if (free[i]) idx.push_back(i);
    const std::size_t m = idx.size();
    std::vector<double> se(n, INFINITY);
    if (m > 0) {
        std::vector<std::vector<double>> a(m, std::vector<double>(2 * m, 0));
        for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < m; ++j) a[i][j] = -h[idx[i]][idx[j]] + 1.0 / double(m);
            a[i][m + i] = 1;
        }
        bool ok = true;
        for (std::size_t c = 0; c < m && ok; ++c) {
            std::size_t piv = c;
            for (std::size_t i = c + 1; i < m; ++i)
                if (std::abs(a[i][c]) > std::abs(a[piv][c])) piv = i;
            std::swap(a[c], a[piv]);
            if (std::abs(a[c][c]) < 1e-300) {
                ok = false;
                break;
            }
            const double d = a[c][c];
            for (auto& v : a[c]) v /= d;
            for (std::size_t i = 0; i < m; ++i) {
                if (i == c) continue;
                const double f = a[i][c];
                for (std::size_t j = 0; j < 2 * m; ++j) a[i][j] -= f * a[c][j];
            }
        }
        // The J/m term adds 1/m to every entry's inverse: remove it (J's part in the inverse).
        if (ok)
            for (std::size_t i = 0; i < m; ++i)
                se[idx[i]] = std::sqrt(std::max(0.0, a[i][m + i] - 1.0 / double(m)));
    }
    return se;
}

}  // namespace

std::vector<Rating> rating_list(int engines, const std::vector<PairResult>& results) {
    const auto n = std::size_t(std::max(engines, 0));
    std::vector<double> wins(n, 0), games(n, 0);
    for (const auto& r : results) {
        wins[std::size_t(r.a)] += r.score;
        wins[std::size_t(r.b)] += 1 - r.score;
        games[std::size_t(r.a)] += 1;
        games[std::size_t(r.b)] += 1;
    }
    // Engines with a finite maximum: neither every result won nor every one lost (nor none).
    std::vector<bool> free(n);
    for (std::size_t i = 0; i < n; ++i) free[i] = games[i] > 0 && wins[i] > 0 && wins[i] < games[i];
    const double kScale = std::log(10.0) / 400;  // natural units per Elo
    std::vector<std::vector<double>> h;
    const std::vector<double> r = fit_ratings(n, results, free, h);
    const std::vector<double> se = rating_errors(n, free, h);
    std::vector<Rating> out;
    for (std::size_t i = 0; i < n; ++i) {
        Rating x;
        x.engine = int(i);
        x.games = (long long)games[i];
        x.score = games[i] > 0 ? wins[i] / games[i] : 0;
        if (free[i]) {
            x.elo = r[i] / kScale;
            x.lo = (r[i] - kZ95 * se[i]) / kScale;
            x.hi = (r[i] + kZ95 * se[i]) / kScale;
        } else {
            x.finite = false;
            x.elo = games[i] == 0 ? 0 : wins[i] > 0 ? INFINITY : -INFINITY;
            x.lo = -INFINITY;
            x.hi = INFINITY;
        }
        out.push_back(x);
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Rating& x, const Rating& y) { return x.elo > y.elo; });
    return out;
}

}  // namespace klinzha::match
