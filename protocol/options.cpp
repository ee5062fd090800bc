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

using Apply = std::function<OptionResult(OptionContext&, const std::string&)>;

// Lc0-style declarations: each option is its name, kind, range and default, help, and what
// it does, once; the table serves `uci`, `setoption` and the command line alike.
Option spin(const char* name, int def, int min, int max, const char* help, Apply f) {
    return {name, Option::Type::Spin, std::to_string(def), min, max, {}, help, std::move(f)};
}
Option check(const char* name, bool def, const char* help, Apply f) {
    return {name, Option::Type::Check, def ? "true" : "false", 0, 0, {}, help, std::move(f)};
}
Option combo(const char* name, std::vector<std::string> vars, std::string def, const char* help,
             Apply f) {
    return {name, Option::Type::Combo, std::move(def), 0, 0, std::move(vars), help, std::move(f)};
}
Option button(const char* name, const char* help, Apply f) {
    return {name, Option::Type::Button, "", 0, 0, {}, help, std::move(f)};
}
Option text(const char* name, std::string def, const char* help, Apply f) {
    return {name, Option::Type::String, std::move(def), 0, 0, {}, help, std::move(f)};
}
/// An apply that calls `set` with the value read as a whole number.
template <class F>
Apply with_int(F set) {
    return [set](OptionContext& c, const std::string& v) {
        set(c.engine, std::stoi(v));
        return ok();
    };
}
/// An apply that calls `set` with the value read as a boolean.
template <class F>
Apply with_bool(F set) {
    return [set](OptionContext& c, const std::string& v) {
        set(c.engine, *parse_bool(v));
        return ok();
    };
}

/// The search's options: table, threads, lines, three-player search, Kinta odds.
void add_search_options(std::vector<Option>& t) {
    t.push_back(spin("Hash", Engine::kDefaultHashMiB, 1, 65536, "transposition table size in MiB",
                     [](OptionContext& c, const std::string& v) {
                         auto err = c.engine.set_hash(std::stoi(v));
                         return err ? fail(*err) : ok();
                     }));
    t.push_back(button("Clear Hash", "empty the transposition table",
                       [](OptionContext& c, const std::string&) {
                           c.engine.clear_hash();
                           return ok();
                       }));
    t.push_back(spin("Threads", 1, 1, 256,
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
                     }));
    t.push_back(spin("MultiPV", 1, 1, 256, "principal variations reported",
                     with_int([](Engine& e, int n) { e.set_multipv(n); })));
    t.push_back(combo("MultiplayerSearch",
                      {std::begin(kMultiplayerSearchNames), std::end(kMultiplayerSearchNames)},
                      kMultiplayerSearchNames[int(SearchSettings{}.multiplayer)],
                      "three-player search: paranoid, brs (Best-Reply Search) or brs+",
                      [](OptionContext& c, const std::string& v) {
                          for (std::size_t i = 0; i < std::size(kMultiplayerSearchNames); ++i)
                              if (iequals(v, kMultiplayerSearchNames[i]))
                                  c.engine.set_multiplayer(MultiplayerSearch(i));
                          return ok();
                      }));
    t.push_back(check("KintaOdds", true,
                      "Kinta: weigh each attack by its fight's odds; false takes every attack as "
                      "a sure win (for strength tests, SPEC 26)",
                      with_bool([](Engine& e, bool b) { e.set_kinta_odds(b); })));
}

