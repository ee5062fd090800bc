// engine/blind.h: the Blind game (SPEC 25, RH V4): what the arbiter tells each player, and
// a player's view built from what it was told.
//
// The arbiter (a referee holding the whole position) turns every ply into one token per
// player (announce(), out_token()); a player's history of tokens is what `position blind`
// gives an engine (SPEC 25 "Protocol"). View reads such a history back, checking every token,
// into the player's view: its own men, the public facts (clouds, rules, whose turn, who is
// out) and the observations (its captures, its men lost and where, the others' plies, the
// men received). One code path builds a view, whatever the hidden truth was.
//
// Tokens (SPEC 25): an own ply is its move string (SPEC 9) then nothing, `x` (it captured a
// man) or `xH` (a heart); in three players an `xH` is followed by `+<colour>:<men>` (the men
// received; none under RelationDilemma). Another player's ply is `?`, `?x<cell>` (it took the
// viewer's man there), `?xH` (the viewer's heart) or `?-<colour>` (that colour's heart). A
// player going out without a ply is `-<colour>`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "position.h"

namespace klinzha::blind {

/// One ply (or a player going out) as the viewer was told it.
struct Observation {
    enum class Kind : std::uint8_t { Own, Other, Out };
    /// What the ply took: for an own ply, what it captured; for another's, what it took of
    /// the viewer's (Man: the man on `cell`; Heart: the viewer's heart), or another colour's
    /// heart (OtherHeart: `victim`'s).
    enum class Took : std::uint8_t { Nothing, Man, Heart, OtherHeart };
    Kind kind = Kind::Own;
    Colour mover = NO_COLOUR;  ///< whose ply it was (Out: the colour that went out)
    Move move;                 ///< Own: the move as played (bare)
    Took took = Took::Nothing;
    Cell cell = NO_CELL;        ///< Other, Took::Man: where the viewer's man was taken
    Colour victim = NO_COLOUR;  ///< whose heart was taken (Own xH in three players; `?-c`)
    /// Own xH in three players: the men received (piece type, cell), as the `+` token said.
    std::vector<std::pair<PieceType, Cell>> received;
    bool told_received = false;  ///< a `+` token came (it may name no men: `+b:-`)
};

/// The tokens the arbiter gives `viewer` for the legal move m (bare) played in the whole
/// position `before` (SPEC 25 "Announcements"): one token, or two (`xH` then `+c:men`) for
/// the capturer of a heart in a three-player game (no `+` under RelationDilemma).
std::vector<std::string> announce(const Position& before, Move m, Colour viewer);

/// The token for colour c going out without a ply (no legal move, flag fall): `-g`.
std::string out_token(Colour c);

/// A player's view of a blind game (SPEC 25), built from the start position and its tokens.
class View {
  public:
    /// The view of `viewer` at the start of the game. `start` must be a whole position in the
    /// place phase holding no men of the other colours (referees start from the empty
    /// board), under rules with Blind on. Returns the view or an error.
    static std::variant<View, std::string> start(Colour viewer, const Position& start);

    /// Reads `position blind` (SPEC 25): start, then each token in turn, then the refused
    /// proposals of the current turn. Errors name the token and its index (1-based) and why;
    /// nothing is returned then.
    static std::variant<View, std::string> parse(Colour viewer, const Position& start,
                                                 const std::vector<std::string>& tokens,
                                                 const std::vector<std::string>& refused);

    /// Applies one token (see the file comment). Returns an error (this view unchanged) or
    /// nullopt. Refused proposals of the turn are forgotten when the viewer's ply comes.
    std::optional<std::string> apply(std::string_view token);
    /// Records a refused proposal of the current turn (SPEC 9 string). Errors: not the
    /// viewer's turn, the game is over for it, the move is not legal in the view, or it was
    /// refused already this turn.
    std::optional<std::string> refuse(std::string_view move);

    Colour viewer() const { return viewer_; }
    /// The view as a position: the viewer's men and heart, the others hidden (Position::view).
    /// Its legal moves for the viewer are the proposals it may make (SPEC 25).
    const Position& position() const { return pos_; }
    /// The position the game started from (whole, no other men).
    const Position& start_position() const { return start_; }
    const std::vector<Observation>& history() const { return history_; }
    /// The tokens read so far, as given (canonical spellings).
    const std::vector<std::string>& tokens() const { return tokens_; }
    /// Refused proposals of the current turn, in order.
    const std::vector<Move>& refused() const { return refused_; }
    /// True once the game is over for the viewer: its heart was taken, it went out, the game
    /// ended by a heart capture (two players, RelationDilemma), or it is the last one in.
    bool over() const { return over_; }
    /// True when it is the viewer's turn and the game is not over for it.
    bool to_propose() const { return !over_ && pos_.to_move() == viewer_; }
    /// The viewer's proposals that are legal in the view and not yet refused this turn.
    std::vector<Move> proposals() const;
    /// For `d`: the board drawn (own men only), then one line per observation.
    std::string describe() const;

  private:
    // The parts of apply(), by the kind of token: the men received after an own heart
    // capture in three players (`+<colour>:<men>`), a player out without a ply
    // (`-<colour>`), the viewer's own ply, another player's ply (`?...`).
    std::optional<std::string> apply_received(std::string_view token);
    std::optional<std::string> apply_out(std::string_view token, Colour mover);
    std::optional<std::string> apply_own(std::string_view token);
    std::optional<std::string> apply_other(std::string_view token, Colour mover);
    View() = default;
    Colour viewer_ = NO_COLOUR;
    Position start_;
    Position pos_;
    std::vector<Observation> history_;
    std::vector<std::string> tokens_;
    std::vector<Move> refused_;
    bool over_ = false;
    bool await_received_ = false;  ///< an own xH in three players: a `+` token must follow
};

/// A colour field of SPEC 10 for a list of men (`Qd38,Pe26,Wc17`, `-`), canonical order.
std::string men_field(const std::vector<std::pair<PieceType, Cell>>& men);

}  // namespace klinzha::blind
