// tools/match/main.cpp: klinzha-match, engine-vs-engine tournaments for two or three
// players (what cutechess-cli and fastchess do for chess, for this game).
//
//   klinzha-match -engine cmd=build/release/klinzha name=new
//                 -engine cmd=build/release/klinzha name=random option.Baseline=random
//                 -players 2 -games 20 -tc 10+0.1 -concurrency 2 -pgnout games.pgn
//
// Ctrl-C stops scheduling (running games finish); -state FILE resumes a stopped run.
#include <unistd.h>
#include <boost/program_options.hpp>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "compliance.h"
#include "engine/version.h"
#include "openings.h"
#include "state.h"
#include "tournament.h"

namespace po = boost::program_options;
using namespace klinzha;
using namespace klinzha::match;

namespace {

/// Whether an engine command can start: its first word (the program, unless it is a
/// `NAME=value` word the shell reads) must be an executable file, named by a path or found
/// on PATH. Returns the problem, or nullopt. The shell would say it too, but only once a
/// game had begun, and in its own words.
std::optional<std::string> check_command(const std::string& cmd) {
    std::istringstream in(cmd);
    std::string program;
    in >> program;
    if (program.empty() || program.find('=') != std::string::npos) return std::nullopt;
    if (program.find('/') != std::string::npos) {
        if (::access(program.c_str(), X_OK) != 0)
            return "cannot run '" + program + "': no executable file there";
        return std::nullopt;
    }
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');)
        if (::access(((dir.empty() ? "." : dir) + "/" + program).c_str(), X_OK) == 0)
            return std::nullopt;
    return "cannot run '" + program + "': not found on PATH";
}
Tournament* g_tournament = nullptr;
std::atomic<int> g_interrupts{0};
extern "C" void on_sigint(int) {
    if (!g_tournament) return;
    // Only async-signal-safe calls here: atomics and write(2).
    if (g_interrupts.fetch_add(1) == 0) {
        g_tournament->stop();
        const char msg[] =
            "\nklinzha-match: interrupted: no new games; waiting for the games under way to "
            "finish (Ctrl-C again abandons them; they are not results)\n";
        [[maybe_unused]] auto n = write(2, msg, sizeof msg - 1);
    } else {
        g_tournament->abandon();
        const char msg[] =
            "\nklinzha-match: abandoning the games under way; their engines are being ended\n";
        [[maybe_unused]] auto n = write(2, msg, sizeof msg - 1);
    }
}

/// `-merge STATE...`: the shards' games combined into one result (tables, Elo, SPRT). Refuses
/// state files of different settings and games that appear twice. Returns the exit code.
int merge(const std::vector<std::string>& files) {
    std::optional<StateFile> first;
    std::vector<GameSummary> games;
    for (const auto& f : files) {
        auto st = read_state(f);
        if (!st) throw std::runtime_error("-merge: '" + f + "' is missing or empty");
        for (const auto& w : st->warnings) std::cerr << "klinzha-match: " << f << ": " << w << "\n";
        if (!first) {
            first = st;
        } else if (auto diff = settings_difference(first->settings, st->settings); !diff.empty()) {
            throw std::runtime_error("-merge: '" + f + "' is of a match with other settings (" +
                                     diff + ")");
        }
        games.insert(games.end(), st->games.begin(), st->games.end());
    }
    TournamentConfig cfg = config_from_settings(first->settings);
    cfg.report_every = 0;
    std::ostringstream quiet;
    Tournament t(cfg, quiet);
    t.add_results(games);
    std::cout << "Merged " << games.size() << " games from " << files.size() << " state files (of "
              << t.games_to_play() << " scheduled)\n\n"
              << t.table();
    return 0;
}

std::pair<std::string, std::string> key_value(const std::string& tok) {
    auto eq = tok.find('=');
    if (eq == std::string::npos) throw std::runtime_error("expected key=value, not '" + tok + "'");
    return {tok.substr(0, eq), tok.substr(eq + 1)};
}

double number(const std::string& s, const std::string& what) {
    try {
        std::size_t used = 0;
        double v = std::stod(s, &used);
        if (used == s.size()) return v;
    } catch (...) {
    }
    throw std::runtime_error(what + ": not a number: '" + s + "'");
}

/// The command line's options (docs/match.md, one dash or two).
po::options_description options() {
    po::options_description desc("klinzha-match options (one dash or two)");
    desc.add_options()("help", "show this help")("version", "print the version")(
        "engine", po::value<std::vector<std::string>>()->multitoken(),
        "an engine: cmd=<command> name=<name> [depth=N] [nodes=N] [tc=...] [st=S] "
        "[timemargin=MS] option.<Name>=<value> ... (its own limit; with one for every engine "
        "no -tc/-st/-depth/-nodes is needed)"
        " (repeat per engine)")("each", po::value<std::vector<std::string>>()->multitoken(),
                                "option.<Name>=<value> ... for every engine")(
        "players", po::value<int>()->default_value(2), "2 or 3")(
        "games", po::value<int>()->default_value(2),
        "games per pairing (2 players, even: colours swapped) or per triple (3 players)")(
        "tc", po::value<std::string>(), "time control [moves/]seconds[+increment], e.g. 40/60+0.5")(
        "delay", po::value<double>(), "time delay per move in seconds (RH 6.2)")(
        "st", po::value<double>(), "fixed time per move in seconds")(
        "depth", po::value<int>(), "fixed depth per move")("nodes", po::value<std::uint64_t>(),
                                                           "fixed nodes per move")(
        "margin", po::value<int>()->default_value(100),
        "ms an engine may overrun its clock before its flag falls")(
        "concurrency", po::value<int>()->default_value(1), "games played at once")(
        "pgnout", po::value<std::string>(), "append game records to this file")(
        "state", po::value<std::string>(), "record finished games here; resume from it")(
        "setups", po::value<std::string>(),
        "file of start positions (SPEC 10), one a line; each is played twice, colours swapped")(
        "variant", po::value<std::string>(),
        "rule preset (UCI_Variant, SPEC 8): romulan-heart klin-zha-open klin-zha-italian "
        "klin-zha-reflective; -rule words apply after it")(
        "rule", po::value<std::vector<std::string>>()->multitoken(),
        "rule options Name=value (SPEC 8), for the referee and every engine")(
        "clouds", po::value<std::string>(),
        "N or LO-HI clouded cells (SPEC 16), drawn per colour-swapped pair")(
        "cloud-seed", po::value<std::uint64_t>()->default_value(0),
        "seed of the cloud draw: group k of games uses seed S + k")(
        "dice-seed", po::value<std::uint64_t>()->default_value(0),
        "Kinta (SPEC 26): seed of the spindles; group k of games (a colour-swapped pair) "
        "casts from S + k")(
        "sprt", po::value<std::vector<std::string>>()->multitoken(),
        "elo0=<e> elo1=<e> alpha=<a> beta=<b>: stop when decided (2 engines, 2 players)")(
        "blind-refusal-cap", po::value<int>()->default_value(100),
        "Blind (SPEC 25): refused proposals allowed in one turn; one more loses as an illegal "
        "move")("gauntlet", "the first engine meets each other one (not every pair or triple)")(
        "openings", po::value<std::vector<std::string>>()->multitoken(),
        "file=F plies=N order=random|sequential seed=S: start positions from game records "
        "(their setup and N plies of play), each played twice, colours swapped")(
        "tournament", po::value<std::string>(),
        "italian: each game an Italian bout (Italian rules, TOURNAMENT): the game limit, then "
        "the tally, BACH'SAN, the toss-up (two players)")(
        "game-limit", po::value<double>(),
        "wall-clock seconds per game, setup included (-tournament italian: 1200); at expiry "
        "no winner (a draw, or the Italian tally)")(
        "fate-seed", po::value<std::uint64_t>()->default_value(0),
        "-tournament italian: seed of BACH'SAN's die and the toss-up; bout k uses S + k")(
        "maxmoves", po::value<int>()->default_value(0), "adjudicate a draw after this many moves")(
        "resign", po::value<std::vector<std::string>>()->multitoken(),
        "movecount=<n> score=<cp>: a player at or below -cp for n own moves resigns (two "
        "players) or goes out (three)")(
        "draw", po::value<std::vector<std::string>>()->multitoken(),
        "movenumber=<n> movecount=<m> score=<cp>: from move n, a draw once every player's score "
        "is within +-cp for m own moves")(
        "event", po::value<std::string>()->default_value("klinzha-match"), "PGN Event tag")(
        "recover", "retry an engine that fails to start (twice) before stopping the match")(
        "handshake-timeout", po::value<int>()->default_value(10000),
        "ms to wait for an engine's uciok and readyok")(
        "move-timeout", po::value<int>()->default_value(60000),
        "ms a depth- or node-limited move may take before it counts as no answer")(
        "shard", po::value<std::string>(),
        "K/N: play only shard K of N of the games (same games and seats as the whole run); "
        "needs -state")(
        "compliance", po::value<std::string>(),
        "ENGINE: check that the engine command answers the protocol as the runner needs it")(
        "merge", po::value<std::vector<std::string>>()->multitoken(),
        "STATE...: combine the state files of shards into one result and print it")(
        "ratinginterval", po::value<int>()->default_value(10),
        "print the results, Elo and LLR every N games (two engines, two players; 0 = never)");
    return desc;
}

using Words = std::vector<std::pair<std::string, std::string>>;
using EngineTcWords = std::vector<std::pair<std::size_t, std::string>>;

/// -engine and -each: the engines (cmd, name, depth=, nodes=, option.X=), the options every
/// engine gets, and each engine's own clock words (tc=, st=, timemargin=) by engine index.
/// Throws std::runtime_error on a bad word or command.
void read_engines(const po::parsed_options& parsed, TournamentConfig& cfg, Words& each,
                  EngineTcWords& engine_tc_words) {
    for (const auto& opt : parsed.options) {
        if (opt.string_key == "engine") {
            EngineSpec e;
            for (const auto& tok : opt.value) {
                auto [k, v] = key_value(tok);
                if (k == "cmd")
                    e.cmd = v;
                else if (k == "name")
                    e.name = v;
                else if (k == "depth")
                    e.depth = int(number(v, "-engine depth"));
                else if (k == "nodes")
                    e.nodes = std::uint64_t(number(v, "-engine nodes"));
                else if (k == "tc" || k == "st" || k == "timemargin")
                    engine_tc_words.emplace_back(cfg.engines.size(), k + "=" + v);
                else if (k.rfind("option.", 0) == 0)
                    e.options.emplace_back(k.substr(7), v);
                else
                    throw std::runtime_error("-engine: unknown key '" + k + "'");
            }
            if (e.cmd.empty()) throw std::runtime_error("-engine needs cmd=<command>");
            if (auto err = check_command(e.cmd)) throw std::runtime_error("-engine: " + *err);
            if (e.name.empty()) e.name = "engine" + std::to_string(cfg.engines.size() + 1);
            cfg.engines.push_back(e);
        } else if (opt.string_key == "each") {
            for (const auto& tok : opt.value) {
                auto [k, v] = key_value(tok);
                if (k.rfind("option.", 0) != 0)
                    throw std::runtime_error("-each takes option.<Name>=<v>");
                each.emplace_back(k.substr(7), v);
            }
        }
    }
}

/// The game: two or three players, the rule options (-variant, -rule; SPEC 8, 14), clouds
/// (SPEC 16), the dice seed (SPEC 26), the games per pairing. Throws std::runtime_error.
void read_game(const po::variables_map& vm, TournamentConfig& cfg, Words& each) {
    if (cfg.engines.size() < 2) throw std::runtime_error("give at least two -engine");
    cfg.game.players = vm["players"].as<int>();
    if (cfg.game.players != 2 && cfg.game.players != 3)
        throw std::runtime_error("-players must be 2 or 3");
    if (vm.count("variant")) {
        const auto v = vm["variant"].as<std::string>();
        if (auto err = cfg.game.rules.set("UCI_Variant", v))
            throw std::runtime_error("-variant: " + *err);
        each.emplace_back("UCI_Variant", v);
    }
    if (vm.count("rule"))
        for (const auto& tok : vm["rule"].as<std::vector<std::string>>()) {
            auto [k, v] = key_value(tok);
            if (auto err = cfg.game.rules.set(k, v)) throw std::runtime_error(*err);
            each.emplace_back(k, v);
        }
    // SPEC 14: the match runner refuses a game size that an option does not allow.
    if (int need = cfg.game.rules.required_players(); need == -1)
        throw std::runtime_error(
            "the rule options need both two players (KaggasCrown, "
            "Reflective) and three (RelationDilemma)");
    else if (need && need != cfg.game.players)
        throw std::runtime_error("the rule options need " + std::to_string(need) +
                                 " players; -players is " + std::to_string(cfg.game.players));
    if (vm.count("clouds")) {
        const auto c = vm["clouds"].as<std::string>();
        const auto dash = c.find('-');
        cfg.clouds_lo = int(number(c.substr(0, dash), "-clouds"));
        cfg.clouds_hi =
            dash == std::string::npos ? cfg.clouds_lo : int(number(c.substr(dash + 1), "-clouds"));
        if (cfg.clouds_lo < 0 || cfg.clouds_hi < cfg.clouds_lo || cfg.clouds_hi > 81)
            throw std::runtime_error("-clouds: N or LO-HI with 0 <= LO <= HI <= 81");
        cfg.cloud_seed = vm["cloud-seed"].as<std::uint64_t>();
    }
    cfg.dice_seed = vm["dice-seed"].as<std::uint64_t>();
    each.emplace_back("Players", std::to_string(cfg.game.players));
    for (auto& e : cfg.engines) e.options.insert(e.options.begin(), each.begin(), each.end());
    cfg.games = vm["games"].as<int>();
    if (cfg.games < 1) throw std::runtime_error("-games must be at least 1");
}

/// The limits: the match's (-tc, -st, -depth, -nodes, -delay, -margin) and each engine's own;
/// a match limit is needed unless every engine has one. Throws std::runtime_error.
void read_limits(const po::variables_map& vm, TournamentConfig& cfg,
                 const EngineTcWords& engine_tc_words) {
    auto& tc = cfg.game.tc;
    // A match-level limit is needed unless every engine has its own (tc=, st=, depth=,
    // nodes=, as cutechess-cli and fastchess take them: time odds, handicap gauntlets).
    bool every_engine_limited = true;
    for (std::size_t i = 0; i < cfg.engines.size(); ++i) {
        bool own = cfg.engines[i].depth > 0 || cfg.engines[i].nodes > 0;
        for (const auto& [e, word] : engine_tc_words)
            own |= e == i && word.rfind("timemargin=", 0) != 0;
        every_engine_limited &= own;
    }
    if (vm.count("tc")) {
        auto t = TimeControl::parse(vm["tc"].as<std::string>());
        if (!t) throw std::runtime_error("-tc: expected [moves/]seconds[+increment]");
        tc = *t;
    } else if (vm.count("st")) {
        tc.movetime_ms = std::int64_t(vm["st"].as<double>() * 1000);
    } else if (vm.count("depth")) {
        tc.depth = vm["depth"].as<int>();
    } else if (vm.count("nodes")) {
        tc.nodes = vm["nodes"].as<std::uint64_t>();
    } else if (!every_engine_limited) {
        throw std::runtime_error(
            "give one of -tc, -st, -depth, -nodes (or tc=, st=, depth=, nodes= to every "
            "-engine)");
    }
    if (vm.count("delay")) tc.delay_ms = std::int64_t(vm["delay"].as<double>() * 1000);
    tc.margin_ms = vm["margin"].as<int>();
    // Per-engine clocks (cutechess-cli): tc=, st=, timemargin= start from the match's.
    cfg.engine_tc.assign(cfg.engines.size(), std::nullopt);
    for (const auto& [i, word] : engine_tc_words) {
        auto [k, v] = key_value(word);
        TimeControl t = cfg.engine_tc[i] ? *cfg.engine_tc[i] : tc;
        if (k == "tc") {
            auto p = TimeControl::parse(v);
            if (!p) throw std::runtime_error("-engine tc=: expected [moves/]seconds[+increment]");
            p->margin_ms = t.margin_ms;
            p->delay_ms = t.delay_ms;
            t = *p;
        } else if (k == "st") {
            t = TimeControl{};
            t.movetime_ms = std::int64_t(number(v, "-engine st") * 1000);
        } else {
            t.margin_ms = std::int64_t(number(v, "-engine timemargin"));
        }
        cfg.engine_tc[i] = t;
    }
    cfg.game.move_timeout_ms = vm["move-timeout"].as<int>();
    if (cfg.game.move_timeout_ms < 1)
        throw std::runtime_error("-move-timeout must be at least 1 ms");
}

/// Shards, concurrency and the files written (-shard, -concurrency, -pgnout, -state).
void read_outputs(const po::variables_map& vm, TournamentConfig& cfg) {
    if (vm.count("shard")) {
        const auto sh = vm["shard"].as<std::string>();
        const auto slash = sh.find('/');
        const int k = slash == std::string::npos ? 0 : int(number(sh.substr(0, slash), "-shard"));
        const int n = slash == std::string::npos ? 0 : int(number(sh.substr(slash + 1), "-shard"));
        if (n < 1 || k < 1 || k > n) throw std::runtime_error("-shard: K/N with 1 <= K <= N");
        if (!vm.count("state")) throw std::runtime_error("-shard needs -state (to -merge later)");
        cfg.shard = std::to_string(k) + "/" + std::to_string(n);
    }
    cfg.concurrency = vm["concurrency"].as<int>();
    if (vm.count("pgnout")) cfg.pgn_path = vm["pgnout"].as<std::string>();
    if (vm.count("state")) cfg.state_path = vm["state"].as<std::string>();
}

/// Start positions: -setups (SPEC 10 strings) or -openings (game records). Throws on a bad one.
void read_starts(const po::variables_map& vm, TournamentConfig& cfg) {
    if (vm.count("setups")) {
        std::ifstream in(vm["setups"].as<std::string>());
        if (!in)
            throw std::runtime_error("-setups: cannot read '" + vm["setups"].as<std::string>() +
                                     "'");
        for (std::string line; std::getline(in, line);) {
            if (line.empty() || line[0] == '#') continue;
            if (cfg.game.rules.blind)  // SPEC 25: each game would fail to start, scored a draw
                throw std::runtime_error(
                    "-setups under Blind: a blind game starts from the empty board (SPEC 25); "
                    "give -openings with records from it");
            Position p;
            if (auto err = p.set(line, cfg.game.rules))
                throw std::runtime_error("-setups: " + *err + " in '" + line + "'");
            if (p.players() != cfg.game.players)
                throw std::runtime_error("-setups: a " + std::to_string(p.players()) +
                                         "-player position with -players " +
                                         std::to_string(cfg.game.players) + ": '" + line + "'");
            if (cfg.clouds_hi > 0 && p.clouds())
                throw std::runtime_error("-setups: '" + line +
                                         "' has clouds already; drop -clouds");
            cfg.setups.push_back(line);
        }
    }
    if (vm.count("openings")) {
        if (vm.count("setups")) throw std::runtime_error("give -setups or -openings, not both");
        const auto spec = OpeningsSpec::parse(vm["openings"].as<std::vector<std::string>>());
        std::vector<std::string> skipped;
        const auto openings = load_openings(spec, cfg.game.rules, cfg.game.players, &skipped);
        for (const auto& s : skipped)
            std::cerr << "klinzha-match: -openings: skipped " << s << "\n";
        if (cfg.game.rules.blind) {  // SPEC 25: from the empty board, the moves told
            if (cfg.clouds_hi > 0)
                throw std::runtime_error(
                    "-openings under Blind: the records' start positions stand; drop -clouds");
            cfg.blind_openings = openings;
            return;
        }
        for (const auto& o : openings) cfg.setups.push_back(o.fen);
        if (cfg.clouds_hi > 0)
            for (const auto& f : cfg.setups)
                if (f.find("clouds=") != std::string::npos)
                    throw std::runtime_error(
                        "-openings: an opening has clouds already; drop -clouds");
    }
}

/// -tournament italian, -game-limit, -fate-seed, -maxmoves, -gauntlet, -blind-refusal-cap.
void read_tournament(const po::variables_map& vm, TournamentConfig& cfg) {
    if (vm.count("tournament")) {
        const auto t = vm["tournament"].as<std::string>();
        if (t != "italian")
            throw std::runtime_error("-tournament: 'italian' is the only kind, not '" + t + "'");
        if (cfg.game.players != 2)
            throw std::runtime_error("-tournament italian is for two players");
        if (vm.count("sprt"))
            throw std::runtime_error("-tournament italian scores bouts; drop -sprt");
        cfg.italian = true;
        cfg.game.game_limit_ms = 1200 * 1000;
    }
    if (vm.count("game-limit")) {
        const double s = vm["game-limit"].as<double>();
        if (!(s > 0)) throw std::runtime_error("-game-limit: seconds, more than 0");
        cfg.game.game_limit_ms = std::int64_t(s * 1000);
    }
    cfg.fate_seed = vm["fate-seed"].as<std::uint64_t>();
    cfg.game.max_fullmoves = vm["maxmoves"].as<int>();
    cfg.gauntlet = vm.count("gauntlet") > 0;
    cfg.game.blind_refusal_cap = vm["blind-refusal-cap"].as<int>();
    if (cfg.game.blind_refusal_cap < 0)
        throw std::runtime_error("-blind-refusal-cap must be 0 or more");
}

/// Adjudication and stopping: -draw, -resign (fastchess's), -sprt.
void read_adjudication(const po::variables_map& vm, TournamentConfig& cfg) {
    if (vm.count("draw")) {
        cfg.game.draw_moves = 0;
        bool moves = false, score = false;
        for (const auto& tok : vm["draw"].as<std::vector<std::string>>()) {
            auto [k, v] = key_value(tok);
            if (k == "movenumber")
                cfg.game.draw_from = int(number(v, "-draw movenumber"));
            else if (k == "movecount")
                cfg.game.draw_moves = int(number(v, "-draw movecount")), moves = true;
            else if (k == "score")
                cfg.game.draw_cp = int(number(v, "-draw score")), score = true;
            else
                throw std::runtime_error("-draw: unknown key '" + k + "'");
        }
        if (!moves || !score || cfg.game.draw_moves < 1 || cfg.game.draw_cp < 0)
            throw std::runtime_error(
                "-draw needs movecount=<m> (1 or more) and score=<cp> (0 or more)");
    }
    if (vm.count("resign"))
        for (const auto& tok : vm["resign"].as<std::vector<std::string>>()) {
            auto [k, v] = key_value(tok);
            if (k == "movecount")
                cfg.game.resign_moves = int(number(v, "-resign movecount"));
            else if (k == "score")
                cfg.game.resign_cp = int(number(v, "-resign score"));
            else
                throw std::runtime_error("-resign: unknown key '" + k + "'");
        }
    if (vm.count("sprt")) {
        Sprt s;
        for (const auto& tok : vm["sprt"].as<std::vector<std::string>>()) {
            auto [k, v] = key_value(tok);
            double x = number(v, "-sprt " + k);
            if (k == "elo0")
                s.elo0 = x;
            else if (k == "elo1")
                s.elo1 = x;
            else if (k == "alpha")
                s.alpha = x;
            else if (k == "beta")
                s.beta = x;
            else
                throw std::runtime_error("-sprt: unknown key '" + k + "'");
        }
        if (cfg.engines.size() != 2 || cfg.game.players != 2)
            throw std::runtime_error("-sprt needs exactly two engines and two players");
        if (auto err = s.validate()) throw std::runtime_error(*err);
        cfg.sprt = s;
    }
}

/// The report: -event, -ratinginterval, -recover, -handshake-timeout.
void read_report(const po::variables_map& vm, TournamentConfig& cfg) {
    cfg.event = vm["event"].as<std::string>();
    cfg.report_every = vm["ratinginterval"].as<int>();
    cfg.recover = vm.count("recover") > 0;
    const int handshake = vm["handshake-timeout"].as<int>();
    if (handshake < 1) throw std::runtime_error("-handshake-timeout must be at least 1 ms");
    for (auto& e : cfg.engines) e.handshake_ms = handshake;
    if (cfg.report_every < 0) throw std::runtime_error("-ratinginterval must be 0 or more");
}

}  // namespace

