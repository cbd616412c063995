"""``ayo.rate``: an agent, a spec or a Python callable placed on a variant's rating ladder by the
loop ``ayo rate`` runs; its bad inputs; and the ladders shipped in the package (a built wheel
finds them)."""

import copy
import json
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

import pytest

import ayo

REPO = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = pathlib.Path(ayo.__file__).parent
OWARE_LADDER = REPO / "models" / "oware" / "ladder.json"
AYO_BIN = REPO / "target" / "release" / "ayo"
OWARE_VERSION = json.loads(OWARE_LADDER.read_text())["version"]


def greedy_ish(game: ayo.Game) -> int:
    """The legal action that takes the most seeds at once (the first of equals)."""
    mover = game.to_play

    def taken(action: int) -> int:
        after = copy.copy(game)
        after.apply(action)
        return after.scores[mover] - game.scores[mover]

    return max(game.legal_actions(), key=taken)


def leftmost(game: ayo.Game) -> int:
    return game.legal_actions()[0]


def test_a_greedy_policy_rates_well_above_one_that_always_sows_its_first_pit():
    greedy = ayo.rate(greedy_ish, "oware", games=96, seed=1)
    first = ayo.rate(leftmost, "oware", games=96, seed=1)
    for r in (greedy, first):
        low, high = r.interval
        assert r.games == 96 and r.rounds >= 3, repr(r)
        assert -1e4 < low < r.elo < high < 1e4, repr(r)
        assert (r.variant, r.ladder_version) == ("oware@1", OWARE_VERSION)
        assert pathlib.Path(r.ladder) == PACKAGE / "ladders" / "oware" / "ladder.json"
        # The rungs played: their games add up, two per pair, and they bracket the estimate.
        assert sum(g["wins"] + g["draws"] + g["losses"] for g in r.rungs) == r.games
        assert sum(2 * sum(g["pentanomial"]) for g in r.rungs) == r.games
        assert [g["rung"] for g in r.rungs] == sorted(g["rung"] for g in r.rungs)
    assert greedy.agent == f"python:{__name__}:greedy_ish"
    assert min(g["elo"] for g in greedy.rungs) < greedy.elo < max(g["elo"] for g in greedy.rungs)
    # The ladder's greedy is +433, `random` 0; sowing the first pit is about as good as random.
    assert 300 < greedy.elo < 1000, repr(greedy)
    assert first.elo < greedy.elo - 300, (repr(first), repr(greedy))
    # Against the strongest rung it met it scored under half; against random more than half.
    strongest = max(greedy.rungs, key=lambda g: g["elo"])
    assert strongest["elo"] > greedy.elo and strongest["score"] < 0.5, strongest
    table = str(greedy)
    assert table.startswith(
        f"python:{__name__}:greedy_ish on oware@1 ladder v{OWARE_VERSION} ("
    ), table
    assert f"{greedy.games} games in {greedy.rounds} rounds" in table


def test_an_agent_a_spec_and_a_copy_rate_alike_and_the_agent_is_not_changed():
    agent = ayo.Agent("mcts:8", seed=5)
    state = pickle_state(agent)
    first = ayo.rate(agent, "oware", games=8, seed=2)
    assert pickle_state(agent) == state, "rating plays a copy"
    again = ayo.rate(agent, "oware", games=8, seed=2)
    assert (first.agent, first.elo, first.rungs) == (again.agent, again.elo, again.rungs)
    spec = ayo.rate("greedy", "oware", games=8, seed=2)
    agent = ayo.rate(ayo.Agent("greedy"), "oware", games=8, seed=2)
    assert (spec.agent, spec.elo, spec.rungs) == (agent.agent, agent.elo, agent.rungs) and spec.agent == "greedy"


