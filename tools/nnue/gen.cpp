// tools/nnue/gen.cpp: klinzha-gen, the network's training data by self-play (issue 20).
//
//   klinzha-gen --out FILE [--games N] [--nodes N] [--players 2|3|mix] [--seed S]
//               [--random-plies N] [--options default|mix] [--hash MiB] [--eval-file F]
//
// Plays N fast self-play games from the empty board (the setup planner places, with its
// random variety, so every game starts from another setup; that variety and everything else
// random is drawn from --seed, so a run with the same arguments writes the same records), each
// move a search of `nodes` nodes; the first `random-plies` plies of play are uniformly random (more
// openings). It keeps the quiet play positions (the player to move's heart not attacked, the best
// move not a capture, the score not a mate) with the search's score, and when the game ends the
// result for the player to move; each position at most once per run (by key). Records go to FILE
// (appended) in the format of eval/nnue/sample.h, a game at a time, so a killed run keeps
// every finished game. Prints a line per 100 games and a summary (games, positions, rate).
// Sharding: run one process per core or machine with its own --seed and --out, then `cat` the
// files (tools/nnue/gen.sh does this with GNU parallel, as klinzha-match -shard).
// Errors: bad arguments or an unwritable FILE: a message and exit status 2.
// Sources: SPEC 6-7 (phases, game end), 12 (finished positions), 22 (draws).
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <unordered_set>
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
    std::string players = "mix";  // 2, 3 or mix (two in three games of four)
    std::uint64_t seed = 1;
    int random_plies = 2;
    std::string options = "mix";  // default: the default rules; mix: common options too
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

/// One search of `nodes` nodes of `pos` (its best move, score in centi-pawns for the player to
/// move, depth, whether it is a mate); `setup_seed` seeds the setup planner's variety.
struct Searched {
    Move best;
    int score = 0;
    int depth = 0;
    bool mate = false;
};

