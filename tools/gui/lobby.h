// tools/gui/lobby.h: klinzha-gui's rooms: creates them (with the server's limits), finds
// them by id, lists them for the lobby page, and brings back every kept room when the
// server starts (running games resume, room.h). docs/gui.md "Rooms", "Limits".
//
// Thread safety: every member may be called from any thread.
// Errors: create/review return an error message when the settings are bad or a limit is
// reached; nothing is created then.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "engines.h"
#include "room.h"

namespace klinzha::gui {

class Store;

struct LobbyLimits {
    int max_open_rooms = 50;     ///< rooms waiting for players or playing
    int max_engine_seats = 8;    ///< engine processes playing in all rooms together
    int max_analyses = 4;        ///< analysis engines running for all connections together
    int max_rooms_listed = 100;  ///< rooms in the lobby's list (open ones first)
    std::int64_t seat_timeout_ms = 120000;  ///< an empty seat to move loses on time after
    bool chat = true;                       ///< rooms have a chat (klinzha-gui --no-chat: none)
};

class Lobby {
  public:
    /// `store` may be nullptr (nothing kept). The engines are those the operator named.
    Lobby(std::vector<EngineEntry> engines, Store* store, LobbyLimits limits);
    ~Lobby();

    /// Brings back every room kept in the store. Returns one message per room that could
    /// not be read (it is left in the store untouched).
    std::vector<std::string> restore();

    std::variant<std::shared_ptr<Room>, std::string> create(RoomSettings settings);
    /// A room to read game `game` (0-based) of a record text in.
    std::variant<std::shared_ptr<Room>, std::string> review(const std::string& record,
                                                            std::size_t game);
    /// The room with this id, or nullptr.
    std::shared_ptr<Room> find(const std::string& id) const;
    /// {"type":"lobby","rooms":[Room::summary()...]}: open rooms first, then the latest ended.
    nlohmann::json list() const;

    const std::vector<EngineEntry>& engines() const { return engines_; }
    const LobbyLimits& limits() const { return limits_; }

    /// Calls f (which must not block) after every change of the list: a room made, or any
    /// change of a room (its seats, moves, result). Returns a handle for unwatch(); after
    /// unwatch returns, f is not called again. Pages in the lobby are pushed the list so.
    int watch(std::function<void()> f);
    void unwatch(int handle);

    /// Takes one of the analysis engines the limit allows; false when none is free.
    bool take_analysis();
    void give_back_analysis();

  private:
    RoomEnv env() const;
    std::vector<EngineEntry> engines_;
    Store* store_;
    LobbyLimits limits_;
    mutable std::mutex m_;
    std::map<std::string, std::shared_ptr<Room>> rooms_;
    std::atomic<int> analyses_{0};
    /// The lobby's watchers, shared with the rooms' change hook (a room may outlive its
    /// lobby in a connection's hands).
    struct Watchers {
        std::mutex m;
        std::map<int, std::function<void()>> fs;
        int next = 1;
        void notify();
    };
    std::shared_ptr<Watchers> watchers_ = std::make_shared<Watchers>();
};

}  // namespace klinzha::gui
