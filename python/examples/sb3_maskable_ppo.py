"""SB3-contrib's MaskablePPO on ``ayo/Oware-v1`` against a fixed opponent, with SB3's own vector
env factory. ``python examples/sb3_maskable_ppo.py --steps 50000``"""

import argparse

import numpy as np
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_util import make_vec_env

import ayo  # noqa: F401  (registers the ayo/... ids)


def main(steps: int, opponent: str = "random", seed: int = 0) -> float:
    venv = make_vec_env("ayo/Oware-v1", n_envs=8, seed=seed, env_kwargs={"opponent": opponent})
    model = MaskablePPO("MlpPolicy", venv, n_steps=256, batch_size=512, seed=seed, device="cpu", verbose=0)
    model.learn(steps)
    # Play 40 games with the learned policy, masking illegal actions.
    env = venv.envs[0]
    wins = []
    for episode in range(40):
        obs, info = env.reset(seed=1000 + episode)
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, reward, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        wins.append(reward > 0)
    score = float(np.mean(wins))
    print(f"MaskablePPO after {steps} steps wins {score:.0%} of 40 games against {opponent}")
    return score


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--opponent", default="random")
    main(parser.parse_args().steps, parser.parse_args().opponent)
