#!/usr/bin/env bash
# tests/tools/first_heart.sh: tools/match/first_heart.py on two three-player records of
# tests/data/first_heart.pgn (issue 28's bar, engines renamed "new" and "old"), whose first
# heart capture is read off the movetext by hand: in the first game Blue (new, one seat)
# plays 5... NxHg69 on Green's heart (placed Hg79, carried 4. Hg69) and wins 0-1-0, so new
# took the first heart and converted it, Green (old) lost its heart first and Black (old)
# saw the two others meet first; in the second game (drawn by repetition) no heart fell.
# Usage: first_heart.sh <repo> <build dir>
set -euo pipefail
repo="$1"
build="$2"
out="$(python3 "$repo/tools/match/first_heart.py" "$repo/tests/data/first_heart.pgn" \
  --klinzha "$build/klinzha")"
echo "$out"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"
expect "new, one seat: 1 seats: took the first heart 1 (100%; won-drawn-lost 1-0-0)"
expect "new, two seats: 2 seats: no heart taken 2 (100%; won-drawn-lost 0-2-0)"
expect "old, two seats: 2 seats: its heart taken first 1 (50%; won-drawn-lost 0-0-1); the two others first 1 (50%; won-drawn-lost 0-0-1)"
expect "old, one seat: 1 seats: no heart taken 1 (100%; won-drawn-lost 0-1-0)"
exit $failed
