// tools/gui/main.cpp: klinzha-gui, the board in the browser (docs/gui.md). Starts the web
// server on 127.0.0.1 and prints the address to open. Engines are only those named here.
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "server.h"

namespace po = boost::program_options;
using namespace klinzha;

namespace {

/// The folder beside the executable that holds `klinzha` (the default engine).
std::filesystem::path exe_dir(const char* argv0) {
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) p = std::filesystem::absolute(argv0);
    return p.parent_path();
}

}  // namespace

int main(int argc, char** argv) {
    spdlog::set_default_logger(spdlog::stderr_color_mt("klinzha-gui"));
    po::options_description opts(
        "klinzha-gui: play and analyse Klin Zha and Romulan Heart in the browser");
    opts.add_options()("help,h", "show this help")(
        "host", po::value<std::string>()->default_value("127.0.0.1"), "address to listen on")(
        "port", po::value<int>()->default_value(8080), "port to listen on (0: any free port)")(
        "engine", po::value<std::vector<std::string>>(),
        "NAME=COMMAND: an engine the page may use (repeat); default: klinzha=<the klinzha beside "
        "this program>")("www", po::value<std::string>()->default_value(KLINZHA_GUI_WWW),
                         "folder of the page's files")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "trace debug info warn error off");
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
    spdlog::set_level(spdlog::level::from_str(vm["log-level"].as<std::string>()));
    const int port = vm["port"].as<int>();
    if (port < 0 || port > 65535) {
        std::cerr << "klinzha-gui: --port must be in 0..65535\n";
        return 2;
    }
    gui::ServerConfig cfg;
    cfg.host = vm["host"].as<std::string>();
    cfg.port = static_cast<unsigned short>(port);
    cfg.www = vm["www"].as<std::string>();
    if (!std::filesystem::is_regular_file(std::filesystem::path(cfg.www) / "index.html")) {
        std::cerr << "klinzha-gui: no index.html in --www folder '" << cfg.www << "'\n";
        return 2;
    }
    std::vector<std::string> engines;
    if (vm.count("engine")) engines = vm["engine"].as<std::vector<std::string>>();
    if (engines.empty()) engines.push_back("klinzha=" + (exe_dir(argv[0]) / "klinzha").string());
    for (const auto& e : engines) {
        const auto eq = e.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == e.size()) {
            std::cerr << "klinzha-gui: --engine takes NAME=COMMAND, not '" << e << "'\n";
            return 2;
        }
        gui::EngineEntry entry;
        entry.spec.name = e.substr(0, eq);
        entry.spec.cmd = e.substr(eq + 1);
        auto opts_or_error = gui::query_engine_options(entry.spec);
        if (auto* err = std::get_if<std::string>(&opts_or_error)) {
            std::cerr << "klinzha-gui: engine " << entry.spec.name << ": " << *err << "\n";
            return 2;
        }
        entry.options = std::get<std::vector<gui::EngineOption>>(opts_or_error);
        cfg.engines.push_back(entry);
    }
    std::signal(SIGPIPE, SIG_IGN);
    try {
        gui::Server server(cfg);
        std::cout << "klinzha-gui: open http://" << cfg.host << ":" << server.port() << "/"
                  << std::endl;
        server.run();
    } catch (const std::exception& e) {
        std::cerr << "klinzha-gui: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
