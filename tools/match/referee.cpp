// tools/match/referee.cpp: see referee.h.
#include "referee.h"
#include "engine/record.h"

#include "engine/blind.h"
#include "engine/combat.h"

#include <chrono>
#include <ctime>
#include <sstream>
#include <thread>

#include "engine/movegen.h"
#include "engine/notation.h"

namespace klinzha::match {

std::optional<TimeControl> TimeControl::parse(const std::string& s) {
    TimeControl tc;
    std::string rest = s;
    try {
        auto slash = rest.find('/');
        if (slash != std::string::npos) {
            std::size_t used = 0;
            tc.moves = std::stoi(rest.substr(0, slash), &used);
            if (used != slash || tc.moves <= 0) return std::nullopt;
            rest = rest.substr(slash + 1);
        }
        auto plus = rest.find('+');
        std::string base = rest.substr(0, plus);
        std::size_t used = 0;
        double sec = std::stod(base, &used);
        if (used != base.size() || sec <= 0) return std::nullopt;
        tc.base_ms = std::int64_t(sec * 1000);
        if (plus != std::string::npos) {
            std::string inc = rest.substr(plus + 1);
            double isec = std::stod(inc, &used);
            if (used != inc.size() || isec < 0) return std::nullopt;
            tc.inc_ms = std::int64_t(isec * 1000);
        }
    } catch (...) {
        return std::nullopt;
    }
    return tc;
}

std::string TimeControl::describe() const {
    std::ostringstream o;
    if (base_ms >= 0) {
        if (moves) o << moves << '/';
        o << base_ms / 1000.0;
        if (inc_ms) o << '+' << inc_ms / 1000.0;
        if (delay_ms) o << " d" << delay_ms / 1000.0;
    } else if (movetime_ms >= 0) {
        o << "movetime " << movetime_ms / 1000.0;
    } else if (depth) {
        o << "depth " << depth;
    } else if (nodes) {
        o << "nodes " << nodes;
    } else {
        o << "-";
    }
    return o.str();
}

namespace {

/// The `go` line for the colour to move: the clocks, increments and delays of every colour
/// (each under its own time control), or the mover's fixed limit.
std::string go_command(const std::array<TimeControl, kColours>& tcs,
                       const std::array<std::int64_t, kColours>& clock,
                       const std::array<int, kColours>& moves_made, int players, Colour to_move) {
    std::ostringstream o;
    o << "go";
    const TimeControl& tc = tcs[to_move];
    if (tc.base_ms >= 0) {
        const char* c = "gbk";
        for (int i = 0; i < players; ++i)
            if (tcs[std::size_t(i)].base_ms >= 0)
                o << ' ' << c[i] << "time " << std::max<std::int64_t>(0, clock[std::size_t(i)]);
        for (int i = 0; i < players; ++i)
            if (tcs[std::size_t(i)].base_ms >= 0 && tcs[std::size_t(i)].inc_ms)
                o << ' ' << c[i] << "inc " << tcs[std::size_t(i)].inc_ms;
        for (int i = 0; i < players; ++i)
            if (tcs[std::size_t(i)].base_ms >= 0 && tcs[std::size_t(i)].delay_ms)
                o << ' ' << c[i] << "delay " << tcs[std::size_t(i)].delay_ms;
        if (tc.moves) o << " movestogo " << tc.moves - moves_made[to_move] % tc.moves;
    } else if (tc.movetime_ms >= 0) {
        o << " movetime " << tc.movetime_ms;
    } else if (tc.depth || tc.nodes) {
        if (tc.depth) o << " depth " << tc.depth;
        if (tc.nodes) o << " nodes " << tc.nodes;
    } else {
        o << " depth 1";
    }
    return o.str();
}

}  // namespace

namespace {

/// One game refereed (SPEC 7, 12, 25, 26): the game's state as members, one method per
/// event (a move played, a fight cast, a player out, a draw, the game's time limit). Made
/// and run once by play_game, on its thread.
class Referee {
  public:
    Referee(const std::vector<Player*>& seats, const GameConfig& cfg,
            const std::function<void(const GameRecord&)>& on_move)
        : seats_(seats),
          cfg_(cfg),
          on_move_(on_move),
          pos_(cfg.players, cfg.rules),
          dice_(cfg.dice_seed) {}

