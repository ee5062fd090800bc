// search/belief.cpp: see belief.h. Source: SPEC 25 (what each player is told).
#include "belief.h"

#include <algorithm>
#include <cmath>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "eval/evaluate.h"

namespace klinzha {

using blind::Observation;

void Belief::clear() {
    rng_.seed(seed_);
    viewer_ = NO_COLOUR;
    start_fen_.clear();
    forget_observations();
    live_.clear();
    for (auto& p : pool_) p.clear();
    refusals_.clear();
    stats_ = Stats{};
}

void Belief::forget_observations() {
    read_.clear();
    observed_ = 0;
    last_stood_.fill(-1);
    seen_.fill(-1);
    beside_taken_.fill(-1);
    wall_refused_.fill(-1);
    taker_.fill(NO_CELL);
    hunt_from_ = -1;
    hearts_taken_ = 0;
    hearts_expected_ = 0;
}

std::vector<Move> Belief::setup_for(Colour c) {
    auto& pool = pool_[c];
    if (pool.empty()) {
        // The planner on an empty board, as that opponent places without seeing anyone's men
        // (SPEC 25); one greedy+climb run each, with its random variety.
        Position p = start_;
        p.set_to_move(c);
        for (int k = 0; k < std::max(1, params_.setups); ++k) {
            SetupPlanner planner;
            auto r = planner.next(
                p, params_.planner, 1, [] { return false; }, rng_, true);
            pool.push_back(r.plan);
        }
    }
    // One board in four takes a setup placed at random (an opponent need not plan as ours
    // does; the random baseline does not).
    if (rng_() % 4 == 0) return random_setup(c);
    std::vector<Move> plan = pool[rng_() % pool.size()];
    // Half the boards move one planned piece (not a wall) to another free setup cell.
    if (rng_() % 2 && !plan.empty()) {
        Bitboard used = 0;
        for (Move m : plan) used |= bit(m.to());
        const Bitboard free = start_.setup_cells(c) & ~used & ~start_.occupied();
        const std::size_t k = rng_() % plan.size();
        if (free && plan[k].placed_type() != WALL) {
            std::vector<Cell> cells;
            for_each_cell(free, [&](Cell sq) { cells.push_back(sq); });
            plan[k] = Move::place(plan[k].placed_type(), cells[rng_() % cells.size()]);
        }
    }
    return plan;
}

bool Belief::mend(Position& p, Bitboard near, const std::function<bool(const Position&)>& ok,
                  int tries) {
    // The hidden objects: each man of another colour (with the heart it carries), and each
    // lone heart of another colour.
    std::vector<Cell> objects;
    for (int c = 0; c < p.players(); ++c) {
        if (c == viewer_ || !p.is_in(Colour(c))) continue;
        for_each_cell(p.pieces(Colour(c)), [&](Cell sq) { objects.push_back(sq); });
        if (p.heart_alone(Colour(c))) objects.push_back(p.heart(Colour(c)));
    }
    const Bitboard free = near & ~p.occupied() & ~p.hearts() & kAllCells;
    std::vector<Cell> cells;
    for_each_cell(free, [&](Cell sq) { cells.push_back(sq); });
    if (objects.empty() || cells.empty()) return false;
    for (int t = 0; t < tries; ++t) {
        const Cell from = objects[rng_() % objects.size()];
        const Cell to = cells[rng_() % cells.size()];
        Position q = p;
        const Man man = q.man_on(from);
        Colour heart_of = NO_COLOUR;
        for (int c = 0; c < kColours; ++c)
            if (c != viewer_ && q.heart(Colour(c)) == from) heart_of = Colour(c);
        if (man != kNoMan) {
            q.remove_man(from);
            q.put_man(man_colour(man), man_type(man), to);
        }
        if (heart_of != NO_COLOUR) q.put_heart(heart_of, to);
        if (!ok(q)) continue;
        Position check;
        if (check.set(q.fen(), q.rules())) continue;
        if (!ok(check)) continue;
        p = check;
        ++stats_.repaired;
        return true;
    }
    return false;
}

std::vector<Move> Belief::random_setup(Colour c) {
    Position p = start_;
    std::vector<Move> plan;
    MoveList legal;
    for (int n = 0; n < kSetSize; ++n) {
        p.set_to_move(c);
        generate_legal(p, legal);
        if (legal.size == 0 || p.phase() != Phase::Place) break;
        const Move m = legal.moves[rng_() % legal.size];
        plan.push_back(m);
        p.do_move(m);
    }
    return plan;
}

void Belief::restart(const blind::View& view, const Params& params) {
    const bool same_game = view.viewer() == viewer_ && view.start_position().fen() == start_fen_;
    if (!same_game) {
        for (auto& p : pool_) p.clear();
        refusals_.clear();
        stats_ = Stats{};
    }
    params_ = params;
    start_ = view.start_position();
    viewer_ = view.viewer();
    start_fen_ = view.start_position().fen();
    forget_observations();
    live_.assign(std::size_t(std::max(1, params.boards)), Board{view.start_position(), {}});
}

void Belief::resample(std::vector<Board>& next) {
    const std::size_t want = std::size_t(std::max(1, params_.boards));
    const std::size_t alive = next.size();
    stats_.dropped += live_.size() > alive ? live_.size() - alive : 0;
    while (next.size() < want) next.push_back(next[rng_() % alive]);
    live_.swap(next);
}

bool Belief::advance(const blind::View& view, std::size_t j, std::size_t tok) {
    const Observation& o = view.history()[j];
    if (o.kind == Observation::Kind::Own) return advance_own(o, view.tokens(), tok);
    return advance_other(o);
}

bool Belief::advance_own(const Observation& o, const std::vector<std::string>& tokens,
                         std::size_t tok) {
    std::vector<Board> next;
    next.reserve(live_.size());
    // The own move is legal on the board and the arbiter would have said the same of it;
    // the proposals refused before it in its turn are not legal there.
    auto agrees = [&](const Position& p) {
        MoveList l;
        generate_legal(p, l);
        return l.contains(o.move) && blind::announce(p, o.move, viewer_)[0] == tokens[tok] &&
               (!o.told_received || p.heart_victim(o.move) == o.victim);
    };
    for (Board& b : live_)
        if (agrees(b.pos) || relocate_heart(b, o.move, agrees)) next.push_back(std::move(b));
    if (next.empty()) {
        // No board agrees: mend a few (a hidden man moved near the move: out of its way, or
        // onto the cell it took).
        Bitboard near = geo::ball(o.move.to(), 3);
        if (o.move.kind() == Move::Normal) near |= geo::ball(o.move.from(), 3);
        for (std::size_t k = 0; k < live_.size() && next.size() < 16 && k < 48; ++k) {
            Board b = live_[rng_() % live_.size()];
            if (mend(b.pos, near, agrees, 200)) next.push_back(std::move(b));
        }
    }
    if (next.empty()) {
        stats_.dropped += live_.size();
        return false;
    }
    for (const Refusals& r : refusals_)
        if (r.token == tok) filter_refusals(next, r.moves);
    std::vector<Board> done;
    for (Board& b : next)
        if (play_own(b.pos, o, tokens, tok)) done.push_back(std::move(b));
    if (done.empty()) {
        stats_.dropped += live_.size();
        return false;
    }
    resample(done);
    return true;
}

bool Belief::play_own(Position& p, const Observation& o, const std::vector<std::string>& tokens,
                      std::size_t tok) const {
    const bool plus =
        o.told_received && blind::announce(p, o.move, viewer_).back() != tokens[tok + 1];
    Bitboard expected = (p.pieces(viewer_) & ~bit(o.move.from())) | bit(o.move.to());
    p.do_move(o.move);
    if (plus) {
        // Three players: the men received are those told; a board whose victim stood
        // elsewhere is mended (the viewer's men are known exactly).
        for (auto& [t, c] : o.received) expected |= bit(c);
        for_each_cell(p.pieces(viewer_) & ~expected, [&](Cell sq) { p.remove_man(sq); });
        for (auto& [t, c] : o.received) {
            if (p.man_on(c) == make_man(viewer_, t)) continue;
            if (p.man_on(c) != kNoMan) p.remove_man(c);
            p.put_man(viewer_, t, c);
        }
        Position check;
        if (check.set(p.fen(), p.rules())) return false;
        p = check;
    }
    p.clear_history();
    return true;
}

bool Belief::advance_other(const Observation& o) {
    std::vector<Board> next;
    next.reserve(live_.size());
    MoveList legal;
    for (Board& b : live_) {
        Position& p = b.pos;
        if (p.to_move() != o.mover) continue;
        if (o.kind == Observation::Kind::Out) {
            p.eliminate_to_move();
            p.clear_history();
            next.push_back(std::move(b));
            continue;
        }
        const Move pick = guess_move(b, o, legal);
        if (pick.is_none()) continue;
        p.do_move(pick);
        p.clear_history();
        next.push_back(std::move(b));
    }
    if (next.empty() && o.kind == Observation::Kind::Other && !live_.empty() &&
        live_[0].pos.phase() == Phase::Play)
        mend_for_other(o, next);
    if (next.empty()) {
        stats_.dropped += live_.size();
        return false;
    }
    resample(next);
    return true;
}

Move Belief::guess_move(Board& b, const Observation& o, MoveList& legal) {
    Position& p = b.pos;
    generate_legal(p, legal);
    if (legal.size == 0) return Move();
    if (p.phase() == Phase::Place) {
        Move pick;
        auto& plan = b.plan[o.mover];
        if (plan.empty() && p.piece_count(o.mover) == 0) plan = setup_for(o.mover);
        while (!plan.empty() && pick.is_none()) {
            if (legal.contains(plan.front())) pick = plan.front();
            plan.erase(plan.begin());
        }
        return pick.is_none() ? legal.moves[rng_() % legal.size] : pick;
    }
    if (p.phase() == Phase::Heart) {
        // The heart on the carrier the evaluation likes best for its owner, or one at random
        // in half the boards.
        Move pick = legal.moves[rng_() % legal.size];
        if (rng_() % 2) {
            int best = -eval::kInfinite;
            for (Move m : legal) {
                p.do_move(m);
                const int v = eval::evaluate(p, o.mover);
                p.undo_move();
                if (v > best) best = v, pick = m;
            }
        }
        return pick;
    }
    // Play: the moves that agree with what the viewer was told (SPEC 25).
    MoveList fit;
    fitting(p, o, fit);
    if (fit.size == 0) return Move();
    return fit.moves[rng_() % fit.size];
}

void Belief::mend_for_other(const Observation& o, std::vector<Board>& next) {
    // A man of the mover moved where it can take what it took, then one of the moves that now
    // agree is played.
    Bitboard near = kAllCells;
    if (o.took == Observation::Took::Man) near = geo::ball(o.cell, 6);
    if (o.took == Observation::Took::Heart && live_[0].pos.heart(viewer_) != NO_CELL)
        near = geo::ball(live_[0].pos.heart(viewer_), 6);
    auto agrees = [&](const Position& q) {
        MoveList f;
        fitting(q, o, f);
        return q.to_move() == o.mover && f.size > 0;
    };
    for (std::size_t k = 0; k < live_.size() && next.size() < 16 && k < 48; ++k) {
        Board b = live_[rng_() % live_.size()];
        if (!mend(b.pos, near, agrees, 200)) continue;
        MoveList fit;
        fitting(b.pos, o, fit);
        b.pos.do_move(fit.moves[rng_() % fit.size]);
        b.pos.clear_history();
        next.push_back(std::move(b));
    }
}

void Belief::fitting(const Position& p, const Observation& o, MoveList& fit) const {
    fit.size = 0;
    MoveList legal;
    generate_legal(p, legal);
    for (Move m : legal) {
        const Colour hv = p.heart_victim(m);
        const Man man = p.man_on(m.to());
        const bool took_mine = man != kNoMan && man_colour(man) == viewer_;
        bool agrees = false;
        switch (o.took) {
            case Observation::Took::Nothing:
                agrees = hv == NO_COLOUR && !took_mine;
                break;
            case Observation::Took::Man:
                agrees = hv == NO_COLOUR && took_mine && m.to() == o.cell;
                break;
            case Observation::Took::Heart:
                agrees = hv == viewer_;
                break;
            case Observation::Took::OtherHeart:
                agrees = hv == o.victim;
                break;
        }
        if (agrees) fit.push(m);
    }
}

void Belief::filter_refusals(std::vector<Board>& boards, const std::vector<Move>& refused) {
    if (refused.empty() || boards.empty()) return;
    MoveList legal;
    auto allows = [&](const Position& p) {
        generate_legal(p, legal);
        for (Move r : refused)
            if (legal.contains(r)) return true;
        return false;
    };
    std::vector<Board> kept;
    for (Board& b : boards)
        if (!allows(b.pos)) kept.push_back(b);
    if (kept.empty()) {
        // No board explains the refusals: mend a few (a hidden man moved near the refused
        // moves so that it bars them: in the way, or a wall whose zone bars the cell).
        Bitboard near = 0;
        for (Move r : refused) {
            near |= geo::ball(r.to(), 2);
            if (r.kind() == Move::Normal) near |= geo::ball(r.from(), 3);
        }
        for (std::size_t k = 0; k < boards.size() && kept.size() < 8 && k < 24; ++k) {
            Board b = boards[rng_() % boards.size()];
            if (mend(
                    b.pos, near, [&](const Position& q) { return !allows(q); }, 300))
                kept.push_back(std::move(b));
        }
    }
    if (kept.empty()) {  // a soft observation: the boards stay as they were
        ++stats_.unexplained;
        return;
    }
    boards.swap(kept);
}

void Belief::rejuvenate(const Params& params) {
    // Resampling copies the survivors, so after many observations the boards descend from
    // few ancestors and agree on what nothing has shown (where a heart sits, most of all):
    // sample impoverishment. Half the boards get a small change that no observation of the
    // present rules out: a hidden heart moved to another carrier of its colour (or left
    // alone where it was), one hidden man moved as one of its own moves would have (not the
    // one that took ours at its colour's last ply: it stands where the arbiter said), or (a
    // share Params::type_swap) one hidden man given the kind of a man of its colour taken.
    MoveList legal;
    for (Board& b : live_) {
        if (rng_() % 2 || b.pos.phase() != Phase::Play) continue;
        Position q = b.pos;
        std::vector<Colour> hidden;
        for (int c = 0; c < q.players(); ++c)
            if (c != viewer_ && q.is_in(Colour(c)) && q.heart(Colour(c)) != NO_CELL)
                hidden.push_back(Colour(c));
        if (hidden.empty()) continue;
        const Colour c = hidden[rng_() % hidden.size()];
        // A carried heart may be on another carrier. A heart standing alone never moves by
        // itself, but may have been left unseen on a nearby cell where none of our men has
        // stood since (what our own moves ruled out stays ruled out): one board in sixteen.
        const bool carried = q.man_on(q.heart(c)) != kNoMan;
        if (params.type_swap > 0 && int(rng_() % 100) < params.type_swap) {
            if (!swap_kind(q, c)) continue;
        } else if (!carried && rng_() % 8 == 0) {
            const Cell to = loose_heart_cell(b, c);
            if (to == NO_CELL) continue;
            q.put_heart(c, to);
        } else if (carried && rng_() % 2) {
            const Bitboard spots =
                q.carriers(c) & ~q.all_zones() & ~q.clouds() & ~q.hearts() & ~bit(q.heart(c));
            if (!spots) continue;
            std::vector<Cell> cells;
            for_each_cell(spots, [&](Cell sq) { cells.push_back(sq); });
            q.put_heart(c, cells[rng_() % cells.size()]);
        } else {
            q.set_to_move(c);
            generate_legal(q, legal);
            MoveList quiet;
            quiet.size = 0;
            for (Move m : legal)
                if (q.man_on(m.to()) == kNoMan && q.heart_victim(m) == NO_COLOUR &&
                    !m.carries_heart() && m.from() != q.heart(c) &&
                    m.from() != taker_[std::size_t(c)])
                    quiet.push(m);
            if (quiet.size == 0) continue;
            const Move m = quiet.moves[rng_() % quiet.size];
            const Man man = q.man_on(m.from());
            q.remove_man(m.from());
            q.put_man(man_colour(man), man_type(man), m.to());
            q.set_to_move(b.pos.to_move());
        }
        Position check;
        if (check.set(q.fen(), q.rules())) continue;
        if (check.state().out != b.pos.state().out) continue;
        b.pos = check;
        ++stats_.rejuvenated;
    }
}

bool Belief::swap_kind(Position& q, Colour c) {
    // A hidden man of c (not carrying its heart, not a wall: walls are never taken) takes the
    // kind of one of c's men no longer on the board.
    std::vector<Cell> men;
    for (int t = QUEEN; t <= PAWN; ++t)
        for_each_cell(q.pieces(c, PieceType(t)) & ~bit(q.heart(c)),
                      [&](Cell sq) { men.push_back(sq); });
    std::vector<PieceType> taken;
    for (int t = QUEEN; t <= PAWN; ++t)
        for (int n = popcount(q.pieces(c, PieceType(t))); n < kSetCount[std::size_t(t)]; ++n)
            taken.push_back(PieceType(t));
    if (men.empty() || taken.empty()) return false;
    const Cell sq = men[rng_() % men.size()];
    const PieceType to = taken[rng_() % taken.size()];
    if (to == man_type(q.man_on(sq))) return false;
    q.remove_man(sq);
    q.put_man(c, to, sq);
    return true;
}

bool Belief::relocate_heart(Board& b, Move m, const std::function<bool(const Position&)>& ok) {
    if (m.kind() != Move::Normal) return false;
    const Position& p = b.pos;
    Colour c = NO_COLOUR;
    for (int k = 0; k < p.players(); ++k)
        if (k != viewer_ && p.heart(Colour(k)) == m.to() && p.heart_alone(Colour(k))) c = Colour(k);
    if (c == NO_COLOUR) return false;
    // The cells it may stand on instead, weighed as the hunt weighs them (a cell where an
    // opposing man took ours as the opponent's own region).
    const auto& prior = home_prior(p.rules(), c);
    const Bitboard free =
        kAllCells & ~p.occupied() & ~p.hearts() & ~p.clouds() & ~p.all_zones() & ~bit(m.to());
    std::vector<std::pair<Cell, double>> cells;
    double total = 0;
    for_each_cell(free, [&](Cell sq) {
        if (last_stood_[sq] >= b.alone_since[std::size_t(c)]) return;
        const double w = lone_heart_weight(prior, sq);
        cells.emplace_back(sq, w);
        total += w;
    });
    for (int t = 0; t < 4 && total > 0; ++t) {
        double r = std::uniform_real_distribution<double>(0.0, total)(rng_);
        Cell to = cells.back().first;
        for (auto& [sq, w] : cells)
            if ((r -= w) < 0) {
                to = sq;
                break;
            }
        Position q = p;
        q.put_heart(c, to);
        Position check;
        if (check.set(q.fen(), q.rules()) || !ok(check)) continue;
        b.pos = check;
        ++stats_.relocated;
        return true;
    }
    return false;
}

void Belief::note_hunt() {
    std::size_t lone = 0;
    for (const Board& b : live_) {
        bool any = false;
        for (int c = 0; c < b.pos.players() && !any; ++c)
            any = c != viewer_ && b.pos.heart_alone(Colour(c));
        lone += any;
    }
    if (live_.empty() || 2 * lone < live_.size())
        hunt_from_ = -1;
    else if (hunt_from_ < 0)
        hunt_from_ = int(observed_);
}

void Belief::note_hearts(Board& b, int at) {
    for (int c = 0; c < b.pos.players(); ++c) {
        if (b.pos.phase() != Phase::Play || !b.pos.heart_alone(Colour(c)))
            b.alone_since[std::size_t(c)] = at;
    }
}

Cell Belief::loose_heart_cell(const Board& b, Colour c) {
    const Position& p = b.pos;
    const Bitboard free = geo::ball(p.heart(c), 3) & kAllCells & ~p.occupied() & ~p.hearts() &
                          ~p.clouds() & ~p.all_zones();
    std::vector<Cell> cells;
    for_each_cell(free, [&](Cell sq) {
        if (last_stood_[sq] < b.alone_since[std::size_t(c)]) cells.push_back(sq);
    });
    if (cells.empty()) return NO_CELL;
    const Cell to = cells[rng_() % cells.size()];
    const auto& prior = home_prior(p.rules(), c);
    const double keep = prior[to] / prior[p.heart(c)];
    if (keep < 1.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) >= keep)
        return NO_CELL;
    return to;
}

