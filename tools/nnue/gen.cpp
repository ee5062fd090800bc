// tools/nnue/gen.cpp: klinzha-gen, the network's training data by self-play (issue 20).
//
//   klinzha-gen --out FILE [--games N] [--nodes N] [--depth D] [--players 2|3|mix]
//               [--seed S] [--random-plies N] [--multipv K] [--multipv-plies N]
//               [--multipv-margin CP] [--setup planner|random|mix] [--options default|mix]
//               [--hash MiB] [--eval-file F] [--eval-file-three F3]
//
// Plays N fast self-play games from the empty board, each move a search of `nodes` nodes or
// of `depth` plies (whichever ends first; a shallow search is the cheap label the field uses
// for a first net: Fairy-Stockfish's variant nets start from depth-2 labels). The setups vary
// (--setup): the planner's (its quick form, without judging each candidate by a search, and
// with a wide random choice among near-equal setups), uniformly random placements, or either
// at random per game (mix). The first `random-plies` plies of play are uniformly random, and
// the next `multipv-plies` plies pick at random among the search's `multipv` best moves
// that score within `multipv-margin` centi-pawns of the best (more openings). Everything
// random is drawn from --seed, so a run with the same arguments writes the same records.
// It keeps the quiet play positions (the player to move's heart not attacked, the best
// move not a capture, the score not a mate) with the search's score, and when the game ends the
// result for the player to move; each position at most once per run (by key). Records go to FILE
// (appended) in the format of eval/nnue/sample.h, a game at a time, so a killed run keeps
// every finished game. Prints a line per 100 games and a summary (games, positions, rate).
// Sharding: run one process per core or machine with its own --seed and --out, then `cat` the
// files (tools/nnue/gen.sh does this with GNU parallel, as klinzha-match -shard).
// A later generation's data: --eval-file F searches every game with the network F instead of
// the classical evaluation; --eval-file-three F3 gives the three-player games their own net
// (the two-player games keep F, or the classical evaluation without it).
// Errors: bad arguments, an unreadable network or an unwritable FILE: a message and exit
// status 2, nothing written.
// Sources: SPEC 6-7 (phases, game end), 12 (finished positions), 22 (draws).
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "engine/movegen.h"
#include "engine/version.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/nnue/sample.h"
#include "search/search.h"
#include "search/tt.h"

namespace po = boost::program_options;
using namespace klinzha;

