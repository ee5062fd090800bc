// tools/match/stats.h: match statistics: Elo difference with a 95% interval from game or
// game-pair results, normalised Elo, the likelihood of superiority, and the sequential
// probability ratio test on trinomial (single games) or pentanomial (paired games with
// colours swapped) counts. The SPRT's log-likelihood ratio is the generalised SPRT by
// maximum likelihood, as fishtest and fastchess compute it: the multinomial closest to the
// observed frequencies whose mean score is that of elo0, resp. elo1 (M. Van den Bergh,
// "Comments on Normalized Elo"; Lagrange multiplier found with Boost.Math's TOMS 748).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace klinzha::match {

/// Expected score (0..1) of a player `elo` points stronger (logistic model).
double expected_score(double elo);
/// Elo difference from a score fraction in (0, 1); +-inf at the ends.
double elo_from_score(double score);

/// Losses, draws, wins of one side.
struct Trinomial {
    long long l = 0, d = 0, w = 0;
    long long n() const { return l + d + w; }
};

/// Game pairs by their total score for one side: 0, 0.5, 1, 1.5, 2 (LL, LD, LW|DD, DW, WW).
struct Pentanomial {
    std::array<long long, 5> c{};
    long long n() const { return c[0] + c[1] + c[2] + c[3] + c[4]; }
};

/// Elo difference and its 95% interval (elo - error, elo + error).
struct EloEstimate {
    double elo = 0;
    double error = 0;  ///< half the 95% interval; infinite when a bound passes a score of 0 or 1
    double lo = 0, hi = 0;  ///< the 95% interval's bounds (Elo; -inf/+inf past a score of 0/1)
    double score = 0.5;     ///< mean score per game
    double nelo = 0;        ///< normalised Elo: (score - 0.5) / sigma(game score) * 800 / ln 10
    double nelo_error = 0;  ///< its 95% half-interval
    double los = 0.5;       ///< likelihood of superiority, P(elo > 0), normal approximation
    /// False when no finite estimate exists: fewer than two samples (games or pairs), no
    /// variance (every sample the same), or a score of 0 or 1. Then print `describe()` only.
    bool finite = false;
    /// "+12.3 +/- 4.5" when finite, "+190.8 (95%: +101.2 to +inf)" when the interval is
    /// open on one side, else what is known ("n/a (1 game pair)", "+inf (all won)"): never
    /// "-0.0" nor "+/- 0.0" from a degenerate sample, nor "+/- inf".
    std::string describe() const;
    long long samples = 0;
};

EloEstimate elo_estimate(const Trinomial& t);
EloEstimate elo_estimate(const Pentanomial& p);

/// SPRT of H0: elo = elo0 against H1: elo = elo1 (logistic Elo) with error rates alpha, beta.
struct Sprt {
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
    /// An error message unless elo0 < elo1 and 0 < alpha, beta < 1 (alpha + beta < 1).
    std::optional<std::string> validate() const;
    double lower() const;  ///< log(beta / (1 - alpha)): accept H0 at or below
    double upper() const;  ///< log((1 - beta) / alpha): accept H1 at or above
    /// The log-likelihood ratio (maximum likelihood; 0 with no games).
    double llr(const Trinomial& t) const;
    double llr(const Pentanomial& p) const;
    /// "H0" (elo0 accepted), "H1" (elo1 accepted) or "" (continue) for a log-likelihood ratio.
    std::string decision(double llr) const;
};

/// One pairwise result for the rating list: engine a scored `score` (1, 0.5 or 0) against b.
struct PairResult {
    int a = 0, b = 0;
    double score = 0.5;
};

/// One engine of a rating list: Elo relative to the pool's mean, its 95% interval, games
/// (pairwise results) and score.
struct Rating {
    int engine = 0;
    double elo = 0, lo = 0, hi = 0;
    long long games = 0;
    double score = 0;
    bool finite = true;  ///< false when the engine won or lost every result (no finite MLE)
};

/// The rating list of `engines` engines from pairwise results, by maximum likelihood (as Ordo
/// and BayesElo do): the Elos r that maximise the likelihood of the results under the
/// logistic model, P(a beats b) = 1 / (1 + 10^((r_b - r_a) / 400)), a draw counting as half
/// a win for each (Ordo's default), the pool's mean fixed at 0. Newton's method on the
/// log-likelihood; the interval is +-1.96 standard errors from its Hessian (the inverse of
/// the Fisher information, taken with the mean fixed). An engine with every result won or
/// lost gets +-inf (finite false). Sorted by Elo, highest first.
std::vector<Rating> rating_list(int engines, const std::vector<PairResult>& results);

}  // namespace klinzha::match
