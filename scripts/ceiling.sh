#!/usr/bin/env bash
# How much of the targets of issue 13 any player can reach under the evaluation's protocol:
# a much stronger searcher than the baselines (STRONG, default alphabeta:10) plays GAMES games
# in seat-swapped pairs from the evaluation's shared 4-ply openings (and, for the round-based
# variants, the same varied starting ownerships) against mcts:1000 and alphabeta:6. Where even
# it stays far below 90 % / 60 %, the openings (or the houses) decide most games, whoever
# plays them.
#
#   bash scripts/ceiling.sh ncho adi jerin jodu      # → experiments/ceiling/<variant>/
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
AYO="${AYO:-target/release/ayo}"
STRONG="${STRONG:-alphabeta:10}"
GAMES="${GAMES:-100}"
for variant in "$@"; do
    varied=()
    case "$variant" in ncho | adi | jerin) varied=(--varied-starts) ;; esac
    out="experiments/ceiling/$variant"
    mkdir -p "$out"
    echo "== $variant: $STRONG against mcts:1000 and alphabeta:6, $GAMES games each ${varied[*]} =="
    "$AYO" tournament --variant "$variant" --players "$STRONG" mcts:1000 alphabeta:6 \
        --gauntlet 1 --games "$GAMES" "${varied[@]}" --no-records --out "$out" \
        | tee "$out/tournament.txt"
done
