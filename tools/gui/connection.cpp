// tools/gui/connection.cpp: see connection.h.
#include "connection.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <sstream>

#include "engine/record.h"
#include "learn.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

namespace {

/// The colour a JSON value names (`g`, `b`, `k`), or nullopt.
std::optional<Colour> colour_in(const json& v) {
    return v.is_string() ? parse_colour(v.get<std::string>()) : std::nullopt;
}

/// A string field of msg, or "" when missing; throws when it is there and not a string.
std::string str(const json& msg, const char* key) {
    if (!msg.contains(key)) return "";
    if (!msg[key].is_string()) throw std::runtime_error(std::string("\"") + key + "\" is a string");
    return msg[key];
}

}  // namespace

Connection::Connection(Lobby& lobby, Send send, double messages_per_second)
    : lobby_(lobby),
      send_(std::move(send)),
      rate_(messages_per_second),
      tokens_(2 * messages_per_second),
      last_ms_(steady_ms()) {
    thread_ = std::thread([this] { run(); });
}

Connection::~Connection() {
    {
        std::lock_guard lock(m_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
    unwatch_lobby();  // (a call under way ends first; it touches only m_ and cv_)
    leave();
}

void Connection::post(std::string text) {
    {
        std::lock_guard lock(m_);
        // Token bucket: `rate_` a second, a burst of twice that.
        const std::int64_t now = steady_ms();
        tokens_ = std::min(2 * rate_, tokens_ + (now - last_ms_) * rate_ / 1000.0);
        last_ms_ = now;
        if (tokens_ < 1) {
            send_(json{{"type", "error"}, {"message", "too many messages: this one was dropped"}}
                      .dump());
            return;
        }
        tokens_ -= 1;
        inbox_.push_back(std::move(text));
    }
    cv_.notify_all();
}

void Connection::refresh() {
    {
        std::lock_guard lock(m_);
        dirty_ = true;
    }
    cv_.notify_all();
}

void Connection::run() {
    using namespace std::chrono_literals;
    while (true) {
        std::string text;
        bool view = false, lobby = false;
        {
            std::unique_lock lock(m_);
            // Messages and room views at once; the lobby's list at most once a second (a
            // change in any room marks it stale).
            while (!quit_ && inbox_.empty() && !dirty_) {
                if (!lobby_dirty_) {
                    cv_.wait(lock);
                    continue;
                }
                const auto due = last_lobby_ + 1s;
                if (std::chrono::steady_clock::now() >= due) break;
                cv_.wait_until(lock, due);
            }
            if (quit_) return;
            if (!inbox_.empty()) {
                text = std::move(inbox_.front());
                inbox_.pop_front();
            } else if (dirty_) {
                view = true;
                dirty_ = false;
            } else {
                lobby = true;
                lobby_dirty_ = false;
            }
        }
        if (view)
            send_view();
        else if (lobby) {
            if (!room_) send_lobby();  // (a change marked before the page joined a room: none)
        } else
            handle(text);
    }
}

void Connection::send_lobby() {
    if (!room_ && !lobby_watch_)
        lobby_watch_ = lobby_.watch([this] {
            {
                std::lock_guard lock(m_);
                lobby_dirty_ = true;
            }
            cv_.notify_all();
        });
    {
        std::lock_guard lock(m_);
        last_lobby_ = std::chrono::steady_clock::now();
    }
    send_(lobby_.list().dump());
}

void Connection::unwatch_lobby() {
    if (!lobby_watch_) return;
    lobby_.unwatch(lobby_watch_);
    lobby_watch_ = 0;
    std::lock_guard lock(m_);
    lobby_dirty_ = false;  // a change marked before: no list to send now
}

void Connection::error(const std::string& message) {
    send_(json{{"type", "error"}, {"message", message}}.dump());
}

void Connection::send_view() {
    if (!room_) return;
    try {
        const json view = room_->player_view(seat_, view_ply_, orientation_);
        send_(view.dump());
        follow_analysis(view);
    } catch (const std::exception& e) {
        error(e.what());
    }
}

json Connection::welcome() const {
    json engines = json::array();
    for (const auto& e : lobby_.engines()) {
        json opts = json::array();
        for (const auto& o : e.options)
            if (e.page_options.count(o.name))
                opts.push_back({{"name", o.name},
                                {"type", o.type},
                                {"default", o.default_value},
                                {"min", o.min},
                                {"max", o.max},
                                {"vars", o.vars}});
        // Whether the page may offer levels 1..8 for this engine (engines.h).
        const bool levels = std::holds_alternative<std::optional<int>>(skill_for_page_level(e, 1));
        engines.push_back({{"name", e.spec.name}, {"options", opts}, {"levels", levels}});
    }
    json rules = json::array();
    for (const RuleOption& ro : kRuleOptions) {
        json choices = json::array();
        for (const char* c : ro.choices)
            if (c) choices.push_back(c);
        rules.push_back({{"name", ro.name},
                         {"type", ro.type() == RuleOption::Type::Check  ? "check"
                                  : ro.type() == RuleOption::Type::Spin ? "spin"
                                                                        : "combo"},
                         {"default", ro.default_text()},
                         {"min", ro.min},
                         {"max", ro.max},
                         {"choices", choices},
                         {"help", ro.help}});
    }
    json variants = json::array();
    for (const char* v : kVariantNames) {
        const Rules r = *Rules::preset(v);
        variants.push_back(
            {{"name", v}, {"rules", r.to_string()}, {"players", r.required_players()}});
    }
    return {{"type", "welcome"},
            {"engines", engines},
            {"rules", rules},
            {"variants", variants},
            {"chat", lobby_.limits().chat}};
}

void Connection::join(std::shared_ptr<Room> room, const std::string& token) {
    leave();
    unwatch_lobby();
    room_ = room;
    seat_ = token.empty() ? std::nullopt : room->seat_of(token);
    view_ply_ = -1;
    orientation_ = seat_ ? *seat_ : GREEN;
    room_->attach(seat_);
    listener_ = room_->subscribe([this] { refresh(); });
    send_(json{{"type", "joined"},
               {"room", room_->id()},
               {"you", seat_ ? json(colour_name(*seat_)) : json(nullptr)}}
              .dump());
    send_view();
}

void Connection::leave() {
    if (!room_) return;
    room_->unsubscribe(listener_);
    room_->detach(seat_);
    room_.reset();
    seat_.reset();
    stop_analysis();
    stop_review();
}

void Connection::handle(std::string_view text) {
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
        if (on_lobby_message(type, msg)) return;
        if (!room_) return error(type + ": join a room first");
        if (on_view_message(type, msg)) return;
        std::optional<std::string> err;
        if (!on_player_message(type, msg, err)) return error("unknown message type '" + type + "'");
        if (err) error(type + ": " + *err);
    } catch (const std::exception& e) {
        error(type + ": " + e.what());
    }
}

bool Connection::on_lobby_message(const std::string& type, const json& msg) {
    if (type == "hello") {
        send_(welcome().dump());
        if (msg.contains("room")) {
            auto r = lobby_.find(str(msg, "room"));
            if (!r) return error("there is no room '" + str(msg, "room") + "'"), true;
            join(r, str(msg, "token"));
        }
    } else if (type == "lobby") {
        send_lobby();
    } else if (type == "join") {
        auto r = lobby_.find(str(msg, "room"));
        if (!r) return error("there is no room '" + str(msg, "room") + "'"), true;
        join(r, str(msg, "token"));
    } else if (type == "leave") {
        leave();
        send_lobby();
    } else if (type == "learn_moves" || type == "exercise" || type == "exercise_move") {
        // The Learn page (learn.h): the rules core answers, no room is needed.
        const auto r = type == "learn_moves"
                           ? learn::moves_of(str(msg, "fen"), str(msg, "cell"), str(msg, "view"))
                       : type == "exercise" ? learn::exercise(str(msg, "id"))
                                            : learn::check(str(msg, "id"), str(msg, "move"));
        if (auto* err = std::get_if<std::string>(&r)) return error(type + ": " + *err), true;
        json out = std::get<json>(r);
        out["type"] = type;
        out["tag"] = msg.value("tag", json());  // the page's own label of the request
        send_(out.dump());
    } else if (type == "create") {
        on_create(msg);
    } else if (type == "load") {
        on_load(msg);
    } else {
        return false;
    }
    return true;
}

bool Connection::on_view_message(const std::string& type, const json& msg) {
    if (type == "goto") {
        if (!msg.contains("ply") || !msg["ply"].is_number_integer())
            return error("goto: give \"ply\""), true;
        const int ply = msg["ply"], n = room_->plies();
        if (ply < -1 || ply > n) return error("goto: ply must be in 0.." + std::to_string(n)), true;
        view_ply_ = ply == n ? -1 : ply;
        send_view();
    } else if (type == "view") {
        const auto c = colour_in(msg.value("colour", json()));
        if (!c) return error("view: colour is g, b or k"), true;
        orientation_ = *c;
        send_view();
    } else if (type == "save") {
        if (room_->hides_anything())
            return error("save: the record shows the whole game: it is given when the game ends"),
                   true;
        on_save();
    } else if (type == "analyse") {
        on_analyse(msg);
    } else if (type == "hint") {
        on_hint(msg);
    } else if (type == "review") {
        on_review(msg);
    } else if (type == "rematch") {
        on_rematch();
    } else {
        return false;
    }
    return true;
}

void Connection::on_hint(const json& msg) {
    // A hint in a game against engines: the analysis of the position to move (one line),
    // which the page shows as the best move's arrow; the move then played is written with
    // the comment `hint`.
    if (!seat_) return error("hint: only a player of this game may do that");
    const auto view = room_->player_view(seat_, -1, orientation_);
    if (!view["can"]["move"].get<bool>() || view["phase"] != "play")
        return error("hint: only for your move in play");
    if (!view["can"]["analyse"].get<bool>()) return error("hint: not in a game against a person");
    room_->note_hint();
    view_ply_ = -1;
    json ask{{"on", true}, {"multipv", 1}};
    if (!str(msg, "engine").empty()) ask["engine"] = str(msg, "engine");
    on_analyse(ask);
}

bool Connection::on_player_message(const std::string& type, const json& msg,
                                   std::optional<std::string>& err) {
    if (type == "sit") {
        on_sit(msg);
        return true;
    }
    if (type == "chat") {
        if (!lobby_.limits().chat) return err = "this server has no chat", true;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_chat_ < std::chrono::seconds(1)) return err = "one line a second", true;
        last_chat_ = now;
        err = room_->chat(seat_, str(msg, "text"));
        return true;
    }
    static const char* const kSeated[] = {"move", "draw", "resign", "abort", "takeback"};
    if (std::find(std::begin(kSeated), std::end(kSeated), type) == std::end(kSeated)) return false;
    if (!seat_) return err = "only a player of this game may do that", true;
    const Colour s = *seat_;
    const std::string a = type == "draw" || type == "takeback" ? str(msg, "action") : "";
    if (type == "move") {
        if (view_ply_ >= 0 && view_ply_ < room_->plies())
            return err = "go to the last position first", true;
        err = room_->move(s, str(msg, "move"));
    } else if (type == "draw") {
        if (a == "offer" || a == "accept")
            err = room_->offer_draw(s);
        else if (a == "decline")
            err = room_->decline_draw(s);
        else
            err = "action is offer, accept or decline";
    } else if (type == "resign") {
        err = room_->resign(s);
    } else if (type == "abort") {
        err = room_->abort_game(s);
    } else if (a == "ask") {  // takeback
        err = room_->ask_takeback(s);
    } else if (a == "accept" || a == "decline") {
        err = room_->answer_takeback(s, a == "accept");
    } else {
        err = "action is ask, accept or decline";
    }
    return true;
}

