// tests/tools/gui_test.cpp: klinzha-gui without a browser (issue 16): rooms (seats and
// tokens, moves refereed, draws, resignation, take-back by agreement, abort), the store that
// brings a running game back after a restart, the one view function (a seat sees nothing
// hidden from it), connections (bad messages answered with an error and nothing changed, the
// rate limit), the engine options a page may set, and the server's refusals: files outside
// its folder, foreign Host and Origin headers (a real handshake through Beast).
#include <doctest/doctest.h>

// Before Boost 1.74's asio, whose awaitable.hpp needs std::exchange (its own block, so
// clang-format keeps it first).
#include <utility>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "connection.h"
#include "engine/combat.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "engine/svg.h"
#include "lobby.h"
#include "room.h"
#include "server.h"
#include "store.h"

using namespace klinzha;
using nlohmann::json;

namespace {

/// Messages sent to a page, collected (thread-safe, as the server's writer is).
struct Collector {
    std::mutex m;
    std::vector<json> out;
    gui::Connection::Send send() {
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

/// Waits up to 10 s for f() to hold.
bool eventually(const std::function<bool()>& f) {
    for (int i = 0; i < 1000; ++i) {
        if (f()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return f();
}

/// A two-player position in the play phase, Green to move (the SVG test's position).
constexpr const char* kPlayFen2 =
    "2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,"
    "Ph12,Pf26,Wi44 - g play 0 1";

std::vector<gui::EngineEntry> engines() {
    gui::EngineEntry e;
    e.spec.name = "klinzha";
    e.spec.cmd = KLINZHA_BINARY;
    auto opts = gui::query_engine_options(e.spec);
    REQUIRE(std::holds_alternative<std::vector<gui::EngineOption>>(opts));
    e.options = std::get<std::vector<gui::EngineOption>>(opts);
    gui::apply_page_policy(e, {}, false);
    return {e};
}

gui::RoomSettings two_people() {
    gui::RoomSettings s;
    s.players = 2;
    return s;  // seats are persons by default
}

std::shared_ptr<gui::Room> make_room(gui::Lobby& lobby, gui::RoomSettings s) {
    auto r = lobby.create(std::move(s));
    REQUIRE(std::holds_alternative<std::shared_ptr<gui::Room>>(r));
    return std::get<std::shared_ptr<gui::Room>>(r);
}

/// Plays the first legal move for `seat` once it is asked; true when the move was taken.
bool play_first(gui::Room& room, Colour seat) {
    json v;
    if (!eventually([&] {
            v = room.player_view(seat, -1, seat);
            return v["can"]["move"].get<bool>();
        }))
        return false;
    const int plies = v["plies"];
    if (room.move(seat, v["legal"][0]["move"])) return false;
    return eventually([&] { return room.plies() == plies + 1; });
}

/// Plays the first legal move of whoever is to move next (a person); true when taken.
bool play_next(gui::Room& room) {
    const json v = room.player_view(std::nullopt, -1, GREEN);
    const std::string c = v["to_move"];
    return play_first(room, c == "g" ? GREEN : c == "b" ? BLUE : BLACK);
}

}  // namespace

TEST_CASE("gui room: seats are taken with tokens, and only a seat's token moves for it") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = make_room(lobby, two_people());
    CHECK(room->status() == gui::Room::Status::Waiting);
    std::string tg, tb, t2;
    CHECK(room->sit(GREEN, "", tg));     // a name is needed
    CHECK(room->sit(BLACK, "Ann", tg));  // no third seat in two players
    REQUIRE_FALSE(room->sit(GREEN, "Ann", tg));
    CHECK(tg.size() == 32);              // 128 bits
    CHECK(room->sit(GREEN, "Eve", t2));  // taken
    CHECK(room->status() == gui::Room::Status::Waiting);
    REQUIRE_FALSE(room->sit(BLUE, "Bob", tb));
    CHECK(room->status() == gui::Room::Status::Running);
    CHECK(room->seat_of(tg) == GREEN);
    CHECK(room->seat_of(tb) == BLUE);
    CHECK_FALSE(room->seat_of("0123456789abcdef0123456789abcdef"));
    CHECK(room->move(BLUE, "Qe38"));  // not Blue's turn
    REQUIRE(play_first(*room, GREEN));
    CHECK(room->player_view(GREEN, -1, GREEN)["moves"][0]["comment"].get<std::string>().find(
              "book") == std::string::npos);  // a person's move has its time, no "book/0"
    // A spectator sees the game but may not move, and no legal moves are sent to it.
    const json spec = room->player_view(std::nullopt, -1, GREEN);
    CHECK(spec["legal"].empty());
    CHECK(spec["you"].is_null());
    CHECK(spec["can"]["move"] == false);
}

TEST_CASE("gui room: a draw needs every player, a resignation ends a two-player game") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = make_room(lobby, two_people());
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    REQUIRE(play_first(*room, GREEN));
    REQUIRE_FALSE(room->offer_draw(GREEN));
    CHECK(room->status() == gui::Room::Status::Running);
    CHECK(room->player_view(BLUE, -1, BLUE)["seats"][0]["draw_offer"] == true);
    REQUIRE_FALSE(room->decline_draw(BLUE));
    CHECK(room->player_view(BLUE, -1, BLUE)["seats"][0]["draw_offer"] == false);
    REQUIRE_FALSE(room->offer_draw(GREEN));
    REQUIRE_FALSE(room->offer_draw(BLUE));  // accepts
    CHECK(room->status() == gui::Room::Status::Over);
    json v = room->player_view(GREEN, -1, GREEN);
    CHECK(v["result"] == "1/2-1/2");
    CHECK(v["termination"] == "draw by agreement");
    CHECK(room->record().find("(=)") != std::string::npos);  // SPEC 27: written after the move

    auto room2 = make_room(lobby, two_people());
    REQUIRE_FALSE(room2->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room2->sit(BLUE, "Bob", t));
    REQUIRE(play_first(*room2, GREEN));
    REQUIRE_FALSE(room2->resign(BLUE));
    v = room2->player_view(std::nullopt, -1, GREEN);
    CHECK(v["result"] == "1-0");
    CHECK(v["winners"][0] == "Ann");
    CHECK(v["termination"] == "Bob resigns");
}

/// A three-player room of three people (Ann, Bob, Cat) from the SPEC 10 sample (play phase,
/// Black to move), with the clock `tc` ("" none).
std::shared_ptr<gui::Room> three_people(gui::Lobby& lobby, const std::string& tc) {
    gui::RoomSettings s;
    s.players = 3;
    s.tc = tc;
    s.start_fen =
        "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,"
        "Pi45,Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2";
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    REQUIRE_FALSE(room->sit(BLACK, "Cat", t));
    return room;
}

TEST_CASE("gui room: three players, a resignation puts the player out and play goes on") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = three_people(lobby, "");
    REQUIRE(play_first(*room, BLACK));  // Cat, then Ann
    REQUIRE(play_first(*room, GREEN));
    // Bob, to move, resigns: he is out at once (SPEC 7), and Cat is to move.
    REQUIRE_FALSE(room->resign(BLUE));
    json v;
    CHECK(eventually([&] {  // (the referee asks Black once the removal is told)
        v = room->player_view(BLACK, -1, BLACK);
        return v["to_move"] == "k" && v["can"]["move"] == true;
    }));
    CHECK(v["status"] == "running");
    CHECK(v["seats"][1]["in"] == false);
    CHECK(v["seats"][0]["in"] == true);
    CHECK(v["can"]["move"] == true);
    CHECK_FALSE(v["legal"].empty());
    CHECK(v["status_text"].get<std::string>().rfind("Your move", 0) == 0);
    // Bob may do nothing more; Cat and Ann play on.
    CHECK(room->resign(BLUE));
    REQUIRE(play_first(*room, BLACK));
    REQUIRE(play_first(*room, GREEN));
    CHECK(room->player_view(BLACK, -1, BLACK)["can"]["move"] == true);
    // The record says who went out, and where.
    CHECK(room->record().find("{b out: resigned}") != std::string::npos);
    // Cat resigns too: Ann is the last player in and wins.
    REQUIRE_FALSE(room->resign(BLACK));
    CHECK(eventually([&] { return room->status() == gui::Room::Status::Over; }));
    v = room->player_view(std::nullopt, -1, GREEN);
    CHECK(v["result"] == "1-0-0");
    CHECK(v["winners"][0] == "Ann");
}

TEST_CASE("gui room: three players, a flag fall puts the player out and play goes on") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = three_people(lobby, "3+0");
    REQUIRE(play_first(*room, BLACK));  // Cat, then Ann; Bob lets his 3 s run out
    REQUIRE(play_first(*room, GREEN));
    json v;
    CHECK(eventually([&] {  // (the referee asks Black once the removal is told)
        v = room->player_view(BLACK, -1, BLACK);
        return v["to_move"] == "k" && v["can"]["move"] == true;
    }));
    CHECK(v["status"] == "running");
    CHECK(v["seats"][1]["in"] == false);
    CHECK(v["clock_running"] == "k");
    CHECK(room->record().find("{b out: lost on time}") != std::string::npos);
    REQUIRE(play_first(*room, BLACK));  // and the game goes on
    CHECK(room->player_view(GREEN, -1, GREEN)["to_move"] == "g");
}

