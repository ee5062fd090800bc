// tools/gui/server.cpp: see server.h.
#include "server.h"

#include <spdlog/spdlog.h>

#include <sys/socket.h>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

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
    if (rel.empty()) rel = "index.html";
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

struct Server::Impl {
    explicit Impl(ServerConfig c) : cfg(std::move(c)) {}
    ServerConfig cfg;
    asio::io_context io;
    tcp::acceptor acceptor{io};
    std::atomic<bool> stopping{false};
};

namespace {

/// One WebSocket connection: a GuiSession fed by the reads, writing through a mutex.
void run_websocket(websocket::stream<tcp::socket>& ws, const std::vector<EngineEntry>& engines) {
    std::mutex write_m;
    std::atomic<bool> open{true};
    GuiSession session(engines, [&](const std::string& text) {
        if (!open) return;
        std::lock_guard lock(write_m);
        beast::error_code ec;
        ws.text(true);
        ws.write(asio::buffer(text), ec);
        if (ec) open = false;
    });
    beast::flat_buffer buf;
    while (open) {
        beast::error_code ec;
        ws.read(buf, ec);
        if (ec) break;
        const std::string text = beast::buffers_to_string(buf.data());
        buf.consume(buf.size());
        session.handle(text);
    }
    open = false;
}

void serve_connection(tcp::socket socket, const ServerConfig& cfg) {
    beast::error_code ec;
    beast::flat_buffer buffer;
    while (true) {
        http::request<http::string_body> req;
        http::read(socket, buffer, req, ec);
        if (ec) return;
        if (websocket::is_upgrade(req)) {
            if (req.target() != "/ws") return;
            websocket::stream<tcp::socket> ws(std::move(socket));
            ws.accept(req, ec);
            if (ec) return;
            run_websocket(ws, cfg.engines);
            ws.close(websocket::close_code::normal, ec);
            return;
        }
        http::response<http::string_body> res;
        res.version(req.version());
        res.keep_alive(req.keep_alive());
        res.set(http::field::server, "klinzha-gui");
        const auto path =
            req.method() == http::verb::get || req.method() == http::verb::head
                ? resolve_path(cfg.www, std::string_view(req.target().data(), req.target().size()))
                : std::nullopt;
        if (!path) {
            res.result(req.method() == http::verb::get ? http::status::not_found
                                                       : http::status::method_not_allowed);
            res.set(http::field::content_type, "text/plain");
            res.body() = "not found\n";
        } else {
            std::ifstream in(*path, std::ios::binary);
            std::ostringstream s;
            s << in.rdbuf();
            res.result(http::status::ok);
            res.set(http::field::content_type, std::string(content_type(*path)));
            res.set(http::field::cache_control, "no-store");
            res.body() = s.str();
        }
        res.prepare_payload();
        http::write(socket, res, ec);
        if (ec || !res.keep_alive()) break;
    }
    socket.shutdown(tcp::socket::shutdown_send, ec);
}

}  // namespace

Server::Server(ServerConfig cfg) : impl_(new Impl(std::move(cfg))) {
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
    port_ = impl_->acceptor.local_endpoint().port();
}

Server::~Server() {
    stop();
    delete impl_;
}

void Server::run() {
    while (!impl_->stopping) {
        beast::error_code ec;
        tcp::socket socket(impl_->io);
        impl_->acceptor.accept(socket, ec);
        if (ec) {
            if (impl_->stopping) break;
            spdlog::warn("accept: {}", ec.message());
            continue;
        }
        std::thread([s = std::move(socket), this]() mutable {
            try {
                serve_connection(std::move(s), impl_->cfg);
            } catch (const std::exception& e) {
                spdlog::warn("connection: {}", e.what());
            }
        }).detach();
    }
}

void Server::stop() {
    if (impl_->stopping.exchange(true)) return;
    beast::error_code ec;
    // A blocking accept() returns when the socket is shut down (Linux).
    ::shutdown(impl_->acceptor.native_handle(), SHUT_RDWR);
    impl_->acceptor.cancel(ec);
}

}  // namespace klinzha::gui
