"""Ships a finished, measured training run: copies its last checkpoint to models/<variant>/,
writes the run's RESULTS.md from its measurements, and lists the files to commit: the run's
config, logs, curve, measurements and RESULTS.md, and the model in models/<variant>/. A run
folder commits no weights (its checkpoints/ stays out of git; the learning curve keeps what was
measured of the intermediate checkpoints, the last is the model). A shipped run's folder is
experiments/runs/<name>/; models/shipped.json names it and the model.

    python3 scripts/ship_run.py experiments/runs/ayo-1h "notes about the run"
    python3 scripts/ship_run.py --results-only --config my-adi.toml runs/adi-try "notes"

`--results-only` writes RESULTS.md of a run that is not shipped; `--config` names the config
the run was started from (default experiments/<variant>.toml).
"""

import argparse
import json
import pathlib
import shutil
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import models_table  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


# How a run's `lookahead` reads in RESULTS.md's header.
PLIES = {2: "two", 3: "three", 4: "four"}


def line(r, label=""):
    g, w, d, l = (int(r[k]) for k in ("games", "wins", "draws", "losses"))
    return (f"| `{r['agent']}`{label} | {g} | {w}-{d}-{l} | {models_table.pct(w / g)} % | {models_table.pct(r['score'])} % "
            f"| {r.get('distinct', '—')} | {r['truncated']} | {models_table.pairs(r)} | {models_table.seats(r)} |")


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("run")
    args.add_argument("notes", nargs="?", default="")
    args.add_argument("--results-only", action="store_true")
    args.add_argument("--config")
    args.add_argument("--overrides", default="", help="the flags the run was started with beside --config, "
                      "e.g. '--value-discount 0.995'")
    args = args.parse_args()
    run = pathlib.Path(args.run).resolve()
    notes = args.notes
    name = run.name
    meta = json.loads((run / "checkpoints" / "latest.json").read_text())
    variant = meta["variant"].split("@")[0]
    config = args.config or f"experiments/{variant}.toml"
    models = ROOT / "models" / variant
    if not args.results_only:
        models.mkdir(parents=True, exist_ok=True)
        shutil.copy(run / "checkpoints" / "latest.ot", models / f"{name}.ot")
        shutil.copy(run / "checkpoints" / "latest.json", models / f"{name}.json")
    cfg = meta["config"]
    head = ("| opponent | games | W-D-L | wins | score | distinct games | cut by the ply cap "
            "| pairs won both / split / lost both | wins as South / North |\n|---|---|---|---|---|---|---|---|---|")
    out = [f"# {name}: {meta['variant']}", "",
           f"`ayo train --config {config}{' ' + args.overrides if args.overrides else ''} --minutes {meta['wall_time_s'] / 60:.0f}` "
           "(resolved config: `config.toml`):",
           f"{cfg['blocks']} × {cfg['width']} network (input levels {cfg['input_levels']}"
           + ((f", {PLIES.get(int(cfg['lookahead']), cfg['lookahead'])} plies of look-ahead features"
               if int(cfg.get("lookahead")) >= 2 else ", look-ahead features")
              if cfg.get("lookahead") else "") + f"), {cfg['simulations']} simulations "
           f"({cfg['fast_simulations']} on {100 - 100 * cfg['full_search_prob']:.0f} % of moves), {cfg['games']} games at once, "
           f"{cfg['selfplay_threads']} self-play thread(s), value target mix q = {cfg.get('value_target_q', 0)}"
           + (f", result discounted by {cfg['value_discount']} per ply" if cfg.get("value_discount", 1.0) != 1.0 else "") + ".",
           f"Trained {meta['wall_time_s'] / 60:.0f} minutes: {meta['positions']:,} self-play positions, {meta['games']:,} games, "
           f"{meta['step']:,} training steps of {cfg['batch_size']}.", "", notes, "",
           ("" if not args.results_only or "Not shipped." in notes else "Not shipped. ")
           + ("" if args.results_only else f"Shipped as `models/{variant}/{name}.ot`. ")]
    play = "32 simulations per move (its search's best move)"
    rounds = models_table.table(run / "final.csv")
    if rounds:
        out[-1] += (f"Strength of the last checkpoint, {play}, games in seat-swapped pairs from shared "
           + f"{models_table.opening_plies(variant)}-ply random openings"
           + (" and varied starting ownership (later rounds)" if variant in ("ncho", "adi", "jerin") else "")
           + (", one round per game (`--play-options episode=round`)" if "episode=match" in cfg.get("options", "") else "")
           + " (`ayo evaluate`, the tournament's match driver; `final.csv`):")
        out += ["", head] + [line(r) for r in rounds]
    else:
        out[-1] += ("Not measured in rounds from varied ownership (`final.csv`)."
                    if "episode=match" in cfg.get("options", "") else "Not measured game by game (`final.csv`).")
    match = models_table.rows(run / "match.csv")
    if match:
        # A second set of openings (`--seed 2`), where measured, and both sets together: what the
        # models table quotes.
        second = models_table.rows(run / "match-seed2.csv")
        who = "The same network" if rounds else f"The last checkpoint, {play}, in seat-swapped pairs from shared random openings,"
        out += ["", f"{who} playing **whole matches** (`episode=match`, ply cap 5000; `match.csv`"
                + (", and on a second set of openings `match-seed2.csv`" if second else "") + "):", "", head]
        out += [line(r) for r in match.values()]
        out += [line(r, " (second openings)") for r in second.values()]
        common = [a for a in second if a in match]
        both = models_table.pooled({a: match[a] for a in common}, {a: second[a] for a in common})
        out += [line(dict(r, agent=a), " (both sets)") for a, r in both.items()]
    curve = models_table.table(run / "learning_curve.csv")
    if curve:
        played = " in whole matches" if "episode=match" in cfg.get("options", "") else ""
        out += ["", f"Learning curve (`learning_curve.csv`, `learning_curve.png`): score{played} by minutes of training", "",
                "| minutes | positions | " + " | ".join(sorted({r['agent'] for r in curve})) + " |",
                "|---|---|" + "---|" * len({r['agent'] for r in curve})]
        by = {}
        for r in curve:
            by.setdefault((float(r["wall_time_s"]), int(r["positions"])), {})[r["agent"]] = r
        for (t, pos), rs in sorted(by.items()):
            cells = [f"{100 * float(rs[a]['score']):.0f} % ({rs[a]['wins']}-{rs[a]['draws']}-{rs[a]['losses']})" if a in rs else "—"
                     for a in sorted({r['agent'] for r in curve})]
            out.append(f"| {t / 60:.0f} | {pos:,} | " + " | ".join(cells) + " |")
    (run / "RESULTS.md").write_text("\n".join(out) + "\n")
    # Files to commit: no checkpoint of the run folder (the last one is the model in models/).
    files = [run / f for f in ("config.toml", "train.jsonl", "tb", "learning_curve.csv", "learning_curve.png",
                                "final.csv", "match.csv", "match-seed2.csv", "RESULTS.md")]
    if not args.results_only:
        files += [models / f"{name}.ot", models / f"{name}.json"]
    print(" ".join(shown(f) for f in files if f.exists()))


def shown(path):
    """A path as `git add` takes it from the repository's root: relative inside it, else absolute."""
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


if __name__ == "__main__":
    main()
