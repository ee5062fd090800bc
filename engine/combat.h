// engine/combat.h: Klin Zha Kinta's fights (SPEC 26; RH V7, Laws 13.9, Appendix D).
//
// A move that ends on an opposing man under Kinta is a fight between the attacker A and the
// defender D, decided by six-sided spindles. This file holds, in one place:
//   * the round of App. D.1.5-D.3.2 (who attacks, which pair of spindles, the damage);
//   * the exact outcome distribution of a fight (the `combat` command), by dynamic
//     programming over the two strengths and whose turn it is to cast two, the rounds that do
//     no damage solved as a 2x2 linear system (no iteration);
//   * tables for the search: per piece pair, the win probability and the expected survivor
//     strengths for every pair of starting strengths, built once per pair on first use;
//   * the referee's cast of a fight with the spindle generator of SPEC 16 / 26, and the
//     record comment of its spindles.
//
// Strengths are whole points (1..150 before the fight; +15 / +5 while a heart is carried,
// App. D.1.3-D.1.4). Probabilities are doubles (the exact values to about 1e-15).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "position.h"
#include "types.h"

namespace klinzha::combat {

/// The fighting bonus of a fighter that carries its heart (App. D.1.3-D.1.4): strength points
/// added for the fight only.
inline constexpr int kHeartBonusAttacker = 15;
inline constexpr int kHeartBonusDefender = 5;

/// One side of a fight: its piece type, its strength before the fight (1..initial) and
/// whether it carries its heart.
struct Fighter {
    PieceType type = QUEEN;
    int strength = 0;
    bool heart = false;
};

/// Checks a pair of fighters as the `combat` command takes them (SPEC 26): the attacker is
/// no wall, `h` only on a carrier (Q R P W), strengths within 1..initial. Returns the
/// message, or nullopt when valid.
std::optional<std::string> check(const Fighter& a, const Fighter& d);

/// Parses a fighter of the `combat` command: a piece letter, its strength, and `h` when it
/// carries its heart (`N140`, `Q96h`). Returns it, or a message. Ranges are check()'s.
std::variant<Fighter, std::string> parse_fighter(std::string_view s);

/// The exact outcome of a fight (SPEC 26 `combat`): `attacker[n]` is the probability that A
/// wins and is left with strength n, `defender[n]` that D wins with n (index 0 unused;
/// sizes: each fighter's strength before the fight + 1). `win` is the sum of `attacker`.
struct FightDistribution {
    double win = 0;
    std::vector<double> attacker;
    std::vector<double> defender;
};

/// The exact outcome of the fight of a against d (both valid for check()). About 1 ms.
FightDistribution exact(const Fighter& a, const Fighter& d);

/// The `combat` command's output (SPEC 26): `win <p>`, then `A <n> <p>` for each strength A
/// may be left with, then `D <n> <p>`, n ascending, 15 significant digits, one per line
/// (ending with a newline).
std::string format(const FightDistribution& o);

/// What the search reads for a fight: the attacker's win probability and the survivor's
/// expected strength each way (rounded, never above its strength before the fight, at
/// least 1). App. D; the expectation is over the exact distribution of the uncapped
/// survivor strength, capped afterwards.
struct Odds {
    float win = 0;
    std::uint8_t attacker_strength = 0;  ///< when A wins
    std::uint8_t defender_strength = 0;  ///< when D wins
};

/// The odds of a fight, from tables built once per (attacker type, defender type) on first
/// use (thread-safe; each table 166 x 156 entries of 8 bytes, 207 KB; 25 pairs can occur).
/// a must not be a wall. Strengths 1..150.
Odds odds(const Fighter& a, const Fighter& d);

/// The two fighters of the Kinta attack m in pos (SPEC 26): the attacker (on m.from(), with
/// its heart when m carries it) and the defender (on m.to(), with its heart when it carries
/// it). m must be an attack (Position::is_attack).
std::pair<Fighter, Fighter> fighters(const Position& pos, Move m);

/// Builds every odds table now (so the first searches do not pay for it). Returns the time
/// it took in ms.
double build_all_tables();

/// The spindle generator of SPEC 16 used for Kinta's fights (SPEC 26): splitmix64 from the
/// game's dice seed; a spindle is 1 + next() mod 6.
class Spindles {
  public:
    explicit Spindles(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    int cast() { return 1 + int(next() % 6); }
    std::uint64_t state() const { return state_; }

  private:
    std::uint64_t state_;
};

/// One round as cast: the caster of two's spindles, then the single one.
struct Round {
    int two_a = 0, two_b = 0, one = 0;
    bool operator==(const Round&) const = default;
};

/// What one round did (App. D.1.5-D.3.2): whether A cast two, whether A was hit, the damage
/// (a triple's loss included), and both strengths after it (the heart bonuses of D.1.3-D.1.4
/// included, so they may exceed the strengths before the fight; 0 or less: dead).
struct RoundOutcome {
    bool a_cast_two = false;
    bool a_hit = false;
    int damage = 0;
    int a_strength = 0, d_strength = 0;
};

/// A fight as the referee cast it: who won, the survivor's strength after the fight (capped
/// at its strength before, SPEC 26 Decision), the rounds in order and what each did
/// (`outcomes`, one per round; for showing a fight, e.g. klinzha-gui).
struct Fight {
    bool attacker_won = false;
    int strength = 0;
    std::vector<Round> rounds;
    std::vector<RoundOutcome> outcomes;
};

/// Casts the fight of a against d with `dice`, in the order of SPEC 26 (each round the
/// caster of two's two spindles, then the single one). The literal procedure of App. D.
Fight cast(const Fighter& a, const Fighter& d, Spindles& dice);

/// The record comment of a fight's spindles (SPEC 26): `spindles 5,3|6 2,2|2`, each round's
/// caster of two first, a triple a round of its own.
std::string spindles_text(const Fight& f);

/// Reads back spindles_text's rounds (the text after `spindles `). nullopt when malformed.
std::optional<std::vector<Round>> parse_spindles(std::string_view s);

/// Replays a fight from given rounds (a record's comment) and returns its result, or a
/// message when the rounds do not make a whole fight (too few, too many, a spindle out of
/// 1..6).
std::variant<Fight, std::string> replay(const Fighter& a, const Fighter& d,
                                        const std::vector<Round>& rounds);

}  // namespace klinzha::combat
