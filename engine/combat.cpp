// engine/combat.cpp: Kinta's fights (SPEC 26, App. D). See combat.h.
#include "combat.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace klinzha::combat {

namespace {

/// Base damage of the pair {s, t} for a round attacker of ID a on a defender of ID d (App.
/// D.1.10, D.2.1-D.2.5 as SPEC 26 orders them: the first rule that applies).
int base_damage(int s, int t, int a, int d) {
    if (a != d && ((s == a && t == d) || (s == d && t == a))) return 20;
    if (s == a && t == a) return 16;
    if (s == d && t == d) return 5;
    if (s == a) return 12 + t;
    if (t == a) return 12 + s;
    if (s == d) return 2 + t;
    if (t == d) return 2 + s;
    return s + t;
}

/// The damage the round attacker does with the best pair of the three spindles (SPEC 26
/// Decision: the pair that does the most), less the defender's defense, at least 0.
int round_damage(PieceType attacker, PieceType defender, int s, int t, int u) {
    const int a = kWarriorId[attacker], d = kWarriorId[defender];
    const int best =
        std::max({base_damage(s, t, a, d), base_damage(s, u, a, d), base_damage(t, u, a, d)});
    return std::max(0, best - kDefense[defender]);
}

/// One round's result: who takes damage (the caster of one or of two) and how much, or a
/// triple (the caster of one loses its value; the roles stay).
struct RoundResult {
    bool triple = false;
    bool caster_of_one_hit = false;
    int damage = 0;
};

RoundResult resolve(PieceType c2, PieceType c1, int s, int t, int u) {
    if (s == t && t == u) return {true, true, u};                                  // D.1.8
    if (u > std::max(s, t)) return {false, false, round_damage(c1, c2, s, t, u)};  // D.1.6
    return {false, true, round_damage(c2, c1, s, t, u)};                           // D.1.7
}

/// A round's outcome distribution for a caster of two of type c2 and of one of type c1, in
/// 216ths: one_hit[k] (the caster of one loses k, roles switch), two_hit[k] (the caster of
/// two loses k, roles stay), triple[v] (the caster of one loses v, roles stay).
struct RoundTable {
    std::array<int, 32> one_hit{};
    std::array<int, 32> two_hit{};
    std::array<int, 7> triple{};
};

RoundTable round_table(PieceType c2, PieceType c1) {
    RoundTable r;
    for (int s = 1; s <= 6; ++s)
        for (int t = 1; t <= 6; ++t)
            for (int u = 1; u <= 6; ++u) {
                const RoundResult x = resolve(c2, c1, s, t, u);
                if (x.triple)
                    r.triple[std::size_t(x.damage)]++;
                else if (x.caster_of_one_hit)
                    r.one_hit[std::size_t(x.damage)]++;
                else
                    r.two_hit[std::size_t(x.damage)]++;
            }
    return r;
}

/// One transition of the fight's chain from a state where `side` (0: A, 1: D) casts two.
struct Step {
    double p;
    int a_loss, d_loss;
    int next_two;  ///< who casts two next (0: A, 1: D)
};

/// The transitions that change a strength, from each side's turn to cast two, and the
/// zero-damage rounds: stay[x] (the caster of two x was the round's defender: x casts two
/// again) and swap[x] (the other was: roles switch).
struct Chain {
    std::array<std::vector<Step>, 2> steps;
    std::array<double, 2> stay{}, swap{};
};

Chain chain(PieceType a, PieceType d) {
    Chain c;
    for (int x = 0; x < 2; ++x) {
        const RoundTable t = x == 0 ? round_table(a, d) : round_table(d, a);
        // x == 0: A casts two, D one. "one" is then D, "two" is A.
        auto loss = [&](bool one_loses, int k) {
            const bool a_loses = (x == 0) != one_loses;
            return std::pair<int, int>{a_loses ? k : 0, a_loses ? 0 : k};
        };
        for (int k = 0; k < 32; ++k) {
            if (t.one_hit[std::size_t(k)]) {
                const double p = t.one_hit[std::size_t(k)] / 216.0;
                if (k == 0) {
                    c.swap[std::size_t(x)] += p;
                } else {
                    auto [al, dl] = loss(true, k);
                    c.steps[std::size_t(x)].push_back({p, al, dl, 1 - x});  // D.4
                }
            }
            if (t.two_hit[std::size_t(k)]) {
                const double p = t.two_hit[std::size_t(k)] / 216.0;
                if (k == 0) {
                    c.stay[std::size_t(x)] += p;
                } else {
                    auto [al, dl] = loss(false, k);
                    c.steps[std::size_t(x)].push_back({p, al, dl, x});
                }
            }
        }
        for (int v = 1; v <= 6; ++v) {  // D.1.8: the roles stay
            auto [al, dl] = loss(true, v);
            c.steps[std::size_t(x)].push_back({t.triple[std::size_t(v)] / 216.0, al, dl, x});
        }
    }
    return c;
}

/// The two states of one pair of strengths, linked by the rounds that do no damage. Values
/// (backward): (1 - stay0) v0 - swap0 v1 = r0, -swap1 v0 + (1 - stay1) v1 = r1. Visits
/// (forward, `visits`): the transposed system, since a swap from state 1 enters state 0.
std::pair<double, double> solve(const Chain& c, double r0, double r1, bool visits = false) {
    const double a11 = 1 - c.stay[0], a22 = 1 - c.stay[1];
    const double a12 = visits ? -c.swap[1] : -c.swap[0], a21 = visits ? -c.swap[0] : -c.swap[1];
    const double det = a11 * a22 - a12 * a21;
    return {(r0 * a22 - a12 * r1) / det, (a11 * r1 - a21 * r0) / det};
}

// --- search tables -------------------------------------------------------------------------

constexpr int kMaxA = kMaxStrength + kHeartBonusAttacker;  // 165
constexpr int kMaxD = kMaxStrength + kHeartBonusDefender;  // 155

struct Entry {
    float win;
    std::uint8_t attacker_strength;  // E[A's final strength | A wins], uncapped, rounded
    std::uint8_t defender_strength;  // E[D's final strength | D wins]
};

using Table = std::vector<Entry>;  // (kMaxA + 1) x (kMaxD + 1), A casting two first

std::size_t index(int a, int d) {
    return std::size_t(a) * (kMaxD + 1) + std::size_t(d);
}

std::unique_ptr<Table> build_table(PieceType at, PieceType dt) {
    const Chain c = chain(at, dt);
    const std::size_t n = std::size_t(kMaxA + 1) * (kMaxD + 1);
    // Per state (a, d, who casts two): P(A wins), E[A final; A wins], E[D final; D wins].
    std::array<std::vector<double>, 2> w, ea, ed;
    for (int x = 0; x < 2; ++x) {
        w[std::size_t(x)].assign(n, 0);
        ea[std::size_t(x)].assign(n, 0);
        ed[std::size_t(x)].assign(n, 0);
    }
    auto table = std::make_unique<Table>(n, Entry{0, 0, 0});
    for (int a = 1; a <= kMaxA; ++a)
        for (int d = 1; d <= kMaxD; ++d) {
            std::array<double, 2> rw{}, rea{}, red{};
            for (int x = 0; x < 2; ++x)
                for (const Step& s : c.steps[std::size_t(x)]) {
                    const int na = a - s.a_loss, nd = d - s.d_loss;
                    double sw, sea, sed;
                    if (na <= 0) {
                        sw = 0, sea = 0, sed = d;
                    } else if (nd <= 0) {
                        sw = 1, sea = a, sed = 0;
                    } else {
                        const std::size_t j = index(na, nd);
                        sw = w[std::size_t(s.next_two)][j];
                        sea = ea[std::size_t(s.next_two)][j];
                        sed = ed[std::size_t(s.next_two)][j];
                    }
                    rw[std::size_t(x)] += s.p * sw;
                    rea[std::size_t(x)] += s.p * sea;
                    red[std::size_t(x)] += s.p * sed;
                }
            const std::size_t i = index(a, d);
            std::tie(w[0][i], w[1][i]) = solve(c, rw[0], rw[1]);
            std::tie(ea[0][i], ea[1][i]) = solve(c, rea[0], rea[1]);
            std::tie(ed[0][i], ed[1][i]) = solve(c, red[0], red[1]);
            const double win = w[0][i];
            Entry& e = (*table)[i];
            e.win = float(win);
            e.attacker_strength =
                std::uint8_t(win > 1e-12 ? std::clamp(std::lround(ea[0][i] / win), 1l, 255l) : 1);
            e.defender_strength = std::uint8_t(
                win < 1 - 1e-12 ? std::clamp(std::lround(ed[0][i] / (1 - win)), 1l, 255l) : 1);
        }
    return table;
}

struct Tables {
    std::array<std::once_flag, kPieceTypes * kPieceTypes> once;
    std::array<std::unique_ptr<Table>, kPieceTypes * kPieceTypes> table;
};

Tables& tables() {
    static Tables t;
    return t;
}

const Table& table_for(PieceType a, PieceType d) {
    Tables& t = tables();
    const std::size_t k = std::size_t(a) * kPieceTypes + d;
    std::call_once(t.once[k], [&] { t.table[k] = build_table(a, d); });
    return *t.table[k];
}

}  // namespace

