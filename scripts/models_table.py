"""Prints the "Trained models" table (one row per variant) from the shipped models' metadata and
their runs' measurements (final.csv, match.csv written by scripts/evaluate-run.sh; also
final-seed2.csv and match-seed2.csv, the same network from a second set of openings, where
measured), then the ceiling table: what a much stronger searcher reaches under the same protocol
(experiments/studies/ceiling/<variant>/ and, deeper searches, <variant>-ab<depth>/).

    python3 scripts/models_table.py            # markdown table on stdout

models/shipped.json names, for each variant, the shipped model (models/<variant>/<model>.ot with
its metadata .json) and the run folder that trained it (experiments/runs/<run>/).
"""

import csv
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
VARIANTS = ["oware", "ayo", "ayoayo", "ncho", "adi", "jerin", "jodu", "yao"]


def opening_plies(variant):
    """Random plies of the shared opening of each evaluation and tournament pair: 4, and 8 for
    yao (its first plies have few legal moves: with 4, two deterministic players replayed the
    same game in 73 of 200)."""
    return 8 if variant == "yao" else 4

# models/shipped.json: for each variant, the shipped model's name (models/<variant>/<model>.ot)
# and the run folder that trained it, relative to the repository's root
# (experiments/runs/<run>); `ayo serve` lists these first and marks them.
SHIPPED = {
    v: (pathlib.Path(e["model"]).stem, pathlib.Path(e["run"]))
    for v, e in json.loads((ROOT / "models" / "shipped.json").read_text()).items()
}


def table(path):
    """The rows of a CSV that `ayo evaluate` printed, in order ([] if there is none)."""
    if not path.is_file():
        return []
    with path.open() as f:
        return list(csv.DictReader(f))


def rows(path):
    """The same, one row per agent (a final.csv or match.csv measures each agent once)."""
    return {r["agent"]: r for r in table(path)}


def pooled(*tables):
    """Measurements of one network in several files (final.csv and final-seed2.csv, match.csv
    and match-seed2.csv: other openings), summed agent by agent: games, W-D-L and matches cut,
    the score recomputed (a cut match is counted as a draw); the distinct games (each set's own,
    added: two sets of random openings share none), the pairs won both / split / lost both and
    the wins by seat where every file of that agent counted them (older CSVs have no such
    columns)."""
    out, sums_of = {}, {}
    for measured in tables:
        for agent, r in measured.items():
            total = out.setdefault(agent, dict.fromkeys(("games", "wins", "draws", "losses", "truncated"), 0))
            for k in total:
                total[k] += int(r[k])
            groups = sums_of.setdefault(agent, {keys: dict.fromkeys(keys, 0) for keys in (DISTINCT, PAIRS, SEATS)})
            for keys, sums in groups.items():
                if sums is not None and counted(r, keys):
                    for k in keys:
                        sums[k] += int(r[k])
                else:
                    groups[keys] = None
    for agent, r in out.items():
        r["score"] = (r["wins"] + r["draws"] / 2) / r["games"]
        for sums in sums_of[agent].values():
            r.update(sums or {})
    return out


# The columns of `ayo evaluate`'s CSV counting the pairs of games (one opening, a game in
# each seat) the network won both, split, lost both.
PAIRS = ("pairs_won_both", "pairs_split", "pairs_lost_both")


SEATS = ("wins_south", "wins_north")

DISTINCT = ("distinct",)


def counted(r, keys):
    """Whether a row counted `keys` (CSVs written before those columns existed did not)."""
    return all(r.get(k) not in (None, "") for k in keys)


def slashed(r, keys):
    """A row's counts `keys` as "a / b / ...", "—" where the row did not count them."""
    return " / ".join(str(r[k]) for k in keys) if counted(r, keys) else "—"


def pairs(r):
    """A row's pairs as "won both / split / lost both", "—" where not counted."""
    return slashed(r, PAIRS)


def seats(r):
    """A row's wins as "sitting South / sitting North", "—" where not counted."""
    return slashed(r, SEATS)


def pct(fraction):
    """A fraction as a percentage to the hundredth, a trailing zero dropped: 400 games give
    quarters (87.75), 200 halves (85.5), so a figure reads as exactly as it was measured."""
    text = f"{100 * float(fraction):.2f}"
    return text[:-1] if text.endswith("0") else text


