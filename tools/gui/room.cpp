// tools/gui/room.cpp: see room.h.
#include "room.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <random>
#include <sstream>

#include "engine/combat.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "engine/svg.h"
#include "store.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

namespace {

/// A Kinta fighter for the page: piece letter, colour, cell, strength before the fight and
/// whether it carries its heart (SPEC 26).
json fighter_json(const Position& p, Cell c, const combat::Fighter& f) {
    return {{"piece", std::string(1, kPieceChar[f.type])},
            {"colour", colour_name(man_colour(p.man_on(c)))},
            {"cell", geo::cell_name(c)},
            {"strength", f.strength},
            {"heart", f.heart}};
}

/// The fight of the attack `played` in `before` as the record's spindles tell it (SPEC 26),
/// round by round for the page: who cast two, the spindles, who was hit, the damage and both
/// strengths after (heart bonuses included). null when the move is no attack or its spindles
/// do not replay (a record without them).
json fight_json(const Position& before, const std::string& played, const std::string& spindles) {
    const auto m = parse_played_move(before, played);
    if (!std::holds_alternative<Move>(m) || !before.is_attack(std::get<Move>(m))) return nullptr;
    const Move mv = std::get<Move>(m);
    constexpr std::string_view kPrefix = "spindles ";
    if (spindles.rfind(kPrefix, 0) != 0) return nullptr;
    const auto rounds = combat::parse_spindles(std::string_view(spindles).substr(kPrefix.size()));
    if (!rounds) return nullptr;
    const auto [a, d] = combat::fighters(before, mv);
    const auto f = combat::replay(a, d, *rounds);
    if (!std::holds_alternative<combat::Fight>(f)) return nullptr;
    const combat::Fight& fight = std::get<combat::Fight>(f);
    json rs = json::array();
    for (std::size_t i = 0; i < fight.rounds.size(); ++i) {
        const combat::Round& r = fight.rounds[i];
        const combat::RoundOutcome& o = fight.outcomes[i];
        rs.push_back({{"two", o.a_cast_two ? "A" : "D"},
                      {"spindles", {r.two_a, r.two_b, r.one}},
                      {"hit", o.a_hit ? "A" : "D"},
                      {"damage", o.damage},
                      {"a", o.a_strength},
                      {"d", o.d_strength}});
    }
    const combat::Odds odds = combat::odds(a, d);
    return {{"attacker", fighter_json(before, mv.from(), a)},
            {"defender", fighter_json(before, mv.to(), d)},
            {"a_start", a.strength + (a.heart ? combat::kHeartBonusAttacker : 0)},
            {"d_start", d.strength + (d.heart ? combat::kHeartBonusDefender : 0)},
            {"rounds", rs},
            {"winner", fight.attacker_won ? "A" : "D"},
            {"strength", fight.strength},
            {"win", odds.win}};
}

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

const char* phase_name(Phase p) {
    return p == Phase::Place ? "place" : p == Phase::Heart ? "heart" : "play";
}

const char* status_name(Room::Status s) {
    switch (s) {
        case Room::Status::Waiting:
            return "waiting";
        case Room::Status::Running:
            return "running";
        case Room::Status::Over:
            return "over";
        case Room::Status::Review:
            return "review";
    }
    return "?";
}

const char* outcome_name(Outcome o) {
    return o == Outcome::Win ? "win" : o == Outcome::Loss ? "loss" : "draw";
}

Outcome outcome_of(const std::string& s) {
    return s == "win" ? Outcome::Win : s == "loss" ? Outcome::Loss : Outcome::Draw;
}

/// A person's name: 1-40 printable ASCII characters, trimmed.
std::optional<std::string> clean_name(const std::string& in) {
    const auto b = in.find_first_not_of(' ');
    if (b == std::string::npos) return std::nullopt;
    std::string s = in.substr(b, in.find_last_not_of(' ') - b + 1);
    if (s.size() > 40) return std::nullopt;
    for (unsigned char ch : s)
        if (ch < 0x20 || ch > 0x7e) return std::nullopt;
    return s;
}

}  // namespace

std::string random_hex(int bits) {
    static std::mutex m;
    static std::random_device rd;
    std::lock_guard lock(m);
    std::string out;
    const char* hex = "0123456789abcdef";
    for (int i = 0; i < bits / 4; ++i) out += hex[rd() & 15];
    return out;
}

/// A seat as the referee sees it: the player, watched so the room knows the clocks and who
/// is to move, and stores the clocks as the referee gives them.
struct Room::Seat : match::Player {
    Seat(match::Player& p, Room& r, Colour c) : inner(p), room(r), colour(c) {}
    std::string name() const override { return inner.name(); }
    std::optional<std::string> start() override { return inner.start(); }
    bool new_game() override { return inner.new_game(); }
    bool alive() const override { return inner.alive(); }
    match::Reply go(const std::string& position_cmd, const std::string& go_cmd,
                    std::int64_t timeout_ms) override {
        {
            std::lock_guard lock(room.m_);
            auto w = words(go_cmd);
            for (std::size_t i = 0; i + 1 < w.size(); ++i)
                for (int c = 0; c < kColours; ++c)
                    if (w[i] == colour_name(Colour(c)) + "time")
                        room.clock_ms_[c] = std::atoll(w[i + 1].c_str());
            room.clock_running_ = colour;
            room.clock_stamp_ms_ = steady_ms();
            // Blind (SPEC 25): the arbiter's line names the proposals refused this turn.
            auto& refused = room.refused_[colour];
            refused.clear();
            if (const auto at = position_cmd.find(" refused "); at != std::string::npos)
                refused = words(position_cmd.substr(at + 9));
            if (auto* h = room.humans_[colour]) h->expect();
        }
        room.changed();
        return inner.go(position_cmd, go_cmd, timeout_ms);
    }
    match::Player& inner;
    Room& room;
    Colour colour;
};

Room::Room(std::string id, RoomSettings settings, RoomEnv env)
    : id_(std::move(id)), env_(env), settings_(std::move(settings)) {
    created_ms_ = unix_ms();
    game_.players = settings_.players;
    game_.unfinished = true;
}

Room::~Room() {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    stop_referee(lock);
}

void Room::close() {
    {
        std::lock_guard control(control_m_);
        std::unique_lock lock(m_);
        closed_ = true;
        stop_referee(lock);
    }
    // The referee has ended, so its last change() has returned; later ones find no store.
    std::lock_guard order(store_m_);
    env_.store = nullptr;
}

// -- Creating ----------------------------------------------------------------------------

