// engine/record.cpp: reading and replaying game records (see record.h).
#include "record.h"

#include <array>
#include <set>

#include <cstdlib>
#include <optional>

#include "combat.h"

#include <cctype>
#include <sstream>

#include "movegen.h"
#include "notation.h"

namespace klinzha {

std::string AnalysisTally::summary(int players) const {
    std::string out;
    for (int c = 0; c < players; ++c)
        out += std::string(out.empty() ? "" : "; ") + kColourChar[c] + ": " +
               std::to_string(counted[c]) + " moves, average loss " +
               std::to_string(counted[c] ? loss[c] / counted[c] : 0) + " cp, " +
               std::to_string(graded[1][c]) + " inaccuracies, " + std::to_string(graded[2][c]) +
               " mistakes, " + std::to_string(graded[3][c]) + " blunders";
    return out;
}

namespace {

bool is_result(const std::string& w) {
    if (w == "*" || w == "1-0" || w == "0-1" || w == "1/2-1/2") return true;
    // Three players: one score per colour, e.g. 1-0-0 or 1/2-1/2-0.
    int dashes = 0;
    for (char c : w) {
        if (c == '-')
            ++dashes;
        else if (!std::isdigit(static_cast<unsigned char>(c)) && c != '/')
            return false;
    }
    return dashes == 2 && w.front() != '-' && w.back() != '-';
}

/// Strips a leading move number (`12.`, `12...`); returns what is left.
std::string strip_number(const std::string& w) {
    std::size_t i = 0;
    while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
    if (i == 0 || i == w.size() || w[i] != '.') return w;
    while (i < w.size() && w[i] == '.') ++i;
    return w.substr(i);
}

}  // namespace

namespace {

/// The comment opening at text[i] (`{`): i moves past its `}` (or to the end), line counts
/// its line breaks. A comment's white space reads as one space each: PGN export breaks lines
/// anywhere in a comment (`{spindles` at the end of one line, its rounds on the next). It
/// becomes, in order: the last move's Kinta rounds (`{spindles ...}`), a removal imposed by a
/// referee (`{k out ...}`, SPEC 7; the reason after `out:` kept as its comment), or the last
/// move's comment (`{setup}` and `{play}`, the phase marks the tools write, dropped).
void read_comment(const std::string& text, std::size_t& i, int& line, RecordGame& cur) {
    const std::size_t end = text.find('}', i);
    const std::string raw =
        text.substr(i + 1, (end == std::string::npos ? text.size() : end) - i - 1);
    const int at = line;
    for (char c : raw) line += c == '\n';
    std::string body;
    for (char c : raw) {
        const bool space = std::isspace(static_cast<unsigned char>(c));
        if (!space)
            body += c;
        else if (!body.empty() && body.back() != ' ')
            body += ' ';
    }
    i = end == std::string::npos ? text.size() : end + 1;
    const std::size_t b = body.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return;
    const bool after_move = !cur.tokens.empty() && !cur.tokens.back().removal;
    if (body.compare(b, 9, "spindles ") == 0 && after_move) {
        cur.tokens.back().spindles = body.substr(b + 9);
    } else if (body.compare(b + 1, 4, " out") == 0 &&
               std::string_view("gbk").find(body[b]) != std::string_view::npos) {
        if (cur.tokens.empty() && cur.line == 0) cur.line = at;
        std::string why = body.substr(b + 5);
        const auto w0 = why.find_first_not_of(": \t\r\n");
        why =
            w0 == std::string::npos ? "" : why.substr(w0, why.find_last_not_of(" \t\r\n") - w0 + 1);
        cur.tokens.push_back({std::string(1, body[b]), true, at, "", why});
    } else if (after_move) {
        const std::string t = body.substr(b, body.find_last_not_of(" \t\r\n") - b + 1);
        std::string& c = cur.tokens.back().comment;
        if (t != "setup" && t != "play") c += (c.empty() ? "" : " ") + t;
    }
}

/// Whether the `[` at text[i] opens a tag pair: only white space before it on its line.
bool starts_tag(const std::string& text, std::size_t i) {
    if (i == 0 || text[i - 1] == '\n') return true;
    const std::size_t k = text.find_last_not_of(" \t", i - 1);
    return k == std::string::npos || text[k] == '\n';
}

/// The tag pair `[Name "value"]` opening at text[i], to the end of its line (i moves there):
/// into cur's tags (the value's backslash escapes undone; a name read again replaces its
/// value but keeps its place). A line that is no tag pair becomes a token that replay()
/// refuses with a message.
void read_tag(const std::string& text, std::size_t& i, int line, RecordGame& cur) {
    std::size_t end = text.find('\n', i);
    if (end == std::string::npos) end = text.size();
    const std::string tag = text.substr(i + 1, end - i - 1);
    i = end;
    const std::size_t sp = tag.find(' ');
    const std::size_t q1 = tag.find('"');
    const std::size_t q2 = tag.rfind('"');
    if (sp == std::string::npos || q1 == std::string::npos || q2 <= q1) {
        cur.tokens.push_back({"[" + tag, false, line, "", ""});
        return;
    }
    std::string value;
    for (std::size_t k = q1 + 1; k < q2; ++k) {
        if (tag[k] == '\\' && k + 1 < q2) ++k;
        value += tag[k];
    }
    const std::string name = tag.substr(0, sp);
    if (!cur.tags.count(name)) cur.tag_order.push_back(name);
    cur.tags[name] = value;
}

}  // namespace

std::vector<RecordGame> read_records(std::istream& in) {
    std::ostringstream all;
    all << in.rdbuf();
    const std::string text = all.str();
    std::vector<RecordGame> games;
    RecordGame cur;
    int line = 1;
    auto flush = [&] {
        if (!cur.tags.empty() || !cur.tokens.empty() || !cur.result.empty()) games.push_back(cur);
        cur = RecordGame{};
    };
    std::size_t i = 0;
    while (i < text.size()) {
        const char ch = text[i];
        if (ch == '\n') {
            ++line;
            ++i;
        } else if (std::isspace(static_cast<unsigned char>(ch))) {
            ++i;
        } else if (ch == '{') {
            read_comment(text, i, line, cur);
        } else if (ch == ';') {
            while (i < text.size() && text[i] != '\n') ++i;
        } else if (ch == '[' && starts_tag(text, i)) {
            if (!cur.tokens.empty() || !cur.result.empty()) flush();
            if (cur.line == 0) cur.line = line;
            read_tag(text, i, line, cur);
        } else {
            std::size_t end = i;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
                   text[end] != '{' && text[end] != ';')
                ++end;
            std::string w = text.substr(i, end - i);
            i = end;
            if (cur.line == 0) cur.line = line;
            if (is_result(w)) {
                cur.result = w;
                flush();
                continue;
            }
            if (w[0] == '$') continue;  // NAG
            w = strip_number(w);
            if (w.empty() || w.find_first_not_of('.') == std::string::npos) continue;
            cur.tokens.push_back({w, false, line, "", ""});
        }
    }
    flush();
    return games;
}

