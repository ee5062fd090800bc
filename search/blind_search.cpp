// search/blind_search.cpp: see blind_search.h. Source: SPEC 25.
#include "blind_search.h"

#include "blind_tour.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include <spdlog/spdlog.h>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "eval/evaluate.h"
#include "timeman.h"

namespace klinzha {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

/// The depth of each board's search: `go depth N`'s N, 8 under `go infinite`, else 0 (the
/// proposal's time decides).
int board_depth(const SearchLimits& limits) {
    return limits.depth ? limits.depth : (limits.infinite ? 8 : 0);
}

/// How open `us`'s heart is in a view (SPEC 25: the others' men unseen): for each kind of
/// opposing piece, the cells from which one such piece could take the heart, given only our
/// own men (they block paths and cannot be stood on) and our walls' zones (no opposing piece
/// may cross or stand in them, SPEC 5), times `count[t]`, the number of such opposing pieces
/// expected (the belief's mean), over the 81 cells: about the expected number of opposing men
/// that could take the heart, were they placed at random. 0 when it is shut in.
double exposure(const Position& v, Colour us, const std::array<double, kPieceTypes>& count) {
    const Cell h = v.heart(us);
    if (h == NO_CELL) return 0;
    const Bitboard own = v.pieces(us);
    const Bitboard block = own | v.zones(us);
    const bool carried = test(own, h);
    double sum = 0;
    for (int t = 0; t < kPieceTypes; ++t) {
        if (t == WALL && carried) continue;  // a wall takes a heart standing alone only (SPEC 4)
        const geo::PathClass pc = path_class(PieceType(t), v.rules());
        Bitboard from = 0;
        for (const geo::PathEntry& e : geo::paths(pc, h))
            if (t == KNIGHT || !(e.mid & block)) from |= bit(e.dest);
        sum += count[std::size_t(t)] * popcount(from & ~block & ~v.clouds());
    }
    return sum / kCells;
}

}  // namespace

int BlindSearch::weigh(int score) {
    if (std::abs(score) >= eval::kMateBound) {
        const int plies = eval::kMate - std::abs(score);
        return (score > 0 ? 1 : -1) * (kTakesHeartNow + 1 - std::min(plies, 200));
    }
    return std::clamp(score, -1000, 1000);
}

namespace {

/// Whether the opponent surely has no carrier left in the two-player view `view` after its
/// first `observed` observations: our moves among them took as many men as its set holds
/// besides its walls (kSetSize; walls are never taken, SPEC 3, and carry nothing but under Kinta,
/// SPEC 26), so it has only walls. In three players the others' captures go untold (SPEC 25)
/// and men change hands with a heart, so never there. Raises nothing.
bool no_carrier_for_sure(const blind::View& view, int observed) {
    const Position& v = view.position();
    if (v.players() != 2 || v.is_carrier_type(WALL)) return false;
    const auto& history = view.history();
    int taken = 0;
    for (int j = 0; j < std::min<int>(observed, int(history.size())); ++j) {
        const blind::Observation& o = history[std::size_t(j)];
        taken += o.kind == blind::Observation::Kind::Own && o.took == blind::Observation::Took::Man;
    }
    return taken >= kSetSize - kSetCount[WALL];
}

/// Whether the hunt (Belief::hunt_from) is BlindSearch::kLongHunt plies old or more.
bool long_hunt(const Belief& belief) {
    return belief.hunt_from() >= 0 &&
           belief.observed() - belief.hunt_from() >= BlindSearch::kLongHunt;
}

}  // namespace

int BlindSearch::explore_since(const Belief& belief, const blind::View& view) {
    const int window = belief.observed() - kExploreWindow;
    const Position& v = view.position();
    const Colour us = view.viewer();
    const auto& history = view.history();
    int since = -(1 << 20);
    for (int c = 0; c < v.players(); ++c) {
        if (c == us || !v.is_in(Colour(c))) continue;
        bool carriers = belief.size() == 0;
        for (std::size_t i = 0; i < belief.size() && !carriers; ++i)
            carriers = belief.board(i).carriers(Colour(c)) != 0;
        int bound = window;
        if (!carriers) {
            // The last ply, among those the belief read, that could have taken a man of c's.
            int last = -1;
            for (int j = std::min<int>(belief.observed(), int(history.size())) - 1; j >= 0; --j) {
                const blind::Observation& o = history[std::size_t(j)];
                const bool own_capture = o.kind == blind::Observation::Kind::Own &&
                                         o.took != blind::Observation::Took::Nothing;
                const bool third = o.kind == blind::Observation::Kind::Other && o.mover != c;
                if (own_capture || third) {
                    last = j;
                    break;
                }
            }
            // A hunt kLongHunt plies old casts doubt on that: the boards may have lost a
            // carrier still in play, and the cells our men left just before it carried the
            // heart there would stay ruled out for good (issue 28's forty-ninth round).
            // No doubt when c can only have walls left: no carrier has been lost.
            const bool doubt = long_hunt(belief) && !no_carrier_for_sure(view, belief.observed());
            if (!doubt) bound = std::min(window, last + 1);
        }
        since = std::max(since, bound);
    }
    return since;
}

