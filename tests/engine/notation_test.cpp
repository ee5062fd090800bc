// tests/engine/notation_test.cpp: SPEC 9 move strings and SPEC 11 algebraic notation.
#include <doctest/doctest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "engine/geometry.h"
#include "engine/movegen.h"
#include "test_util.h"

using namespace klinzha;
using testutil::make;

TEST_CASE("move strings of SPEC 9 print and parse") {
    auto p = make(kStartFen2);
    auto m = parse_move(p, "w@H87");
    REQUIRE(std::holds_alternative<Move>(m));
    CHECK(move_to_string(std::get<Move>(m)) == "W@h78");
    CHECK(std::holds_alternative<std::string>(parse_move(p, "W@i11")));  // Blue's region
    CHECK(std::holds_alternative<std::string>(parse_move(p, "X@i99")));
    CHECK(std::holds_alternative<std::string>(parse_move(p, "i99i89")));  // placement phase
    CHECK(std::holds_alternative<std::string>(parse_move(p, "")));
    CHECK(std::holds_alternative<std::string>(parse_move(p, "0000")));
    auto q = make("2 He38,Qe38,Pi99 Hi11,Pi11 - g play 0 1");
    auto c = parse_move(q, "e38e48h");
    REQUIRE(std::holds_alternative<Move>(c));
    CHECK(std::get<Move>(c).carries_heart());
    CHECK(move_to_string(std::get<Move>(c)) == "e38e48h");
    CHECK(move_to_string(Move::null()) == "0000");
}

TEST_CASE("algebraic notation: the forms of SPEC 11") {
    auto p = make("2 He38,Qe38,Pi99,Nd17,Nd16,Pd28 Hi11,Pi11,Rd38,Pc28 - g play 0 1");
    auto alg = [&](const char* s) {
        auto m = parse_move(p, s);
        REQUIRE(std::holds_alternative<Move>(m));
        return to_algebraic(p, std::get<Move>(m));
    };
    CHECK(alg("e38e48") == "Qe48");
    CHECK(alg("e38e48h") == "HQe48");
    CHECK(alg("e38d38") == "Qxd38");
    CHECK(alg("d28c28") == "dxc28");  // a pawn capture names its departure row
    CHECK(alg("i99i89") == "i89");
    auto s = make(kStartFen2);
    auto w = parse_move(s, "W@h78");
    CHECK(to_algebraic(s, std::get<Move>(w)) == "Wh78");
}

TEST_CASE("algebraic notation round-trips for every legal move of several positions") {
    const char* fens[] = {
        kStartFen3,
        "3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,"
        "Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2",
        "3 - Hf25,Qi67,Rh56,Bg14,Nh89,Pf25 Hb29,Qi22,Qh45,Rh34,Rg36,Be16,Bd49,Ng13,Nf69,Nf48,"
        "Pi89,Pg68,Pf59,Pf36,Pb29,Wi45,Wi34 k play 28 19",
        "2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,Ng24,Ph35,Ph13,"
        "Ph12,Wg35 - b heart 0 1",
        "2 Hi45,Re15,Ng79,Pi45 Hh35,Nb18,Ph35 - g play 4 50",
    };
    for (const char* fen : fens) {
        auto p = make(fen);
        MoveList l;
        generate_legal(p, l);
        REQUIRE(l.size > 0);
        std::set<std::string> seen;
        for (Move m : l) {
            std::string a = to_algebraic(p, m);
            CAPTURE(a);
            CHECK(seen.insert(a).second);  // unambiguous
            auto back = parse_algebraic(p, a);
            REQUIRE(std::holds_alternative<Move>(back));
            CHECK(std::get<Move>(back) == m);
        }
    }
}

TEST_CASE("algebraic disambiguation: the departure row, else the columns") {
    auto p = make("3 Hi99,Pi99,Nd17,Nd49,Ng79 Hi11,Pi11 - g play 0 1");
    std::set<std::string> names;
    MoveList l;
    generate_legal(p, l);
    for (Move m : l) names.insert(to_algebraic(p, m));
    // d49 and g79 both reach f59: rows d and g differ.
    CHECK(names.count("Ndf59"));
    CHECK(names.count("Ngf59"));
    // d17 and d49 both reach a19: same row, so the columns.
    CHECK(names.count("N17a19"));
    CHECK(names.count("N49a19"));
    CHECK(names.count("Nd28"));  // only d49 reaches d28
}

namespace {
std::string alg_of(Position& p, const char* move) {
    auto m = parse_move(p, move);
    INFO("move ", move, " in ", p.fen());
    REQUIRE(std::holds_alternative<Move>(m));
    return to_algebraic(p, std::get<Move>(m));
}
std::string read_as(const Position& p, const char* token) {
    auto m = parse_algebraic(p, token);
    return std::holds_alternative<Move>(m) ? move_to_string(std::get<Move>(m))
                                           : "error: " + std::get<std::string>(m);
}
}  // namespace

