// search/blind_search.h: choosing a proposal in a blind game (SPEC 25) by Perfect-Information
// Monte Carlo over the belief's boards (search/belief.h), as the Reconnaissance Blind Chess
// programs do (StrangeFish: the mean over boards with a weight on the worst).
//
// A `go` in a blind view:
//  1. The belief is brought up to date (every token it has not read yet: one or two a move).
//  2. Placements: the setup planner on the view (it sees only the player's own men, as the
//     real opponents see only theirs); after a refusal, a search of the view among the
//     proposals left.
//  3. Heart placement and play: `BlindSamples` distinct boards drawn from the belief. Step 1:
//     each board searched among the proposals legal on it (MultiPV 3). Step 2: the six
//     proposals those searches liked best are each searched on every board where they were
//     not scored (a search of that move alone, to depth 4 on a clock: kCandidateDepth),
//     while time lasts; where it runs out, a proposal unscored on a board counts the least
//     score of that board's three lines (an upper bound); a proposal that is not legal on a
//     board would be refused there. Step 3:
//     each proposal's value is 0.75 x its mean score over the boards where it is legal + 0.25
//     x its worst there, less 80 cp x the share of boards where it would be refused (a
//     refusal costs clock time and tells the opponents nothing, but tells us little either),
//     with the belief's shares (takes a heart, threatens one, leaves ours open, lets an
//     opposing man step where it takes ours next: heart_approaches), the exposure
//     of our heart and the hunt's exploration weighed by Params. Scores are the mover's,
//     centi-pawns clamped to +-1000; a heart capture counts 1200 less its distance in plies
//     (a later capture of a lone opposing heart as the board's best score without one, other
//     captures of opposing hearts as sure as the boards' hearts have proved:
//     discount_heart_captures). The proposal of highest value is played.
//  With `BlindSamples` 0, or when the belief holds no board, the view alone is searched as if
//  the board held nothing else (the other players pass): the baseline of docs/search.md.
// Limits: a clock or movetime is shared out over the boards (60% to step 1, 40% to step 2);
// `go depth N` / `go nodes N` are per board in step 1 (step 2: depth N-1, N/4 nodes; on a
// clock depth kCandidateDepth);
// `go infinite` searches each board to depth 8 and waits for stop.
// Reports through SearchCallbacks: `info string blind ...` (boards held, dropped, searched),
// one `info depth ... score cp ... pv <proposal>` line, then bestmove (always exactly one).
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "belief.h"
#include "engine/blind.h"
#include "search.h"

