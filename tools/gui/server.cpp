// tools/gui/server.cpp: see server.h.
#include "server.h"

#include <spdlog/spdlog.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "connection.h"

namespace klinzha::gui {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
namespace fs = std::filesystem;

std::optional<std::string> resolve_path(const std::string& www, std::string_view target) {
    if (target.empty() || target.front() != '/') return std::nullopt;
    for (char c : target)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ||
              c == '/'))
            return std::nullopt;
    if (target.find("..") != std::string_view::npos || target.find("//") != std::string_view::npos)
        return std::nullopt;
    std::string rel(target.substr(1));
    // The page's routes: the lobby and a room are the one page.
    if (rel.empty() || (rel.rfind("game/", 0) == 0 && rel.find('/', 5) == std::string::npos))
        rel = "index.html";
    if (rel == "learn") rel = "learn.html";  // the Learn page (learn.h)
    std::error_code ec;
    const fs::path root = fs::canonical(www, ec);
    if (ec) return std::nullopt;
    const fs::path file = fs::weakly_canonical(root / rel, ec);
    if (ec || !fs::is_regular_file(file, ec)) return std::nullopt;
    const std::string r = root.string() + "/", f = file.string();
    if (f.compare(0, r.size(), r) != 0) return std::nullopt;
    return f;
}

std::string_view content_type(std::string_view path) {
    auto ends = [&](std::string_view e) {
        return path.size() >= e.size() && path.substr(path.size() - e.size()) == e;
    };
    if (ends(".html")) return "text/html; charset=utf-8";
    if (ends(".js")) return "text/javascript; charset=utf-8";
    if (ends(".css")) return "text/css; charset=utf-8";
    if (ends(".svg")) return "image/svg+xml";
    if (ends(".png")) return "image/png";
    if (ends(".json")) return "application/json";
    return "application/octet-stream";
}

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// Splits a Host value into name and port ("" when none); nullopt when malformed.
std::optional<std::pair<std::string, std::string>> split_host(std::string_view host) {
    if (host.empty()) return std::nullopt;
    std::string name, port;
    if (host.front() == '[') {  // [v6]:port
        const auto close = host.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        name = std::string(host.substr(0, close + 1));
        if (close + 1 < host.size()) {
            if (host[close + 1] != ':') return std::nullopt;
            port = std::string(host.substr(close + 2));
        }
    } else {
        const auto colon = host.find(':');
        name = std::string(host.substr(0, colon));
        if (colon != std::string_view::npos) port = std::string(host.substr(colon + 1));
    }
    for (char c : port)
        if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    return std::pair{lower(name), port};
}

bool is_ip_literal(const std::string& name) {
    beast::error_code ec;
    if (!name.empty() && name.front() == '[' && name.back() == ']') {
        asio::ip::make_address_v6(name.substr(1, name.size() - 2), ec);
        return !ec;
    }
    asio::ip::make_address_v4(name, ec);
    return !ec;
}

}  // namespace

bool host_allowed(std::string_view host, unsigned short port, const ServerConfig& cfg) {
    const auto hp = split_host(host);
    if (!hp) return false;
    const auto& [name, p] = *hp;
    bool named = false;
    for (const auto& h : cfg.allow_hosts) named |= lower(h) == name;
    if (named) return true;  // a reverse proxy's name: any port it gives
    if (name != "localhost" && !is_ip_literal(name)) return false;
    return p.empty() ? port == 80 : p == std::to_string(port);
}

bool origin_allowed(std::string_view origin, std::string_view host, const ServerConfig& cfg) {
    if (origin.empty()) return false;
    const std::string o = lower(origin), h = lower(host);
    if (!h.empty() && (o == "http://" + h || o == "https://" + h)) return true;
    for (const auto& a : cfg.allow_origins)
        if (lower(a) == o) return true;
    return false;
}

struct Server::Impl : std::enable_shared_from_this<Server::Impl> {
    Impl(ServerConfig c, Lobby& l) : cfg(std::move(c)), lobby(l), acceptor(io) {}
    ServerConfig cfg;
    Lobby& lobby;
    asio::io_context io;
    tcp::acceptor acceptor;
    unsigned short port = 0;
    std::mutex m;
    std::map<std::string, int> per_address;
    int connections = 0;

    /// A connection's place in the counts; given back when the last owner ends. It holds
    /// the server weakly: sessions still pending when the server ends are destroyed with its
    /// io_context, and a strong reference there would be a cycle (a leak).
    struct Slot {
        Slot(std::weak_ptr<Impl> i, std::string a) : impl(std::move(i)), address(std::move(a)) {}
        ~Slot() {
            const auto i = impl.lock();
            if (!i) return;  // the server is being destroyed: no counts to keep
            std::lock_guard lock(i->m);
            if (--i->per_address[address] == 0) i->per_address.erase(address);
            --i->connections;
        }
        std::weak_ptr<Impl> impl;
        std::string address;
    };

    void accept();
};

