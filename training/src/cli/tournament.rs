//! `ayo tournament`: agents and checkpoints play game pairs (same opening, one game per seat);
//! the result is an Elo table with 95 % intervals, a likelihood-of-superiority matrix, a
//! cross-table and pentanomial counts, printed and written as JSON and CSV, plus every game as
//! a record for `ayo replay`. `--sprt` stops a two-player match as soon as the test decides;
//! `--run DIR` rates a training run's checkpoints and plots Elo against training step.

use anyhow::{bail, Context, Result};
use ayo_env::rating::{
    rate, CrossTable, GamePair, Pentanomial, RateConfig, Ratings, Sprt, SprtDecision, Wdl,
};
use ayo_env::tournament::{self, Control, MatchConfig, PlayedPair};
use ayo_env::{Agent, Variant};
use serde::Serialize;
use std::fmt::Write as _;
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
    /// The players: random, greedy, alphabeta:D, mcts:N, or checkpoint files PATH[:SIMS].
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
}

/// One row of the Elo table.
#[derive(Serialize)]
struct RatingRow {
    rank: usize,
    name: String,
    elo: f64,
    low: f64,
    high: f64,
    games: u32,
    /// Share of the points, 0 to 1.
    score: f64,
    /// Share of drawn games, 0 to 1.
    draws: f64,
}

/// One pairing of the cross-table, from `player`'s side.
#[derive(Serialize)]
struct CrossRow {
    player: String,
    opponent: String,
    as_south: Wdl,
    as_north: Wdl,
    /// Pairs scoring 0, ½, 1, 1½, 2 points (LL, LD, DD+WL, WD, WW).
    pentanomial: [u32; 5],
}

#[derive(Serialize)]
struct SprtReport {
    #[serde(flatten)]
    test: Sprt,
    llr: f64,
    lower: f64,
    upper: f64,
    decision: SprtDecision,
    pairs: u32,
}

/// Everything `ayo tournament` writes to `tournament.json`.
#[derive(Serialize)]
struct Report {
    variant: String,
    players: Vec<String>,
    anchor: String,
    confidence: f64,
    pairs: usize,
    games: usize,
    truncated_games: u32,
    opening_plies: u32,
    seed: u64,
    seconds: f64,
    ratings: Vec<RatingRow>,
    /// `los[i][j]`: likelihood that player `i` is stronger than player `j`.
    los: Vec<Vec<f64>>,
    crosstable: Vec<CrossRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtReport>,
}