    GameRecord run();

  private:
    /// What a turn's reply came to: the game is over, the next player moves, or `m` is
    /// played.
    enum class Turn { Over, Next, Play };
    /// A move with its Kinta fight cast (SPEC 26): the move with the outcome attached, the
    /// rounds as a record writes them, and the defender's owner; the bare move elsewhere.
    struct Cast {
        Move played;
        std::string spindles;
        Colour defender_owner = NO_COLOUR;
    };

    bool start();  ///< the start position, the engines, Blind's views, the clocks
    bool replay_history();
    Cast cast(Move m, bool count_fight);
    void tell(Colour v, const std::string& token);
    void record_move(const Cast& k, const std::string& comment,
                     std::vector<std::string> refused = {});
    /// SPEC 7, 12, 27 and the adjudications before a turn: Over (the game ended), Next (the
    /// player to move went out) or Play (the player to move is asked).
    Turn before_turn();
    /// Asks the player to move until it answers a move, fails, or (Blind) a proposal is
    /// legal; `refused` gets the refused proposals, `why` a reason the player is out.
    Reply ask(std::variant<Move, std::string>& parsed, std::vector<std::string>& refused,
              std::string& why, bool& limit_capped);
    /// Judges the reply: Over, Next (the player went out) or Play (parsed holds the move).
    Turn judge(const Reply& r, const std::variant<Move, std::string>& parsed,
               const std::string& why, bool limit_capped);
    /// Score adjudications on the reply (fastchess -resign, -draw). Over, Next or Play.
    Turn adjudicate(const Reply& r);
    bool player_out(const std::string& why);  ///< true when the game is over
    void finish_draw(const std::string& why);
    std::int64_t game_left() const;  ///< ms left of GameConfig::game_limit_ms
    void expire();
    void finish();
    static std::string comment_of(const Reply& r, const std::vector<std::string>& refused);

