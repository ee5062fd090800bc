// tools/match/compliance.h: `klinzha-match --compliance ENGINE` (as fastchess's): checks that
// an engine answers the protocol of docs/protocol.md (SPEC 13) the way the runner and GUIs
// rely on, and says what fails.
//
// Checks, in order: the handshake (`id name`, `uciok`), every declared option set to its
// default without an error, `isready`, `ucinewgame`, a legal `bestmove` in every phase
// (placement, heart, play; positions given by `position startpos moves ...` through the
// setup), `isready` answered and `stop` obeyed during `go infinite` (which must not answer
// before `stop`), a `go` whose clocks omit the mover's (it must still answer), `go movetime`
// kept, a malformed line survived, and `quit` ending the process.
#pragma once

#include <ostream>
#include <string>

namespace klinzha::match {

/// Runs the checks on the engine started by `cmd` (through /bin/sh -c), writing one line per
/// check (`PASS <check>` or `FAIL <check>: <why>`) and a summary to `out`. Returns the
/// number of failed checks (0: compliant). `players` picks the start position (2 or 3).
int check_compliance(const std::string& cmd, int players, std::ostream& out);

}  // namespace klinzha::match
