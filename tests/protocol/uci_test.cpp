// tests/protocol/uci_test.cpp: in-process sessions through the injectable sink (SPEC 13).
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "engine/movegen.h"
#include "eval/nnue/network.h"
#include "session.h"
#include "test_util.h"

using namespace klinzha;
using testutil::Session;

namespace {
std::string fen_of(Session& s) {
    s.clear();
    s.send("d");
    auto l = s.wait_for("Fen: ", 1000);
    return l.empty() ? "" : l.substr(5);
}
}  // namespace

TEST_CASE("handshake: id, every required option, uciok last, isready") {
    Session s;
    s.send("uci");
    auto lines = s.lines();
    REQUIRE(!lines.empty());
    CHECK(lines.front().rfind("id name klinzha", 0) == 0);
    CHECK(lines.back() == "uciok");
    for (const char* name :
         {"Hash", "Threads", "MultiPV", "Move Overhead", "Players", "UCI_Variant", "GoalSafety",
          "PowerVanguard", "FlierJumpsWalls", "ForwardPlacement", "AlternatingPlacement",
          "Debug Log File", "Skill Level", "UCI_LimitStrength", "UCI_Elo"}) {
        bool found = false;
        for (auto& l : lines)
            found |= l.rfind(std::string("option name ") + name + " type ", 0) == 0;
        CHECK_MESSAGE(found, name);
    }
    CHECK(s.with_prefix("option name Hash type spin default 16 min 1 max").size() == 1);
    CHECK(s.with_prefix("option name FlierJumpsWalls type check default true").size() == 1);
    s.clear();
    s.send("isready");
    CHECK(s.lines() == std::vector<std::string>{"readyok"});
}

TEST_CASE("setoption: case-insensitive names, range checks, errors change nothing") {
    Session s;
    s.send("setoption name hash value 32");
    s.send("setoption name GOALSAFETY value true");
    CHECK(s.lines().empty());
    CHECK(s.uci().engine().rules().goal_safety);
    const std::pair<const char*, const char*> bad[] = {
        {"setoption name NoSuchThing value 1", "unknown option"},
        {"setoption name Hash value 0", "must be in 1..65536"},
        {"setoption name Hash value 99999999999999999999", "whole number"},
        {"setoption name Hash value abc", "whole number"},
        {"setoption name Hash", "needs a value"},
        {"setoption name GoalSafety value maybe", "true or false"},
        {"setoption name UCI_Variant value chess", "no choice"},
        {"setoption name Players value 4", "2..3"},
        {"setoption value 3", "expected"},
        {"setoption", "expected"},
    };
    for (auto [line, why] : bad) s.expect_one_error(line, why);
    CHECK(s.uci().engine().rules().goal_safety);  // unchanged by the errors
    CHECK(s.uci().engine().players() == 2);
    s.send("setoption name UCI_Variant value klin-zha-open");
    CHECK(s.uci().engine().rules().goal_safety);
    s.send("setoption name UCI_Variant value romulan-heart");
    CHECK_FALSE(s.uci().engine().rules().goal_safety);
    s.send("setoption name Move Overhead value 100");
    CHECK(s.uci().engine().settings().move_overhead_ms == 100);
    // The setup planner's weights (SetupPlanner::Params), one option each.
    s.send("setoption name SetupThreatFirst value 5000");
    s.send("setoption name setupthreatlater value 0");
    s.send("setoption name SetupVariety value 30");
    CHECK(s.uci().engine().planner().threat_first_cp == 5000);
    CHECK(s.uci().engine().planner().threat_later_cp == 0);
    CHECK(s.uci().engine().planner().variety_cp == 30);
    s.send("setoption name SetupTime value 12");
    s.send("setoption name SetupReplyRuns value 4");
    s.send("setoption name SetupSearchDepth value 7");
    CHECK(s.uci().engine().planner().time_moves == 12);
    CHECK(s.uci().engine().planner().reply_runs == 4);
    CHECK(s.uci().engine().planner().judge_depth == 7);
    s.expect_one_error("setoption name SetupSearchDepth value 17", "must be in 0..");
    CHECK(s.uci().engine().planner().judge_depth == 7);
    s.expect_one_error("setoption name SetupTime value 65", "must be in 0..");
    CHECK(s.uci().engine().planner().time_moves == 12);
    s.expect_one_error("setoption name SetupThreatLater value -5", "must be in 0..");
    s.expect_one_error("setoption name SetupVariety value x", "whole number");
    CHECK(s.uci().engine().planner().threat_later_cp == 0);
    CHECK(s.uci().engine().planner().variety_cp == 30);
    // The blind player's weights (BlindSearch::Params), one option each.
    s.send("setoption name BlindRefusal value 0");
    s.send("setoption name blindexplore value 1500");
    CHECK(s.uci().engine().blind_params().refusal_cp == 0);
    CHECK(s.uci().engine().blind_params().explore_cp == 1500);
    s.expect_one_error("setoption name BlindRefusal value -1", "must be in 0..");
    s.expect_one_error("setoption name BlindRefusal value 20001", "must be in 0..");
    CHECK(s.uci().engine().blind_params().refusal_cp == 0);
    s.send("setoption name BlindTypeSwap value 40");
    CHECK(s.uci().engine().blind_params().belief.type_swap == 40);
    s.expect_one_error("setoption name BlindTypeSwap value 101", "must be in 0..");
    CHECK(s.uci().engine().blind_params().belief.type_swap == 40);
    s.send("setoption name Clear Hash");
    s.send("setoption name Players value 3");
    CHECK(s.uci().engine().players() == 3);
}

