// tools/match/stats.h: match statistics: Elo difference with a 95% interval from game or
// game-pair results, and the sequential probability ratio test (GSPRT, normal
// approximation, as in fishtest and fastchess) on trinomial (single games) or
// pentanomial (paired games with colours swapped) counts.
#pragma once

#include <array>
#include <string>

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
    double error = 0;
    double score = 0.5;  ///< mean score per game
};

EloEstimate elo_estimate(const Trinomial& t);
EloEstimate elo_estimate(const Pentanomial& p);

/// SPRT of H0: elo = elo0 against H1: elo = elo1 with error rates alpha, beta.
struct Sprt {
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
    double lower() const;  ///< log(beta / (1 - alpha)): accept H0 at or below
    double upper() const;  ///< log((1 - beta) / alpha): accept H1 at or above
    double llr(const Trinomial& t) const;
    double llr(const Pentanomial& p) const;
    /// "H0" (elo0 accepted), "H1" (elo1 accepted) or "" (continue) for a log-likelihood ratio.
    std::string decision(double llr) const;
};

}  // namespace klinzha::match