TEST_CASE("gui room: a record saved mid-game reads back as one unfinished game, with its names") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = make_room(lobby, two_people());
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    REQUIRE(play_next(*room));
    REQUIRE(play_next(*room));
    const std::string pgn = room->record();
    CHECK(pgn.find("[Result \"*\"]") != std::string::npos);
    // Which program played it, and PGN's word for a game not over.
    CHECK(pgn.find("[Site \"klinzha-gui\"]") != std::string::npos);
    CHECK(pgn.find("[Termination \"unterminated\"]") != std::string::npos);
    std::istringstream in(pgn);
    const auto games = read_records(in);
    REQUIRE(games.size() == 1);
    CHECK(games[0].result == "*");
    const auto r = replay(games[0], Rules{}, 2, false);
    CHECK(r.error.empty());
    CHECK(r.moves.size() == 2);
    // Read back in a review room: the names are the players', no seat is free.
    auto review = gui::Room::review("rv0001", pgn, 0, {});
    REQUIRE(std::holds_alternative<std::shared_ptr<gui::Room>>(review));
    const json v =
        std::get<std::shared_ptr<gui::Room>>(review)->player_view(std::nullopt, -1, GREEN);
    CHECK(v["seats"][0]["name"] == "Ann");
    CHECK(v["seats"][1]["name"] == "Bob");
    CHECK(v["seats"][0]["free"] == false);
    CHECK(v["seats"][1]["free"] == false);
    CHECK(v["plies"] == 2);
    // "unterminated" is the record's word for a game going on, not a reason it ended.
    CHECK(v["status_text"].get<std::string>().find("unterminated") == std::string::npos);
}

TEST_CASE("gui room: a heart an opposing man can take is marked in danger") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    // Green's rook on e38 reaches Blue's heart on d38 (a neighbouring cell).
    s.start_fen = "2 Hi99,Pi99,Re38 Hd38,Pd38,Pi11 - b play 0 1";
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    json v;
    REQUIRE(eventually([&] {
        v = room->player_view(BLUE, -1, BLUE);
        return v["can"]["move"] == true;
    }));
    REQUIRE(v["danger"].size() == 1);
    CHECK(v["danger"][0] == "d38");
    CHECK(room->player_view(std::nullopt, -1, GREEN)["danger"][0] == "d38");  // all see it
    // Blue's pawn takes the rook, heart and all: no heart is in danger any more.
    REQUIRE_FALSE(room->move(BLUE, "d38e38h"));
    REQUIRE(eventually([&] { return room->plies() == 1; }));
    CHECK(room->player_view(BLUE, -1, BLUE)["danger"].empty());
}

TEST_CASE("gui room: no analysis for anyone while people play each other, after it for all") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = make_room(lobby, two_people());
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    REQUIRE(play_next(*room));
    CHECK(room->player_view(GREEN, -1, GREEN)["can"]["analyse"] == false);
    CHECK(room->player_view(std::nullopt, -1, GREEN)["can"]["analyse"] == false);  // spectator
    // A spectator's connection asking for analysis is refused, and no engine starts.
    Collector c;
    gui::Connection spectator(lobby, c.send(), 1000);
    spectator.post(json{{"type", "join"}, {"room", room->id()}}.dump());
    REQUIRE(eventually([&] { return c.count("state") > 0; }));
    spectator.post(R"({"type":"analyse","on":true,"engine":"klinzha","multipv":1})");
    REQUIRE(eventually([&] { return c.count("error") == 1; }));
    CHECK(c.count("analysis") == 0);
    REQUIRE_FALSE(room->resign(BLUE));
    CHECK(room->player_view(std::nullopt, -1, GREEN)["can"]["analyse"] == true);
    CHECK(room->player_view(BLUE, -1, BLUE)["can"]["analyse"] == true);
}

TEST_CASE("gui room: a draw is offered to people only, not to an engine") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    s.start_fen = kPlayFen2;
    s.movetime_ms = 50;
    s.seats[BLUE].person = false;
    s.seats[BLUE].engine = "klinzha";
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    json v;
    REQUIRE(eventually([&] {
        v = room->player_view(GREEN, -1, GREEN);
        return v["can"]["move"] == true;
    }));
    CHECK(v["can"]["resign"] == true);
    CHECK(v["can"]["draw"] == false);
}

