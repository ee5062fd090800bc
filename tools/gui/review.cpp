// tools/gui/review.cpp: see review.h.
#include "review.h"

#include "engine/notation.h"
#include "engine/record.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

Reviewer::Reviewer(match::EngineSpec spec, std::vector<Position> before, std::vector<Move> played,
                   int depth, std::function<void(const json&)> emit)
    : player_(std::move(spec)),
      before_(std::move(before)),
      played_(std::move(played)),
      depth_(depth),
      emit_(std::move(emit)) {
    thread_ = std::thread([this] { run(); });
}

Reviewer::~Reviewer() {
    quit_ = true;
    thread_.join();
}

namespace {

/// A score for the mover in centi-pawns (a heart capture in n as +-(10000 - n)) as
/// `klinzha analyse` writes it: pawns with a sign (`+0.35`), `#n` or `#-n`.
std::string score_text(int cp) {
    if (cp >= 9000) return "#" + std::to_string(10000 - cp);
    if (cp <= -9000) return "#-" + std::to_string(10000 + cp);
    char b[32];
    std::snprintf(b, sizeof b, "%+.2f", cp / 100.0);
    return b;
}

}  // namespace

ReviewNotes review_notes(const json& points, int players) {
    ReviewNotes out;
    AnalysisTally tally;
    for (const json& p : points) {
        const auto c = parse_colour(p.value("mover", ""));
        const int ply = p.value("ply", 0);
        if (!c || ply < 1) continue;
        const int loss = p.value("loss", 0);
        const int grade = move_grade(loss);  // (the point's mark is kGradeSymbols[grade])
        out.moves[std::size_t(ply - 1)] = {kGradeNags[grade], p.value("note", "")};
        tally.add(*c, grade, loss, true);  // the review scores play moves only
    }
    out.lead = "klinzha analysis: " + tally.summary(players);
    return out;
}

void Reviewer::run() {
    if (auto err = player_.start()) {
        emit_({{"type", "error"}, {"message", "review: " + *err}});
        return;
    }
    // A reply's score in centi-pawns for the side to move (a heart capture as +-(10000 - n)).
    auto cp_of = [](const match::Reply& r) {
        if (r.mate) return *r.mate > 0 ? 10000 - *r.mate : -10000 - *r.mate;
        return r.cp.value_or(0);
    };
    json points = json::array();
    std::int64_t last_emit = 0;
    const std::string go = "go depth " + std::to_string(depth_);
    const std::size_t n = before_.size();
    for (std::size_t i = 0; i < n && !quit_.load(); ++i) {
        const Position& p = before_[i];
        const Move m = played_[i];
        if (p.phase() != Phase::Play || p.game_over()) continue;
        const std::string pos_cmd = "position fen " + p.fen();
        player_.send_line("setoption name Players value " + std::to_string(p.players()));
        const match::Reply best = player_.go(pos_cmd, go, 60000);
        if (best.status != match::Reply::Ok) {
            emit_({{"type", "error"}, {"message", "review: the engine did not answer"}});
            return;
        }
        int best_cp = cp_of(best), mine_cp = best_cp;
        const std::string played = move_to_string(m.bare());
        if (best.move != played) {
            const match::Reply mine = player_.go(pos_cmd, go + " searchmoves " + played, 60000);
            if (mine.status != match::Reply::Ok) {
                emit_({{"type", "error"}, {"message", "review: the engine did not answer"}});
                return;
            }
            mine_cp = cp_of(mine);
            // A search of the played move alone can see further than the whole search did:
            // then the played move is the best one found.
            if (mine_cp > best_cp) best_cp = mine_cp;
        }
        const int loss = std::clamp(best_cp - mine_cp, 0, 1000);  // cp, as analyse counts it
        const int grade = move_grade(loss);
        const Colour mover = p.to_move();
        const Colour pov = p.players() == 2 ? GREEN : mover;
        const double sign = pov == mover ? 1.0 : -1.0;
        json pt{{"ply", i + 1},
                {"mover", colour_name(mover)},
                {"pov", colour_name(pov)},
                {"pawns", sign * std::clamp(best_cp, -1000, 1000) / 100.0},
                {"mark", kGradeSymbols[grade]},
                {"loss", loss},
                {"san", to_record_algebraic(p, m)}};
        if (std::abs(best_cp) >= 9000) pt["mate"] = true;
        auto parsed = parse_move(p, best.move);
        pt["best"] = std::holds_alternative<Move>(parsed) ? to_algebraic(p, std::get<Move>(parsed))
                                                          : best.move;
        pt["note"] = score_text(mine_cp) + " best " + score_text(best_cp) + " " +
                     pt["best"].get<std::string>();
        points.push_back(pt);
        const bool last = i + 1 == n;
        if (last || steady_ms() - last_emit >= 200) {
            last_emit = steady_ms();
            emit_({{"type", "review"}, {"plies", n}, {"done", i + 1}, {"points", points}});
        }
    }
    if (!quit_.load())
        emit_({{"type", "review"},
               {"plies", n},
               {"done", n},
               {"points", points},
               {"finished", true}});
    player_.send_line("quit");
}

}  // namespace klinzha::gui
