#!/usr/bin/env bash
# The main job on defaults: installs what it needs, builds the `ayo` binary, trains an oware
# agent for a few minutes (AlphaZero-style self-play with a Gumbel search, experiments/oware.toml),
# then measures it against the baseline agents: a table of W-D-L, score and Elo with its 95 %
# interval against each (the CSV of the same matches goes to $OUT/final.csv).
#
#   MINUTES=5 OUT=runs/main-job-oware bash scripts/main-job.sh
#
# Running it again continues the same run (exact resume) for another MINUTES.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MINUTES="${MINUTES:-5}"
OUT="${OUT:-runs/main-job-oware}"
AGAINST="${AGAINST:-random,greedy,mcts:1000,alphabeta:6}"
GAMES="${GAMES:-40}"

bash scripts/setup-venv.sh
source scripts/env.sh
cargo build --release -p ayo-train
AYO=target/release/ayo

echo "== throughput on this machine =="
$AYO train --bench --config experiments/oware.toml

echo "== training oware for $MINUTES minutes in $OUT =="
RESUME=()
if [ -f "$OUT/resume.ot" ]; then RESUME=(--resume); fi
$AYO train --config experiments/oware.toml --out "$OUT" --minutes "$MINUTES" "${RESUME[@]}"

echo "== the trained agent (32 simulations per move) against the baselines, $GAMES games each, both seats =="
$AYO evaluate "$OUT/checkpoints/latest.ot" --against "$AGAINST" --eval-games "$GAMES" --eval-simulations 32 \
    --csv "$OUT/final.csv"
