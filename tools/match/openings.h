// tools/match/openings.h: start positions taken from game records, as cutechess-cli's
// `-openings file=F format=pgn plies=N order=random|sequential` takes them from a PGN file.
//
// Each record of the file (engine/record.h: read_records) is replayed through the rules core
// (replay(), lenient); its opening is the position after its whole setup (SPEC 6) and N more
// plies of play (fewer when the game is shorter). A record that starts in play (a FEN tag in
// the play phase) counts its plies from there. The match plays each opening twice, colours
// swapped (as -setups does).
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

/// The openings' position strings (SPEC 10), in the order asked for: one per usable record,
/// under `rules` for `players` players. Records that do not replay, have another player
/// count, or never finish their setup are skipped; `skipped` (if given) gets a line per
/// skipped record naming its line and why. Throws std::runtime_error when the file cannot be
/// read or no record is usable.
std::vector<std::string> load_openings(const OpeningsSpec& spec, const Rules& rules, int players,
                                       std::vector<std::string>* skipped = nullptr);

}  // namespace klinzha::match
