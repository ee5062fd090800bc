// tools/gui/human_player.h: a person at the board as one more kind of match::Player, so
// that a game in the GUI is refereed by the same code as a match (tools/match/referee.h).
// The referee's go() blocks until the page submits a move (already checked legal by the
// session), the clock runs out, or the game is abandoned.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

#include "player.h"

namespace klinzha::gui {

class HumanPlayer : public match::Player {
  public:
    explicit HumanPlayer(std::string name) : name_(std::move(name)) {}
    std::string name() const override { return name_; }
    std::optional<std::string> start() override { return std::nullopt; }
    bool new_game() override { return true; }
    bool alive() const override { return true; }

    /// Waits up to timeout_ms for submit() or abandon(); Timeout when neither comes, Crash
    /// when abandoned (the referee then ends the game as abandoned).
    match::Reply go(const std::string&, const std::string&, std::int64_t timeout_ms) override {
        const auto t0 = std::chrono::steady_clock::now();
        std::unique_lock lock(m_);
        waiting_ = true;
        const bool got = cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                      [&] { return move_.has_value() || abandoned_; });
        waiting_ = false;
        match::Reply r;
        r.ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
        if (abandoned_) {
            r.status = match::Reply::Crash;
        } else if (!got) {
            r.status = match::Reply::Timeout;
        } else {
            r.move = *move_;
            move_.reset();
        }
        return r;
    }

    /// Marks the person as asked for a move before go() is entered (so the page, told at
    /// once, already sees a person to move).
    void expect() {
        std::lock_guard lock(m_);
        waiting_ = true;
    }
    /// True while go() waits for this person's move.
    bool waiting() const {
        std::lock_guard lock(m_);
        return waiting_;
    }
    /// Hands a move (a SPEC 9 string) to the waiting go(). False if nobody waits.
    bool submit(const std::string& move) {
        std::lock_guard lock(m_);
        if (!waiting_ || move_) return false;
        move_ = move;
        cv_.notify_all();
        return true;
    }
    /// Makes go() return at once, now and later (the game is being abandoned).
    void abandon() {
        std::lock_guard lock(m_);
        abandoned_ = true;
        cv_.notify_all();
    }

  private:
    std::string name_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::optional<std::string> move_;
    bool waiting_ = false;
    bool abandoned_ = false;
};

}  // namespace klinzha::gui
