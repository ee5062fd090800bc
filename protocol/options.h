// protocol/options.h: every engine option declared once (Lc0 style). The one table yields
// the `uci` option lines, `setoption` handling (case-insensitive names, type and range
// checks) and the Boost.Program_options command line (`--Hash 64`, spaces as dashes).
// Source: SPEC 8 (rule options and UCI_Variant presets), SPEC 13 (option list).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "search/engine.h"

namespace klinzha::uci {

/// What an option change touches: the engine, and the protocol's debug log file.
struct OptionContext {
    Engine& engine;
    /// Opens (or with "" closes) the debug log file; returns an error message or nullopt.
    std::function<std::optional<std::string>(const std::string&)> set_log_file;
};

/// The result of applying an option: ok, with an optional note for the user (`info string`),
/// or an error message (nothing changed).
struct OptionResult {
    bool ok = true;
    std::string message;
};

struct Option {
    enum class Type { Check, Spin, Combo, Button, String };
    std::string name;
    Type type;
    std::string default_value;
    int min = 0, max = 0;
    std::vector<std::string> vars;  ///< combo choices
    std::string help;               ///< one line for --help and docs
    /// Applies an already validated value.
    std::function<OptionResult(OptionContext&, const std::string&)> apply;
};

/// The option table, in `uci` order.
const std::vector<Option>& options();

/// The option named `name` (case-insensitive), or nullptr.
const Option* find_option(std::string_view name);

/// Validates `value` for option `name` and applies it. Errors: unknown name, missing or
/// malformed value, out of range, unknown combo choice. On error nothing changes.
OptionResult set_option(OptionContext& ctx, std::string_view name, std::string_view value);

/// The `option name … type …` line of o (SPEC 13).
std::string option_line(const Option& o);

/// The command-line spelling of o's name: spaces become dashes (`Move-Overhead`).
std::string cli_name(const Option& o);

}  // namespace klinzha::uci
