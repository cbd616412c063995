"""Gymnasium environments for every Ayo variant.

* ``AyoEnv`` — one game against an opponent policy that plays the other seat. Registered as
  ``ayo/Oware-v1``, ``ayo/Ayo-v1``, … (one id per name in ``ayo.variants()``, the version being the
  variant's)::

      import gymnasium as gym, ayo
      env = gym.make("ayo/Oware-v1", opponent="alphabeta:2")
      obs, info = env.reset(seed=0)
      obs, reward, terminated, truncated, info = env.step(info["action_mask"].nonzero()[0][0])

  Action masks: ``info["action_mask"]`` (bool) and ``env.action_masks()`` (what sb3-contrib's
  ``MaskablePPO`` calls); with ``obs_type="dict"`` the observation is
  ``{"observation": ..., "action_mask": int8}`` instead (RLlib, Tianshou style).
* ``AyoVectorEnv`` — a native ``gymnasium.vector.VectorEnv`` over ``ayo.VecEnv`` (self-play: the
  policy plays both seats). ``gym.make_vec("ayo/Oware-v1", num_envs=4096,
  vectorization_mode="vector_entry_point")`` builds one.

The rules all live in Rust; this module only arranges seats, spaces and the Gymnasium protocol.
"""

from __future__ import annotations

from typing import Any, Callable, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ayo._ayo import Agent, Game, VecEnv, variants

__all__ = ["AyoEnv", "AyoVectorEnv", "env_id", "register_envs"]

#: An opponent: an agent spec (``"random"``, ``"greedy"``, ``"alphabeta:4"``, ``"mcts:200"``),
#: an ``ayo.Agent``, or a function from an ``ayo.Game`` to an action.
Opponent = Union[str, Agent, Callable[[Game], int]]


def env_id(variant: str) -> str:
    """The Gymnasium id of a variant, e.g. ``"ayo/Oware-v1"``."""
    version = Game(variant).variant.split("@")[1]
    return f"ayo/{variant.capitalize()}-v{version}"


def register_envs() -> None:
    """Registers ``ayo/<Variant>-v<version>`` for every variant (done on ``import ayo``)."""
    for name in variants():
        id_ = env_id(name)
        if id_ in gymnasium.registry:
            continue
        gymnasium.register(
            id=id_,
            entry_point="ayo.gymnasium:AyoEnv",
            vector_entry_point="ayo.gymnasium:AyoVectorEnv",
            kwargs={"variant": name},
        )


def observation_box(length: int, low: float, high: float) -> spaces.Box:
    """The space of a variant's observation: ``length`` floats within ``[low, high]``
    (``Game.observation_spec``)."""
    return spaces.Box(low=low, high=high, shape=(length,), dtype=np.float32)


