// tools/match/state.cpp: see state.h.
#include "state.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace klinzha::match {

using nlohmann::json;

namespace {
constexpr const char* kMagic = "klinzha-match-state";

const char* outcome_name(Outcome o) {
    return o == Outcome::Win ? "win" : o == Outcome::Loss ? "loss" : "draw";
}
}  // namespace

namespace {

json tc_json(const TimeControl& t) {
    return {{"moves", t.moves},       {"base_ms", t.base_ms},         {"inc_ms", t.inc_ms},
            {"delay_ms", t.delay_ms}, {"movetime_ms", t.movetime_ms}, {"depth", t.depth},
            {"nodes", t.nodes},       {"margin_ms", t.margin_ms}};
}

}  // namespace

json settings_json(const TournamentConfig& cfg) {
    json engines = json::array();
    for (const auto& e : cfg.engines) {
        json opts = json::array();
        for (const auto& [k, v] : e.options) opts.push_back({k, v});
        engines.push_back({{"name", e.name},
                           {"cmd", e.cmd},
                           {"options", opts},
                           {"depth", e.depth},
                           {"nodes", e.nodes}});
    }
    const auto& g = cfg.game;
    json s = {
        {"players", g.players},
        {"games", cfg.games},
        {"engines", engines},
        {"rules", g.rules.to_string()},
        {"tc", tc_json(g.tc)},
        {"start_fen", g.start_fen},
        {"setups", cfg.setups},
        {"clouds", {cfg.clouds_lo, cfg.clouds_hi, cfg.cloud_seed}},
        {"dice_seed", cfg.dice_seed},
        {"maxmoves", g.max_fullmoves},
        {"gauntlet", cfg.gauntlet},
        {"italian", cfg.italian},
        {"fate_seed", cfg.fate_seed},
        {"game_limit_ms", g.game_limit_ms},
        {"resign", {g.resign_moves, g.resign_cp}},
        {"draw", {g.draw_from, g.draw_moves, g.draw_cp}},
        {"move_timeout_ms", g.move_timeout_ms},
    };
    // Blind -openings: only when given, so state files of other matches read as before.
    if (!cfg.blind_openings.empty()) {
        json list = json::array();
        for (const auto& o : cfg.blind_openings) list.push_back({o.start, o.history});
        s["blind_openings"] = list;
    }
    if (cfg.sprt) s["sprt"] = {cfg.sprt->elo0, cfg.sprt->elo1, cfg.sprt->alpha, cfg.sprt->beta};
    // Per-engine clocks (-engine tc=, st=, timemargin=): only when some engine has one, so
    // state files of matches without them read as before.
    if (std::any_of(cfg.engine_tc.begin(), cfg.engine_tc.end(), [](const auto& t) { return t; })) {
        json per = json::array();
        for (const auto& t : cfg.engine_tc) per.push_back(t ? tc_json(*t) : json(nullptr));
        s["engine_tc"] = per;
    }
    return s;
}

TournamentConfig config_from_settings(const json& s) {
    try {
        TournamentConfig cfg;
        cfg.game.players = s.at("players").get<int>();
        cfg.games = s.at("games").get<int>();
        cfg.gauntlet = s.value("gauntlet", false);
        cfg.italian = s.value("italian", false);
        for (const auto& e : s.at("engines")) {
            EngineSpec spec;
            spec.name = e.at("name").get<std::string>();
            spec.cmd = e.at("cmd").get<std::string>();
            for (const auto& o : e.at("options"))
                spec.options.emplace_back(o.at(0).get<std::string>(), o.at(1).get<std::string>());
            spec.depth = e.at("depth").get<int>();
            spec.nodes = e.at("nodes").get<std::uint64_t>();
            cfg.engines.push_back(spec);
        }
        std::istringstream words(s.at("rules").get<std::string>());
        for (std::string w; words >> w;) {
            const auto eq = w.find('=');
            if (eq == std::string::npos) throw std::runtime_error("bad rule word '" + w + "'");
            if (auto err = cfg.game.rules.set(w.substr(0, eq), w.substr(eq + 1)))
                throw std::runtime_error(*err);
        }
        if (s.contains("sprt")) {
            const auto& p = s.at("sprt");
            cfg.sprt = Sprt{p.at(0).get<double>(), p.at(1).get<double>(), p.at(2).get<double>(),
                            p.at(3).get<double>()};
        }
        if (cfg.game.players != 2 && cfg.game.players != 3)
            throw std::runtime_error("players must be 2 or 3");
        if (cfg.engines.size() < 2 || cfg.engines.size() > 64)
            throw std::runtime_error("2 to 64 engines");
        if (cfg.games < 1 || cfg.games > 10'000'000) throw std::runtime_error("games out of range");
        return cfg;
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("settings: ") + e.what());
    }
}

json to_json(const GameSummary& s) {
    json seats = json::array();
    for (int c = 0; c < s.players; ++c)
        seats.push_back({{"engine", s.engine[c]},
                         {"outcome", outcome_name(s.outcome[c])},
                         {"rh", s.rh[c]},
                         {"kz", s.kz[c]},
                         {"refused", s.refused[c]}});
    return {{"index", s.index},
            {"players", s.players},
            {"seats", seats},
            {"termination", s.termination},
            {"italian", s.italian}};
}

