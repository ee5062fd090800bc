// tools/gui/store.cpp: see store.h.
#include "store.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace klinzha::gui {

namespace {
constexpr int kSchemaVersion = 1;
}

Store::Store(const std::string& path) {
    try {
        db_ =
            std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db_->setBusyTimeout(5000);
        if (path != ":memory:") db_->exec("PRAGMA journal_mode=WAL");
        db_->exec("PRAGMA synchronous=NORMAL");
        const int version = db_->execAndGet("PRAGMA user_version").getInt();
        if (version > kSchemaVersion)
            throw std::runtime_error("written by a newer klinzha-gui (schema " +
                                     std::to_string(version) + ")");
        db_->exec(
            "CREATE TABLE IF NOT EXISTS rooms (id TEXT PRIMARY KEY, updated INTEGER NOT NULL, "
            "state TEXT NOT NULL)");
        db_->exec("PRAGMA user_version=" + std::to_string(kSchemaVersion));
    } catch (const std::exception& e) {
        throw std::runtime_error("database '" + path + "': " + e.what());
    }
}

Store::~Store() = default;

void Store::save_room(const std::string& id, const std::string& state, std::int64_t updated_ms) {
    std::lock_guard lock(m_);
    try {
        SQLite::Transaction t(*db_);
        SQLite::Statement q(*db_,
                            "INSERT INTO rooms (id, updated, state) VALUES (?, ?, ?) "
                            "ON CONFLICT(id) DO UPDATE SET updated=excluded.updated, "
                            "state=excluded.state");
        q.bind(1, id);
        q.bind(2, static_cast<int64_t>(updated_ms));
        q.bind(3, state);
        q.exec();
        t.commit();
        ++writes_;
    } catch (const SQLite::Exception& e) {
        throw std::runtime_error(std::string("saving room ") + id + ": " + e.what());
    }
}

void Store::delete_room(const std::string& id) {
    std::lock_guard lock(m_);
    try {
        SQLite::Statement q(*db_, "DELETE FROM rooms WHERE id = ?");
        q.bind(1, id);
        q.exec();
    } catch (const SQLite::Exception& e) {
        throw std::runtime_error(std::string("deleting room ") + id + ": " + e.what());
    }
}

std::vector<std::pair<std::string, std::string>> Store::load_rooms() const {
    std::lock_guard lock(m_);
    std::vector<std::pair<std::string, std::string>> out;
    SQLite::Statement q(*db_, "SELECT id, state FROM rooms ORDER BY updated");
    while (q.executeStep())
        out.emplace_back(q.getColumn(0).getString(), q.getColumn(1).getString());
    return out;
}

std::uint64_t Store::writes() const {
    std::lock_guard lock(m_);
    return writes_;
}

std::string Store::default_path() {
    namespace fs = std::filesystem;
    fs::path dir;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x)
        dir = fs::path(x) / "klinzha";
    else if (const char* h = std::getenv("HOME"); h && *h)
        dir = fs::path(h) / ".local" / "share" / "klinzha";
    else
        dir = fs::current_path();
    std::error_code ec;
    fs::create_directories(dir, ec);
    return (dir / "gui.sqlite3").string();
}

}  // namespace klinzha::gui
