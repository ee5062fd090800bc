// tools/gui/learn.h: the Learn page's lessons (issue 26): small boards that show where one
// man may go, and exercises whose answers the rules core checks. The page never computes a
// rule: it asks the server, which answers from engine/ (move generation, hearts in danger).
//
// WebSocket messages (docs/gui.md): `learn_moves` {fen, cell} answers the position's picture
// with the destinations of the man on `cell` marked; `exercise` {id} the exercise's picture
// and goal; `exercise_move` {id, move} whether the move solves it, and why not. Sources:
// SPEC 3 (moves), 4 (hearts), 5 (walls), 10 (position strings), docs/rules.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

namespace klinzha::gui::learn {

/// What an exercise asks of the player to move.
enum class Goal {
    TakeHeart,  ///< a move that takes an opposing heart
    SaveHeart,  ///< a move after which no opposing move can take the mover's heart
};

/// One exercise of the Learn page: its id (for the messages), title, the goal in words and
/// as a check, and the position (SPEC 10, play phase).
struct Exercise {
    const char* id;
    const char* title;
    const char* text;
    Goal goal;
    const char* fen;
};

/// The exercises, in the page's order. Each has at least one solution and one move that
/// fails (tests/tools/gui_test.cpp checks that with the rules core).
const std::vector<Exercise>& exercises();

/// The picture of position `fen` (SPEC 10) seen from `view` (g, b or k), with the man on
/// `cell` (a cell name, or "" for none) picked and its destinations marked. Returns
/// {"svg", "cell", "destinations": [cell names], "moves": [SPEC 9 strings]}, or an error
/// message (a bad position string or cell, no man of the player to move on the cell).
std::variant<nlohmann::json, std::string> moves_of(const std::string& fen, const std::string& cell,
                                                   const std::string& view);

/// The exercise `id`: {"id", "title", "text", "fen", "svg"}, or an error message.
std::variant<nlohmann::json, std::string> exercise(const std::string& id);

/// Checks `move` (a SPEC 9 string) as the answer to exercise `id`: {"id", "move", "solved":
/// bool, "why": words, "svg": the position after the move}. Errors (the message instead):
/// an unknown exercise, a move that does not parse or is not legal there.
std::variant<nlohmann::json, std::string> check(const std::string& id, const std::string& move);

}  // namespace klinzha::gui::learn
