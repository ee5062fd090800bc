// protocol/uci.cpp: see uci.h. Source: SPEC 13.
#include "uci.h"

#include <thread>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <istream>
#include <sstream>

#include "engine/combat.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/version.h"
#include "eval/evaluate.h"

namespace klinzha::uci {

void OutputSink::line(std::string_view s) {
    std::lock_guard lock(mutex_);
    std::string l(s);
    l += '\n';
    write_(l);
    if (log_) log_->info(">> {}", s);
}

void OutputSink::log_input(std::string_view s) {
    std::lock_guard lock(mutex_);
    if (log_) log_->info("<< {}", s);
}

std::optional<std::string> OutputSink::set_log_file(const std::string& path) {
    std::lock_guard lock(mutex_);
    if (path.empty() || path == "<empty>") {
        if (log_) log_->flush();
        log_.reset();
        return std::nullopt;
    }
    // spdlog would create missing folders: a path whose folder does not exist is an error.
    const auto parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
        return "cannot open debug log file '" + path + "': folder '" + parent.string() +
               "' does not exist";
    try {
        auto sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(path, false);
        auto logger = std::make_shared<spdlog::logger>("protocol", sink);
        logger->set_pattern("[%Y-%m-%d %H:%M:%S.%e] %v");
        logger->set_level(spdlog::level::info);
        logger->flush_on(spdlog::level::info);
        log_ = logger;
    } catch (const spdlog::spdlog_ex& e) {
        return "cannot open debug log file '" + path + "': " + e.what();
    }
    return std::nullopt;
}

namespace {

std::vector<std::string> tokenize(std::string_view line) {
    std::vector<std::string> t;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        std::size_t j = i;
        while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
        if (j > i) t.emplace_back(line.substr(i, j - i));
        i = j;
    }
    return t;
}

std::optional<std::int64_t> parse_i64(const std::string& s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string printable(std::string_view s) {
    std::string out;
    for (char c : s.substr(0, 60)) out += (c >= 32 && c < 127) ? c : '?';
    if (s.size() > 60) out += "...";
    return out;
}

}  // namespace

std::string info_line(const SearchInfo& i) {
    std::ostringstream o;
    o << "info depth " << i.depth << " seldepth " << i.seldepth << " multipv " << i.multipv
      << " score ";
    if (i.mate_in)
        o << "mate " << i.mate_in;
    else
        o << "cp " << i.score;
    if (i.bound == BOUND_LOWER) o << " lowerbound";
    if (i.bound == BOUND_UPPER) o << " upperbound";
    std::int64_t nps = i.time_ms > 0 ? std::int64_t(i.nodes * 1000 / std::uint64_t(i.time_ms)) : 0;
    o << " nodes " << i.nodes << " nps " << nps << " time " << i.time_ms << " hashfull "
      << i.hashfull << " pv";
    for (Move m : i.pv) o << ' ' << move_to_string(m);
    return o.str();
}

UciSession::UciSession(OutputSink::Writer write)
    : sink_(std::move(write)),
      engine_(std::make_unique<Engine>(SearchCallbacks{
          [this](const SearchInfo& i) { sink_.line(info_line(i)); },
          [this](Move best, Move ponder) {
              std::string s =
                  "bestmove " + (best.is_none() ? std::string("0000") : move_to_string(best));
              if (!ponder.is_none()) s += " ponder " + move_to_string(ponder);
              sink_.line(s);
          },
          [this](const std::string& s) { sink_.line("info string " + s); },
          [this](const SearchProgress& p) {
              std::ostringstream o;
              o << "info depth " << p.depth;
              if (!p.currmove.is_none())
                  o << " currmove " << move_to_string(p.currmove) << " currmovenumber "
                    << p.currmovenumber;
              const auto nps = p.time_ms > 0 ? p.nodes * 1000 / std::uint64_t(p.time_ms) : 0;
              o << " nodes " << p.nodes << " nps " << nps << " time " << p.time_ms << " hashfull "
                << p.hashfull;
              sink_.line(o.str());
          }})),
      ctx_{*engine_, [this](const std::string& p) { return sink_.set_log_file(p); }} {}

UciSession::~UciSession() {
    stop_all();
}

void UciSession::stop_all() {
    task_stop_ = true;
    engine_->stop();
    if (task_.joinable()) task_.join();
    engine_->wait();
}

void UciSession::run_task(std::function<std::string()> fn) {
    if (task_.joinable()) task_.join();
    task_stop_ = false;
    task_running_ = true;
    task_ = std::thread([this, fn = std::move(fn)] {
        const std::string last = fn();
        task_running_ = false;  // before the last line: the next `go` may follow it at once
        sink_.line(last);
    });
}

void UciSession::error(const std::string& what) {
    // What an error quotes is cut, so a huge bad token never comes back whole.
    constexpr std::size_t kMax = 300;
    sink_.line("info string error: " +
               (what.size() > kMax ? what.substr(0, kMax) + "... (cut)" : what));
}

OptionResult UciSession::set_option(std::string_view name, std::string_view value) {
    return klinzha::uci::set_option(ctx_, name, value);
}

void UciSession::loop(std::istream& in) {
    std::string line;
    while (std::getline(in, line))
        if (!handle_command(line)) return;
    stop_all();
}

bool UciSession::handle_command(std::string_view line) {
    sink_.log_input(line);
    auto t = tokenize(line);
    if (t.empty()) return true;
    const std::string& cmd = t[0];
    spdlog::debug("command: {}", printable(line));
    if (cmd == "quit") {
        stop_all();
        return false;
    }
    if (cmd == "isready") {
        sink_.line("readyok");
    } else if (cmd == "uci") {
        cmd_uci();
    } else if (cmd == "stop") {
        task_stop_ = true;
        engine_->stop();
    } else if (cmd == "ponderhit") {
        engine_->ponderhit();
    } else if (cmd == "debug") {
        if (t.size() != 2 || (t[1] != "on" && t[1] != "off")) error("debug takes on or off");
    } else if (cmd == "ucinewgame") {
        if (task_running_) {  // bench uses the table that ucinewgame clears: end it first
            task_stop_ = true;
            engine_->stop();
            wait_task();
        }
        engine_->new_game();
    } else if (cmd == "setoption") {
        cmd_setoption(t);
    } else if (cmd == "position") {
        cmd_position(t);
    } else if (cmd == "go") {
        cmd_go(t);
    } else if (cmd == "d") {
        const Position& p = engine_->position();
        std::istringstream board(engine_->blind_view() ? engine_->blind_view()->describe()
                                                       : draw_board(p));
        for (std::string l; std::getline(board, l);) sink_.line(l);
        sink_.line("Fen: " + p.fen());
        char key[32];
        std::snprintf(key, sizeof key, "%016llX", static_cast<unsigned long long>(p.key()));
        sink_.line(std::string("Key: ") + key);
    } else if (cmd == "eval") {
        std::istringstream tr(eval::trace(engine_->position()));
        for (std::string l; std::getline(tr, l);) sink_.line(l);
    } else if (cmd == "bench") {
        cmd_bench(t);
    } else if (cmd == "combat") {
        cmd_combat(t);
    } else {
        error("unknown command '" + printable(cmd) + "'");
    }
    return true;
}

// SPEC 26: `combat <A> <D>` prints the exact outcome of a fight (engine extension).
void UciSession::cmd_combat(const std::vector<std::string>& t) {
    if (t.size() != 3)
        return error("combat: expected 'combat <attacker> <defender>', e.g. 'combat N140 Q96h'");
    auto a = combat::parse_fighter(t[1]);
    if (auto* e = std::get_if<std::string>(&a)) return error("combat: attacker " + printable(*e));
    auto d = combat::parse_fighter(t[2]);
    if (auto* e = std::get_if<std::string>(&d)) return error("combat: defender " + printable(*e));
    const auto& fa = std::get<combat::Fighter>(a);
    const auto& fd = std::get<combat::Fighter>(d);
    if (auto e = combat::check(fa, fd)) return error("combat: " + *e);
    std::istringstream out(combat::format(combat::exact(fa, fd)));
    for (std::string l; std::getline(out, l);) sink_.line(l);
}

void UciSession::cmd_uci() {
    sink_.line(std::string("id name klinzha ") + version());
    sink_.line("id author the klinzha developers");
    for (const auto& o : options()) sink_.line(option_line(o));
    sink_.line("uciok");
}

void UciSession::cmd_setoption(const std::vector<std::string>& t) {
    if (busy()) return error("setoption: not while searching (send stop first)");
    if (t.size() < 3 || t[1] != "name")
        return error("setoption: expected 'setoption name <name> [value <v>]'");
    std::string name, value;
    std::size_t i = 2;
    for (; i < t.size() && t[i] != "value"; ++i) name += (name.empty() ? "" : " ") + t[i];
    bool has_value = i < t.size();
    for (++i; i < t.size(); ++i) value += (value.empty() ? "" : " ") + t[i];
    const Option* o = find_option(name);
    if (!o) return error("setoption: unknown option '" + printable(name) + "'");
    if (o->type != Option::Type::Button && o->type != Option::Type::String &&
        (!has_value || value.empty()))
        return error("setoption: option " + o->name + " needs a value");
    auto r = set_option(name, value);
    if (!r.ok) return error("setoption: " + r.message);
    if (!r.message.empty()) sink_.line("info string " + r.message);
}

void UciSession::cmd_position(const std::vector<std::string>& t) {
    if (t.size() < 2) return error("position: expected 'startpos' or 'fen <8 fields>'");
    // SPEC 25: `position blind <colour> (startpos | fen <string>) [moves ...] [refused ...]`.
    const bool blind = t[1] == "blind";
    Colour viewer = NO_COLOUR;
    std::size_t i = 1;
    if (blind) {
        if (t.size() < 3)
            return error("position blind: expected 'position blind <colour> startpos|fen ...'");
        for (int c = 0; c < kColours; ++c)
            if (t[2] == std::string(1, kColourChar[c])) viewer = Colour(c);
        if (viewer == NO_COLOUR)
            return error("position blind: the colour must be g, b or k, not '" + printable(t[2]) +
                         "'");
        i = 3;
        if (i >= t.size())
            return error("position blind: expected 'startpos' or 'fen' after the colour");
    }
    std::optional<std::string> fen;
    if (t[i] == "startpos") {
        ++i;
    } else if (t[i] == "fen") {
        std::string f;
        for (++i; i < t.size() && t[i] != "moves" && !(blind && t[i] == "refused"); ++i)
            f += (f.empty() ? "" : " ") + t[i];
        if (f.empty()) return error("position: fen needs a position string (8 fields)");
        fen = f;
    } else {
        return error("position: expected 'startpos' or 'fen', not '" + printable(t[i]) + "'");
    }
    std::vector<std::string> moves, refused;
    if (i < t.size() && t[i] == "moves")
        for (++i; i < t.size() && !(blind && t[i] == "refused"); ++i) moves.push_back(t[i]);
    if (blind && i < t.size() && t[i] == "refused")
        for (++i; i < t.size(); ++i) refused.push_back(t[i]);
    if (i < t.size())
        return error(std::string("position: expected ") +
                     (blind ? "'moves' or 'refused'" : "'moves'") + ", not '" + printable(t[i]) +
                     "'");
    auto err = blind ? engine_->set_blind_position(viewer, fen, moves, refused)
                     : engine_->set_position(fen, moves);
    position_rejected_ = err.has_value();
    if (err) error(*err);
}

namespace {

constexpr std::int64_t kMaxMs = std::int64_t(1) << 40;

/// A numeric `go` parameter (SPEC 13): its names, allowed range and where it goes.
struct GoNumber {
    const char* names[2];
    std::int64_t lo, hi;
    void (*store)(SearchLimits&, std::int64_t);
};

// Clock times may arrive negative from some GUIs: they are taken as 0.
const GoNumber kGoNumbers[] = {
    {{"gtime", "wtime"},
     -kMaxMs,
     kMaxMs,
     [](SearchLimits& l, std::int64_t v) { l.time[GREEN] = std::max<std::int64_t>(0, v); }},
    {{"btime", nullptr},
     -kMaxMs,
     kMaxMs,
     [](SearchLimits& l, std::int64_t v) { l.time[BLUE] = std::max<std::int64_t>(0, v); }},
    {{"ktime", nullptr},
     -kMaxMs,
     kMaxMs,
     [](SearchLimits& l, std::int64_t v) { l.time[BLACK] = std::max<std::int64_t>(0, v); }},
    {{"ginc", "winc"}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.inc[GREEN] = v; }},
    {{"binc", nullptr}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.inc[BLUE] = v; }},
    {{"kinc", nullptr}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.inc[BLACK] = v; }},
    {{"gdelay", "wdelay"}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.delay[GREEN] = v; }},
    {{"bdelay", nullptr}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.delay[BLUE] = v; }},
    {{"kdelay", nullptr}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.delay[BLACK] = v; }},
    {{"movestogo", nullptr},
     0,
     100000,
     [](SearchLimits& l, std::int64_t v) { l.movestogo = int(v); }},
    {{"movetime", nullptr}, 0, kMaxMs, [](SearchLimits& l, std::int64_t v) { l.movetime = v; }},
    {{"depth", nullptr}, 1, 100, [](SearchLimits& l, std::int64_t v) { l.depth = int(v); }},
    {{"nodes", nullptr},
     1,
     std::int64_t(1) << 50,
     [](SearchLimits& l, std::int64_t v) { l.nodes = std::uint64_t(v); }},
    {{"mate", nullptr}, 1, 100, [](SearchLimits& l, std::int64_t v) { l.mate = int(v); }},
    {{"perft", nullptr}, 1, 12, [](SearchLimits& l, std::int64_t v) { l.perft = int(v); }},
};

