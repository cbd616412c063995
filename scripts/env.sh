# Source this file (from bash or zsh) before building or running the
# Rust crates that link libtorch:   source scripts/env.sh
#
# - LIBTORCH_USE_PYTORCH=1 makes torch-sys take libtorch (headers and shared
#   libraries) from the `torch` package of the python first on PATH, i.e.
#   .venv created by scripts/setup-venv.sh.
# - .venv/bin goes first on PATH so that python is the one torch-sys runs.
if [ -n "${BASH_SOURCE[0]:-}" ]; then
    _ayo_env_src="${BASH_SOURCE[0]}"
else
    _ayo_env_src="$0"  # zsh sets $0 to the sourced file
fi
_ayo_repo_root="$(cd "$(dirname "$_ayo_env_src")/.." && pwd)"

export LIBTORCH_USE_PYTORCH=1
case ":${PATH}:" in
    *":${_ayo_repo_root}/.venv/bin:"*) ;;
    *) export PATH="${_ayo_repo_root}/.venv/bin:${PATH}" ;;
esac
export VIRTUAL_ENV="${_ayo_repo_root}/.venv"

unset _ayo_env_src _ayo_repo_root
