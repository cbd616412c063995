"""Gymnasium: the registered single-game environments and the native vector environment."""

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import ayo
from ayo.gymnasium import AyoEnv, AyoVectorEnv, env_id

VARIANTS = ayo.variants()


def test_every_variant_has_a_registered_id():
    assert env_id("oware") == "ayo/Oware-v1"
    for v in VARIANTS:
        assert env_id(v) in gym.registry


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    "kwargs", [{}, {"obs_type": "dict"}, {"seat": 1, "opponent": "greedy"}, {"seat": None}, {"lookahead": True}]
)
def test_check_env_passes_without_warnings(variant, kwargs):
    env = gym.make(env_id(variant), **kwargs).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=False)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seat", [0, 1])
def test_episodes_against_an_opponent(variant, seat):
    env = gym.make(env_id(variant), seat=seat, opponent="alphabeta:2", max_plies=300)
    rng = np.random.default_rng(seat)
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        assert info["seat"] == seat and info["to_play"] == seat
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            assert env.observation_space.contains(obs)
            if not done:
                assert info["to_play"] == seat
                assert reward == 0
        if terminated:
            assert reward == info["returns"][seat]
            assert env.unwrapped.game.is_terminal()


def test_opponent_may_be_a_function_or_an_agent():
    seen = []

    def first_legal(game):
        seen.append(game.to_play)
        return game.legal_actions()[0]

    env = AyoEnv("oware", opponent=first_legal, seat=1)
    env.reset(seed=0)
    assert seen == [0]
    env = AyoEnv("oware", opponent=ayo.Agent("greedy", seed=3))
    env.reset(seed=0)
    env.step(0)


def test_illegal_action_loses_the_episode_by_default():
    env = AyoEnv("oware", opponent="greedy")
    env.reset(seed=0)
    env.step(5)
    before = env.game.clone()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game == before
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_illegal_action_raises_and_changes_nothing():
    env = AyoEnv("oware", illegal_action="raise")
    obs, info = env.reset(seed=0)
    env.step(5)
    before = env.unwrapped.game.clone()
    illegal = np.flatnonzero(~env.action_masks())
    for bad in list(illegal) + [6, -1]:
        with pytest.raises(ValueError):
            env.step(bad)
        assert env.game == before


@pytest.mark.parametrize(
    "kwargs, error",
    [
        ({"variant": "owari"}, ValueError),
        ({"colour": "red"}, ValueError),
        ({"seat": 2}, ValueError),
        ({"obs_type": "image"}, ValueError),
        ({"illegal_action": "ignore"}, ValueError),
        ({"opponent": "minimax"}, ValueError),
        ({"opponent": 3}, TypeError),
    ],
)
def test_bad_arguments_raise(kwargs, error):
    with pytest.raises(error):
        AyoEnv(**kwargs)


def test_render_ansi_draws_the_board():
    env = AyoEnv("oware", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.game)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("lookahead", [False, True])
def test_vector_env_in_same_step_mode_agrees_with_native(variant, lookahead):
    n = 32
    venv = gym.make_vec(
        env_id(variant),
        num_envs=n,
        vectorization_mode="vector_entry_point",
        num_threads=1,
        max_plies=150,
        autoreset_mode=AutoresetMode.SAME_STEP,
        lookahead=lookahead,
    )
    assert isinstance(venv.unwrapped, AyoVectorEnv) if hasattr(venv, "unwrapped") else True
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    native = ayo.VecEnv(variant, n, num_threads=1, max_plies=150, lookahead=lookahead)
    obs, info = venv.reset(seed=0)
    nobs, ninfo = native.reset(seed=0)
    assert venv.observation_space.contains(obs)
    np.testing.assert_array_equal(obs, nobs)
    ended = 0
    for _ in range(300):
        actions = native.sample_actions()
        mover = ninfo["to_play"]
        obs, reward, terminated, truncated, info = venv.step(actions)
        nobs, nrewards, nterm, ntrunc, ninfo = native.step(actions)
        np.testing.assert_array_equal(obs, nobs)
        assert venv.observation_space.contains(obs)
        np.testing.assert_array_equal(reward, nrewards[np.arange(n), mover])
        np.testing.assert_array_equal(terminated, nterm)
        np.testing.assert_array_equal(info["action_mask"], ninfo["action_mask"])
        done = terminated | truncated
        if done.any():
            ended += 1
            np.testing.assert_array_equal(info["_final_obs"], done)
            for i in np.flatnonzero(done):
                assert venv.single_observation_space.contains(info["final_obs"][i])
            assert all(info["final_obs"][i] is None for i in np.flatnonzero(~done))
    assert ended > 0
    venv.close()


def test_vector_env_illegal_action_raises():
    venv = AyoVectorEnv("oware", num_envs=3, num_threads=1)
    venv.reset(seed=0)
    venv.step(np.array([0, 0, 0]))
    venv.step(np.array([0, 0, 0]))
    masks = venv.action_masks()
    game = next(i for i in range(3) if not masks[i].all())
    actions = venv.sample_actions()
    actions[game] = np.flatnonzero(~masks[game])[0]
    with pytest.raises(ValueError, match=f"game {game}"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.action_masks(), masks)


def test_variant_options_pass_through_every_wrapper():
    from ayo.pettingzoo import raw_env

    env = gym.make("ayo/Oware-v1", seeds=3)
    obs, _ = env.reset(seed=0)
    np.testing.assert_array_equal(obs, ayo.Game("oware", seeds=3).observation())
    venv = AyoVectorEnv("oware", num_envs=2, num_threads=1, seeds=3)
    obs, _ = venv.reset(seed=0)
    np.testing.assert_array_equal(obs[1], ayo.Game("oware", seeds=3).observation())
    aec = raw_env("oware", seeds=3)
    aec.reset()
    np.testing.assert_array_equal(aec.observe("player_0")["observation"], ayo.Game("oware", seeds=3).observation())
    if "ncho" in VARIANTS:
        check_env(gym.make("ayo/Ncho-v1", episode="match", max_plies=400).unwrapped)


@pytest.mark.parametrize("obs_type", ["box", "dict"])
def test_lookahead_observation_ends_with_the_games_tactics(obs_type):
    env = AyoEnv("yao", opponent="greedy", obs_type=obs_type, lookahead=True)
    obs, info = env.reset(seed=3)
    for _ in range(40):
        x = obs["observation"] if obs_type == "dict" else obs
        assert env.observation_space.contains(obs)
        game = env.unwrapped.game
        np.testing.assert_array_equal(x[game.observation_len :], game.tactics())
        assert len(x) == game.observation_len + game.tactics_len
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            obs, info = env.reset()
