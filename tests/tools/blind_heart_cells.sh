#!/usr/bin/env bash
# tests/tools/blind_heart_cells.sh: tools/match/blind_heart_cells.py on one two-player Blind
# record, counted by hand from its movetext. tests/data/blind_heart_cells.pgn (round 28 of
# tests/data/blind_hunts.pgn): Green's rook leaves its heart alone on g57, in Green's region, at
# ply 21; blind (Blue) is to move at plies 21, 23, 25, 27 and 29 (halfmove 1, 3, 5, 1, 3: a
# capture at ply 26), and takes the heart at ply 30. So 5 positions, all in the first bucket,
# the heart each time on a region cell none of Blue's men has stood on (5 hits); the 6 cells
# one step from Green's region (the separators i55 h46 g46 f47 f48 e59) free at all 5: 30
# cells, no hit; and one region cell stood on under 40 plies before: g47 at ply 29, where
# Blue's knight took the rook at ply 26 and which it left at ply 28 (h78, also Green's, still
# holds the other knight).
# Usage: blind_heart_cells.sh <repo> <build dir>
set -euo pipefail
repo="$1"
build="$2"
out="$(python3 "$repo/tools/match/blind_heart_cells.py" "$repo/tests/data/blind_heart_cells.pgn" \
  --klinzha "$build/klinzha")"
echo "$out"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"
expect "halfmove 0-14: positions 5"
expect "0 steps, never stood on: cells"
expect ", hits 5, rate"
expect "1 steps, never stood on: cells 30, hits 0,"
expect "region, stood on <40 plies ago: cells 1, hits 0,"
expect "halfmove 15-29: positions 0"
expect "halfmove 60 or more: positions 0"
# A klinzha that cannot run is an error with a message, not a crash.
expect_no_klinzha "$repo/tools/match/blind_heart_cells.py" "$repo/tests/data/blind_heart_cells.pgn"
exit $failed
