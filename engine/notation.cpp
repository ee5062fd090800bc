// engine/notation.cpp: SPEC 9 move strings and SPEC 11 algebraic notation (RH App. E).
#include "notation.h"

#include <algorithm>
#include <cctype>
#include <charconv>

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
                   (m.carries_heart() ? "h" : "") +
                   (m.outcome_strength() ? std::string(m.defender_won() ? ":D" : ":A") +
                                               std::to_string(m.outcome_strength())
                                         : std::string());
        case Move::Null:
            return "0000";
        case Move::None:
            break;
    }
    return "(none)";
}

std::variant<Move, std::string> parse_move(const Position& pos, std::string_view s) {
    auto bad = [&](const std::string& why) {
        return "'" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'") + ": " + why;
    };
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

std::variant<Move, std::string> parse_played_move(const Position& pos, std::string_view s) {
    const auto colon = s.find(':');
    auto r = parse_move(pos, s.substr(0, colon));
    if (std::holds_alternative<std::string>(r)) return r;
    const Move m = std::get<Move>(r);
    auto bad = [&](const std::string& why) {
        return "'" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'") + ": " + why;
    };
    if (colon == std::string_view::npos) {
        if (pos.is_attack(m))
            return bad("an attack under Kinta needs its outcome, :A<n> or :D<n> (SPEC 26)");
        return m;
    }
    if (!pos.is_attack(m)) return bad("an outcome is given for a move that is no attack");
    const std::string_view out = s.substr(colon + 1);
    int n = 0;
    if (out.size() < 2 || (out[0] != 'A' && out[0] != 'D'))
        return bad("the outcome must be :A<n> (the attacker won) or :D<n> (the defender won)");
    auto [p, ec] = std::from_chars(out.data() + 1, out.data() + out.size(), n);
    if (ec != std::errc() || p != out.data() + out.size() || n < 1 || n > 255)
        return bad("the outcome's strength must be a whole number from 1");
    const Move with = m.with_outcome(out[0] == 'D', n);
    if (auto err = pos.check_outcome(with)) return bad(*err);
    return with;
}

namespace {

std::string columns(Cell c) {
    return geo::cell_name(c).substr(1);
}
char row_letter(Cell c) {
    return geo::cell_name(c)[0];
}
/// The letter of a piece in records: none for a pawn (RH E4, E5).
std::string letter(PieceType t) {
    return t == PAWN ? std::string() : std::string(1, kPieceChar[t]);
}

}  // namespace

std::string to_record_algebraic(const Position& pos, Move played) {
    // The move with its outcome: a lost attack on a carrier takes no heart (no `xH`), and
    // the `+` is judged on the position the fight left.
    std::string s = to_algebraic(pos, played);
    if (played.outcome_strength())
        s += (played.defender_won() ? "/D" : "/A") + std::to_string(played.outcome_strength());
    return s;
}

std::string to_algebraic(const Position& pos, Move m) {
    if (m.kind() == Move::Place)  // SPEC 11.1 setup: `Wh78`, a pawn `i77`; Reflective `HRi99`
        return (m.carries_heart() ? "H" : "") + letter(m.placed_type()) + geo::cell_name(m.to());
    if (m.kind() == Move::PlaceHeart)  // `HRi99`, on a pawn `Hi88` (E8)
        return "H" + letter(man_type(pos.man_on(m.to()))) + geo::cell_name(m.to());
    if (m.kind() != Move::Normal) return move_to_string(m);

    const Colour us = pos.to_move();
    const PieceType t = man_type(pos.man_on(m.from()));
    const bool capture = pos.is_capture(m);
    const bool takes_heart = pos.heart_victim(m) != NO_COLOUR && !m.defender_won();

    std::string s;
    if (m.carries_heart()) s += 'H';
    s += letter(t);
    if (!m.carries_heart()) {
        // SPEC 11.1 departure (E10-E12): the candidates are the mover's pieces of the same
        // kind with a legal move, not carrying the heart, to the same arrival cell.
        MoveList legal;
        generate_legal(pos, legal);
        int candidates = 0;
        bool row_shared = false;  // with two candidates on one row, their columns differ
        for (Move o : legal) {
            if (o.kind() != Move::Normal || o.to() != m.to() || o.carries_heart() ||
                man_type(pos.man_on(o.from())) != t)
                continue;
            ++candidates;
            if (o.from() == m.from()) continue;
            row_shared |= row_letter(o.from()) == row_letter(m.from());
        }
        if (t == PAWN) {
            if (candidates >= 2)
                s += geo::cell_name(m.from());
            else if (capture)
                s += row_letter(m.from());
        } else if (candidates == 2) {
            s += !row_shared ? std::string(1, row_letter(m.from())) : columns(m.from());
        } else if (candidates >= 3) {
            s += geo::cell_name(m.from());
        }
    } else if (t == PAWN && capture) {
        s += row_letter(m.from());  // `Hdxe38`
    }
    if (capture) s += takes_heart ? "xH" : "x";
    s += geo::cell_name(m.to());

    // `+` when the mover then attacks an opposing heart (Reflective: the heart is attacked);
    // never after a move that ends the game (E13).
    Position& after = const_cast<Position&>(pos);  // restored by undo_move below
    after.do_move(m);
    bool attacks = false;
    if (!after.game_over()) {
        if (after.rules().reflective)
            attacks = heart_attacked(after, GREEN);
        else
            for (int c = 0; c < kColours; ++c)
                if (c != us && after.is_in(Colour(c)) && attacks_heart(after, us, Colour(c)))
                    attacks = true;
    }
    after.undo_move();
    if (attacks) s += '+';
    return s;
}

namespace {

/// A token of SPEC 11.2 split into its parts.
struct Token {
    bool heart = false;      ///< `H` (or `K`) first
    PieceType piece = PAWN;  ///< the letter; none or `P`: a pawn
    char dep_row = 0;        ///< departure row, if given
    std::string dep_cols;    ///< departure column digits, if given (sorted)
    bool capture = false;    ///< `x`
    char captured = 0;       ///< the captured letter after `x`, if given (`H` for K too)
    Cell to = NO_CELL;
};

bool is_row(char c) {
    return c >= 'a' && c <= 'i';
}
bool is_digit(char c) {
    return c >= '1' && c <= '9';
}
int piece_of(char c) {
    auto it = std::find(kPieceChar.begin(), kPieceChar.end(), c == 'K' ? 'H' : c);
    return it == kPieceChar.end() ? -1 : int(it - kPieceChar.begin());
}

/// Splits `[H] [letter] [departure] [x [captured]] cell [marks]` (SPEC 11.2). Returns an
/// error message for a token that has not this form.
std::optional<std::string> split_token(std::string_view s, Token& t) {
    std::string w(s);
    // Marks: any of + # ! ? and (=), in any order, at the end.
    for (bool more = true; more;) {
        more = false;
        if (w.size() >= 3 && w.compare(w.size() - 3, 3, "(=)") == 0) {
            w.resize(w.size() - 3);
            more = true;
        } else if (!w.empty() &&
                   std::string_view("+#!?").find(w.back()) != std::string_view::npos) {
            w.pop_back();
            more = true;
        }
    }
    if (w.size() < 3) return "too short for a cell";
    auto cell = geo::parse_cell(w.substr(w.size() - 3));
    if (!cell || !is_row(w[w.size() - 3])) return "does not end in a cell (row a-i, two digits)";
    t.to = *cell;
    std::string_view p(w.data(), w.size() - 3);
    std::size_t i = 0;
    if (i < p.size() && (p[i] == 'H' || p[i] == 'K')) {
        t.heart = true;
        ++i;
    }
    if (i < p.size() && std::isupper(static_cast<unsigned char>(p[i]))) {
        int k = piece_of(p[i]);
        if (k < 0 || k == HEART) return std::string("unknown piece letter '") + p[i] + "'";
        t.piece = PieceType(k);
        ++i;
    }
    if (i < p.size() && is_row(p[i])) t.dep_row = p[i++];
    if (i < p.size() && is_digit(p[i])) {
        if (i + 1 >= p.size() || !is_digit(p[i + 1])) return "a departure needs two column digits";
        t.dep_cols = {std::min(p[i], p[i + 1]), std::max(p[i], p[i + 1])};
        i += 2;
    }
    if (i < p.size() && p[i] == 'x') {
        t.capture = true;
        ++i;
        if (i < p.size() && std::isupper(static_cast<unsigned char>(p[i]))) {
            if (piece_of(p[i]) < 0) return std::string("unknown captured letter '") + p[i] + "'";
            t.captured = p[i] == 'K' ? 'H' : p[i];
            ++i;
        }
    }
    if (i != p.size()) return "unexpected '" + std::string(p.substr(i)) + "'";
    return std::nullopt;
}

/// Does token t name the legal move m of pos (SPEC 11.2)?
bool names(const Position& pos, const Token& t, Move m) {
    if (m.to() != t.to) return false;
    switch (m.kind()) {
        case Move::Place:
            return t.heart == m.carries_heart() && t.piece == m.placed_type() && !t.capture &&
                   !t.dep_row && t.dep_cols.empty();
        case Move::PlaceHeart:
            return t.heart && t.piece == man_type(pos.man_on(m.to())) && !t.capture && !t.dep_row &&
                   t.dep_cols.empty();
        case Move::Normal:
            break;
        default:
            return false;
    }
    const Man mover = pos.man_on(m.from());
    if (man_type(mover) != t.piece || m.carries_heart() != t.heart) return false;
    if (t.capture != pos.is_capture(m)) return false;
    if (t.captured) {
        const Man victim = pos.man_on(m.to());
        const bool takes_heart = pos.heart_victim(m) != NO_COLOUR;
        bool ok = (t.captured == 'H' && takes_heart) ||
                  (victim != kNoMan && t.captured == kPieceChar[man_type(victim)]);
        if (!ok) return false;
    }
    const std::string from = geo::cell_name(m.from());
    if (t.dep_row && t.dep_row != from[0]) return false;
    if (!t.dep_cols.empty() && t.dep_cols != from.substr(1)) return false;
    return true;
}

}  // namespace

AlgebraicReading read_algebraic(const Position& pos, std::string_view s) {
    AlgebraicReading r;
    Token t;
    if (auto err = split_token(s, t)) {
        r.error = "'" + std::string(s.substr(0, 60)) + "': not algebraic notation (" + *err + ")";
        return r;
    }
    MoveList legal;
    generate_legal(pos, legal);
    for (Move m : legal)
        if (names(pos, t, m)) r.moves.push_back(m);
    if (r.moves.empty()) {
        r.error = "'" + std::string(s) + "': no legal move";
    } else if (r.moves.size() > 1) {
        r.error = "'" + std::string(s) + "': ambiguous, could be";
        for (Move m : r.moves) r.error += " " + to_algebraic(pos, m);
    }
    return r;
}

std::variant<Move, std::string> parse_algebraic(const Position& pos, std::string_view s) {
    AlgebraicReading r = read_algebraic(pos, s);
    if (r.moves.size() == 1) return r.moves.front();
    return r.error;
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
        // The row's cell names in the same order, so a cell can be read off the drawing.
        line.resize(72, ' ');
        line += "|";
        for (int i = 0; i < 2 * r - 1; ++i)
            line += ' ' + geo::cell_name(Cell((r - 1) * (r - 1) + i));
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