namespace {

std::string where(const Position& pos, const RecordGame::Token& t) {
    std::string s = "line " + std::to_string(t.line) + ", ";
    if (pos.phase() == Phase::Play)
        s += "move " + std::to_string(pos.fullmove()) + " (" + kColourChar[pos.to_move()] + ")";
    else
        s += std::string(pos.phase() == Phase::Place ? "placement" : "heart placement") + " (" +
             kColourChar[pos.to_move()] + ")";
    return s + ", token '" + t.text.substr(0, 60) + "'";
}

struct Replayer {
    const RecordGame& g;
    bool lenient;
    Replay& out;
    /// Kinta: the dice of the DiceSeed tag (SPEC 26), if given.
    std::optional<combat::Spindles> dice;

    /// Kinta (SPEC 26): m as played, with the outcome the token gives after `/` (`/A87`,
    /// `/D54`) checked, and the fight checked against its spindles comment and the dice seed.
    /// Returns "" or what is wrong.
    std::string with_outcome(const Position& pos, const RecordGame::Token& t, Move& m) {
        const auto slash = t.text.find('/');
        if (!pos.is_attack(m)) {
            if (slash != std::string::npos) return "an outcome on a move that is no attack";
            return "";
        }
        if (slash == std::string::npos)
            return "an attack under Kinta needs its outcome (/A<n> or /D<n>, SPEC 26)";
        auto r = parse_played_move(pos, move_to_string(m) + ":" + t.text.substr(slash + 1));
        if (auto* e = std::get_if<std::string>(&r)) return *e;
        m = std::get<Move>(r);
        const auto [a, d] = combat::fighters(pos, m.bare());
        auto agrees = [&](const combat::Fight& f) {
            return f.attacker_won == !m.defender_won() && f.strength == m.outcome_strength();
        };
        if (!t.spindles.empty()) {
            auto rounds = combat::parse_spindles(t.spindles);
            if (!rounds) return "the spindles comment is malformed";
            auto f = combat::replay(a, d, *rounds);
            if (auto* e = std::get_if<std::string>(&f)) return "spindles: " + *e;
            if (!agrees(std::get<combat::Fight>(f)))
                return "the spindles give another outcome than the one written";
        }
        if (dice) {
            const combat::Fight f = combat::cast(a, d, *dice);
            if (!agrees(f)) return "the dice seed gives another outcome than the one written";
            if (!t.spindles.empty()) {
                const auto rounds = combat::parse_spindles(t.spindles);
                if (!rounds || *rounds != f.rounds)
                    return "the dice seed gives other spindles than the comment";
            }
        }
        return "";
    }