std::variant<std::shared_ptr<Room>, std::string> Room::create(std::string id, RoomSettings s,
                                                              RoomEnv env) {
    if (s.players != 2 && s.players != 3) return "players is 2 or 3";
    if (int need = s.rules.required_players(); need < 0 || (need > 0 && need != s.players))
        return std::string("these rules are for ") + (need == 2 ? "two" : "three") +
               " players (or name options of both sizes)";
    if (!s.tc.empty()) {
        auto tc = match::TimeControl::parse(s.tc);
        if (!tc) return "time control '" + s.tc + "' is not [moves/]seconds[+increment]";
        if (s.delay_ms < 0) return "the delay must not be negative";
    } else if (s.movetime_ms < 1 || s.movetime_ms > 600000) {
        return "an engine's time per move must be 1 ms to 600 s";
    }
    for (int c = 0; c < s.players; ++c) {
        const SeatSpec& seat = s.seats[c];
        if (seat.person) continue;
        const bool known = env.engines && std::any_of(env.engines->begin(), env.engines->end(),
                                                      [&](const EngineEntry& e) {
                                                          return e.spec.name == seat.engine;
                                                      });
        if (!known) return "no engine named '" + seat.engine + "'";
    }
    Position p;
    const std::string fen =
        s.start_fen.empty() ? (s.players == 3 ? kStartFen3 : kStartFen2) : s.start_fen;
    if (auto err = p.set(fen, s.rules)) return "position: " + *err;
    if (p.players() != s.players) return "the position is for another number of players";
    s.start_fen = p.fen();
    auto room = std::shared_ptr<Room>(new Room(std::move(id), s, env));
    room->game_.start_fen = s.start_fen;
    for (const auto& token : s.history) {  // a record played on from a ply
        if (token.rfind("out:", 0) == 0) {
            room->game_.removals.push_back(
                {room->game_.moves.size(), p.to_move(), token.substr(4)});
            p.eliminate_to_move();
            continue;
        }
        auto m = parse_played_move(p, token);
        if (auto* err = std::get_if<std::string>(&m))
            return "move " + std::to_string(room->game_.moves.size() + 1) + " '" + token +
                   "': " + *err;
        room->push_move(p, std::get<Move>(m));
    }
    if (p.game_over()) return "the game is over at that position";
    room->first_ply_ = room->game_.moves.size();
    for (int c = 0; c < s.players; ++c)
        if (!s.seats[c].person)
            room->names_[c] =
                s.seats[c].engine +
                (s.seats[c].level > 0 ? " (level " + std::to_string(s.seats[c].level) + ")" : "");
    {
        std::lock_guard lock(room->m_);
        bool free_seat = false;
        for (int c = 0; c < s.players; ++c) free_seat |= s.seats[c].person;
        if (!free_seat) room->start_game();
    }
    room->changed();
    return room;
}

std::variant<std::shared_ptr<Room>, std::string> Room::review(std::string id,
                                                              const std::string& record,
                                                              std::size_t game, RoomEnv env) {
    std::istringstream in(record);
    auto games = read_records(in);
    if (games.empty()) return "no game record found";
    if (game >= games.size())
        return "the file holds " + std::to_string(games.size()) + " games; there is no game " +
               std::to_string(game + 1);
    const RecordGame& g = games[game];
    int players = 2;
    if (auto it = g.tags.find("Players"); it != g.tags.end())
        players = std::atoi(it->second.c_str()) == 3 ? 3 : 2;
    if (auto it = g.tags.find("FEN"); it != g.tags.end() && !it->second.empty())
        players = it->second[0] == '3' ? 3 : 2;
    auto r = replay(g, Rules{}, players, true);
    if (!r.error.empty()) return r.error;
    RoomSettings s;
    s.players = r.start.players();
    s.rules = r.start.rules();
    s.start_fen = r.start.fen();
    if (auto it = g.tags.find("TimeControl");
        it != g.tags.end() && it->second != "-" && match::TimeControl::parse(it->second))
        s.tc = it->second;
    if (auto it = g.tags.find("DiceSeed"); it != g.tags.end())
        s.dice_seed = std::strtoull(it->second.c_str(), nullptr, 10);
    auto room = std::shared_ptr<Room>(new Room(std::move(id), s, env));
    room->status_ = Status::Review;
    room->game_ = game_from_record(g, r);
    room->names_ = room->game_.names;
    room->changed();
    return room;
}

void Room::push_move(Position& p, Move played) {
    PlayedMove m;
    m.move = move_to_string(played);
    m.algebraic = to_record_algebraic(p, played);
    m.mover = p.to_move();
    m.setup = p.phase() != Phase::Play;
    game_.moves.push_back(std::move(m));
    p.do_move(played);
}

// -- Stored state ------------------------------------------------------------------------

json Room::to_json() const {
    std::lock_guard lock(m_);
    return to_json_locked();
}

json Room::to_json_locked() const {
    json seats = json::array();
    for (int c = 0; c < settings_.players; ++c) {
        json opts = json::array();
        for (const auto& [k, v] : settings_.seats[c].options) opts.push_back({k, v});
        seats.push_back({{"person", settings_.seats[c].person},
                         {"engine", settings_.seats[c].engine},
                         {"options", opts},
                         {"name", names_[c]},
                         {"token", tokens_[c]},
                         {"clock", clock_ms_[c]},
                         {"outcome", outcome_name(game_.outcome[c])},
                         {"draw_offer", draw_offer_[c]}});
    }
    json moves = json::array();
    for (const PlayedMove& m : game_.moves)
        moves.push_back({{"move", m.move},
                         {"san", m.algebraic},
                         {"mover", colour_name(m.mover)},
                         {"setup", m.setup},
                         {"comment", m.comment},
                         {"spindles", m.spindles}});
    return {{"version", 1},
            {"created", created_ms_},
            {"status", status_name(status_)},
            {"players", settings_.players},
            {"rules", settings_.rules.to_string()},
            {"tc", settings_.tc},
            {"delay_ms", settings_.delay_ms},
            {"movetime_ms", settings_.movetime_ms},
            {"dice_seed", std::to_string(settings_.dice_seed)},
            {"hide_others", settings_.hide_others},
            {"start_fen", game_.start_fen},
            {"first_ply", first_ply_},
            {"seats", seats},
            {"moves", moves},
            {"removals", removals_json_locked()},  // the same form as in a view
            {"result", result_locked()},
            {"termination", game_.termination}};
}

