#!/usr/bin/env bash
# tests/tools/blind_hunt_starts.sh: tools/match/blind_hunt_starts.py (issue 28's benchmark of
# long hunts) on the records of tests/data/blind_hunts*.pgn, expected values read off the
# movetext by hand. `cut --min 5` keeps two: round 28 (blind Blue; Green's rook leaves the heart
# on g57 at ply 21 and blind takes it at its fifth move after: cut after 21 moves, HuntMoves
# 5) and round 119 (blind Green, drawn by the move count; Blue's queen carries the heart onto
# g47 at ply 38, h46g47h, and leaves it at ply 44, g47g68: cut after 44 moves; blind's moves
# 45, 47, ... 231: HuntMoves 94). Round 201's hunt of 1 is short, round 5's heart was taken
# carried, round 135 was lost, round 360 ends with the heart carried.
# `cut --reduced` keeps one: round 360 (blind Blue, drawn), where Green's bishop takes blind's
# last piece, its bishop on g58, at ply 75 (28. Bxg58; blind keeps three pawns and its wall):
# cut after 75 moves, Reduced 75. In the other five blind keeps a piece to the end.
# `cut --late` keeps two: round 360 (its last capture at ply 75, drawn by the move count at
# ply 175: the count reads 40 at ply 115, Late 115) and round 119 (its last capture at ply 131,
# drawn at ply 231: Late 171); no other record's count reaches 60.
# A run made of the records themselves (round 28 as game 1, round 119 as game 3: both from
# their own openings, blind in the record's seat): won-drawn-lost 1-1-0, hunts 5 and 100 (the
# draw), mean 52.50. A second run with the two swapped (round 119's record as game 1, in the
# other seat of opening 0, whose blind was Blue; round 28's as game 3, Blue where opening 1's
# blind was Green): both swapped, no own-seat pair.
# Signed-rank z of the differences 3, -1, 2, 0, 2 by hand: the zero dropped, |d| ranks 1, 2.5,
# 2.5, 4; W = -1 + 2.5 + 2.5 + 4 = 8; sd = sqrt(4 x 5 x 9 / 6) = sqrt(30): z = 1.4606.
# Usage: blind_hunt_starts.sh <repo> <build dir>
set -euo pipefail
repo="$1"
build="$2"
tool="$repo/tools/match/blind_hunt_starts.py"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"
# record FILE K: the K-th record of FILE (won_draws.games' split), on standard output.
record() {
  python3 -c "import sys; sys.path.insert(0, sys.argv[1])
from won_draws import games
print(list(games(sys.argv[2]))[int(sys.argv[3]) - 1])" "$repo/tools/match" "$1" "$2"
}
# cut_both ARGS...: the tool's `cut` of the two test files with ARGS (the mode and -o).
cut_both() {
  python3 "$tool" cut "$repo/tests/data/blind_hunts.pgn" "$repo/tests/data/blind_hunts_vs.pgn" \
    "$@" --klinzha "$build/klinzha"
}
# moves FILE: the moves of FILE's record (its `klinzha replay` lines less the first).
moves() { echo $(($("$build/klinzha" replay "$1" | awk 'NF == 9' | wc -l) - 1)); }
out="$(cut_both --min 5 -o "$dir/starts.pgn")"
echo "$out"
expect "2 openings written to $dir/starts.pgn"
out="$(cat "$dir/starts.pgn")"
expect '[Round "blind_hunts.pgn:28"]'
expect '[HuntMoves "5"]'
expect '[Round "blind_hunts_vs.pgn:119"]'
expect '[HuntMoves "94"]'
# klinzha reads the cut records: 21 and 44 moves (each a line of `klinzha replay`).
for k in 1 2; do
  record "$dir/starts.pgn" "$k" > "$dir/one.pgn"
  out="record $k: $(moves "$dir/one.pgn") moves"
  expect "$([ "$k" = 1 ] && echo 'record 1: 21 moves' || echo 'record 2: 44 moves')"
done
out="$(cut_both --reduced -o "$dir/reduced.pgn")"
expect "1 openings written to $dir/reduced.pgn"
out="$(cat "$dir/reduced.pgn")"
expect '[Round "blind_hunts.pgn:360"]'
expect '[Reduced "75"]'
out="reduced: $(moves "$dir/reduced.pgn") moves"
expect "reduced: 75 moves"
out="$(cut_both --late -o "$dir/late.pgn")"
expect "2 openings written to $dir/late.pgn"
out="$(cat "$dir/late.pgn")"
expect '[Round "blind_hunts.pgn:360"]'
expect '[Late "115"]'
expect '[Round "blind_hunts_vs.pgn:119"]'
expect '[Late "171"]'
record "$dir/late.pgn" 1 > "$dir/one.pgn"
out="late: $(moves "$dir/one.pgn") moves"
expect "late: 115 moves"
# --late-from 20: the same two stretches (the reach stays 60), each cut 20 plies after its
# last capture: round 360 at ply 75 + 20 = 95, round 119 at 131 + 20 = 151.
out="$(cut_both --late --late-from 20 -o "$dir/late20.pgn")"
expect "2 openings written to $dir/late20.pgn"
out="$(cat "$dir/late20.pgn")"
expect '[Late "95"]'
expect '[Late "151"]'
# A cut point at or past the reach is an error (exit 2), and writes nothing.
if cut_both --late --late-from 60 -o "$dir/late60.pgn" 2> "$dir/err"; then
  echo "FAIL: --late-from 60 with --late-reach 60 was not an error"; failed=1
