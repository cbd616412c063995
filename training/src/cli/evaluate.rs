//! `ayo evaluate`: plays checkpoints against other agents and says how they did — a table to
//! read (W-D-L, score, Elo with its 95 % interval), and on request the learning-curve CSV and
//! its PNG.

use crate::cli::plot::{Curve, CSV_HEADER};
use crate::cli::PairProgress;
use anyhow::{Context, Result};
use ayo_env::arena::rating::Pentanomial;
use ayo_env::arena::tournament::MatchConfig;
use ayo_env::{Rules, Variant};
use ayo_train::agent::{load_player, NetAgent};
use ayo_train::checkpoint::CheckpointMeta;
use ayo_train::config::{Given, TrainConfig};
use ayo_train::eval::{self, MatchResult};
use serde::Serialize;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Each checkpoint plays every agent of --against: `--eval-games` games in seat-swapped pairs
/// from shared random openings of `--eval-opening-plies` plies (varied starts with
/// `--eval-varied-starts`), the checkpoint searching `--eval-simulations` per move with the
/// play settings given here (the others as `ayo train` evaluates). Games cut by the ply cap
/// count as draws. The progress of each match, with its W-D-L so far, goes to stderr.
#[derive(clap::Args)]
pub struct Args {
    /// The checkpoints (several make a learning curve, e.g. runs/oware/checkpoints/step-*.ot).
    #[arg(required = true, num_args = 1..)]
    checkpoints: Vec<PathBuf>,
    /// The agents each checkpoint plays, comma-separated: random, greedy, alphabeta:D,
    /// mcts:N, or a checkpoint file.
    #[arg(long, default_value = "mcts:1000,alphabeta:6")]
    against: String,
    /// Options of the games on top of the checkpoint's, e.g. `episode=match` to play whole
    /// matches with a network trained on rounds.
    #[arg(long, default_value = "")]
    play_options: String,
    /// Also write one CSV row per checkpoint and agent into this file, as each match ends (the
    /// columns that `ayo plot` reads; distinct games, pairs won both / split / lost both, wins
    /// as South / North).
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Also draw the learning curve (score against each agent by minutes of training) into
    /// this PNG.
    #[arg(long)]
    curve: Option<PathBuf>,
    /// Also measure each checkpoint's moves against this oware endgame table (`ayo egtb
    /// build`) on the positions of --positions: the share that keep the game's result and the
    /// exact margin (`ayo accuracy`, docs/tablebase.md), a learning curve of move accuracy.
    #[arg(long, value_name = "DIR")]
    tablebase: Option<PathBuf>,
    /// The endgame positions of --tablebase.
    #[arg(long, default_value = "models/oware/accuracy-positions.txt")]
    positions: PathBuf,
    #[command(flatten)]
    settings: Settings,
}

/// The settings of `ayo train` that evaluation games use, by the same names; those not given
/// keep `ayo train`'s defaults.
#[derive(clap::Args, Serialize)]
struct Settings {
    /// Games per checkpoint and agent (half in each seat).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_games: Option<usize>,
    /// Simulations per move of the checkpoint's search.
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_simulations: Option<u32>,
    /// Random plies that open each pair of games (the same opening for both games of a pair).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_opening_plies: Option<u32>,
    /// Whether games begin at the variant's varied starts (`true`/`false`).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_varied_starts: Option<bool>,
    /// Scale of the root Gumbel noise (0: the search's best move).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_gumbel_scale: Option<f32>,
    /// `c_scale` of the sigma transform (0: the checkpoint's).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_c_scale: Option<f32>,
    /// Min-max rescale the search's action values per node (`true`/`false`; unset: the
    /// checkpoint's).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    eval_rescale: Option<bool>,
    /// Plies after which a game is cut and scored a draw (at least the checkpoint's run's).
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    max_plies: Option<u32>,
    /// Seed of the openings and of the players' random choices.
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    /// Threads of torch's intra-op pool.
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    threads: Option<usize>,
}

impl Settings {
    /// `ayo train`'s defaults with the settings given here, validated.
    fn config(&self) -> Result<TrainConfig> {
        let given: Given = match serde_json::to_value(self)? {
            serde_json::Value::Object(map) => map,
            _ => unreachable!("a struct serialises to an object"),
        };
        Ok(TrainConfig::default().with(&given)?)
    }
}

