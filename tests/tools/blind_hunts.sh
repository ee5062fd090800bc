#!/usr/bin/env bash
# tests/tools/blind_hunts.sh: tools/match/blind_hunts.py on two-player Blind records of the
# engine "blind" against the random player (issue 28), hunts read off the movetext by hand.
# tests/data/blind_hunts.pgn: round 28 (blind Blue; Green's rook leaves the heart alone on
# g57 at ply 21, blind's moves at plies 22, 24, 26, 28 and 30, the last h56g57 taking it: a
# hunt of 5), round 5 (blind Green takes the heart carried by the pawn on i12: 0), round 135
# (lost) and round 360 (drawn by the move count: the longest hunt, 100 in the mean).
# tests/data/blind_hunts_vs.pgn: round 201 (the queen leaves the heart on g36 at ply 24,
# blind takes it at once: 1) and round 119 (drawn by the move count). Rank-sum by hand:
# ranks 0:1, 1:2, 5:3, the two draws 4.5 each; U = 8.5 - 6 = 2.5, mean 3, sd sqrt(3):
# z = -0.29. Armies reduced to pawns and walls: round 360 alone (blind ends with Pf26, Ph13,
# Pi12 and Wi88 beside its heart), drawn by the move count; none in the --vs records (round
# 119 keeps a rook and a knight to the end). Our last stand on the heart's cell before it came:
# round 28's g57 never (hunt 5), round 201's g36 never (1); round 119's heart came to g47 with
# Green's pawn (h46g47h, ply 38) one ply after blind's bishop, placed there at ply 5, left it
# (g47g36, ply 37): 1-10 plies, the draw (100); round 5's heart was taken carried and round
# 360 ends with its heart carried: neither counts.
# Our pieces (queens, rooks, bishops, knights) after 10 of our moves: only rounds 360 and 119
# last so long. Round 360 (blind Blue): Green's 4. N48xf15 takes the rook, 5. Nxf15 a knight,
# 6. ixi67 the other: queen and bishop, 2. Round 119 (blind Green): Blue's 6...hxh34 takes the
# knight that went there: 4. After 4 moves: round 5 (Green's fourth move takes the heart; Blue
# took nothing) 5, won; round 28 (Green's first four moves take nothing) 5, won; round 135
# (Blue's 1...N14xg47 takes the rook, 3...Nxg69 the queen) 3, lost; round 360 (4. N48xf15) 4,
# drawn; --vs round 119 (Blue's first three take nothing) 5, drawn; round 201 ends at move 3.
# Usage: blind_hunts.sh <repo> <build dir>
set -euo pipefail
repo="$1"
build="$2"
out="$(python3 "$repo/tools/match/blind_hunts.py" "$repo/tests/data/blind_hunts.pgn" \
  --vs "$repo/tests/data/blind_hunts_vs.pgn" --klinzha "$build/klinzha")"
echo "$out"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"
expect "records: games 4, won-lost-drawn 2-1-1 (move-count draws 1); hunts 3, mean 35.00 moves, 25 or more 1 (33.3%), 50 or more 1 (33.3%)"
expect "--vs: games 2, won-lost-drawn 1-0-1 (move-count draws 1); hunts 2, mean 50.50 moves, 25 or more 1 (50.0%), 50 or more 1 (50.0%)"
expect "records: lone hearts by our last stand on their cell before they came: never 1 (mean 5.0, 25 or more 0, 50 or more 0); 1-10 plies 0; 11-40 plies 0; 41+ plies 0"
expect "--vs: lone hearts by our last stand on their cell before they came: never 1 (mean 1.0, 25 or more 0, 50 or more 0); 1-10 plies 1 (mean 100.0, 25 or more 1, 50 or more 1); 11-40 plies 0; 41+ plies 0"
expect "records: armies reduced to pawns and walls: games 1, won-lost-drawn 0-0-1 (move-count draws 1)"
expect "--vs: armies reduced to pawns and walls: games 0, won-lost-drawn 0-0-0 (move-count draws 0)"
expect "rank-sum z of the hunts (above 0: the records hunt longer): -0.29"
expect "records: our pieces after 10 moves: games 1, mean 2.00; 2: 0-0-1 (move-count draws 1)"
expect "--vs: our pieces after 10 moves: games 1, mean 4.00; 4: 0-0-1 (move-count draws 1)"
out="$(python3 "$repo/tools/match/blind_hunts.py" "$repo/tests/data/blind_hunts.pgn" \
  --vs "$repo/tests/data/blind_hunts_vs.pgn" --klinzha "$build/klinzha" --pieces-after 4)"
echo "$out"
expect "records: our pieces after 4 moves: games 4, mean 4.25; 3: 0-1-0 (move-count draws 0); 4: 0-0-1 (move-count draws 1); 5: 2-0-0 (move-count draws 0)"
expect "--vs: our pieces after 4 moves: games 1, mean 5.00; 5: 0-0-1 (move-count draws 1)"
# A count of moves under 1 is refused with a message.
if python3 "$repo/tools/match/blind_hunts.py" "$repo/tests/data/blind_hunts.pgn" \
  --klinzha "$build/klinzha" --pieces-after 0 2>"${TMPDIR:-/tmp}/blind_hunts_pieces.err"; then
  echo "FAIL: --pieces-after 0 accepted"; failed=1
elif ! grep -q 'pieces-after must be at least 1' "${TMPDIR:-/tmp}/blind_hunts_pieces.err"; then
  echo "FAIL: --pieces-after 0 without its message"; failed=1
fi
rm -f "${TMPDIR:-/tmp}/blind_hunts_pieces.err"
# A klinzha that cannot run is an error with a message, not a crash.
expect_no_klinzha "$repo/tools/match/blind_hunts.py" "$repo/tests/data/blind_hunts.pgn"
exit $failed
