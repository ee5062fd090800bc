// tests/tools/match_test.cpp: the referee of klinzha-match with small scripted engines: a
// game ending by heart capture, no legal move, repetition, the 50-moves rule, an illegal
// move, a crash (scripted and a real process), flag fall, and a three-player game where an
// army changes hands; the schedule's seat rotation; resume from the state file.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <sstream>

#include <chrono>
#include <thread>

#include "compliance.h"
#include "engine/blind.h"
#include "engine/combat.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "italian.h"
#include "openings.h"
#include "referee.h"
#include "state.h"
#include "tournament.h"

using namespace klinzha;
using namespace klinzha::match;

namespace {

/// Plays scripted moves in order, then the first legal move. A script entry "!crash" makes
/// the engine crash, "!slow" makes it take 10 s of its clock.
class Scripted : public Player {
  public:
    Scripted(std::string name, std::vector<std::string> script)
        : name_(std::move(name)), script_(script.begin(), script.end()) {}
    std::string name() const override { return name_; }
    std::optional<std::string> start() override { return std::nullopt; }
    bool new_game() override { return true; }
    bool alive() const override { return true; }
    Reply go(const std::string& position_cmd, const std::string& go_cmd,
             std::int64_t timeout_ms) override {
        gos.push_back(go_cmd);
        Reply r;
        if (!script_.empty()) {
            std::string m = script_.front();
            script_.pop_front();
            if (m == "!stall") {  // thinks until the referee's wait is over, never answers
                std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
                r.status = Reply::Timeout;
                r.ms = timeout_ms;
                return r;
            }
            if (m == "!capture") {
                r.move = first_legal(position_cmd, true);
                return r;
            }
            if (m == "!crash") {
                r.status = Reply::Crash;
                return r;
            }
            if (m == "!slow") {
                r.ms = 10000;
                r.move = first_legal(position_cmd);
                return r;
            }
            r.move = m;
            return r;
        }
        r.move = first_legal(position_cmd);
        return r;
    }

    std::vector<std::string> gos;  ///< every go command received

  private:
    static std::string first_legal(const std::string& cmd, bool capture = false) {
        // "position fen <position string> [moves ...]"
        std::istringstream in(cmd);
        std::string w, fen;
        in >> w >> w;
        while (in >> w && w != "moves") fen += (fen.empty() ? "" : " ") + w;
        Position p;
        Rules r;
        REQUIRE_FALSE(p.set(fen, r));
        while (in >> w) p.do_move(std::get<Move>(parse_move(p, w)));
        MoveList l;
        generate_legal(p, l);
        if (capture)  // the first move that takes an opposing man
            for (std::size_t i = 0; i < l.size; ++i)
                if (l.moves[i].kind() == Move::Normal && p.man_on(l.moves[i].to()) != kNoMan &&
                    man_colour(p.man_on(l.moves[i].to())) != p.to_move())
                    return move_to_string(l.moves[i]);
        return l.size ? move_to_string(l.moves[0]) : "0000";
    }
    std::string name_;
    std::deque<std::string> script_;
};

GameConfig config(const std::string& fen, int players = 2) {
    GameConfig c;
    c.players = players;
    c.start_fen = fen;
    c.tc.depth = 1;
    return c;
}

GameRecord play2(const std::string& fen, std::vector<std::string> g, std::vector<std::string> b,
                 GameConfig cfg = {}) {
    if (cfg.start_fen.empty()) cfg = config(fen);
    Scripted green("G", std::move(g)), blue("B", std::move(b));
    return play_game({&green, &blue}, cfg);
}

}  // namespace

TEST_CASE("referee: heart capture ends a two-player game") {
    auto g = play2("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1", {"e38d38"}, {});
    CHECK(g.result() == "1-0");
    CHECK(g.termination == "heart capture");
    REQUIRE(g.moves.size() == 1);
    CHECK(g.moves[0].algebraic == "RxHd38");
    CHECK(g.rh_points(GREEN) == 1);
    CHECK(g.rh_points(BLUE) == -1);
}

TEST_CASE("referee: no legal move loses") {
    auto g = play2("2 Hi99,Pi99 Hi11 - b play 0 1", {}, {});
    CHECK(g.result() == "1-0");
    CHECK(g.termination.find("no legal move") != std::string::npos);
}

TEST_CASE("referee: third repetition and 50 moves each are draws") {
    auto g =
        play2("2 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 - g play 0 1",
              {"e38e48", "e48e38", "e38e48", "e48e38"}, {"f15f14", "f14f15", "f15f14", "f14f15"});
    CHECK(g.result() == "1/2-1/2");
    CHECK(g.termination == "draw by third repetition");
    CHECK(g.moves.size() == 8);
    auto f = play2("2 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 - g play 98 70", {"e38e48"}, {"f15f14"});
    CHECK(f.result() == "1/2-1/2");
    CHECK(f.termination == "draw by the 50-moves-each rule");
    CHECK(f.kz_points(GREEN) == -0.5);
}

TEST_CASE("referee: an illegal move or a crash loses") {
    auto g = play2("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1", {"e38a19"}, {});
    CHECK(g.result() == "0-1");
    CHECK(g.termination.find("illegal move") != std::string::npos);
    auto c = play2("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1", {"!crash"}, {});
    CHECK(c.result() == "0-1");
    CHECK(c.termination.find("crashed") != std::string::npos);
}

TEST_CASE("referee: a real engine process that dies mid-game loses by crash") {
    EngineSpec dying{"dying",
                     "sh -c 'while read l; do case \"$l\" in uci) echo uciok;; isready) echo "
                     "readyok;; go*) exit 3;; esac; done'",
                     {}};
    ProcessPlayer p(dying);
    REQUIRE_FALSE(p.start());
    Scripted blue("B", {});
    auto g = play_game({&p, &blue}, config("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1"));
    CHECK(g.result() == "0-1");
    CHECK(g.termination.find("crashed") != std::string::npos);
}

TEST_CASE("referee: flag fall loses on time") {
    GameConfig cfg = config("2 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 - g play 0 1");
    cfg.tc = *TimeControl::parse("1+0");
    cfg.tc.margin_ms = 0;
    auto g = play2("", {"e38e48", "!slow"}, {}, cfg);
    CHECK(g.result() == "0-1");
    CHECK(g.termination.find("lost on time") != std::string::npos);
}

TEST_CASE("referee: three players, the army changes hands, the game goes on") {
    GameConfig cfg = config("3 Hi99,Pi99,Re38 Hi11,Pi11 Hd38,Pd38,Na19,Wc17 g play 0 1", 3);
    cfg.max_fullmoves = 2;
    Scripted g("G", {"e38d38"}), b("B", {}), k("K", {});
    auto rec = play_game({&g, &b, &k}, cfg);
    CHECK(rec.hearts_captured[GREEN] == 1);
    CHECK(rec.heart_lost[BLACK]);
    CHECK(rec.outcome[BLACK] == Outcome::Loss);
    CHECK(rec.termination.find("move limit") != std::string::npos);
    CHECK(rec.outcome[GREEN] == Outcome::Draw);
    CHECK(rec.rh_points(GREEN) == 1);
    CHECK(rec.rh_points(BLACK) == -1);
    CHECK(rec.final_fen.find("Na19") < rec.final_fen.find(" b "));  // in Green's field
    Position p;
    REQUIRE_FALSE(p.set(rec.final_fen, {}));
    CHECK(test(p.pieces(GREEN, WALL), *geo::parse_cell("c17")));
    auto pgn = to_pgn(rec, cfg, 1, "test");
    CHECK(pgn.find("[Black \"K\"]") != std::string::npos);
    CHECK(pgn.find("[ScoreRH \"1 0 -1\"]") != std::string::npos);
    CHECK(pgn.find("RxHd38") != std::string::npos);
}

