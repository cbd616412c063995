"""scripts/ship_run.py, run end to end on fake run folders in a copy of the repository's layout
(conftest.repo): the RESULTS.md it writes (header from the checkpoint's metadata, the command
line, one table line per final.csv / match.csv row with W-D-L and percentages, the learning curve
with one row per checkpoint time), the checkpoint copied to models/<variant>/ when shipping and
not with --results-only, and the list of files to commit it prints (only files that exist, and
no checkpoint of the run folder: its weights are committed only as the model in models/)."""

import copy
import json

import pytest

from conftest import result, run_script, write_checkpoints, write_csv

# The metadata fields ship_run.py reads, shaped as a real checkpoints/*.json of `ayo train`.
META = {
    "format": 1, "variant": "ncho@1", "options": [["episode", "match"]],
    "shape": {"inputs": 40, "actions": 12, "width": 128, "blocks": 2, "levels": 12, "lookahead": True},
    "config": {"variant": "ncho", "options": "episode=match", "width": 128, "blocks": 2, "input_levels": 12,
               "lookahead": True, "simulations": 32, "fast_simulations": 8, "full_search_prob": 0.3,
               "games": 256, "batch_size": 512, "value_target_q": 0.3, "value_discount": 0.998,
               "selfplay_threads": 1, "seed": 1},
    "step": 87479, "wall_time_s": 3600.2, "games": 197902, "positions": 22454016, "samples": 44789248,
}
HEAD = ["| opponent | games | W-D-L | wins | score | distinct games | cut by the ply cap "
        "| pairs won both / split / lost both | wins as South / North |",
        "|---|---|---|---|---|---|---|---|---|"]
FINAL = [result("mcts:1000", 200, 94, 40, 66, "0.570", distinct=199),
         result("alphabeta:6", 200, 174, 12, 14, "0.900")]
FINAL_LINES = ["| `mcts:1000` | 200 | 94-40-66 | 47.0 % | 57.0 % | 199 | 0 | — | — |",
               "| `alphabeta:6` | 200 | 174-12-14 | 87.0 % | 90.0 % | 200 | 0 | — | — |"]
MATCH = [result("mcts:1000", 200, 175, 0, 25, "0.875", distinct=199, pairs_won_both=80, pairs_split=15,
                pairs_lost_both=5, wins_south=90, wins_north=85),
         result("alphabeta:6", 200, 160, 4, 36, "0.810", distinct=198, truncated=3)]
MATCH_LINES = ["| `mcts:1000` | 200 | 175-0-25 | 87.5 % | 87.5 % | 199 | 0 | 80 / 15 / 5 | 90 / 85 |",
               "| `alphabeta:6` | 200 | 160-4-36 | 80.0 % | 81.0 % | 198 | 3 | — | — |"]


def make_run(repo, name, meta=META, minutes=(), **csvs):
    """experiments/runs/<name> with checkpoints at `minutes`, latest.json = meta, and the CSV files
    given as keyword arguments (final=rows, match=rows, learning_curve=rows)."""
    run = repo / "experiments" / "runs" / name
    write_checkpoints(run, minutes)
    (run / "checkpoints").mkdir(parents=True, exist_ok=True)
    (run / "checkpoints" / "latest.json").write_text(json.dumps(meta, indent=2))
    (run / "checkpoints" / "latest.ot").write_bytes(b"\x00\x01final weights\xff")
    for stem, rows in csvs.items():
        write_csv(run / f"{stem}.csv", rows)
    return run