void Connection::on_sit(const json& msg) {
    const auto c = colour_in(msg.value("colour", json()));
    if (!c) return error("sit: colour is g, b or k");
    if (seat_) return error("sit: you already have a seat");
    std::string token;
    if (auto err = room_->sit(*c, str(msg, "name"), token)) return error("sit: " + *err);
    send_(
        json{{"type", "seat"}, {"room", room_->id()}, {"colour", colour_name(*c)}, {"token", token}}
            .dump());
    join(room_, token);
}

void Connection::on_create(const json& msg) {
    RoomSettings s;
    std::optional<RoomSettings> source;  // the room played on from, whose settings stay
    const json from = msg.value("from_room", json());
    if (from.is_string()) {  // play on from a ply of another room's game
        auto r = lobby_.find(from);
        if (!r) return error("create: there is no room '" + from.get<std::string>() + "'");
        const RoomSettings rs = r->settings();
        source = rs;
        s.players = rs.players;
        s.rules = rs.rules;
        s.dice_seed = rs.dice_seed;
        const Position start = r->position_at(0);
        s.start_fen = start.fen();
        const int ply = msg.value("ply", r->plies());
        if (ply < 0 || ply > r->plies())
            return error("create: ply must be in 0.." + std::to_string(r->plies()));
        s.history = r->history(ply);
    } else {
        s.players = msg.value("players", 2);
        if (s.players != 2 && s.players != 3) return error("create: players is 2 or 3");
        const std::string variant = str(msg, "variant");
        if (!variant.empty())
            if (auto err = s.rules.set("UCI_Variant", variant)) return error("create: " + *err);
        if (msg.contains("rules")) {
            if (!msg["rules"].is_object()) return error("create: rules is an object");
            for (auto& [k, v] : msg["rules"].items()) {
                const std::string val = v.is_string() ? v.get<std::string>() : v.dump();
                if (auto err = s.rules.set(k, val)) return error("create: " + *err);
            }
        }
        s.start_fen = str(msg, "fen");
    }
    s.tc = str(msg, "tc");
    s.delay_ms = static_cast<std::int64_t>(msg.value("delay", 0.0) * 1000);
    s.movetime_ms = msg.value("movetime", 1000);
    if (source) {  // played on: the clock and the engines' time as they were, unless given
        if (!msg.contains("tc")) s.tc = source->tc, s.delay_ms = source->delay_ms;
        if (!msg.contains("movetime")) s.movetime_ms = source->movetime_ms;
    }
    if (s.rules.kinta) s.dice_seed = std::stoull(random_hex(60), nullptr, 16);
    if (!msg.contains("seats") || !msg["seats"].is_array() || int(msg["seats"].size()) != s.players)
        return error("create: seats must list one seat per colour");
    for (int c = 0; c < s.players; ++c) {
        const json& j = msg["seats"][std::size_t(c)];
        if (!j.is_object()) return error("create: a seat is {\"kind\":\"person\"|\"engine\",...}");
        const std::string kind = j.value("kind", "");
        SeatSpec& seat = s.seats[c];
        if (kind == "person") continue;
        if (kind != "engine") return error("create: a seat's kind is person or engine");
        seat.person = false;
        seat.engine = j.value("engine", "");
        const EngineEntry* e = nullptr;
        for (const auto& x : lobby_.engines())
            if (x.spec.name == seat.engine) e = &x;
        if (!e) return error("create: no engine named '" + seat.engine + "'");
        if (j.contains("options")) {
            if (!j["options"].is_object()) return error("create: options is an object");
            for (auto& [k, v] : j["options"].items()) {
                const std::string val = v.is_string() ? v.get<std::string>() : v.dump();
                if (auto err = check_page_option(*e, k, val)) return error("create: " + *err);
                seat.options.emplace_back(k, val);
            }
        }
        if (source && !j.contains("options") && !j.contains("level")) {
            // Played on: the engine keeps the options and level it had in that room.
            for (int o = 0; o < source->players; ++o)
                if (!source->seats[o].person && source->seats[o].engine == seat.engine) {
                    seat.options = source->seats[o].options;
                    seat.level = source->seats[o].level;
                    break;
                }
        }
        if (j.contains("level")) {  // the page's levels 1..8 (engines.h)
            if (!j["level"].is_number_integer()) return error("create: a level is a number");
            const auto skill = skill_for_page_level(*e, j["level"].get<int>());
            if (auto* err = std::get_if<std::string>(&skill)) return error("create: " + *err);
            if (const auto& l = std::get<std::optional<int>>(skill))
                seat.options.emplace_back("Skill Level", std::to_string(*l));
            seat.level = j["level"].get<int>();
        }
    }
    // The person creating may sit at once.
    const json sit = msg.value("sit", json());
    std::optional<Colour> sit_at;
    if (!sit.is_null()) {
        sit_at = colour_in(sit);
        if (!sit_at || *sit_at >= s.players || !s.seats[*sit_at].person)
            return error("create: sit names a person's seat (g, b or k)");
    }
    open_room(std::move(s), sit_at, str(msg, "name"), "create");
}

