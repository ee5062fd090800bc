// protocol/main.cpp: the `klinzha` executable. With no command it speaks the UCI dialect
// on stdin/stdout (SPEC 13). Commands: perft, perft-bench, bench, svg, analyse (a position,
// or a record with --record), replay (docs/protocol.md "Command line"). Engine options come
// from the same table as `setoption` (`--Hash 64 --GoalSafety true`).
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "engine/game.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "engine/record.h"
#include "engine/svg.h"
#include "engine/version.h"
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
    if (i < args.size() && args[i].find('=') == std::string::npos) {
        std::cerr << command << ": '" << args[i]
                  << "' is neither a position string (SPEC 10, in quotes: its fields are "
                     "separated by spaces, e.g. \"2 - - - g place 0 1\") nor a rule option "
                     "Name=value\n";
        return std::nullopt;
    }
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

/// The cells a move string names (SPEC 9: `e48e38`, `e48e38h`, `Qi77`, `Hi77`), read without
/// a position, for outlining: a play move for two cells, a placement for one.
std::optional<Move> parse_move_syntax(const std::string& text) {
    std::vector<Cell> cells;
    for (std::size_t i = 0; i + 3 <= text.size(); ++i)
        if (auto c = geo::parse_cell(text.substr(i, 3))) {
            cells.push_back(*c);
            i += 2;
        }
    if (cells.size() == 2) return Move::normal(cells[0], cells[1], false);
    if (cells.size() == 1) return Move::place_heart(cells[0]);
    return std::nullopt;
}

/// `klinzha svg`: the picture of a position (engine/svg.h) on standard output or -o FILE.
/// Exit status 2 with a message on a bad position, move, view or file.
int cmd_svg(uci::UciSession& s, const po::variables_map& vm, const std::vector<std::string>& args) {
    auto parsed = position_from_args(s, args, 0, "svg");
    if (!parsed) return 2;
    SvgOptions o;
    o.names = vm.count("names") > 0;
    if (const auto view = parse_colour(vm["view"].as<std::string>()))
        o.view = *view;
    else {
        std::cerr << "svg: --view takes g, b or k\n";
        return 2;
    }
    if (vm.count("last-move")) {
        // The move is read in the position before it: it need not be legal in this one.
        const std::string text = vm["last-move"].as<std::string>();
        auto m = parse_move_syntax(text);
        if (!m) {
            std::cerr << "svg: --last-move: '" << text << "' is not a move (SPEC 9)\n";
            return 2;
        }
        o.last_move = *m;
    }
    const std::string svg = board_svg(*parsed, o);
    if (!vm.count("output")) {
        std::cout << svg;
        return 0;
    }
    std::ofstream out(vm["output"].as<std::string>());
    if (!(out << svg)) {
        std::cerr << "svg: cannot write " << vm["output"].as<std::string>() << "\n";
        return 2;
    }
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
    s.wait_task();
    return 0;
}

/// The moves of pv from root in algebraic notation, separated by spaces, up to the first
/// move that is not legal there (SPEC 11). A pass of three-player Best-Reply Search (the
/// null move) is written `--`, as PGN readers write a null move.
std::string algebraic_line(const Position& root, const std::vector<Move>& pv) {
    Position p = root;
    std::string out;
    for (Move m : pv) {
        const bool pass = m == Move::null() && p.phase() == Phase::Play && !p.game_over();
        if (!pass && !is_legal(p, m)) break;
        out += (out.empty() ? "" : " ") + (pass ? std::string("--") : to_algebraic(p, m));
        p.do_move(m);
    }
    return out;
}

/// `analyse`'s limits from --depth (plies, 1..kMaxDepth) and --movetime (ms, at least 1), or
/// `default_depth` when neither is given. Returns an error (a bad or doubled limit).
std::optional<std::string> analyse_limits(const po::variables_map& vm, int default_depth,
                                          SearchLimits& lim) {
    constexpr int kMaxDepth = 100;
    if (vm.count("depth") && vm.count("movetime")) return "give --depth or --movetime, not both";
    if (vm.count("depth")) {
        lim.depth = vm["depth"].as<int>();
        if (lim.depth < 1 || lim.depth > kMaxDepth)
            return "--depth must be 1.." + std::to_string(kMaxDepth) + " plies, not " +
                   std::to_string(lim.depth);
    }
    if (vm.count("movetime")) {
        lim.movetime = vm["movetime"].as<int>();
        if (lim.movetime < 1)
            return "--movetime must be at least 1 ms, not " + std::to_string(lim.movetime);
    }
    if (!lim.depth && lim.movetime < 0) lim.depth = default_depth;
    return std::nullopt;
}

