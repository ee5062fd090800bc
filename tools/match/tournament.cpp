// tools/match/tournament.cpp: see tournament.h.
#include "tournament.h"

#include "engine/clouds.h"
#include "italian.h"
#include "state.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace klinzha::match {

namespace {

/// The groups of engines that meet: pairs (two players) or triples (three players; with
/// two engines the triples A A B and A B B).
std::vector<std::vector<int>> groups(int players, int engines, bool gauntlet) {
    std::vector<std::vector<int>> g;
    const int first_end = gauntlet ? std::min(engines, 1) : engines;  // the gauntlet's runner
    if (players == 2) {
        for (int i = 0; i < first_end; ++i)
            for (int j = i + 1; j < engines; ++j) g.push_back({i, j});
    } else if (engines == 2) {
        g = {{0, 0, 1}, {0, 1, 1}};
    } else {
        for (int i = 0; i < first_end; ++i)
            for (int j = i + 1; j < engines; ++j)
                for (int k = j + 1; k < engines; ++k) g.push_back({i, j, k});
    }
    return g;
}
}  // namespace

int schedule_size(int players, int engines, int games_per_group, bool gauntlet) {
    return int(groups(players, engines, gauntlet).size()) * games_per_group;
}

std::array<int, kColours> seating(int index, int players, int engines, int games_per_group,
                                  bool gauntlet) {
    auto gs = groups(players, engines, gauntlet);
    const auto& g = gs[std::size_t(index / games_per_group) % gs.size()];
    int k = index % games_per_group;
    std::array<int, kColours> seat{-1, -1, -1};
    if (players == 2) {
        seat[0] = g[k % 2];
        seat[1] = g[1 - k % 2];
    } else {
        static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                        {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
        for (int c = 0; c < 3; ++c) seat[c] = g[perms[k % 6][c]];
    }
    return seat;
}

Tournament::Tournament(TournamentConfig cfg, std::ostream& out, Factory factory)
    : cfg_(std::move(cfg)), out_(out), factory_(std::move(factory)) {
    if (!factory_)
        factory_ = [](const EngineSpec& s) { return std::make_unique<ProcessPlayer>(s); };
    total_ = schedule_size(cfg_.game.players, int(cfg_.engines.size()), cfg_.games, cfg_.gauntlet);
    finished_.assign(std::size_t(total_), false);
    if (!cfg_.shard.empty()) {
        const auto slash = cfg_.shard.find('/');
        shard_k_ = std::stoi(cfg_.shard.substr(0, slash));
        shard_n_ = std::stoi(cfg_.shard.substr(slash + 1));
    }
    // Output files must be writable before the first game (issue 11): fail now, not later.
    if (!cfg_.pgn_path.empty()) {
        std::ofstream probe(cfg_.pgn_path, std::ios::app);
        if (!probe) throw std::runtime_error("-pgnout: cannot write '" + cfg_.pgn_path + "'");
    }
    if (!cfg_.state_path.empty()) {
        const auto settings = settings_json(cfg_);
        if (auto st = read_state(cfg_.state_path)) {
            if (auto diff = settings_difference(st->settings, settings); !diff.empty())
                throw std::runtime_error("-state: '" + cfg_.state_path +
                                         "' was written by a match with other settings (" + diff +
                                         "); give another -state file to start afresh");
            if (st->shard != cfg_.shard)
                throw std::runtime_error("-state: '" + cfg_.state_path + "' is of shard '" +
                                         st->shard + "', not '" + cfg_.shard + "'");
            for (const auto& w : st->warnings) out_ << "State file: " << w << std::endl;
            for (const auto& g : st->games) {
                if (finished_[std::size_t(g.index)] || !in_shard(g.index)) continue;
                finished_[std::size_t(g.index)] = true;
                done_.push_back(g);
            }
        }
        if (auto err = open_state(cfg_.state_path, settings, cfg_.shard))
            throw std::runtime_error("-state: " + *err);
        if (!done_.empty())
            out_ << "Resuming: " << done_.size() << " of " << games_to_play()
                 << " games already played" << std::endl;
    }
}

int Tournament::games_to_play() const {
    int n = 0;
    for (int i = 0; i < total_; ++i) n += in_shard(i);
    return n;
}

void Tournament::add_results(const std::vector<GameSummary>& games) {
    std::lock_guard lock(mutex_);
    for (const auto& g : games) {
        if (g.index < 0 || g.index >= total_ || finished_[std::size_t(g.index)])
            throw std::runtime_error("game " + std::to_string(g.index + 1) +
                                     " appears twice (overlapping shards?)");
        finished_[std::size_t(g.index)] = true;
        done_.push_back(g);
    }
}

std::vector<GameSummary> Tournament::run() {
    started_ = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int i = 0; i < std::max(1, cfg_.concurrency); ++i)
        threads.emplace_back([this] { worker(); });
    for (auto& t : threads) t.join();
    std::lock_guard lock(mutex_);
    return done_;
}

