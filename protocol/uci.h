// protocol/uci.h: the UCI dialect of SPEC 13 as a command loop over any streams.
//
// handle_command() takes one input line; everything the engine says goes through one
// synchronized OutputSink (injectable, so tests need no pipes). The search runs on its own
// thread, so isready, stop and quit are answered while it thinks. Malformed input gets
// exactly one `info string error: ...` line and changes nothing.
#pragma once

#include <thread>

#include <atomic>

#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "options.h"
#include "search/engine.h"

namespace spdlog {
class logger;
}

namespace klinzha::uci {

/// The one writer of protocol lines: each line() call writes `s` and a newline as one unit,
/// from any thread, and copies it to the debug log when one is open.
class OutputSink {
  public:
    using Writer = std::function<void(std::string_view)>;
    explicit OutputSink(Writer w) : write_(std::move(w)) {}
    void line(std::string_view s);
    /// Logs an input line to the debug log (if open).
    void log_input(std::string_view s);
    /// Opens the debug log file at path ("" closes it). Returns an error or nullopt.
    std::optional<std::string> set_log_file(const std::string& path);

  private:
    std::mutex mutex_;
    Writer write_;
    std::shared_ptr<spdlog::logger> log_;
};

class UciSession {
  public:
    /// write receives whole protocol lines, newline included.
    explicit UciSession(OutputSink::Writer write);
    ~UciSession();

    /// Handles one input line. Returns false once `quit` has been handled.
    bool handle_command(std::string_view line);
    /// Reads lines from in until `quit` or end of input, then stops any search.
    void loop(std::istream& in);
    /// Applies an option as setoption would (used by the command line). Errors as text.
    OptionResult set_option(std::string_view name, std::string_view value);

    Engine& engine() { return *engine_; }
    /// Waits until a running `go perft` or `bench` has finished (does not stop it).
    void wait_task() {
        if (task_.joinable()) task_.join();
    }
    OutputSink& sink() { return sink_; }

  private:
    void cmd_uci();
    void cmd_setoption(const std::vector<std::string>& t);
    void cmd_position(const std::vector<std::string>& t);
    void cmd_go(const std::vector<std::string>& t);
    void cmd_bench(const std::vector<std::string>& t);
    void cmd_combat(const std::vector<std::string>& t);
    void error(const std::string& what);

    OutputSink sink_;
    std::unique_ptr<Engine> engine_;
    OptionContext ctx_;
    /// The last `position` was rejected: `go` answers with an error and `bestmove 0000`
    /// until a valid `position` arrives, rather than play for the earlier position.
    bool position_rejected_ = false;
    /// `go perft` and `bench` run here, so that `isready`, `stop` and `quit` are answered.
    std::thread task_;
    std::atomic<bool> task_running_{false};
    std::atomic<bool> task_stop_{false};
    /// True while a search, `go perft` or `bench` runs.
    bool busy() const { return engine_->searching() || task_running_.load(); }
    /// Starts fn on the task thread (a finished earlier task is joined first). fn writes its
    /// lines and returns the last one, which is written after `busy()` turns false, as
    /// bestmove is after a search: a client may send `go` the moment it reads it.
    void run_task(std::function<std::string()> fn);
    /// Stops the search and any task, and waits for both.
    void stop_all();
};

/// Formats a search report as an `info` line (SPEC 13).
std::string info_line(const SearchInfo& info);

}  // namespace klinzha::uci
