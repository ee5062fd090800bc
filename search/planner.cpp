// search/planner.cpp: see planner.h. Sources: SPEC 5 (walls), 6 (setup), 7 (first moves).
#include "planner.h"

#include <algorithm>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "eval/evaluate.h"

namespace klinzha {
namespace {

class Scorer {
  public:
    Scorer(const Position& pos, Colour us, const SetupPlanner::Params& params)
        : p_(pos), us_(us), params_(params) {
        Bitboard occupied = pos.occupied();
        Bitboard opp = occupied & ~pos.pieces(us);
        Bitboard opp_zones = pos.opposing_zones(us);
        cells_ =
            pos.setup_cells(us) & ~opp & ~opp_zones;  // own placed men are kept track of separately
        wall_cells_ = cells_ & ~geo::neighbours_of(opp | pos.hearts() | opp_zones);
    }

    Bitboard cells(PieceType t) const { return t == WALL ? wall_cells_ : cells_; }
    Position& position() { return p_; }
    std::uint64_t evaluations = 0;

    /// Score of the current men of p_ for us: the best heart cell among our carriers.
    int score() {
        Bitboard carriers = p_.pieces(us_, QUEEN) | p_.pieces(us_, ROOK) | p_.pieces(us_, PAWN);
        Bitboard spots = carriers & ~p_.all_zones();
        if (!spots) {
            ++evaluations;
            return eval::evaluate(p_, us_) - 800;  // nowhere to put the heart yet
        }
        int best = -eval::kInfinite;
        for_each_cell(spots, [&](Cell h) {
            p_.put_heart(us_, h);
            std::array<Reach, kColours> reach{};
            int v = eval::evaluate(p_, us_, &reach);
            for (int o = 0; o < kColours; ++o) {
                if (o == us_ || !p_.pieces(Colour(o))) continue;
                int n = reach[o].heart_attackers[us_];
                v -= n * (o < us_ ? params_.threat_first_cp : params_.threat_later_cp);
            }
            if (p_.rules().blind)
                v -= params_.open_knight_cp * popcount(open_knight_cells(p_, us_, h));
            ++evaluations;
            best = std::max(best, v);
        });
        p_.put_heart(us_, NO_CELL);
        return best;
    }

