// tools/gui/server.h: klinzha-gui's web server (Boost.Beast, HTTP and WebSocket). It serves
// the page's own files from one folder, nothing else, and runs one GuiSession per WebSocket
// connection at `/ws` (docs/gui.md). Listens on 127.0.0.1 unless told otherwise.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session.h"

namespace klinzha::gui {

struct ServerConfig {
    std::string host = "127.0.0.1";
    unsigned short port = 8080;  ///< 0: any free port (see Server::port)
    std::string www;             ///< the folder of the page's files
    std::vector<EngineEntry> engines;
};

/// The file under `www` that the request target names ("/" is index.html), or nullopt when
/// the target leaves the folder, names no regular file, or holds anything but letters,
/// digits, '.', '-', '_' and '/' (so no "..", no escapes, no query strings).
std::optional<std::string> resolve_path(const std::string& www, std::string_view target);

/// The Content-Type of a served file, by its extension.
std::string_view content_type(std::string_view path);

class Server {
  public:
    /// Binds the address (throws std::runtime_error naming it when it cannot).
    explicit Server(ServerConfig cfg);
    ~Server();
    /// The port listened on (the one chosen when the configuration said 0).
    unsigned short port() const { return port_; }
    /// Accepts connections until stop(); each runs on a thread of its own.
    void run();
    /// Ends run() (connections in progress end when their peers close).
    void stop();

  private:
    struct Impl;
    Impl* impl_;
    unsigned short port_ = 0;
};

}  // namespace klinzha::gui
