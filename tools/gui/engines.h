// tools/gui/engines.h: the engines klinzha-gui may run (only those its operator named on the
// command line; the page never gives a command) and the options a page may set on them.
//
// A page may set an engine option only when the operator allowed it: by default the `spin`,
// `check` and `combo` options except the rule options (SPEC 8: they come from the rule table
// of the new-game form, never from the engine's list), `Players`, `UCI_Variant`, `Hash` and
// `Threads` (memory and cores are the operator's), and never a `string` or `button` option
// (a `string` may name a file, as `Debug Log File` does). `--page-option NAME` allows one
// more spin/check/combo option by name; `--no-page-options` allows none. Sources: SPEC 13
// (option lines), docs/gui.md "Security".
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "player.h"

namespace klinzha::gui {

/// An engine option as its `uci` answer declares it (SPEC 13 option lines).
struct EngineOption {
    std::string name, type, default_value;
    int min = 0, max = 0;
    std::vector<std::string> vars;
};

/// An engine the server may run: its name, command, the options it declares, and which of
/// them the page may set (names; filled by apply_page_policy).
struct EngineEntry {
    match::EngineSpec spec;
    std::vector<EngineOption> options;
    std::set<std::string> page_options;
};

/// Asks the engine for its option list (`uci` ... `uciok`). Returns the options, or an
/// error message when it does not start or answer within `timeout_ms`.
std::variant<std::vector<EngineOption>, std::string> query_engine_options(
    const match::EngineSpec& spec, std::int64_t timeout_ms = 10000);

/// Fills e.page_options by the policy above: the default list unless `none`, plus the names
/// in `extra` that are spin/check/combo options of e.
void apply_page_policy(EngineEntry& e, const std::set<std::string>& extra, bool none);

/// The page's levels 1..kPageLevels (issue 26, as lichess offers 1-8): each the `Skill
/// Level` (0-20, the option chess GUIs know from Stockfish) it sets on an engine that has
/// that option; level kPageLevels plays at full strength (the option left at its default).
/// The skill levels chosen are spaced by the calibration of docs/search.md ("Levels"), so
/// each page level beats the one below it.
inline constexpr int kPageLevels = 8;

/// The `Skill Level` for page level `level` (1..kPageLevels), or nullopt at full strength.
/// Errors: a level outside 1..kPageLevels, or an engine without a `Skill Level` spin
/// option, gives the message instead (the std::string alternative).
std::variant<std::optional<int>, std::string> skill_for_page_level(const EngineEntry& e, int level);

/// Checks one option value a page sent for engine e: the option must be in e.page_options,
/// and the value fit its type (a spin within min..max, a check true/false, a combo one of its
/// vars). Returns the error message, or nullopt.
std::optional<std::string> check_page_option(const EngineEntry& e, const std::string& name,
                                             const std::string& value);

}  // namespace klinzha::gui