def wdl(r):
    if not r:
        return "—"
    g, w, d, l = (int(r[k]) for k in ("games", "wins", "draws", "losses"))
    return f"{w}-{d}-{l} ({pct(w / g)} % wins, score {pct(r['score'])} %)"


def main():
    out = ["| variant | checkpoint | training | vs `mcts:1000` (W-D-L) | vs `alphabeta:6` (W-D-L) | distinct games | whole matches (W-D-L vs mcts:1000 / alphabeta:6, truncated) | run |",
           "|---|---|---|---|---|---|---|---|"]
    for v in VARIANTS:
        model, run_path = SHIPPED[v]
        meta_path = ROOT / "models" / v / f"{model}.json"
        if not meta_path.is_file():
            out.append(f"| `{v}` | — | — | — | — | — | — | — |")
            continue
        meta = json.loads(meta_path.read_text())
        run = ROOT / run_path
        final = pooled(rows(run / "final.csv"), rows(run / "final-seed2.csv"))
        match = pooled(rows(run / "match.csv"), rows(run / "match-seed2.csv"))
        m, a = final.get("mcts:1000"), final.get("alphabeta:6")
        distinct = "/".join(f"{r['distinct']} of {r['games']}" for r in (m, a) if r and counted(r, DISTINCT)) or "—"
        if match:
            mm, ma = match.get("mcts:1000"), match.get("alphabeta:6")
            trunc = sum(int(r["truncated"]) for r in (mm, ma) if r)
            games = sum(int(r["games"]) for r in (mm, ma) if r)
            whole = f"{wdl(mm)} / {wdl(ma)}; {trunc} of {games} cut"
        else:
            whole = "— (one game is the whole game)" if v in ("oware", "ayo", "ayoayo", "jodu", "yao") else "—"
        minutes = meta["wall_time_s"] / 60
        ckpt = meta_path.with_suffix(".ot").relative_to(ROOT)
        out.append(
            f"| `{v}` | `{ckpt}` | {minutes:.0f} min, {meta['positions'] / 1e6:.1f} M positions | {wdl(m)} | {wdl(a)} | {distinct} | {whole} | [`{run_path}/`]({run_path}/) |"
        )
    print("\n".join(out))
    print()
    print(ceiling_table())


def ceiling_table():
    """What a much stronger searcher reaches under the same protocol (scripts/ceiling.sh): a row
    per variant from experiments/studies/ceiling/<variant>/, then one per deeper search measured in
    <variant>-ab<depth>/, shallowest first."""
    out = ["| variant | strong player | vs `mcts:1000` (W-D-L) | vs `alphabeta:6` (W-D-L) | pairs won both / neither / lost both |",
           "|---|---|---|---|---|"]
    ceiling = ROOT / "experiments" / "studies" / "ceiling"
    for v in VARIANTS:
        deeper = sorted(ceiling.glob(f"{v}-ab*/crosstable.csv"), key=lambda p: int(p.parent.name.rsplit("-ab", 1)[1]))
        for path in [ceiling / v / "crosstable.csv", *deeper]:
            if path.is_file():
                out.append(ceiling_row(v, path))
    return "\n".join(out)


def ceiling_row(v, path):
    """The ceiling table's row of a tournament's crosstable.csv: its first player against the
    two baselines."""
    with path.open() as f:
        table = list(csv.DictReader(f))
    strong = table[0]["player"]
    cells, pairs = [], []
    for opponent in ("mcts:1000", "alphabeta:6"):
        r = next((r for r in table if r["player"] == strong and r["opponent"] == opponent), None)
        if r is None:
            cells.append("—")
            continue
        w = int(r["south_w"]) + int(r["north_w"])
        d = int(r["south_d"]) + int(r["north_d"])
        l = int(r["south_l"]) + int(r["north_l"])
        g = w + d + l
        cells.append(wdl({"games": g, "wins": w, "draws": d, "losses": l, "score": (w + d / 2) / g}))
        won = int(r["pairs_ww"])
        lost = int(r["pairs_ll"])
        pairs.append(f"{won} / {g // 2 - won - lost} / {lost}")
    return f"| `{v}` | `{strong}` | {cells[0]} | {cells[1]} | {' and '.join(pairs)} |"


if __name__ == "__main__":
    sys.exit(main())
