// tools/gui/room.h: a room of klinzha-gui: one game, its seats (two or three, each a person
// or an engine), its referee and clocks, and what each seat may see. The connections that
// watch a room (connection.h) are apart from it: they subscribe, and on each change ask
// player_view() for their own view, the one place where a view is computed.
//
// The game is refereed by the match runner's referee (match::play_game, tools/match/
// referee.h) on a thread of the room's own, persons being HumanPlayers. A take-back, a
// restart of the server, or a resumed game start the referee again with the moves so far as
// its history (GameConfig::history) and the clocks as they were.
//
// Between people (RH 5.3, 9.1, SPEC 27, docs/gui.md "Rooms"): draw offers that every player
// still in must accept (engines never accept; recorded `(=)`), resignation (two players:
// the game ends; three: the player goes out at once when to move, else at its next turn, as
// on flag fall, SPEC 7), take-back by agreement of every other person (engines agree when
// the game has no clock), abort before every player has moved. A person's seat left empty
// for `Env::seat_timeout_ms` while it is to move loses on time.
//
// Nothing lost: every change is written to the Store (store.h) as the room's JSON state
// (to_json), and restore() builds the room again from it; a running game goes on from its
// last move with the clocks as they were then.
//
// Thread safety: every public member may be called from any thread. Listeners are called
// without the room's lock held, from the thread that made the change.
// Errors: members that act for a seat return an error message (nothing changed) or nullopt.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "engine/blind.h"
#include "engine/position.h"
#include "engine/rules.h"
#include "engines.h"
#include "human_player.h"
#include "player.h"
#include "referee.h"

namespace klinzha::gui {

class Store;

/// One seat as its creator chose it: a person, or an engine the server offers with the
/// options the page set (already checked against the operator's allowed list).
struct SeatSpec {
    bool person = true;
    std::string engine;  ///< the engine's name (EngineEntry::spec.name) when !person
    std::vector<std::pair<std::string, std::string>> options;
    /// The page's level 1..8 (engines.h; its Skill Level is among `options`), 0 when none
    /// was chosen. The seat's name says it: `klinzha (level 3)`.
    int level = 0;
};

/// How a room's game is played; kept with the room.
struct RoomSettings {
    int players = 2;
    Rules rules;
    std::string tc;                   ///< "[moves/]seconds[+inc]"; "" = no clock
    std::int64_t delay_ms = 0;        ///< time delay per move (RH 6.2), with a clock
    std::int64_t movetime_ms = 1000;  ///< an engine's time per move when there is no clock
    std::string start_fen;            ///< SPEC 10, canonical ("" = the standard start)
    /// Moves played before the game (a record played on from a ply): GameConfig::history.
    std::vector<std::string> history;
    std::array<SeatSpec, kColours> seats;
    std::uint64_t dice_seed = 0;  ///< Kinta (SPEC 26)
    /// Test hook: every seat sees only its own men, as in a Blind game (SPEC 25), while the
    /// game is otherwise an ordinary one (legal moves, no arbiter).
    bool hide_others = false;
};

/// What a room needs from its server.
struct RoomEnv {
    const std::vector<EngineEntry>* engines = nullptr;
    Store* store = nullptr;                 ///< nullptr: nothing kept (tests)
    std::int64_t seat_timeout_ms = 120000;  ///< an empty seat to move loses on time after this
    /// Called after every change of the room (the lobby's list changes with it); may be empty.
    /// Must not block: it marks the lobby's watchers stale.
    std::function<void()> on_change;
};

class Room {
  public:
    enum class Status { Waiting, Running, Over, Review };

