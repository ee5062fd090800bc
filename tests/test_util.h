// tests/test_util.h: helpers shared by the suites: build a position from a SPEC 10 string
// (failing the test if it is rejected), ask whether a protocol move is legal, find data.
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <variant>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "engine/position.h"

namespace klinzha::testutil {

inline Position make(const std::string& fen, const Rules& rules = {}) {
    Position p;
    auto err = p.set(fen, rules);
    INFO("position: ", fen);
    REQUIRE_MESSAGE(!err, (err ? *err : std::string()));
    return p;
}

/// True if the protocol move string s is legal in p.
inline bool legal(const Position& p, const std::string& s) {
    return std::holds_alternative<Move>(parse_move(p, s));
}

/// Plays the protocol move s, which must be legal.
inline void play(Position& p, const std::string& s) {
    auto r = parse_move(p, s);
    INFO("move: ", s, " in ", p.fen());
    REQUIRE(std::holds_alternative<Move>(r));
    p.do_move(std::get<Move>(r));
}

inline std::string data(const std::string& name) {
    return std::string(KLINZHA_TEST_DATA) + "/" + name;
}

}  // namespace klinzha::testutil
