// tools/gui/main.cpp: klinzha-gui, rooms where people and engines play Klin Zha and Romulan
// Heart in the browser (docs/gui.md). Starts the web server (127.0.0.1 unless told
// otherwise), brings back the rooms kept in its database, and prints the address to open.
// Engines are only those named here. Exit status: 0 after SIGINT/SIGTERM, 1 when the server
// cannot start, 2 for a bad command line.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/ip/address.hpp>
#include <boost/program_options.hpp>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <thread>
#include <variant>

#include "engine/version.h"
#include "lobby.h"
#include "server.h"
#include "store.h"

namespace po = boost::program_options;
using namespace klinzha;

namespace {

/// The folder of this executable.
std::filesystem::path exe_dir(const char* argv0) {
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) p = std::filesystem::absolute(argv0);
    return p.parent_path();
}

/// The page's files: `www` beside the executable (a build), else ../share/klinzha/www (an
/// installed program).
std::string default_www(const char* argv0) {
    const auto dir = exe_dir(argv0);
    for (const auto& p : {dir / "www", dir / ".." / "share" / "klinzha" / "www"})
        if (std::filesystem::is_regular_file(p / "index.html")) return p.lexically_normal();
    return (dir / "www").string();
}

gui::Server* g_server = nullptr;

/// The command line's options; their defaults come from scfg and limits.
po::options_description gui_options(const gui::ServerConfig& scfg, const gui::LobbyLimits& limits) {
    po::options_description opts(
        "klinzha-gui: rooms where people and engines play Klin Zha and Romulan Heart in the "
        "browser (docs/gui.md)");
    opts.add_options()("help,h", "show this help")("version", "print the version")(
        "host", po::value<std::string>()->default_value("127.0.0.1"),
        "address to listen on (beyond 127.0.0.1: see docs/gui.md, put it behind TLS)")(
        "port", po::value<int>()->default_value(8080), "port to listen on (0: any free port)")(
        "engine", po::value<std::vector<std::string>>(),
        "NAME=COMMAND: an engine rooms may use (repeat); default: klinzha=<the klinzha beside "
        "this program>")("www", po::value<std::string>(),
                         "folder of the page's files (default: www beside this program, else "
                         "../share/klinzha/www)")(
        "db", po::value<std::string>(),
        "the rooms' SQLite file (default: $XDG_DATA_HOME/klinzha/gui.sqlite3, else "
        "~/.local/share/klinzha/gui.sqlite3; :memory: keeps nothing)")(
        "allow-origin", po::value<std::vector<std::string>>(),
        "another origin that may open /ws, e.g. https://klinzha.example.org (a reverse proxy; "
        "repeat)")("allow-host", po::value<std::vector<std::string>>(),
                   "another host name requests may name (a reverse proxy's; repeat)")(
        "page-option", po::value<std::vector<std::string>>(),
        "an engine option (spin, check or combo) pages may set besides the default ones "
        "(repeat)")("no-page-options", "pages may set no engine option")(
        "max-rooms", po::value<int>()->default_value(limits.max_open_rooms),
        "rooms waiting or playing at once")(
        "max-engines", po::value<int>()->default_value(limits.max_engine_seats),
        "engines playing in all rooms at once")(
        "max-analyses", po::value<int>()->default_value(limits.max_analyses),
        "analysis engines at once")(
        "seat-timeout", po::value<double>()->default_value(limits.seat_timeout_ms / 1000.0),
        "seconds a person's empty seat may stay empty on its turn before it loses on time")(
        "max-message", po::value<std::size_t>()->default_value(scfg.max_message_bytes),
        "bytes in one WebSocket message")(
        "rate", po::value<double>()->default_value(scfg.messages_per_second),
        "messages a second one connection may send")(
        "max-connections-per-address",
        po::value<int>()->default_value(scfg.max_connections_per_address),
        "connections at once from one address")(
        "idle-timeout", po::value<int>()->default_value(scfg.idle_timeout_s),
        "seconds a WebSocket's peer may stay silent to pings")("no-chat", "rooms have no chat")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "trace debug info warn error off");
    return opts;
}