std::optional<std::string> from_json(const json& j, const TournamentConfig& cfg, int total,
                                     GameSummary& out) {
    try {
        GameSummary s;
        s.index = j.at("index").get<int>();
        s.players = j.at("players").get<int>();
        s.termination = j.at("termination").get<std::string>();
        s.italian = j.value("italian", "");
        if (s.index < 0 || s.index >= total)
            return "game index " + std::to_string(s.index) + " outside 0.." +
                   std::to_string(total - 1);
        if (s.players != cfg.game.players)
            return "a " + std::to_string(s.players) + "-player game in a " +
                   std::to_string(cfg.game.players) + "-player match";
        const auto& seats = j.at("seats");
        if (int(seats.size()) != s.players) return "seat count does not match players";
        const auto expected =
            seating(s.index, s.players, int(cfg.engines.size()), cfg.games, cfg.gauntlet);
        for (int c = 0; c < s.players; ++c) {
            const auto& seat = seats.at(std::size_t(c));
            s.engine[c] = seat.at("engine").get<int>();
            s.refused[c] = seat.value("refused", 0);  // Blind; absent in older state files
            if (s.engine[c] != expected[c])
                return "seat " + std::to_string(c) + " holds engine " +
                       std::to_string(s.engine[c]) + ", the schedule says " +
                       std::to_string(expected[c]);
            const auto o = seat.at("outcome").get<std::string>();
            if (o == "win")
                s.outcome[c] = Outcome::Win;
            else if (o == "loss")
                s.outcome[c] = Outcome::Loss;
            else if (o == "draw")
                s.outcome[c] = Outcome::Draw;
            else
                return "unknown outcome '" + o + "'";
            s.rh[c] = seat.at("rh").get<int>();
            s.kz[c] = seat.at("kz").get<double>();
            const double kz = s.outcome[c] == Outcome::Win    ? 1
                              : s.outcome[c] == Outcome::Draw ? -0.5
                                                              : 0;
            if (s.kz[c] != kz) return "KZ points do not fit the outcome";
            if (s.rh[c] < -1 || s.rh[c] > 2) return "RH points out of range";
        }
        out = s;
        return std::nullopt;
    } catch (const json::exception& e) {
        return std::string("malformed game line: ") + e.what();
    }
}

std::optional<StateFile> read_state(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::string line;
    int number = 0;
    StateFile st;
    bool header = false;
    TournamentConfig cfg;
    int total = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) continue;
        json j = json::parse(line, nullptr, false);
        if (!header) {
            if (j.is_discarded() || !j.is_object() || !j.contains(kMagic))
                throw std::runtime_error(path + ": not a klinzha-match state file (line " +
                                         std::to_string(number) + ")");
            if (j.at(kMagic) != 1) throw std::runtime_error(path + ": unknown state file version");
            st.settings = j.at("settings");
            st.shard = j.value("shard", "");
            cfg = config_from_settings(st.settings);
            total =
                schedule_size(cfg.game.players, int(cfg.engines.size()), cfg.games, cfg.gauntlet);
            header = true;
            continue;
        }
        if (j.is_discarded()) {  // a write cut short: skip it, keep what follows
            st.warnings.push_back("line " + std::to_string(number) + " is cut short; skipped");
            continue;
        }
        GameSummary s;
        if (auto err = from_json(j, cfg, total, s))
            throw std::runtime_error(path + ": line " + std::to_string(number) + ": " + *err);
        st.games.push_back(s);
    }
    if (!header) return std::nullopt;
    return st;
}

namespace {
/// Appends text, first ending a last line cut short. Returns an error, or nullopt.
std::optional<std::string> append(const std::string& path, const std::string& text) {
    std::string prefix;
    {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (in && in.tellg() > 0) {
            in.seekg(-1, std::ios::end);
            char last = 0;
            in.get(last);
            if (last != '\n') prefix = "\n";
        }
    }
    std::ofstream out(path, std::ios::app | std::ios::binary);
    if (!out) return "cannot write '" + path + "'";
    out << prefix << text << '\n' << std::flush;
    if (!out) return "writing '" + path + "' failed";
    return std::nullopt;
}
}  // namespace

std::optional<std::string> open_state(const std::string& path, const json& settings,
                                      const std::string& shard) {
    {
        std::ofstream probe(path, std::ios::app);
        if (!probe) return "cannot write the state file '" + path + "'";
    }
    std::ifstream in(path, std::ios::ate);
    if (in.tellg() > 0) return std::nullopt;  // a header is there (read_state checked it)
    json h = {{kMagic, 1}, {"settings", settings}};
    if (!shard.empty()) h["shard"] = shard;
    return append(path, h.dump());
}

std::optional<std::string> append_game(const std::string& path, const GameSummary& s) {
    return append(path, to_json(s).dump());
}

std::string settings_difference(const json& a, const json& b) {
    if (a == b) return "";
    for (const auto& [k, v] : a.items()) {
        if (!b.contains(k)) return k + ": missing in one";
        if (b.at(k) != v) return k + ": " + v.dump() + " != " + b.at(k).dump();
    }
    for (const auto& [k, v] : b.items())
        if (!a.contains(k)) return k + ": missing in one";
    return "settings differ";
}

}  // namespace klinzha::match