namespace {

/// Belief::home_steps per ForwardPlacement (0, 1) and owner: computed once.
const std::array<std::array<std::array<int, kCells>, kColours>, 2>& home_steps_table() {
    static const auto table = [] {
        std::array<std::array<std::array<int, kCells>, kColours>, 2> t{};
        for (int fp = 0; fp < 2; ++fp)
            for (int c = 0; c < kColours; ++c) {
                const Bitboard setup =
                    geo::region(Colour(c)) | (fp ? geo::adjacent_separators(Colour(c)) : 0);
                for (int sq = 0; sq < kCells; ++sq) {
                    int d = kCells;
                    for (Bitboard b = setup; b;)
                        d = std::min(d, geo::distance(Cell(sq), pop_lsb(b)));
                    t[std::size_t(fp)][std::size_t(c)][std::size_t(sq)] = d;
                }
            }
        return t;
    }();
    return table;
}

}  // namespace

const std::array<int, kCells>& Belief::home_steps(const Rules& rules, Colour owner) {
    return home_steps_table()[rules.forward_placement][owner];
}

const std::array<double, kCells>& Belief::home_prior(const Rules& rules, Colour owner) {
    // Per owner and ForwardPlacement: computed once, kHomeDecay^home_steps.
    static const auto table = [] {
        std::array<std::array<std::array<double, kCells>, kColours>, 2> t{};
        for (int fp = 0; fp < 2; ++fp)
            for (int c = 0; c < kColours; ++c)
                for (int sq = 0; sq < kCells; ++sq)
                    t[std::size_t(fp)][std::size_t(c)][std::size_t(sq)] = std::pow(
                        kHomeDecay,
                        home_steps_table()[std::size_t(fp)][std::size_t(c)][std::size_t(sq)]);
        return t;
    }();
    return table[rules.forward_placement][owner];
}

