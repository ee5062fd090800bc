// tests/engine/record_test.cpp: game records read back (engine/record.h): random games of
// every variant written in algebraic notation replay to the same positions; tokens a person
// writes (move numbers, comments, marks, K for H); errors name the line, move and token;
// --lenient resolves an ambiguous token by the rest of the record (SPEC 11.2).
#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/record.h"
#include "test_util.h"

using namespace klinzha;
using testutil::make;

namespace {

/// A random game from `fen` under `rules` (at most `plies` moves), as a record with tags, and
/// the position string after every move or removal.
std::pair<std::string, std::vector<std::string>> random_record(const std::string& fen,
                                                               const Rules& rules, unsigned seed,
                                                               int plies) {
    std::mt19937 rng(seed);
    auto p = make(fen, rules);
    std::string text =
        "[Event \"random\"]\n[FEN \"" + fen + "\"]\n[Options \"" + rules.to_string() + "\"]\n\n";
    std::vector<std::string> fens;
    for (int i = 0; i < plies && !p.game_over(); ++i) {
        MoveList l;
        generate_legal(p, l);
        if (l.size == 0) {
            if (p.phase() != Phase::Play || p.removal_ends_game()) break;
            text += std::string("{") + kColourChar[p.to_move()] + " out: no legal move} ";
            p.eliminate_to_move();
            fens.push_back(p.fen());
            continue;
        }
        Move m = l.moves[rng() % l.size];
        if (p.phase() == Phase::Play && p.to_move() == p.first_in())
            text += std::to_string(p.fullmove()) + ". ";
        text += to_algebraic(p, m) + " ";
        p.do_move(m);
        fens.push_back(p.fen());
    }
    return {text + "*\n", fens};
}

Rules rules_of(std::initializer_list<const char*> words) {
    Rules r;
    for (std::string w : words)
        REQUIRE_FALSE(r.set(w.substr(0, w.find('=')), w.substr(w.find('=') + 1)));
    return r;
}

}  // namespace

TEST_CASE("random games of every variant replay from their records to the same positions") {
    struct Case {
        const char* fen;
        Rules rules;
    };
    const std::vector<Case> cases = {
        {kStartFen2, {}},
        {kStartFen3, {}},
        {kStartFen2, rules_of({"UCI_Variant=klin-zha-italian"})},
        {kStartFen2, rules_of({"UCI_Variant=klin-zha-reflective", "Ablative=6"})},
        {kStartFen3, rules_of({"RelationDilemma=true", "HeartFirst=true"})},
        {kStartFen2,
         rules_of({"KaggasCrown=region", "HonorInSetup=true", "ForwardPlacement=true"})},
        {kStartFen3,
         rules_of({"Ablative=-1", "BlockaderTraps=true", "Courier=true", "PowerVanguard=true"})},
        {"2 - - - g place 0 1 clouds=e38,f37,g57,h78,i22", rules_of({"AlternatingPlacement=true"})},
    };
    int games = 0;
    for (const auto& c : cases)
        for (unsigned seed = 1; seed <= 6; ++seed) {
            const auto made = random_record(c.fen, c.rules, seed, 120);
            const std::string& text = made.first;
            const auto& fens = made.second;
            std::istringstream in(text);
            auto records = read_records(in);
            REQUIRE(records.size() == 1);
            auto r = replay(records[0], Rules{}, 2, false);
            CAPTURE(text);
            CHECK(r.error == "");
            CHECK(r.fens == fens);
            ++games;
        }
    CHECK(games == 48);
}

TEST_CASE("records as people write them: numbers, comments, marks, K, several games") {
    std::istringstream in(
        "[Event \"a\"]\n\n"
        "1. Wh78 {a wall} Qg79! ; rest of line ignored\n"
        "$1 Pi66?! 1-0\n"
        "[Event \"b\"]\n[Players \"3\"]\n\n Wh78 0-1-0\n"
        "Wh78 Qg79 *\n");
    auto games = read_records(in);
    REQUIRE(games.size() == 3);
    CHECK(games[0].tags.at("Event") == "a");
    CHECK(games[0].result == "1-0");
    REQUIRE(games[0].tokens.size() == 3);
    CHECK(games[0].tokens[2].text == "Pi66?!");
    auto r = replay(games[0], Rules{}, 2, false);
    CHECK(r.error == "");
    CHECK(r.moves == std::vector<std::string>{"W@h78", "Q@g79", "P@i66"});
    CHECK(games[1].result == "0-1-0");
    auto r3 = replay(games[1], Rules{}, 2, false);
    CHECK(r3.start.players() == 3);
    CHECK(games[2].tags.empty());
}

TEST_CASE("a bad token stops the replay, naming the line, the move and the token") {
    std::istringstream in("[Event \"x\"]\n\nWh78\nWi77 Qg79\n*\n");
    auto games = read_records(in);
    REQUIRE(games.size() == 1);
    auto r = replay(games[0], Rules{}, 2, false);
    CHECK(r.error.find("line 4") != std::string::npos);
    CHECK(r.error.find("'Wi77'") != std::string::npos);
    CHECK(r.error.find("no legal move") != std::string::npos);
    CHECK(r.fens.size() == 1);  // the positions before the error are kept
    std::istringstream bad_fen("[FEN \"2 x\"]\n\nWh78 *\n");
    CHECK(replay(read_records(bad_fen).at(0), Rules{}, 2, false).error.rfind("tag FEN:", 0) == 0);
    std::istringstream bad_variant("[Variant \"chess\"]\n\nWh78 *\n");
    CHECK(
        replay(read_records(bad_variant).at(0), Rules{}, 2, false).error.rfind("tag Variant:", 0) ==
        0);
}