namespace klinzha {

class BlindSearch {
  public:
    struct Params {
        Belief::Params belief;
        int samples = 12;  ///< boards searched per move; 0: the view alone
        /// Centi-pawns per unit of the heart's exposure in the view (about the number of
        /// opposing men expected that could take it, were they placed at random: a heart in
        /// the open against a full set scores about 1).
        int exposure_cp = 6000;
        /// Centi-pawns for a proposal that takes a heart on every board, leaves ours open to
        /// an opposing move on every board, threatens a heart on every board (scaled by the
        /// share of the belief's boards where it does; wins and threats also by
        /// Belief::heart_odds(), as is the hunt's trust in the boards).
        int win_cp = 3000, danger_cp = 3000, threat_cp = 1000;
        /// Centi-pawns against a proposal for each move by which the opponent to move can
        /// step onto an empty cell from which it takes our heart next (heart_approaches, up
        /// to kApproachMost a board), on every board (scaled by the mean count over the
        /// belief's boards where our heart is not open already): the random mover plays such
        /// a move by chance, the likelier the more there are, and, unseen, takes the heart a
        /// few turns later (issue 28's forty-second round: a knight jumping onto `i56` or
        /// `i45` from the opponent's own row made half the expected heart losses; counted by
        /// moves, not boards, since the fiftieth round).
        int approach_cp = 1000;
        /// The hunt for a lone heart (it never moves, SPEC 4, and the boards may all miss its
        /// cell): centi-pawns for a move that saves one move of the sweep over the hunt's
        /// cells (HuntTour::gain, search/blind_tour.h; the cells' values hunt_values(): those
        /// none of our men has stood on since explore_since(), kExploreWindow plies or longer
        /// once an opponent has no carrier, and those the boards hold a lone heart on), plus
        /// kProbeWeight x the move's chance to find the heart at once (HuntTour::probe), times
        /// the share of the belief's boards where an opposing heart stands alone.
        int explore_cp = 1000;
        /// The move-count draw (SPEC 7) near, a won game would end drawn while the hunt goes
        /// on: centi-pawns for a proposal that takes a man on every board (the count starts
        /// again), times the share of the belief's boards where it does and reset_urgency().
        int reset_cp = 3000;
        /// Centi-pawns against a proposal that every searched board would refuse (scaled by
        /// the share that would): a refusal costs the turn's clock and nothing else (SPEC 25),
        /// and the next proposal is chosen again.
        int refusal_cp = 80;
    };
    /// The move-count draw's last kResetMoves moves of each player in: reset_urgency() > 0.
    static constexpr int kResetMoves = 20;
    /// How near the view v (the viewer's, SPEC 25) stands to the move-count draw: 0 before the
    /// last kResetMoves moves of each player in, rising linearly to 1 at the draw; 0 under
    /// DrawRule none and outside play. The view counts the captures the arbiter tells it: all
    /// of them in two players; in three, not those between the two others, so there its count
    /// (and this) may run ahead of the whole position's.
    static double reset_urgency(const Position& v);
    /// The approaches to `us`'s heart in `b` (a whole position in play; the player to move an
    /// opponent of `us`): its legal moves onto an empty cell (no man, not our heart's, outside
    /// our zones) from which, after it, the man that moved can take the heart
    /// (heart_attack_lines, SPEC 4), a threat two of its plies deep that a blind player cannot
    /// see coming. Counted by (from, to) pairs (taking the mover's own heart along or not is
    /// one), up to `most`; 0 when us has no heart or most <= 0 (`most` 1 asks only whether
    /// there is one). `b` is changed and restored (do_move and undo_move). Raises nothing.
    static int heart_approaches(Position& b, Colour us, int most);
    /// Step 2b's most approaches counted on one board (Params::approach_cp each): the chance
    /// that the random mover approaches grows with their number. Against the count of 1 (a
    /// board either has an approach or not), 4 left the heart losses expected from the
    /// random player's choice at 0.90% of 2,000 games from the start against 1.15% of 4,000
    /// (z -2.51), 2 at 0.88% of 1,200, the hunts as long (issue 28's fiftieth round,
    /// docs/search.md).
    static constexpr int kApproachMost = 4;
    static constexpr int kExploreWindow = 40;
    /// Step 2's depth on a clock: each candidate's search alone on a board stops there. Until
    /// issue 28's forty-sixth round the searcher's forced-move stop (a root of one move ends
    /// after depth 4) set it by accident; searched to the end of their share of the time
    /// instead (depth about 6) they drew as many late games as at 4 (12.9% of 688 against
    /// 11.5% of 774, CMH z +1.15), and at 3 or 2 too (z +0.37, -0.12; docs/search.md).
    static constexpr int kCandidateDepth = 4;

