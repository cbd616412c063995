//! `ayo rate`: one agent's Elo on a variant's rating ladder (`models/<variant>/ladder.json`, made
//! by `ayo ladder`): a few pairs against the middle rung, then rounds against the rungs around
//! its estimate, the rungs' Elo held fixed, until the 95 % interval is ± `--precision` or
//! `--max-games` are played. Prints the Elo with its interval and, per rung played, the W-D-L,
//! score, nElo and pentanomial counts; progress goes to stderr, every game to `--out`.
//! `--engine "CMD"` rates an external program speaking `ayo engine`'s protocol instead;
//! `--refit RATING_JSON…` rates an earlier rating's games again on this ladder, playing none;
//! several ratings of one agent (matches on other openings, say) are pooled into one.

use anyhow::{bail, Context, Result};
use ayo_env::arena::ladder::{self, Ladder, RateOptions, Rating, RungGames};
use ayo_env::arena::report;
use ayo_env::arena::tournament::Control;
use ayo_env::Agent;
use ayo_train::external::EngineAgent;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    /// Variant name, e.g. `oware`: its ladder is `models/<variant>/ladder.json` unless
    /// `--ladder` names another.
    #[arg(long)]
    variant: String,
    /// The ladder file.
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// The agent: random, greedy, alphabeta:D, mcts:N, or a checkpoint PATH:SIMS or PATH@TIME.
    #[arg(long, required_unless_present_any = ["engine", "refit"], conflicts_with_all = ["engine", "refit"])]
    agent: Option<String>,
    /// Or no games at all: the `rating.json` of an earlier rating (`--out`), its games rated
    /// again on this ladder's Elo (a later version whose rungs include those it played); several
    /// ratings of the same agent are pooled, their games rated together.
    #[arg(long, value_name = "RATING_JSON", num_args = 1.., conflicts_with = "engine")]
    refit: Vec<PathBuf>,
    /// Or an external program speaking `ayo engine`'s protocol (docs/engine.md), run by `sh -c`:
    /// a crash, an error, an unplayable move or a move slower than --engine-movetime forfeits
    /// that game (the count is reported).
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// The longest an --engine may think about one move: 10s, 500ms.
    #[arg(long, default_value = "10s", value_parser = movetime)]
    engine_movetime: std::time::Duration,
    /// Play until the 95 % interval is ± this many Elo.
    #[arg(long, default_value_t = 40.0, value_parser = super::precision)]
    precision: f64,
    /// The most games, whatever the interval.
    #[arg(long, default_value_t = 2000)]
    max_games: usize,
    /// Game pairs per rung in the first rounds (finding where the agent belongs).
    #[arg(long, default_value_t = 4)]
    probe_pairs: usize,
    /// Game pairs per rung in a round once the agent's place is known.
    #[arg(long, default_value_t = 32)]
    round_pairs: usize,
    /// Games in flight at once.
    #[arg(long, default_value_t = 256)]
    concurrency: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Folder for every game's record and `rating.json`.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let path = a
        .ladder
        .clone()
        .unwrap_or_else(|| Path::new("models").join(&a.variant).join("ladder.json"));
    let ladder = Ladder::load(&path).with_context(|| {
        format!(
            "no ladder to rate {} on (one is made by `ayo ladder`, see docs/rating.md)",
            a.variant
        )
    })?;
    let rules = super::variant(&a.variant, Some(&ladder.options))?;
    ladder.check_rules(&rules)?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let rungs = ayo_train::rungs::load(&ladder, folder, &rules, a.seed)?;
    let names: Vec<String> = rungs.iter().map(|r| r.name()).collect();
    let elo: Vec<f64> = ladder.rungs.iter().map(|r| r.elo).collect();
    if !a.refit.is_empty() {
        return refit(&a.refit, &ladder, &path, &names, &elo, a.out.as_deref());
    }
    let (agent, failures): (Box<dyn Agent>, _) = match (&a.agent, &a.engine) {
        (Some(spec), _) => (
            ayo_train::agent::load_player(spec, &rules, 0, a.seed)?,
            None,
        ),
        (None, Some(command)) => {
            let engine = EngineAgent::start(command, &rules, a.engine_movetime)?;
            let failures = engine.failures();
            (Box::new(engine), Some(failures))
        }
        (None, None) => unreachable!("clap requires --agent, --engine or --refit"),
    };
    let me = agent.name();
    if let Some(out) = &a.out {
        super::out_folder(out)?;
    }
    let options = RateOptions {
        precision: a.precision,
        max_games: a.max_games,
        probe_pairs: a.probe_pairs,
        batch_pairs: a.round_pairs,
        seed: a.seed,
        concurrency: a.concurrency,
        ..Default::default()
    };
    eprintln!(
        "rating {me} on the {} ladder v{} ({}) to ± {} Elo, at most {} games",
        ladder.rules_id(),
        ladder.version,
        path.display(),
        a.precision,
        a.max_games
    );
    let started = Instant::now();
    let mut write_error = None;
    let rating = ladder::rate(
        &rules,
        &ladder.protocol,
        &elo,
        agent,
        rungs,
        &options,
        |pair| {
            if let Some(out) = &a.out {
                if let Err(e) = report::write_pair(out, pair) {
                    write_error.get_or_insert(e);
                }
            }
            Control::Continue
        },
        |r| {
            let played: Vec<&str> = r.rungs.iter().map(|g| names[g.rung].as_str()).collect();
            eprintln!(
                "round {}: {} games, Elo {:+.0} ± {:.0}, {:.1} s (rungs played: {})",
                r.rounds,
                r.games,
                r.elo,
                (r.high - r.low) / 2.0,
                started.elapsed().as_secs_f64(),
                played.join(", ")
            );
        },
    )?;
    if let Some(e) = write_error {
        return Err(e.into());
    }
    let seconds = started.elapsed().as_secs_f64();
    let forfeits = failures.map(|f| f.load(Ordering::Relaxed));
    if let Some(out) = &a.out {
        RatingFile {
            agent: me.clone(),
            variant: ladder.rules_id(),
            ladder: path.display().to_string(),
            ladder_version: ladder.version,
            seconds,
            rating: rating.clone(),
            rungs: names.clone(),
            forfeits,
            refit_from: None,
        }
        .write(out)?;
    }
    let source = path.display().to_string();
    print!("{}", rating.table(&ladder, &source, &me, &names, seconds));
    if let Some(n) = forfeits {
        println!(
            "{me} forfeited {n} of its {} games (crash, error, bad move or time).",
            rating.games
        );
    }
    Ok(())
}

