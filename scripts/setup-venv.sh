#!/usr/bin/env bash
# Create the project-local virtualenv (.venv at the repo root) holding the
# PyTorch wheel whose libtorch the `tch` crate links against, plus the Python
# tooling used by the project (maturin, pytest, reference game libraries).
#
# Idempotent: does nothing when .venv already has the right torch and the
# other packages importable. Usage: bash scripts/setup-venv.sh
set -euo pipefail

# tch 0.26 is built against exactly this libtorch version.
TORCH_VERSION="2.13.0"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv"
PY="$VENV/bin/python"
PYTHON_BIN="${PYTHON:-python3}"

# The RL libraries are those the Python package's tests use it with (python/tests/test_rl_libraries.py);
# moto's S3 server is the bucket of training/tests/integration/distributed.rs; Ray runs python/tests/test_ray.py.
extra_packages=(numpy maturin pytest gymnasium pettingzoo open_spiel stable-baselines3 sb3-contrib supersuit moviepy 'moto[server]' ray)

is_ready() {
    [ -x "$PY" ] || return 1
    "$PY" - "$TORCH_VERSION" <<'PYEOF' >/dev/null 2>&1
import sys
import torch
assert torch.__version__.startswith(sys.argv[1]), torch.__version__
import numpy, pytest, gymnasium, pettingzoo, pyspiel, stable_baselines3, sb3_contrib, supersuit, moviepy, moto, ray  # noqa: F401
import shutil, os
assert shutil.which("maturin", path=os.path.dirname(sys.executable))
PYEOF
}

if is_ready; then
    echo "setup-venv: $VENV already has torch==$TORCH_VERSION and tools; nothing to do"
    exit 0
fi

if [ ! -x "$PY" ]; then
    echo "setup-venv: creating $VENV with $("$PYTHON_BIN" --version 2>&1)"
    "$PYTHON_BIN" -m venv "$VENV"
fi

export PIP_DISABLE_PIP_VERSION_CHECK=1
# uv (from PyPI) installs the same packages as pip, downloading and unpacking them in parallel:
# on the 2-core machine 24 s from an empty cache where pip took 161 s from a full one (torch's
# CUDA wheels are about 3 GB).
"$PY" -m pip install --quiet uv
# Plain PyPI is the only index reachable; its Linux x86_64 wheel bundles the
# CUDA runtime as separate nvidia-* wheels but runs fine on a CPU-only machine.
"$PY" -m uv pip install --python "$PY" --upgrade pip "torch==$TORCH_VERSION" "${extra_packages[@]}"

if ! is_ready; then
    echo "setup-venv: installation finished but verification failed" >&2
    "$PY" -c "import torch; print('torch', torch.__version__)" >&2 || true
    exit 1
fi
echo "setup-venv: ready: $("$PY" -c 'import torch; print("torch", torch.__version__)')"