void Belief::apply_refusals(const std::vector<Move>& refused) {
    if (refused.empty() || live_.empty()) return;
    std::vector<Board> boards = live_;
    filter_refusals(boards, refused);
    resample(boards);
}

bool Belief::put_hidden_heart(Position& w, Colour c, Bitboard zones) {
    // On a carrier in half the boards; otherwise, or when no carrier is left (a wall, knights
    // and bishops carry none, SPEC 4), alone on a free cell drawn by the home prior (1 where
    // an opposing man took ours).
    const Bitboard spots = w.carriers(c) & ~zones & ~w.clouds() & ~w.hearts();
    const Bitboard free = kAllCells & ~w.occupied() & ~zones & ~w.clouds() & ~w.hearts();
    if (spots && (rng_() % 2 || !free)) {
        std::vector<Cell> cells;
        for_each_cell(spots, [&](Cell sq) { cells.push_back(sq); });
        w.put_heart(c, cells[rng_() % cells.size()]);
        return true;
    }
    if (!free) return false;
    const auto& prior = home_prior(w.rules(), c);
    std::vector<Cell> cells;
    std::vector<double> weight;
    for_each_cell(free, [&](Cell sq) {
        cells.push_back(sq);
        weight.push_back(lone_heart_weight(prior, sq));
    });
    std::discrete_distribution<std::size_t> pick(weight.begin(), weight.end());
    w.put_heart(c, cells[pick(rng_)]);
    return true;
}