void Tournament::worker() {
    std::vector<std::unique_ptr<Player>> players;  // one per engine, this thread's own
    for (const auto& e : cfg_.engines) players.push_back(factory_(e));
    while (!stop_) {
        int idx = next_.fetch_add(1);
        if (idx >= total_) break;
        if (!in_shard(idx)) continue;  // another shard plays it (-shard K/N)
        {
            std::lock_guard lock(mutex_);
            if (finished_[std::size_t(idx)]) continue;
        }
        auto seat =
            seating(idx, cfg_.game.players, int(cfg_.engines.size()), cfg_.games, cfg_.gauntlet);
        GameConfig gc = cfg_.game;
        if (!cfg_.setups.empty())
            gc.start_fen = cfg_.setups[std::size_t(idx / 2) % cfg_.setups.size()];
        if (!cfg_.blind_openings.empty()) {
            const auto& o = cfg_.blind_openings[std::size_t(idx / 2) % cfg_.blind_openings.size()];
            gc.start_fen = o.start;
            gc.history = o.history;
        }
        if (cfg_.clouds_hi > 0) {  // SPEC 16: the same clouds for every game of a group
            const int group = idx / (gc.players == 3 ? 6 : 2);
            const std::string field = clouds_field(draw_clouds(
                cfg_.cloud_seed + std::uint64_t(group), cfg_.clouds_lo, cfg_.clouds_hi));
            if (gc.start_fen.empty()) gc.start_fen = gc.players == 3 ? kStartFen3 : kStartFen2;
            if (!field.empty()) gc.start_fen += " " + field;
        }
        gc.dice_seed = cfg_.dice_seed + std::uint64_t(idx / (gc.players == 3 ? 6 : 2));
        for (int c = 0; c < gc.players; ++c) {
            const auto e = std::size_t(seat[c]);
            if (e < cfg_.engine_tc.size()) gc.seat_tc[c] = cfg_.engine_tc[e];
            if (cfg_.engines[e].depth || cfg_.engines[e].nodes) {  // a fixed search wins
                TimeControl fixed;
                fixed.depth = cfg_.engines[e].depth;
                fixed.nodes = cfg_.engines[e].nodes;
                gc.seat_tc[c] = fixed;
            }
        }
        // Three-player games with one engine in two seats need a second instance.
        std::vector<std::unique_ptr<Player>> extra;
        std::vector<Player*> seats;
        for (int c = 0; c < gc.players; ++c) {
            Player* p = players[std::size_t(seat[c])].get();
            if (std::find(seats.begin(), seats.end(), p) != seats.end()) {
                extra.push_back(factory_(cfg_.engines[std::size_t(seat[c])]));
                p = extra.back().get();
            }
            seats.push_back(p);
        }
        gc.recover = cfg_.recover;
        gc.abandon = &abandon_;
        {
            std::lock_guard lock(mutex_);
            out_ << "Started game " << idx + 1 << " of " << total_ << " (";
            for (int c = 0; c < gc.players; ++c)
                out_ << (c ? " vs " : "") << cfg_.engines[std::size_t(seat[c])].name;
            out_ << ")" << std::endl;
        }
        ++running_;
        std::vector<GameRecord> bout;
        std::string kind;
        if (cfg_.italian) {
            ItalianBout b = play_italian(seats, gc, cfg_.fate_seed + std::uint64_t(idx));
            bout = std::move(b.games);
            kind = to_string(b.kind);
            if (!b.aborted.empty() || bout.empty()) {
                bout.emplace_back();
                bout.back().aborted = b.aborted.empty() ? "no game" : b.aborted;
            }
        } else {
            bout.push_back(play_game(seats, gc));
        }
        --running_;
        const GameRecord& g = bout.back();
        if (!g.aborted.empty()) {
            std::lock_guard lock(mutex_);
            if (!abandon_ && error_.empty()) {  // an engine that cannot start stops the match
                error_ = "game " + std::to_string(idx + 1) + ": " + g.aborted;
                out_ << "Error: " << error_ << "; stopping the match" << std::endl;
            }
            stop_ = true;
            continue;
        }
        GameSummary s;
        s.index = idx;
        s.players = gc.players;
        s.termination = g.termination;
        s.italian = kind;
        for (int c = 0; c < gc.players; ++c) {
            s.engine[c] = seat[c];
            s.outcome[c] = g.outcome[c];
            s.rh[c] = g.rh_points(Colour(c));
            s.kz[c] = g.kz_points(Colour(c));
            s.refused[c] = g.refusals[c];
        }
        record(bout, s);
    }
}