std::shared_ptr<Room> Connection::open_room(RoomSettings s, std::optional<Colour> sit_at,
                                            const std::string& name, const std::string& what) {
    auto r = lobby_.create(std::move(s));
    if (auto* err = std::get_if<std::string>(&r)) {
        error(what + ": " + *err);
        return nullptr;
    }
    auto room = std::get<std::shared_ptr<Room>>(r);
    send_(json{{"type", "created"}, {"room", room->id()}}.dump());
    std::string token;
    if (sit_at) {
        if (auto err = room->sit(*sit_at, name.empty() ? "Player" : name, token)) {
            error(what + ": " + *err);
            return room;
        }
        send_(json{{"type", "seat"},
                   {"room", room->id()},
                   {"colour", colour_name(*sit_at)},
                   {"token", token}}
                  .dump());
    }
    join(room, token);
    return room;
}

void Connection::on_rematch() {
    if (!seat_) return error("rematch: only a player of this game may ask for one");
    if (room_->status() != Room::Status::Over) return error("rematch: the game is not over");
    const RoomSettings rs = room_->settings();
    RoomSettings s = rs;
    s.history.clear();  // from the same start, each seat moved on to the next colour
    for (int c = 0; c < rs.players; ++c) s.seats[(c + 1) % rs.players] = rs.seats[c];
    if (s.rules.kinta) s.dice_seed = std::stoull(random_hex(60), nullptr, 16);
    std::optional<Colour> sit_at;
    std::string name;
    if (rs.seats[*seat_].person) {
        sit_at = Colour((*seat_ + 1) % rs.players);
        name = room_->player_view(seat_, -1, *seat_)["seats"][*seat_]["name"];
    }
    const auto old = room_;
    // (the others are offered it in their view)
    if (auto room = open_room(std::move(s), sit_at, name, "rematch")) old->set_rematch(room->id());
}