namespace {
/// A record of one game replays without error to the position `final_fen`.
void check_replays_to(const std::string& pgn, const std::string& final_fen) {
    std::istringstream in(pgn);
    auto games = read_records(in);
    REQUIRE(games.size() == 1);
    auto r = replay(games[0], Rules{}, 2, false);
    CHECK(r.error == "");
    REQUIRE_FALSE(r.fens.empty());
    CHECK(r.fens.back() == final_fen);
}
}  // namespace

TEST_CASE("referee: setup through the protocol, recorded in algebraic notation") {
    GameConfig cfg = config("");
    cfg.start_fen = "";
    cfg.max_fullmoves = 1;
    Scripted g("G", {}), b("B", {});
    auto rec = play_game({&g, &b}, cfg);
    REQUIRE(rec.moves.size() >= 20);
    CHECK(rec.moves[0].move.find('@') != std::string::npos);
    CHECK(rec.moves[19].setup);
    CHECK(rec.moves[18].algebraic.rfind("H", 0) == 0);  // Green's heart: H + carrier letter + cell
    auto pgn = to_pgn(rec, cfg, 1, "test");
    CHECK(pgn.find("{setup}") != std::string::npos);
    CHECK(pgn.find("{play}") != std::string::npos);
    check_replays_to(pgn, rec.final_fen);  // the record reads back (klinzha replay)
}

TEST_CASE("referee: a three-player removal is recorded as {k out: why} and replays") {
    GameConfig cfg = config("3 Hi99,Pi99,Re38 Hi11,Pi11 Hd38,Pd38,Na19,Wc17 g play 0 1", 3);
    cfg.max_fullmoves = 3;
    Scripted g("G", {"i99i89"}), b("B", {"!crash"}), k("K", {});
    auto rec = play_game({&g, &b, &k}, cfg);
    REQUIRE(rec.removals.size() == 1);
    CHECK(rec.removals[0].colour == BLUE);
    auto pgn = to_pgn(rec, cfg, 1, "test");
    CHECK(pgn.find("{b out: crashed}") != std::string::npos);
    check_replays_to(pgn, rec.final_fen);
}

TEST_CASE("klinzha-match records carry the variant, replay honours Variant and Options") {
    GameConfig cfg = config("2 - - - g place 0 1");
    REQUIRE_FALSE(cfg.rules.set("UCI_Variant", "klin-zha-italian"));
    GameRecord rec;
    rec.players = 2;
    rec.start_fen = kStartFen2;
    auto pgn = to_pgn(rec, cfg, 1, "test");
    CHECK(pgn.find("[Variant \"klin-zha-italian\"]") != std::string::npos);
    REQUIRE_FALSE(cfg.rules.set("Ablative", "3"));
    pgn = to_pgn(rec, cfg, 1, "test");
    CHECK(pgn.find("[Variant \"custom\"]") != std::string::npos);
    std::istringstream in(pgn);
    auto r = replay(read_records(in).at(0), Rules{}, 2, false);
    CHECK(r.error == "");
    CHECK(r.start.rules() == cfg.rules);
}

TEST_CASE("schedule: seats rotate so every engine plays every colour equally") {
    std::array<std::array<int, 3>, 3> count{};
    int n = schedule_size(3, 3, 6);
    CHECK(n == 6);
    for (int i = 0; i < n; ++i) {
        auto s = seating(i, 3, 3, 6);
        for (int c = 0; c < 3; ++c) count[std::size_t(s[c])][std::size_t(c)]++;
    }
    for (auto& e : count)
        for (int v : e) CHECK(v == 2);
    auto a = seating(0, 2, 2, 4), b = seating(1, 2, 2, 4);
    CHECK(a[0] == b[1]);
    CHECK(a[1] == b[0]);
}

namespace {
/// Two scripted engines, four games from a position where Green takes Blue's heart at once.
TournamentConfig heart_match(const std::string& state) {
    TournamentConfig cfg;
    cfg.engines = {{"first", "-", {}}, {"second", "-", {}}};
    cfg.game = config("2 Hi99,Pi99,Re38 Hd38,Pd38,Pi11 - g play 0 1");
    cfg.games = 4;
    cfg.state_path = state;
    cfg.report_every = 0;
    return cfg;
}
}  // namespace

TEST_CASE("tournament: results tables, and a stopped run resumes from its state file") {
    std::string state = "/tmp/klinzha_match_state_" + std::to_string(::getpid());
    std::remove(state.c_str());
    const TournamentConfig cfg = heart_match(state);
    // Green always takes the heart at once: the engine playing green wins.
    auto factory = [](const EngineSpec& s) {
        return std::make_unique<Scripted>(
            s.name, std::vector<std::string>{"e38d38", "e38d38", "e38d38", "e38d38"});
    };
    std::ostringstream out1;
    {
        Tournament t(cfg, out1, factory);
        auto done = t.run();
        CHECK(done.size() == 4);
        auto table = t.table();
        CHECK(table.find("first") != std::string::npos);
        CHECK(table.find("Ptnml(0-2): [0, 0, 2, 0, 0]") != std::string::npos);
    }
    // Drop the last two lines of the state: as if the run had been stopped after two games.
    std::vector<std::string> lines;
    {
        std::ifstream in(state);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
    }
    REQUIRE(lines.size() == 5);  // the settings header, then a line per game
    CHECK(lines[0].find("\"klinzha-match-state\":1") != std::string::npos);
    {
        std::ofstream outf(state, std::ios::trunc);
        outf << lines[0] << '\n' << lines[1] << '\n' << lines[2] << '\n';
    }
    std::ostringstream out2;
    Tournament again(cfg, out2, factory);
    auto done = again.run();
    CHECK(done.size() == 4);
    CHECK(out2.str().find("Resuming: 2 of 4") != std::string::npos);
    // Only the two missing games were played again.
    std::size_t finished = 0;
    for (std::size_t at = out2.str().find("Finished game"); at != std::string::npos;
         at = out2.str().find("Finished game", at + 1))
        ++finished;
    CHECK(finished == 2);
    std::remove(state.c_str());
}

TEST_CASE("referee: after a removal the engines get the position from there on") {
    // Blue loses on an illegal move first; then Green and Black play on. The scripted
    // players read the position they are sent: a desynchronised list would fail to parse.
    GameConfig cfg = config("3 Hi99,Pi99,Pe38 Hi11,Pi11 Ha19,Pa19,Pc28 g play 0 1", 3);
    cfg.max_fullmoves = 4;
    Scripted g("G", {}), b("B", {"i11a19"}), k("K", {});
    auto rec = play_game({&g, &b, &k}, cfg);
    CHECK(rec.outcome[BLUE] == Outcome::Loss);
    INFO(rec.termination);
    CHECK(rec.termination.find("B out: illegal move") != std::string::npos);
    CHECK(rec.termination.find("move limit") != std::string::npos);
    CHECK(rec.moves.size() >= 6);
}

