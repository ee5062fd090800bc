// engine/position.h: a Klin Zha / Romulan Heart position and its history.
//
// Holds the men of up to three colours (pieces as bitboards plus a mailbox, hearts as
// cells), the player to move, the phase, the half-move and full-move counters, which
// players are out, a Zobrist key kept incrementally, and the rule options (SPEC 8).
// do_move/undo_move work by copy-make: each ply pushes a copy of the small State, so undo
// is a pop and the stack doubles as the key history for repetition (SPEC 7).
//
// Sources: SPEC 1-7 (rules), 10 (position string); RH 3.1, 5.1, 6.9; Laws of KZ 5.1.2.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bitboard.h"
#include "rules.h"
#include "types.h"

namespace klinzha {

/// What stands on a cell of the mailbox: kNoMan, or (colour << 3) | piece type.
using Man = std::uint8_t;
inline constexpr Man kNoMan = 0xFF;
constexpr Man make_man(Colour c, PieceType t) {
    return Man((c << 3) | t);
}
constexpr Colour man_colour(Man m) {
    return Colour(m >> 3);
}
constexpr PieceType man_type(Man m) {
    return PieceType(m & 7);
}

/// The position strings of SPEC 10 for the empty start positions.
inline constexpr const char* kStartFen2 = "2 - - - g place 0 1";
inline constexpr const char* kStartFen3 = "3 - - - g place 0 1";

class Position {
  public:
    /// The everything-per-ply part, copied on every do_move.
    struct State {
        std::array<std::array<Bitboard, kPieceTypes>, kColours> pieces{};
        std::array<Bitboard, kColours> by_colour{};
        std::array<Man, kCells> board{};
        std::array<Cell, kColours> heart{NO_CELL, NO_CELL, NO_CELL};
        Colour to_move = GREEN;
        Phase phase = Phase::Place;
        std::uint8_t out = 0;  ///< bit c set: colour c is out of the game (or not playing)
        int halfmove = 0;      ///< plies since the last capture of a piece or heart
        int fullmove = 1;      ///< SPEC 10
        std::uint64_t key = 0;
        Move last_move;  ///< the move that led here (Move() at the root)
    };

    /// The empty start position for `players` (2 or 3) under `rules` (SPEC 10).
    explicit Position(int players = 2, const Rules& rules = {});

    /// Parses a position string (SPEC 10) under `rules`. On success replaces this position
    /// (history cleared) and returns nullopt; on failure returns "field: reason" and
    /// leaves this position unchanged. Every rejection case of SPEC 10 is checked.
    std::optional<std::string> set(std::string_view fen, const Rules& rules);

    /// The position string of SPEC 10 (canonical order: heart first, then Q R B N P W each
    /// by cell name).
    std::string fen() const;

    // --- queries ------------------------------------------------------------------------
    int players() const { return players_; }
    const Rules& rules() const { return rules_; }
    /// Changes the rule options (the men stay). Caller must re-validate if it matters.
    void set_rules(const Rules& r) { rules_ = r; }
    const State& state() const { return stack_.back(); }
    Colour to_move() const { return state().to_move; }
    Phase phase() const { return state().phase; }
    int halfmove() const { return state().halfmove; }
    int fullmove() const { return state().fullmove; }
    std::uint64_t key() const { return state().key; }
    /// True while colour c takes part (it is one of the players and not out).
    bool is_in(Colour c) const { return !((state().out >> c) & 1); }
    /// Number of players still in.
    int players_in() const;
    /// The next colour after c in turn order (g, b, k) that is still in; c itself if it is
    /// the only one. SPEC 6.3.
    Colour next(Colour c) const;
    /// The first colour in turn order still in.
    Colour first_in() const;

    Bitboard pieces(Colour c, PieceType t) const { return state().pieces[c][t]; }
    Bitboard pieces(Colour c) const { return state().by_colour[c]; }
    Bitboard occupied() const {
        return state().by_colour[0] | state().by_colour[1] | state().by_colour[2];
    }
    Man man_on(Cell c) const { return state().board[c]; }
    /// Cell of c's heart, or NO_CELL when it is not on the board.
    Cell heart(Colour c) const { return state().heart[c]; }
    /// Cells of every heart on the board.
    Bitboard hearts() const;
    /// Number of hearts on the board.
    int hearts_on_board() const;
    /// The zones (SPEC 5) of c's walls.
    Bitboard zones(Colour c) const;
    /// The zones of the walls of every colour but c (the zones "opposing" c).
    Bitboard opposing_zones(Colour c) const;
    /// Pieces of every colour but c.
    Bitboard opposing_pieces(Colour c) const { return occupied() & ~pieces(c); }
    /// How many pieces colour c has placed or holds.
    int piece_count(Colour c) const { return popcount(pieces(c)); }

    /// True if the game is over: in play with at most one heart left (SPEC 7, 12).
    bool game_over() const { return phase() == Phase::Play && hearts_on_board() <= 1; }
    /// True if the current position occurred `times` times in all (this one included) with
    /// the same player to move (SPEC 7: three for the draw). Looks back only to the last
    /// capture or phase change.
    bool is_repetition(int times = 3) const;
    /// True if 50 moves by every player still in passed with no capture (SPEC 7).
    bool fifty_move_draw() const {
        return phase() == Phase::Play && halfmove() >= 50 * players_in();
    }
    /// Plies played from the root of the history.
    int ply() const { return int(stack_.size()) - 1; }

    // --- changes ------------------------------------------------------------------------
    /// Plays m, which must be legal here (see movegen.h); pushes the history.
    void do_move(Move m);
    /// Takes back the last do_move or eliminate_to_move. Needs ply() > 0.
    void undo_move();
    /// The player to move drops out with its heart and pieces removed (no legal move or
    /// flag fall in a three-player game: SPEC 7, RH 6.9); the turn passes. Undo with
    /// undo_move.
    void eliminate_to_move();
    /// Forgets the history (the current position becomes the root).
    void clear_history();

    // --- analysis editing (setup planner, tools) -------------------------------------------
    /// Puts a man of colour c and type t on the empty cell sq, without changing the turn,
    /// phase or counters (the key is kept up to date). The caller keeps the position valid.
    void put_man(Colour c, PieceType t, Cell sq) { put(stack_.back(), c, t, sq); }
    /// Takes the man off sq (which must hold one), as put_man.
    void remove_man(Cell sq) { remove(stack_.back(), sq); }
    /// Puts c's heart on sq, or takes it off with NO_CELL, as put_man.
    void put_heart(Colour c, Cell sq);

    /// The Zobrist key recomputed from scratch (for checks of the incremental key).
    std::uint64_t compute_key() const;

  private:
    void put(State& s, Colour c, PieceType t, Cell sq);
    void remove(State& s, Cell sq);
    void pass_turn(State& s, Colour mover);
    void capture_heart(State& s, Colour us, Colour victim);

    int players_ = 2;
    Rules rules_;
    std::vector<State> stack_;
};

/// Zobrist random numbers (fixed seed): pieces, hearts, player to move, phase.
namespace zobrist {
std::uint64_t piece(Colour c, PieceType t, Cell sq);
std::uint64_t heart(Colour c, Cell sq);
std::uint64_t to_move(Colour c);
std::uint64_t phase(Phase p);
}  // namespace zobrist

}  // namespace klinzha