/// Reads the server's settings and the lobby's limits from vm into scfg and limits. Returns
/// what is wrong (a port, a limit out of range, no page in --www), or nullopt.
std::optional<std::string> read_config(const po::variables_map& vm, const char* argv0,
                                       gui::ServerConfig& scfg, gui::LobbyLimits& limits) {
    const int port = vm["port"].as<int>();
    if (port < 0 || port > 65535) return "--port must be in 0..65535";
    scfg.host = vm["host"].as<std::string>();
    scfg.port = static_cast<unsigned short>(port);
    scfg.www = vm.count("www") ? vm["www"].as<std::string>() : default_www(argv0);
    if (!std::filesystem::is_regular_file(std::filesystem::path(scfg.www) / "index.html"))
        return "no index.html in the --www folder '" + scfg.www + "'";
    if (vm.count("allow-origin"))
        scfg.allow_origins = vm["allow-origin"].as<std::vector<std::string>>();
    if (vm.count("allow-host")) scfg.allow_hosts = vm["allow-host"].as<std::vector<std::string>>();
    scfg.max_message_bytes = vm["max-message"].as<std::size_t>();
    scfg.messages_per_second = vm["rate"].as<double>();
    scfg.max_connections_per_address = vm["max-connections-per-address"].as<int>();
    scfg.idle_timeout_s = vm["idle-timeout"].as<int>();
    limits.max_open_rooms = vm["max-rooms"].as<int>();
    limits.max_engine_seats = vm["max-engines"].as<int>();
    limits.max_analyses = vm["max-analyses"].as<int>();
    limits.seat_timeout_ms = static_cast<std::int64_t>(vm["seat-timeout"].as<double>() * 1000);
    limits.chat = vm.count("no-chat") == 0;
    if (scfg.max_message_bytes < 1024 || scfg.messages_per_second <= 0 ||
        scfg.max_connections_per_address < 1 || scfg.idle_timeout_s < 1 ||
        limits.max_open_rooms < 1 || limits.max_engine_seats < 0 || limits.max_analyses < 0 ||
        limits.seat_timeout_ms < 1000)
        return "a limit is out of range (--max-message at least 1024, --seat-timeout at least 1, "
               "the others positive)";
    boost::system::error_code ec;
    const auto addr = boost::asio::ip::make_address(scfg.host, ec);
    if (!ec && !addr.is_loopback())
        spdlog::warn(
            "listening on {} lets other machines in: put it behind a TLS reverse proxy "
            "(docs/gui.md) and name its public address with --allow-origin",
            scfg.host);
    return std::nullopt;
}

/// The engines rooms may use (--engine NAME=COMMAND, default the klinzha beside this
/// program), each asked for its options and filtered by the page policy (--page-option,
/// --no-page-options). An error message for a bad entry or an engine that does not answer.
std::variant<std::vector<gui::EngineEntry>, std::string> read_engines(const po::variables_map& vm,
                                                                      const char* argv0) {
    std::set<std::string> extra;
    if (vm.count("page-option"))
        for (const auto& o : vm["page-option"].as<std::vector<std::string>>()) extra.insert(o);
    std::vector<std::string> engines;
    if (vm.count("engine")) engines = vm["engine"].as<std::vector<std::string>>();
    if (engines.empty()) engines.push_back("klinzha=" + (exe_dir(argv0) / "klinzha").string());
    std::vector<gui::EngineEntry> entries;
    for (const auto& e : engines) {
        const auto eq = e.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == e.size())
            return "--engine takes NAME=COMMAND, not '" + e + "'";
        gui::EngineEntry entry;
        entry.spec.name = e.substr(0, eq);
        entry.spec.cmd = e.substr(eq + 1);
        auto opts_or_error = gui::query_engine_options(entry.spec);
        if (auto* err = std::get_if<std::string>(&opts_or_error))
            return "engine " + entry.spec.name + ": " + *err;
        entry.options = std::get<std::vector<gui::EngineOption>>(opts_or_error);
        gui::apply_page_policy(entry, extra, vm.count("no-page-options") > 0);
        entries.push_back(entry);
    }
    return entries;
}

/// Serves until SIGINT or SIGTERM, which end the server in order (rooms stay in the
/// database); SIGPIPE is ignored (a peer that went away is an error code, not a signal).
/// db_arg: the rooms' SQLite file (nullopt: Store::default_path()). Returns the exit status:
/// 0, or 1 when the store or the server cannot start.
int serve(const gui::ServerConfig& scfg, const gui::LobbyLimits& limits,
          const std::vector<gui::EngineEntry>& entries, const std::optional<std::string>& db_arg) {
    std::signal(SIGPIPE, SIG_IGN);
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
    try {
        const std::string db = db_arg ? *db_arg : gui::Store::default_path();
        gui::Store store(db);
        gui::Lobby lobby(entries, &store, limits);
        for (const auto& err : lobby.restore()) spdlog::error("{}", err);
        gui::Server server(scfg, lobby);
        g_server = &server;
        std::thread watcher([&] {
            int sig = 0;
            sigwait(&stop_signals, &sig);
            server.stop();
        });
        std::cout << "klinzha-gui: open http://"
                  << (scfg.host == "0.0.0.0" ? std::string("127.0.0.1") : scfg.host) << ":"
                  << server.port() << "/  (rooms kept in " << db << ")" << std::endl;
        server.run();
        pthread_kill(watcher.native_handle(), SIGTERM);  // (when run() ended otherwise)
        watcher.join();
    } catch (const std::exception& e) {
        std::cerr << "klinzha-gui: " << e.what() << "\n";
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    spdlog::set_default_logger(spdlog::stderr_color_mt("klinzha-gui"));
    gui::ServerConfig scfg;
    gui::LobbyLimits limits;
    const po::options_description opts = gui_options(scfg, limits);
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, opts), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "klinzha-gui: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << opts << "\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "klinzha-gui " << version() << "\n";
        return 0;
    }
    spdlog::set_level(spdlog::level::from_str(vm["log-level"].as<std::string>()));
    if (auto err = read_config(vm, argv[0], scfg, limits)) {
        std::cerr << "klinzha-gui: " << *err << "\n";
        return 2;
    }
    auto entries = read_engines(vm, argv[0]);
    if (auto* err = std::get_if<std::string>(&entries)) {
        std::cerr << "klinzha-gui: " << *err << "\n";
        return 2;
    }
    return serve(scfg, limits, std::get<std::vector<gui::EngineEntry>>(entries),
                 vm.count("db") ? std::optional(vm["db"].as<std::string>()) : std::nullopt);
}
