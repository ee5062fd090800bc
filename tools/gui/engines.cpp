// tools/gui/engines.cpp: see engines.h.
#include "engines.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "engine/rules.h"
#include "util.h"

namespace klinzha::gui {

namespace {

bool is_rule_option(const std::string& name) {
    if (name == "UCI_Variant" || name == "Players") return true;
    return std::any_of(std::begin(kRuleOptions), std::end(kRuleOptions),
                       [&](const RuleOption& r) { return name == r.name; });
}

}  // namespace

std::variant<std::vector<EngineOption>, std::string> query_engine_options(
    const match::EngineSpec& spec, std::int64_t timeout_ms) {
    match::ProcessPlayer p(spec);
    if (auto err = p.spawn()) return *err;
    if (!p.send_line("uci")) return "engine '" + spec.name + "' died at once";
    std::vector<EngineOption> out;
    const auto deadline = steady_ms() + timeout_ms;
    while (true) {
        auto line = p.read_line_within(std::max<std::int64_t>(0, deadline - steady_ms()));
        if (!line) return "engine '" + spec.name + "' did not answer uci";
        if (*line == "uciok") break;
        auto w = words(*line);
        if (w.size() < 5 || w[0] != "option" || w[1] != "name") continue;
        EngineOption o;
        std::size_t i = 2;
        for (; i < w.size() && w[i] != "type"; ++i) o.name += (o.name.empty() ? "" : " ") + w[i];
        if (i + 1 < w.size()) o.type = w[++i];  // the word after `type`
        for (++i; i < w.size(); ++i) {
            if (w[i] == "default") {
                o.default_value.clear();
                while (i + 1 < w.size() && w[i + 1] != "min" && w[i + 1] != "max" &&
                       w[i + 1] != "var")
                    o.default_value += (o.default_value.empty() ? "" : " ") + w[++i];
            } else if (w[i] == "min" && i + 1 < w.size())
                o.min = std::atoi(w[++i].c_str());
            else if (w[i] == "max" && i + 1 < w.size())
                o.max = std::atoi(w[++i].c_str());
            else if (w[i] == "var" && i + 1 < w.size())
                o.vars.push_back(w[++i]);
        }
        out.push_back(o);
    }
    p.send_line("quit");
    return out;
}

void apply_page_policy(EngineEntry& e, const std::set<std::string>& extra, bool none) {
    e.page_options.clear();
    for (const auto& o : e.options) {
        const bool typed = o.type == "spin" || o.type == "check" || o.type == "combo";
        if (!typed || is_rule_option(o.name)) continue;
        const bool by_default = !none && o.name != "Hash" && o.name != "Threads";
        if (by_default || extra.count(o.name)) e.page_options.insert(o.name);
    }
}

std::optional<std::string> check_page_option(const EngineEntry& e, const std::string& name,
                                             const std::string& value) {
    const auto it = std::find_if(e.options.begin(), e.options.end(),
                                 [&](const EngineOption& o) { return o.name == name; });
    if (it == e.options.end()) return e.spec.name + " has no option '" + name + "'";
    if (!e.page_options.count(name))
        return "the option '" + name + "' of " + e.spec.name +
               " is not one the page may set (the operator allows them: --page-option)";
    if (it->type == "spin") {
        std::size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != value.size() || v < it->min || v > it->max)
            return "option '" + name + "': give a whole number in " + std::to_string(it->min) +
                   ".." + std::to_string(it->max);
    } else if (it->type == "check") {
        if (value != "true" && value != "false") return "option '" + name + "': true or false";
    } else if (it->type == "combo") {
        if (std::find(it->vars.begin(), it->vars.end(), value) == it->vars.end())
            return "option '" + name + "': not one of its values";
    }
    return std::nullopt;
}

std::variant<std::optional<int>, std::string> skill_for_page_level(const EngineEntry& e,
                                                                   int level) {
    // Skill Level of page levels 1..7 (8: full strength), from the measured ladder.
    static constexpr int kSkill[kPageLevels - 1] = {0, 2, 5, 8, 11, 14, 17};
    if (level < 1 || level > kPageLevels) return "a level is 1.." + std::to_string(kPageLevels);
    if (level == kPageLevels) return std::optional<int>();
    const auto it = std::find_if(e.options.begin(), e.options.end(), [](const EngineOption& o) {
        return o.name == "Skill Level" && o.type == "spin";
    });
    if (it == e.options.end()) return e.spec.name + " offers no levels (no Skill Level option)";
    return std::optional<int>(std::clamp(kSkill[level - 1], it->min, it->max));
}

}  // namespace klinzha::gui
