// protocol/options.cpp: the option table (see options.h).
#include "options.h"

#include <algorithm>
#include <charconv>
#include <thread>

#include "engine/rules.h"

namespace klinzha::uci {
namespace {

OptionResult ok(std::string note = {}) {
    return {true, std::move(note)};
}
OptionResult fail(std::string why) {
    return {false, std::move(why)};
}

/// An apply for one rule option of SPEC 8 (the value is already validated by type).
std::function<OptionResult(OptionContext&, const std::string&)> rule_option(const char* name) {
    return [name](OptionContext& ctx, const std::string& v) {
        Rules r = ctx.engine.rules();
        if (auto err = r.set(name, v)) return fail(*err);
        auto note = ctx.engine.set_rules(r);
        return ok(note ? *note : "");
    };
}

std::vector<Option> make_table() {
    using T = Option::Type;
    std::vector<Option> t;
    t.push_back({"Hash",
                 T::Spin,
                 "16",
                 1,
                 65536,
                 {},
                 "transposition table size in MiB",
                 [](OptionContext& c, const std::string& v) {
                     auto err = c.engine.set_hash(std::stoi(v));
                     return err ? fail(*err) : ok();
                 }});
    t.push_back({"Clear Hash",
                 T::Button,
                 "",
                 0,
                 0,
                 {},
                 "empty the transposition table",
                 [](OptionContext& c, const std::string&) {
                     c.engine.clear_hash();
                     return ok();
                 }});
    t.push_back({"Threads",
                 T::Spin,
                 "1",
                 1,
                 256,
                 {},
                 "search threads (Lazy SMP); capped at the machine's hardware threads",
                 [](OptionContext& c, const std::string& v) {
                     // More threads than the machine runs at once only break the time limits
                     // (a thread that gets no core cannot stop in time): cap, and say so.
                     const int want = std::stoi(v);
                     const int hw = int(std::thread::hardware_concurrency());
                     if (hw > 0 && want > hw) {
                         c.engine.set_threads(hw);
                         return ok("Threads capped at " + std::to_string(hw) +
                                   ", the hardware threads of this machine");
                     }
                     c.engine.set_threads(want);
                     return ok();
                 }});
    t.push_back({"MultiPV",
                 T::Spin,
                 "1",
                 1,
                 256,
                 {},
                 "principal variations reported",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_multipv(std::stoi(v));
                     return ok();
                 }});
    {
        std::vector<std::string> modes(std::begin(kMultiplayerSearchNames),
                                       std::end(kMultiplayerSearchNames));
        t.push_back({"MultiplayerSearch", T::Combo,
                     kMultiplayerSearchNames[int(SearchSettings{}.multiplayer)], 0, 0, modes,
                     "three-player search: paranoid, brs (Best-Reply Search) or brs+",
                     [](OptionContext& c, const std::string& v) {
                         for (std::size_t i = 0; i < std::size(kMultiplayerSearchNames); ++i)
                             if (iequals(v, kMultiplayerSearchNames[i]))
                                 c.engine.set_multiplayer(MultiplayerSearch(i));
                         return ok();
                     }});
    }
    t.push_back({"KintaOdds",
                 T::Check,
                 "true",
                 0,
                 0,
                 {},
                 "Kinta: weigh each attack by its fight's odds; false takes every attack as a "
                 "sure win (for strength tests, SPEC 26)",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_kinta_odds(*parse_bool(v));
                     return ok();
                 }});
    // Blind (SPEC 25): the blind player's belief and search (search/blind_search.h). Each
    // option names its field of BlindSearch::Params (the belief's own are nested in it).
    {
        using BP = BlindSearch::Params;
        struct BlindOption {
            const char* name;
            int& (*field)(BP&);
            int min, max;
            const char* help;
        };
        static const BlindOption kBlindOptions[] = {
            {"BlindBoards", [](BP& p) -> int& { return p.belief.boards; }, 1, 4096,
             "Blind: boards (whole positions) the belief holds (SPEC 25)"},
            {"BlindSetups", [](BP& p) -> int& { return p.belief.setups; }, 1, 64,
             "Blind: setups the planner makes for each opponent's pool of the belief"},
            {"BlindSamples", [](BP& p) -> int& { return p.samples; }, 0, 64,
             "Blind: boards searched per move (0: the view alone, as if nothing else stood "
             "on the board)"},
            {"BlindExposure", [](BP& p) -> int& { return p.exposure_cp; }, 0, 10000,
             "Blind: centi-pawns per unit of the heart's exposure in the view (cells from "
             "which an unseen man could take it)"},
            {"BlindWin", [](BP& p) -> int& { return p.win_cp; }, 0, 20000,
             "Blind: centi-pawns for taking a heart on every board of the belief"},
            {"BlindDanger", [](BP& p) -> int& { return p.danger_cp; }, 0, 20000,
             "Blind: centi-pawns against leaving the heart open on every board"},
            {"BlindThreat", [](BP& p) -> int& { return p.threat_cp; }, 0, 20000,
             "Blind: centi-pawns for threatening a heart on every board"},
        };
        for (const BlindOption& bo : kBlindOptions) {
            BP defaults;
            t.push_back({bo.name,
                         T::Spin,
                         std::to_string(bo.field(defaults)),
                         bo.min,
                         bo.max,
                         {},
                         bo.help,
                         [field = bo.field](OptionContext& c, const std::string& v) {
                             BP p = c.engine.blind_params();
                             field(p) = std::stoi(v);
                             c.engine.set_blind_params(p);
                             return ok();
                         }});
        }
    }
    t.push_back({"Move Overhead",
                 T::Spin,
                 "30",
                 0,
                 10000,
                 {},
                 "ms kept in hand per move for communication delays",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_move_overhead(std::stoi(v));
                     return ok();
                 }});
    // The setup planner's weights (SPEC 6.1; SetupPlanner::Params), for tuning by matches.
    {
        struct PlannerOption {
            const char* name;
            int SetupPlanner::Params::*field;
            int max;
            const char* help;
        };
        static const PlannerOption kPlannerOptions[] = {
            {"SetupThreatFirst", &SetupPlanner::Params::threat_first_cp, 100000,
             "setup planner: cp per opposing piece that could take our heart on its first move, "
             "when that opponent moves before us"},
            {"SetupThreatLater", &SetupPlanner::Params::threat_later_cp, 100000,
             "setup planner: the same when we move first"},
            {"SetupVariety", &SetupPlanner::Params::variety_cp, 1000,
             "setup planner: cp window of near-equal setups chosen among at random"},
            {"SetupSearch", &SetupPlanner::Params::judged, 16,
             "setup planner: candidate setups judged by a search of what follows them (the "
             "opponents' setup, the hearts, the first moves; two players); 0: off"},
        };
        for (const PlannerOption& po : kPlannerOptions) {
            const SetupPlanner::Params defaults;
            t.push_back({po.name,
                         T::Spin,
                         std::to_string(defaults.*po.field),
                         0,
                         po.max,
                         {},
                         po.help,
                         [field = po.field](OptionContext& c, const std::string& v) {
                             SetupPlanner::Params p = c.engine.planner();
                             p.*field = std::stoi(v);
                             c.engine.set_planner(p);
                             return ok();
                         }});
        }
    }
    t.push_back({"Ponder",
                 T::Check,
                 "false",
                 0,
                 0,
                 {},
                 "the GUI may send go ponder",
                 [](OptionContext&, const std::string&) { return ok(); }});
    t.push_back({"Players",
                 T::Spin,
                 "2",
                 2,
                 3,
                 {},
                 "players of `position startpos` (2 or 3)",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_players(std::stoi(v));
                     return ok();
                 }});
    {
        std::vector<std::string> presets(kVariantNames.begin(), kVariantNames.end());
        t.push_back({"UCI_Variant", T::Combo, presets.front(), 0, 0, presets,
                     "rule preset: sets every rule option (SPEC 8)",
                     [](OptionContext& c, const std::string& v) {
                         Rules r = c.engine.rules();
                         if (auto err = r.set("UCI_Variant", v)) return fail(*err);
                         // A preset for a game size (SPEC 8, 14) sets the Players option too.
                         if (int n = r.required_players(); n > 0) c.engine.set_players(n);
                         auto note = c.engine.set_rules(r);
                         return ok(note ? *note : "");
                     }});
    }
    for (const RuleOption& ro : kRuleOptions) {  // SPEC 8: each rule option, from one table
        Option o{ro.name, T::Check, ro.fallback, ro.min, ro.max, {}, ro.help, rule_option(ro.name)};
        if (ro.type == RuleOption::Type::Spin) o.type = T::Spin;
        if (ro.type == RuleOption::Type::Combo) {
            o.type = T::Combo;
            for (auto* ch : ro.choices)
                if (ch) o.vars.emplace_back(ch);
        }
        t.push_back(std::move(o));
    }
    // Playing strength for people (search/skill.h): the options chess GUIs know. The level
    // in force is UCI_Elo's when UCI_LimitStrength is on, else Skill Level's.
    t.push_back({"Skill Level",
                 T::Spin,
                 std::to_string(kSkillMax),
                 0,
                 kSkillMax,
                 {},
                 "playing strength: 0 (a beginner's) to 20 (full strength); docs/search.md",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_skill_level(std::stoi(v));
                     return ok();
                 }});
    t.push_back({"UCI_LimitStrength",
                 T::Check,
                 "false",
                 0,
                 0,
                 {},
                 "play at the strength UCI_Elo names instead of Skill Level's",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_limit_strength(*parse_bool(v));
                     return ok();
                 }});
    t.push_back({"UCI_Elo",
                 T::Spin,
                 std::to_string(kSkillEloMax),
                 kSkillEloMin,
                 kSkillEloMax,
                 {},
                 "with UCI_LimitStrength: the Elo to play at, on this game's scale (Baseline "
                 "random = 0; docs/search.md, Levels)",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_elo(std::stoi(v));
                     return ok();
                 }});
    t.push_back({"Baseline",
                 T::Combo,
                 "none",
                 0,
                 0,
                 {"none", "random", "greedy"},
                 "weaker reference player: random mover or greedy one-ply player",
                 [](OptionContext& c, const std::string& v) {
                     c.engine.set_baseline(iequals(v, "random")   ? Baseline::Random
                                           : iequals(v, "greedy") ? Baseline::Greedy
                                                                  : Baseline::Normal);
                     return ok();
                 }});
    // The network (eval/nnue, docs/search.md): whether to use it, and which.
    t.push_back({"Use NNUE",
                 T::Check,
                 kUseNnueDefault ? "true" : "false",
                 0,
                 0,
                 {},
                 "evaluate play positions with the network (EvalFile, else the built-in one); "
                 "false: the classical terms",
                 [](OptionContext& c, const std::string& v) {
                     auto err = c.engine.set_use_nnue(*parse_bool(v));
                     return err ? fail(*err) : ok();
                 }});
    t.push_back({"EvalFile",
                 T::String,
                 "<built-in>",
                 0,
                 0,
                 {},
                 "the network file (.nnue, docs/search.md); <built-in> or empty: the one built "
                 "into the executable",
                 [](OptionContext& c, const std::string& v) {
                     auto err = c.engine.set_eval_file(v);
                     return err ? fail(*err) : ok();
                 }});
    t.push_back({"Debug Log File",
                 T::String,
                 "",
                 0,
                 0,
                 {},
                 "log every protocol line in and out, with a timestamp, to this file",
                 [](OptionContext& c, const std::string& v) {
                     auto err = c.set_log_file(v);
                     return err ? fail(*err) : ok();
                 }});
    return t;
}

