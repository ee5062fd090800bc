// engine/rules.h: the rule options of SPEC section 8 as one value that move generation reads.
//
// Every rule choice lives here (rules as data); no other code hides a rule in an `if` of
// its own. Defaults are the Romulan Heart 2008 rules (SPEC 8), written once as the members'
// initialisers. One table, kRuleOptions, binds each option's name to its field once, with its
// range or choices: the protocol's option list, `Name=value` command-line words, records'
// `Options` tags and the GUI's rule form all read it.
//
// Sources: SPEC 8 (options and presets), 14 (how they combine), 15-23 (each variant).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace klinzha {

/// KaggasCrown (SPEC 18): which cells crown a heart.
enum class Crown : std::uint8_t { Off = 0, Region = 1, Apex = 2 };
/// DrawRule (SPEC 22).
enum class DrawRule : std::uint8_t { Standard = 0, None = 1, Italian = 2 };

struct Rules {
    /// In play, a move is illegal if after it an opponent could capture the mover's heart
    /// (a move after which the game is over stays legal). SPEC 8, 14; RH V2, Agonizer.
    bool goal_safety = false;
    /// Pawns move 1 or 2 steps along any path. RH V9, Laws 13.2.
    bool power_vanguard = false;
    /// false: a knight may not jump over an opposing wall. Italian rules (Flier).
    bool flier_jumps_walls = true;
    /// Separators may be used for setup by both neighbouring regions. RH V10, Laws 13.5.
    bool forward_placement = false;
    /// Players place one piece each in turn (g, b, k, g, ...), hearts last. RH V11, Laws 13.1.
    bool alternating_placement = false;
    /// Three players: each colour captures only the next one; the first heart capture ends
    /// the game. SPEC 15, RH V1.
    bool relation_dilemma = false;
    /// 0 off; N >= 1: the cell a piece leaves is ablated, at most N at a time; -1 unlimited.
    /// SPEC 17, RH V5, Laws 13.6.
    int ablative = 0;
    /// Two players: a heart carried onto the goal cells must be captured at once. SPEC 18.
    Crown kaggas_crown = Crown::Off;
    /// No man may be placed where an enemy fencer could never reach it. SPEC 19, Laws 13.8.
    bool honor_in_setup = false;
    /// Each player places its heart right after its own pieces. SPEC 20, RH V10, Laws 13.5.
    bool heart_first = false;
    /// Two players share one army and one heart. SPEC 21, RH V6, Laws 13.7.
    bool reflective = false;
    /// Which draws exist. SPEC 22.
    DrawRule draw_rule = DrawRule::Standard;
    /// Only the carrier the heart was placed on may carry it. SPEC 23.1.
    bool courier = false;
    /// A wall may end next to men of any colour, which are then held. SPEC 23.2.
    bool blockader_traps = false;
    /// The heart crosses its own wall's zone only when it is attacked. SPEC 23.3.
    bool goal_crosses_zone_if_threatened = false;
    /// A wall takes a lone heart only as its owner's last piece. SPEC 23.4.
    bool blockader_takes_goal_last = false;
    /// Each player sees only its own men; a referee is the arbiter. In the rules core it
    /// turns off the options SPEC 25 says have no effect under it (effective()). SPEC 25, RH V4.
    bool blind = false;
    /// Klin Zha Kinta: captures of men are fights decided by spindles, each warrior has a
    /// strength, walls are carriers and may be attacked. SPEC 26, RH V7, Laws 13.9, App. D.
    bool kinta = false;

    bool operator==(const Rules&) const = default;

    /// Sets the option `name` (SPEC 8 spelling, case-insensitive) from its value: "true" or
    /// "false" for checks, a whole number for `Ablative`, a choice for the combos; also
    /// `UCI_Variant`, which applies a preset. Returns an error message, or nullopt on success
    /// (then *this is changed; on error it is not).
    std::optional<std::string> set(std::string_view name, std::string_view value);

    /// The options as `Name=value` words separated by spaces, every option listed, in SPEC 8
    /// order. Reading them back with set() gives *this.
    std::string to_string() const;

    /// Applies `Name=value` words separated by spaces, in order, as to_string() writes them
    /// (and the `Options` tag of records, SPEC 8). Returns an error message ("expected
    /// Name=value, not 'x'", or set()'s) and leaves *this unchanged, or nullopt.
    std::optional<std::string> set_all(std::string_view words);

    /// The preset named by UCI_Variant (SPEC 8): every option set, those the preset names to
    /// its values and all others to their defaults. nullopt for an unknown name.
    static std::optional<Rules> preset(std::string_view name);

    /// The rules as they act in a game of `players` (2 or 3): options that need the other
    /// number of players, or that Reflective or Blind leave without effect, are turned off
    /// (SPEC 14, 18, 21, 25, 26). Position uses this value for everything it decides.
    Rules effective(int players) const;

    /// The number of players an option set needs: 2 (KaggasCrown, Reflective), 3
    /// (RelationDilemma), 0 when both sizes work, -1 when it names options of both sizes.
    /// Tools that start games refuse a pairing whose size differs (SPEC 14).
    int required_players() const;

    /// The name of the preset these rules equal, or "" if they equal none.
    std::string variant_name() const;
};

/// The field of Rules an option sets: a check, the spin (a whole number) or a combo (an
/// enumeration whose values are the choices' indices).
using RuleField = std::variant<bool Rules::*, int Rules::*, Crown Rules::*, DrawRule Rules::*>;

/// One rule option of SPEC 8 as the protocol declares it, bound to its field of Rules.
struct RuleOption {
    enum class Type : std::uint8_t { Check, Spin, Combo };
    const char* name;                    ///< SPEC 8 spelling
    RuleField field;                     ///< where Rules holds it
    int min, max;                        ///< Spin range
    std::array<const char*, 3> choices;  ///< Combo choices in enumeration order (rest nullptr)
    const char* help;                    ///< one line for `--help` and docs

    /// The UCI option type: by the field's type.
    Type type() const;
    /// The option's value in r as text ("true", "-1", "region").
    std::string value_text(const Rules& r) const;
    /// The value of the default rules (Rules{}) as text: the defaults are written once, in
    /// Rules' member initialisers.
    std::string default_text() const;
    /// Sets the option in r from text. Returns an error message (r unchanged) or nullopt.
    std::optional<std::string> apply(Rules& r, std::string_view value) const;
};

/// Every rule option of SPEC 8, in SPEC order.
extern const std::array<RuleOption, 18> kRuleOptions;

/// The names of the presets of UCI_Variant (SPEC 8), the default first.
inline constexpr std::array<const char*, 4> kVariantNames = {
    "romulan-heart", "klin-zha-open", "klin-zha-italian", "klin-zha-reflective"};

/// Case-insensitive equality of ASCII strings.
bool iequals(std::string_view a, std::string_view b);

/// Parses "true"/"false" (any case; also 1/0, on/off). nullopt for anything else.
std::optional<bool> parse_bool(std::string_view s);

}  // namespace klinzha