TEST_CASE(
    "gui connection: play on keeps the engine's options and the clock, a rematch turns "
    "the seats") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    gui::Connection conn(lobby, c.send(), 1000);
    json create = json::parse(
        R"({"type":"create","players":2,"movetime":40,"tc":"600+1","sit":"g","name":"Ann",)"
        R"("seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","level":2,)"
        R"("options":{"MultiPV":"1"}}]})");
    create["fen"] = kPlayFen2;
    conn.post(create.dump());
    REQUIRE(eventually([&] { return c.count("seat") == 1; }));
    const std::string first = c.last("seat")["room"], token = c.last("seat")["token"];
    REQUIRE(eventually([&] { return c.last("state")["can"]["move"] == true; }));
    conn.post(R"({"type":"resign"})");
    REQUIRE(eventually([&] { return c.last("state")["status"] == "over"; }));
    CHECK(c.last("state")["can"]["rematch"] == true);
    // Play on from the start, the page naming only the seats.
    conn.post(
        json{{"type", "create"},
             {"from_room", first},
             {"ply", 0},
             {"sit", "g"},
             {"name", "Ann"},
             {"seats", json::parse(R"([{"kind":"person"},{"kind":"engine","engine":"klinzha"}])")}}
            .dump());
    REQUIRE(eventually([&] { return c.count("seat") == 2; }));
    auto played_on = lobby.find(c.last("seat")["room"]);
    REQUIRE(played_on);
    const auto ps = played_on->settings();
    CHECK(ps.tc == "600+1");
    CHECK(ps.movetime_ms == 40);
    CHECK(ps.seats[BLUE].level == 2);
    CHECK(ps.seats[BLUE].options.size() == 2);  // MultiPV and the level's Skill Level
    // Back in the first room, a rematch: Ann now Blue, the engine Green, same settings.
    Collector c2;
    gui::Connection again(lobby, c2.send(), 1000);
    again.post(json{{"type", "join"}, {"room", first}}.dump());
    REQUIRE(eventually([&] { return c2.count("state") > 0; }));
    again.post(R"({"type":"rematch"})");  // a spectator may not ask for one
    REQUIRE(eventually([&] { return c2.count("error") == 1; }));
    conn.post(json{{"type", "join"}, {"room", first}, {"token", token}}.dump());
    conn.post(R"({"type":"rematch"})");
    REQUIRE(eventually([&] { return c.count("created") == 3; }));
    auto rematch = lobby.find(c.last("created")["room"]);
    REQUIRE(rematch);
    const auto rs = rematch->settings();
    CHECK(rs.seats[GREEN].person == false);
    CHECK(rs.seats[GREEN].level == 2);
    CHECK(rs.seats[BLUE].person == true);
    CHECK(rs.tc == "600+1");
    // Those still in the first room are offered the rematch.
    CHECK(eventually([&] { return c2.last("state")["rematch"] == rematch->id(); }));
}

TEST_CASE("gui lobby: rooms say Blind and Kinta, and an aborted game is said so") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings k = two_people();
    REQUIRE_FALSE(k.rules.set("Kinta", "true"));
    auto kinta = make_room(lobby, k);
    CHECK(kinta->summary()["game"].get<std::string>().find("Kinta") != std::string::npos);
    auto room = make_room(lobby, two_people());
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    REQUIRE_FALSE(room->abort_game(GREEN));
    CHECK(room->summary()["status"] == "aborted");
}

TEST_CASE("gui lobby: a page in the lobby is pushed the list when it changes, not in a room") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    gui::Connection conn(lobby, c.send(), 1000);
    // (Messages posted: handled on the connection's thread, as the server does.)
    conn.post(R"({"type":"lobby"})");
    REQUIRE(eventually([&] { return c.count("lobby") == 1; }));
    CHECK(c.last("lobby")["rooms"].empty());
    // A room made elsewhere comes to the page unasked.
    auto room = make_room(lobby, two_people());
    REQUIRE(eventually([&] { return c.last("lobby")["rooms"].size() == 1; }));
    // A seat taken changes the list too (pushed at most once a second).
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE(eventually([&] {
        const json r = c.last("lobby")["rooms"];
        return r.size() == 1 && r[0]["seats"][0]["name"] == "Ann";
    }));
    const std::size_t before = c.count("lobby");
    // In a room, no list is pushed; a change marked just before the page joins (the push
    // still held back by the once-a-second rule) sends nothing either, and no error.
    auto early = make_room(lobby, two_people());
    conn.post(json{{"type", "join"}, {"room", room->id()}}.dump());
    REQUIRE(eventually([&] { return c.count("joined") == 1; }));
    auto other = make_room(lobby, two_people());
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    CHECK(c.count("lobby") == before);
    CHECK(c.count("error") == 0);
    // Back in the lobby: the list now, and pushed again.
    conn.post(R"({"type":"leave"})");
    REQUIRE(eventually([&] { return c.last("lobby")["rooms"].size() == 3; }));
    auto third = make_room(lobby, two_people());
    REQUIRE(eventually([&] { return c.last("lobby")["rooms"].size() == 4; }));
}

TEST_CASE("gui room: the chat keeps text as said, refuses bad lines, keeps spectators apart") {
    gui::Lobby lobby(engines(), nullptr, {});
    auto room = make_room(lobby, two_people());
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    CHECK_FALSE(room->chat(GREEN, "  <script>alert(1)</script> good luck  "));
    CHECK(room->chat(GREEN, "   "));                           // nothing to say
    CHECK(room->chat(GREEN, std::string(301, 'x')));           // too long
    CHECK(room->chat(BLUE, std::string("bell\a")));            // a control character
    CHECK_FALSE(room->chat(BLUE, "Gr\xc3\xbc\xc3\x9f dich"));  // UTF-8 is text
    CHECK_FALSE(room->chat(std::nullopt, "Ann should take the rook"));
    json v = room->player_view(GREEN, -1, GREEN);
    REQUIRE(v["chat"].size() == 2);  // the spectator's line is not shown to a player
    CHECK(v["chat"][0]["text"] == "<script>alert(1)</script> good luck");  // as said, trimmed
    CHECK(v["chat"][0]["name"] == "Ann");
    CHECK(v["chat"][0]["colour"] == "g");
    CHECK(room->player_view(std::nullopt, -1, GREEN)["chat"].size() == 3);  // spectators see all
    REQUIRE(play_next(*room));
    REQUIRE_FALSE(room->resign(BLUE));
    CHECK(room->player_view(GREEN, -1, GREEN)["chat"].size() == 3);  // after the game, all
    for (int i = 0; i < 60; ++i) REQUIRE_FALSE(room->chat(GREEN, std::to_string(i)));
    v = room->player_view(GREEN, -1, GREEN);
    CHECK(v["chat"].size() == gui::Room::kChatLines);
    CHECK(v["chat"].back()["text"] == "59");
}

TEST_CASE("gui connection: chat lines come one a second, and not at all with --no-chat") {
    for (bool on : {true, false}) {
        gui::LobbyLimits limits;
        limits.chat = on;
        gui::Lobby lobby(engines(), nullptr, limits);
        auto room = make_room(lobby, two_people());
        Collector c;
        gui::Connection conn(lobby, c.send(), 1000);
        conn.post(json{{"type", "join"}, {"room", room->id()}}.dump());
        REQUIRE(eventually([&] { return c.count("state") > 0; }));
        conn.post(R"({"type":"chat","text":"hello"})");
        conn.post(R"({"type":"chat","text":"again at once"})");
        REQUIRE(eventually([&] { return c.count("error") >= 1; }));
        const std::string why = c.last("error")["message"];
        if (on) {
            CHECK(why.find("one line a second") != std::string::npos);
            CHECK(room->player_view(std::nullopt, -1, GREEN)["chat"].size() == 1);
        } else {
            CHECK(why.find("no chat") != std::string::npos);
            CHECK(room->player_view(std::nullopt, -1, GREEN)["chat"].empty());
        }
    }
}

