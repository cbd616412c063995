"""The Ayo mancala family as reinforcement-learning environments.

Everything here calls the Rust core (``ayo-env``) through the native module ``ayo._ayo``:

* ``ayo.Game`` — one game, for search and analysis (legal actions, apply, board, record).
* ``ayo.VecEnv`` — thousands of games stepped in one call, numpy in and out, GIL released.
* ``ayo.Agent`` — the baseline agents ``random``, ``greedy``, ``alphabeta:D``, ``mcts:N``.
* ``ayo.gymnasium`` — Gymnasium environments (``ayo/Oware-v1`` …) and a native ``VectorEnv``;
  ``ayo.pettingzoo`` — PettingZoo AEC environments. Both are imported on demand, so ``ayo``
  itself needs only numpy.
"""

from ayo._ayo import Game, describe, variants

__all__ = ["Game", "describe", "variants"]

try:  # the native VecEnv and agents land in steps; export what this build has
    from ayo._ayo import VecEnv  # noqa: F401

    __all__.append("VecEnv")
except ImportError:  # pragma: no cover
    pass
try:
    from ayo._ayo import Agent  # noqa: F401

    __all__.append("Agent")
except ImportError:  # pragma: no cover
    pass

