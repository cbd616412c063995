#!/usr/bin/env bash
# Play-time scaling of a network: the shipped oware network at several search budgets
# (simulations per move and times per move) against alpha-beta at several depths, GAMES games
# per pairing in seat-swapped pairs from 4-ply random openings. One gauntlet per alpha-beta
# depth (it is the anchor, 0 Elo): the Elo of each budget against it, with its 95 % interval.
#
#   GAMES=100 DEPTHS="8 10" BUDGETS=":32 :128 :512 @100ms" bash scripts/scaling-table.sh
# Tables go to experiments/studies/scaling/alphabeta-D/ (no game records).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
AYO="${AYO:-target/release/ayo}"
MODEL="${MODEL:-models/oware/oware-levels-1h.ot}"
GAMES="${GAMES:-100}"
DEPTHS="${DEPTHS:-8 10 12 14}"
BUDGETS="${BUDGETS:-:32 :128 :512 @100ms @1s}"
players=()
for b in $BUDGETS; do players+=("$MODEL$b"); done
for d in $DEPTHS; do
    echo "== alphabeta:$d against $MODEL at $BUDGETS, $GAMES games each =="
    "$AYO" tournament --variant oware --players "alphabeta:$d" "${players[@]}" --gauntlet 1 \
        --anchor 1 --games "$GAMES" --openings 4 --no-records \
        --out "experiments/studies/scaling/alphabeta-$d" | sed -n '/^Rank/,/^$/p'
done