TEST_CASE("position then d prints the same position string, setup through every phase") {
    Session s;
    s.send("position startpos");
    CHECK(fen_of(s) == kStartFen2);
    const char* sample =
        "3 Hi99,Qi67,Ri99,Bh68,Nh79,Ni78,Pf69,Pg68,Pi56,Wh78 Hi23,Qh24,Rg25,Bh35,Ng36,Ni34,"
        "Ph13,Pi23,Pi45,Wh46 Hc17,Qd38,Re27,Bd16,Nd17,Nd39,Pc17,Pd49,Pe26,Wd28 k play 5 2";
    s.send(std::string("position fen ") + sample);
    CHECK(fen_of(s) == sample);
    s.send(
        "position startpos moves W@h78 R@i99 Q@i67 B@h68 N@i78 N@h79 P@i56 P@g68 P@f69 W@h34 "
        "R@i23 Q@h24 B@h35 N@i34 N@g36 P@i45 P@h23 P@h13 H@i99 H@i23 i99i89h");
    CHECK(fen_of(s) ==
          "2 Hi89,Qi67,Ri89,Bh68,Nh79,Ni78,Pf69,Pg68,Pi56,Wh78 Hi23,Qh24,Ri23,Bh35,Ng36,Ni34,"
          "Ph13,Ph23,Pi45,Wh34 - b play 1 1");
    s.send("setoption name Players value 3");
    s.send("position startpos moves W@h78");
    CHECK(fen_of(s) == "3 Wh78 - - g place 0 1");
}

TEST_CASE("a bad position or move: one error line naming it, position unchanged") {
    Session s;
    s.send("position startpos moves W@h78 R@i99");
    const std::string before = fen_of(s);
    const std::pair<const char*, const char*> bad[] = {
        {"position startpos moves W@h68 R@i99 X@i88", "move 3"},
        {"position startpos moves W@h68 W@h78", "move 2"},
        {"position startpos moves i99i89", "move 1"},
        {"position fen 2 - - - g place 0", "8 fields"},
        {"position fen 2 Qi11 - - g place 0 1", "outside its setup cells"},
        {"position fen", "needs a position string"},
        {"position", "expected"},
        {"position startpos W@h78", "expected 'moves'"},
        {"position sideways", "expected"},
    };
    for (auto [line, why] : bad) {
        s.expect_one_error(line, why);
        CHECK(fen_of(s) == before);
    }
}