std::variant<std::shared_ptr<Room>, std::string> Room::restore(std::string id, const json& st,
                                                               RoomEnv env) {
    try {
        RoomSettings s;
        s.players = st.at("players").get<int>();
        if (s.players != 2 && s.players != 3) return "players is not 2 or 3";
        if (auto err = s.rules.set_all(st.at("rules").get<std::string>())) return "rules: " + *err;
        s.tc = st.at("tc").get<std::string>();
        s.delay_ms = st.at("delay_ms").get<std::int64_t>();
        s.movetime_ms = st.at("movetime_ms").get<std::int64_t>();
        s.dice_seed = std::stoull(st.at("dice_seed").get<std::string>());
        s.hide_others = st.value("hide_others", false);
        s.start_fen = st.at("start_fen").get<std::string>();
        auto room = std::shared_ptr<Room>(new Room(std::move(id), s, env));
        Room& r = *room;
        r.created_ms_ = st.at("created").get<std::int64_t>();
        r.game_.start_fen = s.start_fen;
        r.first_ply_ = st.value("first_ply", std::size_t(0));
        const auto& seats = st.at("seats");
        if (!seats.is_array() || int(seats.size()) != s.players) return "seats";
        for (int c = 0; c < s.players; ++c) {
            const auto& j = seats[std::size_t(c)];
            SeatSpec& seat = r.settings_.seats[c];
            seat.person = j.at("person").get<bool>();
            seat.engine = j.at("engine").get<std::string>();
            for (const auto& kv : j.at("options"))
                seat.options.emplace_back(kv.at(0).get<std::string>(), kv.at(1).get<std::string>());
            r.names_[c] = j.at("name").get<std::string>();
            r.tokens_[c] = j.at("token").get<std::string>();
            r.clock_ms_[c] = j.at("clock").get<std::int64_t>();
            r.game_.outcome[c] = outcome_of(j.at("outcome").get<std::string>());
            r.draw_offer_[c] = j.value("draw_offer", false);
            r.absent_since_[c] = steady_ms();  // absent from now: the seat timeout starts anew
        }
        for (const auto& m : st.at("moves")) {
            PlayedMove pm;
            pm.move = m.at("move").get<std::string>();
            pm.algebraic = m.at("san").get<std::string>();
            const auto mover = parse_colour(m.at("mover").get<std::string>());
            if (!mover) return "a move's mover";
            pm.mover = *mover;
            pm.setup = m.at("setup").get<bool>();
            pm.comment = m.at("comment").get<std::string>();
            pm.spindles = m.value("spindles", "");
            r.game_.moves.push_back(std::move(pm));
        }
        for (const auto& x : st.at("removals")) {
            const auto c = parse_colour(x.at("colour").get<std::string>());
            if (!c) return "a removal's colour";
            r.game_.removals.push_back({x.at("before").get<std::size_t>(), *c, x.at("why")});
        }
        // The outcomes were read with the seats; "" is a game with no result (yet).
        r.game_.unfinished = st.at("result").get<std::string>().empty();
        r.game_.termination = st.at("termination").get<std::string>();
        const std::string status = st.at("status").get<std::string>();
        r.status_ = status == "running"  ? Status::Running
                    : status == "over"   ? Status::Over
                    : status == "review" ? Status::Review
                                         : Status::Waiting;
        r.position_at_locked(-1);  // throws when the moves do not replay
        if (r.status_ == Status::Running) {
            std::lock_guard lock(r.m_);
            r.status_ = Status::Waiting;
            r.start_game();
        }
        return room;
    } catch (const std::exception& e) {
        return std::string("room ") + id + " cannot be read: " + e.what();
    }
}

RoomSettings Room::settings() const {
    std::lock_guard lock(m_);
    return settings_;
}

// -- The game ----------------------------------------------------------------------------

Room::Status Room::status() const {
    std::lock_guard lock(m_);
    return status_;
}

int Room::players() const {
    return settings_.players;  // fixed at creation
}

int Room::plies() const {
    std::lock_guard lock(m_);
    return int(game_.moves.size());
}

std::vector<std::string> Room::history(int ply) const {
    std::lock_guard lock(m_);
    return history_locked(ply);
}

std::vector<std::string> Room::history_locked(int ply) const {
    return game_.history(ply < 0 ? game_.moves.size() : std::size_t(ply));
}

Position Room::position_at(int ply) const {
    std::lock_guard lock(m_);
    return position_at_locked(ply);
}

std::vector<std::pair<Position, Move>> Room::moves_played() const {
    std::lock_guard lock(m_);
    std::vector<std::pair<Position, Move>> out;
    for (int i = 1; i <= int(game_.moves.size()); ++i) {
        std::vector<Position> before;
        const Position after = position_at_locked(i, 1, &before);
        out.emplace_back(before.at(0), after.state().last_move);
    }
    return out;
}

Position Room::position_at_locked(int ply, int tail, std::vector<Position>* before_tail) const {
    Position p;
    if (auto err = p.set(game_.start_fen, settings_.rules))
        throw std::runtime_error("start position: " + *err);
    const int n = ply < 0 ? int(game_.moves.size()) : std::min<int>(ply, int(game_.moves.size()));
    std::size_t r = 0;
    for (int i = 0; i < n; ++i) {
        for (; r < game_.removals.size() && game_.removals[r].before_move == std::size_t(i); ++r)
            if (p.players_in() > 1) p.eliminate_to_move();
        auto m = parse_played_move(p, game_.moves[std::size_t(i)].move);
        if (!std::holds_alternative<Move>(m))
            throw std::runtime_error("move " + std::to_string(i + 1) + ": " +
                                     std::get<std::string>(m));
        if (before_tail && i >= n - tail) before_tail->push_back(p);
        p.do_move(std::get<Move>(m));
    }
    if (ply < 0 || ply >= int(game_.moves.size()))
        for (; r < game_.removals.size() && game_.removals[r].before_move == std::size_t(n); ++r)
            if (p.players_in() > 1) p.eliminate_to_move();
    return p;
}

bool Room::hides_anything() const {
    std::lock_guard lock(m_);
    return hides_anything_locked();
}

bool Room::hides_anything_locked() const {
    return (settings_.hide_others || blind_locked()) && status_ != Status::Over &&
           status_ != Status::Review;
}

bool Room::blind_locked() const {
    return settings_.rules.effective(settings_.players).blind;
}

std::optional<blind::View> Room::blind_view_locked(Colour seat, int ply) const {
    Position p;
    if (p.set(game_.start_fen, settings_.rules)) return std::nullopt;
    auto started = blind::View::start(seat, p);
    if (!std::holds_alternative<blind::View>(started)) return std::nullopt;
    blind::View v = std::get<blind::View>(std::move(started));
    const int n = ply < 0 ? int(game_.moves.size()) : std::min<int>(ply, int(game_.moves.size()));
    std::size_t r = 0;
    auto removals_before = [&](std::size_t i) {
        for (; r < game_.removals.size() && game_.removals[r].before_move == i; ++r)
            if (p.players_in() > 1) {
                if (p.is_in(seat)) v.apply(blind::out_token(p.to_move()));
                p.eliminate_to_move();
            }
    };
    for (int i = 0; i < n; ++i) {
        removals_before(std::size_t(i));
        auto m = parse_played_move(p, game_.moves[std::size_t(i)].move);
        if (!std::holds_alternative<Move>(m)) return std::nullopt;
        if (p.is_in(seat))
            for (const auto& t : blind::announce(p, std::get<Move>(m).bare(), seat)) v.apply(t);
        p.do_move(std::get<Move>(m));
    }
    if (n == int(game_.moves.size())) {
        removals_before(std::size_t(n));
        for (const auto& x : refused_[seat]) v.refuse(x);
    }
    return v;
}

