// engine/rules.cpp: the option table, option values as text, and the presets of SPEC 8.
#include "rules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

namespace klinzha {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::optional<bool> parse_bool(std::string_view s) {
    if (iequals(s, "true") || s == "1" || iequals(s, "on")) return true;
    if (iequals(s, "false") || s == "0" || iequals(s, "off")) return false;
    return std::nullopt;
}

using T = RuleOption::Type;
const std::array<RuleOption, 18> kRuleOptions = {{
    {"GoalSafety",
     T::Check,
     "false",
     0,
     0,
     {},
     "no move may leave the own heart open to capture (Loyd, RH V2)"},
    {"PowerVanguard", T::Check, "false", 0, 0, {}, "pawns move 1 or 2 steps, any path (RH V9)"},
    {"FlierJumpsWalls",
     T::Check,
     "true",
     0,
     0,
     {},
     "false: knights may not jump over an opposing wall (Italian rules)"},
    {"ForwardPlacement",
     T::Check,
     "false",
     0,
     0,
     {},
     "separators usable for setup by both neighbouring regions (RH V10)"},
    {"AlternatingPlacement",
     T::Check,
     "false",
     0,
     0,
     {},
     "players place one piece each in turn, hearts last (RH V11)"},
    {"RelationDilemma",
     T::Check,
     "false",
     0,
     0,
     {},
     "three players: each captures only the next colour; first heart capture wins (RH V1)"},
    {"Ablative",
     T::Spin,
     "0",
     -1,
     81,
     {},
     "0 off; N: cells left are ablated, at most N at a time; -1 no limit (RH V5)"},
    {"KaggasCrown",
     T::Combo,
     "off",
     0,
     0,
     {"off", "region", "apex"},
     "two players: a heart carried into Black's region (or onto a19) must be taken at once (RH "
     "V8)"},
    {"HonorInSetup",
     T::Check,
     "false",
     0,
     0,
     {},
     "no man placed where an enemy fencer could never reach it (Laws 13.8)"},
    {"HeartFirst",
     T::Check,
     "false",
     0,
     0,
     {},
     "each player places its heart right after its pieces (RH V10, Laws 13.5)"},
    {"Reflective",
     T::Check,
     "false",
     0,
     0,
     {},
     "two players share one army and one heart (RH V6, Agonizer)"},
    {"DrawRule",
     T::Combo,
     "standard",
     0,
     0,
     {"standard", "none", "italian"},
     "draws: standard (RH 5.4-5.5), none, italian (20 moves each)"},
    {"Courier",
     T::Check,
     "false",
     0,
     0,
     {},
     "only the carrier the heart was placed on may carry it (Italian rules)"},
    {"BlockaderTraps",
     T::Check,
     "false",
     0,
     0,
     {},
     "walls may end next to any men, which are then held (Italian rules)"},
    {"GoalCrossesZoneIfThreatened",
     T::Check,
     "false",
     0,
     0,
     {},
     "the heart crosses its own wall's zone only when attacked (Italian rules)"},
    {"BlockaderTakesGoalLast",
     T::Check,
     "false",
     0,
     0,
     {},
     "a wall takes a lone heart only as its owner's last piece (Italian rules)"},
    {"Blind",
     T::Check,
     "false",
     0,
     0,
     {},
     "each player sees only its own men; a referee is the arbiter (RH V4)"},
    {"Kinta",
     T::Check,
     "false",
     0,
     0,
     {},
     "captures are fights decided by spindles; walls carry and may be attacked (RH V7)"},
}};

namespace {

constexpr const char* kCrownNames[] = {"off", "region", "apex"};
constexpr const char* kDrawNames[] = {"standard", "none", "italian"};

bool* check_field(Rules& r, std::size_t i) {
    switch (i) {
        case 0:
            return &r.goal_safety;
        case 1:
            return &r.power_vanguard;
        case 2:
            return &r.flier_jumps_walls;
        case 3:
            return &r.forward_placement;
        case 4:
            return &r.alternating_placement;
        case 5:
            return &r.relation_dilemma;
        case 8:
            return &r.honor_in_setup;
        case 9:
            return &r.heart_first;
        case 10:
            return &r.reflective;
        case 12:
            return &r.courier;
        case 13:
            return &r.blockader_traps;
        case 14:
            return &r.goal_crosses_zone_if_threatened;
        case 15:
            return &r.blockader_takes_goal_last;
        case 16:
            return &r.blind;
        case 17:
            return &r.kinta;
        default:
            return nullptr;
    }
}

int find(std::string_view name) {
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i)
        if (iequals(name, kRuleOptions[i].name)) return int(i);
    return -1;
}

std::string value_text(const Rules& r, std::size_t i) {
    if (i == 6) return std::to_string(r.ablative);
    if (i == 7) return kCrownNames[int(r.kaggas_crown)];
    if (i == 11) return kDrawNames[int(r.draw_rule)];
    return *check_field(const_cast<Rules&>(r), i) ? "true" : "false";
}

}  // namespace

