// tools/match/italian.cpp: the Italian tournament's bout (italian.h).
#include "italian.h"

#include <algorithm>

#include "engine/bitboard.h"

namespace klinzha::match {

std::array<int, kColours> tally(const Position& start, const Position& now) {
    std::array<int, kColours> half{};
    const bool traps = now.rules().blockader_traps;
    Bitboard zones = 0;
    if (traps)
        for (int c = 0; c < 2; ++c) zones |= now.zones(Colour(c));
    for (int victim = 0; victim < 2; ++victim) {
        const Colour v = Colour(victim), killer = Colour(1 - victim);
        for (int t = 0; t < kPieceTypes; ++t) {
            const int killed =
                popcount(start.pieces(v, PieceType(t))) - popcount(now.pieces(v, PieceType(t)));
            if (killed > 0) half[killer] += 2 * killed * kItalianValue[std::size_t(t)];
            if (traps && t != WALL)  // SPEC 23.2: held in any wall's zone
                half[killer] +=
                    popcount(now.pieces(v, PieceType(t)) & zones) * kItalianValue[std::size_t(t)];
        }
    }
    return half;
}

std::string half_points(int half) {
    return std::to_string(half / 2) + (half % 2 ? ".5" : "");
}

std::optional<std::string> bachsan_start(const std::string& play_start, const Rules& rules,
                                         PieceType t, SplitMix64& fate) {
    Position pos(2, rules);
    if (pos.set(play_start, rules) || pos.phase() != Phase::Play) return std::nullopt;
    for (int c = 0; c < 2; ++c) {
        const Colour col = Colour(c);
        Bitboard men = pos.pieces(col, t);
        if (!men) return std::nullopt;
        // Never the man carrying the heart while another of the type is free.
        if (pos.heart(col) != NO_CELL && (men & ~bit(pos.heart(col)))) men &= ~bit(pos.heart(col));
        std::uint64_t pick = fate.next() % std::uint64_t(popcount(men));
        Cell sq = pop_lsb(men);
        while (pick--) sq = pop_lsb(men);
        pos.remove_man(sq);
    }
    // Check the result reads back (a lone heart, a freed trap: all legal positions).
    Position check(2, rules);
    if (check.set(pos.fen(), rules)) return std::nullopt;
    return pos.fen();
}

const char* to_string(ItalianKind k) {
    switch (k) {
        case ItalianKind::Outright:
            return "outright";
        case ItalianKind::Tally:
            return "tally";
        case ItalianKind::BachSan:
            return "BACH'SAN";
        case ItalianKind::WithoutHonour:
            return "without honour";
    }
    return "";
}

namespace {

// The winner of a finished game, if any (two players).
std::optional<Colour> winner_of(const GameRecord& g) {
    for (int c = 0; c < 2; ++c)
        if (g.outcome[c] == Outcome::Win) return Colour(c);
    return std::nullopt;
}

void award(GameRecord& g, Colour w, const std::string& why) {
    g.outcome[w] = Outcome::Win;
    g.outcome[1 - w] = Outcome::Loss;
    g.hearts_captured = {};
    g.heart_lost = {};
    g.termination += "; " + why;
}

// Decides g by its tally when it has no winner. Returns the winner, or nullopt (equal).
std::optional<Colour> decide_by_tally(GameRecord& g, const Rules& rules) {
    if (g.play_start_fen.empty()) {  // never reached play: nothing was killed
        g.extra_tags.emplace_back("Tally", "0 0");
        return std::nullopt;
    }
    Position start(2, rules), now(2, rules);
    if (start.set(g.play_start_fen, rules) || now.set(g.final_fen, rules)) return std::nullopt;
    const auto t = tally(start, now);
    g.extra_tags.emplace_back("Tally", half_points(t[0]) + " " + half_points(t[1]));
    if (t[0] == t[1]) return std::nullopt;
    const Colour w = t[0] > t[1] ? GREEN : BLUE;
    award(g, w,
          "Italian tally " + half_points(t[0]) + "-" + half_points(t[1]) + ": " + g.names[w] +
              " wins");
    return w;
}

}  // namespace

ItalianBout play_italian(const std::vector<Player*>& seats, const GameConfig& cfg,
                         std::uint64_t fate_seed) {
    ItalianBout bout;
    SplitMix64 fate(fate_seed);
    const std::string seed_tag = std::to_string(fate_seed);
    // 1. The first game.
    GameRecord g = play_game(seats, cfg);
    if (!g.aborted.empty()) {
        bout.aborted = g.aborted;
        return bout;
    }
    g.extra_tags.emplace_back("FateSeed", seed_tag);
    if (winner_of(g)) {
        g.extra_tags.insert(g.extra_tags.begin(), {"Italian", "outright"});
        bout.games.push_back(std::move(g));
        bout.kind = ItalianKind::Outright;
        return bout;
    }
    // 2. No winner: the tally.
    if (decide_by_tally(g, cfg.rules)) {
        g.extra_tags.insert(g.extra_tags.begin(), {"Italian", "tally"});
        bout.games.push_back(std::move(g));
        bout.kind = ItalianKind::Tally;
        return bout;
    }
    // 3. An equal tally: BACH'SAN, a piece fewer, the die choosing it.
    // A face whose type one colour no longer has is cast again (at most 60 casts).
    int face = 0;
    PieceType left_out = PAWN;
    std::optional<std::string> start;
    for (int cast = 0; cast < 60 && !start && !g.play_start_fen.empty(); ++cast) {
        face = int(1 + fate.next() % 6);
        left_out = kDieFace[std::size_t(face - 1)];
        start = bachsan_start(g.play_start_fen, cfg.rules, left_out, fate);
    }
    const std::string die =
        face ? "die " + std::to_string(face) + ": " + kItalianName[left_out] : "no die cast";
    g.extra_tags.insert(g.extra_tags.begin(), {"Italian", "equal tally: BACH'SAN follows"});
    g.extra_tags.emplace_back("BachSan", die);
    g.termination += "; Italian tally equal: BACH'SAN follows (" + die + ")";
    bout.games.push_back(g);
    GameRecord* last = &bout.games.back();
    if (start) {
        GameConfig second = cfg;
        second.start_fen = *start;
        second.history.clear();
        GameRecord b = play_game(seats, second);
        if (!b.aborted.empty()) {
            bout.aborted = b.aborted;
            return bout;
        }
        b.extra_tags.emplace_back("FateSeed", seed_tag);
        b.extra_tags.emplace_back("BachSan", die);
        const bool outright = winner_of(b).has_value();
        if (outright || decide_by_tally(b, cfg.rules)) {
            b.extra_tags.insert(b.extra_tags.begin(),
                                {"Italian", outright ? "BACH'SAN" : "BACH'SAN, tally"});
            bout.games.push_back(std::move(b));
            bout.kind = ItalianKind::BachSan;
            return bout;
        }
        bout.games.push_back(std::move(b));
        last = &bout.games.back();
    } else {
        last->termination += "; no BACH'SAN position (no man of that type, or play never began)";
    }
    // 4. No winner again: the toss-up, a victory "without honour".
    const Colour w = Colour(fate.next() % 2);
    last->extra_tags.erase(std::remove_if(last->extra_tags.begin(), last->extra_tags.end(),
                                          [](const auto& t) { return t.first == "Italian"; }),
                           last->extra_tags.end());
    last->extra_tags.insert(last->extra_tags.begin(), {"Italian", "without honour"});
    award(*last, w, "toss-up: " + last->names[w] + " wins without honour");
    bout.kind = ItalianKind::WithoutHonour;
    return bout;
}

}  // namespace klinzha::match
