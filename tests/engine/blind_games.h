// tests/engine/blind_games.h: random blind games with their arbiter's tokens, for the tests
// of views (engine/blind.h), beliefs (search/belief.h) and referees (SPEC 25).
#pragma once

#include <array>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/blind.h"
#include "engine/movegen.h"

namespace klinzha::testing {

/// A blind game played by uniformly random legal moves from the empty board (or, for the
/// colours `chooser` answers for, by its choice); the arbiter's tokens for each colour are
/// kept as the game goes (SPEC 25).
struct BlindGame {
    Position start;
    Position pos;
    std::array<std::vector<std::string>, kColours> tokens;
    Colour last_mover = NO_COLOUR;
    std::mt19937_64 rng;
    int max_plies;
    /// When set: the move for the position and its legal moves (non-empty), or the none move
    /// for a uniformly random one.
    std::function<Move(const Position&, const MoveList&)> chooser;

    BlindGame(int players, const Rules& rules, std::uint64_t seed, int max_plies_ = 160)
        : start(players, rules), pos(players, rules), rng(seed), max_plies(max_plies_) {}

    /// Plays one ply (or removes the player to move who has none). False when the game is
    /// over (a heart capture ended it, a draw, the last player in, or max_plies).
    bool step() {
        if (pos.ply() >= max_plies || pos.game_over()) return false;
        if (pos.phase() == Phase::Play && (pos.repetition_draw(3) || pos.move_count_draw()))
            return false;
        MoveList legal;
        generate_legal(pos, legal);
        const int players = pos.players();
        if (legal.size == 0) {  // SPEC 7: out without a ply
            const Colour c = pos.to_move();
            if (pos.removal_ends_game()) return false;
            for (int v = 0; v < players; ++v)
                if (pos.is_in(Colour(v))) tokens[std::size_t(v)].push_back(blind::out_token(c));
            pos.eliminate_to_move();
            last_mover = c;
            return pos.players_in() > 1;
        }
        Move m = chooser ? chooser(pos, legal) : Move();
        if (m.is_none()) m = legal.moves[rng() % legal.size];
        last_mover = pos.to_move();
        for (int v = 0; v < players; ++v) {
            if (!pos.is_in(Colour(v))) continue;  // a player out is told nothing more
            // (A three-player heart capture gives its capturer two tokens: `xH`, `+c:men`.)
            for (auto& t : blind::announce(pos, m, Colour(v))) tokens[std::size_t(v)].push_back(t);
        }
        pos.do_move(m);
        return true;
    }
};

}  // namespace klinzha::testing
