"""The Ayo mancala family as reinforcement-learning environments.

Everything here calls the Rust core (``ayo-env``) through the native module ``ayo._ayo``:

* ``ayo.Game`` — one game, for search and analysis (legal actions, apply, board, record).
* ``ayo.VecEnv`` — thousands of games stepped in one call, numpy in and out, GIL released.
* ``ayo.Agent`` — the baseline agents ``random``, ``greedy``, ``alphabeta:D``, ``mcts:N``, and
  trained checkpoints with their search (``"models/oware/oware-100min.ot:32"``, ``"….ot@1s"``).
* ``ayo.Net`` — a trained network: ``Net.load(path).evaluate(obs)``, without torch.
* ``ayo.rate`` — an agent, or any callable ``f(game) -> action``, placed on a variant's rating
  ladder (Elo with its interval; the ladders ship in the package), as ``ayo rate`` does;
  ``python -m ayo.engine`` puts a callable behind ``ayo engine``'s text protocol.
* ``ayo.Tablebase`` — an ``oware`` endgame table: exact values (or bounds) of positions, one game
  or a whole ``VecEnv`` at a time.
* ``ayo.gymnasium`` — Gymnasium environments (``ayo/Oware-v1`` …, registered on import when
  gymnasium is installed) and a native ``VectorEnv``; ``ayo.pettingzoo`` — PettingZoo AEC
  environments. Both are imported on demand, so ``ayo`` itself needs only numpy.
"""

from ayo._ayo import (
    AUTORESET_MODE,
    Agent,
    Game,
    Net,
    Rating,
    Tablebase,
    VecEnv,
    describe,
    rate,
    serve_engine,
    variants,
)

__all__ = [
    "AUTORESET_MODE",
    "Agent",
    "Game",
    "Net",
    "Rating",
    "Tablebase",
    "VecEnv",
    "describe",
    "rate",
    "serve_engine",
    "variants",
]

try:  # registering the Gymnasium ids is cheap once gymnasium is installed
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:  # pragma: no cover
    pass
else:
    from ayo.gymnasium import register_envs as _register_envs

    _register_envs()
