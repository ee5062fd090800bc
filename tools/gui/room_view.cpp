// tools/gui/room_view.cpp: what each seat sees of a room (room.h, docs/gui.md "state"): a
// ViewContext computed once, then one builder per part (legal moves, hearts in danger, moves,
// removals, seats, clocks, permissions, the status words, winners, chat, Kinta's fights, the
// Blind log). Men hidden from a seat appear nowhere in its view. Sources: SPEC 25 (Blind),
// 26 (Kinta's fights), 12 (hearts in danger).
#include "room.h"

#include <spdlog/spdlog.h>

#include "engine/combat.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "engine/svg.h"
#include "room_words.h"
#include "store.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

namespace {

/// A Kinta fighter for the page: piece letter, colour, cell, strength before the fight and
/// whether it carries its heart (SPEC 26).
json fighter_json(const Position& p, Cell c, const combat::Fighter& f) {
    return {{"piece", std::string(1, kPieceChar[f.type])},
            {"colour", colour_name(man_colour(p.man_on(c)))},
            {"cell", geo::cell_name(c)},
            {"strength", f.strength},
            {"heart", f.heart}};
}

/// The fight of the attack `played` in `before` as the record's spindles tell it (SPEC 26),
/// round by round for the page: who cast two, the spindles, who was hit, the damage and both
/// strengths after (heart bonuses included). null when the move is no attack or its spindles
/// do not replay (a record without them).
json fight_json(const Position& before, const std::string& played, const std::string& spindles) {
    const auto m = parse_played_move(before, played);
    if (!std::holds_alternative<Move>(m) || !before.is_attack(std::get<Move>(m))) return nullptr;
    const Move mv = std::get<Move>(m);
    constexpr std::string_view kPrefix = "spindles ";
    if (spindles.rfind(kPrefix, 0) != 0) return nullptr;
    const auto rounds = combat::parse_spindles(std::string_view(spindles).substr(kPrefix.size()));
    if (!rounds) return nullptr;
    const auto [a, d] = combat::fighters(before, mv);
    const auto f = combat::replay(a, d, *rounds);
    if (!std::holds_alternative<combat::Fight>(f)) return nullptr;
    const combat::Fight& fight = std::get<combat::Fight>(f);
    json rs = json::array();
    for (std::size_t i = 0; i < fight.rounds.size(); ++i) {
        const combat::Round& r = fight.rounds[i];
        const combat::RoundOutcome& o = fight.outcomes[i];
        rs.push_back({{"two", o.a_cast_two ? "A" : "D"},
                      {"spindles", {r.two_a, r.two_b, r.one}},
                      {"hit", o.a_hit ? "A" : "D"},
                      {"damage", o.damage},
                      {"a", o.a_strength},
                      {"d", o.d_strength}});
    }
    const combat::Odds odds = combat::odds(a, d);
    return {{"attacker", fighter_json(before, mv.from(), a)},
            {"defender", fighter_json(before, mv.to(), d)},
            {"a_start", a.strength + (a.heart ? combat::kHeartBonusAttacker : 0)},
            {"d_start", d.strength + (d.heart ? combat::kHeartBonusDefender : 0)},
            {"rounds", rs},
            {"winner", fight.attacker_won ? "A" : "D"},
            {"strength", fight.strength},
            {"win", odds.win}};
}

}  // namespace

namespace {

/// Whether the heart placed by `m` (a PlaceHeart move of the side to move, SPEC 6) would
/// stand where an opposing man already placed could take it.
bool heart_placed_in_danger(const Position& pos, Move m) {
    Position after = pos;
    const Colour us = pos.to_move();
    after.do_move(m);
    for (int c = 0; c < pos.players(); ++c)
        if (Colour(c) != us && attacks_heart(after, Colour(c), us)) return true;
    return false;
}

}  // namespace