    /// A new room with id `id`. Checks the settings (rules for the player count, the start
    /// position, the time control, engines known): returns the room or an error message.
    /// The game starts when every person's seat is taken (at once when there is none).
    static std::variant<std::shared_ptr<Room>, std::string> create(std::string id,
                                                                   RoomSettings settings,
                                                                   RoomEnv env);
    /// A room to read a game record in (no seats to take): its moves, result and names.
    static std::variant<std::shared_ptr<Room>, std::string> review(std::string id,
                                                                   const std::string& record,
                                                                   std::size_t game, RoomEnv env);
    /// The room kept as `state` (to_json). A running game goes on: its engines start again
    /// and the referee resumes from the last move with the clocks as stored.
    static std::variant<std::shared_ptr<Room>, std::string> restore(std::string id,
                                                                    const nlohmann::json& state,
                                                                    RoomEnv env);
    /// Stops the referee and ends the engines. The stored state is left as it was (a running
    /// game resumes when the server starts again).
    ~Room();
    Room(const Room&) = delete;
    Room& operator=(const Room&) = delete;

    const std::string& id() const { return id_; }
    Status status() const;
    int players() const;

    // People at the board.
    /// Takes the free person's seat c for `name` (1-40 printable characters); `token` gets
    /// the seat's secret (128 random bits, hex), which alone lets a connection act for it.
    std::optional<std::string> sit(Colour c, const std::string& name, std::string& token);
    /// The seat a token holds, or nullopt.
    std::optional<Colour> seat_of(const std::string& token) const;
    /// A connection arrives at (or leaves) seat c, or watches (nullopt): presence.
    void attach(std::optional<Colour> c);
    void detach(std::optional<Colour> c);

    std::optional<std::string> move(Colour seat, const std::string& move);
    std::optional<std::string> offer_draw(Colour seat);
    std::optional<std::string> decline_draw(Colour seat);
    std::optional<std::string> resign(Colour seat);
    std::optional<std::string> abort_game(Colour seat);
    std::optional<std::string> ask_takeback(Colour seat);
    std::optional<std::string> answer_takeback(Colour seat, bool accept);

    // Watching.
    /// Calls `f` after every change (moves, clocks started, seats, offers, the end). Returns
    /// a handle for unsubscribe.
    int subscribe(std::function<void()> f);
    void unsubscribe(int handle);
    /// What `seat` (nullopt: a spectator) sees at ply `ply` (-1: the last), the board drawn
    /// with `orientation`'s region at the bottom: the one function that computes a view
    /// (docs/gui.md "state"). Men hidden from the seat appear nowhere in it.
    nlohmann::json player_view(std::optional<Colour> seat, int ply, Colour orientation) const;
    /// The position after `ply` plies (-1: the last), as the game's referee sees it.
    Position position_at(int ply) const;
    /// Every move of the game with the position it was played in (the whole game, as the
    /// referee sees it: callers show it only when hides_anything() is false).
    std::vector<std::pair<Position, Move>> moves_played() const;
    int plies() const;
    /// The first `ply` moves (-1: all) as SPEC 9 strings with the referee's removals as
    /// `out:<why>` tokens where they happened: GameConfig::history, RoomSettings::history.
    std::vector<std::string> history(int ply) const;
    /// The game record (PGN style, tools/match: comments and the result kept): the whole
    /// game, so pages get it only when hides_anything() is false. `notes` (by move index)
    /// and `lead` are a review's marks, scores and summary (review_notes), written in
    /// `klinzha analyse --annotate`'s form.
    std::string record(std::map<std::size_t, Annotation> notes = {}, std::string lead = {}) const;
    /// True while some seat's view hides men or moves (a Blind game, SPEC 25, or the test hook):
    /// until the game ends, nothing that shows the whole game goes to a page.
    bool hides_anything() const;
    /// One line of the lobby: id, status, players, seats (names, free), rules, clock.
    nlohmann::json summary() const;
    /// The whole state as kept in the store (no runtime objects).
    nlohmann::json to_json() const;
    /// The settings (for "play on from here").
    RoomSettings settings() const;
    /// A chat line from `seat` (nullopt: a spectator), 1-300 bytes of printable text once
    /// trimmed (UTF-8 allowed, no control characters). The room keeps the last kChatLines,
    /// not in the store. While people play each other, spectators' lines are shown to
    /// spectators only (no help from outside reaches a player); after the game, to all.
    /// Returns the error message, or nullopt.
    std::optional<std::string> chat(std::optional<Colour> seat, const std::string& text);
    static constexpr std::size_t kChatLines = 50;
    static constexpr std::size_t kChatBytes = 300;
    /// A hint was shown to the player to move (Connection's `hint`, which checks the seat):
    /// the next move's comment says `hint`.
    void note_hint();
    /// The room of the rematch of this finished game (Connection::on_rematch), shown to every
    /// view as `rematch`; not kept in the store.
    void set_rematch(const std::string& id);