void Belief::from_view(const blind::View& view) {
    // Boards at the present built from the view alone: the viewer's men, each opponent still
    // in with a setup from its pool placed by the placement rules (a planned cell that is not
    // legal any more replaced by a legal one), two players: as many opposing men as the
    // viewer did not capture (never a wall: walls are not taken, SPEC 3), and a heart on a
    // carrier or, in play, alone (issue 28's thirty-ninth round); checked as a position
    // string (SPEC 10) and against the refused proposals.
    stats_.approximate = true;
    live_.clear();
    const Position& v = view.position();
    const int players = v.players();
    int captures = 0;
    for (const auto& o : view.history())
        captures += o.kind == Observation::Kind::Own && o.took != Observation::Took::Nothing;
    const int want = std::max(1, params_.boards);
    MoveList legal;
    for (int attempt = 0; attempt < 20 * want && int(live_.size()) < want; ++attempt) {
        Position w = view.start_position();
        for (int t = 0; t < kPieceTypes; ++t)
            for_each_cell(v.pieces(viewer_, PieceType(t)),
                          [&](Cell sq) { w.put_man(viewer_, PieceType(t), sq); });
        bool ok = true;
        for (int c = 0; c < players && ok; ++c) {
            if (c == viewer_ || !v.is_in(Colour(c))) continue;
            const auto plan = setup_for(Colour(c));
            const int placed = v.phase() == Phase::Place ? v.state().unseen[c] : kSetSize;
            for (int n = 0; n < placed && ok; ++n) {
                Position t = w;
                t.set_to_move(Colour(c));
                generate_legal(t, legal);
                Move m = n < int(plan.size()) ? plan[std::size_t(n)] : Move();
                if (m.is_none() || !legal.contains(m)) {
                    MoveList same;
                    same.size = 0;
                    for (Move x : legal)
                        if (m.is_none() || x.placed_type() == m.placed_type()) same.push(x);
                    const MoveList& from = same.size ? same : legal;
                    if (from.size == 0) {
                        ok = false;
                        break;
                    }
                    m = from.moves[rng_() % from.size];
                }
                w.put_man(Colour(c), m.placed_type(), m.to());
            }
        }
        if (!ok) continue;
        if (players == 2 && v.phase() == Phase::Play) {  // the men the viewer took are gone
            const Colour o = Colour(1 - viewer_);
            // Walls are never taken (SPEC 3).
            for (int k = 0; k < captures && (w.pieces(o) & ~w.pieces(o, WALL)); ++k) {
                std::vector<Cell> cells;
                for_each_cell(w.pieces(o) & ~w.pieces(o, WALL),
                              [&](Cell sq) { cells.push_back(sq); });
                w.remove_man(cells[rng_() % cells.size()]);
            }
        }
        if (v.heart(viewer_) != NO_CELL) w.put_heart(viewer_, v.heart(viewer_));
        if (v.phase() == Phase::Play) {
            const Bitboard zones = w.all_zones();
            for (int c = 0; c < players && ok; ++c) {
                if (c == viewer_ || !v.is_in(Colour(c))) continue;
                ok = put_hidden_heart(w, Colour(c), zones);
            }
        }
        if (!ok) continue;
        // The state the view says: turn, phase, counters (through the position string).
        std::string fen = w.fen();
        std::vector<std::string> f;
        for (std::size_t a = 0;;) {
            const auto e = fen.find(' ', a);
            f.push_back(fen.substr(a, e == std::string::npos ? e : e - a));
            if (e == std::string::npos) break;
            a = e + 1;
        }
        f[4] = std::string(1, kColourChar[v.to_move()]);
        f[5] = v.phase() == Phase::Place ? "place" : v.phase() == Phase::Heart ? "heart" : "play";
        f[6] = std::to_string(v.halfmove());
        f[7] = std::to_string(v.fullmove());
        std::string whole;
        for (auto& x : f) whole += (whole.empty() ? "" : " ") + x;
        Position q;
        if (q.set(whole, v.rules())) continue;
        if (q.state().out != v.state().out) continue;
        live_.push_back(Board{q, {}});
    }
    if (!live_.empty()) {
        std::vector<Board> next;
        next.swap(live_);
        const std::size_t n = next.size();
        while (int(next.size()) < want) next.push_back(next[rng_() % n]);
        live_.swap(next);
    }
}