namespace {

/// The last observation at which one of our men stood on `sq` (Belief::last_stood), -1 when
/// an opposing man we took beside it since may have left its heart there.
int last_stood(const Belief& belief, Cell sq) {
    return belief.beside_taken(sq) > belief.last_stood(sq) ? -1 : belief.last_stood(sq);
}

/// Whether the hunt is BlindSearch::kLongHunt plies old or more and one of our men stood on
/// `sq` since it began: most likely after the heart was left, not before.
bool stood_in_long_hunt(const Belief& belief, Cell sq) {
    return long_hunt(belief) && last_stood(belief, sq) >= belief.hunt_from();
}

/// BlindSearch::exploration of a move to `sq`.
double cell_exploration(const Belief& belief, int since, Cell sq) {
    const int last = last_stood(belief, sq);
    // Before the window's first ply, a cell none of ours has stood on counts whole: in the
    // first plies of play a lone heart stands on such a cell of its owner's region as often
    // as on one the boards favour (issue 28's thirty-fifth round, docs/search.md).
    if (since < 0) return last < 0 ? 1.0 : 0.0;
    if (last >= since) return 0.0;
    const double e = double(since - last) / double(since + 1);
    return stood_in_long_hunt(belief, sq) ? BlindSearch::kLongHuntStood * e : e;
}

}  // namespace

double BlindSearch::exploration(const Belief& belief, int since, Move m) {
    return m.kind() == Move::Normal ? cell_exploration(belief, since, m.to()) : 0.0;
}

double BlindSearch::hunt_prior(const Rules& rules, Colour owner, Colour us, Cell sq) {
    const double p = Belief::home_prior(rules, owner)[sq];
    const int d = Belief::home_steps(rules, owner)[sq];
    if (d == 1 && test(geo::separators(), sq)) return p * kSeparatorWeight;
    for (int k = 0; k < kColours && d >= 4; ++k)
        if (k != owner && k != us && test(geo::region(Colour(k)), sq))
            return p * kThirdRegionWeight;
    return p;
}

std::array<double, kCells> BlindSearch::hunt_values(const Belief& belief, int since,
                                                    const Position& v, Colour us, double lone,
                                                    const std::array<double, kCells>& held) {
    std::array<double, kCells> home{};
    for (int c = 0; c < v.players(); ++c)
        if (c != us && v.is_in(Colour(c)))
            for (int sq = 0; sq < kCells; ++sq)
                home[std::size_t(sq)] =
                    std::max(home[std::size_t(sq)], hunt_prior(v.rules(), Colour(c), us, Cell(sq)));
    // A cell where an opposing man took ours: its taker may have brought its heart there.
    for (int sq = 0; sq < kCells; ++sq)
        if (belief.seen(Cell(sq)) >= 0) home[std::size_t(sq)] = 1.0;
    const Bitboard wall_refused = belief.wall_refused_since(since);
    std::array<double, kCells> value{};
    for (int sq = 0; sq < kCells; ++sq) {
        const double boards = 0.5 * std::min(1.0, held[std::size_t(sq)] / kHeldFull) *
                              std::pow(home[std::size_t(sq)], kBoardsPriorPower);
        // The boards already agree with every cell our men stood on (a board whose heart
        // stood there was moved or dropped), so their share counts on a cell visited since
        // `since` too: a heart may have been carried there after our man left.
        // In a long hunt, the boards' share alone on a cell stood on since it began counts
        // kLongHuntStood of itself too: most likely the heart was left before that visit.
        const double floor =
            stood_in_long_hunt(belief, Cell(sq)) ? kLongHuntStood * boards : boards;
        value[std::size_t(sq)] = lone * std::max(cell_exploration(belief, since, Cell(sq)) *
                                                     (0.5 * home[std::size_t(sq)] + boards),
                                                 floor);
        // Each refusal of a proposal to the cell halves it: the sweep's paths (our men alone
        // in the way) do not see what barred it, and would send us there again and again.
        if (const int r = belief.refused_on(Cell(sq), since))
            value[std::size_t(sq)] *= std::pow(kRefusedDecay, std::min(r, 30));
        // A wall's refused proposal beside the cell: a heart there would bar it (SPEC 5).
        if (test(wall_refused, Cell(sq))) value[std::size_t(sq)] *= kWallRefusedBoost;
    }
    return value;
}

double BlindSearch::reset_urgency(const Position& v) {
    const int limit = v.move_count_limit();
    if (limit <= 0 || v.phase() != Phase::Play) return 0.0;
    const int window = kResetMoves * v.players_in();
    return std::clamp(double(v.halfmove() - (limit - window)) / window, 0.0, 1.0);
}

