#!/usr/bin/env bash
# Speed of `ayo serve` as a user feels it: a cold server's first page load (the page and its two
# files), a new game against the shipped ayo network at 32 simulations (the network loads, and it
# moves first), and the time to answer each of a game's moves (the person's move and the
# network's answer). Prints figures; asserts nothing. Usage: scripts/bench-serve.sh [MOVES]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
moves=${1:-20}
model=models/ayo/ayo-1h.ot
log=$(mktemp)
target/release/ayo serve --port 0 --models models > "$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
until grep -q http "$log"; do sleep 0.05; done
url=$(grep -o 'http://[0-9.:]*' "$log")
t() { curl -s -o /dev/null -w '%{time_total}' "$@"; }
page=$(python3 -c "print(sum(map(float, '$(t "$url/") $(t "$url/app.js") $(t "$url/style.css")'.split())))")
echo "cold page load (/, app.js, style.css): $(python3 -c "print(f'{$page*1e3:.1f}')") ms"
start=$(date +%s.%N)
game=$(curl -s -X POST -H 'Content-Type: application/json' \
  -d "{\"variant\":\"ayo\",\"opponent\":\"$model:32\",\"seat\":\"north\"}" "$url/api/games")
echo "new game against $model:32 (load + its first move): $(python3 -c "print(f'{($(date +%s.%N)-$start)*1e3:.0f}')") ms"
id=$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['id'])" "$game")
times=()
for _ in $(seq "$moves"); do
  view=$(curl -s "$url/api/games/$id")
  action=$(python3 -c "import json,sys; v=json.loads(sys.argv[1]); print(v['legal'][0]['action'] if v['legal'] else '')" "$view")
  [ -n "$action" ] || break
  times+=("$(t -X POST -H 'Content-Type: application/json' -d "{\"action\":$action}" "$url/api/games/$id/moves")")
done
python3 - "${times[@]}" <<'PY'
import statistics, sys
t = sorted(float(x) * 1e3 for x in sys.argv[1:])
print(f"a move and the 32-simulation network's answer: median {statistics.median(t):.0f} ms, "
      f"worst {t[-1]:.0f} ms over {len(t)} moves")
PY
