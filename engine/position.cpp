// engine/position.cpp: Position state changes, keys and the position string (SPEC 10).
#include "position.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "geometry.h"

namespace klinzha {

namespace zobrist {
namespace {
struct Keys {
    std::array<std::array<std::array<std::uint64_t, kCells>, kPieceTypes>, kColours> piece{};
    std::array<std::array<std::uint64_t, kCells>, kColours> heart{};
    std::array<std::uint64_t, kColours> to_move{};
    std::array<std::uint64_t, 3> phase{};
    Keys() {
        std::uint64_t s = 0x6b6c696e7a6861ULL;  // "klinzha": fixed, so keys are stable
        auto next = [&s] {                      // splitmix64
            std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            return z ^ (z >> 31);
        };
        for (auto& c : piece)
            for (auto& t : c)
                for (auto& k : t) k = next();
        for (auto& c : heart)
            for (auto& k : c) k = next();
        for (auto& k : to_move) k = next();
        for (auto& k : phase) k = next();
    }
};
const Keys& keys() {
    static const Keys k;
    return k;
}
}  // namespace
std::uint64_t piece(Colour c, PieceType t, Cell sq) {
    return keys().piece[c][t][sq];
}
std::uint64_t heart(Colour c, Cell sq) {
    return keys().heart[c][sq];
}
std::uint64_t to_move(Colour c) {
    return keys().to_move[c];
}
std::uint64_t phase(Phase p) {
    return keys().phase[int(p)];
}
}  // namespace zobrist

Position::Position(int players, const Rules& rules) : players_(players), rules_(rules) {
    State s;
    s.board.fill(kNoMan);
    s.out = players == 3 ? 0 : std::uint8_t(1 << BLACK);
    stack_.push_back(s);
    stack_.back().key = compute_key();
}

int Position::players_in() const {
    int n = 0;
    for (int c = 0; c < kColours; ++c) n += is_in(Colour(c));
    return n;
}

Colour Position::next(Colour c) const {
    for (int i = 1; i <= kColours; ++i) {
        Colour n = Colour((c + i) % kColours);
        if (is_in(n)) return n;
    }
    return c;
}

Colour Position::first_in() const {
    for (int c = 0; c < kColours; ++c)
        if (is_in(Colour(c))) return Colour(c);
    return GREEN;
}

Bitboard Position::hearts() const {
    Bitboard b = 0;
    for (Cell h : state().heart)
        if (h != NO_CELL) b |= bit(h);
    return b;
}

int Position::hearts_on_board() const {
    int n = 0;
    for (Cell h : state().heart) n += h != NO_CELL;
    return n;
}

Bitboard Position::zones(Colour c) const {
    return geo::neighbours_of(pieces(c, WALL));
}

Bitboard Position::opposing_zones(Colour c) const {
    Bitboard walls = 0;
    for (int o = 0; o < kColours; ++o)
        if (o != c) walls |= pieces(Colour(o), WALL);
    return geo::neighbours_of(walls);
}

std::uint64_t Position::compute_key() const {
    const State& s = state();
    std::uint64_t k = zobrist::to_move(s.to_move) ^ zobrist::phase(s.phase);
    for (int c = 0; c < kColours; ++c) {
        for (int t = 0; t < kPieceTypes; ++t)
            for_each_cell(s.pieces[c][t],
                          [&](Cell sq) { k ^= zobrist::piece(Colour(c), PieceType(t), sq); });
        if (s.heart[c] != NO_CELL) k ^= zobrist::heart(Colour(c), s.heart[c]);
    }
    return k;
}

bool Position::is_repetition(int times) const {
    const State& s = state();
    if (s.phase != Phase::Play) return false;
    int seen = 1;
    int back = std::min<int>(s.halfmove, int(stack_.size()) - 1);
    for (int i = 1; i <= back; ++i) {
        const State& o = stack_[stack_.size() - 1 - i];
        if (o.phase != Phase::Play) break;
        if (o.key == s.key && ++seen >= times) return true;
    }
    return false;
}

void Position::put(State& s, Colour c, PieceType t, Cell sq) {
    s.pieces[c][t] |= bit(sq);
    s.by_colour[c] |= bit(sq);
    s.board[sq] = make_man(c, t);
    s.key ^= zobrist::piece(c, t, sq);
}

void Position::remove(State& s, Cell sq) {
    Man m = s.board[sq];
    Colour c = man_colour(m);
    PieceType t = man_type(m);
    s.pieces[c][t] &= ~bit(sq);
    s.by_colour[c] &= ~bit(sq);
    s.board[sq] = kNoMan;
    s.key ^= zobrist::piece(c, t, sq);
}

// Heart capture (SPEC 7, RH 5.1): the victim is out and its heart is removed. In a
// three-player game its remaining pieces pass to the capturer; in a two-player game the
// capture ends the game and the loser's pieces stay where they are (as in the reference
// perft data, shared/perft/reference.epd; docs/rules.md).
void Position::capture_heart(State& s, Colour us, Colour victim) {
    s.key ^= zobrist::heart(victim, s.heart[victim]);
    s.heart[victim] = NO_CELL;
    s.out |= std::uint8_t(1 << victim);
    if (players_ != 3) return;
    for (int t = 0; t < kPieceTypes; ++t) {
        Bitboard b = s.pieces[victim][t];
        for_each_cell(b, [&](Cell sq) {
            remove(s, sq);
            put(s, us, PieceType(t), sq);
        });
    }
}

// Called on the top of the stack (the position being changed), so next() reads the
// `out` mask the move just produced.
void Position::pass_turn(State& s, Colour mover) {
    const Colour n = next(mover);
    s.key ^= zobrist::to_move(s.to_move) ^ zobrist::to_move(n);
    s.to_move = n;
}

void Position::do_move(Move m) {
    stack_.push_back(stack_.back());
    State& s = stack_.back();
    s.last_move = m;
    const Colour us = s.to_move;
    auto set_phase = [&](Phase p) {
        s.key ^= zobrist::phase(s.phase) ^ zobrist::phase(p);
        s.phase = p;
    };
    switch (m.kind()) {
        case Move::Place: {
            put(s, us, m.placed_type(), m.to());
            int placed = popcount(s.by_colour[us]);
            if (rules_.alternating_placement) {
                Colour last = players_ == 3 ? BLACK : BLUE;
                pass_turn(s, us);
                // The last colour's ninth piece ends the phase; the turn is back at Green.
                if (us == last && placed == kSetSize) set_phase(Phase::Heart);
            } else if (placed == kSetSize) {
                if (us == (players_ == 3 ? BLACK : BLUE)) set_phase(Phase::Heart);
                pass_turn(s, us);
            }
            break;
        }
        case Move::PlaceHeart: {
            s.heart[us] = m.to();
            s.key ^= zobrist::heart(us, m.to());
            if (us == (players_ == 3 ? BLACK : BLUE)) set_phase(Phase::Play);
            pass_turn(s, us);
            break;
        }
        case Move::Normal: {
            const Cell from = m.from(), to = m.to();
            bool captured = false;
            Colour victim = NO_COLOUR;
            if (s.board[to] != kNoMan) {  // an opposing piece (legal moves never hit own men)
                remove(s, to);
                captured = true;
            }
            for (int c = 0; c < kColours; ++c)
                if (c != us && s.heart[c] == to) victim = Colour(c);
            const PieceType t = man_type(s.board[from]);
            remove(s, from);
            put(s, us, t, to);
            if (m.carries_heart()) {
                s.key ^= zobrist::heart(us, from) ^ zobrist::heart(us, to);
                s.heart[us] = to;
            }
            if (victim != NO_COLOUR) {
                capture_heart(s, us, victim);
                captured = true;
            }
            s.halfmove = captured ? 0 : s.halfmove + 1;
            pass_turn(s, us);
            break;
        }
        case Move::Null:
            s.halfmove++;
            pass_turn(s, us);
            break;
        case Move::None:
            break;
    }
    if (s.phase == Phase::Play && (m.kind() == Move::Normal || m.kind() == Move::Null)) {
        if (s.to_move == first_in()) s.fullmove++;
    }
}

void Position::eliminate_to_move() {
    stack_.push_back(stack_.back());
    State& s = stack_.back();
    s.last_move = Move();
    const Colour us = s.to_move;
    Bitboard b = s.by_colour[us];
    for_each_cell(b, [&](Cell sq) { remove(s, sq); });
    if (s.heart[us] != NO_CELL) {
        s.key ^= zobrist::heart(us, s.heart[us]);
        s.heart[us] = NO_CELL;
    }
    s.out |= std::uint8_t(1 << us);
    pass_turn(s, us);
}

void Position::put_heart(Colour c, Cell sq) {
    State& s = stack_.back();
    if (s.heart[c] != NO_CELL) s.key ^= zobrist::heart(c, s.heart[c]);
    s.heart[c] = sq;
    if (sq != NO_CELL) s.key ^= zobrist::heart(c, sq);
}

void Position::undo_move() {
    stack_.pop_back();
}

void Position::clear_history() {
    State s = stack_.back();
    stack_.clear();
    stack_.push_back(s);
}

// --- position string (SPEC 10) -----------------------------------------------------------

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        std::size_t p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string_view::npos ? p : p - start));
        if (p == std::string_view::npos) break;
        start = p + 1;
    }
    return out;
}