namespace {

/// The Blind log of a seat (SPEC 25): one line per observation of `v`, in order, then one per
/// proposal refused this turn; moves in RH algebraic notation as the seat's own view wrote
/// them (SPEC 11: an opposing man it could not see is no capture there, the arbiter's word
/// says it). Adds to `crossed` each cell where the seat lost a man.
json blind_log(const blind::View& v, Bitboard& crossed) {
    using K = blind::Observation::Kind;
    using T = blind::Observation::Took;
    // The seat's view before each of its own plies: its tokens read again from the start.
    std::vector<std::string> own;
    auto replayed = blind::View::start(v.viewer(), v.start_position());
    if (auto* r = std::get_if<blind::View>(&replayed))
        for (const auto& token : v.tokens()) {
            const Position before = r->position();
            const std::size_t seen = r->history().size();
            if (r->apply(token)) break;  // cannot happen: v read these tokens
            if (r->history().size() > seen && r->history().back().kind == K::Own)
                own.push_back(to_algebraic(before, r->history().back().move));
        }
    json log = json::array();
    std::size_t next_own = 0;
    for (const auto& o : v.history()) {
        std::string line;
        if (o.kind == K::Own) {
            line =
                "you played " + (next_own < own.size() ? own[next_own++] : move_to_string(o.move));
            if (o.took == T::Man) line += ": you captured a man on " + geo::cell_name(o.move.to());
            if (o.took == T::Heart) {
                line += ": you captured a heart on " + geo::cell_name(o.move.to());
                if (o.told_received)
                    line += std::string(" (") + kColourWord[o.victim] +
                            "'s; its men are yours: " + blind::men_field(o.received) + ")";
            }
        } else if (o.kind == K::Other) {
            line = std::string(kColourWord[o.mover]) + " played";
            if (o.took == T::Man) {
                line += ": your man on " + geo::cell_name(o.cell) + " was taken";
                crossed |= bit(o.cell);
            }
            if (o.took == T::Heart) line += ": your heart was taken";
            if (o.took == T::OtherHeart)
                line += std::string(": ") + kColourWord[o.victim] + "'s heart was taken";
        } else {
            line = std::string(kColourWord[o.mover]) + " is out";
        }
        log.push_back(line);
    }
    for (Move m : v.refused()) log.push_back("refused: " + to_algebraic(v.position(), m));
    return log;
}

}  // namespace

// -- A seat's view, from small builders (m_ held) ---------------------------------------

Room::ViewContext Room::view_context_locked(std::optional<Colour> seat, int ply) const {
    ViewContext v;
    v.seat = seat;
    v.n = int(game_.moves.size());
    v.at_end = ply < 0 || ply >= v.n;
    v.ply = v.at_end ? -1 : ply;
    v.shown = v.at_end ? v.n : ply;
    // Kinta: the fights told are those of the last turn round at the live end, else of the
    // move shown; the positions before those moves come from the same replay.
    v.first_fight = v.at_end ? std::max(1, v.n - settings_.players + 1) : std::max(v.shown, 1);
    v.pos = position_at_locked(v.ply, v.shown - v.first_fight + 1, &v.before_fights);
    // What this seat may not see (SPEC 25: a Blind game; or the test hook hide_others): the
    // other colours' men, hearts, zones and moves while the game is not over. The board
    // drawn is then the seat's view (a spectator's shows no man at all), so nothing hidden
    // is even in the picture's markup.
    v.hides = hides_anything_locked();
    v.blind = v.hides && blind_locked();
    if (v.blind && seat) v.bview = blind_view_locked(*seat, v.ply);
    const Colour stm = v.pos.to_move();
    v.you_to_move = seat && status_ == Status::Running && v.at_end && stm == *seat &&
                    humans_[stm] && humans_[stm]->waiting();
    for (int c = 0; c < settings_.players; ++c) v.people += settings_.seats[c].person;
    return v;
}

bool Room::ViewContext::sees_move(Colour mover) const {
    return !hides || (seat && mover == *seat);
}

json Room::legal_json_locked(const ViewContext& v) const {
    json legal = json::array();
    if (!v.you_to_move) return legal;
    // Blind: the proposals the seat may make (legal in its view, not refused this turn);
    // never the moves of the whole position, which would tell where the others stand.
    MoveList l;
    l.size = 0;
    if (v.bview) {
        for (Move m : v.bview->proposals()) l.push(m);
    } else if (!v.blind) {
        generate_legal(v.pos, l);
    }
    const Position& lp = v.bview ? v.bview->position() : v.pos;
    for (Move m : l) {
        json j{{"move", move_to_string(m)},
               {"san", to_algebraic(lp, m)},
               {"to", geo::cell_name(m.to())}};
        switch (m.kind()) {
            case Move::Place:
                j["kind"] = "place";
                j["piece"] = std::string(1, kPieceChar[m.placed_type()]);
                break;
            case Move::PlaceHeart:
                j["kind"] = "heart";
                // A heart placed here would stand attacked by an opposing man (not in Blind,
                // where the seat does not see the others' men).
                if (!v.blind) j["danger"] = heart_placed_in_danger(v.pos, m);
                break;
            default:
                j["kind"] = "play";
                j["from"] = geo::cell_name(m.from());
                j["carry"] = m.carries_heart();
                if (!v.blind && v.pos.is_attack(m)) {  // Kinta: the odds before an attack
                    const auto [a, d] = combat::fighters(v.pos, m);
                    const combat::Odds o = combat::odds(a, d);
                    j["odds"] = {
                        {"win", o.win}, {"a", o.attacker_strength}, {"d", o.defender_strength}};
                }
        }
        legal.push_back(j);
    }
    return legal;
}

