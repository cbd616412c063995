//! `ayo tournament`: agents and checkpoints play game pairs (same opening, one game per seat);
//! the result is an Elo table with 95 % intervals, a likelihood-of-superiority matrix, a
//! cross-table and pentanomial counts, printed and written as JSON and CSV, plus every game as
//! a record for `ayo replay`. `--sprt` stops a two-player match as soon as the test decides;
//! `--run DIR` rates a training run's checkpoints and plots Elo against training step;
//! `--records DIR…` rates games played before, by any of these commands, together.

use anyhow::{bail, Context, Result};
use ayo_env::arena::rating::{
    rate, GamePair, Pentanomial, RateConfig, Ratings, Sprt, SprtDecision,
};
use ayo_env::arena::report::{self, Report, SprtReport};
use ayo_env::arena::tournament::{self, Control, MatchConfig, PlayedPair};
use ayo_env::{Agent, GameRecord, Variant};
use ayo_train::config::TrainConfig;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Variant name, e.g. `oware`.
    #[arg(long)]
    variant: Option<String>,
    /// Options as `key=value,key=value`.
    #[arg(long)]
    options: Option<String>,
    /// The players: random, greedy, alphabeta:D, mcts:N, or checkpoint files PATH, PATH:SIMS or
    /// PATH@TIME (a time per move: 1s, 0.5s, 250ms).
    #[arg(long, num_args = 1..)]
    players: Vec<String>,
    /// Games per pairing (played as pairs, so rounded up to even); with --sprt, the most games.
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Random plies from the start that make each pair's opening.
    #[arg(long, default_value_t = 4)]
    openings: u32,
    /// Simulations per move of checkpoint players given without `:SIMS` (0: network policy).
    #[arg(long, default_value_t = 0)]
    sims: u32,
    /// Folder for the tables (JSON, CSV) and the game records.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Play only this player (name or position in --players, from 1) against each other one.
    #[arg(long)]
    gauntlet: Option<String>,
    /// The player rated 0 Elo (name or position, from 1); default the first player.
    #[arg(long)]
    anchor: Option<String>,
    /// Sequential test for a two-player match (new player first): ELO0 ELO1 ALPHA BETA.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"])]
    sprt: Option<Vec<f64>>,
    /// Rate the checkpoints of the training run in DIR (with --players as fixed references)
    /// and plot Elo against training step into DIR/tournament/elo.png (or --out).
    #[arg(long, value_name = "DIR")]
    run: Option<PathBuf>,
    /// With --run: the most checkpoints to rate (evenly spaced, always with the last).
    #[arg(long, default_value_t = 8)]
    checkpoints: usize,
    /// Start each pair's opening from the variant's varied starts (the round-based variants: a
    /// later round with unequal house ownership, as training and `ayo evaluate` do)
    /// instead of the start position.
    #[arg(long)]
    varied_starts: bool,
    /// An opening book (one position per line in the variant's notation, e.g. made by `ayo
    /// openings`): pair k plays from its k-th position, cycling, instead of random openings.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["openings", "varied_starts"])]
    book: Option<PathBuf>,
    /// Games in flight at once.
    #[arg(long, default_value_t = 256)]
    concurrency: usize,
    /// A game longer than this (after the opening) is cut and scored a draw.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Bootstrap resamples for the intervals.
    #[arg(long, default_value_t = 1000)]
    bootstrap: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Do not write the game records.
    #[arg(long)]
    no_records: bool,
    /// Or no games at all: the game pairs recorded in these folders (`OUT/games` of earlier
    /// tournaments, the `--out` of `ayo rate`) rated together as one tournament.
    #[arg(long, value_name = "DIR", num_args = 1.., conflicts_with_all = [
        "variant", "options", "players", "run", "sprt", "gauntlet", "book",
    ])]
    records: Vec<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    if let Some(dir) = a.run.clone() {
        return run_training(a, &dir);
    }
    if !a.records.is_empty() {
        let report = rate_records(&a)?;
        print!("{}", report::render(&report));
        return Ok(());
    }
    let Some(spec) = a.variant.as_deref() else {
        bail!("--variant is required (or --run DIR for a training run, --records DIR for games played)");
    };
    let rules = super::variant(spec, a.options.as_deref())?;
    if a.players.len() < 2 {
        bail!(
            "a tournament needs at least two --players, found {}",
            a.players.len()
        );
    }
    let specs = a.players.clone();
    let report = play_tournament(&a, &rules, &specs)?;
    print!("{}", report::render(&report));
    Ok(())
}

