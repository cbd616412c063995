"""scripts/models_table.py: its W-D-L cell and opening plies, and the two tables it prints, run on
a copy of the repository's layout (conftest.repo) with hand-made model metadata, final.csv,
match.csv and ceiling crosstables: one row per variant in a fixed order, a row of dashes for a
variant without its model, a second set of openings (final-seed2.csv, match-seed2.csv) added in
and the whole matches' cut matches summed over both baselines, and the ceiling
table's W-D-L and pair counts from a crosstable's seat columns, deeper searches after a variant's
row."""

import json

import models_table
from conftest import result, run_script, write_csv

CROSS_FIELDS = ["player", "opponent", "south_w", "south_d", "south_l", "north_w", "north_d", "north_l",
                "pairs_ll", "pairs_ld", "pairs_dd_wl", "pairs_wd", "pairs_ww", "distinct"]


def test_wdl():
    r = {"games": "200", "wins": "174", "draws": "12", "losses": "14", "score": "0.900"}
    assert models_table.wdl(r) == "174-12-14 (87.0 % wins, score 90.0 %)"
    assert models_table.wdl({"games": 40, "wins": 1, "draws": 0, "losses": 39, "score": 0.025}) == \
        "1-0-39 (2.5 % wins, score 2.5 %)"
    assert models_table.wdl(None) == "—"
    # Quarters of a percent (400 games) read exactly, not rounded half to even.
    assert [models_table.pct(x) for x in (0.8425, 0.8775, 0.855, 1, 0.87875)] == \
        ["84.25", "87.75", "85.5", "100.0", "87.88"]


def test_pooled():
    first = {"mcts:1000": result("mcts:1000", 200, 171, 0, 29, "0.855"),
             "alphabeta:6": result("alphabeta:6", 200, 160, 4, 36, "0.810", truncated=3)}
    second = {"mcts:1000": result("mcts:1000", 200, 180, 1, 19, "0.9025", truncated=1)}
    both = models_table.pooled(first, second)
    assert both["mcts:1000"] == {"games": 400, "wins": 351, "draws": 1, "losses": 48, "truncated": 1,
                                 "score": 0.87875, "distinct": 400}
    assert models_table.wdl(both["mcts:1000"]) == "351-1-48 (87.75 % wins, score 87.88 %)"
    assert both["alphabeta:6"]["games"] == 200 and both["alphabeta:6"]["score"] == 0.81
    assert models_table.pooled({}, {}) == {}
    assert models_table.pairs(both["mcts:1000"]) == "—", "pairs counted in neither file"
    # Distinct games are added where both files counted them.
    older = {"mcts:1000": result("mcts:1000", 200, 180, 1, 19, "0.9025", distinct="")}
    assert "distinct" not in models_table.pooled(first, older)["mcts:1000"]


def test_pooled_pairs():
    # Pairs are summed only where every file counted them: a CSV written before the columns
    # existed leaves them out rather than undercounting.
    counted = {"mcts:1000": result("mcts:1000", 200, 171, 0, 29, "0.855", pairs_won_both="80",
                                   pairs_split="11", pairs_lost_both="9")}
    again = {"mcts:1000": result("mcts:1000", 200, 180, 1, 19, "0.9025", pairs_won_both="84",
                                 pairs_split="12", pairs_lost_both="4")}
    older = {"mcts:1000": result("mcts:1000", 200, 180, 1, 19, "0.9025", pairs_won_both="")}
    assert models_table.pairs(models_table.pooled(counted, again)["mcts:1000"]) == "164 / 23 / 13"
    assert models_table.pairs(models_table.pooled(counted, older)["mcts:1000"]) == "—"
    assert models_table.pairs(models_table.pooled(older, counted)["mcts:1000"]) == "—"
    assert models_table.pairs(counted["mcts:1000"]) == "80 / 11 / 9"


def test_pooled_seats():
    # The wins by seat are summed where every file counted them, whatever the pairs did.
    seated = {"mcts:1000": result("mcts:1000", 200, 171, 0, 29, "0.855", wins_south="90", wins_north="81")}
    again = {"mcts:1000": result("mcts:1000", 200, 180, 1, 19, "0.9025", wins_south="92", wins_north="88")}
    older = {"mcts:1000": result("mcts:1000", 200, 180, 1, 19, "0.9025")}
    both = models_table.pooled(seated, again)["mcts:1000"]
    assert models_table.seats(both) == "182 / 169" and models_table.pairs(both) == "—"
    assert models_table.seats(models_table.pooled(seated, older)["mcts:1000"]) == "—"
    assert models_table.seats(seated["mcts:1000"]) == "90 / 81"


def test_opening_plies():
    assert [models_table.opening_plies(v) for v in models_table.VARIANTS] == [4, 4, 4, 4, 4, 4, 4, 8]


def cross(player, opponent, south, north, ll, ww):
    return dict(zip(CROSS_FIELDS, [player, opponent, *south, *north, ll, 0, 0, 0, ww, 100]))


