// tests/search/belief_test.cpp: the blind player's boards agree with what it was told
// (search/belief.h, SPEC 25).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "engine/blind.h"
#include "engine/blind_games.h"
#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/notation.h"
#include "eval/evaluate.h"
#include "search/belief.h"
#include "search/blind_search.h"
#include "search/search.h"
#include "search/tt.h"

using namespace klinzha;

namespace {

Rules blind_rules() {
    Rules r;
    r.blind = true;
    return r;
}

/// Whether board b agrees with view v at the present (independent of how b was made): the
/// viewer's men and heart exactly, the turn, the phase and who is out; every opponent still
/// in has its heart in play; two players: the opponent's men number nine less the viewer's
/// captures; no refused proposal is legal.
std::string disagreement(const Position& b, const blind::View& v, bool refusals) {
    const Colour me = v.viewer();
    const Position& p = v.position();
    if (b.pieces(me) != p.pieces(me)) return "the viewer's men differ";
    for (int t = 0; t < kPieceTypes; ++t)
        if (b.pieces(me, PieceType(t)) != p.pieces(me, PieceType(t))) return "a man's type differs";
    if (b.heart(me) != p.heart(me)) return "the viewer's heart differs";
    if (b.to_move() != p.to_move()) return "the turn differs";
    if (b.phase() != p.phase()) return "the phase differs";
    if (b.state().out != p.state().out) return "who is out differs";
    if (b.phase() == Phase::Play)
        for (int c = 0; c < b.players(); ++c)
            if (b.is_in(Colour(c)) && b.heart(Colour(c)) == NO_CELL) return "a heart is missing";
    if (b.players() == 2 && b.phase() == Phase::Play) {
        int captures = 0;
        for (const auto& o : v.history())
            captures += o.kind == blind::Observation::Kind::Own &&
                        o.took != blind::Observation::Took::Nothing;
        if (popcount(b.pieces(Colour(1 - me))) != 9 - captures) return "the opponent's count";
    }
    MoveList legal;
    generate_legal(b, legal);
    for (Move r : v.refused())
        if (refusals && legal.contains(r)) return "a refused proposal is legal";
    return "";
}

/// The belief's parameters for a test: `boards` boards, `setups` planned setups per opponent
/// (fewer than the engine's defaults, for speed).
Belief::Params small_params(int boards, int setups) {
    Belief::Params params;
    params.boards = boards;
    params.setups = setups;
    return params;
}

/// The view of `me` in the random blind game g (its history parses: the arbiter wrote it).
blind::View view_of(const testing::BlindGame& g, Colour me) {
    auto parsed = blind::View::parse(me, g.start, g.tokens[me], {});
    REQUIRE(std::holds_alternative<blind::View>(parsed));
    return std::get<blind::View>(parsed);
}

/// Plays the random blind game g to its end; after each ply calls each_ply(), and at each of
/// `me`'s turns in play brings `belief` up to date with me's view (it must reach the present)
/// and calls at_turn(view).
template <class EachPly, class AtTurn>
void play_turns(testing::BlindGame& g, Colour me, Belief& belief, const Belief::Params& params,
                EachPly each_ply, AtTurn at_turn) {
    while (g.step()) {
        each_ply();
        if (g.pos.to_move() != me || g.pos.game_over() || g.pos.phase() != Phase::Play) continue;
        const blind::View v = view_of(g, me);
        if (v.over()) break;
        REQUIRE(belief.update(v, params, [] { return true; }));
        at_turn(v);
    }
}

/// The hunt's turns of two-player random blind games, seeds 1..seeds (the game's seed times
/// `mult`, at most `plies` plies), `me` = seed mod 2 with a fresh belief of 16 boards and 2
/// setups per opponent: at each of me's turns in play from the hunt's window on (the
/// observations read at least BlindSearch::kExploreWindow), at_turn(g, view, belief, params,
/// since, me), since = observed - kExploreWindow.
template <class AtTurn>
void over_hunt_turns(int seeds, std::uint64_t mult, int plies, AtTurn at_turn) {
    for (std::uint64_t seed = 1; seed <= std::uint64_t(seeds); ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * mult, plies);
        const Colour me = Colour(seed % 2);
        Belief belief(seed);
        const Belief::Params params = small_params(16, 2);
        play_turns(
            g, me, belief, params, [] {},
            [&](const blind::View& v) {
                const int since = belief.observed() - BlindSearch::kExploreWindow;
                if (since >= 0) at_turn(g, v, belief, params, since, me);
            });
    }
}

/// Refuses in v, in the order of its proposals, up to `limit` of those the whole position
/// `whole` does not allow (as the arbiter would, SPEC 25); returns how many it refused.
int refuse_illegal(blind::View& v, const Position& whole, int limit) {
    MoveList legal;
    generate_legal(whole, legal);
    int n = 0;
    for (Move m : v.proposals()) {
        if (n == limit) break;
        if (legal.contains(m)) continue;
        REQUIRE_FALSE(v.refuse(move_to_string(m)));
        ++n;
    }
    return n;
}

/// Calls fn(g, me, belief, params) for random blind games of two and three players, seeds
/// 1..seeds (the game's seed times `mult`, at most `plies` plies), `me` = seed mod players,
/// with a fresh belief of `boards` boards and 3 setups per opponent.
template <class Fn>
void over_random_games(int seeds, std::uint64_t mult, int plies, int boards, Fn fn) {
    for (int players : {2, 3}) {
        for (std::uint64_t seed = 1; seed <= std::uint64_t(seeds); ++seed) {
            CAPTURE(players);
            CAPTURE(seed);
            testing::BlindGame g(players, blind_rules(), seed * mult, plies);
            Belief belief(seed);
            fn(g, Colour(seed % players), belief, small_params(boards, 3));
        }
    }
}

}  // namespace

TEST_CASE("belief: every board agrees with every observation over random blind games") {
    std::uint64_t dropped = 0;
    int checked = 0, approximate = 0, unexplained = 0, refusals = 0;
    over_random_games(
        4, 31, 120, 48,
        [&](testing::BlindGame& g, Colour me, Belief& belief, const Belief::Params& params) {
            while (g.step()) {
                if (g.pos.to_move() != me || g.pos.game_over()) continue;
                blind::View v = view_of(g, me);
                if (v.over()) break;
                // A refused proposal: a move legal in the view that the whole position refuses.
                refuse_illegal(v, g.pos, 1);
                const int unexplained_before = belief.stats().unexplained;
                REQUIRE(belief.update(v, params, [] { return true; }));
                const bool explained = belief.stats().unexplained == unexplained_before;
                refusals += int(v.refused().size());
                REQUIRE(belief.size() == 48);
                for (std::size_t i = 0; i < belief.size(); ++i) {
                    const std::string why = disagreement(belief.board(i), v, explained);
                    INFO("board " << i << ": " << why << " " << belief.board(i).fen());
                    CHECK(why.empty());
                }
                ++checked;
            }
            dropped += belief.stats().dropped;
            approximate += belief.stats().approximate;
            unexplained += belief.stats().unexplained;
        });
    CHECK(checked > 40);
    CHECK(dropped > 0);       // observations do rule boards out
    CHECK(approximate <= 2);  // random games rarely need boards built from the view alone
    CHECK(unexplained * 10 <= refusals);  // a refusal is mostly explained by some board
    MESSAGE("views checked " << checked << ", boards dropped " << dropped << ", approximate "
                             << approximate << ", refusals " << refusals << ", unexplained "
                             << unexplained);
}