/// Loads the players, plays the schedule, writes everything, and returns the report.
fn play_tournament(a: &Args, rules: &Variant, specs: &[String]) -> Result<Report> {
    let mut agents: Vec<Box<dyn Agent>> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            ayo_train::agent::load_player(spec, rules, a.sims, a.seed.wrapping_add(1 + i as u64))
        })
        .collect::<Result<_, _>>()?;
    let names = report::unique_names(&agents);
    let n = agents.len();
    let sprt = match &a.sprt {
        Some(v) => {
            if n != 2 {
                bail!("--sprt tests a match of two players (new first, then best), found {n}");
            }
            Some(Sprt::new(v[0], v[1], v[2], v[3])?)
        }
        None => None,
    };
    let schedule = schedule(a, &names, sprt.is_some())?;
    let anchor = anchor(a, &names)?;
    let config = MatchConfig {
        opening_plies: a.openings,
        max_plies: a.max_plies,
        concurrency: a.concurrency,
        seed: a.seed,
        detail: false,
        varied_starts: a.varied_starts,
        book: match &a.book {
            Some(path) => ayo_env::arena::tournament::read_book(rules, path)?,
            None => Vec::new(),
        },
    };
    let games_dir = games_dir(a)?;
    let started = Instant::now();
    let total = schedule.len();
    let mut counts = Pentanomial::default();
    let mut decision = SprtDecision::Continue;
    let mut write_error = None;
    let mut done = 0;
    let progress = super::PairProgress::start();
    let played = tournament::play(rules, &mut agents, &schedule, &config, |pair| {
        done += 1;
        if let Some(dir) = &games_dir {
            if let Err(e) = report::write_pair(dir, pair) {
                write_error = Some(anyhow::Error::from(e));
                return Control::Stop;
            }
        }
        progress.update(done, total, "tournament");
        if let Some(test) = &sprt {
            let p = if pair.result.a == 0 {
                pair.result
            } else {
                pair.result.flipped()
            };
            counts.add(p.score());
            decision = test.decide(&counts);
            if decision != SprtDecision::Continue {
                return Control::Stop;
            }
        }
        Control::Continue
    })?;
    if let Some(e) = write_error {
        return Err(e);
    }
    let seconds = started.elapsed().as_secs_f64();
    let ratings = rate_played(a, n, &played, anchor);
    let mut report = report::build(
        a.openings,
        a.seed,
        rules,
        &names,
        &played,
        &ratings,
        seconds,
        sprt.map(|test| SprtReport {
            test,
            llr: test.llr(&counts),
            lower: test.lower(),
            upper: test.upper(),
            decision,
            pairs: counts.pairs(),
        }),
    );
    report.book = a.book.as_ref().map(|p| p.display().to_string());
    if let Some(out) = &a.out {
        ayo_env::arena::report::write(out, &report)?;
    }
    Ok(report)
}