std::string Room::result_locked() const {
    return game_.unfinished ? std::string() : game_.result();
}

bool Room::has_moved_locked(Colour c) const {
    return std::any_of(game_.moves.begin(), game_.moves.end(),
                       [c](const PlayedMove& m) { return m.mover == c; });
}

bool Room::is_in_locked(Colour c) const {
    if (game_.outcome[c] == Outcome::Loss) return false;
    for (const auto& r : game_.removals)
        if (r.colour == c) return false;
    return true;
}

void Room::start_game() {
    // m_ held; status Waiting: the players are made and the referee starts.
    if (closed_) return;  // (the engine list may be gone with the lobby)
    player_objs_.clear();
    seat_objs_.clear();
    humans_ = {};
    for (int c = 0; c < settings_.players; ++c) {
        const SeatSpec& seat = settings_.seats[c];
        if (seat.person) {
            auto h = std::make_unique<HumanPlayer>(names_[c], [this, c] {
                std::lock_guard lock(m_);
                return present_[c] == 0 && absent_since_[c] != 0 &&
                       steady_ms() - absent_since_[c] > env_.seat_timeout_ms;
            });
            humans_[c] = h.get();
            player_objs_.push_back(std::move(h));
            continue;
        }
        match::EngineSpec spec;
        for (const auto& e : *env_.engines)
            if (e.spec.name == seat.engine) spec = e.spec;
        spec.name = seat.engine;
        for (const auto& kv : seat.options) spec.options.push_back(kv);
        // The rules go to the engine as options too (SPEC 13), and the game size.
        spec.options.emplace_back("Players", std::to_string(settings_.players));
        for (auto& kv : rule_pairs(settings_.rules)) spec.options.push_back(kv);
        player_objs_.push_back(std::make_unique<match::ProcessPlayer>(spec));
    }
    for (int c = 0; c < settings_.players; ++c)
        seat_objs_.push_back(
            std::make_unique<Seat>(*player_objs_[std::size_t(c)], *this, Colour(c)));
    status_ = Status::Running;
    start_referee();
}

void Room::start_referee() {
    // m_ held; no referee thread runs.
    if (closed_) return;
    match::GameConfig cfg;
    cfg.players = settings_.players;
    cfg.rules = settings_.rules;
    cfg.start_fen = game_.start_fen;
    cfg.history = history_locked(-1);
    cfg.start_clock_ms = clock_ms_;
    cfg.dice_seed = settings_.dice_seed;
    cfg.move_timeout_ms = 1000LL * 60 * 60 * 24 * 7;  // a person without a clock may think
    if (!settings_.tc.empty()) {
        cfg.tc = *match::TimeControl::parse(settings_.tc);
        cfg.tc.delay_ms = settings_.delay_ms;
    } else {
        cfg.tc.movetime_ms = settings_.movetime_ms;
        for (int c = 0; c < settings_.players; ++c)
            if (settings_.seats[c].person) {
                match::TimeControl none;
                none.depth = 1;  // no limit for a person: the long move timeout applies
                cfg.seat_tc[c] = none;
            }
    }
    abandon_ = false;
    cfg.abandon = &abandon_;
    referee_running_ = true;
    game_.unfinished = true;
    game_.termination.clear();
    const std::size_t kept = game_.moves.size();
    std::vector<match::Player*> seats;
    for (auto& s : seat_objs_) seats.push_back(s.get());
    referee_ = std::thread([this, seats, cfg, kept] {
        // Takes the referee's new moves (those after the history) into the room.
        auto take = [this, kept](const match::GameRecord& g) {
            game_.truncate(kept);
            for (std::size_t i = kept; i < g.moves.size(); ++i) {
                PlayedMove m = g.moves[i];
                if (hinted_.count(i))  // the record says a hint was shown for this move
                    m.comment += m.comment.empty() ? "hint" : " hint";
                // An offer stands until another player moves (SPEC 27); a take-back
                // request ends with any move.
                for (int c = 0; c < kColours; ++c)
                    if (c != m.mover) draw_offer_[c] = false;
                takeback_by_ = NO_COLOUR;
                refused_[m.mover].clear();
                game_.moves.push_back(std::move(m));
            }
            game_.removals = g.removals;
        };
        auto on_move = [this, take](const match::GameRecord& g) {
            {
                std::lock_guard lock(m_);
                take(g);
            }
            changed();
        };
        match::GameRecord g = match::play_game(seats, cfg, on_move);
        std::vector<std::unique_ptr<match::Player>> ended_players;
        std::vector<std::unique_ptr<Seat>> ended_seats;
        {
            std::lock_guard lock(m_);
            referee_running_ = false;
            clock_running_ = NO_COLOUR;
            if (abandon_) return;  // the room ended or paused the game; it says how
            take(g);
            // The engines end (outside the lock: a process may take a moment to quit).
            ended_players.swap(player_objs_);
            ended_seats.swap(seat_objs_);
            humans_ = {};
            status_ = Status::Over;
            if (!g.aborted.empty()) {
                game_.termination = "no game: " + g.aborted;
            } else {
                game_.unfinished = false;
                game_.termination = g.termination;
                game_.outcome = g.outcome;
                game_.hearts_captured = g.hearts_captured;
                game_.heart_lost = g.heart_lost;
            }
        }
        changed();
    });
}

void Room::stop_referee(std::unique_lock<std::mutex>& lock) {
    if (!referee_.joinable()) return;
    abandon_ = true;
    for (auto* h : humans_)
        if (h) h->abandon();
    // An engine thinking is told to stop, so a resignation or an agreed draw takes effect
    // at once, not when its move is ready (its move may still be recorded first).
    if (clock_running_ != NO_COLOUR && !settings_.seats[clock_running_].person &&
        std::size_t(clock_running_) < player_objs_.size())
        if (auto* p = dynamic_cast<match::ProcessPlayer*>(player_objs_[clock_running_].get()))
            p->send_line("stop");
    lock.unlock();
    referee_.join();
    lock.lock();
    referee_running_ = false;
    clock_running_ = NO_COLOUR;
}

void Room::finish(const std::string& why, std::optional<std::array<Outcome, kColours>> outcome) {
    status_ = Status::Over;
    game_.unfinished = !outcome;
    game_.termination = why;
    if (outcome) game_.outcome = *outcome;
    draw_offer_ = {};
    takeback_by_ = NO_COLOUR;
    player_objs_.clear();  // engines end
    seat_objs_.clear();
    humans_ = {};
}

