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
    std::array<std::uint64_t, kCells> cloud{};
    std::array<std::array<std::uint64_t, kCells>, kColours> courier{};
    std::array<std::uint64_t, kCells> ablated{};
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
        for (auto& k : cloud) k = next();
        for (auto& c : courier)
            for (auto& k : c) k = next();
        for (auto& k : ablated) k = next();
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
std::uint64_t cloud(Cell sq) {
    return keys().cloud[sq];
}
std::uint64_t courier(Colour c, Cell sq) {
    return keys().courier[c][sq];
}
std::uint64_t ablated(Cell sq) {
    return keys().ablated[sq];
}
std::uint64_t strength(Cell sq, int n) {  // splitmix64 of (cell, n): no table of 81 x 256
    std::uint64_t z = 0x4b696e7461ULL ^ (std::uint64_t(sq) << 8 | std::uint64_t(n & 0xFF));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = (z ^ (z >> 31)) * 0x9E3779B97F4A7C15ULL;
    return z ^ (z >> 29);
}
}  // namespace zobrist

Position::Position(int players, const Rules& rules)
    : players_(players), rules_(rules.effective(players)) {
    derive_tables();
    State s;
    s.board.fill(kNoMan);
    s.out = players == 3 ? 0 : std::uint8_t(1 << BLACK);
    stack_.push_back(s);
    if (rules_.kinta) strength_.assign(1, Strengths{});
    stack_.back().key = compute_key();
}

void Position::derive_tables() {
    carrier_types_ = std::uint8_t(1 << QUEEN | 1 << ROOK | 1 << PAWN);
    if (rules_.kinta) carrier_types_ |= std::uint8_t(1 << WALL);  // SPEC 26
    end_hearts_ = rules_.reflective ? 0 : rules_.relation_dilemma ? 2 : 1;
    if (hidden_) end_hearts_ = 0;  // a Blind view sees its own heart only (SPEC 25)
    crown_ = rules_.kaggas_crown == Crown::Region ? geo::region(BLACK)
             : rules_.kaggas_crown == Crown::Apex ? bit(*geo::parse_cell("a19"))
                                                  : Bitboard(0);
    for (int c = 0; c < kColours; ++c)  // SPEC 15: each colour spares the one before it
        spared_[c] = rules_.relation_dilemma ? Colour((c + kColours - 1) % kColours) : NO_COLOUR;
    draw_moves_ = rules_.draw_rule == DrawRule::Standard  ? 50
                  : rules_.draw_rule == DrawRule::Italian ? 20
                                                          : 0;
}

Colour Position::winner() const {
    if (rules_.reflective) return next(to_move());  // the player who took the heart
    if (hearts_on_board() > end_hearts_ && crowned()) return to_move();
    if (rules_.relation_dilemma) {
        if (state().heart_taker != NO_COLOUR) return state().heart_taker;
        for (int c = 0; c < kColours; ++c)  // the capturer of the first heart taken
            if (heart(Colour(c)) == NO_CELL) return winner_over(Colour(c));
        return NO_COLOUR;
    }
    Colour w = NO_COLOUR;  // the owner of the one heart left
    int hearts = 0;
    for (int c = 0; c < players_; ++c)
        if (heart(Colour(c)) != NO_CELL) w = Colour(c), ++hearts;
    return hearts == 1 ? w : NO_COLOUR;
}

Colour Position::winner_over(Colour loser) const {
    if (rules_.relation_dilemma) return Colour((loser + 2) % kColours);
    return next(loser);
}

Bitboard Position::setup_cells(Colour c) const {
    Bitboard b = geo::region(c);
    if (rules_.forward_placement) b |= geo::adjacent_separators(c);
    return b;
}

std::size_t Position::ablation_begin(const State& s) const {
    const auto n = std::size_t(rules_.ablative);
    return rules_.ablative > 0 && s.abl_end > n ? s.abl_end - n : 0;
}

std::vector<Cell> Position::ablated_list() const {
    const State& s = state();
    return {abl_seq_.begin() + std::ptrdiff_t(ablation_begin(s)), abl_seq_.begin() + s.abl_end};
}

std::uint64_t Position::ablation_key(const State& s) const {
    std::uint64_t k = 0;
    for (std::size_t i = ablation_begin(s); i < s.abl_end; ++i)  // order matters (SPEC 13, 17)
        k = std::rotl(k, 7) * 0x9E3779B97F4A7C15ULL ^ zobrist::ablated(abl_seq_[i]);
    return k;
}

// SPEC 17: append the cell a move left; with a limit N, drop the oldest beyond N.
void Position::ablate(State& s, Cell sq) {
    abl_seq_.resize(s.abl_end);
    abl_seq_.push_back(sq);
    ++s.abl_end;
    s.ablated |= bit(sq);
    // The list moved on by one: the entry just before its new start was cleared.
    if (const std::size_t begin = ablation_begin(s); begin > 0)
        s.ablated &= ~bit(abl_seq_[begin - 1]);
    const std::uint64_t k = ablation_key(s);
    s.key ^= s.abl_key ^ k;
    s.abl_key = k;
}

