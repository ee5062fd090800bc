// tools/gui/learn.cpp: the Learn page's lessons and exercises (learn.h).
#include "learn.h"

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/svg.h"

namespace klinzha::gui::learn {
namespace {

using nlohmann::json;

/// The position of a SPEC 10 string under the default rules, or the error.
std::variant<Position, std::string> position_of(const std::string& fen) {
    Position p;
    if (auto err = p.set(fen, Rules{})) return "position: " + *err;
    return p;
}

Colour view_of(const std::string& v) {
    return parse_colour(v).value_or(BLACK);
}

const Exercise* find(const std::string& id) {
    for (const auto& e : exercises())
        if (id == e.id) return &e;
    return nullptr;
}

}  // namespace

const std::vector<Exercise>& exercises() {
    static const std::vector<Exercise> list = {
        {"take-rook", "Take the heart",
         "You are Green. Blue's heart stands alone on d38. Take it with your rook: the game is "
         "won.",
         Goal::TakeHeart, "2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1"},
        {"take-flier", "A flier jumps",
         "You are Green. Your flier (knight) on f48 jumps over anything, 3 to 6 steps in a "
         "straight line. Find the jump that takes Blue's heart.",
         Goal::TakeHeart, "2 Hi99,Pi99,Nf48,Pg57 Hc28,Pd28,Pi11 - g play 0 1"},
        {"save-capture", "Save your heart",
         "You are Blue. Your pawn on d38 carries your heart, and Green's rook on e38 can take "
         "it. Make a move after which no green man can take your heart.",
         Goal::SaveHeart, "2 Hi99,Pi99,Re38 Hd38,Pd38,Pi11 - b play 0 1"},
    };
    return list;
}

std::variant<json, std::string> moves_of(const std::string& fen, const std::string& cell,
                                         const std::string& view) {
    auto p = position_of(fen);
    if (auto* err = std::get_if<std::string>(&p)) return *err;
    const Position& pos = std::get<Position>(p);
    SvgOptions so;
    so.view = view_of(view);
    so.size_px = 360;
    json destinations = json::array(), moves = json::array();
    if (!cell.empty()) {
        const auto c = geo::parse_cell(cell);
        if (!c) return "no cell named '" + cell + "'";
        MoveList legal;
        generate_legal(pos, legal);
        for (Move m : legal)
            if (m.from() == *c && m.kind() == Move::Normal) {
                if (!(so.marked & bit(m.to()))) destinations.push_back(geo::cell_name(m.to()));
                so.marked |= bit(m.to());
                moves.push_back(move_to_string(m));
            }
        if (moves.empty() && pos.man_on(*c) == kNoMan) return "no man on " + cell;
        so.selected = *c;
    }
    return json{{"svg", board_svg(pos, so)},
                {"cell", cell},
                {"destinations", destinations},
                {"moves", moves}};
}

std::variant<json, std::string> exercise(const std::string& id) {
    const Exercise* e = find(id);
    if (!e) return "there is no exercise '" + id + "'";
    auto p = position_of(e->fen);
    if (auto* err = std::get_if<std::string>(&p)) return *err;
    const Position& pos = std::get<Position>(p);
    SvgOptions so;
    so.view = pos.to_move();
    so.size_px = 360;
    return json{{"id", e->id},
                {"title", e->title},
                {"text", e->text},
                {"fen", e->fen},
                {"svg", board_svg(pos, so)}};
}

std::variant<json, std::string> check(const std::string& id, const std::string& move) {
    const Exercise* e = find(id);
    if (!e) return "there is no exercise '" + id + "'";
    auto p = position_of(e->fen);
    if (auto* err = std::get_if<std::string>(&p)) return *err;
    Position pos = std::get<Position>(p);
    const auto parsed = parse_move(pos, move);
    if (auto* err = std::get_if<std::string>(&parsed)) return "move '" + move + "': " + *err;
    const Move m = std::get<Move>(parsed);
    const Colour us = pos.to_move();
    bool solved = false;
    std::string why;
    if (e->goal == Goal::TakeHeart) {
        solved = pos.heart_victim(m) != NO_COLOUR;
        why = solved ? "The heart is taken: you win." : "That move takes no heart. Try again.";
        pos.do_move(m);
    } else {
        pos.do_move(m);
        solved = !pos.game_over() && !heart_attacked(pos, us);
        why = solved ? "Your heart is safe: no opposing man can reach it now."
                     : "Your heart can still be taken on the next move. Try again.";
    }
    SvgOptions so;
    so.view = us;
    so.size_px = 360;
    return json{{"id", e->id},
                {"move", move},
                {"solved", solved},
                {"why", why},
                {"svg", board_svg(pos, so)}};
}

}  // namespace klinzha::gui::learn
