"""Type stubs of the native module `ayo._ayo` (Rust, pyo3)."""

import os
import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

OptionValue = str | int | float | bool | None

#: The declared auto-reset mode of ``VecEnv``: ``"same-step"`` (Gymnasium ``AutoresetMode.SAME_STEP``).
AUTORESET_MODE: str

def variants() -> list[str]:
    """The names of every variant preset, e.g. ``["oware", "ayo", "ayoayo"]``."""

def describe(variant: str, **options: OptionValue) -> str:
    """The rules summary and action encoding of a variant, as printed by ``ayo rules``."""

class Game:
    """One game of a variant: legal actions, moves, the board, scores and the game's record."""

    def __init__(self, variant: str, first: int = 0, **options: OptionValue) -> None:
        """A new game of ``variant`` (``"oware"`` or ``"oware@1"``), player ``first`` to move.

        Raises ``ValueError`` for an unknown variant, version or option, or a bad option value.
        """
    @staticmethod
    def from_notation(variant: str, notation: str, **options: OptionValue) -> Game:
        """A game starting from ``notation`` (see ``notation()``)."""
    def render_rgb(self, bottom: int = 0) -> npt.NDArray[np.uint8]:
        """A picture of the board, uint8 ``[height, width, 3]``, seen from ``bottom``'s side."""
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickles the game by its record (replayed on loading)."""
    @staticmethod
    def from_record(json: str) -> Game:
        """The game at the end of a JSON game record, every move replayed and checked."""
    @property
    def variant(self) -> str:
        """``"name@version"`` of the variant."""
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_len(self) -> int: ...
    @property
    def observation_bounds(self) -> tuple[float, float]:
        """``(low, high)`` of every observation feature: 0 and the number of seeds in play."""
    def observation_spec(self, lookahead: bool | int = False) -> tuple[int, float, float]:
        """``(length, low, high)`` of ``observation(lookahead)``: what an observation space
        needs (with ``lookahead`` the features reach below 0: a move can lose seeds)."""
    @property
    def board(self) -> list[int]:
        """Seeds per pit in absolute pit order (0..11 for 2 × 6 boards)."""
    @property
    def scores(self) -> list[int]:
        """Seeds each player has taken, South (player 0) first."""
    @property
    def to_play(self) -> int:
        """The player to move (0 or 1), or -1 once the game is over."""
    @property
    def ply(self) -> int:
        """Number of actions played."""
    def legal_actions(self) -> list[int]: ...
    def action_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply(self, action: int) -> None:
        """Plays ``action``; an illegal action raises ``ValueError`` and changes nothing."""
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]:
        """+1 win, -1 loss, 0 draw from each player's view; zeros until the end."""
    def observation(self, lookahead: bool | int = False) -> npt.NDArray[np.float32]:
        """The observation from the view of the player to move; with ``lookahead`` (``True`` or
        ``1``), followed by ``tactics()``, with ``lookahead=2`` then by ``exchanges()``, with
        ``lookahead=3`` then by the third ply (each move's gain once the answer and the mover's
        best reply are counted), with ``lookahead=4`` then by the fourth (the opponent's best answer
        to that reply counted too) (as ``VecEnv(..., lookahead=...)`` writes its rows)."""
    def tactics(self) -> npt.NDArray[np.float32]:
        """Look-ahead features: each action's gain by the baselines' heuristic (seeds / 8), and
        in yao the opponent's threats; what a network trained with ``lookahead`` also takes."""
    def exchanges(self) -> npt.NDArray[np.float32]:
        """The second ply of look-ahead (``num_actions``): each action's gain once the best
        answer to it is counted; what a network trained with ``lookahead=2`` also takes."""
    @property
    def tactics_len(self) -> int: ...
    def notation(self) -> str: ...
    def hash(self) -> int: ...
    def action_name(self, action: int) -> str: ...
    def record(self) -> str:
        """The game so far as a JSON game record."""
    def clone(self) -> Game: ...
    def __copy__(self) -> Game: ...
    def __deepcopy__(self, memo: Any) -> Game: ...
    def __eq__(self, other: object) -> bool: ...

