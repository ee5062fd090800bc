#!/usr/bin/env bash
# tests/tools/blind_trace.sh: tools/match/blind_trace.py on the two Blind records of
# tests/data/blind_trace.pgn (the engine "blind" against the random player, one as Green and
# one as Blue, with captures both ways and refused proposals). The engine checks every token
# and refusal the tool builds (a wrong one is an `info string error`, and the tool fails);
# here its lines are compared with the record read another way: `klinzha replay`'s positions
# by awk give blind's turns of play, the opposing heart's cell and whether a man stands on it,
# and the move played; grep gives the refusals of the record's comments.
# Usage: blind_trace.sh <repo> <build dir>
set -euo pipefail
repo="$1"
build="$2"
k="$build/klinzha"
tool="$repo/tools/match/blind_trace.py"
pgn="$repo/tests/data/blind_trace.pgn"
# shellcheck source=expect.sh
source "$(dirname "$0")/expect.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

mapfile -t rounds < <(grep -o '^\[Round "[0-9]*"\]' "$pgn" | tr -dc '0-9\n')
mapfile -t colour < <(grep -o '^\[Green "[^"]*"\]' "$pgn" | sed 's/.*"blind".*/g/; s/.*"random".*/b/')
"$k" replay "$pgn" > "$tmp/replay"
for g in "${!rounds[@]}"; do
  r="${rounds[$g]}"
  me="${colour[$g]}"
  python3 "$tool" "$pgn" --round "$r" --klinzha "$k" --go 'go depth 1' > "$tmp/trace.$r"
  # Per turn of blind's in play: "<ply> <heart cell> <alone|carried> <move played>".
  awk -v game=$((g + 1)) -v me="$me" '
    $1 == "game" { n = $2; ply = -1; next }
    n != game || NF != 9 { next }
    {
      ply++
      if (want) { print want, $1; want = "" }
      if ($7 != "play" || $6 != me) next
      theirs = (me == "g") ? $4 : $3
      m = split(theirs, men, ",")
      heart = ""
      for (i = 1; i <= m; i++) if (substr(men[i], 1, 1) == "H") heart = substr(men[i], 2)
      state = "alone"
      for (i = 1; i <= m; i++)
        if (substr(men[i], 1, 1) != "H" && substr(men[i], 2) == heart) state = "carried"
      want = (ply + 1) " " heart " " state
    }' "$tmp/replay" > "$tmp/want.$r"
  awk '{ for (i = 1; i <= NF; i++) { if ($i == "heart") h = $(i + 1) " " $(i + 2);
         if ($i == "played") p = $(i + 1) }; print $1, h, p }' "$tmp/trace.$r" > "$tmp/got.$r"
  turns=$(wc -l < "$tmp/want.$r")
  if [ "$turns" -gt 5 ] && cmp -s "$tmp/want.$r" "$tmp/got.$r"; then
    echo "PASS: round $r: $turns turns of play, the heart's cell and the moves as replayed"
  else
    echo "FAIL: round $r: the turns differ from the replay"
    diff "$tmp/want.$r" "$tmp/got.$r" | head -5 || true
    failed=1
  fi
  # The refusals of the record's comments on blind's turns of play, in order, against the
  # tool's: each comment's refusals with the ply of the move it follows (move numbers and
  # the result are not plies; the plies of blind's turns are those of want).
  awk '{ for (i = 1; i <= NF; i++) { if ($i == "refused" && $(i + 1) != "-") print $1, $(i + 1) } }' \
    "$tmp/trace.$r" > "$tmp/refused_got.$r"
  awk -v r="$r" 'BEGIN { RS = "\n\n" } $0 ~ "\\[Round \"" r "\"\\]" { getline; print }' "$pgn" |
    tr '\n' ' ' | grep -o '{[^}]*}\|[^ {}]\+' |
    awk '/^{/ { if (match($0, /refused [a-z0-9,]+/)) print ply, substr($0, RSTART + 8, RLENGTH - 8); next }
         /^[0-9]+\.$/ || /^(1-0|0-1|1\/2-1\/2|\*)$/ { next }
         { ply++ }' > "$tmp/refused_all.$r"
  awk 'NR == FNR { turn[$1] = 1; next } ($1 in turn)' "$tmp/want.$r" "$tmp/refused_all.$r" \
    > "$tmp/refused_want.$r"
  if [ -s "$tmp/refused_want.$r" ] && cmp -s "$tmp/refused_want.$r" "$tmp/refused_got.$r"; then
    echo "PASS: round $r: the refusals of blind's turns ($(wc -l < "$tmp/refused_want.$r")) as recorded"
  else
    echo "FAIL: round $r: the refusals differ from the record's"
    diff "$tmp/refused_want.$r" "$tmp/refused_got.$r" | head -5 || true
    failed=1
  fi
  # The view's tokens (SPEC 25), built here from the replay's men counts.
  awk -v game=$((g + 1)) -v me="$me" '
    function count(f) { return f == "-" ? 0 : split(f, x, ",") }
    function heart(f,   n, i) { n = split(f, x, ","); for (i = 1; i <= n; i++)
                                  if (substr(x[i], 1, 1) == "H") return substr(x[i], 2); return "" }
    $1 == "game" { n = $2; prev = ""; next }
    n != game || NF != 9 { next }
    prev != "" {
      split(prev, p, " ")
      o = (me == "g") ? 3 : 4; t = (me == "g") ? 4 : 3
      if (p[6] == me) {
        tok = $1
        if (p[7] == "play" && count($t) < count(p[t])) tok = tok (heart($t) == "" ? "xH" : "x")
      } else {
        tok = "?"
        if (p[7] == "play") {
          if (heart(p[o]) != "" && heart($o) == "") tok = "?xH"
          else if (count($o) < count(p[o])) {
            m = split(p[o], before, ","); split($o, after, ",")
            for (i = 1; i <= m; i++) {
              c = substr(before[i], 2); found = 0
              for (j in after) if (substr(after[j], 2) == c) found = 1
              if (!found) { tok = "?x" c; break }
            }
          }
        }
      }
      line = line (line == "" ? "" : " ") tok
    }
    { prev = $0 }
    END { print line }' "$tmp/replay" > "$tmp/tokens_want.$r"
  python3 "$tool" "$pgn" --round "$r" --klinzha "$k" --tokens > "$tmp/tokens_got.$r"
  if grep -q 'x' "$tmp/tokens_want.$r" && cmp -s "$tmp/tokens_want.$r" "$tmp/tokens_got.$r"; then
    echo "PASS: round $r: the view's tokens as the replay gives them"
  else
    echo "FAIL: round $r: the view's tokens differ"; failed=1
  fi
  out="$(cat "$tmp/trace.$r")"
  expect " lone "