const char* type_name(Option::Type t) {
    switch (t) {
        case Option::Type::Check:
            return "check";
        case Option::Type::Spin:
            return "spin";
        case Option::Type::Combo:
            return "combo";
        case Option::Type::Button:
            return "button";
        case Option::Type::String:
            return "string";
    }
    return "string";
}

}  // namespace

const std::vector<Option>& options() {
    static const std::vector<Option> table = make_table();
    return table;
}

const Option* find_option(std::string_view name) {
    for (const auto& o : options())
        if (iequals(o.name, name) || iequals(cli_name(o), name)) return &o;
    return nullptr;
}

OptionResult set_option(OptionContext& ctx, std::string_view name, std::string_view value) {
    const Option* o = find_option(name);
    if (!o) return fail("unknown option '" + std::string(name) + "'");
    std::string v(value);
    switch (o->type) {
        case Option::Type::Check: {
            auto b = parse_bool(v);
            if (!b) return fail("option " + o->name + " takes true or false, not '" + v + "'");
            v = *b ? "true" : "false";
            break;
        }
        case Option::Type::Spin: {
            long long n = 0;
            auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || ec != std::errc() || p != v.data() + v.size())
                return fail("option " + o->name + " takes a whole number, not '" + v + "'");
            if (n < o->min || n > o->max)
                return fail("option " + o->name + " must be in " + std::to_string(o->min) + ".." +
                            std::to_string(o->max) + ", not " + v);
            v = std::to_string(n);
            break;
        }
        case Option::Type::Combo: {
            auto it = std::find_if(o->vars.begin(), o->vars.end(),
                                   [&](const std::string& c) { return iequals(c, v); });
            if (it == o->vars.end())
                return fail("option " + o->name + " has no choice '" + v + "'");
            v = *it;
            break;
        }
        case Option::Type::Button:
        case Option::Type::String:
            break;
    }
    return o->apply(ctx, v);
}

std::string option_line(const Option& o) {
    std::string s = "option name " + o.name + " type " + type_name(o.type);
    if (o.type == Option::Type::Button) return s;
    s += " default " + (o.type == Option::Type::String && o.default_value.empty()
                            ? std::string("<empty>")
                            : o.default_value);
    if (o.type == Option::Type::Spin)
        s += " min " + std::to_string(o.min) + " max " + std::to_string(o.max);
    for (const auto& v : o.vars) s += " var " + v;
    return s;
}

std::string cli_name(const Option& o) {
    std::string s = o.name;
    std::replace(s.begin(), s.end(), ' ', '-');
    return s;
}

}  // namespace klinzha::uci