class VecEnv:
    """N games of one variant stepped together in Rust (the GIL is released while stepping).

    Auto-reset is same-step: a game that ends is replaced inside the step that ends it, so the
    returned observations and masks always describe live games; the finished games stay
    reachable through ``final_observations()`` and ``final_returns()``.
    """

    def __init__(
        self,
        variant: str,
        num_envs: int,
        seed: int = 0,
        num_threads: int = 0,
        max_plies: int | None = 1000,
        first: str | int | None = None,
        lookahead: bool | int = False,
        **options: OptionValue,
    ) -> None:
        """``num_envs`` games of ``variant`` on ``num_threads`` threads (0 = one per core).

        ``max_plies``: a game still live after that many plies is truncated (``None``: never).
        ``first``: ``"south"``/``0`` (default), ``"north"``/``1``, ``"alternate"`` or ``"random"``.
        ``lookahead``: each observation row ends with the look-ahead features of that many plies
        (``True``: 1, ``Game.tactics``; 2: then ``Game.exchanges``; 3: then the third ply).
        Raises ``ValueError`` for an unknown variant or option or a bad setting.
        """
    @property
    def variant(self) -> str: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_threads(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_len(self) -> int: ...
    @property
    def observation_bounds(self) -> tuple[float, float]: ...
    @property
    def lookahead(self) -> int: ...
    @property
    def max_plies(self) -> int | None: ...
    @property
    def seed(self) -> int: ...
    @property
    def autoreset_mode(self) -> str: ...
    def reset(
        self, seed: int | list[int] | None = None, mask: npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, npt.NDArray[Any]]]:
        """``(obs [N, observation_len] float32, info)``; ``info["action_mask"]`` bool
        ``[N, num_actions]``, ``info["to_play"]`` uint8 ``[N]``. ``seed``: one or one per game;
        ``mask``: only the games marked start a new episode."""
    def step(
        self, actions: npt.ArrayLike, active: npt.ArrayLike | None = None
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, npt.NDArray[Any]],
    ]:
        """Plays one action per game: ``(obs, rewards [N, 2], terminated, truncated, info)``.

        ``rewards[i, p]`` is player ``p``'s result on the step that ends game ``i``, else 0.
        Non-integer actions raise ``TypeError``; a wrong shape, an out-of-range or an illegal
        action raises ``ValueError`` naming the game and the action, and no game is changed.
        """
    def sample_actions(self) -> npt.NDArray[np.int64]:
        """One uniformly random legal action per game."""
    def game(self, i: int) -> Game:
        """Game ``i``'s live position as a ``Game`` (a copy)."""
    def render_rgb(self, i: int, bottom: int = 0) -> npt.NDArray[np.uint8]:
        """A picture of game ``i``'s board."""
    def final_action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions in each slot's last finished game ``[N, num_actions]``."""
    def action_masks(self) -> npt.NDArray[np.bool_]: ...
    def final_observations(self) -> npt.NDArray[np.float32]:
        """The observation of each slot's last finished game ``[N, observation_len]``."""
    def final_returns(self) -> npt.NDArray[np.float32]:
        """Each player's result in each slot's last finished game ``[N, 2]`` (0 if truncated)."""
    def scores(self) -> npt.NDArray[np.int32]: ...
    def plies(self) -> npt.NDArray[np.uint32]: ...
    def episodes(self) -> npt.NDArray[np.uint32]: ...
    @staticmethod
    def _restore(variant: str, options: list[tuple[str, str]], snapshot: str, num_threads: int) -> VecEnv:
        """Unpickling: every game's position (checked against the rules) and random stream."""
    def __reduce__(self) -> tuple[Any, tuple[str, list[tuple[str, str]], str, int]]:
        """Pickles the env by its configuration and each game's position and random state."""
    def __len__(self) -> int: ...

class Agent:
    """An agent: ``random``, ``greedy``, ``alphabeta:D``, ``mcts:N``, or a checkpoint with its
    search: ``PATH`` (32 simulations), ``PATH:SIMS`` or ``PATH@TIME`` (``1s``, ``250ms``)."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        """Raises ``ValueError`` for an unknown or malformed spec or a damaged checkpoint."""
    @property
    def name(self) -> str: ...
    @property
    def variant(self) -> str | None:
        """The checkpoint's variant (``"oware@1"``), ``None`` for a baseline."""
    def choose(self, game: Game) -> int:
        """A legal action for the player to move (the game is not changed)."""
    def analyse(self, game: Game) -> tuple[int, float | None, int]:
        """``(action, value from the mover's view or None, work)``."""
    def choose_batch(self, games: list[Game]) -> list[int]: ...
    def choose_vec(self, env: VecEnv) -> npt.NDArray[np.int64]:
        """One action per game of ``env``, ready for ``env.step``."""
    @staticmethod
    def _restore(spec: str, seed: int, random_state: int | None) -> Agent:
        """Unpickling: the agent rebuilt with its random stream where it was."""
    def __reduce__(self) -> tuple[Any, tuple[str, int, int | None]]:
        """Pickles the agent by its spec, seed and random state."""

