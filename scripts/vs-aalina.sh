#!/usr/bin/env bash
# Seat-swapped pairs between an ayo agent and Aalina, the sparring partner that
# scripts/build-aalina.sh builds (docs/aalina.md): W-D-L, score, Elo with its 95 % interval and the
# pairs' pentanomial counts, from the agent's side.
#
#   bash scripts/vs-aalina.sh [--agent SPEC] [--movetime MS] [--pairs N] [--book on|off]
#                             [--seed N] [--aalina DIR] [--out DIR]
#
# Every game of the --pairs is played (a --precision of 1 Elo, out of reach, never stops it);
# stopped early (Ctrl-C, or a TERM to its process group), it still summarises the finished pairs.
# Defaults: the shipped network searching by alpha-beta (PATH@500ms+ab) against Aalina at
# --movetime 500, 8 pairs, book off (her endgame table is always on), out runs/vs-aalina/<time>.
# AYO names the ayo binary (default target/release/ayo).
#
# ayo's own commands play and rate the games: Aalina speaks ayo's engine protocol through
# scripts/aalina_bridge.py, and `ayo rate --engine` plays it against a ladder of one rung, the
# agent at Elo 0, so the match driver (random 4-ply openings shared by each pair, oware@1's rules,
# ply cap 1000) referees and the rating module fits the Elo. One pair at a time (the driver
# plays its two games at once, so the two engines think at the same time); one search thread
# each (Aalina's negamax; torch with OMP_NUM_THREADS=1); no pondering; the bridge warms
# Aalina's JVM before the first game. An illegal move or a disputed end is logged by the bridge
# as a void; `ayo rate` scores it as Aalina's forfeit, and the summary says how many there were.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
AYO="${AYO:-target/release/ayo}"
agent=models/oware/oware-100min.ot@500ms+ab
movetime=500
pairs=8
book=off
seed=0
aalina="${AALINA_DIR:-$HOME/.cache/ayo/aalina}"
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --agent) agent="$2" ;;
        --movetime) movetime="$2" ;;
        --pairs) pairs="$2" ;;
        --book) book="$2" ;;
        --seed) seed="$2" ;;
        --aalina) aalina="$2" ;;
        --out) out="$2" ;;
        -h | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "vs-aalina: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift 2
done
case "$book" in
    on) book_flag=(--book) ;;
    off) book_flag=() ;;
    *) echo "vs-aalina: --book is on or off, not $book" >&2; exit 2 ;;
esac
[[ "$movetime" =~ ^[0-9]+$ && "$pairs" =~ ^[0-9]+$ && "$pairs" -ge 1 ]] \
    || { echo "vs-aalina: --movetime (ms) and --pairs (at least 1) are whole numbers" >&2; exit 2; }
[ -x "$AYO" ] || { echo "vs-aalina: no ayo binary at $AYO (cargo build --release, or set AYO)" >&2; exit 1; }
AYO="$(cd "$(dirname "$AYO")" && pwd)/$(basename "$AYO")"
out="${out:-runs/vs-aalina/$(date +%Y%m%d-%H%M%S)}"
mkdir -p "$out"

# Aalina built, its endgame table loaded, its JVM able to start: said here, before any game.
bridge=(python3 scripts/aalina_bridge.py --aalina "$aalina" --ayo "$AYO" --movetime "$movetime" "${book_flag[@]}")
"${bridge[@]}" --check

# The agent as the one rung of a ladder (Elo 0), under the shipped ladder's protocol.
cat >"$out/ladder.json" <<EOF
{
  "format": 1,
  "version": 1,
  "variant": "oware",
  "rules_version": 1,
  "options": "",
  "protocol": {"opening_plies": 4, "varied_starts": false, "max_plies": 1000},
  "rungs": [{"spec": "$agent", "elo": 0.0, "low": 0.0, "high": 0.0, "games": 0}],
  "links": [],
  "command": "scripts/vs-aalina.sh"
}
EOF

printf -v engine '%q ' "${bridge[@]}" --log "$out/bridge.jsonl"
echo "$agent against Aalina at $movetime ms a move, book $book, $pairs pairs, seed $seed -> $out"
# A match stopped by hand: the rest of the script still runs, and the summary rates the pairs
# that finished (ayo tournament --records, as ayo rate writes no rating.json then).
stopped=""
trap 'stopped=1' INT TERM
OMP_NUM_THREADS=1 "$AYO" rate --variant oware --ladder "$out/ladder.json" --engine "$engine" \
    --engine-movetime 30s --precision 1 --max-games $((2 * pairs)) --probe-pairs "$pairs" \
    --round-pairs "$pairs" --concurrency 1 --seed "$seed" --out "$out/games" | tee "$out/rate.txt" \
    || [ -n "$stopped" ]
trap - INT TERM
echo
AYO="$AYO" python3 scripts/aalina_bridge.py summary "$out" | tee "$out/summary.txt"