else
  out="$(cat "$dir/err")"
  expect "--late-from must be at least 1 and less than --late-reach"
  [ -e "$dir/late60.pgn" ] && { echo "FAIL: --late-from 60 wrote a file"; failed=1; }
fi
# Runs made of the records (the Round tags rewritten as klinzha-match numbers its games).
sed 's/\[Round "28"\]/[Round "1"]/' "$repo/tests/data/blind_hunts.pgn" > "$dir/a.pgn"
sed 's/\[Round "119"\]/[Round "3"]/; s/\[Round "201"\]/[Round "4"]/' \
  "$repo/tests/data/blind_hunts_vs.pgn" >> "$dir/a.pgn"
python3 - "$repo/tools/match" "$dir/a.pgn" > "$dir/run1.pgn" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from won_draws import games, tag
print('\n'.join(r for r in games(sys.argv[2]) if tag(r, 'Round') in ('1', '3')))
PY
sed 's/\[Round "1"\]/[Round "X"]/; s/\[Round "3"\]/[Round "1"]/; s/\[Round "X"\]/[Round "3"]/' \
  "$dir/run1.pgn" > "$dir/run2.pgn"
out="$(python3 "$tool" compare "$dir/starts.pgn" "$dir/run1.pgn" "$dir/run2.pgn" --klinzha "$build/klinzha")"
echo "$out"
expect "$dir/run1.pgn, own seat: games 2, won-drawn-lost 1-1-0; hunts 2, mean 52.50, 25 or more 1, 50 or more 1"
expect "$dir/run2.pgn, swapped seat: games 2, won-drawn-lost 1-1-0; hunts 2, mean 52.50, 25 or more 1, 50 or more 1"
expect "own seat, opening by opening: 0 openings"
# Two groups of runs (--vs): the own seat's move-count draws of run1 twice against run1 once
# (its own-seat draw, blind_hunts.pgn's round 360, is the move-count draw): the same rates.
out="$(python3 "$tool" compare "$dir/starts.pgn" "$dir/run1.pgn" "$dir/run1.pgn" --vs "$dir/run1.pgn" \
  --klinzha "$build/klinzha" | tail -2)"
expect "own seat, move-count draws opening by opening (2 openings): the runs 2 of 4 (50.0%), the --vs runs 1 of 2 (50.0%); openings whose rates differ 0; Cochran-Mantel-Haenszel z +0.00"
# run1 holds no swapped-seat game: its line counts none.
expect "swapped seat, move-count draws opening by opening (0 openings): the runs 0 of 0 (0.0%), the --vs runs 0 of 0 (0.0%); openings whose rates differ 0; Cochran-Mantel-Haenszel z +0.00"
# run2 holds both games in the swapped seat, round 119's record (the move-count draw) in
# opening 0: the swapped seat's line counts them as the own seat's line counts run1's.
out="$(python3 "$tool" compare "$dir/starts.pgn" "$dir/run2.pgn" "$dir/run2.pgn" --vs "$dir/run2.pgn" \
  --klinzha "$build/klinzha" | tail -2)"
expect "own seat, move-count draws opening by opening (0 openings)"
expect "swapped seat, move-count draws opening by opening (2 openings): the runs 2 of 4 (50.0%), the --vs runs 1 of 2 (50.0%); openings whose rates differ 0; Cochran-Mantel-Haenszel z +0.00"
# Against the same run with that draw by repetition instead: in its opening 1 of 1 against 0 of
# 1 (expected 0.5, variance 1 x 1 x 1 x 1 / (2^2 x 1) = 0.25: z 0.5 / 0.5 = 1), the other
# opening drawn by neither.
sed 's/draw by the 50-moves-each rule/draw by third repetition/' "$dir/run1.pgn" > "$dir/rep.pgn"
out="$(python3 "$tool" compare "$dir/starts.pgn" "$dir/run1.pgn" --vs "$dir/rep.pgn" \
  --klinzha "$build/klinzha" | grep '^own seat, move-count')"