TEST_CASE("tournament: -clouds gives both games of a pair the same clouds, by the SPEC 16 draw") {
    std::string pgn_path = "/tmp/klinzha_match_clouds_" + std::to_string(::getpid()) + ".pgn";
    std::remove(pgn_path.c_str());
    TournamentConfig cfg;
    cfg.engines = {{"first", "-", {}}, {"second", "-", {}}};
    cfg.game = config("");
    cfg.game.max_fullmoves = 1;
    cfg.games = 4;
    cfg.report_every = 0;
    cfg.clouds_lo = cfg.clouds_hi = 5;
    cfg.cloud_seed = 1;
    cfg.pgn_path = pgn_path;
    auto factory = [](const EngineSpec& s) {
        return std::make_unique<Scripted>(s.name, std::vector<std::string>{});
    };
    std::ostringstream out;
    Tournament t(cfg, out, factory);
    CHECK(t.run().size() == 4);
    std::ifstream in(pgn_path);
    auto games = read_records(in);
    REQUIRE(games.size() == 4);
    std::vector<std::string> fens;
    for (const auto& g : games) {
        auto r = replay(g, Rules{}, 2, false);
        CHECK(r.error == "");
        fens.push_back(r.start.fen());
    }
    // Group 0 uses seed 1 + 0: SPEC 16's check value for N = 5, S = 1.
    CHECK(fens[0] == "2 - - - g place 0 1 clouds=f37,g13,g35,g79,i99");
    CHECK(fens[1] == fens[0]);
    CHECK(fens[2] == fens[3]);
    CHECK(fens[2] != fens[0]);
    std::remove(pgn_path.c_str());
}

namespace {
/// Writes an executable shell script that speaks just enough of the protocol: uciok,
/// readyok, and for the n-th `go` the line given by `answer n` (after `delay n` seconds).
std::string script_engine(const std::string& name, const std::string& go_body) {
    const std::string path = "/tmp/klinzha_script_" + name + "_" + std::to_string(::getpid());
    std::ofstream f(path);
    f << "#!/bin/sh\nn=0\nwhile read -r line; do\n  case \"$line\" in\n"
         "    uci) echo uciok ;;\n    isready) echo readyok ;;\n"
         "    go*) n=$((n+1)); "
      << go_body << " ;;\n    quit) exit 0 ;;\n  esac\ndone\n";
    f.close();
    ::chmod(path.c_str(), 0755);
    return path;
}
}  // namespace

TEST_CASE("issue 11: engines run in their own process group, and are gone after the player") {
    EngineSpec spec{"k", KLINZHA_BINARY, {}};
    pid_t pid = -1;
    {
        ProcessPlayer p(spec);
        REQUIRE_FALSE(p.start());
        pid = p.pid();
        REQUIRE(pid > 0);
        CHECK(::getpgid(pid) == pid);
        CHECK(::getpgid(pid) != ::getpgrp());
    }
    CHECK(::kill(pid, 0) != 0);  // no child outlives its player
}

TEST_CASE("engines started at once from many threads all start, and none holds another's pipes") {
    // Four threads start an engine each at the same moment, as the GUI's rooms and the
    // runner's concurrent games do. Each must answer its handshake (a child that runs code
    // between fork and exec may deadlock in a threaded process), and each engine's pipes
    // must be its own: when one engine is killed, its player sees the end of its output at
    // once, because no engine started after it inherited the pipe's writing end.
    EngineSpec spec{"k", KLINZHA_BINARY, {}};
    for (int round = 0; round < 3; ++round) {
        std::vector<std::unique_ptr<ProcessPlayer>> players;
        for (int i = 0; i < 4; ++i) players.push_back(std::make_unique<ProcessPlayer>(spec));
        std::vector<std::optional<std::string>> errors(players.size());
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < players.size(); ++i)
            threads.emplace_back([&, i] { errors[i] = players[i]->start(); });
        for (auto& t : threads) t.join();
        for (const auto& e : errors) CHECK_MESSAGE(!e, e.value_or(""));
        // No engine holds a pipe of another (each engine's fds, read in /proc).
        auto fds = [](pid_t pid) {
            std::vector<std::string> links;
            for (int fd = 0; fd < 256; ++fd) {
                char buf[256];
                const std::string path =
                    "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
                const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
                if (n > 0) links.emplace_back(buf, std::size_t(n));
            }
            return links;
        };
        for (std::size_t i = 0; i < players.size(); ++i) {
            const auto own = fds(players[i]->pid());
            REQUIRE(own.size() >= 2);
            for (std::size_t j = 0; j < players.size(); ++j) {
                if (j == i) continue;
                for (const auto& link : fds(players[j]->pid()))
                    CHECK_MESSAGE((link != own[0] && link != own[1]),
                                  "engine " << j << " holds " << link << " of engine " << i);
            }
        }
        REQUIRE(players[0]->alive());
        ::kill(players[0]->pid(), SIGKILL);
        // Its output ends (nullopt, and alive() turns false), well before the 5 s timeout.
        const auto t0 = std::chrono::steady_clock::now();
        CHECK_FALSE(players[0]->read_line_within(5000));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(4));
        CHECK_FALSE(players[0]->alive());
        for (std::size_t i = 1; i < players.size(); ++i) CHECK(players[i]->alive());
    }
}

TEST_CASE("issue 11: a late bestmove is never taken as the answer to the next go") {
    // The first go is answered after 0.8 s (late for a 0.3 s timeout), the second at once.
    const auto path = script_engine(
        "late",
        "if [ $n -eq 1 ]; then sleep 0.8; echo 'bestmove LATE'; else echo 'bestmove ON-TIME'; fi");
    ProcessPlayer p({"late", path, {}});
    REQUIRE_FALSE(p.start());
    auto first = p.go("position startpos", "go", 300);
    CHECK(first.status == Reply::Timeout);
    CHECK(p.alive());  // the late answer came within the second it is given, and was dropped
    auto second = p.go("position startpos", "go", 2000);
    CHECK(second.status == Reply::Ok);
    CHECK(second.move == "ON-TIME");
    std::remove(path.c_str());
    // An engine that never answers is ended, to be restarted before its next game.
    const auto mute = script_engine("mute", "sleep 30");
    ProcessPlayer q({"mute", mute, {}});
    REQUIRE_FALSE(q.start());
    CHECK(q.go("position startpos", "go", 200).status == Reply::Timeout);
    CHECK_FALSE(q.alive());
    std::remove(mute.c_str());
}

TEST_CASE("issue 11: an engine that cannot start stops the match with an error, no result") {
    TournamentConfig cfg;
    cfg.engines = {{"bad", "/nonexistent/engine", {}}, {"good", KLINZHA_BINARY, {}}};
    cfg.game = config("2 Hi99,Pi99,Re38 Hd38,Pd38,Pi11 - g play 0 1");
    cfg.games = 2;
    cfg.report_every = 0;
    std::ostringstream out;
    Tournament t(cfg, out);
    auto done = t.run();
    CHECK(done.empty());
    CHECK(t.error().find("exited before answering uci") != std::string::npos);
    // An option the engine rejects is an error at the start, too.
    cfg.engines = {{"a", KLINZHA_BINARY, {{"Hsh", "3"}}}, {"b", KLINZHA_BINARY, {}}};
    std::ostringstream out2;
    Tournament t2(cfg, out2);
    CHECK(t2.run().empty());
    CHECK(t2.error().find("rejected an option") != std::string::npos);
}

