#!/usr/bin/env bash
# Builds the Python package `ayo` (python/, pyo3 + maturin, abi3) into the project virtualenv
# and runs its tests (python/tests). No torch is involved. Usage: bash scripts/test-python.sh
# [pytest args...]. The virtualenv is .venv at the repository root (scripts/setup-venv.sh), or
# $AYO_VENV when set.
set -euo pipefail
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${AYO_VENV:-$REPO_ROOT/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
    echo "test-python: no virtualenv at $VENV; run scripts/setup-venv.sh first" >&2
    exit 1
fi
export VIRTUAL_ENV="$VENV"
export PATH="$VENV/bin:$PATH"

cd "$REPO_ROOT/python"
echo "== maturin develop --release (python/ -> $VENV) =="
maturin develop --release --quiet
echo "== pytest python/tests =="
python -m pytest -q --durations=8 tests "$@"