/// One match of the evaluation: a checkpoint against an agent.
struct Played {
    checkpoint: PathBuf,
    meta: CheckpointMeta,
    opponent: String,
    result: MatchResult,
}

pub fn run(a: Args) -> Result<()> {
    let cfg = a.settings.config()?;
    tch::set_num_threads(cfg.threads as i32);
    let mut csv = match &a.csv {
        Some(path) => {
            let mut file = std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(file, "{CSV_HEADER}")?;
            Some(file)
        }
        None => None,
    };
    let mut played = Vec::new();
    let mut variant = String::new();
    for path in &a.checkpoints {
        for spec in a
            .against
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (rules, p) = play(path, spec, &a.play_options, &cfg)?;
            if let Some(file) = &mut csv {
                writeln!(file, "{}", csv_row(&p, cfg.eval_simulations))?;
                file.flush()?;
            }
            variant = rules.id();
            played.push(p);
        }
    }
    if let Some(png) = &a.curve {
        let mut curve = Curve::default();
        for p in &played {
            curve.add(&p.opponent, p.meta.wall_time_s / 60.0, p.result.score());
        }
        curve.draw(png, &Curve::title(&variant, cfg.eval_simulations))?;
    }
    print!("{}", table(&variant, &cfg, &played));
    if let Some(dir) = &a.tablebase {
        print!("{}", accuracy(dir, &a.positions, &a.checkpoints, &cfg)?);
    }
    Ok(())
}

/// Each checkpoint's move accuracy on the endgame positions of `positions`, judged by the
/// table in `dir`, as a table to read (by training step and minutes).
fn accuracy(
    dir: &Path,
    positions: &Path,
    checkpoints: &[PathBuf],
    cfg: &TrainConfig,
) -> Result<String> {
    use ayo_env::tablebase::Tablebase;
    let table = Tablebase::open(dir)?;
    let width = checkpoints
        .iter()
        .map(|p| p.display().to_string().len())
        .max()
        .unwrap_or(5);
    let mut rows = String::new();
    let mut labelled = None;
    for path in checkpoints {
        let mut me = NetAgent::load(path, cfg.eval_simulations, cfg.seed)?;
        cfg.apply_eval_settings(&mut me.params);
        let meta = me.meta.clone().expect("loaded from a checkpoint");
        let rules = meta.rules()?;
        table.check_variant(&rules)?;
        if labelled.is_none() {
            labelled = Some(super::accuracy::load_positions(&rules, &table, positions)?);
        }
        let (positions, _) = labelled.as_ref().expect("loaded above");
        let (all, _) = super::accuracy::measure(&mut me, &rules, positions);
        let (result, margin, _) = all.shares();
        let _ = writeln!(
            rows,
            "{:<width$}  {:>6}  {:>7.1}  {:>6.1}%  {:>6.1}%",
            path.display(),
            meta.step,
            meta.wall_time_s / 60.0,
            100.0 * result,
            100.0 * margin,
        );
    }
    let (positions, outside) = labelled.as_ref().map_or((0, 0), |(p, o)| (p.len(), *o));
    Ok(format!(
        "\nMove accuracy on {positions} endgame positions ({outside} others outside the table or \
         over its search cap), {} simulations per move:\n\n{:<width$}  {:>6}  {:>7}  {:>7}  {:>7}\n{rows}",
        cfg.eval_simulations, "Agent", "Step", "Minutes", "Result", "Margin",
    ))
}

/// The checkpoint at `path` against the agent `spec` in games of the checkpoint's variant with
/// `play_options` on top.
fn play(
    path: &Path,
    spec: &str,
    play_options: &str,
    cfg: &TrainConfig,
) -> Result<(Variant, Played)> {
    let mut me = NetAgent::load(path, cfg.eval_simulations, cfg.seed)?;
    cfg.apply_eval_settings(&mut me.params);
    let meta = me.meta.clone().expect("loaded from a checkpoint");
    let mut rules = meta.rules()?;
    for (key, value) in Variant::parse_options(play_options)? {
        rules.set_option(&key, &value)?;
    }
    me.check_rules(&rules)?;
    let other = load_player(spec, &rules, cfg.eval_simulations, cfg.seed.wrapping_add(1))?;
    let match_config = MatchConfig {
        max_plies: cfg.max_plies.max(meta.config.max_plies),
        ..cfg.eval_match_config()
    };
    let result = eval::play_match_observed(
        &rules,
        Box::new(me),
        other,
        cfg.eval_games,
        &match_config,
        progress(&format!("{} vs {spec}", path.display())),
    )?;
    let played = Played {
        checkpoint: path.to_path_buf(),
        meta,
        opponent: spec.to_string(),
        result,
    };
    Ok((rules, played))
}

