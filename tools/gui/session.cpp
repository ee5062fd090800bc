// tools/gui/session.cpp: see session.h.
#include "session.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <sstream>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "engine/svg.h"

namespace klinzha::gui {

using nlohmann::json;

namespace {

std::int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string colour_name(Colour c) {
    return std::string(1, kColourChar[c]);
}

const char* phase_name(Phase p) {
    return p == Phase::Place ? "place" : p == Phase::Heart ? "heart" : "play";
}

/// Splits a line into words.
std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> w;
    for (std::string t; in >> t;) w.push_back(t);
    return w;
}

/// The rule options of r as (name, value) pairs, every option (SPEC 8), for `setoption`.
std::vector<std::pair<std::string, std::string>> rule_words(const Rules& r) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& w : words(r.to_string()))
        if (auto eq = w.find('='); eq != std::string::npos)
            out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
    return out;
}

}  // namespace

std::variant<std::vector<EngineOption>, std::string> query_engine_options(
    const match::EngineSpec& spec, std::int64_t timeout_ms) {
    match::ProcessPlayer p(spec);
    if (auto err = p.spawn()) return *err;
    if (!p.send_line("uci")) return "engine '" + spec.name + "' died at once";
    std::vector<EngineOption> out;
    const auto deadline = now_ms() + timeout_ms;
    while (true) {
        auto line = p.read_line_within(std::max<std::int64_t>(0, deadline - now_ms()));
        if (!line) return "engine '" + spec.name + "' did not answer uci";
        if (*line == "uciok") break;
        auto w = words(*line);
        if (w.size() < 5 || w[0] != "option" || w[1] != "name") continue;
        EngineOption o;
        std::size_t i = 2;
        for (; i < w.size() && w[i] != "type"; ++i) o.name += (o.name.empty() ? "" : " ") + w[i];
        for (++i; i < w.size(); ++i) {
            if (w[i] == "type" && i + 1 < w.size())
                o.type = w[++i];
            else if (w[i] == "default") {
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
        if (o.type == "type") o.type.clear();
        out.push_back(o);
    }
    p.send_line("quit");
    return out;
}

/// An analysis engine: one process, `go infinite` on the position asked for, MultiPV lines
/// turned into RH algebraic notation and handed to `emit` (at most ~5 a second).
class Analyser {
  public:
    Analyser(match::EngineSpec spec, std::function<void(const json&)> emit)
        : player_(std::move(spec)), emit_(std::move(emit)) {
        thread_ = std::thread([this] { run(); });
    }
    ~Analyser() {
        {
            std::lock_guard lock(m_);
            quit_ = true;
        }
        cv_.notify_all();
        thread_.join();
    }
    /// Analyse pos (its string and rules) with multipv lines; replaces the previous request.
    void request(const Position& pos, int multipv) {
        std::lock_guard lock(m_);
        pending_ = pos;
        multipv_ = multipv;
        cv_.notify_all();
    }

  private:
    void run() {
        if (auto err = player_.start()) {
            emit_({{"type", "error"}, {"message", "analysis: " + *err}});
            return;
        }
        std::optional<Position> current;
        bool searching = false;
        std::map<int, json> lines;
        std::int64_t last_emit = 0;
        bool dirty = false;  // lines changed since the last emit
        // Sends the lines (at most ~5 a second: the callers check last_emit).
        auto emit_lines = [&] {
            last_emit = now_ms();
            dirty = false;
            json arr = json::array();
            for (auto& [_, v] : lines) arr.push_back(v);
            emit_({{"type", "analysis"}, {"fen", current->fen()}, {"lines", arr}});
        };
        while (true) {
            std::optional<Position> next;
            int multipv = 1;
            {
                std::unique_lock lock(m_);
                if (!searching) cv_.wait(lock, [&] { return quit_ || pending_.has_value(); });
                if (quit_) break;
                if (pending_) {
                    next = std::move(pending_);
                    pending_.reset();
                    multipv = multipv_;
                }
            }
            if (next) {
                if (searching) {  // stop, and take every line up to bestmove off the pipe
                    player_.send_line("stop");
                    while (auto l = player_.read_line_within(2000))
                        if (l->rfind("bestmove", 0) == 0) break;
                    searching = false;
                }
                current = std::move(next);
                lines.clear();
                dirty = false;
                if (!current->game_over() && has_legal_move(*current)) {
                    player_.send_line("setoption name MultiPV value " + std::to_string(multipv));
                    player_.send_line("setoption name Players value " +
                                      std::to_string(current->players()));
                    player_.send_line("position fen " + current->fen());
                    player_.send_line("go infinite");
                    searching = true;
                }
                emit_({{"type", "analysis"}, {"fen", current->fen()}, {"lines", json::array()}});
                continue;
            }
            auto line = player_.read_line_within(100);
            if (dirty && now_ms() - last_emit >= 200) emit_lines();  // what the throttle held back
            if (!line) {
                if (!player_.alive()) {
                    emit_({{"type", "error"}, {"message", "analysis engine died"}});
                    return;
                }
                continue;
            }
            if (line->rfind("bestmove", 0) == 0) {
                searching = false;
                continue;
            }
            if (line->rfind("info ", 0) != 0) continue;
            auto w = words(*line);
            json l;
            int k = 1;
            std::vector<std::string> pv;
            for (std::size_t i = 1; i < w.size(); ++i) {
                if (w[i] == "string") break;
                if (w[i] == "currmove") break;
                if (i + 1 >= w.size()) break;
                if (w[i] == "depth")
                    l["depth"] = std::atoi(w[++i].c_str());
                else if (w[i] == "multipv")
                    k = std::atoi(w[++i].c_str());
                else if (w[i] == "nps")
                    l["nps"] = std::atoll(w[++i].c_str());
                else if (w[i] == "nodes")
                    l["nodes"] = std::atoll(w[++i].c_str());
                else if (w[i] == "score" && i + 2 < w.size()) {
                    l["score"] = w[i + 1] + " " + w[i + 2];
                    i += 2;
                } else if (w[i] == "pv") {
                    pv.assign(w.begin() + std::ptrdiff_t(i) + 1, w.end());
                    break;
                }
            }
            if (pv.empty() || !l.contains("score")) continue;
            // The line in RH algebraic notation (SPEC 11), up to the first illegal move.
            Position p = *current;
            std::string san;
            json moves = json::array();
            for (const auto& s : pv) {
                auto m = parse_move(p, s);
                if (!std::holds_alternative<Move>(m)) break;
                const Move mv = std::get<Move>(m);
                san += (san.empty() ? "" : " ") + to_algebraic(p, mv);
                moves.push_back(s);
                p.do_move(mv);
            }
            l["multipv"] = k;
            l["pv"] = moves;
            l["san"] = san;
            lines[k] = l;
            dirty = true;
            if (now_ms() - last_emit >= 200) emit_lines();
        }
        if (searching) player_.send_line("stop");
        player_.send_line("quit");
    }

    match::ProcessPlayer player_;
    std::function<void(const json&)> emit_;
    std::mutex m_;
    std::condition_variable cv_;
    std::optional<Position> pending_;
    int multipv_ = 1;
    bool quit_ = false;
    std::thread thread_;
};

/// A seat as the referee sees it: the player, watched so the page can show the clocks.
struct GuiSession::Seat : match::Player {
    Seat(match::Player& p, GuiSession& s, Colour c) : inner(p), session(s), colour(c) {}
    std::string name() const override { return inner.name(); }
    std::optional<std::string> start() override { return inner.start(); }
    bool new_game() override { return inner.new_game(); }
    bool alive() const override { return inner.alive(); }
    match::Reply go(const std::string& position_cmd, const std::string& go_cmd,
                    std::int64_t timeout_ms) override {
        {
            std::lock_guard lock(session.m_);
            auto w = words(go_cmd);
            for (std::size_t i = 0; i + 1 < w.size(); ++i)
                for (int c = 0; c < kColours; ++c)
                    if (w[i] == colour_name(Colour(c)) + "time")
                        session.clock_ms_[c] = std::atoll(w[i + 1].c_str());
            session.clock_running_ = colour;
            session.clock_stamp_ms_ = now_ms();
            if (auto* h = session.humans_[colour]) h->expect();
        }
        session.broadcast_state();
        return inner.go(position_cmd, go_cmd, timeout_ms);
    }
    match::Player& inner;
    GuiSession& session;
    Colour colour;
};

GuiSession::GuiSession(std::vector<EngineEntry> engines, Send send)
    : engines_(std::move(engines)), send_(std::move(send)) {
    start_fen_ = kStartFen2;
}

GuiSession::~GuiSession() {
    stop_game();
    analyser_.reset();
}

void GuiSession::error(const std::string& message) {
    send_(json{{"type", "error"}, {"message", message}}.dump());
}

void GuiSession::handle(std::string_view text) {
    json msg;
    try {
        msg = json::parse(text);
    } catch (const std::exception& e) {
        return error(std::string("not JSON: ") + e.what());
    }
    if (!msg.is_object() || !msg.contains("type") || !msg["type"].is_string())
        return error("a message is a JSON object with a string \"type\"");
    const std::string type = msg["type"];
    try {
        if (type == "hello") {
            send_(welcome_json().dump());
            broadcast_state();
        } else if (type == "new_game") {
            on_new_game(msg);
        } else if (type == "move") {
            on_move(msg);
        } else if (type == "takeback") {
            on_takeback();
        } else if (type == "stop_game") {
            stop_game();
            broadcast_state();
        } else if (type == "load") {
            on_load(msg);
        } else if (type == "save") {
            std::lock_guard lock(m_);
            match::GameRecord g;
            g.players = players_;
            g.names = names_;
            g.start_fen = start_fen_;
            g.moves = moves_;
            g.algebraic = algebraic_;
            g.movers = movers_;
            g.setup_move = setup_;
            g.comments = comments_;
            g.removals = removals_;
            g.termination = termination_;
            if (!result_.empty()) g.outcome = outcome_;
            match::GameConfig cfg = cfg_;
            cfg.players = players_;
            cfg.rules = rules_;
            const std::string pgn = match::to_pgn(g, cfg, 1, "klinzha-gui");
            send_(json{{"type", "record"}, {"pgn", pgn}}.dump());
        } else if (type == "set_position") {
            on_set_position(msg);
        } else if (type == "goto") {
            on_goto(msg);
        } else if (type == "view") {
            const std::string c = msg.value("colour", "");
            if (c != "g" && c != "b" && c != "k") return error("view: colour is g, b or k");
            {
                std::lock_guard lock(m_);
                view_colour_ = c == "g" ? GREEN : c == "b" ? BLUE : BLACK;
            }
            broadcast_state();
        } else if (type == "analyse") {
            on_analyse(msg);
        } else {
            error("unknown message type '" + type + "'");
        }
    } catch (const std::exception& e) {
        error(type + ": " + e.what());
    }
}

json GuiSession::welcome_json() const {
    json engines = json::array();
    for (const auto& e : engines_) {
        json opts = json::array();
        for (const auto& o : e.options)
            opts.push_back({{"name", o.name},
                            {"type", o.type},
                            {"default", o.default_value},
                            {"min", o.min},
                            {"max", o.max},
                            {"vars", o.vars}});
        engines.push_back({{"name", e.spec.name}, {"options", opts}});
    }
    json rules = json::array();
    for (const RuleOption& ro : kRuleOptions)
        rules.push_back({{"name", ro.name}, {"default", ro.fallback}, {"help", ro.help}});
    json variants = json::array();
    for (const auto& v : kVariantNames) variants.push_back(std::string(v));
    return {{"type", "welcome"}, {"engines", engines}, {"rules", rules}, {"variants", variants}};
}

void GuiSession::keep_moves(std::size_t n) {
    moves_.resize(n);
    algebraic_.resize(n);
    comments_.resize(n);
    movers_.resize(n);
    setup_.resize(n);
}

Position GuiSession::position_at(int ply) const {
    Position p;
    if (auto err = p.set(start_fen_, rules_)) throw std::runtime_error("start position: " + *err);
    const int n = ply < 0 ? int(moves_.size()) : std::min<int>(ply, int(moves_.size()));
    for (int i = 0; i < n; ++i) {
        for (const auto& r : removals_)
            if (r.before_move == std::size_t(i) && p.to_move() == r.colour) p.eliminate_to_move();
        auto m = parse_move(p, moves_[std::size_t(i)]);
        if (!std::holds_alternative<Move>(m))
            throw std::runtime_error("move " + std::to_string(i + 1) + ": " +
                                     std::get<std::string>(m));
        p.do_move(std::get<Move>(m));
    }
    if (ply < 0)
        for (const auto& r : removals_)
            if (r.before_move == moves_.size() && p.is_in(r.colour) && p.to_move() == r.colour &&
                p.players_in() > 1)
                p.eliminate_to_move();
    return p;
}

json GuiSession::state_json() const {
    const Position pos = position_at(view_ply_);
    SvgOptions so;
    so.view = view_colour_;
    json legal = json::array();
    const bool at_end = view_ply_ < 0 || view_ply_ >= int(moves_.size());
    const Colour stm = pos.to_move();
    const bool human_turn = running_ && at_end && humans_[stm] && humans_[stm]->waiting();
    if (human_turn || (!running_ && at_end && result_.empty())) {
        MoveList l;
        generate_legal(pos, l);
        for (Move m : l) {
            json j{{"move", move_to_string(m)},
                   {"san", to_algebraic(pos, m)},
                   {"to", geo::cell_name(m.to())}};
            switch (m.kind()) {
                case Move::Place:
                    j["kind"] = "place";
                    j["piece"] = std::string(1, kPieceChar[m.placed_type()]);
                    break;
                case Move::PlaceHeart:
                    j["kind"] = "heart";
                    break;
                default:
                    j["kind"] = "play";
                    j["from"] = geo::cell_name(m.from());
                    j["carry"] = m.carries_heart();
            }
            legal.push_back(j);
        }
    }
    json moves = json::array();
    for (std::size_t i = 0; i < moves_.size(); ++i)
        moves.push_back({{"move", moves_[i]},
                         {"san", algebraic_[i]},
                         {"mover", colour_name(movers_[i])},
                         {"setup", bool(setup_[i])},
                         {"comment", i < comments_.size() ? comments_[i] : ""}});
    json seats = json::array();
    for (int c = 0; c < players_; ++c)
        seats.push_back(
            {{"colour", colour_name(Colour(c))}, {"name", names_[c]}, {"human", human_[c]}});
    json clocks = json::array();
    for (int c = 0; c < players_; ++c)
        clocks.push_back(clock_ms_[c] < 0 ? json(nullptr)
                                          : json(clock_ms_[c] - (running_ && clock_running_ == c
                                                                     ? now_ms() - clock_stamp_ms_
                                                                     : 0)));
    std::string status;
    if (!result_.empty())
        status = "Game over: " + result_ + " (" + termination_ + ")";
    else if (running_)
        status = std::string(human_turn ? "Your move: " : "Thinking: ") + names_[stm] + " (" +
                 colour_name(stm) + ", " + phase_name(pos.phase()) + ")";
    else
        status =
            "No game running: " + colour_name(stm) + " to move (" + phase_name(pos.phase()) + ")";
    json out{{"type", "state"},
             {"fen", pos.fen()},
             {"svg", board_svg(pos, so)},
             {"players", players_},
             {"to_move", colour_name(stm)},
             {"phase", phase_name(pos.phase())},
             {"ply", at_end ? int(moves_.size()) : view_ply_},
             {"plies", int(moves_.size())},
             {"moves", moves},
             {"legal", legal},
             {"human_to_move", human_turn},
             {"seats", seats},
             {"clocks", clocks},
             {"clock_running",
              running_ && clock_running_ != NO_COLOUR ? colour_name(clock_running_) : ""},
             {"running", running_},
             {"result", result_},
             {"termination", termination_},
             {"view", colour_name(view_colour_)},
             {"status", status}};
    return out;
}

void GuiSession::broadcast_state() {
    std::lock_guard order(state_send_m_);
    std::string s;
    {
        std::lock_guard lock(m_);
        try {
            s = state_json().dump();
        } catch (const std::exception& e) {
            s = json{{"type", "error"}, {"message", e.what()}}.dump();
        }
        follow_analysis();
    }
    send_(s);
}

void GuiSession::follow_analysis() {
    if (!analyser_) return;
    try {
        analyser_->request(position_at(view_ply_), analysis_multipv_);
    } catch (const std::exception&) {
    }
}

void GuiSession::stop_game() {
    std::vector<HumanPlayer*> hs;
    {
        std::lock_guard lock(m_);
        if (!game_thread_.joinable()) return;
        abandon_ = true;
        for (auto* h : humans_)
            if (h) hs.push_back(h);
    }
    for (auto* h : hs) h->abandon();
    game_thread_.join();
    std::lock_guard lock(m_);
    running_ = false;
    clock_running_ = NO_COLOUR;
    seats_.clear();
    players_objs_.clear();
    humans_ = {};
}

void GuiSession::start_referee(const std::string& start_fen) {
    // m_ held by the caller; no game thread runs.
    abandon_ = false;
    cfg_.abandon = &abandon_;
    cfg_.start_fen = start_fen;
    cfg_.players = players_;
    cfg_.rules = rules_;
    running_ = true;
    result_.clear();
    termination_.clear();
    segment_start_ = moves_.size();
    const std::size_t removals_before = removals_.size();
    std::vector<match::Player*> seats;
    for (auto& s : seats_) seats.push_back(s.get());
    game_thread_ = std::thread([this, seats, removals_before] {
        auto on_move = [this, removals_before](const match::GameRecord& g) {
            {
                std::lock_guard lock(m_);
                keep_moves(segment_start_);
                removals_.resize(removals_before);
                for (std::size_t i = 0; i < g.moves.size(); ++i) {
                    moves_.push_back(g.moves[i]);
                    algebraic_.push_back(g.algebraic[i]);
                    comments_.push_back(i < g.comments.size() ? g.comments[i] : "");
                    movers_.push_back(g.movers[i]);
                    setup_.push_back(g.setup_move[i]);
                }
                for (auto r : g.removals) {
                    r.before_move += segment_start_;
                    removals_.push_back(r);
                }
            }
            broadcast_state();
        };
        match::GameRecord g = match::play_game(seats, cfg_, on_move);
        on_move(g);
        {
            std::lock_guard lock(m_);
            running_ = false;
            clock_running_ = NO_COLOUR;
            if (g.aborted.empty()) {
                result_ = g.result();
                termination_ = g.termination;
            }
            if (g.aborted.empty()) outcome_ = g.outcome;
            // An engine that died or broke the rules: say so on the page (the game is kept).
            for (const char* what : {"crashed", "illegal move", "no answer"})
                if (g.aborted.empty() && g.termination.find(what) != std::string::npos)
                    send_(json{{"type", "error"}, {"message", "engine failure: " + g.termination}}
                              .dump());
        }
        broadcast_state();
    });
}

void GuiSession::on_new_game(const json& msg) {
    const int players = msg.value("players", 2);
    if (players != 2 && players != 3) return error("new_game: players is 2 or 3");
    if (!msg.contains("seats") || !msg["seats"].is_array() || int(msg["seats"].size()) != players)
        return error("new_game: seats must list one player per colour");
    // Rules: a preset, then single options (SPEC 8).
    Rules rules;
    if (msg.contains("variant") && msg["variant"].is_string())
        if (auto err = rules.set("UCI_Variant", msg["variant"].get<std::string>()))
            return error("new_game: " + *err);
    if (msg.contains("rules")) {
        if (!msg["rules"].is_object()) return error("new_game: rules is an object");
        for (auto& [k, v] : msg["rules"].items()) {
            const std::string val = v.is_string() ? v.get<std::string>() : v.dump();
            if (auto err = rules.set(k, val)) return error("new_game: " + *err);
        }
    }
    if (int need = rules.required_players(); need < 0 || (need > 0 && need != players))
        return error("new_game: these rules need another number of players");
    std::string fen = msg.value("fen", "");
    {
        Position p;
        if (auto err = p.set(fen.empty() ? (players == 3 ? kStartFen3 : kStartFen2) : fen, rules))
            return error("new_game: position: " + *err);
        if (p.players() != players)
            return error("new_game: the position is for another number of players");
    }
    // Time control: a clock, or a fixed time per engine move.
    match::TimeControl tc;
    const std::string tcs = msg.value("tc", "");
    if (!tcs.empty()) {
        auto parsed = match::TimeControl::parse(tcs);
        if (!parsed)
            return error("new_game: time control '" + tcs + "' is not [moves/]seconds[+inc]");
        tc = *parsed;
        tc.delay_ms = std::int64_t(msg.value("delay", 0.0) * 1000);
        if (tc.delay_ms < 0) return error("new_game: delay must not be negative");
    } else {
        tc.movetime_ms = msg.value("movetime", 1000);
        if (tc.movetime_ms < 1) return error("new_game: movetime must be at least 1 ms");
    }
    // Seats: "human" or an engine the server knows.
    std::vector<std::unique_ptr<match::Player>> objs;
    std::array<HumanPlayer*, kColours> humans{};
    std::array<std::string, kColours> names{};
    std::array<bool, kColours> human{};
    const json engine_options = msg.value("engine_options", json::object());
    for (int c = 0; c < players; ++c) {
        const auto& s = msg["seats"][std::size_t(c)];
        if (!s.is_string()) return error("new_game: each seat is \"human\" or an engine name");
        const std::string who = s;
        if (who == "human") {
            auto h = std::make_unique<HumanPlayer>("Human");
            humans[c] = h.get();
            human[c] = true;
            names[c] = "Human";
            objs.push_back(std::move(h));
            continue;
        }
        const EngineEntry* e = nullptr;
        for (const auto& x : engines_)
            if (x.spec.name == who) e = &x;
        if (!e) return error("new_game: no engine named '" + who + "'");
        match::EngineSpec spec = e->spec;
        if (engine_options.contains(who) && engine_options[who].is_object())
            for (auto& [name, v] : engine_options[who].items()) {
                const std::string k = name;  // (a structured binding cannot be captured)
                const bool declared =
                    std::any_of(e->options.begin(), e->options.end(),
                                [&](const EngineOption& o) { return o.name == k; });
                if (!declared) return error("new_game: " + who + " has no option '" + k + "'");
                spec.options.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
            }
        // The rules go to the engine as options too (SPEC 13), and the game size.
        spec.options.emplace_back("Players", std::to_string(players));
        for (auto& kv : rule_words(rules)) spec.options.push_back(kv);
        names[c] = who;
        objs.push_back(std::make_unique<match::ProcessPlayer>(spec));
    }
    // Every engine must start before the old game is given up.
    for (int c = 0; c < players; ++c)
        if (!human[c])
            if (auto err = objs[std::size_t(c)]->start()) return error("new_game: " + *err);
    stop_game();
    {
        std::lock_guard lock(m_);
        players_ = players;
        rules_ = rules;
        start_fen_ = fen.empty() ? (players == 3 ? kStartFen3 : kStartFen2) : fen;
        {
            Position p;
            p.set(start_fen_, rules_);
            start_fen_ = p.fen();
        }
        keep_moves(0);
        removals_.clear();
        names_ = names;
        human_ = human;
        humans_ = humans;
        players_objs_ = std::move(objs);
        seats_.clear();
        for (int c = 0; c < players; ++c)
            seats_.push_back(
                std::make_unique<Seat>(*players_objs_[std::size_t(c)], *this, Colour(c)));
        cfg_ = match::GameConfig{};
        cfg_.tc = tc;
        cfg_.move_timeout_ms = 1000LL * 60 * 60 * 24;  // a person without a clock may think
        for (int c = 0; c < players; ++c)
            if (human[c] && tc.base_ms < 0) {
                match::TimeControl none;
                none.depth = 1;  // no limit for a person: the long move timeout applies
                cfg_.seat_tc[c] = none;
            }
        clock_ms_ = {-1, -1, -1};
        for (int c = 0; c < players; ++c)
            if (tc.base_ms >= 0) clock_ms_[c] = tc.base_ms;
        view_ply_ = -1;
        view_colour_ = GREEN;
        for (int c = 0; c < players; ++c)
            if (human[c]) {
                view_colour_ = Colour(c);
                break;
            }
        start_referee(start_fen_);
    }
    broadcast_state();
}

void GuiSession::on_move(const json& msg) {
    if (!msg.contains("move") || !msg["move"].is_string()) return error("move: give \"move\"");
    const std::string text = msg["move"];
    HumanPlayer* h = nullptr;
    {
        std::lock_guard lock(m_);
        if (!running_) return error("move: no game is running (start one, or load a record)");
        if (view_ply_ >= 0 && view_ply_ < int(moves_.size()))
            return error("move: go to the last position first");
        const Position pos = position_at(-1);
        h = humans_[pos.to_move()];
        if (!h || !h->waiting()) return error("move: it is not a person's turn");
        auto m = parse_move(pos, text);
        if (!std::holds_alternative<Move>(m)) return error("move: " + std::get<std::string>(m));
    }
    if (!h->submit(text)) error("move: the move came too late");
}

void GuiSession::on_takeback() {
    std::unique_lock lock(m_);
    bool engines = false;
    for (int c = 0; c < players_; ++c) engines |= !human_[c];
    if (engines && cfg_.tc.base_ms >= 0)
        return lock.unlock(), error("takeback: not in a game with engines on the clock");
    if (moves_.empty()) return lock.unlock(), error("takeback: no move to take back");
    const bool had_game = running_ || game_thread_.joinable();
    lock.unlock();
    stop_game();
    lock.lock();
    // Back to the last move a person made (so an engine's answer goes too), or one move.
    std::size_t n = moves_.size();
    do {
        --n;
    } while (n > 0 && !human_[movers_[n]] && engines);
    keep_moves(n);
    while (!removals_.empty() && removals_.back().before_move > n) removals_.pop_back();
    result_.clear();
    termination_.clear();
    view_ply_ = -1;
    if (had_game && !seats_.empty()) {
        // The referee starts again from here (its record continues the moves kept).
        start_referee(position_at(-1).fen());
    }
    lock.unlock();
    broadcast_state();
}

void GuiSession::on_load(const json& msg) {
    if (!msg.contains("record") || !msg["record"].is_string())
        return error("load: give \"record\"");
    std::istringstream in(msg["record"].get<std::string>());
    auto games = read_records(in);
    if (games.empty()) return error("load: no game record found");
    const auto& g = games.front();
    int players = 2;
    if (auto it = g.tags.find("Players"); it != g.tags.end())
        players = std::atoi(it->second.c_str());
    if (auto it = g.tags.find("FEN"); it != g.tags.end() && !it->second.empty())
        players = it->second[0] == '3' ? 3 : 2;
    auto r = replay(g, Rules{}, players, true);
    if (!r.error.empty()) return error("load: " + r.error);
    stop_game();
    {
        std::lock_guard lock(m_);
        players_ = r.start.players();
        rules_ = r.start.rules();
        start_fen_ = r.start.fen();
        keep_moves(0);
        removals_.clear();
        Position p = r.start;
        for (const auto& s : r.moves) {
            if (s.rfind("out:", 0) == 0) {
                removals_.push_back({moves_.size(), p.to_move(), "removed"});
                p.eliminate_to_move();
                continue;
            }
            auto m = parse_move(p, s);
            if (!std::holds_alternative<Move>(m)) break;
            algebraic_.push_back(to_algebraic(p, std::get<Move>(m)));
            movers_.push_back(p.to_move());
            setup_.push_back(p.phase() != Phase::Play);
            comments_.push_back("");
            moves_.push_back(s);
            p.do_move(std::get<Move>(m));
        }
        for (int c = 0; c < kColours; ++c) {
            names_[c] = "";
            human_[c] = true;
        }
        for (auto [tag, c] : {std::pair{"Green", 0}, std::pair{"White", 0}, std::pair{"Blue", 1},
                              std::pair{"Black", 1}})
            if (auto it = g.tags.find(tag); it != g.tags.end() && names_[c].empty())
                names_[c] = it->second;
        result_ = g.result == "*" ? "" : g.result;
        outcome_ = {match::Outcome::Draw, match::Outcome::Draw, match::Outcome::Draw};
        const auto scores = result_scores(result_, players_);
        for (std::size_t c = 0; c < scores.size(); ++c)
            outcome_[c] = scores[c] == 1   ? match::Outcome::Win
                          : scores[c] == 0 ? match::Outcome::Loss
                                           : match::Outcome::Draw;
        termination_ = result_.empty() ? "" : "from the record";
        view_ply_ = -1;
        clock_ms_ = {-1, -1, -1};
    }
    broadcast_state();
}

void GuiSession::on_set_position(const json& msg) {
    if (!msg.contains("fen") || !msg["fen"].is_string()) return error("set_position: give \"fen\"");
    const std::string fen = msg["fen"];
    Rules rules;
    {
        std::lock_guard lock(m_);
        rules = rules_;
    }
    Position p;
    if (auto err = p.set(fen, rules)) return error("set_position: " + *err);
    stop_game();
    {
        std::lock_guard lock(m_);
        players_ = p.players();
        start_fen_ = p.fen();
        keep_moves(0);
        removals_.clear();
        result_.clear();
        termination_.clear();
        view_ply_ = -1;
        clock_ms_ = {-1, -1, -1};
        human_ = {true, true, true};
    }
    broadcast_state();
}

void GuiSession::on_goto(const json& msg) {
    if (!msg.contains("ply") || !msg["ply"].is_number_integer()) return error("goto: give \"ply\"");
    {
        std::lock_guard lock(m_);
        const int ply = msg["ply"];
        if (ply < 0 || ply > int(moves_.size()))
            return error("goto: ply must be in 0.." + std::to_string(moves_.size()));
        view_ply_ = ply == int(moves_.size()) ? -1 : ply;
    }
    broadcast_state();
}

void GuiSession::on_analyse(const json& msg) {
    const bool on = msg.value("on", true);
    if (!on) {
        analyser_.reset();
        send_(json{{"type", "analysis"}, {"lines", json::array()}, {"stopped", true}}.dump());
        return;
    }
    const std::string name =
        msg.value("engine", engines_.empty() ? "" : engines_.front().spec.name);
    const EngineEntry* e = nullptr;
    for (const auto& x : engines_)
        if (x.spec.name == name) e = &x;
    if (!e) return error("analyse: no engine named '" + name + "'");
    const int multipv = msg.value("multipv", 2);
    if (multipv < 1 || multipv > 16) return error("analyse: multipv must be in 1..16");
    analyser_.reset();
    match::EngineSpec spec = e->spec;
    {
        std::lock_guard lock(m_);
        analysis_multipv_ = multipv;
        for (auto& kv : rule_words(rules_)) spec.options.push_back(kv);
    }
    analyser_ = std::make_unique<Analyser>(spec, [this](const json& j) { send_(j.dump()); });
    std::lock_guard lock(m_);
    follow_analysis();
}

}  // namespace klinzha::gui