TEST_CASE("lenient replay keeps the reading of an ambiguous token that leaves the rest legal") {
    // Green's knights on d49 and g79 both reach f59. The record leaves out the departure;
    // only with the knight from g79 on f59 can a knight go on to d28 (from d49).
    const std::string fen = "2 Hi99,Pi99,Nd49,Ng79 Hi11,Pi11 - g play 0 1";
    auto p = make(fen);
    REQUIRE(std::get<std::string>(parse_algebraic(p, "Nf59")).find("ambiguous") !=
            std::string::npos);
    // After Ngf59 the d49 knight still stands on d49 and can go to d28 (only it can).
    std::istringstream in("[FEN \"" + fen + "\"]\n\n1. Nf59 HPi12 2. Nd28 *\n");
    auto g = read_records(in).at(0);
    auto strict = replay(g, Rules{}, 2, false);
    CHECK(strict.error.find("ambiguous") != std::string::npos);
    auto lenient = replay(g, Rules{}, 2, true);
    CHECK(lenient.error == "");
    REQUIRE(lenient.moves.size() == 3);
    CHECK(lenient.moves[0] == "g79f59");
}

TEST_CASE("result_scores: a record's result token, one score per colour") {
    using V = std::vector<double>;
    CHECK(result_scores("1-0", 2) == V{1, 0});
    CHECK(result_scores("1/2-1/2", 2) == V{0.5, 0.5});
    CHECK(result_scores("0-1/2-1/2", 3) == V{0, 0.5, 0.5});
    CHECK(result_scores("0-0-1", 3) == V{0, 0, 1});
    CHECK(result_scores("*", 2).empty());
    CHECK(result_scores("", 2).empty());
    CHECK(result_scores("1-0", 3).empty());  // too few fields for three players
    CHECK(result_scores("2-0", 2).empty());
}

TEST_CASE("records klinzha-match wrote before the game-record rework still read and replay") {
    // tests/data/records: records of each kind as klinzha-match wrote them at 99d127b (two
    // and three players, Kinta with its spindles and dice seed, Blind, an Italian bout with
    // BACH'SAN), kept so a rework of the record's writer or reader keeps reading them: each
    // game replays to its end without an error (Kinta: every fight agrees with its spindles
    // and seed), with the tags its kind writes.
    struct Kind {
        const char* file;
        std::size_t games;
        const char* tag;    ///< a tag each game has
        const char* value;  ///< a text the file holds
    };
    const Kind kinds[] = {{"two.pgn", 2, "Players", "[Players \"2\"]"},
                          {"three.pgn", 6, "ScoreRH", "[Players \"3\"]"},
                          {"kinta.pgn", 2, "DiceSeed", "{spindles "},
                          {"blind.pgn", 2, "Options", "Blind=true"},
                          {"italian.pgn", 3, "Italian", "BACH'SAN"},
                          // Saved by klinzha-gui at 8182ceb: three people, one resigned
                          // mid-game (its comment), the game not over.
                          {"gui-three.pgn", 1, "Players", "{b out: resigned}"}};
    for (const Kind& k : kinds) {
        CAPTURE(k.file);
        std::ifstream in(testutil::data(std::string("records/") + k.file));
        REQUIRE(in);
        std::stringstream text;
        text << in.rdbuf();
        CHECK(text.str().find(k.value) != std::string::npos);
        std::istringstream again(text.str());
        const auto games = read_records(again);
        REQUIRE(games.size() == k.games);
        for (const auto& g : games) {
            CHECK(g.tags.count(k.tag) == 1);
            const Replay r = replay(g, Rules{}, 2, false);
            CHECK(r.error.empty());
            CHECK(r.moves.size() > 10);
        }
    }
}

TEST_CASE("a comment broken across lines reads as one: spindles after a line break are spindles") {
    // PGN export breaks a comment anywhere; `{spindles` at a line's end with its rounds on the
    // next line was read as a plain comment before (its fight then went unchecked).
    std::istringstream in("1. Nxe38/D47 {+0.35/1\n0.001s} {spindles\n3,6|1 1,1|3} *\n");
    const auto games = read_records(in);
    REQUIRE(games.size() == 1);
    REQUIRE(games[0].tokens.size() == 1);
    CHECK(games[0].tokens[0].comment == "+0.35/1 0.001s");
    CHECK(games[0].tokens[0].spindles == "3,6|1 1,1|3");
    // A removal's reason is kept with it, spread over lines or not.
    std::istringstream out("1. Ra1 {b out:\nflag fall} {k out} *\n");
    const auto g2 = read_records(out);
    REQUIRE(g2.size() == 1);
    REQUIRE(g2[0].tokens.size() == 3);
    CHECK(g2[0].tokens[1].removal);
    CHECK(g2[0].tokens[1].comment == "flag fall");
    CHECK(g2[0].tokens[2].comment == "");
}
