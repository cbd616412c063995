//! `ayo ladder`: measures a variant's rating ladder — paired games between neighbouring rungs,
//! the rungs' Elo anchored on the first (`random` = 0) with 95 % intervals — and writes it as
//! versioned JSON (`models/<variant>/ladder.json`), the scale that `ayo rate` places agents on.
//! Networks are pinned by their file's SHA-256 and named relative to the ladder's folder.

use anyhow::{bail, Context, Result};
use ayo_env::arena::ladder::{self, Ladder, Protocol};
use ayo_env::arena::rating::{GamePair, Pentanomial};
use ayo_env::arena::tournament::Control;
use ayo_env::Agent;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    /// The rungs from the weakest (the first is rated 0; `random` by convention): random,
    /// greedy, alphabeta:D, mcts:N, or a checkpoint PATH:SIMS.
    #[arg(long, num_args = 2.., required = true)]
    rungs: Vec<String>,
    /// Game pairs between each two neighbouring rungs.
    #[arg(long, default_value_t = 200)]
    pairs: usize,
    /// Random plies from the start that make each pair's opening.
    #[arg(long, default_value_t = 4)]
    openings: u32,
    /// Openings begin at the variant's varied starts.
    #[arg(long)]
    varied_starts: bool,
    /// A game longer than this is cut and scored a draw.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// The ladder's version (raise it whenever a rung, a network or the protocol changes).
    #[arg(long, default_value_t = 1)]
    version: u32,
    /// Games in flight at once.
    #[arg(long, default_value_t = 256)]
    concurrency: usize,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// An earlier ladder of the same rules, options and protocol: each link between the same
    /// two rungs (spec and network hash equal) measured with --pairs pairs is kept from it
    /// instead of played again (the new file marks it `reused_from` the version that played it).
    #[arg(long)]
    reuse: Option<PathBuf>,
    /// The ladder file to write (its folder is where network rungs are named from).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let rules = a.game.rules()?;
    let options = a.game.options.clone().unwrap_or_default();
    let folder = a
        .out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .canonicalize()
        .with_context(|| format!("the folder of {} must exist", a.out.display()))?;
    // Each rung as the ladder names it (networks relative to its folder) with its hash.
    let mut specs = Vec::new();
    let mut agents: Vec<Box<dyn Agent>> = Vec::new();
    for (i, spec) in a.rungs.iter().enumerate() {
        let agent =
            ayo_train::agent::load_player(spec, &rules, 0, a.seed.wrapping_add(1 + i as u64))?;
        specs.push(match ayo_train::agent::checkpoint_spec(spec, 0) {
            Some((path, _)) => {
                let budget = &spec[path.as_os_str().len()..];
                if budget.is_empty() {
                    bail!("network rung {spec:?} needs its budget, as PATH:SIMS or PATH@TIME");
                }
                let file = path.canonicalize()?;
                let named = file.strip_prefix(&folder).unwrap_or(&file);
                (
                    format!("{}{budget}", named.display()),
                    Some(ayo_train::rungs::sha256(path)?),
                )
            }
            None => (spec.clone(), None),
        });
        agents.push(agent);
    }
    let protocol = Protocol {
        opening_plies: a.openings,
        varied_starts: a.varied_starts,
        max_plies: a.max_plies,
    };
    let names: Vec<String> = agents.iter().map(|x| x.name()).collect();
    let earlier = match &a.reuse {
        Some(path) => Some(earlier_ladder(path, &rules, &options, &protocol)?),
        None => None,
    };
    // The links kept from the earlier ladder (their pair counts and the version that played
    // them), the others to play.
    let kept: Vec<Option<(Pentanomial, u32)>> = (1..specs.len())
        .map(|upper| {
            earlier.as_ref().and_then(|l| {
                l.measured_link(&specs[upper - 1], &specs[upper])
                    .filter(|(counts, _)| counts.pairs() as usize == a.pairs)
            })
        })
        .collect();
    let to_play: Vec<usize> = (0..kept.len()).filter(|&i| kept[i].is_none()).collect();
    eprintln!(
        "{}: {} pairs between each two of {} neighbouring rungs{}",
        rules_id(&rules),
        a.pairs,
        names.len(),
        match &earlier {
            Some(l) => format!(
                " ({} links kept from ladder v{}, {} to play)",
                kept.len() - to_play.len(),
                l.version,
                to_play.len()
            ),
            None => String::new(),
        }
    );
    let started = Instant::now();
    let total = a.pairs * to_play.len();
    let progress = super::PairProgress::start();
    let mut done = 0;
    let played = ladder::measure_links(
        &rules,
        &mut agents,
        &to_play,
        a.pairs,
        &protocol.match_config(a.seed, a.concurrency),
        |_| {
            done += 1;
            progress.update(done, total, "ladder");
            Control::Continue
        },
    )?;
    let mut pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
    for (lower, link) in kept.iter().enumerate() {
        if let Some((counts, _)) = link {
            pairs.extend(counts.pairs_between(lower + 1, lower));
        }
    }
    let command = format!(
        "ayo ladder --variant {}{} --rungs {} --pairs {} --openings {}{} --max-plies {} --version {} --seed {}{} --out {}",
        a.game.variant,
        if options.is_empty() { String::new() } else { format!(" --options {options}") },
        a.rungs.join(" "),
        a.pairs,
        a.openings,
        if a.varied_starts { " --varied-starts" } else { "" },
        a.max_plies,
        a.version,
        a.seed,
        a.reuse
            .as_ref()
            .map(|p| format!(" --reuse {}", p.display()))
            .unwrap_or_default(),
        a.out.display()
    );
    let mut result = Ladder::fit(
        a.version, &rules, &options, protocol, &specs, &pairs, &command,
    )?;
    for (link, kept) in result.links.iter_mut().zip(&kept) {
        link.reused_from = kept.map(|(_, played_by)| played_by);
    }
    std::fs::write(&a.out, result.to_json())
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    print!(
        "{}",
        table(&result, &names, started.elapsed().as_secs_f64())
    );
    Ok(())
}

