#!/usr/bin/env bash
# tools/gauntlet.sh: a short gauntlet: klinzha against the random and greedy baselines
# (two players, round robin, colours swapped), then three-player games of the three.
# Builds first (tools/setup.sh build). Extra arguments go to both klinzha-match runs,
# e.g. `tools/gauntlet.sh -concurrency 2`.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$top/tools/setup.sh" build
bin="$top/build/release"
engines=(-engine "cmd=$bin/klinzha" name=klinzha
         -engine "cmd=$bin/klinzha" name=greedy option.Baseline=greedy
         -engine "cmd=$bin/klinzha" name=random option.Baseline=random)
echo "== two players: 10 games per pairing, 1 s + 10 ms per move =="
"$bin/klinzha-match" "${engines[@]}" -players 2 -games 10 -tc 1+0.01 "$@" | grep -v '^Finished'
echo
echo "== three players: 6 games (every seating), 1 s + 10 ms per move =="
"$bin/klinzha-match" "${engines[@]}" -players 3 -games 6 -tc 1+0.01 "$@" | grep -v '^Finished'
