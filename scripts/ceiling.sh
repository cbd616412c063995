#!/usr/bin/env bash
# How much of the targets (90 % wins against mcts:1000, 60 % against alphabeta:6) any player
# can reach under the evaluation's protocol:
# a much stronger searcher than the baselines (STRONG, default alphabeta:10) plays GAMES games
# in seat-swapped pairs from the evaluation's shared 4-ply openings (and, for the round-based
# variants, the same varied starting ownerships) against mcts:1000 and alphabeta:6. Where even
# it stays far below 90 % / 60 %, the openings (or the houses) decide most games, whoever
# plays them.
#
#   bash scripts/ceiling.sh ncho adi jerin jodu      # → experiments/studies/ceiling/<variant>/
#   MATCH=1 bash scripts/ceiling.sh ncho adi jerin   # whole matches (episode = match, ply cap
#                                                    # 5000, 40 games) → <variant>-match/
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
AYO="${AYO:-target/release/ayo}"
STRONG="${STRONG:-alphabeta:10}"
MATCH="${MATCH:-0}"
if [ "$MATCH" = 1 ]; then GAMES="${GAMES:-40}"; else GAMES="${GAMES:-100}"; fi
for variant in "$@"; do
    how=()
    out="experiments/studies/ceiling/$variant"
    if [ "$MATCH" = 1 ]; then
        how=(--options episode=match --max-plies 5000)
        out="$out-match"
    else
        case "$variant" in ncho | adi | jerin) how=(--varied-starts) ;; esac
    fi
    mkdir -p "$out"
    echo "== $variant: $STRONG against mcts:1000 and alphabeta:6, $GAMES games each ${how[*]} =="
    "$AYO" tournament --variant "$variant" --players "$STRONG" mcts:1000 alphabeta:6 \
        --gauntlet 1 --games "$GAMES" "${how[@]}" --no-records --out "$out" \
        | tee "$out/tournament.txt"
done
