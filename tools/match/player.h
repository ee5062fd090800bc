// tools/match/player.h: a participant of a refereed game. ProcessPlayer runs an engine as
// a child process speaking the protocol of SPEC 13 over pipes, in a process group of its
// own (a terminal's Ctrl-C reaches the runner, not the engines; the runner ends them); tests
// substitute scripted players through the same interface.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace klinzha::match {

/// An engine as given on the command line: `-engine cmd=... name=... option.X=v`.
struct EngineSpec {
    std::string name;
    std::string cmd;  ///< run with /bin/sh -c, so it may hold arguments
    std::vector<std::pair<std::string, std::string>> options;
    int depth = 0;            ///< `depth=N`: this engine searches to depth N (0: the match's)
    std::uint64_t nodes = 0;  ///< `nodes=N`: this engine searches N nodes (0: the match's)
    std::int64_t handshake_ms = 10000;  ///< wait this long for `uciok` and `readyok`
};

/// The answer to one `go`. Timeout: no bestmove in time; Crash: the process died or closed
/// its output. cp / mate: the score of the last `info` line, if any.
struct Reply {
    /// Resign: the player gives up (a person in klinzha-gui): out as on flag fall (SPEC 7).
    enum Status { Ok, Timeout, Crash, Resign } status = Ok;
    std::string move;
    std::int64_t ms = 0;
    std::optional<int> cp;
    std::optional<int> mate;
    std::optional<int> depth;  ///< of the last `info` line with a depth
};

class Player {
  public:
    virtual ~Player() = default;
    virtual std::string name() const = 0;
    /// Starts (or restarts) the engine and does the handshake: `uci`, the options, `isready`.
    /// Returns an error (no answer in time, or an option the engine rejects with an `info
    /// string error` line) or nullopt.
    virtual std::optional<std::string> start() = 0;
    /// `ucinewgame` and `isready`; false if the engine does not answer.
    virtual bool new_game() = 0;
    /// Sends `isready` and takes every line up to `readyok` off the pipe (so that no answer
    /// is read across a `go` boundary), then `position_cmd` and `go_cmd`, and waits up to
    /// timeout_ms for `bestmove`. After a timeout it sends `stop` and waits a second for the
    /// late `bestmove`; an engine that does not send it is ended (alive() false, so the
    /// referee restarts it before its next game).
    virtual Reply go(const std::string& position_cmd, const std::string& go_cmd,
                     std::int64_t timeout_ms) = 0;
    /// True while the engine process is usable.
    virtual bool alive() const = 0;
};

class ProcessPlayer : public Player {
  public:
    explicit ProcessPlayer(EngineSpec spec) : spec_(std::move(spec)) {}
    ~ProcessPlayer() override;
    std::string name() const override { return spec_.name; }
    std::optional<std::string> start() override;
    bool new_game() override;
    Reply go(const std::string& position_cmd, const std::string& go_cmd,
             std::int64_t timeout_ms) override;
    bool alive() const override { return pid_ > 0 && !dead_; }
    /// The engine's process id (its process group too), -1 when none runs.
    pid_t pid() const { return pid_; }
    /// Raw protocol access for `--compliance` (compliance.h): send one line; read one line
    /// within ms (nullopt on timeout or when the engine closed its output).
    bool send_line(const std::string& line) { return send(line); }
    std::optional<std::string> read_line_within(std::int64_t ms) { return read_line(ms); }
    /// Starts the process without any handshake (compliance checks the handshake itself):
    /// `/bin/sh -c "exec <cmd>"` by posix_spawn, in a process group of its own, its standard
    /// input and output on close-on-exec pipes (so no engine started later, by any thread,
    /// inherits them). Safe to call from any thread of a threaded process. Returns an
    /// error text when the pipes or the spawn fail (a command that does not exist shows
    /// later, as the shell's exit: alive() turns false at the first read).
    std::optional<std::string> spawn();

  private:
    std::optional<std::string> handshake();
    bool send(const std::string& line);
    /// Reads one line within ms; nullopt on timeout or end of output (then dead_ is set).
    std::optional<std::string> read_line(std::int64_t ms);
    std::optional<std::string> wait_for(const std::string& prefix, std::int64_t ms);
    void kill_process();

    EngineSpec spec_;
    pid_t pid_ = -1;
    int to_ = -1, from_ = -1;
    bool dead_ = false;
    std::string buf_;
};

}  // namespace klinzha::match