void Connection::on_load(const json& msg) {
    const std::string record = str(msg, "record");
    if (record.empty()) return error("load: give \"record\"");
    std::istringstream in(record);
    const auto games = read_records(in);
    if (games.empty()) return error("load: no game record found");
    if (!msg.contains("game") && games.size() > 1) {  // the page lets the person pick
        json list = json::array();
        for (std::size_t i = 0; i < games.size(); ++i) {
            auto tag = [&](const char* t) {
                auto it = games[i].tags.find(t);
                return it == games[i].tags.end() ? std::string() : it->second;
            };
            list.push_back({{"index", i},
                            {"green", tag("Green").empty() ? tag("White") : tag("Green")},
                            {"blue", tag("Blue").empty() ? tag("Black") : tag("Blue")},
                            {"black", tag("Players") == "3" ? tag("Black") : ""},
                            {"result", games[i].result},
                            {"round", tag("Round")}});
        }
        return send_(json{{"type", "games"}, {"games", list}}.dump());
    }
    const int game = msg.value("game", 0);
    if (game < 0) return error("load: game is 0 or more");
    auto r = lobby_.review(record, std::size_t(game));
    if (auto* err = std::get_if<std::string>(&r)) return error("load: " + *err);
    auto room = std::get<std::shared_ptr<Room>>(r);
    send_(json{{"type", "created"}, {"room", room->id()}}.dump());
    join(room, "");
}