    const std::vector<Player*>& seats_;
    const GameConfig& cfg_;
    const std::function<void(const GameRecord&)>& on_move_;
    GameRecord g_;
    Position pos_;
    combat::Spindles dice_;  ///< SPEC 26: one generator for the game's fights
    std::string base_cmd_, moves_cmd_;
    /// Each seat's time control: its engine's own (tc=, st=, depth=, nodes=), else the match's.
    std::array<TimeControl, kColours> tcs_{};
    std::array<std::int64_t, kColours> clock_{};
    std::array<int, kColours> moves_made_{};
    std::array<int, kColours> bad_scores_{}, quiet_scores_{};
    bool draw_adjudicated_ = false;  ///< -draw: decided at the last reply; the move is played first
    /// Blind (SPEC 25): the arbiter's tokens for each player, and each player's view of them
    /// (the view checks the arbiter's own tokens as it goes, and judges proposals).
    bool blind_ = false;
    std::array<std::vector<std::string>, kColours> told_;
    std::vector<blind::View> views_;
    std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

bool Referee::start() {
    g_.players = cfg_.players;
    for (int c = 0; c < cfg_.players; ++c) g_.names[c] = seats_[c]->name();
    if (!cfg_.start_fen.empty()) {
        if (auto err = pos_.set(cfg_.start_fen, cfg_.rules)) {
            g_.termination = "bad start position: " + *err;
            return false;
        }
    }
    g_.start_fen = pos_.fen();
    g_.dice_seed = cfg_.dice_seed;
    base_cmd_ = "position fen " + g_.start_fen;
    for (std::size_t c = 0; c < kColours; ++c) {
        tcs_[c] = cfg_.seat_tc[c] ? *cfg_.seat_tc[c] : cfg_.tc;
        clock_[c] = tcs_[c].base_ms;
    }
    for (int c = 0; c < cfg_.players; ++c) {
        if (seats_[c]->alive()) continue;
        auto err = seats_[c]->start();
        for (int retry = 0; err && cfg_.recover && retry < 2; ++retry) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            err = seats_[c]->start();
        }
        if (err) {  // no result: the match stops (tournament.h) rather than score it
            g_.aborted = *err;
            return false;
        }
    }
    for (int c = 0; c < cfg_.players; ++c) seats_[c]->new_game();
    blind_ = pos_.rules().blind;
    if (blind_) {
        if (pos_.phase() != Phase::Place || pos_.occupied()) {
            g_.termination =
                "bad start position: a blind game starts from the empty board (SPEC 25)";
            return false;
        }
        for (int c = 0; c < cfg_.players; ++c)
            views_.push_back(std::get<blind::View>(blind::View::start(Colour(c), pos_)));
    }
    for (std::size_t c = 0; c < kColours; ++c)
        if (tcs_[c].base_ms >= 0 && cfg_.start_clock_ms[c] >= 0) clock_[c] = cfg_.start_clock_ms[c];
    return true;
}

void Referee::tell(Colour v, const std::string& token) {
    told_[v].push_back(token);
    if (auto err = views_[v].apply(token))  // a bug of the arbiter: say so loudly
        g_.aborted = "blind arbiter: token '" + token + "' for " + kColourChar[v] + ": " + *err;
}

Referee::Cast Referee::cast(Move m, bool count_fight) {
    Cast k{m, "", NO_COLOUR};
    if (!pos_.is_attack(m)) return k;
    const auto [a, d] = combat::fighters(pos_, m);
    const combat::Fight f = combat::cast(a, d, dice_);
    k.played = m.with_outcome(!f.attacker_won, f.strength);
    k.spindles = combat::spindles_text(f);
    k.defender_owner = man_colour(pos_.man_on(m.to()));
    if (count_fight) g_.fights.emplace_back(combat::odds(a, d).win, f.attacker_won);
    return k;
}

// Plays k.played (a legal move with its Kinta outcome) for the player to move and writes it
// into the record: notation, mover, comment, hearts captured (SPEC 12; Kinta: an attacker
// that lost carrying its heart lost it to the defender's owner).
void Referee::record_move(const Cast& k, const std::string& comment,
                          std::vector<std::string> refused) {
    const Colour c = pos_.to_move();
    const Move played = k.played;
    if (blind_)  // SPEC 25: what each player still in is told of this ply
        for (int v = 0; v < cfg_.players; ++v)
            if (pos_.is_in(Colour(v)))
                for (const auto& t : blind::announce(pos_, played.bare(), Colour(v)))
                    tell(Colour(v), t);
    const std::array<Cell, kColours> hearts_before{pos_.heart(GREEN), pos_.heart(BLUE),
                                                   pos_.heart(BLACK)};
    PlayedMove pm = played_move(pos_, played);
    pm.comment = comment;
    pm.spindles = k.spindles;
    pm.refused = std::move(refused);
    g_.moves.push_back(std::move(pm));
    pos_.do_move(played);
    moves_cmd_ += " " + g_.moves.back().move;
    for (int o = 0; o < kColours; ++o)
        if (o != c && hearts_before[o] != NO_CELL && pos_.heart(Colour(o)) == NO_CELL) {
            g_.hearts_captured[c]++;
            g_.heart_lost[o] = true;
            g_.outcome[o] = Outcome::Loss;
        }
    if (k.defender_owner != NO_COLOUR && hearts_before[c] != NO_CELL && pos_.heart(c) == NO_CELL) {
        g_.hearts_captured[k.defender_owner]++;
        g_.heart_lost[c] = true;
        g_.outcome[c] = Outcome::Loss;
    }
}

// The history (GameConfig::history): replayed as the record's first moves; a fight is cast
// again, so the generator stands where it stood.
bool Referee::replay_history() {
    for (const std::string& token : cfg_.history) {
        if (token.rfind("out:", 0) == 0) {
            if (blind_)
                for (int v = 0; v < cfg_.players; ++v)
                    if (pos_.is_in(Colour(v))) tell(Colour(v), blind::out_token(pos_.to_move()));
            g_.removals.push_back({g_.moves.size(), pos_.to_move(), token.substr(4)});
            if (pos_.heart(pos_.to_move()) != NO_CELL) g_.heart_lost[pos_.to_move()] = true;
            g_.outcome[pos_.to_move()] = Outcome::Loss;
            pos_.eliminate_to_move();
            base_cmd_ = "position fen " + pos_.fen();
            moves_cmd_.clear();
            continue;
        }
        auto parsed = parse_played_move(pos_, token);
        if (auto* err = std::get_if<std::string>(&parsed)) {
            g_.aborted = "history: move " + std::to_string(g_.moves.size() + 1) + " '" + token +
                         "': " + *err;
            return false;
        }
        const Move played = std::get<Move>(parsed);
        Cast k = cast(played.bare(), false);
        k.played = played;  // the outcome the record says
        const Colour c = pos_.to_move();
        record_move(k, "");
        if (tcs_[c].base_ms >= 0 && tcs_[c].moves) ++moves_made_[c];
    }
    return true;
}

// The comment of a move as fastchess writes it: score/depth time; with no score and no depth
// (a person, an engine that printed no info) only the time; Blind: the proposals refused
// before it.
std::string Referee::comment_of(const Reply& r, const std::vector<std::string>& refused) {
    char buf[64];
    std::string comment;
    if (r.mate || r.cp || r.depth) {
        if (r.mate)
            comment = (*r.mate > 0 ? "+M" : "-M") + std::to_string(std::abs(*r.mate));
        else if (r.cp) {
            std::snprintf(buf, sizeof buf, "%+.2f", *r.cp / 100.0);
            comment = buf;
        } else {
            comment = "book";
        }
        std::snprintf(buf, sizeof buf, "/%d ", r.depth.value_or(0));
        comment += buf;
    }
    std::snprintf(buf, sizeof buf, "%.3fs", r.ms / 1000.0);
    comment += buf;
    for (std::size_t i = 0; i < refused.size(); ++i)
        comment += (i ? "," : " refused ") + refused[i];
    return comment;
}

void Referee::finish_draw(const std::string& why) {
    for (int c = 0; c < cfg_.players; ++c)
        g_.outcome[c] = pos_.is_in(Colour(c)) ? Outcome::Draw : Outcome::Loss;
    g_.termination += (g_.termination.empty() ? "" : "; ") + why;
}

// The player to move is out (SPEC 7): two players, it loses; three, it drops out with its men
// removed and the game goes on.
bool Referee::player_out(const std::string& why) {
    const Colour c = pos_.to_move();
    g_.outcome[c] = Outcome::Loss;
    if (cfg_.players == 2 || pos_.phase() != Phase::Play) {
        // Two players, or a failure during setup: the game ends; the others share it.
        for (int o = 0; o < cfg_.players; ++o)
            if (o != c) g_.outcome[o] = cfg_.players == 2 ? Outcome::Win : Outcome::Draw;
        g_.termination = g_.names[c] + ": " + why;
        return true;
    }
    if (pos_.rules().relation_dilemma) {
        // SPEC 15 Decision: the game ends; the player allowed to capture c wins and counts as
        // having captured its heart.
        const Colour w = pos_.winner_over(c);
        for (int o = 0; o < cfg_.players; ++o)
            g_.outcome[o] = o == w ? Outcome::Win : Outcome::Loss;
        g_.hearts_captured[w]++;
        g_.heart_lost[c] = true;
        g_.termination = g_.names[c] + ": " + why + " (relation dilemma: " + g_.names[w] + " wins)";
        return true;
    }
    if (pos_.heart(c) != NO_CELL) g_.heart_lost[c] = true;
    g_.removals.push_back({g_.moves.size(), c, why});
    if (blind_)
        for (int v = 0; v < cfg_.players; ++v)
            if (pos_.is_in(Colour(v))) tell(Colour(v), blind::out_token(c));
    pos_.eliminate_to_move();
    // A move list cannot tell the engines that a player was removed: start the list again
    // from the position as it now is.
    base_cmd_ = "position fen " + pos_.fen();
    moves_cmd_.clear();
    if (pos_.players_in() == 1) {
        g_.outcome[pos_.to_move()] = Outcome::Win;
        g_.termination = g_.names[c] + ": " + why + "; last player in wins";
        return true;
    }
    g_.termination += (g_.termination.empty() ? "" : "; ") + g_.names[c] + " out: " + why;
    // Those who watch the game (klinzha-gui's room) learn of the removal now, as of a move:
    // play goes on with the next player (SPEC 7), and a view that waited for the next move
    // would show the removed player still to move.
    if (on_move_) on_move_(g_);
    return false;
}

std::int64_t Referee::game_left() const {
    return cfg_.game_limit_ms - std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - t0_)
                                    .count();
}

void Referee::expire() {
    g_.expired = true;
    char buf[64];
    std::snprintf(buf, sizeof buf, "game time limit (%.3g s)", cfg_.game_limit_ms / 1000.0);
    finish_draw(buf);
}

Referee::Turn Referee::before_turn() {
    if (pos_.phase() == Phase::Play && g_.play_start_fen.empty()) g_.play_start_fen = pos_.fen();
    if (pos_.phase() == Phase::Play) {
        if (pos_.game_over()) {  // SPEC 12: who won, and how
            const Colour w = pos_.winner();
            for (int o = 0; o < cfg_.players; ++o)
                g_.outcome[o] = o == w ? Outcome::Win : Outcome::Loss;
            g_.termination +=
                (g_.termination.empty() ? "" : "; ") +
                std::string(pos_.crowned() ? "Kagga's crown: the crowned heart was not taken"
                                           : "heart capture");
            return Turn::Over;
        }
        if (pos_.repetition_draw(3)) return finish_draw("draw by third repetition"), Turn::Over;
        if (pos_.move_count_draw()) {
            finish_draw(pos_.rules().draw_rule == DrawRule::Italian
                            ? "draw by the 20-moves-each rule (italian)"
                            : "draw by the 50-moves-each rule");
            return Turn::Over;
        }
        if (cfg_.max_fullmoves && pos_.fullmove() > cfg_.max_fullmoves)
            return finish_draw("adjudication: move limit"), Turn::Over;
        if (!has_legal_move(pos_)) return player_out("no legal move") ? Turn::Over : Turn::Next;
    }
    if (cfg_.game_limit_ms > 0 && game_left() <= 0) return expire(), Turn::Over;
    return Turn::Play;
}

// Blind (SPEC 25): proposals until one is legal in the whole position; the clock runs through
// the refusals (each reply's time counts; the delay applies once a move).
Reply Referee::ask(std::variant<Move, std::string>& parsed, std::vector<std::string>& refused,
                   std::string& why, bool& limit_capped) {
    const Colour c = pos_.to_move();
    const TimeControl& tc = tcs_[c];
    std::int64_t timeout = cfg_.move_timeout_ms;  // depth- or node-limited searches
    if (tc.base_ms >= 0)
        timeout = std::max<std::int64_t>(0, clock_[c]) + tc.delay_ms + tc.margin_ms;
    else if (tc.movetime_ms >= 0)
        timeout = tc.movetime_ms + tc.margin_ms + 1000;
    Reply r;
    std::int64_t spent = 0;
    while (g_.aborted.empty()) {
        std::string cmd = base_cmd_ + (moves_cmd_.empty() ? "" : " moves" + moves_cmd_);
        if (blind_) {
            cmd = "position blind " + std::string(1, kColourChar[c]) + " fen " + g_.start_fen;
            if (!told_[c].empty()) cmd += " moves";
            for (const auto& t : told_[c]) cmd += " " + t;
            if (!refused.empty()) cmd += " refused";
            for (const auto& t : refused) cmd += " " + t;
        }
        std::array<std::int64_t, kColours> now = clock_;
        if (tc.base_ms >= 0) now[c] -= std::max<std::int64_t>(0, spent - tc.delay_ms);
        std::int64_t wait = timeout;
        if (tc.base_ms >= 0)
            wait = std::max<std::int64_t>(0, now[c]) +
                   std::max<std::int64_t>(0, tc.delay_ms - spent) + tc.margin_ms;
        if (cfg_.game_limit_ms > 0 && game_left() < wait) {  // the game's limit comes first
            wait = std::max<std::int64_t>(1, game_left());
            limit_capped = true;
        }
        r = seats_[c]->go(cmd, go_command(tcs_, now, moves_made_, cfg_.players, c), wait);
        spent += r.ms;
        r.ms = spent;
        if (r.status != Reply::Ok) break;
        if (tc.base_ms >= 0 &&
            clock_[c] - std::max<std::int64_t>(0, spent - tc.delay_ms) < -tc.margin_ms)
            break;
        parsed = parse_move(pos_, r.move);
        if (!blind_ || std::holds_alternative<Move>(parsed)) break;
        // Refused unless the proposal is not legal in the player's own view, or repeats a
        // refusal: then it is an illegal move (SPEC 25).
        if (auto err = views_[c].refuse(r.move)) {
            why = "illegal proposal '" + r.move.substr(0, 40) + "': " + *err;
            break;
        }
        refused.push_back(move_to_string(views_[c].refused().back()));
        ++g_.refusals[c];
        if (int(refused.size()) > cfg_.blind_refusal_cap) {
            why = "more than " + std::to_string(cfg_.blind_refusal_cap) +
                  " proposals refused in one turn";
            break;
        }
    }
    return r;
}

Referee::Turn Referee::judge(const Reply& r, const std::variant<Move, std::string>& parsed,
                             const std::string& why, bool limit_capped) {
    const Colour c = pos_.to_move();
    const TimeControl& tc = tcs_[c];
    auto out = [&](const std::string& reason) {
        return player_out(reason) ? Turn::Over : Turn::Next;
    };
    if (cfg_.game_limit_ms > 0 &&  // the limit passed during the turn
        (game_left() <= 0 || (r.status == Reply::Timeout && limit_capped)))
        return expire(), Turn::Over;
    if (r.status == Reply::Resign) return out("resigned");
    if (r.status == Reply::Crash) {
        seats_[c]->start();  // ready for the next game
        return out("crashed");
    }
    if (tc.base_ms >= 0) {
        clock_[c] -= std::max<std::int64_t>(0, r.ms - tc.delay_ms);
        if (r.status == Reply::Timeout || clock_[c] < -tc.margin_ms) return out("lost on time");
    } else if (r.status == Reply::Timeout) {
        return out("no answer in time");
    }
    if (!why.empty()) return out(why);
    if (auto* err = std::get_if<std::string>(&parsed)) return out("illegal move " + *err);
    return Turn::Play;
}

// Adjudication on the scores the engines report (for the mover, SPEC 13; in three players
// its own standing). Resignation: two players, the game is lost; three, the player goes out
// as on flag fall (SPEC 7). Draw: every player's score small for draw_moves of its own moves
// (fastchess -draw), decided now and applied once the move is played.
Referee::Turn Referee::adjudicate(const Reply& r) {
    const Colour c = pos_.to_move();
    if (cfg_.resign_moves > 0 && pos_.phase() == Phase::Play) {
        const bool bad = (r.cp && *r.cp <= -cfg_.resign_cp) || (r.mate && *r.mate < 0);
        bad_scores_[c] = bad ? bad_scores_[c] + 1 : 0;
        if (bad_scores_[c] >= cfg_.resign_moves) {
            if (cfg_.players == 2) {
                g_.outcome[c] = Outcome::Loss;
                g_.outcome[1 - c] = Outcome::Win;
                g_.termination = "adjudication: " + g_.names[c] + " resigns on score";
                return Turn::Over;
            }
            return player_out("resigns on score (adjudication)") ? Turn::Over : Turn::Next;
        }
    }
    if (cfg_.draw_moves > 0 && pos_.phase() == Phase::Play && pos_.fullmove() >= cfg_.draw_from) {
        const bool quiet = r.cp && !r.mate && std::abs(*r.cp) <= cfg_.draw_cp;
        quiet_scores_[c] = quiet ? quiet_scores_[c] + 1 : 0;
        bool all = true;
        for (int o = 0; o < cfg_.players; ++o)
            if (pos_.is_in(Colour(o))) all = all && quiet_scores_[o] >= cfg_.draw_moves;
        draw_adjudicated_ = all;
    }
    return Turn::Play;
}

void Referee::finish() {
    g_.final_fen = pos_.fen();
    if (cfg_.players == 2) {  // RH 11.1 in two-player games: a decisive game is +1 and -1
        g_.hearts_captured = {};
        g_.heart_lost = {};
        for (int c = 0; c < 2; ++c)
            if (g_.outcome[c] == Outcome::Win) {
                g_.hearts_captured[c] = 1;
                g_.heart_lost[1 - c] = true;
            }
    }
}

GameRecord Referee::run() {
    if (!start() || !replay_history()) return g_;
    while (true) {
        if (cfg_.abandon && cfg_.abandon->load()) {
            g_.aborted = "abandoned";
            return g_;
        }
        const Turn before = before_turn();
        if (before == Turn::Over) break;
        if (before == Turn::Next) continue;
        const Colour c = pos_.to_move();
        std::vector<std::string> refused;
        std::variant<Move, std::string> parsed = std::string();
        std::string why;
        bool limit_capped = false;  // the last wait was cut to the game's limit
        const Reply r = ask(parsed, refused, why, limit_capped);
        if (!g_.aborted.empty()) return g_;
        Turn t = judge(r, parsed, why, limit_capped);
        if (t == Turn::Over) break;
        if (t == Turn::Next) continue;
        // Kinta (SPEC 26): the referee casts the fight's spindles; the engines get its outcome.
        const Cast k = cast(std::get<Move>(parsed), true);
        t = adjudicate(r);
        if (t == Turn::Over) break;
        if (t == Turn::Next) continue;
        // The comment first: an argument's evaluation order is unspecified, and GCC moved the
        // refusals out before comment_of read them (no record held a refusal).
        const std::string comment = comment_of(r, refused);
        record_move(k, comment, std::move(refused));
        if (draw_adjudicated_) {
            finish_draw("adjudication: draw by score");
            break;
        }
        const TimeControl& tc = tcs_[c];
        if (tc.base_ms >= 0) {
            clock_[c] += tc.inc_ms;
            if (tc.moves && ++moves_made_[c] % tc.moves == 0) clock_[c] += tc.base_ms;
        }
        if (on_move_) on_move_(g_);
    }
    finish();
    return g_;
}

}  // namespace

