// engine/notation.h: move strings of the protocol (SPEC 9) and RH algebraic notation for
// game records (SPEC 11, RH App. E).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "position.h"

namespace klinzha {

/// The protocol string of m (SPEC 9): `W@h78`, `H@i99`, `i78i55`, `i23h23h`, `0000`.
/// Move() gives "(none)".
std::string move_to_string(Move m);

/// Parses a protocol move string (SPEC 9; cells in either digit order or case) and checks
/// that it is legal in pos. Returns the move, or a message saying why not.
std::variant<Move, std::string> parse_move(const Position& pos, std::string_view s);

/// RH algebraic notation (SPEC 11) of the legal move m in pos: `Qd27`, `Qxd27`, `fxf26`,
/// `HQd27`, `He38`, setup `Wh78` and heart `HRi99`, disambiguation by departure row,
/// columns or cell, `+` when the move leaves an opposing heart attacked.
std::string to_algebraic(const Position& pos, Move m);

/// Parses RH algebraic notation in pos back to the legal move it names (a trailing `+` or
/// `#` is accepted, as is a missing one). Returns the move, or a message saying why not
/// (no such move, or ambiguous).
std::variant<Move, std::string> parse_algebraic(const Position& pos, std::string_view s);

/// A drawing of the board for people (SPEC 13 `d`): rows i (top) to a, each cell as
/// colour letter + piece letter (`gQ`), `*` after a carrier that holds its heart, `gH` for a
/// heart alone, `.` for an empty cell and `+` for an empty separator. Ends without newline.
std::string draw_board(const Position& pos);

}  // namespace klinzha
