// tools/gui/review.h: a review of a whole game for klinzha-gui's evaluation graph: an engine
// (one the operator named) scores every move of the play phase as `klinzha analyse --record`
// does: its score before the move, the score of the move played (a search of that move
// alone), and a mark when the move loses 50 (?!), 100 (?) or 200 centi-pawns (??) or more
// (engine/record.h, move_grade).
//
// It runs on a thread of its own and reports after each move, at most ~5 times a second, as
// {"type":"review","plies":N,"done":k,"points":[{ply, mover, pawns, mate, pov, mark, loss,
// san, best}]}: `loss` the centi-pawns the move played lost against the best (0..1000), `ply` the
// number of the position after the move (so a click on the point shows it), `pawns` the score
// before the move in pawns from Green's side (two players) or from the mover's (three; `pov` says
// whose), `mate` when that score is a heart capture, `mark`
// "", "?!", "?" or "??", `san` the move played, `best` the engine's choice (SPEC 11) and
// `note` the record's comment for the move (review_notes).
// Errors (the engine does not start or dies) come as {"type":"error"}. The destructor stops
// the review and ends the process. Thread safety: the constructor and destructor from one
// thread; emit is called from the reviewer's thread.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "engine/position.h"
#include "player.h"
#include "tools/match/referee.h"

namespace klinzha::gui {

/// A finished review as a record's notes (`klinzha analyse --annotate`'s form, docs/protocol.md):
/// by move index (a point's ply - 1) the mark as a NAG and the comment `<played> best <best>
/// <move>` (scores for the mover, in pawns or `#n`); `lead` the summary per player (moves
/// scored, average loss in centi-pawns, inaccuracies, mistakes, blunders). Takes the
/// review's "points" and the number of players; points without a mover or ply are skipped.
struct ReviewNotes {
    std::map<std::size_t, Annotation> moves;
    std::string lead;
};
ReviewNotes review_notes(const nlohmann::json& points, int players);

class Reviewer {
  public:
    /// Reviews the moves `played[i]` made in `before[i]` (the same length; setup moves are
    /// skipped), each search `depth` plies (1..30).
    Reviewer(match::EngineSpec spec, std::vector<Position> before, std::vector<Move> played,
             int depth, std::function<void(const nlohmann::json&)> emit);
    ~Reviewer();
    Reviewer(const Reviewer&) = delete;
    Reviewer& operator=(const Reviewer&) = delete;

  private:
    void run();
    match::ProcessPlayer player_;
    std::vector<Position> before_;
    std::vector<Move> played_;
    int depth_;
    std::function<void(const nlohmann::json&)> emit_;
    std::atomic<bool> quit_{false};
    std::thread thread_;
};

}  // namespace klinzha::gui