  private:
    Position p_;
    Colour us_;
    SetupPlanner::Params params_;
    Bitboard cells_ = 0, wall_cells_ = 0;
};

struct Setup {
    std::vector<std::pair<PieceType, Cell>> pieces;  ///< planned placements
    int score = -eval::kInfinite;
};

/// One greedy construction and hill climb from the position inside `sc`.
Setup build(Scorer& sc, std::vector<PieceType> todo, std::mt19937_64& rng, bool vary,
            int variety_cp) {
    Position& p = sc.position();
    const Colour us = p.to_move();
    Setup s;
    std::shuffle(todo.begin(), todo.end(), rng);
    // Walls first: their cells are the most constrained.
    std::stable_partition(todo.begin(), todo.end(), [](PieceType t) { return t == WALL; });
    std::uniform_int_distribution<int> noise(-variety_cp / 2, variety_cp / 2);
    for (PieceType t : todo) {
        Bitboard free = sc.cells(t) & ~p.occupied();
        Cell best_cell = NO_CELL;
        int best = -eval::kInfinite;
        for_each_cell(free, [&](Cell c) {
            p.put_man(us, t, c);
            int v = sc.score() + (vary ? noise(rng) : 0);
            p.remove_man(c);
            if (v > best) best = v, best_cell = c;
        });
        if (best_cell == NO_CELL)
            break;  // no cell left for this piece (cannot happen in
                    // a legal setup, but never loop on it)
        p.put_man(us, t, best_cell);
        s.pieces.emplace_back(t, best_cell);
    }
    s.score = sc.score();
    // Hill climbing: move one planned piece to a better cell until nothing improves.
    bool improved = true;
    for (int pass = 0; improved && pass < 6; ++pass) {
        improved = false;
        for (auto& piece : s.pieces) {  // no structured binding: lambdas capture these
            const auto t = piece.first;
            auto& cell = piece.second;
            p.remove_man(cell);
            Bitboard free = sc.cells(t) & ~p.occupied();
            Cell best_cell = cell;
            int best = s.score;
            for_each_cell(free, [&](Cell c) {
                if (c == cell) return;
                p.put_man(us, t, c);
                int v = sc.score();
                p.remove_man(c);
                if (v > best) best = v, best_cell = c;
            });
            p.put_man(us, t, best_cell);
            if (best_cell != cell) {
                cell = best_cell;
                s.score = best;
                improved = true;
            }
        }
    }
    for (auto& [t, cell] : s.pieces) p.remove_man(cell);
    return s;
}

/// Whether two setups place the same men on the same cells (in any order).
bool same_setup(const Setup& a, const Setup& b) {
    auto x = a.pieces, y = b.pieces;
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    return x == y;
}

/// The best `most` distinct setups of found judged by judge (SetupPlanner::next): found is
/// sorted by score, and when each judged setup's placements come one after another (our turn
/// throughout) found becomes the judged ones with the judgement's scores, and true is
/// returned. Judging stops early when judge answers nullopt (no time left); placements not in
/// a row (AlternatingPlacement) leave found's scores as they stand, and false.
bool judge_setups(std::vector<Setup>& found, const Position& pos, int most,
                  const SetupPlanner::Judge& judge) {
    const Colour us = pos.to_move();
    std::sort(found.begin(), found.end(),
              [](const Setup& a, const Setup& b) { return a.score > b.score; });
    std::vector<Setup> judged;
    for (const Setup& s : found) {
        if (int(judged.size()) >= most) break;
        if (std::any_of(judged.begin(), judged.end(),
                        [&](const Setup& o) { return same_setup(s, o); }))
            continue;
        if (s.pieces.empty()) return false;
        Position q = pos;
        for (auto& [t, c] : s.pieces) {
            const Move m = Move::place(t, c);
            if (q.to_move() != us || q.phase() != Phase::Place || !is_legal(q, m)) return false;
            q.do_move(m);
        }
        const std::optional<int> v = judge(q);
        if (!v) break;  // no time left: the candidates judged so far
        Setup j = s;
        j.score = *v;
        judged.push_back(std::move(j));
    }
    if (judged.empty()) return false;
    found = std::move(judged);
    return true;
}

}  // namespace

Bitboard open_knight_cells(const Position& p, Colour us, Cell h) {
    if (h == NO_CELL) return 0;
    return geo::path_destinations(geo::PathClass::Knight, h) & ~p.pieces(us) & ~p.zones(us);
}

std::optional<SetupPlanner::Result> SetupPlanner::follow_plan(const Position& pos) const {
    const Colour us = pos.to_move();
    const Bitboard others = pos.occupied() & ~pos.pieces(us);
    if (!plan_ || plan_->colour != us || plan_->others != others || plan_->placements.empty())
        return std::nullopt;
    Bitboard expected = plan_->own;
    std::size_t placed = 0;
    for (Move m : plan_->placements) {
        if (!test(pos.pieces(us), m.to())) break;
        expected |= bit(m.to());
        ++placed;
    }
    if (expected != pos.pieces(us) || placed >= plan_->placements.size() ||
        !is_legal(pos, plan_->placements[placed]))
        return std::nullopt;
    Result r;
    r.plan.assign(plan_->placements.begin() + std::ptrdiff_t(placed), plan_->placements.end());
    r.move = r.plan.front();
    r.score = plan_->score;
    r.judged = plan_->judged;
    return r;
}

SetupPlanner::Result SetupPlanner::next(const Position& pos, const Params& params, int max_runs,
                                        const std::function<bool()>& keep_going,
                                        std::mt19937_64& rng, bool vary, const Judge& judge) {
    if (auto followed = follow_plan(pos)) return *followed;
    const Colour us = pos.to_move();
    Result r;

    // Plan anew: every piece of the set not yet placed.
    std::vector<PieceType> todo;
    for (int t = 0; t < kPieceTypes; ++t)
        for (int n = popcount(pos.pieces(us, PieceType(t))); n < kSetCount[t]; ++n)
            todo.push_back(PieceType(t));
    Scorer sc(pos, us, params);
    std::vector<Setup> found;
    do {
        found.push_back(build(sc, todo, rng, vary && !found.empty(), params.variety_cp));
    } while (int(found.size()) < max_runs && keep_going());
    r.evaluations = sc.evaluations;
    // The best distinct candidates judged by what follows them (Params::judged): the
    // judgement replaces their score, and only they remain to choose from.
    if (judge && params.judged > 0) r.judged = judge_setups(found, pos, params.judged, judge);
    int best = -eval::kInfinite;
    for (const auto& s : found) best = std::max(best, s.score);
    std::vector<const Setup*> near;
    for (const auto& s : found)
        if (s.score >= best - (vary ? params.variety_cp : 0)) near.push_back(&s);
    const Setup* pick =
        near[vary ? std::uniform_int_distribution<std::size_t>(0, near.size() - 1)(rng) : 0];

    Plan plan;
    plan.colour = us;
    plan.others = pos.occupied() & ~pos.pieces(us);
    plan.own = pos.pieces(us);
    plan.score = pick->score;
    plan.judged = r.judged;
    for (auto& [t, c] : pick->pieces) plan.placements.push_back(Move::place(t, c));
    // A plan that is somehow not playable falls back to the first legal placement.
    if (plan.placements.empty() || !is_legal(pos, plan.placements.front())) {
        MoveList l;
        generate_legal(pos, l);
        plan.placements.assign(1, l.moves[0]);
    }
    r.move = plan.placements.front();
    r.plan = plan.placements;
    r.score = plan.score;
    r.replanned = true;
    plan_ = std::move(plan);
    return r;
}

}  // namespace klinzha
