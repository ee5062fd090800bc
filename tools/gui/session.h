// tools/gui/session.h: one page's game in klinzha-gui: the WebSocket messages of
// docs/gui.md in and out, as JSON text. A game is refereed by the match runner's referee
// (tools/match/referee.h) on a thread of its own, with engines as match::ProcessPlayer and
// persons as HumanPlayer; an analysis engine streams MultiPV lines. The session never runs
// a command the page sends: engines are those the server was started with.
//
// Thread safety: handle() may be called from one thread while the game and analysis
// threads report; every outgoing message goes through `send`, which must be thread-safe.
// Sources: SPEC 7 (game end), 9 (move strings), 10 (position strings), 11 (notation),
// 13 (protocol), RH 6.2 (clocks).
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "engine/position.h"
#include "engine/rules.h"
#include "human_player.h"
#include "player.h"
#include "referee.h"

namespace klinzha::gui {

/// An engine option as its `uci` answer declares it (SPEC 13 option lines).
struct EngineOption {
    std::string name, type, default_value;
    int min = 0, max = 0;
    std::vector<std::string> vars;
};

/// An engine the server may run: its name, command, and the options it declares.
struct EngineEntry {
    match::EngineSpec spec;
    std::vector<EngineOption> options;
};

/// Asks the engine for its option list (`uci` ... `uciok`). Returns the options, or an
/// error message when it does not start or answer within `timeout_ms`.
std::variant<std::vector<EngineOption>, std::string> query_engine_options(
    const match::EngineSpec& spec, std::int64_t timeout_ms = 10000);

class Analyser;

class GuiSession {
  public:
    using Send = std::function<void(const std::string&)>;
    GuiSession(std::vector<EngineEntry> engines, Send send);
    /// Ends the game (abandoned) and the analysis; every engine process ends.
    ~GuiSession();
    GuiSession(const GuiSession&) = delete;
    GuiSession& operator=(const GuiSession&) = delete;

    /// One message from the page (a JSON object with "type", docs/gui.md). Never throws:
    /// a bad message is answered with {"type":"error","message":...} and changes nothing.
    void handle(std::string_view text);

  private:
    struct Seat;
    void on_new_game(const nlohmann::json& msg);
    void on_move(const nlohmann::json& msg);
    void on_takeback();
    void on_load(const nlohmann::json& msg);
    void on_set_position(const nlohmann::json& msg);
    void on_goto(const nlohmann::json& msg);
    void on_analyse(const nlohmann::json& msg);
    void stop_game();
    void start_referee(const std::string& start_fen);
    void error(const std::string& message);
    /// Keeps the first n moves of the shown game (its parallel lists). Needs m_ held.
    void keep_moves(std::size_t n);
    /// The position after `ply` plies of the shown game (-1: the last). Needs m_ held.
    Position position_at(int ply) const;
    nlohmann::json state_json() const;  ///< needs m_ held
    void broadcast_state();
    void follow_analysis();  ///< points the analysis at the shown position (m_ held)
    nlohmann::json welcome_json() const;

    std::vector<EngineEntry> engines_;
    Send send_;
    mutable std::mutex m_;
    /// Held from taking a state to sending it, so states reach the page in the order they
    /// were taken (the game thread and the page's messages both send; a state taken earlier
    /// but sent later would leave the page on a stale position). Taken before m_, never
    /// while m_ is held.
    std::mutex state_send_m_;

    // The game shown (m_): its rules, start, moves and what the referee said.
    int players_ = 2;
    Rules rules_;
    std::string start_fen_;
    std::vector<std::string> moves_, algebraic_, comments_;
    std::vector<Colour> movers_;
    std::vector<bool> setup_;
    std::vector<match::GameRecord::Removal> removals_;
    std::string result_, termination_;
    std::array<match::Outcome, kColours> outcome_{};
    int view_ply_ = -1;  ///< -1: follow the game
    Colour view_colour_ = GREEN;
    std::array<std::string, kColours> names_;
    std::array<bool, kColours> human_{};

    // The referee's game (m_ for the fields; the thread runs without it).
    match::GameConfig cfg_;
    std::vector<std::unique_ptr<match::Player>> players_objs_;
    std::vector<std::unique_ptr<Seat>> seats_;
    std::array<HumanPlayer*, kColours> humans_{};
    std::thread game_thread_;
    std::atomic<bool> abandon_{false};
    bool running_ = false;
    std::size_t segment_start_ = 0;  ///< moves_ before the referee's current start position
    std::array<std::int64_t, kColours> clock_ms_{-1, -1, -1};
    Colour clock_running_ = NO_COLOUR;
    std::int64_t clock_stamp_ms_ = 0;  ///< steady ms when clock_ms_ was read

    std::unique_ptr<Analyser> analyser_;
    int analysis_multipv_ = 2;
};

}  // namespace klinzha::gui
