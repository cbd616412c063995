"""PettingZoo: the AEC env as a parallel env (turn-based conversion) with SuperSuit's observation
wrappers on the flat ``Box`` observation, two random players.
``python examples/pettingzoo_parallel.py``"""

import numpy as np
import supersuit as ss
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ayo.pettingzoo import env


def main(games: int = 5, seed: int = 0) -> list[dict]:
    aec = ss.normalize_obs_v0(ss.flatten_v0(env("oware", obs_type="box")), env_min=-1, env_max=1)
    par = turn_based_aec_to_parallel(aec)
    rng = np.random.default_rng(seed)
    totals = []
    for game in range(games):
        observations, infos = par.reset(seed=seed + game)
        total = {a: 0.0 for a in par.possible_agents}
        while par.agents:
            actions = {}
            for a in par.agents:
                mask = infos[a]["action_mask"]
                # the agent not to move has an all-zero mask: its action is ignored
                actions[a] = int(rng.choice(np.flatnonzero(mask))) if mask.any() else 0
            observations, rewards, terminations, truncations, infos = par.step(actions)
            for a, r in rewards.items():
                total[a] += r
        totals.append(total)
    print(totals)
    return totals


if __name__ == "__main__":
    main()
