// tools/gui/analysis.h: an analysis engine for one connection of klinzha-gui: one process
// (an engine the operator named), `go infinite` on the position asked for, its MultiPV lines
// turned into RH algebraic notation (SPEC 11) and handed on at most ~5 times a second as
// {"type":"analysis","fen":...,"lines":[{multipv, depth, score, pawns, pov, pv, san}]}:
// `score` as the engine said it (`cp 35`, `mate 3`, for the side to move), `pawns` that
// score in pawns from Green's side in two-player games (from the side to move's in three:
// each player's own standing, `pov` names whose), docs/gui.md "analysis".
//
// Thread safety: request() may be called from any thread; emit is called from the
// analyser's own thread. The destructor stops the search and ends the process.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "engine/position.h"
#include "player.h"

namespace klinzha::gui {

class Analyser {
  public:
    /// Starts the engine `spec` on a thread of its own; errors go to emit as
    /// {"type":"error"} messages (the engine does not start, or dies).
    Analyser(match::EngineSpec spec, std::function<void(const nlohmann::json&)> emit);
    ~Analyser();
    Analyser(const Analyser&) = delete;
    Analyser& operator=(const Analyser&) = delete;
    /// Analyse pos with `multipv` lines (1-16); replaces the previous request.
    void request(const Position& pos, int multipv);

  private:
    void run();
    match::ProcessPlayer player_;
    std::function<void(const nlohmann::json&)> emit_;
    std::mutex m_;
    std::condition_variable cv_;
    std::optional<Position> pending_;
    int multipv_ = 1;
    bool quit_ = false;
    std::thread thread_;
};

}  // namespace klinzha::gui
