"""Throughput of `ayo.VecEnv.step` driven from Python (observations and masks included).

    python python/bench.py [--variant oware] [--envs 4096] [--threads 2] [--seconds 5]

Each step plays one action in every game: the actions are drawn by `VecEnv.sample_actions`
(uniform over the legal actions, in Rust) and `step` returns fresh numpy arrays of
observations, rewards, flags, masks and players to move. Steps/s counts single-game steps
(calls × games). The loop over `step` alone is timed separately from sampling.

On a shared machine wall-clock figures fall with the load; the CPU time the process used is
also printed: steps per CPU-second, times the threads, estimates the throughput on idle cores.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import ayo


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", default="oware")
    p.add_argument("--envs", type=int, default=4096)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--seconds", type=float, default=5.0)
    args = p.parse_args()

    env = ayo.VecEnv(args.variant, args.envs, seed=0, num_threads=args.threads)
    env.reset()
    for _ in range(20):  # warm up the pool and the allocator
        env.step(env.sample_actions())

    calls, step_time, step_cpu = 0, 0.0, 0.0
    cpu_start = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        actions = env.sample_actions()
        t, c = time.perf_counter(), time.process_time()
        obs, rewards, terminated, truncated, info = env.step(actions)
        step_time += time.perf_counter() - t
        step_cpu += time.process_time() - c
        calls += 1
    total = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    steps = calls * args.envs
    finished = int(np.sum(env.episodes()))
    print(f"ayo.VecEnv {env.variant}: {args.envs} games, {env.num_threads} threads, {calls} calls")
    print(f"  step only          : {steps / step_time / 1e6:8.2f} M steps/s ({step_time / calls * 1e6:.0f} us per call)")
    print(f"  sample_actions+step: {steps / total / 1e6:8.2f} M steps/s")
    print(f"  per CPU-second     : {steps / step_cpu / 1e6:8.2f} M steps (step only), {steps / cpu / 1e6:.2f} M (sample_actions+step)")
    serial = cpu - step_cpu  # sampling and the Python loop run on one thread
    idle = steps / (serial + step_cpu / env.num_threads)
    print(f"  on {env.num_threads} idle cores    : {idle / 1e6:8.2f} M steps/s expected (sample_actions+step, from the CPU times)")
    print(f"  games finished     : {finished}")


if __name__ == "__main__":
    main()
