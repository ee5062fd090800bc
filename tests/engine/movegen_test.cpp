// tests/engine/movegen_test.cpp: one small hand-made position per rule of SPEC 3-8.
// Far-away men (green heart and pawn on i99, blue on i11) only keep positions valid.
#include <doctest/doctest.h>

#include <random>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "engine/perft.h"
#include "test_util.h"

using namespace klinzha;
using testutil::legal;
using testutil::make;
using testutil::play;

namespace {
Rules with(const char* name, bool v = true) {
    Rules r;
    REQUIRE_FALSE(r.set(name, v ? "true" : "false"));
    return r;
}
}  // namespace

TEST_CASE("SPEC 3: a piece on an intermediate cell blocks the path, the destination captures") {
    auto p = make("2 Hi99,Pi99,Re38 Hi11,Pi11,Nd38 - g play 0 1");
    CHECK(legal(p, "e38d38"));        // capture
    CHECK_FALSE(legal(p, "e38d28"));  // through d38
    CHECK_FALSE(legal(p, "e38c39"));  // through d38
    CHECK(legal(p, "e38e48"));
    auto own = make("2 Hi99,Pi99,Re38,Pd38 Hi11,Pi11 - g play 0 1");
    CHECK_FALSE(legal(own, "e38d38"));  // own piece
    CHECK_FALSE(legal(own, "e38d28"));
}

TEST_CASE("SPEC 3: an opposing wall's zone blocks paths and destinations, knights jump it") {
    // Blue wall d49: zone {d39, e49}.
    auto p = make("2 Hi99,Pi99,Re38,Ne59 Hi11,Pi11,Wd49 - g play 0 1");
    CHECK_FALSE(legal(p, "e38e59"));  // rook through e49 (and e59 is own anyway)
    CHECK_FALSE(legal(p, "e38c39"));  // through d39
    CHECK_FALSE(legal(p, "e38e49"));  // into the zone
    CHECK(legal(p, "e38e48"));
    CHECK(legal(p, "e59c39"));        // knight over wall and zone
    CHECK_FALSE(legal(p, "e59d39"));  // but not into the zone
    auto k = make("2 Hi99,Pi99,Nd17 Hi11,Pi11,Wd49 - g play 0 1");
    CHECK_FALSE(legal(k, "d17d49"));  // walls cannot be captured, not even by a knight
    CHECK(legal(k, "d17d38"));
    // FlierJumpsWalls=false (Italian rules): not over the opposing wall itself.
    auto q =
        make("2 Hi99,Pi99,Re38,Ne59 Hi11,Pi11,Wd49 - g play 0 1", with("FlierJumpsWalls", false));
    CHECK_FALSE(legal(q, "e59c39"));
    CHECK(legal(q, "e59e37"));  // a path with no wall on it
}

TEST_CASE("SPEC 3: the swift's long way round a hexagon") {
    auto p = make("2 Hi99,Pi99,Be38,Pd38 Hi11,Pi11 - g play 0 1");
    CHECK(legal(p, "e38d28"));  // d38 is blocked, but d27 e37 e27 is free
    auto q = make("2 Hi99,Pi99,Be38,Pd38,Pe37 Hi11,Pi11 - g play 0 1");
    CHECK_FALSE(legal(q, "e38d28"));
    CHECK_FALSE(legal(q, "e38e48"));  // one step is not a swift's move
}

TEST_CASE("SPEC 4: a heart standing alone does not block, and any piece takes it") {
    auto p = make("2 Hi99,Pi99,Re38 Hd38,Pi11 - g play 0 1");
    CHECK(legal(p, "e38d28"));  // over the heart
    CHECK(legal(p, "e38d38"));
    play(p, "e38d38");
    CHECK(p.heart(BLUE) == NO_CELL);
    CHECK(p.game_over());
    MoveList l;
    generate_legal(p, l);
    CHECK(l.size == 0);
}