void Room::changed() {
    if (env_.store) {
        std::lock_guard order(store_m_);
        std::string state;
        {
            std::lock_guard lock(m_);
            state = to_json_locked().dump();
        }
        try {
            env_.store->save_room(id_, state, unix_ms());
        } catch (const std::exception& e) {
            spdlog::error("room {}: {}", id_, e.what());
        }
    }
    // Called under listeners_m_, so that unsubscribe() returns only when no call is under
    // way (a listener only marks its connection's view stale: it never blocks).
    {
        std::lock_guard lock(listeners_m_);
        for (auto& [_, f] : listeners_) f();
    }
    if (env_.on_change) env_.on_change();
}

// -- People ------------------------------------------------------------------------------

std::optional<std::string> Room::sit(Colour c, const std::string& name, std::string& token) {
    const auto clean = clean_name(name);
    if (!clean) return "a name is 1 to 40 printable characters";
    std::lock_guard control(control_m_);
    {
        std::lock_guard lock(m_);
        if (c >= settings_.players) return "this game has no such seat";
        if (status_ != Status::Waiting) return "the game has started: watch it";
        if (!settings_.seats[c].person) return "an engine sits there";
        if (!tokens_[c].empty()) return "that seat is taken";
        token = random_hex(128);
        tokens_[c] = token;
        names_[c] = *clean;
        absent_since_[c] = present_[c] ? 0 : steady_ms();
        bool free_seat = false;
        for (int o = 0; o < settings_.players; ++o)
            free_seat |= settings_.seats[o].person && tokens_[o].empty();
        if (!free_seat) start_game();
    }
    changed();
    return std::nullopt;
}

std::optional<Colour> Room::seat_of(const std::string& token) const {
    if (token.size() != 32) return std::nullopt;
    std::lock_guard lock(m_);
    for (int c = 0; c < settings_.players; ++c)
        if (!tokens_[c].empty() && tokens_[c] == token) return Colour(c);
    return std::nullopt;
}

void Room::attach(std::optional<Colour> c) {
    {
        std::lock_guard lock(m_);
        if (!c) {
            ++spectators_;
            return;
        }
        ++present_[*c];
        absent_since_[*c] = 0;
    }
    changed();
}

void Room::detach(std::optional<Colour> c) {
    {
        std::lock_guard lock(m_);
        if (!c) {
            spectators_ = std::max(0, spectators_ - 1);
            return;
        }
        if (present_[*c] > 0 && --present_[*c] == 0) absent_since_[*c] = steady_ms();
    }
    changed();
}

std::optional<std::string> Room::move(Colour seat, const std::string& text) {
    HumanPlayer* h = nullptr;
    {
        std::lock_guard lock(m_);
        if (status_ != Status::Running) return "no game is running here";
        const Position pos = position_at_locked(-1);
        if (pos.to_move() != seat) return "it is not your turn";
        h = humans_[seat];
        if (!h || !h->waiting()) return "it is not your turn yet";
        if (blind_locked()) {  // SPEC 25: a proposal legal in the seat's own view, not refused
            const auto v = blind_view_locked(seat, -1);
            if (!v) return "no view of this game for your seat";
            auto m = parse_move(v->position(), text);
            if (auto* err = std::get_if<std::string>(&m)) return *err;
            const auto props = v->proposals();
            if (std::find(props.begin(), props.end(), std::get<Move>(m)) == props.end())
                return "that proposal was refused already this turn";
        } else {
            auto m = parse_move(pos, text);
            if (auto* err = std::get_if<std::string>(&m)) return *err;
        }
    }
    if (!h->submit(text)) return "the move came too late";
    return std::nullopt;
}

std::optional<std::string> Room::offer_draw(Colour seat) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (status_ != Status::Running) return "no game is running here";
    if (!is_in_locked(seat)) return "you are out of the game";
    for (int c = 0; c < settings_.players; ++c)
        if (c != seat && is_in_locked(Colour(c)) && !settings_.seats[c].person)
            return "an engine does not accept draw offers";
    if (!draw_offer_[seat]) {
        draw_offer_[seat] = true;
        // Written `(=)` after the offerer's last move (SPEC 11.1, 27).
        for (std::size_t i = game_.moves.size(); i-- > 0;)
            if (std::string& alg = game_.moves[i].algebraic; game_.moves[i].mover == seat) {
                if (alg.find("(=)") == std::string::npos) alg += "(=)";
                break;
            }
    }
    bool all = true;
    for (int c = 0; c < settings_.players; ++c)
        if (is_in_locked(Colour(c))) all &= draw_offer_[c];
    if (all) {
        stop_referee(lock);
        std::array<Outcome, kColours> o{};
        for (int c = 0; c < kColours; ++c)
            o[c] = is_in_locked(Colour(c)) ? Outcome::Draw : Outcome::Loss;
        finish("draw by agreement", o);
    }
    lock.unlock();
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::decline_draw(Colour seat) {
    {
        std::lock_guard lock(m_);
        bool any = false;
        for (int c = 0; c < kColours; ++c) any |= c != seat && draw_offer_[c];
        if (!any) return "there is no draw offer";
        for (int c = 0; c < kColours; ++c)
            if (c != seat) draw_offer_[c] = false;
    }
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::resign(Colour seat) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (status_ != Status::Running) return "no game is running here";
    if (!is_in_locked(seat)) return "you are out of the game";
    if (settings_.players == 2) {
        stop_referee(lock);
        std::array<Outcome, kColours> o{Outcome::Win, Outcome::Win, Outcome::Draw};
        o[seat] = Outcome::Loss;
        finish(names_[seat] + " resigns", o);
    } else if (auto* h = humans_[seat]) {
        h->resign();  // out at once when to move, else at the next turn (SPEC 7)
    }
    lock.unlock();
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::abort_game(Colour seat) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (status_ != Status::Running && status_ != Status::Waiting)
        return "there is no game to abort";
    for (std::size_t i = first_ply_; i < game_.moves.size(); ++i)
        if (!game_.moves[i].setup) return "the game has begun: offer a draw or resign";
    stop_referee(lock);
    finish("aborted by " + shown_name_locked(seat), std::nullopt);
    lock.unlock();
    changed();
    return std::nullopt;
}

std::optional<std::string> Room::ask_takeback(Colour seat) {
    std::unique_lock lock(m_);
    if (status_ != Status::Running) return "no game is running here";
    if (!is_in_locked(seat)) return "you are out of the game";
    if (!has_moved_locked(seat)) return "you have made no move to take back";
    for (int c = 0; c < settings_.players; ++c)
        if (c != seat && !settings_.seats[c].person && is_in_locked(Colour(c)) &&
            !settings_.tc.empty())
            return "an engine on the clock does not take moves back";
    takeback_by_ = seat;
    takeback_yes_ = {};
    takeback_yes_[seat] = true;
    lock.unlock();
    return answer_takeback(seat, true);
}