TEST_CASE("gui room: Kinta shows a person the odds before an attack, and the fight after it") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    s.rules.kinta = true;
    s.dice_seed = 7;
    // The Kinta perft example of docs/protocol.md with Blue to move: Blue has an attack.
    s.start_fen =
        "2 Hg79,Qh67,Rg47,Bh78,Nf58,Pi67,Ph68,Pg79,Wh56 Hi12,Qi33,Ri45,Bg13,Ni22,Ng25,Ph24,Pf15,"
        "Pf14,Wi12 - b play 0 2 strength=g25:127,g47:21,h24:24,h68:70,h78:40,i33:69";
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    json v;
    REQUIRE(eventually([&] {
        v = room->player_view(BLUE, -1, BLUE);
        return v["can"]["move"].get<bool>();
    }));
    CHECK_FALSE(v.contains("fights"));
    // Every attack, and only an attack, carries its odds: the exact outcome's win
    // probability (combat::exact, not the search's tables the view reads).
    Position p;
    REQUIRE_FALSE(p.set(v["fen"].get<std::string>(), s.rules));
    json attack;
    int attacks = 0;
    for (const json& m : v["legal"]) {
        auto mv = parse_move(p, m["move"].get<std::string>());
        REQUIRE(std::holds_alternative<Move>(mv));
        const bool is_attack = p.is_attack(std::get<Move>(mv));
        CHECK(m.contains("odds") == is_attack);
        if (!is_attack) continue;
        ++attacks;
        const auto [a, d] = combat::fighters(p, std::get<Move>(mv));
        CHECK(m["odds"]["win"].get<double>() ==
              doctest::Approx(combat::exact(a, d).win).epsilon(1e-4));
        if (attack.is_null()) attack = m;
    }
    REQUIRE(attacks > 0);
    // The attack played: the view after it tells the fight round by round, and its end is
    // the outcome the referee recorded in the move (`:A<n>` or `:D<n>`).
    REQUIRE_FALSE(room->move(BLUE, attack["move"].get<std::string>()));
    REQUIRE(eventually([&] { return room->plies() == 1; }));
    v = room->player_view(GREEN, -1, GREEN);
    REQUIRE(v.contains("fights"));
    REQUIRE(v["fights"].size() == 1);
    const json f = v["fights"][0];
    CHECK(f["ply"] == 1);
    const std::string played = v["moves"][0]["move"];
    const auto colon = played.find(':');
    REQUIRE(colon != std::string::npos);
    CHECK(f["winner"] == played.substr(colon + 1, 1));
    CHECK(f["strength"].get<int>() == std::stoi(played.substr(colon + 2)));
    CHECK(f["attacker"]["cell"] == attack["from"]);
    CHECK(f["defender"]["cell"] == attack["to"]);
    REQUIRE_FALSE(f["rounds"].empty());
    int a = f["a_start"], d = f["d_start"];
    for (const json& r : f["rounds"]) {  // strengths only fall, by the damage told
        const int na = r["a"], nd = r["d"];
        CHECK(na == (r["hit"] == "A" ? a - r["damage"].get<int>() : a));
        CHECK(nd == (r["hit"] == "D" ? d - r["damage"].get<int>() : d));
        a = na;
        d = nd;
    }
    CHECK((f["winner"] == "A" ? d <= 0 && a > 0 : a <= 0 && d > 0));
    // Stepping back to the start shows no fight.
    CHECK_FALSE(room->player_view(BLUE, 0, BLUE).contains("fights"));
    // Answered by a move that is no attack, the fight is still told at the live end (the
    // last turn round), until a whole round has passed; stepped to, it is told alone (ply 2
    // is the live end: the last ply is no step back).
    auto quiet_move = [&](Colour c) {
        const json w = room->player_view(c, -1, c);
        Position q;
        REQUIRE_FALSE(q.set(w["fen"].get<std::string>(), s.rules));
        for (const json& m : w["legal"]) {
            auto mv = parse_move(q, m["move"].get<std::string>());
            if (std::holds_alternative<Move>(mv) && !q.is_attack(std::get<Move>(mv)))
                return m["move"].get<std::string>();
        }
        FAIL("no quiet move");
        return std::string();
    };
    REQUIRE(
        eventually([&] { return room->player_view(GREEN, -1, GREEN)["can"]["move"].get<bool>(); }));
    REQUIRE_FALSE(room->move(GREEN, quiet_move(GREEN)));
    REQUIRE(eventually([&] { return room->plies() == 2; }));
    v = room->player_view(BLUE, -1, BLUE);
    REQUIRE(v.contains("fights"));
    CHECK(v["fights"].size() == 1);
    CHECK(v["fights"][0]["ply"] == 1);
    CHECK(room->player_view(BLUE, 1, BLUE)["fights"].size() == 1);
    REQUIRE(
        eventually([&] { return room->player_view(BLUE, -1, BLUE)["can"]["move"].get<bool>(); }));
    REQUIRE_FALSE(room->move(BLUE, quiet_move(BLUE)));
    REQUIRE(eventually([&] { return room->plies() == 3; }));
    CHECK_FALSE(room->player_view(GREEN, -1, GREEN).contains("fights"));
}

TEST_CASE("gui room: take-back by agreement, abort only before the game begins") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    // From a position in play, so the first move begins the game.
    s.start_fen = kPlayFen2;
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    REQUIRE(play_first(*room, GREEN));
    CHECK(room->abort_game(BLUE));  // begun
    REQUIRE(play_first(*room, BLUE));
    // Blue asks to take its move back; Green must agree.
    REQUIRE_FALSE(room->ask_takeback(BLUE));
    CHECK(room->plies() == 2);
    CHECK(room->player_view(GREEN, -1, GREEN)["takeback_by"] == "b");
    REQUIRE_FALSE(room->answer_takeback(GREEN, true));
    CHECK(room->plies() == 1);
    CHECK(room->status() == gui::Room::Status::Running);
    // Play goes on: Blue is asked again, and can move.
    REQUIRE(play_first(*room, BLUE));
    CHECK(room->plies() == 2);
    // A declined request changes nothing.
    REQUIRE_FALSE(room->ask_takeback(GREEN));
    REQUIRE_FALSE(room->answer_takeback(BLUE, false));
    CHECK(room->plies() == 2);

    auto room2 = make_room(lobby, s);
    REQUIRE_FALSE(room2->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room2->sit(BLUE, "Bob", t));
    REQUIRE_FALSE(room2->abort_game(GREEN));
    const json v = room2->player_view(BLUE, -1, BLUE);
    CHECK(v["status"] == "over");
    CHECK(v["result"] == "");
    CHECK(v["termination"] == "aborted by Ann");
}