/// The Blind player's belief and search (SPEC 25, search/blind_search.h).
void add_blind_options(std::vector<Option>& t) {
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
            {"BlindApproach", [](BP& p) -> int& { return p.approach_cp; }, 0, 20000,
             "Blind: centi-pawns against each move (up to 4 a board) by which an opponent "
             "steps, unseen, onto a cell from which it takes the heart next, on every board"},
            {"BlindThreat", [](BP& p) -> int& { return p.threat_cp; }, 0, 20000,
             "Blind: centi-pawns for threatening a heart on every board"},
            {"BlindExplore", [](BP& p) -> int& { return p.explore_cp; }, 0, 20000,
             "Blind: centi-pawns for each move a proposal saves the hunt's sweep over the "
             "cells where a lone opposing heart may stand, plus its chance to find it at once, "
             "times the share of the boards holding a lone opposing heart (the hunt)"},
            {"BlindReset", [](BP& p) -> int& { return p.reset_cp; }, 0, 20000,
             "Blind: centi-pawns for taking a man on every board as the move-count draw nears "
             "(the last 20 moves of each player: from 0 to full)"},
            {"BlindTypeSwap", [](BP& p) -> int& { return p.belief.type_swap; }, 0, 100,
             "Blind: percent of the belief's rejuvenations that give a hidden man the kind "
             "of a man taken (the arbiter does not tell which kind a capture took)"},
            {"BlindRefusal", [](BP& p) -> int& { return p.refusal_cp; }, 0, 20000,
             "Blind: centi-pawns against a proposal every searched board would refuse (a "
             "refusal costs clock time only)"},
        };
        for (const BlindOption& bo : kBlindOptions) {
            BP defaults;
            t.push_back(spin(bo.name, bo.field(defaults), bo.min, bo.max, bo.help,
                             with_int([field = bo.field](Engine& e, int n) {
                                 BP p = e.blind_params();
                                 field(p) = n;
                                 e.set_blind_params(p);
                             })));
        }
    }
}

/// The time manager's (search/timeman.h, RH 6.2).
void add_time_options(std::vector<Option>& t) {
    t.push_back(spin("Move Overhead", int(SearchSettings{}.move_overhead_ms), 0, 10000,
                     "ms kept in hand per move for communication delays",
                     with_int([](Engine& e, int ms) { e.set_move_overhead(ms); })));
}

/// The setup planner's weights (SPEC 6.1; SetupPlanner::Params), for tuning by matches.
void add_planner_options(std::vector<Option>& t) {
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
            {"SetupBlindCover", &SetupPlanner::Params::open_knight_cp, 10000,
             "setup planner, Blind only: cp per cell from which an unseen opposing knight "
             "could take the planned heart (no own man on it, in no own wall's zone)"},
            {"SetupVariety", &SetupPlanner::Params::variety_cp, 1000,
             "setup planner: cp window of near-equal setups chosen among at random"},
            {"SetupSearch", &SetupPlanner::Params::judged, 64,
             "setup planner: candidate setups judged by a search of what follows them (the "
             "opponents' setup, the hearts, the first moves; two players); 0: off"},
            {"SetupTime", &SetupPlanner::Params::time_moves, 64,
             "setup planner: on a clock, the placement that plans our whole setup may take "
             "the time of this many moves (the later placements follow the plan at once)"},
            {"SetupReplyRuns", &SetupPlanner::Params::reply_runs, 64,
             "setup planner, SetupSearch: runs of the opponents' planner that makes their "
             "setup in each judgement"},
            {"SetupSearchDepth", &SetupPlanner::Params::judge_depth, 16,
             "setup planner, SetupSearch: plies of each judgement's search after the "
             "opponents' setup (the hearts, then play); 0 and 1: one"},
        };
        for (const PlannerOption& po : kPlannerOptions) {
            const SetupPlanner::Params defaults;
            t.push_back(spin(po.name, defaults.*po.field, 0, po.max, po.help,
                             with_int([field = po.field](Engine& e, int n) {
                                 SetupPlanner::Params p = e.planner();
                                 p.*field = n;
                                 e.set_planner(p);
                             })));
        }
    }
}

/// The game: Ponder, the players, the rule preset and every rule option (SPEC 8).
void add_game_options(std::vector<Option>& t) {
    using T = Option::Type;
    t.push_back(check("Ponder", false, "the GUI may send go ponder",
                      [](OptionContext&, const std::string&) { return ok(); }));
    t.push_back(spin("Players", 2, 2, 3, "players of `position startpos` (2 or 3)",
                     with_int([](Engine& e, int n) { e.set_players(n); })));
    t.push_back(combo("UCI_Variant", {kVariantNames.begin(), kVariantNames.end()},
                      kVariantNames.front(), "rule preset: sets every rule option (SPEC 8)",
                      [](OptionContext& c, const std::string& v) {
                          Rules r = c.engine.rules();
                          if (auto err = r.set("UCI_Variant", v)) return fail(*err);
                          // A preset for a game size (SPEC 8, 14) sets the Players option too.
                          if (int n = r.required_players(); n > 0) c.engine.set_players(n);
                          auto note = c.engine.set_rules(r);
                          return ok(note ? *note : "");
                      }));
    for (const RuleOption& ro : kRuleOptions) {  // SPEC 8: each rule option, from one table
        Option o{ro.name, T::Check, ro.default_text(), ro.min,
                 ro.max,  {},       ro.help,           rule_option(ro.name)};
        if (ro.type() == RuleOption::Type::Spin) o.type = T::Spin;
        if (ro.type() == RuleOption::Type::Combo) {
            o.type = T::Combo;
            for (auto* ch : ro.choices)
                if (ch) o.vars.emplace_back(ch);
        }
        t.push_back(std::move(o));
    }
}

