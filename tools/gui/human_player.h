// tools/gui/human_player.h: a person at the board as one more kind of match::Player, so
// that a game in the GUI is refereed by the same code as a match (tools/match/referee.h).
// The referee's go() blocks until the page submits a move (already checked legal by the
// room), the person resigns, the clock runs out, the seat has stood empty too long, or the
// game is abandoned.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "player.h"

namespace klinzha::gui {

class HumanPlayer : public match::Player {
  public:
    /// `absent`, if set, is asked about every 250 ms while go() waits: true when nobody has
    /// sat at this seat for longer than the room allows; go() then returns Timeout (the
    /// referee scores it as a flag fall, SPEC 7).
    explicit HumanPlayer(std::string name, std::function<bool()> absent = {})
        : name_(std::move(name)), absent_(std::move(absent)) {}
    std::string name() const override { return name_; }
    std::optional<std::string> start() override { return std::nullopt; }
    bool new_game() override { return true; }
    bool alive() const override { return true; }

    /// Waits up to timeout_ms for submit(), resign() or abandon(); Timeout when none comes
    /// (or the seat is absent), Resign after resign(), Crash when abandoned (the referee then
    /// ends the game as abandoned: GameConfig::abandon is set first).
    match::Reply go(const std::string&, const std::string&, std::int64_t timeout_ms) override {
        const auto t0 = std::chrono::steady_clock::now();
        const auto deadline = t0 + std::chrono::milliseconds(timeout_ms);
        std::unique_lock lock(m_);
        waiting_ = true;
        bool got = false, absent = false;
        while (true) {
            got = cv_.wait_until(lock, std::min(deadline, std::chrono::steady_clock::now() + kPoll),
                                 [&] { return move_.has_value() || abandoned_ || resigned_; });
            if (got || std::chrono::steady_clock::now() >= deadline) break;
            if (absent_) {
                lock.unlock();
                absent = absent_();
                lock.lock();
                if (absent) break;
            }
        }
        waiting_ = false;
        match::Reply r;
        r.ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
        if (abandoned_) {
            r.status = match::Reply::Crash;
        } else if (resigned_) {
            r.status = match::Reply::Resign;
        } else if (!got || absent) {
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
    /// The person gives up: go() returns Resign, now or at the person's next turn.
    void resign() {
        std::lock_guard lock(m_);
        resigned_ = true;
        cv_.notify_all();
    }
    /// Ready to play again after abandon() (the referee starts again after a take-back).
    void reset() {
        std::lock_guard lock(m_);
        abandoned_ = resigned_ = waiting_ = false;
        move_.reset();
    }
    /// Makes go() return at once, now and later (the game is being abandoned).
    void abandon() {
        std::lock_guard lock(m_);
        abandoned_ = true;
        cv_.notify_all();
    }

  private:
    static constexpr std::chrono::milliseconds kPoll{250};
    std::string name_;
    std::function<bool()> absent_;
    mutable std::mutex m_;
    std::condition_variable cv_;
    std::optional<std::string> move_;
    bool waiting_ = false;
    bool abandoned_ = false;
    bool resigned_ = false;
};

}  // namespace klinzha::gui
