"""A CleanRL-style PPO (one file, masked logits) on the native vector env from ``gym.make_vec``:
thousands of games stepped in Rust, the policy playing ``seat`` 0 against a fixed opponent.
``python examples/cleanrl_ppo.py --updates 200``"""

import argparse

import gymnasium as gym
import numpy as np
import torch
from torch import nn

import ayo  # noqa: F401


class Agent(nn.Module):
    def __init__(self, obs_len: int, actions: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_len, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh())
        self.policy, self.value = nn.Linear(128, actions), nn.Linear(128, 1)

    def act(self, obs, mask, action=None):
        h = self.body(obs)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.value(h).squeeze(-1)


def main(updates: int, num_envs: int = 64, steps: int = 32, opponent: str = "random", seed: int = 0) -> float:
    torch.manual_seed(seed)
    envs = gym.make_vec("ayo/Oware-v1", num_envs=num_envs, vectorization_mode="vector_entry_point", opponent=opponent, num_threads=1)
    obs_len, n_actions = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(obs_len, n_actions)
    opt = torch.optim.Adam(agent.parameters(), lr=2.5e-4)
    obs, info = envs.reset(seed=seed)
    obs, mask = torch.tensor(obs), torch.tensor(info["action_mask"])
    results = []
    for update in range(updates):
        buf = {k: [] for k in ("obs", "mask", "act", "logp", "rew", "done", "val")}
        for _ in range(steps):
            with torch.no_grad():
                action, logp, _, value = agent.act(obs, mask)
            nobs, reward, term, trunc, info = envs.step(action.numpy())
            for k, v in zip(buf, (obs, mask, action, logp, torch.tensor(reward), torch.tensor(term | trunc), value)):
                buf[k].append(v)
            results.extend(reward[term | trunc])
            obs, mask = torch.tensor(nobs), torch.tensor(info["action_mask"])
        b = {k: torch.stack(v) for k, v in buf.items()}
        # Returns: rewards come only at the end of a game, so the plain discounted sum with
        # bootstrapping from the last value is enough (gamma 0.99, no GAE).
        with torch.no_grad():
            ret, running = torch.zeros_like(b["rew"]), agent.act(obs, mask)[3]
        for t in reversed(range(steps)):
            running = b["rew"][t] + 0.99 * running * (~b["done"][t])
            ret[t] = running
        adv = ret - b["val"]
        for _ in range(4):
            _, logp, ent, value = agent.act(b["obs"].flatten(0, 1), b["mask"].flatten(0, 1), b["act"].flatten())
            ratio = (logp - b["logp"].flatten()).exp()
            a = adv.flatten()
            a = (a - a.mean()) / (a.std() + 1e-8)
            loss = -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean() + 0.5 * (value - ret.flatten()).pow(2).mean() - 0.01 * ent.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    recent = float(np.mean(results[-200:])) if results else 0.0
    print(f"after {updates} updates ({updates * steps * num_envs} steps): mean result of the last 200 games {recent:+.2f}")
    return recent


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--updates", type=int, default=200)
    main(parser.parse_args().updates)
