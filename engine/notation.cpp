// engine/notation.cpp: SPEC 9 move strings and SPEC 11 algebraic notation (RH App. E).
#include "notation.h"

#include <algorithm>

#include "geometry.h"
#include "movegen.h"

namespace klinzha {

std::string move_to_string(Move m) {
    switch (m.kind()) {
        case Move::Place:
            return std::string(1, kPieceChar[m.placed_type()]) + '@' + geo::cell_name(m.to()) +
                   (m.carries_heart() ? "h" : "");
        case Move::PlaceHeart:
            return "H@" + geo::cell_name(m.to());
        case Move::Normal:
            return geo::cell_name(m.from()) + geo::cell_name(m.to()) +
                   (m.carries_heart() ? "h" : "");
        case Move::Null:
            return "0000";
        case Move::None:
            break;
    }
    return "(none)";
}

std::variant<Move, std::string> parse_move(const Position& pos, std::string_view s) {
    auto bad = [&](const std::string& why) { return "'" + std::string(s) + "': " + why; };
    Move m;
    if (s == "0000") {
        return bad("the null move is not a legal move in a game");
    } else if ((s.size() == 5 || (s.size() == 6 && (s[5] == 'h' || s[5] == 'H'))) && s[1] == '@') {
        auto to = geo::parse_cell(s.substr(2, 3));
        if (!to) return bad("no such cell");
        char letter = char(std::toupper(static_cast<unsigned char>(s[0])));
        auto it = std::find(kPieceChar.begin(), kPieceChar.end(), letter);
        if (it == kPieceChar.end()) return bad("unknown piece letter");
        PieceType t = PieceType(it - kPieceChar.begin());
        if (t == HEART && s.size() == 6) return bad("the heart is placed with H@<cell>");
        m = t == HEART ? Move::place_heart(*to) : Move::place(t, *to, s.size() == 6);
    } else if (s.size() == 6 || (s.size() == 7 && (s[6] == 'h' || s[6] == 'H'))) {
        auto from = geo::parse_cell(s.substr(0, 3));
        auto to = geo::parse_cell(s.substr(3, 3));
        if (!from || !to) return bad("no such cell");
        m = Move::normal(*from, *to, s.size() == 7);
    } else {
        return bad("not a move string (W@h78, H@i99, R@i99h, i78i55, i23h23h)");
    }
    MoveList legal;
    generate_legal(pos, legal);
    if (legal.contains(m)) return m;
    if (pos.game_over()) return bad("the game is over");
    const char* phase = pos.phase() == Phase::Place   ? "placement"
                        : pos.phase() == Phase::Heart ? "heart placement"
                                                      : "play";
    return bad(std::string("not a legal move in the ") + phase + " phase for " +
               kColourChar[pos.to_move()]);
}

namespace {

std::string columns(Cell c) {
    return geo::cell_name(c).substr(1);
}
char row_letter(Cell c) {
    return geo::cell_name(c)[0];
}

}  // namespace

std::string to_algebraic(const Position& pos, Move m) {
    const Colour us = pos.to_move();
    if (m.kind() == Move::Place) return kPieceChar[m.placed_type()] + geo::cell_name(m.to());
    if (m.kind() == Move::PlaceHeart)
        return std::string("H") + kPieceChar[man_type(pos.man_on(m.to()))] + geo::cell_name(m.to());
    if (m.kind() != Move::Normal) return move_to_string(m);

    const PieceType t = man_type(pos.man_on(m.from()));
    bool capture = pos.man_on(m.to()) != kNoMan;
    for (int c = 0; c < kColours; ++c)
        if (c != us && pos.heart(Colour(c)) == m.to()) capture = true;

    std::string s;
    if (m.carries_heart()) s += 'H';
    if (t != PAWN) s += kPieceChar[t];

    // Disambiguation among like pieces reaching the same cell the same way (SPEC 11).
    MoveList legal;
    generate_legal(pos, legal);
    std::vector<Cell> rivals;
    for (Move o : legal)
        if (o.kind() == Move::Normal && o.to() == m.to() && o.from() != m.from() &&
            o.carries_heart() == m.carries_heart() && man_type(pos.man_on(o.from())) == t)
            rivals.push_back(o.from());
    if (!rivals.empty()) {
        bool row_unique = std::none_of(rivals.begin(), rivals.end(), [&](Cell c) {
            return row_letter(c) == row_letter(m.from());
        });
        bool cols_unique = std::none_of(rivals.begin(), rivals.end(),
                                        [&](Cell c) { return columns(c) == columns(m.from()); });
        if (row_unique)
            s += row_letter(m.from());
        else if (cols_unique)
            s += columns(m.from());
        else
            s += geo::cell_name(m.from());
    } else if (t == PAWN && capture) {
        s += row_letter(m.from());  // a pawn capture names its departure row
    }
    if (capture) s += 'x';
    s += geo::cell_name(m.to());

    Position& after = const_cast<Position&>(pos);  // restored by undo_move below
    after.do_move(m);
    bool attacks = false;
    if (!after.game_over())
        for (int c = 0; c < kColours; ++c)
            if (c != us && after.is_in(Colour(c)) && attacks_heart(after, us, Colour(c)))
                attacks = true;
    after.undo_move();
    if (attacks) s += '+';
    return s;
}

std::variant<Move, std::string> parse_algebraic(const Position& pos, std::string_view s) {
    std::string want(s);
    while (!want.empty() && (want.back() == '+' || want.back() == '#')) want.pop_back();
    MoveList legal;
    generate_legal(pos, legal);
    for (Move m : legal) {
        std::string f = to_algebraic(pos, m);
        while (!f.empty() && f.back() == '+') f.pop_back();
        if (f == want) return m;
    }
    return "'" + std::string(s) + "': names no legal move here";
}

std::string draw_board(const Position& pos) {
    std::string out;
    for (int r = 9; r >= 1; --r) {
        std::string line(1, char('a' + r - 1));
        line += std::string(std::size_t(1 + (9 - r) * 2), ' ');
        for (int i = 0; i < 2 * r - 1; ++i) {
            Cell c = Cell((r - 1) * (r - 1) + i);
            std::string tok = " . ";
            if (test(geo::separators(), c)) tok = " + ";
            Man m = pos.man_on(c);
            if (m != kNoMan) {
                tok = {kColourChar[man_colour(m)], kPieceChar[man_type(m)], ' '};
                if (pos.heart(man_colour(m)) == c) tok[2] = '*';
            } else {
                for (int col = 0; col < kColours; ++col)
                    if (pos.heart(Colour(col)) == c) tok = {kColourChar[col], 'H', ' '};
            }
            line += tok;
            line += ' ';
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line;
        out += '\n';
    }
    const char* phase = pos.phase() == Phase::Place   ? "place"
                        : pos.phase() == Phase::Heart ? "heart"
                                                      : "play";
    out += std::string("to move: ") + kColourChar[pos.to_move()] + ", phase: " + phase;
    return out;
}

}  // namespace klinzha