TEST_CASE("gui store: a server killed mid-game shows the room again and the game goes on") {
    const auto db = std::filesystem::temp_directory_path() / "klinzha-gui-test.sqlite3";
    std::filesystem::remove(db);
    std::string id, tg, tb;
    std::vector<std::string> moves;
    gui::RoomSettings s = two_people();
    s.tc = "300+2";
    {
        gui::Store store(db.string());
        gui::Lobby lobby(engines(), &store, {});
        auto room = make_room(lobby, s);
        id = room->id();
        REQUIRE_FALSE(room->sit(GREEN, "Ann", tg));
        REQUIRE_FALSE(room->sit(BLUE, "Bob", tb));
        REQUIRE(play_next(*room));
        REQUIRE(play_next(*room));
        const json view = room->player_view(GREEN, -1, GREEN);
        for (const auto& m : view["moves"]) moves.push_back(m["move"]);
    }  // the lobby ends as a killed server would leave it: the store as at the last move
    gui::Store store(db.string());
    gui::Lobby lobby(engines(), &store, {});
    CHECK(lobby.restore().empty());
    auto room = lobby.find(id);
    REQUIRE(room);
    CHECK(room->status() == gui::Room::Status::Running);
    CHECK(room->seat_of(tg) == GREEN);
    CHECK(room->seat_of(tb) == BLUE);
    json v = room->player_view(GREEN, -1, GREEN);
    REQUIRE(v["moves"].size() == moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) CHECK(v["moves"][i]["move"] == moves[i]);
    CHECK(v["clocks"][0].get<std::int64_t>() <= 300000 + 2000 * std::int64_t(moves.size()));
    CHECK(v["clocks"][0].get<std::int64_t>() > 250000);
    REQUIRE(play_next(*room));  // the game goes on
    CHECK(room->plies() == int(moves.size()) + 1);
    std::filesystem::remove(db);
}

TEST_CASE("gui store: a room still held when its lobby goes writes nothing to the store after it") {
    // At shutdown a connection destroyed on its own thread may hold a room after the lobby,
    // and main's store, are gone: the room must not write to the store then (it did: a save
    // on a destroyed store, "bad parameter or other API misuse").
    gui::Store store(":memory:");
    std::shared_ptr<gui::Room> held;
    std::string tg, tb;
    {
        gui::Lobby lobby(engines(), &store, {});
        held = make_room(lobby, two_people());
        REQUIRE_FALSE(held->sit(GREEN, "Ann", tg));
        REQUIRE_FALSE(held->sit(BLUE, "Bob", tb));
        REQUIRE(play_next(*held));  // the referee runs, waiting for Blue
    }
    const auto writes = store.writes();
    CHECK(writes > 0);
    held->attach(GREEN);  // a connection that outlived the lobby: its seat's presence
    held->detach(GREEN);  // (each stored the room before)
    held.reset();         // the last holder goes: the room ends
    CHECK(store.writes() == writes);
}

TEST_CASE("gui store: a game against an engine resumes after a restart, and the engine answers") {
    const auto db = std::filesystem::temp_directory_path() / "klinzha-gui-test2.sqlite3";
    std::filesystem::remove(db);
    gui::RoomSettings s = two_people();
    s.tc = "600+5";
    s.seats[BLUE].person = false;
    s.seats[BLUE].engine = "klinzha";
    std::string id, tg;
    int before = 0;
    {
        gui::Store store(db.string());
        gui::Lobby lobby(engines(), &store, {});
        auto room = make_room(lobby, s);
        id = room->id();
        REQUIRE_FALSE(room->sit(GREEN, "Ann", tg));
        for (int i = 0; i < 3; ++i) REQUIRE(play_first(*room, GREEN));
        REQUIRE(
            eventually([&] { return room->player_view(GREEN, -1, GREEN)["can"]["move"] == true; }));
        before = room->plies();
    }
    gui::Store store(db.string());
    gui::Lobby lobby(engines(), &store, {});
    CHECK(lobby.restore().empty());
    auto room = lobby.find(id);
    REQUIRE(room);
    CHECK(room->plies() == before);
    INFO(room->player_view(GREEN, -1, GREEN).dump().substr(0, 400));
    REQUIRE(play_first(*room, GREEN));
    CHECK(eventually([&] {
        return room->plies() >= before + 2 ||
               room->player_view(GREEN, -1, GREEN)["can"]["move"] == true;
    }));
    std::filesystem::remove(db);
}

TEST_CASE("gui view: a seat's messages hold no man hidden from it (the Blind test hook)") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    s.hide_others = true;
    s.start_fen = kPlayFen2;
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    for (int i = 0; i < 6; ++i) REQUIRE(play_next(*room));
    for (Colour seat : {GREEN, BLUE}) {
        const json v = room->player_view(seat, -1, seat);
        const std::string svg = v["svg"], text = v.dump();
        const char other = kColourChar[seat == GREEN ? BLUE : GREEN];
        CHECK(svg.find(std::string("data-man=\"") + kColourChar[seat]) != std::string::npos);
        CHECK(svg.find(std::string("data-man=\"") + other) == std::string::npos);
        CHECK(text.find(std::string("data-man=\\\"") + kColourChar[seat]) != std::string::npos);
        CHECK(text.find(std::string("data-man=\\\"") + other) == std::string::npos);
        CHECK_FALSE(v.contains("fen"));
        // The other's moves are shown as "?".
        for (const auto& m : v["moves"])
            CHECK((m["mover"] == std::string(1, kColourChar[seat])) == (m["move"] != "?"));
    }
    const std::string spectator = room->player_view(std::nullopt, -1, GREEN)["svg"];
    CHECK(spectator.find("data-man=") == std::string::npos);
    CHECK(room->hides_anything());
    {  // so no page gets the record
        Collector c;
        gui::Connection conn(lobby, c.send(), 1000);
        conn.handle(json{{"type", "join"}, {"room", room->id()}}.dump());
        conn.handle(R"({"type":"save"})");
        CHECK(c.count("record") == 0);
        CHECK(c.count("error") == 1);
    }
    // The whole game is shown when it ends.
    std::string t2;
    REQUIRE_FALSE(room->resign(GREEN));
    const std::string after = room->player_view(std::nullopt, -1, GREEN)["svg"];
    CHECK(after.find("data-man=\"b") != std::string::npos);
    CHECK_FALSE(room->hides_anything());
}