json Room::danger_json_locked(const ViewContext& v) const {
    // Hearts in danger (as check is shown in chess): the cells of the hearts an opposing man
    // could take now, in the play phase; none while anything is hidden from the seat.
    json danger = json::array();
    const Position& pos = v.pos;
    if (!v.hides && pos.phase() == Phase::Play && !pos.game_over())
        for (int c = 0; c < settings_.players; ++c)
            if (pos.is_in(Colour(c)) && pos.heart(Colour(c)) != NO_CELL &&
                heart_attacked(pos, Colour(c)))
                danger.push_back(geo::cell_name(pos.heart(Colour(c))));
    return danger;
}

json Room::moves_json_locked(const ViewContext& v) const {
    json moves = json::array();
    for (const PlayedMove& m : game_.moves) {
        const bool seen = v.sees_move(m.mover);
        moves.push_back({{"move", seen ? m.move : "?"},
                         {"san", seen ? m.algebraic : "?"},
                         {"mover", colour_name(m.mover)},
                         {"setup", m.setup},
                         {"comment", seen ? m.comment : ""},
                         {"spindles", seen ? m.spindles : ""}});
    }
    return moves;
}

json Room::removals_json_locked() const {
    // The referee's removals (SPEC 7; public, Blind too): before which move (an index into
    // `moves`; moves.size() after the last), whom, why.
    json removals = json::array();
    for (const auto& r : game_.removals)
        removals.push_back(
            {{"before", r.before_move}, {"colour", colour_name(r.colour)}, {"why", r.why}});
    return removals;
}

json Room::seats_json_locked() const {
    json seats = json::array();
    for (int c = 0; c < settings_.players; ++c) {
        const bool person = settings_.seats[c].person;
        seats.push_back(
            {{"colour", colour_name(Colour(c))},
             {"name", game_.names[c]},
             {"kind", person ? "person" : "engine"},
             {"free", person && tokens_[c].empty() && status_ != Status::Review},
             {"present", !person || present_[c] > 0},
             {"in", is_in_locked(Colour(c))},
             // (none when the game never took place: no result)
             {"outcome", (status_ == Status::Over || status_ == Status::Review) && !game_.unfinished
                             ? json(outcome_name(game_.outcome[c]))
                             : json(nullptr)},
             {"draw_offer", draw_offer_[c]}});
    }
    return seats;
}

bool Room::clock_ticking_locked() const {
    return referee_running_ && clock_running_ != NO_COLOUR;
}

json Room::clocks_json_locked() const {
    json clocks = json::array();
    const bool ticking = clock_ticking_locked();
    for (int c = 0; c < settings_.players; ++c)
        clocks.push_back(clock_ms_[c] < 0 ? json(nullptr)
                                          : json(clock_ms_[c] - (ticking && clock_running_ == c
                                                                     ? steady_ms() - clock_stamp_ms_
                                                                     : 0)));
    return clocks;
}

json Room::can_json_locked(const ViewContext& v) const {
    const auto& seat = v.seat;
    bool begun = false;
    for (const PlayedMove& m : game_.moves) begun |= !m.setup;
    const bool playing = seat && status_ == Status::Running && is_in_locked(*seat);
    // Whether a player still in besides this seat is a person (a draw is offered to people
    // only: an engine never answers an offer).
    bool person_opponent = false;
    for (int c = 0; c < settings_.players; ++c)
        person_opponent |=
            (!seat || c != *seat) && settings_.seats[c].person && is_in_locked(Colour(c));
    return {
        {"move", v.you_to_move},
        {"resign", playing},
        {"draw", playing && !draw_offer_[*seat] && person_opponent},
        {"abort", seat && (status_ == Status::Waiting || (status_ == Status::Running && !begun))},
        {"takeback", playing && has_moved_locked(*seat)},
        {"sit", !seat && status_ == Status::Waiting},
        // Analysis: never for anyone, spectators included, while people play each other (a
        // player's second tab would be an engine helper); never while anything is hidden (the
        // engine would be given the whole position); after the game, for everyone.
        {"analyse", !v.hides && (status_ != Status::Running || v.people < 2)},
        {"play_on", status_ == Status::Over || status_ == Status::Review},
        {"rematch", status_ == Status::Over && rematch_.empty()}};
}

