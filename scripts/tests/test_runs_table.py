"""scripts/runs_table.py on a copy of the repository's layout (conftest.repo) with hand-made run
folders: a run's changes against the shipped run's config (a changed value, a newer lever turned
on, an older run's missing keys; float noise of f32 values ignored), whole matches of both sets
of openings pooled for a fours game and games for the others, the shipped run marked and linked,
an unmeasured run with dashes, rows grouped under their variant's header, and a folder without
a variant's config refused."""

import subprocess
import sys

from conftest import result, run_script, write_csv

import runs_table

SHIPPED_CONFIG = 'variant = "jerin"\nblocks = 2\nc_scale = 0.1\nlr = 0.002\nrescale = true\nseed = 1\n'


def run(folder, config, match=(), seed2=(), final=()):
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(config)
    for stem, rows in (("match", match), ("match-seed2", seed2), ("final", final)):
        if rows:
            write_csv(folder / f"{stem}.csv", [dict(r, wall_time_s="3000", positions="20000000") for r in rows])
    return folder


def test_changes():
    base = {"blocks": 2, "c_scale": 0.1, "rescale": True, "ema_decay": 0.0}
    assert runs_table.changes(dict(base), base) == "—"
    assert runs_table.changes({**base, "c_scale": 0.30000001192092896}, base) == "`c_scale = 0.3`"
    assert runs_table.changes({**base, "c_scale": 0.10000000149011612}, base) == "—", "f32 noise"
    assert runs_table.changes({**base, "rescale": False, "eval_agent": "alphabeta:10"}, base) == \
        '`rescale = false`; `eval_agent = "alphabeta:10"`'
    # A lever newer than the shipped run left at its (off) default is no change.
    assert runs_table.changes({**base, "lookahead": 0, "eval_agent": ""}, base) == "—"
    older = {"blocks": 3, "c_scale": 0.1, "rescale": True}
    assert runs_table.changes(older, base) == "`blocks = 3`; before `ema_decay`"


def test_rows(repo):
    run(repo / "experiments" / "runs" / "jerin-1h", SHIPPED_CONFIG,
        match=[result("mcts:1000", 200, 170, 0, 30, "0.85"), result("alphabeta:6", 200, 150, 0, 50, "0.75")],
        seed2=[result("mcts:1000", 200, 172, 0, 28, "0.86")])
    run(repo / "runs" / "jerin-wide", SHIPPED_CONFIG.replace("blocks = 2", "blocks = 4"),
        match=[result("mcts:1000", 200, 180, 0, 20, "0.9"), result("alphabeta:6", 200, 140, 2, 58, "0.705")])
    run(repo / "runs" / "jerin-stopped", SHIPPED_CONFIG.replace("seed = 1", "seed = 2"))
    # A game-based variant is judged on final.csv, whatever else its folder holds.
    run(repo / "experiments" / "runs" / "jodu-1h", 'variant = "jodu"\n')
    run(repo / "runs" / "jodu-2", 'variant = "jodu"\nseed = 2\n', final=[result("mcts:1000", 200, 110, 20, 70, "0.6")],
        match=[result("mcts:1000", 200, 1, 0, 199, "0.005")])
    out = run_script(repo, "runs_table.py", "runs/jerin-wide", "experiments/runs/jerin-1h", "runs/jodu-2",
                     "runs/jerin-stopped")
    assert out.splitlines() == [
        "jerin:", "",
        "| run | changed against the shipped run | minutes | positions | whole matches vs `mcts:1000` "
        "| whole matches vs `alphabeta:6` | measured at | folder |",
        "|---|---|---|---|---|---|---|---|",
        "| `jerin-wide` | `blocks = 4` | 50 | 20.0 M | 180-0-20 (90.0 % of 200) | 140-2-58 (70.0 % of 200) | — | — |",
        "| `jerin-1h` **(shipped)** | the shipped config | 50 | 20.0 M | 342-0-58 (85.5 % of 400) "
        "| 150-0-50 (75.0 % of 200) | — | [`runs/jerin-1h/`](runs/jerin-1h/) |",
        "| `jerin-stopped` | `seed = 2` | — | — | — | — | — | — |",
        "",
        "jodu:", "",
        "| run | changed against the shipped run | minutes | positions | games vs `mcts:1000` "
        "| games vs `alphabeta:6` | measured at | folder |",
        "|---|---|---|---|---|---|---|---|",
        "| `jodu-2` | `seed = 2` | 50 | 20.0 M | 110-20-70 (55.0 % of 200) | — | — | — |",
        "",
    ]


def test_a_folder_without_a_variant_is_refused(repo):
    (repo / "runs" / "notes").mkdir(parents=True)
    done = subprocess.run([sys.executable, str(repo / "scripts" / "runs_table.py"), "runs/notes"], cwd=repo,
                          capture_output=True, text=True)
    assert done.returncode == 2 and "runs/notes" in done.stderr and "names variant None" in done.stderr
    assert done.stdout == ""