void Position::set_courier(State& s, Colour c, Cell sq) {
    if (s.courier[c] != NO_CELL) s.key ^= zobrist::courier(c, s.courier[c]);
    s.courier[c] = sq;
    if (sq != NO_CELL) s.key ^= zobrist::courier(c, sq);
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

int Position::hearts_on_board() const {
    int n = 0;
    for (Cell h : state().heart) n += h != NO_CELL;
    return n;
}

Bitboard Position::zones(Colour c) const {
    return geo::neighbours_of(pieces(c, WALL));
}

Bitboard Position::all_zones() const {
    Bitboard walls = 0;
    for (int c = 0; c < kColours; ++c) walls |= pieces(Colour(c), WALL);
    return geo::neighbours_of(walls);
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
        if (s.courier[c] != NO_CELL) k ^= zobrist::courier(Colour(c), s.courier[c]);
    }
    for_each_cell(clouds_, [&](Cell sq) { k ^= zobrist::cloud(sq); });
    if (rules_.kinta)
        for (int sq = 0; sq < kCells; ++sq)
            if (strength_.back()[std::size_t(sq)])
                k ^= zobrist::strength(Cell(sq), strength_.back()[std::size_t(sq)]);
    return k ^ ablation_key(s);
}

void Position::write_strength(State& s, Cell sq, int stored) {
    std::uint8_t& e = strength_.back()[sq];
    if (e) s.key ^= zobrist::strength(sq, e);
    e = std::uint8_t(stored);
    if (e) s.key ^= zobrist::strength(sq, e);
}

void Position::set_strength(Cell sq, int n) {
    if (!rules_.kinta || man_on(sq) == kNoMan) return;
    write_strength(stack_.back(), sq, n >= kInitialStrength[man_type(man_on(sq))] ? 0 : n);
}

std::optional<std::string> Position::check_outcome(Move m) const {
    if (!m.outcome_strength()) return std::nullopt;
    if (!is_attack(m)) return "an outcome is given for a move that is no attack";
    const Cell survivor = m.defender_won() ? m.to() : m.from();
    const int before = strength(survivor);
    if (m.outcome_strength() > before)
        return "the survivor's strength " + std::to_string(m.outcome_strength()) +
               " is above its strength before the fight (" + std::to_string(before) + ")";
    return std::nullopt;
}