std::string Room::status_text_locked(const ViewContext& v) const {
    // The page's status line: the room's English words, all here.
    const Colour stm = v.pos.to_move();
    if (status_ == Status::Waiting) return "Waiting for players";
    if (status_ == Status::Running)
        return (v.you_to_move ? std::string("Your move") : game_.names[stm] + " to move") + " (" +
               colour_name(stm) + ", " + phase_name(v.pos.phase()) + ")";
    if (game_.unfinished) return game_.termination.empty() ? "No result" : game_.termination;
    return "Game over: " + game_.result() + " (" + game_.termination + ")";
}

json Room::winners_json_locked() const {
    json winners = json::array();
    if (!game_.unfinished)
        for (int c = 0; c < settings_.players; ++c)
            if (game_.outcome[c] == Outcome::Win) winners.push_back(shown_name_locked(Colour(c)));
    return winners;
}

json Room::chat_json_locked(const ViewContext& v) const {
    // The chat lines this seat sees (Room::chat): spectators' lines reach players only once
    // the game is over when people play each other.
    json lines = json::array();
    const bool apart = v.seat && status_ == Status::Running && v.people >= 2;
    for (const auto& l : chat_)
        if (!(apart && !l.seat))
            lines.push_back({{"name", l.name},
                             {"colour", l.seat ? json(colour_name(*l.seat)) : json(nullptr)},
                             {"text", l.text}});
    return lines;
}

json Room::fights_json_locked(const ViewContext& v) const {
    // Kinta: the fights to tell, round by round (those of moves the seat sees). Stepping
    // through the game, the fight of the move that led to the shown position. At the live
    // end, every fight of the last turn round (the last `players` plies): a person who
    // attacked still reads the fight when the others have moved since, and reads theirs.
    json fights = json::array();
    for (int k = v.first_fight; k <= v.shown; ++k) {
        const auto i = std::size_t(k - 1);
        const PlayedMove& m = game_.moves[i];
        if (!v.sees_move(m.mover) || m.spindles.empty()) continue;
        json f = fight_json(v.before_fights[std::size_t(k - v.first_fight)], m.move, m.spindles);
        if (f.is_null()) continue;
        f["ply"] = k;
        fights.push_back(std::move(f));
    }
    return fights;
}

json Room::player_view(std::optional<Colour> seat, int ply, Colour orientation) const {
    std::lock_guard lock(m_);
    const ViewContext v = view_context_locked(seat, ply);
    const Position view_pos = !v.hides  ? v.pos
                              : v.bview ? v.bview->position()
                                        : v.pos.view(seat ? *seat : NO_COLOUR);
    SvgOptions so;
    so.view = orientation;
    // Blind: what the seat was told, ply by ply, and the cells where it lost men (SPEC 25: it
    // is told each cell) crossed on its board.
    json told = json::array();
    if (v.bview) {
        told = blind_log(*v.bview, so.crossed);
        so.crossed &= ~view_pos.occupied();
    }
    json out{{"type", "state"},
             {"room", id_},
             {"status", status_name(status_)},
             {"you", seat ? json(colour_name(*seat)) : json(nullptr)},
             {"svg", board_svg(view_pos, so)},
             {"players", settings_.players},
             {"rules", settings_.rules.to_string()},
             {"variant", settings_.rules.variant_name()},
             {"tc", settings_.tc},
             {"to_move", colour_name(v.pos.to_move())},
             {"phase", phase_name(v.pos.phase())},
             {"ply", v.shown},
             {"plies", v.n},
             {"moves", moves_json_locked(v)},
             {"removals", removals_json_locked()},
             {"legal", legal_json_locked(v)},
             {"seats", seats_json_locked()},
             {"clocks", clocks_json_locked()},
             {"clock_running", clock_ticking_locked() ? colour_name(clock_running_) : ""},
             {"result", result_locked()},
             {"termination", game_.termination},
             {"winners", winners_json_locked()},
             {"takeback_by",
              takeback_by_ == NO_COLOUR ? json(nullptr) : json(colour_name(takeback_by_))},
             {"can", can_json_locked(v)},
             {"view", colour_name(orientation)},
             {"status_text", status_text_locked(v)},
             {"rematch", rematch_.empty() ? json(nullptr) : json(rematch_)},
             {"chat", chat_json_locked(v)},
             {"danger", danger_json_locked(v)},
             {"blind", blind_locked()}};
    if (v.bview) {
        out["told"] = told;
        json refused = json::array();
        for (Move m : v.bview->refused()) refused.push_back(move_to_string(m));
        out["refused"] = refused;  // SPEC 9 strings, for tools (the log has them in algebraic)
    }
    if (!v.hides) out["fen"] = v.pos.fen();
    if (json fights = fights_json_locked(v); !fights.empty()) out["fights"] = std::move(fights);
    return out;
}

}  // namespace klinzha::gui