    /// A board search's score (centi-pawns, the mover's, eval::kMate for a heart capture) as
    /// step 3 weighs it: clamped to +-1,000; a heart capture 1,200 less its distance in plies
    /// (at most 200): kTakesHeartNow for a proposal that takes a heart itself.
    static int weigh(int score);
    static constexpr int kTakesHeartNow = 1199;
    /// One proposal on one board of step 3: legal there, scored, its weighed score (weigh());
    /// `bounded`: the score is the board's MultiPV bound (bound_unscored), not its own search.
    struct BoardScore {
        bool legal = false, scored = false, bounded = false;
        int score = 0;
    };
    /// Step 3's scores: per proposal (its raw move), one BoardScore per board searched.
    using ScoreTable = std::map<std::uint32_t, std::vector<BoardScore>>;
    /// Step 3's heart captures as sure as the boards' hearts have proved (`odds`,
    /// Belief::heart_odds(), in [0, 1]), for `scores` over `boards` (each row one entry per
    /// board, in order) and the viewer `us`. Each board's search knows where its hearts
    /// stand: with the heart alone on different cells on different boards, a man within a
    /// few moves of all of them scored a heart capture on every board (a logged move-count
    /// draw, issue 28), which no single line of play can make good: one move looks at one
    /// cell, which the hunt's sweep (hunt_novelty) weighs. So each scored proposal's weighed
    /// score above 1,000 (an opponent's heart taken in its board's line) becomes the board's
    /// base (its best score without a heart capture; its static evaluation for `us`, clamped
    /// to +-1,000 centi-pawns, when it has none) where the capture comes later than the
    /// proposal and every opposing heart on the board stands alone, else base + odds x (score
    /// - base). Our own heart's captures (negative scores) are left as they are.
    static void discount_heart_captures(ScoreTable& scores,
                                        const std::vector<const Position*>& boards, Colour us,
                                        double odds);
    /// The observation (ply) from which a cell one of our men stood on is ruled out for every
    /// opposing lone heart, for the belief last updated with `view`: observed() -
    /// kExploreWindow (a heart carried before may have been left there since), or earlier
    /// where that is sure. An opponent with no carrier on any of the belief's boards has had
    /// its heart alone, never moving (SPEC 4), since the last ply that could have taken a man
    /// of its: our own captures, and the plies of any third player (unseen, SPEC 25); so
    /// for it the bound is the observation after that ply, when it is earlier, until the hunt
    /// (Belief::hunt_from) is kLongHunt plies old: the boards may have lost a carrier still in
    /// play, and a cell our men left just before that carrier brought the heart there would
    /// stay ruled out for good (issue 28's forty-ninth round); but never when our captures
    /// have taken every man of its set but the walls (two players, SPEC 3): then it surely has
    /// no carrier (issue 28's fiftieth round: the forty-ninth round's one draw from the start
    /// had the walls alone left, and the doubt re-opened cells ruled out). The latest of
    /// the opponents' bounds (a cell is unexplored while some opponent's heart may stand on
    /// it). Negative before the kExploreWindow-th ply unless a bound is earlier.
    static int explore_since(const Belief& belief, const blind::View& view);
    /// How much proposal m explores, in [0, 1]: 0 unless it moves a man to a cell none of our
    /// men has stood on from observation `since` on (explore_since; a placement never
    /// explores); then (since - s) / (since + 1), s the last observation one stood there (-1
    /// never): 1 for a cell never stood on, less for one stood on shortly before `since`
    /// (ruled out if the heart was alone by then; with the time it became alone unknown and
    /// taken as uniform before `since`, the chance it was not). Before the window's first
    /// observation (`since` < 0): 1 for a cell never stood on, 0 for the others (a cell
    /// beside a man we took since our men stood there counts as never stood on, as always):
    /// in the first plies of play a lone heart stands on such a cell of its owner's region as
    /// often as on one the boards favour (issue 28's thirty-fifth round, docs/search.md).
    /// Once the hunt (Belief::hunt_from) is kLongHunt plies old, a cell last stood on since
    /// it began counts kLongHuntStood of that: past 80 plies of a lone heart, the cells our
    /// men had visited during its stretch held 44% of the hunt's values and never the heart
    /// (issue 28's thirty-sixth round).
    /// The hunt's unexplored cells (Params::explore_cp), oldest first.
    static double exploration(const Belief& belief, int since, Move m);