/// What `ayo rate --out DIR` writes to `DIR/rating.json`, and `--refit` reads back.
#[derive(serde::Serialize, serde::Deserialize)]
struct RatingFile {
    agent: String,
    /// `variant@version` of the games.
    variant: String,
    ladder: String,
    ladder_version: u32,
    /// The time the games took.
    seconds: f64,
    rating: Rating,
    /// The ladder's rungs as `rating` numbers them.
    rungs: Vec<String>,
    /// An engine's forfeited games (`--engine`).
    forfeits: Option<u32>,
    /// The earlier `rating.json` (or several, joined by " + ") whose games these are (`--refit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refit_from: Option<String>,
}

impl RatingFile {
    fn write(&self, out: &Path) -> Result<()> {
        let file = out.join("rating.json");
        std::fs::write(&file, serde_json::to_string_pretty(self)? + "\n")
            .with_context(|| format!("cannot write {}", file.display()))
    }
}

/// `ayo rate --refit`: the games of the ratings in `files` (one agent's) rated again, together,
/// on `ladder`, whose rungs are `names` with Elo `elo`; the new `rating.json` goes to `out`.
fn refit(
    files: &[PathBuf],
    ladder: &Ladder,
    path: &Path,
    names: &[String],
    elo: &[f64],
    out: Option<&Path>,
) -> Result<()> {
    let mut earlier: Vec<RatingFile> = Vec::new();
    let mut games: Vec<RungGames> = Vec::new();
    for (i, file) in files.iter().enumerate() {
        if files[..i].contains(file) {
            bail!(
                "{} is named twice after --refit: its games would count twice",
                file.display()
            );
        }
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let one: RatingFile = serde_json::from_str(&text).with_context(|| {
            format!(
                "{} is not the rating.json of `ayo rate --out`",
                file.display()
            )
        })?;
        if one.variant != ladder.rules_id() {
            bail!(
                "{}: its games are of {}, the ladder is of {}",
                file.display(),
                one.variant,
                ladder.rules_id()
            );
        }
        if let Some(first) = earlier.first() {
            if one.agent != first.agent {
                bail!(
                    "{}: its games are {}'s, those of {} are {}'s; --refit pools the ratings of \
                     one agent",
                    file.display(),
                    one.agent,
                    files[0].display(),
                    first.agent
                );
            }
        }
        for g in &one.rating.rungs {
            let name = one.rungs.get(g.rung).with_context(|| {
                format!("{}: rung {} is not among its rungs", file.display(), g.rung)
            })?;
            let rung = names.iter().position(|n| n == name).with_context(|| {
                format!(
                    "{}: its games against {name} cannot be refitted: {name} is not a rung of \
                     {} v{}",
                    file.display(),
                    path.display(),
                    ladder.version
                )
            })?;
            match games.iter_mut().find(|kept| kept.rung == rung) {
                Some(kept) => {
                    kept.pentanomial += g.pentanomial;
                    kept.wdl += g.wdl;
                }
                None => games.push(RungGames { rung, ..g.clone() }),
            }
        }
        earlier.push(one);
    }
    let rounds: usize = earlier.iter().map(|e| e.rating.rounds).sum();
    let rating = Rating::refit(elo, &games, rounds)?;
    let first = &earlier[0];
    let before: Vec<String> = earlier
        .iter()
        .map(|e| format!("{:+.0} on v{}", e.rating.elo, e.ladder_version))
        .collect();
    eprintln!(
        "the games of {} ({} games; {}) rated again on ladder v{}: {:+.0}",
        first.agent,
        rating.games,
        before.join(", "),
        ladder.version,
        rating.elo
    );
    let source = path.display().to_string();
    let seconds: f64 = earlier.iter().map(|e| e.seconds).sum();
    let forfeits = earlier
        .iter()
        .filter_map(|e| e.forfeits)
        .reduce(|a, b| a + b);
    let sources: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    if let Some(out) = out {
        super::out_folder(out)?;
        RatingFile {
            agent: first.agent.clone(),
            variant: ladder.rules_id(),
            ladder: source.clone(),
            ladder_version: ladder.version,
            seconds,
            rating: rating.clone(),
            rungs: names.to_vec(),
            forfeits,
            refit_from: Some(sources.join(" + ")),
        }
        .write(out)?;
    }
    print!(
        "{}",
        rating.table(ladder, &source, &first.agent, names, seconds)
    );
    Ok(())
}

fn movetime(text: &str) -> Result<std::time::Duration, String> {
    ayo_train::agent::parse_movetime(text)
        .ok_or_else(|| format!("{text:?} is not a time per move such as 10s or 500ms"))
}
