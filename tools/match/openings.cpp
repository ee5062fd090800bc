// tools/match/openings.cpp: start positions from game records (openings.h).
#include "openings.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "engine/clouds.h"
#include "engine/game.h"
#include "engine/position.h"
#include "engine/record.h"

namespace klinzha::match {

OpeningsSpec OpeningsSpec::parse(const std::vector<std::string>& words) {
    OpeningsSpec s;
    for (const auto& w : words) {
        const auto eq = w.find('=');
        const std::string k = eq == std::string::npos ? "file" : w.substr(0, eq);
        const std::string v = eq == std::string::npos ? w : w.substr(eq + 1);
        auto integer = [&](const std::string& what) {
            std::size_t used = 0;
            long long n = -1;
            try {
                n = std::stoll(v, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used != v.size() || n < 0)
                throw std::runtime_error("-openings " + what +
                                         "=: expected a number 0 or more, got '" + v + "'");
            return n;
        };
        if (k == "file")
            s.file = v;
        else if (k == "plies")
            s.plies = int(integer("plies"));
        else if (k == "seed")
            s.seed = std::uint64_t(integer("seed"));
        else if (k == "order" && (v == "random" || v == "sequential"))
            s.random = v == "random";
        else if (k == "order")
            throw std::runtime_error("-openings order=: random or sequential, not '" + v + "'");
        else if (k == "format" && v == "pgn")
            continue;  // cutechess-cli's word; the records are PGN-style anyway
        else
            throw std::runtime_error("-openings: unknown word '" + w + "'");
    }
    if (s.file.empty()) throw std::runtime_error("-openings needs a file (file=F)");
    return s;
}

std::vector<Opening> load_openings(const OpeningsSpec& spec, const Rules& rules, int players,
                                   std::vector<std::string>* skipped) {
    std::ifstream in(spec.file);
    if (!in) throw std::runtime_error("-openings: cannot read '" + spec.file + "'");
    std::vector<Opening> out;
    auto skip = [&](const RecordGame& g, const std::string& why) {
        if (skipped) skipped->push_back("game at line " + std::to_string(g.line) + ": " + why);
    };
    for (const RecordGame& g : read_records(in)) {
        const Replay r = replay(g, rules, players, true);
        if (r.start.players() != players) {
            skip(g, "a " + std::to_string(r.start.players()) + "-player record");
            continue;
        }
        if (rules.blind && (r.start.phase() != Phase::Place || r.start.occupied())) {
            skip(g, "a blind game starts from the empty board (SPEC 25)");
            continue;
        }
        // The first position in play: the start, or the position after the last setup move.
        int first = -1;  // index into r.fens; -1: the start itself
        if (r.start.phase() != Phase::Play) {
            first = -2;
            for (std::size_t i = 0; i < r.fens.size(); ++i) {
                Position p(players, rules);
                if (!p.set(r.fens[i], r.start.rules()) && p.phase() == Phase::Play) {
                    first = int(i);
                    break;
                }
            }
        }
        if (first == -2) {
            skip(g, r.error.empty() ? "the setup never ends" : r.error);
            continue;
        }
        const int at = std::min(first + spec.plies, int(r.fens.size()) - 1);
        std::string fen = at < 0 ? r.start.fen() : r.fens[std::size_t(at)];
        Position p(players, rules);
        if (auto err = p.set(fen, rules)) {
            skip(g, "the opening does not hold under the match's rules: " + *err);
            continue;
        }
        if (p.game_over()) {
            skip(g, "the game is over at that ply");
            continue;
        }
        // The moves to the opening: those of the first at + 1 entries (removals aside).
        std::size_t moves = 0;
        for (int i = 0; i <= at; ++i) moves += r.moves[std::size_t(i)].rfind("out:", 0) != 0;
        out.push_back({p.fen(), r.start.fen(), game_from_record(g, r).history(moves)});
    }
    if (out.empty()) throw std::runtime_error("-openings: no usable record in '" + spec.file + "'");
    if (spec.random) {  // Fisher-Yates with the generator of SPEC 16
        SplitMix64 rng(spec.seed);
        for (std::size_t i = out.size(); i > 1; --i)
            std::swap(out[i - 1], out[std::size_t(rng.next() % i)]);
    }
    return out;
}

}  // namespace klinzha::match
