// engine/types.h: the game's basic vocabulary: colours, piece types, phases, cells, moves.
//
// Source: SPEC sections 1-2 (board, players, pieces), 6 (phases), 9 (move strings).
// Colours are indexed in turn order (Green, Blue, Black) and walked with next(); no code
// assumes two players.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace klinzha {

/// A player colour, in turn order (SPEC 2). Green places and moves first.
enum Colour : std::uint8_t { GREEN = 0, BLUE = 1, BLACK = 2, NO_COLOUR = 3 };
inline constexpr int kColours = 3;
inline constexpr std::array<char, kColours> kColourChar = {'g', 'b', 'k'};

/// The colour of a letter `g`, `b` or `k` (SPEC 10, the letters of kColourChar), or nullopt
/// for anything else. The one parser of colour letters every tool uses.
constexpr std::optional<Colour> parse_colour(char ch) {
    for (int c = 0; c < kColours; ++c)
        if (ch == kColourChar[std::size_t(c)]) return Colour(c);
    return std::nullopt;
}
/// The same for a string: exactly one letter `g`, `b` or `k`.
constexpr std::optional<Colour> parse_colour(std::string_view s) {
    return s.size() == 1 ? parse_colour(s[0]) : std::nullopt;
}

/// Piece types (SPEC 2, RH App. E letters). HEART is not a piece: it is kept apart.
enum PieceType : std::uint8_t {
    QUEEN = 0,
    ROOK = 1,
    BISHOP = 2,
    KNIGHT = 3,
    PAWN = 4,
    WALL = 5,
    HEART = 6,
    NO_PIECE_TYPE = 7
};
inline constexpr int kPieceTypes = 6;  // real pieces, HEART excluded
inline constexpr std::array<char, 7> kPieceChar = {'Q', 'R', 'B', 'N', 'P', 'W', 'H'};
/// The names people read (SPEC 2; docs/rules.md section 2): the RH name, then the Klin Zha
/// name, by PieceType. klinzha-gui's tooltips and Learn page use them.
inline constexpr std::array<const char*, 7> kPieceName = {
    "queen (Fencer)",  "rook (Lancer)",    "bishop (Swift)", "knight (Flier)",
    "pawn (Vanguard)", "wall (Blockader)", "heart (Goal)"};
/// Colour names in full, by Colour (SPEC 2).
inline constexpr std::array<const char*, kColours> kColourName = {"Green", "Blue", "Black"};
/// The colours as words within a sentence and as SPEC 10's field names: `green`.
inline constexpr std::array<const char*, kColours> kColourWord = {"green", "blue", "black"};
/// How many of each piece type one set holds (SPEC 2): Q R B N N P P P W = nine pieces.
inline constexpr std::array<int, kPieceTypes> kSetCount = {1, 1, 1, 2, 3, 1};
inline constexpr int kSetSize = 9;

/// True for the carriers of SPEC 2 (Q, R, P): the pieces that may carry their heart under the
/// default rules. Under Kinta the wall carries too (SPEC 26): code that knows the rules asks
/// Position::is_carrier_type instead.
constexpr bool is_carrier(PieceType t) {
    return t == QUEEN || t == ROOK || t == PAWN;
}

/// Kinta (SPEC 26, App. D.1.1): each piece's initial strength, by PieceType (Q R B N P W).
inline constexpr std::array<int, kPieceTypes> kInitialStrength = {110, 130, 150, 140, 120, 100};
/// Kinta: each piece's ID (App. D.1.1; also the spindle face it favours), by PieceType.
inline constexpr std::array<int, kPieceTypes> kWarriorId = {2, 4, 6, 5, 3, 1};
/// Kinta: each piece's defense score (App. D.1.1), by PieceType.
inline constexpr std::array<int, kPieceTypes> kDefense = {5, 3, 1, 2, 4, 6};
/// The largest strength a warrior can have (the swift's initial strength).
inline constexpr int kMaxStrength = 150;