const GoNumber* find_go_number(const std::string& word) {
    for (const auto& g : kGoNumbers)
        for (const char* n : g.names)
            if (n && word == n) return &g;
    return nullptr;
}

/// True for every word `go` takes as a parameter name (ends a searchmoves list).
bool is_go_keyword(const std::string& word) {
    return find_go_number(word) || word == "infinite" || word == "ponder" || word == "searchmoves";
}

}  // namespace

void UciSession::cmd_go(const std::vector<std::string>& t) {
    if (busy()) return error("go: a search is running (send stop first)");
    engine_->wait();  // the previous search thread may still be returning after bestmove
    SearchLimits lim;
    const Position& pos = engine_->position();
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string& k = t[i];
        if (const GoNumber* g = find_go_number(k)) {
            if (i + 1 >= t.size()) return error("go: " + k + " needs a number");
            auto v = parse_i64(t[++i]);
            if (!v || *v < g->lo || *v > g->hi)
                return error("go: " + k + " takes a whole number in " + std::to_string(g->lo) +
                             ".." + std::to_string(g->hi) + ", not '" + printable(t[i]) + "'");
            g->store(lim, *v);
        } else if (k == "infinite") {
            lim.infinite = true;
        } else if (k == "ponder") {
            lim.ponder = true;
        } else if (k == "searchmoves") {
            for (; i + 1 < t.size() && !is_go_keyword(t[i + 1]); ++i) {
                auto r = parse_move(pos, t[i + 1]);
                if (auto* err = std::get_if<std::string>(&r))
                    return error("go: searchmoves: " + *err);
                lim.searchmoves.push_back(std::get<Move>(r));
            }
            if (lim.searchmoves.empty()) return error("go: searchmoves needs at least one move");
        } else {
            return error("go: unknown parameter '" + printable(k) + "'");
        }
    }
    if (position_rejected_) {
        error("go: the last position command was rejected; send a valid position first");
        if (lim.perft == 0) sink_.line("bestmove 0000");
        return;
    }
    // Clocks given, but not the mover's: a timed search with an empty clock (as Stockfish
    // takes any clock as a timed search), never an endless one.
    const Colour mover = pos.to_move();
    if (lim.time[mover] < 0 &&
        std::any_of(lim.time.begin(), lim.time.end(), [](std::int64_t ms) { return ms >= 0; })) {
        sink_.line(std::string("info string warning: go gives no clock for ") + kColourChar[mover] +
                   " (to move); taken as 0");
        lim.time[mover] = 0;
    }
    if (lim.perft > 0) {  // on the task thread: isready, stop and quit stay answered
        const int depth = lim.perft;
        // The position is copied here: `position` may arrive while the task runs.
        run_task([this, depth, root = pos] {
            std::uint64_t total = 0;
            for (auto& [m, n] : Engine::perft(root, depth, &task_stop_)) {
                sink_.line(m + ": " + std::to_string(n));
                total += n;
            }
            if (task_stop_) sink_.line("info string perft stopped: the counts are partial");
            sink_.line("");
            return "Nodes searched: " + std::to_string(total);
        });
        return;
    }
    engine_->go(lim);
}