def test_results_only(repo):
    curve = [result("mcts:1000", 40, 33, 1, 6, "0.8375", wall_time_s=1801, positions=9250816),
             result("alphabeta:6", 40, 32, 0, 8, "0.800", wall_time_s=600, positions=2920192),
             result("mcts:1000", 40, 36, 0, 4, "0.900", wall_time_s=600, positions=2920192),
             result("alphabeta:6", 40, 26, 0, 14, "0.650", wall_time_s=1200, positions=6168576),
             result("mcts:1000", 40, 31, 2, 7, "0.800", wall_time_s=1200, positions=6168576)]
    run = make_run(repo, "ncho-q06-1h", minutes=[10, 20, 30, 40, 50, 60], match=MATCH, learning_curve=curve)
    (run / "config.toml").write_text("")
    (run / "train.jsonl").write_text("")
    out = run_script(repo, "ship_run.py", "--results-only", "--overrides", "--value-target-q 0.6",
                     "experiments/runs/ncho-q06-1h", "Some notes.")
    lines = (run / "RESULTS.md").read_text().splitlines()
    assert lines[:6] == [
        "# ncho-q06-1h: ncho@1", "",
        "`ayo train --config experiments/ncho.toml --value-target-q 0.6 --minutes 60` (resolved config: `config.toml`):",
        "2 × 128 network (input levels 12, look-ahead features), 32 simulations (8 on 70 % of moves), 256 games at "
        "once, 1 self-play thread(s), value target mix q = 0.3, result discounted by 0.998 per ply.",
        "Trained 60 minutes: 22,454,016 self-play positions, 197,902 games, 87,479 training steps of 512.", ""]
    assert "Some notes." in lines
    assert "Not shipped. Not measured in rounds from varied ownership (`final.csv`)." in lines
    i = lines.index(HEAD[0])
    assert lines[i - 2].startswith("The last checkpoint, 32 simulations per move (its search's best move), "
                                   "in seat-swapped pairs from shared random openings, playing **whole matches**")
    assert lines[i:i + 4] == HEAD + MATCH_LINES
    i = lines.index("| minutes | positions | alphabeta:6 | mcts:1000 |")
    assert "score in whole matches by minutes of training" in lines[i - 2]
    assert lines[i:] == ["| minutes | positions | alphabeta:6 | mcts:1000 |", "|---|---|---|---|",
                         "| 10 | 2,920,192 | 80 % (32-0-8) | 90 % (36-0-4) |",
                         "| 20 | 6,168,576 | 65 % (26-0-14) | 80 % (31-2-7) |",
                         "| 30 | 9,250,816 | — | 84 % (33-1-6) |"]
    assert not (repo / "models" / "ncho").exists()
    r = "experiments/runs/ncho-q06-1h/"
    assert out.split() == [r + f for f in ("config.toml", "train.jsonl", "learning_curve.csv", "match.csv", "RESULTS.md")]


def test_not_shipped_said_once(repo):
    run = make_run(repo, "bare-1h")
    out = run_script(repo, "ship_run.py", "--results-only", "experiments/runs/bare-1h", "Not shipped. Weaker.")
    text = (run / "RESULTS.md").read_text()
    assert text.count("Not shipped.") == 1
    assert "\nNot measured in rounds from varied ownership (`final.csv`).\n" in text
    assert out.split() == ["experiments/runs/bare-1h/RESULTS.md"]


def test_ships_the_checkpoint(repo):
    run = make_run(repo, "ncho-1h", minutes=[10, 20, 30, 60], final=FINAL, match=MATCH)
    for f in ("config.toml", "train.jsonl", "learning_curve.png"):
        (run / f).write_text("")
    (run / "tb").mkdir()
    out = run_script(repo, "ship_run.py", "--config", "experiments/ncho-alt.toml", "experiments/runs/ncho-1h", "Good.")
    for ext in ("ot", "json"):
        assert (repo / "models" / "ncho" / f"ncho-1h.{ext}").read_bytes() == (run / "checkpoints" / f"latest.{ext}").read_bytes()
    text = (run / "RESULTS.md").read_text()
    lines = text.splitlines()
    assert "Not shipped" not in text
    assert "`ayo train --config experiments/ncho-alt.toml --minutes 60` (resolved config: `config.toml`):" in lines
    assert ("Shipped as `models/ncho/ncho-1h.ot`. Strength of the last checkpoint, 32 simulations per move (its search's "
            "best move), games in seat-swapped pairs from shared 4-ply random openings and varied starting ownership "
            "(later rounds), one round per game (`--play-options episode=round`) (`ayo evaluate`, the "
            "tournament's match driver; `final.csv`):") in lines
    i = lines.index(HEAD[0])
    assert lines[i:i + 4] == HEAD + FINAL_LINES
    j = lines.index(HEAD[0], i + 1)
    assert lines[j - 2].startswith("The same network playing **whole matches**")
    assert lines[j:] == HEAD + MATCH_LINES
    r = "experiments/runs/ncho-1h/"
    assert out.split() == [r + f for f in ("config.toml", "train.jsonl", "tb", "learning_curve.png", "final.csv",
                                           "match.csv", "RESULTS.md")
                           ] + ["models/ncho/ncho-1h.ot", "models/ncho/ncho-1h.json"]


