// tools/gui/room_store.cpp: a room as the store keeps it (room.h): to_json, the whole state
// in JSON (its settings, seats, clocks and the Game's moves and removals), and restore, which
// reads it back and resumes a running game. Errors: restore names what it could not read.
#include "room.h"

#include <spdlog/spdlog.h>

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
                         {"name", game_.names[c]},
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
            r.game_.names[c] = j.at("name").get<std::string>();
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

}  // namespace klinzha::gui