std::optional<std::string> Room::answer_takeback(Colour seat, bool accept) {
    std::lock_guard control(control_m_);
    std::unique_lock lock(m_);
    if (takeback_by_ == NO_COLOUR) return "nobody asked to take back";
    if (!accept) {
        takeback_by_ = NO_COLOUR;
        lock.unlock();
        changed();
        return std::nullopt;
    }
    takeback_yes_[seat] = true;
    for (int c = 0; c < settings_.players; ++c)
        if (settings_.seats[c].person && is_in_locked(Colour(c)) && !takeback_yes_[c]) {
            lock.unlock();
            changed();  // waits for the others
            return std::nullopt;
        }
    const Colour by = takeback_by_;
    // The running clock keeps the time its player used before the take-back.
    if (clock_running_ != NO_COLOUR && clock_ms_[clock_running_] >= 0)
        clock_ms_[clock_running_] -= steady_ms() - clock_stamp_ms_;
    const auto clocks = clock_ms_;
    stop_referee(lock);
    clock_ms_ = clocks;
    // Back to before the requester's last move (an engine's answer goes with it).
    std::size_t n = game_.moves.size();
    while (n > 0 && game_.moves[n - 1].mover != by) --n;
    if (n == 0)
        n = game_.moves.size();  // (cannot happen: checked when asked)
    else
        --n;
    game_.truncate(n);
    hinted_.erase(hinted_.lower_bound(n), hinted_.end());  // moves taken back: hints too
    takeback_by_ = NO_COLOUR;
    draw_offer_ = {};
    for (auto* h : humans_)
        if (h) h->reset();
    start_referee();
    lock.unlock();
    changed();
    return std::nullopt;
}

// -- Watching ----------------------------------------------------------------------------

int Room::subscribe(std::function<void()> f) {
    std::lock_guard lock(listeners_m_);
    listeners_[next_listener_] = std::move(f);
    return next_listener_++;
}

void Room::unsubscribe(int handle) {
    std::lock_guard lock(listeners_m_);
    listeners_.erase(handle);
}

std::optional<std::string> Room::chat(std::optional<Colour> seat, const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    if (first == std::string::npos) return "say something";
    const std::string line = text.substr(first, last - first + 1);
    if (line.size() > kChatBytes)
        return "a line is at most " + std::to_string(kChatBytes) + " bytes";
    for (unsigned char ch : line)
        if (ch < 0x20 || ch == 0x7f) return "a line holds no control characters";
    {
        std::lock_guard lock(m_);
        chat_.push_back({seat ? shown_name_locked(*seat) : std::string("spectator"), seat, line});
        if (chat_.size() > kChatLines) chat_.erase(chat_.begin());
    }
    changed();
    return std::nullopt;
}

void Room::note_hint() {
    std::lock_guard lock(m_);
    if (status_ == Status::Running) hinted_.insert(game_.moves.size());
}

std::string Room::shown_name_locked(Colour c) const {
    return names_[c].empty() ? colour_name(c) : names_[c];
}

void Room::set_rematch(const std::string& id) {
    {
        std::lock_guard lock(m_);
        rematch_ = id;
    }
    changed();
}

json Room::summary() const {
    std::lock_guard lock(m_);
    json seats = json::array();
    for (int c = 0; c < settings_.players; ++c)
        seats.push_back({{"colour", colour_name(Colour(c))},
                         {"name", names_[c]},
                         {"kind", settings_.seats[c].person ? "person" : "engine"},
                         {"free", settings_.seats[c].person && tokens_[c].empty()}});
    const std::string variant = settings_.rules.variant_name();
    // The game's kind as people say it: the variant, and Blind or Kinta when played.
    const Rules eff = settings_.rules.effective(settings_.players);
    std::string game = variant.empty() ? "custom" : variant;
    if (eff.blind) game += ", Blind";
    if (eff.kinta) game += ", Kinta";
    // A game that was aborted (or never took place) is said so, not "over".
    const bool aborted = status_ == Status::Over && game_.unfinished;
    return {{"id", id_},
            {"status", aborted ? std::string("aborted") : std::string(status_name(status_))},
            {"game", game},
            {"players", settings_.players},
            {"seats", seats},
            {"variant", variant.empty() ? "custom" : variant},
            {"tc", settings_.tc},
            {"plies", game_.moves.size()},
            {"result", result_locked()},
            {"created", created_ms_}};
}

std::string Room::record(std::map<std::size_t, Annotation> notes, std::string lead) const {
    std::lock_guard lock(m_);
    match::GameRecord g;
    static_cast<Game&>(g) = game_;
    for (auto& [i, note] : notes)
        if (i < g.moves.size()) g.moves[i].annotation = std::move(note);
    g.lead_comment = std::move(lead);
    g.players = settings_.players;
    g.names = names_;
    g.dice_seed = settings_.dice_seed;
    match::GameConfig cfg;
    cfg.players = settings_.players;
    cfg.rules = settings_.rules;
    if (!settings_.tc.empty()) cfg.tc = *match::TimeControl::parse(settings_.tc);
    return match::to_pgn(g, cfg, 1, "klinzha-gui", "klinzha-gui");
}

namespace {

/// Whether the heart placed by `m` (a PlaceHeart move of the side to move, SPEC 6) would
/// stand where an opposing man already placed could take it.
bool heart_placed_in_danger(const Position& pos, Move m) {
    Position after = pos;
    const Colour us = pos.to_move();
    after.do_move(m);
    for (int c = 0; c < pos.players(); ++c)
        if (Colour(c) != us && attacks_heart(after, Colour(c), us)) return true;
    return false;
}

}  // namespace