void Belief::note_refused_cells(const blind::View& view) {
    const Position& v = view.position();
    for (Move r : view.refused()) {
        if (r.kind() != Move::Normal || !test(v.pieces(viewer_), r.from())) continue;
        const PieceType t = man_type(v.man_on(r.from()));
        if (t == WALL) {  // a wall is refused for what its zone would hold (SPEC 5)
            for_each_cell(geo::neighbours(r.to()) | bit(r.to()),
                          [&](Cell sq) { wall_refused_[sq] = int(observed_); });
            continue;
        }
        bool bare = t == KNIGHT && v.rules().flier_jumps_walls;
        for (const geo::PathEntry& e : geo::paths(path_class(t, v.rules()), r.from()))
            bare = bare || (e.dest == r.to() && e.mid == 0);
        // Nothing on the way could bar it: the cell lies in an opposing wall's zone or holds
        // an opposing wall, and no heart rests there (SPEC 4, 5).
        if (bare) last_stood_[r.to()] = std::max(last_stood_[r.to()], int(observed_));
    }
}

Bitboard Belief::wall_refused_since(int since) const {
    Bitboard cells = 0;
    for (int sq = 0; sq < kCells; ++sq)
        if (wall_refused_[std::size_t(sq)] >= std::max(since, 0)) cells |= bit(Cell(sq));
    return cells;
}

