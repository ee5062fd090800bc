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

std::string GameRecord::result() const {
    if (unfinished) return "*";
    auto token = [&](Colour c) {
        switch (outcome[c]) {
            case Outcome::Win:
                return std::string("1");
            case Outcome::Loss:
                return std::string("0");
            default:
                return std::string("1/2");
        }
    };
    std::string r = token(GREEN) + "-" + token(BLUE);
    if (players == 3) r += "-" + token(BLACK);
    return r;
}

double GameRecord::points(Colour c) const {
    return outcome[c] == Outcome::Win ? 1.0 : outcome[c] == Outcome::Draw ? 0.5 : 0.0;
}

int GameRecord::rh_points(Colour c) const {
    return hearts_captured[c] - (heart_lost[c] ? 1 : 0);
}

double GameRecord::kz_points(Colour c) const {
    return outcome[c] == Outcome::Win ? 1.0 : outcome[c] == Outcome::Draw ? -0.5 : 0.0;
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

GameRecord play_game(const std::vector<Player*>& seats, const GameConfig& cfg,
                     const std::function<void(const GameRecord&)>& on_move) {
    GameRecord g;
    g.players = cfg.players;
    for (int c = 0; c < cfg.players; ++c) g.names[c] = seats[c]->name();
    Position pos(cfg.players, cfg.rules);
    if (!cfg.start_fen.empty()) {
        if (auto err = pos.set(cfg.start_fen, cfg.rules)) {
            g.termination = "bad start position: " + *err;
            return g;
        }
    }
    g.start_fen = pos.fen();
    g.dice_seed = cfg.dice_seed;
    combat::Spindles dice(cfg.dice_seed);  // SPEC 26: one generator for the game's fights
    std::string base_cmd = "position fen " + g.start_fen;
    std::string moves_cmd;
    // Each seat's time control: its engine's own (tc=, st=, depth=, nodes=), else the match's.
    std::array<TimeControl, kColours> tcs{};
    for (std::size_t c = 0; c < kColours; ++c) tcs[c] = cfg.seat_tc[c] ? *cfg.seat_tc[c] : cfg.tc;
    std::array<std::int64_t, kColours> clock{tcs[0].base_ms, tcs[1].base_ms, tcs[2].base_ms};
    std::array<int, kColours> moves_made{};
    std::array<int, kColours> bad_scores{}, quiet_scores{};
    bool draw_adjudicated = false;  // -draw: decided at the last reply; the move is played first
    for (int c = 0; c < cfg.players; ++c) {
        if (seats[c]->alive()) continue;
        auto err = seats[c]->start();
        for (int retry = 0; err && cfg.recover && retry < 2; ++retry) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            err = seats[c]->start();
        }
        if (err) {  // no result: the match stops (tournament.h) rather than score it
            g.aborted = *err;
            return g;
        }
    }
    for (int c = 0; c < cfg.players; ++c) seats[c]->new_game();
    // Blind (SPEC 25): the arbiter's tokens for each player, and each player's view of them
    // (the view checks the arbiter's own tokens as it goes, and judges proposals).
    const bool blind = pos.rules().blind;
    std::array<std::vector<std::string>, kColours> told;
    std::vector<blind::View> views;
    if (blind) {
        if (pos.phase() != Phase::Place || pos.occupied()) {
            g.termination =
                "bad start position: a blind game starts from the empty board (SPEC 25)";
            return g;
        }
        for (int c = 0; c < cfg.players; ++c)
            views.push_back(std::get<blind::View>(blind::View::start(Colour(c), pos)));
    }
    auto tell = [&](Colour v, const std::string& token) {
        told[v].push_back(token);
        if (auto err = views[v].apply(token))  // a bug of the arbiter: say so loudly
            g.aborted = "blind arbiter: token '" + token + "' for " + kColourChar[v] + ": " + *err;
    };
    for (std::size_t c = 0; c < kColours; ++c)
        if (tcs[c].base_ms >= 0 && cfg.start_clock_ms[c] >= 0) clock[c] = cfg.start_clock_ms[c];

    // Plays `played` (a legal move with its Kinta outcome) for the player to move and writes it
    // into the record: notation, mover, comment, hearts captured (SPEC 12; Kinta: an attacker that
    // lost carrying its heart lost it to the defender's owner).
    auto record_move = [&](Move played, const std::string& spindles, Colour defender_owner,
                           const std::string& comment, std::vector<std::string> refused = {}) {
        const Colour c = pos.to_move();
        if (blind)  // SPEC 25: what each player still in is told of this ply
            for (int v = 0; v < cfg.players; ++v)
                if (pos.is_in(Colour(v)))
                    for (const auto& t : blind::announce(pos, played.bare(), Colour(v)))
                        tell(Colour(v), t);
        g.refused.push_back(std::move(refused));
        std::array<Cell, kColours> hearts_before{pos.heart(GREEN), pos.heart(BLUE),
                                                 pos.heart(BLACK)};
        g.algebraic.push_back(to_record_algebraic(pos, played));
        g.moves.push_back(move_to_string(played));
        g.spindles.push_back(spindles);
        g.movers.push_back(c);
        g.setup_move.push_back(pos.phase() != Phase::Play);
        g.comments.push_back(comment);
        pos.do_move(played);
        moves_cmd += " " + g.moves.back();
        for (int o = 0; o < kColours; ++o)
            if (o != c && hearts_before[o] != NO_CELL && pos.heart(Colour(o)) == NO_CELL) {
                g.hearts_captured[c]++;
                g.heart_lost[o] = true;
                g.outcome[o] = Outcome::Loss;
            }
        if (defender_owner != NO_COLOUR && hearts_before[c] != NO_CELL && pos.heart(c) == NO_CELL) {
            g.hearts_captured[defender_owner]++;
            g.heart_lost[c] = true;
            g.outcome[c] = Outcome::Loss;
        }
    };
    // The history (GameConfig::history): replayed as the record's first moves.
    for (const std::string& token : cfg.history) {
        if (token.rfind("out:", 0) == 0) {
            if (blind)
                for (int v = 0; v < cfg.players; ++v)
                    if (pos.is_in(Colour(v))) tell(Colour(v), blind::out_token(pos.to_move()));
            g.removals.push_back({g.moves.size(), pos.to_move(), token.substr(4)});
            if (pos.heart(pos.to_move()) != NO_CELL) g.heart_lost[pos.to_move()] = true;
            g.outcome[pos.to_move()] = Outcome::Loss;
            pos.eliminate_to_move();
            base_cmd = "position fen " + pos.fen();
            moves_cmd.clear();
            continue;
        }
        auto parsed = parse_played_move(pos, token);
        if (auto* err = std::get_if<std::string>(&parsed)) {
            g.aborted =
                "history: move " + std::to_string(g.moves.size() + 1) + " '" + token + "': " + *err;
            return g;
        }
        const Move played = std::get<Move>(parsed);
        const Move m = played.bare();
        std::string spindles;
        Colour defender_owner = NO_COLOUR;
        if (pos.is_attack(m)) {  // cast again, so the generator stands where it stood
            const auto [a, d] = combat::fighters(pos, m);
            const combat::Fight f = combat::cast(a, d, dice);
            spindles = combat::spindles_text(f);
            defender_owner = man_colour(pos.man_on(m.to()));
        }
        const Colour c = pos.to_move();
        record_move(played, spindles, defender_owner, "");
        if (tcs[c].base_ms >= 0 && tcs[c].moves) ++moves_made[c];
    }

    // The comment of a move as fastchess writes it: score/depth time; with no score and no
    // depth (a person, an engine that printed no info) only the time; Blind: the proposals
    // refused before it.
    auto comment_of = [](const Reply& r, const std::vector<std::string>& refused) {
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
    };
    auto finish_draw = [&](const std::string& why) {
        for (int c = 0; c < cfg.players; ++c)
            g.outcome[c] = pos.is_in(Colour(c)) ? Outcome::Draw : Outcome::Loss;
        g.termination += (g.termination.empty() ? "" : "; ") + why;
    };
    // The player to move is out (SPEC 7): two players, it loses; three, it drops out with
    // its men removed and the game goes on. Returns true when the game is over.
    auto player_out = [&](const std::string& why) {
        const Colour c = pos.to_move();
        g.outcome[c] = Outcome::Loss;
        if (cfg.players == 2 || pos.phase() != Phase::Play) {
            // Two players, or a failure during setup: the game ends; the others share it.
            for (int o = 0; o < cfg.players; ++o)
                if (o != c) g.outcome[o] = cfg.players == 2 ? Outcome::Win : Outcome::Draw;
            g.termination = g.names[c] + ": " + why;
            return true;
        }
        if (pos.rules().relation_dilemma) {
            // SPEC 15 Decision: the game ends; the player allowed to capture c wins and
            // counts as having captured its heart.
            const Colour w = pos.winner_over(c);
            for (int o = 0; o < cfg.players; ++o)
                g.outcome[o] = o == w ? Outcome::Win : Outcome::Loss;
            g.hearts_captured[w]++;
            g.heart_lost[c] = true;
            g.termination =
                g.names[c] + ": " + why + " (relation dilemma: " + g.names[w] + " wins)";
            return true;
        }
        if (pos.heart(c) != NO_CELL) g.heart_lost[c] = true;
        g.removals.push_back({g.moves.size(), c, why});
        if (blind)
            for (int v = 0; v < cfg.players; ++v)
                if (pos.is_in(Colour(v))) tell(Colour(v), blind::out_token(c));
        pos.eliminate_to_move();
        // A move list cannot tell the engines that a player was removed: start the list
        // again from the position as it now is.
        base_cmd = "position fen " + pos.fen();
        moves_cmd.clear();
        if (pos.players_in() == 1) {
            g.outcome[pos.to_move()] = Outcome::Win;
            g.termination = g.names[c] + ": " + why + "; last player in wins";
            return true;
        }
        g.termination += (g.termination.empty() ? "" : "; ") + g.names[c] + " out: " + why;
        // Those who watch the game (klinzha-gui's room) learn of the removal now, as of a
        // move: play goes on with the next player (SPEC 7), and a view that waited for the
        // next move would show the removed player still to move.
        if (on_move) on_move(g);
        return false;
    };

    // The game's wall-clock limit (GameConfig::game_limit_ms): the ms left of it.
    const auto game_t0 = std::chrono::steady_clock::now();
    auto game_left = [&]() -> std::int64_t {
        return cfg.game_limit_ms - std::chrono::duration_cast<std::chrono::milliseconds>(
                                       std::chrono::steady_clock::now() - game_t0)
                                       .count();
    };
    auto expire = [&] {
        g.expired = true;
        char buf[64];
        std::snprintf(buf, sizeof buf, "game time limit (%.3g s)", cfg.game_limit_ms / 1000.0);
        finish_draw(buf);
    };

    while (true) {
        if (cfg.abandon && cfg.abandon->load()) {
            g.aborted = "abandoned";
            return g;
        }
        const Colour c = pos.to_move();
        if (pos.phase() == Phase::Play && g.play_start_fen.empty()) g.play_start_fen = pos.fen();
        if (pos.phase() == Phase::Play) {
            if (pos.game_over()) {  // SPEC 12: who won, and how
                const Colour w = pos.winner();
                for (int o = 0; o < cfg.players; ++o)
                    g.outcome[o] = o == w ? Outcome::Win : Outcome::Loss;
                g.termination +=
                    (g.termination.empty() ? "" : "; ") +
                    std::string(pos.crowned() ? "Kagga's crown: the crowned heart was not taken"
                                              : "heart capture");
                break;
            }
            if (pos.repetition_draw(3)) {
                finish_draw("draw by third repetition");
                break;
            }
            if (pos.move_count_draw()) {
                finish_draw(pos.rules().draw_rule == DrawRule::Italian
                                ? "draw by the 20-moves-each rule (italian)"
                                : "draw by the 50-moves-each rule");
                break;
            }
            if (cfg.max_fullmoves && pos.fullmove() > cfg.max_fullmoves) {
                finish_draw("adjudication: move limit");
                break;
            }
            if (!has_legal_move(pos)) {
                if (player_out("no legal move")) break;
                continue;
            }
        }
        if (cfg.game_limit_ms > 0 && game_left() <= 0) {
            expire();
            break;
        }
        const TimeControl& tc = tcs[c];
        std::int64_t timeout = cfg.move_timeout_ms;  // depth- or node-limited searches
        if (tc.base_ms >= 0)
            timeout = std::max<std::int64_t>(0, clock[c]) + tc.delay_ms + tc.margin_ms;
        else if (tc.movetime_ms >= 0)
            timeout = tc.movetime_ms + tc.margin_ms + 1000;
        // Blind (SPEC 25): proposals until one is legal in the whole position; the clock runs
        // through the refusals (each reply's time counts; the delay applies once a move).
        std::vector<std::string> refused;
        Reply r;
        std::variant<Move, std::string> parsed = std::string();
        std::string out_why;
        std::int64_t spent = 0;
        bool limit_capped = false;  // the last wait was cut to the game's limit
        while (true) {
            if (!g.aborted.empty()) return g;
            std::string cmd = base_cmd + (moves_cmd.empty() ? "" : " moves" + moves_cmd);
            if (blind) {
                cmd = "position blind " + std::string(1, kColourChar[c]) + " fen " + g.start_fen;
                if (!told[c].empty()) cmd += " moves";
                for (const auto& t : told[c]) cmd += " " + t;
                if (!refused.empty()) cmd += " refused";
                for (const auto& t : refused) cmd += " " + t;
            }
            std::array<std::int64_t, kColours> now = clock;
            if (tc.base_ms >= 0) now[c] -= std::max<std::int64_t>(0, spent - tc.delay_ms);
            std::int64_t wait = timeout;
            if (tc.base_ms >= 0)
                wait = std::max<std::int64_t>(0, now[c]) +
                       std::max<std::int64_t>(0, tc.delay_ms - spent) + tc.margin_ms;
            if (cfg.game_limit_ms > 0 && game_left() < wait) {  // the game's limit comes first
                wait = std::max<std::int64_t>(1, game_left());
                limit_capped = true;
            }
            r = seats[c]->go(cmd, go_command(tcs, now, moves_made, cfg.players, c), wait);
            spent += r.ms;
            r.ms = spent;
            if (r.status != Reply::Ok) break;
            if (tc.base_ms >= 0 &&
                clock[c] - std::max<std::int64_t>(0, spent - tc.delay_ms) < -tc.margin_ms)
                break;
            parsed = parse_move(pos, r.move);
            if (!blind || std::holds_alternative<Move>(parsed)) break;
            // Refused unless the proposal is not legal in the player's own view, or repeats
            // a refusal: then it is an illegal move (SPEC 25).
            if (auto err = views[c].refuse(r.move)) {
                out_why = "illegal proposal '" + r.move.substr(0, 40) + "': " + *err;
                break;
            }
            refused.push_back(move_to_string(views[c].refused().back()));
            ++g.refusals[c];
            if (int(refused.size()) > cfg.blind_refusal_cap) {
                out_why = "more than " + std::to_string(cfg.blind_refusal_cap) +
                          " proposals refused in one turn";
                break;
            }
        }
        if (cfg.game_limit_ms > 0 &&  // the limit passed during the turn
            (game_left() <= 0 || (r.status == Reply::Timeout && limit_capped))) {
            expire();
            break;
        }
        if (r.status == Reply::Resign) {
            if (player_out("resigned")) break;
            continue;
        }
        if (r.status == Reply::Crash) {
            seats[c]->start();  // ready for the next game
            if (player_out("crashed")) break;
            continue;
        }
        if (tc.base_ms >= 0) {
            clock[c] -= std::max<std::int64_t>(0, r.ms - tc.delay_ms);
            if (r.status == Reply::Timeout || clock[c] < -tc.margin_ms) {
                if (player_out("lost on time")) break;
                continue;
            }
        } else if (r.status == Reply::Timeout) {
            if (player_out("no answer in time")) break;
            continue;
        }
        if (!out_why.empty()) {
            if (player_out(out_why)) break;
            continue;
        }
        if (auto* err = std::get_if<std::string>(&parsed)) {
            if (player_out("illegal move " + *err)) break;
            continue;
        }
        const Move m = std::get<Move>(parsed);
        // Kinta (SPEC 26): the referee casts the fight's spindles; the engines get its outcome.
        Move played = m;
        std::string spindles;
        Colour defender_owner = NO_COLOUR;
        if (pos.is_attack(m)) {
            const auto [a, d] = combat::fighters(pos, m);
            const combat::Fight f = combat::cast(a, d, dice);
            played = m.with_outcome(!f.attacker_won, f.strength);
            spindles = combat::spindles_text(f);
            defender_owner = man_colour(pos.man_on(m.to()));
            g.fights.emplace_back(combat::odds(a, d).win, f.attacker_won);
        }
        // Adjudication on the scores the engines report (for the mover, SPEC 13; in three
        // players its own standing). Resignation: two players, the game is lost; three, the
        // player goes out as on flag fall (SPEC 7).
        if (cfg.resign_moves > 0 && pos.phase() == Phase::Play) {
            bool bad = (r.cp && *r.cp <= -cfg.resign_cp) || (r.mate && *r.mate < 0);
            bad_scores[c] = bad ? bad_scores[c] + 1 : 0;
            if (bad_scores[c] >= cfg.resign_moves) {
                if (cfg.players == 2) {
                    g.outcome[c] = Outcome::Loss;
                    g.outcome[1 - c] = Outcome::Win;
                    g.termination = "adjudication: " + g.names[c] + " resigns on score";
                    break;
                }
                if (player_out("resigns on score (adjudication)")) break;
                continue;
            }
        }
        // Draw: every player's score small for draw_moves of its own moves (fastchess -draw).
        if (cfg.draw_moves > 0 && pos.phase() == Phase::Play && pos.fullmove() >= cfg.draw_from) {
            const bool quiet = r.cp && !r.mate && std::abs(*r.cp) <= cfg.draw_cp;
            quiet_scores[c] = quiet ? quiet_scores[c] + 1 : 0;
            bool all = true;
            for (int o = 0; o < cfg.players; ++o)
                if (pos.is_in(Colour(o))) all = all && quiet_scores[o] >= cfg.draw_moves;
            draw_adjudicated = all;
        }
        record_move(played, spindles, defender_owner, comment_of(r, refused), std::move(refused));
        if (draw_adjudicated) {
            finish_draw("adjudication: draw by score");
            break;
        }
        if (tc.base_ms >= 0) {
            clock[c] += tc.inc_ms;
            if (tc.moves && ++moves_made[c] % tc.moves == 0) clock[c] += tc.base_ms;
        }
        if (on_move) on_move(g);
    }
    g.final_fen = pos.fen();
    if (cfg.players == 2) {  // RH 11.1 in two-player games: a decisive game is +1 and -1
        g.hearts_captured = {};
        g.heart_lost = {};
        for (int c = 0; c < 2; ++c)
            if (g.outcome[c] == Outcome::Win) {
                g.hearts_captured[c] = 1;
                g.heart_lost[1 - c] = true;
            }
    }
    return g;
}

