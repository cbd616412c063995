"""The Gymnasium vector env's auto-reset modes, per-game seeds and fixed opponent, checked against
Gymnasium's own ``SyncVectorEnv`` over ``AyoEnv`` on the same games, and Gymnasium's vector
wrappers on it."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import NormalizeObservation, RecordEpisodeStatistics

import ayo
from ayo.gymnasium import AyoEnv, AyoVectorEnv, env_id

MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


def last_legal(game: ayo.Game) -> int:
    """A deterministic opponent, so that both vector envs play the same games."""
    return game.legal_actions()[-1]


@pytest.mark.parametrize("variant", ["oware", "ncho", "yao", "jodu"])
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("mode", MODES)
def test_every_mode_matches_gymnasiums_sync_vector_env(variant, seat, mode):
    n, plies = 3, 60
    ours = AyoVectorEnv(variant, num_envs=n, num_threads=1, max_plies=plies, opponent=last_legal, seat=seat, autoreset_mode=mode)
    ref = SyncVectorEnv(
        [lambda: AyoEnv(variant, opponent=last_legal, seat=seat, max_plies=plies) for _ in range(n)],
        autoreset_mode=mode,
    )
    assert ours.metadata["autoreset_mode"] == ref.metadata["autoreset_mode"] == mode
    obs, info = ours.reset(seed=0)
    robs, rinfo = ref.reset(seed=0)
    np.testing.assert_array_equal(obs, robs)
    mask = rinfo["action_mask"]
    rng = np.random.default_rng(seat)
    ended = 0
    for t in range(250):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        got, want = ours.step(actions), ref.step(actions)
        for name, a, b in zip(["obs", "reward", "terminated", "truncated"], got[:4], want[:4]):
            np.testing.assert_array_equal(a, b, err_msg=f"{name} at step {t}")
        np.testing.assert_array_equal(got[4]["action_mask"], want[4]["action_mask"])
        done = want[2] | want[3]
        ended += int(done.sum())
        if mode == AutoresetMode.SAME_STEP and done.any():
            np.testing.assert_array_equal(got[4]["_final_obs"], want[4]["_final_obs"])
            for i in np.flatnonzero(done):
                np.testing.assert_array_equal(got[4]["final_obs"][i], want[4]["final_obs"][i])
                np.testing.assert_array_equal(got[4]["final_info"]["action_mask"][i], want[4]["final_info"]["action_mask"][i])
        mask = want[4]["action_mask"].copy()
        if mode == AutoresetMode.DISABLED and done.any():
            with pytest.raises(RuntimeError, match="reset_mask"):
                ours.step(actions)
            a, b = ours.reset(options={"reset_mask": done}), ref.reset(options={"reset_mask": done})
            np.testing.assert_array_equal(a[0][done], b[0][done])
            np.testing.assert_array_equal(a[1]["action_mask"][done], b[1]["action_mask"][done])
            mask[done] = b[1]["action_mask"][done]
    assert ended >= n, "games ended and were reset during the run"


def test_next_step_is_the_default_and_ignores_the_action_of_a_restarting_game():
    venv = AyoVectorEnv("oware", num_envs=2, num_threads=1, max_plies=4)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    obs, info = venv.reset(seed=1)
    for _ in range(4):
        obs, reward, terminated, truncated, info = venv.step(venv.sample_actions())
    assert truncated.all() and not terminated.any()
    np.testing.assert_array_equal(info["_final_returns"], [True, True])
    # The next step starts both games afresh whatever the actions say (even illegal ones).
    obs, reward, terminated, truncated, info = venv.step(np.array([99, 99]) % 6)
    np.testing.assert_array_equal(obs, np.stack([ayo.Game("oware").observation()] * 2))
    assert not (terminated | truncated).any() and not reward.any()


def test_per_game_seeds_and_bad_reset_arguments():
    a = AyoVectorEnv("oware", num_envs=3, num_threads=1, first="random")
    b = AyoVectorEnv("oware", num_envs=3, num_threads=1, first="random")
    _, ia = a.reset(seed=[4, 5, 6])
    _, ib = b.reset(seed=[4, 5, 6])
    np.testing.assert_array_equal(ia["to_play"], ib["to_play"])
    np.testing.assert_array_equal(a.sample_actions(), b.sample_actions())
    with pytest.raises(ValueError, match="2 seeds given, expected one per game"):
        a.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="no seed"):
        a.reset(seed=1, options={"reset_mask": [True, False, False]})
    with pytest.raises(ValueError, match="autoreset_mode"):
        AyoVectorEnv("oware", autoreset_mode="Sometimes")


def test_a_fixed_opponent_makes_the_vector_env_single_agent():
    venv = AyoVectorEnv("ayo", num_envs=64, num_threads=1, opponent="greedy", seat=1, max_plies=300)
    obs, info = venv.reset(seed=0)
    assert (info["to_play"] == 1).all(), "the opponent (South) has moved first in every game"
    results = []
    for _ in range(400):
        obs, reward, terminated, truncated, info = venv.step(venv.sample_actions())
        results.extend(reward[terminated | truncated])
        live = ~(terminated | truncated)
        assert (info["to_play"][live] == 1).all()
    assert len(results) > 64
    # random play against greedy loses far more than it wins
    assert np.mean(results) < -0.3, np.mean(results)


def test_gymnasium_vector_wrappers_work_in_next_step_mode():
    venv = gym.make_vec(env_id("oware"), num_envs=16, vectorization_mode="vector_entry_point", num_threads=1, max_plies=200)
    venv = RecordEpisodeStatistics(NormalizeObservation(venv))
    obs, info = venv.reset(seed=0)
    episodes = 0
    for _ in range(400):
        obs, reward, terminated, truncated, info = venv.step(venv.unwrapped.sample_actions())
        assert np.isfinite(obs).all()
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert episodes > 0
    assert abs(float(obs.mean())) < 2.0, "observations are normalised"


def test_rgb_array_frames_of_every_game():
    venv = AyoVectorEnv("yao", num_envs=2, num_threads=1, render_mode="rgb_array")
    venv.reset(seed=0)
    frames = venv.render()
    assert len(frames) == 2 and frames[0].dtype == np.uint8 and frames[0].ndim == 3
    np.testing.assert_array_equal(frames[0], ayo.Game("yao").render_rgb())