int BlindSearch::heart_approaches(Position& b, Colour us, int most) {
    const Cell h = b.heart(us);
    const Colour them = b.to_move();
    if (h == NO_CELL || them == us || !b.is_in(them) || most <= 0) return 0;
    int n = 0;
    // Empty-board paths first (they are symmetric: a cell from which a man of type t reaches
    // the heart is one of the heart's destinations for t), then the rules on the board.
    const Bitboard empty = ~b.occupied() & ~bit(h) & ~b.zones(us);
    for (int t = 0; t < kPieceTypes; ++t) {
        const geo::PathClass pc = path_class(PieceType(t), b.rules());
        const Bitboard near = geo::path_destinations(pc, h) & empty;
        if (!near) continue;
        for (Bitboard men = b.pieces(them, PieceType(t)); men;) {
            const Cell from = pop_lsb(men);
            for (Bitboard to = geo::path_destinations(pc, from) & near; to;) {
                const Cell c = pop_lsb(to);
                // A carried heart blocks no path (SPEC 4): the move that carries it needs
                // trying only where leaving it is not legal.
                Move m = Move::normal(from, c);
                if (!is_legal(b, m) && !is_legal(b, m = Move::normal(from, c, true))) continue;
                b.do_move(m);
                const bool takes = test(heart_attack_lines(b, us, them), c);
                b.undo_move();
                if (takes && ++n >= most) return n;
            }
        }
    }
    return n;
}

BlindSearch::~BlindSearch() {
    stop();
    wait();
}

void BlindSearch::start(const blind::View& view, const SearchLimits& limits,
                        const SearchSettings& settings, const Params& params, SearchCallbacks cb) {
    stop();
    wait();
    stop_ = false;
    pondering_ = limits.ponder;
    running_ = true;
    thread_ = std::thread(&BlindSearch::run, this, view, limits, settings, params, std::move(cb));
}

void BlindSearch::stop() {
    stop_ = true;
    pondering_ = false;
    searcher_.stop();
}

void BlindSearch::wait() {
    if (thread_.joinable()) thread_.join();
}