void Tournament::record(const std::vector<GameRecord>& games, const GameSummary& s) {
    std::lock_guard lock(mutex_);
    const GameRecord& g = games.back();
    finished_[std::size_t(s.index)] = true;
    done_.push_back(s);
    for (const auto& one : games)
        fights_.insert(fights_.end(), one.fights.begin(), one.fights.end());
    // A write that fails stops the run with an error; what was recorded before stays.
    auto fail = [&](const std::string& why) {
        if (error_.empty()) {
            error_ = why;
            out_ << "Error: " << why << "; stopping the match" << std::endl;
        }
        stop_ = true;
    };
    if (!cfg_.pgn_path.empty()) {
        std::ofstream pgn(cfg_.pgn_path, std::ios::app);
        for (const auto& one : games) {
            GameConfig gc = cfg_.game;
            gc.start_fen = one.start_fen;
            pgn << to_pgn(one, gc, s.index + 1, cfg_.event);
        }
        pgn << std::flush;
        if (!pgn) fail("-pgnout: writing '" + cfg_.pgn_path + "' failed");
    }
    if (!cfg_.state_path.empty())
        if (auto err = append_game(cfg_.state_path, s)) fail("-state: " + *err);
    out_ << "Finished game " << s.index + 1 << " of " << total_ << " (";
    for (int c = 0; c < s.players; ++c)
        out_ << (c ? " vs " : "") << cfg_.engines[std::size_t(s.engine[c])].name;
    out_ << "): " << g.result() << " {" << g.termination << "}";
    if (!s.italian.empty()) out_ << " [Italian: " << s.italian << "]";
    if (s.players == 3) {  // the three-part result spelled out, colour by colour
        out_ << " (";
        for (int c = 0; c < 3; ++c)
            out_ << (c ? ", " : "") << kColourWord[std::size_t(c)] << " "
                 << (s.outcome[c] == Outcome::Win    ? "wins"
                     : s.outcome[c] == Outcome::Draw ? "draws"
                                                     : "loses");
        out_ << ")";
    }
    // Time left: the pace of the games finished in this run, for the games still to play.
    ++finished_this_run_;
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    const int left = games_to_play() - int(done_.size());
    if (left > 0 && finished_this_run_ > 0) {
        const long eta = long(secs / finished_this_run_ * left);
        out_ << "  [" << done_.size() << "/" << games_to_play() << ", about " << eta / 3600 << "h"
             << (eta / 60) % 60 << "m" << eta % 60 << "s left]";
    }
    out_ << std::endl;
    if (cfg_.report_every > 0 && int(done_.size()) % cfg_.report_every == 0 &&
        cfg_.engines.size() == 2 && cfg_.game.players == 2)
        out_ << rating_lines() << std::flush;
    if (cfg_.sprt) {
        const double llr = cfg_.sprt->llr(pentanomial());
        std::string d = cfg_.sprt->decision(llr);
        if (!d.empty() && !stop_) {
            out_ << "SPRT: " << d << " accepted (LLR " << std::setprecision(3) << llr
                 << std::defaultfloat << ")" << std::endl;
            stop_ = true;
        }
    }
}

