"""``python -m ayo.engine``: a Python policy behind ``ayo engine``'s text protocol, driven as a
subprocess (commands, errors that do not end it, a whole game) and rated by ``ayo rate --engine``."""

import json
import pathlib
import subprocess
import sys
import textwrap

import pytest

import ayo

REPO = pathlib.Path(__file__).resolve().parents[2]
AYO_BIN = REPO / "target" / "release" / "ayo"

POLICIES = textwrap.dedent(
    """
    print("importing the policies")  # must not reach the protocol's standard output

    def rightmost(game):
        print("thinking")
        return game.legal_actions()[-1]

    def fails_after_the_start(game):
        if game.ply > 0:
            raise RuntimeError("no idea")
        return game.legal_actions()[0]

    def always_fails(game):
        raise RuntimeError("never")

    def illegal(game):
        return 99
    """
)


@pytest.fixture
def policies(tmp_path):
    path = tmp_path / "policies.py"
    path.write_text(POLICIES)
    return path


def engine(agent: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "ayo.engine", "--variant", "oware", "--agent", agent, *extra]


def talk(command: list[str], script: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, input=script, capture_output=True, text=True, timeout=60)


def test_the_commands_are_answered_and_bad_input_is_an_error_line(policies):
    out = talk(
        engine(f"{policies}:rightmost"),
        "hello\nfly\nposition startpos moves 2 99\nposition startpos moves 2 1\nlegal\ngo\nshow\nquit\n",
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("id name ayo ")
    assert lines[1:5] == [
        "id agent python:policies:rightmost",
        "id variant oware@1",
        "id actions 6",
        "hellook",
    ], out.stdout
    assert lines[5].startswith('error unknown command "fly"')
    assert lines[6].startswith("error position: move 2 (99): action 99 is outside the action space")
    game = ayo.Game("oware")
    game.apply(2)
    game.apply(1)
    assert lines[7] == "legal " + " ".join(map(str, game.legal_actions()))
    assert lines[8].startswith("info ") and lines[9] == f"bestmove {game.legal_actions()[-1]}"
    assert lines[-2] == f"notation {game.notation()}" and lines[-1] == "tomove south"
    assert "thinking" not in out.stdout and "importing the policies" in out.stderr and "thinking" in out.stderr


def test_a_policy_that_fails_gives_up_the_position_and_the_engine_goes_on(policies):
    out = talk(engine(f"{policies}:fails_after_the_start"), "position startpos moves 0\ngo\nposition startpos\ngo\nquit\n")
    assert out.returncode == 0, out.stderr
    answers = [l for l in out.stdout.splitlines() if not l.startswith("info ")]
    assert answers == [
        "error python:policies:fails_after_the_start chose no move in this position (it gave up)",
        "bestmove 0",
    ], out.stdout
    assert "RuntimeError: no idea" in out.stderr
    out = talk(engine(f"{policies}:illegal"), "go\nquit\n")
    assert "error python:policies:illegal chose no move" in out.stdout
    assert "returned action 99, which cannot be played" in out.stderr


def test_bad_arguments_end_it_with_a_message(policies):
    for agent, message in [
        ("policies", "expected MODULE:FUNCTION or FILE.py:FUNCTION"),
        (f"{policies}:nothing", "has no 'nothing'"),
        ("no_such_module_here:f", "cannot import module 'no_such_module_here'"),
        (f"{policies.parent / 'missing.py'}:f", "no file"),
    ]:
        out = talk(engine(agent), "quit\n")
        assert out.returncode == 2 and message in out.stderr, (agent, out.stderr)
    out = talk([sys.executable, "-m", "ayo.engine", "--variant", "owarre", "--spec", "greedy"], "quit\n")
    assert out.returncode == 2 and 'unknown variant "owarre"' in out.stderr, out.stderr


def test_a_whole_game_through_the_protocol_against_an_agent(policies):
    """The adapter plays South, `greedy` North, until the game ends; every answer is the
    policy's move."""
    proc = subprocess.Popen(
        engine(f"{policies}:rightmost"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert proc.stdin and proc.stdout

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    game, north, moves = ayo.Game("oware"), ayo.Agent("greedy"), []
    while not game.is_terminal():
        if game.to_play == 0:
            send("position startpos" + (" moves " + " ".join(map(str, moves)) if moves else ""))
            send("go")
            line = proc.stdout.readline().strip()
            while line.startswith("info "):
                line = proc.stdout.readline().strip()
            assert line == f"bestmove {game.legal_actions()[-1]}", line
            action = int(line.split()[1])
        else:
            action = north.choose(game)
        game.apply(action)
        moves.append(action)
    send("position startpos moves " + " ".join(map(str, moves)))
    send("show")
    send("quit")
    rest = proc.stdout.read().splitlines()
    assert proc.wait(timeout=30) == 0
    assert rest[-1].startswith("over "), rest
    south, north_score = game.scores
    assert rest[-1].split()[1:3] == [str(south), str(north_score)]


def test_ayo_rate_plays_the_adapter_and_counts_its_forfeits(policies):
    assert AYO_BIN.exists(), f"{AYO_BIN} is missing: build it (cargo build --release -p ayo-train)"
    ladder = REPO / "models" / "oware" / "ladder.json"
    # One pair each; a generous time per move, as a loaded machine can take seconds to start Python.
    for policy, forfeits in [("rightmost", "forfeited 0 of its 2"), ("always_fails", "forfeited 2 of its 2")]:
        command = " ".join(engine(f"{policies}:{policy}"))
        rate = [str(AYO_BIN), "rate", "--variant", "oware", "--ladder", str(ladder), "--max-games", "2"]
        out = subprocess.run(
            [*rate, "--engine-movetime", "60s", "--engine", command],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stderr
        version = json.loads(ladder.read_text())["version"]
        assert f"engine:python:policies:{policy} on oware@1 ladder v{version}" in out.stdout, out.stdout
        assert forfeits in out.stdout, out.stdout
