"""PettingZoo AEC environments for every Ayo variant.

``ayo.pettingzoo.env("oware")`` follows PettingZoo's classic board games (connect four, chess):
agents ``player_0`` (South, moves first by default) and ``player_1`` (North); each observation is
a dict ``{"observation": float32, "action_mask": int8}``; the action mask is all zeros for the
agent not to move; an illegal move ends the game with reward -1 for the agent who made it and 0
for the other (``TerminateIllegalWrapper``, as in PettingZoo's classic games).
``ayo.pettingzoo.raw_env`` is the environment without the wrappers (it raises ``ValueError`` on
an illegal move and changes nothing).

``obs_type="box"`` gives a flat float32 ``Box`` observation instead, with the mask in
``info["action_mask"]``: what SuperSuit's observation wrappers (``flatten_v0``,
``normalize_obs_v0``) need. ``render_mode="rgb_array"`` returns a picture of the board.

A parallel env: the players move in turn, so PettingZoo's ``aec_to_parallel`` refuses this env
(it is not ``is_parallelizable``); ``pettingzoo.utils.conversions.turn_based_aec_to_parallel``
is the conversion for turn-based games (the agent not to move acts with a no-op that is ignored)::

    from pettingzoo.utils.conversions import turn_based_aec_to_parallel
    par = turn_based_aec_to_parallel(env("oware", obs_type="box"))

The observation is the variant's own (``ayo.Game.observation``): the current position seen by
the player to move. The agent not to move receives that same vector, with an all-zero mask.
``lookahead=True`` appends the look-ahead features (``ayo.Game.tactics``: what each move gains
by the baselines' heuristic; in the fours games, by what the round would give if it ended
now); ``lookahead=2`` then also ``ayo.Game.exchanges`` (each move's gain once the best answer
is counted), ``lookahead=3`` a third ply (once the mover's best reply is counted too),
``lookahead=4`` a fourth (once the opponent's best answer to that reply is counted too).

    from ayo.pettingzoo import env
    e = env("oware")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # name the package that is missing, and the extra that brings both
    raise ImportError(
        f"ayo.pettingzoo needs the package {e.name!r}, which is not installed: "
        "pip install 'ayo[pettingzoo]' (PettingZoo and Gymnasium)"
    ) from e
import numpy as np

from ayo._ayo import Game
from ayo.gymnasium import observation_box

__all__ = ["env", "raw_env"]


def env(variant: str = "oware", **kwargs: Any) -> AECEnv:
    """The AEC environment of ``variant`` with PettingZoo's standard wrappers for board games."""
    e: AECEnv = raw_env(variant, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv, EzPickle):
    """One game of ``variant`` between ``player_0`` (South) and ``player_1`` (North).

    ``first``: the player who moves first; ``max_plies``: a game still live after that many
    plies is truncated for both agents; ``lookahead``: the observation ends with the
    look-ahead features; ``**options``: the variant preset's options.
    Rewards: each agent's result (+1 / -1 / 0) when the game ends, else 0.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "ayo_v1", "is_parallelizable": False}

    def __init__(
        self,
        variant: str = "oware",
        first: int = 0,
        max_plies: int | None = 1000,
        render_mode: str | None = None,
        obs_type: str = "dict",
        lookahead: bool | int = False,
        **options: Any,
    ) -> None:
        EzPickle.__init__(self, variant, first, max_plies, render_mode, obs_type, lookahead, **options)
        if obs_type not in ("dict", "box"):
            raise ValueError(f'obs_type must be "dict" or "box", got {obs_type!r}')
        self.obs_type = obs_type
        self.lookahead = int(lookahead)
        super().__init__()
        self.game = Game(variant, first=first, **options)  # ValueError for a bad variant/option
        self.variant, self.first, self.options = variant, first, options
        self.max_plies = max_plies
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"ayo_{variant.split('@')[0]}_v1")

        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        n = self.game.num_actions
        box = observation_box(*self.game.observation_spec(self.lookahead))
        if obs_type == "box":
            obs_space = box
        else:
            obs_space = spaces.Dict({"observation": box, "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str):
        obs = self.game.observation(self.lookahead)
        if self.obs_type == "box":
            return obs
        return {"observation": obs, "action_mask": self._mask(agent)}

    def _mask(self, agent: str) -> np.ndarray:
        """``agent``'s legal actions (int8; all zeros when it is not to move)."""
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        if not self.game.is_terminal() and self.possible_agents[self.game.to_play] == agent:
            mask[self.game.action_mask()] = 1
        return mask

    def _set_infos(self) -> None:
        """With ``obs_type="box"`` the mask travels in ``info["action_mask"]``."""
        if self.obs_type == "box":
            for a in self.agents:
                self.infos[a] = {"action_mask": self._mask(a)}

    def _reset_state(self) -> None:
        self.game = Game(self.variant, first=self.first, **self.options)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.to_play]
        self._set_infos()

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._reset_state()
        if self.render_mode == "human":
            self.render()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.game.apply(int(action))  # ValueError if illegal; the game is unchanged
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_terminal():
            returns = self.game.returns()
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] = float(returns[i])
                self.terminations[a] = True
            # every agent sees the end once, the one who moved last last
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        else:
            if self.max_plies is not None and self.game.ply >= self.max_plies:
                self.truncations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[self.game.to_play]
        self._set_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "rgb_array":
            return self.game.render_rgb()
        print(self.game)
        return None

    # Pickling keeps the game in progress (EzPickle alone would rebuild a fresh one).
    def __getstate__(self) -> dict:
        return self.__dict__.copy()

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def close(self) -> None:
        pass
