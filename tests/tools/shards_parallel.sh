#!/usr/bin/env bash
# tests/tools/shards_parallel.sh: four shards of a match run through GNU parallel on this
# machine and merged (klinzha-match -shard K/N, -merge) give the same table as the match
# played in one run. Engines search to a fixed depth from fixed play positions, so every
# game is the same wherever it is played. Usage: shards_parallel.sh <build dir>
set -euo pipefail
build="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/setups.txt" <<'POS'
2 Hg68,Rh78,Bh89,Ni89,Nf69,Pi66,Ph67,Pg79,Wi77 Hg24,Qh56,Rh34,Be38,Nf26,Pi11,Ph24,Ph23,Wh12 - b play 24 16
2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,Ph12,Pf26,Wi44 - b play 17 9
2 Hi88,Qg79,Rg57,Bh68,Nh78,Nf37,Pi88,Pf48,Pe59,Wg58 Hf14,Qi23,Rf26,Bh35,Ni44,Nd38,Pg25,Pg24,Pf14,Wh13 - b play 9 5
POS
common=(
  "$build/klinzha-match" -engine "cmd=$build/klinzha" name=deep depth=2
  -engine "cmd=$build/klinzha" name=shallow depth=1 -depth 1 -games 8
  -setups "$work/setups.txt" -ratinginterval 0
)
match=("${common[@]}" -maxmoves 40)
table() { sed -n '/^engine /,$p'; }
"${match[@]}" | table > "$work/whole.txt"
# The shards, as one would run them over many machines (parallel --sshloginfile ...).
parallel --halt now,fail=1 "${match[@]}" -shard {}/4 -state "$work/shard{}.json" ::: 1 2 3 4 \
  > /dev/null
"$build/klinzha-match" -merge "$work"/shard{1,2,3,4}.json | table > "$work/merged.txt"
if ! diff -u "$work/whole.txt" "$work/merged.txt"; then
  echo "0 passed, 1 failed: the merged shards differ from the whole run"
  exit 1
fi
# Shards of different settings are refused.
"${common[@]}" -maxmoves 41 -shard 1/4 -state "$work/other.json" > /dev/null
if "$build/klinzha-match" -merge "$work/shard2.json" "$work/other.json" > /dev/null 2>&1; then
  echo "0 passed, 1 failed: shards of different settings were merged"
  exit 1
fi
cat "$work/merged.txt"
echo "1 passed, 0 failed"