TEST_CASE("go perft prints a line per move, a blank line and the total (reference counts)") {
    Session s;
    s.send("position startpos");
    s.send("go perft 2");
    s.uci().wait_task();
    auto l = s.lines();
    REQUIRE(l.size() == 144 + 2);
    CHECK(l[144].empty());
    CHECK(l[145] == "Nodes searched: 17664");
    CHECK(l[0].find(": ") != std::string::npos);
    s.clear();
    s.send(
        "position fen 3 Hh79,Qh35,Rd49,Ni99,Ni45,Pi88,Ph68,Pf58,Wh45 Hg36,Qg13,Bi23,Nc29,Nb18,Pi12,"
        "Pg36,Wg24 Hf37,Rd16,Bb29,Ng68,Nf26,Pe38,Wd17 b play 1 20");
    s.send("go perft 3");
    s.uci().wait_task();
    CHECK(s.lines().back() == "Nodes searched: 76881");
    CHECK(s.lines().size() == 41 + 2);
}

TEST_CASE("go in each phase answers a legal bestmove with info lines") {
    Session s;
    for (const char* pos :
         {"position startpos", "position startpos moves W@h78 R@i99",
          "position fen 2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,"
          "Ng24,Ph35,Ph13,Ph12,Wg35 - b heart 0 1",
          "position fen 2 Hg68,Rh78,Bh89,Ni89,Nf69,Pi66,Ph67,Pg79,Wi77 Hg24,Qh56,Rh34,Be38,Nf26,"
          "Pi11,Ph24,Ph23,Wh12 - b play 24 16"}) {
        s.send(pos);
        Position p = s.uci().engine().position();
        s.clear();
        s.send("go depth 3");
        auto bm = s.wait_for("bestmove ");
        REQUIRE_FALSE(bm.empty());
        CHECK(testutil::legal(p, bm.substr(9, bm.find(' ', 9) - 9)));
        auto info = s.with_prefix("info depth ");
        REQUIRE_FALSE(info.empty());
        CHECK(info.back().find(" score ") != std::string::npos);
        CHECK(info.back().find(" pv ") != std::string::npos);
        CHECK(info.back().find(" hashfull ") != std::string::npos);
        s.uci().engine().wait();
    }
}

TEST_CASE("every go form parses, bad numbers and unknown words are errors") {
    Session s;
    s.send("position startpos");
    for (const char* go :
         {"go gtime 1000 btime 1000 ginc 10 binc 10", "go wtime 1000 btime 900 winc 5 binc 5",
          "go gtime 500 btime 500 ktime 500 gdelay 50 bdelay 50 kdelay 50 movestogo 10",
          "go movetime 50", "go depth 2", "go nodes 2000", "go mate 2 depth 2",
          "go searchmoves W@h78 P@i99 depth 2"}) {
        s.clear();
        s.send(go);
        auto bm = s.wait_for("bestmove ");
        CAPTURE(std::string(go));
        CHECK_FALSE(bm.empty());
        CHECK(s.with_prefix("info string error").empty());
        s.uci().engine().wait();
    }
    s.clear();
    s.send("go searchmoves W@h78 depth 3");
    // The only move searched; a ponder move may follow.
    CHECK(s.wait_for("bestmove ").rfind("bestmove W@h78", 0) == 0);
    s.uci().engine().wait();
    for (const char* bad : {"go depth", "go depth x", "go depth -3", "go nodes 1e9",
                            "go wtime 99999999999999999999999", "go sideways",
                            "go searchmoves i99i89", "go perft 0"}) {
        s.expect_one_error(bad, "", "info string error: go");
        CHECK_FALSE(s.uci().engine().searching());
    }
}

TEST_CASE("infinite and ponder searches wait for stop / ponderhit, isready during search") {
    Session s;
    s.send(
        "position fen 2 Hg68,Rh78,Bh89,Ni89,Nf69,Pi66,Ph67,Pg79,Wi77 Hg24,Qh56,Rh34,Be38,"
        "Nf26,Pi11,Ph24,Ph23,Wh12 - g play 24 16");
    s.send("go infinite");
    s.send("isready");
    CHECK(s.wait_for("readyok", 2000) == "readyok");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(s.with_prefix("bestmove").empty());
    s.send("stop");
    CHECK_FALSE(s.wait_for("bestmove ", 2000).empty());
    s.uci().engine().wait();
    // Pondering ignores the clock.
    s.expect_bestmove_only_after("go ponder gtime 100 btime 100", 300, "ponderhit", 3000);
}