namespace {
Tournament::Factory heart_factory() {
    return [](const EngineSpec& s) {
        return std::make_unique<Scripted>(s.name, std::vector<std::string>{"e38d38", "e38d38"});
    };
}
/// Plays the heart match once into a fresh state file `state`; returns its config.
TournamentConfig played_once(const std::string& state) {
    std::remove(state.c_str());
    auto cfg = heart_match(state);
    std::ostringstream out;
    Tournament t(cfg, out, heart_factory());
    t.run();
    return cfg;
}
std::vector<std::string> read_lines(const std::string& path) {
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}
}  // namespace

TEST_CASE("issue 11: a resume with other settings or engines is refused, naming the difference") {
    const std::string state = "/tmp/klinzha_state_diff_" + std::to_string(::getpid());
    const auto cfg = played_once(state);
    std::ostringstream out;
    auto other = cfg;
    other.engines[1].cmd = "another-engine";
    try {
        Tournament t(other, out, heart_factory());
        FAIL("resume with another engine accepted");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find("engines") != std::string::npos);
    }
    other = cfg;
    other.games = 8;
    CHECK_THROWS_AS(Tournament(other, out, heart_factory()), std::runtime_error);
    std::remove(state.c_str());
}

TEST_CASE("issue 11: a state line cut short by a failed write swallows nothing on resume") {
    const std::string state = "/tmp/klinzha_state_cut_" + std::to_string(::getpid());
    const auto cfg = played_once(state);
    auto lines = read_lines(state);
    REQUIRE(lines.size() == 5);
    {  // header, game 1, a cut-short game line with no newline (the write failed there)
        std::ofstream f(state, std::ios::trunc);
        f << lines[0] << '\n' << lines[1] << '\n' << lines[2].substr(0, 20);
    }
    std::ostringstream out2;
    Tournament t(cfg, out2, heart_factory());
    CHECK(t.run().size() == 4);  // game 1 kept; the cut game and the rest played again
    CHECK(out2.str().find("cut short") != std::string::npos);
    // The next record was not glued onto the cut line: read back, four games.
    auto st = read_state(state);
    REQUIRE(st);
    CHECK(st->games.size() == 4);
    CHECK(st->warnings.size() == 1);
    std::remove(state.c_str());
}

TEST_CASE("issue 11: out-of-range state records are refused, not trusted") {
    const std::string state = "/tmp/klinzha_state_bad_" + std::to_string(::getpid());
    auto cfg = heart_match(state);
    for (
        const std::string bad :
        {R"({"index":2,"players":2,"seats":[{"engine":5,"outcome":"win","rh":1,"kz":1},{"engine":1,"outcome":"loss","rh":-1,"kz":0}],"termination":"x"})",
         R"({"index":100000000,"players":2,"seats":[],"termination":"x"})",
         R"({"index":0,"players":9,"seats":[],"termination":"x"})",
         R"({"index":0,"players":2,"seats":[{"engine":0,"outcome":"win","rh":7,"kz":1},{"engine":1,"outcome":"loss","rh":-1,"kz":0}],"termination":"x"})",
         R"({"index":0,"players":2,"seats":[{"engine":0,"outcome":"maybe","rh":1,"kz":1},{"engine":1,"outcome":"loss","rh":-1,"kz":0}],"termination":"x"})"}) {
        std::remove(state.c_str());
        REQUIRE_FALSE(open_state(state, settings_json(cfg), ""));
        std::ofstream(state, std::ios::app) << bad << '\n';
        CAPTURE(bad);
        CHECK_THROWS_AS(read_state(state), std::runtime_error);
        std::ostringstream out;
        CHECK_THROWS_AS(Tournament(cfg, out, heart_factory()), std::runtime_error);
    }
    std::remove(state.c_str());
}

TEST_CASE("issue 11: shards play exactly their games, merged they give the unsharded result") {
    auto cfg = heart_match("");
    cfg.games = 6;
    std::ostringstream whole_out;
    Tournament whole(cfg, whole_out, heart_factory());
    whole.run();
    std::vector<GameSummary> parts;
    std::vector<std::string> files;
    for (int k = 1; k <= 4; ++k) {
        auto shard = cfg;
        shard.shard = std::to_string(k) + "/4";
        shard.state_path =
            "/tmp/klinzha_shard_" + std::to_string(k) + "_" + std::to_string(::getpid());
        std::remove(shard.state_path.c_str());
        std::ostringstream out;
        Tournament t(shard, out, heart_factory());
        for (const auto& g : t.run()) CHECK(g.index % 4 == k - 1);
        files.push_back(shard.state_path);
    }
    TournamentConfig merged_cfg = cfg;
    std::ostringstream quiet;
    Tournament merged(merged_cfg, quiet, heart_factory());
    for (const auto& f : files) {
        auto st = read_state(f);
        REQUIRE(st);
        CHECK(settings_difference(st->settings, settings_json(cfg)) == "");
        merged.add_results(st->games);
    }
    CHECK(merged.table() == whole.table());
    auto st = read_state(files[0]);
    CHECK_THROWS_AS(merged.add_results(st->games), std::runtime_error);  // given twice
    for (const auto& f : files) std::remove(f.c_str());
}

TEST_CASE("issue 11: --compliance passes klinzha and names what a broken engine fails") {
    std::ostringstream good;
    CHECK(check_compliance(KLINZHA_BINARY, 2, good) == 0);
    CHECK(good.str().find("Compliant: 0") != std::string::npos);
    std::ostringstream good3;
    CHECK(check_compliance(KLINZHA_BINARY, 3, good3) == 0);
    // An engine that answers go at once with a fixed move, infinite or not.
    const auto path = script_engine("eager", "echo 'bestmove W@h78'");
    std::ostringstream bad;
    CHECK(check_compliance(path, 2, bad) > 0);
    CHECK(bad.str().find("FAIL go infinite") != std::string::npos);
    CHECK(bad.str().find("FAIL a legal bestmove in the play phase") != std::string::npos);
    std::remove(path.c_str());
}

TEST_CASE("issue 11: each engine's own clock (tc=, st=) as cutechess-cli gives it") {
    GameConfig cfg = config("2 Hi99,Pi99 Hi11,Pi11 - g play 0 1");
    cfg.tc = *TimeControl::parse("1+0.1");
    cfg.seat_tc[BLUE] = *TimeControl::parse("5");
    cfg.max_fullmoves = 1;
    Scripted g("G", {}), b("B", {});
    play_game({&g, &b}, cfg);
    REQUIRE_FALSE(g.gos.empty());
    CHECK(g.gos[0].find("gtime 1000") != std::string::npos);
    CHECK(g.gos[0].find("btime 5000") != std::string::npos);
    CHECK(g.gos[0].find("ginc 100") != std::string::npos);
    CHECK(g.gos[0].find("binc") == std::string::npos);
    TimeControl st;
    st.movetime_ms = 250;
    cfg.seat_tc[BLUE] = st;
    Scripted g2("G", {}), b2("B", {});
    play_game({&g2, &b2}, cfg);
    REQUIRE_FALSE(b2.gos.empty());
    CHECK(b2.gos[0] == "go movetime 250");
}

TEST_CASE("issue 11: an abandoned game is no result") {
    GameConfig cfg = config("2 Hi99,Pi99,Re37 Hd38,Pd38,Pi11 - g play 0 1");
    std::atomic<bool> abandon{true};
    cfg.abandon = &abandon;
    Scripted g("G", {}), b("B", {});
    auto rec = play_game({&g, &b}, cfg);
    CHECK(rec.aborted == "abandoned");
    CHECK(rec.moves.empty());
}

