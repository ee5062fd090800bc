// search/engine.cpp: see engine.h.
#include "engine.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include <chrono>
#include <mutex>
#include <new>
#include <random>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/perft.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"

namespace klinzha {

Engine::Engine(SearchCallbacks callbacks) : callbacks_(std::move(callbacks)), pos_(2, Rules{}) {
    tt_.resize(kDefaultHashMiB);
    rng_state_ ^= std::uint64_t(std::random_device{}());
    apply_network();
}

void Engine::apply_network() {
    const nnue::Network* two = loaded_net_ ? loaded_net_ : nnue::default_network();
    // Three players: EvalFile Three Players's network, else the built-in three-player one,
    // else the two-player one (as before there was a network for three players).
    const nnue::Network* three = loaded_net_three_               ? loaded_net_three_
                                 : nnue::default_network_three() ? nnue::default_network_three()
                                                                 : two;
    const bool on = use_nnue_ && settings_.skill_level >= kSkillMax;
    eval::set_networks(on ? two : nullptr, on && nnue_three_players_ ? three : nullptr);
}

std::optional<std::string> Engine::set_nnue_three_players(bool on) {
    if (searching()) return "not while searching";
    nnue_three_players_ = on;
    apply_network();
    return std::nullopt;
}

std::optional<std::string> Engine::set_use_nnue(bool on) {
    if (searching()) return "not while searching";
    if (on && !loaded_net_ && !nnue::default_network())
        return "this build has no network built in: give one with EvalFile";
    use_nnue_ = on;
    apply_network();
    return std::nullopt;
}

std::optional<std::string> Engine::set_eval_file(const std::string& path) {
    return load_network(path, loaded_net_);
}

std::optional<std::string> Engine::set_eval_file_three(const std::string& path) {
    return load_network(path, loaded_net_three_);
}

std::optional<std::string> Engine::load_network(const std::string& path,
                                                const nnue::Network*& slot) {
    if (searching()) return "not while searching";
    if (path.empty() || path == "<built-in>") {
        slot = nullptr;
    } else {
        auto r = nnue::Network::read_file(path);
        if (auto* err = std::get_if<std::string>(&r)) return *err;
        static std::mutex m;
        static std::vector<std::unique_ptr<nnue::Network>> kept;  // see loaded_net_
        std::lock_guard lock(m);
        kept.push_back(std::move(std::get<std::unique_ptr<nnue::Network>>(r)));
        slot = kept.back().get();
    }
    apply_network();
    return std::nullopt;
}

Engine::~Engine() {
    halt();
}

void Engine::halt() {
    blind_.stop();
    searcher_.stop();
    blind_.wait();
    searcher_.wait();
}

std::optional<std::string> Engine::set_hash(int mib) {
    if (searching()) return "cannot resize the hash while searching";
    try {
        tt_.resize(std::size_t(mib));
    } catch (const std::bad_alloc&) {
        return "cannot allocate " + std::to_string(mib) + " MiB for the hash; kept " +
               std::to_string(tt_.size_mib()) + " MiB";
    }
    return std::nullopt;
}

void Engine::clear_hash() {
    tt_.clear();
}

std::optional<std::string> Engine::set_rules(const Rules& r) {
    Position p;
    if (auto err = p.set(pos_.fen(), r)) {
        pos_ = Position(players_, r);
        rules_ = r;
        return "the current position is not valid under the new rules (" + *err +
               "); reset to the start position";
    }
    rules_ = r;
    pos_ = p;           // history is dropped: the rules changed
    if (blind_view_) {  // a view is read under the rules it was given with
        blind_view_.reset();
        pos_ = Position(players_, r);
        return "the blind view was dropped (the rules changed); reset to the start position";
    }
    return std::nullopt;
}

std::optional<std::string> Engine::set_position(const std::optional<std::string>& fen,
                                                const std::vector<std::string>& moves) {
    Position p(players_, rules_);
    if (fen)
        if (auto err = p.set(*fen, rules_)) return "position: " + *err;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        // SPEC 7: in a three-player game a player to move with no legal move is out; a
        // move list cannot say so, so the removal is applied here before the next move.
        while (p.players() == 3 && p.phase() == Phase::Play && !p.game_over() &&
               p.players_in() > 1 && !has_legal_move(p))
            p.eliminate_to_move();
        auto r = parse_played_move(p, moves[i]);  // Kinta: with the attack's outcome
        if (auto* err = std::get_if<std::string>(&r))
            return "moves: move " + std::to_string(i + 1) + " " + *err;
        p.do_move(std::get<Move>(r));
    }
    pos_ = std::move(p);
    blind_view_.reset();
    return std::nullopt;
}