    /// The hunt's value of a move to each cell, in [0, 1]: `lone` (the share of the belief's
    /// boards where an opposing heart stands alone) x the larger of the cell's exploration
    /// (from `since`, explore_since()) x (half its prior + half min(1, held / kHeldFull)) and
    /// half min(1, held / kHeldFull) alone (the boards agree with every cell our men stood
    /// on, so they may hold a heart carried onto a cell after we left it). `held`: per
    /// cell, the share of those boards that hold a lone opposing heart there (they crowd on a
    /// few cells and may all miss the true one, so a cell one board in a hundred holds
    /// weighs little more than its prior). The prior: the most of hunt_prior over
    /// the opponents still in, or 1 where an opposing man took one of ours (Belief::seen).
    /// The boards' share counts x prior^kBoardsPriorPower: as our men visit the cells near
    /// the owner's region, the boards' lone hearts crowd onto the few cells left, far ones
    /// of small prior among them, more than the hearts do (issue 28's thirty-seventh round).
    /// Each proposal to the cell refused from `since` on multiplies its value by
    /// kRefusedDecay (a cell the sweep cannot reach by the paths it sees holds it back), and
    /// a cell on which or beside which a proposal of our wall was refused from `since` on by
    /// kWallRefusedBoost, once (Belief::wall_refused: a heart there bars a wall, SPEC 5).
    /// On a cell stood on since a long hunt began (as in exploration()), the boards' share
    /// alone counts kLongHuntStood of itself: the boards move their missed hearts back onto
    /// the cells near the owner's region, which our men had visited, and that share alone
    /// kept them at the top of the sweep for a hundred plies while the heart stood on a cell
    /// of smaller prior (issue 28's thirty-ninth round, docs/search.md).
    static std::array<double, kCells> hunt_values(const Belief& belief, int since,
                                                  const Position& v, Colour us, double lone,
                                                  const std::array<double, kCells>& held);
    /// The hunt's prior on where a lone heart of `owner` stands at cell sq, in (0, 1], for the
    /// viewer `us`: Belief::home_prior (kHomeDecay^d, d the steps from owner's setup cells)
    /// calibrated by where lone opposing hearts stood at the blind engine's turns against the
    /// random player (issue 28's thirtieth round, docs/search.md): a separator one step away
    /// x kSeparatorWeight (they held a heart a sixth as often as the region's unvisited cells,
    /// not 0.4), a cell of a third colour's region (neither owner's nor ours) four steps or
    /// more away x kThirdRegionWeight (three times the prior: the random player's men carry
    /// hearts into the empty region, where our men seldom go). Raises nothing.
    static double hunt_prior(const Rules& rules, Colour owner, Colour us, Cell sq);
    /// hunt_prior: a separator's weight one step from the owner's setup cells.
    static constexpr double kSeparatorWeight = 0.5;
    /// hunt_prior: a third region's weight four steps or more from the owner's setup cells.
    static constexpr double kThirdRegionWeight = 3.0;
    /// hunt_novelty: the weight of a proposal's chance to find the heart at once
    /// (HuntTour::probe, its cell's share of the hunt's values) beside the moves it saves the
    /// sweep (HuntTour::gain, clamped at 1, so that every move along the plan saves as much
    /// as one onto the best cell).
    static constexpr double kProbeWeight = 1.0;
    /// exploration: the hunt's age (plies since Belief::hunt_from) from which a cell stood on
    /// since the hunt began counts kLongHuntStood of its exploration.
    static constexpr int kLongHunt = 60;
    static constexpr double kLongHuntStood = 0.3;
    /// hunt_values: the share of the lone-heart boards on one cell that weighs fully.
    static constexpr double kHeldFull = 0.1;
    /// hunt_values: the power of a cell's prior that weighs the boards' share on it (0: the
    /// boards' share alone). 0.25: the true cell's log-likelihood gained 0.01 to 0.03 nats at
    /// every age of the hunt, in 617 games and lost in 65 (docs/search.md).
    static constexpr double kBoardsPriorPower = 0.25;
    /// hunt_values: a cell's value is multiplied by this for each proposal ending there that
    /// the arbiter refused from `since` on (Belief::refused_on).
    static constexpr double kRefusedDecay = 0.5;
    /// hunt_values: a cell's value is multiplied by this when a proposal of our wall to it or
    /// beside it was refused from `since` on (Belief::wall_refused: a heart there bars it).
    static constexpr double kWallRefusedBoost = 2.0;

    /// Step 2's order: (board, proposal) pairs for the candidates `ranked` ((votes, raw move)
    /// pairs, in rank order), each pair a board where the proposal is legal and unscored in
    /// `scores` (a proposal without a row has none), round by round: every candidate's first
    /// such board in rank order, then every candidate's second, and so on. Raises nothing.
    static std::vector<std::pair<std::size_t, std::uint32_t>> candidate_order(
        const std::vector<std::pair<int, std::uint32_t>>& ranked, const ScoreTable& scores);

    explicit BlindSearch(Searcher& searcher) : searcher_(searcher) {}
    ~BlindSearch();
    BlindSearch(const BlindSearch&) = delete;
    BlindSearch& operator=(const BlindSearch&) = delete;

