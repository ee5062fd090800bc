#!/usr/bin/env bash
# tests/tools/match_limits.sh: klinzha-match takes each engine's own limit (depth=, nodes=,
# tc=, st=, as cutechess-cli and fastchess do) with no match-level -tc/-st/-depth/-nodes:
# in two players, three players and -tournament italian, each engine's reported depths in the
# records' play phase are those of its own limit. Usage: match_limits.sh <build dir>
set -euo pipefail
build="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
k="$build/klinzha"
failed=0
# The depths the engines reported in the play phase of a record file, sorted, unique.
depths() { awk '/\{play\}/,/^$/' "$1" | grep -o '/[0-9]* ' | tr -d '/ ' | sort -un | tr '\n' ' '; }
check() {  # name, expected depths, record file
  local got
  got="$(depths "$3")"
  if [ "$got" = "$2" ]; then echo "PASS $1: depths $got"; else
    echo "FAIL $1: depths '$got', expected '$2'"; failed=1; fi
}
m() { "$build/klinzha-match" -ratinginterval 0 -maxmoves 4 "$@" > "$work/out.txt" 2>&1 ||
  { echo "FAIL: klinzha-match $*"; cat "$work/out.txt"; exit 1; }; }

m -engine "cmd=$k" name=deep depth=3 -engine "cmd=$k" name=shallow depth=1 -games 2 \
  -pgnout "$work/two.pgn"
check "two players, depth=3 against depth=1" "1 3 " "$work/two.pgn"

m -players 3 -engine "cmd=$k" name=one depth=1 -engine "cmd=$k" name=three depth=3 \
  -engine "cmd=$k" name=alsoone depth=1 -games 6 -pgnout "$work/three.pgn"
check "three players, depth=1, 3, 1" "1 3 " "$work/three.pgn"

m -tournament italian -engine "cmd=$k" name=deep depth=3 -engine "cmd=$k" name=shallow depth=1 \
  -games 2 -pgnout "$work/italian.pgn"
check "-tournament italian, depth=3 against depth=1" "1 3 " "$work/italian.pgn"

# Mixed kinds: a node limit for one, a time per move for the other, a clock for a third.
m -players 3 -engine "cmd=$k" name=n nodes=2000 -engine "cmd=$k" name=s st=0.05 \
  -engine "cmd=$k" name=t tc=10+0.1 -games 6 -pgnout "$work/mixed.pgn"
echo "PASS three players with nodes=, st= and tc= per engine"

# One engine without a limit and none for the match: refused, saying how.
if "$build/klinzha-match" -engine "cmd=$k" name=a depth=2 -engine "cmd=$k" name=b -games 2 \
  > "$work/out.txt" 2>&1; then
  echo "FAIL: a match with an unlimited engine ran"; failed=1
elif grep -q "to every -engine" "$work/out.txt"; then
  echo "PASS an engine without a limit and no match limit is refused"
else
  echo "FAIL: the refusal does not say how: $(cat "$work/out.txt")"; failed=1
fi
[ "$failed" = 0 ] && echo "5 passed, 0 failed" || { echo "some failed"; exit 1; }
