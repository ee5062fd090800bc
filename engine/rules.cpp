// engine/rules.cpp: the option table, option values as text, and the presets of SPEC 8.
#include "rules.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <type_traits>

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

namespace {

RuleOption check(const char* name, bool Rules::*field, const char* help) {
    return {name, field, 0, 0, {}, help};
}
RuleOption spin(const char* name, int Rules::*field, int min, int max, const char* help) {
    return {name, field, min, max, {}, help};
}
template <class E>
RuleOption combo(const char* name, E Rules::*field, std::array<const char*, 3> choices,
                 const char* help) {
    return {name, field, 0, 0, choices, help};
}

}  // namespace

// Each option's name bound to its field of Rules, once (Fairy-Stockfish's parse_attribute):
// set(), to_string(), the protocol's option list and the GUI's rule form all read this row.
const std::array<RuleOption, 18> kRuleOptions = {{
    check("GoalSafety", &Rules::goal_safety,
          "no move may leave the own heart open to capture (Loyd, RH V2)"),
    check("PowerVanguard", &Rules::power_vanguard, "pawns move 1 or 2 steps, any path (RH V9)"),
    check("FlierJumpsWalls", &Rules::flier_jumps_walls,
          "false: knights may not jump over an opposing wall (Italian rules)"),
    check("ForwardPlacement", &Rules::forward_placement,
          "separators usable for setup by both neighbouring regions (RH V10)"),
    check("AlternatingPlacement", &Rules::alternating_placement,
          "players place one piece each in turn, hearts last (RH V11)"),
    check("RelationDilemma", &Rules::relation_dilemma,
          "three players: each captures only the next colour; first heart capture wins (RH V1)"),
    spin("Ablative", &Rules::ablative, -1, 81,
         "0 off; N: cells left are ablated, at most N at a time; -1 no limit (RH V5)"),
    combo("KaggasCrown", &Rules::kaggas_crown, {"off", "region", "apex"},
          "two players: a heart carried into Black's region (or onto a19) must be taken at once "
          "(RH V8)"),
    check("HonorInSetup", &Rules::honor_in_setup,
          "no man placed where an enemy fencer could never reach it (Laws 13.8)"),
    check("HeartFirst", &Rules::heart_first,
          "each player places its heart right after its pieces (RH V10, Laws 13.5)"),
    check("Reflective", &Rules::reflective,
          "two players share one army and one heart (RH V6, Agonizer)"),
    combo("DrawRule", &Rules::draw_rule, {"standard", "none", "italian"},
          "draws: standard (RH 5.4-5.5), none, italian (20 moves each)"),
    check("Courier", &Rules::courier,
          "only the carrier the heart was placed on may carry it (Italian rules)"),
    check("BlockaderTraps", &Rules::blockader_traps,
          "walls may end next to any men, which are then held (Italian rules)"),
    check("GoalCrossesZoneIfThreatened", &Rules::goal_crosses_zone_if_threatened,
          "the heart crosses its own wall's zone only when attacked (Italian rules)"),
    check("BlockaderTakesGoalLast", &Rules::blockader_takes_goal_last,
          "a wall takes a lone heart only as its owner's last piece (Italian rules)"),
    check("Blind", &Rules::blind,
          "each player sees only its own men; a referee is the arbiter (RH V4)"),
    check("Kinta", &Rules::kinta,
          "captures are fights decided by spindles; walls carry and may be attacked (RH V7)"),
}};

RuleOption::Type RuleOption::type() const {
    switch (field.index()) {
        case 0:
            return Type::Check;
        case 1:
            return Type::Spin;
        default:
            return Type::Combo;
    }
}

std::string RuleOption::value_text(const Rules& r) const {
    return std::visit(
        [&](auto member) -> std::string {
            const auto& v = r.*member;
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<V, int>)
                return std::to_string(v);
            else
                return choices[std::size_t(v)];
        },
        field);
}

std::string RuleOption::default_text() const {
    return value_text(Rules{});
}

std::optional<std::string> RuleOption::apply(Rules& r, std::string_view value) const {
    const std::string v(value);
    return std::visit(
        [&](auto member) -> std::optional<std::string> {
            auto& f = r.*member;
            using V = std::decay_t<decltype(f)>;
            if constexpr (std::is_same_v<V, bool>) {
                auto b = parse_bool(value);
                if (!b)
                    return "rule option " + std::string(name) + " takes true or false, not '" + v +
                           "'";
                f = *b;
            } else if constexpr (std::is_same_v<V, int>) {
                int n = 0;
                auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
                if (v.empty() || ec != std::errc() || p != v.data() + v.size() || n < min ||
                    n > max)
                    return "rule option " + std::string(name) + " takes a whole number " +
                           std::to_string(min) + ".." + std::to_string(max) + ", not '" + v + "'";
                f = n;
            } else {
                for (std::size_t k = 0; k < choices.size() && choices[k]; ++k)
                    if (iequals(value, choices[k])) {
                        f = V(k);
                        return std::nullopt;
                    }
                std::string all;
                for (auto* c : choices)
                    if (c) all += std::string(all.empty() ? "" : ", ") + c;
                return "rule option " + std::string(name) + " takes one of " + all + ", not '" + v +
                       "'";
            }
            return std::nullopt;
        },
        field);
}

namespace {

int find(std::string_view name) {
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i)
        if (iequals(name, kRuleOptions[i].name)) return int(i);
    return -1;
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
    return kRuleOptions[std::size_t(i)].apply(*this, value);  // unchanged on an error
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
        s += std::string(kRuleOptions[i].name) + '=' + kRuleOptions[i].value_text(*this);
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