TEST_CASE(
    "referee, Kinta: the referee casts the spindles, engines get outcomes, the record "
    "replays and is checked against its dice seed") {
    GameConfig cfg = config("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1");
    cfg.rules.kinta = true;
    cfg.rules.power_vanguard = true;
    cfg.dice_seed = 42;
    // Blue attacks the wall with its pawn; then both sides play their first legal moves.
    class Capturing : public Player {  // checks every position it is sent
      public:
        std::string name() const override { return "K"; }
        std::optional<std::string> start() override { return std::nullopt; }
        bool new_game() override { return true; }
        bool alive() const override { return true; }
        Reply go(const std::string& cmd, const std::string&, std::int64_t) override {
            seen.push_back(cmd);
            std::istringstream in(cmd);
            std::string w, fen;
            in >> w >> w;
            while (in >> w && w != "moves") fen += (fen.empty() ? "" : " ") + w;
            Rules r;
            r.kinta = r.power_vanguard = true;
            Position p;
            REQUIRE_FALSE(p.set(fen, r));
            while (in >> w) {
                auto m = parse_played_move(p, w);  // an attack without outcome fails here
                REQUIRE(std::holds_alternative<Move>(m));
                p.do_move(std::get<Move>(m));
            }
            Reply rep;
            if (first && p.to_move() == BLUE) {
                first = false;
                rep.move = "i23i34";
                return rep;
            }
            MoveList l;
            generate_legal(p, l);
            rep.move = l.size ? move_to_string(l.moves[0]) : "0000";
            return rep;
        }
        std::vector<std::string> seen;
        bool first = true;
    };
    Capturing green, blue;
    cfg.max_fullmoves = 6;
    GameRecord g = play_game({&green, &blue}, cfg);
    REQUIRE(!g.moves.empty());
    CHECK((g.moves[0].move.rfind("i23i34:A", 0) == 0 || g.moves[0].move.rfind("i23i34:D", 0) == 0));
    CHECK(g.moves[0].spindles.rfind("spindles ", 0) == 0);
    REQUIRE(g.fights.size() >= 1);
    CHECK(g.fights[0].first > 0);
    CHECK(g.fights[0].first < 1);
    // The outcome the engines were sent is the one the seed gives.
    combat::Spindles dice(42);
    Position p;
    REQUIRE_FALSE(p.set("2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1", cfg.rules));
    const Move m = std::get<Move>(parse_move(p, "i23i34"));
    const auto [a, d] = combat::fighters(p, m);
    const combat::Fight f = combat::cast(a, d, dice);
    CHECK(g.moves[0].move ==
          "i23i34:" + std::string(f.attacker_won ? "A" : "D") + std::to_string(f.strength));
    // The record reads back, and a changed seed or outcome is caught.
    const std::string pgn = to_pgn(g, cfg, 1, "t");
    CHECK(pgn.find("[DiceSeed \"42\"]") != std::string::npos);
    std::istringstream in(pgn);
    auto games = read_records(in);
    REQUIRE(games.size() == 1);
    Replay r = replay(games[0], Rules{}, 2, false);
    CHECK(r.error == "");
    games[0].tags["DiceSeed"] = "43";
    CHECK(replay(games[0], Rules{}, 2, false).error != "");  // 43 casts other spindles
}

namespace {

/// A blind player (SPEC 25) that reads only its `position blind` line, checks that the line
/// holds nothing of another colour's men, and proposes uniformly among the moves legal in its
/// view (not yet refused); with `wrong` it first proposes an illegal move of its view.
class BlindRandom : public Player {
  public:
    BlindRandom(std::string name, std::uint64_t seed) : name_(std::move(name)), rng_(seed) {}
    std::string name() const override { return name_; }
    std::optional<std::string> start() override { return std::nullopt; }
    bool new_game() override { return true; }
    bool alive() const override { return true; }
    Reply go(const std::string& cmd, const std::string&, std::int64_t) override {
        ++calls;
        if (first.empty()) first = cmd;
        Reply r;
        std::istringstream in(cmd);
        std::string w, colour, fen;
        in >> w >> w >> colour >> w;  // position blind <colour> fen
        if (w != "fen" || cmd.rfind("position blind ", 0) != 0) {
            leaks.push_back("not a blind line: " + cmd.substr(0, 60));
            r.move = "0000";
            return r;
        }
        std::vector<std::string> tokens, refused;
        bool in_refused = false;
        while (in >> w && w != "moves" && w != "refused") fen += (fen.empty() ? "" : " ") + w;
        if (w == "refused") in_refused = true;
        while (in >> w) {
            if (w == "refused") {
                in_refused = true;
                continue;
            }
            (in_refused ? refused : tokens).push_back(w);
        }
        Rules rules;
        rules.blind = true;
        Position start;
        REQUIRE_FALSE(start.set(fen, rules));
        const Colour me = colour == "g" ? GREEN : colour == "b" ? BLUE : BLACK;
        for (int c = 0; c < kColours; ++c)
            if (c != me && start.pieces(Colour(c))) leaks.push_back("start holds other men");
        auto v = blind::View::parse(me, start, tokens, refused);
        if (auto* err = std::get_if<std::string>(&v)) {
            leaks.push_back("bad line: " + *err);
            r.move = "0000";
            return r;
        }
        const blind::View& view = std::get<blind::View>(v);
        // Every cell a token names is a cell of the viewer's own men (its losses, its
        // moves, its men received): nothing of the others.
        for (const auto& t : tokens)
            if (t.rfind("?x", 0) == 0 && t != "?xH") own_cells.push_back(t.substr(2));
        max_refused = std::max(max_refused, int(refused.size()));
        auto props = view.proposals();
        REQUIRE_FALSE(props.empty());
        r.move = move_to_string(props[rng_() % props.size()]);
        return r;
    }
    int calls = 0, max_refused = 0;
    std::vector<std::string> leaks, own_cells;
    std::string first;  ///< the first position line it was given

  private:
    std::string name_;
    std::mt19937_64 rng_;
};

}  // namespace

TEST_CASE(
    "referee, Blind: no engine ever receives an opposing man, refusals answered (2 and 3 "
    "players)") {
    for (int players : {2, 3}) {
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            CAPTURE(players);
            CAPTURE(seed);
            std::vector<std::unique_ptr<BlindRandom>> ps;
            std::vector<Player*> seats;
            for (int c = 0; c < players; ++c) {
                ps.push_back(std::make_unique<BlindRandom>("r" + std::to_string(c), seed * 7 + c));
                seats.push_back(ps.back().get());
            }
            GameConfig cfg;
            cfg.players = players;
            cfg.rules.blind = true;
            cfg.tc.depth = 1;
            cfg.max_fullmoves = 60;
            const GameRecord g = play_game(seats, cfg);
            CHECK(g.aborted.empty());
            int refusals = 0;
            for (int c = 0; c < players; ++c) {
                CHECK(ps[std::size_t(c)]->leaks.empty());
                refusals += g.refusals[c];
            }
            CHECK(g.termination.find("illegal") == std::string::npos);
            // The record holds the whole game, with the refusals of each move.
            int listed = 0;
            for (auto& m : g.moves) listed += int(m.refused.size());
            CHECK(listed == refusals);
        }
    }
}