namespace {

/// Step 2b's counts for one proposal over the belief's boards: boards looked at, where it is
/// legal, where it takes a heart at once, where it leaves our heart open to an opponent's
/// next move, where it threatens an opposing heart.
struct Share {
    int n = 0, legal = 0, win = 0, danger = 0, threat = 0;
    int capture = 0;  ///< boards where it takes a man (not a heart): the move count starts again
    /// the opponent's moves that approach our heart, not open now, summed over the boards,
    /// up to BlindSearch::kApproachMost a board (BlindSearch::heart_approaches)
    int approach = 0;
};

/// The opposing men expected by type: the mean over up to 128 of the belief's boards.
std::array<double, kPieceTypes> expected_men(const Belief& belief, Colour us) {
    std::array<double, kPieceTypes> expected{};
    const std::size_t nb = std::min<std::size_t>(belief.size(), 128);
    for (std::size_t i = 0; i < nb; ++i) {
        const Position& b = belief.board(i * belief.size() / nb);
        for (int c = 0; c < b.players(); ++c)
            if (c != us)
                for (int t = 0; t < kPieceTypes; ++t)
                    expected[std::size_t(t)] += popcount(b.pieces(Colour(c), PieceType(t)));
    }
    for (double& e : expected) e /= double(std::max<std::size_t>(nb, 1));
    return expected;
}

/// Step 2b: every proposal against the whole belief (up to 128 boards), one ply deep. Cheap,
/// and far less noisy than the few boards searched. Stops early when `stop` is set.
std::map<std::uint32_t, Share> belief_shares(const Belief& belief,
                                             const std::vector<Move>& proposals, Colour us,
                                             const std::atomic<bool>& stop) {
    std::map<std::uint32_t, Share> shares;
    const std::size_t nb = std::min<std::size_t>(belief.size(), 128);
    MoveList on_board;
    for (std::size_t i = 0; i < nb && !stop.load(); ++i) {
        Position b = belief.board(i * belief.size() / nb);
        generate_legal(b, on_board);
        for (Move m : proposals) {
            Share& sh = shares[m.raw()];
            ++sh.n;
            if (!on_board.contains(m)) continue;
            ++sh.legal;
            if (b.heart_victim(m) != NO_COLOUR) {
                ++sh.win;
                continue;
            }
            if (b.is_capture(m)) ++sh.capture;
            b.do_move(m);
            if (!b.game_over() && b.heart(us) != NO_CELL) {
                if (heart_attacked(b, us))
                    ++sh.danger;
                else
                    sh.approach += BlindSearch::heart_approaches(b, us, BlindSearch::kApproachMost);
            }
            // A threat: after it we could take an opposing heart on our next move.
            for (int c = 0; c < b.players(); ++c)
                if (c != us && b.heart(Colour(c)) != NO_CELL && attacks_heart(b, us, Colour(c))) {
                    ++sh.threat;
                    break;
                }
            b.undo_move();
        }
    }
    return shares;
}

/// The hunt's picture over the belief's boards (up to 128): the share of them where an
/// opposing heart stands alone, and per cell the share of those that hold one there.
struct Hunt {
    double lone = 0;
    std::array<double, kCells> held{};
};
Hunt hunt_picture(const Belief& belief, Colour us) {
    const std::size_t nb = std::min<std::size_t>(belief.size(), 128);
    Hunt hunt;
    int lone = 0;
    for (std::size_t i = 0; i < nb; ++i) {
        const Position& b = belief.board(i * belief.size() / nb);
        bool any = false;
        for (int c = 0; c < b.players(); ++c) {
            if (c != us && b.heart_alone(Colour(c))) {
                any = true;
                hunt.held[b.heart(Colour(c))] += 1.0;
            }
        }
        lone += any;
    }
    hunt.lone = nb ? double(lone) / double(nb) : 0.0;
    for (double& h : hunt.held) h = lone ? h / lone : 0.0;
    return hunt;
}

/// `klinzha --log-level debug`: how many of the belief's boards hold an opposing heart on
/// each cell (the hunt's picture), one line on standard error.
void log_hearts(const Belief& belief, Colour us) {
    if (!spdlog::should_log(spdlog::level::debug)) return;
    std::map<std::string, int> hearts;
    for (std::size_t i = 0; i < belief.size(); ++i)
        for (int c = 0; c < belief.board(i).players(); ++c)
            if (c != us && belief.board(i).heart(Colour(c)) != NO_CELL)
                ++hearts[geo::cell_name(belief.board(i).heart(Colour(c)))];
    std::string line;
    for (const auto& [cell, n] : hearts) line += " " + cell + ":" + std::to_string(n);
    spdlog::debug("blind hearts on {} boards:{}", belief.size(), line);
}

/// Step 3's boards: up to `samples` distinct boards of the belief, drawn in an order seeded
/// by the view's history (the same line gives the same answer).
std::vector<const Position*> distinct_boards(const Belief& belief, const blind::View& view,
                                             int samples) {
    std::vector<const Position*> boards;
    std::set<std::uint64_t> keys;
    std::vector<std::size_t> order(belief.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::mt19937_64 rng(0x5eedULL ^ (std::uint64_t(view.tokens().size()) << 32) ^
                        std::uint64_t(view.refused().size()));
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t i : order) {
        if (int(boards.size()) >= samples) break;
        const Position& b = belief.board(i);
        if (keys.insert(b.key()).second) boards.push_back(&b);
    }
    return boards;
}

/// Step 2's candidates: the six proposals the boards' searches voted for most, then the one
/// that takes a heart on the most boards, the one that threatens one most, the one that
/// leaves ours open least, the one whose view is least exposed, and among the proposals in
/// `novel` (BlindSearch::hunt_novelty) the one that explores most (then
/// takes a heart on the most boards, then has the most votes); with `reset` (the move-count
/// draw near: BlindSearch::reset_urgency) also the one that takes a man on the most boards.
/// (votes, proposal) pairs.
std::vector<std::pair<int, std::uint32_t>> candidates(const std::map<std::uint32_t, int>& votes,
                                                      const std::map<std::uint32_t, Share>& shares,
                                                      const std::map<std::uint32_t, double>& open,
                                                      const std::map<std::uint32_t, double>& novel,
                                                      bool reset) {
    std::vector<std::pair<int, std::uint32_t>> ranked;
    for (auto& [m, n] : votes) ranked.emplace_back(n, m);
    std::sort(ranked.rbegin(), ranked.rend());
    if (ranked.size() > 6) ranked.resize(6);
    std::uint32_t most_wins = 0, safest = 0, shut = 0, most_threats = 0, explorer = 0;
    std::uint32_t most_captures = 0;
    int wins = 0, threats = 0, captures = 0, least = 1 << 30;
    // (its exploration, boards it takes a heart on, votes)
    std::tuple<double, int, int> best_explorer{-1, -1, -1};
    double least_open = 1e9;
    for (auto& [m, sh] : shares) {
        if (const auto e = novel.find(m); sh.legal && e != novel.end()) {
            const auto v = votes.find(m);
            const std::tuple<double, int, int> key{e->second, sh.win,
                                                   v == votes.end() ? 0 : v->second};
            if (key > best_explorer) best_explorer = key, explorer = m;
        }
        if (sh.win > wins) wins = sh.win, most_wins = m;
        if (sh.threat > threats) threats = sh.threat, most_threats = m;
        if (reset && sh.capture > captures) captures = sh.capture, most_captures = m;
        const int risk = sh.danger + (sh.n - sh.legal);
        if (sh.legal && risk < least) least = risk, safest = m;
        if (sh.legal && open.at(m) < least_open) least_open = open.at(m), shut = m;
    }
    for (std::uint32_t m : {most_wins, most_threats, safest, shut, explorer, most_captures})
        if (m && std::none_of(ranked.begin(), ranked.end(), [&](auto& r) { return r.second == m; }))
            ranked.emplace_back(0, m);
    return ranked;
}

/// Step 3's value of a proposal (centi-pawns; nullopt when no board scored it): 0.75 x its
/// mean score over the boards + 0.25 x its worst, less params.refusal_cp x the share of the k
/// boards where it would be refused, with the belief's shares (wins, threats, danger) and the
/// exposure of our heart weighed by params, and `explore` (BlindSearch::exploration times the share
/// of boards with a lone opposing heart, halved when no board holds one on m's destination) times
/// params.explore_cp, and the share of boards where m takes a man times `reset`
/// (BlindSearch::reset_urgency) times params.reset_cp.
std::optional<double> proposal_value(Move m, const std::vector<BlindSearch::BoardScore>& row,
                                     const Share& sh, double open, double explore, double reset,
                                     std::size_t k, const BlindSearch::Params& params) {
    int legal_n = 0, scored_n = 0, bounded_n = 0, worst = 1 << 20;
    double sum = 0;
    for (const auto& c : row) {
        legal_n += c.legal;
        bounded_n += c.bounded;
        if (c.scored) {
            ++scored_n;
            sum += c.score;
            worst = std::min(worst, c.score);
        }
    }
    if (!scored_n) return std::nullopt;
    const double mean = sum / scored_n;
    const double n_all = std::max(1, sh.n);
    const double value = 0.75 * mean + 0.25 * worst -
                         params.refusal_cp * double(int(k) - legal_n) / double(k) +
                         params.win_cp * sh.win / n_all + params.threat_cp * sh.threat / n_all -
                         params.danger_cp * sh.danger / n_all -
                         params.approach_cp * sh.approach / n_all - params.exposure_cp * open +
                         params.explore_cp * explore + params.reset_cp * reset * sh.capture / n_all;
    // `klinzha --log-level debug`: each proposal's terms on standard error.
    spdlog::debug(
        "blind proposal {} mean {:.0f} worst {} legal {}/{} bounded {} win {} threat {} "
        "danger {} approach {} n {} open {:.2f} explore {:.2f} captures {} reset {:.2f} value "
        "{:.0f}",
        move_to_string(m), mean, worst, legal_n, int(k), bounded_n, sh.win, sh.threat, sh.danger,
        sh.approach, sh.n, open, explore, sh.capture, reset, value);
    return value;
}

/// The `info string` words on the chosen proposal's shares.
std::string share_note(const Share& sh, double open) {
    if (!sh.n) return "";
    char buf[112];
    std::snprintf(buf, sizeof buf,
                  " legal %.0f%% takes a heart %.0f%% threatens one %.0f%% heart open %.0f%% "
                  "exposure %.2f",
                  100.0 * sh.legal / sh.n, 100.0 * sh.win / sh.n, 100.0 * sh.threat / sh.n,
                  100.0 * sh.danger / sh.n, open);
    return buf;
}

}  // namespace