std::string Tournament::rating_lines() const {
    const auto t = trinomial();
    const auto p = pentanomial();
    // Pairs when there are two or more, else single games (fastchess prints the same).
    const auto e = p.n() >= 2 ? elo_estimate(p) : elo_estimate(t);
    std::ostringstream o;
    char buf[256];
    std::snprintf(buf, sizeof buf, "Results of %s vs %s: %lld - %lld - %lld [%.3f] %lld\n",
                  cfg_.engines[0].name.c_str(), cfg_.engines[1].name.c_str(), t.w, t.l, t.d,
                  t.n() ? (t.w + 0.5 * t.d) / double(t.n()) : 0.5, t.n());
    o << buf << "Elo: " << e.describe();
    if (e.finite) {
        std::snprintf(buf, sizeof buf, ", nElo: %+.1f +/- %.1f\nLOS: %.2f %%", e.nelo, e.nelo_error,
                      100 * e.los);
        o << buf;
    }
    std::snprintf(buf, sizeof buf, ", DrawRatio: %.1f %%, %s\n",
                  t.n() ? 100.0 * double(t.d) / double(t.n()) : 0.0,
                  p.n() >= 2 ? "from game pairs (pentanomial)" : "from single games");
    o << buf;
    std::snprintf(buf, sizeof buf, "Ptnml(0-2): [%lld, %lld, %lld, %lld, %lld]\n", p.c[0], p.c[1],
                  p.c[2], p.c[3], p.c[4]);
    o << buf;
    if (cfg_.sprt) {
        const double llr = cfg_.sprt->llr(p);
        const std::string d = cfg_.sprt->decision(llr);
        std::snprintf(
            buf, sizeof buf, "LLR: %.2f (%.2f, %.2f) [%.2f, %.2f] alpha %.3f beta %.3f: %s\n", llr,
            cfg_.sprt->lower(), cfg_.sprt->upper(), cfg_.sprt->elo0, cfg_.sprt->elo1,
            cfg_.sprt->alpha, cfg_.sprt->beta, d.empty() ? "continue" : (d + " accepted").c_str());
        o << buf;
    }
    return o.str();
}

std::string Tournament::rating_table() const {
    const int n = int(cfg_.engines.size());
    if (n < 2) return "";
    std::vector<PairResult> results;
    auto rank = [](Outcome o) { return o == Outcome::Win ? 2 : o == Outcome::Draw ? 1 : 0; };
    for (const auto& s : done_)
        for (int i = 0; i < s.players; ++i)
            for (int j = i + 1; j < s.players; ++j) {
                if (s.engine[i] == s.engine[j]) continue;
                const int a = rank(s.outcome[i]), b = rank(s.outcome[j]);
                results.push_back({s.engine[i], s.engine[j], a > b ? 1.0 : a < b ? 0.0 : 0.5});
            }
    std::ostringstream o;
    o << "Rating list (maximum likelihood, the pool's mean 0; "
      << (cfg_.game.players == 3 ? "three-player games as the pairwise results they imply"
                                 : "one result per game")
      << "):\n";
    char buf[160];
    std::snprintf(buf, sizeof buf, "%4s %-16s %8s %20s %8s %7s\n", "rank", "engine", "Elo",
                  "95% interval", "results", "score");
    o << buf;
    int rank_no = 0;
    for (const Rating& r : rating_list(n, results)) {
        char elo[32], interval[48];
        if (r.finite) {
            std::snprintf(elo, sizeof elo, "%+.1f", r.elo);
            std::snprintf(interval, sizeof interval, "%+.1f to %+.1f", r.lo, r.hi);
        } else {
            std::snprintf(elo, sizeof elo, "%s",
                          r.games == 0 ? "n/a"
                          : r.elo > 0  ? "+inf"
                                       : "-inf");
            std::snprintf(interval, sizeof interval, "-");
        }
        std::snprintf(buf, sizeof buf, "%4d %-16s %8s %20s %8lld %6.1f%%\n", ++rank_no,
                      cfg_.engines[std::size_t(r.engine)].name.substr(0, 16).c_str(), elo, interval,
                      r.games, 100 * r.score);
        o << buf;
    }
    return o.str();
}

