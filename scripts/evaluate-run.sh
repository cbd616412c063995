#!/usr/bin/env bash
# Measures a training run the way models/README.md reports it:
#   learning_curve.csv/.png  every checkpoint, CURVE_GAMES games against each baseline
#   final.csv                the run's last checkpoint, GAMES games against each baseline
#   match.csv                (round-based variants) the same network playing whole matches
#                            against MATCH_AGAINST (alphabeta:6; add mcts:1000 for the full table)
# Games are played in seat-swapped pairs from shared random openings (4 plies, 8 for yao:
# models_table.opening_plies) and, for round-based variants, from varied starting ownerships (`ayo
# evaluate`, the tournament's driver).
#
# A run trained on whole matches (`options = "episode=match"`) is measured the other way round:
# final.csv in rounds from varied ownership (`--play-options episode=round`), match.csv in whole
# matches (ply cap 5000, GAMES games), match-seed2.csv the same against SECOND_AGAINST (mcts:1000)
# from a second set of openings (`--seed 2`; the models table sums both sets; SECOND_AGAINST=""
# leaves it out), and its learning curve in whole matches.
#
# CHECKPOINT (default RUN/checkpoints/latest.ot) names the network measured, OUT (default RUN)
# where final.csv, match.csv and the curve go; CURVE=0 leaves the curve out. SEED (default 0)
# picks the set of openings of final.csv and match.csv (2: the second set, as match-seed2.csv).
#
#   bash scripts/evaluate-run.sh experiments/runs/ncho-1h
set -euo pipefail
RUN="${1:?usage: evaluate-run.sh RUN_DIR}"
AYO="${AYO:-target/release/ayo}"
AGAINST="${AGAINST:-mcts:1000,alphabeta:6}"
MATCH_AGAINST="${MATCH_AGAINST:-alphabeta:6}"
SECOND_AGAINST="${SECOND_AGAINST-mcts:1000}"
GAMES="${GAMES:-200}"
CURVE_GAMES="${CURVE_GAMES:-100}"
MATCH_GAMES="${MATCH_GAMES:-40}"
SIMS="${SIMS:-32}"
CHECKPOINT="${CHECKPOINT:-$RUN/checkpoints/latest.ot}"
OUT="${OUT:-$RUN}"
CURVE="${CURVE:-1}"
SEED="${SEED:-0}"

variant=$(sed -n 's/^variant = "\(.*\)"/\1/p' "$RUN/config.toml")
SCRIPTS="$(dirname "${BASH_SOURCE[0]}")"
PLIES="${PLIES:-$(python3 -c "import sys; sys.path.insert(0, '$SCRIPTS'); import models_table as m; print(m.opening_plies('$variant'))")}"
CURVE_CAP=()
ROUNDS=()
if grep -q '^options = ".*episode=match' "$RUN/config.toml"; then
    CURVE_CAP=(--max-plies 5000)
    CURVE_GAMES="${CURVE_GAMES_MATCH:-40}"
    ROUNDS=(--play-options episode=round)
    MATCH_AGAINST="$AGAINST"
    MATCH_GAMES="$GAMES"
fi
# Whole matches of the network, CSV to $1, the other arguments added to `ayo evaluate`.
whole_matches() {
    local csv="$1"
    shift
    "$AYO" evaluate "$CHECKPOINT" "$@" --play-options episode=match --max-plies 5000 \
        --eval-games "$MATCH_GAMES" --eval-simulations "$SIMS" --eval-opening-plies "$PLIES" --csv "$csv"
}
echo "== $RUN ($variant): final strength, $GAMES games against each of $AGAINST =="
"$AYO" evaluate "$CHECKPOINT" --against "$AGAINST" "${ROUNDS[@]}" --seed "$SEED" \
    --eval-games "$GAMES" --eval-simulations "$SIMS" --eval-opening-plies "$PLIES" --csv "$OUT/final.csv"
case "$variant" in
    ncho | adi | jerin)
        echo "== $RUN: whole matches (episode = match) =="
        whole_matches "$OUT/match.csv" --against "$MATCH_AGAINST" --seed "$SEED"
        if [ ${#ROUNDS[@]} -gt 0 ] && [ -n "$SECOND_AGAINST" ]; then
            echo "== $RUN: whole matches from a second set of openings (--seed 2) =="
            whole_matches "$OUT/match-seed2.csv" --against "$SECOND_AGAINST" --seed 2
        fi
        ;;
esac
# The curve last: the final figures decide whether a run ships.
[ "$CURVE" = 1 ] || exit 0
echo "== $RUN ($variant): learning curve =="
"$AYO" evaluate "$RUN"/checkpoints/step-*.ot --against "$AGAINST" "${CURVE_CAP[@]}" \
    --eval-games "$CURVE_GAMES" --eval-simulations "$SIMS" --eval-opening-plies "$PLIES" \
    --curve "$OUT/learning_curve.png" --csv "$OUT/learning_curve.csv"
