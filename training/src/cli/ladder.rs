//! `ayo ladder`: measures a variant's rating ladder — paired games between neighbouring rungs,
//! the rungs' Elo anchored on the first (`random` = 0) with 95 % intervals — and writes it as
//! versioned JSON (`models/<variant>/ladder.json`), the scale that `ayo rate` places agents on.
//! Networks are pinned by their file's SHA-256 and named relative to the ladder's folder.

use anyhow::{bail, Context, Result};
use ayo_env::arena::ladder::{self, Ladder, PlayedBy, Protocol};
use ayo_env::arena::rating::GamePair;
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
    /// two rungs (spec and network hash equal) keeps its pairs from it instead of playing them
    /// again, and plays only what it lacks of --pairs (the new file's `played_by` says which
    /// version's command played which pairs).
    #[arg(long)]
    reuse: Option<PathBuf>,
    /// Then play more pairs on each link whose gap is known to worse than ± this many Elo
    /// (95 %), as many as its interval says it needs, in up to three rounds, never more than
    /// four times --pairs on a link.
    #[arg(long, value_parser = super::precision)]
    precision: Option<f64>,
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
    // Each link's pairs so far (from the upper rung's side) and who played them.
    let mut links: Vec<LinkPairs> = (1..specs.len())
        .map(|upper| {
            let kept = earlier
                .as_ref()
                .and_then(|l| l.measured_link(&specs[upper - 1], &specs[upper]));
            let (counts, played_by) = kept.unwrap_or_default();
            LinkPairs {
                pairs: counts.pairs_between(upper, upper - 1),
                played_by,
            }
        })
        .collect();
    let fresh: Vec<(usize, usize)> = (0..links.len())
        .filter(|&i| links[i].pairs.is_empty())
        .map(|i| (i, a.pairs))
        .collect();
    let short: Vec<(usize, usize)> = (0..links.len())
        .filter(|&i| (1..a.pairs).contains(&links[i].pairs.len()))
        .map(|i| (i, a.pairs - links[i].pairs.len()))
        .collect();
    eprintln!(
        "{}: {} pairs between each two of {} neighbouring rungs{}",
        rules_id(&rules),
        a.pairs,
        names.len(),
        match &earlier {
            Some(l) => format!(
                " ({} links kept from ladder v{}, {} of them topped up; {} to play)",
                links.len() - fresh.len(),
                l.version,
                short.len(),
                fresh.len()
            ),
            None => String::new(),
        }
    );
    let started = Instant::now();
    let config = |seed| protocol.match_config(seed, a.concurrency);
    // New links play the openings of --seed, as a ladder made from scratch would; more pairs
    // on a link that has some play openings of another stream, not its first pairs' again.
    let more_seed = |round: u64| mix_seed(a.seed, a.version, round);
    play(
        &rules,
        &mut agents,
        &mut links,
        &fresh,
        &config(a.seed),
        a.version,
    )?;
    play(
        &rules,
        &mut agents,
        &mut links,
        &short,
        &config(more_seed(0)),
        a.version,
    )?;
    let command = format!(
        "ayo ladder --variant {}{} --rungs {} --pairs {} --openings {}{} --max-plies {} --version {} --seed {}{}{} --out {}",
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
        a.precision
            .map(|e| format!(" --precision {e}"))
            .unwrap_or_default(),
        a.out.display()
    );
    let fit = |links: &[LinkPairs]| {
        let pairs: Vec<GamePair> = links.iter().flat_map(|l| l.pairs.iter().copied()).collect();
        Ladder::fit(
            a.version,
            &rules,
            &options,
            protocol.clone(),
            &specs,
            &pairs,
            &command,
        )
    };
    let mut result = fit(&links)?;
    if let Some(precision) = a.precision {
        for round in 1..=PRECISION_ROUNDS {
            let more: Vec<(usize, usize)> = result
                .links
                .iter()
                .zip(&links)
                .enumerate()
                .filter(|(_, (fitted, _))| {
                    // A gap with no finite interval (a link won every pair) needs pairs too.
                    fitted.gap_half_width > precision || fitted.gap_half_width.is_nan()
                })
                .map(|(i, (fitted, have))| {
                    let n = have.pairs.len();
                    (
                        i,
                        pairs_for(n, fitted.gap_half_width, precision, 4 * a.pairs) - n,
                    )
                })
                .filter(|&(_, more)| more > 0)
                .collect();
            if more.is_empty() {
                break;
            }
            eprintln!(
                "round {round}: {} links known to worse than ± {precision}: {} more pairs",
                more.len(),
                more.iter().map(|&(_, n)| n).sum::<usize>()
            );
            play(
                &rules,
                &mut agents,
                &mut links,
                &more,
                &config(more_seed(round)),
                a.version,
            )?;
            result = fit(&links)?;
        }
    }
    for (link, have) in result.links.iter_mut().zip(&links) {
        if have.played_by.iter().any(|p| p.version != a.version) {
            link.played_by = have.played_by.clone();
        }
    }
    std::fs::write(&a.out, result.to_json())
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    print!(
        "{}",
        table(&result, &names, started.elapsed().as_secs_f64())
    );
    Ok(())
}

/// One link's pairs, from its upper rung's side, and the ladder versions that played them.
struct LinkPairs {
    pairs: Vec<GamePair>,
    played_by: Vec<PlayedBy>,
}

/// Rounds of `ayo ladder --precision`.
const PRECISION_ROUNDS: u64 = 3;

/// Plays `more` pairs (`(link, pairs)`) on each listed link and adds them to its pairs, as
/// played by ladder `version`'s command.
fn play(
    rules: &ayo_env::Variant,
    agents: &mut [Box<dyn Agent>],
    links: &mut [LinkPairs],
    more: &[(usize, usize)],
    config: &ayo_env::arena::tournament::MatchConfig,
    version: u32,
) -> Result<()> {
    if more.is_empty() {
        return Ok(());
    }
    let total = more.iter().map(|&(_, n)| n).sum();
    let progress = super::PairProgress::start();
    let mut done = 0;
    let played = ladder::measure_links(rules, agents, more, config, |_| {
        done += 1;
        progress.update(done, total, "ladder");
        Control::Continue
    })?;
    for p in played {
        links[p.result.a.min(p.result.b)].pairs.push(p.result);
    }
    for &(i, n) in more {
        let played_by = &mut links[i].played_by;
        match played_by.iter_mut().find(|p| p.version == version) {
            Some(p) => p.pairs += n as u32,
            None => played_by.push(PlayedBy {
                version,
                pairs: n as u32,
            }),
        }
    }
    Ok(())
}

/// The pairs a link with `pairs` pairs and a gap known to ± `half_width` needs to be known to
/// ± `precision` (an interval narrows as one over the square root of the pairs), a tenth more
/// for the estimate's own noise, at most `cap`.
fn pairs_for(pairs: usize, half_width: f64, precision: f64, cap: usize) -> usize {
    let needed = pairs as f64 * (half_width / precision).powi(2) * 1.1;
    if needed.is_finite() {
        (needed.ceil() as usize).clamp(pairs, cap.max(pairs))
    } else {
        cap.max(pairs)
    }
}

/// The seed of the openings of extra pairs (round 0: topping links up to --pairs; then each
/// --precision round): a stream of its own for each ladder version and round, apart from the
/// plain --seed of new links.
fn mix_seed(seed: u64, version: u32, round: u64) -> u64 {
    let mut z = seed ^ (u64::from(version) << 32 | round).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