std::string to_pgn(const GameRecord& g, const GameConfig& cfg, int round,
                   const std::string& event) {
    std::ostringstream o;
    char date[16];
    std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y.%m.%d", std::gmtime(&now));
    // Tag values escaped as PGN wants them (a quote or backslash gets a backslash).
    auto esc = [](const std::string& v) {
        std::string out;
        for (char ch : v) {
            if (ch == '"' || ch == '\\') out += '\\';
            out += ch == '\n' ? ' ' : ch;
        }
        return out;
    };
    o << "[Event \"" << esc(event) << "\"]\n[Site \"klinzha-match\"]\n[Date \"" << date
      << "\"]\n[Round \"" << round << "\"]\n";
    if (g.players == 2)  // the Seven Tag Roster that Ordo, BayesElo and PGN readers expect
        o << "[White \"" << esc(g.names[GREEN]) << "\"]\n[Black \"" << esc(g.names[BLUE])
          << "\"]\n";
    o << "[Green \"" << esc(g.names[GREEN]) << "\"]\n[Blue \"" << esc(g.names[BLUE]) << "\"]\n";
    if (g.players == 3) o << "[Black \"" << esc(g.names[BLACK]) << "\"]\n";
    const std::string variant = cfg.rules.variant_name();
    o << "[Players \"" << g.players << "\"]\n[Variant \"" << (variant.empty() ? "custom" : variant)
      << "\"]\n[Options \"" << cfg.rules.to_string() << "\"]\n[TimeControl \"" << cfg.tc.describe()
      << "\"]\n";
    if (g.start_fen != (g.players == 3 ? kStartFen3 : kStartFen2))
        o << "[SetUp \"1\"]\n[FEN \"" << esc(g.start_fen) << "\"]\n";
    if (cfg.rules.effective(g.players).kinta) o << "[DiceSeed \"" << g.dice_seed << "\"]\n";
    for (const auto& [name, value] : g.extra_tags)
        o << "[" << name << " \"" << esc(value) << "\"]\n";
    o << "[Result \"" << g.result() << "\"]\n[Termination \"" << g.termination << "\"]\n";
    if (g.players == 3 && !g.unfinished) {
        o << "[ScoreRH \"";
        for (int c = 0; c < 3; ++c) o << (c ? " " : "") << g.rh_points(Colour(c));
        o << "\"]\n[ScoreKZ \"";
        for (int c = 0; c < 3; ++c) o << (c ? " " : "") << g.kz_points(Colour(c));
        o << "\"]\n";
    }
    o << "[PlyCount \"" << g.moves.size() << "\"]\n\n";
    std::string text;
    bool in_play = false;
    int number = 0;
    Colour first = GREEN;
    std::size_t next_removal = 0;
    if (!g.lead_comment.empty()) text += "{" + g.lead_comment + "} ";
    for (std::size_t i = 0; i <= g.algebraic.size(); ++i) {
        // A removal the referee imposed (SPEC 7), before the move at i: `{k out: why}`.
        for (; next_removal < g.removals.size() && g.removals[next_removal].before_move == i;
             ++next_removal) {
            const auto& r = g.removals[next_removal];
            text += std::string("{") + kColourChar[r.colour] + " out: " + r.why + "} ";
        }
        if (i == g.algebraic.size()) break;
        if (i == 0 && g.setup_move[0]) text += "{setup} ";
        if (!g.setup_move[i] && !in_play) {
            in_play = true;
            text += "{play} ";
            first = g.movers[i];
        }
        if (in_play && (g.movers[i] == first || number == 0))
            text += std::to_string(++number) + ". ";
        text += g.algebraic[i] + " ";
        const auto note = g.annotations.find(i);
        if (note != g.annotations.end() && !note->second.nag.empty())
            text += note->second.nag + " ";
        if (i < g.comments.size() && !g.comments[i].empty()) text += "{" + g.comments[i] + "} ";
        if (i < g.spindles.size() && !g.spindles[i].empty()) text += "{" + g.spindles[i] + "} ";
        if (note != g.annotations.end() && !note->second.comment.empty())
            text += "{" + note->second.comment + "} ";
    }
    text += g.result();
    o << wrap_movetext(text) << "\n";
    return o.str();
}

}  // namespace klinzha::match