/// `--records DIR…`: the pairs recorded in the folders (`pair-NNNNN-a.json`, the first player
/// South, with its `-b.json`), their players named as the records seat them, rated together.
fn rate_records(a: &Args) -> Result<Report> {
    let read = |path: &Path| -> Result<GameRecord> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        GameRecord::from_json(&text)
            .with_context(|| format!("{} is not a game record", path.display()))
    };
    let mut names: Vec<String> = Vec::new();
    let mut played: Vec<PlayedPair> = Vec::new();
    for (k, dir) in a.records.iter().enumerate() {
        if a.records[..k].contains(dir) {
            bail!(
                "--records {}: named twice, its games would count twice",
                dir.display()
            );
        }
        let files = report::pair_files(dir)
            .with_context(|| format!("--records {}: cannot read the folder", dir.display()))?;
        if files.is_empty() {
            bail!(
                "--records {}: no game pairs there (pair-NNNNN-a.json with its -b.json, as \
                 `--out DIR` writes them to DIR/games)",
                dir.display()
            );
        }
        for [first, second] in files {
            let records = [read(&first)?, read(&second)?];
            if let Some(seen) = played.first().map(|p| &p.records[0]) {
                if (&seen.variant, &seen.options) != (&records[0].variant, &records[0].options) {
                    bail!(
                        "{}: a game of {} {:?}, those of {} are of {} {:?}: --records rates one \
                         variant",
                        first.display(),
                        records[0].variant,
                        records[0].options,
                        a.records[0].display(),
                        seen.variant,
                        seen.options
                    );
                }
            }
            let [south, north] = records[0].seats.clone();
            if south == north || records[1].seats != [north.clone(), south.clone()] {
                bail!(
                    "{} and {}: not the two games of a pair (seats {:?}, then {:?}; expected \
                     two players, seats swapped)",
                    first.display(),
                    second.display(),
                    records[0].seats,
                    records[1].seats
                );
            }
            let mut player = |name: String| match names.iter().position(|n| *n == name) {
                Some(i) => i,
                None => {
                    names.push(name);
                    names.len() - 1
                }
            };
            let (pa, pb) = (player(south), player(north));
            let opening = records[0].start.clone();
            played.push(PlayedPair::new(played.len(), pa, pb, opening, records));
        }
    }
    // Every folder has a pair, all of one variant.
    let rules = played[0].records[0].rules()?;
    let ratings = rate_played(a, names.len(), &played, anchor(a, &names)?);
    let mut report = report::build(0, a.seed, &rules, &names, &played, &ratings, 0.0, None);
    report.records = a.records.iter().map(|d| d.display().to_string()).collect();
    if let Some(out) = &a.out {
        super::out_folder(out)?;
        ayo_env::arena::report::write(out, &report)?;
    }
    Ok(report)
}

/// The pairs of games to play: a gauntlet of one player, a match of two under an SPRT, or a
/// round robin; `--games` per pairing.
fn schedule(a: &Args, names: &[String], sprt: bool) -> Result<Vec<(usize, usize)>> {
    let (n, rounds) = (names.len(), a.games.div_ceil(2).max(1));
    Ok(match &a.gauntlet {
        Some(who) => tournament::gauntlet(n, find(names, who, "--gauntlet")?, rounds),
        None if sprt => (0..rounds).map(|_| (0, 1)).collect(),
        None => tournament::round_robin(n, rounds),
    })
}

/// The folder the game records go to (`OUT/games`, created), unless --no-records or no --out;
/// `--out` itself is created (or refused) before any game is played.
fn games_dir(a: &Args) -> Result<Option<PathBuf>> {
    let Some(out) = &a.out else {
        return Ok(None);
    };
    super::out_folder(out)?;
    if a.no_records {
        return Ok(None);
    }
    let dir = out.join("games");
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(Some(dir))
}

/// The player rated 0 Elo: the one `--anchor` names, or the first.
fn anchor(a: &Args, names: &[String]) -> Result<usize> {
    a.anchor
        .as_deref()
        .map_or(Ok(0), |who| find(names, who, "--anchor"))
}

/// The players' Elo from the pairs `played`, `anchor` at 0, with `--bootstrap` resamples.
fn rate_played(a: &Args, n: usize, played: &[PlayedPair], anchor: usize) -> Ratings {
    let pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
    let config = RateConfig {
        anchor,
        bootstrap: a.bootstrap,
        seed: a.seed,
        ..Default::default()
    };
    rate(n, &pairs, &config)
}