TEST_CASE("SPEC 4: a carrier on its heart may take it along or leave it") {
    auto p = make("2 He38,Qe38,Pi99 Hi11,Pi11 - g play 0 1");
    CHECK(legal(p, "e38e48"));
    CHECK(legal(p, "e38e48h"));
    auto q = p;
    play(q, "e38e48h");
    CHECK(q.heart(GREEN) == *geo::parse_cell("e48"));
    play(p, "e38e48");
    CHECK(p.heart(GREEN) == *geo::parse_cell("e38"));
    // Only carriers may end on their own heart standing alone.
    auto r = make("2 He38,Qe48,Ne15,Pi99 Hi11,Pi11 - g play 0 1");
    CHECK(legal(r, "e48e38"));
    auto t = make("2 Hd38,Pi99,Nf58 Hi11,Pi11 - g play 0 1");
    CHECK(geo::distance(*geo::parse_cell("f58"), *geo::parse_cell("d38")) >= 3);
    CHECK_FALSE(legal(t, "f58d38"));  // a knight may not end on its own heart
    CHECK(legal(t, "f58d28"));
    // A non-carrier (bishop) cannot end there either.
    auto u = make("2 Hd28,Pi99,Be38 Hi11,Pi11 - g play 0 1");
    CHECK_FALSE(legal(u, "e38d28"));
    CHECK(legal(u, "e38d27"));
}

TEST_CASE("SPEC 4: no heart comes to rest in any wall's zone") {
    // Own wall e49: zone {d49, e59, e48}. The queen may enter, the heart may not.
    auto p = make("2 He38,Qe38,We49,Pi99 Hi11,Pi11 - g play 0 1");
    CHECK(legal(p, "e38e48"));
    CHECK_FALSE(legal(p, "e38e48h"));
    CHECK(legal(p, "e38d38h"));
    // But the heart may pass through its own zone: e38 -> e48 -> f48 (straight? any path).
    CHECK(legal(p, "e38f48h"));
}

TEST_CASE("SPEC 5: where a wall may go") {
    SUBCASE("not beside an opposing piece") {
        auto p = make("2 Hi99,Pi99,We48 Hi11,Pi11,Pd49 - g play 0 1");
        CHECK_FALSE(legal(p, "e48e49"));  // zone {d49, e59, e48} holds the blue pawn
        CHECK(legal(p, "e48e59"));        // zone {e49, f59}
        CHECK_FALSE(legal(p, "e48d49"));  // walls capture no piece
    }
    SUBCASE("not beside any heart, own or opposing, carried or alone") {
        auto own = make("2 He59,Pe59,Pi99,We48 Hi11,Pi11 - g play 0 1");
        CHECK_FALSE(legal(own, "e48e49"));
        auto opp = make("2 Hi99,Pi99,We48 Hf59,Pi11 - g play 0 1");
        CHECK_FALSE(legal(opp, "e48e59"));  // zone {e49, f59} holds the blue heart
    }
    SUBCASE("not where its zone would meet an opposing wall's zone") {
        // Blue wall c39, zone holds d39. A green wall on d49 would have zone {d39, e49}.
        auto p = make("2 Hi99,Pi99,We49 Hi11,Pi11,Wc39 - g play 0 1");
        CHECK_FALSE(legal(p, "e49d49"));
        CHECK(legal(p, "e49e59"));
    }
    SUBCASE("own walls' zones may overlap (RH Q2)") {
        // Black is out, so Green may hold two walls. Zones: e49 {d49, e59, e48};
        // d39 would have {c39, d49, d38}, sharing d49.
        auto p = make("3 Hi99,Pi99,We49,Wc39 Hi11,Pi11 - g play 3 1");
        CHECK(legal(p, "c39d39"));
    }
    SUBCASE("a wall takes a heart standing alone, but not a carried one") {
        auto p = make("2 Hi99,Pi99,We48 He59,Pi11 - g play 0 1");
        CHECK(legal(p, "e48e59"));
        play(p, "e48e59");
        CHECK(p.game_over());
        auto q = make("2 Hi99,Pi99,We48 He59,Pe59 - g play 0 1");
        CHECK_FALSE(legal(q, "e48e59"));
    }
}

