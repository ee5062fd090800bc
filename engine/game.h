// engine/game.h: one game as played, the record every tool keeps: the match referee
// (tools/match/referee.h), klinzha-gui's rooms and their store, `klinzha analyse --annotate`.
// The start position, one PlayedMove per ply with what was said of it, the removals a referee
// imposed, the result and how the game ended; its PGN movetext writer (movetext()) beside its
// reader (game_from_record(), on top of record.h's read_records and replay).
//
// Sources: SPEC 7 (removals), 9 (move strings), 11 (RH App. E notation), 12 (the end of a
// game), 25 (Blind refusals), 26 (Kinta spindles); RH 11.1 and Laws of KZ 10.1 (points).
#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace klinzha {

class Position;
struct RecordGame;
struct Replay;

/// How a game ended for one colour.
enum class Outcome { Win, Loss, Draw };

/// A review's note on one move (klinzha-gui's review, `analyse --annotate`): the mark as a
/// NAG (`$6` ?!, `$2` ?, `$4` ??, or "") and the analysis comment
/// (`<played> best <best> <line>`, "" for none).
struct Annotation {
    std::string nag;
    std::string comment;
};

/// One move of a game as played, with everything said of it.
struct PlayedMove {
    std::string move;       ///< the SPEC 9 string (Kinta attacks with their outcome, `f47d38:A87`)
    std::string algebraic;  ///< RH App. E notation (SPEC 11), an agreed draw offer as `(=)`
    Colour mover = NO_COLOUR;
    bool setup = false;  ///< played in the setup phase (SPEC 6)
    /// What the player said of it, as fastchess writes it (`+0.35/12 0.512s`), or a person's
    /// note (`hint`); "" for none.
    std::string comment;
    /// Kinta (SPEC 26): the fight's rounds as the record writes them (`spindles 5,3|6 ...`);
    /// "" for a move that was no attack.
    std::string spindles;
    /// Blind (SPEC 25): the proposals refused before it in its turn (SPEC 9 strings).
    std::vector<std::string> refused;
    Annotation annotation;  ///< a review's note; empty for none
};

/// The move `m` (legal in `before`, with its Kinta outcome) as played there: its SPEC 9
/// string, its notation (SPEC 11), its mover and phase; nothing said of it yet. The one
/// place a PlayedMove is made from a move (the referee, the room, game_from_record).
PlayedMove played_move(const Position& before, Move m);

/// A removal a referee imposed in a three-player game (SPEC 7): before which move (an index
/// into Game::moves), whom, and why. Records write it as `{k out: why}`.
struct Removal {
    std::size_t before_move = 0;
    Colour colour = NO_COLOUR;
    std::string why;
};

/// One game: its players, its start, its moves and removals in order, its end. Arrays are
/// indexed by colour (g, b, k).
struct Game {
    int players = 2;
    std::array<std::string, kColours> names;
    std::string start_fen;  ///< SPEC 10
    std::vector<PlayedMove> moves;
    std::vector<Removal> removals;  ///< in the order of before_move
    std::array<Outcome, kColours> outcome{Outcome::Draw, Outcome::Draw, Outcome::Draw};
    std::array<int, kColours> hearts_captured{};
    std::array<bool, kColours> heart_lost{};
    std::string termination;  ///< how it ended, in words ("" while unfinished)
    /// The game is still going on (or never came to a result): its result is `*`.
    bool unfinished = false;
    /// A first comment before the moves (a review's per-player summary); "" for none.
    std::string lead_comment;

    /// "1-0", "0-1", "1/2-1/2" (two players); "1-0-0" style per g-b-k, halves for draws;
    /// "*" when unfinished.
    std::string result() const;
    /// Sets the outcomes from a result token (record.h result_scores: `1-0`, `0-1/2-1/2`);
    /// a token that is no finished result for `players` (`*`, "", anything else) makes the
    /// game unfinished.
    void set_result(std::string_view token);
    /// Match points: win 1, draw 1/2, loss 0.
    double points(Colour c) const;
    /// RH 11.1: +1 per heart captured, -1 for losing one's own heart.
    int rh_points(Colour c) const;
    /// Laws of KZ 10.1: win 1, loss 0, draw -1/2.
    double kz_points(Colour c) const;

    /// The first `n` moves (all when n is past the end) as SPEC 9 strings with the removals
    /// before each as `out:<why>` tokens (and those after the n-th when n covers every move):
    /// the form of the match referee's GameConfig::history and of `replay`.
    std::vector<std::string> history(std::size_t n) const;
    /// Keeps the first `n` moves and the removals before them or right after the n-th
    /// (a take-back).
    void truncate(std::size_t n);

    /// The PGN movetext (PGN export format, lines of at most 80 columns, ending with a
    /// newline): the lead comment; `{setup}` before a first setup move and `{play}` where
    /// the play phase begins (SPEC 6); a move number before each move of the first player
    /// in play; each move in algebraic notation, its NAG, its comment, its spindles and its
    /// review comment, each `{...}`; a removal as `{k out: why}` (`{k out}` when why is
    /// ""); then result().
    std::string movetext() const;
};

/// The game a record holds, as replay() read it: names from its tags (Green/Blue/Black, else
/// White/Black for two players), each replayed move with its comment and spindles, the
/// removals it wrote (`removed by the referee`) or the rules imposed (`no legal move`), its
/// result and Termination (`unterminated` is none). Stops at the first move replay() could
/// not read (r.error says why). The start position is r.start's.
Game game_from_record(const RecordGame& g, const Replay& r);

}  // namespace klinzha