TEST_CASE(
    "gui Blind room: each seat sees only its own men and what it was told, proposals are refused "
    "by the arbiter") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    s.rules.blind = true;
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    // Green places a wall on i56 (its zone reaches the separator i55); Blue, who cannot see
    // it, proposes a wall on i45, whose zone would meet it: the arbiter refuses.
    const char* green[] = {"W@i56", "Q@i99", "R@i89", "B@i88", "N@i78",
                           "N@i77", "P@i67", "P@i66", "P@h89"};
    for (const char* m : green) {
        REQUIRE(
            eventually([&] { return room->player_view(GREEN, -1, GREEN)["can"]["move"] == true; }));
        const int plies = room->plies();
        REQUIRE_FALSE(room->move(GREEN, m));
        REQUIRE(eventually([&] { return room->plies() == plies + 1; }));
    }
    REQUIRE(eventually([&] { return room->player_view(BLUE, -1, BLUE)["can"]["move"] == true; }));
    json v = room->player_view(BLUE, -1, BLUE);
    bool offered = false;  // the seat is offered the proposal: its view allows it
    for (const auto& m : v["legal"]) offered |= m["move"] == "W@i45";
    CHECK(offered);
    CHECK(v["told"].size() == 9);  // nine plies of Green's, each "green played"
    CHECK(v["svg"].get<std::string>().find("data-man=\"g") == std::string::npos);
    CHECK_FALSE(v.contains("fen"));
    CHECK(v["can"]["analyse"] == false);
    REQUIRE_FALSE(room->move(BLUE, "W@i45"));
    REQUIRE(eventually([&] {
        const json w = room->player_view(BLUE, -1, BLUE);
        return w["can"]["move"] == true && w["refused"].size() == 1;
    }));
    v = room->player_view(BLUE, -1, BLUE);
    CHECK(v["refused"][0] == "W@i45");
    CHECK(v["told"].back() == "refused: Wi45");  // the log in RH algebraic (SPEC 11)
    for (const auto& m : v["legal"]) CHECK(m["move"] != "W@i45");  // not proposed twice
    CHECK(room->move(BLUE, "W@i45"));                              // the room refuses it too
    CHECK(room->plies() == 9);
    // Green is not told of Blue's refusal; the spectator sees no man at all.
    CHECK(room->player_view(GREEN, -1, GREEN)["told"].dump().find("refused") == std::string::npos);
    CHECK(room->player_view(std::nullopt, -1, GREEN)["svg"].get<std::string>().find("data-man=") ==
          std::string::npos);
    REQUIRE_FALSE(room->move(BLUE, "W@i33"));
    REQUIRE(eventually([&] { return room->plies() == 10; }));
    const json told = room->player_view(GREEN, -1, GREEN)["told"];
    CHECK(told.back() == "blue played");
    CHECK(told[0] == "you played Wi56");
    CHECK(told[1] == "you played Qi99");
}

TEST_CASE("gui Blind room: a person plays the engine, which gets only its own view") {
    gui::Lobby lobby(engines(), nullptr, {});
    gui::RoomSettings s = two_people();
    s.rules.blind = true;
    s.seats[BLUE].person = false;
    s.seats[BLUE].engine = "klinzha";
    s.movetime_ms = 50;
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    // Green plays its first proposals; the engine answers from its own view.
    for (int i = 0; i < 15 && room->status() == gui::Room::Status::Running; ++i) {
        json v;
        REQUIRE(eventually([&] {
            v = room->player_view(GREEN, -1, GREEN);
            return v["can"]["move"] == true || room->status() != gui::Room::Status::Running;
        }));
        if (room->status() != gui::Room::Status::Running) break;
        CHECK(v["svg"].get<std::string>().find("data-man=\"b") == std::string::npos);
        const int plies = room->plies();
        const auto err = room->move(GREEN, v["legal"][0]["move"]);
        INFO(err.value_or(""));
        REQUIRE_FALSE(err);
        // Played, or refused (the arbiter answers at once).
        REQUIRE(eventually([&] {
            const json w = room->player_view(GREEN, -1, GREEN);
            return room->plies() > plies || w["refused"].size() > 0 ||
                   room->status() != gui::Room::Status::Running;
        }));
    }
    CHECK(room->plies() >= 20);
}

TEST_CASE("gui connection: bad messages get an error and change nothing") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    gui::Connection conn(lobby, c.send(), 1000);
    conn.handle(R"({"type":"hello"})");
    const json w = c.last("welcome");
    REQUIRE(w.is_object());
    CHECK(w["engines"][0]["name"] == "klinzha");
    CHECK(w["rules"].size() == kRuleOptions.size());
    const char* bad[] = {
        "not json",
        "[1,2]",
        R"({"no":"type"})",
        R"({"type":"fly"})",
        R"({"type":"move","move":"e48e38"})",  // in no room
        R"({"type":"join","room":"nowhere"})",
        R"({"type":"create","players":4,"seats":[]})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"engine","engine":"rm -rf /"}]})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"person"}],"tc":"soon"})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"person"}],"variant":"chess"})",
        R"({"type":"create","players":3,"seats":[{"kind":"person"},{"kind":"person"},{"kind":"person"}],"variant":"klin-zha-reflective"})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"person"}],"fen":"2 nonsense"})",
        // Options that name a file or take the operator's resources are not the page's.
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","options":{"Debug Log File":"/tmp/x"}}]})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","options":{"Hash":"4096"}}]})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","options":{"Ablative":"1"}}]})",
        R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","options":{"MultiPV":"999"}}]})",
        R"({"type":"load","record":"this is no record"})",
    };
    for (const char* m : bad) {
        const std::size_t errors = c.count("error");
        conn.handle(m);
        CHECK_MESSAGE(c.count("error") == errors + 1, m);
    }
    CHECK(c.count("created") == 0);
    CHECK(lobby.list()["rooms"].empty());
    // In a room: moves and actions of a spectator are refused.
    conn.handle(R"({"type":"create","players":2,"seats":[{"kind":"person"},{"kind":"person"}]})");
    REQUIRE(c.count("created") == 1);
    for (const char* m : {R"({"type":"move","move":"Qe38"})", R"({"type":"resign"})",
                          R"({"type":"draw","action":"offer"})", R"({"type":"goto","ply":5})",
                          R"({"type":"view","colour":"red"})", R"({"type":"sit","colour":"x"})",
                          R"({"type":"takeback","action":"maybe"})"}) {
        const std::size_t errors = c.count("error");
        conn.handle(m);
        CHECK_MESSAGE(c.count("error") == errors + 1, m);
    }
}

TEST_CASE("gui connection: a person plays an engine, and a reload rejoins the seat") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    std::string room, token;
    {
        gui::Connection conn(lobby, c.send(), 1000);
        json create = json::parse(
            R"({"type":"create","players":2,"movetime":50,"sit":"g","name":"Ann",)"
            R"("seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","options":{"MultiPV":"1"}}]})");
        create["fen"] = kPlayFen2;
        conn.post(create.dump());
        eventually([&] { return c.count("seat") == 1; });
        INFO(c.last("error").dump());
        REQUIRE(c.count("seat") == 1);
        room = c.last("seat")["room"];
        token = c.last("seat")["token"];
        // (A game that ends at once, an engine that did not start, says why in its status.)
        REQUIRE_MESSAGE(eventually([&] { return c.last("state")["can"]["move"] == true; }),
                        c.last("state").value("status_text", ""));
        conn.post(json{{"type", "move"}, {"move", c.last("state")["legal"][0]["move"]}}.dump());
        // The engine answers.
        REQUIRE(eventually([&] { return c.last("state")["plies"] == 2; }));
        CHECK(c.last("state")["moves"][1]["mover"] == "b");
    }
    Collector c2;
    gui::Connection again(lobby, c2.send(), 1000);
    again.post(json{{"type", "hello"}, {"room", room}, {"token", token}}.dump());
    REQUIRE(eventually([&] { return c2.count("state") > 0; }));
    CHECK(c2.last("joined")["you"] == "g");
    CHECK(c2.last("state")["plies"] == 2);
    Collector c3;  // another browser, without the token: a spectator
    gui::Connection other(lobby, c3.send(), 1000);
    other.post(json{{"type", "join"}, {"room", room}}.dump());
    REQUIRE(eventually([&] { return c3.count("state") > 0; }));
    CHECK(c3.last("state")["you"].is_null());
}

