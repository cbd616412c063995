"""``python -m ayo.engine``: a Python policy behind ``ayo engine``'s text protocol.

::

    python -m ayo.engine --variant oware --agent my_policies:greedy_ish
    python -m ayo.engine --variant oware --agent path/to/policy.py:choose
    python -m ayo.engine --variant oware --spec alphabeta:3

``--agent MODULE:FUNCTION`` names a callable ``f(game) -> action`` (``game`` is an ``ayo.Game`` at
the position to play, its record starting there): an importable module, or a ``.py`` file. The
engine speaks the protocol of docs/engine.md (``hello``, ``isready``, ``newgame``,
``position startpos|notation … [moves …]``, ``legal``, ``show``, ``go``, ``stop``, ``quit``; bad
input is answered ``error <message>`` and the engine goes on), answered by the same Rust code as
``ayo engine`` (``ayo.serve_engine``). So any program that drives engines can play the policy::

    ayo rate --variant oware --engine "python -m ayo.engine --variant oware --agent my_policies:f"

A policy that raises, or answers something that is not a legal action, is answered
``error … chose no move in this position (it gave up)`` with its traceback on stderr (``ayo rate``
counts that game as forfeited) and the engine goes on. While the engine runs, ``print`` in the
policy writes to stderr: standard output carries only the protocol.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pathlib
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

import ayo


def load_policy(target: str) -> Callable[[ayo.Game], int]:
    """The callable that ``MODULE:FUNCTION`` or ``FILE.py:FUNCTION`` names; ``ValueError`` names
    what could not be found."""
    where, sep, name = target.rpartition(":")
    if not sep or not where or not name:
        raise ValueError(f"--agent {target!r}: expected MODULE:FUNCTION or FILE.py:FUNCTION")
    if where.endswith(".py"):
        path = pathlib.Path(where)
        if not path.is_file():
            raise ValueError(f"--agent {target!r}: no file {where}")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ValueError(f"--agent {target!r}: cannot import module {where!r} ({e})") from e
    policy: Any = module
    for part in name.split("."):
        if not hasattr(policy, part):
            raise ValueError(f"--agent {target!r}: {where} has no {name!r}")
        policy = getattr(policy, part)
    if not callable(policy):
        raise ValueError(f"--agent {target!r}: {name} is a {type(policy).__name__}, not a callable")
    return policy


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m ayo.engine",
        description="A Python policy f(game) -> action (or an agent spec) behind ayo engine's "
        "text protocol (docs/engine.md) on standard input and output.",
    )
    parser.add_argument("--variant", required=True, help="variant name, e.g. oware (or oware@1)")
    parser.add_argument("--options", default="", help="the variant's options, key=value,…")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent", metavar="MODULE:FUNCTION", help="a callable f(game) -> action")
    who.add_argument("--spec", help="an agent spec instead: random, greedy, alphabeta:D, mcts:N, PATH:SIMS")
    parser.add_argument("--seed", type=int, default=0, help="seed of a spec's random choices")
    args = parser.parse_args(argv)
    # The protocol owns standard output: the policy's prints (at import too) go to stderr.
    sys.stdout = sys.stderr
    # Ctrl-C ends the engine as it ends `ayo engine` (Python would only note it while Rust reads).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        agent: Any = args.spec if args.spec is not None else load_policy(args.agent)
        ayo.serve_engine(agent, args.variant, options=args.options, seed=args.seed)
    except ValueError as e:
        parser.exit(2, f"python -m ayo.engine: {e}\n")


if __name__ == "__main__":
    main()