def test_tables(repo):
    def model(v, minutes, positions):
        (repo / "models" / v).mkdir()
        (repo / "models" / v / f"{v}-1h.json").write_text(json.dumps({"wall_time_s": 60 * minutes, "positions": positions}))
    model("ncho", 60.003, 22454016)
    model("oware", 30, 8.04e6)
    model("adi", 59.6, 7_960_000)
    model("jodu", 50, 13.7e6)
    runs = repo / "experiments" / "runs"
    ceiling = repo / "experiments" / "studies" / "ceiling"
    write_csv(runs / "ncho-1h" / "final.csv", [result("mcts:1000", 200, 94, 40, 66, "0.570", distinct=199),
                                              result("alphabeta:6", 200, 174, 12, 14, "0.900")])
    write_csv(runs / "ncho-1h" / "match.csv", [result("mcts:1000", 200, 175, 0, 25, "0.875", truncated=1),
                                              result("alphabeta:6", 200, 160, 4, 36, "0.810", truncated=3)])
    write_csv(runs / "ncho-1h" / "match-seed2.csv", [result("mcts:1000", 200, 180, 2, 18, "0.905", truncated=2)])
    write_csv(runs / "oware-1h" / "final.csv", [result("mcts:1000", 200, 94, 40, 66, "0.570", distinct=199)])
    # A second set of openings against mcts:1000 (final-seed2.csv) is added into that column.
    write_csv(runs / "jodu-1h" / "final.csv", [result("mcts:1000", 200, 115, 14, 71, "0.610"),
                                              result("alphabeta:6", 200, 106, 13, 81, "0.562", distinct=194)])
    write_csv(runs / "jodu-1h" / "final-seed2.csv", [result("mcts:1000", 200, 111, 18, 71, "0.600", distinct=199)])
    write_csv(ceiling / "ncho" / "crosstable.csv", [
        cross("alphabeta:10", "mcts:1000", (21, 9, 20), (23, 13, 14), 0, 0),
        cross("mcts:1000", "alphabeta:10", (14, 13, 23), (20, 9, 21), 0, 0),  # the other side: not read
        cross("alphabeta:10", "alphabeta:6", (33, 3, 14), (23, 8, 19), 2, 6)], CROSS_FIELDS)
    write_csv(ceiling / "jerin" / "crosstable.csv", [
        cross("alphabeta:12", "mcts:1000", (40, 5, 5), (38, 6, 6), 1, 30)], CROSS_FIELDS)
    # Deeper searches of a variant (<variant>-ab<depth>/) follow its row, shallowest first.
    write_csv(ceiling / "ncho-ab18" / "crosstable.csv", [
        cross("alphabeta:18", "mcts:1000", (30, 10, 10), (20, 10, 20), 0, 10)], CROSS_FIELDS)
    write_csv(ceiling / "ncho-ab14" / "crosstable.csv", [
        cross("alphabeta:14", "alphabeta:6", (35, 5, 10), (25, 5, 20), 1, 8)], CROSS_FIELDS)
    dashes = "| — | — | — | — | — | — | — |"
    assert run_script(repo, "models_table.py").splitlines() == [
        "| variant | checkpoint | training | vs `mcts:1000` (W-D-L) | vs `alphabeta:6` (W-D-L) | distinct games | "
        "whole matches (W-D-L vs mcts:1000 / alphabeta:6, truncated) | run |",
        "|---|---|---|---|---|---|---|---|",
        "| `oware` | `models/oware/oware-1h.ot` | 30 min, 8.0 M positions | 94-40-66 (47.0 % wins, score 57.0 %) | — "
        "| 199 of 200 | — (one game is the whole game) | [`experiments/runs/oware-1h/`](experiments/runs/oware-1h/) |",
        "| `ayo` " + dashes,
        "| `ayoayo` " + dashes,
        "| `ncho` | `models/ncho/ncho-1h.ot` | 60 min, 22.5 M positions | 94-40-66 (47.0 % wins, score 57.0 %) "
        "| 174-12-14 (87.0 % wins, score 90.0 %) | 199 of 200/200 of 200 | 355-2-43 (88.75 % wins, score 89.0 %) "
        "/ 160-4-36 (80.0 % wins, score 81.0 %); 6 of 600 cut | [`experiments/runs/ncho-1h/`](experiments/runs/ncho-1h/) |",
        "| `adi` | `models/adi/adi-1h.ot` | 60 min, 8.0 M positions | — | — | — | — | [`experiments/runs/adi-1h/`](experiments/runs/adi-1h/) |",
        "| `jerin` " + dashes,
        "| `jodu` | `models/jodu/jodu-1h.ot` | 50 min, 13.7 M positions | 226-32-142 (56.5 % wins, score 60.5 %) "
        "| 106-13-81 (53.0 % wins, score 56.25 %) | 399 of 400/194 of 200 | — (one game is the whole game) "
        "| [`experiments/runs/jodu-1h/`](experiments/runs/jodu-1h/) |",
        "| `yao` " + dashes,
        "",
        "| variant | strong player | vs `mcts:1000` (W-D-L) | vs `alphabeta:6` (W-D-L) | pairs won both / neither / lost both |",
        "|---|---|---|---|---|",
        "| `ncho` | `alphabeta:10` | 44-22-34 (44.0 % wins, score 55.0 %) | 56-11-33 (56.0 % wins, score 61.5 %) "
        "| 0 / 50 / 0 and 6 / 42 / 2 |",
        "| `ncho` | `alphabeta:14` | — | 60-10-30 (60.0 % wins, score 65.0 %) | 8 / 41 / 1 |",
        "| `ncho` | `alphabeta:18` | 50-20-30 (50.0 % wins, score 60.0 %) | — | 10 / 40 / 0 |",
        "| `jerin` | `alphabeta:12` | 78-11-11 (78.0 % wins, score 83.5 %) | — | 30 / 19 / 1 |",
    ]