int Belief::refused_on(Cell sq, int since) const {
    int n = 0;
    for (const Refusals& r : refusals_)
        if (r.observation >= since)
            for (Move m : r.moves) n += m.kind() == Move::Normal && m.to() == sq;
    return n;
}

void Belief::note_heart_odds(const Observation& o) {
    if (live_.empty() || o.move.kind() != Move::Normal) return;
    int on = 0;
    for (const Board& b : live_) on += b.pos.heart_victim(o.move) != NO_COLOUR;
    hearts_expected_ += double(on) / double(live_.size());
    hearts_taken_ += o.took == Observation::Took::Heart;
}

bool Belief::update(const blind::View& view, const Params& params,
                    const std::function<bool()>& keep_going) {
    const auto& tokens = view.tokens();
    const bool extends = view.viewer() == viewer_ && view.start_position().fen() == start_fen_ &&
                         read_.size() <= tokens.size() &&
                         std::equal(read_.begin(), read_.end(), tokens.begin()) && !live_.empty() &&
                         params.boards == params_.boards && !stats_.approximate;
    if (!extends) restart(view, params);
    // Refusals of the present turn, kept for the own ply that ends it (so a later start from
    // the beginning still knows them).
    if (!view.refused().empty()) {
        bool found = false;
        for (Refusals& r : refusals_)
            if (r.token == tokens.size()) r.moves = view.refused(), found = true;
        if (!found)
            refusals_.push_back({tokens.size(), int(view.history().size()), view.refused()});
    }
    const auto& history = view.history();
    std::size_t tok = read_.size();
    while (observed_ < history.size()) {
        if (!keep_going()) return false;
        const Observation& o = history[observed_];
        const std::size_t n = o.told_received ? 2 : 1;
        if (o.kind == Observation::Kind::Own) note_heart_odds(o);
        if (!advance(view, observed_, tok)) {
            if (stats_.restarts < 3) {  // none survived: from the beginning again
                ++stats_.restarts;
                restart(view, params);
                tok = 0;
                continue;
            }
            from_view(view);
            read_ = tokens;
            observed_ = history.size();
            note_hunt();
            break;
        }
        for (std::size_t k = 0; k < n; ++k) read_.push_back(tokens[tok + k]);
        tok += n;
        ++observed_;
        for (Board& b : live_) note_hearts(b, int(observed_));
        if (o.kind != Observation::Kind::Own) note_hunt();
        // Our men's cells, and our walls' zones: no heart rests in a wall's zone, and our
        // wall could not have ended its move beside one (SPEC 5), so a wall rules out the
        // cells around it as a man rules out its own.
        if (!live_.empty()) {
            const Bitboard held = live_[0].pos.pieces(viewer_) | live_[0].pos.zones(viewer_);
            for_each_cell(held, [&](Cell sq) { last_stood_[sq] = int(observed_); });
            // Our man took one on o.move.to(): that man may have carried its heart and left
            // it on the cell it came from, beside (a pawn's one step; SPEC 2, 4).
            if (o.kind == Observation::Kind::Own && o.took == Observation::Took::Man)
                for_each_cell(geo::neighbours(o.move.to()) & ~held,
                              [&](Cell sq) { beside_taken_[sq] = int(observed_); });
        }
        // An opposing man took ours on o.cell and stands there now: whatever our men ruled
        // out there before, it may carry a heart in, or have brought one (a carrier takes
        // its heart along, SPEC 4).
        if (o.kind == Observation::Kind::Other && o.took == Observation::Took::Man) {
            last_stood_[o.cell] = -1;
            seen_[o.cell] = int(observed_);
        }
        if (o.kind == Observation::Kind::Other && o.mover != NO_COLOUR)
            taker_[std::size_t(o.mover)] = o.took == Observation::Took::Man ? o.cell : NO_CELL;
    }
    rejuvenate(params);
    if (view.to_propose()) {
        note_refused_cells(view);
        apply_refusals(view.refused());
        if (live_.empty()) from_view(view);
    }
    note_hunt();
    return true;
}

}  // namespace klinzha