Trinomial Tournament::trinomial() const {
    Trinomial t;  // from engine 0's point of view, two-player games
    for (const auto& s : done_) {
        if (s.players != 2) continue;
        int c0 = s.engine[0] == 0 ? 0 : 1;
        Outcome o = s.outcome[c0];
        (o == Outcome::Win ? t.w : o == Outcome::Loss ? t.l : t.d)++;
    }
    return t;
}

Pentanomial Tournament::pentanomial() const {
    Pentanomial p;  // pairs 2k, 2k+1 (same setup, colours swapped), engine 0's view
    std::map<int, std::vector<double>> pairs;
    for (const auto& s : done_) {
        if (s.players != 2) continue;
        int c0 = s.engine[0] == 0 ? 0 : 1;
        double pts = s.outcome[c0] == Outcome::Win ? 1 : s.outcome[c0] == Outcome::Draw ? 0.5 : 0;
        pairs[s.index / 2].push_back(pts);
    }
    for (auto& [k, v] : pairs)
        if (v.size() == 2) p.c[std::size_t((v[0] + v[1]) * 2 + 0.5)]++;
    return p;
}

double Tournament::sprt_llr() const {
    std::lock_guard lock(mutex_);
    return cfg_.sprt ? cfg_.sprt->llr(pentanomial()) : 0;
}

std::string Tournament::sprt_decision() const {
    std::lock_guard lock(mutex_);
    return cfg_.sprt ? cfg_.sprt->decision(cfg_.sprt->llr(pentanomial())) : "";
}

int Tournament::finished() const {
    std::lock_guard lock(mutex_);
    return int(done_.size());
}

std::string Tournament::standings() const {
    std::ostringstream o;
    const int n = int(cfg_.engines.size());
    struct Row {
        int games = 0, seats = 0, w = 0, d = 0, l = 0, rh = 0, refused = 0;
        int last_game = -1;  // counts a game once when the engine holds two seats of it
        double kz = 0;
        std::array<std::array<int, 3>, kColours> seat{};  // per colour: w d l
    };
    std::vector<Row> rows(static_cast<std::size_t>(n));
    for (const auto& s : done_)
        for (int c = 0; c < s.players; ++c) {
            Row& r = rows[std::size_t(s.engine[c])];
            r.seats++;
            if (r.last_game != s.index) r.games++;
            r.last_game = s.index;
            int k = s.outcome[c] == Outcome::Win ? 0 : s.outcome[c] == Outcome::Draw ? 1 : 2;
            (k == 0 ? r.w : k == 1 ? r.d : r.l)++;
            r.seat[c][std::size_t(k)]++;
            r.rh += s.rh[c];
            r.kz += s.kz[c];
            r.refused += s.refused[c];
        }
    const bool blind = cfg_.game.rules.effective(cfg_.game.players).blind;
    char buf[256];
    // Three players: an engine may hold two seats of one game (A A B): `games` counts games,
    // `seats` the seats held, and wins/draws/losses and the score are per seat.
    const bool three = cfg_.game.players == 3;
    std::snprintf(buf, sizeof buf, "%-16s %6s", "engine", "games");
    o << buf;
    if (three) o << "  seats";
    std::snprintf(buf, sizeof buf, " %6s %6s %6s %7s", "wins", "draws", "losses", "score");
    o << buf;
    o << "  RH11.1  KZ10.1";           // both scorings, for two and three players
    if (blind) o << "  refused/game";  // SPEC 25: proposals the arbiter refused, per seat
    o << "   as green (w-d-l)   as blue (w-d-l)";
    if (cfg_.game.players == 3) o << "   as black (w-d-l)";
    o << '\n';
    for (int i = 0; i < n; ++i) {
        const Row& r = rows[std::size_t(i)];
        double score = r.seats ? (r.w + 0.5 * r.d) / r.seats : 0;
        std::snprintf(buf, sizeof buf, "%-16s %6d",
                      cfg_.engines[std::size_t(i)].name.substr(0, 16).c_str(), r.games);
        o << buf;
        if (three) {
            std::snprintf(buf, sizeof buf, " %6d", r.seats);
            o << buf;
        }
        std::snprintf(buf, sizeof buf, " %6d %6d %6d %6.1f%%", r.w, r.d, r.l, 100 * score);
        o << buf;
        std::snprintf(buf, sizeof buf, "  %6d  %6.1f", r.rh, r.kz);
        o << buf;
        if (blind) {
            std::snprintf(buf, sizeof buf, "  %12.2f", r.seats ? double(r.refused) / r.seats : 0.0);
            o << buf;
        }
        for (int c = 0; c < cfg_.game.players; ++c) {
            std::snprintf(buf, sizeof buf, "   %5d-%d-%-5d   ", r.seat[c][0], r.seat[c][1],
                          r.seat[c][2]);
            o << buf;
        }
        o << '\n';
    }
    return o.str();
}

