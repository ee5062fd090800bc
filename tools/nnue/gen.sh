#!/bin/bash
# tools/nnue/gen.sh: the network's training data from many klinzha-gen processes at once,
# with GNU parallel, the same way klinzha-match -shard spreads a match (docs/search.md, NNUE).
#
#   tools/nnue/gen.sh OUT.bin SHARDS GAMES_PER_SHARD [klinzha-gen options...]
#
# Runs SHARDS processes (at most one per core here; with `parallel --sshloginfile` over many
# machines), shard k with --seed k and its own file OUT.bin.k, then concatenates the shards
# and appends them to OUT.bin (the format has no header, so `cat` joins files), then removes
# them. A killed run
# keeps the games finished in each shard file. Exit status: non-zero if a shard failed.
# Example: tools/nnue/gen.sh data/gen1.bin 16 20000 --nodes 6000 --players mix --options mix \
#              --eval-file nets/net1.nnue
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
out=$1 shards=$2 games=$3
shift 3
# klinzha-gen: $KLINZHA_GEN; else the build beside this script (a source tree); else the
# installed one (this script in <prefix>/share/klinzha/nnue, the program in <prefix>/bin);
# else the one on PATH.
here=$(dirname "$0")
gen=${KLINZHA_GEN:-}
for g in "$here/../../build/release/klinzha-gen" "$here/../../../bin/klinzha-gen" \
         "$(command -v klinzha-gen || true)"; do
    [ -z "$gen" ] && [ -n "$g" ] && [ -x "$g" ] && gen=$g
done
command -v parallel >/dev/null || { echo "gen.sh: GNU parallel is needed (apt install parallel)" >&2; exit 2; }
[ -n "$gen" ] && [ -x "$gen" ] || { echo "gen.sh: no klinzha-gen found (set KLINZHA_GEN)" >&2; exit 2; }
seq 1 "$shards" | parallel --halt now,fail=1 --line-buffer \
    "$gen" --out "$out.{}" --games "$games" --seed {} "$@"
for k in $(seq 1 "$shards"); do cat "$out.$k"; done >> "$out"
for k in $(seq 1 "$shards"); do rm -f "$out.$k"; done
echo "gen.sh: $(($(stat -c %s "$out") / 104)) positions in $out"