TEST_CASE("finished games answer bestmove 0000 after an info string") {
    Session s;
    s.send(
        "position fen 2 Hh67,Ri56,Bg68,Ni22,Nh34,Pi89,Ph67,Pe48,Wh79 Qh23,Rh24,Bi11,Ng35,Nf59,"
        "Pg47,Pg13,Wi33 - g play 0 21");
    s.send("go depth 3");
    CHECK(s.wait_for("bestmove ") == "bestmove 0000");
    CHECK(s.with_prefix("info string game over").size() == 1);
}

TEST_CASE("d, eval and bench extensions") {
    Session s;
    s.send("position startpos moves W@h78");
    s.send("d");
    CHECK(s.with_prefix("Key: ").size() == 1);
    CHECK(s.with_prefix("i ").size() == 1);
    s.clear();
    s.send("eval");
    CHECK(s.with_prefix("material").size() == 1);
    CHECK(s.with_prefix("Evaluation for the player to move").size() == 1);
    s.clear();
    s.send("bench 1");
    s.uci().wait_task();
    CHECK(s.with_prefix("Nodes searched: ").size() == 1);
    CHECK(s.with_prefix("Nodes/second: ").size() == 1);
}

TEST_CASE("bench node count is stable across runs (the build's signature)") {
    Session a, b;
    a.send("bench 2");
    b.send("bench 2");
    a.uci().wait_task();
    b.uci().wait_task();
    auto na = a.with_prefix("Nodes searched: ");
    auto nb = b.with_prefix("Nodes searched: ");
    REQUIRE(na.size() == 1);
    CHECK(na == nb);
}

TEST_CASE("robustness: thousands of malformed lines, then a valid session still works") {
    Session s;
    std::mt19937 rng(12345);
    const std::vector<std::string> words = {
        "uci",     "isready",  "position",    "startpos",  "fen",
        "moves",   "go",       "depth",       "perft",     "setoption",
        "name",    "value",    "Hash",        "stop",      "W@h78",
        "i99i89h", "H@",       "0000",        "-1",        "99999999999999999999999",
        "2",       "3",        "-",           "g",         "play",
        "place",   "heart",    "searchmoves", "ponderhit", "d",
        "eval",    "\xff\xfe", "ucinewgame",  "Players",   "mate",
        "nodes",   "0"};
    for (int i = 0; i < 3000; ++i) {
        std::string line;
        int kind = i % 4;
        if (kind == 0) {  // random bytes
            int n = int(rng() % 40);
            for (int k = 0; k < n; ++k) line += char(rng() % 256);
        } else if (kind == 1) {  // random words
            int n = int(rng() % 8);
            for (int k = 0; k < n; ++k) line += words[rng() % words.size()] + " ";
        } else if (kind == 2) {  // truncated valid commands
            std::string full = "position fen 2 Hi99,Pi99 Hi11,Pi11 - g play 0 1 moves i99i89";
            line = full.substr(0, rng() % full.size());
        } else {  // very long line
            line = std::string(5000 + rng() % 5000, char('a' + rng() % 26));
        }
        // Keep searches short: never start an open-ended one.
        if (line.find("go") != std::string::npos) line = "go " + std::string("depth 1");
        CHECK(s.send(line));
        s.uci().engine().wait();
    }
    s.clear();
    s.send("setoption name Players value 2");
    s.send("position startpos moves W@h78");
    s.send("isready");
    CHECK(s.wait_for("readyok", 1000) == "readyok");
    s.send("go depth 1");
    CHECK_FALSE(s.wait_for("bestmove ").empty());
    s.uci().engine().wait();
    CHECK_FALSE(s.send("quit"));
}

