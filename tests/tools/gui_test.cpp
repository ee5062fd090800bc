// tests/tools/gui_test.cpp: klinzha-gui without a browser (issue 10): the session's
// WebSocket messages, bad messages answered with an error and nothing changed, and the
// server's refusal of any path outside its folder.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "engine/svg.h"
#include "server.h"
#include "session.h"

using namespace klinzha;
using nlohmann::json;

namespace {

/// A session whose messages are collected (thread-safe, as the server's writer is).
struct Collector {
    std::mutex m;
    std::vector<json> out;
    gui::GuiSession::Send send() {
        return [this](const std::string& s) {
            std::lock_guard lock(m);
            out.push_back(json::parse(s));
        };
    }
    json last(const std::string& type) {
        std::lock_guard lock(m);
        for (auto it = out.rbegin(); it != out.rend(); ++it)
            if ((*it)["type"] == type) return *it;
        return json();
    }
    std::size_t count(const std::string& type) {
        std::lock_guard lock(m);
        std::size_t n = 0;
        for (auto& j : out) n += j["type"] == type;
        return n;
    }
};

std::vector<gui::EngineEntry> engines() {
    gui::EngineEntry e;
    e.spec.name = "klinzha";
    e.spec.cmd = KLINZHA_BINARY;
    return {e};
}

}  // namespace

TEST_CASE("gui session: hello answers the engines, rules, variants and the state") {
    Collector c;
    gui::GuiSession s(engines(), c.send());
    s.handle(R"({"type":"hello"})");
    const json w = c.last("welcome");
    REQUIRE(w.is_object());
    CHECK(w["engines"][0]["name"] == "klinzha");
    CHECK(w["rules"].size() == kRuleOptions.size());
    CHECK(w["variants"].size() == kVariantNames.size());
    const json st = c.last("state");
    CHECK(st["fen"] == kStartFen2);
    CHECK(st["plies"] == 0);
    // The board of the state: 81 cells, each named.
    const std::string svg = st["svg"];
    std::size_t cells = 0;
    for (auto p = svg.find("data-cell=\""); p != std::string::npos;
         p = svg.find("data-cell=\"", p + 1))
        ++cells;
    CHECK(cells == 81);
}

TEST_CASE("gui session: bad messages get an error and change nothing") {
    Collector c;
    gui::GuiSession s(engines(), c.send());
    s.handle(R"({"type":"hello"})");
    const json before = c.last("state");
    const char* bad[] = {
        "not json",
        "[1,2]",
        R"({"no":"type"})",
        R"({"type":"fly"})",
        R"({"type":"move","move":"e48e38"})",  // no game running
        R"({"type":"move"})",
        R"({"type":"goto","ply":5})",  // no such ply
        R"({"type":"goto","ply":"x"})",
        R"({"type":"set_position","fen":"2 nonsense"})",
        R"({"type":"new_game","players":4,"seats":[]})",
        R"({"type":"new_game","players":2,"seats":["human","rm -rf /"]})",  // not an engine
        R"({"type":"new_game","players":2,"seats":["human","human"],"tc":"soon"})",
        R"({"type":"new_game","players":2,"seats":["human","human"],"variant":"chess"})",
        R"({"type":"load","record":"this is no record"})",
        R"({"type":"view","colour":"red"})",
        R"({"type":"analyse","engine":"nobody"})",
        R"({"type":"takeback"})",
    };
    for (const char* m : bad) {
        const std::size_t errors = c.count("error");
        s.handle(m);
        CHECK_MESSAGE(c.count("error") == errors + 1, m);
    }
    s.handle(R"({"type":"hello"})");
    CHECK(c.last("state")["fen"] == before["fen"]);
    CHECK(c.last("state")["plies"] == before["plies"]);
}

TEST_CASE("gui session: a person makes refereed moves, illegal ones are refused, takeback works") {
    Collector c;
    gui::GuiSession s(engines(), c.send());
    s.handle(R"({"type":"new_game","players":2,"seats":["human","human"]})");
    // Wait until the referee asks Green.
    for (int i = 0; i < 200 && !c.last("state")["human_to_move"].get<bool>(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    json st = c.last("state");
    REQUIRE(st["human_to_move"].get<bool>());
    const std::size_t errors = c.count("error");
    s.handle(R"({"type":"move","move":"Qa19"})");  // Black's corner: not Green's region
    CHECK(c.count("error") == errors + 1);
    const std::string first = st["legal"][0]["move"];
    s.handle(json{{"type", "move"}, {"move", first}}.dump());
    for (int i = 0; i < 200 && c.last("state")["plies"] != 1; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(c.last("state")["plies"] == 1);
    CHECK(c.last("state")["moves"][0]["move"] == first);
    s.handle(R"({"type":"takeback"})");
    for (int i = 0; i < 200 && c.last("state")["plies"] != 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK(c.last("state")["plies"] == 0);
    CHECK(c.last("state")["fen"] == kStartFen2);
}

TEST_CASE("gui server: only the page's own files are served") {
    const auto dir = std::filesystem::temp_directory_path() / "klinzha-gui-test-www";
    std::filesystem::create_directories(dir / "sub");
    std::ofstream(dir / "index.html") << "<html></html>";
    std::ofstream(dir / "sub" / "app.js") << "//";
    std::ofstream(dir.parent_path() / "klinzha-gui-secret.txt") << "secret";
    const std::string www = dir.string();
    CHECK(gui::resolve_path(www, "/").value() == (dir / "index.html").string());
    CHECK(gui::resolve_path(www, "/sub/app.js").has_value());
    CHECK_FALSE(gui::resolve_path(www, "/../klinzha-gui-secret.txt"));
    CHECK_FALSE(gui::resolve_path(www, "/sub/../../klinzha-gui-secret.txt"));
    CHECK_FALSE(gui::resolve_path(www, "/%2e%2e/klinzha-gui-secret.txt"));
    CHECK_FALSE(gui::resolve_path(www, "//etc/passwd"));
    CHECK_FALSE(gui::resolve_path(www, "/nothing.html"));
    CHECK_FALSE(gui::resolve_path(www, "/sub"));  // a folder is no file
    CHECK_FALSE(gui::resolve_path(www, "index.html"));
    CHECK(gui::content_type("/a/app.js").find("javascript") != std::string_view::npos);
    std::filesystem::remove_all(dir);
    std::filesystem::remove(dir.parent_path() / "klinzha-gui-secret.txt");
}

TEST_CASE("svg: one picture per position, every cell and man marked for tools") {
    Position p;
    REQUIRE_FALSE(
        p.set("2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,"
              "Ng25,Ng14,Ph24,Ph12,Pf26,Wi44 - b play 17 9",
              Rules{}));
    const std::string svg = board_svg(p, {});
    CHECK(svg.find("data-cell=\"i99\"") != std::string::npos);
    CHECK(svg.find("data-cell=\"a19\"") != std::string::npos);
    CHECK(svg.find("data-man=\"gW\"") != std::string::npos);
    CHECK(svg.find("data-man=\"bQ\"") != std::string::npos);
    // Both hearts stand on carriers (Rg79, Ph12): drawn on the men, none alone.
    CHECK(svg.find("carried-heart") != std::string::npos);
    CHECK(svg.find("heart-alone") == std::string::npos);
}
