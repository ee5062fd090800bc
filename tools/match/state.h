// tools/match/state.h: the match state file (fastchess-style: it knows its settings).
//
// JSON Lines, written with nlohmann-json: the first line is a header
//   {"klinzha-match-state": 1, "settings": {...}, "shard": "K/N"}
// whose settings are everything that decides which games are played and how (players,
// games, engines with their commands and options, rules, clocks, setups, clouds, limits);
// then one line per finished game. A resume, or a merge of shards, with settings that
// differ is refused, naming what differs. Every game line read back is validated against
// the settings (index, seats, outcomes, points); a line that does not parse (a write cut
// short) is reported and skipped, and never swallows the line after it: a writer first ends
// a cut-short last line.
//
// Sources: issue 11 (a runner that loses nothing; shards over many machines).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "tournament.h"

namespace klinzha::match {

/// The settings of a match as JSON (what must match for a resume or a merge).
nlohmann::json settings_json(const TournamentConfig& cfg);

/// The parts of a TournamentConfig a merge needs to print tables, read back from settings:
/// engines (name, cmd, options, depth, nodes), players, games, rules, SPRT. Throws
/// std::runtime_error on settings it cannot read.
TournamentConfig config_from_settings(const nlohmann::json& settings);

/// One game summary as a JSON object, and back; from_json validates it against the match
/// (index below `total`, seats as the schedule says, outcomes and points consistent) and
/// returns an error message when it does not fit.
nlohmann::json to_json(const GameSummary& s);
std::optional<std::string> from_json(const nlohmann::json& j, const TournamentConfig& cfg,
                                     int total, GameSummary& out);

/// A state file read back.
struct StateFile {
    nlohmann::json settings;
    std::string shard;  ///< "K/N", or "" for an unsharded match
    std::vector<GameSummary> games;
    std::vector<std::string> warnings;  ///< lines skipped, and why
};

/// Reads `path`. Returns nullopt when the file does not exist or is empty; throws
/// std::runtime_error when it is not a state file (no valid header) or a game line does not
/// fit the settings it declares.
std::optional<StateFile> read_state(const std::string& path);

/// Checks that `path` can be appended to (creating it) and, for a new or empty file, writes
/// the header. Returns an error message, or nullopt.
std::optional<std::string> open_state(const std::string& path, const nlohmann::json& settings,
                                      const std::string& shard);

/// Appends one game line (first ending a cut-short last line). Returns an error, or nullopt.
std::optional<std::string> append_game(const std::string& path, const GameSummary& s);

/// The first difference between two settings objects ("games: 10 != 20"), "" if equal.
std::string settings_difference(const nlohmann::json& a, const nlohmann::json& b);

}  // namespace klinzha::match