TEST_CASE("Debug Log File: every line in and out, with a timestamp, a bad path is an error") {
    std::string path = "/tmp/klinzha_debug_log_test_" + std::to_string(::getpid()) + ".log";
    std::remove(path.c_str());
    {
        Session s;
        s.send("setoption name Debug Log File value " + path);
        s.send("isready");
        s.send("frobnicate");
        s.send("setoption name Debug Log File value");
        s.send("isready");  // after closing: not logged
        s.clear();
        s.send("setoption name Debug Log File value /dev/null/x.log");
        auto l = s.lines();
        REQUIRE(l.size() == 1);
        CHECK(l[0].rfind("info string error: setoption: cannot open debug log file", 0) == 0);
    }
    std::ifstream f(path);
    REQUIRE(f);
    std::vector<std::string> lines;
    for (std::string line; std::getline(f, line);) lines.push_back(line);
    auto has = [&](const std::string& text) {
        int n = 0;
        for (auto& l : lines)
            n += l.size() > text.size() && l.front() == '[' &&
                 l.compare(l.size() - text.size(), text.size(), text) == 0;
        return n;
    };
    CHECK(has("<< isready") == 1);
    CHECK(has(">> readyok") == 1);
    CHECK(has("<< frobnicate") == 1);
    CHECK(has(">> info string error: unknown command 'frobnicate'") == 1);
    std::remove(path.c_str());
}

TEST_CASE("MultiPV reports that many lines per depth, Threads > 1 searches and answers") {
    Session s;
    s.send("setoption name MultiPV value 3");
    s.send(
        "position fen 2 Hg68,Rh78,Bh89,Ni89,Nf69,Pi66,Ph67,Pg79,Wi77 Hg24,Qh56,Rh34,Be38,"
        "Nf26,Pi11,Ph24,Ph23,Wh12 - g play 24 16");
    s.send("go depth 3");
    REQUIRE_FALSE(s.wait_for("bestmove ").empty());
    s.uci().engine().wait();
    CHECK(s.with_prefix("info depth 3 ").size() == 3);
    auto l = s.with_prefix("info depth 3 ");
    CHECK(l[0].find("multipv 1 ") != std::string::npos);
    CHECK(l[2].find("multipv 3 ") != std::string::npos);
    s.clear();
    s.send("setoption name MultiPV value 1");
    s.send("setoption name Threads value 2");
    s.send("go depth 6");
    auto bm = s.wait_for("bestmove ");
    REQUIRE_FALSE(bm.empty());
    CHECK(testutil::legal(s.uci().engine().position(), bm.substr(9, bm.find(' ', 9) - 9)));
    s.uci().engine().wait();
}

TEST_CASE("three players: a player with no legal move drops out while moves are replayed") {
    Session s;
    // After Green's move Blue (a heart and no pieces) has no legal move: it is out, its
    // heart removed, and Black's move follows (SPEC 7).
    s.send("position fen 3 Hi99,Pi99 Hi11 Ha19,Pa19 g play 0 1 moves i99i89 a19b19");
    CHECK(s.with_prefix("info string error").empty());
    CHECK(fen_of(s) == "3 Hi99,Pi89 - Ha19,Pb19 g play 2 2");
    // In two-player games there is no such removal: the move list is rejected.
    s.clear();
    s.send("position fen 2 Hi99,Pi99 Hi11,Pi11 - g play 0 1 moves i99i89 i89i88");
    CHECK(s.with_prefix("info string error: moves: move 2").size() == 1);
}

TEST_CASE("issue 11: go infinite and go ponder wait even when the search ends by itself") {
    Session s;
    s.send(
        "position fen 2 Hg68,Rh78,Bh89,Ni89,Nf69,Pi66,Ph67,Pg79,Wi77 Hg24,Qh56,Rh34,Be38,Nf26,"
        "Pi11,Ph24,Ph23,Wh12 - b play 24 16");
    // A forced line: deepening ends at once, and still the answer waits.
    s.expect_bestmove_only_after("go infinite", 500, "stop", 2000);
    s.expect_bestmove_only_after("go ponder depth 1", 300, "ponderhit", 2000);
}

TEST_CASE("issue 11: a go without the mover's clock is a timed search with an empty clock") {
    Session s;
    s.send("position startpos");
    s.send("go btime 100");
    CHECK(s.with_prefix("info string warning").size() == 1);
    CHECK_FALSE(s.wait_for("bestmove ", 3000).empty());  // not an endless search
    s.uci().engine().wait();
}

TEST_CASE("issue 11: after a rejected position, go answers bestmove 0000 until a valid one") {
    Session s;
    s.send("position startpos moves W@h78");
    s.send("position startpos moves W@i11");  // Blue's region: rejected
    s.clear();
    s.send("go depth 1");
    CHECK(s.wait_for("bestmove ") == "bestmove 0000");
    CHECK(s.with_prefix("info string error: go").size() == 1);
    s.send("position startpos");
    s.clear();
    s.send("go depth 1");
    CHECK(s.wait_for("bestmove ") != "bestmove 0000");
    s.uci().engine().wait();
}