pub fn run(a: Args) -> Result<()> {
    if let Some(dir) = a.run.clone() {
        return run_training(a, &dir);
    }
    let Some(spec) = a.variant.as_deref() else {
        bail!("--variant is required (or --run DIR for a training run)");
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
    print!("{}", render(&report));
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
    let names = unique_names(&agents);
    let n = agents.len();
    let rounds = a.games.div_ceil(2).max(1);
    let sprt = match &a.sprt {
        Some(v) => {
            if n != 2 {
                bail!("--sprt tests a match of two players (new first, then best), found {n}");
            }
            Some(Sprt::new(v[0], v[1], v[2], v[3])?)
        }
        None => None,
    };
    let schedule = match &a.gauntlet {
        Some(who) => tournament::gauntlet(n, find(&names, who, "--gauntlet")?, rounds),
        None if sprt.is_some() => (0..rounds).map(|_| (0, 1)).collect(),
        None => tournament::round_robin(n, rounds),
    };
    let anchor = match &a.anchor {
        Some(who) => find(&names, who, "--anchor")?,
        None => 0,
    };
    let config = MatchConfig {
        opening_plies: a.openings,
        max_plies: a.max_plies,
        concurrency: a.concurrency,
        seed: a.seed,
        detail: false,
        varied_starts: false,
    };
    let games_dir = match (&a.out, a.no_records) {
        (Some(out), false) => {
            let dir = out.join("games");
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            Some(dir)
        }
        _ => None,
    };

    let started = Instant::now();
    let total = schedule.len();
    let mut counts = Pentanomial::default();
    let mut decision = SprtDecision::Continue;
    let mut write_error = None;
    let mut done = 0;
    let played = tournament::play(rules, &mut agents, &schedule, &config, |pair| {
        done += 1;
        if let Some(dir) = &games_dir {
            if let Err(e) = write_pair(dir, pair) {
                write_error = Some(e);
                return Control::Stop;
            }
        }
        if done % 50 == 0 || done == total {
            eprintln!(
                "{done}/{total} pairs, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
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
    let pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
    let ratings = rate(
        n,
        &pairs,
        &RateConfig {
            anchor,
            bootstrap: a.bootstrap,
            seed: a.seed,
            ..Default::default()
        },
    );
    let report = build_report(
        a,
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
    if let Some(out) = &a.out {
        write_report(out, &report)?;
    }
    Ok(report)
}

/// Agent names, made unique by a `#k` suffix where the same agent plays twice.
fn unique_names(agents: &[Box<dyn Agent>]) -> Vec<String> {
    let raw: Vec<String> = agents.iter().map(|a| a.name()).collect();
    raw.iter()
        .enumerate()
        .map(|(i, name)| {
            let same = raw.iter().filter(|n| *n == name).count();
            if same > 1 {
                let k = raw[..=i].iter().filter(|n| *n == name).count();
                format!("{name}#{k}")
            } else {
                name.clone()
            }
        })
        .collect()
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

fn write_pair(dir: &Path, pair: &PlayedPair) -> Result<()> {
    for (leg, record) in pair.records.iter().enumerate() {
        let path = dir.join(format!(
            "pair-{:05}-{}.json",
            pair.index + 1,
            ["a", "b"][leg]
        ));
        std::fs::write(&path, record.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn build_report(
    a: &Args,
    rules: &Variant,
    names: &[String],
    played: &[PlayedPair],
    ratings: &Ratings,
    seconds: f64,
    sprt: Option<SprtReport>,
) -> Report {
    let n = names.len();
    let pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
    let table = CrossTable::new(n, &pairs);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| ratings.elo[j].total_cmp(&ratings.elo[i]));
    let rows = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let draws: u32 = (0..n).map(|j| table.total(i, j).draws).sum();
            let games = ratings.games[i];
            RatingRow {
                rank: rank + 1,
                name: names[i].clone(),
                elo: ratings.elo[i],
                low: ratings.low[i],
                high: ratings.high[i],
                games,
                score: ratings.points[i] / games.max(1) as f64,
                draws: draws as f64 / games.max(1) as f64,
            }
        })
        .collect();
    let mut crosstable = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i != j && table.total(i, j).games() > 0 {
                crosstable.push(CrossRow {
                    player: names[i].clone(),
                    opponent: names[j].clone(),
                    as_south: table.seats[i][j][0],
                    as_north: table.seats[i][j][1],
                    pentanomial: table.pentanomial[i][j].counts,
                });
            }
        }
    }
    Report {
        variant: rules.to_string(),
        players: names.to_vec(),
        anchor: names[ratings.anchor].clone(),
        confidence: ratings.confidence,
        pairs: played.len(),
        games: 2 * played.len(),
        truncated_games: played.iter().map(|p| p.truncated).sum(),
        opening_plies: a.openings,
        seed: a.seed,
        seconds,
        ratings: rows,
        los: ratings.los.clone(),
        crosstable,
        sprt,
    }
}

/// The report as text tables.
fn render(r: &Report) -> String {
    let mut s = String::new();
    let width = r.players.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
    let _ = writeln!(
        s,
        "{} — {} games in {} pairs ({} plies of random opening), {:.1} s; Elo anchored on {}",
        r.variant, r.games, r.pairs, r.opening_plies, r.seconds, r.anchor
    );
    if r.truncated_games > 0 {
        let _ = writeln!(
            s,
            "{} games cut by the ply cap (scored draws)",
            r.truncated_games
        );
    }
    let _ = writeln!(
        s,
        "\n{:>4}  {:<width$}  {:>7}  {:>18}  {:>6}  {:>6}  {:>6}",
        "Rank",
        "Player",
        "Elo",
        format!("{:.0}% interval", r.confidence * 100.0),
        "Games",
        "Score",
        "Draws"
    );
    for row in &r.ratings {
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>+7.1}  [{:>+7.1}, {:>+7.1}]  {:>6}  {:>5.1}%  {:>5.1}%",
            row.rank,
            row.name,
            row.elo,
            row.low,
            row.high,
            row.games,
            100.0 * row.score,
            100.0 * row.draws
        );
    }
    if r.players.len() > 2 {
        let _ = writeln!(
            s,
            "\nLikelihood of superiority (row stronger than column), %:"
        );
        let label = width + 4;
        let _ = write!(s, "{:<label$}", "");
        for k in 1..=r.players.len() {
            let _ = write!(s, "  {k:>5}");
        }
        let _ = writeln!(s);
        for (i, name) in r.players.iter().enumerate() {
            let _ = write!(s, "{:<label$}", format!("{:>2} {name}", i + 1));
            for j in 0..r.players.len() {
                if i == j {
                    let _ = write!(s, "  {:>5}", "-");
                } else {
                    let _ = write!(s, "  {:>5.1}", 100.0 * r.los[i][j]);
                }
            }
            let _ = writeln!(s);
        }
    }
    let _ = writeln!(
        s,
        "\nCross-table (W-D-L of the first player; pairs LL LD DD/WL WD WW):"
    );
    for row in r.crosstable.iter().filter(|row| {
        let i = r.players.iter().position(|n| *n == row.player).unwrap_or(0);
        let j = r
            .players
            .iter()
            .position(|n| *n == row.opponent)
            .unwrap_or(0);
        i < j
    }) {
        let p = row.pentanomial;
        let _ = writeln!(
            s,
            "{:<width$} vs {:<width$}  as South {:>9}  as North {:>9}  pairs {} {} {} {} {}",
            row.player,
            row.opponent,
            row.as_south.to_string(),
            row.as_north.to_string(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
    }
    if let Some(t) = &r.sprt {
        let verdict = match t.decision {
            SprtDecision::AcceptH1 => "H1 accepted: the new player is stronger",
            SprtDecision::AcceptH0 => "H0 accepted: the new player is not stronger",
            SprtDecision::Continue => "undecided (game limit reached)",
        };
        let _ = writeln!(
            s,
            "\nSPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) after {} pairs — {verdict}",
            t.test.elo0, t.test.elo1, t.test.alpha, t.test.beta, t.llr, t.lower, t.upper, t.pairs
        );
    }
    s
}

fn write_report(out: &Path, r: &Report) -> Result<()> {
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let write = |name: &str, text: String| -> Result<()> {
        let path = out.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    write("tournament.json", serde_json::to_string_pretty(r)?)?;
    write("tournament.txt", render(r))?;
    let mut csv = String::from("rank,name,elo,low,high,games,score,draws\n");
    for row in &r.ratings {
        let _ = writeln!(
            csv,
            "{},{},{:.2},{:.2},{:.2},{},{:.4},{:.4}",
            row.rank,
            quote(&row.name),
            row.elo,
            row.low,
            row.high,
            row.games,
            row.score,
            row.draws
        );
    }
    write("ratings.csv", csv)?;
    let mut csv = String::from(
        "player,opponent,south_w,south_d,south_l,north_w,north_d,north_l,pairs_ll,pairs_ld,pairs_dd_wl,pairs_wd,pairs_ww\n",
    );
    for row in &r.crosstable {
        let (s, n, p) = (row.as_south, row.as_north, row.pentanomial);
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            quote(&row.player),
            quote(&row.opponent),
            s.wins,
            s.draws,
            s.losses,
            n.wins,
            n.draws,
            n.losses,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
    }
    write("crosstable.csv", csv)?;
    let mut csv = String::from("player");
    for name in &r.players {
        csv.push(',');
        csv.push_str(&quote(name));
    }
    csv.push('\n');
    for (i, name) in r.players.iter().enumerate() {
        csv.push_str(&quote(name));
        for x in &r.los[i] {
            let _ = write!(csv, ",{x:.4}");
        }
        csv.push('\n');
    }
    write("los.csv", csv)?;
    Ok(())
}

/// A CSV field, quoted when it holds a comma or a quote.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
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

/// The variant of a training run, from its `config.toml`.
fn run_variant(dir: &Path) -> Result<String> {
    let path = dir.join("config.toml");
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {} (pass --variant)", path.display()))?;
    for line in text.lines() {
        if let Some(value) = line.trim().strip_prefix("variant") {
            if let Some(value) = value.trim().strip_prefix('=') {
                return Ok(value.trim().trim_matches('"').to_string());
            }
        }
    }
    bail!("{} names no variant (pass --variant)", path.display())
}

fn run_training(a: Args, dir: &Path) -> Result<()> {
    let spec = match &a.variant {
        Some(v) => v.clone(),
        None => run_variant(dir)?,
    };
    let rules = super::variant(&spec, a.options.as_deref())?;
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
    print!("{}", render(&report));
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