TEST_CASE("SPEC 11.1 as revised: pawn placements, hearts on pawns, heart captures") {
    auto start = make(kStartFen2);
    CHECK(alg_of(start, "P@i77") == "i77");  // E5, E7: a pawn has no letter
    CHECK(alg_of(start, "W@h78") == "Wh78");
    auto heart = make(
        "2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,Ng24,Ph35,"
        "Ph13,Ph12,Wg35 - b heart 0 1");
    CHECK(alg_of(heart, "H@h13") == "Hh13");  // E8: no letter, the carrier is a pawn
    CHECK(alg_of(heart, "H@h23") == "HRh23");
    auto take = make("2 He38,Qe38,Pi99 Hd38,Pi11 - g play 0 1");
    CHECK(alg_of(take, "e38d38") == "QxHd38");  // E13 Decision; no + after a game-ending move
    CHECK(alg_of(take, "e38d38h") == "HQxHd38");
    auto pawn_takes = make("2 He48,Pe48,Pi99 He38,Pi11 - g play 0 1");
    CHECK(alg_of(pawn_takes, "e48e38") == "exHe38");
    CHECK(alg_of(pawn_takes, "e48e38h") == "HexHe38");
}

TEST_CASE("SPEC 11.1: pawns to one cell are told apart by the whole departure cell") {
    // Green pawns on two neighbours of an empty cell.
    const Cell target = *geo::parse_cell("e38");
    std::vector<std::string> from;
    for_each_cell(geo::neighbours(target), [&](Cell c) { from.push_back(geo::cell_name(c)); });
    REQUIRE(from.size() >= 2);
    auto p = make("2 Hi99,Qi99,P" + from[0] + ",P" + from[1] + " Hi11,Pi11 - g play 0 1");
    CHECK(alg_of(p, (from[0] + "e38").c_str()) == from[0] + "e38");
    CHECK(alg_of(p, (from[1] + "e38").c_str()) == from[1] + "e38");
    auto q = make("2 Hi99,Qi99,P" + from[0] + ",P" + from[1] + " Hi11,Pi11,Ne38 - g play 0 1");
    CHECK(alg_of(q, (from[0] + "e38").c_str()) == from[0] + "xe38");
    // Lenient input: the row alone is ambiguous when both pawns share it, the cell is not.
    CHECK(read_as(q, (from[0] + "xe38").c_str()) == from[0] + "e38");
    CHECK(read_as(q, "xe38").find("ambiguous") != std::string::npos);
}

TEST_CASE("SPEC 11.2: lenient input") {
    auto start = make(kStartFen2);
    CHECK(read_as(start, "Pi77") == "P@i77");
    CHECK(read_as(start, "i77!?") == "P@i77");
    CHECK(read_as(start, "Wh87") == "W@h78");  // either digit order
    auto heart = make(
        "2 Hh89,Qg47,Rg68,Bh68,Ni89,Nh79,Ph89,Ph56,Pg57,Wh67 Qf15,Rh23,Bi12,Ng25,Ng24,Ph35,"
        "Ph13,Ph12,Wg35 - b heart 0 1");
    CHECK(read_as(heart, "HPh13") == "H@h13");
    CHECK(read_as(heart, "Kh13") == "H@h13");              // E4: K = king = heart
    CHECK(read_as(heart, "Hh23").rfind("error", 0) == 0);  // no letter means a pawn
    auto p = make("2 He38,Qe38,Pi99,Nd17,Nd16,Pd28 Hi11,Pi11,Rd38,Pc28 - g play 0 1");
    CHECK(read_as(p, "QxRd38") == "e38d38");
    CHECK(read_as(p, "Qxd83+") == "e38d38");
    CHECK(read_as(p, "Qe38xd38") == "e38d38");  // a departure where none is needed
    CHECK(read_as(p, "Qd38").find("no legal move") != std::string::npos);  // x is missing
    CHECK(read_as(p, "QxNd38").find("no legal move") != std::string::npos);
    CHECK(read_as(p, "Qxd38(=)") == "e38d38");
    CHECK(read_as(p, "Zd38").find("not algebraic") != std::string::npos);
    CHECK(read_as(p, "Qx").find("not algebraic") != std::string::npos);
    auto n = make("3 Hi99,Pi99,Nd17,Nd49,Ng79 Hi11,Pi11 - g play 0 1");
    auto amb = read_as(n, "Nf59");
    CHECK(amb.find("ambiguous") != std::string::npos);
    CHECK(amb.find("Ndf59") != std::string::npos);
    CHECK(amb.find("Ngf59") != std::string::npos);
}

