// engine/blind.cpp: see blind.h. Source: SPEC 25 (announcements, protocol, decisions).
#include "blind.h"

#include <algorithm>
#include <sstream>

#include "geometry.h"
#include "movegen.h"
#include "notation.h"

namespace klinzha::blind {

namespace {

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

std::string men_field(const std::vector<std::pair<PieceType, Cell>>& men) {
    std::vector<std::pair<PieceType, std::string>> sorted;
    for (auto [t, c] : men) sorted.emplace_back(t, geo::cell_name(c));
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    for (auto& [t, name] : sorted) out += (out.empty() ? "" : ",") + (kPieceChar[t] + name);
    return out.empty() ? "-" : out;
}

std::vector<std::string> announce(const Position& before, Move m, Colour viewer) {
    const Colour mover = before.to_move();
    const bool play = m.kind() == Move::Normal;
    const Colour heart = play ? before.heart_victim(m) : NO_COLOUR;
    const Man taken = play ? before.man_on(m.to()) : kNoMan;
    if (viewer == mover) {
        std::string t = move_to_string(m.bare());
        if (heart != NO_COLOUR) {
            t += "xH";
            // Three players (not RelationDilemma): the men the capturer receives (SPEC 7).
            if (before.players() == 3 && !before.rules().relation_dilemma) {
                std::vector<std::pair<PieceType, Cell>> men;
                for_each_cell(before.pieces(heart), [&](Cell sq) {
                    if (sq != m.to()) men.emplace_back(man_type(before.man_on(sq)), sq);
                });
                return {t, std::string("+") + kColourChar[heart] + ":" + men_field(men)};
            }
        } else if (taken != kNoMan) {
            t += "x";
        }
        return {t};
    }
    if (heart == viewer) return {"?xH"};
    if (heart != NO_COLOUR) return {std::string("?-") + kColourChar[heart]};
    if (taken != kNoMan && man_colour(taken) == viewer) return {"?x" + geo::cell_name(m.to())};
    return {"?"};
}

std::string out_token(Colour c) {
    return std::string("-") + kColourChar[c];
}

std::variant<View, std::string> View::start(Colour viewer, const Position& start) {
    if (!start.rules().blind)
        return std::string("Blind is off: set the option Blind first (SPEC 25)");
    if (viewer >= start.players()) return std::string("colour: not a player of this game");
    if (start.phase() != Phase::Place)
        return std::string(
            "a blind game starts in the place phase (SPEC 25: referees start from the empty "
            "board)");
    for (int c = 0; c < kColours; ++c)
        if (c != viewer && start.pieces(Colour(c)))
            return std::string("the start position holds men of ") + kColourWord[c] +
                   ": a view holds the viewer's men only";
    View v;
    v.viewer_ = viewer;
    v.start_ = start;
    v.start_.clear_history();
    v.pos_ = start.view(viewer);
    return v;
}

std::variant<View, std::string> View::parse(Colour viewer, const Position& start,
                                            const std::vector<std::string>& tokens,
                                            const std::vector<std::string>& refused) {
    auto v = View::start(viewer, start);
    if (auto* err = std::get_if<std::string>(&v)) return *err;
    View& view = std::get<View>(v);
    for (std::size_t i = 0; i < tokens.size(); ++i)
        if (auto err = view.apply(tokens[i]))
            return "moves: token " + std::to_string(i + 1) + " '" + tokens[i].substr(0, 40) +
                   "': " + *err;
    if (view.await_received_ && !refused.empty())
        return std::string("moves: an own heart capture needs its + token (the men received)");
    for (std::size_t i = 0; i < refused.size(); ++i)
        if (auto err = view.refuse(refused[i]))
            return "refused: " + std::to_string(i + 1) + " '" + refused[i].substr(0, 40) +
                   "': " + *err;
    return v;
}

std::optional<std::string> View::apply(std::string_view token) {
    if (token.empty()) return std::string("empty token");
    if (await_received_) return apply_received(token);
    if (over_) return std::string("the game is over for ") + kColourWord[viewer_];
    const Colour mover = pos_.to_move();
    if (token[0] == '-') return apply_out(token, mover);  // `-<colour>`: out at its own turn
    if (mover == viewer_) return apply_own(token);
    return apply_other(token, mover);
}

std::optional<std::string> View::apply_received(std::string_view token) {
    // `+<colour>:<men>`: the army of the colour whose heart the viewer took (SPEC 7).
    if (token.size() < 4 || token[0] != '+' || token[2] != ':')
        return std::string(
            "an own heart capture in a three-player game is followed by "
            "+<colour>:<men> (the men received)");
    const auto c = parse_colour(token[1]);
    if (!c || *c == viewer_ || *c >= pos_.players() || !pos_.is_in(*c))
        return std::string("names no other colour still in");
    std::vector<std::pair<PieceType, Cell>> men;
    const std::string_view list = token.substr(3);
    if (list != "-") {
        std::size_t start = 0;
        while (start <= list.size()) {
            const std::size_t comma = list.find(',', start);
            const auto item = list.substr(
                start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
            const auto letter = item.empty() ? '?' : item[0];
            const auto* it = std::find(kPieceChar.begin(), kPieceChar.end() - 1, letter);
            const auto sq = item.size() == 4 ? geo::parse_cell(item.substr(1)) : std::nullopt;
            if (it == kPieceChar.end() - 1 || !sq)
                return "'" + std::string(item.substr(0, 12)) +
                       "' is not a piece letter (Q R B N P W) and a cell";
            if (pos_.man_on(*sq) != kNoMan ||
                std::any_of(men.begin(), men.end(), [&](auto& p) { return p.second == *sq; }))
                return "cell " + geo::cell_name(*sq) + " is not free for a man received";
            men.emplace_back(PieceType(it - kPieceChar.begin()), *sq);
            if (comma == std::string_view::npos) break;
            start = comma + 1;
        }
    }
    for (auto [t, sq] : men) pos_.put_man(viewer_, t, sq);
    pos_.set_out(*c);
    Observation& o = history_.back();
    o.victim = *c;
    o.received = men;
    o.told_received = true;
    await_received_ = false;
    if (pos_.players_in() == 1) over_ = true;
    tokens_.emplace_back(std::string("+") + kColourChar[*c] + ":" + men_field(men));
    return std::nullopt;
}

std::optional<std::string> View::apply_out(std::string_view token, Colour mover) {
    const bool three = pos_.players() == 3;
    const bool dilemma = pos_.rules().relation_dilemma;
    const auto c = token.size() == 2 ? parse_colour(token[1]) : std::nullopt;
    if (!c || *c >= pos_.players()) return std::string("'-' must be followed by g, b or k");
    if (*c != mover) return std::string("'-<colour>' stands only where it is that colour's turn");
    Observation o;
    o.kind = Observation::Kind::Out;
    o.mover = *c;
    if (*c == viewer_) {
        over_ = true;
    } else {
        pos_.eliminate_to_move();
        if (!three || dilemma || pos_.players_in() == 1) over_ = true;
    }
    history_.push_back(o);
    tokens_.emplace_back(token);
    refused_.clear();
    return std::nullopt;
}

std::optional<std::string> View::apply_own(std::string_view token) {
    const bool three = pos_.players() == 3;
    const bool dilemma = pos_.rules().relation_dilemma;
    if (token[0] == '?' || token[0] == '+')
        return std::string("it is ") + kColourWord[viewer_] + "'s own turn";
    Observation o;
    o.kind = Observation::Kind::Own;
    o.mover = viewer_;
    std::string_view move = token;
    if (ends_with(move, "xH")) {
        o.took = Observation::Took::Heart;
        move.remove_suffix(2);
    } else if (ends_with(move, "x")) {
        o.took = Observation::Took::Man;
        move.remove_suffix(1);
    }
    auto parsed = parse_move(pos_, move);
    if (auto* err = std::get_if<std::string>(&parsed)) return "not legal in the view: " + *err;
    const Move m = std::get<Move>(parsed);
    if (o.took != Observation::Took::Nothing && m.kind() != Move::Normal)
        return std::string("a placement captures nothing");
    if (o.took != Observation::Took::Nothing && m.to() == pos_.heart(viewer_))
        return std::string("a move onto its own heart captures nothing");
    o.move = m;
    pos_.do_move(m);
    if (o.took != Observation::Took::Nothing) pos_.note_capture();
    if (o.took == Observation::Took::Heart) {
        if (!three || dilemma)
            over_ = true;  // two players: the capture wins; RelationDilemma ends the game
        else
            await_received_ = true;
    }
    history_.push_back(o);
    tokens_.emplace_back(move_to_string(m) + (o.took == Observation::Took::Heart ? "xH"
                                              : o.took == Observation::Took::Man ? "x"
                                                                                 : ""));
    refused_.clear();
    return std::nullopt;
}

std::optional<std::string> View::apply_other(std::string_view token, Colour mover) {
    const bool dilemma = pos_.rules().relation_dilemma;
    if (token[0] != '?')
        return std::string("it is ") + kColourWord[mover] +
               "'s turn: its ply is ?, ?x<cell>, ?xH or ?-<colour>";
    Observation o;
    o.kind = Observation::Kind::Other;
    o.mover = mover;
    const std::string_view rest = token.substr(1);
    if (!rest.empty() && pos_.phase() != Phase::Play)
        return std::string("nothing is captured before the play phase");
    if (rest.empty()) {
        pos_.do_move(Move::null());
    } else if (rest == "xH") {
        if (pos_.heart(viewer_) == NO_CELL)
            return std::string("the viewer's heart is not on the board");
        o.took = Observation::Took::Heart;
        over_ = true;
    } else if (rest[0] == 'x') {
        const auto sq = geo::parse_cell(rest.substr(1));
        if (!sq) return std::string("?x must be followed by a cell");
        const Man man = pos_.man_on(*sq);
        if (man == kNoMan || man_colour(man) != viewer_)
            return "no man of " + std::string(kColourWord[viewer_]) + " stands on " +
                   geo::cell_name(*sq);
        if (pos_.heart(viewer_) == *sq)
            return std::string("the man on ") + geo::cell_name(*sq) +
                   " carries the heart: its capture is ?xH";
        o.took = Observation::Took::Man;
        o.cell = *sq;
        pos_.remove_man(*sq);
        pos_.do_move(Move::null());
        pos_.note_capture();
    } else if (rest[0] == '-') {
        const auto c = rest.size() == 2 ? parse_colour(rest[1]) : std::nullopt;
        if (!c || *c == viewer_ || *c == mover || *c >= pos_.players() || !pos_.is_in(*c))
            return std::string("?- must name a third colour still in");
        o.took = Observation::Took::OtherHeart;
        o.victim = *c;
        pos_.do_move(Move::null());
        pos_.set_out(*c);
        pos_.note_capture();
        if (dilemma) over_ = true;  // SPEC 15: the first heart capture ends the game
    } else {
        return std::string("not a token of another player's ply (?, ?x<cell>, ?xH, ?-<colour>)");
    }
    history_.push_back(o);
    tokens_.emplace_back(token);
    refused_.clear();
    return std::nullopt;
}

std::optional<std::string> View::refuse(std::string_view move) {
    if (!to_propose())
        return std::string(over_ ? "the game is over for the viewer" : "not the viewer's turn");
    auto parsed = parse_move(pos_, move);
    if (auto* err = std::get_if<std::string>(&parsed)) return "not legal in the view: " + *err;
    const Move m = std::get<Move>(parsed);
    if (std::find(refused_.begin(), refused_.end(), m) != refused_.end())
        return std::string("refused twice in one turn");
    refused_.push_back(m);
    return std::nullopt;
}

std::vector<Move> View::proposals() const {
    std::vector<Move> out;
    if (!to_propose()) return out;
    MoveList legal;
    generate_legal(pos_, legal);
    for (Move m : legal)
        if (std::find(refused_.begin(), refused_.end(), m) == refused_.end()) out.push_back(m);
    return out;
}

std::string View::describe() const {
    std::ostringstream o;
    o << draw_board(pos_) << "\n";
    o << "Blind view of " << kColourWord[viewer_] << " (SPEC 25): " << history_.size()
      << " plies told";
    if (over_) o << "; the game is over for " << kColourWord[viewer_];
    o << "\n";
    int n = 0;
    for (const Observation& ob : history_) {
        ++n;
        if (ob.kind == Observation::Kind::Own) {
            o << n << ". " << kColourChar[ob.mover] << " " << move_to_string(ob.move);
            if (ob.took == Observation::Took::Man) o << ": captured a man";
            if (ob.took == Observation::Took::Heart) {
                o << ": captured a heart";
                if (ob.told_received)
                    o << " (" << kColourWord[ob.victim] << "'s; received " << men_field(ob.received)
                      << ")";
            }
        } else if (ob.kind == Observation::Kind::Other) {
            o << n << ". " << kColourChar[ob.mover] << " played";
            if (ob.took == Observation::Took::Man)
                o << ": took your man on " << geo::cell_name(ob.cell);
            if (ob.took == Observation::Took::Heart) o << ": took your heart";
            if (ob.took == Observation::Took::OtherHeart)
                o << ": took " << kColourWord[ob.victim] << "'s heart";
        } else {
            o << n << ". " << kColourWord[ob.mover] << " is out";
        }
        o << "\n";
    }
    if (!refused_.empty()) {
        o << "Refused this turn:";
        for (Move m : refused_) o << " " << move_to_string(m);
        o << "\n";
    }
    return o.str();
}

}  // namespace klinzha::blind