/// Playing strength for people (search/skill.h): the options chess GUIs know. The level in
/// force is UCI_Elo's when UCI_LimitStrength is on, else Skill Level's. And the baselines.
void add_strength_options(std::vector<Option>& t) {
    t.push_back(spin("Skill Level", kSkillMax, 0, kSkillMax,
                     "playing strength: 0 (a beginner's) to 20 (full strength); docs/search.md",
                     with_int([](Engine& e, int n) { e.set_skill_level(n); })));
    t.push_back(check("UCI_LimitStrength", false,
                      "play at the strength UCI_Elo names instead of Skill Level's",
                      with_bool([](Engine& e, bool b) { e.set_limit_strength(b); })));
    t.push_back(spin("UCI_Elo", kSkillEloMax, kSkillEloMin, kSkillEloMax,
                     "with UCI_LimitStrength: the Elo to play at, on this game's scale (Baseline "
                     "random = 0; docs/search.md, Levels)",
                     with_int([](Engine& e, int elo) { e.set_elo(elo); })));
    t.push_back(combo("Baseline", {"none", "random", "greedy"}, "none",
                      "weaker reference player: random mover or greedy one-ply player",
                      [](OptionContext& c, const std::string& v) {
                          c.engine.set_baseline(iequals(v, "random")   ? Baseline::Random
                                                : iequals(v, "greedy") ? Baseline::Greedy
                                                                       : Baseline::Normal);
                          return ok();
                      }));
}

/// The network (eval/nnue, docs/search.md): whether to use it, and which; the debug log.
void add_eval_and_log_options(std::vector<Option>& t) {
    t.push_back(check("Use NNUE", kUseNnueDefault,
                      "evaluate play positions with the network (EvalFile, else the built-in "
                      "one); false: the classical terms",
                      [](OptionContext& c, const std::string& v) {
                          auto err = c.engine.set_use_nnue(*parse_bool(v));
                          return err ? fail(*err) : ok();
                      }));
    t.push_back(check("NNUE Three Players", kNnueThreePlayersDefault,
                      "with Use NNUE, evaluate three-player games with the network too; false: "
                      "they keep the classical terms (the built-in network loses there)",
                      [](OptionContext& c, const std::string& v) {
                          auto err = c.engine.set_nnue_three_players(*parse_bool(v));
                          return err ? fail(*err) : ok();
                      }));
    t.push_back(text("EvalFile", "<built-in>",
                     "the network file (.nnue, docs/search.md); <built-in> or empty: the one "
                     "built into the executable",
                     [](OptionContext& c, const std::string& v) {
                         auto err = c.engine.set_eval_file(v);
                         return err ? fail(*err) : ok();
                     }));
    t.push_back(text("EvalFile Three Players", "<built-in>",
                     "the network file of three-player games (with NNUE Three Players); "
                     "<built-in> or empty: the built-in three-player network, else EvalFile's",
                     [](OptionContext& c, const std::string& v) {
                         auto err = c.engine.set_eval_file_three(v);
                         return err ? fail(*err) : ok();
                     }));
    t.push_back(text("Debug Log File", "",
                     "log every protocol line in and out, with a timestamp, to this file",
                     [](OptionContext& c, const std::string& v) {
                         auto err = c.set_log_file(v);
                         return err ? fail(*err) : ok();
                     }));
}

std::vector<Option> make_table() {
    std::vector<Option> t;
    add_search_options(t);
    add_blind_options(t);
    add_time_options(t);
    add_planner_options(t);
    add_game_options(t);
    add_strength_options(t);
    add_eval_and_log_options(t);
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
