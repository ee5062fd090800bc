// engine/notation.h: move strings of the protocol (SPEC 9) and RH algebraic notation for
// game records (SPEC 11, RH App. E).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "position.h"

namespace klinzha {

/// The protocol string of m (SPEC 9): `W@h78`, `H@i99`, `i78i55`, `i23h23h`, `0000`; a Kinta
/// outcome attached to m is written after it (`f47d38:A87`, SPEC 26). Move() gives "(none)".
std::string move_to_string(Move m);

/// Parses a protocol move string (SPEC 9; cells in either digit order or case) and checks
/// that it is legal in pos. Returns the move, or a message saying why not.
std::variant<Move, std::string> parse_move(const Position& pos, std::string_view s);

/// Parses a move as played in a game (`position ... moves`, records): parse_move, and under
/// Kinta an attack's outcome after a colon, `f47d38:A87` (the attacker won, left with 87) or
/// `f47d38:D54` (SPEC 9, 26). An attack without its outcome, an outcome on a move that is no
/// attack, or a strength outside 1..the survivor's strength before the fight is refused with
/// a message. Returns the move with its outcome attached (Move::with_outcome).
std::variant<Move, std::string> parse_played_move(const Position& pos, std::string_view s);

/// RH algebraic notation (SPEC 11.1, canonical output) of the legal move m in pos: `Qd27`,
/// `Qxd27`, `QxHd38`, `dxe38`, `HQd27`, `He38`, `Hdxe38`, departures `Neh35`, `N37h35`,
/// `Ne37h35`, `e48e38`; setup `Wh78`, a pawn `i77`, the heart `HRi99` or on a pawn `Hi88`;
/// `+` when the mover then attacks an opposing heart (Reflective: the heart is attacked).
/// m may carry a Kinta outcome (SPEC 26): a lost attack takes no heart. Errors: none (m's
/// bare move must be legal in pos).
std::string to_algebraic(const Position& pos, Move m);

/// A played move as records write it (SPEC 11, 26): to_algebraic of the move, then a Kinta
/// attack's outcome, `Nxd38/A87` (the attacker won, left with 87) or `Nxd38/D54`. A lost
/// attack on a heart's carrier is written with `x`, not `xH` (no heart was taken), and its
/// `+` judged after the fight. Errors: none (the bare move must be legal in pos).
std::string to_record_algebraic(const Position& pos, Move played);

/// What a token of algebraic notation can mean in a position (SPEC 11.2): the legal moves it
/// names (none, one, or several when it is ambiguous), and a message when there is not
/// exactly one ("'Nh35': ambiguous, could be Ne37h35 Nf15h35", "no legal move", or "not
/// algebraic notation (...)" for a malformed token).
struct AlgebraicReading {
    std::vector<Move> moves;
    std::string error;
};

/// Reads a token leniently (SPEC 11.2): `K` for `H`, `P` for a pawn, departures given where
/// none is needed, captured letters (`QxNd27`), marks `+ # ! ? (=)` ignored, cells in either
/// digit order.
AlgebraicReading read_algebraic(const Position& pos, std::string_view s);

/// Parses RH algebraic notation in pos back to the one legal move it names (SPEC 11.2).
/// Returns the move, or the message of read_algebraic (no legal move, ambiguous, malformed).
std::variant<Move, std::string> parse_algebraic(const Position& pos, std::string_view s);

/// A drawing of the board for people (SPEC 13 `d`): rows i (top) to a, each cell as
/// colour letter + piece letter (`gQ`), `*` after a carrier that holds its heart, `gH` for a
/// heart alone, `.` for an empty cell and `+` for an empty separator; after `|`, the row's
/// cell names in the drawing's order, so any cell's name can be read off. Ends without
/// newline.
std::string draw_board(const Position& pos);

}  // namespace klinzha