TEST_CASE("belief: a cell where a jump or a one-step move was refused holds no heart") {
    // Belief::note_refused_cells against the whole position: at our turns in random blind
    // games, every proposal the position refuses is refused (up to 12); the cells the belief
    // then marks as stood on now but that none of our men stands on must hold no heart of
    // anyone's, and lie in an opposing wall's zone or under an opposing wall (SPEC 4, 5).
    int marked = 0, refused = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        CAPTURE(seed);
        testing::BlindGame g(2, blind_rules(), seed * 53, 140);
        const Colour me = Colour(seed % 2);
        Belief belief(seed);
        const Belief::Params params = small_params(16, 2);
        while (g.step()) {
            if (g.pos.to_move() != me || g.pos.game_over()) continue;
            blind::View v = view_of(g, me);
            if (v.over()) break;
            refused += refuse_illegal(v, g.pos, 12);
            REQUIRE(belief.update(v, params, [] { return true; }));
            const Colour them = Colour(1 - me);
            for (int sq = 0; sq < kCells; ++sq) {
                if (belief.last_stood(Cell(sq)) != belief.observed() ||
                    test(g.pos.pieces(me) | g.pos.zones(me), Cell(sq)))
                    continue;
                CAPTURE(geo::cell_name(Cell(sq)));
                CHECK(g.pos.heart(them) != Cell(sq));
                CHECK((test(g.pos.zones(them), Cell(sq)) ||
                       test(g.pos.pieces(them, WALL), Cell(sq))));
                ++marked;
            }
        }
    }
    MESSAGE("refusals " << refused << ", cells ruled out by them " << marked);
    CHECK(refused > 20);
    CHECK(marked > 0);
}

TEST_CASE("belief: the cells of our walls' zones count as stood on, and hold no heart") {
    // SPEC 5: no heart rests in a wall's zone, and a wall may not end its move beside one, so
    // Belief::last_stood rules the zone's cells out as it does our men's own cells. Against
    // the whole position of random blind games: at each of our turns every cell of our walls'
    // zones is marked at the present observation, and no heart of anyone's stands on one.
    int cells = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        CAPTURE(seed);
        testing::BlindGame g(2, blind_rules(), seed * 71, 140);
        const Colour me = Colour(seed % 2);
        Belief belief(seed);
        play_turns(
            g, me, belief, small_params(16, 2), [] {},
            [&](const blind::View&) {
                for (Bitboard z = g.pos.zones(me); z;) {
                    const Cell sq = pop_lsb(z);
                    CAPTURE(geo::cell_name(sq));
                    CHECK(belief.last_stood(sq) == belief.observed());
                    for (int c = 0; c < g.pos.players(); ++c) CHECK(g.pos.heart(Colour(c)) != sq);
                    ++cells;
                }
            });
    }
    MESSAGE("zone cells checked " << cells);
    CHECK(cells > 100);
}

TEST_CASE("belief: kind changes give hidden men the kinds of men taken, and boards still agree") {
    // The arbiter does not tell which kind of man a capture took (SPEC 25), so boards descended
    // from few ancestors may all agree on it wrongly (then all may hold no opposing carrier
    // while the true board does). Belief::Params::type_swap gives hidden men the kinds of
    // their colour's men no longer on the board. Over the same random blind games, with every
    // rejuvenation a kind change and with none: the boards keep agreeing with the view, hold
    // no more of a kind than a player sets up (SPEC 2), keep their walls, and a carried
    // heart stands on a carrier (SPEC 4); and the boards show more distinct armies.
    auto armies = [](int type_swap) {
        int distinct = 0, turns = 0;
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            CAPTURE(seed);
            testing::BlindGame g(2, blind_rules(), seed * 67, 160);
            const Colour me = Colour(seed % 2), them = Colour(1 - me);
            Belief belief(seed);
            Belief::Params params = small_params(32, 2);
            params.type_swap = type_swap;
            play_turns(
                g, me, belief, params, [] {},
                [&](const blind::View& v) {
                    std::set<std::array<int, kPieceTypes>> seen;
                    for (std::size_t i = 0; i < belief.size(); ++i) {
                        const Position& b = belief.board(i);
                        CHECK(disagreement(b, v, true).empty());
                        std::array<int, kPieceTypes> army{};
                        for (int t = 0; t < kPieceTypes; ++t) {
                            army[std::size_t(t)] = popcount(b.pieces(them, PieceType(t)));
                            CHECK(army[std::size_t(t)] <= kSetCount[std::size_t(t)]);
                        }
                        CHECK(army[WALL] == kSetCount[WALL]);
                        if (b.heart(them) != NO_CELL && b.man_on(b.heart(them)) != kNoMan)
                            CHECK(test(b.carriers(them), b.heart(them)));
                        seen.insert(army);
                    }
                    distinct += int(seen.size()) - 1;
                    ++turns;
                });
        }
        MESSAGE("type_swap " << type_swap << ": turns " << turns << ", armies beyond the first "
                             << distinct);
        return distinct;
    };
    const int plain = armies(0), swapped = armies(100);
    CHECK(swapped > 2 * plain + 10);
}

namespace {

/// What the boards held, at one of the viewer's turns, on a cell where an opposing man had
/// just taken one of the viewer's men (Belief::seen() at the last observation read): the
/// taker's true kind, and per kind the boards with an opposing man of it there.
struct FreshTaker {
    PieceType truth = NO_PIECE_TYPE;
    std::array<int, kPieceTypes> boards{};
    int empty = 0;  ///< boards with no opposing man on the cell
    int n = 0;      ///< boards looked at
};

/// Every such cell at the viewer's turns of two-player random blind games (seeds
/// 1..seeds times 97, 240 plies, the viewer seed mod 2, a belief of 64 boards and 2 setups).
std::vector<FreshTaker> fresh_takers(int seeds) {
    std::vector<FreshTaker> out;
    for (std::uint64_t seed = 1; seed <= std::uint64_t(seeds); ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 97, 240);
        const Colour me = Colour(seed % 2);
        Belief belief(seed);
        const Belief::Params params = small_params(64, 2);
        play_turns(
            g, me, belief, params, [] {},
            [&](const blind::View&) {
                for (int sq = 0; sq < kCells; ++sq) {
                    if (belief.seen(Cell(sq)) != belief.observed()) continue;
                    const Man taker = g.pos.man_on(Cell(sq));
                    REQUIRE(taker != kNoMan);  // no ply since it took ours
                    REQUIRE(man_colour(taker) != me);
                    FreshTaker f;
                    f.truth = man_type(taker);
                    for (std::size_t i = 0; i < belief.size(); ++i, ++f.n) {
                        const Man m = belief.board(i).man_on(Cell(sq));
                        if (m == kNoMan || man_colour(m) == me)
                            ++f.empty;
                        else
                            ++f.boards[man_type(m)];
                    }
                    out.push_back(f);
                }
            });
    }
    return out;
}

}  // namespace

TEST_CASE("belief: the boards' kinds of a man that took ours are those of a random mover's") {
    // Against a player that picks any legal move alike (the random blind games here), the
    // kind of the man that took ours is a knight, a queen and so on as often as the boards
    // say. Per kind, over every turn just after a capture of ours: the boards' share of the
    // kind summed (the takers the belief expects of that kind) against the takers that were
    // of it, within 3 standard errors (each turn a Bernoulli trial with the boards' share as
    // its chance) and 2. (Issue 28's thirty-ninth round: in five games lost to the random
    // player the boards gave the knight that took our heart's cover 12 to 33% in four; over
    // all captures the kinds agree, 219.7 knights expected here for 218, so those were the
    // games chosen for a knight, and boards weighed by how many captures they offered did
    // no better: 218.6.)
    const auto takers = fresh_takers(200);
    std::array<double, kPieceTypes> expected{}, variance{};
    std::array<int, kPieceTypes> counted{};
    double log_score = 0;
    for (const FreshTaker& f : takers) {
        const int held = f.n - f.empty;
        if (held == 0) continue;
        for (int t = 0; t < kPieceTypes; ++t) {
            const double p = double(f.boards[std::size_t(t)]) / held;
            expected[std::size_t(t)] += p;
            variance[std::size_t(t)] += p * (1 - p);
        }
        ++counted[f.truth];
        log_score += std::log(std::max(1e-3, double(f.boards[f.truth]) / held));
    }
    MESSAGE("turns " << takers.size() << ", mean log share of the true kind "
                     << log_score / double(std::max<std::size_t>(1, takers.size())));
    CHECK(takers.size() > 150);
    for (int t = 0; t < kPieceTypes; ++t) {
        CAPTURE(t);
        MESSAGE("kind " << kPieceChar[std::size_t(t)] << ": takers " << counted[std::size_t(t)]
                        << ", expected " << expected[std::size_t(t)] << " +- "
                        << std::sqrt(variance[std::size_t(t)]));
        CHECK(std::abs(counted[std::size_t(t)] - expected[std::size_t(t)]) <=
              3 * std::sqrt(variance[std::size_t(t)]) + 2);
    }
}