namespace {

/// The Blind log of a seat (SPEC 25): one line per observation of `v`, in order, then one per
/// proposal refused this turn; moves in RH algebraic notation as the seat's own view wrote
/// them (SPEC 11: an opposing man it could not see is no capture there, the arbiter's word
/// says it). Adds to `crossed` each cell where the seat lost a man.
json blind_log(const blind::View& v, Bitboard& crossed) {
    using K = blind::Observation::Kind;
    using T = blind::Observation::Took;
    // The seat's view before each of its own plies: its tokens read again from the start.
    std::vector<std::string> own;
    auto replayed = blind::View::start(v.viewer(), v.start_position());
    if (auto* r = std::get_if<blind::View>(&replayed))
        for (const auto& token : v.tokens()) {
            const Position before = r->position();
            const std::size_t seen = r->history().size();
            if (r->apply(token)) break;  // cannot happen: v read these tokens
            if (r->history().size() > seen && r->history().back().kind == K::Own)
                own.push_back(to_algebraic(before, r->history().back().move));
        }
    json log = json::array();
    std::size_t next_own = 0;
    for (const auto& o : v.history()) {
        std::string line;
        if (o.kind == K::Own) {
            line =
                "you played " + (next_own < own.size() ? own[next_own++] : move_to_string(o.move));
            if (o.took == T::Man) line += ": you captured a man on " + geo::cell_name(o.move.to());
            if (o.took == T::Heart) {
                line += ": you captured a heart on " + geo::cell_name(o.move.to());
                if (o.told_received)
                    line += std::string(" (") + kColourWord[o.victim] +
                            "'s; its men are yours: " + blind::men_field(o.received) + ")";
            }
        } else if (o.kind == K::Other) {
            line = std::string(kColourWord[o.mover]) + " played";
            if (o.took == T::Man) {
                line += ": your man on " + geo::cell_name(o.cell) + " was taken";
                crossed |= bit(o.cell);
            }
            if (o.took == T::Heart) line += ": your heart was taken";
            if (o.took == T::OtherHeart)
                line += std::string(": ") + kColourWord[o.victim] + "'s heart was taken";
        } else {
            line = std::string(kColourWord[o.mover]) + " is out";
        }
        log.push_back(line);
    }
    for (Move m : v.refused()) log.push_back("refused: " + to_algebraic(v.position(), m));
    return log;
}

}  // namespace

// -- A seat's view, from small builders (m_ held) ---------------------------------------

Room::ViewContext Room::view_context_locked(std::optional<Colour> seat, int ply) const {
    ViewContext v;
    v.seat = seat;
    v.n = int(game_.moves.size());
    v.at_end = ply < 0 || ply >= v.n;
    v.ply = v.at_end ? -1 : ply;
    v.shown = v.at_end ? v.n : ply;
    // Kinta: the fights told are those of the last turn round at the live end, else of the
    // move shown; the positions before those moves come from the same replay.
    v.first_fight = v.at_end ? std::max(1, v.n - settings_.players + 1) : std::max(v.shown, 1);
    v.pos = position_at_locked(v.ply, v.shown - v.first_fight + 1, &v.before_fights);
    // What this seat may not see (SPEC 25: a Blind game; or the test hook hide_others): the
    // other colours' men, hearts, zones and moves while the game is not over. The board
    // drawn is then the seat's view (a spectator's shows no man at all), so nothing hidden
    // is even in the picture's markup.
    v.hides = hides_anything_locked();
    v.blind = v.hides && blind_locked();
    if (v.blind && seat) v.bview = blind_view_locked(*seat, v.ply);
    const Colour stm = v.pos.to_move();
    v.you_to_move = seat && status_ == Status::Running && v.at_end && stm == *seat &&
                    humans_[stm] && humans_[stm]->waiting();
    for (int c = 0; c < settings_.players; ++c) v.people += settings_.seats[c].person;
    return v;
}

bool Room::ViewContext::sees_move(Colour mover) const {
    return !hides || (seat && mover == *seat);
}

json Room::legal_json_locked(const ViewContext& v) const {
    json legal = json::array();
    if (!v.you_to_move) return legal;
    // Blind: the proposals the seat may make (legal in its view, not refused this turn);
    // never the moves of the whole position, which would tell where the others stand.
    MoveList l;
    l.size = 0;
    if (v.bview) {
        for (Move m : v.bview->proposals()) l.push(m);
    } else if (!v.blind) {
        generate_legal(v.pos, l);
    }
    const Position& lp = v.bview ? v.bview->position() : v.pos;
    for (Move m : l) {
        json j{{"move", move_to_string(m)},
               {"san", to_algebraic(lp, m)},
               {"to", geo::cell_name(m.to())}};
        switch (m.kind()) {
            case Move::Place:
                j["kind"] = "place";
                j["piece"] = std::string(1, kPieceChar[m.placed_type()]);
                break;
            case Move::PlaceHeart:
                j["kind"] = "heart";
                // A heart placed here would stand attacked by an opposing man (not in Blind,
                // where the seat does not see the others' men).
                if (!v.blind) j["danger"] = heart_placed_in_danger(v.pos, m);
                break;
            default:
                j["kind"] = "play";
                j["from"] = geo::cell_name(m.from());
                j["carry"] = m.carries_heart();
                if (!v.blind && v.pos.is_attack(m)) {  // Kinta: the odds before an attack
                    const auto [a, d] = combat::fighters(v.pos, m);
                    const combat::Odds o = combat::odds(a, d);
                    j["odds"] = {
                        {"win", o.win}, {"a", o.attacker_strength}, {"d", o.defender_strength}};
                }
        }
        legal.push_back(j);
    }
    return legal;
}

json Room::danger_json_locked(const ViewContext& v) const {
    // Hearts in danger (as check is shown in chess): the cells of the hearts an opposing man
    // could take now, in the play phase; none while anything is hidden from the seat.
    json danger = json::array();
    const Position& pos = v.pos;
    if (!v.hides && pos.phase() == Phase::Play && !pos.game_over())
        for (int c = 0; c < settings_.players; ++c)
            if (pos.is_in(Colour(c)) && pos.heart(Colour(c)) != NO_CELL &&
                heart_attacked(pos, Colour(c)))
                danger.push_back(geo::cell_name(pos.heart(Colour(c))));
    return danger;
}

json Room::moves_json_locked(const ViewContext& v) const {
    json moves = json::array();
    for (const PlayedMove& m : game_.moves) {
        const bool seen = v.sees_move(m.mover);
        moves.push_back({{"move", seen ? m.move : "?"},
                         {"san", seen ? m.algebraic : "?"},
                         {"mover", colour_name(m.mover)},
                         {"setup", m.setup},
                         {"comment", seen ? m.comment : ""},
                         {"spindles", seen ? m.spindles : ""}});
    }
    return moves;
}

json Room::removals_json_locked() const {
    // The referee's removals (SPEC 7; public, Blind too): before which move (an index into
    // `moves`; moves.size() after the last), whom, why.
    json removals = json::array();
    for (const auto& r : game_.removals)
        removals.push_back(
            {{"before", r.before_move}, {"colour", colour_name(r.colour)}, {"why", r.why}});
    return removals;
}

json Room::seats_json_locked() const {
    json seats = json::array();
    for (int c = 0; c < settings_.players; ++c) {
        const bool person = settings_.seats[c].person;
        seats.push_back(
            {{"colour", colour_name(Colour(c))},
             {"name", names_[c]},
             {"kind", person ? "person" : "engine"},
             {"free", person && tokens_[c].empty() && status_ != Status::Review},
             {"present", !person || present_[c] > 0},
             {"in", is_in_locked(Colour(c))},
             // (none when the game never took place: no result)
             {"outcome", (status_ == Status::Over || status_ == Status::Review) && !game_.unfinished
                             ? json(outcome_name(game_.outcome[c]))
                             : json(nullptr)},
             {"draw_offer", draw_offer_[c]}});
    }
    return seats;
}