/// The phases of SPEC 6.
enum class Phase : std::uint8_t { Place = 0, Heart = 1, Play = 2 };

/// A cell index 0..80: row r (a=1..i=9) holds indices (r-1)^2 .. r^2-1, left to right as
/// drawn in SPEC 1 (so i99 is 64 and i11 is 80). NO_CELL marks "none".
using Cell = std::uint8_t;
inline constexpr int kCells = 81;
inline constexpr Cell NO_CELL = 0xFF;

/// A move of any phase, packed in 32 bits:
///   bits 0-6  : destination cell (to)
///   bits 7-13 : origin cell (from), play moves only
///   bits 14-16: kind (see Kind)
///   bits 17-19: piece type, placements only
///   bit  20   : the carrier takes its heart along (play moves from the own heart's cell), or
///               the placed carrier brings the heart (Reflective's first placement, SPEC 21)
///   bit  21   : Kinta attack outcome: the defender won (0: the attacker won)
///   bits 22-29: Kinta attack outcome: the survivor's strength 1..255 after the fight; 0 when
///               the move carries no outcome (a bare move: perft, bestmove, move generation)
/// Move() (all zero) is "no move"; Move::null() is the null move `0000` of SPEC 9. Move
/// generation never sets the outcome bits: an attack's outcome is given by a referee (SPEC 26)
/// and attached with with_outcome(); bare() strips it again.
class Move {
  public:
    enum Kind : std::uint32_t { None = 0, Normal = 1, Place = 2, PlaceHeart = 3, Null = 4 };

    constexpr Move() = default;
    static constexpr Move normal(Cell from, Cell to, bool carry = false) {
        return Move(to | (std::uint32_t(from) << 7) | (Normal << 14) | (carry ? 1u << 20 : 0));
    }
    static constexpr Move place(PieceType t, Cell to, bool with_heart = false) {
        return Move(to | (Place << 14) | (std::uint32_t(t) << 17) | (with_heart ? 1u << 20 : 0));
    }
    static constexpr Move place_heart(Cell to) { return Move(to | (PlaceHeart << 14)); }
    static constexpr Move null() { return Move(Null << 14); }
    /// The move whose raw() is r (for tables that store moves as integers).
    static constexpr Move from_raw(std::uint32_t r) { return Move(r); }

    constexpr Cell to() const { return Cell(data_ & 0x7F); }
    constexpr Cell from() const { return Cell((data_ >> 7) & 0x7F); }
    constexpr Kind kind() const { return Kind((data_ >> 14) & 7); }
    constexpr PieceType placed_type() const { return PieceType((data_ >> 17) & 7); }
    constexpr bool carries_heart() const { return (data_ >> 20) & 1; }
    /// The Kinta outcome's survivor strength (1..255), 0 for a bare move (SPEC 26).
    constexpr int outcome_strength() const { return int((data_ >> 22) & 0xFF); }
    /// True when an outcome is attached and says the defender won (SPEC 26 `:D<n>`).
    constexpr bool defender_won() const { return outcome_strength() && ((data_ >> 21) & 1); }
    /// This move with the outcome of its fight attached: `defender_won` and the survivor's
    /// strength n (1..255). SPEC 26 `:A<n>` / `:D<n>`.
    constexpr Move with_outcome(bool defender_wins, int n) const {
        return Move((data_ & kBareMask) | (defender_wins ? 1u << 21 : 0) |
                    (std::uint32_t(n & 0xFF) << 22));
    }
    /// This move without an outcome (what move generation produces).
    constexpr Move bare() const { return Move(data_ & kBareMask); }
    constexpr std::uint32_t raw() const { return data_; }
    constexpr bool is_none() const { return data_ == 0; }

    constexpr bool operator==(const Move&) const = default;

  private:
    static constexpr std::uint32_t kBareMask = (1u << 21) - 1;
    constexpr explicit Move(std::uint32_t d) : data_(d) {}
    std::uint32_t data_ = 0;
};

}  // namespace klinzha
