#!/usr/bin/env bash
# Measures every shipped network (models/shipped.json) again against one baseline through
# scripts/evaluate-run.sh (200 games in seat-swapped pairs from shared random openings; the
# fours games also in 200 whole matches, no curve), and puts the new rows in place of that
# baseline's rows in each run's final.csv and match.csv. For when a baseline's play changes
# (2026-11-25: alphabeta:D stopped reading its table entries of earlier searches).
# Then regenerate the README tables (python3 scripts/models_table.py) and update the rows of
# that baseline in the runs' RESULTS.md tables.
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
    print(f"models/{v}/{model}.ot experiments/{run}")
PYEOF
    echo "== $model against $AGENT"
    rm -f "$out"/*.csv
    AGAINST="$AGENT" MATCH_AGAINST="$AGENT" MATCH_GAMES="$GAMES" GAMES="$GAMES" \
        CHECKPOINT="$model" OUT="$out" CURVE=0 bash scripts/evaluate-run.sh "$run" > /dev/null
    for f in final.csv match.csv; do
        [ -f "$out/$f" ] || continue
        python3 - "$run/$f" "$out/$f" "$AGENT" <<'PYEOF'
import sys
path, new, agent = sys.argv[1:]
fresh = [l for l in open(new).read().splitlines()[1:] if l.split(",")[4] == agent]
assert len(fresh) == 1, f"no row for {agent} in the new measurement"
lines = open(path).read().splitlines()
kept = [l for l in lines[1:] if l.split(",")[4] != agent]
open(path, "w").write("\n".join([lines[0]] + kept + fresh) + "\n")
print(path + ": " + fresh[0])
PYEOF
    done
done
