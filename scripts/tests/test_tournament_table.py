"""scripts/tournament_table.py on hand-made ratings.csv files: Elo and its interval relative to
the network (wherever it ranks), scores in %, games counted once per game (each is in two
players' rows), a dash for a missing baseline, a row of dashes for a variant without a
tournament, and a "(whole matches)" row after its variant for a `<variant>-match` folder."""

from conftest import run_script, write_csv

FIELDS = ["rank", "name", "elo", "low", "high", "games", "score", "draws"]


def ratings(repo, folder, rows):
    write_csv(repo / "tournaments" / folder / "ratings.csv",
              [dict(zip(FIELDS, [i + 1, *r, 0.0])) for i, r in enumerate(rows)], FIELDS)


def test_table(repo):
    ratings(repo, "ncho", [("net:ncho-1h@32", 100.0, 100.0, 100.0, 30, 0.75),
                           ("mcts:1000", 150.4, 120.0, 190.6, 20, 0.45),
                           ("alphabeta:6", 0.0, -80.0, 60.0, 30, 0.6)])
    ratings(repo, "ncho-match", [("alphabeta:6", 10.0, -50.0, 70.0, 30, 0.55),  # ranked above the network
                                 ("net:ncho-match-1h@32", 0.0, 0.0, 0.0, 30, 0.45),
                                 ("mcts:1000", -5.0, -60.0, 50.0, 30, 0.5),
                                 ("greedy", -400.0, -500.0, -330.0, 30, 0.0)])
    ratings(repo, "adi-match", [("net:adi-match-1h@32", 0.0, 0.0, 0.0, 10, 1.0),
                                ("greedy", -300.0, -400.0, -250.0, 10, 0.0)])
    none = " — | — | — | — | — |"
    assert run_script(repo, "tournament_table.py", "tournaments").splitlines() == [
        "| variant | network (score) | `alphabeta:6`: Elo [95 %], score | `mcts:1000`: Elo [95 %], score "
        "| `greedy`: Elo [95 %], score | games |",
        "|---|---|---|---|---|---|",
        "| `oware` |" + none,
        "| `ayo` |" + none,
        "| `ayoayo` |" + none,
        "| `ncho` | `net:ncho-1h@32` (75 %) | -100 [-180, -40], 60 % | +50 [+20, +91], 45 % | — | 40 |",
        "| `ncho` (whole matches) | `net:ncho-match-1h@32` (45 %) | +10 [-50, +70], 55 % | -5 [-60, +50], 50 % "
        "| -400 [-500, -330], 0 % | 60 |",
        "| `adi` |" + none,
        "| `adi` (whole matches) | `net:adi-match-1h@32` (100 %) | — | — | -300 [-400, -250], 0 % | 10 |",
        "| `jerin` |" + none,
        "| `jodu` |" + none,
        "| `yao` |" + none,
    ]