    /// Ends the room's life in its lobby, before the lobby and the store go (server
    /// shutdown): the referee is stopped (the stored state stays as at the last change), the
    /// room forgets the store, and no game or referee starts again (the lobby's engine list
    /// goes with it), so a room still held by a connection that is destroyed later writes
    /// nothing and starts nothing. Idempotent; no errors.
    void close();

  private:
    Room(std::string id, RoomSettings settings, RoomEnv env);
    struct Seat;
    void start_game();     ///< m_ held; makes the players and starts the referee
    void start_referee();  ///< m_ held; the referee from the moves so far
    void stop_referee(std::unique_lock<std::mutex>& lock);  ///< joins the referee thread
    /// m_ held: the game is over, `why` in words, with each colour's outcome (nullopt: no
    /// result, the game was aborted).
    void finish(const std::string& why, std::optional<std::array<Outcome, kColours>> outcome);
    void changed();  ///< stores the state and tells the listeners (m_ not held)
    /// Appends the move `played` (legal in p, with its Kinta outcome) to the game and plays
    /// it in p (a record played on; the referee's moves come in `take`).
    void push_move(Position& p, Move played);
    /// m_ held: the result token of a finished game, "" while there is none (the stored
    /// state's and the views' `result`).
    std::string result_locked() const;
    bool has_moved_locked(Colour c) const;  ///< m_ held: c has a move in the game
    /// m_ held: why `seat` may not offer a draw, resign or ask to take back now (no game
    /// running, or it is out), or nullopt.
    std::optional<std::string> cannot_act_locked(Colour seat) const;
    /// The position after `ply` moves (-1 or past the end: the game's last, with the
    /// removals after it). before_tail, when given, receives the positions before each of
    /// the last `tail` moves replayed, oldest first (fewer when fewer moves are), taken in
    /// the same replay. Throws std::runtime_error when the moves do not replay.
    Position position_at_locked(int ply, int tail = 0,
                                std::vector<Position>* before_tail = nullptr) const;
    nlohmann::json to_json_locked() const;
    bool is_in_locked(Colour c) const;
    bool hides_anything_locked() const;  ///< hides_anything(), m_ held

