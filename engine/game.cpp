// engine/game.cpp: one game as played, its movetext and its reading from a record (game.h).
#include "game.h"

#include <algorithm>
#include <initializer_list>
#include <variant>

#include "notation.h"
#include "position.h"
#include "record.h"

namespace klinzha {

std::string Game::result() const {
    if (unfinished) return "*";
    auto token = [&](int c) {
        switch (outcome[std::size_t(c)]) {
            case Outcome::Win:
                return std::string("1");
            case Outcome::Loss:
                return std::string("0");
            default:
                return std::string("1/2");
        }
    };
    std::string r;
    for (int c = 0; c < players; ++c) r += (c ? "-" : "") + token(c);
    return r;
}

void Game::set_result(std::string_view token) {
    const auto scores = result_scores(token, players);
    unfinished = scores.empty();
    outcome = {Outcome::Draw, Outcome::Draw, Outcome::Draw};
    for (std::size_t c = 0; c < scores.size(); ++c)
        outcome[c] = scores[c] == 1 ? Outcome::Win : scores[c] == 0 ? Outcome::Loss : Outcome::Draw;
}

double Game::points(Colour c) const {
    return outcome[c] == Outcome::Win ? 1.0 : outcome[c] == Outcome::Draw ? 0.5 : 0.0;
}

int Game::rh_points(Colour c) const {
    return hearts_captured[c] - (heart_lost[c] ? 1 : 0);
}

double Game::kz_points(Colour c) const {
    return outcome[c] == Outcome::Win ? 1.0 : outcome[c] == Outcome::Draw ? -0.5 : 0.0;
}

std::vector<std::string> Game::history(std::size_t n) const {
    n = std::min(n, moves.size());
    std::vector<std::string> h;
    std::size_t r = 0;
    for (std::size_t i = 0; i <= n; ++i) {
        for (; r < removals.size() && removals[r].before_move == i; ++r)
            h.push_back("out:" + removals[r].why);
        if (i < n) h.push_back(moves[i].move);
    }
    return h;
}

void Game::truncate(std::size_t n) {
    if (n < moves.size()) moves.resize(n);
    while (!removals.empty() && removals.back().before_move > n) removals.pop_back();
}

std::string Game::movetext() const {
    std::string text;
    bool in_play = false;
    int number = 0;
    Colour first = GREEN;
    std::size_t next_removal = 0;
    auto comment = [&](const std::string& c) {
        if (!c.empty()) text += "{" + c + "} ";
    };
    comment(lead_comment);
    for (std::size_t i = 0; i <= moves.size(); ++i) {
        // A removal the referee imposed (SPEC 7), before the move at i: `{k out: why}`.
        for (; next_removal < removals.size() && removals[next_removal].before_move == i;
             ++next_removal) {
            const Removal& r = removals[next_removal];
            comment(std::string(1, kColourChar[r.colour]) + " out" +
                    (r.why.empty() ? "" : ": " + r.why));
        }
        if (i == moves.size()) break;
        const PlayedMove& m = moves[i];
        if (i == 0 && m.setup) text += "{setup} ";
        if (!m.setup && !in_play) {
            in_play = true;
            text += "{play} ";
            first = m.mover;
        }
        if (in_play && (m.mover == first || number == 0)) text += std::to_string(++number) + ". ";
        text += m.algebraic + " ";
        if (!m.annotation.nag.empty()) text += m.annotation.nag + " ";
        comment(m.comment);
        comment(m.spindles);
        comment(m.annotation.comment);
    }
    return wrap_movetext(text + result());
}

namespace {

/// The value of the first tag of `names` that `g` has, or nullptr.
const std::string* tag(const RecordGame& g, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (auto it = g.tags.find(n); it != g.tags.end()) return &it->second;
    return nullptr;
}

}  // namespace

PlayedMove played_move(const Position& before, Move m) {
    PlayedMove pm;
    pm.move = move_to_string(m);
    pm.algebraic = to_record_algebraic(before, m);
    pm.mover = before.to_move();
    pm.setup = before.phase() != Phase::Play;
    return pm;
}

Game game_from_record(const RecordGame& g, const Replay& r) {
    Game game;
    Position p = r.start;
    game.players = p.players();
    game.start_fen = p.fen();
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const std::string& mv = r.moves[i];
        const int t = i < r.token.size() ? r.token[i] : -1;
        const RecordGame::Token* tok = t >= 0 ? &g.tokens[std::size_t(t)] : nullptr;
        if (mv.rfind("out:", 0) == 0) {
            game.removals.push_back({game.moves.size(), p.to_move(),
                                     !tok                   ? "no legal move"
                                     : tok->comment.empty() ? "removed by the referee"
                                                            : tok->comment});
            p.eliminate_to_move();
            continue;
        }
        const auto m = parse_played_move(p, mv);
        if (!std::holds_alternative<Move>(m)) break;  // replay() made it: cannot happen
        PlayedMove pm = played_move(p, std::get<Move>(m));
        if (tok) {
            pm.comment = tok->comment;
            if (!tok->spindles.empty()) pm.spindles = "spindles " + tok->spindles;
        }
        game.moves.push_back(std::move(pm));
        p.do_move(std::get<Move>(m));
    }
    const char* colour_tags[kColours][2] = {
        {"Green", "White"}, {"Blue", game.players == 2 ? "Black" : "Blue"}, {"Black", "Black"}};
    for (int c = 0; c < game.players; ++c)
        if (auto* name = tag(g, {colour_tags[c][0], colour_tags[c][1]})) game.names[c] = *name;
    game.set_result(g.result);
    if (auto* why = tag(g, {"Termination"}); why && *why != "unterminated") game.termination = *why;
    return game;
}

}  // namespace klinzha