TEST_CASE("issue 11: an error quotes at most a few hundred characters of the bad input") {
    Session s;
    const std::string huge(1'000'000, 'x');
    s.send("position startpos moves " + huge);
    s.send("frobnicate" + huge);
    auto errs = s.with_prefix("info string error");
    REQUIRE(errs.size() == 2);
    for (const auto& e : errs) CHECK(e.size() < 400);
}

TEST_CASE("issue 11: go perft and bench answer isready, stop and quit while they run") {
    for (const char* cmd : {"go perft 7", "bench 30"}) {
        Session s;
        s.send("position startpos");
        s.send(cmd);
        s.send("isready");
        CHECK(s.wait_for("readyok", 1000) == "readyok");
        s.send("go depth 1");  // refused while it runs
        CHECK(s.with_prefix("info string error: go").size() == 1);
        const auto t0 = std::chrono::steady_clock::now();
        s.send("stop");
        CHECK_FALSE(s.wait_for("Nodes searched", 5000).empty());
        s.uci().wait_task();
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
        CHECK(s.with_prefix("info string").size() >= 1);  // says the count is partial
        CHECK_FALSE(s.send("quit"));
    }
}

TEST_CASE("go perft and bench: a go sent the moment the last line is read is accepted") {
    // The last line of a task (Nodes searched, Nodes/second) comes after the session stops
    // being busy, as bestmove does after a search: a client may answer it with `go` at once.
    // The writer here is a slow pipe: the reader sees each line 2 ms before write returns.
    Session s(std::chrono::milliseconds(2));
    // Sends cmd; true when it is not refused (a refusal is answered at once) and its output
    // ends with a line starting with `last`. The wait only guards against a hang: a `bench 1`
    // under ThreadSanitizer, beside the other tests, ran past the default 20 s once.
    auto answer = [&](const std::string& cmd, const std::string& last) {
        s.clear();
        s.send(cmd);
        return s.with_prefix("info string error").empty() && !s.wait_for(last, 180000).empty();
    };
    s.send("position startpos");
    int accepted = 0;
    for (int i = 0; i < 40; ++i) {
        const bool bench = i % 20 == 19;
        CAPTURE(i);
        REQUIRE(
            answer(bench ? "bench 1" : "go perft 1", bench ? "Nodes/second" : "Nodes searched"));
        accepted += int(answer("go perft 1", "Nodes searched"));
    }
    CHECK(accepted == 40);
    s.uci().wait_task();
}

TEST_CASE("issue 11: Debug Log File never creates folders, Threads is capped with a note") {
    Session s;
    s.expect_one_error("setoption name Debug Log File value /nonexistent/x/y.log", "",
                       "info string error: setoption");
    CHECK_FALSE(std::filesystem::exists("/nonexistent/x"));
    s.clear();
    s.send("setoption name Threads value 256");
    const int hw = int(std::thread::hardware_concurrency());
    if (hw > 0 && hw < 256) CHECK(s.with_prefix("info string Threads capped").size() == 1);
}

TEST_CASE("issue 11: a long search is not silent: currmove and a line a second after the first") {
    Session s;
    s.send(
        "position fen 3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,"
        "Ni34,Ng36,Pi45,Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k "
        "play 5 2");
    s.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(2600));
    s.send("stop");
    CHECK_FALSE(s.wait_for("bestmove ", 2000).empty());
    s.uci().engine().wait();
    int periodic = 0, currmove = 0;
    for (const auto& l : s.with_prefix("info depth")) {
        if (l.find(" currmove ") != std::string::npos) ++currmove;
        if (l.find(" currmove ") == std::string::npos && l.find(" pv ") == std::string::npos)
            ++periodic;
    }
    CHECK(currmove >= 1);
    CHECK(periodic >= 1);
}

