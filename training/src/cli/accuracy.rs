//! `ayo accuracy`: how often a player's move keeps the game's result (and its exact margin) on a
//! fixed sample of `oware` endgame positions, judged by the endgame table (docs/tablebase.md);
//! and `--collect`, which draws that sample from game records.

use anyhow::{bail, Context, Result};
use ayo_env::tablebase::accuracy::{label, Labels, Tally};
use ayo_env::tablebase::{decide, Tablebase};
use ayo_env::{Agent, GameRecord, Rules, Variant, VariantState};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    /// The players (agent specs, docs/agents.md), each measured on every position.
    #[arg(long = "agent", num_args = 1..)]
    agents: Vec<String>,
    /// The endgame table that judges the moves (`ayo egtb build`).
    #[arg(long)]
    tablebase: PathBuf,
    /// The positions: the variant's notation, one per line (`#` starts a comment).
    #[arg(long, default_value = "models/oware/accuracy-positions.txt")]
    positions: PathBuf,
    /// Simulations per move of checkpoints given without `:SIMS`.
    #[arg(long, default_value_t = 32)]
    sims: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Instead of measuring, draw positions from these game records (JSON files or folders of
    /// them): each position right after a capture that the table labels, whose stores alone
    /// do not decide the game and where some move loses the result or the margin, each board
    /// once; written to --positions.
    #[arg(long, num_args = 1..)]
    collect: Vec<PathBuf>,
    /// With --collect: the most positions to write.
    #[arg(long, default_value_t = 500)]
    count: usize,
}

pub fn run(a: Args) -> Result<()> {
    let rules = a.game.rules()?;
    let table = Tablebase::open(&a.tablebase)?;
    table.check_variant(&rules)?;
    if !a.collect.is_empty() {
        return collect(&rules, &table, &a.collect, a.count, &a.positions);
    }
    if a.agents.is_empty() {
        bail!("no --agent to measure (or --collect RECORDS to draw the positions)");
    }
    let (positions, outside) = load_positions(&rules, &table, &a.positions)?;
    eprintln!(
        "{} positions labelled by the table of ≤ {} seeds ({outside} outside it or over the search cap)",
        positions.len(),
        table.max_seeds()
    );
    println!(
        "{:<44} {:>9} {:>9} {:>9} {:>6}   result kept by seeds",
        "agent", "result", "margin", "seeds lost", "moves"
    );
    for (i, spec) in a.agents.iter().enumerate() {
        let mut agent = ayo_train::agent::load_player(spec, &rules, a.sims, a.seed + i as u64)?;
        let (all, by_seeds) = measure(agent.as_mut(), &rules, &positions);
        let (result, margin, lost) = all.shares();
        let breakdown: Vec<String> = by_seeds
            .iter()
            .map(|(s, t)| format!("{s}:{:.0}%", 100.0 * t.shares().0))
            .collect();
        println!(
            "{:<44} {:>8.1}% {:>8.1}% {:>9.2} {:>6}   {}",
            agent.name(),
            100.0 * result,
            100.0 * margin,
            lost,
            all.positions,
            breakdown.join(" ")
        );
    }
    Ok(())
}

/// The positions of the file `path` (the variant's notation, one per line, `#` comments) that
/// the table labels, and how many it could not (outside it or over the search cap).
pub fn load_positions(
    rules: &Variant,
    table: &Tablebase,
    path: &Path,
) -> Result<(Vec<(VariantState, Labels)>, usize)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the positions {}", path.display()))?;
    let mut positions = Vec::new();
    let mut outside = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let state = rules
            .parse_notation(line)
            .with_context(|| format!("{} line {}: {line:?}", path.display(), n + 1))?;
        match label(table, rules, &state) {
            Some(labels) => positions.push((state, labels)),
            None => outside += 1,
        }
    }
    Ok((positions, outside))
}

/// How `agent`'s moves on `positions` compare with the best: over all, and by seed count.
pub fn measure(
    agent: &mut dyn Agent,
    rules: &Variant,
    positions: &[(VariantState, Labels)],
) -> (Tally, BTreeMap<usize, Tally>) {
    let mut all = Tally::default();
    let mut by_seeds: BTreeMap<usize, Tally> = BTreeMap::new();
    for (state, labels) in positions {
        let (action, _) = agent.choose(rules, state);
        all.add(labels, action);
        by_seeds
            .entry(labels.seeds)
            .or_default()
            .add(labels, action);
    }
    (all, by_seeds)
}

/// Every record file under `paths` (files as given, folders searched for `*.json`).
fn record_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(dir) = stack.pop() {
                for e in std::fs::read_dir(&dir)? {
                    let path = e?.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|x| x == "json") {
                        out.push(path);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    Ok(out)
}

fn collect(
    rules: &Variant,
    table: &Tablebase,
    paths: &[PathBuf],
    count: usize,
    out: &Path,
) -> Result<()> {
    let mut seen = HashSet::new();
    let (mut seen_exact, mut capped) = (0u64, 0u64);
    let mut lines = Vec::new();
    let files = record_files(paths)?;
    for file in &files {
        let text = std::fs::read_to_string(file)?;
        let Ok(record) = GameRecord::from_json(&text) else {
            continue; // not a game record (a tournament's tables beside them)
        };
        if record.rules().map(|r| r.id()).ok() != Some(rules.id()) {
            continue;
        }
        let replay = record
            .replay()
            .with_context(|| format!("cannot replay {}", file.display()))?;
        // Every qualifying position of the game, each board once.
        for state in &replay.states[1..] {
            let exact = table
                .probe(state)
                .is_some_and(|e| e.is_exact() && decide(state, e).is_some());
            seen_exact += exact as u64;
            let Some(labels) = label(table, rules, state) else {
                capped += exact as u64;
                continue;
            };
            // Informative: the stores alone do not decide the game, and some move loses.
            if labels.stores.unsigned_abs() as usize >= labels.seeds || !labels.informative() {
                continue;
            }
            let text = rules.notation(state);
            if seen.insert(text.clone()) {
                let source = file.file_name().unwrap_or_default().to_string_lossy();
                lines.push(format!("{text}  # {source}, {} seeds", labels.seeds));
            }
        }
        if lines.len() >= count {
            break;
        }
    }
    let header = format!(
        "# oware endgame positions for `ayo accuracy`: right after a capture, in the table of <= {} seeds,\n\
         # its entry exact, the stores not deciding the game, some move losing the result or the\n\
         # margin; every such position of {} game records ({}).\n",
        table.max_seeds(),
        files.len(),
        paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    std::fs::write(out, header + &lines.join("\n") + "\n")?;
    eprintln!(
        "{} positions written to {} (of {seen_exact} right after a capture with an exact \
         entry that decides the result, {capped} over the node cap)",
        lines.len(),
        out.display()
    );
    Ok(())
}
