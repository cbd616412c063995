"""The package with the RL libraries that researchers use, as a new user would use them: SB3's
own vector-env factory and sb3-contrib's MaskablePPO, Gymnasium's RecordVideo on the
``rgb_array`` frames, a CleanRL-style PPO on the native vector env, PettingZoo's turn-based
parallel conversion with SuperSuit's observation wrappers. The examples in ``examples/`` are the
ones the README shows; these tests run them."""

import importlib.util
import pathlib

import gymnasium as gym
import numpy as np
import pytest

import ayo

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"


def example(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_sb3_make_vec_env_and_maskable_ppo_learn():
    # SB3's make_vec_env asks for render_mode="rgb_array" first: it used to be refused.
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("ayo/Oware-v1", n_envs=2, seed=0)
    assert venv.render_mode == "rgb_array"
    venv.reset()
    assert venv.render().dtype == np.uint8
    score = example("sb3_maskable_ppo").main(steps=20_000)
    # random play wins about half of its games against random; the policy learns to do better
    assert score >= 0.6, score


def test_cleanrl_style_ppo_on_the_vector_env_learns():
    first = example("cleanrl_ppo").main(updates=2)
    later = example("cleanrl_ppo").main(updates=50)
    assert later > first + 0.2, (first, later)


def test_pettingzoo_parallel_with_supersuit_wrappers():
    totals = example("pettingzoo_parallel").main(games=4)
    assert len(totals) == 4
    for t in totals:
        assert sorted(t.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_aec_to_parallel_is_refused_and_turn_based_conversion_is_the_way():
    from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

    from ayo.pettingzoo import env

    with pytest.raises(AssertionError):
        aec_to_parallel(env("oware"))
    par = turn_based_aec_to_parallel(env("oware", obs_type="box"))
    obs, infos = par.reset(seed=0)
    assert set(obs) == {"player_0", "player_1"}
    assert infos["player_0"]["action_mask"].any() and not infos["player_1"]["action_mask"].any()


def test_supersuit_observation_wrappers_on_the_box_env():
    import supersuit as ss
    from pettingzoo.test import api_test

    from ayo.pettingzoo import env

    wrapped = ss.normalize_obs_v0(ss.flatten_v0(env("ncho", obs_type="box")), env_min=0, env_max=1)
    wrapped.reset(seed=0)
    obs = wrapped.observe("player_0")
    assert obs.dtype == np.float32 and obs.ndim == 1
    assert (obs >= 0).all() and (obs <= 1).all()
    api_test(env("yao", obs_type="box"), num_cycles=200)


def test_record_video_records_a_game(tmp_path):
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make("ayo/Ayo-v1", render_mode="rgb_array", opponent="greedy"),
        str(tmp_path),
        episode_trigger=lambda e: True,
        disable_logger=True,
    )
    obs, info = env.reset(seed=0)
    frames = [env.render()]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        frames.append(env.render())
        done = terminated or truncated
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000
    assert len({f.tobytes() for f in frames}) > len(frames) // 2, "the frames follow the game"