std::optional<std::string> Engine::set_blind_position(Colour viewer,
                                                      const std::optional<std::string>& fen,
                                                      const std::vector<std::string>& tokens,
                                                      const std::vector<std::string>& refused) {
    if (!rules_.blind)
        return "position blind: the Blind option is off (setoption name Blind value true)";
    Position start(players_, rules_);
    if (fen)
        if (auto err = start.set(*fen, rules_)) return "position: " + *err;
    auto v = blind::View::parse(viewer, start, tokens, refused);
    if (auto* err = std::get_if<std::string>(&v)) return "position blind: " + *err;
    blind_view_ = std::move(std::get<blind::View>(v));
    pos_ = blind_view_->position();
    return std::nullopt;
}

Move Engine::baseline_move(const MoveList& legal) {
    auto next = [&] {  // xorshift64*
        rng_state_ ^= rng_state_ >> 12;
        rng_state_ ^= rng_state_ << 25;
        rng_state_ ^= rng_state_ >> 27;
        return rng_state_ * 0x2545F4914F6CDD1DULL;
    };
    if (baseline_ == Baseline::Random) return legal.moves[next() % legal.size];
    // Greedy: one ply, best static evaluation for the mover, heart captures first.
    Position p = pos_;
    const Colour us = p.to_move();
    Move best;
    int best_score = -eval::kInfinite;
    for (Move m : legal) {
        p.do_move(m);
        int s = p.hearts_on_board() < pos_.hearts_on_board() ? eval::kMate : eval::evaluate(p, us);
        s += int(next() % 7);  // break ties at random
        p.undo_move();
        if (s > best_score) {
            best_score = s;
            best = m;
        }
    }
    return best;
}

void Engine::go(const SearchLimits& limits) {
    if (baseline_ != Baseline::Normal && limits.perft == 0) {
        MoveList legal;
        generate_legal(pos_, legal);
        if (blind_view_) {  // the proposals left: legal in the view, not refused (SPEC 25)
            legal.size = 0;
            for (Move m : blind_view_->proposals()) legal.push(m);
        }
        halt();
        if (legal.size == 0 || pos_.game_over()) {
            if (callbacks_.on_string) callbacks_.on_string("no legal move");
            if (callbacks_.on_bestmove) callbacks_.on_bestmove(Move(), Move());
            return;
        }
        Move m = baseline_move(legal);
        if (callbacks_.on_bestmove) callbacks_.on_bestmove(m, Move());
        return;
    }
    halt();
    apply_network();  // the level in force may have changed while a search ran
    if (blind_view_) {
        blind_.start(*blind_view_, limits, settings_, blind_params_, callbacks_);
        return;
    }
    searcher_.start(pos_, limits, settings_, callbacks_);
}

void Engine::new_game() {
    halt();
    tt_.clear();
    searcher_.clear();
    blind_.clear();
}

std::vector<std::pair<std::string, std::uint64_t>> Engine::perft(Position root, int depth,
                                                                 const std::atomic<bool>* stop) {
    return perft_divide(root, depth, stop);
}