TEST_CASE("belief: the man that took ours stays on its cell on every board until its next ply") {
    // The arbiter names the cell where an opposing man took ours (SPEC 25), and no ply of
    // its own has come since: every board must hold an opposing man there at our next turn.
    // Belief::rejuvenate moved a hidden man on half the boards after every update, the
    // taker among them, and left it off 7 to 18% of them in games lost to the random player,
    // whose knight went on to take our heart from there (issue 28's thirty-ninth and fortieth
    // rounds). The build before: 1,102 of the 10,752 boards of these 168 turns had none.
    const auto takers = fresh_takers(60);
    int boards = 0, empty = 0;
    for (const FreshTaker& f : takers) boards += f.n, empty += f.empty;
    MESSAGE("turns just after a capture of ours " << takers.size() << ", boards " << boards
                                                  << ", without a man on the cell " << empty);
    CHECK(takers.size() > 40);
    CHECK(empty == 0);
}

TEST_CASE("belief: after clear() a game's boards are those of a new belief") {
    // ucinewgame (Engine::new_game) clears the belief, and its random numbers start again
    // from the seed: a game's boards do not hang on the games the process played before, and
    // a record replayed in a fresh engine (tools/match/blind_trace.py) follows the game's
    // boards, its clock aside. (Issue 28's fortieth round: replays of games drawn against the
    // random player tested cells the games never did, from other boards.)
    const auto boards_of = [](Belief& belief, std::uint64_t game_seed) {
        testing::BlindGame g(2, blind_rules(), game_seed, 90);
        std::vector<std::string> fens;
        play_turns(
            g, Colour(0), belief, small_params(16, 2), [] {},
            [&](const blind::View&) {
                for (std::size_t i = 0; i < belief.size(); ++i)
                    fens.push_back(belief.board(i).fen());
            });
        return fens;
    };
    Belief fresh(7), used(7);
    REQUIRE(!boards_of(used, 11).empty());
    used.clear();
    const auto a = boards_of(fresh, 13), b = boards_of(used, 13);
    REQUIRE(!a.empty());
    CHECK(a == b);
}

TEST_CASE("belief: boards built from the view alone keep the walls and may hold a lone heart") {
    // Belief::from_view, update()'s last resort when no board can follow the observations
    // (Stats::approximate). It removed the men we took at random, walls among them, though
    // walls are never taken (SPEC 3), and always put the heart on a carrier: once the true
    // opponent was down to its wall and a lone heart, every board held a carried heart and the
    // hunt never began (issue 28's thirty-ninth round: a game against the random player
    // drawn by repetition after 150 plies so). At every fifth of our turns in play of random
    // two-player blind games, the boards rebuilt from the view: each agrees with it, the
    // opponent keeps its wall and as many men as we did not take, a heart stands alone on
    // some boards, and on every board where the opponent has no carrier left.
    int turns = 0, lone = 0, boards = 0, no_carrier = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        CAPTURE(seed);
        testing::BlindGame g(2, blind_rules(), seed * 131, 240);
        const Colour me = Colour(seed % 2), them = Colour(1 - me);
        Belief belief(seed);
        const Belief::Params params = small_params(32, 2);
        int k = 0;
        play_turns(
            g, me, belief, params, [] {},
            [&](const blind::View& v) {
                if (k++ % 5) return;
                belief.rebuild_from_view(v);
                REQUIRE(belief.size() > 0);
                CHECK(belief.stats().approximate);
                bool any_lone = false;
                for (std::size_t i = 0; i < belief.size(); ++i) {
                    const Position& b = belief.board(i);
                    CHECK(disagreement(b, v, false).empty());
                    CHECK(popcount(b.pieces(them, WALL)) == kSetCount[WALL]);
                    any_lone |= b.heart_alone(them);
                    if (!b.carriers(them)) {
                        ++no_carrier;
                        CHECK(b.heart_alone(them));
                    }
                    ++boards;
                }
                CHECK(any_lone);
                lone += any_lone;
                ++turns;
            });
    }
    MESSAGE("turns " << turns << ", boards " << boards << ", boards without a carrier "
                     << no_carrier);
    CHECK(turns > 20);
}

TEST_CASE("belief: a hidden heart standing alone stays among the boards' cells") {
    // Resampling copies survivors, so the boards forget cells where nothing was seen; a lone
    // heart never moves, and the hunt needs some board to hold it where it truly is. Counted
    // at the viewer's turns of random two-player blind games where the opponent's heart
    // stands alone: the share of turns where some board has it on its true cell.
    // The boards place hearts by the evaluation: the classical one, whatever network an
    // earlier test left set (with one, 12 games counted 192 turns held of 411, alone 229).
    struct Classical {
        const nnue::Network* net = eval::network();
        Classical() { eval::set_network(nullptr); }
        ~Classical() { eval::set_network(net); }
    } classical;
    int alone = 0, held = 0;
    double mass = 0;  // the boards' share on the true cell, summed over those turns
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 7919, 200);
        const Colour me = Colour(seed % 2), them = Colour(1 - me);
        Belief belief(seed);
        const Belief::Params params = small_params(64, 3);
        play_turns(
            g, me, belief, params, [] {},
            [&](const blind::View&) {
                if (!g.pos.heart_alone(them)) return;
                const Cell h = g.pos.heart(them);
                ++alone;
                std::size_t on = 0;
                for (std::size_t i = 0; i < belief.size(); ++i)
                    on += belief.board(i).heart(them) == h;
                held += on > 0;
                mass += double(on) / double(belief.size());
            });
    }
    MESSAGE("turns with the opponent's heart alone " << alone << ", held by some board " << held
                                                     << ", mean share on its cell "
                                                     << mass / std::max(alone, 1));
    REQUIRE(alone > 100);
    // 60%: 64% with the lone hearts moved by the home prior's Metropolis step, 59% moved
    // uniformly, 41% never moved.
    CHECK(held * 5 >= alone * 3);
}

TEST_CASE("belief: the heart odds weigh what the boards expected our moves to take") {
    // Belief::heart_odds against a count kept here: at each of our turns, the share of the
    // boards with an opposing heart on the cell our next move (random, chosen here) ends on,
    // summed; the hearts those moves took in the whole position. (1 + taken) / (1 + summed),
    // at most 1, while the belief has not started over.
    int checked = 0, lowered = 0;
    over_random_games(
        6, 4099, 200, 32,
        [&](testing::BlindGame& g, Colour me, Belief& belief, const Belief::Params& params) {
            std::array<double, kCells> share{};
            double expected = 0;
            int taken = 0;
            std::mt19937_64 rng(g.rng());
            g.chooser = [&](const Position& p, const MoveList& legal) {
                if (p.to_move() != me || p.phase() != Phase::Play) return Move();
                const Move m = legal.moves[rng() % legal.size];
                if (m.kind() == Move::Normal) expected += share[m.to()];
                taken += p.heart_victim(m) != NO_COLOUR;
                return m;
            };
            play_turns(
                g, me, belief, params, [] {},
                [&](const blind::View&) {
                    if (belief.stats().restarts || belief.stats().approximate) return;
                    CHECK(belief.heart_odds() ==
                          doctest::Approx(std::min(1.0, (1.0 + taken) / (1.0 + expected))));
                    ++checked;
                    lowered += belief.heart_odds() < 0.999;
                    share.fill(0);
                    for (std::size_t i = 0; i < belief.size(); ++i)
                        for (int c = 0; c < g.pos.players(); ++c)
                            if (c != me && belief.board(i).heart(Colour(c)) != NO_CELL)
                                share[belief.board(i).heart(Colour(c))] += 1.0 / belief.size();
                });
        });
    MESSAGE("turns checked " << checked << ", odds below 1 at " << lowered);
    CHECK(checked > 200);
    CHECK(lowered > 20);
}