TEST_CASE("issue 11 (found by fuzzing): position and ucinewgame while go perft or bench runs") {
    Session s;
    s.send("position startpos");
    s.send("go perft 6");
    for (int i = 0; i < 20; ++i) {
        s.send("position startpos moves W@h78 Q@g79");
        s.send("position fen 2 - - - g place 0 1");
    }
    s.send("stop");
    s.uci().wait_task();
    s.send("bench 20");
    s.send("ucinewgame");  // ends the bench first
    s.send("isready");
    CHECK(s.wait_for("readyok", 5000) == "readyok");
    s.send("stop");
    s.uci().wait_task();
}

TEST_CASE("Kinta: combat prints the exact outcome, bad fighters are refused (SPEC 26)") {
    Session s;
    s.send("combat N12 P9h");
    auto lines = s.lines();
    REQUIRE(lines.size() == 22);  // win, 12 A lines, 9 D lines (combat.txt's line)
    CHECK(lines[0] == "win 0.470407182719041");
    CHECK(lines[1].rfind("A 1 0.0086314968592880", 0) == 0);
    CHECK(lines.back().rfind("D 9 0.3160138678795", 0) == 0);
    for (const char* bad : {"combat W100 Q110", "combat B150h Q110", "combat Q111 Q110",
                            "combat Q110", "combat Z1 Q1", "combat Q110 Q110 Q110"}) {
        CAPTURE(bad);
        s.clear();
        s.send(bad);
        auto l = s.lines();
        REQUIRE(l.size() == 1);
        CHECK(l[0].rfind("info string error: combat", 0) == 0);
    }
}

TEST_CASE("Kinta: position moves carry each attack's outcome, a bad one changes nothing") {
    Session s;
    s.send("setoption name Kinta value true");
    s.send("setoption name PowerVanguard value true");
    const std::string start = "position fen 2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1";
    s.send(start + " moves i23i34:D77");
    CHECK(fen_of(s) == "2 Hi99,Qi99,Wi34 Hi11,Ri11 - g play 0 2 strength=i34:77");
    for (const char* bad : {" moves i23i34", " moves i23i34:A121", " moves i23h23:A5",
                            " moves i23i34:X5", " moves i23i34:A0", " moves i23i34:A"}) {
        CAPTURE(bad);
        s.clear();
        s.send(start + bad);
        auto l = s.lines();
        REQUIRE(!l.empty());
        CHECK(l[0].rfind("info string error: moves: move 1", 0) == 0);
        CHECK(fen_of(s) == "2 Hi99,Qi99,Wi34 Hi11,Ri11 - g play 0 2 strength=i34:77");
    }
    s.send(start + " moves i23i34:A87");
    CHECK(fen_of(s) == "2 Hi99,Qi99 Hi11,Ri11,Pi34 - g play 0 2 strength=i34:87");
}

TEST_CASE("Kinta: bestmove and perft give attacks bare, the best attack's odds in info string") {
    Session s;
    s.send("setoption name Kinta value true");
    s.send("setoption name PowerVanguard value true");
    // Blue's pawn can only attack the wall or step aside; its rook is walled in.
    s.send("position fen 2 Hi99,Qi99,Wi34 Hi11,Ri11,Pi23 - b play 0 1");
    s.send("go depth 3");
    auto best = s.wait_for("bestmove", 10000);
    REQUIRE(!best.empty());
    CHECK(best.find(':') == std::string::npos);
    s.clear();
    s.send("go depth 2 searchmoves i23i34");
    s.wait_for("bestmove", 10000);
    bool odds = false;
    for (auto& line : s.lines()) odds |= line.rfind("info string odds i23i34 win ", 0) == 0;
    CHECK(odds);
    s.clear();
    s.send("go perft 1");
    auto l = s.wait_for("Nodes searched", 10000);
    bool attack = false;
    for (auto& line : s.lines()) {
        CHECK(line.find(':') == line.rfind(':'));  // "i23i34: 1", never "i23i34:A..: 1"
        attack |= line.rfind("i23i34: 1", 0) == 0;
    }
    CHECK(attack);
}

