// search/belief.h: what a blind player believes of the hidden men (SPEC 25): a set of whole
// positions (boards, or particles) each consistent with every observation of its view.
//
// The anchors are the Kriegspiel and Reconnaissance Blind Chess programs (Darkboard,
// StrangeFish, Penumbra): keep boards that agree with what one was told, and search those.
// Here each board is a whole position that the history could have led to:
//  * the opponents' setups are drawn from a pool the setup planner makes for each of them on
//    an empty board (they place without seeing ours either), with its random variety, each
//    board taking one setup (and a random change to it in half the boards);
//  * the opponents' hidden plies are sampled among the moves that agree with what the viewer
//    was told of them: captures where a capture was announced (of the viewer's man on that
//    cell, of its heart, of a third colour's heart), none where none was; a heart placement
//    by the evaluation in that opponent's own view;
//  * the viewer's own plies must be legal on the board and capture there exactly what the
//    arbiter said (blind::announce on the board must give the token the viewer got); every
//    proposal refused (in this turn, or remembered from earlier calls) must be illegal there.
// A board that contradicts an observation is dropped and replaced by a copy of a board that
// survived (sequential importance resampling with hard constraints); but a board whose lone
// opposing heart stood where our own move went, without the arbiter announcing it taken, is
// kept with that heart put elsewhere (relocate_heart: the hunt's misses would otherwise
// leave the boards that crowd on the next wrong cell, and lose the true one). A refused proposal is
// a hard constraint while some board explains it; when none does, a few boards are mended (one
// hidden man moved near the refused move so that it bars it); failing that, a soft one. When none
// survives, the belief starts again from the beginning of the game (three tries), and if that fails
// too it builds boards from the view as it is now (the opponents' setups placed whole, clashes
// removed): consistent with the view, not with the whole history (approximate() says so).
//
// update() continues from where the last call stopped when the new history extends the one
// it has read (the usual case: one call per move), else it starts again. Not thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "engine/blind.h"
#include "engine/movegen.h"
#include "planner.h"

namespace klinzha {

class Belief {
  public:
    struct Params {
        int boards = 256;  ///< boards held (>= 1)
        int setups = 8;    ///< setups the planner makes for each opponent's pool (>= 1)
        SetupPlanner::Params planner;
        /// Percent (0..100) of rejuvenate()'s changes that give a hidden man the kind of one
        /// of its colour's men no longer on the board (swap_kind()): the arbiter does not tell
        /// which kind a capture took (SPEC 25), and boards descended from few ancestors may
        /// all agree wrongly. Off by default: at 5 it ended the wrong sure bounds of the
        /// traced games but cost the boards the true cell of a lone heart more often, and
        /// played no better (docs/search.md, issue 28's twenty-eighth round).
        int type_swap = 0;
    };

    /// Counters for `info string` (since the belief last started from the beginning).
    struct Stats {
        std::uint64_t dropped = 0;  ///< boards that contradicted an observation
        int restarts = 0;           ///< starts from the beginning after every board failed
        bool approximate = false;   ///< boards built from the view alone (see file comment)
        /// Refusals that no board explained (every board allowed the move): each kept as a
        /// soft observation, the boards left as they were.
        int unexplained = 0;
        /// Boards mended so that they agree with an observation (a hidden man moved).
        std::uint64_t repaired = 0;
        /// Boards whose lone opposing heart stood where our move went without taking it,
        /// kept with the heart moved elsewhere (relocate_heart()).
        std::uint64_t relocated = 0;
        /// Boards changed a little against sample impoverishment (rejuvenate()).
        std::uint64_t rejuvenated = 0;
    };

    explicit Belief(std::uint64_t seed = 0x426c696e64ULL) : seed_(seed), rng_(seed) {}

    /// Brings the boards up to date with `view`. keep_going() is asked between tokens (a
    /// time budget); when it says stop, the boards are those of the last token read and the
    /// next update goes on from there. Returns false only when the boards do not reach the
    /// view's present (stopped early).
    bool update(const blind::View& view, const Params& params,
                const std::function<bool()>& keep_going);