/// The ladder at `path`, refused unless its games were played under the same rules, options
/// and protocol as the new one's.
fn earlier_ladder(
    path: &Path,
    rules: &ayo_env::Variant,
    options: &str,
    protocol: &Protocol,
) -> Result<Ladder> {
    let earlier = Ladder::load(path)?;
    earlier.check_rules(rules)?;
    if earlier.options != options {
        bail!(
            "--reuse {}: its games had options {:?}, these have {options:?}",
            path.display(),
            earlier.options
        );
    }
    if earlier.protocol != *protocol {
        bail!(
            "--reuse {}: its games had the protocol {:?}, these have {protocol:?}",
            path.display(),
            earlier.protocol
        );
    }
    Ok(earlier)
}

fn rules_id(rules: &ayo_env::Variant) -> String {
    use ayo_env::Rules;
    rules.id()
}

/// The ladder as a table: each rung's Elo, and each link's score, pairs and gap.
pub fn table(ladder: &Ladder, names: &[String], seconds: f64) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} ladder v{}: {}-ply random openings{}, {:.0} s\n",
        ladder.rules_id(),
        ladder.version,
        ladder.protocol.opening_plies,
        if ladder.options.is_empty() {
            String::new()
        } else {
            format!(", {}", ladder.options)
        },
        seconds
    );
    let width = names.iter().map(String::len).max().unwrap_or(4).max(4);
    let _ = writeln!(
        s,
        "{:<width$}  {:>7}  {:>18}  {:>5}  {:>6}  {:>14}  {:>18}  {:>12}",
        "Rung", "Elo", "95% interval", "Games", "Score", "Pairs", "nElo [95%]", "Gap"
    );
    for (i, rung) in ladder.rungs.iter().enumerate() {
        let link = i.checked_sub(1).map(|l| &ladder.links[l]);
        let (score, counts, nelo, gap) = match link {
            Some(l) => (
                format!("{:.1}%", 100.0 * l.score),
                ayo_env::arena::rating::Pentanomial {
                    counts: l.pentanomial,
                }
                .label(),
                l.nelo
                    .map(|[n, lo, hi]| format!("{n:+.0} [{lo:+.0}, {hi:+.0}]"))
                    .unwrap_or_else(|| "-".into()),
                format!("{:+.0} ± {:.0}", l.gap, l.gap_half_width),
            ),
            None => Default::default(),
        };
        let _ = writeln!(
            s,
            "{:<width$}  {:>+7.0}  [{:>+7.0}, {:>+7.0}]  {:>5}  {score:>6}  {counts:>14}  {nelo:>18}  {gap:>12}",
            names.get(i).unwrap_or(&rung.spec),
            rung.elo,
            rung.low,
            rung.high,
            rung.games,
        );
    }
    let _ = writeln!(
        s,
        "\nScore, pairs (0-½-1-1½-2 points), nElo and gap: each rung against the one below."
    );
    s
}
