#!/usr/bin/env bash
# The split run (a learner and self-play workers over a shared folder) against the in-process
# `ayo train` with the same config (experiments/oware.toml) on this machine:
#   scripts/distributed-compare.sh throughput MINUTES   # in-process, 1 worker, 2 workers
#   scripts/distributed-compare.sh strength MINUTES     # in-process vs learner + 1 worker
# Run folders go to experiments/studies/distributed/<mode>-*; scripts/distributed_figures.py reads them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/env.sh
mode=$1 minutes=$2
config=experiments/oware.toml
base=experiments/studies/distributed
ayo=target/release/ayo

inprocess() {  # NAME
    rm -rf "$base/$1"
    $ayo train --config $config --out "$base/$1" --minutes "$minutes" > "$base/$1.log" 2>&1
}

split() {  # NAME WORKERS
    local name=$1 workers=$2
    rm -rf "$base/$name" "$base/$name-store"
    mkdir -p "$base/$name"
    $ayo train --config $config --run "$base/$name-store" --learner --out "$base/$name" \
        --minutes "$minutes" > "$base/$name.log" 2>&1 &
    local learner=$!
    local pids=()
    for w in $(seq "$workers"); do
        $ayo selfplay --run "$base/$name-store" --worker "w$w" --minutes "$minutes" \
            > "$base/$name/worker$w.log" 2>&1 &
        pids+=($!)
    done
    wait "$learner" "${pids[@]}"
    rm -rf "$base/$name-store"   # the shards: large, and summed up in the logs
}

case $mode in
    throughput)
        inprocess throughput-inprocess
        split throughput-1worker 1
        split throughput-2workers 2
        ;;
    strength)
        inprocess strength-inprocess
        split strength-split 1
        ;;
    *) echo "usage: $0 throughput|strength MINUTES" >&2; exit 2 ;;
esac