done

# The hunt's debug line read by field names: one with a field added (a throw-away build's
# `age 3,`) reads as the engine's own; one without its odds is an error that names the field.
out="$(cd "$repo/tools/match" && python3 -c '
import blind_trace as b
line = "[debug] blind hunt: lone 1.00 odds 0.24 since ply 122, tour 8.0 moves, cells i44:0.53 i66:0.10"
added = line.replace("odds 0.24 ", "odds 0.24 age 3, ")
print("fields", b.parse_hunt(line) == b.parse_hunt(added) == ("1.00", "0.24", "122", " i44:0.53 i66:0.10"))
try:
    b.parse_hunt(line.replace("odds 0.24 ", ""))
except ValueError as e:
    print(e)
')"
expect "fields True"
expect 'a "blind hunt:" line without odds'

# A turn with refused proposals is given stage by stage, as the game gave it (each stage's go
# updates the belief and draws its random numbers, as in the game).
out="$(cd "$repo/tools/match" && python3 -c '
import blind_trace as b
print("stages", b.turn_stages("position blind g startpos moves x", ["a", "b"]))
print("none", b.turn_stages("position blind g startpos moves x", []))
')"
expect "stages ['position blind g startpos moves x', 'position blind g startpos moves x refused a', 'position blind g startpos moves x refused a b']"
expect "none ['position blind g startpos moves x']"

# A refusal the view cannot have made: the engine says so, and the tool fails with it.
sed '0,/refused [a-z0-9]*/s//refused a19a19/' "$pgn" > "$tmp/bad.pgn"
if python3 "$tool" "$tmp/bad.pgn" --round "${rounds[0]}" --klinzha "$k" --go 'go depth 1' \
  > /dev/null 2> "$tmp/bad.err"; then
  echo "FAIL: a refusal the view cannot have made was not an error"; failed=1
else
  out="$(cat "$tmp/bad.err")"
  expect "klinzha said: info string error"
fi
# No such round, and a missing klinzha.
if python3 "$tool" "$pgn" --round 999999 --klinzha "$k" 2> "$tmp/none.err"; then
  echo "FAIL: a missing round was not an error"; failed=1
else
  out="$(cat "$tmp/none.err")"
  expect "no record of round 999999"
fi
expect_no_klinzha "$tool" "$pgn" --round "${rounds[0]}"
exit $failed
