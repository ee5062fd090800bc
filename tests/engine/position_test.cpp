// tests/engine/position_test.cpp: position strings (SPEC 10): round trips, every rejection
// case, the state left unchanged on error, and the incremental Zobrist key.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "engine/movegen.h"
#include "test_util.h"

using namespace klinzha;
using testutil::make;

namespace {
const char* kSample3 =
    "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 "
    "Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,Pi23,Ph13,Wh46 "
    "Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2";
}

TEST_CASE("the start positions and the SPEC 10 sample parse and print canonically") {
    CHECK(make(kStartFen2).fen() == kStartFen2);
    CHECK(make(kStartFen3).fen() == kStartFen3);
    auto p = make(kSample3);
    CHECK(p.fen() ==
          "3 Hi99,Qi67,Ri99,Bh68,Nh79,Ni78,Pf69,Pg68,Pi56,Wh78 "
          "Hi23,Qh24,Rg25,Bh35,Ng36,Ni34,Ph13,Pi23,Pi45,Wh46 "
          "Hc17,Qd38,Re27,Bd16,Nd17,Nd39,Pc17,Pd49,Pe26,Wd28 k play 5 2");
    CHECK(p.to_move() == BLACK);
    CHECK(p.halfmove() == 5);
    CHECK(p.fullmove() == 2);
    // Input order and digit order do not matter.
    auto q = make("2 Wh87,Pi99 - - g place 0 1");
    CHECK(q.fen() == "2 Pi99,Wh78 - - g place 0 1");
}

TEST_CASE("every reference position round-trips through its canonical string") {
    std::ifstream f(testutil::data("reference.epd"));
    REQUIRE(f);
    std::string line;
    int n = 0;
    while (std::getline(f, line)) {
        std::string fen = line.substr(0, line.find(';'));
        while (!fen.empty() && fen.back() == ' ') fen.pop_back();
        std::string opts = line.substr(line.find(';') + 1);
        opts = opts.substr(0, opts.find(';'));
        Rules r;
        std::istringstream os(opts);
        std::string tok;
        while (os >> tok)
            if (tok != "-")
                REQUIRE_FALSE(r.set(tok.substr(0, tok.find('=')), tok.substr(tok.find('=') + 1)));
        auto p = make(fen, r);
        auto again = make(p.fen(), r);
        CHECK(again.fen() == p.fen());
        CHECK(again.key() == p.key());
        ++n;
    }
    CHECK(n >= 30);
}

TEST_CASE("rejected position strings name the field and leave the position unchanged") {
    auto p = make(kSample3);
    const std::string before = p.fen();
    const std::uint64_t key = p.key();
    struct Case {
        const char* fen;
        const char* field;
    };
    const Case cases[] = {
        {"", "position string"},
        {"2 - - - g place 0", "position string"},      // a field missing
        {"2 - - - g place 0 1 x", "position string"},  // one too many
        {"2  - - g place 0 1", "green"},               // double space: an empty field
        {"4 - - - g place 0 1", "players"},
        {"2 Xi99 - - g place 0 1", "green"},       // unknown letter
        {"2 Qz99 - - g place 0 1", "green"},       // no such cell
        {"2 Qi11 - - g place 0 1", "green"},       // outside its setup cells
        {"2 Qi99,Ri99 - - g place 0 1", "green"},  // two men on one cell
        {"2 Qi99,Qi89 - - g place 0 1", "green"},  // more than its set
        {"2 - - Qa19 g place 0 1", "black"},       // black in a 2-player game
        {"2 - - - k place 0 1", "to-move"},
        {"2 - - - g setup 0 1", "phase"},
        {"2 - - - g place -1 1", "halfmove"},
        {"2 - - - g place 0 0", "fullmove"},
        {"2 - - - g place x 1", "halfmove"},
        {"2 Hi99,Qi99 - - g place 0 1", "green"},                   // heart in the place phase
        {"2 Qi99 - - b place 0 1", "to-move"},                      // Green has not finished
        {"2 Hi99,Pi99,Ph89 Hh89,Pi11 - g play 0 1", "blue"},        // heart on an opposing piece
        {"2 Hi99,Pi99,Ni88 Hi11,Pi11 - g play 0 1", "green"},       // two Green men? no: see below
        {"2 Hi99,Pi99,Wi89 Hi11,Pi11 - g play 0 1", "green"},       // heart in own wall's zone
        {"2 Hi99,Pi99,We48 Hi11,Pi11,Pe49 - g play 0 1", "green"},  // zone holds an opponent
        {"2 Hi99,Pi99,Wd49 Hi11,Pi11,Wc39 - g play 0 1", "green"},  // zones meet at d39
        {"3 Hi99,Pi99 Pi11 Ha19,Pa19 g play 0 1", "blue"},          // men but no heart (3 players)
        {"3 Hi99,Pi99 - Ha19,Pa19 b play 0 1", "to-move"},          // the player to move is out
        {"2 Hi99,Ni99 Hi11,Pi11 - g play 0 1", "green"},            // heart on a non-carrier
    };
    for (const auto& c : cases) {
        std::string fen = c.fen;
        CAPTURE(fen);
        auto err = p.set(c.fen, {});
        if (err) CAPTURE(*err);
        if (std::string(c.fen) == "2 Hi99,Pi99,Ni88 Hi11,Pi11 - g play 0 1") {
            CHECK_FALSE(err);  // a valid control case: accepted
            p = make(kSample3);
            continue;
        }
        REQUIRE(err);
        CHECK(err->rfind(c.field, 0) == 0);
        CHECK(p.fen() == before);
        CHECK(p.key() == key);
    }
}

