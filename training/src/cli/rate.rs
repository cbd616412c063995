//! `ayo rate`: one agent's Elo on a variant's rating ladder (`models/<variant>/ladder.json`, made
//! by `ayo ladder`): a few pairs against the middle rung, then rounds against the rungs around
//! its estimate, the rungs' Elo held fixed, until the 95 % interval is ± `--precision` or
//! `--max-games` are played. Prints the Elo with its interval and, per rung played, the W-D-L,
//! score, nElo and pentanomial counts; progress goes to stderr, every game to `--out`.
//! `--engine "CMD"` rates an external program speaking `ayo engine`'s protocol instead.

use anyhow::{bail, Context, Result};
use ayo_env::arena::ladder::{self, Ladder, RateOptions, Rating};
use ayo_env::arena::report;
use ayo_env::{Agent, Variant};
use ayo_train::external::EngineAgent;
use std::fmt::Write as _;
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
    #[arg(long, required_unless_present = "engine", conflicts_with = "engine")]
    agent: Option<String>,
    /// Or an external program speaking `ayo engine`'s protocol (docs/engine.md), run by `sh -c`:
    /// a crash, an error, an unplayable move or a move slower than --engine-movetime forfeits
    /// that game (the count is reported).
    #[arg(long, value_name = "CMD")]
    engine: Option<String>,
    /// The longest an --engine may think about one move: 10s, 500ms.
    #[arg(long, default_value = "10s", value_parser = movetime)]
    engine_movetime: std::time::Duration,
    /// Play until the 95 % interval is ± this many Elo.
    #[arg(long, default_value_t = 40.0)]
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
    let rungs = load_rungs(&ladder, folder, &rules, a.seed)?;
    let names: Vec<String> = rungs.iter().map(|r| r.name()).collect();
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
        (None, None) => unreachable!("clap requires --agent or --engine"),
    };
    let me = agent.name();
    let elo: Vec<f64> = ladder.rungs.iter().map(|r| r.elo).collect();
    if let Some(out) = &a.out {
        std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
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
        let json = serde_json::json!({
            "agent": me,
            "variant": ladder.rules_id(),
            "ladder": path.display().to_string(),
            "ladder_version": ladder.version,
            "seconds": seconds,
            "rating": rating,
            "rungs": names,
            "forfeits": forfeits,
        });
        let file = out.join("rating.json");
        std::fs::write(&file, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    print!("{}", table(&ladder, &path, &me, &names, &rating, seconds));
    if let Some(n) = forfeits {
        println!(
            "{me} forfeited {n} of its {} games (crash, error, bad move or time).",
            rating.games
        );
    }
    Ok(())
}

fn movetime(text: &str) -> Result<std::time::Duration, String> {
    ayo_train::agent::parse_movetime(text)
        .ok_or_else(|| format!("{text:?} is not a time per move such as 10s or 500ms"))
}

/// The ladder's rungs as agents, networks found beside the ladder and checked by their hash.
fn load_rungs(
    ladder: &Ladder,
    folder: &Path,
    rules: &Variant,
    seed: u64,
) -> Result<Vec<Box<dyn Agent>>> {
    let mut rungs = Vec::new();
    for (i, rung) in ladder.rungs.iter().enumerate() {
        let seed = seed.wrapping_add(1 + i as u64);
        let spec = match &rung.sha256 {
            None => rung.spec.clone(),
            Some(hash) => {
                let spec = folder.join(&rung.spec).display().to_string();
                let Some((file, _)) = ayo_train::agent::checkpoint_spec(&spec, 0) else {
                    bail!("the ladder's network rung {spec:?} is not a file");
                };
                let found = super::ladder::sha256(file)?;
                if &found != hash {
                    bail!(
                        "{} has SHA-256 {found}, the ladder v{} was measured with {hash}: \
                         the network changed, so the ladder must be measured again",
                        file.display(),
                        ladder.version
                    );
                }
                spec
            }
        };
        rungs.push(ayo_train::agent::load_player(&spec, rules, 0, seed)?);
    }
    Ok(rungs)
}

/// The rating and the agent's games per rung.
fn table(
    ladder: &Ladder,
    path: &Path,
    me: &str,
    names: &[String],
    r: &Rating,
    seconds: f64,
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{me} on {} ladder v{} ({}): Elo {:+.0} ± {:.0} [{:+.0}, {:+.0}] (95 %, rungs held fixed), \
         {} games in {} rounds, {:.1} s\n",
        ladder.rules_id(),
        ladder.version,
        path.display(),
        r.elo,
        (r.high - r.low) / 2.0,
        r.low,
        r.high,
        r.games,
        r.rounds,
        seconds
    );
    let width = names.iter().map(String::len).max().unwrap_or(4).max(4);
    let _ = writeln!(
        s,
        "{:<width$}  {:>7}  {:>5}  {:>9}  {:>6}  {:>18}  {:>14}",
        "Rung", "Elo", "Games", "W-D-L", "Score", "nElo [95%]", "Pairs"
    );
    for g in &r.rungs {
        let nelo = g
            .pentanomial
            .nelo()
            .map(|(n, lo, hi)| format!("{n:+.0} [{lo:+.0}, {hi:+.0}]"))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            s,
            "{:<width$}  {:>+7.0}  {:>5}  {:>9}  {:>5.1}%  {nelo:>18}  {:>14}",
            names[g.rung],
            ladder.rungs[g.rung].elo,
            g.wdl.games(),
            g.wdl.to_string(),
            100.0 * g.pentanomial.score(),
            g.pentanomial.label()
        );
    }
    let _ = writeln!(
        s,
        "\nW-D-L, score, nElo and pairs (0-½-1-1½-2 points) are {me}'s against each rung."
    );
    s
}