    /// The boards held (0 when the belief has none: before the first update, or when even
    /// the boards built from the view failed): whole positions at the view's present.
    std::size_t size() const { return live_.size(); }
    const Position& board(std::size_t i) const { return live_[i].pos; }
    const Stats& stats() const { return stats_; }
    /// The observations read so far, and the last of them at which one of the viewer's men
    /// stood on `sq`, or `sq` lay in one of the viewer's walls' zones (no heart rests there,
    /// SPEC 5), or a proposal of the viewer's ending there was refused with nothing on its
    /// way (note_refused_cells) (-1: never since the belief started): a lone heart there
    /// since would have been taken, or no heart stood there.
    int observed() const { return int(observed_); }
    int last_stood(Cell sq) const { return last_stood_[sq]; }
    /// The last observation at which an opposing man was known to stand on `sq` (it took
    /// one of the viewer's men there: `?x<cell>`, SPEC 25), -1 never. That cell's last_stood()
    /// is -1 from then: a heart its taker carried may have been left there.
    int seen(Cell sq) const { return seen_[sq]; }
    /// The last observation at which one of the viewer's men took an opposing man on a cell
    /// beside `sq` while `sq` held none of the viewer's men and lay in none of its walls'
    /// zones, -1 never: the man taken may have carried its heart from `sq` and left it there
    /// (SPEC 4), after our men last stood there. The hunt counts `sq` as not stood on since
    /// (BlindSearch::hunt_values); the boards are left as they are.
    int beside_taken(Cell sq) const { return beside_taken_[sq]; }
    /// The last observation before which a proposal of one of the viewer's walls to `sq`, or
    /// to a cell beside it, was refused, -1 never: a wall may not end a move with a heart in
    /// its zone (SPEC 5), so a heart may stand on `sq`, and the wall's zone cannot sweep it.
    /// The hunt weighs such a cell up and leaves it to the other men
    /// (BlindSearch::hunt_values, HuntTour).
    int wall_refused(Cell sq) const { return wall_refused_[sq]; }
    /// The cells whose wall_refused() is `since` or later (and not -1), as a bitboard.
    Bitboard wall_refused_since(int since) const;
    /// The first observation of the hunt: the stretch of observations, up to the last one
    /// read, at which half of the boards or more held an opposing heart standing alone
    /// (SPEC 4), counted after each opponent's ply and at the end of each update(); -1 when
    /// fewer do now (or nothing was read). A heart alone never moves, and a player that
    /// picks it up again seldom (the random blind player) leaves it where it is: the longer
    /// the hunt, the likelier our men's visits since it began came after the heart was left
    /// (BlindSearch::exploration, issue 28's thirty-sixth round). Raises nothing.
    int hunt_from() const { return hunt_from_; }
    /// The viewer's proposals ending on `sq` (normal moves) that the arbiter refused in its
    /// turns from observation `since` on, the present turn's included (SPEC 25): each says
    /// that an opposing man, a wall's zone or a man on the way barred it, so the cell was not
    /// to be reached that way then. Counted over the whole game the view holds (kept across
    /// restarts). Raises nothing.
    int refused_on(Cell sq, int since) const;
    /// How far the boards' opposing hearts can be trusted, in (0, 1]: (1 + hearts our
    /// moves took) / (1 + hearts the boards expected them to take), at most 1; the
    /// expectation sums, over our moves read, the share of the boards (before the move) on
    /// which it ends on an opposing heart. Boards that keep putting hearts where our men then
    /// find none (their carriers and relocations guess, SPEC 25) weigh less each time.
    double heart_odds() const {
        return std::min(1.0, (1.0 + hearts_taken_) / (1.0 + hearts_expected_));
    }
    /// Forgets everything (ucinewgame), and starts the random numbers again from the seed: a
    /// game's boards do not depend on the games played before it, so a record replayed in a
    /// fresh engine (tools/match/blind_trace.py) follows the boards of the game (its clock
    /// aside). Raises nothing.
    void clear();
    /// from_view() for tests and analysis: the boards built from `view` alone, with the
    /// parameters of the last update(). Raises nothing.
    void rebuild_from_view(const blind::View& view) { from_view(view); }

    /// The prior on where a lone heart of `owner` stands, per cell in (0, 1]: kHomeDecay^d, d
    /// the steps from the nearest of owner's setup cells (its region, and the separators
    /// beside it under ForwardPlacement). A heart is placed on one of its owner's carriers
    /// in those cells (SPEC 6) and moves only when a carrier takes it along (SPEC 4), so a
    /// lone heart stands mostly where it was placed or near it. Used by rejuvenate() (a lone
    /// heart moved only as the prior allows) and by the hunt (BlindSearch::hunt_values).
    static const std::array<double, kCells>& home_prior(const Rules& rules, Colour owner);
    /// home_prior's d per cell: the steps from the nearest of owner's setup cells (SPEC 6).
    /// Raises nothing.
    static const std::array<int, kCells>& home_steps(const Rules& rules, Colour owner);
    /// The prior's decay per step away from the setup cells: of 367 lone hearts taken in
    /// games of 60 plies or more against the random blind player, 310 stood in the owner's
    /// region, 27 on a separator, 30 in the other two regions (docs/search.md): per cell
    /// about 1, 0.4, 0.05.
    static constexpr double kHomeDecay = 0.4;

