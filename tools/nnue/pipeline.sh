#!/bin/bash
# tools/nnue/pipeline.sh: from nothing to a network in one command (docs/search.md, NNUE).
#
#   tools/nnue/pipeline.sh WORKDIR SHARDS GAMES_PER_SHARD [FT [L1 [LAMBDA [EVAL_FILE]]]]
#
# 1. generate: SHARDS klinzha-gen processes at once (tools/nnue/gen.sh, GNU parallel), each
#    GAMES_PER_SHARD games of depth-2 labels with varied setups and openings, two and three
#    players, the common rule options; with EVAL_FILE the searches use that network (the next
#    generation's data);
# 2. shuffle: deduplicate, shuffle, hold out 2% (tools/nnue/shuffle.py);
# 3. train: a FT x L1 net (default 32 x 32) at LAMBDA (default 1.0: the score alone, the best
#    of the sweep in docs/search.md), early stop on the held-out loss (tools/nnue/train.py),
#    which quantises it and checks the quantised output against the float model's;
# 4. check: klinzha reads the net and evaluates a position with it.
# Writes WORKDIR/data.bin, train.bin, held.bin and net.nnue, and prints each step's time.
# A second generation: run again with a new WORKDIR and EVAL_FILE=<first>/net.nnue.
# Environment: PLAYERS=2|3|mix (the games' sizes, default mix); INIT=NET.nnue starts the
# training from that net (of the same FT x L1) instead of the material initialisation, with
# LR as the first learning rate (train.py's default, 1e-3, when unset): the third and fourth
# generations' recipe, two-player data searched with the built-in net and trained on from it
# (docs/search.md, NNUE).
# Exit status: non-zero when a step fails (its message says which).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,17p' "$0" >&2
    exit 2
fi
work=$1 shards=$2 games=$3 ft=${4:-32} l1=${5:-32} lambda=${6:-1.0} eval_file=${7:-}
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3
# klinzha: $KLINZHA; else the build beside this script (a source tree); else the installed one
# (this script in <prefix>/share/klinzha/nnue, the program in <prefix>/bin); else PATH's.
klinzha=${KLINZHA:-}
for k in "$here/../../build/release/klinzha" "$here/../../../bin/klinzha" \
         "$(command -v klinzha || true)"; do
    [ -z "$klinzha" ] && [ -n "$k" ] && [ -x "$k" ] && klinzha=$k
done
mkdir -p "$work"
step() {  # step NAME COMMAND...: runs it and prints how long it took
    local name=$1 t0=$SECONDS
    shift
    "$@" || { echo "pipeline.sh: step '$name' failed" >&2; exit 1; }
    echo "pipeline.sh: $name took $((SECONDS - t0)) s"
}
gen_args=(--depth 2 --nodes 100000 --setup mix --random-plies 4 --multipv 4
          --multipv-plies 12 --players "${PLAYERS:-mix}" --options mix)
[ -n "$eval_file" ] && gen_args+=(--eval-file "$eval_file")
step generate "$here/gen.sh" "$work/data.bin" "$shards" "$games" "${gen_args[@]}"
step shuffle "$py" "$here/shuffle.py" "$work/data.bin" -o "$work/train.bin" \
    --held-out "$work/held.bin"
train_args=(--ft "$ft" --l1 "$l1" --lambda "$lambda" --threads "$(nproc)")
[ -n "${LR:-}" ] && train_args+=(--lr "$LR")
[ -n "${INIT:-}" ] && train_args+=(--init "$INIT")
step train "$py" "$here/train.py" "$work/train.bin" --held-out "$work/held.bin" \
    -o "$work/net.nnue" "${train_args[@]}"
check() {  # the engine takes the net and evaluates a play position with it
    local out fen="2 Hg79,Qi88,Rg79,Bi89,Nf59,Nb29,Pi67,Ph56,Pf58,Wi77 Hh12,Qi33,Ri23,Bh23,Ng25,Ng14,Ph24,Ph12,Pf26,Wi44 - g play 0 1"
    out=$(printf 'setoption name EvalFile value %s\nsetoption name Use NNUE value true\nposition fen %s\neval\nquit\n' \
        "$work/net.nnue" "$fen" | "$klinzha")
    if grep -q "error" <<<"$out" || ! grep -q "(NNUE):" <<<"$out"; then
        echo "$out" >&2
        return 1
    fi
}
if [ -n "$klinzha" ]; then step check check; else echo "pipeline.sh: no klinzha to check with"; fi
echo "pipeline.sh: $work/net.nnue ($(stat -c %s "$work/net.nnue") bytes)"
