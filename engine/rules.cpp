// engine/rules.cpp: option names and presets of SPEC 8.
#include "rules.h"

#include <algorithm>
#include <cctype>

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
bool* field(Rules& r, std::string_view name) {
    bool* f[] = {&r.goal_safety, &r.power_vanguard, &r.flier_jumps_walls, &r.forward_placement,
                 &r.alternating_placement};
    for (std::size_t i = 0; i < std::size(kRuleOptionNames); ++i)
        if (iequals(name, kRuleOptionNames[i])) return f[i];
    return nullptr;
}
}  // namespace

std::optional<std::string> Rules::set(std::string_view name, std::string_view value) {
    bool* f = field(*this, name);
    if (!f) return "unknown rule option '" + std::string(name) + "'";
    auto b = parse_bool(value);
    if (!b)
        return "rule option " + std::string(name) + " takes true or false, not '" +
               std::string(value) + "'";
    *f = *b;
    return std::nullopt;
}

std::string Rules::to_string() const {
    Rules copy = *this;
    std::string s;
    for (auto* name : kRuleOptionNames) {
        if (!s.empty()) s += ' ';
        s += std::string(name) + '=' + (*field(copy, name) ? "true" : "false");
    }
    return s;
}

std::optional<Rules> Rules::preset(std::string_view name) {
    if (iequals(name, "romulan-heart")) return Rules{};
    if (iequals(name, "klin-zha-open")) {
        Rules r;
        r.goal_safety = true;
        return r;
    }
    return std::nullopt;
}

}  // namespace klinzha