    /// What a seat's view is built from (player_view), computed once under m_: the position
    /// shown and its ply, whether the view hides anything (one name for it: `hides`), the
    /// Blind seat's own view, whether the seat is to move, the persons seated, and for Kinta
    /// the positions before the fights to tell.
    struct ViewContext {
        std::optional<Colour> seat;
        int n = 0;      ///< moves played
        int ply = -1;   ///< the ply asked for, -1 at the live end
        int shown = 0;  ///< the ply shown (n at the live end)
        bool at_end = true;
        int first_fight = 1;  ///< the first ply whose fight is told
        std::vector<Position> before_fights;
        Position pos;  ///< the whole position shown
        bool hides = false;
        bool blind = false;
        std::optional<blind::View> bview;
        bool you_to_move = false;
        int people = 0;  ///< persons' seats
        /// Whether the seat sees the moves of `mover` (its own, or all when nothing is hidden).
        bool sees_move(Colour mover) const;
    };
    ViewContext view_context_locked(std::optional<Colour> seat, int ply) const;
    // The view's parts (docs/gui.md "Messages", `state`), each from the context (m_ held).
    nlohmann::json legal_json_locked(const ViewContext& v) const;
    nlohmann::json danger_json_locked(const ViewContext& v) const;
    nlohmann::json moves_json_locked(const ViewContext& v) const;
    nlohmann::json removals_json_locked() const;
    nlohmann::json seats_json_locked() const;
    bool clock_ticking_locked() const;
    nlohmann::json clocks_json_locked() const;
    nlohmann::json can_json_locked(const ViewContext& v) const;
    std::string status_text_locked(const ViewContext& v) const;
    nlohmann::json winners_json_locked() const;
    nlohmann::json chat_json_locked(const ViewContext& v) const;
    nlohmann::json fights_json_locked(const ViewContext& v) const;
    /// True when the game is a Blind one (SPEC 25): the referee is its arbiter.
    bool blind_locked() const;
    /// m_ held: `seat`'s view of a Blind game (SPEC 25) after `ply` plies (-1: all), read
    /// from the tokens the arbiter gave it (blind::announce, out_token), with the proposals
    /// refused in the turn under way when at the end. nullopt when the seat is not in it.
    std::optional<blind::View> blind_view_locked(Colour seat, int ply) const;
    std::vector<std::string> history_locked(int ply) const;  ///< history(), m_ held

    const std::string id_;
    RoomEnv env_;
    /// Serialises what stops the referee (resign, agreed draw, abort, take-back, the end);
    /// taken before m_.
    std::mutex control_m_;
    mutable std::mutex m_;
    std::mutex store_m_;  ///< orders the store's writes (taken without m_)
    RoomSettings settings_;
    std::int64_t created_ms_ = 0;
    std::size_t first_ply_ = 0;  ///< moves before it came with the room (a record played on)
    Status status_ = Status::Waiting;
    std::array<std::string, kColours> tokens_;  ///< the seats' secrets (their names: game_.names)
    std::string rematch_;                       ///< set_rematch
    struct ChatLine {
        std::string name;
        std::optional<Colour> seat;  ///< nullopt: a spectator's
        std::string text;
    };
    std::vector<ChatLine> chat_;  ///< the last kChatLines
    std::array<int, kColours> present_{};
    std::array<std::int64_t, kColours> absent_since_{};  ///< steady ms; 0 = present
    int spectators_ = 0;

    // The game (m_): the seats' names, its moves with what the referee said of them, its
    // removals and end (engine/game.h). Unfinished (no result) until the game ends with one.
    Game game_;
    std::array<std::int64_t, kColours> clock_ms_{-1, -1, -1};
    Colour clock_running_ = NO_COLOUR;
    std::int64_t clock_stamp_ms_ = 0;  ///< steady ms when clock_ms_ was read
    std::array<bool, kColours> draw_offer_{};
    /// The name a seat shows: its player's, else its colour's. Needs m_ held.
    std::string shown_name_locked(Colour c) const;
    std::set<std::size_t> hinted_;  ///< note_hint: the moves (indices) played after a hint
    /// Blind (SPEC 25): the proposals of each seat the arbiter refused in its turn under way
    /// (read off the referee's `position blind ... refused ...` line).
    std::array<std::vector<std::string>, kColours> refused_;
    Colour takeback_by_ = NO_COLOUR;
    std::array<bool, kColours> takeback_yes_{};

    // The referee (m_ for the fields; the thread runs without it).
    std::vector<std::unique_ptr<match::Player>> player_objs_;
    std::vector<std::unique_ptr<Seat>> seat_objs_;
    std::array<HumanPlayer*, kColours> humans_{};
    std::thread referee_;
    std::atomic<bool> abandon_{false};
    bool referee_running_ = false;
    bool closed_ = false;  ///< close() was called: no referee starts again

    std::mutex listeners_m_;
    std::map<int, std::function<void()>> listeners_;
    int next_listener_ = 1;
};

/// Random bits as lowercase hex (std::random_device): room ids (64 bits), seat tokens (128).
std::string random_hex(int bits);

}  // namespace klinzha::gui