namespace {

/// The security headers of every response: nothing from elsewhere, no framing, no sniffing.
template <class Response>
void harden(Response& res) {
    res.set(http::field::server, "klinzha-gui");
    res.set("Content-Security-Policy",
            "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' "
            "'unsafe-inline'; frame-ancestors 'none'");
    res.set("X-Content-Type-Options", "nosniff");
    res.set("X-Frame-Options", "DENY");
    res.set("Referrer-Policy", "no-referrer");
}

class WsSession : public std::enable_shared_from_this<WsSession> {
  public:
    WsSession(tcp::socket&& s, std::shared_ptr<Server::Impl::Slot> slot, const ServerConfig& cfg,
              Lobby& lobby)
        : ws_(std::move(s)), slot_(std::move(slot)), cfg_(cfg), lobby_(lobby) {}

    ~WsSession() {
        // The connection's thread may be finishing a slow action: end it off the network
        // threads.
        if (conn_) std::thread([c = std::move(conn_)]() mutable { c.reset(); }).detach();
    }

    void run(http::request<http::string_body> req) {
        auto t = websocket::stream_base::timeout::suggested(beast::role_type::server);
        t.idle_timeout = std::chrono::seconds(cfg_.idle_timeout_s);
        t.keep_alive_pings = true;
        ws_.set_option(t);
        ws_.read_message_max(cfg_.max_message_bytes);
        ws_.set_option(websocket::stream_base::decorator(
            [](websocket::response_type& res) { res.set(http::field::server, "klinzha-gui"); }));
        ws_.async_accept(req, beast::bind_front_handler(&WsSession::on_accept, shared_from_this()));
    }

  private:
    void on_accept(beast::error_code ec) {
        if (ec) return;
        // The sender holds the session weakly and no executor: the Connection may be
        // destroyed on its own thread after the io_context (~WsSession), and a strand held
        // past its service locks a destroyed mutex (ThreadSanitizer saw it at shutdown).
        std::weak_ptr<WsSession> weak = shared_from_this();
        conn_ = std::make_unique<Connection>(
            lobby_,
            [weak](const std::string& text) {
                auto self = weak.lock();
                if (!self) return;  // the session is gone: nobody to send to
                auto msg = std::make_shared<std::string>(text);
                asio::post(self->ws_.get_executor(), [weak, msg] {
                    if (auto s = weak.lock()) s->queue(msg);
                });
            },
            cfg_.messages_per_second);
        read();
    }

    void read() {
        ws_.async_read(buffer_, beast::bind_front_handler(&WsSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec) {  // closed, timed out, or a message over the limit (Beast closes with 1009)
            if (ec == websocket::error::message_too_big)
                spdlog::info("a message over {} bytes: connection closed", cfg_.max_message_bytes);
            return;
        }
        conn_->post(beast::buffers_to_string(buffer_.data()));
        buffer_.consume(buffer_.size());
        read();
    }

    void queue(const std::shared_ptr<std::string>& msg) {
        if (closing_) return;
        if (out_.size() >= cfg_.max_queued_messages) {  // a page that does not read
            closing_ = true;
            ws_.async_close(websocket::close_code::policy_error,
                            [self = shared_from_this()](beast::error_code) {});
            return;
        }
        out_.push_back(msg);
        if (out_.size() == 1) write();
    }

    void write() {
        ws_.text(true);
        ws_.async_write(asio::buffer(*out_.front()),
                        [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec) {
                                self->out_.clear();
                                return;
                            }
                            self->out_.pop_front();
                            if (!self->out_.empty()) self->write();
                        });
    }

    websocket::stream<beast::tcp_stream> ws_;
    std::shared_ptr<Server::Impl::Slot> slot_;
    const ServerConfig& cfg_;
    Lobby& lobby_;
    beast::flat_buffer buffer_;
    std::deque<std::shared_ptr<std::string>> out_;
    bool closing_ = false;
    std::unique_ptr<Connection> conn_;
};

class HttpSession : public std::enable_shared_from_this<HttpSession> {
  public:
    HttpSession(tcp::socket&& s, std::shared_ptr<Server::Impl::Slot> slot, const ServerConfig& cfg,
                Lobby& lobby, unsigned short port)
        : stream_(std::move(s)), slot_(std::move(slot)), cfg_(cfg), lobby_(lobby), port_(port) {}

    void run() { read(); }

