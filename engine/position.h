// engine/position.h: a Klin Zha / Romulan Heart position and its history.
//
// Holds the men of up to three colours (pieces as bitboards plus a mailbox, hearts as
// cells), the player to move, the phase, the half-move and full-move counters, which
// players are out, a Zobrist key kept incrementally, and the rule options (SPEC 8).
// do_move/undo_move work by copy-make: each ply pushes a copy of the small State, so undo
// is a pop and the stack doubles as the key history for repetition (SPEC 7).
//
// The variants of SPEC 15-23 live here as data read from Rules: clouded cells (a field of the
// position, fixed for a game), the ablated list (SPEC 17), each colour's courier (SPEC 23.1),
// and the tables that say when the game is over (SPEC 12) and who captures whom (SPEC 15).
//
// Sources: SPEC 1-7 (rules), 10 (position string), 12 (game end), 15-23 (variants); RH 3.1,
// 5.1, 6.9; Laws of KZ 5.1.2.
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
        /// Each colour's courier cell (SPEC 23.1), NO_CELL when it has none.
        std::array<Cell, kColours> courier{NO_CELL, NO_CELL, NO_CELL};
        /// The ablated cells as a set (SPEC 17); their order is ablated_list().
        Bitboard ablated = 0;
        /// Length of the ablation sequence this state sees (see ablated_list()).
        std::uint16_t abl_end = 0;
        /// The ablated list's share of `key` (order included).
        std::uint64_t abl_key = 0;
        /// The colour that took the last heart captured (NO_COLOUR if none was captured in
        /// this history): the winner under RelationDilemma when it is not the colour
        /// allowed to capture the victim (a Kinta attacker that lost carrying its heart).
        Colour heart_taker = NO_COLOUR;
        /// A Blind view (SPEC 25): per colour, the placements it made that the viewer cannot
        /// see (its men are hidden), so that whose turn it is and the phase still follow the
        /// placement counts. Zero outside views.
        std::array<std::uint8_t, kColours> unseen{};
        /// RH 11.1: per colour, the hearts it has taken in this history (a position string
        /// starts at zero; the colour credited is capture_heart's `us`).
        std::array<std::uint8_t, kColours> hearts_taken{};
    };

    /// Kinta (SPEC 26): each cell's warrior strength, 0 meaning the initial strength of the
    /// man there (or no man). One entry per ply of the history, kept only under Kinta, so the
    /// default game's do_move copies nothing more.
    using Strengths = std::array<std::uint8_t, kCells>;

    /// The empty start position for `players` (2 or 3) under `rules` (SPEC 10).
    explicit Position(int players = 2, const Rules& rules = {});

    /// Parses a position string (SPEC 10) under `rules`. On success replaces this position
    /// (history cleared) and returns nullopt; on failure returns "field: reason" and
    /// leaves this position unchanged. Every rejection case of SPEC 10 is checked.
    std::optional<std::string> set(std::string_view fen, const Rules& rules);

    /// The position string of SPEC 10 (canonical order: heart first, then Q R B N P W each
    /// by cell name), with the optional fields `clouds`, `ablated`, `courier`, `strength`
    /// when not empty.
    std::string fen() const;

    // --- queries ------------------------------------------------------------------------
    int players() const { return players_; }
    /// The rules in force in this game: Rules::effective(players()) of those given.
    const Rules& rules() const { return rules_; }
    const State& state() const { return stack_.back(); }
    /// The state before the last do_move (or eliminate_to_move); needs ply() > 0.
    const State& state_before() const { return stack_[stack_.size() - 2]; }
    /// The state at ply `p` of this position's history (0 <= p <= ply()).
    const State& state_at(int p) const { return stack_[std::size_t(p)]; }
    Colour to_move() const { return state().to_move; }
    Phase phase() const { return state().phase; }
    int halfmove() const { return state().halfmove; }
    int fullmove() const { return state().fullmove; }
    std::uint64_t key() const { return state().key; }
    /// True while colour c takes part (it is one of the players and not out).
    bool is_in(Colour c) const { return !((state().out >> c) & 1); }
    /// RH 11.1: the hearts colour c has taken in this position's history (0 to 2).
    int hearts_taken(Colour c) const { return state().hearts_taken[c]; }
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
    /// True when c's heart is on the board and no man carries it: it stands alone on its
    /// cell, where any opposing man that moves there takes it (SPEC 4, 7).
    bool heart_alone(Colour c) const {
        const Cell h = heart(c);
        return h != NO_CELL && man_on(h) == kNoMan;
    }
    /// Cells of every heart on the board.
    Bitboard hearts() const;
    /// Number of hearts on the board.
    int hearts_on_board() const;
    /// The zones (SPEC 5) of c's walls.
    Bitboard zones(Colour c) const;
    /// The zones of the walls of every colour but c (the zones "opposing" c).
    Bitboard opposing_zones(Colour c) const;
    /// The zones of every wall on the board, whoever owns it: where no heart may rest and no
    /// heart be placed (SPEC 4, 6).
    Bitboard all_zones() const;
    /// Pieces of every colour but c.
    Bitboard opposing_pieces(Colour c) const { return occupied() & ~pieces(c); }
    /// How many pieces colour c has placed or holds.
    int piece_count(Colour c) const { return popcount(pieces(c)); }

    /// True if the game is over (SPEC 12): in play with one heart left (none under
    /// Reflective, fewer than three under RelationDilemma), or with the heart of the player
    /// to move crowned (KaggasCrown). Draws are not included. In a Blind view (view()) only
    /// when the viewer's own heart is gone: the others' hearts are not seen.
    bool game_over() const {
        return phase() == Phase::Play && (hearts_on_board() <= end_hearts_ || crowned());
    }
    /// True if the heart of the player to move stands on a goal cell of KaggasCrown: its
    /// opponent failed to take it (SPEC 18).
    bool crowned() const {
        const Cell h = heart(army(to_move()));
        return crown_ && h != NO_CELL && test(crown_, h);
    }
    /// The player who won the finished game (game_over() true): the owner of the last heart,
    /// the capturer (RelationDilemma, Reflective), or the owner of a crowned heart (SPEC 7,
    /// 15, 18, 21). NO_COLOUR if it cannot be told.
    Colour winner() const;
    /// True when the player to move having no legal move (or its flag falling) ends the whole
    /// game rather than removing that player: two players in, or RelationDilemma (SPEC 7, 15).
    bool removal_ends_game() const { return players_in() <= 2 || rules_.relation_dilemma; }
    /// Who wins when `loser` has no legal move and removal_ends_game(): the other player, or
    /// under RelationDilemma the one allowed to capture `loser` (SPEC 15 Decision).
    Colour winner_over(Colour loser) const;
    /// The colour whose men `c` may not capture (RelationDilemma, SPEC 15), or NO_COLOUR.
    Colour spared(Colour c) const { return spared_[c]; }
    /// The colour whose men c moves and places: GREEN for both players under Reflective
    /// (one shared army, SPEC 21), c otherwise.
    Colour army(Colour c) const { return rules_.reflective ? GREEN : c; }
    /// True if the current position occurred `times` times in all (this one included) with
    /// the same player to move (SPEC 7: three for the draw). Looks back only to the last
    /// capture or phase change.
    bool is_repetition(int times = 3) const;
    /// True if the draw rule in force (SPEC 7, 22) counts a repetition: is_repetition(times)
    /// under DrawRule standard, never otherwise.
    bool repetition_draw(int times = 3) const {
        return rules_.draw_rule == DrawRule::Standard && is_repetition(times);
    }
    /// True if the move-count draw of the rule in force is reached: 50 (standard) or 20
    /// (italian) moves by every player still in with no capture; never under DrawRule none.
    /// The plies without a capture at which the move-count draw comes (SPEC 7, 22): 50 or 20
    /// moves by every player still in; 0 under DrawRule none.
    int move_count_limit() const { return draw_moves_ > 0 ? draw_moves_ * players_in() : 0; }
    bool move_count_draw() const {
        return phase() == Phase::Play && draw_moves_ > 0 &&
               halfmove() >= draw_moves_ * players_in();
    }
    /// The colour whose heart the play move m (legal here) captures, or NO_COLOUR: a move
    /// ending on an opposing heart, or under Reflective on the heart at all (SPEC 4, 21). A
    /// carrier ending on its own lone heart picks it up instead.
    Colour heart_victim(Move m) const {
        if (m.kind() != Move::Normal) return NO_COLOUR;
        const Colour mover = army(to_move());
        for (int c = 0; c < kColours; ++c)
            if (heart(Colour(c)) == m.to() && takes_heart(mover, Colour(c))) return Colour(c);
        return NO_COLOUR;
    }
    /// The cells where a play move of the side to move takes a heart (heart_victim is not
    /// NO_COLOUR there): a set to test many moves against at once (move ordering).
    Bitboard takeable_hearts() const {
        const Colour mover = army(to_move());
        Bitboard b = 0;
        for (int c = 0; c < kColours; ++c)
            if (heart(Colour(c)) != NO_CELL && takes_heart(mover, Colour(c)))
                b |= bit(heart(Colour(c)));
        return b;
    }
    /// True if the play move m (legal here) captures a piece or a heart.
    bool is_capture(Move m) const {
        return m.kind() == Move::Normal &&
               (man_on(m.to()) != kNoMan || heart_victim(m) != NO_COLOUR);
    }
    /// The clouded cells (SPEC 16): fixed for the game.
    Bitboard clouds() const { return clouds_; }
    /// The ablated cells as a set (SPEC 17).
    Bitboard ablated() const { return state().ablated; }
    /// The ablated cells, oldest first (SPEC 17).
    std::vector<Cell> ablated_list() const;
    /// Colour c's courier cell (SPEC 23.1), NO_CELL if none.
    Cell courier(Colour c) const { return state().courier[c]; }
    /// True if pieces of type t may carry their heart: Q, R, P, and under Kinta W (SPEC 2,
    /// 26). A table derived from the rules.
    bool is_carrier_type(PieceType t) const { return (carrier_types_ >> t) & 1; }
    /// The carriers of colour c on the board (SPEC 2, 26).
    Bitboard carriers(Colour c) const {
        const auto& p = state().pieces[c];
        return p[QUEEN] | p[ROOK] | p[PAWN] | (rules_.kinta ? p[WALL] : Bitboard(0));
    }
    /// True when the rules in force are Kinta's (SPEC 26).
    bool kinta() const { return rules_.kinta; }
    /// The strength of the warrior on sq (SPEC 26): its scorecard value under Kinta, its
    /// initial strength otherwise; 0 when sq holds no man.
    int strength(Cell sq) const {
        const Man m = state().board[sq];
        if (m == kNoMan) return 0;
        const int s = rules_.kinta ? strength_.back()[sq] : 0;
        return s ? s : kInitialStrength[man_type(m)];
    }
    /// True if the play move m (legal here) is a Kinta attack: it ends on an opposing man
    /// (SPEC 26; a heart standing alone is taken without a fight).
    bool is_attack(Move m) const {
        return rules_.kinta && m.kind() == Move::Normal && state().board[m.to()] != kNoMan;
    }
    /// Checks the outcome attached to the Kinta attack m (SPEC 26): the survivor's strength
    /// must lie in 1..its strength before the fight. Returns a message, or nullopt when valid.
    /// A bare m (no outcome) is valid here; the protocol asks for one (SPEC 9).
    std::optional<std::string> check_outcome(Move m) const;
    /// The setup cells of colour c: its region, with the bordering separators under
    /// ForwardPlacement (SPEC 6.1, 8).
    Bitboard setup_cells(Colour c) const;
    /// Plies played from the root of the history.
    int ply() const { return int(stack_.size()) - 1; }

    // --- Blind views (SPEC 25) -----------------------------------------------------------
    /// Bit c set: colour c's men and heart are hidden: this position is the view of the one
    /// colour whose bit is clear (view()). 0 for a whole position.
    std::uint8_t hidden() const { return hidden_; }
    /// True if the player to move is hidden from the viewer: its only "move" in the view is
    /// Move::null(), an unseen ply (do_move of it advances the turn and the phase as that
    /// player's placement, heart placement or move would).
    bool hidden_to_move() const { return (hidden_ >> to_move()) & 1; }
    /// The view of `viewer` (SPEC 25): this position with every other colour's men, hearts
    /// and couriers removed and hidden, its history cleared. The placements the others made
    /// are counted (State::unseen), so the turn and phase go on as in the whole game; the
    /// others stay in until told otherwise (set_out). Kinta has no effect under Blind.
    Position view(Colour viewer) const;
    /// A view: colour c goes out (its heart was captured by someone, SPEC 7), without a ply
    /// of its own; if it was to move, the turn passes on. Its hidden men are not on the board.
    void set_out(Colour c);
    /// A view: the capture counter restarts (a capture the viewer was told of, SPEC 25).
    void note_capture() { stack_.back().halfmove = 0; }
    /// Analysis editing: the player to move becomes c (in), the key kept up to date. For
    /// tools that plan for a colour other than the one to move (the Blind belief's setups).
    void set_to_move(Colour c);

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
    /// Takes the man off sq (which must hold one), as put_man; a courier taken off is no
    /// longer its colour's courier (SPEC 23.1).
    void remove_man(Cell sq) {
        State& s = stack_.back();
        if (rules_.kinta) write_strength(s, sq, 0);
        const Colour c = man_colour(s.board[sq]);
        if (s.courier[c] == sq) set_courier(s, c, NO_CELL);
        remove(s, sq);
    }
    /// Puts c's heart on sq, or takes it off with NO_CELL, as put_man.
    void put_heart(Colour c, Cell sq);
    /// Sets the Kinta strength of the man on sq (1..its initial strength), as put_man. Does
    /// nothing when Kinta is off.
    void set_strength(Cell sq, int n);

    /// The Zobrist key recomputed from scratch (for checks of the incremental key).
    std::uint64_t compute_key() const;

  private:
    /// True if a man of army `mover` ending on colour c's heart takes it: an opposing
    /// heart, or under Reflective any heart (SPEC 4, 21). The one place of that rule for
    /// heart_victim and takeable_hearts.
    bool takes_heart(Colour mover, Colour c) const { return c != mover || rules_.reflective; }
    void put(State& s, Colour c, PieceType t, Cell sq);
    void remove(State& s, Cell sq);
    void pass_turn(State& s, Colour mover);
    /// SPEC 10: after the turn passed from `mover` to s.to_move in play, the move number grows
    /// when the turn wrapped round the turn order (back to the first player still in).
    static void count_round(State& s, Colour mover);
    void capture_heart(State& s, Colour us, Colour victim);
    void set_courier(State& s, Colour c, Cell sq);
    void ablate(State& s, Cell sq);
    /// Kinta: sets cell sq's scorecard entry (0 = initial) in the top strength table and
    /// the key of s.
    void write_strength(State& s, Cell sq, int stored);
    /// Kinta: the move's effect on the strengths and, when the defender wins, on the men
    /// (do_move's Normal case). Returns true when it handled the move whole (defender won).
    bool kinta_move(State& s, Move m, Colour us);
    std::uint64_t ablation_key(const State& s) const;
    /// Where s's ablated list starts in abl_seq_ (the last N entries up to abl_end).
    std::size_t ablation_begin(const State& s) const;
    /// Reads the rule-derived tables (end_hearts_, crown_, spared_, draw_moves_) off rules_.
    void derive_tables();

    int players_ = 2;
    Rules rules_;
    std::vector<State> stack_;
    Bitboard clouds_ = 0;
    /// The ablation sequence: the cells of the ablated list at the root, then every cell a
    /// move left; a state's list is the last min(N, length) entries up to its abl_end.
    std::vector<Cell> abl_seq_;
    int end_hearts_ = 1;
    Bitboard crown_ = 0;
    std::array<Colour, kColours> spared_{NO_COLOUR, NO_COLOUR, NO_COLOUR};
    int draw_moves_ = 50;
    /// Bit t set: pieces of type t are carriers (SPEC 2; Kinta adds the wall, SPEC 26).
    std::uint8_t carrier_types_ = 0;
    /// Kinta's scorecard per ply (see Strengths); empty when Kinta is off.
    std::vector<Strengths> strength_;
    /// Blind view: the hidden colours (see hidden()).
    std::uint8_t hidden_ = 0;
    /// do_move's turn and phase after a placement by `us`, who has now placed `placed` men
    /// (SPEC 6, 20, 21; RH V11), and after a heart placement.
    void after_placement(State& s, Colour us, int placed);
    void after_heart(State& s, Colour us);
    void set_phase(State& s, Phase p);
};

/// Zobrist random numbers (fixed seed): pieces, hearts, player to move, phase, clouds,
/// couriers, and the cells of the ablated list (mixed with their order).
namespace zobrist {
std::uint64_t piece(Colour c, PieceType t, Cell sq);
std::uint64_t heart(Colour c, Cell sq);
std::uint64_t to_move(Colour c);
std::uint64_t phase(Phase p);
std::uint64_t cloud(Cell sq);
std::uint64_t courier(Colour c, Cell sq);
std::uint64_t ablated(Cell sq);
/// Kinta: the key of strength n (1..255, below the initial) of the man on sq.
std::uint64_t strength(Cell sq, int n);
}  // namespace zobrist

inline Bitboard Position::hearts() const {
    Bitboard b = 0;
    for (Cell h : state().heart)
        if (h != NO_CELL) b |= bit(h);
    return b;
}

}  // namespace klinzha