int cmd_analyse(uci::UciSession& s, const po::variables_map& vm,
                const std::vector<std::string>& args) {
    auto parsed = position_from_args(s, args, 0, "analyse");
    if (!parsed) return 2;
    const Position root = *parsed;
    SearchLimits lim;
    if (auto err = analyse_limits(vm, 6, lim)) {
        std::cerr << "analyse: " << *err << "\n";
        return 2;
    }
    std::cout << draw_board(root) << "\n\n";
    Move best_move;
    SearchCallbacks cb{[&](const SearchInfo& info) {
                           std::string score = info.mate_in ? "mate " + std::to_string(info.mate_in)
                                                            : std::to_string(info.score) + " cp";
                           std::cout << "depth " << info.depth << "  line " << info.multipv << "  "
                                     << score << "  nodes " << info.nodes << "  "
                                     << algebraic_line(root, info.pv) << std::endl;
                       },
                       [&](Move best, Move) { best_move = best; },
                       [&](const std::string& msg) { std::cout << msg << std::endl; },
                       {}};
    s.engine().analyse(root, lim, cb);
    if (best_move.is_none())
        std::cout << "best move: none\n";
    else
        std::cout << "best move: " << to_algebraic(root, best_move) << " ("
                  << move_to_string(best_move) << ")\n";
    return 0;
}

/// Opens FILE, or standard input for "-". Returns nullptr (after a message) if it cannot.
std::unique_ptr<std::istream> open_input(const std::string& name, const char* command) {
    if (name == "-") return std::make_unique<std::istream>(std::cin.rdbuf());
    auto f = std::make_unique<std::ifstream>(name);
    if (!*f) {
        std::cerr << command << ": cannot read '" << name << "'\n";
        return nullptr;
    }
    return f;
}

/// `klinzha replay FILE|- [--final] [--lenient]` (record.h): each game's position string
/// after every move. Exit 0 when every game replays, 1 when one fails, 2 on bad usage.
int cmd_replay(uci::UciSession& s, const po::variables_map& vm,
               const std::vector<std::string>& args) {
    if (args.size() != 1) {
        std::cerr << "usage: klinzha replay FILE|- [--final] [--lenient]\n";
        return 2;
    }
    auto in = open_input(args[0], "replay");
    if (!in) return 2;
    const bool final_only = vm.count("final") > 0, lenient = vm.count("lenient") > 0;
    int failed = 0, n = 0;
    for (const RecordGame& g : read_records(*in)) {
        ++n;
        Replay r = replay(g, s.engine().rules(), s.engine().players(), lenient);
        std::cout << "game " << n << "\n";
        if (!final_only) {
            std::cout << "start " << r.start.fen() << "\n";
            for (std::size_t i = 0; i < r.fens.size(); ++i)
                std::cout << r.moves[i] << " " << r.fens[i] << "\n";
        } else {
            std::cout << (r.fens.empty() ? r.start.fen() : r.fens.back()) << "\n";
        }
        if (!r.error.empty()) {
            std::cerr << "replay: game " << n << " (line " << g.line << "): " << r.error << "\n";
            ++failed;
        }
    }
    return failed ? 1 : 0;
}

/// Scores in centi-pawns for comparing moves: mate scores become +-(30000 - plies).
int comparable(const SearchInfo& info) {
    if (!info.mate_in) return info.score;
    return info.mate_in > 0 ? 30000 - info.mate_in : -30000 - info.mate_in;
}

std::string show_score(int cp) {
    if (cp > 20000) return "#" + std::to_string(30000 - cp);
    if (cp < -20000) return "#-" + std::to_string(30000 + cp);
    char b[32];
    std::snprintf(b, sizeof b, "%+.2f", cp / 100.0);
    return b;
}

/// The engine's view of one move (`analyse --record`): the best line found and the scores
/// of the best and of the played move, both from the mover's point of view (centi-pawns,
/// mates as +-(30000 - plies)), and what the played move loses.
struct MoveAnalysis {
    int best = 0, played = 0, lost = 0;
    std::string line;  ///< the best line in algebraic notation (SPEC 11), "" for none
};

