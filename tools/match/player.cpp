// tools/match/player.cpp: see player.h.
#include "player.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <sstream>
#include <vector>

extern char** environ;

namespace klinzha::match {

using Clock = std::chrono::steady_clock;

ProcessPlayer::~ProcessPlayer() {
    if (alive()) send("quit");
    kill_process();
}

void ProcessPlayer::kill_process() {
    if (to_ >= 0) close(to_);
    if (from_ >= 0) close(from_);
    to_ = from_ = -1;
    if (pid_ > 0) {
        // Give a quitting engine a moment, then make sure it is gone.
        for (int i = 0; i < 50; ++i) {
            if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
                pid_ = -1;
                break;
            }
            usleep(2000);
        }
        if (pid_ > 0) {
            kill(-pid_, SIGKILL);  // the engine's whole process group
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    pid_ = -1;
    buf_.clear();
}

std::optional<std::string> ProcessPlayer::start() {
    if (auto err = spawn()) return err;
    return handshake();
}

std::optional<std::string> ProcessPlayer::spawn() {
    kill_process();
    signal(SIGPIPE, SIG_IGN);
    dead_ = false;
    // posix_spawn, not fork: between fork and exec a child of a threaded process may only
    // call async-signal-safe functions, and the runner and the GUI spawn engines from many
    // threads (a fork that built the command string in the child deadlocked under
    // ThreadSanitizer, its allocator's lock held by another thread). The pipes are
    // close-on-exec, so no engine started later, by any thread, inherits this engine's
    // ends of them (which kept its input open after the runner closed it).
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
    if (pipe2(out, O_CLOEXEC) != 0) {
        const int e = errno;
        close(in[0]);
        close(in[1]);
        return std::string("pipe: ") + std::strerror(e);
    }
    const std::string command = "exec " + spec_.cmd;
    char sh[] = "/bin/sh", dash_c[] = "-c";
    std::vector<char> cmd(command.begin(), command.end());
    cmd.push_back('\0');
    char* argv[] = {sh, dash_c, cmd.data(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);  // dup2 clears close-on-exec
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawnattr_init(&attr);
    // A group of its own (a terminal's Ctrl-C is the runner's to handle; kill_process ends
    // the whole group), and SIGPIPE as the default again for the engine.
    sigset_t dflt;
    sigemptyset(&dflt);
    sigaddset(&dflt, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &dflt);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, sh, &actions, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(out[1]);
    if (rc != 0) {
        close(in[1]);
        close(out[0]);
        return std::string("posix_spawn: ") + std::strerror(rc);
    }
    pid_ = pid;
    to_ = in[1];
    from_ = out[0];
    return std::nullopt;
}

std::optional<std::string> ProcessPlayer::handshake() {
    const std::string who = "engine '" + spec_.name + "' (" + spec_.cmd + ")";
    if (!send("uci") || !wait_for("uciok", spec_.handshake_ms)) {
        const bool died = dead_;
        kill_process();
        return who +
               (died ? " exited before answering uci (is the command right?)"
                     : " did not answer uci within " + std::to_string(spec_.handshake_ms) + " ms");
    }
    for (const auto& [k, v] : spec_.options)
        if (!send("setoption name " + k + " value " + v)) {
            kill_process();
            return who + " died during setoption";
        }
    if (!send("isready")) {
        kill_process();
        return who + " died during setoption";
    }
    // Every line up to readyok: an `info string error` answers a rejected option.
    const auto deadline = Clock::now() + std::chrono::milliseconds(spec_.handshake_ms);
    while (true) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        auto line = read_line(std::max<std::int64_t>(left, 0));
        if (!line) {
            kill_process();
            return who + " did not answer isready within " + std::to_string(spec_.handshake_ms) +
                   " ms";
        }
        if (*line == "readyok") return std::nullopt;
        if (line->rfind("info string error", 0) == 0) {
            kill_process();
            return who +
                   " rejected an option: " + line->substr(std::min<std::size_t>(12, line->size()));
        }
    }
}

bool ProcessPlayer::new_game() {
    return send("ucinewgame") && send("isready") &&
           wait_for("readyok", spec_.handshake_ms).has_value();
}

bool ProcessPlayer::send(const std::string& line) {
    if (!alive()) return false;
    std::string l = line + "\n";
    if (write(to_, l.data(), l.size()) != ssize_t(l.size())) {
        dead_ = true;
        return false;
    }
    return true;
}

std::optional<std::string> ProcessPlayer::read_line(std::int64_t ms) {
    auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    while (true) {
        auto nl = buf_.find('\n');
        if (nl != std::string::npos) {
            std::string line = buf_.substr(0, nl);
            buf_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (!alive()) return std::nullopt;
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return std::nullopt;
        pollfd p{from_, POLLIN, 0};
        int r = poll(&p, 1, int(std::min<std::int64_t>(left, 1 << 30)));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        char chunk[4096];
        ssize_t n = read(from_, chunk, sizeof chunk);
        if (n <= 0) {
            dead_ = true;
            return std::nullopt;
        }
        buf_.append(chunk, std::size_t(n));
    }
}

std::optional<std::string> ProcessPlayer::wait_for(const std::string& prefix, std::int64_t ms) {
    auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    while (true) {
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        auto line = read_line(std::max<std::int64_t>(left, 0));
        if (!line) return std::nullopt;
        if (line->rfind(prefix, 0) == 0) return line;
    }
}

Reply ProcessPlayer::go(const std::string& position_cmd, const std::string& go_cmd,
                        std::int64_t timeout_ms) {
    Reply r;
    // Synchronise first: whatever the engine still had to say (a late bestmove of an
    // earlier search) is read and dropped here, never taken as this go's answer.
    if (!send("isready") || !wait_for("readyok", spec_.handshake_ms)) {
        r.status = Reply::Crash;
        return r;
    }
    auto t0 = Clock::now();
    if (!send(position_cmd) || !send(go_cmd)) {
        r.status = Reply::Crash;
        return r;
    }
    auto deadline = t0 + std::chrono::milliseconds(timeout_ms);
    while (true) {
        auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        auto line = read_line(std::max<std::int64_t>(left, 0));
        r.ms = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count();
        if (!line) {
            if (dead_ || !alive()) {
                r.status = Reply::Crash;
            } else {
                r.status = Reply::Timeout;
                send("stop");  // take the late bestmove off the pipe, if it comes
                if (!wait_for("bestmove", 1000)) kill_process();  // restarted before next use
            }
            return r;
        }
        std::istringstream in(*line);
        std::string word;
        in >> word;
        if (word == "info") {
            while (in >> word) {
                if (word == "depth") {
                    int d = 0;
                    if (in >> d) r.depth = d;
                    continue;
                }
                if (word != "score") continue;
                std::string kind;
                int v = 0;
                if (in >> kind >> v) {
                    if (kind == "cp") r.cp = v, r.mate.reset();
                    if (kind == "mate") r.mate = v, r.cp.reset();
                }
            }
        } else if (word == "bestmove") {
            in >> r.move;
            return r;
        }
    }
}

}  // namespace klinzha::match