expect "own seat, move-count draws opening by opening (2 openings): the runs 1 of 2 (50.0%), the --vs runs 0 of 2 (0.0%); openings whose rates differ 1; Cochran-Mantel-Haenszel z +1.00"
out="$(python3 -c "import sys; sys.path.insert(0, '$repo/tools/match')
from blind_hunt_starts import signed_rank_z
print(f'z {signed_rank_z([3, -1, 2, 0, 2]):.4f}')")"
expect "z 1.4606"
# The Cochran-Mantel-Haenszel z, by hand: one stratum, 3 of 4 against 0 of 4: expected
# 4 x 3 / 8 = 1.5, variance 4 x 4 x 3 x 5 / (8^2 x 7) = 0.535714, z 1.5 / 0.731925 = 2.0494;
# with a second, 1 of 10 against 1 of 10 (expected 1, variance 10 x 10 x 2 x 18 / (20^2 x 19)
# = 0.473684), z 1.5 / sqrt(1.009398) = 1.4930; a stratum with one group empty adds nothing.
out="$(python3 -c "import sys; sys.path.insert(0, '$repo/tools/match')
from blind_hunt_starts import cmh_z
print(f'cmh {cmh_z([(3, 4, 0, 4)]):.4f} {cmh_z([(3, 4, 0, 4), (1, 10, 1, 10), (2, 3, 0, 0)]):.4f} '
      f'{cmh_z([(0, 4, 3, 4)]):.4f} {cmh_z([(1, 2, 1, 2)]):.4f}')")"
expect "cmh 2.0494 1.4930 -2.0494 0.0000"
# A run whose rounds name no opening is an error with a message (exit 2).
sed 's/\[Round "1"\]/[Round "9"]/' "$dir/run1.pgn" > "$dir/bad.pgn"
if python3 "$tool" compare "$dir/starts.pgn" "$dir/bad.pgn" --klinzha "$build/klinzha" 2> "$dir/err"; then
  echo "FAIL: a run naming no opening was not an error"; failed=1
else
  out="$(cat "$dir/err")"
  expect "round 9 names no opening"
fi
# klinzha-match plays from the cut records under Blind: each game's record starts with its
# opening's moves (the referee told them as the arbiter), four games from two openings.
"$build/klinzha-match" -engine "cmd=$build/klinzha" name=blind depth=1 \
  -engine "cmd=$build/klinzha --Baseline random" name=random depth=1 -rule Blind=true -games 4 \
  -openings file="$dir/starts.pgn" plies=100000 order=sequential -maxmoves 40 -ratinginterval 0 \
  -pgnout "$dir/run.pgn" > "$dir/match.txt" 2>&1 || { cat "$dir/match.txt"; failed=1; }
for k in 1 2 3 4; do
  python3 - "$repo/tools/match" "$dir/run.pgn" "$k" > "$dir/game.pgn" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from won_draws import games, tag
print(next(r for r in games(sys.argv[2]) if tag(r, 'Round') == sys.argv[3]))
PY
  record "$dir/starts.pgn" "$(( (k + 1) / 2 ))" > "$dir/one.pgn"
  "$build/klinzha" replay "$dir/one.pgn" | awk 'NF == 9 { print $1 }' | tail -n +2 > "$dir/opening.txt"
  n=$(wc -l < "$dir/opening.txt")
  "$build/klinzha" replay "$dir/game.pgn" | awk 'NF == 9 { print $1 }' | tail -n +2 | head -n "$n" \
    > "$dir/played.txt"
  if cmp -s "$dir/opening.txt" "$dir/played.txt" && [ "$n" -gt 20 ]; then
    echo "PASS: game $k starts with its opening's $n moves"
  else
    echo "FAIL: game $k does not start with its opening's moves"; failed=1
  fi
done
# -setups under Blind is refused at once (each game would fail to start, and counted a draw).
echo "2 Hi99,Qh78,Rf59,Bi56,Nf69,Ni67,Pg69,Pg79,Pi89,Wi88 Hi11,Qh12,Rf15,Bi45,Nf14,Ni34,Pg13,Pg14,Pi12,Wi22 - g play 0 1" \
  > "$dir/setups.txt"
if "$build/klinzha-match" -engine "cmd=$build/klinzha" name=a depth=1 -engine "cmd=$build/klinzha" \
  name=b depth=1 -rule Blind=true -games 2 -setups "$dir/setups.txt" > "$dir/setups.out" 2>&1; then
  echo "FAIL: -setups under Blind was not refused"; failed=1
else
  out="$(cat "$dir/setups.out")"
  expect "-setups under Blind: a blind game starts from the empty board"
fi
expect_no_klinzha "$tool" cut "$repo/tests/data/blind_hunts.pgn" -o "$dir/x.pgn"
exit $failed
