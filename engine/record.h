// engine/record.h: game records in RH App. E notation, read back and replayed.
//
// A record is PGN-like: optional tag pairs `[Name "value"]`, then the moves of every phase in
// algebraic notation (SPEC 11). Move numbers (`1.`, `12...`), comments `{...}` and `;` to
// the end of the line, NAGs `$n` and marks are ignored by the replay (comments after a move
// are kept with it, Token::comment); a result (`1-0`, `0-1`, `1/2-1/2`,
// `*`, three-player `1-0-0`) or a new tag section ends a game. Tags honoured: `FEN` (start
// position, SPEC 10), `Variant` (a UCI_Variant preset, SPEC 8), `Options` (`Name=value`
// words, applied after the variant), `Players`. A comment `{k out ...}` (colour letter, then
// `out`) marks a three-player removal (SPEC 7) imposed by a referee: the player to move is
// removed there. A player to move with no legal move is removed without a comment.
// Kinta (SPEC 26): an attack is written with its outcome, `Nxd38/A87` or `Nxd38/D54`, and the
// comment `{spindles 5,3|6 ...}` after it gives the fight's rounds; with a `DiceSeed` tag the
// spindles are cast again from the seed and every fight is checked against its outcome.
//
// Sources: SPEC 7 (removals), 8, 10, 11 (RH App. E).
#pragma once

#include <algorithm>
#include <array>
#include <istream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "position.h"

namespace klinzha {

/// One game as written: its tags and its tokens in order.
struct RecordGame {
    struct Token {
        std::string text;  ///< a move token, or for a removal the colour letter
        bool removal = false;
        int line = 0;  ///< line in the input where it stands (1-based)
        /// Kinta (SPEC 26): the rounds of the comment `{spindles 5,3|6 ...}` after the move,
        /// as written (after `spindles `); "" when there is none.
        std::string spindles;
        /// Every other comment after the move (`{+0.35/12 0.512s}`, a person's note), joined
        /// by a space, as written; "" when there is none. Kept so a record loads losslessly.
        /// For a removal: its reason (`{k out: flag fall}` gives "flag fall").
        std::string comment;
    };
    std::map<std::string, std::string> tags;
    std::vector<std::string> tag_order;  ///< the tags' names in the order they were read
    std::vector<Token> tokens;
    std::string result;  ///< the result token, "" if none
    int line = 0;        ///< line where the game starts
};

/// One PGN tag line, `[Name "value"]` and a newline: a `"` or `\` in the value gets a
/// backslash, a line break becomes a space (PGN standard 8.1.1).
std::string tag_line(std::string_view name, std::string_view value);

/// The tag section of a PGN record, one `[Name "value"]` line each (a `"` or `\` in a value
/// gets a backslash, a line break becomes a space): the Seven Tag Roster first in its order
/// (Event Site Date Round White Black Result, those present), then the other tags in
/// `order`, then any not named there by name. PGN export format (PGN standard 8.1.1).
std::string write_tags(const std::map<std::string, std::string>& tags,
                       const std::vector<std::string>& order);

/// Movetext (moves, move numbers, NAGs, `{comments}`, the result) with its white space
/// replaced: words joined by single spaces, lines broken so none passes `width` columns
/// unless a single word does (PGN export: 80; a comment may break across lines). Ends
/// with a newline.
std::string wrap_movetext(std::string_view text, std::size_t width = 80);

/// Splits a text of records into games. Never fails: text it cannot use (an unterminated
/// comment, a broken tag line) is kept as tokens, which then fail in replay() with a message.
std::vector<RecordGame> read_records(std::istream& in);

/// The score of each colour in a record's result token, in turn order: 1 won, 0.5 drawn, 0
/// lost (`1-0`, `1/2-1/2`, `0-1-0`, `0-1/2-1/2`). Empty when the token is not a finished
/// result for that many players (`*`, "", anything else).
std::vector<double> result_scores(std::string_view token, int players);

/// How a played move compares with the best one found, by the centi-pawns it loses (the
/// usual thresholds of chess GUIs): 0 none, 1 an inaccuracy (50 or more), 2 a mistake (100),
/// 3 a blunder (200). `analyse --record` and klinzha-gui's review mark moves with it.
inline int move_grade(int lost_cp) {
    return lost_cp >= 200 ? 3 : lost_cp >= 100 ? 2 : lost_cp >= 50 ? 1 : 0;
}
/// The grades' words, PGN Numeric Annotation Glyphs ($6 ?!, $2 ?, $4 ??) and symbols.
inline constexpr const char* kGradeWords[] = {"", "inaccuracy", "mistake", "blunder"};
inline constexpr const char* kGradeNags[] = {"", "$6", "$2", "$4"};
inline constexpr const char* kGradeSymbols[] = {"", "?!", "?", "??"};

/// A game's analysis summed up per player, as `analyse --record` prints it and klinzha-gui's
/// review saves it: moves scored, their average loss (centi-pawns), and the graded moves.
struct AnalysisTally {
    std::array<int, kColours> loss{}, counted{};
    std::array<std::array<int, kColours>, 4> graded{};  ///< per grade (move_grade), per colour
    /// One move of colour c of grade `grade`; `scored` (a play-phase move) adds its loss
    /// (capped at 1000 cp) to the average.
    void add(Colour c, int grade, int lost_cp, bool scored) {
        graded[std::size_t(grade)][c]++;
        if (!scored) return;
        loss[c] += std::min(lost_cp, 1000);
        ++counted[c];
    }
    /// `g: 12 moves, average loss 35 cp, 1 inaccuracies, 0 mistakes, 0 blunders; b: ...`, for
    /// the first `players` colours.
    std::string summary(int players) const;
};

/// A record replayed through the rules core.
struct Replay {
    Position start;                  ///< the start position, under the record's rules
    std::vector<std::string> fens;   ///< the position string after each move or removal
    std::vector<std::string> moves;  ///< each move as a protocol string (SPEC 9); "out:k"
                                     ///< for a removal
    std::vector<int> token;          ///< per move: its index in RecordGame::tokens, -1 for a
                                     ///< removal the rules imposed (no legal move)
    std::string error;               ///< "" if every token was read; else what failed and where
};

/// Replays `g` under `base` rules changed by its Variant and Options tags, from its FEN tag
/// (else the empty board for its Players tag, else `players`). A token that names no legal
/// move or is ambiguous stops the replay with an error naming the move number, the token and
/// the readings it could have. With `lenient`, each reading of an ambiguous token is tried
/// and the one with which the rest of the record stays legal is kept (SPEC 11.2).
Replay replay(const RecordGame& g, const Rules& base, int players, bool lenient);

}  // namespace klinzha