std::optional<int> parse_int(std::string_view s, int lo, int hi) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
    return v;
}

int piece_index(char ch) {
    auto it = std::find(kPieceChar.begin(), kPieceChar.end(), ch);
    return it == kPieceChar.end() ? -1 : int(it - kPieceChar.begin());
}

const char* kColourField[] = {"green", "blue", "black"};

}  // namespace

std::optional<std::string> Position::set(std::string_view fen, const Rules& rules) {
    auto fields = split(fen, ' ');
    const char* names[] = {"players", "green", "blue",     "black",
                           "to-move", "phase", "halfmove", "fullmove"};
    if (fields.size() != 8) {
        return "position string: expected 8 fields separated by single spaces, got " +
               std::to_string(fields.size());
    }
    for (int i = 0; i < 8; ++i)
        if (fields[i].empty()) return std::string(names[i]) + ": empty field";
    auto err = [](const char* field, const std::string& why) {
        return std::string(field) + ": " + why;
    };

    auto players = parse_int(fields[0], 2, 3);
    if (!players) return err("players", "must be 2 or 3, not '" + std::string(fields[0]) + "'");
    Position p(*players, rules);
    State s = p.state();  // empty board, key of the empty board

    // Men.
    std::array<std::array<int, kPieceTypes + 1>, kColours> count{};
    for (int c = 0; c < kColours; ++c) {
        const char* fname = kColourField[c];
        if (fields[1 + c] == "-") continue;
        if (c == BLACK && *players == 2) return err(fname, "must be '-' in a two-player game");
        for (auto tok : split(fields[1 + c], ',')) {
            if (tok.size() != 4)
                return err(fname, "token '" + std::string(tok) +
                                      "' is not a piece letter (H Q R B N P W) and a cell");
            int t = piece_index(tok[0]);
            auto sq = geo::parse_cell(tok.substr(1));
            if (t < 0) return err(fname, "unknown piece letter in '" + std::string(tok) + "'");
            if (!sq) return err(fname, "no such cell in '" + std::string(tok) + "'");
            count[c][t]++;
            if (t == HEART) {
                if (s.heart[c] != NO_CELL) return err(fname, "more than one heart");
                s.heart[c] = *sq;
                continue;
            }
            if (s.board[*sq] != kNoMan)
                return err(fname, "cell " + geo::cell_name(*sq) + " holds two men");
            s.pieces[c][t] |= bit(*sq);
            s.by_colour[c] |= bit(*sq);
            s.board[*sq] = make_man(Colour(c), PieceType(t));
        }
    }

    // To move and phase.
    Colour to_move = NO_COLOUR;
    for (int c = 0; c < *players; ++c)
        if (fields[4] == std::string(1, kColourChar[c])) to_move = Colour(c);
    if (to_move == NO_COLOUR)
        return err("to-move", *players == 2 ? "must be g or b" : "must be g, b or k");
    Phase phase;
    if (fields[5] == "place")
        phase = Phase::Place;
    else if (fields[5] == "heart")
        phase = Phase::Heart;
    else if (fields[5] == "play")
        phase = Phase::Play;
    else
        return err("phase", "must be place, heart or play, not '" + std::string(fields[5]) + "'");
    auto half = parse_int(fields[6], 0, 1000000);
    if (!half) return err("halfmove", "must be a whole number 0..1000000");
    auto full = parse_int(fields[7], 1, 1000000);
    if (!full) return err("fullmove", "must be a whole number 1..1000000");

    // Who is out: in play, a colour with no heart (SPEC 10); black always in 2-player games.
    std::uint8_t out = *players == 3 ? 0 : std::uint8_t(1 << BLACK);
    for (int c = 0; c < *players; ++c) {
        if (phase == Phase::Play && s.heart[c] == NO_CELL) {
            // Three players: the capturer took the army. Two players: the game is over and
            // the loser's men may stay (docs/rules.md).
            if (s.by_colour[c] && *players == 3)
                return err(kColourField[c],
                           "has men but no heart (a player without a heart "
                           "is out and has none)");
            out |= std::uint8_t(1 << c);
        }
    }
    if ((out >> to_move) & 1) return err("to-move", "the player to move is out");
    int outs = 0;  // armies that changed hands (three players only, SPEC 10)
    for (int c = 0; c < *players && *players == 3; ++c) outs += (out >> c) & 1;

    // Counts against the sets.
    for (int c = 0; c < kColours; ++c)
        for (int t = 0; t < kPieceTypes; ++t)
            if (count[c][t] > kSetCount[t] * (1 + outs))
                return err(kColourField[c], "has " + std::to_string(count[c][t]) + " " +
                                                kPieceChar[t] + ", more than its set allows (" +
                                                std::to_string(kSetCount[t] * (1 + outs)) + ")");

    // Hearts share a cell only with a carrier of their own colour.
    for (int c = 0; c < kColours; ++c) {
        Cell h = s.heart[c];
        if (h == NO_CELL || s.board[h] == kNoMan) continue;
        Man m = s.board[h];
        if (man_colour(m) != c || !is_carrier(man_type(m)))
            return err(kColourField[c], "heart on " + geo::cell_name(h) +
                                            " shares its cell with a man that is not its "
                                            "own carrier");
    }
    for (int c = 0; c < kColours; ++c)
        for (int o = c + 1; o < kColours; ++o)
            if (s.heart[c] != NO_CELL && s.heart[c] == s.heart[o])
                return err(kColourField[o],
                           "cell " + geo::cell_name(s.heart[o]) + " holds two hearts");

    // Walls and zones (SPEC 5).
    Bitboard all_zones = 0;
    for (int c = 0; c < kColours; ++c) {
        Bitboard z = geo::neighbours_of(s.pieces[c][WALL]);
        Bitboard opp = (s.by_colour[0] | s.by_colour[1] | s.by_colour[2]) & ~s.by_colour[c];
        if (z & opp)
            return err(kColourField[c],
                       "a wall's zone holds an opposing piece on " + geo::cell_name(lsb(z & opp)));
        for (int o = 0; o < kColours; ++o)
            if (o != c && (z & geo::neighbours_of(s.pieces[o][WALL])))
                return err(kColourField[c], "a wall's zone meets an opposing wall's zone");
        all_zones |= z;
    }
    for (int c = 0; c < kColours; ++c)
        if (s.heart[c] != NO_CELL && test(all_zones, s.heart[c]))
            return err(kColourField[c],
                       "heart on " + geo::cell_name(s.heart[c]) + " stands in a wall's zone");

    // Phase-specific rules.
    std::array<int, kColours> placed{};
    for (int c = 0; c < kColours; ++c) placed[c] = popcount(s.by_colour[c]);
    if (phase == Phase::Place) {
        for (int c = 0; c < *players; ++c) {
            if (s.heart[c] != NO_CELL)
                return err(kColourField[c], "a heart is on the board in the place phase");
            Bitboard setup = geo::region(Colour(c));
            if (rules.forward_placement) setup |= geo::adjacent_separators(Colour(c));
            if (s.by_colour[c] & ~setup)
                return err(kColourField[c], "piece on " +
                                                geo::cell_name(lsb(s.by_colour[c] & ~setup)) +
                                                " is outside its setup cells");
        }
        // Whose turn it is follows from the counts (SPEC 6.1; RH V11 when alternating).
        bool ok = true;
        if (rules.alternating_placement) {
            int n = placed[to_move];
            for (int c = 0; c < *players; ++c) ok = ok && placed[c] == (c < to_move ? n + 1 : n);
            ok = ok && n < kSetSize;
        } else {
            for (int c = 0; c < *players; ++c)
                ok = ok && (c < to_move    ? placed[c] == kSetSize
                            : c == to_move ? placed[c] < kSetSize
                                           : placed[c] == 0);
        }
        if (!ok)
            return err("to-move",
                       "the numbers of pieces placed do not fit "
                       "the placement order with " +
                           std::string(1, kColourChar[to_move]) + " to place");
    } else if (phase == Phase::Heart) {
        for (int c = 0; c < *players; ++c) {
            if (placed[c] != kSetSize)
                return err(kColourField[c], "setup unfinished in the heart phase (" +
                                                std::to_string(placed[c]) + " of 9 pieces)");
            bool should = c < to_move;
            if ((s.heart[c] != NO_CELL) != should)
                return err(kColourField[c], should ? "its heart should be placed already"
                                                   : "its heart is placed before its turn");
            if (should && !is_carrier(man_type(s.board[s.heart[c]])))
                return err(kColourField[c], "heart is not on one of its carriers");
        }
    }

    s.to_move = to_move;
    s.phase = phase;
    s.out = out;
    s.halfmove = *half;
    s.fullmove = *full;
    p.stack_.back() = s;
    p.stack_.back().key = p.compute_key();
    *this = std::move(p);
    return std::nullopt;
}

std::string Position::fen() const {
    const State& s = state();
    std::ostringstream o;
    o << players_;
    for (int c = 0; c < kColours; ++c) {
        std::vector<std::string> toks;
        if (s.heart[c] != NO_CELL) toks.push_back("H" + geo::cell_name(s.heart[c]));
        for (int t = 0; t < kPieceTypes; ++t) {
            std::vector<std::string> cells;
            for_each_cell(s.pieces[c][t], [&](Cell sq) { cells.push_back(geo::cell_name(sq)); });
            std::sort(cells.begin(), cells.end());
            for (auto& n : cells) toks.push_back(kPieceChar[t] + n);
        }
        o << ' ';
        if (toks.empty()) o << '-';
        for (std::size_t i = 0; i < toks.size(); ++i) o << (i ? "," : "") << toks[i];
    }
    const char* phase = s.phase == Phase::Place   ? "place"
                        : s.phase == Phase::Heart ? "heart"
                                                  : "play";
    o << ' ' << kColourChar[s.to_move] << ' ' << phase << ' ' << s.halfmove << ' ' << s.fullmove;
    return o.str();
}

}  // namespace klinzha