std::string Tournament::italian_table() const {
    std::ostringstream o;
    o << "Italian results (wins: outright, tally, BACH'SAN, without honour):\n";
    for (std::size_t e = 0; e < cfg_.engines.size(); ++e) {
        std::map<std::string, int> by;
        for (const auto& s : done_)
            for (int c = 0; c < s.players; ++c)
                if (s.engine[c] == int(e) && s.outcome[c] == Outcome::Win) by[s.italian]++;
        char line[160];
        std::snprintf(line, sizeof line, "  %-16s %6d %6d %9d %15d\n", cfg_.engines[e].name.c_str(),
                      by[to_string(ItalianKind::Outright)], by[to_string(ItalianKind::Tally)],
                      by[to_string(ItalianKind::BachSan)],
                      by[to_string(ItalianKind::WithoutHonour)]);
        o << line;
    }
    return o.str();
}

std::string Tournament::fights_table() const {
    std::ostringstream o;
    char buf[256];
    o << "Fights: " << fights_.size()
      << " (decile of predicted win probability: fights, predicted, observed)\n";
    std::array<int, 10> fn{}, won{};
    std::array<double, 10> pred{};
    for (auto [p, w] : fights_) {
        const auto k = std::size_t(std::clamp(int(p * 10), 0, 9));
        ++fn[k];
        won[k] += w;
        pred[k] += p;
    }
    for (std::size_t k = 0; k < 10; ++k)
        if (fn[k]) {
            std::snprintf(buf, sizeof buf, "  %.1f-%.1f  %5d  %.3f  %.3f\n", double(k) / 10,
                          double(k + 1) / 10, fn[k], pred[k] / fn[k], double(won[k]) / fn[k]);
            o << buf;
        }
    return o.str();
}

std::string Tournament::table() const {
    std::lock_guard lock(mutex_);
    const int n = int(cfg_.engines.size());
    std::ostringstream o;
    o << standings();
    if (n == 2 && cfg_.game.players == 2) o << rating_lines();
    if (n > 2) o << rating_table();
    std::map<std::string, int> terms;
    for (const auto& s : done_) terms[s.termination]++;
    if (cfg_.italian) o << italian_table();
    o << "Terminations:";
    for (auto& [t, c] : terms) o << "  " << c << " x " << (t.empty() ? "?" : t);
    o << '\n';
    if (!fights_.empty()) o << fights_table();
    return o.str();
}

}  // namespace klinzha::match