/// Searches `pos` under `lim` twice, all moves and the played one alone (SearchLimits::
/// searchmoves). Setup-phase scores come from the setup planner and lose nothing (docs).
MoveAnalysis analyse_move(uci::UciSession& s, const SearchLimits& lim, const Position& pos,
                          Move played) {
    auto search = [&](std::vector<Move> only) {
        SearchLimits l = lim;
        l.searchmoves = std::move(only);
        SearchInfo last;
        s.engine().set_multipv(1);
        s.engine().analyse(pos, l,
                           {[&](const SearchInfo& i) { last = i; },
                            [](Move, Move) {},
                            [](const std::string&) {},
                            {}});
        return last;
    };
    SearchInfo best = search({});
    const SearchInfo mine = search({played});
    // The played move's own search may see further than the whole search did (a search is
    // not exact): then the played move is the best one found.
    if (comparable(mine) > comparable(best)) best = mine;
    MoveAnalysis a{comparable(best), comparable(mine), 0, algebraic_line(pos, best.pv)};
    const bool was_best = !best.pv.empty() && best.pv[0] == played;
    if (pos.phase() == Phase::Play && !was_best) a.lost = std::max(0, a.best - a.played);
    return a;
}

/// `klinzha analyse --record FILE [--depth N | --movetime MS] [--annotate]`: the engine's
/// view of every move of each game (SPEC 11 notation): its score before the move, the score
/// of the move played (both from the mover's point of view, a search restricted to that
/// move), its best move and line, and a mark when the played move loses 50 (inaccuracy),
/// 100 (mistake) or 200 centi-pawns (blunder) or more. Ends with a summary per player. With
/// --annotate it prints the record again (its tags, then the Game's movetext, engine/game.h)
/// with these as a NAG and a comment after each move, which `replay` reads back.
int cmd_analyse_record(uci::UciSession& s, const po::variables_map& vm, const std::string& file) {
    auto in = open_input(file, "analyse");
    if (!in) return 2;
    SearchLimits lim;
    if (auto err = analyse_limits(vm, 4, lim)) {
        std::cerr << "analyse: " << *err << "\n";
        return 2;
    }
    const bool annotate = vm.count("annotate") > 0;
    int failed = 0, n = 0;
    for (const RecordGame& g : read_records(*in)) {
        ++n;
        const Replay r = replay(g, s.engine().rules(), s.engine().players(), true);
        if (!r.error.empty()) {
            std::cerr << "analyse: game " << n << ": " << r.error << "\n";
            ++failed;
        }
        Game game = game_from_record(g, r);
        Position pos = r.start;
        AnalysisTally tally;
        std::size_t next_removal = 0;
        if (!annotate) std::cout << "game " << n << "\n";
        for (std::size_t i = 0; i < game.moves.size(); ++i) {
            for (; next_removal < game.removals.size() &&
                   game.removals[next_removal].before_move == i;
                 ++next_removal)
                pos.eliminate_to_move();
            PlayedMove& pm = game.moves[i];
            const Move played = std::get<Move>(parse_played_move(pos, pm.move));  // read once
            const MoveAnalysis a = analyse_move(s, lim, pos, played);
            const int grade = move_grade(a.lost);
            tally.add(pm.mover, grade, a.lost, pos.phase() == Phase::Play);
            if (!annotate)
                std::cout << (pos.phase() == Phase::Play ? std::to_string(pos.fullmove())
                                                         : std::string("setup"))
                          << " " << kColourChar[pm.mover] << " " << pm.algebraic << "  before "
                          << show_score(a.best) << "  played " << show_score(a.played) << "  best "
                          << (a.line.empty() ? std::string("-")
                                             : a.line.substr(0, a.line.find(' ')))
                          << "  line " << a.line
                          << (grade ? std::string("  ") + kGradeWords[grade] : "") << "\n";
            pm.annotation = {kGradeNags[grade], show_score(a.played) + " best " +
                                                    show_score(a.best) +
                                                    (a.line.empty() ? "" : " " + a.line)};
            pos.do_move(played);
        }
        const std::string summary = tally.summary(pos.players());
        if (!annotate) std::cout << "summary " << summary << "\n";
        if (annotate) {
            game.lead_comment = "klinzha analysis: " + summary;
            std::cout << write_tags(g.tags, g.tag_order) << "\n" << game.movetext() << "\n";
        }
    }
    return failed ? 1 : 0;
}