TEST_CASE("Use NNUE and EvalFile: the built-in network, a bad file refused, state kept") {
    Session s;
    const std::string pos =
        "position fen 2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,"
        "Ng25,Ng14,Ph24,Ph12,Pf26,Wi44 - g play 0 1";
    if (nnue::default_network() != nullptr) {  // the built-in network is the default
        s.send(pos);
        s.send("eval");
        CHECK(s.wait_for("Evaluation for the player to move (NNUE)", 2000).size() > 0);
        s.clear();
    }
    s.send("setoption name Use NNUE value false");
    // A file that is not there, or not a network: an error, and the evaluation stays classical.
    s.send("setoption name EvalFile value /nonexistent/net.nnue");
    CHECK(s.with_prefix("info string error").size() == 1);
    const std::string junk = "/tmp/klinzha_uci_test_junk.nnue";
    std::ofstream(junk) << "KZNN but not a network";
    s.clear();
    s.send("setoption name EvalFile value " + junk);
    CHECK(s.with_prefix("info string error").size() == 1);
    std::remove(junk.c_str());
    s.clear();
    s.send(pos);
    s.send("eval");
    CHECK(s.wait_for("Classical evaluation", 2000).size() > 0);
    CHECK(s.with_prefix("Evaluation for the player to move (NNUE)").empty());
    s.clear();
    s.send("setoption name Use NNUE value true");
    if (nnue::default_network() == nullptr) {  // a build without eval/nnue/default.nnue
        CHECK(s.with_prefix("info string error").size() == 1);
        return;
    }
    CHECK(s.lines().empty());
    s.send("eval");
    CHECK(s.wait_for("Evaluation for the player to move (NNUE)", 2000).size() > 0);
    // The same search twice, from a new game, gives the same nodes and move (bench's node
    // count stays the build's signature with a network).
    auto search = [&] {
        s.send("ucinewgame");
        s.send(pos);
        s.clear();
        s.send("go depth 6");
        const auto best = s.wait_for("bestmove", 20000);
        const auto infos = s.with_prefix("info depth");
        REQUIRE_FALSE(infos.empty());
        const auto& last = infos.back();
        const auto at = last.find(" nodes ");
        REQUIRE(at != std::string::npos);
        return best + last.substr(at, last.find(' ', at + 7) - at);
    };
    const std::string first = search();
    CHECK(first.rfind("bestmove ", 0) == 0);
    CHECK(search() == first);
}

TEST_CASE("NNUE Three Players and the levels: the classical terms unless asked") {
    Session s;
    if (nnue::default_network() == nullptr) return;  // a build without eval/nnue/default.nnue
    s.send("setoption name Use NNUE value true");
    s.send(
        "position fen 3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,"
        "Ni34,Ng36,Pi45,Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k "
        "play 5 2");
    s.send("eval");
    CHECK(s.wait_for("Evaluation for the player to move: ", 2000)
              .find("the network does not apply here") != std::string::npos);
    CHECK(s.with_prefix("Evaluation for the player to move (NNUE)").empty());
    s.clear();
    s.send("setoption name NNUE Three Players value true");
    CHECK(s.lines().empty());
    s.send("eval");
    CHECK(s.wait_for("Evaluation for the player to move (NNUE)", 2000).size() > 0);
    // A bad value is refused and the setting stays.
    s.clear();
    s.send("setoption name NNUE Three Players value maybe");
    CHECK(s.wait_for("info string error", 2000).size() > 0);
    s.clear();
    s.send("eval");
    const std::string three_net = s.wait_for("Evaluation for the player to move (NNUE)", 2000);
    CHECK(three_net.size() > 0);
    // The three-player network's file: one that is not there is refused, the network kept.
    s.clear();
    s.send("setoption name EvalFile Three Players value /nonexistent/three.nnue");
    CHECK(s.wait_for("info string error", 2000).find("three.nnue") != std::string::npos);
    s.clear();
    s.send("eval");
    CHECK(s.wait_for("Evaluation for the player to move (NNUE)", 2000) == three_net);
    // A level below 20 keeps the classical terms (its Elo scale was measured with them).
    s.send("setoption name Skill Level value 10");
    s.clear();
    s.send("eval");
    CHECK(s.wait_for("Evaluation for the player to move: ", 2000).size() > 0);
    CHECK(s.with_prefix("Evaluation for the player to move (NNUE)").empty());
    s.send("setoption name Skill Level value 20");
    s.clear();
    s.send("eval");
    CHECK(s.wait_for("Evaluation for the player to move (NNUE)", 2000).size() > 0);
}
