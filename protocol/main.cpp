// protocol/main.cpp: the `klinzha` executable. With no command it speaks the UCI dialect
// on stdin/stdout (SPEC 13). Commands: perft, perft-bench, bench, analyse. Engine options
// come from the same table as `setoption` (`--Hash 64 --GoalSafety true`).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "reference_epd.h"
#include "uci.h"

namespace po = boost::program_options;
using namespace klinzha;

namespace {

void write_stdout(std::string_view s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
}

/// Applies `Name=value` words to rules. Returns an error or nullopt.
std::optional<std::string> apply_rule_words(const std::vector<std::string>& words, Rules& r) {
    for (const auto& w : words) {
        auto eq = w.find('=');
        if (eq == std::string::npos) return "expected Name=value, not '" + w + "'";
        if (auto err = r.set(w.substr(0, eq), w.substr(eq + 1))) return err;
    }
    return std::nullopt;
}

/// Reads `["<position>"] [Name=value ...]` from args[first..]: the position (default: the
/// start position for the Players option) under the engine's rules changed by the words.
/// Prints "<command>: <error>" to standard error and returns nullopt on a bad argument.
std::optional<Position> position_from_args(uci::UciSession& s, const std::vector<std::string>& args,
                                           std::size_t first, const char* command) {
    std::size_t i = first;
    std::string fen = s.engine().players() == 3 ? kStartFen3 : kStartFen2;
    // SPEC 10: a position string has spaces (and may hold `key=value` fields); a rule word
    // `Name=value` has none.
    if (i < args.size() && args[i].find(' ') != std::string::npos) fen = args[i++];
    Rules rules = s.engine().rules();
    auto err = apply_rule_words({args.begin() + std::ptrdiff_t(i), args.end()}, rules);
    Position p;
    if (!err) err = p.set(fen, rules);
    if (err) {
        std::cerr << command << ": " << *err << "\n";
        return std::nullopt;
    }
    return p;
}

int cmd_perft(uci::UciSession& s, const std::vector<std::string>& args) {
    if (args.empty()) {
        std::cerr << "usage: klinzha perft <depth> [\"<position string>\"] [Name=value ...]\n";
        return 2;
    }
    int depth = 0;
    try {
        depth = std::stoi(args[0]);
    } catch (...) {
    }
    if (depth < 1 || depth > 12) {
        std::cerr << "perft: depth must be 1..12\n";
        return 2;
    }
    auto parsed = position_from_args(s, args, 1, "perft");
    if (!parsed) return 2;
    Position p = *parsed;
    auto t0 = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (auto& [m, n] : perft_divide(p, depth)) {
        std::cout << m << ": " << n << "\n";
        total += n;
    }
    double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "\nNodes searched: " << total << "\n";
    spdlog::info("perft {} in {:.3f} s, {:.0f} leaves/s", depth, sec, sec > 0 ? total / sec : 0.0);
    return 0;
}

int cmd_perft_bench() {
    std::istringstream in(kReferenceEpd);
    std::string line;
    std::uint64_t total = 0;
    double seconds = 0;
    int rows = 0, bad = 0;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::string fen, opts, field;
        std::getline(ls, fen, ';');
        while (!fen.empty() && fen.back() == ' ') fen.pop_back();
        std::getline(ls, opts, ';');
        Rules rules;
        std::istringstream os(opts);
        std::vector<std::string> words;
        for (std::string w; os >> w;)
            if (w != "-") words.push_back(w);
        apply_rule_words(words, rules);
        int depth = 0;
        std::uint64_t expected = 0;
        while (std::getline(ls, field, ';')) {
            std::istringstream fs(field);
            std::string d;
            std::uint64_t n = 0;
            fs >> d >> n;
            if (std::stoi(d.substr(1)) > depth) {
                depth = std::stoi(d.substr(1));
                expected = n;
            }
        }
        Position p;
        if (p.set(fen, rules)) continue;
        auto t0 = std::chrono::steady_clock::now();
        std::uint64_t n = perft(p, depth);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        total += n;
        ++rows;
        if (n != expected) {
            ++bad;
            std::cout << "MISMATCH row " << rows << " depth " << depth << ": " << n << " expected "
                      << expected << "\n";
        }
    }
    std::cout << "Positions: " << rows << "\n";
    std::cout << "Nodes searched: " << total << "\n";
    std::cout << "Time (ms): " << std::int64_t(seconds * 1000) << "\n";
    std::cout << "Nodes/second: " << std::uint64_t(seconds > 0 ? total / seconds : 0) << "\n";
    return bad ? 1 : 0;
}

int cmd_bench(uci::UciSession& s, const std::vector<std::string>& args) {
    std::string line = "bench";
    for (const auto& a : args) line += " " + a;
    s.handle_command(line);
    return 0;
}