TEST_CASE("SPEC 7 / RH 5.1: in a three-player game the captured army changes hands") {
    auto p = make("3 Hi99,Pi99,Re38 Hi11,Pi11 Hd38,Pd38,Na19,Wc17 g play 4 7");
    play(p, "e38d38");
    CHECK_FALSE(p.is_in(BLACK));
    CHECK(p.pieces(BLACK) == 0);
    CHECK(test(p.pieces(GREEN, KNIGHT), *geo::parse_cell("a19")));
    CHECK(test(p.pieces(GREEN, WALL), *geo::parse_cell("c17")));
    CHECK(p.to_move() == BLUE);
    CHECK(p.halfmove() == 0);
    CHECK_FALSE(p.game_over());
    CHECK(p.fen() == "3 Hi99,Rd38,Na19,Pi99,Wc17 Hi11,Pi11 - b play 0 7");
    // The changed position is valid and turns now skip Black.
    Position q;
    CHECK_FALSE(q.set(p.fen(), {}));
    play(p, "i11i12");
    CHECK(p.to_move() == GREEN);
    CHECK(p.fullmove() == 8);
    p.undo_move();
    p.undo_move();
    CHECK(p.fen() == "3 Hi99,Re38,Pi99 Hi11,Pi11 Hd38,Na19,Pd38,Wc17 g play 4 7");
}

TEST_CASE("SPEC 7: two-player heart capture ends the game and leaves the loser's men") {
    auto p = make("2 Hi99,Pi99,Re38 Hd38,Pd38,Na19 - g play 4 7");
    play(p, "e38d38");
    CHECK(p.game_over());
    CHECK(p.fen() == "2 Hi99,Rd38,Pi99 Na19 - g play 0 8");
}

TEST_CASE("SPEC 7: a three-player player out of moves is removed") {
    auto p = make("3 Hi99,Pi99 Hi11,Pi11 Ha19,Pa19 g play 0 1");
    p.do_move(Move::normal(*geo::parse_cell("i99"), *geo::parse_cell("i89"), true));
    p.eliminate_to_move();  // as if Blue had no legal move
    CHECK_FALSE(p.is_in(BLUE));
    CHECK(p.heart(BLUE) == NO_CELL);
    CHECK(p.pieces(BLUE) == 0);
    CHECK(p.to_move() == BLACK);
    CHECK(p.key() == p.compute_key());
}

TEST_CASE("SPEC 10: the move number grows when the turn wraps round to the first player in") {
    // Three players: Black put out on its turn passes the turn back to Green (+1); Blue put
    // out on its turn passes it on to Black (no round completed).
    auto p = make("3 Hi99,Pi99 Hi11,Pi11 Ha19,Pa19 k play 0 5");
    p.eliminate_to_move();
    CHECK(p.to_move() == GREEN);
    CHECK(p.fullmove() == 6);
    auto q = make("3 Hi99,Pi99 Hi11,Pi11 Ha19,Pa19 b play 0 5");
    q.eliminate_to_move();
    CHECK(q.to_move() == BLACK);
    CHECK(q.fullmove() == 5);
    // Kinta: Green's vanguard carrying its heart attacks Blue's wall and loses (issue 29's
    // position): Green is out and Blue, not yet moved in round 48, is to move in round 48.
    Rules k;
    REQUIRE_FALSE(k.set("Kinta", "true"));
    REQUIRE_FALSE(k.set("PowerVanguard", "true"));
    auto r = make(
        "2 Hg25,Ri78,Ng69,Nf59,Pi23,Pg25,Wh23 Hd27,Qc17,Ne15,Nb19,Pg36,Pb29,Wh35 - g play 1 48 "
        "strength=b19:14,c17:106,g69:91,i23:97,i78:84",
        k);
    const auto m = parse_played_move(r, "g25h35h:D1");
    REQUIRE(std::holds_alternative<Move>(m));
    r.do_move(std::get<Move>(m));
    CHECK(r.game_over());
    CHECK(r.fullmove() == 48);
    // And Blue's move, as ever, completes a round in two players.
    auto t = make("2 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 - b play 0 9");
    play(t, "f15f14");
    CHECK(t.fullmove() == 10);
}