std::map<int, SearchInfo> BlindSearch::Turn::search(const Position& root, std::vector<Move> only,
                                                    std::int64_t ms, int depth,
                                                    std::uint64_t node_limit, int multipv) {
    SearchLimits lim;
    lim.searchmoves = std::move(only);
    if (ms >= 0) lim.movetime = std::max<std::int64_t>(1, ms);
    lim.depth = depth;
    lim.nodes = node_limit;
    SearchSettings s = settings;
    s.multipv = multipv;
    // The proposal's time (total_ms) already keeps Move Overhead in hand: a search of a board
    // is not a reply to the GUI, and losing the overhead again on each (30 ms of a board's
    // few) would leave most of them 1 ms.
    s.move_overhead_ms = 0;
    std::map<int, SearchInfo> lines;
    nodes += searcher.search_sync(root, lim, s,
                                  {[&](const SearchInfo& i) { lines[i.multipv] = i; },
                                   [](Move, Move) {},
                                   [](const std::string&) {},
                                   {}});
    return lines;
}

std::int64_t BlindSearch::Turn::left_ms() const {
    return timed ? total_ms - ms_since(t0) : std::int64_t(1) << 40;
}

void BlindSearch::finish(const Turn& t, Move best, int score, int depth, const std::string& note) {
    while ((pondering_.load() || t.limits.infinite) && !stop_.load())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!note.empty() && t.cb.on_string) t.cb.on_string(note);
    if (!best.is_none() && t.cb.on_info) {
        SearchInfo info;
        info.depth = std::max(1, depth);
        info.seldepth = info.depth;
        info.score = score;  // never a mate: nothing is sure on boards one cannot see
        info.nodes = t.nodes;
        info.time_ms = ms_since(t.t0);
        info.pv = {best};
        t.cb.on_info(info);
    }
    running_ = false;
    if (t.cb.on_bestmove) t.cb.on_bestmove(best, Move());
}