TEST_CASE("referee, Blind: a proposal illegal in the player's own view, or refused twice, loses") {
    class Stubborn : public Player {  // proposes the same refused placement again and again
      public:
        std::string name() const override { return "stubborn"; }
        std::optional<std::string> start() override { return std::nullopt; }
        bool new_game() override { return true; }
        bool alive() const override { return true; }
        Reply go(const std::string&, const std::string&, std::int64_t) override {
            Reply r;
            r.move = script.empty() ? "0000" : script.front();
            if (!script.empty()) script.erase(script.begin());
            return r;
        }
        std::vector<std::string> script;
    };
    Stubborn green;
    green.script = {"W@a19"};  // not Green's region: illegal in its own view
    Stubborn blue;
    GameConfig cfg;
    cfg.rules.blind = true;
    cfg.tc.depth = 1;
    GameRecord g = play_game({&green, &blue}, cfg);
    CHECK(g.outcome[GREEN] == Outcome::Loss);
    CHECK(g.termination.find("illegal proposal") != std::string::npos);

    // Blue proposes a wall next to Green's wall's zone: refused; then the same again: loses.
    const std::vector<std::string> green_setup = {"W@i56", "Q@i99", "R@i89", "B@i88", "N@i78",
                                                  "N@i77", "P@i67", "P@i66", "P@h89"};
    Stubborn g2, b2;
    g2.script = green_setup;
    b2.script = {"W@i45", "W@i45"};
    GameRecord r = play_game({&g2, &b2}, cfg);
    CHECK(r.refusals[BLUE] == 1);
    CHECK(r.outcome[BLUE] == Outcome::Loss);
    CHECK(r.termination.find("refused twice") != std::string::npos);

    // A refusal, then a wall three steps from Green's: played, and the record keeps the
    // refusal in the move's comment and its list (no record held one: the comment was built
    // from a list already moved away).
    Stubborn g4, b4;
    g4.script = green_setup;
    b4.script = {"W@i45", "W@i23"};
    GameRecord k = play_game({&g4, &b4}, cfg);
    REQUIRE(k.moves.size() == 10);
    CHECK(k.moves[9].move == "W@i23");
    CHECK(k.moves[9].refused == std::vector<std::string>{"W@i45"});
    CHECK(k.moves[9].comment.find("refused W@i45") != std::string::npos);

    // The cap: at most N refusals a turn.
    Stubborn g3, b3;
    g3.script = green_setup;
    b3.script = {"W@i45", "Q@i45"};
    cfg.blind_refusal_cap = 0;
    GameRecord c = play_game({&g3, &b3}, cfg);
    CHECK(c.outcome[BLUE] == Outcome::Loss);
    CHECK(c.termination.find("proposals refused in one turn") != std::string::npos);
}

namespace {

/// Plays like Scripted (its first legal move) and reports a score (cp, for the mover) that
/// `score(ply)` gives for its k-th move (k from 0).
class Reporting : public Player {
  public:
    Reporting(std::string name, std::function<int(int)> score)
        : inner_(name, {}), score_(std::move(score)) {}
    std::string name() const override { return inner_.name(); }
    std::optional<std::string> start() override { return std::nullopt; }
    bool new_game() override { return true; }
    bool alive() const override { return true; }
    Reply go(const std::string& p, const std::string& g, std::int64_t t) override {
        Reply r = inner_.go(p, g, t);
        r.cp = score_(moves_++);
        r.depth = 5;
        return r;
    }

  private:
    Scripted inner_;
    std::function<int(int)> score_;
    int moves_ = 0;
};

/// A play-phase start (SPEC 10 sample, three players) and the two-player test position.
constexpr const char* kStart3 =
    "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,"
    "Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 g play 0 1";
constexpr const char* kStart2 =
    "2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,"
    "Ph12,Pf26,Wi44 - g play 0 1";

}  // namespace

TEST_CASE("referee: draw adjudication on score, two and three players (fastchess -draw)") {
    for (int players : {2, 3}) {
        CAPTURE(players);
        std::vector<std::unique_ptr<Reporting>> ps;
        std::vector<Player*> seats;
        for (int c = 0; c < players; ++c) {
            // Scores within 20 cp, but a first player's 300 at its third move breaks the run.
            ps.push_back(std::make_unique<Reporting>(
                "e" + std::to_string(c), [c](int k) { return c == 0 && k == 2 ? 300 : 10 - c; }));
            seats.push_back(ps.back().get());
        }
        GameConfig cfg;
        cfg.players = players;
        cfg.start_fen = players == 3 ? kStart3 : kStart2;
        cfg.tc.depth = 1;
        cfg.draw_from = 2;
        cfg.draw_moves = 3;
        cfg.draw_cp = 20;
        const GameRecord g = play_game(seats, cfg);
        INFO(g.termination);
        REQUIRE(g.termination.find("heart capture") == std::string::npos);
        CHECK(g.termination == "adjudication: draw by score");
        for (int c = 0; c < players; ++c)
            if (!g.heart_lost[c]) CHECK(g.outcome[c] == Outcome::Draw);
        // The first player's quiet run restarts after its third move: its moves 4, 5, 6 make
        // three, so the game lasts exactly 6 moves of the first player.
        int green = 0;
        for (const PlayedMove& m : g.moves) green += m.mover == GREEN;
        CHECK(green == 6);
        CHECK(g.moves.back().mover == GREEN);
    }
}

TEST_CASE("referee: resignation on score, two and three players") {
    {
        Reporting a("a", [](int) { return 0; }), b("b", [](int k) { return k < 1 ? 0 : -900; });
        GameConfig cfg;
        cfg.start_fen = kStart2;
        cfg.tc.depth = 1;
        cfg.resign_moves = 2;
        cfg.resign_cp = 500;
        const GameRecord g = play_game({&a, &b}, cfg);
        CHECK(g.termination == "adjudication: b resigns on score");
        CHECK(g.outcome[GREEN] == Outcome::Win);
        CHECK(g.outcome[BLUE] == Outcome::Loss);
    }
    {
        // Three players: Blue resigns and goes out as on flag fall; the game goes on.
        Reporting a("a", [](int) { return 0; }), b("b", [](int) { return -900; }),
            k("k", [](int) { return 0; });
        GameConfig cfg;
        cfg.players = 3;
        cfg.start_fen = kStart3;
        cfg.tc.depth = 1;
        cfg.resign_moves = 2;
        cfg.resign_cp = 500;
        cfg.max_fullmoves = 8;
        const GameRecord g = play_game({&a, &b, &k}, cfg);
        REQUIRE_FALSE(g.removals.empty());
        CHECK(g.removals[0].colour == BLUE);
        CHECK(g.removals[0].why == "resigns on score (adjudication)");
        CHECK(g.outcome[BLUE] == Outcome::Loss);
        CHECK(g.moves.size() > 4);  // the others played on
    }
}

