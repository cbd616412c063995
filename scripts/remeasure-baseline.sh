#!/usr/bin/env bash
# Measures every shipped network (models/shipped.json) again against one baseline, exactly as
# scripts/evaluate-run.sh measures it (200 games in seat-swapped pairs from shared random
# openings; the fours games also in 200 whole matches), and puts the new rows in place of that
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
AYO="${AYO:-target/release/ayo}"
GAMES="${GAMES:-200}"
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(oware ayo ayoayo ncho adi jerin jodu yao)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for v in "${variants[@]}"; do
    read -r model run plies < <(python3 - "$v" <<'EOF'
import json, sys
sys.path.insert(0, "scripts")
import models_table
v = sys.argv[1]
e = json.load(open("models/shipped.json"))[v]
print("models/" + e["model"], e["run"], models_table.opening_plies(v))
EOF
    )
    rounds=()
    if grep -q '^options = ".*episode=match' "$run/config.toml"; then
        rounds=(--play-options episode=round)
    fi
    echo "== $v: $model against $AGENT"
    "$AYO" train --evaluate "$model" --against "$AGENT" "${rounds[@]}" --eval-games "$GAMES" \
        --eval-simulations 32 --eval-opening-plies "$plies" > "$out/final.csv"
    files=(final.csv)
    case "$v" in
        ncho | adi | jerin)
            "$AYO" train --evaluate "$model" --against "$AGENT" --play-options episode=match \
                --max-plies 5000 --eval-games "$GAMES" --eval-simulations 32 \
                --eval-opening-plies "$plies" > "$out/match.csv"
            files+=(match.csv)
            ;;
    esac
    for f in "${files[@]}"; do
        python3 - "$run/$f" "$out/$f" "$AGENT" <<'EOF'
import sys
path, new, agent = sys.argv[1:]
fresh = [l for l in open(new).read().splitlines()[1:] if l.split(",")[4] == agent]
assert len(fresh) == 1, f"no row for {agent} in the new measurement"
lines = open(path).read().splitlines()
kept = [l for l in lines[1:] if l.split(",")[4] != agent]
open(path, "w").write("\n".join([lines[0]] + kept + fresh) + "\n")
print(path + ": " + fresh[0])
EOF
    done
done