void BlindSearch::run(blind::View view, SearchLimits limits, SearchSettings settings, Params params,
                      SearchCallbacks cb) {
    Turn t{searcher_, limits, settings, params, cb};
    const Position& v = view.position();
    const std::vector<Move> proposals = view.proposals();
    if (proposals.empty()) {
        finish(t, Move(), 0, 0,
               view.over()         ? "game over for the blind player"
               : view.to_propose() ? "no proposal left: every legal move in the view was refused"
                                   : "not the blind player's turn");
        return;
    }
    const TimeBudget budget = plan_time(limits, view.viewer(), settings.move_overhead_ms,
                                        int(view.tokens().size()), v.players());
    t.timed = budget.soft_ms >= 0;
    // The time this proposal may take: the time manager's base time (soft / 0.6, within the
    // hard limit) at once, as a blind move never extends its time as a search whose best move
    // changes does; the clock runs through refusals, so each later proposal of a turn gets
    // half the time of the one before.
    const std::int64_t base_ms = std::min(budget.hard_ms, budget.soft_ms * 5 / 3);
    t.total_ms = t.timed ? std::max<std::int64_t>(
                               1, base_ms >> std::min<std::size_t>(view.refused().size(), 4))
                         : -1;
    if (proposals.size() == 1) {
        finish(t, proposals[0], 0, 1, "blind: one proposal left");
        return;
    }
    // Step 2 of the file comment: placements.
    if (v.phase() == Phase::Place || params.samples <= 0) {
        const bool planner = v.phase() == Phase::Place && view.refused().empty();
        const auto lines =
            t.search(v, planner ? std::vector<Move>{} : proposals,
                     t.timed ? std::max<std::int64_t>(1, t.total_ms) : -1,
                     limits.depth ? limits.depth : (t.timed ? 0 : 8), limits.nodes, 1);
        Move best;
        int score = 0, depth = 0;
        if (auto it = lines.find(1); it != lines.end() && !it->second.pv.empty()) {
            best = it->second.pv[0];
            score = weigh(it->second.score);
            depth = it->second.depth;
        }
        if (best.is_none() ||
            std::find(proposals.begin(), proposals.end(), best) == proposals.end())
            best = proposals[0];
        finish(t, best, score, depth,
               v.phase() == Phase::Place ? "blind: placement from the view"
                                         : "blind: the view searched alone (BlindSamples 0)");
        return;
    }

    // Step 1 of the file comment: the belief.
    // The boards must reach the present before they mean anything: the update runs to its
    // end (a call per move reads one or two tokens; a first call reads the whole history),
    // unless `stop` comes or, on a clock, half this proposal's time is spent (a start from
    // the beginning of a long game, every board dropped, replays hundreds of plies: 0.7 s in
    // three-player games of 300 plies, which lost on time at -tc 5+0.05); then the view is
    // searched alone, and the next call goes on from where this one stopped.
    const bool current = belief_.update(view, params.belief, [&] {
        return !stop_.load() &&
               (!t.timed || ms_since(t.t0) < std::max<std::int64_t>(1, t.total_ms / 2));
    });
    const auto& st = belief_.stats();
    std::string note = "blind boards " + std::to_string(belief_.size()) + " dropped " +
                       std::to_string(st.dropped) + " restarts " + std::to_string(st.restarts) +
                       " repaired " + std::to_string(st.repaired) + " relocated " +
                       std::to_string(st.relocated) + " unexplained " +
                       std::to_string(st.unexplained) + (st.approximate ? " approximate" : "");
    if (belief_.size() == 0 || !current) {
        const auto lines =
            t.search(v, proposals, t.timed ? std::max<std::int64_t>(1, t.left_ms()) : -1,
                     limits.depth ? limits.depth : (t.timed ? 0 : 8), limits.nodes, 1);
        Move best = proposals[0];
        if (auto it = lines.find(1); it != lines.end() && !it->second.pv.empty())
            best = it->second.pv[0];
        finish(t, best, 0, 1, note + "; no board: the view searched alone");
        return;
    }
    choose_on_boards(t, view, proposals, std::move(note));
}

/// Step 3's table: the distinct boards searched, each proposal's score on each of them (by
/// the proposal's raw move), the votes of the boards' MultiPV searches (3 for a board's best,
/// 2, 1) and the depths they reached.
struct BlindSearch::BoardTable {
    std::vector<const Position*> boards;
    ScoreTable scores;
    std::map<std::uint32_t, int> votes;
    /// Per board: the least score of its MultiPV lines when the search reported all of them
    /// (at least as high as every proposal it did not report, which ranked below them).
    std::vector<std::optional<int>> bound;
    int depth_sum = 0, depth_n = 0;
};