  private:
    struct Board {
        Position pos;
        std::array<std::vector<Move>, kColours> plan;  ///< each opponent's setup still to come
        /// Per colour: the observation index from which its heart has stood alone where it
        /// is on this board (it was carried, or placed, before that).
        std::array<int, kColours> alone_since{};
    };
    /// Forgets what the observations read so far told (read_, observed_, the per-cell
    /// records last_stood_, seen_, beside_taken_, and the heart odds' counts); clear() and
    /// restart() both start from it. Raises nothing.
    void forget_observations();
    void restart(const blind::View& view, const Params& params);
    /// Applies observation j of the view's history (its tokens from tok) to every board;
    /// false if none survives.
    bool advance(const blind::View& view, std::size_t j, std::size_t tok);
    /// advance() for the viewer's own move o (its arbiter's tokens from tok): the boards where
    /// it is legal and told alike (a few mended when none), the turn's refusals, the move.
    bool advance_own(const blind::Observation& o, const std::vector<std::string>& tokens,
                     std::size_t tok);
    /// Plays the viewer's own move o on p; three players, the men it received put where the
    /// arbiter said. False when the board cannot be mended into a valid position (SPEC 10).
    bool play_own(Position& p, const blind::Observation& o, const std::vector<std::string>& tokens,
                  std::size_t tok) const;
    /// advance() for another player's move or removal: on each board, a move that agrees
    /// with what the viewer was told (guess_move); a few boards mended when none has one.
    bool advance_other(const blind::Observation& o);
    /// A move for the unseen mover of o on board b: its planned setup, the heart on the
    /// carrier the evaluation likes (or one at random), in play a move that agrees with o.
    /// The none move when there is none. `legal` is scratch space.
    Move guess_move(Board& b, const blind::Observation& o, MoveList& legal);
    /// Mends a few boards so that the mover of o has a move that agrees with it, plays one
    /// and adds them to `next`.
    void mend_for_other(const blind::Observation& o, std::vector<Board>& next);
    /// A refused proposal of the viewer's turn (view) that nothing on its way could have
    /// barred (a knight's jump, or a move of one step; walls aside) ends in an opposing wall's
    /// zone or on an opposing wall (SPEC 5): no heart rests on that cell now (SPEC 4), which
    /// last_stood() records as if one of the viewer's men stood there.
    void note_refused_cells(const blind::View& view);
    /// heart_odds()'s counts for our move o, on the boards before it (read in order).
    void note_heart_odds(const blind::Observation& o);
    /// Drops the boards where a refused proposal is legal (the refusals of view's turn).
    void apply_refusals(const std::vector<Move>& refused);
    /// Keeps the boards where no refused proposal is legal; when there are none, mends a few
    /// by moving one hidden man near the refused moves; when that fails too, keeps them all
    /// (Stats::unexplained).
    void filter_refusals(std::vector<Board>& boards, const std::vector<Move>& refused);
    /// Refills live_ from the survivors `next` (copies of random survivors) up to the count.
    void resample(std::vector<Board>& next);
    /// Replaces the boards by params_.boards built from the view alone, at the present (what
    /// update() falls back to when no board can follow the observations; sets
    /// Stats::approximate): the viewer's men; each opponent still in with a setup from its
    /// pool; two players in play, the men the viewer took removed at random among those that
    /// are not walls (walls are never taken, SPEC 3); each opposing heart on one of its
    /// carriers in half the boards, else (or when it has none: SPEC 4) alone on a free cell
    /// drawn by home_prior (1 on a cell seen()), issue 28's thirty-ninth round. Raises
    /// nothing; the boards may be fewer, none when no valid position (SPEC 10) was found.
    void from_view(const blind::View& view);
    /// from_view()'s heart of colour c on w (its men placed; `zones`: every wall's zone on
    /// w): on one of c's carriers in half the boards, else, or with no carrier, alone on a
    /// free cell drawn by lone_heart_weight(). False when neither has a cell.
    bool put_hidden_heart(Position& w, Colour c, Bitboard zones);
    /// A lone hidden heart's weight on cell sq, as the hunt weighs it: `prior` (home_prior of
    /// its owner) there, or 1 on a cell where an opposing man took ours (seen()).
    double lone_heart_weight(const std::array<double, kCells>& prior, Cell sq) const {
        return seen_[sq] >= 0 ? 1.0 : prior[sq];
    }
    /// Tries to make ok(p) true by moving one hidden object (a man of another colour with
    /// the heart it carries, or a lone heart of another colour) to a free cell of `near`, at
    /// most `tries` times; the result must be a valid position (SPEC 10). True when p was
    /// changed (Stats::repaired counts it). The moved object's own past is not re-checked.
    bool mend(Position& p, Bitboard near, const std::function<bool(const Position&)>& ok,
              int tries);
    /// The moves of the player to move in p that agree with the observation o of its ply.
    void fitting(const Position& p, const blind::Observation& o, MoveList& fit) const;
    /// Small changes to half the boards that no present observation rules out (a hidden heart
    /// on another carrier, a lone hidden heart on another cell that no own man has stood on
    /// since it was left, a hidden man moved as by one of its moves, never the man that took
    /// ours at its colour's last ply (taker_: the arbiter named its cell, and it has not
    /// moved since; issue 28's fortieth round), and a share params.type_swap of them a hidden
    /// man given a kind taken), against sample impoverishment (Stats::rejuvenated).
    void rejuvenate(const Params& params);
    /// rejuvenate()'s kind change on q (a board's position) for colour c: one of c's hidden
    /// men, not a wall (walls are never taken, SPEC 3) and not the carrier of c's heart,
    /// takes the kind of one of c's men of the setup (kSetCount, SPEC 2) no longer on the
    /// board. False when none applies (nothing taken, or the kind drawn is the man's own);
    /// the caller validates q.
    bool swap_kind(Position& q, Colour c);
    /// A board on which our own move m would have taken a lone opposing heart (the arbiter
    /// said it did not): the heart is put on another cell, drawn with the weight of
    /// home_prior (1 where an opposing man took ours, seen()) among the free cells, in no
    /// zone or cloud, where none of our men has stood since the heart was left; kept when
    /// ok() holds of the valid position (SPEC 10) it makes, up to four draws. Its men stay:
    /// only where the heart stands was wrong. True when b was changed (Stats::relocated).
    bool relocate_heart(Board& b, Move m, const std::function<bool(const Position&)>& ok);
    /// Board::alone_since brought up to observation `at` (a carried heart is not alone yet).
    static void note_hearts(Board& b, int at);
    /// hunt_from() after an opponent's ply (or a removal) read, and at the end of update():
    /// the observation read last begins the hunt when half of the boards or more hold a lone
    /// opposing heart and none had begun, ends it when fewer do.
    void note_hunt();
    /// A free cell for a lone heart of colour c on board b (rejuvenate()): within three
    /// steps, empty, in no zone, no cloud and no heart, and no own man has stood there since
    /// the heart was left (last_stood_); drawn at random and kept with the chance
    /// min(1, home_prior(to) / home_prior(from)) (a Metropolis step, so that repeated moves
    /// do not carry the boards' hearts off to the cells our men never visit). NO_CELL when
    /// there is none or the step is not kept.
    Cell loose_heart_cell(const Board& b, Colour c);
    /// A setup for colour c placed at random, placement by placement (legal on the empty
    /// board).
    std::vector<Move> random_setup(Colour c);
    /// A setup for colour c from its pool (made on first use), in half the cases with one
    /// piece moved to another free cell of its setup cells.
    std::vector<Move> setup_for(Colour c);