Searched search(Searcher& searcher, const Position& pos, std::uint64_t nodes,
                std::uint64_t setup_seed) {
    SearchLimits lim;
    lim.nodes = nodes;
    SearchSettings settings;           // vary_setup: the planner's random variety among setups,
    settings.setup_seed = setup_seed;  // drawn from --seed: a run is reproducible
    Searched out;
    SearchCallbacks cb{[&](const SearchInfo& i) {
                           if (i.multipv != 1) return;
                           out.score = i.score;
                           out.depth = i.depth;
                           out.mate = i.mate_in != 0;
                       },
                       [&](Move best, Move) { out.best = best; },
                       [](const std::string&) {},
                       {}};
    searcher.start(pos, lim, settings, cb);
    searcher.wait();
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    GenConfig cfg;
    std::string out_path;
    po::options_description desc("klinzha-gen: training data by self-play (eval/nnue/sample.h)");
    desc.add_options()("help,h", "show this help")("version", "print the version")(
        "out,o", po::value<std::string>(&out_path), "data file to append to (required)")(
        "games", po::value<int>(&cfg.games)->default_value(100), "games to play")(
        "nodes", po::value<std::uint64_t>(&cfg.nodes)->default_value(5000),
        "nodes per move (placements: the planner's fixed effort)")(
        "players", po::value<std::string>(&cfg.players)->default_value("mix"),
        "2, 3 or mix (three games of four with two players)")(
        "seed", po::value<std::uint64_t>(&cfg.seed)->default_value(1),
        "seed of the random plies and rules (use one per shard)")(
        "random-plies", po::value<int>(&cfg.random_plies)->default_value(2),
        "uniformly random plies at the start of play")(
        "options", po::value<std::string>(&cfg.options)->default_value("mix"),
        "default (default rules only) or mix (PowerVanguard, GoalSafety, AlternatingPlacement, "
        "ForwardPlacement in one game of ten each)")(
        "hash", po::value<int>(&cfg.hash_mib)->default_value(16), "transposition table, MiB")(
        "eval-file", po::value<std::string>(),
        "search with this network (.nnue) instead of the classical evaluation (the next "
        "generation's data)");
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
    if (out_path.empty() || cfg.games < 1 || cfg.nodes < 1 || cfg.random_plies < 0 ||
        cfg.hash_mib < 1 || (cfg.players != "2" && cfg.players != "3" && cfg.players != "mix") ||
        (cfg.options != "default" && cfg.options != "mix")) {
        std::cerr << "klinzha-gen: needs --out FILE; --games, --nodes, --hash >= 1; "
                     "--players 2|3|mix; --options default|mix (try --help)\n";
        return 2;
    }
    std::ofstream out(out_path, std::ios::binary | std::ios::app);
    if (!out) {
        std::cerr << "klinzha-gen: cannot write '" << out_path << "'\n";
        return 2;
    }

    std::unique_ptr<nnue::Network> net;  // kept for the whole run: the search reads it
    if (vm.count("eval-file")) {
        auto r = nnue::Network::read_file(vm["eval-file"].as<std::string>());
        if (auto* err = std::get_if<std::string>(&r)) {
            std::cerr << "klinzha-gen: --eval-file: " << *err << "\n";
            return 2;
        }
        net = std::move(std::get<std::unique_ptr<nnue::Network>>(r));
        eval::set_network(net.get());
    }
    std::mt19937_64 rng(cfg.seed);
    TranspositionTable tt;
    tt.resize(std::size_t(cfg.hash_mib));
    Searcher searcher(tt);
    std::unordered_set<std::uint64_t> seen;
    std::uint64_t positions = 0, dropped_dupes = 0;
    const auto started = std::chrono::steady_clock::now();
    std::array<int, 3> decided{};  // decisive, drawn, adjudicated

    for (int game = 0; game < cfg.games; ++game) {
        const int players =
            cfg.players == "mix" ? (rng() % 4 == 3 ? 3 : 2) : std::stoi(cfg.players);
        const Rules rules = pick_rules(cfg, rng);
        Position pos(players, rules);
        tt.clear();
        searcher.clear();
        std::vector<nnue::PackedSample> kept;
        int play_plies = 0;
        std::array<int, kColours> result{1, 1, 1};  // per colour: 0 lost, 1 drawn, 2 won
        for (int c = players; c < kColours; ++c) result[std::size_t(c)] = 0;
        int kind = 2;
        while (pos.ply() < cfg.max_plies) {
            if (pos.phase() == Phase::Play) {
                if (pos.game_over()) {
                    const Colour w = pos.winner();
                    for (int c = 0; c < players; ++c) result[std::size_t(c)] = c == w ? 2 : 0;
                    kind = 0;
                    break;
                }
                if (pos.repetition_draw(3) || pos.move_count_draw()) {
                    for (int c = 0; c < players; ++c)
                        result[std::size_t(c)] = pos.is_in(Colour(c)) ? 1 : 0;
                    kind = 1;
                    break;
                }
                if (!has_legal_move(pos)) {  // SPEC 7: the player to move loses or is out
                    const Colour loser = pos.to_move();
                    result[loser] = 0;
                    if (pos.removal_ends_game()) {
                        const Colour w = pos.winner_over(loser);
                        for (int c = 0; c < players; ++c)
                            if (c != loser) result[std::size_t(c)] = c == w ? 2 : 0;
                        kind = 0;
                        break;
                    }
                    pos.eliminate_to_move();
                    continue;
                }
            }
            Move m;
            if (pos.phase() == Phase::Play && play_plies < cfg.random_plies) {
                MoveList legal;
                generate_legal(pos, legal);
                m = legal.moves[rng() % legal.size];
            } else {
                const Searched s = search(searcher, pos, cfg.nodes, rng() | 1);
                m = s.best;
                if (m.is_none()) break;  // cannot happen: legal moves were checked
                if (pos.phase() == Phase::Play && !s.mate && !pos.is_capture(m) &&
                    !heart_attacked(pos, pos.army(pos.to_move())))
                    kept.push_back(nnue::pack(pos, s.score, s.depth, 1));
            }
            if (pos.phase() == Phase::Play) ++play_plies;
            // A heart capture in a three-player game: the victim is out (SPEC 7).
            const Colour victim = pos.heart_victim(m);
            pos.do_move(m);
            if (victim != NO_COLOUR && pos.players() == 3 && !pos.game_over()) result[victim] = 0;
        }
        ++decided[std::size_t(kind)];
        for (auto& s : kept) {
            s.result = std::uint8_t(result[s.stm]);
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
