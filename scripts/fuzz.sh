#!/usr/bin/env bash
# Fuzzing of the project's text and file readers with cargo-fuzz (libFuzzer); see docs/fuzzing.md.
#
#   scripts/fuzz.sh short            every target for a few seconds (the test suite's run)
#   scripts/fuzz.sh long [RUNS [TARGET...]]
#                                    every target (or the given ones), one after another, for
#                                    RUNS inputs each (default 10 000 000); logs in fuzz/logs/
#   scripts/fuzz.sh run TARGET [LIBFUZZER FLAGS...]
#                                    one target until stopped (or as the flags say)
#   scripts/fuzz.sh build            build the targets only
#   scripts/fuzz.sh list             the targets
#
# Targets: notation, record, engine, config. Works on the stable toolchain: cargo-fuzz with
# `--sanitizer none` needs no nightly feature. Installs cargo-fuzz if it is missing. The first
# build takes a few minutes (the engine and config targets link ayo-train without its torch
# feature, so no libtorch is built or needed; the
# fuzz crate has its own target folder fuzz/target). A crash leaves its input in
# fuzz/artifacts/TARGET/; reproduce it with `scripts/fuzz.sh run TARGET fuzz/artifacts/TARGET/crash-…`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

TARGETS=(notation record engine config)
mode="${1:-short}"
[ $# -gt 0 ] && shift

if [ "$mode" = list ]; then
    printf '%s\n' "${TARGETS[@]}"
    exit 0
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz =="
    cargo install cargo-fuzz --locked
fi

# Flags every run shares: no sanitizer (stable toolchain), an optimised build with debug
# assertions and overflow checks on (an arithmetic overflow is a crash too).
FUZZ=(cargo fuzz run --sanitizer none --debug-assertions --fuzz-dir fuzz)

# The libFuzzer flags of TARGET: its dictionary, the largest input (4 KiB), and a per-input
# timeout that turns a hang into a reported failure.
flags() {
    local t="$1"
    echo "-dict=fuzz/dict/$t.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1"
}

corpus() {
    mkdir -p "fuzz/corpus/$1"
    echo "fuzz/corpus/$1 fuzz/seeds/$1"
}

case "$mode" in
    build)
        (cd fuzz && cargo fuzz build --sanitizer none --debug-assertions)
        ;;
    short)
        # A few seconds per target: catches a regression of an input the seeds reach quickly.
        runs="${FUZZ_SHORT_RUNS:-20000}"
        secs="${FUZZ_SHORT_SECONDS:-10}"
        (cd fuzz && cargo fuzz build --sanitizer none --debug-assertions)
        for t in "${TARGETS[@]}"; do
            echo "== fuzz $t (short: $runs inputs or ${secs}s) =="
            log="$(mktemp)"
            status=0
            # shellcheck disable=SC2046
            "${FUZZ[@]}" "$t" $(corpus "$t") -- $(flags "$t") \
                -runs="$runs" -max_total_time="$secs" -seed=1 >"$log" 2>&1 || status=$?
            grep -E '^(Done|stat::(number_of_executed_units|average_exec_per_sec))' "$log" || true
            if [ "$status" -ne 0 ]; then
                tail -n 60 "$log"
                rm -f "$log"
                echo "fuzz target $t FAILED (exit $status); the input is in fuzz/artifacts/$t/"
                exit 1
            fi
            rm -f "$log"
        done
        ;;
    long)
        runs="${1:-10000000}"
        [ $# -gt 0 ] && shift
        [ $# -gt 0 ] && TARGETS=("$@")
        mkdir -p fuzz/logs
        (cd fuzz && cargo fuzz build --sanitizer none --debug-assertions)
        for t in "${TARGETS[@]}"; do
            echo "== fuzz $t: $runs inputs (log fuzz/logs/$t.log) =="
            start=$(date +%s)
            # shellcheck disable=SC2046
            if ! "${FUZZ[@]}" "$t" $(corpus "$t") -- $(flags "$t") -runs="$runs" \
                >"fuzz/logs/$t.log" 2>&1; then
                echo "fuzz target $t FAILED; see fuzz/logs/$t.log and fuzz/artifacts/$t/"
                exit 1
            fi
            end=$(date +%s)
            done_line=$(grep -E '^Done [0-9]+ runs' "fuzz/logs/$t.log" | tail -1)
            echo "$t: $done_line (wall $((end - start)) s)"
            grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)' \
                "fuzz/logs/$t.log" || true
        done
        ;;
    run)
        t="${1:?usage: scripts/fuzz.sh run TARGET [LIBFUZZER FLAGS...]}"
        shift
        if [ $# -gt 0 ] && [ -f "$1" ]; then
            # Reproduce one input.
            "${FUZZ[@]}" "$t" "$@"
        else
            # shellcheck disable=SC2046
            "${FUZZ[@]}" "$t" $(corpus "$t") -- $(flags "$t") "$@"
        fi
        ;;
    *)
        echo "usage: scripts/fuzz.sh short | long [RUNS] | run TARGET [FLAGS...] | build | list" >&2
        exit 2
        ;;
esac