void Connection::on_analyse(const json& msg) {
    const bool on = msg.value("on", true);
    stop_analysis();
    if (!on) {
        send_(json{{"type", "analysis"}, {"lines", json::array()}, {"stopped", true}}.dump());
        return;
    }
    const auto view = room_->player_view(seat_, view_ply_, orientation_);
    if (!view["can"]["analyse"].get<bool>())
        return error("analyse: not while you play a game against a person");
    if (view.contains("fen") == false) return error("analyse: the board is not fully known");
    const std::string name =
        msg.value("engine", lobby_.engines().empty() ? "" : lobby_.engines().front().spec.name);
    const EngineEntry* e = nullptr;
    for (const auto& x : lobby_.engines())
        if (x.spec.name == name) e = &x;
    if (!e) return error("analyse: no engine named '" + name + "'");
    const int multipv = msg.value("multipv", 2);
    if (multipv < 1 || multipv > 16) return error("analyse: multipv must be in 1..16");
    if (!lobby_.take_analysis())
        return error("analyse: every analysis engine the server allows is busy: try later");
    multipv_ = multipv;
    match::EngineSpec spec = e->spec;
    const Position pos = room_->position_at(view_ply_);
    for (auto& kv : rule_pairs(pos.rules())) spec.options.push_back(kv);
    analyser_ = std::make_unique<Analyser>(spec, [this](const json& j) { send_(j.dump()); });
    analyser_->request(pos, multipv_);
}