int main(int argc, char** argv) {
    const po::options_description desc = options();
    TournamentConfig cfg;
    try {
        auto parsed = po::command_line_parser(argc, argv)
                          .options(desc)
                          .style(po::command_line_style::default_style |
                                 po::command_line_style::allow_long_disguise)
                          .run();
        po::variables_map vm;
        po::store(parsed, vm);
        po::notify(vm);
        if (vm.count("help") || argc == 1) {
            std::cout << desc << "\n";
            return 0;
        }
        if (vm.count("version")) {
            std::cout << "klinzha-match " << version() << "\n";
            return 0;
        }
        Words each;
        EngineTcWords engine_tc_words;
        read_engines(parsed, cfg, each, engine_tc_words);
        if (vm.count("merge")) return merge(vm["merge"].as<std::vector<std::string>>());
        if (vm.count("compliance"))
            return check_compliance(vm["compliance"].as<std::string>(), vm["players"].as<int>(),
                                    std::cout) == 0
                       ? 0
                       : 1;
        read_game(vm, cfg, each);
        read_limits(vm, cfg, engine_tc_words);
        read_outputs(vm, cfg);
        read_starts(vm, cfg);
        read_tournament(vm, cfg);
        read_adjudication(vm, cfg);
        read_report(vm, cfg);
    } catch (const std::exception& e) {
        std::cerr << "klinzha-match: " << e.what() << "\n(try -help)\n";
        return 2;
    }

    std::unique_ptr<Tournament> owner;
    try {
        owner = std::make_unique<Tournament>(cfg, std::cout);
    } catch (const std::exception& e) {
        std::cerr << "klinzha-match: " << e.what() << "\n";
        return 2;
    }
    Tournament& t = *owner;
    g_tournament = &t;
    std::signal(SIGINT, on_sigint);
    t.run();
    // (An error that stopped the match is in the log already, as "Error: ...".)
    if (t.finished() > 0) std::cout << "\n" << t.table();
    return t.error().empty() ? 0 : 1;
}