TEST_CASE("belief: boards whose lone heart our move missed keep a heart elsewhere") {
    // Our side chases the boards' lone hearts (each turn, of the proposals legal in the whole
    // position, the one onto a cell where the most boards hold a lone opposing heart, never
    // the true heart's cell, so that the hunt goes on; at random when no board holds one),
    // the opponent plays at random. Every miss drops the boards that held the heart there;
    // resampling copies the rest, which crowd on their own few cells, and the true cell drops
    // out of them. Counted at our turns where the opponent's heart stands alone: the share of
    // turns where some board holds it on its true cell. Over these 100 games, boards kept
    // with the heart moved (Belief::relocate_heart): 3,626 of 5,070 turns (72%); dropped:
    // 2,522 of 4,582 (55%); over seeds 101-600, 70% and 48%. (The 24 games this test played
    // before gave 81%, far above other seeds: a rejuvenation change that drew the random
    // numbers otherwise fell to 72% there and agreed with the build before on every other
    // seed, issue 28's fortieth round.)
    int alone = 0, held = 0;
    std::uint64_t relocated = 0;
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 104729, 300);
        const Colour me = Colour(seed % 2), them = Colour(1 - me);
        Belief belief(seed);
        const Belief::Params params = small_params(64, 3);
        Move chase;
        g.chooser = [&](const Position& p, const MoveList& legal) {
            if (p.to_move() != me || p.phase() != Phase::Play || !legal.contains(chase))
                return Move();
            return p.heart_victim(chase) == NO_COLOUR ? chase : Move();
        };
        play_turns(
            g, me, belief, params, [] {},
            [&](const blind::View& v) {
                std::array<int, kCells> on{};
                for (std::size_t i = 0; i < belief.size(); ++i) {
                    if (belief.board(i).heart_alone(them)) ++on[belief.board(i).heart(them)];
                }
                chase = Move();
                int most = 0;
                for (Move m : v.proposals())
                    if (m.kind() == Move::Normal && on[m.to()] > most &&
                        m.to() != g.pos.heart(them))
                        most = on[m.to()], chase = m;
                if (!g.pos.heart_alone(them)) return;
                const Cell h = g.pos.heart(them);
                ++alone;
                held += on[h] > 0;
            });
        relocated += belief.stats().relocated;
    }
    MESSAGE("turns with the opponent's heart alone " << alone << ", held by some board " << held
                                                     << ", boards relocated " << relocated);
    REQUIRE(alone > 1000);
    CHECK(held * 8 >= alone * 5);
    CHECK(relocated > 0);
}

TEST_CASE(
    "blind search: a move explores a cell none of our men stood on nor our walls' zones held in "
    "the last 40 plies, or one where an opposing man took ours since, weighed as the opponent's "
    "region, or one beside a man we took since") {
    // BlindSearch::exploration (the hunt's unexplored cells, from the kExploreWindow-th ply of
    // the game on) against the game itself: the cells our men stood on or our walls' zones
    // held after each ply (no heart rests in a zone, SPEC 5), those where an opposing man
    // took ours (a heart it carried may have been left there), and those beside a man we
    // took (it may have carried its heart from there and left it, SPEC 4), read from the
    // whole positions of random blind games, not from the belief.
    int checked = 0, explore = 0, taken_cells = 0, beside_ours = 0, early = 0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 101, 160);
        const Colour me = Colour(seed % 2);
        Belief belief(seed);
        const Belief::Params params = small_params(16, 2);
        // Per cell: the last observation (1-based) after which one of our men stood there or
        // our walls' zones held it; -1 never, or an opposing man took ours there after that.
        std::array<int, kCells> last;
        last.fill(-1);
        std::array<bool, kCells> taken{};  // an opposing man took ours there
        int plies = 0;
        Bitboard before = 0, theirs_before = 0;
        const auto each_ply = [&] {
            ++plies;
            const Bitboard now = g.pos.pieces(me);
            const Bitboard theirs = g.pos.occupied() & ~now;
            for_each_cell(now | g.pos.zones(me), [&](Cell sq) { last[sq] = plies; });
            for_each_cell(before & ~now & g.pos.occupied(), [&](Cell sq) {
                last[sq] = -1;
                taken[sq] = true;
            });
            // Our man took one of theirs: that man may have carried its heart from a cell
            // beside, and left it there.
            for_each_cell(now & theirs_before, [&](Cell to) {
                for_each_cell(geo::neighbours(to) & ~now & ~g.pos.zones(me), [&](Cell sq) {
                    last[sq] = -1;
                    ++beside_ours;
                });
            });
            before = now;
            theirs_before = theirs;
        };
        play_turns(g, me, belief, params, each_ply, [&](const blind::View& v) {
            if (belief.stats().approximate) return;
            REQUIRE(belief.observed() == plies);
            const int since = plies - BlindSearch::kExploreWindow;
            // The hunt weighs a cell where ours was taken, not stood on since, as a cell of
            // the opponent's own region (no board's heart counted: `held` empty).
            const auto value = BlindSearch::hunt_values(belief, since, v.position(), me, 1.0, {});
            for (int sq = 0; sq < kCells; ++sq) {
                CHECK((belief.seen(Cell(sq)) >= 0) == taken[std::size_t(sq)]);
                if (since >= 0 && taken[std::size_t(sq)] && last[std::size_t(sq)] < 0)
                    CHECK(value[std::size_t(sq)] == doctest::Approx(0.5));
            }
            for (Move m : v.proposals()) {
                CAPTURE(move_to_string(m));
                const int l = last[m.to()];
                // Before the window's first ply, only a cell never stood on explores.
                const bool expected = since >= 0 ? l < since : l < 0;
                early += since < 0 && expected;
                const double e = BlindSearch::exploration(belief, since, m);
                CHECK((e > 0) == expected);
                CHECK(e <= 1.0);
                if (expected && l < 0) CHECK(e == doctest::Approx(1.0));
                if (l > 0) CHECK(e < 1.0);
                taken_cells += l < 0 && taken[m.to()];
                explore += expected;
                ++checked;
            }
        });
    }
    MESSAGE("proposals " << checked << ", exploring " << explore
                         << ", to a cell where ours was taken " << taken_cells
                         << ", cells beside a man we took " << beside_ours
                         << ", exploring before the window " << early);
    CHECK(checked > 100);
    CHECK(early > 0);
    CHECK(beside_ours > 0);
    CHECK(explore > 0);
    CHECK(explore < checked);
    CHECK(taken_cells > 0);
}

TEST_CASE("belief: the hunt begins where half the boards hold a lone opposing heart") {
    // Belief::hunt_from against the belief's own boards at each of our turns of random blind
    // games: set exactly when half of them or more hold an opposing heart alone (SPEC 4), at
    // or before the present, and the same from turn to turn while it stays set.
    int set = 0, kept = 0, turns = 0;
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 211, 300);
        const Colour me = Colour(seed % 2);
        Belief belief(seed);
        int before = -1, restarts = 0;
        play_turns(
            g, me, belief, small_params(16, 2), [] {},
            [&](const blind::View&) {
                std::size_t lone = 0;
                for (std::size_t i = 0; i < belief.size(); ++i)
                    lone += belief.board(i).heart_alone(Colour(1 - me));
                const int from = belief.hunt_from();
                CHECK((from >= 0) == (2 * lone >= belief.size()));
                CHECK(from <= belief.observed());
                if (before >= 0 && from >= 0 && belief.stats().restarts == restarts) {
                    CHECK(from == before);
                    ++kept;
                }
                set += from >= 0;
                ++turns;
                before = from;
                restarts = belief.stats().restarts;
            });
    }
    MESSAGE("turns " << turns << ", in a hunt " << set << ", the hunt's start kept " << kept);
    CHECK(set > turns / 4);
    CHECK(kept > 0);
}

