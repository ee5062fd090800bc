// tests/protocol/session.h: an in-process UCI session whose output lines are collected,
// with a wait for a line (the search answers from its own thread).
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "uci.h"

namespace klinzha::testutil {

class Session {
  public:
    /// write_delay: how long each write returns after its line can be read (a slow pipe).
    explicit Session(std::chrono::milliseconds write_delay = std::chrono::milliseconds(0))
        : uci_([this, write_delay](std::string_view s) {
              {
                  std::lock_guard lock(m_);
                  std::string l(s);
                  if (!l.empty() && l.back() == '\n') l.pop_back();
                  lines_.push_back(l);
              }
              cv_.notify_all();
              if (write_delay.count() > 0) std::this_thread::sleep_for(write_delay);
          }) {}

    /// Sends one line; returns handle_command's result.
    bool send(const std::string& line) { return uci_.handle_command(line); }

    /// Lines received so far (copy).
    std::vector<std::string> lines() {
        std::lock_guard lock(m_);
        return lines_;
    }
    void clear() {
        std::lock_guard lock(m_);
        lines_.clear();
    }
    /// Waits up to ms for a line starting with prefix; returns it or "".
    std::string wait_for(const std::string& prefix, int ms = 20000) {
        std::unique_lock lock(m_);
        std::string found;
        cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] {
            for (const auto& l : lines_)
                if (l.rfind(prefix, 0) == 0) {
                    found = l;
                    return true;
                }
            return false;
        });
        return found;
    }
    /// Lines starting with prefix.
    std::vector<std::string> with_prefix(const std::string& prefix) {
        std::vector<std::string> r;
        for (const auto& l : lines())
            if (l.rfind(prefix, 0) == 0) r.push_back(l);
        return r;
    }
    uci::UciSession& uci() { return uci_; }

    /// Checks the UCI rule for `go infinite` / `go ponder`: after `go_line` no bestmove comes
    /// within wait_ms; after `release` (`stop` or `ponderhit`) one comes within answer_ms.
    /// Clears the output first and waits for the search thread at the end.
    void expect_bestmove_only_after(const std::string& go_line, int wait_ms,
                                    const std::string& release, int answer_ms) {
        clear();
        send(go_line);
        std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
        CAPTURE(go_line);
        CHECK(with_prefix("bestmove").empty());
        send(release);
        CHECK_FALSE(wait_for("bestmove ", answer_ms).empty());
        uci().engine().wait();
    }

    /// Sends a bad line and checks the answer is exactly one `info string error: ` line
    /// (starting with error_prefix) that contains `why`.
    void expect_one_error(const std::string& line, const std::string& why,
                          const std::string& error_prefix = "info string error: ") {
        clear();
        send(line);
        auto l = lines();
        CAPTURE(line);
        REQUIRE(l.size() == 1);
        CHECK(l[0].rfind(error_prefix, 0) == 0);
        CHECK(l[0].find(why) != std::string::npos);
    }

  private:
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<std::string> lines_;
    uci::UciSession uci_;
};

}  // namespace klinzha::testutil
