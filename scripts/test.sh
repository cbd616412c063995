#!/usr/bin/env bash
# Runs every test of the project on a fresh machine: installs what it needs (the project
# virtualenv with torch==2.13.0 for libtorch, numpy, pytest, gymnasium, pettingzoo, open_spiel),
# then the Rust workspace's tests (rules, perft, conformance, OpenSpiel differential, env,
# agents, training smoke runs, tournaments, CLI) and the Python package's tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup-venv.sh
source scripts/env.sh

echo "== cargo test (workspace) =="
cargo test --workspace --no-fail-fast

if [ -f scripts/test-python.sh ]; then
    echo "== python package tests =="
    bash scripts/test-python.sh
fi