TEST_CASE("heart_alone: a heart on the board that no man carries (SPEC 4)") {
    const auto carried = make(kSample3);  // every heart on its carrier's cell
    for (Colour c : {GREEN, BLUE, BLACK}) CHECK_FALSE(carried.heart_alone(c));
    // Blue's pawn gone from i23: its heart stands alone there.
    const auto alone = make(
        "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 "
        "Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,Ph13,Wh46 "
        "Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2");
    CHECK(alone.heart_alone(BLUE));
    CHECK_FALSE(alone.heart_alone(GREEN));
    CHECK_FALSE(alone.heart_alone(BLACK));
    // No heart placed yet: none stands alone.
    const auto setup = make("2 Pi99,Wh78 - - g place 0 1");
    CHECK_FALSE(setup.heart_alone(GREEN));
    CHECK_FALSE(setup.heart_alone(BLUE));
}

TEST_CASE("heart-phase strings: setup finished, hearts exactly before the player to move") {
    const char* setup =
        "Qi77,Rg58,Bg79,Ni99,Nh89,Pi88,Ph68,Ph67,Wi89 Qg25,Rf14,Bh13,Ni12,Ni11,Pi34,Ph45,Pf15,Wg24";
    Position p;
    CHECK_FALSE(p.set(std::string("2 ") + setup + " - g heart 0 1", {}));
    CHECK(p.set(std::string("2 ") + setup + " - b heart 0 1", {}));  // Green's heart missing
    auto green_heart = std::string("2 Hi77,") + setup + " - b heart 0 1";
    CHECK_FALSE(p.set(green_heart, {}));
    CHECK(p.set(std::string("2 Hi77,") + setup + " - g heart 0 1", {}));  // placed too early
    CHECK(p.set("2 Qi77 - - g heart 0 1", {}));                           // setup unfinished
}

TEST_CASE("placement strings: the player to place follows from the counts and the rules") {
    Position p;
    CHECK_FALSE(p.set("3 Qh89,Ri56,Bg47,Ni77,Nf59,Pi89,Pi88,Pg58,Wh79 Nh23 - b place 0 1", {}));
    CHECK(p.set("3 Qh89,Ri56,Bg47,Ni77,Nf59,Pi89,Pi88,Pg58,Wh79 Nh23 - g place 0 1", {}));
    Rules alt;
    alt.alternating_placement = true;
    CHECK_FALSE(p.set("3 Qh89 Nh23 - k place 0 1", alt));
    CHECK(p.set("3 Qh89 Nh23 - g place 0 1", alt));
    CHECK(p.set("3 Qh89,Ri56 Nh23 - b place 0 1", alt));
}

namespace {
// Walks every line to `depth`, checking the incremental key against a key computed from
// scratch after each do_move and each undo_move.
void check_keys(Position& p, int depth, int& checked) {
    REQUIRE(p.key() == p.compute_key());
    ++checked;
    if (depth == 0) return;
    MoveList l;
    generate_legal(p, l);
    for (Move m : l) {
        p.do_move(m);
        CHECK(p.key() == p.compute_key());
        check_keys(p, depth - 1, checked);
        p.undo_move();
        CHECK(p.key() == p.compute_key());
    }
}
}  // namespace

TEST_CASE("the incremental key equals a key recomputed from scratch, perft 3 deep") {
    const char* fens[] = {
        kSample3,
        "3 - Hf25,Qi67,Rh56,Bg14,Nh89,Pf25 Hb29,Qi22,Qh45,Rh34,Rg36,Be16,Bd49,Ng13,Nf69,Nf48,"
        "Pi89,Pg68,Pf59,Pf36,Pb29,Wi45,Wi34 k play 28 19",
        "2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,Ng24,Ph35,Ph13,"
        "Ph12,Wg35 - b heart 0 1",
        "3 Hc29,Ne49,Ni12,Pc29,Pg47,Wg46 Hd38,Qh78,Ri55,Bg35,Nh12,Pd38,Wi77 Hd17,Qb29,Nh79,Pd17 g "
        "play 13 22",
    };
    for (const char* fen : fens) {
        CAPTURE(fen);
        auto p = make(fen);
        int checked = 0;
        check_keys(p, 3, checked);
        CHECK(checked > 1);
        CHECK(p.fen() == make(fen).fen());
    }
    // Placement: depth 2 from the empty board.
    auto e = make(kStartFen3);
    int checked = 0;
    check_keys(e, 2, checked);
    CHECK(checked == 1 + 144 + 17664);
}
