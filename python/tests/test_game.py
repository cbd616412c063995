"""`ayo.Game`: the single-game API, for every variant."""

import copy
import json

import numpy as np
import pytest

import ayo

VARIANTS = ayo.variants()


def play_randomly(game, rng, max_plies=2000):
    while not game.is_terminal() and game.ply < max_plies:
        game.apply(int(rng.choice(game.legal_actions())))
    return game


def test_variants_lists_the_presets():
    assert "oware" in VARIANTS and len(VARIANTS) == len(set(VARIANTS))


@pytest.mark.parametrize("variant", VARIANTS)
def test_start_position(variant):
    g = ayo.Game(variant)
    assert g.to_play == 0 and not g.is_terminal() and g.ply == 0
    assert g.variant.startswith(variant + "@")
    assert list(g.returns()) == [0.0, 0.0]
    assert all(isinstance(s, int) for s in g.board)
    assert g.legal_actions() and all(isinstance(a, int) for a in g.legal_actions())
    obs = g.observation()
    assert obs.dtype == np.float32 and obs.shape == (g.observation_len,)
    mask = g.action_mask()
    assert mask.dtype == np.bool_ and mask.shape == (g.num_actions,)
    assert np.flatnonzero(mask).tolist() == g.legal_actions()
    assert str(g) and variant in repr(g)


