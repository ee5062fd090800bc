// engine/rules.h: the rule options of SPEC section 8 as one value that move generation reads.
//
// Every rule choice lives here (rules as data); no other code hides a rule in an `if` of
// its own. Defaults are the Romulan Heart 2008 rules (SPEC 8).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace klinzha {

struct Rules {
    /// In play, a move is illegal if after it an opponent could capture the mover's heart
    /// (a move that wins the game stays legal). Loyd 1989 / RH V2, Agonizer, Italian rules 5.
    bool goal_safety = false;
    /// Pawns move 1 or 2 steps along any path. RH V9, Laws 13.2.
    bool power_vanguard = false;
    /// false: a knight may not jump over an opposing wall. Italian rules (Flier).
    bool flier_jumps_walls = true;
    /// Separators may be used for setup by both neighbouring regions. RH V10, Laws 13.5.
    bool forward_placement = false;
    /// Players place one piece each in turn (g, b, k, g, ...), hearts last. RH V11, Laws 13.1.
    bool alternating_placement = false;

    bool operator==(const Rules&) const = default;

    /// Sets the option `name` (SPEC 8 spelling, case-insensitive) from "true"/"false".
    /// Returns an error message, or nullopt on success (then *this is changed).
    std::optional<std::string> set(std::string_view name, std::string_view value);

    /// The options as `Name=value` words separated by spaces, every option listed.
    std::string to_string() const;

    /// The preset named by UCI_Variant (SPEC 8): "romulan-heart" or "klin-zha-open".
    /// Returns nullopt for an unknown name.
    static std::optional<Rules> preset(std::string_view name);
};

/// The names of the boolean rule options of SPEC 8, in SPEC order.
inline constexpr const char* kRuleOptionNames[] = {"GoalSafety", "PowerVanguard", "FlierJumpsWalls",
                                                   "ForwardPlacement", "AlternatingPlacement"};

/// Case-insensitive equality of ASCII strings.
bool iequals(std::string_view a, std::string_view b);

/// Parses "true"/"false" (any case; also 1/0, on/off). nullopt for anything else.
std::optional<bool> parse_bool(std::string_view s);

}  // namespace klinzha
