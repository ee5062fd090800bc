// tools/gui/analysis.cpp: see analysis.h.
#include "analysis.h"

#include <chrono>
#include <map>
#include <sstream>

#include "engine/movegen.h"
#include "engine/notation.h"
#include "util.h"

namespace klinzha::gui {

using nlohmann::json;

Analyser::Analyser(match::EngineSpec spec, std::function<void(const json&)> emit)
    : player_(std::move(spec)), emit_(std::move(emit)) {
    thread_ = std::thread([this] { run(); });
}

Analyser::~Analyser() {
    {
        std::lock_guard lock(m_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void Analyser::request(const Position& pos, int multipv) {
    std::lock_guard lock(m_);
    pending_ = pos;
    multipv_ = multipv;
    cv_.notify_all();
}

namespace {

/// Kinta (SPEC 26): the words of `info string odds <move> win <p> A <n> D <n>` as the move and
/// its odds ({win, a, d}); nullopt for any other line.
std::optional<std::pair<std::string, json>> parse_odds(const std::vector<std::string>& w) {
    if (!(w.size() == 10 && w[1] == "string" && w[2] == "odds" && w[4] == "win" && w[6] == "A" &&
          w[8] == "D"))
        return std::nullopt;
    return std::pair{w[3], json{{"win", std::atof(w[5].c_str())},
                                {"a", std::atoi(w[7].c_str())},
                                {"d", std::atoi(w[9].c_str())}}};
}

/// One analysis line read from the words of an `info` line in `current`: its multipv index,
/// its JSON (depth, nodes, nps, score; pawns or mate from a fixed side: Green's in two
/// players, the side to move's own standing in three, pov says whose) and its pv as the
/// engine wrote it. nullopt when the line has no score or no pv.
struct InfoLine {
    int multipv = 1;
    json line;
    std::vector<std::string> pv;
};
std::optional<InfoLine> parse_info(const std::vector<std::string>& w, const Position& current) {
    InfoLine out;
    json& l = out.line;
    for (std::size_t i = 1; i < w.size(); ++i) {
        if (w[i] == "string" || w[i] == "currmove" || i + 1 >= w.size()) break;
        if (w[i] == "depth")
            l["depth"] = std::atoi(w[++i].c_str());
        else if (w[i] == "multipv")
            out.multipv = std::atoi(w[++i].c_str());
        else if (w[i] == "nps")
            l["nps"] = std::atoll(w[++i].c_str());
        else if (w[i] == "nodes")
            l["nodes"] = std::atoll(w[++i].c_str());
        else if (w[i] == "score" && i + 2 < w.size()) {
            l["score"] = w[i + 1] + " " + w[i + 2];
            const Colour stm = current.to_move();
            const Colour pov = current.players() == 2 ? GREEN : stm;
            const double sign = pov == stm ? 1.0 : -1.0;
            l["pov"] = colour_name(pov);
            if (w[i + 1] == "cp")
                l["pawns"] = sign * std::atoi(w[i + 2].c_str()) / 100.0;
            else if (w[i + 1] == "mate")
                l["mate"] = int(sign) * std::atoi(w[i + 2].c_str());
            i += 2;
        } else if (w[i] == "pv") {
            out.pv.assign(w.begin() + std::ptrdiff_t(i) + 1, w.end());
            break;
        }
    }
    if (out.pv.empty() || !l.contains("score")) return std::nullopt;
    return out;
}

/// The moves of pv (as the engine wrote them) up to the first illegal one, and the same line
/// in RH algebraic notation (SPEC 11; a three-player pass of Best-Reply Search, 0000, as --).
std::pair<json, std::string> line_in_algebraic(const Position& current,
                                               const std::vector<std::string>& pv) {
    Position p = current;
    std::string san;
    json moves = json::array();
    for (const auto& s : pv) {
        if (s == "0000" && p.phase() == Phase::Play && !p.game_over()) {
            san += (san.empty() ? "" : " ") + std::string("--");
            moves.push_back(s);
            p.do_move(Move::null());
            continue;
        }
        auto m = parse_move(p, s);
        if (!std::holds_alternative<Move>(m)) break;
        const Move mv = std::get<Move>(m);
        san += (san.empty() ? "" : " ") + to_algebraic(p, mv);
        moves.push_back(s);
        p.do_move(mv);
    }
    return {moves, san};
}

}  // namespace

void Analyser::run() {
    if (auto err = player_.start()) {
        emit_({{"type", "error"}, {"message", "analysis: " + *err}});
        return;
    }
    std::optional<Position> current;
    bool searching = false;
    std::map<int, json> lines;
    std::map<std::string, json> odds;  // Kinta: the engine's odds by attack (move string)
    std::int64_t last_emit = 0;
    bool dirty = false;  // lines changed since the last emit
    // Sends the lines (at most ~5 a second: the callers check last_emit).
    auto emit_lines = [&] {
        last_emit = steady_ms();
        dirty = false;
        json arr = json::array();
        for (auto& [_, v] : lines) arr.push_back(v);
        emit_({{"type", "analysis"}, {"fen", current->fen()}, {"lines", arr}});
    };
    while (true) {
        std::optional<Position> next;
        int multipv = 1;
        {
            std::unique_lock lock(m_);
            if (!searching) cv_.wait(lock, [&] { return quit_ || pending_.has_value(); });
            if (quit_) break;
            if (pending_) {
                next = std::move(pending_);
                pending_.reset();
                multipv = multipv_;
            }
        }
        if (next) {
            if (searching) {  // stop, and take every line up to bestmove off the pipe
                player_.send_line("stop");
                while (auto l = player_.read_line_within(2000))
                    if (l->rfind("bestmove", 0) == 0) break;
                searching = false;
            }
            current = std::move(next);
            lines.clear();
            odds.clear();
            dirty = false;
            if (!current->game_over() && has_legal_move(*current)) {
                player_.send_line("setoption name MultiPV value " + std::to_string(multipv));
                player_.send_line("setoption name Players value " +
                                  std::to_string(current->players()));
                player_.send_line("position fen " + current->fen());
                player_.send_line("go infinite");
                searching = true;
            }
            emit_({{"type", "analysis"}, {"fen", current->fen()}, {"lines", json::array()}});
            continue;
        }
        auto line = player_.read_line_within(100);
        if (dirty && steady_ms() - last_emit >= 200) emit_lines();  // what the throttle held back
        if (!line) {
            if (!player_.alive()) {
                emit_({{"type", "error"}, {"message", "analysis engine died"}});
                return;
            }
            continue;
        }
        if (line->rfind("bestmove", 0) == 0) {
            searching = false;
            continue;
        }
        if (line->rfind("info ", 0) != 0) continue;
        auto w = words(*line);
        // Kinta (SPEC 26): `info string odds <move> win <p> A <n> D <n>` follows the line of
        // a best move that is an attack; the lines starting with that move show it.
        if (auto o = parse_odds(w)) {
            odds[o->first] = o->second;
            for (auto& [_, v] : lines)
                if (!v["pv"].empty() && v["pv"][0] == o->first) v["odds"] = o->second;
            dirty = true;
            continue;
        }
        auto info = parse_info(w, *current);
        if (!info) continue;
        auto& [k, l, pv] = *info;
        const auto [moves, san] = line_in_algebraic(*current, pv);
        l["multipv"] = k;
        if (!moves.empty())
            if (auto it = odds.find(moves[0].get<std::string>()); it != odds.end())
                l["odds"] = it->second;
        l["pv"] = moves;
        l["san"] = san;
        lines[k] = l;
        dirty = true;
        if (steady_ms() - last_emit >= 200) emit_lines();
    }
    if (searching) player_.send_line("stop");
    player_.send_line("quit");
}

}  // namespace klinzha::gui
