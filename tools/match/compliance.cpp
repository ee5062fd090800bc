// tools/match/compliance.cpp: see compliance.h.
#include "compliance.h"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>
#include <variant>
#include <vector>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "player.h"

namespace klinzha::match {

namespace {

using Clock = std::chrono::steady_clock;

struct Checker {
    ProcessPlayer& p;
    std::ostream& out;
    int failed = 0;

    /// Reads lines until one starts with prefix; returns it, or nullopt after ms.
    std::optional<std::string> expect(const std::string& prefix, std::int64_t ms,
                                      std::vector<std::string>* seen = nullptr) {
        const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
        while (true) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now())
                    .count();
            auto line = p.read_line_within(std::max<std::int64_t>(left, 0));
            if (!line) return std::nullopt;
            if (seen) seen->push_back(*line);
            if (line->rfind(prefix, 0) == 0) return line;
        }
    }
    void report(const std::string& check, const std::optional<std::string>& why) {
        if (why) {
            ++failed;
            out << "FAIL " << check << ": " << *why << "\n";
        } else {
            out << "PASS " << check << "\n";
        }
        out.flush();
    }
    /// A legal bestmove for `pos` (sent as position_cmd) within ms, or why not.
    std::optional<std::string> legal_answer(const Position& pos, const std::string& position_cmd,
                                            const std::string& go, std::int64_t ms) {
        if (!p.send_line(position_cmd) || !p.send_line(go)) return "the engine closed its input";
        auto best = expect("bestmove", ms);
        if (!best) return "no bestmove within " + std::to_string(ms) + " ms after '" + go + "'";
        std::istringstream in(*best);
        std::string w, m;
        in >> w >> m;
        if (std::holds_alternative<std::string>(parse_move(pos, m)))
            return "bestmove '" + m + "' is not legal in " + pos.fen();
        return std::nullopt;
    }
};

}  // namespace