TEST_CASE("gui connection: an engine seat's level sets its Skill Level and names the seat") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    gui::Connection conn(lobby, c.send(), 1000);
    conn.post(R"({"type":"hello"})");
    REQUIRE(eventually([&] { return c.count("welcome") == 1; }));
    CHECK(c.last("welcome")["engines"][0]["levels"] == true);
    // Out of range, or not a number: refused, no room made.
    conn.post(R"({"type":"create","players":2,"sit":"g","name":"Ann",)"
              R"("seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","level":9}]})");
    REQUIRE(eventually([&] { return c.count("error") == 1; }));
    CHECK(c.last("error")["message"].get<std::string>().find("level") != std::string::npos);
    conn.post(R"({"type":"create","players":2,"sit":"g","name":"Ann",)"
              R"("seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","level":"1"}]})");
    REQUIRE(eventually([&] { return c.count("error") == 2; }));
    CHECK(c.count("created") == 0);
    // Level 1: the engine plays at Skill Level 0, and the seat says its level.
    json create = json::parse(
        R"({"type":"create","players":2,"movetime":50,"sit":"g","name":"Ann",)"
        R"("seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","level":1}]})");
    create["fen"] = kPlayFen2;
    conn.post(create.dump());
    REQUIRE(eventually([&] { return c.count("seat") == 1; }));
    auto room = lobby.find(c.last("seat")["room"]);
    REQUIRE(room);
    const auto opts = room->settings().seats[BLUE].options;
    CHECK(std::find(opts.begin(), opts.end(),
                    std::pair<std::string, std::string>("Skill Level", "0")) != opts.end());
    REQUIRE(eventually([&] { return c.last("state")["can"]["move"] == true; }));
    CHECK(c.last("state")["seats"][1]["name"] == "klinzha (level 1)");
    conn.post(json{{"type", "move"}, {"move", c.last("state")["legal"][0]["move"]}}.dump());
    CHECK(eventually([&] { return c.last("state")["plies"] == 2; }));  // the engine answers
}

TEST_CASE("gui connection: a hint shows the engine's move, and the record says it was used") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    gui::Connection conn(lobby, c.send(), 1000);
    json create = json::parse(
        R"({"type":"create","players":2,"movetime":50,"sit":"g","name":"Ann",)"
        R"("seats":[{"kind":"person"},{"kind":"engine","engine":"klinzha","level":1}]})");
    create["fen"] = kPlayFen2;
    conn.post(create.dump());
    REQUIRE(eventually([&] { return c.count("seat") == 1; }));
    auto room = lobby.find(c.last("seat")["room"]);
    REQUIRE(eventually([&] { return c.last("state")["can"]["move"] == true; }));
    conn.post(R"({"type":"hint"})");
    REQUIRE(eventually([&] {
        const json a = c.last("analysis");
        return a.is_object() && a.contains("lines") && !a["lines"].empty();
    }));
    const json line = c.last("analysis")["lines"][0];
    CHECK_FALSE(line["pv"].empty());
    conn.post(R"({"type":"analyse","on":false})");
    conn.post(json{{"type", "move"}, {"move", c.last("state")["legal"][0]["move"]}}.dump());
    REQUIRE(eventually([&] { return room->plies() >= 1; }));
    CHECK(room->player_view(GREEN, -1, GREEN)["moves"][0]["comment"].get<std::string>().find(
              "hint") != std::string::npos);
    CHECK(room->record().find("hint") != std::string::npos);
    // Against a person: no hint.
    auto people = make_room(lobby, two_people());
    std::string tg, tb;
    REQUIRE_FALSE(people->sit(GREEN, "Ann", tg));
    REQUIRE_FALSE(people->sit(BLUE, "Bob", tb));
    REQUIRE(
        eventually([&] { return people->player_view(GREEN, -1, GREEN)["can"]["move"] == true; }));
    Collector c2;
    gui::Connection p2(lobby, c2.send(), 1000);
    p2.post(json{{"type", "join"}, {"room", people->id()}, {"token", tg}}.dump());
    REQUIRE(eventually([&] { return c2.count("state") > 0; }));
    p2.post(R"({"type":"hint"})");
    REQUIRE(eventually([&] { return c2.count("error") == 1; }));
    CHECK(c2.count("analysis") == 0);
}

TEST_CASE("gui room: an engine that cannot start ends the room with no game and no outcome") {
    auto list = engines();
    list[0].spec.cmd = "/nonexistent/engine";  // the shell starts, the engine does not
    gui::Lobby lobby(list, nullptr, {});
    gui::RoomSettings s;
    s.players = 2;
    s.movetime_ms = 50;
    s.seats[BLUE].person = false;
    s.seats[BLUE].engine = "klinzha";
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    json v;
    REQUIRE(eventually([&] {
        v = room->player_view(GREEN, -1, GREEN);
        return v["status"] == "over";
    }));
    CHECK(v["status_text"].get<std::string>().find("no game") != std::string::npos);
    CHECK(v["result"] == "");
    for (const auto& seat : v["seats"]) CHECK(seat["outcome"].is_null());
    CHECK_FALSE(v["can"]["move"].get<bool>());
}