TEST_CASE("SPEC 7: the third repetition and 50 moves by every player") {
    auto p = make("2 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 - g play 0 1");
    CHECK_FALSE(p.is_repetition());
    for (int i = 0; i < 2; ++i) {
        play(p, "e38e48");
        play(p, "f15f14");
        play(p, "e48e38");
        CHECK_FALSE(p.is_repetition());  // second and third time only after Blue's move
        play(p, "f14f15");
    }
    CHECK(p.is_repetition());
    CHECK(p.halfmove() == 8);

    auto q = make("2 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 - g play 98 60");
    play(q, "e38e48");
    CHECK_FALSE(q.move_count_draw());
    play(q, "f15f14");
    CHECK(q.move_count_draw());
    auto r = make("3 Hi99,Pi99,Pe38 Hi11,Pi11,Pf15 Ha19,Pa19 g play 148 60");
    play(r, "e38e48");
    CHECK_FALSE(r.move_count_draw());
    play(r, "f15f14");
    CHECK(r.move_count_draw());  // 150 plies with three players
}

TEST_CASE("GoalSafety: no move may leave the own heart open to capture, a win is always legal") {
    const char* fen = "2 He48,Pe38,Pi99 Hi11,Pi11,Re27 - g play 0 1";
    auto plain = make(fen);
    CHECK(legal(plain, "e38d38"));
    auto safe = make(fen, with("GoalSafety"));
    CHECK_FALSE(legal(safe, "e38d38"));  // opens e27 -> e48 through e37 e38
    CHECK(legal(safe, "e38e37"));        // still blocks
    CHECK_FALSE(legal(safe, "e38e48"));  // carrying it there does not help
    CHECK(legal(safe, "i99i89"));        // changes nothing on the line
    auto win = make("2 He48,Rg57,Pi99 Hh57,Pi11,Re27 - g play 0 1", with("GoalSafety"));
    MoveList l;
    generate_legal(win, l);
    REQUIRE(l.size == 1);
    CHECK(move_to_string(l.moves[0]) == "g57h57");
    CHECK(attacks_heart(win, BLUE, GREEN));
    CHECK(attacks_heart(win, GREEN, BLUE));
}

TEST_CASE("PowerVanguard: pawns move 1 or 2 steps") {
    const char* fen = "2 Hi99,Pi99,Pe38 Hi11,Pi11 - g play 0 1";
    CHECK_FALSE(legal(make(fen), "e38d28"));
    CHECK(legal(make(fen, with("PowerVanguard")), "e38d28"));
    CHECK(legal(make(fen), "e38d38"));
}

TEST_CASE("ForwardPlacement: separators open to both neighbouring regions") {
    auto p = make(kStartFen2);
    CHECK_FALSE(legal(p, "P@e59"));
    auto q = make(kStartFen2, with("ForwardPlacement"));
    CHECK(legal(q, "P@e59"));
    CHECK(legal(q, "P@i55"));
    CHECK_FALSE(legal(q, "P@f36"));  // a Blue/Black separator
    MoveList l;
    generate_legal(q, l);
    CHECK(l.size == 6 * 30);
}

TEST_CASE("placement order: sequential by default, alternating under AlternatingPlacement") {
    auto p = make(kStartFen3);
    play(p, "W@h78");
    CHECK(p.to_move() == GREEN);
    auto q = make(kStartFen3, with("AlternatingPlacement"));
    play(q, "W@h78");
    CHECK(q.to_move() == BLUE);
    play(q, "W@h23");
    CHECK(q.to_move() == BLACK);
    play(q, "W@c28");
    CHECK(q.to_move() == GREEN);
    CHECK_FALSE(legal(q, "W@h68"));  // one wall per set
    CHECK_FALSE(legal(q, "N@h23"));  // occupied
    CHECK_FALSE(legal(q, "N@d38"));  // not Green's region
}

