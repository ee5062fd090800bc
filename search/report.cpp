// search/report.cpp: what a worker tells the GUI (worker.h): the info lines of SPEC 13
// (depth, score, mate, nodes, pv, currmove), the standings of three players and Kinta's odds.
#include <algorithm>
#include <cstdio>

#include "worker.h"

namespace klinzha::detail {

int Worker::mate_moves(int score) const {
    int n = std::max(1, players_in_root_);
    int plies = kMate - std::abs(score);
    int moves = (plies + n - 1) / n;
    return score > 0 ? moves : -moves;
}

void Worker::progress(Move currmove, int number) {
    if (id_ != 0 || !cb_ || !cb_->on_progress) return;
    const std::int64_t t = ms_since(sh_.start);
    if (t < 1000) return;
    if (currmove.is_none()) {  // the once-a-second line keeps its own clock
        if (t - last_progress_ms_ < 1000) return;
        last_progress_ms_ = t;
    }
    cb_->on_progress({root_depth_, currmove, number, sh_.nodes(), t, sh_.tt.hashfull()});
}

std::string Worker::odds_text(Move m) const {
    const combat::Odds o = fight_odds(m);
    char buf[96];
    std::snprintf(buf, sizeof buf, "odds %s win %.3f A %d D %d", move_to_string(m).c_str(),
                  double(o.win), int(o.attacker_strength), int(o.defender_strength));
    return buf;
}

void Worker::report(const SearchCallbacks& cb, int depth, int pv_idx) {
    if (!cb.on_info) return;
    const RootMove& rm = root_moves[pv_idx];
    SearchInfo info;
    info.depth = depth;
    info.seldepth = std::max(rm.seldepth, depth);
    info.multipv = pv_idx + 1;
    info.score = rm.score;
    if (std::abs(rm.score) >= kMateBound) info.mate_in = mate_moves(rm.score);
    info.nodes = sh_.nodes();
    info.time_ms = ms_since(sh_.start);
    info.hashfull = sh_.tt.hashfull();
    info.pv = rm.pv;
    cb.on_info(info);
    if (pv_idx == 0 && pos_.players() == 3 && cb.on_string) cb.on_string(standings(rm.pv));
    if (cb.on_string && pos_.is_attack(rm.move))  // every MultiPV line's attack
        cb.on_string(odds_text(rm.move));
}

std::vector<Move> Worker::shown_line(Move first, const Move* line, int n) {
    std::vector<Move> out{first};
    pos_.do_move(with_likelier_outcome(first));
    int done = 1;
    for (int k = 1; k < n; ++k) {
        const Move m = line[k];
        if (m.is_none() || pos_.phase() != Phase::Play || pos_.game_over()) break;
        if (m != Move::null() && !is_legal(pos_, m)) break;
        out.push_back(m);
        pos_.do_move(with_likelier_outcome(m));
        ++done;
    }
    // A line does not end on passes.
    while (out.size() > 1 && out.back() == Move::null()) out.pop_back();
    for (int k = 0; k < done; ++k) pos_.undo_move();
    return out;
}

std::string Worker::standings(const std::vector<Move>& pv) const {
    Position p = pos_;
    for (Move m : pv) {
        if (m.is_none() || (m != Move::null() && !is_legal(p, m))) break;
        p.do_move(m);
    }
    std::string out = "standing";
    for (int c = 0; c < p.players(); ++c) {
        out += ' ';
        out += kColourChar[c];
        out += p.is_in(Colour(c)) ? " " + std::to_string(eval::evaluate(p, Colour(c))) : " out";
    }
    return out;
}

}  // namespace klinzha::detail