void UciSession::cmd_bench(const std::vector<std::string>& t) {
    if (busy()) return error("bench: a search is running (send stop first)");
    // `bench [depth]` or Stockfish's `bench hash threads depth [file]` (depth 0: each
    // position's own).
    constexpr const char* kUsage =
        "bench: expected 'bench [depth]' or 'bench hash threads depth [file]'";
    int depth = 0, threads = 1, hash = 0;
    std::vector<std::pair<std::string, int>> positions;
    auto number = [&](const std::string& s, int lo, int hi, int& out) {
        auto v = parse_i64(s);
        if (!v || *v < lo || *v > hi) return false;
        out = int(*v);
        return true;
    };
    if (t.size() == 2) {
        if (!number(t[1], 1, 30, depth))
            return error("bench: depth must be a whole number in 1..30");
    } else if (t.size() == 4 || t.size() == 5) {
        if (!number(t[1], 1, 1 << 20, hash)) return error("bench: hash must be MiB in 1..1048576");
        if (!number(t[2], 1, 1024, threads)) return error("bench: threads must be in 1..1024");
        if (!number(t[3], 0, 30, depth))
            return error("bench: depth must be in 0..30 (0: each position's own)");
        if (t.size() == 5) {
            try {
                positions = Engine::read_bench_file(t[4], 0);
            } catch (const std::exception& e) {
                return error(std::string("bench: ") + e.what());
            }
            for (auto& [fen, d] : positions)
                if (d == 0 && depth == 0)
                    return error("bench: the file gives no depth for '" + fen.substr(0, 40) +
                                 "...'; give one");
        }
    } else if (t.size() != 1) {
        return error(kUsage);
    }
    if (hash && hash != int(engine_->hash_mib())) {
        if (auto err = engine_->set_hash(hash)) return error("bench: " + *err);
    }
    const int hw = std::max(1, int(std::thread::hardware_concurrency()));
    threads = std::min(threads, hw);
    run_task([this, depth, threads, positions] {
        BenchResult r;
        try {
            r = engine_->bench(depth, &task_stop_, threads, positions);
        } catch (const std::exception& e) {
            return std::string("info string error bench: ") + e.what();
        }
        for (std::size_t i = 0; i < r.per_position.size(); ++i)
            sink_.line("info string bench position " + std::to_string(i + 1) + " nodes " +
                       std::to_string(r.per_position[i].second));
        if (task_stop_) sink_.line("info string bench stopped: the node count is partial");
        sink_.line("Total time (ms): " + std::to_string(r.ms));
        sink_.line("Nodes searched: " + std::to_string(r.nodes));
        return "Nodes/second: " +
               std::to_string(r.ms > 0 ? r.nodes * 1000 / std::uint64_t(r.ms) : r.nodes);
    });
}

}  // namespace klinzha::uci