class Net:
    """A trained network, evaluated without torch."""

    @staticmethod
    def load(path: str | os.PathLike[str]) -> Net:
        """Reads a checkpoint (``.ot``); ``ValueError`` for a damaged file."""
    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickles the network by its checkpoint's path (read again on loading)."""
    @property
    def variant(self) -> str: ...
    @property
    def shape(self) -> dict[str, int]:
        """``inputs``, ``actions``, ``width``, ``blocks``, ``levels``, ``lookahead``."""
    @property
    def step(self) -> int: ...
    def input(self, game: Game) -> npt.NDArray[np.float32]:
        """The network's input for the position: ``game.observation(shape["lookahead"])``."""
    def evaluate(self, obs: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """Policy logits ``[n, actions]`` and values ``[n]`` of inputs ``[n, inputs]``."""
    def analyse(self, game: Game) -> tuple[float, npt.NDArray[np.float32]]:
        """``(value, policy)`` of the position: masked softmax over the legal actions."""

class Tablebase:
    """An ``oware`` endgame table: the exact value, or bounds on it, of every board with at most
    ``max_seeds`` seeds (the margin its mover will still make under best play from a fresh
    repetition memory; docs/tablebase.md)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Opens the table in ``path``; ``ValueError`` names a missing, wrong or damaged file."""
    @staticmethod
    def build(path: str | os.PathLike[str], seeds: int) -> Tablebase:
        """Builds every layer up to ``seeds`` into ``path`` (resuming) and opens it."""
    @property
    def max_seeds(self) -> int: ...
    def probe(self, game: Game) -> tuple[int, int] | None:
        """``(lo, hi)`` of the board's value for the mover, or ``None`` outside the table."""
    def solve(self, game: Game) -> int | None:
        """The game's result for the mover (1, 0, -1) where the table decides it, else ``None``."""
    def probe_boards(self, boards: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """``lo, hi`` of boards ``[N, 12]`` (mover's row first); ``lo > hi`` outside the table."""
    def probe_env(self, env: VecEnv) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8], npt.NDArray[np.int8]]:
        """``lo, hi, result`` of every live game of ``env`` (``result`` -2 where undecided)."""

#: What ``rate`` and ``serve_engine`` can play: an ``Agent``, an agent spec (read as
#: ``Agent(spec, seed)`` reads it) or a policy, any callable ``f(game) -> action``.
AgentLike = Agent | str | Callable[[Game], int]

class Rating:
    """An agent's rating on a ladder (``rate``); ``str(rating)`` is the table ``ayo rate`` prints."""

    @property
    def elo(self) -> float:
        """The agent's Elo on the ladder."""
    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval ``(low, high)``, the rungs' Elo held exact (an agent that beats the
        top rung in every game gets a finite but wide one: read its Elo as a lower bound)."""
    @property
    def games(self) -> int: ...
    @property
    def rounds(self) -> int:
        """Rounds played: the first against the middle rung, then the rungs around the estimate."""
    @property
    def agent(self) -> str:
        """The rated agent's name (``python:MODULE:NAME`` for a callable)."""
    @property
    def variant(self) -> str:
        """``"name@version"`` of the ladder's games."""
    @property
    def ladder_version(self) -> int:
        """The ladder's version: cite it with the rating."""
    @property
    def ladder(self) -> pathlib.Path:
        """The ladder file played."""
    @property
    def seconds(self) -> float: ...
    @property
    def rungs(self) -> list[dict[str, Any]]:
        """Per rung played, from the weakest: ``rung`` (its place), ``spec``, ``name``, ``elo``
        (the rung's), ``wins``, ``draws``, ``losses``, ``score``, ``pentanomial`` (the agent's
        pairs that scored 0, ½, 1, 1½, 2) and ``nelo`` (``(nElo, low, high)`` or ``None``)."""

def rate(
    agent: AgentLike,
    variant: str,
    *,
    games: int = 2000,
    precision: float = 40.0,
    seed: int = 0,
    ladder: str | os.PathLike[str] | None = None,
) -> Rating:
    """Places ``agent`` on ``variant``'s rating ladder as ``ayo rate`` does (docs/rating.md):
    game pairs (one opening, each seat once) against the middle rung, then against the rungs
    just below and above its estimate, its Elo fitted with the rungs held fixed, until the 95 %
    interval is ± ``precision`` Elo or ``games`` games are played.

    ``ladder``: a ladder file (``ayo ladder``); by default the one shipped in the package for the
    variant (``ayo/ladders/<variant>/ladder.json``, with the networks its rungs name: every rung
    is played, networks on the CPU without torch). A callable is called with an ``ayo.Game`` at
    the position (its record starts there) and must return a legal action; if it raises, the
    rating stops and that exception is raised; an answer that is not an int raises
    ``TypeError``, an action that cannot be played ``ValueError`` naming it, the position and
    the legal actions. An ``Agent`` is played by a copy (it is not changed). ``ValueError``
    for an unknown variant, a variant without a shipped ladder, a ladder of other games, a
    changed network (its SHA-256), ``games < 2`` or ``precision <= 0``. Ctrl-C stops it between
    game pairs. Releases the GIL while the rungs think.
    """

def serve_engine(agent: AgentLike, variant: str, *, options: str = "", seed: int = 0) -> None:
    """Answers ``ayo engine``'s text protocol (docs/engine.md) for ``agent`` on standard input and
    output until ``quit`` or the end of the input (``python -m ayo.engine``). A callable that
    raises or answers an unplayable action is answered ``error … chose no move in this position
    (it gave up)`` (its traceback on stderr) and the engine goes on. ``options``: the variant's
    options, ``key=value,…``."""