  private:
    void read() {
        parser_.emplace();
        parser_->body_limit(16 * 1024);
        stream_.expires_after(std::chrono::seconds(30));
        http::async_read(stream_, buffer_, *parser_,
                         beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
    }

    void on_read(beast::error_code ec, std::size_t) {
        if (ec) {
            beast::error_code ignored;
            stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
            return;
        }
        auto req = parser_->release();
        const std::string host(req[http::field::host]);
        if (!host_allowed(host, port_, cfg_))
            return refuse(req, "this server does not answer to '" + host + "'\n");
        if (websocket::is_upgrade(req)) {
            if (req.target() != "/ws") return refuse(req, "not found\n", http::status::not_found);
            const std::string origin(req[http::field::origin]);
            if (!origin_allowed(origin, host, cfg_))
                return refuse(req, "the origin '" + origin + "' may not open /ws\n");
            stream_.expires_never();  // the WebSocket has timeouts of its own
            std::make_shared<WsSession>(stream_.release_socket(), slot_, cfg_, lobby_)
                ->run(std::move(req));
            return;
        }
        auto res = std::make_shared<http::response<http::string_body>>();
        res->version(req.version());
        res->keep_alive(req.keep_alive());
        harden(*res);
        const auto path =
            req.method() == http::verb::get || req.method() == http::verb::head
                ? resolve_path(cfg_.www, std::string_view(req.target().data(), req.target().size()))
                : std::nullopt;
        if (!path) {
            res->result(req.method() == http::verb::get || req.method() == http::verb::head
                            ? http::status::not_found
                            : http::status::method_not_allowed);
            res->set(http::field::content_type, "text/plain");
            res->body() = "not found\n";
        } else {
            std::ifstream in(*path, std::ios::binary);
            std::ostringstream s;
            s << in.rdbuf();
            res->result(http::status::ok);
            res->set(http::field::content_type, std::string(content_type(*path)));
            res->set(http::field::cache_control, "no-cache");
            res->body() = s.str();
        }
        res->prepare_payload();
        if (req.method() == http::verb::head) res->body().clear();
        send(res);
    }

    void refuse(const http::request<http::string_body>& req, const std::string& why,
                http::status status = http::status::forbidden) {
        auto res = std::make_shared<http::response<http::string_body>>(status, req.version());
        harden(*res);
        res->set(http::field::content_type, "text/plain");
        res->keep_alive(false);
        res->body() = why;
        res->prepare_payload();
        send(res);
    }

    void send(const std::shared_ptr<http::response<http::string_body>>& res) {
        http::async_write(
            stream_, *res, [self = shared_from_this(), res](beast::error_code ec, std::size_t) {
                if (ec || !res->keep_alive()) {
                    beast::error_code ignored;
                    self->stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
                    return;
                }
                self->read();
            });
    }

    beast::tcp_stream stream_;
    std::shared_ptr<Server::Impl::Slot> slot_;
    const ServerConfig& cfg_;
    Lobby& lobby_;
    unsigned short port_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace

void Server::Impl::accept() {
    // `this`, not a shared pointer: a pending accept lives in io, which *this owns.
    acceptor.async_accept(asio::make_strand(io), [self = this](beast::error_code ec,
                                                               tcp::socket socket) {
        if (ec) {
            if (ec != asio::error::operation_aborted) {
                spdlog::warn("accept: {}", ec.message());
                self->accept();
            }
            return;
        }
        beast::error_code aec;
        const auto remote = socket.remote_endpoint(aec);
        const std::string address = aec ? "?" : remote.address().to_string();
        {
            std::lock_guard lock(self->m);
            if (self->connections >= self->cfg.max_connections ||
                self->per_address[address] >= self->cfg.max_connections_per_address) {
                spdlog::info("connection from {} refused: too many", address);
                if (self->per_address[address] == 0) self->per_address.erase(address);
                socket.close(aec);
                self->accept();
                return;
            }
            ++self->per_address[address];
            ++self->connections;
        }
        auto slot = std::make_shared<Slot>(self->weak_from_this(), address);
        std::make_shared<HttpSession>(std::move(socket), slot, self->cfg, self->lobby, self->port)
            ->run();
        self->accept();
    });
}

Server::Server(ServerConfig cfg, Lobby& lobby)
    : impl_(std::make_shared<Impl>(std::move(cfg), lobby)) {
    beast::error_code ec;
    const auto addr = asio::ip::make_address(impl_->cfg.host, ec);
    if (ec) throw std::runtime_error("bad host '" + impl_->cfg.host + "': " + ec.message());
    tcp::endpoint ep(addr, impl_->cfg.port);
    impl_->acceptor.open(ep.protocol(), ec);
    if (!ec) impl_->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) impl_->acceptor.bind(ep, ec);
    if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        throw std::runtime_error("cannot listen on " + impl_->cfg.host + ":" +
                                 std::to_string(impl_->cfg.port) + ": " + ec.message());
    impl_->port = impl_->acceptor.local_endpoint().port();
}

Server::~Server() {
    stop();
}

unsigned short Server::port() const {
    return impl_->port;
}

void Server::run() {
    impl_->accept();
    std::vector<std::thread> more;
    for (int i = 1; i < std::max(1, impl_->cfg.threads); ++i)
        more.emplace_back([this] { impl_->io.run(); });
    impl_->io.run();
    for (auto& t : more) t.join();
}

void Server::stop() {
    asio::post(impl_->io, [impl = impl_.get()] {  // (a raw pointer: io belongs to *impl)
        beast::error_code ec;
        impl->acceptor.close(ec);
    });
    impl_->io.stop();
}

}  // namespace klinzha::gui