    /// Starts choosing a proposal for `view` (copied; it must be the viewer's turn) on a
    /// thread of its own; the result comes through cb (exactly one on_bestmove).
    void start(const blind::View& view, const SearchLimits& limits, const SearchSettings& settings,
               const Params& params, SearchCallbacks cb);
    void stop();
    void ponderhit() { pondering_ = false; }
    void wait();
    bool searching() const { return running_.load(); }
    /// Forgets the belief (ucinewgame).
    void clear() { belief_.clear(); }
    const Belief& belief() const { return belief_; }

  private:
    /// One `go`: its limits and settings, the time it may take, the nodes searched so far.
    struct Turn {
        Searcher& searcher;
        SearchLimits limits;
        SearchSettings settings;
        Params params;
        SearchCallbacks cb;
        std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
        std::uint64_t nodes = 0;
        bool timed = false;
        std::int64_t total_ms = -1;  ///< this proposal's time (ms), -1 untimed

        /// A search of `root` among `only` (ms -1: untimed): the last report of each line,
        /// by multipv.
        std::map<int, SearchInfo> search(const Position& root, std::vector<Move> only,
                                         std::int64_t ms, int depth, std::uint64_t node_limit,
                                         int multipv);
        /// ms left of total_ms (untimed: a very large number).
        std::int64_t left_ms() const;
    };

    void run(blind::View view, SearchLimits limits, SearchSettings settings, Params params,
             SearchCallbacks cb);
    /// Steps 2b to 3 of the file comment: the proposal chosen over the belief's boards.
    void choose_on_boards(Turn& t, const blind::View& view, const std::vector<Move>& proposals,
                          std::string note);
    struct BoardTable;
    /// The hunt's value of each proposal that explores, by raw move: the share of the
    /// belief's boards with a lone opposing heart x (the moves it saves the sweep over the
    /// hunt's cells, HuntTour::gain, search/blind_tour.h, + kProbeWeight x the chance it
    /// finds the heart at once, HuntTour::probe), where > 0; none while no board holds a lone
    /// opposing heart or in the place phase.
    std::map<std::uint32_t, double> hunt_novelty(const blind::View& view,
                                                 const std::vector<Move>& proposals) const;
    /// Step 3's first part: the distinct boards (BlindSamples), each searched (MultiPV 3)
    /// among the proposals legal on it, with 60% of the time left shared over them.
    BoardTable search_boards(Turn& t, const blind::View& view, const std::vector<Move>& proposals);
    /// Step 2: each ranked candidate searched alone on every board where it is legal and was
    /// not scored, round by round (each candidate's first such board, then each one's second:
    /// a clock that runs out leaves none of them unscored while another is scored on every
    /// board), the time left shared over those searches: on a clock to kCandidateDepth
    /// (or the search's share of the time, whichever ends first), under `go depth N` to N - 1,
    /// under `go nodes N` N/4 nodes each.
    void search_candidates(Turn& t, BoardTable& table,
                           const std::vector<std::pair<int, std::uint32_t>>& ranked);
    /// Step 3's scores where step 2 left a legal proposal unscored on a board: the board's
    /// MultiPV bound (BoardTable::bound), when its search reported every line; only for the
    /// proposals searched on some board (one never searched stays out of step 3, as before:
    /// valued by bounds alone, the candidates that threaten or explore most were chosen
    /// unsearched, -73 Elo head to head, docs/search.md). Without it a
    /// proposal's mean and worst would count only the boards where it ranked among the best
    /// three: a move that left our heart open on 24% of the belief's boards scored a mate in
    /// 5, mean and worst, over the boards where it was scored (a logged loss, issue 28).
    static void bound_unscored(BoardTable& table);
    /// Waits out ponder/infinite, then reports: the note, one info line, bestmove.
    void finish(const Turn& t, Move best, int score, int depth, const std::string& note);

    Searcher& searcher_;
    Belief belief_;
    std::thread thread_;
    std::atomic<bool> running_{false};
    std::atomic<bool> stop_{false};
    std::atomic<bool> pondering_{false};
};

}  // namespace klinzha