/// The general options of the command line (the log level, and those of analyse, replay and
/// svg).
po::options_description general_options() {
    po::options_description general("General");
    general.add_options()("help,h", "show this help")("version", "print the version")(
        "log-level", po::value<std::string>()->default_value("warn"),
        "standard-error log level: trace debug info warn error off")(
        "depth", po::value<int>(), "analyse: search depth (plies)")("movetime", po::value<int>(),
                                                                    "analyse: search time (ms)")(
        "record", po::value<std::string>(), "analyse: a game record file (or -) to analyse")(
        "annotate", "analyse --record: print the record again with the analysis as comments")(
        "final", "replay: print only each game's final position")(
        "lenient", "replay: try each reading of an ambiguous token (SPEC 11.2)")(
        "last-move", po::value<std::string>(), "svg: outline this move (SPEC 9 string)")(
        "names", "svg: write every cell's name")("view",
                                                 po::value<std::string>()->default_value("k"),
                                                 "svg: whose region is at the bottom: g, b or k")(
        "output,o", po::value<std::string>(), "svg: write to this file instead of standard output");
    return general;
}

/// Every UCI option but the buttons as a command-line option (`--Hash 64`; uci::cli_name).
po::options_description engine_options() {
    po::options_description engine_opts("Engine options (as with setoption; spaces are dashes)");
    for (const auto& o : uci::options()) {
        std::string name = uci::cli_name(o);
        if (o.type == uci::Option::Type::Button) continue;
        engine_opts.add_options()(name.c_str(), po::value<std::string>(),
                                  (o.help + " (default " + o.default_value + ")").c_str());
    }
    return engine_opts;
}

/// Prints --help: the usage of each command, then the two groups of options.
void print_help(const po::options_description& general,
                const po::options_description& engine_opts) {
    std::cout << "klinzha " << version()
              << ": an engine for Klin Zha and Romulan Heart (UCI dialect)\n\n"
                 "usage: klinzha [options]                      UCI on stdin/stdout\n"
                 "       klinzha [options] perft <d> [\"<position>\"] [Name=value ...]\n"
                 "       klinzha perft-bench                    perft speed on reference data\n"
                 "       klinzha [options] bench [depth]        fixed searches, node count\n"
                 "       klinzha [options] analyse [\"<position>\"] [--depth N | --movetime MS]"
                 " [--MultiPV N] [Name=value ...]\n"
                 "       klinzha [options] analyse --record FILE|- [--depth N | --movetime MS]"
                 " [--annotate]\n"
                 "       klinzha [options] replay FILE|- [--final] [--lenient]\n"
                 "       klinzha svg [\"<position>\"] [--last-move MOVE] [--names] [--view g|b|k]"
                 " [-o FILE] [Name=value ...]\n\n"
              << general << "\n"
              << engine_opts << "\n";
}

/// Runs the command named on the command line (none: the UCI loop on standard input) with
/// its arguments; returns the exit status (2 for an unknown command or bad arguments).
int run_command(uci::UciSession& session, const po::variables_map& vm) {
    const std::string command = vm.count("command") ? vm["command"].as<std::string>() : "";
    std::vector<std::string> args =
        vm.count("args") ? vm["args"].as<std::vector<std::string>>() : std::vector<std::string>{};
    if (command.empty()) {
        session.loop(std::cin);
        return 0;
    }
    if (command == "perft") return cmd_perft(session, args);
    if (command == "perft-bench") return cmd_perft_bench();
    if (command == "bench") return cmd_bench(session, args);
    if (command == "replay") return cmd_replay(session, vm, args);
    if (command == "svg") return cmd_svg(session, vm, args);
    if ((command == "analyse" || command == "analyze") && vm.count("record")) {
        if (!args.empty()) {
            std::cerr << "analyse: --record takes no position\n";
            return 2;
        }
        return cmd_analyse_record(session, vm, vm["record"].as<std::string>());
    }
    if (command == "analyse" || command == "analyze") return cmd_analyse(session, vm, args);
    std::cerr << "klinzha: unknown command '" << command << "' (try --help)\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    auto err_logger = spdlog::stderr_color_mt("klinzha");
    spdlog::set_default_logger(err_logger);
    spdlog::set_level(spdlog::level::warn);

    const po::options_description general = general_options();
    const po::options_description engine_opts = engine_options();
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
        print_help(general, engine_opts);
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "klinzha " << version() << "\n";
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
    return run_command(session, vm);
}
