"""scripts/prune_checkpoints.py: which numbered checkpoints a run keeps (the last by step, and
those nearest 10 and 30 minutes of training), and that running it deletes the rest and latest.*
but leaves the others alone."""

import pytest

import prune_checkpoints
from conftest import run_script, write_checkpoints


@pytest.mark.parametrize("minutes, kept", [
    ([], []),                                   # no checkpoint: nothing to keep
    ([60], [0]),                                # one: it is the last, and nearest both marks
    ([5, 60], [0, 1]),                          # two: 5 min is nearest both 10 and 30
    ([10, 20, 30], [0, 2]),                     # three: the middle one goes
    ([15, 25, 60], [0, 1, 2]),                  # three, each kept for a different reason
    ([10, 20, 30.02, 40, 50, 60], [0, 2, 5]),   # a 1-hour run checkpointed every 10 min
    ([3, 9, 12, 29, 33, 45], [1, 3, 5]),        # irregular times: the nearest, not the first after
    ([1, 2, 3], [2]),                           # a short run: the last is nearest both marks
])
def test_keeps_last_and_nearest_10_and_30_minutes(tmp_path, minutes, kept):
    paths = write_checkpoints(tmp_path, minutes)
    assert prune_checkpoints.keep(tmp_path) == {paths[i] for i in kept}


def test_last_is_the_highest_step(tmp_path):
    # step-0000900 before step-0001000: the zero-padded names sort by step.
    paths = write_checkpoints(tmp_path, [10 + i for i in range(10)])
    assert paths[-1].name == "step-0001000.ot"
    assert paths[-1] in prune_checkpoints.keep(tmp_path)


def test_run_deletes_the_others_and_latest(repo):
    run = repo / "experiments" / "runs" / "x-1h"
    paths = write_checkpoints(run, [10, 20, 30, 40, 50, 60])
    (run / "config.toml").write_text("variant = 'ncho'\n")
    out = run_script(repo, "prune_checkpoints.py", "experiments/runs/x-1h")
    left = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert left == ["step-0000100.json", "step-0000100.ot", "step-0000300.json", "step-0000300.ot",
                    "step-0000600.json", "step-0000600.ot"]
    assert (run / "config.toml").is_file()
    assert out.strip() == "experiments/runs/x-1h: kept step-0000100.ot, step-0000300.ot, step-0000600.ot; removed 8 files"
    assert paths[0].read_bytes() == b"weights 100"


def test_run_without_numbered_checkpoints_keeps_latest(repo):
    # latest.* alone is the run's only copy of its weights: nothing is removed.
    ckpt = repo / "experiments" / "runs" / "y-1h" / "checkpoints"
    ckpt.mkdir(parents=True)
    (ckpt / "latest.ot").write_bytes(b"only weights")
    (ckpt / "latest.json").write_text("{}")
    out = run_script(repo, "prune_checkpoints.py", "experiments/runs/y-1h")
    assert sorted(p.name for p in ckpt.iterdir()) == ["latest.json", "latest.ot"]
    assert out.strip() == "experiments/runs/y-1h: no numbered checkpoint; nothing removed"