@pytest.mark.parametrize("variant, config, final, present, absent", [
    ("yao@1", {"lookahead": 3, "value_discount": 1.0, "options": ""}, FINAL,
     ["2 × 128 network (input levels 12, three plies of look-ahead features), 32 simulations",
      "value target mix q = 0.3.\n", "--config experiments/yao.toml --minutes 60",
      "from shared 8-ply random openings (`ayo evaluate`"],
     ["discounted", "varied starting ownership", "episode=round", "whole matches"]),
    ("oware@1", {"lookahead": False, "value_discount": 0.995, "options": "", "value_target_q": 0.6}, [],
     ["(input levels 12), 32 simulations", "value target mix q = 0.6, result discounted by 0.995 per ply.",
      "Not shipped. Not measured game by game (`final.csv`)."],
     ["look-ahead", "| opponent |"]),
])
def test_header_by_config(repo, variant, config, final, present, absent):
    meta = copy.deepcopy(META)
    meta["variant"] = variant
    meta["config"].update(config)
    run = make_run(repo, "r", meta=meta, **({"final": final} if final else {}))
    run_script(repo, "ship_run.py", "--results-only", "experiments/runs/r")
    text = (run / "RESULTS.md").read_text()
    assert [s for s in present if s not in text] == []
    assert [s for s in absent if s in text] == []


def test_run_outside_the_repository(repo, tmp_path_factory):
    # A run folder elsewhere (a copy kept aside): its files are listed by absolute path.
    outside = tmp_path_factory.mktemp("aside")
    run = make_run(outside, "ncho-aside-1h", minutes=[10, 60], match=MATCH)
    out = run_script(repo, "ship_run.py", "--results-only", run, "Not shipped.")
    assert (run / "RESULTS.md").is_file()
    assert out.split() == [str(run / f) for f in ("match.csv", "RESULTS.md")]


def test_second_openings_and_both_sets(repo):
    # match-seed2.csv (the same network on a second set of openings) gets its line and, summed
    # with match.csv's line of the same opponent, the figure the models table quotes.
    # An opponent measured on the second set only has no "both sets" line.
    second = [result("mcts:1000", 200, 180, 0, 20, "0.900", distinct=200, truncated=1, pairs_won_both=82,
                     pairs_split=16, pairs_lost_both=2, wins_south=95, wins_north=85),
              result("alphabeta:8", 100, 60, 0, 40, "0.600")]
    run = make_run(repo, "ncho-2sets-1h", minutes=[10, 60], match=MATCH, **{"match-seed2": second})
    out = run_script(repo, "ship_run.py", "--results-only", "experiments/runs/ncho-2sets-1h", "Not shipped.")
    lines = (run / "RESULTS.md").read_text().splitlines()
    i = lines.index(HEAD[0])
    assert lines[i - 2].endswith("(`episode=match`, ply cap 5000; `match.csv`, and on a second set of openings "
                                 "`match-seed2.csv`):")
    assert lines[i:] == HEAD + MATCH_LINES + [
        "| `mcts:1000` (second openings) | 200 | 180-0-20 | 90.0 % | 90.0 % | 200 | 1 | 82 / 16 / 2 | 95 / 85 |",
        "| `alphabeta:8` (second openings) | 100 | 60-0-40 | 60.0 % | 60.0 % | 100 | 0 | — | — |",
        "| `mcts:1000` (both sets) | 400 | 355-0-45 | 88.75 % | 88.75 % | 399 | 1 | 162 / 31 / 7 | 185 / 170 |"]
    assert "experiments/runs/ncho-2sets-1h/match-seed2.csv" in out.split()