TEST_CASE("gauntlet: the first engine meets each other one, and the rating list covers all") {
    CHECK(schedule_size(2, 4, 2, true) == 6);    // (0,1) (0,2) (0,3), two games each
    CHECK(schedule_size(2, 4, 2, false) == 12);  // every pair
    CHECK(schedule_size(3, 4, 6, true) == 18);   // (0,1,2) (0,1,3) (0,2,3)
    for (int i = 0; i < 6; ++i) {
        const auto s = seating(i, 2, 4, 2, true);
        CHECK((s[0] == 0 || s[1] == 0));
    }
    for (int i = 0; i < 18; ++i) {
        const auto s = seating(i, 3, 4, 6, true);
        CHECK((s[0] == 0 || s[1] == 0 || s[2] == 0));
    }
    // A real gauntlet of three scripted engines.
    TournamentConfig cfg;
    for (const char* n : {"runner", "b", "c"}) {
        EngineSpec e;
        e.name = n;
        e.cmd = "scripted";
        cfg.engines.push_back(e);
    }
    cfg.gauntlet = true;
    cfg.games = 2;
    cfg.game.tc.depth = 1;
    cfg.game.start_fen = kStart2;
    cfg.game.max_fullmoves = 3;
    cfg.report_every = 0;
    std::ostringstream out;
    Tournament t(cfg, out, [](const EngineSpec& s) {
        return std::make_unique<Scripted>(s.name, std::vector<std::string>{});
    });
    const auto games = t.run();
    CHECK(games.size() == 4);
    for (const auto& g : games) CHECK((g.engine[0] == 0 || g.engine[1] == 0));
    const std::string table = t.table();
    CHECK(table.find("Rating list") != std::string::npos);
    for (const char* n : {"runner", "b", "c"}) CHECK(table.find(n) != std::string::npos);
}

namespace {

// One Italian bout between two scripted players from kStart2 with a 300 ms limit; the
// records are checked to read back through replay().
ItalianBout italian_bout(std::vector<std::string> green, std::vector<std::string> blue,
                         std::uint64_t fate_seed) {
    Scripted g("green", std::move(green)), b("blue", std::move(blue));
    GameConfig cfg = config(kStart2);  // default rules: nobody is held, the tally starts 0-0
    cfg.game_limit_ms = 300;
    ItalianBout bout = play_italian({&g, &b}, cfg, fate_seed);
    for (const auto& game : bout.games) {
        std::istringstream in(to_pgn(game, cfg, 1, "italian test"));
        const auto records = read_records(in);
        REQUIRE(records.size() == 1);
        const Replay r = replay(records[0], cfg.rules, 2, true);
        CHECK(r.error == "");
        CHECK(r.moves.size() == game.moves.size());
        CHECK(records[0].tags.at("Italian") != "");
        CHECK(records[0].tags.at("FateSeed") == std::to_string(fate_seed));
        CHECK(records[0].tags.count("Tally") == (game.expired ? 1u : 0u));
    }
    return bout;
}

}  // namespace

TEST_CASE("italian: the tally's scale, held men at n/2, BACH'SAN's piece taken off") {
    Rules rules;
    rules.blockader_traps = true;
    Position start(2, rules), now(2, rules);
    REQUIRE_FALSE(start.set(kStart2, rules));
    REQUIRE_FALSE(now.set(kStart2, rules));
    // Blue lost its fencer (3) and a flier (5); green its swift (4): 8 against 4.
    now.remove_man(geo::parse_cell("i33").value());
    now.remove_man(geo::parse_cell("g25").value());
    now.remove_man(geo::parse_cell("i89").value());
    // Men held at the start count already (kStart2 holds a green man in blue's zone).
    const auto base = tally(start, start);
    auto t = tally(start, now);
    CHECK(t[GREEN] - base[GREEN] == 16);
    CHECK(t[BLUE] - base[BLUE] == 8);
    CHECK(half_points(7) == "3.5");
    CHECK(half_points(16) == "8");
    // A blue vanguard held in green's wall's zone (i77's neighbours) is half a point to green.
    const Bitboard zone = now.zones(GREEN) & ~now.occupied();
    REQUIRE(zone);
    now.put_man(BLUE, PAWN, lsb(zone));
    t = tally(start, now);
    CHECK(t[GREEN] - base[GREEN] == 16 + 1);
    // Without BlockaderTraps nobody is held.
    Rules plain;
    Position s2(2, plain), n2(2, plain);
    REQUIRE_FALSE(s2.set(kStart2, plain));
    REQUIRE_FALSE(n2.set(kStart2, plain));
    CHECK(tally(s2, n2) == std::array<int, kColours>{0, 0, 0});
    // BACH'SAN: one man of the type off for each colour, never the heart's carrier while
    // another is free; the queen (fencer) is unique, so both go.
    SplitMix64 fate(3);
    auto fen = bachsan_start(kStart2, rules, KNIGHT, fate);
    REQUIRE(fen);
    Position p(2, rules);
    REQUIRE_FALSE(p.set(*fen, rules));
    CHECK(popcount(p.pieces(GREEN, KNIGHT)) == 1);
    CHECK(popcount(p.pieces(BLUE, KNIGHT)) == 1);
    CHECK(p.piece_count(GREEN) == 8);
    fen = bachsan_start(kStart2, rules, ROOK, fate);  // green's rook carries its heart (g79)
    REQUIRE(fen);
    REQUIRE_FALSE(p.set(*fen, rules));
    CHECK(p.pieces(GREEN, ROOK) == 0);
    CHECK(p.heart(GREEN) == geo::parse_cell("g79").value());  // the heart stays, alone
}

TEST_CASE("italian: a bout decided by the tally") {
    // Green takes a man, then both think past the limit: green leads the tally.
    auto bout = italian_bout({"!capture", "!stall"}, {"!stall"}, 5);
    REQUIRE(bout.aborted == "");
    REQUIRE(bout.games.size() == 1);
    const auto& g = bout.games[0];
    CHECK(bout.kind == ItalianKind::Tally);
    CHECK(g.expired);
    CHECK(g.outcome[GREEN] == Outcome::Win);
    CHECK(g.outcome[BLUE] == Outcome::Loss);
    CHECK(g.result() == "1-0");
    CHECK(g.termination.find("Italian tally") != std::string::npos);
}

TEST_CASE("italian: an equal tally goes to BACH'SAN, which decides") {
    // Nobody moves in the first game (0-0); in BACH'SAN green takes a man and wins the tally.
    auto bout = italian_bout({"!stall", "!capture", "!stall"}, {"!stall", "!stall"}, 11);
    REQUIRE(bout.aborted == "");
    REQUIRE(bout.games.size() == 2);
    CHECK(bout.kind == ItalianKind::BachSan);
    CHECK(bout.games[0].outcome[GREEN] == Outcome::Draw);
    CHECK(bout.games[0].termination.find("BACH'SAN follows") != std::string::npos);
    // The second game starts from the first one's play-start, one man fewer on each side,
    // of the type the die (SPEC 16's generator from the fate seed) chose.
    SplitMix64 fate(11);
    const PieceType type = kDieFace[fate.next() % 6];
    Position first(2, Rules{}), second(2, Rules{});
    Rules rules;
    REQUIRE_FALSE(first.set(bout.games[0].start_fen, rules));
    REQUIRE_FALSE(second.set(bout.games[1].start_fen, rules));
    for (int c = 0; c < 2; ++c) {
        CHECK(second.piece_count(Colour(c)) == first.piece_count(Colour(c)) - 1);
        CHECK(popcount(second.pieces(Colour(c), type)) ==
              popcount(first.pieces(Colour(c), type)) - 1);
    }
    CHECK(bout.games[1].outcome[GREEN] == Outcome::Win);
    CHECK(bout.games[1].result() == "1-0");
}