std::optional<std::string> Rules::set(std::string_view name, std::string_view value) {
    if (iequals(name, "UCI_Variant")) {
        auto p = preset(value);
        if (!p) return "unknown variant '" + std::string(value) + "'";
        *this = *p;
        return std::nullopt;
    }
    const int i = find(name);
    if (i < 0) return "unknown rule option '" + std::string(name) + "'";
    const RuleOption& o = kRuleOptions[std::size_t(i)];
    const std::string v(value);
    switch (o.type) {
        case RuleOption::Type::Check: {
            auto b = parse_bool(value);
            if (!b)
                return "rule option " + std::string(o.name) + " takes true or false, not '" + v +
                       "'";
            *check_field(*this, std::size_t(i)) = *b;
            return std::nullopt;
        }
        case RuleOption::Type::Spin: {
            int n = 0;
            auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || ec != std::errc() || p != v.data() + v.size() || n < o.min ||
                n > o.max)
                return "rule option " + std::string(o.name) + " takes a whole number " +
                       std::to_string(o.min) + ".." + std::to_string(o.max) + ", not '" + v + "'";
            ablative = n;
            return std::nullopt;
        }
        case RuleOption::Type::Combo: {
            for (int k = 0; k < 3 && o.choices[std::size_t(k)]; ++k)
                if (iequals(value, o.choices[std::size_t(k)])) {
                    if (i == 7)
                        kaggas_crown = Crown(k);
                    else
                        draw_rule = DrawRule(k);
                    return std::nullopt;
                }
            std::string all;
            for (auto* c : o.choices)
                if (c) all += std::string(all.empty() ? "" : ", ") + c;
            return "rule option " + std::string(o.name) + " takes one of " + all + ", not '" + v +
                   "'";
        }
    }
    return "unknown rule option '" + std::string(name) + "'";
}

std::optional<std::string> Rules::set_all(std::string_view words) {
    Rules r = *this;
    std::istringstream in{std::string(words)};
    for (std::string w; in >> w;) {
        const auto eq = w.find('=');
        if (eq == std::string::npos) return "expected Name=value, not '" + w + "'";
        if (auto err = r.set(w.substr(0, eq), w.substr(eq + 1))) return err;
    }
    *this = r;
    return std::nullopt;
}

std::string Rules::to_string() const {
    std::string s;
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i) {
        if (!s.empty()) s += ' ';
        s += std::string(kRuleOptions[i].name) + '=' + value_text(*this, i);
    }
    return s;
}

std::optional<Rules> Rules::preset(std::string_view name) {
    Rules r;
    if (iequals(name, "romulan-heart")) return r;
    if (iequals(name, "klin-zha-open")) {
        r.goal_safety = true;
        return r;
    }
    if (iequals(name, "klin-zha-italian")) {  // SPEC 23
        r.goal_safety = true;
        r.courier = true;
        r.blockader_traps = true;
        r.goal_crosses_zone_if_threatened = true;
        r.blockader_takes_goal_last = true;
        r.flier_jumps_walls = false;
        r.draw_rule = DrawRule::Italian;
        return r;
    }
    if (iequals(name, "klin-zha-reflective")) {  // SPEC 21
        r.reflective = true;
        return r;
    }
    return std::nullopt;
}

Rules Rules::effective(int players) const {
    Rules r = *this;
    if (players != 3) r.relation_dilemma = false;
    if (players != 2) {
        r.kaggas_crown = Crown::Off;
        r.reflective = false;
    }
    if (r.reflective) {  // SPEC 21: these have no effect in a Reflective game
        r.alternating_placement = r.heart_first = r.honor_in_setup = false;
        r.kaggas_crown = Crown::Off;
        r.relation_dilemma = false;
        r.courier = r.blockader_traps = false;
        r.goal_crosses_zone_if_threatened = r.blockader_takes_goal_last = false;
    }
    if (r.alternating_placement) r.heart_first = false;  // SPEC 20 Decision
    if (r.blind) {  // SPEC 25 Decision: these have no effect in a blind game
        r.goal_safety = r.reflective = false;
        r.kaggas_crown = Crown::Off;
        r.ablative = 0;
    }
    if (r.blind || r.reflective) r.kinta = false;  // SPEC 26: no effect under either
    return r;
}

int Rules::required_players() const {
    const bool two = kaggas_crown != Crown::Off || reflective;
    if (two && relation_dilemma) return -1;
    if (two) return 2;
    if (relation_dilemma) return 3;
    return 0;
}

std::string Rules::variant_name() const {
    for (auto* n : kVariantNames)
        if (preset(n) == *this) return n;
    return "";
}

}  // namespace klinzha