TEST_CASE(
    "blind search: in a long hunt a lone heart seldom stands where our men stood since it "
    "began") {
    // The reason for BlindSearch::kLongHuntStood, against the whole positions of random blind
    // games (the random player seldom picks a lone heart up again): at our turns with the hunt
    // (Belief::hunt_from) kLongHunt plies old or more and the opposing heart truly alone, the
    // heart stands on a cell our men last stood on since the hunt began (before the window)
    // at most kLongHuntStood times as often, per cell and turn, as on a cell none of ours
    // stood on, and so on any cell stood on since the hunt began (in the window too); and
    // exploration() weighs such a cell kLongHuntStood of the window's ramp, and hunt_values()
    // weighs it at most kLongHuntStood of the most a cell can weigh (1 x lone), whatever
    // share of the boards holds a heart there (issue 28's thirty-ninth round: the boards'
    // share alone had kept such cells at 0.5).
    double stood_cells = 0, never_cells = 0, stood_hits = 0, never_hits = 0, weight = 0;
    double since_cells = 0, since_hits = 0;
    std::array<double, kCells> all_held{};
    all_held.fill(1.0);
    over_hunt_turns(
        6, 313, 400,
        [&](const testing::BlindGame& g, const blind::View& v, const Belief& belief,
            const Belief::Params&, int, Colour me) {
            const Colour them = Colour(1 - me);
            const int from = belief.hunt_from();
            const int since = BlindSearch::explore_since(belief, v);
            if (from < 0 || belief.observed() - from < BlindSearch::kLongHunt || since < 0) return;
            if (!g.pos.heart_alone(them)) return;
            const auto value =
                BlindSearch::hunt_values(belief, since, v.position(), me, 1.0, all_held);
            for (int sq = 0; sq < kCells; ++sq) {
                if (test(g.pos.pieces(me), Cell(sq))) continue;
                const int last = belief.beside_taken(Cell(sq)) > belief.last_stood(Cell(sq))
                                     ? -1
                                     : belief.last_stood(Cell(sq));
                const bool hit = g.pos.heart(them) == Cell(sq);
                if (last >= from) {
                    since_cells += 1;
                    since_hits += hit;
                    CHECK(value[std::size_t(sq)] <= BlindSearch::kLongHuntStood + 1e-9);
                }
                if (last < 0) {
                    never_cells += 1;
                    never_hits += hit;
                } else if (last >= from && last < since) {
                    stood_cells += 1;
                    stood_hits += hit;
                    // The header's contract: kLongHuntStood of the window's ramp.
                    const double e =
                        BlindSearch::exploration(belief, since, Move::normal(Cell(sq), Cell(sq)));
                    CHECK(e == doctest::Approx(BlindSearch::kLongHuntStood * double(since - last) /
                                               double(since + 1)));
                    weight += e;
                }
            }
        });
    MESSAGE("long-hunt cell-turns: stood on since the hunt began "
            << stood_cells << " (hearts " << stood_hits << "), never stood on " << never_cells
            << " (hearts " << never_hits << ")");
    REQUIRE(never_hits >= 20);
    REQUIRE(stood_cells > 1000);
    const double ratio = (stood_hits / stood_cells) / (never_hits / never_cells);
    CHECK(ratio <= BlindSearch::kLongHuntStood);
    MESSAGE("their mean exploration " << weight / stood_cells);
    MESSAGE("stood on since the hunt began, in the window too: " << since_cells << " (hearts "
                                                                 << since_hits << ")");
    CHECK((since_hits / since_cells) / (never_hits / never_cells) <= BlindSearch::kLongHuntStood);
}

TEST_CASE(
    "blind search: once the opponent has no carrier, every cell stood on since our last capture is "
    "ruled out") {
    // BlindSearch::explore_since against the truth: we capture every opposing man we can (a
    // heart never, so that the game goes on; in half the games never a knight either), the
    // opponent plays at random; at our turns where the bound reaches back past the window (no
    // board holds an opposing carrier), the opponent's true lone heart must stand on a cell
    // none of our men stood on since. Once the hunt is BlindSearch::kLongHunt plies old the
    // bound is the window's (the boards may have lost a carrier still in play, issue 28's
    // forty-ninth round), unless the opponent has only its wall left (our captures took
    // every other man of its set: surely no carrier, the fiftieth round).
    int applied = 0, earlier = 0, long_hunts = 0, walls_only_turns = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        const Colour me = Colour(seed % 2);
        const bool spare_knights = seed > 4;
        testing::BlindGame g(2, blind_rules(), seed * 577, 400);
        g.chooser = [me, spare_knights](const Position& p, const MoveList& legal) {
            if (p.to_move() != me || p.phase() != Phase::Play) return Move();
            std::vector<Move> quiet;
            for (Move m : legal) {
                if (p.heart_victim(m) != NO_COLOUR) continue;
                const Man taken = p.man_on(m.to());
                if (taken != kNoMan && !(spare_knights && man_type(taken) == KNIGHT))
                    return m;  // a capture of a man, the first
                if (taken == kNoMan) quiet.push_back(m);
            }
            return quiet.empty() ? Move() : quiet[std::size_t(p.ply()) % quiet.size()];
        };
        Belief belief(seed);
        const Belief::Params params = small_params(16, 2);
        play_turns(
            g, me, belief, params, [] {},
            [&](const blind::View& v) {
                const int since = BlindSearch::explore_since(belief, v);
                const Colour them = Colour(1 - me);
                // Walls alone left (the truth's): surely no carrier, so no doubt.
                const bool walls_only = g.pos.pieces(them) == g.pos.pieces(them, WALL);
                const bool long_hunt =
                    belief.hunt_from() >= 0 &&
                    belief.observed() - belief.hunt_from() >= BlindSearch::kLongHunt;
                if (long_hunt && !walls_only) {
                    CHECK(since == belief.observed() - BlindSearch::kExploreWindow);
                    ++long_hunts;
                    return;
                }
                if (since >= belief.observed() - BlindSearch::kExploreWindow) return;
                ++applied;
                walls_only_turns += long_hunt && walls_only;
                earlier += belief.observed() - BlindSearch::kExploreWindow - since;
                const Cell h = g.pos.heart(them);
                REQUIRE(h != NO_CELL);
                if (g.pos.man_on(h) != kNoMan) return;  // carried: the boards were wrong
                CAPTURE(geo::cell_name(h));
                CHECK(belief.last_stood(h) < since);
            });
    }
    MESSAGE("turns with the bound before the window "
            << applied << ", by " << earlier << " plies in all; in a long hunt " << long_hunts
            << "; of those before the window, in a long hunt with walls alone left "
            << walls_only_turns);
    CHECK(applied > 20);
    CHECK(long_hunts > 0);
    CHECK(walls_only_turns > 0);
}

