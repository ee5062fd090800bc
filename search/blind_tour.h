// search/blind_tour.h: the hunt's sweep in a blind game (SPEC 25; issue 28): how much a
// proposal speeds up a planned tour of our men over the cells where an opposing lone heart
// may stand.
//
// A heart standing alone never moves (SPEC 4), so once the hunt's cells are known (each with
// its value, BlindSearch::hunt_values), finding the heart is a search for a fixed target:
// our men must end moves on the cells, one man a move, before the move-count draw (SPEC 7).
// The tour is greedy: again and again, the man and cell with the most value per move needed
// (the cell's share of the values over the moves the man needs to reach it, by its paths,
// our other men blocking as in the view), until the cells or the moves left run out. Its
// expected time is the sum over the cells of their shares times the move at which the tour
// reaches them (a cell not reached before the draw: the moves left + 1). A proposal's gain
// is the expected time of the tour after a move that does nothing for the hunt (a pass)
// less that after the proposal (its cell reached at move 1 if it is one of the hunt's):
// about 1 for a move along the plan (it saves one move), 0 for one that wanders or comes
// back. Moving back and forth between cells worth something gains nothing, where a bonus
// per cell reached would pay each time. The gain is clamped at 1, so a move onto the best
// cell gains no more than any move along the plan; a proposal's probe (its cell's share of
// the values, the chance it finds the heart at once) tells them apart, and the hunt adds it
// (BlindSearch::hunt_novelty, issue 28's thirty-first round, docs/search.md). A wall takes a
// lone heart only where no opposing man stands beside it (SPEC 5), so a wall's visit finds it
// with the chance kWallTakes and leaves the rest of the cell's share to our other men (issue
// 28's thirty-eighth round). A wall may not end a move with any heart in its zone (SPEC 5): a
// wall's move beside a lone heart is refused, which costs the turn nothing and shows where the
// heart stands (a man takes it the move after), and an accepted one rules its zone out. So
// the sweep counts a wall's move as finding the shares of its zone's cells too, a move later,
// except on the cells where a proposal of our wall was refused already (the hunt weighs
// those up and leaves them to the other men: Belief::wall_refused; issue 28's forty-ninth
// round).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "engine/position.h"

namespace klinzha {

class HuntTour {
  public:
    /// Our moves the tour looks ahead at most (the draw is 50 moves away at the most).
    static constexpr int kHorizon = 60;
    /// The most moves a man's distance table counts; a cell further is out of reach.
    static constexpr int kFar = 16;
    /// The chance that a wall's move onto the cell where an opposing heart stands alone takes
    /// it: the move is legal only when no opposing man stands beside the cell and no opposing
    /// wall's zone meets the wall's (SPEC 5), and the carrier that left the heart often stands
    /// beside it. On the records of 1,600 games against the random player, no opposing man
    /// stood beside the heart's cell and no opposing wall within two steps of it at 6,008 of
    /// 12,288 of our turns with it alone (0.49; issue 28's thirty-eighth round,
    /// docs/search.md). The sweep counts a wall's visit as finding that share of the cell's
    /// value and leaves the rest to our other men.
    static constexpr double kWallTakes = 0.5;

    /// `value`: per cell, the hunt's value (>= 0; BlindSearch::hunt_values: the shares are
    /// these over their sum, cells of value 0 left out). `v`: the viewer's view in play (our
    /// men only, SPEC 25), `us` the viewer. The horizon: our moves left before the
    /// move-count draw (SPEC 7, from v's count; kHorizon under DrawRule none), at most
    /// kHorizon and at least 1. Raises nothing.
    /// `wall_blind`: cells a wall's zone does not sweep (a wall's proposal beside them was
    /// refused: Belief::wall_refused), left to the other men.
    HuntTour(const std::array<double, kCells>& value, const Position& v, Colour us,
             Bitboard wall_blind = 0);

    /// The moves proposal m saves the tour against a pass, in [0, 1] (see the file comment).
    /// 0 for a move that is not a normal move of one of our men, and when no cell has value.
    double gain(Move m);

    /// The chance proposal m finds the heart at once, in [0, 1]: its cell's share of the
    /// values (the sum of the values over the cells, 1), times kWallTakes for a wall's move.
    /// 0 for a move that is not a normal move of one of our men, and on a cell of value 0.
    double probe(Move m) const;

    /// The tour's expected time (our moves) from the view as it is, starting at move `t0`.
    double expected_time(int t0 = 0);

    /// Moves a man of type t needs from `from` to each cell (kFar + 1: out of reach), our
    /// men of the view blocking paths and destinations (the man itself aside); knights jump
    /// (SPEC 3); only a carrier ends on our own heart (SPEC 4), and a wall never beside it
    /// (SPEC 5; the opponents' men and zones are unseen). Cached per type and cell.
    const std::array<std::uint8_t, kCells>& distances(PieceType t, Cell from);

  private:
    struct Man {
        PieceType type;
        Cell cell;
    };
    /// The greedy tour's expected time from men `men` over the cells in `left`, each with the
    /// share `rest` of the values still to find there, starting at move t0; the cells in
    /// `walled` a wall has visited (no wall visits them again).
    double tour(std::vector<Man> men, std::array<double, kCells> rest, Bitboard left,
                Bitboard walled, int t0);
    /// The chance a visit of a man of type t finds the heart on a cell that holds it: 1, and
    /// kWallTakes for a wall.
    static double takes(PieceType t) { return t == WALL ? kWallTakes : 1.0; }
    /// The share of the values a visit of a man of type t to c finds: the rest on c if it is
    /// in `left`; for a wall kWallTakes of it (none once `walled`), plus the rest on the cells
    /// of its zone in `left` but not in wall_blind_ (a heart there bars the move, SPEC 5).
    double visit_finds(PieceType t, Cell c, const std::array<double, kCells>& rest, Bitboard left,
                       Bitboard walled) const;
    /// Makes that visit at move `at`: takes what it finds out of rest and left (a wall's cell
    /// into walled), and returns the found shares times the move each is found at (the
    /// zone's at + 1: a man takes the heart the refusal showed).
    double visit(PieceType t, Cell c, std::array<double, kCells>& rest, Bitboard& left,
                 Bitboard& walled, int at) const;

    const Position& v_;
    Colour us_;
    std::array<double, kCells> share_{};
    Bitboard cells_ = 0;       ///< the cells of value > 0
    Bitboard wall_blind_ = 0;  ///< cells a wall's zone does not sweep
    std::vector<Man> men_;
    int horizon_ = kHorizon;
    double pass_ = -1;  ///< the tour's expected time after a pass (computed once)
    std::map<std::pair<int, int>, std::array<std::uint8_t, kCells>> dist_;
};

}  // namespace klinzha