    std::uint64_t seed_;
    std::mt19937_64 rng_;
    Params params_;
    Colour viewer_ = NO_COLOUR;
    std::string start_fen_;
    Position start_;
    std::vector<std::string> read_;  ///< the tokens read so far
    std::size_t observed_ = 0;       ///< the observations read so far
    /// Per cell: the last observation index at which one of the viewer's men stood there
    /// (it ended a move there, or stayed there) or one of its walls' zones held it, -1
    /// never: a lone heart there then would have been taken, or could not rest there.
    std::array<int, kCells> last_stood_{};
    std::array<int, kCells> seen_{};          ///< seen(): -1 never
    std::array<int, kCells> beside_taken_{};  ///< beside_taken(): -1 never
    std::array<int, kCells> wall_refused_{};  ///< wall_refused(): -1 never
    /// Per colour: the cell where its man took one of the viewer's at its last ply read
    /// (the arbiter named it, SPEC 25), NO_CELL when that ply took none; rejuvenate()
    /// never moves the man there, since no ply of its own has come since.
    std::array<Cell, kColours> taker_{};
    int hunt_from_ = -1;          ///< hunt_from()
    int hearts_taken_ = 0;        ///< heart_odds(): hearts our moves read took
    double hearts_expected_ = 0;  ///< heart_odds(): what the boards expected of them
    std::vector<Board> live_;
    std::array<std::vector<std::vector<Move>>, kColours> pool_;  ///< setups per colour
    /// The proposals refused in one of the viewer's turns.
    struct Refusals {
        std::size_t token;  ///< the index of the own token they came before
        int observation;    ///< the index of the viewer's ply they came before
        std::vector<Move> moves;
    };
    std::vector<Refusals> refusals_;
    Stats stats_;
};

}  // namespace klinzha
