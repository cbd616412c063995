"""ayo.Tablebase: a small oware table built from Python, probed game by game and over a VecEnv,
checked against the rules (a position whose value is worked out by hand) and against itself
(the batched probes equal the single ones), and bad input refused with the value named."""

import numpy as np
import pytest

import ayo

SEEDS = 4


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return ayo.Tablebase.build(tmp_path_factory.mktemp("egtb"), SEEDS)


def test_a_position_worked_out_by_hand(table):
    # South to move: his f (1 seed) takes North's a (now 3); North's last seed cannot reach
    # South, so the game ends and North keeps it. South's margin: 3 - 1 = 2. With the stores
    # 20-24, South still loses by 2: the result for the mover is -1.
    game = ayo.Game.from_notation("oware", "0 0 0 0 0 1 2 1 0 0 0 0 | 20 24 | 0")
    assert table.probe(game) == (2, 2)
    assert table.solve(game) == -1
    level = ayo.Game.from_notation("oware", "0 0 0 0 0 1 2 1 0 0 0 0 | 22 22 | 0")
    assert table.solve(level) == 1
    assert table.max_seeds == SEEDS


def test_outside_the_table(table):
    assert table.probe(ayo.Game("oware")) is None  # 48 seeds
    assert table.solve(ayo.Game("oware")) is None
    assert table.probe(ayo.Game("ayo")) is None  # another variant


def test_batched_probes_equal_single_ones(table):
    env = ayo.VecEnv("oware", 64, seed=3)
    rng = np.random.default_rng(0)
    for _ in range(300):  # random play until some games are in the table
        env.step(env.sample_actions())
    lo, hi, result = table.probe_env(env)
    assert lo.dtype == hi.dtype == result.dtype == np.int8 and lo.shape == (64,)
    for i in range(64):
        game = env.game(i)
        entry = table.probe(game)
        assert (entry is None) == (lo[i] > hi[i])
        if entry is not None:
            assert (lo[i], hi[i]) == entry
        assert result[i] == (table.solve(game) if table.solve(game) is not None else -2)
    boards = rng.integers(0, 2, size=(200, 12), dtype=np.uint8)
    blo, bhi = table.probe_boards(boards)
    for b, l, h in zip(boards, blo, bhi):
        if b.sum() <= SEEDS:
            mover = " ".join(map(str, b[:6]))
            other = " ".join(map(str, b[6:]))
            game = ayo.Game.from_notation("oware", f"{mover} {other} | {24 - b.sum()} 24 | 0")
            if game.to_play >= 0:
                assert (l, h) == table.probe(game)
        else:
            assert l > h


def test_bad_input_names_the_value(tmp_path):
    with pytest.raises(ValueError, match=str(tmp_path / "none")):
        ayo.Tablebase(tmp_path / "none")
    with pytest.raises(ValueError, match="seeds 99"):
        ayo.Tablebase.build(tmp_path / "big", 99)


def test_boards_of_the_wrong_shape_are_refused(table):
    with pytest.raises(ValueError, match=r"\[N, 12\]"):
        table.probe_boards(np.zeros((3, 11), dtype=np.uint8))


def test_an_ayoayo_table_probes_board_and_odu(tmp_path):
    # South (odu used) to move, his only seed in pit f: it makes North's a 3, which he takes
    # (3 seeds). North is left with b (2 seeds) against an empty South row; North moves next,
    # so retaliation does not apply, and both rows hold <= 2: exhaustion, each keeps his own
    # row. South's only move is worth 3 - 2 = 1 to him.
    table = ayo.Tablebase.build(tmp_path / "ayoayo", 5, variant="ayoayo")
    assert table.rules == "ayoayo@1"
    game = ayo.Game.from_notation("ayoayo", "0 0 0 0 0 1 2 2 0 0 0 0 | 21 22 | 0 | odu 1 0")
    assert table.probe(game) == (1, 1)
    assert table.solve(game) == 0  # 21 + 3 against 22 + 2: level
    assert table.probe(ayo.Game("oware")) is None  # another variant
    with pytest.raises(ValueError, match="ayo@1"):
        ayo.Tablebase.build(tmp_path / "ayo", 3, variant="ayo")