namespace {

struct GenConfig {
    int games = 100;
    std::uint64_t nodes = 5000;
    int depth = 0;                // plies, 0: nodes alone
    std::string players = "mix";  // 2, 3 or mix (two in three games of four)
    std::uint64_t seed = 1;
    int random_plies = 2;
    int multipv = 1;                // moves among which the next multipv_plies plies choose
    int multipv_plies = 0;          // plies of play after the random ones that do so
    int multipv_margin = 50;        // centi-pawns below the best a chosen move may score
    std::string setup = "planner";  // planner, random or mix
    std::string options = "mix";    // default: the default rules; mix: common options too
    int hash_mib = 16;
    int max_plies = 600;  // a longer game is adjudicated a draw
};

/// The rules of one game: the default rules, or (mix) one common option in four games of ten.
Rules pick_rules(const GenConfig& cfg, std::mt19937_64& rng) {
    Rules r;
    if (cfg.options != "mix") return r;
    switch (rng() % 10) {
        case 0:
            r.power_vanguard = true;
            break;
        case 1:
            r.goal_safety = true;
            break;
        case 2:
            r.alternating_placement = true;
            break;
        case 3:
            r.forward_placement = true;
            break;
        default:
            break;
    }
    return r;
}

/// One search of pos: its best move, score in centi-pawns for the player to move, depth,
/// whether it is a mate, and (multipv > 1) the first move and score of each line of the last
/// depth reported, best first.
struct Searched {
    Move best;
    int score = 0;
    int depth = 0;
    bool mate = false;
    std::vector<std::pair<Move, int>> lines;
};

/// Searches pos with cfg's limits (nodes, depth) and `multipv` lines; `setup_seed` seeds the
/// setup planner's variety (drawn from --seed: a run is reproducible).
Searched search(Searcher& searcher, const Position& pos, const GenConfig& cfg, int multipv,
                std::uint64_t setup_seed) {
    SearchLimits lim;
    lim.nodes = cfg.nodes;
    lim.depth = cfg.depth;
    SearchSettings settings;  // vary_setup: the planner's random variety among setups
    settings.setup_seed = setup_seed;
    settings.multipv = multipv;
    settings.planner.judged = 0;       // the quick planner: data need varied setups, not the
    settings.planner.variety_cp = 60;  // best ones (SetupSearch's judging is what costs)
    Searched out;
    SearchCallbacks cb{[&](const SearchInfo& i) {
                           if (i.pv.empty()) return;
                           if (i.multipv == 1) {
                               out.score = i.score;
                               out.depth = i.depth;
                               out.mate = i.mate_in != 0;
                               out.lines.clear();
                           }
                           if (i.mate_in == 0 && i.multipv == int(out.lines.size()) + 1)
                               out.lines.emplace_back(i.pv.front(), i.score);
                       },
                       [&](Move best, Move) { out.best = best; },
                       [](const std::string&) {},
                       {}};
    searcher.start(pos, lim, settings, cb);
    searcher.wait();
    return out;
}

/// One game's kept positions (their results filled in) and how it ended: 0 decisive,
/// 1 drawn, 2 adjudicated (longer than max_plies).
struct Played {
    std::vector<nnue::PackedSample> kept;
    int kind = 2;
};

/// A uniformly random legal move of pos (which has one).
Move random_move(const Position& pos, std::mt19937_64& rng) {
    MoveList legal;
    generate_legal(pos, legal);
    return legal.moves[rng() % legal.size];
}

/// The move a search picks, varied: among the lines within cfg.multipv_margin of the best
/// when `varied`, else the best.
Move pick(const Searched& s, bool varied, const GenConfig& cfg, std::mt19937_64& rng) {
    if (!varied || s.lines.empty()) return s.best;
    std::vector<Move> near;
    for (const auto& [m, score] : s.lines)
        if (score >= s.score - cfg.multipv_margin) near.push_back(m);
    return near.empty() ? s.best : near[rng() % near.size()];
}

/// Whether a game ended before `pos` is to move: sets result (per colour: 0 lost, 1 drawn,
/// 2 won) and kind, or removes a player without a legal move and returns false to go on
/// (SPEC 7, 22).
bool game_ended(Position& pos, std::array<int, kColours>& result, int& kind) {
    const int players = pos.players();
    if (pos.game_over()) {
        const Colour w = pos.winner();
        for (int c = 0; c < players; ++c) result[std::size_t(c)] = c == w ? 2 : 0;
        kind = 0;
        return true;
    }
    if (pos.repetition_draw(3) || pos.move_count_draw()) {
        for (int c = 0; c < players; ++c) result[std::size_t(c)] = pos.is_in(Colour(c)) ? 1 : 0;
        kind = 1;
        return true;
    }
    if (has_legal_move(pos)) return false;
    const Colour loser = pos.to_move();  // SPEC 7: the player to move loses or is out
    result[loser] = 0;
    if (pos.removal_ends_game()) {
        const Colour w = pos.winner_over(loser);
        for (int c = 0; c < players; ++c)
            if (c != loser) result[std::size_t(c)] = c == w ? 2 : 0;
        kind = 0;
        return true;
    }
    pos.eliminate_to_move();
    return false;
}

/// Plays one self-play game by cfg (its size and rules drawn from rng) and returns the quiet
/// play positions it kept, labelled by the search's score and the game's result.
Played play_game(const GenConfig& cfg, Searcher& searcher, std::mt19937_64& rng) {
    const int players = cfg.players == "mix" ? (rng() % 4 == 3 ? 3 : 2) : std::stoi(cfg.players);
    const Rules rules = pick_rules(cfg, rng);
    const bool random_setup = cfg.setup == "random" || (cfg.setup == "mix" && rng() % 2 == 0);
    Position pos(players, rules);
    Played g;
    int play_plies = 0;
    std::array<int, kColours> result{1, 1, 1};
    for (int c = players; c < kColours; ++c) result[std::size_t(c)] = 0;
    while (pos.ply() < cfg.max_plies) {
        const bool play = pos.phase() == Phase::Play;
        if (play) {
            const int before = pos.to_move();
            if (game_ended(pos, result, g.kind)) break;
            if (pos.to_move() != before) continue;  // a player went out: the next one moves
        }
        Move m;
        if ((play && play_plies < cfg.random_plies) ||
            (pos.phase() == Phase::Place && random_setup)) {
            m = random_move(pos, rng);
        } else {
            const bool varied =
                play && cfg.multipv > 1 && play_plies < cfg.random_plies + cfg.multipv_plies;
            const Searched s = search(searcher, pos, cfg, varied ? cfg.multipv : 1, rng() | 1);
            if (s.best.is_none()) break;  // cannot happen: legal moves were checked
            m = pick(s, varied, cfg, rng);
            if (play && !s.mate && !pos.is_capture(s.best) &&
                !heart_attacked(pos, pos.army(pos.to_move())))
                // The label is what the network is to add to the terms beside it (evaluate.h).
                g.kept.push_back(nnue::pack(pos, s.score - eval::beside_network(pos, pos.to_move()),
                                            s.depth, 1));
        }
        if (play) ++play_plies;
        // A heart capture in a three-player game: the victim is out (SPEC 7).
        const Colour victim = pos.heart_victim(m);
        pos.do_move(m);
        if (victim != NO_COLOUR && pos.players() == 3 && !pos.game_over()) result[victim] = 0;
    }
    for (auto& s : g.kept) s.result = std::uint8_t(result[s.stm]);
    return g;
}

/// The networks the searches use (--eval-file for every game, --eval-file-three for the
/// three-player ones), read into two and three and set in the evaluation (eval::set_networks;
/// they must outlive the run). Returns false after a message on standard error when a file is
/// not a network it can read.
bool load_networks(const po::variables_map& vm, std::unique_ptr<nnue::Network>& two,
                   std::unique_ptr<nnue::Network>& three) {
    const std::pair<const char*, std::unique_ptr<nnue::Network>*> files[] = {
        {"eval-file", &two}, {"eval-file-three", &three}};
    for (const auto& [name, dest] : files) {
        if (!vm.count(name)) continue;
        auto r = nnue::Network::read_file(vm[name].as<std::string>());
        if (auto* err = std::get_if<std::string>(&r)) {
            std::cerr << "klinzha-gen: --" << name << ": " << *err << "\n";
            return false;
        }
        *dest = std::move(std::get<std::unique_ptr<nnue::Network>>(r));
    }
    eval::set_networks(two.get(), three ? three.get() : two.get());
    return true;
}

/// The command line's options, bound to cfg's fields and to out_path (--out).
po::options_description gen_options(GenConfig& cfg, std::string& out_path) {
    po::options_description desc("klinzha-gen: training data by self-play (eval/nnue/sample.h)");
    desc.add_options()("help,h", "show this help")("version", "print the version")(
        "out,o", po::value<std::string>(&out_path), "data file to append to (required)")(
        "games", po::value<int>(&cfg.games)->default_value(100), "games to play")(
        "nodes", po::value<std::uint64_t>(&cfg.nodes)->default_value(5000),
        "nodes per move (placements: the planner's fixed effort)")(
        "players", po::value<std::string>(&cfg.players)->default_value("mix"),
        "2, 3 or mix (three games of four with two players)")(
        "depth", po::value<int>(&cfg.depth)->default_value(0),
        "plies per move (the label's search; 0: --nodes alone)")(
        "multipv", po::value<int>(&cfg.multipv)->default_value(1),
        "lines searched in the varied plies")(
        "multipv-plies", po::value<int>(&cfg.multipv_plies)->default_value(0),
        "plies of play after the random ones that pick among the near-best lines")(
        "multipv-margin", po::value<int>(&cfg.multipv_margin)->default_value(50),
        "centi-pawns below the best a varied pick may score")(
        "setup", po::value<std::string>(&cfg.setup)->default_value("planner"),
        "planner (the quick planner, varied), random (uniform placements) or mix (either, "
        "per game)")("seed", po::value<std::uint64_t>(&cfg.seed)->default_value(1),
                     "seed of the random plies and rules (use one per shard)")(
        "random-plies", po::value<int>(&cfg.random_plies)->default_value(2),
        "uniformly random plies at the start of play")(
        "options", po::value<std::string>(&cfg.options)->default_value("mix"),
        "default (default rules only) or mix (PowerVanguard, GoalSafety, AlternatingPlacement, "
        "ForwardPlacement in one game of ten each)")(
        "hash", po::value<int>(&cfg.hash_mib)->default_value(16), "transposition table, MiB")(
        "eval-file", po::value<std::string>(),
        "search with this network (.nnue) instead of the classical evaluation (the next "
        "generation's data); both game sizes unless --eval-file-three is given")(
        "eval-file-three", po::value<std::string>(),
        "search three-player games with this network (a three-player net, e.g. three layer "
        "stacks); two-player games then keep --eval-file's net or the classical evaluation");
    return desc;
}

/// Whether cfg and out_path are a run klinzha-gen can make; false after a message on standard
/// error naming the bounds.
bool valid(const GenConfig& cfg, const std::string& out_path) {
    if (!out_path.empty() && cfg.games >= 1 && cfg.nodes >= 1 && cfg.random_plies >= 0 &&
        cfg.hash_mib >= 1 && cfg.depth >= 0 && cfg.multipv >= 1 && cfg.multipv_plies >= 0 &&
        (cfg.setup == "planner" || cfg.setup == "random" || cfg.setup == "mix") &&
        (cfg.players == "2" || cfg.players == "3" || cfg.players == "mix") &&
        (cfg.options == "default" || cfg.options == "mix"))
        return true;
    std::cerr << "klinzha-gen: needs --out FILE; --games, --nodes, --hash >= 1; "
                 "--players 2|3|mix; --options default|mix; --setup planner|random|mix; --depth, "
                 "--multipv-plies >= 0; --multipv >= 1 (try --help)\n";
    return false;
}

/// Plays cfg.games games and appends each one's kept records to out, once per position (by
/// key), a game at a time; prints a progress line per 100 games. Returns 0, or 1 when out
/// failed.
int generate(const GenConfig& cfg, std::ofstream& out) {
    std::mt19937_64 rng(cfg.seed);
    TranspositionTable tt;
    tt.resize(std::size_t(cfg.hash_mib));
    Searcher searcher(tt);
    std::unordered_set<std::uint64_t> seen;
    std::uint64_t positions = 0, dropped_dupes = 0;
    const auto started = std::chrono::steady_clock::now();
    std::array<int, 3> decided{};  // decisive, drawn, adjudicated

    for (int game = 0; game < cfg.games; ++game) {
        tt.clear();
        searcher.clear();
        const Played g = play_game(cfg, searcher, rng);
        ++decided[std::size_t(g.kind)];
        for (const auto& s : g.kept) {
            if (!seen.insert(s.key).second) {
                ++dropped_dupes;
                continue;
            }
            out.write(reinterpret_cast<const char*>(&s), sizeof s);
            ++positions;
        }
        out.flush();
        if ((game + 1) % 100 == 0 || game + 1 == cfg.games) {
            const double secs =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            std::printf(
                "games %d  positions %llu  duplicates %llu  decisive %d drawn %d "
                "adjudicated %d  %.0f positions/hour\n",
                game + 1, (unsigned long long)positions, (unsigned long long)dropped_dupes,
                decided[0], decided[1], decided[2], positions / secs * 3600);
            std::fflush(stdout);
        }
    }
    return out ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    GenConfig cfg;
    std::string out_path;
    const po::options_description desc = gen_options(cfg, out_path);
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "klinzha-gen: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "klinzha-gen " << klinzha::version() << "\n";
        return 0;
    }
    if (!valid(cfg, out_path)) return 2;
    std::unique_ptr<nnue::Network> net, net_three;  // kept for the whole run: the search reads them
    if (!load_networks(vm, net, net_three)) return 2;
    std::ofstream out(out_path, std::ios::binary | std::ios::app);
    if (!out) {
        std::cerr << "klinzha-gen: cannot write '" << out_path << "'\n";
        return 2;
    }

    return generate(cfg, out);
}