@pytest.mark.parametrize("variant", VARIANTS)
def test_observation_with_lookahead_is_the_observation_then_the_tactics(variant):
    rng = np.random.default_rng(2)
    length, low, high = g_spec = ayo.Game(variant).observation_spec(lookahead=True)
    plain = ayo.Game(variant).observation_spec()
    assert plain == (ayo.Game(variant).observation_len, *ayo.Game(variant).observation_bounds)
    assert low < 0 < high
    gains = 0
    for _ in range(5):
        g = ayo.Game(variant)
        while not g.is_terminal() and g.ply < 400:
            x = g.observation(lookahead=True)
            assert x.dtype == np.float32 and x.shape == (length,), g_spec
            np.testing.assert_array_equal(x, np.concatenate([g.observation(), g.tactics()]))
            assert low <= x.min() and x.max() <= high
            gains += int(np.any(g.tactics() != 0))
            g.apply(int(rng.choice(g.legal_actions())))
    assert gains > 0  # some position of some game offers a move that gains or loses


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_plies_of_lookahead_add_the_exchanges(variant):
    rng = np.random.default_rng(3)
    g = ayo.Game(variant)
    length, low, high = g.observation_spec(lookahead=2)
    assert length == g.observation_len + g.tactics_len + g.num_actions
    # A third ply adds one more block of num_actions after the second, bounded the same way.
    assert g.observation_spec(lookahead=3) == (length + g.num_actions, low, high)
    x3 = g.observation(lookahead=3)
    np.testing.assert_array_equal(x3[:length], g.observation(lookahead=2))
    assert low <= x3.min() and x3.max() <= high
    assert np.all(x3[length:][~g.action_mask()] == 0)
    # A fourth ply adds another, after the third.
    assert g.observation_spec(lookahead=4) == (length + 2 * g.num_actions, low, high)
    x4 = g.observation(lookahead=4)
    np.testing.assert_array_equal(x4[: length + g.num_actions], x3)
    assert low <= x4.min() and x4.max() <= high
    assert np.all(x4[length + g.num_actions :][~g.action_mask()] == 0)
    for _ in range(60):
        if g.is_terminal():
            break
        x = g.observation(lookahead=2)
        np.testing.assert_array_equal(x, np.concatenate([g.observation(), g.tactics(), g.exchanges()]))
        assert low <= x.min() and x.max() <= high
        assert np.all(g.exchanges()[~g.action_mask()] == 0)
        g.apply(int(rng.choice(g.legal_actions())))
    for bad in (5, -1, "deep"):
        with pytest.raises(ValueError, match="lookahead"):
            g.observation(lookahead=bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_keep_their_invariants(variant):
    rng = np.random.default_rng(1)
    for _ in range(20):
        g = ayo.Game(variant)
        total = sum(g.board) + sum(g.scores)
        low, high = g.observation_bounds
        while not g.is_terminal():
            assert low <= g.observation().min() and g.observation().max() <= high
            assert np.flatnonzero(g.action_mask()).tolist() == g.legal_actions()
            mover = g.to_play
            assert mover in (0, 1)
            g.apply(int(rng.choice(g.legal_actions())))
            assert g.ply < 5000
        assert g.to_play == -1 and g.legal_actions() == [] and not g.action_mask().any()
        r = g.returns()
        assert r[0] == -r[1] and r[0] in (-1.0, 0.0, 1.0)
        if variant == "oware":
            assert sum(g.board) + sum(g.scores) == total


def test_first_player_option():
    g = ayo.Game("oware", first=1)
    assert g.to_play == 1
    with pytest.raises(ValueError, match="player 2"):
        ayo.Game("oware", first=2)


def test_options_are_passed_to_the_variant():
    assert ayo.Game("oware", seeds=3).board == [3] * 12
    assert ayo.Game("oware", seeds="3").board == [3] * 12


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("owari",), {}, "unknown variant"),
        (("oware@7",), {}, "no version"),
        (("oware",), {"colour": "red"}, "unknown option"),
        (("oware",), {"seeds": 9}, "bad value"),
    ],
)
def test_bad_variant_or_option_raises_value_error(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        ayo.Game(*args, **kwargs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_illegal_action_raises_and_changes_nothing(variant):
    g = ayo.Game(variant)
    rng = np.random.default_rng(2)
    for _ in range(5):
        g.apply(int(rng.choice(g.legal_actions())))
    before = (g.notation(), g.board, g.scores, g.to_play, g.ply, g.record())
    illegal = [a for a in range(g.num_actions) if a not in g.legal_actions()]
    for bad in illegal + [-1, g.num_actions, 10**9]:
        with pytest.raises(ValueError, match=str(bad)):
            g.apply(bad)
        assert (g.notation(), g.board, g.scores, g.to_play, g.ply, g.record()) == before
    with pytest.raises(TypeError):
        g.apply("a")
    with pytest.raises(TypeError):
        g.apply(1.5)
    play_randomly(g, rng)
    if g.is_terminal():
        with pytest.raises(ValueError, match="over"):
            g.apply(0)


def test_board_is_in_absolute_pit_order():
    # docs/rules.md section 1: South owns pits 0..5, North 6..11; sowing runs 0 → 11.
    g = ayo.Game("oware")
    g.apply(5)  # South sows pit 5 into North's pits 6..9
    assert g.board == [4, 4, 4, 4, 4, 0, 5, 5, 5, 5, 4, 4]
    g.apply(0)  # North's action 0 is pit 6
    assert g.board == [4, 4, 4, 4, 4, 0, 0, 6, 6, 6, 5, 5]


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_is_independent(variant):
    g = ayo.Game(variant)
    g.apply(g.legal_actions()[0])
    for c in (g.clone(), copy.copy(g), copy.deepcopy(g)):
        assert c == g and c is not g
        c.apply(c.legal_actions()[0])
        assert c != g and g.ply == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_record_round_trips(variant):
    g = play_randomly(ayo.Game(variant), np.random.default_rng(3), max_plies=40)
    record = json.loads(g.record())
    assert record["variant"] == g.variant
    assert len(record["actions"]) == g.ply
    assert record["boards"][-1]["pits"] == g.board
    again = ayo.Game.from_record(g.record())
    assert again == g and again.record() == g.record()
    broken = dict(record, actions=[99] + record["actions"][1:])
    with pytest.raises(ValueError):
        ayo.Game.from_record(json.dumps(broken))


@pytest.mark.parametrize("variant", VARIANTS)
def test_notation_round_trips(variant):
    g = play_randomly(ayo.Game(variant), np.random.default_rng(4), max_plies=7)
    h = ayo.Game.from_notation(variant, g.notation())
    assert h.notation() == g.notation() and h.board == g.board and h.to_play == g.to_play
    with pytest.raises(ValueError, match="notation"):
        ayo.Game.from_notation(variant, "nonsense")


def test_describe_names_the_variant():
    assert "oware@1" in ayo.describe("oware")