GameRecord play_game(const std::vector<Player*>& seats, const GameConfig& cfg,
                     const std::function<void(const GameRecord&)>& on_move) {
    return Referee(seats, cfg, on_move).run();
}

std::string to_pgn(const GameRecord& g, const GameConfig& cfg, int round, const std::string& event,
                   const std::string& site) {
    char date[16];
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y.%m.%d", std::gmtime(&now));
    std::string o = tag_line("Event", event) + tag_line("Site", site) + tag_line("Date", date) +
                    tag_line("Round", std::to_string(round));
    if (g.players == 2)  // the Seven Tag Roster that Ordo, BayesElo and PGN readers expect
        o += tag_line("White", g.names[GREEN]) + tag_line("Black", g.names[BLUE]);
    o += tag_line("Green", g.names[GREEN]) + tag_line("Blue", g.names[BLUE]);
    if (g.players == 3) o += tag_line("Black", g.names[BLACK]);
    const std::string variant = cfg.rules.variant_name();
    o += tag_line("Players", std::to_string(g.players)) +
         tag_line("Variant", variant.empty() ? "custom" : variant) +
         tag_line("Options", cfg.rules.to_string()) + tag_line("TimeControl", cfg.tc.describe());
    if (g.start_fen != (g.players == 3 ? kStartFen3 : kStartFen2))
        o += tag_line("SetUp", "1") + tag_line("FEN", g.start_fen);
    if (cfg.rules.effective(g.players).kinta)
        o += tag_line("DiceSeed", std::to_string(g.dice_seed));
    for (const auto& [name, value] : g.extra_tags) o += tag_line(name, value);
    // PGN's word for a game still going on (its Termination values: "unterminated").
    o += tag_line("Result", g.result()) +
         tag_line("Termination",
                  g.termination.empty() && g.result() == "*" ? "unterminated" : g.termination);
    if (g.players == 3 && !g.unfinished) {
        std::string rh, kz;
        for (int c = 0; c < 3; ++c) {
            std::ostringstream k;
            k << g.kz_points(Colour(c));  // 1, 0 or -0.5, as a stream writes a double
            rh += (c ? " " : "") + std::to_string(g.rh_points(Colour(c)));
            kz += (c ? " " : "") + k.str();
        }
        o += tag_line("ScoreRH", rh) + tag_line("ScoreKZ", kz);
    }
    return o + tag_line("PlyCount", std::to_string(g.moves.size())) + "\n" + g.movetext() + "\n";
}

}  // namespace klinzha::match
