// tools/match/referee.h: plays one refereed game between Players, checking every move with
// the rules core (SPEC 3-7): setup through the protocol, clocks of RH article 6.2, game end
// by heart capture, no legal move, repetition, the 50-moves-each rule, illegal moves,
// crashes and flag falls (three players: the player is out, SPEC 7 / RH 6.9), and
// adjudication (move limit, resignation on score).
//
// Blind games (SPEC 25): the referee is the arbiter. Each player gets only its own history,
// `position blind <colour> fen <start> moves <tokens> [refused <moves>]` (engine/blind.h),
// never the whole position; a proposal that is not legal in the whole position is refused
// (the player proposes again, its clock running; the others are not told); one that is not
// legal in the player's own view, repeats a refusal of the turn, or passes the refusal cap
// loses as an illegal move.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/game.h"
#include "engine/position.h"
#include "player.h"

namespace klinzha::match {

/// Clock and search limits of a game. base_ms < 0: no clock. Exactly one of: a clock,
/// movetime_ms, depth, nodes (the others left unset).
struct TimeControl {
    int moves = 0;              ///< moves per period (RH 6.2), 0 = one period (sudden death)
    std::int64_t base_ms = -1;  ///< time per period
    std::int64_t inc_ms = 0;    ///< Fischer increment per move
    std::int64_t delay_ms = 0;  ///< time delay per move (RH 6.2)
    std::int64_t movetime_ms = -1;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::int64_t margin_ms = 100;  ///< a flag falls only below -margin (timing noise)

    /// Parses `[moves/]seconds[+inc]` (e.g. `40/60+0.5`, `10+0.1`). nullopt if malformed.
    static std::optional<TimeControl> parse(const std::string& s);
    /// The PGN TimeControl tag value.
    std::string describe() const;
};

struct GameConfig {
    int players = 2;
    Rules rules;
    TimeControl tc;
    std::string start_fen;  ///< "" = the empty board: engines place their own pieces
    int max_fullmoves = 0;  ///< adjudicate a draw after this many full moves (0 = never)
    /// Resignation adjudication: a player whose reported score is at or below -resign_cp
    /// (or a lost mate) for resign_moves of its own moves in a row loses (two players) or
    /// goes out as on flag fall (three players, SPEC 7). 0 = never.
    int resign_moves = 0;
    int resign_cp = 0;
    /// Draw adjudication (fastchess's -draw, SPEC 27): from full move draw_from on, once
    /// every player's reported score has been within +-draw_cp (no mate) for draw_moves of
    /// its own moves in a row, the game is drawn. draw_moves 0 = never.
    int draw_from = 0;
    int draw_moves = 0;
    int draw_cp = 0;
    /// A seat's own time control (its engine's `tc=`, `st=`, `timemargin=`, or a fixed
    /// `depth=` / `nodes=` search), else `tc`.
    std::array<std::optional<TimeControl>, kColours> seat_tc{};
    /// How long a depth- or node-limited move may take before it counts as no answer (ms).
    std::int64_t move_timeout_ms = 60000;
    /// Retry an engine that fails to start (twice, a second apart) before giving up.
    bool recover = false;
    /// Set by another thread: abandon the game (not a result: GameRecord::aborted).
    const std::atomic<bool>* abandon = nullptr;
    /// Kinta (SPEC 26): the seed of the spindle generator the referee casts fights with.
    std::uint64_t dice_seed = 0;
    /// Moves already played from start_fen before the referee takes over, as SPEC 9 strings
    /// (Kinta attacks with their outcomes, `f47d38:A87`), and `out:<why>` where the player to
    /// move was removed (SPEC 7; the form `replay` gives). A game resumed (klinzha-gui after a
    /// take-back or a restart) keeps its history for the repetition rule, the engines' move
    /// lists and the spindles (the generator is advanced past the history's fights). The
    /// record returned starts with them. A token that is not legal ends the game at once
    /// with GameRecord::aborted naming it.
    std::vector<std::string> history;
    /// The clocks when the referee takes over (ms per colour; < 0: the time control's base).
    std::array<std::int64_t, kColours> start_clock_ms{-1, -1, -1};
    /// Blind (SPEC 25): the most proposals of one turn that may be refused; the next refusal
    /// loses as an illegal move does (SPEC 25 Decision: a safety limit).
    int blind_refusal_cap = 100;
    /// A wall-clock limit on the whole game in ms, setup included (0 = none): the Italian
    /// tournament's 20 minutes (italian.h). When it passes, the game ends with no winner
    /// (every player still in draws; GameRecord::expired), whatever the players' clocks
    /// show; a move that arrives after it is not played, and a search under way is stopped.
    std::int64_t game_limit_ms = 0;
};

using klinzha::Outcome;

/// What happened in one refereed game: the Game (engine/game.h: its moves with the
/// players' comments, Kinta's spindles and Blind's refusals, the removals, the result) and
/// what only a match keeps.
struct GameRecord : Game {
    /// Kinta: every fight of the game, the attacker's exact win probability (as the engine's
    /// tables predict it) and whether it won: the match's calibration (tournament.h).
    std::vector<std::pair<double, bool>> fights;
    std::uint64_t dice_seed = 0;  ///< GameConfig::dice_seed, for the record's DiceSeed tag
    std::string final_fen;
    /// The position when the play phase began (SPEC 6), "" if it never did; the start
    /// position when the game started in play.
    std::string play_start_fen;
    /// The game ended at GameConfig::game_limit_ms.
    bool expired = false;
    /// Italian tournaments (italian.h): extra tags of the record (Italian, Tally, BachSan,
    /// FateSeed), in order.
    std::vector<std::pair<std::string, std::string>> extra_tags;
    /// Blind (SPEC 25): the refusals of the game per colour (each move's in its
    /// PlayedMove::refused).
    std::array<int, kColours> refusals{};
    /// Not empty when the game could not be played to a result: an engine failed to start,
    /// or the game was abandoned. Such a game is no result and is not recorded.
    std::string aborted;
};

/// Plays a game. seats[c] plays colour c (two or three seats). on_move, if set, is told of
/// each move (for progress output) and of each removal after which play goes on (a player
/// out in three players, SPEC 7: GameRecord::removals has grown, no move was added).
GameRecord play_game(const std::vector<Player*>& seats, const GameConfig& cfg,
                     const std::function<void(const GameRecord&)>& on_move = {});

/// The game as a PGN-style record (tags, then the moves in RH algebraic notation). `site`:
/// the program that played it (the Site tag); an unfinished game's Termination is PGN's
/// "unterminated".
std::string to_pgn(const GameRecord& g, const GameConfig& cfg, int round, const std::string& event,
                   const std::string& site = "klinzha-match");

}  // namespace klinzha::match