TEST_CASE("italian: no winner in BACH'SAN either: the toss-up, a victory without honour") {
    for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
        CAPTURE(seed);
        auto bout = italian_bout({"!stall", "!stall"}, {"!stall", "!stall"}, seed);
        REQUIRE(bout.aborted == "");
        REQUIRE(bout.games.size() == 2);
        CHECK(bout.kind == ItalianKind::WithoutHonour);
        // The coin is the generator's draw after the die and the two men's draws.
        SplitMix64 fate(seed);
        fate.next();
        fate.next();
        fate.next();
        const Colour w = Colour(fate.next() % 2);
        CHECK(bout.games[1].outcome[w] == Outcome::Win);
        CHECK(bout.games[1].outcome[1 - w] == Outcome::Loss);
        CHECK(bout.games[1].termination.find("without honour") != std::string::npos);
    }
}

TEST_CASE("openings under Blind: the record's moves to the opening, told by the arbiter") {
    // A blind game of two random players, written as -pgnout writes it.
    GameConfig cfg;
    cfg.rules.blind = true;
    cfg.tc.depth = 1;
    cfg.max_fullmoves = 30;
    BlindRandom g0("g", 11), b0("b", 12);
    const GameRecord played = play_game({&g0, &b0}, cfg);
    REQUIRE(played.aborted.empty());
    int setup = 0;  // the placements and the hearts: 2 x (9 + 1) moves
    while (setup < int(played.moves.size()) &&
           played.moves[std::size_t(setup)].move.find('@') != std::string::npos)
        ++setup;
    REQUIRE(setup == 20);
    REQUIRE(played.moves.size() > 30);
    const std::string path = "/tmp/klinzha_blind_openings_test.pgn";
    {
        std::ofstream out(path);
        out << to_pgn(played, cfg, 1, "e");
        // A record that starts in play: no blind game can start there.
        out << "[Event \"f\"]\n[Players \"2\"]\n[SetUp \"1\"]\n[FEN \"" << kStart2
            << "\"]\n\n*\n\n";
    }
    std::vector<std::string> skipped;
    const auto got = load_openings(OpeningsSpec::parse({path, "plies=7"}), cfg.rules, 2, &skipped);
    REQUIRE(got.size() == 1);
    REQUIRE(skipped.size() == 1);
    CHECK(skipped[0].find("empty board") != std::string::npos);
    // The setup and seven plies of play, as the game played them, from the empty board.
    std::vector<std::string> expected;
    for (int i = 0; i < setup + 7; ++i) expected.push_back(played.moves[std::size_t(i)].move);
    CHECK(got[0].history == expected);
    CHECK(got[0].start == played.start_fen);

    // Played from there: the record starts with those moves, and each player was told them
    // as the arbiter tells a game (the views take every token; nothing of the others leaks).
    GameConfig from = cfg;
    from.start_fen = got[0].start;
    from.history = got[0].history;
    BlindRandom g1("g", 21), b1("b", 22);
    const GameRecord again = play_game({&g1, &b1}, from);
    CHECK(again.aborted.empty());
    REQUIRE(again.moves.size() > expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) CHECK(again.moves[i].move == expected[i]);
    CHECK(g1.leaks.empty());
    CHECK(b1.leaks.empty());
    // The state file knows the openings: a resume with other ones names the difference.
    TournamentConfig tc_a, tc_b;
    tc_a.game = tc_b.game = cfg;
    tc_a.blind_openings = got;
    tc_b.blind_openings = got;
    tc_b.blind_openings[0].history.pop_back();
    CHECK(
        settings_difference(settings_json(tc_a), settings_json(tc_b)).rfind("blind_openings", 0) ==
        0);
    CHECK(settings_difference(settings_json(tc_a), settings_json(tc_a)).empty());
    // After seven plies of play Blue moves first: one token a ply, its own moves as played
    // (with `x` when it took a man), Green's as `?` or `?x<cell>`.
    std::istringstream line(b1.first);
    std::vector<std::string> told;
    for (std::string w; line >> w && w != "moves";) {
    }
    for (std::string w; line >> w;) told.push_back(w);
    REQUIRE(told.size() == expected.size());
    Position p(2, cfg.rules);
    REQUIRE_FALSE(p.set(played.start_fen, cfg.rules));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        CAPTURE(i);
        if (p.to_move() == BLUE)
            CHECK(told[i].rfind(expected[i], 0) == 0);
        else
            CHECK(told[i][0] == '?');
        auto m = parse_played_move(p, expected[i]);
        REQUIRE(std::holds_alternative<Move>(m));
        p.do_move(std::get<Move>(m));
    }
    std::remove(path.c_str());
}

TEST_CASE("openings: start positions from records, the setup and N plies of play") {
    // Two records: a game from the empty board (setup, then play) and one from a position.
    Position p(2, Rules{});
    std::string movetext;
    MoveList l;
    int plies = 0, after_setup = -1;
    std::vector<std::string> played_fens;
    while (plies < 40) {  // a whole setup and a few moves, the first legal move each time
        generate_legal(p, l);
        REQUIRE(l.size > 0);
        movetext += to_record_algebraic(p, l.moves[0]) + " ";
        p.do_move(l.moves[0]);
        played_fens.push_back(p.fen());
        if (after_setup < 0 && p.phase() == Phase::Play) after_setup = plies;
        ++plies;
        if (p.game_over()) break;
    }
    const std::string path = "/tmp/klinzha_openings_test.pgn";
    {
        std::ofstream out(path);
        out << "[Event \"a\"]\n[Players \"2\"]\n\n" << movetext << "*\n\n";
        out << "[Event \"b\"]\n[Players \"2\"]\n[SetUp \"1\"]\n[FEN \"" << kStart2
            << "\"]\n\n*\n\n";
        out << "[Event \"c\"]\n[Players \"3\"]\n\n*\n";
    }
    // The position after the setup and 2 plies of play, from the game as it was played.
    REQUIRE(after_setup > 0);
    const std::vector<std::string> fens = {played_fens[std::size_t(after_setup + 2)]};
    std::vector<std::string> skipped;
    auto spec = OpeningsSpec::parse({"file=" + path, "plies=2", "order=sequential"});
    std::vector<std::string> got;
    for (const auto& o : load_openings(spec, Rules{}, 2, &skipped)) got.push_back(o.fen);
    REQUIRE(got.size() == 2);
    CHECK(got[0] == fens[0]);
    Position start2;
    REQUIRE_FALSE(start2.set(kStart2, Rules{}));
    CHECK(got[1] == start2.fen());
    REQUIRE(skipped.size() == 1);  // the three-player record
    CHECK(skipped[0].find("3-player") != std::string::npos);
    // Random order: the same openings, shuffled by the seed.
    spec = OpeningsSpec::parse({path, "plies=2", "order=random", "seed=4"});
    std::vector<std::string> shuffled;
    for (const auto& o : load_openings(spec, Rules{}, 2)) shuffled.push_back(o.fen);
    std::sort(shuffled.begin(), shuffled.end());
    std::sort(got.begin(), got.end());
    CHECK(shuffled == got);
    CHECK_THROWS_WITH(OpeningsSpec::parse({"plies=2"}), doctest::Contains("needs a file"));
    CHECK_THROWS_WITH(OpeningsSpec::parse({path, "order=backwards"}),
                      doctest::Contains("random or sequential"));
    CHECK_THROWS_WITH(load_openings(OpeningsSpec::parse({"/nonexistent/x.pgn"}), Rules{}, 2),
                      doctest::Contains("cannot read '/nonexistent/x.pgn'"));
    std::remove(path.c_str());
}