TEST_CASE("blind search: the hunt's home prior weighs the cells where lone hearts stand") {
    // Belief::home_prior against random blind games (both players random, as the random
    // blind player): at every ply of play, for each player, where the opposing heart stands
    // alone. Its owner placed it in its region (SPEC 6) and only carriers moved it (SPEC 4),
    // so most such turns find it on a cell of prior 1, and the prior at its true cell is far
    // above the prior's mean over the board.
    int turns = 0, on_home = 0, wrong = 0;
    double at_heart = 0, over_board = 0;
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 31, 300);
        while (g.step()) {
            if (g.pos.phase() != Phase::Play || g.pos.game_over()) continue;
            for (int me = 0; me < 2; ++me) {
                const Colour them = Colour(1 - me);
                if (!g.pos.heart_alone(them)) continue;
                const Cell h = g.pos.heart(them);
                const auto& prior = Belief::home_prior(g.pos.rules(), them);
                for (int sq = 0; sq < kCells; ++sq) {
                    // 1 exactly on the opponent's region, less elsewhere (the viewer's own
                    // region is at least two steps from it).
                    const double w = prior[std::size_t(sq)];
                    wrong += (w == 1.0) != test(geo::region(them), Cell(sq));
                    wrong += test(geo::region(Colour(me)), Cell(sq)) && w > Belief::kHomeDecay;
                    over_board += w / kCells;
                }
                at_heart += prior[h];
                on_home += prior[h] == 1.0;
                ++turns;
            }
        }
    }
    MESSAGE("lone-heart turns " << turns << ", on a cell of prior 1 " << on_home
                                << ", mean prior at "
                                << "the heart " << at_heart / turns << ", over the board "
                                << over_board / turns);
    REQUIRE(turns > 500);
    CHECK(wrong == 0);
    CHECK(on_home > turns * 7 / 10);
    CHECK(at_heart / turns > 2 * over_board / turns);
}

TEST_CASE(
    "blind search: the hunt's prior halves the separators beside a region, triples far "
    "cells of the third region") {
    // BlindSearch::hunt_prior against its calibration (docs/search.md, issue 28's thirtieth
    // round): 0.4^d, d the steps from the owner's region counted here by walking neighbours;
    // a cell of no region one step away weighs half of that, a cell of the region of neither
    // the owner nor the viewer four steps or more away three times; every other cell 0.4^d.
    const Rules rules = blind_rules();
    int halved = 0, tripled = 0;
    for (int owner = 0; owner < kColours; ++owner) {
        std::array<int, kCells> steps;
        steps.fill(-1);
        std::vector<Cell> frontier;
        for_each_cell(geo::region(Colour(owner)), [&](Cell sq) {
            steps[sq] = 0;
            frontier.push_back(sq);
        });
        for (std::size_t i = 0; i < frontier.size(); ++i)
            for_each_cell(geo::neighbours(frontier[i]), [&](Cell n) {
                if (steps[n] >= 0) return;
                steps[n] = steps[frontier[i]] + 1;
                frontier.push_back(n);
            });
        for (int us = 0; us < kColours; ++us) {
            if (us == owner) continue;
            const int third = 3 - owner - us;
            for (int sq = 0; sq < kCells; ++sq) {
                CAPTURE(geo::cell_name(Cell(sq)));
                const int d = steps[std::size_t(sq)];
                REQUIRE(d >= 0);
                bool any = false;
                for (int k = 0; k < kColours; ++k) any |= test(geo::region(Colour(k)), Cell(sq));
                double expected = std::pow(0.4, d);
                if (!any && d == 1) {
                    expected *= 0.5;
                    ++halved;
                }
                if (test(geo::region(Colour(third)), Cell(sq)) && d >= 4) {
                    expected *= 3.0;
                    ++tripled;
                }
                CHECK(BlindSearch::hunt_prior(rules, Colour(owner), Colour(us), Cell(sq)) ==
                      doctest::Approx(expected));
            }
        }
    }
    MESSAGE("separators halved " << halved << ", third-region cells tripled " << tripled);
    CHECK(halved > 0);
    CHECK(tripled > 0);
}

TEST_CASE("blind search: the move-count draw's urgency follows the plies without a capture") {
    // Over random blind games of two and three players: the view counts the plies since the
    // last capture as the whole position does in two players (the arbiter tells every capture
    // to the mover or the victim, SPEC 25), at least as many in three, and
    // BlindSearch::reset_urgency is 0 until the last 20 moves of each player in, then rises
    // linearly to 1 at the draw (50 moves each, SPEC 7); 0 under DrawRule none.
    int rising = 0, turns = 0;
    for (int players : {2, 3}) {
        // Random games seldom go 60 plies without a capture: enough of them to reach the ramp.
        for (std::uint64_t seed = 1; seed <= 60; ++seed) {
            testing::BlindGame g(players, blind_rules(), seed * 104729, 600);
            while (g.step()) {
                if (g.pos.phase() != Phase::Play || g.pos.game_over()) continue;
                const Colour me = g.pos.to_move();
                const blind::View view = view_of(g, me);
                const Position& v = view.position();
                const int n = g.pos.players_in();
                // Three players: a capture between the two others is told to neither us nor
                // the view, so its count is an upper bound there.
                CAPTURE(players);
                if (players == 2) CHECK(v.halfmove() == g.pos.halfmove());
                CHECK(v.halfmove() >= g.pos.halfmove());
                const double expected =
                    std::clamp(double(v.halfmove() - 30 * n) / double(20 * n), 0.0, 1.0);
                CHECK(BlindSearch::reset_urgency(v) == doctest::Approx(expected));
                rising += expected > 0 && expected < 1;
                ++turns;
            }
        }
    }
    CHECK(rising > 0);  // the games reach the ramp
    Rules none = blind_rules();
    none.draw_rule = DrawRule::None;
    testing::BlindGame g(2, none, 17, 300);
    while (g.step())
        if (g.pos.phase() == Phase::Play && !g.pos.game_over())
            CHECK(BlindSearch::reset_urgency(view_of(g, g.pos.to_move()).position()) == 0.0);
    MESSAGE(turns << " turns, " << rising << " on the ramp");
}

TEST_CASE(
    "blind search: an approach is a step onto an empty cell from which that man takes the heart") {
    // Over random blind games of two and three players, at each position in play and for each
    // other player in whose heart is not attacked: BlindSearch::heart_approaches with `most`
    // 1 is 1 exactly when one of the mover's legal moves ends on an empty cell (no man, not
    // that heart's) and, after it, the man there can take that heart (heart_attack_lines: the
    // cells of the men that can take it now, found by the move generator itself), and it
    // counts such moves' (from, to) pairs up to its `most`. The position is left as it was.
    int approached = 0, positions = 0, several = 0;
    for (int players : {2, 3}) {
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            testing::BlindGame g(players, blind_rules(), seed * 7919, 240);
            while (g.step()) {
                Position p = g.pos;
                if (p.phase() != Phase::Play || p.game_over()) continue;
                const Colour them = p.to_move();
                MoveList legal;
                generate_legal(p, legal);
                for (int u = 0; u < players; ++u) {
                    const Colour us = Colour(u);
                    if (us == them || !p.is_in(us) || p.heart(us) == NO_CELL ||
                        heart_attacked(p, us))
                        continue;
                    // The (from, to) pairs of such moves (carrying the mover's heart along or
                    // not is one approach).
                    std::set<std::pair<int, int>> pairs;
                    for (Move m : legal) {
                        if (m.kind() != Move::Normal || test(p.occupied(), m.to()) ||
                            m.to() == p.heart(us))
                            continue;
                        p.do_move(m);
                        if (test(heart_attack_lines(p, us, them), m.to()))
                            pairs.emplace(int(m.from()), int(m.to()));
                        p.undo_move();
                    }
                    const bool brute = !pairs.empty();
                    const std::uint64_t key = p.key();
                    CAPTURE(p.fen());
                    CAPTURE(int(us));
                    CHECK(BlindSearch::heart_approaches(p, us, 1) == int(brute));
                    CHECK(BlindSearch::heart_approaches(p, us, 1000) == int(pairs.size()));
                    CHECK(BlindSearch::heart_approaches(p, us, 2) ==
                          std::min<int>(2, int(pairs.size())));
                    CHECK(p.key() == key);
                    several += pairs.size() >= 2;
                    approached += brute;
                    ++positions;
                }
            }
        }
    }
    CHECK(approached > 20);  // the games hold approaches
    CHECK(several > 5);      // and positions with several (heart_approaches counts them)
    CHECK(approached < positions);
    MESSAGE(positions << " positions, " << approached << " with an approach, " << several
                      << " with two or more");
}