TEST_CASE("gui connection: a review scores every move of the play phase for the graph") {
    gui::Lobby lobby(engines(), nullptr, {});
    // A short finished game between two people (first legal moves), then its review.
    gui::RoomSettings s = two_people();
    s.start_fen = kPlayFen2;
    auto room = make_room(lobby, s);
    std::string t;
    REQUIRE_FALSE(room->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(room->sit(BLUE, "Bob", t));
    for (int i = 0; i < 6; ++i) REQUIRE(play_next(*room));
    REQUIRE_FALSE(room->resign(GREEN));
    Collector c;
    gui::Connection conn(lobby, c.send(), 1000);
    conn.handle(json{{"type", "join"}, {"room", room->id()}}.dump());
    conn.handle(R"({"type":"review","depth":0})");
    CHECK(c.count("error") == 1);  // depth 1..20
    conn.handle(R"({"type":"review","depth":2})");
    REQUIRE(eventually([&] {
        const json r = c.last("review");
        return r.is_object() && r.value("finished", false);
    }));
    const json r = c.last("review");
    REQUIRE(r["points"].size() == 6);
    int ply = 0;
    for (const auto& p : r["points"]) {
        CHECK(p["ply"].get<int>() == ++ply);
        CHECK(p["pawns"].is_number());
        CHECK(p["pov"] == "g");  // two players: Green's side
        const std::string mark = p["mark"];
        CHECK((mark.empty() || mark == "?!" || mark == "?" || mark == "??"));
        // The loss in centi-pawns, and its mark by docs/gui.md's thresholds (50, 100, 200).
        const int loss = p["loss"];
        CHECK((loss >= 0 && loss <= 1000));
        CHECK(mark == (loss >= 200 ? "??" : loss >= 100 ? "?" : loss >= 50 ? "?!" : ""));
        CHECK_FALSE(p["san"].get<std::string>().empty());
    }
    // The record saved after the review carries it in `analyse --annotate`'s form: the
    // summary first, each move's mark as its NAG and its scores as a comment; and reads back.
    conn.handle(R"({"type":"save"})");
    REQUIRE(eventually([&] { return c.count("record") == 1; }));
    const std::string pgn = c.last("record")["pgn"];
    CHECK(pgn.find("{klinzha analysis: g: 3 moves, average loss") != std::string::npos);
    int scored = 0, nags = 0;
    for (std::size_t at = 0; (at = pgn.find(" best ", at)) != std::string::npos; ++at) ++scored;
    CHECK(scored == 6);
    for (const auto& p : r["points"])
        if (!p["mark"].get<std::string>().empty()) ++nags;
    int written = 0;  // NAG tokens, wherever the movetext's lines break
    std::istringstream words(pgn);
    for (std::string w; words >> w;) written += w == "$6" || w == "$2" || w == "$4";
    CHECK(written == nags);
    std::istringstream in(pgn);
    const auto games = read_records(in);
    REQUIRE(games.size() == 1);
    CHECK(replay(games[0], Rules{}, 2, true).error.empty());
    // Not while a game hides anything or runs between people.
    auto running = make_room(lobby, two_people());
    REQUIRE_FALSE(running->sit(GREEN, "Ann", t));
    REQUIRE_FALSE(running->sit(BLUE, "Bob", t));
    Collector c2;
    gui::Connection conn2(lobby, c2.send(), 1000);
    conn2.handle(json{{"type", "join"}, {"room", running->id()}, {"token", t}}.dump());
    conn2.handle(R"({"type":"review"})");
    CHECK(c2.count("error") == 1);
}

TEST_CASE("gui connection: messages over the rate are refused, not queued") {
    gui::Lobby lobby(engines(), nullptr, {});
    Collector c;
    gui::Connection conn(lobby, c.send(), 5);  // 5 a second, a burst of 10
    for (int i = 0; i < 30; ++i) conn.post(R"({"type":"lobby"})");
    REQUIRE(eventually([&] { return c.count("lobby") + c.count("error") >= 30; }));
    CHECK(c.count("lobby") <= 12);
    CHECK(c.count("error") >= 18);
}

TEST_CASE("gui security: Host and Origin") {
    gui::ServerConfig cfg;
    cfg.allow_origins = {"https://klinzha.example.org"};
    cfg.allow_hosts = {"klinzha.example.org"};
    CHECK(gui::host_allowed("127.0.0.1:8080", 8080, cfg));
    CHECK(gui::host_allowed("localhost:8080", 8080, cfg));
    CHECK(gui::host_allowed("[::1]:8080", 8080, cfg));
    CHECK(gui::host_allowed("192.168.1.20:8080", 8080, cfg));
    CHECK(gui::host_allowed("klinzha.example.org", 8080, cfg));
    CHECK_FALSE(gui::host_allowed("evil.example.com:8080", 8080, cfg));  // DNS rebinding
    CHECK_FALSE(gui::host_allowed("127.0.0.1:9090", 8080, cfg));
    CHECK_FALSE(gui::host_allowed("127.0.0.1", 8080, cfg));
    CHECK_FALSE(gui::host_allowed("", 8080, cfg));
    CHECK_FALSE(gui::host_allowed("127.0.0.1:80x", 8080, cfg));
    CHECK(gui::origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", cfg));
    CHECK(gui::origin_allowed("https://klinzha.example.org", "127.0.0.1:8080", cfg));
    CHECK_FALSE(gui::origin_allowed("http://evil.example.com", "127.0.0.1:8080", cfg));
    CHECK_FALSE(gui::origin_allowed("http://localhost:8080", "127.0.0.1:8080", cfg));
    CHECK_FALSE(gui::origin_allowed("", "127.0.0.1:8080", cfg));
    CHECK_FALSE(gui::origin_allowed("null", "127.0.0.1:8080", cfg));
}

TEST_CASE("gui server: a handshake from a foreign origin or host is refused with 403") {
    namespace beast = boost::beast;
    namespace http = beast::http;
    namespace websocket = beast::websocket;
    using tcp = boost::asio::ip::tcp;
    const auto dir = std::filesystem::temp_directory_path() / "klinzha-gui-test-www2";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "index.html") << "<html></html>";
    gui::Lobby lobby(engines(), nullptr, {});
    gui::ServerConfig cfg;
    cfg.port = 0;
    cfg.www = dir.string();
    cfg.threads = 1;
    gui::Server server(cfg, lobby);
    std::thread t([&] { server.run(); });
    const std::string port = std::to_string(server.port());
    // One handshake: the status the server answers (101 when it accepts).
    auto handshake = [&](const std::string& host, const std::string& origin) {
        boost::asio::io_context io;
        tcp::socket s(io);
        s.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), server.port()));
        http::request<http::empty_body> req{http::verb::get, "/ws", 11};
        req.set(http::field::host, host);
        if (!origin.empty()) req.set(http::field::origin, origin);
        req.set(http::field::upgrade, "websocket");
        req.set(http::field::connection, "upgrade");
        req.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
        req.set(http::field::sec_websocket_version, "13");
        http::write(s, req);
        beast::flat_buffer b;
        http::response<http::string_body> res;
        beast::error_code ec;
        http::read(s, b, res, ec);
        return ec && ec != http::error::end_of_stream ? -1 : int(res.result_int());
    };
    const std::string self = "127.0.0.1:" + port;
    CHECK(handshake(self, "http://" + self) == 101);
    CHECK(handshake(self, "http://evil.example.com") == 403);
    CHECK(handshake(self, "") == 403);
    CHECK(handshake("evil.example.com:" + port, "http://evil.example.com:" + port) == 403);
    // And an ordinary request for a file from a rebinding name.
    {
        boost::asio::io_context io;
        tcp::socket s(io);
        s.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), server.port()));
        http::request<http::empty_body> req{http::verb::get, "/", 11};
        req.set(http::field::host, "evil.example.com:" + port);
        http::write(s, req);
        beast::flat_buffer b;
        http::response<http::string_body> res;
        http::read(s, b, res);
        CHECK(res.result_int() == 403);
    }
    server.stop();
    t.join();
    std::filesystem::remove_all(dir);
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
    // The page's routes: a room is the one page.
    CHECK(gui::resolve_path(www, "/game/0123abcd").value() == (dir / "index.html").string());
    CHECK_FALSE(gui::resolve_path(www, "/game/a/b"));
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