bool Room::clock_ticking_locked() const {
    return referee_running_ && clock_running_ != NO_COLOUR;
}

json Room::clocks_json_locked() const {
    json clocks = json::array();
    const bool ticking = clock_ticking_locked();
    for (int c = 0; c < settings_.players; ++c)
        clocks.push_back(clock_ms_[c] < 0 ? json(nullptr)
                                          : json(clock_ms_[c] - (ticking && clock_running_ == c
                                                                     ? steady_ms() - clock_stamp_ms_
                                                                     : 0)));
    return clocks;
}

json Room::can_json_locked(const ViewContext& v) const {
    const auto& seat = v.seat;
    bool begun = false;
    for (const PlayedMove& m : game_.moves) begun |= !m.setup;
    const bool playing = seat && status_ == Status::Running && is_in_locked(*seat);
    // Whether a player still in besides this seat is a person (a draw is offered to people
    // only: an engine never answers an offer).
    bool person_opponent = false;
    for (int c = 0; c < settings_.players; ++c)
        person_opponent |=
            (!seat || c != *seat) && settings_.seats[c].person && is_in_locked(Colour(c));
    return {
        {"move", v.you_to_move},
        {"resign", playing},
        {"draw", playing && !draw_offer_[*seat] && person_opponent},
        {"abort", seat && (status_ == Status::Waiting || (status_ == Status::Running && !begun))},
        {"takeback", playing && has_moved_locked(*seat)},
        {"sit", !seat && status_ == Status::Waiting},
        // Analysis: never for anyone, spectators included, while people play each other (a
        // player's second tab would be an engine helper); never while anything is hidden (the
        // engine would be given the whole position); after the game, for everyone.
        {"analyse", !v.hides && (status_ != Status::Running || v.people < 2)},
        {"play_on", status_ == Status::Over || status_ == Status::Review},
        {"rematch", status_ == Status::Over && rematch_.empty()}};
}

std::string Room::status_text_locked(const ViewContext& v) const {
    // The page's status line: the room's English words, all here.
    const Colour stm = v.pos.to_move();
    if (status_ == Status::Waiting) return "Waiting for players";
    if (status_ == Status::Running)
        return (v.you_to_move ? std::string("Your move") : names_[stm] + " to move") + " (" +
               colour_name(stm) + ", " + phase_name(v.pos.phase()) + ")";
    if (game_.unfinished) return game_.termination.empty() ? "No result" : game_.termination;
    return "Game over: " + game_.result() + " (" + game_.termination + ")";
}

json Room::winners_json_locked() const {
    json winners = json::array();
    if (!game_.unfinished)
        for (int c = 0; c < settings_.players; ++c)
            if (game_.outcome[c] == Outcome::Win) winners.push_back(shown_name_locked(Colour(c)));
    return winners;
}

json Room::chat_json_locked(const ViewContext& v) const {
    // The chat lines this seat sees (Room::chat): spectators' lines reach players only once
    // the game is over when people play each other.
    json lines = json::array();
    const bool apart = v.seat && status_ == Status::Running && v.people >= 2;
    for (const auto& l : chat_)
        if (!(apart && !l.seat))
            lines.push_back({{"name", l.name},
                             {"colour", l.seat ? json(colour_name(*l.seat)) : json(nullptr)},
                             {"text", l.text}});
    return lines;
}

json Room::fights_json_locked(const ViewContext& v) const {
    // Kinta: the fights to tell, round by round (those of moves the seat sees). Stepping
    // through the game, the fight of the move that led to the shown position. At the live
    // end, every fight of the last turn round (the last `players` plies): a person who
    // attacked still reads the fight when the others have moved since, and reads theirs.
    json fights = json::array();
    for (int k = v.first_fight; k <= v.shown; ++k) {
        const auto i = std::size_t(k - 1);
        const PlayedMove& m = game_.moves[i];
        if (!v.sees_move(m.mover) || m.spindles.empty()) continue;
        json f = fight_json(v.before_fights[std::size_t(k - v.first_fight)], m.move, m.spindles);
        if (f.is_null()) continue;
        f["ply"] = k;
        fights.push_back(std::move(f));
    }
    return fights;
}

json Room::player_view(std::optional<Colour> seat, int ply, Colour orientation) const {
    std::lock_guard lock(m_);
    const ViewContext v = view_context_locked(seat, ply);
    const Position view_pos = !v.hides  ? v.pos
                              : v.bview ? v.bview->position()
                                        : v.pos.view(seat ? *seat : NO_COLOUR);
    SvgOptions so;
    so.view = orientation;
    // Blind: what the seat was told, ply by ply, and the cells where it lost men (SPEC 25: it
    // is told each cell) crossed on its board.
    json told = json::array();
    if (v.bview) {
        told = blind_log(*v.bview, so.crossed);
        so.crossed &= ~view_pos.occupied();
    }
    json out{{"type", "state"},
             {"room", id_},
             {"status", status_name(status_)},
             {"you", seat ? json(colour_name(*seat)) : json(nullptr)},
             {"svg", board_svg(view_pos, so)},
             {"players", settings_.players},
             {"rules", settings_.rules.to_string()},
             {"variant", settings_.rules.variant_name()},
             {"tc", settings_.tc},
             {"to_move", colour_name(v.pos.to_move())},
             {"phase", phase_name(v.pos.phase())},
             {"ply", v.shown},
             {"plies", v.n},
             {"moves", moves_json_locked(v)},
             {"removals", removals_json_locked()},
             {"legal", legal_json_locked(v)},
             {"seats", seats_json_locked()},
             {"clocks", clocks_json_locked()},
             {"clock_running", clock_ticking_locked() ? colour_name(clock_running_) : ""},
             {"result", result_locked()},
             {"termination", game_.termination},
             {"winners", winners_json_locked()},
             {"takeback_by",
              takeback_by_ == NO_COLOUR ? json(nullptr) : json(colour_name(takeback_by_))},
             {"can", can_json_locked(v)},
             {"view", colour_name(orientation)},
             {"status_text", status_text_locked(v)},
             {"rematch", rematch_.empty() ? json(nullptr) : json(rematch_)},
             {"chat", chat_json_locked(v)},
             {"danger", danger_json_locked(v)},
             {"blind", blind_locked()}};
    if (v.bview) {
        out["told"] = told;
        json refused = json::array();
        for (Move m : v.bview->refused()) refused.push_back(move_to_string(m));
        out["refused"] = refused;  // SPEC 9 strings, for tools (the log has them in algebraic)
    }
    if (!v.hides) out["fen"] = v.pos.fen();
    if (json fights = fights_json_locked(v); !fights.empty()) out["fights"] = std::move(fights);
    return out;
}

}  // namespace klinzha::gui
