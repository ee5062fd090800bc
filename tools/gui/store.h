// tools/gui/store.h: klinzha-gui's store: every room's state kept in one SQLite file
// (SQLiteCpp over libsqlite3), so a server that is killed and started again shows every room
// as it was. A room is one row: its id, when it was last written, and its state as JSON text
// (Room::to_json, docs/gui.md "What is kept"). Written whole at every change, in a
// transaction (WAL journal: a crash leaves the last committed state).
//
// Thread safety: every member may be called from any thread (one mutex).
// Errors: the constructor throws std::runtime_error naming the file when it cannot open or
// create it; the writes throw std::runtime_error with SQLite's message.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace SQLite {
class Database;
}

namespace klinzha::gui {

class Store {
  public:
    /// Opens the database at `path`, creating it (and its tables) when missing; ":memory:"
    /// keeps nothing (tests). Throws std::runtime_error naming the path.
    explicit Store(const std::string& path);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    /// Replaces room `id`'s state (JSON text) in one transaction; `updated_ms` is Unix ms.
    void save_room(const std::string& id, const std::string& state, std::int64_t updated_ms);
    /// Forgets room `id` (no error when it is not kept).
    void delete_room(const std::string& id);
    /// Every room kept, as (id, state JSON), oldest write first.
    std::vector<std::pair<std::string, std::string>> load_rooms() const;
    /// How many times save_room() has written since this Store was opened.
    std::uint64_t writes() const;

    /// The default file: $XDG_DATA_HOME/klinzha/gui.sqlite3, else
    /// ~/.local/share/klinzha/gui.sqlite3 (the folder is created when missing).
    static std::string default_path();

  private:
    mutable std::mutex m_;
    std::unique_ptr<SQLite::Database> db_;
    std::uint64_t writes_ = 0;  ///< m_ held
};

}  // namespace klinzha::gui
