// tools/gui/room.cpp: a room's life (room.h): its creation (a new game, a record to review, a
// record played on), the referee's thread and the moves it brings into the room's Game, the
// end of the game, watchers, chat and the record. People's actions: room_people.cpp; the
// stored state: room_store.cpp; each seat's view: room_view.cpp.
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
#include "room_words.h"
#include "store.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

namespace {

std::int64_t unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
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
            room->game_.names[c] =
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
    room->changed();
    return room;
}

void Room::push_move(Position& p, Move played) {
    game_.moves.push_back(played_move(p, played));
    p.do_move(played);
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
            auto h = std::make_unique<HumanPlayer>(game_.names[c], [this, c] {
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
    return game_.names[c].empty() ? colour_name(c) : game_.names[c];
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
                         {"name", game_.names[c]},
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
    g.dice_seed = settings_.dice_seed;
    match::GameConfig cfg;
    cfg.players = settings_.players;
    cfg.rules = settings_.rules;
    if (!settings_.tc.empty()) cfg.tc = *match::TimeControl::parse(settings_.tc);
    return match::to_pgn(g, cfg, 1, "klinzha-gui", "klinzha-gui");
}

}  // namespace klinzha::gui
