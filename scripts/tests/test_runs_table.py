"""scripts/runs_table.py on a copy of the repository's layout (conftest.repo) with hand-made run
folders: a run's changes against the shipped run's config (a changed value, a newer lever turned
on, an older run's missing keys; float noise of f32 values ignored), whole matches of both sets
of openings pooled for a fours game and games for the others, best first, the shipped run
marked, an unmeasured run last with dashes, and a folder of another variant left out."""

import subprocess
import sys

from conftest import result, run_script, write_csv

import runs_table

SHIPPED_CONFIG = 'variant = "jerin"\nblocks = 2\nc_scale = 0.1\nlr = 0.002\nrescale = true\nseed = 1\n'


def run(root, name, config, match=(), seed2=(), final=()):
    folder = root / "experiments" / name
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text(config)
    for stem, rows in (("match", match), ("match-seed2", seed2), ("final", final)):
        if rows:
            write_csv(folder / f"{stem}.csv", [dict(r, wall_time_s="3000", positions="20000000") for r in rows])
    return folder


def test_changes():
    base = {"blocks": 2, "c_scale": 0.1, "rescale": True, "teacher_share": 0.0}
    assert runs_table.changes(dict(base), base) == "—"
    assert runs_table.changes({**base, "c_scale": 0.30000001192092896}, base) == "`c_scale = 0.3`"
    assert runs_table.changes({**base, "c_scale": 0.10000000149011612}, base) == "—", "f32 noise"
    assert runs_table.changes({**base, "rescale": False, "teacher": "alphabeta:10"}, base) == \
        '`rescale = false`; `teacher = "alphabeta:10"`'
    # A lever newer than the shipped run left at its (off) default is no change.
    assert runs_table.changes({**base, "branch_share": 0.0, "teacher": ""}, base) == "—"
    older = {"blocks": 3, "c_scale": 0.1, "rescale": True}
    assert runs_table.changes(older, base) == "`blocks = 3`; before `teacher_share`"


def test_table(repo):
    shipped = SHIPPED_CONFIG
    run(repo, "jerin-1h", shipped,
        match=[result("mcts:1000", 200, 170, 0, 30, "0.85"), result("alphabeta:6", 200, 150, 0, 50, "0.75")],
        seed2=[result("mcts:1000", 200, 172, 0, 28, "0.86")])
    run(repo, "jerin-wide", shipped.replace("blocks = 2", "blocks = 4"),
        match=[result("mcts:1000", 200, 180, 0, 20, "0.9"), result("alphabeta:6", 200, 140, 2, 58, "0.705")])
    run(repo, "jerin-stopped", shipped.replace("seed = 1", "seed = 2"))
    run(repo, "jerin-search-budget", "")  # an analysis folder, no config
    run(repo, "jodu-1h", 'variant = "jodu"\n', final=[result("mcts:1000", 200, 100, 0, 100, "0.5")])
    lines = run_script(repo, "runs_table.py", "jerin").splitlines()
    assert lines[0].startswith("| run | changed against the shipped run | minutes | positions | whole matches vs")
    body = lines[2:]
    assert len(body) == 3, body
    assert body[0].startswith("| [`jerin-wide`](jerin-wide/) | `blocks = 4` | 50 | 20.0 M | 180-0-20 (90.0 % of 200) | 140-2-58 (70.0 % of 200) |")
    assert body[1].startswith("| [`jerin-1h`](jerin-1h/) **(shipped)** | the shipped config | 50 | 20.0 M | 342-0-58 (85.5 % of 400) | 150-0-50 (75.0 % of 200) |")
    assert body[2] == "| [`jerin-stopped`](jerin-stopped/) | `seed = 2` | — | — | — | — | — (see its RESULTS.md) |"


def test_games_for_variants_without_rounds(repo):
    run(repo, "jodu-1h", 'variant = "jodu"\n', final=[result("mcts:1000", 200, 110, 20, 70, "0.6")],
        match=[result("mcts:1000", 200, 1, 0, 199, "0.005")])
    lines = run_script(repo, "runs_table.py", "jodu").splitlines()
    assert "| games vs `mcts:1000` |" in lines[0]
    assert lines[2].startswith("| [`jodu-1h`](jodu-1h/) **(shipped)** | the shipped config | 50 | 20.0 M | 110-20-70 (55.0 % of 200) | — |")


def test_every_variant_and_a_wrong_name(repo):
    run(repo, "jerin-1h", SHIPPED_CONFIG, match=[result("mcts:1000", 200, 170, 0, 30, "0.85")])
    out = run_script(repo, "runs_table.py")
    assert out.startswith("# Every training run, variant by variant")
    headings = [line for line in out.splitlines() if line.startswith("## ")]
    assert headings == [f"## {v}" for v in runs_table.SHIPPED]
    assert "| [`jerin-1h`](jerin-1h/) **(shipped)** |" in out
    done = subprocess.run([sys.executable, str(repo / "scripts" / "runs_table.py"), "jerrin"], cwd=repo,
                          capture_output=True, text=True)
    assert done.returncode == 2 and "unknown variant 'jerrin'" in done.stderr and done.stdout == ""


def test_spread(repo):
    # Three runs measured on 200 matches (the most common count) and one on 400, left out.
    for name, wins in (("a", 170), ("b", 180), ("c", 160)):
        run(repo, f"jerin-{name}", SHIPPED_CONFIG, match=[result("mcts:1000", 200, wins, 0, 200 - wins, "0")])
    experiments = repo / "experiments"
    text = runs_table.spread("jerin", experiments)
    assert text == ("The 3 runs measured on 200 against `mcts:1000`: mean 85.0 % wins, standard deviation "
                    "5.0 points, best 90.0 %, worst 80.0 %; one measurement of 200 at 85.0 % has a binomial "
                    "standard error of 2.5 points.")
    run(repo, "jerin-d", SHIPPED_CONFIG, match=[result("mcts:1000", 200, 10, 0, 190, "0")],
        seed2=[result("mcts:1000", 200, 10, 0, 190, "0")])
    assert runs_table.spread("jerin", experiments) == text, "a run of another game count is left out"
    assert runs_table.spread("jodu", experiments) is None, "no jodu run"