std::optional<std::string> check(const Fighter& a, const Fighter& d) {
    if (a.type == WALL) return "a wall cannot attack (Laws 3.11.4)";
    for (const Fighter* f : {&a, &d}) {
        const char* who = f == &a ? "attacker" : "defender";
        const int initial = kInitialStrength[f->type];
        if (f->strength < 1 || f->strength > initial)
            return std::string(who) + ": strength " + std::to_string(f->strength) + " outside 1.." +
                   std::to_string(initial) + " for " + kPieceChar[f->type];
        if (f->heart && (f->type == BISHOP || f->type == KNIGHT))
            return std::string(who) + ": " + kPieceChar[f->type] +
                   " cannot carry a heart (carriers: Q R P W)";
    }
    return std::nullopt;
}

std::variant<Fighter, std::string> parse_fighter(std::string_view s) {
    const std::string shown(s.substr(0, 20));
    if (s.size() < 2) return "'" + shown + "' is not a piece letter and a strength (e.g. Q96h)";
    Fighter f;
    const auto it = std::find(kPieceChar.begin(), kPieceChar.begin() + kPieceTypes, s[0]);
    if (it == kPieceChar.begin() + kPieceTypes)
        return "'" + shown + "': unknown piece letter (Q R B N P W)";
    f.type = PieceType(it - kPieceChar.begin());
    std::string_view num = s.substr(1);
    if (!num.empty() && num.back() == 'h') {
        f.heart = true;
        num.remove_suffix(1);
    }
    auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), f.strength);
    if (num.empty() || ec != std::errc() || p != num.data() + num.size())
        return "'" + shown + "' is not a piece letter, a strength and an optional h (e.g. Q96h)";
    return f;
}