// Kinta (SPEC 26). Attacker won or bare move: the mover's scorecard moves with it (to the
// outcome's strength after a fight). Defender won: the attacker is removed; a heart it
// carried is captured by the defender's owner; the defender keeps its cell.
bool Position::kinta_move(State& s, Move m, Colour us) {
    const Cell from = m.from(), to = m.to();
    const Strengths& st = strength_.back();
    const int moved = st[from];
    if (m.outcome_strength() && m.defender_won() && s.board[to] != kNoMan) {
        const Colour mover = man_colour(s.board[from]);
        const Colour owner = man_colour(s.board[to]);
        const int n = m.outcome_strength();
        write_strength(s, from, 0);
        write_strength(s, to, n >= kInitialStrength[man_type(s.board[to])] ? 0 : n);
        remove(s, from);
        if (s.courier[mover] == from) set_courier(s, mover, NO_CELL);  // a courier that loses
        if (m.carries_heart()) capture_heart(s, owner, mover);  // its heart, taken by D's owner
        if (rules_.ablative != 0) ablate(s, from);
        s.halfmove = 0;
        pass_turn(s, us);
        return true;
    }
    int after = moved;
    if (m.outcome_strength() && s.board[to] != kNoMan) {
        const int n = m.outcome_strength();
        after = n >= kInitialStrength[man_type(s.board[from])] ? 0 : n;
    }
    if (st[to]) write_strength(s, to, 0);
    if (moved) write_strength(s, from, 0);
    if (after) write_strength(s, to, after);
    return false;
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

// Heart capture (SPEC 7, RH 5.1): the victim's heart is removed. In a three-player game the
// victim is out and its remaining pieces pass to the capturer (its courier as an ordinary
// piece, SPEC 23.1); in a two-player game the capture ends the game and the loser's pieces
// stay where they are (docs/rules.md). RelationDilemma ends the game with no transfer (SPEC
// 15); under Reflective the one heart is gone and both players stay (SPEC 21).
void Position::capture_heart(State& s, Colour us, Colour victim) {
    s.key ^= zobrist::heart(victim, s.heart[victim]);
    s.heart[victim] = NO_CELL;
    s.heart_taker = us;
    ++s.hearts_taken[us];
    set_courier(s, victim, NO_CELL);
    if (rules_.reflective) return;
    s.out |= std::uint8_t(1 << victim);
    if (players_ != 3 || rules_.relation_dilemma) return;
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

void Position::set_phase(State& s, Phase p) {
    s.key ^= zobrist::phase(s.phase) ^ zobrist::phase(p);
    s.phase = p;
}

void Position::after_placement(State& s, Colour us, int placed) {
    const Colour last = players_ == 3 ? BLACK : BLUE;
    if (rules_.reflective) {  // SPEC 21: alternate; play starts with Green
        pass_turn(s, us);
        if (placed == kSetSize) {
            set_phase(s, Phase::Play);
            s.key ^= zobrist::to_move(s.to_move) ^ zobrist::to_move(GREEN);
            s.to_move = GREEN;
        }
    } else if (rules_.alternating_placement) {
        pass_turn(s, us);
        // The last colour's ninth piece ends the phase; the turn is back at Green.
        if (us == last && placed == kSetSize) set_phase(s, Phase::Heart);
    } else if (placed == kSetSize) {
        if (rules_.heart_first) {  // SPEC 20: the same player places its heart now
            set_phase(s, Phase::Heart);
        } else {
            if (us == last) set_phase(s, Phase::Heart);
            pass_turn(s, us);
        }
    }
}

void Position::after_heart(State& s, Colour us) {
    const Colour last = players_ == 3 ? BLACK : BLUE;
    if (us == last)
        set_phase(s, Phase::Play);
    else if (rules_.heart_first)
        set_phase(s, Phase::Place);
    pass_turn(s, us);
}

void Position::do_move(Move m) {
    stack_.push_back(stack_.back());
    if (rules_.kinta) strength_.push_back(strength_.back());
    State& s = stack_.back();
    s.last_move = m;
    const Colour us = s.to_move;
    switch (m.kind()) {
        case Move::Place: {
            const Colour a = army(us);
            put(s, a, m.placed_type(), m.to());
            if (m.carries_heart()) {  // Reflective: the first placement brings the heart
                s.heart[a] = m.to();
                s.key ^= zobrist::heart(a, m.to());
            }
            after_placement(s, us, popcount(s.by_colour[a]) + s.unseen[a]);
            break;
        }
        case Move::PlaceHeart: {
            s.heart[us] = m.to();
            s.key ^= zobrist::heart(us, m.to());
            if (rules_.courier) set_courier(s, us, m.to());  // SPEC 23.1 Decision
            after_heart(s, us);
            break;
        }
        case Move::Normal: {
            if (rules_.kinta && kinta_move(s, m, us)) break;
            const Cell from = m.from(), to = m.to();
            const Colour mover = man_colour(s.board[from]);  // Reflective: the shared army
            bool captured = false;
            Colour victim = NO_COLOUR;
            if (s.board[to] != kNoMan) {  // an opposing piece (legal moves never hit own men)
                const Colour owner = man_colour(s.board[to]);
                if (s.courier[owner] == to) set_courier(s, owner, NO_CELL);
                remove(s, to);
                captured = true;
            }
            for (int c = 0; c < kColours; ++c)  // an own heart is picked up, others captured
                if (s.heart[c] == to && (c != mover || rules_.reflective)) victim = Colour(c);
            const PieceType t = man_type(s.board[from]);
            remove(s, from);
            put(s, mover, t, to);
            if (m.carries_heart()) {
                s.key ^= zobrist::heart(mover, from) ^ zobrist::heart(mover, to);
                s.heart[mover] = to;
            }
            if (s.courier[mover] == from) set_courier(s, mover, to);
            if (victim != NO_COLOUR) {
                capture_heart(s, us, victim);
                captured = true;
            }
            if (rules_.ablative != 0) ablate(s, from);
            s.halfmove = captured ? 0 : s.halfmove + 1;
            pass_turn(s, us);
            break;
        }
        case Move::Null:
            // A Blind view: the hidden player's unseen ply (placement, heart or move).
            if ((hidden_ >> us) & 1 && s.phase == Phase::Place) {
                ++s.unseen[us];
                after_placement(s, us, popcount(s.by_colour[us]) + s.unseen[us]);
                break;
            }
            if ((hidden_ >> us) & 1 && s.phase == Phase::Heart) {
                after_heart(s, us);
                break;
            }
            s.halfmove++;
            pass_turn(s, us);
            break;
        case Move::None:
            break;
    }
    if (s.phase == Phase::Play && (m.kind() == Move::Normal || m.kind() == Move::Null))
        count_round(s, us);
}

void Position::count_round(State& s, Colour mover) {
    // SPEC 10: +1 each time the turn passes back to the first player still in, that is when
    // it wraps round the turn order. A first player who goes out by its own move (a Kinta
    // carrier losing its attack) passes the turn on to the next: no round was completed.
    if (s.to_move <= mover) s.fullmove++;
}

void Position::eliminate_to_move() {
    stack_.push_back(stack_.back());
    if (rules_.kinta) strength_.push_back(strength_.back());
    State& s = stack_.back();
    s.last_move = Move();
    const Colour us = s.to_move;
    Bitboard b = s.by_colour[us];
    for_each_cell(b, [&](Cell sq) {
        if (rules_.kinta) write_strength(s, sq, 0);
        remove(s, sq);
    });
    if (s.heart[us] != NO_CELL) {
        s.key ^= zobrist::heart(us, s.heart[us]);
        s.heart[us] = NO_CELL;
    }
    set_courier(s, us, NO_CELL);
    s.out |= std::uint8_t(1 << us);
    pass_turn(s, us);
    if (s.phase == Phase::Play) count_round(s, us);  // a turn passed on, as by a move
}

Position Position::view(Colour viewer) const {
    Position v = *this;
    v.clear_history();
    State& s = v.stack_.back();
    s.last_move = Move();  // whoever made it, it is not the viewer's to see
    v.hidden_ = 0;
    for (int c = 0; c < kColours; ++c) {
        if (c == viewer) continue;
        v.hidden_ |= std::uint8_t(1 << c);
        s.unseen[c] = std::uint8_t(s.unseen[c] + popcount(s.by_colour[c]));
        Bitboard b = s.by_colour[c];
        for_each_cell(b, [&](Cell sq) {
            if (v.rules_.kinta) v.write_strength(s, sq, 0);
            v.remove(s, sq);
        });
        if (s.heart[c] != NO_CELL) {
            s.key ^= zobrist::heart(Colour(c), s.heart[c]);
            s.heart[c] = NO_CELL;
        }
        v.set_courier(s, Colour(c), NO_CELL);
    }
    v.derive_tables();
    return v;
}

void Position::set_out(Colour c) {
    State& s = stack_.back();
    if ((s.out >> c) & 1) return;
    s.out |= std::uint8_t(1 << c);
    if (s.to_move == c) pass_turn(s, c);
}

void Position::set_to_move(Colour c) {
    State& s = stack_.back();
    s.out &= std::uint8_t(~(1 << c));
    s.key ^= zobrist::to_move(s.to_move) ^ zobrist::to_move(c);
    s.to_move = c;
}

void Position::put_heart(Colour c, Cell sq) {
    State& s = stack_.back();
    if (s.heart[c] != NO_CELL) s.key ^= zobrist::heart(c, s.heart[c]);
    s.heart[c] = sq;
    if (sq != NO_CELL) s.key ^= zobrist::heart(c, sq);
}

void Position::undo_move() {
    stack_.pop_back();
    if (rules_.kinta) strength_.pop_back();
}

void Position::clear_history() {
    State s = stack_.back();
    stack_.clear();
    stack_.push_back(s);
    if (rules_.kinta) {
        Strengths st = strength_.back();
        strength_.assign(1, st);
    }
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

constexpr const auto& kColourField = kColourWord;  // SPEC 10's field names

/// What the fields of a position string say (SPEC 10), read before they are checked against
/// each other. The readers and checks below each fill or test a part of it, in order.
struct PositionFields {
    int players = 2;
    Position::State s;  ///< the board, hearts and couriers as read
    std::array<std::array<int, kPieceTypes + 1>, kColours> count{};  ///< men per colour, type
    Colour to_move = NO_COLOUR;
    Phase phase = Phase::Place;
    int halfmove = 0, fullmove = 1;
    std::vector<Cell> ablated;        ///< in the order given
    Position::Strengths strengths{};  ///< Kinta's scorecard (SPEC 10, 26), 0 = initial
    Bitboard clouds = 0;
    bool have_ablated = false, have_courier = false;
    std::uint8_t out = 0;  ///< bit c: colour c is out (or not playing)
    int outs = 0;          ///< armies that changed hands (three players only)
};

using FieldError = std::optional<std::string>;

std::string field_error(const char* field, const std::string& why) {
    return std::string(field) + ": " + why;
}

/// The men and hearts of the colour fields (fields 1-3).
FieldError read_men(const std::vector<std::string_view>& fields, const Rules& rules,
                    PositionFields& f) {
    Position::State& s = f.s;
    for (int c = 0; c < kColours; ++c) {
        const char* fname = kColourField[c];
        if (fields[std::size_t(1 + c)] == "-") continue;
        if (c == BLACK && f.players == 2)
            return field_error(fname, "must be '-' in a two-player game");
        if (c != GREEN && rules.reflective)
            return field_error(fname,
                               "must be '-' under Reflective: the one army is in the green field");
        for (auto tok : split(fields[std::size_t(1 + c)], ',')) {
            if (tok.size() != 4)
                return field_error(fname, "token '" + std::string(tok) +
                                              "' is not a piece letter (H Q R B N P W) and a cell");
            const int t = piece_index(tok[0]);
            const auto sq = geo::parse_cell(tok.substr(1));
            if (t < 0)
                return field_error(fname, "unknown piece letter in '" + std::string(tok) + "'");
            if (!sq) return field_error(fname, "no such cell in '" + std::string(tok) + "'");
            f.count[std::size_t(c)][std::size_t(t)]++;
            if (t == HEART) {
                if (s.heart[c] != NO_CELL) return field_error(fname, "more than one heart");
                s.heart[c] = *sq;
                continue;
            }
            if (s.board[*sq] != kNoMan)
                return field_error(fname, "cell " + geo::cell_name(*sq) + " holds two men");
            s.pieces[c][t] |= bit(*sq);
            s.by_colour[c] |= bit(*sq);
            s.board[*sq] = make_man(Colour(c), PieceType(t));
        }
    }
    return std::nullopt;
}

/// The player to move, the phase and the move counters (fields 4-7).
FieldError read_turn(const std::vector<std::string_view>& fields, const Rules& rules,
                     PositionFields& f) {
    f.to_move = parse_colour(fields[4]).value_or(NO_COLOUR);
    if (f.to_move == NO_COLOUR || f.to_move >= f.players)
        return field_error("to-move", f.players == 2 ? "must be g or b" : "must be g, b or k");
    if (fields[5] == "place")
        f.phase = Phase::Place;
    else if (fields[5] == "heart")
        f.phase = Phase::Heart;
    else if (fields[5] == "play")
        f.phase = Phase::Play;
    else
        return field_error("phase",
                           "must be place, heart or play, not '" + std::string(fields[5]) + "'");
    if (f.phase == Phase::Heart && rules.reflective)
        return field_error("phase", "Reflective has no heart phase (SPEC 21)");
    const auto half = parse_int(fields[6], 0, 1000000);
    if (!half) return field_error("halfmove", "must be a whole number 0..1000000");
    const auto full = parse_int(fields[7], 1, 1000000);
    if (!full) return field_error("fullmove", "must be a whole number 1..1000000");
    f.halfmove = *half;
    f.fullmove = *full;
    return std::nullopt;
}

/// One `<cell>:<strength>` item of the strength field (SPEC 10, 26).
FieldError read_strength(std::string_view item, PositionFields& f) {
    const auto colon = item.find(':');
    const auto sq =
        colon == std::string_view::npos ? std::nullopt : geo::parse_cell(item.substr(0, colon));
    if (!sq)
        return field_error("strength", "'" + std::string(item.substr(0, 40)) +
                                           "' is not <cell>:<strength> (e.g. d38:87)");
    if (f.s.board[*sq] == kNoMan)
        return field_error("strength", "cell " + geo::cell_name(*sq) + " holds no man");
    if (f.strengths[*sq]) return field_error("strength", "names " + geo::cell_name(*sq) + " twice");
    const int initial = kInitialStrength[man_type(f.s.board[*sq])];
    const auto n = parse_int(item.substr(colon + 1), 1, initial - 1);
    if (!n)
        return field_error("strength", "'" + std::string(item.substr(0, 40)) +
                                           "': the strength must be a whole number 1.." +
                                           std::to_string(initial - 1) + " (below the initial " +
                                           std::to_string(initial) + ")");
    f.strengths[*sq] = std::uint8_t(*n);
    return std::nullopt;
}

/// One `<colour>:<cell>` item of the courier field (SPEC 10, 23.1).
FieldError read_courier(std::string_view item, PositionFields& f) {
    Colour c = NO_COLOUR;
    for (int k = 0; k < f.players; ++k)
        if (item.size() > 2 && item[0] == kColourChar[k] && item[1] == ':') c = Colour(k);
    const auto sq = c == NO_COLOUR ? std::nullopt : geo::parse_cell(item.substr(2));
    if (!sq)
        return field_error("courier", "'" + std::string(item.substr(0, 40)) +
                                          "' is not <colour>:<cell> (e.g. g:i89)");
    if (f.s.courier[c] != NO_CELL)
        return field_error("courier", std::string("names colour ") + kColourChar[c] + " twice");
    f.s.courier[c] = *sq;
    return std::nullopt;
}

/// One cell of the clouds or ablated field (SPEC 10, 16, 17).
FieldError read_cell_item(const std::string& key, std::string_view item, PositionFields& f) {
    const auto sq = geo::parse_cell(item);
    if (!sq)
        return field_error(key.c_str(), "no such cell '" + std::string(item.substr(0, 40)) + "'");
    Bitboard& set = key == "clouds" ? f.clouds : f.s.ablated;
    if (test(set, *sq)) return field_error(key.c_str(), "names " + geo::cell_name(*sq) + " twice");
    set |= bit(*sq);
    if (key == "ablated") f.ablated.push_back(*sq);
    return std::nullopt;
}

/// The optional key=value fields (SPEC 10): clouds, ablated, courier, strength; each at most
/// once. `given` are the rules before effective() (for the strength field's message).
FieldError read_optional(const std::vector<std::string_view>& fields, const Rules& rules,
                         const Rules& given, PositionFields& f) {
    bool have_clouds = false, have_strength = false;
    for (std::size_t i = 8; i < fields.size(); ++i) {
        const auto tok = fields[i];
        const auto eq = tok.find('=');
        if (eq == std::string_view::npos || eq == 0)
            return field_error(
                "position string",
                "optional field '" + std::string(tok.substr(0, 40)) + "' is not key=value");
        const std::string key(tok.substr(0, eq));
        const auto value = tok.substr(eq + 1);
        bool* seen = key == "clouds"     ? &have_clouds
                     : key == "ablated"  ? &f.have_ablated
                     : key == "courier"  ? &f.have_courier
                     : key == "strength" ? &have_strength
                                         : nullptr;
        if (!seen)
            return field_error("position string",
                               "unknown optional field '" + key.substr(0, 40) +
                                   "' (known: clouds, ablated, courier, strength)");
        if (*seen) return field_error(key.c_str(), "given twice");
        *seen = true;
        if (value.empty()) return field_error(key.c_str(), "empty value");
        if (key == "strength") {  // SPEC 10, 26
            if (!rules.kinta)
                return field_error("strength", given.kinta
                                                   ? "given where Kinta has no effect (SPEC 26)"
                                                   : "given with Kinta off");
            if (f.phase != Phase::Play)
                return field_error("strength", "given outside the play phase");
        }
        for (auto item : split(value, ',')) {
            FieldError e = key == "strength"  ? read_strength(item, f)
                           : key == "courier" ? read_courier(item, f)
                                              : read_cell_item(key, item, f);
            if (e) return e;
        }
    }
    return std::nullopt;
}

/// Who is out: in play, a colour with no heart (SPEC 10); black always in 2-player games.
FieldError check_out(const Rules& rules, PositionFields& f) {
    f.out = f.players == 3 ? 0 : std::uint8_t(1 << BLACK);
    for (int c = 0; c < f.players && !rules.reflective; ++c) {
        if (f.phase == Phase::Play && f.s.heart[c] == NO_CELL) {
            // Three players: the capturer took the army. Two players: the game is over and
            // the loser's men may stay (docs/rules.md). RelationDilemma: a finished game,
            // men stay (SPEC 15).
            if (f.s.by_colour[c] && f.players == 3 && !rules.relation_dilemma)
                return field_error(kColourField[c],
                                   "has men but no heart (a player without a heart "
                                   "is out and has none)");
            f.out |= std::uint8_t(1 << c);
        }
    }
    if ((f.out >> f.to_move) & 1) return field_error("to-move", "the player to move is out");
    for (int c = 0; c < f.players && f.players == 3 && !rules.relation_dilemma; ++c)
        f.outs += (f.out >> c) & 1;
    return std::nullopt;
}

/// Counts against the sets: each colour, and all colours together (SPEC 10).
FieldError check_counts(const Rules& rules, const PositionFields& f) {
    const int sets = rules.reflective ? 1 : f.players;
    for (int t = 0; t < kPieceTypes; ++t) {
        int total = 0;
        for (int c = 0; c < kColours; ++c) {
            const int n = f.count[std::size_t(c)][std::size_t(t)];
            total += n;
            if (n > kSetCount[t] * (1 + f.outs))
                return field_error(kColourField[c],
                                   "has " + std::to_string(n) + " " + kPieceChar[t] +
                                       ", more than its set allows (" +
                                       std::to_string(kSetCount[t] * (1 + f.outs)) + ")");
        }
        if (total > kSetCount[t] * sets)
            return field_error("position string", "all colours together hold " +
                                                      std::to_string(total) + " " + kPieceChar[t] +
                                                      ", more than one set per player allows (" +
                                                      std::to_string(kSetCount[t] * sets) + ")");
    }
    return std::nullopt;
}

/// Hearts share a cell only with a carrier of their own colour, never with another heart.
FieldError check_hearts(const Position& p, const PositionFields& f) {
    const Position::State& s = f.s;
    for (int c = 0; c < kColours; ++c) {
        const Cell h = s.heart[c];
        if (h == NO_CELL || s.board[h] == kNoMan) continue;
        const Man m = s.board[h];
        if (man_colour(m) != c || !p.is_carrier_type(man_type(m)))
            return field_error(kColourField[c], "heart on " + geo::cell_name(h) +
                                                    " shares its cell with a man that is not its "
                                                    "own carrier");
    }
    for (int c = 0; c < kColours; ++c)
        for (int o = c + 1; o < kColours; ++o)
            if (s.heart[c] != NO_CELL && s.heart[c] == s.heart[o])
                return field_error(kColourField[o],
                                   "cell " + geo::cell_name(s.heart[o]) + " holds two hearts");
    return std::nullopt;
}

/// Walls and zones (SPEC 5; BlockaderTraps 23.2; Reflective 21: every man is an enemy), and
/// no heart in a zone or on a cloud.
FieldError check_walls(const Rules& rules, const PositionFields& f) {
    const Position::State& s = f.s;
    const Bitboard all = s.by_colour[0] | s.by_colour[1] | s.by_colour[2];
    Bitboard all_zones = 0;
    for (int c = 0; c < kColours; ++c) {
        const Bitboard z = geo::neighbours_of(s.pieces[c][WALL]);
        Bitboard held = all & ~s.by_colour[c];
        if (rules.reflective || (rules.blockader_traps && f.phase != Phase::Play)) held = all;
        if (rules.blockader_traps && f.phase == Phase::Play) held = 0;
        if (z & held)
            return field_error(kColourField[c],
                               std::string("a wall's zone holds ") +
                                   (rules.reflective ? "a man" : "an opposing piece") + " on " +
                                   geo::cell_name(lsb(z & held)));
        for (int o = 0; o < kColours; ++o)
            if (o != c && (z & geo::neighbours_of(s.pieces[o][WALL])))
                return field_error(kColourField[c], "a wall's zone meets an opposing wall's zone");
        all_zones |= z;
    }
    for (int c = 0; c < kColours; ++c) {
        if (s.heart[c] != NO_CELL && test(all_zones, s.heart[c]))
            return field_error(kColourField[c], "heart on " + geo::cell_name(s.heart[c]) +
                                                    " stands in a wall's zone");
        if (s.heart[c] != NO_CELL && test(f.clouds, s.heart[c]))
            return field_error(kColourField[c], "heart on " + geo::cell_name(s.heart[c]) +
                                                    " stands on a clouded cell");
    }
    return std::nullopt;
}

bool heart_on_carrier(const PositionFields& f, int c) {
    return f.s.heart[c] != NO_CELL && f.s.board[f.s.heart[c]] != kNoMan;
}

/// The setup phases: whose turn it is follows from the men placed (SPEC 6.1; RH V11 when
/// alternating; with HeartFirst each player before the one to move has placed its heart too;
/// Reflective 21: g and b place in turn).
FieldError check_setup(const Position& p, const Rules& rules, const PositionFields& f) {
    const Position::State& s = f.s;
    std::array<int, kColours> placed{};
    for (int c = 0; c < kColours; ++c) placed[std::size_t(c)] = popcount(s.by_colour[c]);
    for (int c = 0; c < f.players; ++c)
        if (Bitboard outside = s.by_colour[c] & ~p.setup_cells(Colour(c)))
            return field_error(kColourField[c], "piece on " + geo::cell_name(lsb(outside)) +
                                                    " is outside its setup cells");
    if (f.phase == Phase::Place && rules.reflective) {
        const int n = placed[GREEN];
        if (f.to_move != (n % 2 ? BLUE : GREEN))
            return field_error("to-move", std::to_string(n) +
                                              " men placed: " + (n % 2 ? "b" : "g") +
                                              " places next under Reflective");
        if (n >= 1 && !heart_on_carrier(f, GREEN))
            return field_error("green", "the heart must stand on a carrier once a man is placed");
        if (n == 0 && s.heart[GREEN] != NO_CELL)
            return field_error("green", "a heart with no men placed");
        return std::nullopt;
    }
    const bool heart_phase = f.phase == Phase::Heart;
    for (int c = 0; c < f.players; ++c) {
        const bool should_have_heart = (heart_phase || rules.heart_first) && c < f.to_move;
        if (s.heart[c] != NO_CELL && !should_have_heart)
            return field_error(kColourField[c], f.phase == Phase::Place && !rules.heart_first
                                                    ? "a heart is on the board in the place phase"
                                                    : "its heart is placed before its turn");
        if (should_have_heart) {
            if (s.heart[c] == NO_CELL)
                return field_error(kColourField[c], "its heart should be placed already");
            if (!heart_on_carrier(f, c))
                return field_error(kColourField[c], "heart is not on one of its carriers");
        }
    }
    bool ok = true;
    const auto to_move = f.to_move;
    if (heart_phase && !rules.heart_first) {
        for (int c = 0; c < f.players; ++c)
            if (placed[std::size_t(c)] != kSetSize)
                return field_error(kColourField[c], "setup unfinished in the heart phase (" +
                                                        std::to_string(placed[std::size_t(c)]) +
                                                        " of 9 pieces)");
    } else if (heart_phase) {  // HeartFirst: the player to move has just finished
        for (int c = 0; c < f.players; ++c)
            ok = ok && placed[std::size_t(c)] == (c <= to_move ? kSetSize : 0);
    } else if (rules.alternating_placement) {
        const int n = placed[to_move];
        for (int c = 0; c < f.players; ++c)
            ok = ok && placed[std::size_t(c)] == (c < to_move ? n + 1 : n);
        ok = ok && n < kSetSize;
    } else {
        for (int c = 0; c < f.players; ++c)
            ok = ok && (c < to_move    ? placed[std::size_t(c)] == kSetSize
                        : c == to_move ? placed[std::size_t(c)] < kSetSize
                                       : placed[std::size_t(c)] == 0);
    }
    if (!ok)
        return field_error("to-move",
                           "the numbers of pieces placed do not fit "
                           "the placement order with " +
                               std::string(1, kColourChar[to_move]) + " to move");
    return std::nullopt;
}

/// Ablated cells (SPEC 10, 17).
FieldError check_ablated(const Rules& rules, const PositionFields& f) {
    if (!f.have_ablated) return std::nullopt;
    const Bitboard all = f.s.by_colour[0] | f.s.by_colour[1] | f.s.by_colour[2];
    if (f.phase != Phase::Play) return field_error("ablated", "given outside the play phase");
    if (rules.ablative == 0) return field_error("ablated", "given with Ablative 0 (off)");
    if (rules.ablative > 0 && int(f.ablated.size()) > rules.ablative)
        return field_error("ablated", std::to_string(f.ablated.size()) +
                                          " cells, more than Ablative " +
                                          std::to_string(rules.ablative));
    if (f.s.ablated & all)
        return field_error(
            "ablated", "a piece stands on ablated cell " + geo::cell_name(lsb(f.s.ablated & all)));
    return std::nullopt;
}

/// Couriers (SPEC 10, 23.1).
FieldError check_couriers(const Position& p, const Rules& rules, const PositionFields& f) {
    const Position::State& s = f.s;
    if (f.have_courier && !rules.courier)
        return field_error("courier",
                           rules.reflective ? "given under Reflective" : "given with Courier off");
    for (int c = 0; c < kColours; ++c) {
        const Cell k = s.courier[c];
        if (k != NO_CELL) {
            if (s.board[k] == kNoMan || man_colour(s.board[k]) != c ||
                !p.is_carrier_type(man_type(s.board[k])))
                return field_error("courier", std::string("cell ") + geo::cell_name(k) +
                                                  " holds no carrier of colour " + kColourChar[c]);
            if (s.heart[c] == NO_CELL)
                return field_error("courier", std::string("colour ") + kColourChar[c] +
                                                  " has no heart on the board");
        }
        if (!rules.courier || s.heart[c] == NO_CELL) continue;
        if (heart_on_carrier(f, c) && k != s.heart[c])
            return field_error("courier", std::string("the heart of ") + kColourChar[c] + " on " +
                                              geo::cell_name(s.heart[c]) +
                                              " is carried by a carrier that is not its courier");
        if (f.phase != Phase::Play && k != s.heart[c])
            return field_error("courier", std::string("colour ") + kColourChar[c] +
                                              " has its heart placed but no courier entry on its "
                                              "cell");
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> Position::set(std::string_view fen, const Rules& given) {
    const auto fields = split(fen, ' ');
    const char* names[] = {"players", "green", "blue",     "black",
                           "to-move", "phase", "halfmove", "fullmove"};
    if (fields.size() < 8)
        return "position string: expected 8 fields separated by single spaces, got " +
               std::to_string(fields.size());
    for (std::size_t i = 0; i < fields.size(); ++i)
        if (fields[i].empty())
            return std::string(i < 8 ? names[i] : "position string") + ": empty field";
    const auto players = parse_int(fields[0], 2, 3);
    if (!players)
        return field_error("players", "must be 2 or 3, not '" + std::string(fields[0]) + "'");
    Position p(*players, given);
    const Rules& rules = p.rules_;  // as they act in a game of this size (SPEC 14)
    PositionFields f;
    f.players = *players;
    f.s = p.state();  // empty board
    // Read, then check the parts against each other, in SPEC 10's order.
    if (auto e = read_men(fields, rules, f)) return e;
    if (auto e = read_turn(fields, rules, f)) return e;
    if (auto e = read_optional(fields, rules, given, f)) return e;
    if (auto e = check_out(rules, f)) return e;
    if (auto e = check_counts(rules, f)) return e;
    if (auto e = check_hearts(p, f)) return e;
    if (auto e = check_walls(rules, f)) return e;
    if (f.phase != Phase::Play)
        if (auto e = check_setup(p, rules, f)) return e;
    if (auto e = check_ablated(rules, f)) return e;
    if (auto e = check_couriers(p, rules, f)) return e;

    State& s = f.s;
    s.to_move = f.to_move;
    s.phase = f.phase;
    s.out = f.out;
    s.halfmove = f.halfmove;
    s.fullmove = f.fullmove;
    s.abl_end = std::uint16_t(f.ablated.size());
    p.clouds_ = f.clouds;
    p.abl_seq_ = f.ablated;
    p.stack_.back() = s;
    if (rules.kinta) p.strength_.assign(1, f.strengths);
    p.stack_.back().abl_key = p.ablation_key(s);
    p.stack_.back().key = p.compute_key();
    *this = std::move(p);
    return std::nullopt;
}

std::string Position::fen() const {
    const State& s = state();
    std::ostringstream o;
    o << players_;
    auto names = [](Bitboard b) {
        std::vector<std::string> cells;
        for_each_cell(b, [&](Cell sq) { cells.push_back(geo::cell_name(sq)); });
        std::sort(cells.begin(), cells.end());
        return cells;
    };
    for (int c = 0; c < kColours; ++c) {
        std::vector<std::string> toks;
        if (s.heart[c] != NO_CELL) toks.push_back("H" + geo::cell_name(s.heart[c]));
        for (int t = 0; t < kPieceTypes; ++t)
            for (auto& n : names(s.pieces[c][t])) toks.push_back(kPieceChar[t] + n);
        o << ' ';
        if (toks.empty()) o << '-';
        for (std::size_t i = 0; i < toks.size(); ++i) o << (i ? "," : "") << toks[i];
    }
    const char* phase = s.phase == Phase::Place   ? "place"
                        : s.phase == Phase::Heart ? "heart"
                                                  : "play";
    o << ' ' << kColourChar[s.to_move] << ' ' << phase << ' ' << s.halfmove << ' ' << s.fullmove;
    // Optional fields, in the order of SPEC 10, only when not empty.
    if (clouds_) {
        auto cells = names(clouds_);
        o << " clouds=";
        for (std::size_t i = 0; i < cells.size(); ++i) o << (i ? "," : "") << cells[i];
    }
    if (auto list = ablated_list(); !list.empty()) {
        o << " ablated=";
        for (std::size_t i = 0; i < list.size(); ++i)
            o << (i ? "," : "") << geo::cell_name(list[i]);
    }
    bool first = true;
    for (int c = 0; c < kColours; ++c) {
        if (s.courier[c] == NO_CELL) continue;
        o << (first ? " courier=" : ",") << kColourChar[c] << ':' << geo::cell_name(s.courier[c]);
        first = false;
    }
    if (rules_.kinta) {  // SPEC 10, 26: sorted by cell name as strings
        std::vector<std::string> toks;
        for (int sq = 0; sq < kCells; ++sq)
            if (const int n = strength_.back()[std::size_t(sq)];
                n && s.board[std::size_t(sq)] != kNoMan)
                toks.push_back(geo::cell_name(Cell(sq)) + ':' + std::to_string(n));
        std::sort(toks.begin(), toks.end());
        for (std::size_t i = 0; i < toks.size(); ++i) o << (i ? "," : " strength=") << toks[i];
    }
    return o.str();
}

}  // namespace klinzha