TEST_CASE("a whole setup through every phase, then the first moves") {
    auto p = make(kStartFen2);
    for (const char* m :
         {"W@h78", "R@i99", "Q@i67", "B@h68", "N@i78", "N@h79", "P@i56", "P@g68", "P@f69"})
        play(p, m);
    CHECK(p.to_move() == BLUE);
    CHECK_FALSE(legal(p, "P@g46"));  // separator
    for (const char* m :
         {"W@h34", "R@i23", "Q@h24", "B@h35", "N@i34", "N@g36", "P@i45", "P@h23", "P@h13"})
        play(p, m);
    CHECK(p.phase() == Phase::Heart);
    CHECK(p.to_move() == GREEN);
    CHECK_FALSE(legal(p, "H@i78"));  // a knight is no carrier
    CHECK(legal(p, "H@i99"));
    play(p, "H@i99");
    CHECK_FALSE(legal(p, "H@h24"));  // the queen stands in Blue's own wall zone {i34 h24 h35}
    play(p, "H@i23");
    CHECK(p.phase() == Phase::Play);
    CHECK(p.to_move() == GREEN);
    CHECK(p.fullmove() == 1);
    CHECK(p.fen() ==
          "2 Hi99,Qi67,Ri99,Bh68,Nh79,Ni78,Pf69,Pg68,Pi56,Wh78 "
          "Hi23,Qh24,Ri23,Bh35,Ng36,Ni34,Ph13,Ph23,Pi45,Wh34 - g play 0 1");
    play(p, "i99i89h");
    CHECK(p.heart(GREEN) == *geo::parse_cell("i89"));
}

TEST_CASE("SPEC 4: a wall takes a heart standing alone, and attack tests see it") {
    // Green's wall on e37 may end on d38, where Blue's heart stands alone (SPEC 4: "any
    // piece, a wall included"); the attack tests must agree with move generation.
    auto p = make("2 Hi99,Pi99,We37 Hd38,Pi11 - g play 0 1");
    CHECK(legal(p, "e37d38"));
    CHECK(attacks_heart(p, GREEN, BLUE));
    CHECK(heart_attacked(p, BLUE));
    CHECK((heart_attack_lines(p, BLUE) & bit(*geo::parse_cell("e37"))) != 0);
}

TEST_CASE("GoalSafety: a heart left alone where an opposing wall can take it is not safe") {
    // Blue's rook carries its heart on d38; Green's wall on e37 could take the heart alone
    // there (SPEC 4, 8). Leaving it is illegal, taking it along legal. dde11ef: 10 moves.
    auto p = make("2 Hi99,Pi99,We37 Hd38,Rd38,Pi11 - b play 0 1", with("GoalSafety"));
    CHECK_FALSE(legal(p, "d38c18"));
    CHECK(legal(p, "d38c18h"));
    MoveList l;
    generate_legal(p, l);
    std::size_t from_d38 = 0;
    for (Move m : l) from_d38 += m.from() == *geo::parse_cell("d38");
    CHECK(from_d38 == 10);
}

TEST_CASE("heart attack tests agree with full move generation over random games") {
    // attacks_heart / heart_attacked (a prefilter, then generation aimed at one cell) against
    // reach_of (every move of every piece): the same answer in every position of random
    // games, two and three players, with and without PowerVanguard.
    std::mt19937 rng(20261123);
    int checked = 0;
    for (const char* fen : {kStartFen2, kStartFen3})
        for (bool vanguard : {false, true})
            for (int game = 0; game < 12; ++game) {
                auto p = make(fen, with("PowerVanguard", vanguard));
                for (int ply = 0; ply < 160 && !p.game_over(); ++ply) {
                    if (p.phase() == Phase::Play)
                        for (int v = 0; v < p.players(); ++v) {
                            if (!p.is_in(Colour(v)) || p.heart(Colour(v)) == NO_CELL) continue;
                            bool any = false;
                            for (int a = 0; a < p.players(); ++a) {
                                if (a == v || !p.is_in(Colour(a))) continue;
                                const bool full = reach_of(p, Colour(a)).heart_attackers[v] > 0;
                                CHECK(attacks_heart(p, Colour(a), Colour(v)) == full);
                                any = any || full;
                                ++checked;
                            }
                            CHECK(heart_attacked(p, Colour(v)) == any);
                        }
                    MoveList l;
                    generate_legal(p, l);
                    if (l.size == 0) break;
                    p.do_move(l.moves[rng() % l.size]);
                }
            }
    CHECK(checked > 1000);
}