FightDistribution exact(const Fighter& a, const Fighter& d) {
    const Chain c = chain(a.type, d.type);
    const int a0 = a.strength + (a.heart ? kHeartBonusAttacker : 0);
    const int d0 = d.strength + (d.heart ? kHeartBonusDefender : 0);
    FightDistribution o;
    o.attacker.assign(std::size_t(a.strength) + 1, 0);
    o.defender.assign(std::size_t(d.strength) + 1, 0);
    // Probability mass entering each state, A casting two (0) or D (1). Every step lowers a
    // strength, so states are processed with a, then d, descending.
    const auto idx = [&](int x, int y) { return std::size_t(x) * std::size_t(d0 + 1) + y; };
    std::array<std::vector<double>, 2> mass;
    for (auto& m : mass) m.assign(std::size_t(a0 + 1) * std::size_t(d0 + 1), 0);
    mass[0][idx(a0, d0)] = 1;
    for (int x = a0; x >= 1; --x)
        for (int y = d0; y >= 1; --y) {
            const double m0 = mass[0][idx(x, y)], m1 = mass[1][idx(x, y)];
            if (m0 == 0 && m1 == 0) continue;
            // Visits of each state, the zero-damage rounds between them included.
            const auto [v0, v1] = solve(c, m0, m1, true);
            const std::array<double, 2> v{v0, v1};
            for (int s = 0; s < 2; ++s)
                for (const Step& st : c.steps[std::size_t(s)]) {
                    const double p = v[std::size_t(s)] * st.p;
                    const int na = x - st.a_loss, nd = y - st.d_loss;
                    if (na <= 0)
                        o.defender[std::size_t(std::min(nd, d.strength))] += p;
                    else if (nd <= 0)
                        o.attacker[std::size_t(std::min(na, a.strength))] += p;
                    else
                        mass[std::size_t(st.next_two)][idx(na, nd)] += p;
                }
        }
    for (double p : o.attacker) o.win += p;
    return o;
}

std::string format(const FightDistribution& o) {
    std::string out;
    char buf[64];
    std::snprintf(buf, sizeof buf, "win %.15g\n", o.win);
    out += buf;
    for (std::size_t n = 1; n < o.attacker.size(); ++n)
        if (o.attacker[n] > 0) {
            std::snprintf(buf, sizeof buf, "A %zu %.15g\n", n, o.attacker[n]);
            out += buf;
        }
    for (std::size_t n = 1; n < o.defender.size(); ++n)
        if (o.defender[n] > 0) {
            std::snprintf(buf, sizeof buf, "D %zu %.15g\n", n, o.defender[n]);
            out += buf;
        }
    return out;
}

Odds odds(const Fighter& a, const Fighter& d) {
    const Table& t = table_for(a.type, d.type);
    const int a0 = std::clamp(a.strength + (a.heart ? kHeartBonusAttacker : 0), 1, kMaxA);
    const int d0 = std::clamp(d.strength + (d.heart ? kHeartBonusDefender : 0), 1, kMaxD);
    const Entry& e = t[index(a0, d0)];
    Odds o;
    o.win = e.win;
    o.attacker_strength = std::uint8_t(std::clamp(int(e.attacker_strength), 1, a.strength));
    o.defender_strength = std::uint8_t(std::clamp(int(e.defender_strength), 1, d.strength));
    return o;
}