    /// Records a move (or `out:k`) and the position after it; token: the index in g.tokens
    /// it was read from (-1: a removal the rules imposed, written nowhere).
    void push(const std::string& move, const Position& after, int token) {
        out.moves.push_back(move);
        out.fens.push_back(after.fen());
        out.token.push_back(token);
    }

    /// Plays tokens[i..] on pos, appending to out; on failure sets `error` and, when
    /// `nested` (a reading being tried), leaves out as it was at entry. Returns success.
    bool run(std::size_t i, Position& pos, std::string& error, bool nested = false) {
        const std::size_t mark = out.fens.size();
        auto fail = [&](const std::string& why) {
            if (nested) {
                out.fens.resize(mark);
                out.moves.resize(mark);
                out.token.resize(mark);
            }
            error = why;
            return false;
        };
        for (; i < g.tokens.size(); ++i) {
            const auto& t = g.tokens[i];
            // SPEC 7: a three-player player to move with no legal move drops out.
            while (!t.removal && pos.phase() == Phase::Play && !pos.game_over() &&
                   !pos.removal_ends_game() && !has_legal_move(pos)) {
                const std::string who(1, kColourChar[pos.to_move()]);
                pos.eliminate_to_move();
                push("out:" + who, pos, -1);
            }
            if (t.removal) {
                if (pos.phase() != Phase::Play || pos.players() != 3 ||
                    pos.rules().relation_dilemma || kColourChar[pos.to_move()] != t.text[0])
                    return fail(where(pos, t) + ": a removal of " + t.text +
                                " that cannot happen here");
                pos.eliminate_to_move();
                push("out:" + t.text, pos, int(i));
                continue;
            }
            if (pos.game_over()) return fail(where(pos, t) + ": the game is already over");
            const AlgebraicReading r = read_algebraic(pos, t.text.substr(0, t.text.find('/')));
            if (r.moves.size() == 1) {
                Move m = r.moves[0];
                if (auto e = with_outcome(pos, t, m); !e.empty())
                    return fail(where(pos, t) + ": " + e);
                pos.do_move(m);
                push(move_to_string(m), pos, int(i));
                continue;
            }
            if (!lenient || r.moves.empty()) return fail(where(pos, t) + ": " + r.error);
            // SPEC 11.2: keep the reading with which the rest of the record stays legal.
            std::string last;
            for (Move m : r.moves) {
                Position next = pos;
                if (!pos.is_attack(m) && t.text.find('/') != std::string::npos) continue;
                const auto saved = dice;  // a reading that fails gives its spindles back
                if (pos.is_attack(m) && !with_outcome(pos, t, m).empty()) {
                    dice = saved;
                    continue;
                }
                next.do_move(m);
                push(move_to_string(m), next, int(i));
                if (run(i + 1, next, last, true)) {
                    pos = next;
                    return true;
                }
                dice = saved;
                out.fens.pop_back();
                out.moves.pop_back();
                out.token.pop_back();
            }
            return fail(where(pos, t) + ": " + r.error + "; no reading keeps the rest legal (" +
                        last + ")");
        }
        return true;
    }
};

}  // namespace