int cmd_analyse(uci::UciSession& s, const po::variables_map& vm,
                const std::vector<std::string>& args) {
    auto parsed = position_from_args(s, args, 0, "analyse");
    if (!parsed) return 2;
    const Position root = *parsed;
    SearchLimits lim;
    if (vm.count("depth")) lim.depth = vm["depth"].as<int>();
    if (vm.count("movetime")) lim.movetime = vm["movetime"].as<int>();
    if (!lim.depth && lim.movetime < 0) lim.depth = 6;
    if (vm.count("multipv")) s.engine().set_multipv(vm["multipv"].as<int>());
    std::cout << draw_board(root) << "\n\n";
    auto algebraic_line = [&](const std::vector<Move>& pv) {
        Position p = root;
        std::string out;
        for (Move m : pv) {
            if (!is_legal(p, m)) break;
            out += (out.empty() ? "" : " ") + to_algebraic(p, m);
            p.do_move(m);
        }
        return out;
    };
    Move best_move;
    SearchCallbacks cb{[&](const SearchInfo& info) {
                           std::string score = info.mate_in ? "mate " + std::to_string(info.mate_in)
                                                            : std::to_string(info.score) + " cp";
                           std::cout << "depth " << info.depth << "  line " << info.multipv << "  "
                                     << score << "  nodes " << info.nodes << "  "
                                     << algebraic_line(info.pv) << std::endl;
                       },
                       [&](Move best, Move) { best_move = best; },
                       [&](const std::string& msg) { std::cout << msg << std::endl; }};
    s.engine().analyse(root, lim, cb);
    if (best_move.is_none())
        std::cout << "best move: none\n";
    else
        std::cout << "best move: " << to_algebraic(root, best_move) << " ("
                  << move_to_string(best_move) << ")\n";
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    auto err_logger = spdlog::stderr_color_mt("klinzha");
    spdlog::set_default_logger(err_logger);
    spdlog::set_level(spdlog::level::warn);

    po::options_description general("General");
    general.add_options()("help,h", "show this help")("version", "print the version")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "standard-error log level: trace debug info warn error off")(
        "depth", po::value<int>(), "analyse: search depth (plies)")(
        "movetime", po::value<int>(), "analyse: search time (ms)")("multipv", po::value<int>(),
                                                                   "analyse: lines to show");
    po::options_description engine_opts("Engine options (as with setoption; spaces are dashes)");
    for (const auto& o : uci::options()) {
        std::string name = uci::cli_name(o);
        if (o.type == uci::Option::Type::Button) continue;
        engine_opts.add_options()(name.c_str(), po::value<std::string>(),
                                  (o.help + " (default " + o.default_value + ")").c_str());
    }
    po::options_description hidden;
    hidden.add_options()("command", po::value<std::string>())(
        "args", po::value<std::vector<std::string>>());
    po::positional_options_description positional;
    positional.add("command", 1).add("args", -1);
    po::options_description all;
    all.add(general).add(engine_opts).add(hidden);

    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv)
                      .options(all)
                      .positional(positional)
                      .style(po::command_line_style::default_style |
                             po::command_line_style::case_insensitive)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "klinzha: " << e.what() << "\n(try --help)\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "klinzha " << KLINZHA_VERSION
                  << ": an engine for Klin Zha and Romulan Heart (UCI dialect)\n\n"
                     "usage: klinzha [options]                      UCI on stdin/stdout\n"
                     "       klinzha [options] perft <d> [\"<position>\"] [Name=value ...]\n"
                     "       klinzha perft-bench                    perft speed on reference data\n"
                     "       klinzha [options] bench [depth]        fixed searches, node count\n"
                     "       klinzha [options] analyse [\"<position>\"] [--depth N | --movetime MS]"
                     " [--multipv N] [Name=value ...]\n\n"
                  << general << "\n"
                  << engine_opts << "\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "klinzha " << KLINZHA_VERSION << "\n";
        return 0;
    }
    auto level = spdlog::level::from_str(vm["log-level"].as<std::string>());
    spdlog::set_level(level);

    uci::UciSession session(write_stdout);
    for (const auto& o : uci::options()) {
        std::string name = uci::cli_name(o);
        if (!vm.count(name)) continue;
        auto r = session.set_option(o.name, vm[name].as<std::string>());
        if (!r.ok) {
            std::cerr << "klinzha: --" << name << ": " << r.message << "\n";
            return 2;
        }
    }
    std::string command = vm.count("command") ? vm["command"].as<std::string>() : "";
    std::vector<std::string> args =
        vm.count("args") ? vm["args"].as<std::vector<std::string>>() : std::vector<std::string>{};
    if (command.empty()) {
        session.loop(std::cin);
        return 0;
    }
    if (command == "perft") return cmd_perft(session, args);
    if (command == "perft-bench") return cmd_perft_bench();
    if (command == "bench") return cmd_bench(session, args);
    if (command == "analyse" || command == "analyze") return cmd_analyse(session, vm, args);
    std::cerr << "klinzha: unknown command '" << command << "' (try --help)\n";
    return 2;
}
