#!/usr/bin/env bash
# Measures every shipped network (models/shipped.json) again against one baseline through
# scripts/evaluate-run.sh (200 games in seat-swapped pairs from shared random openings; the
# fours games also in 200 whole matches, no curve), and puts the new rows in place of that
# baseline's rows in each run's final.csv and match.csv, and in final-seed2.csv and
# match-seed2.csv (the second set of openings) where those hold a row of it. For when a
# baseline's play changes (as when alphabeta:D stopped reading its table entries of earlier
# searches, and when its table key took in the repetition memory).
# Then regenerate the models table (python3 scripts/models_table.py, models/README.md) and
# update the rows of that baseline in the runs' RESULTS.md tables and experiments/RUNS.md.
#
#   bash scripts/remeasure-baseline.sh alphabeta:6 [VARIANT ...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
AGENT="${1:?usage: remeasure-baseline.sh AGENT [VARIANT ...]}"
shift
GAMES="${GAMES:-200}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

python3 - "$@" <<'PYEOF' | while read -r model run; do
import sys
sys.path.insert(0, "scripts")
import models_table as m
for v in sys.argv[1:] or m.VARIANTS:
    model, run = m.SHIPPED[v]
    print(f"models/{v}/{model}.ot {run}")
PYEOF
    echo "== $model against $AGENT"
    for seed in 0 2; do
        suffix=""
        [ "$seed" = 0 ] || suffix="-seed$seed"
        # The second set only where the run was measured on it against this agent.
        if [ "$seed" != 0 ] && ! grep -qs ",$AGENT," "$run/final$suffix.csv" "$run/match$suffix.csv"; then
            continue
        fi
        rm -f "$out"/*.csv
        AGAINST="$AGENT" MATCH_AGAINST="$AGENT" MATCH_GAMES="$GAMES" GAMES="$GAMES" SECOND_AGAINST="" \
            SEED="$seed" CHECKPOINT="$model" OUT="$out" CURVE=0 bash scripts/evaluate-run.sh "$run" > /dev/null
        for f in final match; do
            [ -f "$out/$f.csv" ] || continue
            [ "$seed" = 0 ] || grep -qs ",$AGENT," "$run/$f$suffix.csv" || continue
            python3 - "$run/$f$suffix.csv" "$out/$f.csv" "$AGENT" <<'PYEOF'
import sys
path, new, agent = sys.argv[1:]
header, *rows = open(new).read().splitlines()
fresh = [l for l in rows if l.split(",")[4] == agent]
assert len(fresh) == 1, f"no row for {agent} in the new measurement"
lines = open(path).read().splitlines()
kept = [l for l in lines[1:] if l.split(",")[4] != agent]
# Files written before the pair and seat columns keep their rows; the header gains the columns.
assert header.startswith(lines[0]), f"{path}: columns {lines[0]!r} are not a prefix of {header!r}"
open(path, "w").write("\n".join([header] + kept + fresh) + "\n")
print(path + ": " + fresh[0])
PYEOF
        done
    done
done
