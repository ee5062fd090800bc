#!/usr/bin/env bash
# tests/docs_examples.sh: runs every command line the README and docs/ show in their ```sh
# blocks that starts with build/release/ (continuation lines joined), each with exit code 0,
# so no documented command rots. Long runs are shortened the same way each time (-games 2,
# -depth 1 for clocks, --depth 3); placeholders get real values (<position>: the SPEC 10
# sample; games.pgn: a record made first). Usage: docs_examples.sh <repo> <build dir>
set -uo pipefail
repo="$(cd "$1" && pwd)"
build="$(cd "$2" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build"
ln -s "$build" "$work/build/release"
ln -s "$repo/tests" "$work/tests"
cd "$work"
sample='3 Hi99,Qi67,Ri99,Bh68,Ni78,Nh79,Pi56,Pg68,Pf69,Wh78 Hi23,Qh24,Rg25,Bh35,Ni34,Ng36,Pi45,Pi23,Ph13,Wh46 Hc17,Qd38,Re27,Bd16,Nd39,Nd17,Pe26,Pd49,Pc17,Wd28 k play 5 2'
build/release/klinzha-match -engine cmd=build/release/klinzha -engine cmd=build/release/klinzha \
  -games 2 -depth 1 -pgnout games.pgn -ratinginterval 0 > /dev/null || { echo "setup failed"; exit 1; }
passed=0
failed=0
for doc in "$repo/README.md" "$repo"/docs/*.md; do
  # Commands of ```sh blocks, continuation lines joined, comments dropped.
  while IFS= read -r cmd; do
    cmd="${cmd//<position>/$sample}"
    cmd="$(sed -E 's/-games [0-9]+/-games 2/; s/-tc [^ ]+/-depth 1/; s/--depth [0-9]+/--depth 3/' <<< "$cmd")"
    if timeout 120 bash -c "$cmd" < /dev/null > "$work/out.txt" 2>&1; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1))
      echo "FAILED ($(basename "$doc")): $cmd"
      tail -5 "$work/out.txt"
    fi
  done < <(awk '/^```sh/{on=1; next} /^```/{on=0} on' "$doc" |
           sed -E 's/[[:space:]]+#.*$//' |
           awk '{ if (sub(/\\$/, "")) { buf = buf $0 " " } else { print buf $0; buf = "" } }' |
           grep -E '^build/release/' || true)
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 5 ]
