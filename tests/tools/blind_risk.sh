#!/usr/bin/env bash
# tests/tools/blind_risk.sh: tools/match/blind_risk.py on the four two-player Blind records of
# tests/data/blind_hunts.pgn (the engine "blind" against the random player; one lost by its
# heart, round 135), against the same measure computed here another way: every position of
# `klinzha replay` where the random player is to move in play, its legal moves counted by the
# command line's `klinzha perft 1` (not the UCI `go perft` the tool uses), those ending on
# blind's heart cell picked out by awk, and P = 1 - prod(1 - p) summed over the games.
# Usage: blind_risk.sh <repo> <build dir>
set -euo pipefail
repo="$1"
build="$2"
k="$build/klinzha"
pgn="$repo/tests/data/blind_hunts.pgn"
out="$(python3 "$repo/tools/match/blind_risk.py" "$pgn" --vs "$repo/tests/data/blind_hunts_vs.pgn" \
  --klinzha "$k")"
echo "$out"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"

# blind's colour per game (g or b), in the file's order.
mapfile -t colour < <(grep -o '^\[Green "[^"]*"\]' "$pgn" | sed 's/.*"blind".*/g/; s/.*"random".*/b/')
# Per game: the opponent's turns in play, each "game<TAB>position<TAB>heart cell".
# Each turn also gets its played move (the first field of the next position line) and our
# other men's cells (for the model check: captures of them).
game=0
turns=()
pending=""
while read -r line; do
  set -- $line
  if [ "$1" = game ]; then game=$2; pending=""; continue; fi
  [ $# -eq 9 ] || continue
  if [ -n "$pending" ]; then turns+=("$pending	$1"); pending=""; fi
  me="${colour[$((game - 1))]}"
  [ "$7" = play ] && [ "$6" != "$me" ] || continue
  if [ "$me" = g ]; then ours="$3"; theirs="$4"; else ours="$4"; theirs="$3"; fi
  heart="$(tr ',' '\n' <<< "$ours" | sed -n 's/^H//p')"
  [ -n "$heart" ] || continue
  left="$(tr ',' '\n' <<< "$theirs" | grep -c '^[QRBNPW]' || true)"
  others="$(tr ',' '\n' <<< "$ours" | sed -n 's/^[QRBNPW]//p' | grep -v "^$heart\$" | tr '\n' ' ')"
  pending="$game	$2 $3 $4 $5 $6 $7 $8 $9	$heart	$left	$others"
done < <("$k" replay "$pgn")
shares=""
by_men=""
checks=""
for t in "${turns[@]}"; do
  IFS=$'\t' read -r g pos heart left others played <<< "$t"
  counts="$("$k" perft 1 "$pos" | awk -v h="$heart" -F: '/^[a-z0-9@]+: [0-9]+$/ {n++; m=$1; sub(/h$/, "", m);
            if (substr(m, length(m) - 2) == h) t++} END {print n + 0, t + 0}')"
  shares+="$g $counts"$'\n'
  by_men+="$left $counts"$'\n'
  # Model check: the share of moves onto our other men, and what the played move hit.
  caps="$("$k" perft 1 "$pos" | awk -v o=" $others" -F: '/^[a-z0-9@]+: [0-9]+$/ {n++; m=$1;
            sub(/h$/, "", m); if (index(o, " " substr(m, length(m) - 2) " ")) c++}
            END {print n + 0, c + 0}')"
  p="${played%h}"
  checks+="$counts $caps $([ "${p: -3}" = "$heart" ] && echo 1 || echo 0) $(case " $others" in *" ${p: -3} "*) echo 1;; *) echo 0;; esac)"$'\n'
done
want="$(awk 'NF == 3 && $2 > 0 {if (!($1 in s)) s[$1] = 1; s[$1] *= 1 - $3 / $2; n++; p += $3 / $2}
             END {for (g in s) e += 1 - s[g]; printf "expected %.2f", e;
                  printf " +- X; opponent turns %d, mean p %.5f\n", n, p / n}' <<< "$shares")"
echo "computed here: $want"
expect "records: games 4, heart losses 1, ${want%% +- X*}"
# Per count of the random player's men left (its heart aside, read from the position's
# field): its turns, the sum of p, and that per 1,000 turns, most men first.
men_want="$(awk 'NF == 3 && $2 > 0 {t[$1]++; e[$1] += $3 / $2}
                 END {for (k = 9; k >= 0; k--) if (k in t)
                        printf "%s%d men %d turns %.2f (%.2f per 1,000)", (n++ ? "; " : ""),
                               k, t[k], e[k], 1000 * e[k] / t[k]; print ""}' <<< "$by_men")"
echo "computed here: $men_want"
expect "records by the opponent's men left (its heart aside): $men_want"
expect "opponent turns ${want##*opponent turns }"
# The model check: per kind, the sum of the shares, the binomial z of the moves played.
check_want="$(awk 'NF == 6 && $1 > 0 {h = $2 / $1; c = $4 / $3; eh += h; vh += h * (1 - h); ph += $5;
                   ec += c; vc += c * (1 - c); pc += $6}
                   END {printf "moves onto the heart expected %.2f, played %d (z %+.2f); ", eh, ph,
                          (vh > 0 ? (ph - eh) / sqrt(vh) : 0);
                        printf "captures of our other men expected %.2f, played %d (z %+.2f)\n", ec,
                          pc, (vc > 0 ? (pc - ec) / sqrt(vc) : 0)}' <<< "$checks")"
echo "computed here: $check_want"; [ -n "$check_want" ] || { echo "FAIL: no model check computed"; failed=1; }
expect "records model check (the opponent uniform over its legal moves): $check_want"
# Round 135 was lost to a capture of the heart: the last turn's p is above 0, so is the sum.
if awk '{e += $0} END {exit !(e > 0)}' <<< "$(sed -n 's/.*expected \([0-9.]*\) .*/\1/p' <<< "${out%%$'\n'*}")"; then
  echo "PASS: expected losses above 0"
else
  echo "FAIL: expected losses 0 in records with a heart lost"; failed=1
fi
expect "z of the expected losses per game"
# A klinzha that cannot run is an error with a message, not a crash.
expect_no_klinzha "$repo/tools/match/blind_risk.py" "$pgn"
exit $failed