std::pair<Fighter, Fighter> fighters(const Position& pos, Move m) {
    const Man am = pos.man_on(m.from()), dm = pos.man_on(m.to());
    Fighter a{man_type(am), pos.strength(m.from()), m.carries_heart()};
    Fighter d{man_type(dm), pos.strength(m.to()), pos.heart(man_colour(dm)) == m.to()};
    return {a, d};
}

double build_all_tables() {
    const auto t0 = std::chrono::steady_clock::now();
    for (int a = 0; a < kPieceTypes; ++a)
        for (int d = 0; d < kPieceTypes; ++d)
            if (a != WALL) table_for(PieceType(a), PieceType(d));
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::uint64_t Spindles::next() {  // SPEC 16
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

namespace {

/// The fight of App. D with rounds from `next_round` (which returns false when it has none
/// left). Returns the fight, or nullopt when the rounds ran out first.
template <typename NextRound>
std::optional<Fight> fight(const Fighter& a, const Fighter& d, NextRound&& next_round) {
    std::array<int, 2> str{a.strength + (a.heart ? kHeartBonusAttacker : 0),
                           d.strength + (d.heart ? kHeartBonusDefender : 0)};
    const std::array<PieceType, 2> type{a.type, d.type};
    int two = 0;  // A casts two first (D.1.5)
    Fight f;
    while (true) {
        Round r;
        if (!next_round(r)) return std::nullopt;
        f.rounds.push_back(r);
        const int one = 1 - two;
        const RoundResult x =
            resolve(type[std::size_t(two)], type[std::size_t(one)], r.two_a, r.two_b, r.one);
        const int hit = x.caster_of_one_hit ? one : two;
        str[std::size_t(hit)] -= x.damage;
        f.outcomes.push_back({two == 0, hit == 0, x.damage, str[0], str[1]});
        if (str[std::size_t(hit)] <= 0) {
            f.attacker_won = hit == 1;
            const int winner = 1 - hit;
            const int before = winner == 0 ? a.strength : d.strength;
            f.strength = std::min(str[std::size_t(winner)], before);
            return f;
        }
        if (!x.triple) two = hit;  // D.4: this round's defender casts two next
    }
}

}  // namespace

Fight cast(const Fighter& a, const Fighter& d, Spindles& dice) {
    auto f = fight(a, d, [&](Round& r) {
        r.two_a = dice.cast();
        r.two_b = dice.cast();
        r.one = dice.cast();
        return true;
    });
    return *f;
}

std::variant<Fight, std::string> replay(const Fighter& a, const Fighter& d,
                                        const std::vector<Round>& rounds) {
    for (const Round& r : rounds)
        for (int s : {r.two_a, r.two_b, r.one})
            if (s < 1 || s > 6) return std::string("a spindle outside 1..6");
    std::size_t i = 0;
    auto f = fight(a, d, [&](Round& r) {
        if (i == rounds.size()) return false;
        r = rounds[i++];
        return true;
    });
    if (!f) return "the fight is not over after its " + std::to_string(rounds.size()) + " rounds";
    if (i != rounds.size())
        return "the fight ended after " + std::to_string(i) + " of its " +
               std::to_string(rounds.size()) + " rounds";
    return *f;
}

std::string spindles_text(const Fight& f) {
    std::string s = "spindles";
    for (const Round& r : f.rounds)
        s += ' ' + std::to_string(r.two_a) + ',' + std::to_string(r.two_b) + '|' +
             std::to_string(r.one);
    return s;
}

std::optional<std::vector<Round>> parse_spindles(std::string_view s) {
    std::vector<Round> out;
    std::size_t i = 0;
    auto digit = [&](int& v) {
        if (i >= s.size() || s[i] < '1' || s[i] > '6') return false;
        v = s[i++] - '0';
        return true;
    };
    auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
    while (i < s.size()) {
        if (space(s[i])) {  // records wrap comments: any white space separates rounds
            ++i;
            continue;
        }
        Round r;
        if (!digit(r.two_a) || i >= s.size() || s[i++] != ',' || !digit(r.two_b) || i >= s.size() ||
            s[i++] != '|' || !digit(r.one))
            return std::nullopt;
        if (i < s.size() && !space(s[i])) return std::nullopt;
        out.push_back(r);
    }
    if (out.empty()) return std::nullopt;
    return out;
}

}  // namespace klinzha::combat
