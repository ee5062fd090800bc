#!/usr/bin/env bash
# tools/tune/tune.sh: tune the evaluation by self-play, in one command (issue 9).
#
#   tools/tune/tune.sh [GAMES2] [GAMES3] [NODES]
#
# 1. Builds (Release), then plays GAMES2 two-player and GAMES3 three-player self-play games
#    with klinzha-match at NODES nodes per move (defaults 600, 300, 4000); the engines place
#    their own pieces with their random variation among near-equal setups, so setups vary.
# 2. klinzha-tune extract: the quiet play positions of those games with each colour's result.
# 3. klinzha-tune fit: K, then the weights (Texel method); writes eval/weights.h and prints
#    the error before and after. Rebuild, and measure tuned against untuned by a match.
# Work files go to build/tune/. Needs the packages of tools/setup.sh.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
g2="${1:-600}"; g3="${2:-300}"; nodes="${3:-4000}"
bash "$top/tools/setup.sh" build
work="$top/build/tune"
mkdir -p "$work"
rm -f "$work/self2.pgn" "$work/self3.pgn"
bin="$top/build/release"
jobs="$(nproc 2>/dev/null || echo 2)"
"$bin/klinzha-match" -engine cmd="$bin/klinzha" name=a -engine cmd="$bin/klinzha" name=b \
    -each option.Hash=8 -players 2 -games "$g2" -nodes "$nodes" -concurrency "$jobs" \
    -ratinginterval 0 -pgnout "$work/self2.pgn" > "$work/self2.log"
"$bin/klinzha-match" -engine cmd="$bin/klinzha" name=a -engine cmd="$bin/klinzha" name=b \
    -each option.Hash=8 -players 3 -games "$g3" -nodes "$nodes" -concurrency "$jobs" \
    -ratinginterval 0 -pgnout "$work/self3.pgn" > "$work/self3.log"
"$bin/klinzha-tune" extract "$work/self2.pgn" "$work/self3.pgn" -o "$work/data.txt"
"$bin/klinzha-tune" fit "$work/data.txt" -o "$top/eval/weights.h"