std::map<std::uint32_t, double> BlindSearch::hunt_novelty(
    const blind::View& view, const std::vector<Move>& proposals) const {
    // The cells not visited lately, weighed by how often the boards hold a lone opposing
    // heart; a cell by half the home prior and half the share of those boards that hold one
    // there (up to kHeldFull): the boards' hearts crowd on a few cells, and may all miss the
    // true one, which stands mostly near where it was placed. A proposal: the moves it saves
    // the sweep over them.
    const Position& v = view.position();
    const Colour us = view.viewer();
    std::map<std::uint32_t, double> novel;
    Hunt hunt = v.phase() == Phase::Play ? hunt_picture(belief_, us) : Hunt{};
    if (hunt.lone <= 0) return novel;
    // Boards whose hearts our men keep missing say less where the heart stands.
    const double odds = belief_.heart_odds();
    for (double& h : hunt.held) h *= odds;
    const int since = explore_since(belief_, view);
    const auto value = hunt_values(belief_, since, v, us, hunt.lone, hunt.held);
    HuntTour tour(value, v, us, belief_.wall_refused_since(since));
    for (Move m : proposals)
        if (const double e = tour.gain(m) + kProbeWeight * tour.probe(m); e > 0)
            novel[m.raw()] = hunt.lone * e;
    if (spdlog::should_log(spdlog::level::debug)) {
        std::string line;
        for (int sq = 0; sq < kCells; ++sq)
            if (value[std::size_t(sq)] >= 0.05)
                line += fmt::format(" {}:{:.2f}", geo::cell_name(Cell(sq)), value[std::size_t(sq)]);
        spdlog::debug(
            "blind hunt: lone {:.2f} odds {:.2f} since ply {}, tour {:.1f} moves, cells{}",
            hunt.lone, odds, since, tour.expected_time(), line);
    }
    return novel;
}

BlindSearch::BoardTable BlindSearch::search_boards(Turn& t, const blind::View& view,
                                                   const std::vector<Move>& proposals) {
    BoardTable table;
    table.boards = distinct_boards(belief_, view, t.params.samples);
    const std::size_t k = table.boards.size();
    for (Move m : proposals) table.scores[m.raw()].assign(k, BoardScore{});
    std::vector<std::vector<Move>> legal_on(k);
    MoveList legal;
    for (std::size_t b = 0; b < k; ++b) {
        generate_legal(*table.boards[b], legal);
        for (Move m : proposals)
            if (legal.contains(m)) {
                legal_on[b].push_back(m);
                table.scores[m.raw()][b].legal = true;
            }
    }
    const SearchLimits& limits = t.limits;
    table.bound.assign(k, std::nullopt);
    for (std::size_t b = 0; b < k && !stop_.load(); ++b) {
        if (legal_on[b].empty()) continue;
        const std::int64_t ms =
            t.timed ? std::max<std::int64_t>(1, t.left_ms() * 6 / 10 / std::int64_t(k - b)) : -1;
        if (t.timed && t.left_ms() <= 0) break;
        const int multipv = std::min<int>(3, int(legal_on[b].size()));
        const auto lines =
            t.search(*table.boards[b], legal_on[b], ms, board_depth(limits), limits.nodes, multipv);
        int reported = 0, least = 1 << 20;
        for (auto& [pv_index, info] : lines) {
            if (info.pv.empty()) continue;
            auto& cell = table.scores[info.pv[0].raw()][b];
            cell.scored = true;
            cell.score = weigh(info.score);
            table.votes[info.pv[0].raw()] += 4 - pv_index;
            table.depth_sum += info.depth;
            ++table.depth_n;
            ++reported;
            least = std::min(least, cell.score);
        }
        if (reported == multipv) table.bound[b] = least;
    }
    return table;
}

std::vector<std::pair<std::size_t, std::uint32_t>> BlindSearch::candidate_order(
    const std::vector<std::pair<int, std::uint32_t>>& ranked, const ScoreTable& scores) {
    // Round by round: each candidate's first board to score, then each one's second, and so
    // on, so that a clock that runs out leaves every candidate scored on about as many boards.
    // Candidate by candidate, the ones appended last (the hunt's explorer among them) went
    // unscored under a short clock, and a proposal never scored is never played.
    std::vector<std::vector<std::size_t>> unscored(ranked.size());
    for (std::size_t i = 0; i < ranked.size(); ++i)
        if (const auto row = scores.find(ranked[i].second); row != scores.end())
            for (std::size_t b = 0; b < row->second.size(); ++b)
                if (row->second[b].legal && !row->second[b].scored) unscored[i].push_back(b);
    std::vector<std::pair<std::size_t, std::uint32_t>> todo;
    for (std::size_t round = 0, added = 1; added; ++round) {
        added = 0;
        for (std::size_t i = 0; i < ranked.size(); ++i)
            if (round < unscored[i].size()) {
                todo.emplace_back(unscored[i][round], ranked[i].second);
                ++added;
            }
    }
    return todo;
}