TEST_CASE("blind search: the hunt trusts a cell the boards hold by how many hold it") {
    // BlindSearch::hunt_values where the boards' lone hearts stand, on unexplored cells: a
    // cell held by 30% of the boards outranks itself held by none, and the same 30% weighs
    // more on a cell of the opponent's region than on one of our own; one of our cells held
    // by 30% of the boards, or by a single board in a hundred, stays below one of the
    // opponent's held by none (the boards crowd on a few cells and may all miss the true one;
    // the heart stands mostly near where it was placed, and the boards' share counts by the
    // cell's prior: issue 28's thirty-seventh round).
    int checked = 0;
    over_hunt_turns(
        2, 433, 120, [&](auto&, const blind::View& v, Belief& belief, auto&, int since, Colour me) {
            const Colour them = Colour(1 - me);
            Cell ours = NO_CELL, theirs = NO_CELL;
            for (int sq = 0; sq < kCells; ++sq) {
                if (belief.last_stood(Cell(sq)) >= 0 || belief.seen(Cell(sq)) >= 0) continue;
                if (test(geo::region(me), Cell(sq))) ours = Cell(sq);
                if (test(geo::region(them), Cell(sq))) theirs = Cell(sq);
            }
            if (ours == NO_CELL || theirs == NO_CELL) return;
            auto values = [&](double at_ours, double at_theirs) {
                std::array<double, kCells> held{};
                held[ours] = at_ours;
                held[theirs] = at_theirs;
                return BlindSearch::hunt_values(belief, since, v.position(), me, 1.0, held);
            };
            CHECK(values(0.3, 0.0)[ours] > values(0.0, 0.0)[ours]);
            CHECK(values(0.0, 0.3)[theirs] > values(0.0, 0.0)[theirs]);
            CHECK(values(0.0, 0.3)[theirs] > values(0.3, 0.0)[ours]);
            const auto many = values(0.3, 0.0);
            CHECK(many[ours] < many[theirs]);
            const auto few = values(0.01, 0.0);
            CHECK(few[ours] < few[theirs]);
            ++checked;
        });
    CHECK(checked > 10);
}

TEST_CASE(
    "blind search: the boards' lone hearts on cells away from the owner's region stand there "
    "less often") {
    // Why BlindSearch::hunt_values counts the boards' share on a cell by its prior to the power
    // kBoardsPriorPower: in random blind games, at our turns where the opposing heart truly
    // stands alone, over the cells none of our men stood on that kHeldFull or more of the
    // lone-heart boards hold, the heart stands on those of hunt prior below 1 (away from its
    // owner's region) at less than 0.4^(2 x kBoardsPriorPower) of its rate on those of prior 1:
    // the factor the rule gives a cell two steps away over one of the region.
    std::array<int, 2> cells{}, hearts{};
    over_hunt_turns(
        64, 7919, 300,
        [&](testing::BlindGame& g, const blind::View& v, Belief& belief, auto&, int, Colour me) {
            const Colour them = Colour(1 - me);
            if (!g.pos.heart_alone(them)) return;
            std::array<double, kCells> held{};
            int lone = 0;
            for (std::size_t i = 0; i < belief.size(); ++i) {
                const Position& b = belief.board(i);
                if (!b.heart_alone(them)) continue;
                held[b.heart(them)] += 1.0;
                ++lone;
            }
            if (lone == 0) return;
            for (int sq = 0; sq < kCells; ++sq) {
                if (belief.last_stood(Cell(sq)) >= 0 ||
                    held[std::size_t(sq)] < BlindSearch::kHeldFull * lone)
                    continue;
                const double prior =
                    BlindSearch::hunt_prior(v.position().rules(), them, me, Cell(sq));
                const int far = prior < 1.0;
                ++cells[std::size_t(far)];
                hearts[std::size_t(far)] += g.pos.heart(them) == Cell(sq);
            }
        });
    MESSAGE("cell-turns held by the boards: of prior 1 " << cells[0] << " (hearts " << hearts[0]
                                                         << "), below 1 " << cells[1] << " (hearts "
                                                         << hearts[1] << ")");
    REQUIRE(cells[0] > 200);
    REQUIRE(cells[1] > 200);
    const double home_rate = double(hearts[0]) / cells[0], far_rate = double(hearts[1]) / cells[1];
    CHECK(home_rate > 0.0);
    CHECK(far_rate < std::pow(0.4, 2 * BlindSearch::kBoardsPriorPower) * home_rate);
}

TEST_CASE("blind search: each refusal of a proposal to a cell halves the hunt's value of it") {
    // BlindSearch::hunt_values before and after the arbiter refuses up to three proposals of
    // the turn (those the whole position does not allow, SPEC 25): a cell no refused
    // proposal ends on keeps its value; one that k of them end on weighs 2^-k of it at most
    // (exactly that where no refusal was a bare step, which rules the cell out altogether);
    // and a cell on which or beside which a refused proposal of our wall ends weighs
    // BlindSearch::kWallRefusedBoost times that (a heart there would bar the wall, SPEC 5).
    int halved = 0, kept = 0, boosted = 0;
    over_hunt_turns(
        3, 577, 140,
        [&](const testing::BlindGame& g, const blind::View& v, Belief& belief,
            const Belief::Params& params, int since, Colour me) {
            const auto before = BlindSearch::hunt_values(belief, since, v.position(), me, 1.0, {});
            // Weighed up already, by an earlier turn's refusal of our wall.
            const Bitboard weighed_up = belief.wall_refused_since(since);
            blind::View refused = v;
            if (refuse_illegal(refused, g.pos, 3) == 0) return;
            REQUIRE(belief.update(refused, params, [] { return true; }));
            const auto after = BlindSearch::hunt_values(belief, since, v.position(), me, 1.0, {});
            std::array<int, kCells> k{};
            Bitboard walled = 0;
            for (Move m : refused.refused()) {
                if (m.kind() != Move::Normal) continue;
                ++k[m.to()];
                if (man_type(v.position().man_on(m.from())) == WALL)
                    walled |= bit(m.to()) | geo::neighbours(m.to());
            }
            for (int sq = 0; sq < kCells; ++sq) {
                const std::size_t i = std::size_t(sq);
                CAPTURE(geo::cell_name(Cell(sq)));
                const double boost =
                    test(walled & ~weighed_up, Cell(sq)) ? BlindSearch::kWallRefusedBoost : 1;
                const double bound = before[i] * std::pow(0.5, k[i]) * boost;
                CHECK(after[i] <= bound + 1e-12);
                if (k[i] == 0) {
                    CHECK(after[i] == doctest::Approx(bound));
                    kept += before[i] > 0 && boost == 1;
                    boosted += before[i] > 0 && boost > 1;
                } else if (after[i] > 0) {
                    CHECK(after[i] == doctest::Approx(bound));
                    ++halved;
                }
            }
        });
    MESSAGE(halved << " refused cells halved, " << kept << " cells kept, " << boosted
                   << " beside a refused wall weighed up");
    CHECK(halved > 5);
    CHECK(kept > 100);
    CHECK(boosted > 0);
}

namespace {

/// The last report of each line of a search of p with `tt` cleared first (the same search
/// whatever came before), by multipv.
std::map<int, SearchInfo> cleared_search(Searcher& searcher, TranspositionTable& tt,
                                         const Position& p, const SearchLimits& lim,
                                         const SearchSettings& settings) {
    std::map<int, SearchInfo> lines;
    tt.clear();
    searcher.search_sync(p, lim, settings,
                         {[&](const SearchInfo& i) { lines[i.multipv] = i; }, {}, {}, {}});
    return lines;
}

}  // namespace