TEST_CASE("Reflective: the first placement is written as a heart placement and read back") {
    Rules r;
    REQUIRE_FALSE(r.set("UCI_Variant", "klin-zha-reflective"));
    auto p = make(kStartFen2, r);
    CHECK(alg_of(p, "R@i99h") == "HRi99");
    CHECK(alg_of(p, "P@i77h") == "Hi77");
    CHECK(read_as(p, "HRi99") == "R@i99h");
}

TEST_CASE("algebraic notation round-trips for every legal move of every perft position") {
    // Every row of both perft files (all phases, every variant), and the positions one move
    // on from each: the canonical form is unique among the legal moves and reads back.
    int checked = 0;
    for (const char* file : {"reference.epd", "variants.epd"}) {
        std::ifstream f(testutil::data(file));
        for (std::string line; std::getline(f, line);) {
            if (line.empty()) continue;
            std::string fen = line.substr(0, line.find(';'));
            while (fen.back() == ' ') fen.pop_back();
            std::string opts = line.substr(line.find(';') + 1);
            opts = opts.substr(0, opts.find(';'));
            Rules rules;
            std::istringstream os(opts);
            for (std::string w; os >> w;)
                if (w != "-")
                    REQUIRE_FALSE(rules.set(w.substr(0, w.find('=')), w.substr(w.find('=') + 1)));
            auto root = make(fen, rules);
            MoveList first;
            generate_legal(root, first);
            std::vector<Position> positions{root};
            for (std::size_t i = 0; i < first.size && i < 4; ++i) {
                Position child = root;
                child.do_move(first.moves[i * first.size / 4]);
                positions.push_back(child);
            }
            for (auto& p : positions) {
                MoveList l;
                generate_legal(p, l);
                std::set<std::string> seen;
                for (Move m : l) {
                    std::string a = to_algebraic(p, m);
                    CAPTURE(p.fen());
                    CAPTURE(a);
                    CHECK(seen.insert(a).second);
                    auto back = parse_algebraic(p, a);
                    REQUIRE(std::holds_alternative<Move>(back));
                    CHECK(std::get<Move>(back) == m);
                    ++checked;
                }
            }
        }
    }
    CHECK(checked > 10000);
}

TEST_CASE("Kinta records: a lost attack on a carrier takes no heart, and says so (SPEC 11, 26)") {
    // Every attack on a heart's carrier in the play-phase rows of kinta.epd and the positions
    // a few plies on (a fixed walk): won, it is written `xH` with `/A<n>`; lost, with a plain
    // `x` and `/D<n>` (no heart was taken); both read back to the same bare move.
    int won = 0, lost = 0;
    std::ifstream f(testutil::data("kinta.epd"));
    for (std::string line; std::getline(f, line);) {
        if (line.find(" play ") == std::string::npos) continue;
        std::string fen = line.substr(0, line.find(';'));
        while (fen.back() == ' ') fen.pop_back();
        std::string opts = line.substr(line.find(';') + 1);
        Rules rules;
        std::istringstream os(opts.substr(0, opts.find(';')));
        for (std::string w; os >> w;)
            if (w != "-")
                REQUIRE_FALSE(rules.set(w.substr(0, w.find('=')), w.substr(w.find('=') + 1)));
        Position p = make(fen, rules);
        for (int ply = 0; ply < 12 && !p.game_over(); ++ply) {
            MoveList l;
            generate_legal(p, l);
            if (!l.size) break;
            for (Move m : l) {
                if (!p.is_attack(m) || p.heart_victim(m) == NO_COLOUR) continue;
                CAPTURE(p.fen());
                const std::string a = to_record_algebraic(p, m.with_outcome(false, 1));
                const std::string d = to_record_algebraic(p, m.with_outcome(true, 1));
                CAPTURE(a);
                CAPTURE(d);
                CHECK(a.find("xH") != std::string::npos);
                CHECK(a.substr(a.size() - 3) == "/A1");
                CHECK(d.find("xH") == std::string::npos);
                CHECK(d.find('x') != std::string::npos);
                CHECK(d.substr(d.size() - 3) == "/D1");
                for (const std::string& s : {a, d}) {
                    auto back = parse_algebraic(p, s.substr(0, s.find('/')));
                    REQUIRE(std::holds_alternative<Move>(back));
                    CHECK(std::get<Move>(back) == m);
                }
                ++won, ++lost;
            }
            p.do_move(l.moves[(ply * 7 + 3) % l.size]);
        }
    }
    CHECK(lost > 0);
    CHECK(won == lost);
}
