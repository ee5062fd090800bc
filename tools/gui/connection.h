// tools/gui/connection.h: one WebSocket connection of klinzha-gui: the page's messages in
// (docs/gui.md "Messages"), its views out. A connection is in the lobby, or in one room as a
// seat (it holds that seat's token) or as a spectator; it has its own place in the game's
// history (the ply it shows), its own board orientation and its own analysis engine. What it
// shows of a room is always Room::player_view for its seat.
//
// Messages are handled in order on the connection's own thread (post() queues them), so a
// slow action (engines starting, a take-back waiting for an engine's move) never blocks the
// server's network threads; room changes only mark the view stale (refresh()), and the
// thread sends the view as it is then, so a later state is never overtaken by an older one.
//
// Limits (docs/gui.md "Limits"): at most `messages_per_second` messages a second on average
// (a burst of twice that); more are answered with an error and dropped.
// Errors: a bad message is answered with {"type":"error","message":...} and changes nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "analysis.h"
#include "lobby.h"
#include "review.h"

namespace klinzha::gui {

class Connection {
  public:
    /// Sends one text message to the page; must be thread-safe and must not block long.
    using Send = std::function<void(const std::string&)>;
    Connection(Lobby& lobby, Send send, double messages_per_second = 20);
    /// Leaves the room (the seat stays the person's: its token rejoins it) and ends the
    /// analysis engine; waits for the connection's thread.
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    /// Queues one message from the page (rate-limited; handled in order on the thread).
    void post(std::string text);
    /// The room changed: the view is sent again (from the connection's thread).
    void refresh();
    /// Handles one message at once on the calling thread (tests; post() uses it).
    void handle(std::string_view text);

  private:
    void run();
    void error(const std::string& message);
    void send_view();
    void join(std::shared_ptr<Room> room, const std::string& token);  // (by value: it may be room_)
    void leave();
    /// Points the analysis at the view's position, or stops it when the view allows none.
    void follow_analysis(const nlohmann::json& view);
    void stop_analysis();  ///< ends the analysis engine and gives its place back
    // The messages by kind (docs/gui.md "Messages"); each answers or sends an error itself.
    /// Those that need no room (hello, lobby, join, leave, the Learn page's, create, load);
    /// false when `type` is none of them.
    bool on_lobby_message(const std::string& type, const nlohmann::json& msg);
    /// What this connection sees of its room (goto, view, save, analyse, hint, review,
    /// rematch); false when `type` is none of them.
    bool on_view_message(const std::string& type, const nlohmann::json& msg);
    /// A player's actions (sit, move, draw, resign, abort, takeback) and the chat; the room's
    /// refusal in `err`; false when `type` is none of them.
    bool on_player_message(const std::string& type, const nlohmann::json& msg,
                           std::optional<std::string>& err);
    void on_sit(const nlohmann::json& msg);
    void on_hint(const nlohmann::json& msg);
    void on_create(const nlohmann::json& msg);
    void on_load(const nlohmann::json& msg);
    /// `rematch`: a new room with this finished room's settings from the same start, each
    /// seat moved on to the next colour (so colours are turned); this seat's person sits at
    /// its new colour, the others are offered the room in their view (`rematch`).
    void on_rematch();
    /// Creates a room of `s` for `what` (create, rematch), says `created`, seats this
    /// connection's person at `sit_at` under `name` (`seat`) and joins it. Returns the room
    /// (nullptr when the lobby refused it; errors are sent as `what: ...`).
    std::shared_ptr<Room> open_room(RoomSettings s, std::optional<Colour> sit_at,
                                    const std::string& name, const std::string& what);
    void on_analyse(const nlohmann::json& msg);
    /// {"type":"review","on":true,"depth":5,"engine":...}: every move of the game scored
    /// for the evaluation graph (review.h); takes an analysis engine's place.
    void on_review(const nlohmann::json& msg);
    /// `save`: the record, with the marks of this connection's finished review of the game.
    void on_save();
    /// Sends the lobby's list and, out of any room, keeps it pushed on every change.
    void send_lobby();
    void unwatch_lobby();
    void stop_review();
    nlohmann::json welcome() const;

    Lobby& lobby_;
    Send send_;
    double rate_;
    double tokens_;
    std::int64_t last_ms_;
    /// When this connection last said a chat line (one a second).
    std::chrono::steady_clock::time_point last_chat_{};

    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::string> inbox_;
    bool dirty_ = false;
    bool quit_ = false;
    /// In the lobby: the list changed (Lobby::watch); sent at most once a second.
    bool lobby_dirty_ = false;
    std::chrono::steady_clock::time_point last_lobby_{};

    // Touched by the connection's thread only.
    std::shared_ptr<Room> room_;
    std::optional<Colour> seat_;
    int listener_ = 0;
    int lobby_watch_ = 0;  ///< Lobby::watch handle while the page shows the lobby, else 0
    int view_ply_ = -1;    ///< -1: follow the game
    Colour orientation_ = GREEN;
    /// The last finished review's points and the room and number of plies it covered
    /// (written on the reviewer's thread, under review_m_): a record saved of that game
    /// carries its marks and scores. Declared before reviewer_, which outlives none of them.
    std::mutex review_m_;
    nlohmann::json reviewed_points_;
    std::string reviewed_room_;
    std::size_t reviewed_plies_ = 0;
    std::unique_ptr<Analyser> analyser_;
    std::unique_ptr<Reviewer> reviewer_;
    int multipv_ = 2;
    std::string analysis_engine_;

    std::thread thread_;  ///< last: started when everything else is ready
};

}  // namespace klinzha::gui