TEST_CASE("is_legal: the one-cell check agrees with the whole generation (random positions)") {
    std::mt19937_64 rng(5);
    int legal_seen = 0, illegal_seen = 0;
    for (int players : {2, 3}) {
        for (int game = 0; game < 20; ++game) {
            Rules rules;
            rules.kinta = game % 4 == 1;
            rules.ablative = game % 4 == 2 ? 6 : 0;
            Position pos(players, rules);
            MoveList l;
            for (int ply = 0; ply < 200; ++ply) {
                generate_legal(pos, l);
                if (l.size == 0) break;
                if (pos.phase() == Phase::Play) {
                    for (Move m : l) {
                        CHECK(is_legal(pos, m));
                        ++legal_seen;
                    }
                    // Moves built from any cells, carrying or not: legal exactly when generated.
                    for (int k = 0; k < 40; ++k) {
                        const Move m = Move::normal(Cell(rng() % kCells), Cell(rng() % kCells),
                                                    rng() % 2 == 0);
                        const bool listed = l.contains(m);
                        CHECK(is_legal(pos, m) == listed);
                        illegal_seen += !listed;
                    }
                }
                Move m = l.moves[rng() % std::size_t(l.size)];
                if (pos.is_attack(m)) m = m.with_outcome(rng() % 2 == 0, 1);
                pos.do_move(m);
                if (pos.phase() == Phase::Play && pos.game_over()) break;
            }
        }
    }
    CHECK(legal_seen > 1000);
    CHECK(illegal_seen > 1000);
}

TEST_CASE(
    "Kinta and Courier: a wall that is its colour's courier picks up its heart (SPEC 23.1, 26)") {
    // The position of issue 29: Blue's courier is the wall on g14, its heart alone on g25.
    // The reference rules count 50 moves, g14g25 among them (BlockaderTakesGoalLast, 23.4,
    // forbids a wall only an opposing lone heart).
    Rules rules = *Rules::preset("klin-zha-italian");
    REQUIRE_FALSE(rules.set("Kinta", "true"));
    REQUIRE_FALSE(rules.set("PowerVanguard", "true"));
    Position p = make(
        "2 Hf48,Qh57,Rg69,Bh56,Nh89,Nh13,Pi88,Pi66,Pg57,Wf48 "
        "Hg25,Qi34,Rg13,Bh24,Nh23,Nc39,Pi12,Pf25,Wg14 - b play 4 8 courier=g:f48,b:g14 "
        "strength=c39:51,f48:58,g14:48,h13:27,h56:123,h57:90,i88:109",
        rules);
    CHECK(perft(p, 1) == 50);
    REQUIRE(legal(p, "g14g25"));
    // Picked up: the wall carries it; it leaves it, Green moves, and it comes back for it.
    play(p, "g14g25");
    CHECK(p.heart(BLUE) == p.courier(BLUE));
    auto quiet_move = [](Position& q) {  // the other side's first move that takes nothing
        MoveList g;
        generate_legal(q, g);
        for (Move n : g)
            if (!q.is_capture(n) && !q.is_attack(n)) return q.do_move(n), true;
        return false;
    };
    REQUIRE(quiet_move(p));
    MoveList l;
    generate_legal(p, l);
    int left = 0, back = 0;
    for (Move m : l) {
        if (m.from() != p.heart(BLUE) || m.carries_heart()) continue;
        ++left;
        Position q = p;
        q.do_move(m);
        REQUIRE(quiet_move(q));
        back += legal(q, geo::cell_name(m.to()) + geo::cell_name(m.from()));
    }
    CHECK(left > 0);
    CHECK(back > 0);
}
