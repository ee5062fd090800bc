// tools/gui/util.h: small helpers klinzha-gui's parts share: a steady clock in ms, words of
// a line, colour letters (SPEC 10: g, b, k) and the rule options as (name, value) pairs for
// `setoption` (SPEC 8, 13). Header-only; none throws.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/rules.h"
#include "engine/types.h"

namespace klinzha::gui {

/// Milliseconds of the steady clock (for intervals, never stored).
inline std::int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/// The whitespace-separated words of s.
inline std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string t; in >> t;) w.push_back(t);
    return w;
}

/// The letter of colour c (`g`, `b`, `k`).
inline std::string colour_name(Colour c) {
    return std::string(1, kColourChar[c]);
}

/// Every rule option of r as (name, value), as Rules::to_string() lists them (SPEC 8).
inline std::vector<std::pair<std::string, std::string>> rule_pairs(const Rules& r) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& w : words(r.to_string()))
        if (auto eq = w.find('='); eq != std::string::npos)
            out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
    return out;
}

}  // namespace klinzha::gui
