#!/usr/bin/env bash
# tools/levels.sh: measures the Elo of the Skill Levels on this game's scale (issue 26), the
# table of docs/search.md ("Levels") and the calibration in search/skill.cpp.
#
#   tools/levels.sh [GAMES] [NODES] [PLAYERS...]
#
# A ladder: each pair of neighbours in PLAYERS (weakest first; default random, level 0,
# level 2, greedy, levels 5, 8, 11, 14, 17 and 20: the page's levels 1-8 of klinzha-gui with
# the baselines) plays its own two-player match of GAMES games (default 40, colours
# swapped; neighbouring Skill Levels differ too little to tell apart in such a match) with klinzha-match, and the ladder's Elo is
# the sum of the neighbours' differences from `random` = 0 (each difference from the match's
# pentanomial estimate, with its 95% interval). A round robin's rating list has no finite
# maximum here: the weakest players score nothing against the rest. Full strength (level 20)
# searches NODES nodes a move (default 300,000; each level's own cap is lower, skill.h).
# Players are `random`, `greedy` (the baselines) and `levelN` (Skill Level N).
# Each match's log goes to build/levels/<a>-<b>.log, records to build/levels/levels.pgn.
# Needs a Release build (tools/setup.sh build), or KLINZHA_BIN_DIR naming a folder with
# klinzha and klinzha-match (a copy, so the build may change meanwhile).
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
games="${1:-40}"; nodes="${2:-300000}"
shift $(( $# > 2 ? 2 : $# ))
players=("$@")
if [ ${#players[@]} -eq 0 ]; then
    players=(random level0 level2 greedy level5 level8 level11 level14 level17 level20)
fi
bin="${KLINZHA_BIN_DIR:-$top/build/release}"
work="$top/build/levels"
mkdir -p "$work"
rm -f "$work/levels.pgn"
engine() {  # engine NAME: the klinzha-match words of one player
    case "$1" in
        random) echo "option.Baseline=random" ;;
        greedy) echo "option.Baseline=greedy" ;;
        level*) echo "option.Skill Level=${1#level}" ;;
        *) echo "levels.sh: unknown player '$1'" >&2; exit 2 ;;
    esac
}
jobs="$(nproc 2>/dev/null || echo 2)"
elo=0
printf "%-9s %7s  %-34s %s\n" player Elo "against the one below (95%)" "score"
printf "%-9s %+7.0f\n" "${players[0]}" 0
for ((i = 1; i < ${#players[@]}; ++i)); do
    lo=${players[i - 1]} hi=${players[i]}
    log="$work/$lo-$hi.log"
    "$bin/klinzha-match" -engine cmd="$bin/klinzha" name="$hi" "$(engine "$hi")" \
        -engine cmd="$bin/klinzha" name="$lo" "$(engine "$lo")" -each option.Hash=8 \
        -players 2 -games "$games" -nodes "$nodes" -concurrency "$jobs" -ratinginterval 0 \
        -pgnout "$work/levels.pgn" > "$log"
    line=$(grep '^Elo:' "$log" | tail -1)
    score=$(grep '^Results of' "$log" | tail -1 | sed 's/.*: //')
    diff=$(sed -n 's/^Elo: \([-+0-9.inf]*\).*/\1/p' <<< "$line")
    interval=$(sed -n -e 's/^Elo: [^ ]* (95%: \([^)]*\)).*/\1/p' \
                      -e 's/^Elo: [^ ]* \(+\/- [0-9.]*\).*/\1/p' <<< "$line")
    # An infinite difference (every game won) counts as +800 in the sum, and says so.
    case "$diff" in *inf*) step=800; note=" (all won: +800 counted)" ;; *) step=$diff; note="" ;; esac
    elo=$(awk -v a="$elo" -v b="$step" 'BEGIN {print a + b}')
    printf "%-9s %+7.0f  %+7.0f (%s)%s  %s\n" "$hi" "$elo" "$step" "$interval" "$note" "$score"
done
