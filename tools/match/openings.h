// tools/match/openings.h: start positions taken from game records, as cutechess-cli's
// `-openings file=F format=pgn plies=N order=random|sequential` takes them from a PGN file.
//
// Each record of the file (engine/record.h: read_records) is replayed through the rules core
// (replay(), lenient); its opening is the position after its whole setup (SPEC 6) and N more
// plies of play (fewer when the game is shorter). A record that starts in play (a FEN tag in
// the play phase) counts its plies from there. The match plays each opening twice, colours
// swapped (as -setups does).
//
// Blind (SPEC 25): a blind game starts from the empty board, and each player knows only what
// the arbiter told it. So under Blind an opening is the record's start and its moves up to
// the opening's ply, which the referee plays as the arbiter before the engines take over
// (GameConfig::history): each engine's view holds the opening as it would have been told it
// (no refusals: the records' refused proposals are not replayed).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/rules.h"

namespace klinzha::match {

/// What `-openings` asks for.
struct OpeningsSpec {
    std::string file;
    int plies = 0;           ///< plies of play after the setup (0: the setup alone)
    bool random = false;     ///< order=random: shuffled (SplitMix64 of SPEC 16 from seed)
    std::uint64_t seed = 0;  ///< seed=S for order=random
    /// Parses `file=F plies=N order=random|sequential seed=S` (file= may be left out: a word
    /// without `=` is the file). Throws std::runtime_error naming the bad word.
    static OpeningsSpec parse(const std::vector<std::string>& words);
};

/// One opening of a record.
struct Opening {
    std::string fen;    ///< the position after the setup and N plies of play (SPEC 10)
    std::string start;  ///< the record's start position (SPEC 10): the empty board, or its FEN
    /// The record's moves from `start` to `fen`, in GameConfig::history's form (SPEC 9
    /// strings, `out:<why>` for a removal).
    std::vector<std::string> history;
};

/// The openings, in the order asked for: one per usable record, under `rules` for `players`
/// players. Records that do not replay, have another player count, or never finish their
/// setup are skipped, and under Blind (rules.blind, SPEC 25) records that do not start from
/// the empty board; `skipped` (if given) gets a line per skipped record naming its line and
/// why. Throws std::runtime_error when the file cannot be read or no record is usable.
std::vector<Opening> load_openings(const OpeningsSpec& spec, const Rules& rules, int players,
                                   std::vector<std::string>* skipped = nullptr);

}  // namespace klinzha::match
