// tools/gui/server.h: klinzha-gui's web server (Boost.Beast, asynchronous, HTTP and
// WebSocket). It serves the page's own files from one folder and nothing else (`/` the lobby,
// `/game/<id>` a room: both the one page), and runs one Connection per WebSocket at `/ws`.
//
// No other web page may drive it (docs/gui.md "Security"):
// * Host: every request must name a host the server answers to (an IP address, `localhost`,
//   or a name given by --allow-host), with the server's port: a page on a DNS name that
//   rebinds to 127.0.0.1 gets 403.
// * Origin: a WebSocket handshake must come from the page's own origin (`http://` or
//   `https://` and the request's Host) or one given by --allow-origin (a reverse proxy's public
//   address); otherwise, or with no Origin, 403.
// Limits, each with its default in ServerConfig: message size, messages a second (Connection),
// connections per address and in all, the handshake and idle timeouts (Beast's own: an HTTP
// request must arrive within 30 s; a WebSocket is pinged when idle and closed when the peer
// stops answering), and the outgoing queue of a page that does not read (closed past it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lobby.h"

namespace klinzha::gui {

struct ServerConfig {
    std::string host = "127.0.0.1";
    unsigned short port = 8080;                  ///< 0: any free port (see Server::port)
    std::string www;                             ///< the folder of the page's files
    std::vector<std::string> allow_origins;      ///< more origins for /ws, as `https://name[:port]`
    std::vector<std::string> allow_hosts;        ///< more names a Host header may give
    std::size_t max_message_bytes = 256 * 1024;  ///< a WebSocket message (a record to load)
    double messages_per_second = 20;             ///< per connection (a burst of twice that)
    int max_connections_per_address = 16;        ///< TCP connections at once from one address
    int max_connections = 512;                   ///< TCP connections at once in all
    int idle_timeout_s = 60;  ///< a WebSocket whose peer answers no ping this long is closed
    std::size_t max_queued_messages = 1024;  ///< unsent messages before a connection is closed
    int threads = 2;                         ///< network threads
};

/// The file under `www` that the request target names ("/" and "/game/<id>" are
/// index.html), or nullopt when the target leaves the folder, names no regular file, or
/// holds anything but letters, digits, '.', '-', '_' and '/' (no "..", escapes or queries).
std::optional<std::string> resolve_path(const std::string& www, std::string_view target);

/// The Content-Type of a served file, by its extension.
std::string_view content_type(std::string_view path);

/// True when a request's Host header may be answered by a server on `port` (rules above).
bool host_allowed(std::string_view host, unsigned short port, const ServerConfig& cfg);

/// True when a WebSocket handshake's Origin is the page's own (for this Host) or allowed.
bool origin_allowed(std::string_view origin, std::string_view host, const ServerConfig& cfg);

class Server {
  public:
    /// Binds the address (throws std::runtime_error naming it when it cannot).
    Server(ServerConfig cfg, Lobby& lobby);
    ~Server();
    /// The port listened on (the one chosen when the configuration said 0).
    unsigned short port() const;
    /// Serves until stop(), on the calling thread and cfg.threads - 1 more.
    void run();
    /// Ends run() (may be called from any thread or a signal's watcher).
    void stop();

    struct Impl;  ///< (server.cpp's: the sessions share it)

  private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace klinzha::gui