namespace {

/// The `option` lines of a `uci` answer: each non-button option's name and default.
std::vector<std::pair<std::string, std::string>> declared_options(
    const std::vector<std::string>& lines) {
    std::vector<std::pair<std::string, std::string>> options;
    for (const auto& l : lines) {
        if (l.rfind("option name ", 0) != 0) continue;
        const auto type = l.find(" type ");
        if (type == std::string::npos) continue;
        const std::string name = l.substr(12, type - 12);
        const auto def = l.find(" default ");
        std::string value;
        if (def != std::string::npos) {
            value = l.substr(def + 9);
            for (const char* stop : {" min ", " max ", " var "})
                if (auto at = value.find(stop); at != std::string::npos)
                    value = value.substr(0, at);
        }
        if (l.find(" type button") == std::string::npos) options.emplace_back(name, value);
    }
    return options;
}

/// Step 1: the handshake, every option set to its default, ucinewgame. False when the engine
/// did not answer `uci` (the other checks would mean nothing).
bool check_handshake(Checker& c, int players) {
    ProcessPlayer& p = c.p;
    std::vector<std::string> lines;
    p.send_line("uci");
    auto uciok = c.expect("uciok", 10000, &lines);
    const bool has_name = std::any_of(lines.begin(), lines.end(),
                                      [](const auto& l) { return l.rfind("id name ", 0) == 0; });
    const auto options = declared_options(lines);
    c.report("uci answers id name and uciok",
             !uciok      ? std::optional<std::string>("no uciok within 10 s")
             : !has_name ? std::optional<std::string>("no 'id name' line")
                         : std::nullopt);
    if (!uciok) return false;
    std::string rejected;
    for (const auto& [name, value] : options) {
        if (value == "<empty>" || name == "Debug Log File" || name == "Players" ||
            name == "UCI_Variant")
            continue;
        p.send_line("setoption name " + name + " value " + value);
    }
    p.send_line("setoption name Players value " + std::to_string(players));
    p.send_line("isready");
    std::vector<std::string> answers;
    auto ready = c.expect("readyok", 10000, &answers);
    for (const auto& a : answers)
        if (a.rfind("info string error", 0) == 0) rejected += " [" + a + "]";
    c.report(
        "every option takes its default value (" + std::to_string(options.size()) + " options)",
        !ready              ? std::optional<std::string>("no readyok after setoption")
        : !rejected.empty() ? std::optional<std::string>("rejected:" + rejected)
                            : std::nullopt);
    p.send_line("ucinewgame");
    p.send_line("isready");
    c.report("ucinewgame then isready",
             c.expect("readyok", 10000) ? std::nullopt : std::optional<std::string>("no readyok"));
    return true;
}

/// Step 3: go infinite waits for stop; isready is answered meanwhile. position_cmd: a
/// position of play.
void check_infinite(Checker& c, const std::string& position_cmd) {
    ProcessPlayer& p = c.p;
    p.send_line(position_cmd);
    p.send_line("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    p.send_line("isready");
    std::vector<std::string> seen;
    auto ready = c.expect("readyok", 2000, &seen);
    bool early = false;
    for (const auto& l : seen) early |= l.rfind("bestmove", 0) == 0;
    const auto t0 = Clock::now();
    p.send_line("stop");
    auto best = early ? std::optional<std::string>("early") : c.expect("bestmove", 2000);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    c.report("go infinite: isready answered, no bestmove before stop, stop obeyed",
             !ready  ? std::optional<std::string>("no readyok during the search")
             : early ? std::optional<std::string>("bestmove before stop")
             : !best ? std::optional<std::string>("no bestmove within 2 s of stop")
                     : std::nullopt);
    if (best) c.out << "     (bestmove " << ms << " ms after stop)\n";
}

/// Step 4: clocks that omit the mover's; a movetime kept.
void check_clocks(Checker& c, const Position& pos, const std::string& position_cmd) {
    const char* other = pos.to_move() == GREEN ? "btime" : "gtime";
    c.report("go with a clock for another player only still answers",
             c.legal_answer(pos, position_cmd, std::string("go ") + other + " 1000", 5000));
    const auto t0 = Clock::now();
    auto err = c.legal_answer(pos, position_cmd, "go movetime 300", 3000);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
    if (!err && ms > 1300) err = "took " + std::to_string(ms) + " ms for movetime 300";
    c.report("go movetime 300 answered in time", err);
}

/// Step 5: malformed input is survived; quit ends the process.
void check_bad_input_and_quit(Checker& c) {
    ProcessPlayer& p = c.p;
    p.send_line("this is not a command");
    p.send_line("position fen 2 nonsense");
    p.send_line("go depth notanumber");
    p.send_line("isready");
    c.report("malformed lines are survived",
             c.expect("readyok", 5000) ? std::nullopt
                                       : std::optional<std::string>("no readyok after bad input"));
    p.send_line("quit");
    bool exited = false;
    for (int i = 0; i < 200 && !exited; ++i) {
        exited = waitpid(p.pid(), nullptr, WNOHANG) == p.pid();
        if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    c.report("quit ends the process within 2 s",
             exited ? std::nullopt : std::optional<std::string>("still running"));
}

}  // namespace

int check_compliance(const std::string& cmd, int players, std::ostream& out) {
    ProcessPlayer p({"engine", cmd, {}});
    Checker c{p, out};
    out << "Compliance of '" << cmd << "' (" << players << " players)\n";
    if (auto err = p.spawn()) {
        c.report("start", err);
        return c.failed;
    }
    // 1. Handshake and options.
    if (!check_handshake(c, players)) return c.failed;
    // 2. A legal move in every phase, positions given with `moves` through the setup.
    Position pos(players);
    std::vector<std::string> moves;
    auto cmd_for = [&] {
        std::string s = "position startpos";
        if (!moves.empty()) s += " moves";
        for (const auto& m : moves) s += " " + m;
        return s;
    };
    for (Phase phase : {Phase::Place, Phase::Heart, Phase::Play}) {
        while (pos.phase() != phase) {  // walk the setup with the first legal moves
            MoveList l;
            generate_legal(pos, l);
            if (l.size == 0) break;
            moves.push_back(move_to_string(l.moves[l.size / 2]));
            pos.do_move(l.moves[l.size / 2]);
        }
        const char* name = phase == Phase::Place   ? "placement"
                           : phase == Phase::Heart ? "heart"
                                                   : "play";
        c.report(std::string("a legal bestmove in the ") + name + " phase (go depth 1)",
                 c.legal_answer(pos, cmd_for(), "go depth 1", 30000));
    }
    check_infinite(c, cmd_for());     // 3.
    check_clocks(c, pos, cmd_for());  // 4.
    check_bad_input_and_quit(c);      // 5.
    out << (c.failed ? "NOT compliant: " : "Compliant: ") << c.failed << " check(s) failed\n";
    return c.failed;
}

}  // namespace klinzha::match