void Connection::on_review(const json& msg) {
    stop_review();
    if (!msg.value("on", true)) return;
    const auto view = room_->player_view(seat_, -1, orientation_);
    if (!view["can"]["analyse"].get<bool>() || !view.contains("fen"))
        return error("review: not while the game hides anything or you play against a person");
    const std::string name =
        msg.value("engine", lobby_.engines().empty() ? "" : lobby_.engines().front().spec.name);
    const EngineEntry* e = nullptr;
    for (const auto& x : lobby_.engines())
        if (x.spec.name == name) e = &x;
    if (!e) return error("review: no engine named '" + name + "'");
    const json d = msg.value("depth", json(5));
    if (!d.is_number_integer() || d.get<int>() < 1 || d.get<int>() > 20)
        return error("review: depth must be a whole number in 1..20");
    if (!lobby_.take_analysis())
        return error("review: every analysis engine the server allows is busy: try later");
    std::vector<Position> before;
    std::vector<Move> played;
    for (auto& [p, m] : room_->moves_played()) {
        before.push_back(p);
        played.push_back(m);
    }
    match::EngineSpec spec = e->spec;
    if (!before.empty())
        for (auto& kv : rule_pairs(before.front().rules())) spec.options.push_back(kv);
    const std::size_t plies = played.size();
    reviewer_ = std::make_unique<Reviewer>(spec, std::move(before), std::move(played), d.get<int>(),
                                           [this, room = room_->id(), plies](const json& j) {
                                               if (j.value("finished", false)) {
                                                   std::lock_guard lock(review_m_);
                                                   reviewed_points_ = j["points"];
                                                   reviewed_room_ = room;
                                                   reviewed_plies_ = plies;
                                               }
                                               send_(j.dump());
                                           });
}

void Connection::on_save() {
    ReviewNotes notes;
    {
        std::lock_guard lock(review_m_);
        if (reviewed_room_ == room_->id() && reviewed_plies_ == std::size_t(room_->plies()))
            notes = review_notes(reviewed_points_, room_->players());
    }
    send_(json{{"type", "record"}, {"pgn", room_->record(notes.moves, notes.lead)}}.dump());
}

void Connection::stop_review() {
    if (!reviewer_) return;
    reviewer_.reset();
    lobby_.give_back_analysis();
}

void Connection::stop_analysis() {
    if (!analyser_) return;
    analyser_.reset();
    lobby_.give_back_analysis();
}

void Connection::follow_analysis(const json& view) {
    if (!analyser_ || !room_) return;
    try {
        if (!view["can"]["analyse"].get<bool>() || !view.contains("fen")) {
            stop_analysis();
            send_(json{{"type", "analysis"}, {"lines", json::array()}, {"stopped", true}}.dump());
            return;
        }
        analyser_->request(room_->position_at(view_ply_), multipv_);
    } catch (const std::exception&) {
    }
}

}  // namespace klinzha::gui