std::vector<double> result_scores(std::string_view token, int players) {
    std::vector<double> r;
    std::size_t i = 0;
    while (int(r.size()) < players) {
        const auto dash = token.find('-', i);
        const std::string_view f =
            token.substr(i, dash == std::string_view::npos ? token.npos : dash - i);
        if (f == "1")
            r.push_back(1);
        else if (f == "0")
            r.push_back(0);
        else if (f == "1/2")
            r.push_back(0.5);
        else
            return {};
        if (dash == std::string_view::npos) break;
        i = dash + 1;
    }
    return int(r.size()) == players ? r : std::vector<double>{};
}

Replay replay(const RecordGame& g, const Rules& base, int players, bool lenient) {
    Replay out;
    Rules rules = base;
    auto tag = [&](const char* k) -> const std::string* {
        auto it = g.tags.find(k);
        return it == g.tags.end() ? nullptr : &it->second;
    };
    if (auto* v = tag("Variant"); v && *v != "custom") {  // "custom": the Options tag says all
        if (auto err = rules.set("UCI_Variant", *v)) {
            out.error = "tag Variant: " + *err;
            return out;
        }
    }
    if (auto* o = tag("Options")) {
        if (auto err = rules.set_all(*o)) {
            out.error = "tag Options: " + *err;
            return out;
        }
    }
    if (auto* p = tag("Players")) {
        if (*p == "2" || *p == "3")
            players = (*p)[0] - '0';
        else {
            out.error = "tag Players: must be 2 or 3, not '" + *p + "'";
            return out;
        }
    }
    Position pos(players, rules);
    if (auto* fen = tag("FEN")) {
        if (auto err = pos.set(*fen, rules)) {
            out.error = "tag FEN: " + *err;
            return out;
        }
    }
    out.start = pos;
    std::string error;
    Replayer r{g, lenient, out, std::nullopt};
    if (auto* seed = tag("DiceSeed")) {  // SPEC 26: the spindles cast again from the seed
        char* end = nullptr;
        const unsigned long long v = std::strtoull(seed->c_str(), &end, 10);
        if (seed->empty() || *end) {
            out.error = "tag DiceSeed: not a whole number: '" + seed->substr(0, 40) + "'";
            return out;
        }
        r.dice.emplace(v);
    }
    if (!r.run(0, pos, error)) out.error = error;
    return out;
}

std::string tag_line(std::string_view name, std::string_view value) {
    std::string out = "[" + std::string(name) + " \"";
    for (char ch : value) {
        if (ch == '"' || ch == '\\') out += '\\';
        out += (ch == '\n' || ch == '\r') ? ' ' : ch;
    }
    return out + "\"]\n";
}

std::string write_tags(const std::map<std::string, std::string>& tags,
                       const std::vector<std::string>& order) {
    static const std::array<std::string, 7> kRoster = {"Event", "Site",  "Date",  "Round",
                                                       "White", "Black", "Result"};
    std::string out;
    std::set<std::string> done;
    auto put = [&](const std::string& name) {
        const auto it = tags.find(name);
        if (it == tags.end() || !done.insert(name).second) return;
        out += tag_line(name, it->second);
    };
    for (const auto& n : kRoster) put(n);
    for (const auto& n : order) put(n);
    for (const auto& [n, _] : tags) put(n);
    return out;
}

std::string wrap_movetext(std::string_view text, std::size_t width) {
    std::string out;
    std::size_t col = 0, i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i == text.size()) break;
        std::size_t end = i;
        while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
        const std::string_view w = text.substr(i, end - i);
        i = end;
        if (col && col + 1 + w.size() > width) {
            out += '\n';
            col = 0;
        } else if (col) {
            out += ' ';
            ++col;
        }
        out += w;
        col += w.size();
    }
    return out + '\n';
}

}  // namespace klinzha