TEST_CASE(
    "blind search: a move the boards' MultiPV did not report scores no higher than its bound") {
    // BlindSearch::bound_unscored gives a proposal that a board's MultiPV 3 search did not
    // report the least score of the three lines. Checked against the searcher: on whole
    // positions of random blind games, each move left out of the lines is searched alone, to
    // the same depth with a cleared table; at most 2% may score higher than that bound (the
    // MultiPV search reduces the moves after its lines, so a deeper tactic of one of them may
    // be missed: 15 of 1,448). Lines from a search to depth 1 instead fail it (39 of 1,448).
    TranspositionTable tt;
    tt.resize(16);
    Searcher searcher(tt);
    int checked = 0, below_best = 0, over = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 6007, 60);
        while (g.step()) {
            if (g.pos.phase() != Phase::Play || g.pos.game_over() || g.pos.ply() % 7) continue;
            MoveList legal;
            generate_legal(g.pos, legal);
            if (legal.size <= 3) continue;
            SearchLimits lim;
            lim.depth = 3;
            SearchSettings settings;
            settings.multipv = 3;
            const auto lines = cleared_search(searcher, tt, g.pos, lim, settings);
            REQUIRE(lines.size() == 3);
            int least = eval::kInfinite, best = -eval::kInfinite;
            std::vector<Move> reported;
            for (const auto& [k, info] : lines) {
                REQUIRE_FALSE(info.pv.empty());
                reported.push_back(info.pv[0]);
                least = std::min(least, info.score);
                best = std::max(best, info.score);
            }
            for (Move m : legal) {
                if (std::find(reported.begin(), reported.end(), m) != reported.end()) continue;
                SearchLimits alone = lim;
                alone.searchmoves = {m};
                const auto one = cleared_search(searcher, tt, g.pos, alone, SearchSettings{});
                REQUIRE(one.count(1));
                const int score = one.at(1).score;
                CAPTURE(g.pos.fen());
                CAPTURE(move_to_string(m));
                over += score > least;
                ++checked;
            }
            below_best += least < best;
        }
    }
    MESSAGE("moves checked " << checked << ", above the bound " << over
                             << ", bounds below the best line " << below_best);
    CHECK(checked > 200);
    CHECK(over * 50 <= checked);
}

TEST_CASE("blind search: a later capture of a lone heart scores as none on the boards") {
    // BlindSearch::discount_heart_captures. From positions of random blind games where the
    // opponent's heart stands alone, six boards put it on six different empty cells (as a
    // belief unsure of it does); every legal move is searched on every board to depth 3 and
    // weighed. Before the discount, in some positions a move that takes the heart on no board
    // scores a heart capture on every one (its man is within reach of all six cells); the
    // value of step 3 (0.75 x the mean + 0.25 x the worst) then prefers it to a move that
    // takes the heart at once on one board. After the discount (odds 1) a move that takes the
    // heart on some board is the best more often than before (30 of 62 positions against 15;
    // 6 of them fused), and no move that takes it on no board scores above 1,000 anywhere but
    // where it wins at once (the opponent left without a legal move, SPEC 7).
    TranspositionTable tt;
    tt.resize(1);  // cleared before each of the ~15,000 searches
    Searcher searcher(tt);
    const auto score_of = [&](const Position& p, Move m) {
        SearchLimits lim;
        lim.depth = 3;
        lim.searchmoves = {m};
        const auto lines = cleared_search(searcher, tt, p, lim, SearchSettings{});
        return BlindSearch::weigh(lines.count(1) ? lines.at(1).score : 0);
    };
    int positions = 0, fused = 0, taker_best_before = 0, taker_best_after = 0;
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
        testing::BlindGame g(2, blind_rules(), seed * 7919, 140);
        std::mt19937_64 rng(seed);
        while (g.step()) {
            const Position& p = g.pos;
            if (p.phase() != Phase::Play || p.game_over() || p.ply() % 6) continue;
            const Colour us = p.to_move(), them = p.next(us);
            if (!p.heart_alone(them)) continue;
            std::vector<Cell> empty;
            const Bitboard barred = p.zones(us) | p.zones(them) | p.clouds();
            for (int sq = 0; sq < kCells; ++sq)
                if (p.man_on(Cell(sq)) == kNoMan && !test(barred, Cell(sq)) &&
                    Cell(sq) != p.heart(us))
                    empty.push_back(Cell(sq));
            std::shuffle(empty.begin(), empty.end(), rng);
            if (empty.size() < 6) continue;
            std::vector<Position> boards(6, p);
            std::vector<const Position*> ptrs;
            for (std::size_t b = 0; b < 6; ++b) {
                boards[b].put_heart(them, empty[b]);
                ptrs.push_back(&boards[b]);
            }
            MoveList legal;
            generate_legal(p, legal);
            BlindSearch::ScoreTable table;
            std::set<std::uint32_t> takers;  // moves that take the heart on some board
            for (Move m : legal) {
                auto& row = table[m.raw()];
                row.assign(6, BlindSearch::BoardScore{});
                for (std::size_t b = 0; b < 6; ++b) {
                    row[b].legal = row[b].scored = true;
                    row[b].score = score_of(boards[b], m);
                    if (m.kind() == Move::Normal && m.to() == empty[b]) takers.insert(m.raw());
                }
            }
            if (takers.empty()) continue;
            ++positions;
            const auto best_is_taker = [&] {
                double best = -1e9;
                std::uint32_t arg = 0;
                for (const auto& [m, row] : table) {
                    double sum = 0;
                    int worst = 1 << 20;
                    for (const auto& c : row) sum += c.score, worst = std::min(worst, c.score);
                    const double value = 0.75 * sum / 6 + 0.25 * worst;
                    if (value > best) best = value, arg = m;
                }
                return takers.count(arg) > 0;
            };
            bool all = false;
            for (const auto& [m, row] : table)
                if (!takers.count(m))
                    all = all || std::all_of(row.begin(), row.end(),
                                             [](const auto& c) { return c.score > 1000; });
            fused += all;
            taker_best_before += best_is_taker();
            BlindSearch::discount_heart_captures(table, ptrs, us, 1.0);
            taker_best_after += best_is_taker();
            for (const auto& [m, row] : table)
                if (!takers.count(m))
                    for (const auto& c : row)  // (a win at once: the opponent left without a move)
                        CHECK((c.score <= 1000 || c.score == BlindSearch::kTakesHeartNow));
        }
    }
    MESSAGE("positions " << positions << ", a non-taker scored a capture on every board in "
                         << fused << ", a taker best before " << taker_best_before << ", after "
                         << taker_best_after);
    CHECK(positions >= 20);
    CHECK(fused > 0);
    CHECK(taker_best_after > taker_best_before);
}

TEST_CASE("step 2's order: the candidates' boards to score, round by round") {
    // BlindSearch::candidate_order. Four boards; A (9 votes) legal and unscored on boards 0, 1
    // and 3 (scored on 2); B (5 votes) unscored on board 2 only (scored on 0 and 1, illegal on
    // 3); C (appended last, as the hunt's explorer is) unscored on all four. Candidate by
    // candidate, a clock that ran out after four searches left C never scored.
    using Cell = BlindSearch::BoardScore;
    const Cell open{true, false, false, 0}, done{true, true, false, 10}, illegal{};
    BlindSearch::ScoreTable scores;
    scores[101] = {open, open, done, open};
    scores[102] = {done, done, open, illegal};
    scores[103] = {open, open, open, open};
    const std::vector<std::pair<int, std::uint32_t>> ranked{{9, 101}, {5, 102}, {0, 103}};
    const std::vector<std::pair<std::size_t, std::uint32_t>> expected{
        {0, 101}, {2, 102}, {0, 103},  // every candidate's first board
        {1, 101}, {1, 103},            // the second (B has none)
        {3, 101}, {2, 103},            // the third
        {3, 103}};                     // C's fourth
    CHECK(BlindSearch::candidate_order(ranked, scores) == expected);
    // A candidate with no row in the table has no board to score.
    CHECK(BlindSearch::candidate_order({{1, 999}}, scores).empty());
}