const std::vector<std::pair<std::string, int>>& Engine::bench_positions() {
    static const std::vector<std::pair<std::string, int>> positions = {
        {kStartFen2, 2},
        {kStartFen3, 2},
        {"2 Qi77,Rg58,Bg79,Ni99,Nh89,Pi88,Ph68,Ph67,Wi89 Qg25,Rf14,Bh13,Ni12,Ni11,Pi34,Ph45,"
         "Pf15,Wg24 - g heart 0 1",
         5},
        {"2 Hg68,Rh78,Bh89,Ni89,Nf69,Pi66,Ph67,Pg79,Wi77 Hg24,Qh56,Rh34,Be38,Nf26,Pi11,Ph24,"
         "Ph23,Wh12 - b play 24 16",
         7},
        {"2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,"
         "Ph24,Ph12,Pf26,Wi44 - b play 17 9",
         7},
        {"2 Hi88,Qg79,Rg57,Bh68,Nh78,Nf37,Pi88,Pf48,Pe59,Wg58 Hf14,Qi23,Rf26,Bh35,Ni44,Nd38,"
         "Pg25,Pg24,Pf14,Wh13 - b play 9 5",
         7},
        {"3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,"
         "Pi45,Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2",
         3},
        {"3 Hh67,Qg79,Rf69,Bh89,Nh79,Nh35,Pi67,Ph67,Pg58,Wg47 Hf25,Qi33,Rh24,Bf14,Ni12,Ng25,"
         "Pi44,Ph23,Pf15,Wi23 Hd38,Qb19,Rd17,Bc28,Ne27,Nb18,Pf37,Pd39,Pd16,Wc18 b play 4 2",
         3},
    };
    return positions;
}

BenchResult Engine::bench(int depth, const std::atomic<bool>* stop, int threads,
                          std::vector<std::pair<std::string, int>> positions) {
    if (positions.empty()) positions = bench_positions();
    std::vector<Position> roots(positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        if (auto err = roots[i].set(positions[i].first, Rules{}))
            throw std::invalid_argument("bench position " + std::to_string(i + 1) + ": " + *err);
    BenchResult r;
    SearchSettings s = settings_;
    s.threads = std::max(1, threads);
    auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        if (stop && stop->load()) break;
        tt_.clear();
        searcher_.clear();
        SearchLimits lim;
        lim.depth = depth > 0 ? depth : positions[i].second;
        std::uint64_t n = searcher_.search_sync(roots[i], lim, s, {}, stop);
        r.per_position.emplace_back(positions[i].first, n);
        r.nodes += n;
    }
    r.ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    tt_.clear();
    return r;
}

std::vector<std::pair<std::string, int>> Engine::read_bench_file(const std::string& path,
                                                                 int default_depth) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read bench file '" + path + "'");
    std::vector<std::pair<std::string, int>> out;
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        int d = default_depth;
        std::string fen = line;
        if (auto semi = line.find(';'); semi != std::string::npos) {
            fen = line.substr(0, semi);
            std::istringstream rest(line.substr(semi + 1));
            std::string word;
            if (!(rest >> word >> d) || word != "depth" || d < 1 || d > 30)
                throw std::invalid_argument(path + " line " + std::to_string(n) +
                                            ": expected '; depth N' (N in 1..30)");
        }
        while (!fen.empty() && (fen.back() == ' ' || fen.back() == '\r')) fen.pop_back();
        Position p;
        if (auto err = p.set(fen.substr(first), Rules{}))
            throw std::invalid_argument(path + " line " + std::to_string(n) + ": " + *err);
        out.emplace_back(fen.substr(first), d);
    }
    if (out.empty()) throw std::invalid_argument(path + ": no positions");
    return out;
}

void Engine::analyse(const Position& pos, const SearchLimits& limits, SearchCallbacks cb) {
    SearchSettings s = settings_;
    searcher_.search_sync(pos, limits, s, std::move(cb));
}

}  // namespace klinzha
