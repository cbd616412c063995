#!/usr/bin/env bash
# A tournament of every shipped model against the baselines of its variant: the model at 32
# simulations, alphabeta:6, mcts:1000 and greedy, GAMES games per pairing in seat-swapped pairs
# from 4-ply random openings (8 for yao) (and, for a network trained on whole matches, a second tournament
# of whole matches, ply cap 5000, in OUT/<variant>-match/). Ratings, cross-table and records go
# to OUT/<variant>/; the ratings are printed.
#
#   GAMES=10 OUT=experiments/studies/tournaments bash scripts/tournament-models.sh [VARIANT...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
AYO="${AYO:-target/release/ayo}"
GAMES="${GAMES:-10}"
OUT="${OUT:-experiments/studies/tournaments}"
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(oware ayo ayoayo ncho adi jerin jodu yao)
for v in "${variants[@]}"; do
    read -r model plies < <(python3 -c "import sys; sys.path.insert(0, 'scripts'); import models_table as m; print(m.SHIPPED['$v'][0], m.opening_plies('$v'))")
    echo "== $v: models/$v/$model.ot:32 against the baselines =="
    "$AYO" tournament --variant "$v" --players "models/$v/$model.ot:32" alphabeta:6 mcts:1000 greedy \
        --games "$GAMES" --openings "$plies" --out "$OUT/$v" | sed -n '/^Rank/,/^$/p'
    if grep -q '"options": *"[^"]*episode=match' "models/$v/$model.json"; then
        echo "== $v, whole matches (the network was trained on them) =="
        "$AYO" tournament --variant "$v" --options episode=match --max-plies 5000 \
            --players "models/$v/$model.ot:32" alphabeta:6 mcts:1000 greedy \
            --games "$GAMES" --openings 4 --out "$OUT/$v-match" | sed -n '/^Rank/,/^$/p'
    fi
done