def test_it_plays_the_games_ayo_rate_plays(tmp_path):
    """The same loop, rungs and seeds as the command line: the same rating, game for game."""
    assert AYO_BIN.exists(), f"{AYO_BIN} is missing: build it (cargo build --release -p ayo-train)"
    out = subprocess.run(
        [str(AYO_BIN), "rate", "--variant", "ayo", "--agent", "mcts:64", "--max-games", "24", "--seed", "3"]
        + ["--ladder", str(REPO / "models" / "ayo" / "ladder.json"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    cli = json.loads((tmp_path / "rating.json").read_text())["rating"]
    r = ayo.rate("mcts:64", "ayo", games=24, seed=3)
    assert (r.elo, r.interval, r.games, r.rounds) == (cli["elo"], (cli["low"], cli["high"]), cli["games"], cli["rounds"])
    assert [(g["rung"], g["pentanomial"]) for g in r.rungs] == [(g["rung"], g["pentanomial"]["counts"]) for g in cli["rungs"]]
    assert str(r).splitlines()[2:] == out.stdout.splitlines()[2:], "the same table below its title"


def pickle_state(agent: ayo.Agent):
    return agent.__reduce__()[1]


def test_a_callable_that_fails_stops_the_rating_with_its_own_error():
    class Broken(Exception):
        pass

    calls = 0

    def fails_on_the_tenth_move(game):
        nonlocal calls
        calls += 1
        if calls == 10:
            raise Broken("on purpose")
        return game.legal_actions()[0]

    with pytest.raises(Broken, match="on purpose"):
        ayo.rate(fails_on_the_tenth_move, "oware", games=200)
    assert calls == 10, "no call after the failure"

    def illegal(game):
        legal = game.legal_actions()
        empty = [a for a in range(game.num_actions) if a not in legal]
        return empty[0] if empty else legal[0]

    with pytest.raises(ValueError, match=r"policy python:.*illegal returned action \d, which cannot be played in .* \(legal actions: \["):
        ayo.rate(illegal, "oware", games=200)
    with pytest.raises(ValueError, match=r"returned action 99, which cannot be played"):
        ayo.rate(lambda game: 99, "oware", games=200)
    with pytest.raises(TypeError, match=r"returned None, expected an action number \(an int\)"):
        ayo.rate(lambda game: None, "oware", games=200)


def test_bad_arguments_name_the_value_and_what_was_expected(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match='unknown variant "owarre"'):
        ayo.rate("greedy", "owarre")
    # Every variant ships a ladder; a package without one (here: only oware's) names those it has.
    assert sorted(p.parent.name for p in (REPO / "models").glob("*/ladder.json")) == sorted(ayo.variants())
    with monkeypatch.context() as m:
        (tmp_path / "ladders" / "oware").mkdir(parents=True)
        shutil.copy(OWARE_LADDER, tmp_path / "ladders" / "oware" / "ladder.json")
        m.setattr(ayo, "__file__", str(tmp_path / "__init__.py"))
        with pytest.raises(ValueError, match=r"no rating ladder ships for ncho \(ladders: oware\); pass ladder=PATH"):
            ayo.rate("greedy", "ncho")
    with pytest.raises(ValueError, match="the ladder is for oware@1, the games are ayo@1"):
        ayo.rate("greedy", "ayo", ladder=OWARE_LADDER)
    with pytest.raises(ValueError, match="games = 1: expected at least 2"):
        ayo.rate("greedy", "oware", games=1)
    with pytest.raises(ValueError, match="precision = 0: expected a positive number of Elo"):
        ayo.rate("greedy", "oware", precision=0)
    with pytest.raises(TypeError, match="agent 42: expected an ayo.Agent, an agent spec"):
        ayo.rate(42, "oware")
    with pytest.raises(ValueError, match='nor is "alphabeta" a checkpoint file'):
        ayo.rate("alphabeta", "oware")


def test_a_ladder_whose_network_is_missing_or_changed_is_refused(tmp_path):
    shutil.copy(OWARE_LADDER, tmp_path / "ladder.json")
    with pytest.raises(ValueError, match=r"network rung \".*oware-levels-1h.ot:1\" is not a file"):
        ayo.rate("greedy", "oware", ladder=tmp_path / "ladder.json", games=2)
    net = bytearray((OWARE_LADDER.parent / "oware-levels-1h.ot").read_bytes())
    net[-1] ^= 1
    (tmp_path / "oware-levels-1h.ot").write_bytes(net)
    with pytest.raises(
        ValueError, match=f"has SHA-256 .* the ladder v{OWARE_VERSION} was measured with"
    ):
        ayo.rate("greedy", "oware", ladder=str(tmp_path / "ladder.json"), games=2)


def test_every_committed_ladder_ships_in_the_package():
    committed = sorted(p.parent.name for p in (REPO / "models").glob("*/ladder.json"))
    shipped = sorted(p.parent.name for p in (PACKAGE / "ladders").glob("*/ladder.json"))
    assert committed == shipped and len(committed) >= 3, (committed, shipped)
    for variant in committed:
        ladder = json.loads((REPO / "models" / variant / "ladder.json").read_text())
        for rung in ladder["rungs"]:
            if "sha256" in rung:
                name = rung["spec"].rsplit(":", 1)[0]
                assert (PACKAGE / "ladders" / variant / name).read_bytes() == (REPO / "models" / variant / name).read_bytes()


def test_a_built_wheel_carries_the_ladders_and_rates_from_them(tmp_path):
    """The wheel as `pip install` would unpack it, imported from elsewhere: `ayo.rate` finds its
    ladders, networks included (every rung is loaded and its hash checked before the games)."""
    maturin = shutil.which("maturin")
    assert maturin, "maturin is missing from PATH (scripts/test-python.sh puts the virtualenv's first)"
    subprocess.run(
        [maturin, "build", "--release", "--quiet", "--out", str(tmp_path / "dist")],
        cwd=REPO / "python",
        check=True,
        capture_output=True,
    )
    (wheel,) = (tmp_path / "dist").glob("ayo-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        z.extractall(site)
    for variant in ("oware", "ayo", "ayoayo"):
        assert f"ayo/ladders/{variant}/ladder.json" in names, sorted(names)
    assert "ayo/ladders/oware/oware-levels-1h.ot" in names
    code = (
        "import ayo, pathlib; r = ayo.rate('greedy', 'ayoayo', games=4); "
        "print(pathlib.Path(ayo.__file__).parent); print(r.ladder); print(r.games)"
    )
    # The unpacked wheel first on the path, ahead of the checkout's editable install.
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    package, ladder, games = out.stdout.split("\n")[:3]
    assert pathlib.Path(package) == site / "ayo"
    assert pathlib.Path(ladder) == site / "ayo" / "ladders" / "ayoayo" / "ladder.json"
    assert games == "4"