class AyoEnv(gymnasium.Env):
    """One game of ``variant``: the agent plays seat ``seat`` (0 = South, 1 = North, ``None`` =
    drawn at each reset) and ``opponent`` plays the other seat.

    * Observation: the variant's float32 observation from the agent's view (``Box``), or with
      ``obs_type="dict"`` a ``Dict`` of it and an int8 ``action_mask``. When the game has ended
      on the opponent's side of the board the final observation is from the view of the player
      who would have moved next, as ``ayo.Game.observation`` gives it. With ``lookahead=True`` (``1``)
      it ends with the look-ahead features (``ayo.Game.tactics``: what each move gains by the
      baselines' heuristic; in the fours games, by what the round would give if it ended now),
      as the shipped networks trained with them see a position; ``2``, ``3`` or ``4`` add the
      deeper plies (``ayo.Game.observation``), as the PettingZoo environment's.
    * Action: ``Discrete(num_actions)``; legal actions: ``info["action_mask"]`` /
      ``action_masks()``. An illegal action (``illegal_action="lose"``, the default, as
      PettingZoo's board games and as ``check_env``'s unmasked sampling needs) ends the episode
      with reward -1 and ``info["illegal_action"] = True``, the board unchanged; with
      ``illegal_action="raise"`` it raises ``ValueError`` and changes nothing.
    * Reward: the agent's result (+1 win, -1 loss, 0 draw) on the step that ends the game, else 0.
    * ``terminated``: the rules ended the game; ``truncated``: ``max_plies`` plies were played.
    * ``info``: ``action_mask`` (bool), ``to_play`` (the agent's seat while the game is live),
      ``seat``, ``scores`` and, once over, ``returns`` (both players').
    """

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 2}

    def __init__(
        self,
        variant: str = "oware",
        opponent: Opponent = "random",
        seat: int | None = 0,
        obs_type: str = "box",
        max_plies: int | None = 1000,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        lookahead: bool | int = False,
        **options: Any,
    ) -> None:
        self.game = Game(variant, **options)  # raises ValueError for a bad variant or option
        self.lookahead = int(lookahead)
        self.variant = variant
        self.options = options
        if seat not in (0, 1, None):
            raise ValueError(f"seat must be 0, 1 or None (drawn at each reset), got {seat!r}")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f'illegal_action must be "lose" or "raise", got {illegal_action!r}')
        self.illegal_action = illegal_action
        self._lost_by_illegal_action = False
        if obs_type not in ("box", "dict"):
            raise ValueError(f'obs_type must be "box" or "dict", got {obs_type!r}')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.seat_option = seat
        self.seat = 0 if seat is None else seat
        self.obs_type = obs_type
        self.max_plies = max_plies
        self.render_mode = render_mode
        self._opponent_spec = opponent
        if isinstance(opponent, str):
            Agent(opponent)  # raises ValueError for a bad spec now rather than at reset
        elif not (isinstance(opponent, Agent) or callable(opponent)):
            raise TypeError(f"opponent must be an agent spec, an ayo.Agent or a function of a Game, got {opponent!r}")
        self._opponent: Agent | Callable[[Game], int] | None = None

        box = observation_box(*self.game.observation_spec(self.lookahead))
        if obs_type == "dict":
            self.observation_space = spaces.Dict(
                {
                    "observation": box,
                    "action_mask": spaces.Box(0, 1, shape=(self.game.num_actions,), dtype=np.int8),
                }
            )
        else:
            self.observation_space = box
        self.action_space = spaces.Discrete(self.game.num_actions)

    # ---- Gymnasium protocol ----

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if self.seat_option is None:
            self.seat = int(self.np_random.integers(2))
        if isinstance(self._opponent_spec, str) and (self._opponent is None or seed is not None):
            self._opponent = Agent(self._opponent_spec, seed=int(self.np_random.integers(2**63)))
        elif not isinstance(self._opponent_spec, str):
            self._opponent = self._opponent_spec
        self.game = Game(self.variant, **self.options)
        self._lost_by_illegal_action = False
        self._play_opponent()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        if self.game.is_terminal() or self._lost_by_illegal_action:
            raise RuntimeError("step() called on a finished episode; call reset() first")
        action = int(action)
        if self.illegal_action == "lose" and not (0 <= action < self.game.num_actions and self.game.action_mask()[action]):
            self._lost_by_illegal_action = True
            info = dict(self._info(), illegal_action=True)
            return self._observation(), -1.0, True, False, info
        self.game.apply(action)  # ValueError naming the action if it is illegal
        self._play_opponent()
        terminated = self.game.is_terminal()
        truncated = not terminated and self.max_plies is not None and self.game.ply >= self.max_plies
        reward = float(self.game.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self):
        """``"ansi"``: the board as text; ``"human"``: printed; ``"rgb_array"``: a picture of the
        board (uint8 ``[height, width, 3]``, ``ayo.Game.render_rgb``) seen from the agent's seat,
        for ``RecordVideo``."""
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb(bottom=self.seat)
        if self.render_mode == "human":
            print(self.game)
        return None

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (sb3-contrib ``MaskablePPO`` calls this)."""
        return self.game.action_mask()

    # ---- helpers ----

    def _play_opponent(self) -> None:
        while not self.game.is_terminal() and self.game.to_play != self.seat:
            if self.max_plies is not None and self.game.ply >= self.max_plies:
                return
            opponent = self._opponent
            action = opponent.choose(self.game) if isinstance(opponent, Agent) else opponent(self.game.clone())
            self.game.apply(int(action))

    def _observation(self):
        obs = self.game.observation(self.lookahead)
        if self.obs_type == "dict":
            return {"observation": obs, "action_mask": self.game.action_mask().astype(np.int8)}
        return obs

    def _info(self) -> dict:
        info = {
            "action_mask": self.game.action_mask(),
            "to_play": self.game.to_play,
            "seat": self.seat,
            "scores": np.array(self.game.scores, dtype=np.int32),
        }
        if self.game.is_terminal():
            info["returns"] = np.array(self.game.returns(), dtype=np.float32)
        return info


class AyoVectorEnv(VectorEnv):
    """``num_envs`` games of ``variant`` stepped by ``ayo.VecEnv`` in Rust (GIL released).

    * **Self-play** (``opponent=None``, the default): one policy plays both seats. The
      observation of each game is from the view of its player to move (``info["to_play"]``);
      the reward of a step is that of the player who made the move (+1 / -1 / 0 on the step
      that ends the game, else 0).
    * **Against a fixed opponent** (``opponent``: an agent spec, an ``ayo.Agent`` or a function
      of an ``ayo.Game``): the policy plays seat ``seat`` of every game, as ``AyoEnv`` does; the
      opponent's moves are played inside ``reset`` and ``step``, so every observation is the
      policy's turn and every reward the policy's result.
    * **Auto-reset** (``autoreset_mode``, declared in ``metadata``), as Gymnasium's own vector
      envs do it:

      - ``AutoresetMode.NEXT_STEP`` (the default, Gymnasium's): the step that ends a game
        returns its final observation (``info["action_mask"]`` then describes the finished
        game); the next step starts that game afresh, ignoring its action, with reward 0.
      - ``AutoresetMode.SAME_STEP``: a game that ends is replaced inside the same step; the
        returned observation is the new game's; the finished one is in ``info["final_obs"]``
        and its info in ``info["final_info"]`` (a dict of arrays as Gymnasium batches infos:
        ``action_mask``, ``returns``), with ``_final_obs``/``_final_info`` marking which games
        ended.
      - ``AutoresetMode.DISABLED``: a finished game waits for ``reset(options={"reset_mask":
        mask})``; stepping while one waits raises ``RuntimeError``.

      In every mode ``info["final_returns"]`` (both players' results, ``_final_returns``
      marking the games that ended) is given on the step that ends games.
    * ``reset(seed=...)``: one integer, or a list of one per game.
    * ``lookahead=True`` (or ``1`` to ``4`` plies): each observation ends with the look-ahead features (``ayo.VecEnv``'s).
    * An illegal action raises ``ValueError`` naming the game and the action; no game changes.
    """

    def __init__(
        self,
        variant: str = "oware",
        num_envs: int = 1,
        seed: int = 0,
        num_threads: int = 0,
        max_plies: int | None = 1000,
        first: str | int = "south",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        opponent: Opponent | None = None,
        seat: int = 0,
        render_mode: str | None = None,
        lookahead: bool | int = False,
        **options: Any,
    ) -> None:
        self.env = VecEnv(
            variant,
            num_envs,
            seed=seed,
            num_threads=num_threads,
            max_plies=max_plies,
            first=first,
            lookahead=int(lookahead),
            **options,
        )
        self.variant, self.options = variant, options
        try:
            self.autoreset_mode = AutoresetMode(autoreset_mode)
        except ValueError:
            modes = [m.value for m in AutoresetMode]
            raise ValueError(f"autoreset_mode must be one of {modes}, got {autoreset_mode!r}") from None
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": ["rgb_array"], "render_fps": 2}
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be one of ['rgb_array'], got {render_mode!r}")
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        self.seat = seat
        if isinstance(opponent, str):
            opponent = Agent(opponent, seed=seed)  # ValueError for a bad spec
        elif not (opponent is None or isinstance(opponent, Agent) or callable(opponent)):
            raise TypeError(f"opponent must be None, an agent spec, an ayo.Agent or a function of a Game, got {opponent!r}")
        self.opponent = opponent
        self.num_envs = num_envs
        self.render_mode = render_mode
        self.single_observation_space = observation_box(self.env.observation_len, *self.env.observation_bounds)
        self.single_action_space = spaces.Discrete(self.env.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rows = np.arange(num_envs)
        self._to_play = np.zeros(num_envs, dtype=np.uint8)
        self._mask = np.zeros((num_envs, self.env.num_actions), dtype=bool)
        self._obs = np.zeros((num_envs, self.env.observation_len), dtype=np.float32)
        # Games that ended on the last step and wait (NEXT_STEP: for the next step; DISABLED:
        # for a reset); the Rust env has already started their next game.
        self._waiting = np.zeros(num_envs, dtype=bool)

    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        """Starts every game afresh (``seed``: one integer or one per game), or with
        ``options={"reset_mask": mask}`` only the games marked."""
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            if seed is not None:
                raise ValueError("reset with a reset_mask continues the other games: give no seed with it")
            mask = np.asarray(mask, dtype=bool)
            if mask.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},), got {mask.shape}")
            obs, info = self.env.reset(mask=mask)
            self._waiting &= ~mask
        else:
            if seed is not None:
                first = seed if np.isscalar(seed) else seed[0]
                self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(int(first))
            obs, info = self.env.reset(seed=None if seed is None else (int(seed) if np.isscalar(seed) else [int(x) for x in seed]))
            self._waiting[:] = False
        self._set(obs, info)
        self._play_opponents(np.ones(self.num_envs, dtype=bool) if mask is None else mask)
        self._keep_waiting()
        return self._obs.copy(), self._info()

    def step(self, actions):
        if self.autoreset_mode == AutoresetMode.DISABLED and self._waiting.any():
            games = np.flatnonzero(self._waiting).tolist()
            raise RuntimeError(
                f"games {games} have ended and autoreset_mode is DISABLED: "
                'call reset(options={"reset_mask": ...}) for them before stepping'
            )
        restarting = self._waiting.copy()  # NEXT_STEP: these games start afresh now
        active = ~restarting
        mover = self._to_play
        obs, rewards, terminated, truncated, info = self.env.step(actions, active=active)
        if self.opponent is None:
            reward = rewards[self._rows, mover]
        else:
            reward = rewards[:, self.seat].copy()
        done = terminated | truncated
        final_returns = self.env.final_returns()
        final_obs = self.env.final_observations()
        final_masks = self.env.final_action_masks()
        self._set(obs, info)
        if self.opponent is not None:
            # The opponent answers in the games still going, and opens the games that start
            # afresh now (this step's new games under SAME_STEP, the waiting ones under NEXT_STEP).
            going = ~done
            if self.autoreset_mode == AutoresetMode.SAME_STEP:
                going |= done
            r, t, tr, ended = self._play_opponents(going | restarting, skip_started=done & ~going)
            reward += r
            terminated |= t
            truncated |= tr
            done = terminated | truncated
            final_returns = self.env.final_returns()
            final_obs = self.env.final_observations()
            final_masks = self.env.final_action_masks()
        self._waiting[:] = False
        info = self._info()
        if done.any():
            info["final_returns"] = np.where(done[:, None], final_returns, 0).astype(np.float32)
            info["_final_returns"] = done
            if self.autoreset_mode == AutoresetMode.SAME_STEP:
                fo = np.full(self.num_envs, None, dtype=object)
                for i in np.flatnonzero(done):
                    fo[i] = final_obs[i].copy()
                # As Gymnasium batches infos: a dict of arrays, `_key` marking the games.
                fi = {
                    "action_mask": np.where(done[:, None], final_masks, False),
                    "_action_mask": done.copy(),
                    "returns": info["final_returns"],
                    "_returns": done.copy(),
                }
                info["final_obs"], info["_final_obs"] = fo, done.copy()
                info["final_info"], info["_final_info"] = fi, done.copy()
            else:
                # The finished game is what this step shows; its replacement waits.
                self._obs[done] = final_obs[done]
                self._mask[done] = final_masks[done]
                info["action_mask"] = self._mask.copy()
                self._waiting |= done
        return self._obs.copy(), reward.astype(np.float32), terminated, truncated, info

    # ---- helpers ----

    def _set(self, obs, info) -> None:
        self._obs, self._to_play, self._mask = obs, info["to_play"], info["action_mask"]

    def _keep_waiting(self) -> None:
        """Rows of games still waiting for a reset keep showing their finished game."""
        if self._waiting.any():
            w = self._waiting
            self._obs[w] = self.env.final_observations()[w]
            self._mask[w] = self.env.final_action_masks()[w]

    def _play_opponents(self, games: np.ndarray, skip_started: np.ndarray | None = None):
        """Plays the opponent in each game of ``games`` until the policy is to move or the game
        ends; returns the policy's rewards and the flags of the games that ended."""
        n = self.num_envs
        reward = np.zeros(n, dtype=np.float32)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        if self.opponent is None:
            return reward, terminated, truncated, terminated
        live = games.copy()
        if skip_started is not None:
            live &= ~skip_started
        while True:
            turn = live & (self._to_play != self.seat)
            if not turn.any():
                break
            idx = np.flatnonzero(turn)
            games_ = [self.env.game(int(i)) for i in idx]
            if isinstance(self.opponent, Agent):
                chosen = self.opponent.choose_batch(games_)
            else:
                chosen = [int(self.opponent(g)) for g in games_]
            actions = np.zeros(n, dtype=np.int64)
            actions[idx] = chosen
            obs, rewards, t, tr, info = self.env.step(actions, active=turn)
            self._set(obs, info)
            reward += rewards[:, self.seat]
            terminated |= t
            truncated |= tr
            if self.autoreset_mode != AutoresetMode.SAME_STEP:
                live &= ~(t | tr)  # the replacement of an ended game opens on the next step
        return reward, terminated, truncated, terminated | truncated

    def _info(self) -> dict:
        return {"action_mask": self._mask.copy(), "to_play": np.asarray(self._to_play).copy()}

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, bool ``[num_envs, num_actions]``."""
        return self._mask.copy()

    def sample_actions(self) -> np.ndarray:
        """One uniformly random legal action per game (from Rust, seeded per game)."""
        return self.env.sample_actions()

    def render(self):
        """``"rgb_array"``: a picture of every game's board (a tuple of uint8 images)."""
        if self.render_mode != "rgb_array":
            return None
        return tuple(self.env.render_rgb(i, bottom=self.seat if self.opponent is not None else 0) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        pass
