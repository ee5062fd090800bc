// tools/gui/lobby.cpp: see lobby.h.
#include "lobby.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "store.h"

namespace klinzha::gui {

Lobby::Lobby(std::vector<EngineEntry> engines, Store* store, LobbyLimits limits)
    : engines_(std::move(engines)), store_(store), limits_(limits) {}

Lobby::~Lobby() {
    // Rooms end their referees (their stored state stays as it was), forget the store and
    // start nothing again (the store goes after the lobby, the engine list with it): a
    // connection destroyed later may still hold a room.
    std::map<std::string, std::shared_ptr<Room>> rooms;
    {
        std::lock_guard lock(m_);
        rooms.swap(rooms_);
    }
    for (auto& [_, room] : rooms) room->close();
}

RoomEnv Lobby::env() const {
    RoomEnv e;
    e.engines = &engines_;
    e.store = store_;
    e.seat_timeout_ms = limits_.seat_timeout_ms;
    e.on_change = [w = watchers_] { w->notify(); };
    return e;
}

void Lobby::Watchers::notify() {
    std::lock_guard lock(m);  // held while calling: unwatch() waits for a call under way
    for (auto& [_, f] : fs) f();
}

int Lobby::watch(std::function<void()> f) {
    std::lock_guard lock(watchers_->m);
    watchers_->fs[watchers_->next] = std::move(f);
    return watchers_->next++;
}

void Lobby::unwatch(int handle) {
    std::lock_guard lock(watchers_->m);
    watchers_->fs.erase(handle);
}

std::vector<std::string> Lobby::restore() {
    std::vector<std::string> errors;
    if (!store_) return errors;
    for (const auto& [id, text] : store_->load_rooms()) {
        nlohmann::json st;
        try {
            st = nlohmann::json::parse(text);
        } catch (const std::exception& e) {
            errors.push_back("room " + id + ": " + e.what());
            continue;
        }
        auto r = Room::restore(id, st, env());
        if (auto* err = std::get_if<std::string>(&r)) {
            errors.push_back(*err);
            continue;
        }
        std::lock_guard lock(m_);
        rooms_[id] = std::get<std::shared_ptr<Room>>(r);
    }
    return errors;
}

std::variant<std::shared_ptr<Room>, std::string> Lobby::create(RoomSettings settings) {
    std::lock_guard lock(m_);  // (creation is rare; holding the lock keeps the count exact)
    int open = 0, engine_seats = 0;
    for (const auto& [_, r] : rooms_) {
        const auto s = r->status();
        if (s != Room::Status::Waiting && s != Room::Status::Running) continue;
        ++open;
        const RoomSettings rs = r->settings();
        for (int c = 0; c < rs.players; ++c) engine_seats += !rs.seats[c].person;
    }
    if (open >= limits_.max_open_rooms)
        return "the server has " + std::to_string(open) + " open rooms, its limit: try later";
    int want = 0;
    for (int c = 0; c < settings.players; ++c) want += !settings.seats[c].person;
    if (engine_seats + want > limits_.max_engine_seats)
        return "the engines allowed to play at once (" + std::to_string(limits_.max_engine_seats) +
               ") are busy: try later";
    std::string id;
    do id = random_hex(40);
    while (rooms_.count(id));
    auto r = Room::create(id, std::move(settings), env());
    if (auto* room = std::get_if<std::shared_ptr<Room>>(&r)) rooms_[id] = *room;
    watchers_->notify();
    return r;
}

std::variant<std::shared_ptr<Room>, std::string> Lobby::review(const std::string& record,
                                                               std::size_t game) {
    std::lock_guard lock(m_);
    std::string id;
    do id = random_hex(40);
    while (rooms_.count(id));
    auto r = Room::review(id, record, game, env());
    if (auto* room = std::get_if<std::shared_ptr<Room>>(&r)) rooms_[id] = *room;
    watchers_->notify();
    return r;
}

std::shared_ptr<Room> Lobby::find(const std::string& id) const {
    std::lock_guard lock(m_);
    auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second;
}

nlohmann::json Lobby::list() const {
    std::vector<nlohmann::json> open, ended;
    {
        std::lock_guard lock(m_);
        for (const auto& [_, r] : rooms_) {
            auto s = r->summary();
            (s["status"] == "waiting" || s["status"] == "running" ? open : ended).push_back(s);
        }
    }
    auto newest_first = [](const nlohmann::json& a, const nlohmann::json& b) {
        return a["created"].get<std::int64_t>() > b["created"].get<std::int64_t>();
    };
    std::sort(open.begin(), open.end(), newest_first);
    std::sort(ended.begin(), ended.end(), newest_first);
    nlohmann::json rooms = nlohmann::json::array();
    for (auto* v : {&open, &ended})
        for (auto& s : *v)
            if (int(rooms.size()) < limits_.max_rooms_listed) rooms.push_back(s);
    return {{"type", "lobby"}, {"rooms", rooms}};
}

bool Lobby::take_analysis() {
    int n = analyses_.load();
    while (n < limits_.max_analyses)
        if (analyses_.compare_exchange_weak(n, n + 1)) return true;
    return false;
}

void Lobby::give_back_analysis() {
    --analyses_;
}

}  // namespace klinzha::gui
