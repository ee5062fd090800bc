// tests/engine/perft_test.cpp: every row of the perft data files (shared/perft/reference.epd,
// variants.epd and kinta.epd, copied to tests/data) at every listed depth, under its rule options
// (SPEC 8, 12, 14-23): one test per file.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "engine/perft.h"
#include "test_util.h"

using namespace klinzha;

namespace {
struct Row {
    std::string fen;
    Rules rules;
    std::vector<std::pair<int, std::uint64_t>> counts;
};

std::vector<Row> load(const std::string& file) {
    std::ifstream f(testutil::data(file));
    std::vector<Row> rows;
    std::string line;
    while (std::getline(f, line)) {
        if (line.empty()) continue;
        std::istringstream in(line);
        std::string field;
        Row r;
        std::getline(in, r.fen, ';');
        while (!r.fen.empty() && r.fen.back() == ' ') r.fen.pop_back();
        std::getline(in, field, ';');
        std::istringstream os(field);
        std::string opt;
        while (os >> opt)
            if (opt != "-") {
                auto eq = opt.find('=');
                REQUIRE_FALSE(r.rules.set(opt.substr(0, eq), opt.substr(eq + 1)));
            }
        while (std::getline(in, field, ';')) {
            std::istringstream ds(field);
            std::string d;
            std::uint64_t n = 0;
            ds >> d >> n;
            r.counts.emplace_back(std::stoi(d.substr(1)), n);
        }
        rows.push_back(r);
    }
    return rows;
}

void check_rows(const std::vector<Row>& rows) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        SUBCASE(("row " + std::to_string(i + 1)).c_str()) {
            auto p = testutil::make(r.fen, r.rules);
            for (const auto& count : r.counts) {  // CAPTURE needs a plain variable
                const int depth = count.first;
                CAPTURE(r.fen);
                CAPTURE(depth);
                CHECK(perft(p, depth) == count.second);
            }
            CHECK(p.fen() == testutil::make(r.fen, r.rules).fen());  // restored
        }
    }
}
}  // namespace

TEST_CASE("perft agrees with every row of reference.epd") {
    auto rows = load("reference.epd");
    REQUIRE(rows.size() >= 30);
    check_rows(rows);
}

TEST_CASE("perft agrees with every row of variants.epd") {
    auto rows = load("variants.epd");
    REQUIRE(rows.size() == 48);
    check_rows(rows);
}

TEST_CASE("perft agrees with every row of kinta.epd") {
    auto rows = load("kinta.epd");
    REQUIRE(rows.size() == 30);
    check_rows(rows);
}

TEST_CASE("divide sums to perft and lists each legal move once") {
    auto p = testutil::make(kStartFen2);
    auto div = perft_divide(p, 2);
    CHECK(div.size() == 144);
    std::uint64_t sum = 0;
    for (auto& [m, n] : div) sum += n;
    CHECK(sum == 17664);
}