void BlindSearch::search_candidates(Turn& t, BoardTable& table,
                                    const std::vector<std::pair<int, std::uint32_t>>& ranked) {
    const auto todo = candidate_order(ranked, table.scores);
    const int board = board_depth(t.limits);
    const int depth = board ? std::max(1, board - 1) : t.timed ? kCandidateDepth : 0;
    for (std::size_t i = 0; i < todo.size() && !stop_.load(); ++i) {
        if (t.timed && t.left_ms() <= 0) break;
        const auto [b, m] = todo[i];
        const std::int64_t ms =
            t.timed ? std::max<std::int64_t>(1, t.left_ms() / std::int64_t(todo.size() - i)) : -1;
        const auto lines =
            t.search(*table.boards[b], {Move::from_raw(m)}, ms, depth, t.limits.nodes / 4, 1);
        if (auto it = lines.find(1); it != lines.end() && !it->second.pv.empty()) {
            table.scores[m][b].scored = true;
            table.scores[m][b].score = weigh(it->second.score);
        }
    }
}

void BlindSearch::bound_unscored(BoardTable& table) {
    for (auto& [m, row] : table.scores) {
        if (std::none_of(row.begin(), row.end(), [](const BoardScore& c) { return c.scored; }))
            continue;  // never searched: not a candidate (step 3 leaves it out)
        for (std::size_t b = 0; b < row.size(); ++b)
            if (row[b].legal && !row[b].scored && table.bound[b]) {
                row[b].scored = row[b].bounded = true;
                row[b].score = *table.bound[b];
            }
    }
}

void BlindSearch::discount_heart_captures(ScoreTable& scores,
                                          const std::vector<const Position*>& boards, Colour us,
                                          double odds) {
    const std::size_t k = boards.size();
    // Per board: its best score without a heart capture (its static evaluation when every
    // proposal scored one), and whether every opposing heart on it stands alone.
    std::vector<int> base(k, -(1 << 20));
    std::vector<char> lone(k, 1);
    for (const auto& [m, row] : scores)
        for (std::size_t b = 0; b < k; ++b)
            if (row[b].scored && row[b].score <= 1000) base[b] = std::max(base[b], row[b].score);
    for (std::size_t b = 0; b < k; ++b) {
        const Position& board = *boards[b];
        if (base[b] < -1000) base[b] = std::clamp(eval::evaluate(board, us), -1000, 1000);
        for (int c = 0; c < board.players(); ++c)
            if (c != us && board.heart(Colour(c)) != NO_CELL && !board.heart_alone(Colour(c)))
                lone[b] = 0;
    }
    for (auto& [m, row] : scores)
        for (std::size_t b = 0; b < k; ++b) {
            BoardScore& c = row[b];
            if (!c.scored || c.score <= 1000) continue;
            const bool later = c.score < kTakesHeartNow;
            c.score = later && lone[b]
                          ? base[b]
                          : int(std::lround(base[b] + odds * double(c.score - base[b])));
        }
}

void BlindSearch::choose_on_boards(Turn& t, const blind::View& view,
                                   const std::vector<Move>& proposals, std::string note) {
    const Colour us = view.viewer();
    const Position& v = view.position();
    // Step 2b: the shares over the belief, and how open our heart is after each proposal.
    const std::map<std::uint32_t, Share> shares = belief_shares(belief_, proposals, us, stop_);
    log_hearts(belief_, us);
    const std::array<double, kPieceTypes> expected = expected_men(belief_, us);
    std::map<std::uint32_t, double> open;  // exposure() of the view after each proposal
    for (Move m : proposals) {
        Position after = v;
        after.do_move(m);
        open[m.raw()] = exposure(after, us, expected);
    }
    const std::map<std::uint32_t, double> novel = hunt_novelty(view, proposals);
    // Step 3, first part: each distinct board searched among the proposals legal on it.
    BoardTable table = search_boards(t, view, proposals);
    // Step 2: the candidates searched on every board where they were not scored.
    const double reset = reset_urgency(v);
    const auto ranked = candidates(table.votes, shares, open, novel, reset > 0);
    search_candidates(t, table, ranked);
    bound_unscored(table);
    // Step 3: the values; the boards' hearts weigh as much as they have proved right.
    const double odds = belief_.heart_odds();
    discount_heart_captures(table.scores, table.boards, us, odds);
    const std::size_t k = table.boards.size();
    Params params = t.params;
    params.win_cp = int(std::lround(params.win_cp * odds));
    params.threat_cp = int(std::lround(params.threat_cp * odds));
    Move best;
    double best_value = -1e9;
    int reported = 0;
    for (auto& [n, m] : ranked) {
        const auto value = proposal_value(Move::from_raw(m), table.scores[m],
                                          shares.count(m) ? shares.at(m) : Share{}, open[m],
                                          novel.count(m) ? novel.at(m) : 0.0, reset, k, params);
        if (value && *value > best_value) {
            best_value = *value;
            best = Move::from_raw(m);
            reported = int(std::lround(*value));
        }
    }
    if (best.is_none()) best = proposals[0];
    note += " searched " + std::to_string(k) + " candidates " + std::to_string(ranked.size());
    if (auto it = shares.find(best.raw()); it != shares.end())
        note += share_note(it->second, open[best.raw()]);
    const int depth = table.depth_n ? (table.depth_sum + table.depth_n / 2) / table.depth_n : 1;
    finish(t, best, reported, depth, note);
}

}  // namespace klinzha