/// The progress of a match ([`PairProgress`]), each line with the W-D-L so far.
fn progress(label: &str) -> impl FnMut(usize, usize, &MatchResult) {
    let progress = PairProgress::start();
    let label = label.to_string();
    move |done, pairs, so_far| {
        let tally = format!(
            "{label}: {}-{}-{}",
            so_far.wins, so_far.draws, so_far.losses
        );
        progress.update(done, pairs, &tally);
    }
}

/// The match's row of the CSV, in the columns of [`CSV_HEADER`].
fn csv_row(p: &Played, simulations: u32) -> String {
    let (m, r) = (&p.meta, &p.result);
    format!(
        "{},{},{:.0},{},{},{simulations},{},{},{},{},{:.3},{},{},{},{},{},{},{}",
        p.checkpoint.display(),
        m.step,
        m.wall_time_s,
        m.positions,
        p.opponent,
        r.games(),
        r.wins,
        r.draws,
        r.losses,
        r.score(),
        r.distinct,
        r.truncated,
        r.pairs_won_both,
        r.pairs_split(),
        r.pairs_lost_both,
        r.wins_south,
        r.wins_north()
    )
}

/// The matches as a table to read: for each checkpoint and opponent the games, W-D-L, score,
/// and the checkpoint's Elo over the opponent with its 95 % interval ([`MatchResult::ratings`]).
fn table(variant: &str, cfg: &TrainConfig, played: &[Played]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{variant}: {} simulations per move, games in seat-swapped pairs from {}-ply random openings",
        cfg.eval_simulations, cfg.eval_opening_plies
    );
    let _ = writeln!(
        s,
        "Elo: the agent's over its opponent (0), with its 95 % bootstrap interval over the pairs;\n\
         nElo: normalized Elo with its 95 % interval; pairs: those that scored 0-½-1-1½-2 points\n"
    );
    let names: Vec<String> = played
        .iter()
        .map(|p| p.checkpoint.display().to_string())
        .collect();
    let width = names.iter().map(String::len).max().unwrap_or(0).max(5);
    let other = played
        .iter()
        .map(|p| p.opponent.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let _ = writeln!(
        s,
        "{:<width$}  {:<other$}  {:>5}  {:>9}  {:>6}  {:>7}  {:>18}  {:>24}  {:>14}",
        "Agent",
        "Opponent",
        "Games",
        "W-D-L",
        "Score",
        "Elo",
        "95% interval",
        "nElo [95% interval]",
        "Pairs"
    );
    for (p, name) in played.iter().zip(&names) {
        let r = &p.result;
        let elo = r.ratings();
        let pairs = Pentanomial::of(&r.pairs);
        let nelo = match pairs.nelo() {
            Some((n, lo, hi)) => format!("{n:+.0} [{lo:+.0}, {hi:+.0}]"),
            None => "-".into(),
        };
        let _ = writeln!(
            s,
            "{name:<width$}  {:<other$}  {:>5}  {:>9}  {:>5.1}%  {:>+7.1}  [{:>+7.1}, {:>+7.1}]  {nelo:>24}  {:>14}",
            p.opponent,
            r.games(),
            format!("{}-{}-{}", r.wins, r.draws, r.losses),
            100.0 * r.score(),
            elo.elo[0],
            elo.low[0],
            elo.high[0],
            pairs.label()
        );
    }
    if played.iter().any(|p| p.result.sweep()) {
        let _ = writeln!(
            s,
            "\nA sweep (every game won, or every game lost) leaves the bootstrap nothing to \
             resample: its interval is its estimate alone."
        );
    }
    s
}