/// A player by name or by position from 1.
fn find(names: &[String], who: &str, flag: &str) -> Result<usize> {
    if let Some(i) = names.iter().position(|n| n == who) {
        return Ok(i);
    }
    match who.parse::<usize>() {
        Ok(k) if (1..=names.len()).contains(&k) => Ok(k - 1),
        _ => bail!(
            "{flag} {who:?} is neither a player's name ({}) nor a position 1..={}",
            names.join(", "),
            names.len()
        ),
    }
}

/// A checkpoint of a training run: its file and training step.
struct RunCheckpoint {
    path: PathBuf,
    step: u64,
}

/// The numbered checkpoints `DIR/checkpoints/step-NNNNNNN.ot`, by step.
fn run_checkpoints(dir: &Path) -> Result<Vec<RunCheckpoint>> {
    let folder = dir.join("checkpoints");
    let entries = std::fs::read_dir(&folder)
        .with_context(|| format!("{} has no checkpoints folder", dir.display()))?;
    let mut found = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(step) = name
            .strip_prefix("step-")
            .and_then(|r| r.strip_suffix(".ot"))
            .and_then(|s| s.parse::<u64>().ok())
        {
            found.push(RunCheckpoint { path, step });
        }
    }
    found.sort_by_key(|c| c.step);
    if found.is_empty() {
        bail!("no step-NNNNNNN.ot checkpoints in {}", folder.display());
    }
    Ok(found)
}

/// At most `k` of `all`, evenly spaced, always with the last.
fn spaced<T>(all: Vec<T>, k: usize) -> Vec<T> {
    let n = all.len();
    if n <= k || k == 0 {
        return all;
    }
    let keep: Vec<usize> = (0..k)
        .map(|i| (n - 1) - (k - 1 - i) * (n - 1) / (k - 1).max(1))
        .collect();
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, x)| x)
        .collect()
}

/// The variant of a training run with its options, from the run's `config.toml`.
fn run_variant(dir: &Path) -> Result<Variant> {
    let path = dir.join("config.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {} (pass --variant)", path.display()))?;
    let config = TrainConfig::from_run_toml(&text)
        .with_context(|| format!("{} is not a training run's config", path.display()))?;
    Ok(config.rules()?)
}

fn run_training(a: Args, dir: &Path) -> Result<()> {
    let rules = match &a.variant {
        Some(spec) => super::variant(spec, a.options.as_deref())?,
        None => run_variant(dir)?,
    };
    let checkpoints = spaced(run_checkpoints(dir)?, a.checkpoints);
    let baselines = a.players.clone();
    let mut specs = baselines.clone();
    for c in &checkpoints {
        specs.push(format!("{}:{}", c.path.display(), a.sims));
    }
    let out = a.out.clone().unwrap_or_else(|| dir.join("tournament"));
    let args = Args {
        out: Some(out.clone()),
        ..a
    };
    if specs.len() < 2 {
        bail!("a run with one checkpoint needs a reference player: add --players random");
    }
    let report = play_tournament(&args, &rules, &specs)?;
    print!("{}", report::render(&report));
    // Elo of each checkpoint against its training step.
    let points: Vec<(u64, f64, f64, f64)> = checkpoints
        .iter()
        .enumerate()
        .filter_map(|(k, c)| {
            let name = &report.players[baselines.len() + k];
            report
                .ratings
                .iter()
                .find(|r| &r.name == name)
                .map(|r| (c.step, r.elo, r.low, r.high))
        })
        .collect();
    let png = out.join("elo.png");
    let title = format!(
        "{} — Elo (anchor {}) by training step",
        rules, report.anchor
    );
    crate::cli::plot::elo_by_step(&png, &title, &points)?;
    println!("\nElo by training step drawn in {}", png.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaced_keeps_the_last_and_spreads_the_rest() {
        assert_eq!(spaced((0..10).collect(), 4), vec![0, 3, 6, 9]);
        assert_eq!(spaced((0..3).collect(), 8), vec![0, 1, 2]);
        assert_eq!(spaced((0..9).collect(), 1), vec![8]);
    }
}
