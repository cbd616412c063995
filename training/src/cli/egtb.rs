//! `ayo egtb`: build, check, probe and time the endgame tables of `oware@1` and `ayoayo@1`
//! (docs/tablebase.md).

use anyhow::{bail, Result};
use ayo_env::tablebase::search::check_layer;
use ayo_env::tablebase::{
    build_tables, BuildEvent, Game, LayerStats, Node, Tablebase, TablebaseError,
};
use ayo_env::{Player, Rules};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::BufRead;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Build the table of every board with at most N seeds (resumes a partial build in OUT).
    Build {
        #[command(flatten)]
        game: super::VariantArgs,
        /// The most seeds on a board of the table.
        #[arg(long)]
        seeds: usize,
        /// The table's folder (one file per layer).
        #[arg(long)]
        out: PathBuf,
    },
    /// Read positions in the variant's notation on stdin, one per line; print each one's value
    /// for the side to move: `exact V` or `bounds LO HI` (or `none`: not in the table).
    Probe {
        #[arg(long)]
        tablebase: PathBuf,
    },
    /// Check the table against alpha-beta with the repetition memory: every board of the layers
    /// up to --exhaustive seeds searched to the end; a random sample of each larger layer
    /// searched inside its layer (captures read from the layers below, checked before).
    Verify {
        #[arg(long)]
        tablebase: PathBuf,
        #[arg(long, default_value_t = 8)]
        exhaustive: usize,
        /// Boards drawn from each larger layer.
        #[arg(long, default_value_t = 10_000)]
        sample: u64,
        /// Nodes a board's search may visit before it is counted as over the cap.
        #[arg(long, default_value_t = 2_000_000)]
        cap: u64,
    },
    /// Probes per second on boards of random games that the table holds, batched and one at
    /// a time.
    Bench {
        #[arg(long)]
        tablebase: PathBuf,
        /// Boards to probe.
        #[arg(long, default_value_t = 1_000_000)]
        boards: usize,
    },
}

pub fn run(a: Args) -> Result<()> {
    match a.command {
        Command::Build { game, seeds, out } => {
            let rules = game.rules()?;
            let game = Game::of(&rules).ok_or_else(|| TablebaseError::Variant(rules.id()))?;
            build(game, seeds, &out)
        }
        Command::Probe { tablebase } => probe(&Tablebase::open(&tablebase)?),
        Command::Verify {
            tablebase,
            exhaustive,
            sample,
            cap,
        } => verify(&Tablebase::open(&tablebase)?, exhaustive, sample, cap),
        Command::Bench { tablebase, boards } => bench(&Tablebase::open(&tablebase)?, boards),
    }
}

fn print_layer_header() {
    println!(
        "{:>5} {:>13} {:>8} {:>9} {:>11} {:>9} {:>9} {:>8} {:>9}",
        "seeds",
        "boards",
        "exact",
        "on cycles",
        "largest cyc",
        "resolved",
        "sweeps",
        "seconds",
        "MiB"
    );
}

fn print_layer(s: &LayerStats) {
    println!(
        "{:>5} {:>13} {:>7.2}% {:>8.2}% {:>11} {:>8.2}% {:>9} {:>8.1} {:>9.0}",
        s.seeds,
        s.boards,
        100.0 * s.exact as f64 / s.boards as f64,
        100.0 * s.on_cycles as f64 / s.boards as f64,
        s.largest_component,
        100.0 * s.resolved as f64 / s.boards as f64,
        s.sweeps,
        s.seconds,
        s.memory_bytes as f64 / (1 << 20) as f64
    );
}

fn build(game: Game, seeds: usize, out: &std::path::Path) -> Result<()> {
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("layer {msg} {wide_bar} {pos}/{len} boards {elapsed}<{eta}")
            .expect("a valid template"),
    );
    print_layer_header();
    let stats = build_tables(out, game, seeds, |event| match event {
        BuildEvent::Kept(s) => print_layer(s),
        BuildEvent::Progress {
            seeds,
            done,
            boards,
        } => {
            bar.set_message(seeds.to_string());
            bar.set_length(boards);
            bar.set_position(done);
        }
        BuildEvent::Built(s) => {
            bar.suspend(|| print_layer(s));
        }
    })?;
    bar.finish_and_clear();
    let secs: f64 = stats.iter().map(|s| s.seconds).sum();
    let peak = stats.iter().map(|s| s.memory_bytes).max().unwrap_or(0);
    let stored: u64 = stats.iter().map(|s| 2 * s.boards).sum();
    println!(
        "table of 0..={seeds} seeds in {}: {:.1} s building, {:.0} MiB on disk, {:.0} MiB peak working memory",
        out.display(),
        secs,
        stored as f64 / (1 << 20) as f64,
        (peak + stored) as f64 / (1 << 20) as f64
    );
    extrapolate(game, &stats);
    Ok(())
}

/// How far larger tables would go: each layer's time from the last layer's time per board
/// (which grows with the layer), and its memory from the working bytes per board plus the
/// smaller layers held.
fn extrapolate(game: Game, stats: &[LayerStats]) {
    let Some(last) = stats.last().filter(|s| s.seconds > 0.05 && s.seeds >= 4) else {
        return;
    };
    let prev = &stats[stats.len() - 2];
    let per_board = last.seconds / last.boards as f64;
    let growth = if prev.seconds > 0.05 {
        (per_board / (prev.seconds / prev.boards as f64)).max(1.0)
    } else {
        1.0
    };
    let bytes_per_board = last.memory_bytes as f64 / last.boards as f64;
    let mut held: f64 = stats.iter().map(|s| 2.0 * s.boards as f64).sum();
    let mut total = stats.iter().map(|s| s.seconds).sum::<f64>();
    let mut cost = per_board;
    println!("larger tables, extrapolated (time per board grows {growth:.2}x a layer):");
    for seeds in last.seeds as usize + 1..=(last.seeds as usize + 6).min(48) {
        let boards = game.nodes(seeds) as f64;
        cost *= growth;
        total += cost * boards;
        let memory = held + boards * bytes_per_board;
        held += 2.0 * boards;
        println!(
            "  {seeds:>2} seeds: {boards:>14.0} boards, layer {:>8.0} s, table {:>8.0} min, {:>7.1} GiB",
            cost * boards,
            total / 60.0,
            memory / (1u64 << 30) as f64
        );
    }
}

fn probe(table: &Tablebase) -> Result<()> {
    let rules = table.game().rules();
    let mut failed = 0;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match rules.parse_notation(text) {
            Err(e) => {
                failed += 1;
                println!("error: {text:?}: {e}");
            }
            Ok(game) => match table.probe(&game) {
                Some(e) if e.is_exact() => println!("exact {}", e.lo),
                Some(e) => println!("bounds {} {}", e.lo, e.hi),
                None => println!("none"),
            },
        }
    }
    if failed > 0 {
        bail!(
            "{failed} line(s) were not positions of {} (see the `error:` lines)",
            rules.id()
        );
    }
    Ok(())
}

fn verify(table: &Tablebase, exhaustive: usize, sample: u64, cap: u64) -> Result<()> {
    println!(
        "{:>5} {:>9} {:>12} {:>11} {:>7} {:>6}  how",
        "seeds", "searched", "exact agree", "bounds hold", "capped", "wrong"
    );
    let mut wrong = 0;
    for seeds in 0..=table.max_seeds() {
        let whole = seeds <= exhaustive;
        let started = std::time::Instant::now();
        let check = if whole {
            check_layer(table, seeds, None, false, cap)
        } else {
            check_layer(table, seeds, Some((sample, seeds as u64)), true, cap)
        };
        println!(
            "{:>5} {:>9} {:>12} {:>11} {:>7} {:>6}  {} ({:.1} s)",
            seeds,
            check.searched,
            check.exact_agree,
            check.bounds_hold,
            check.capped,
            check.wrong.len(),
            if whole {
                "every board, to the end"
            } else {
                "sample, captures probed"
            },
            started.elapsed().as_secs_f64()
        );
        for (node, lo, hi, v) in check.wrong.iter().take(5) {
            println!("    {node:?}: entry [{lo}, {hi}], search {v}");
        }
        wrong += check.wrong.len();
    }
    if wrong > 0 {
        bail!("{wrong} entries disagree with search");
    }
    Ok(())
}

/// Positions of random games of the table's game that the table holds.
fn random_boards(table: &Tablebase, count: usize) -> Vec<Node> {
    let rules = table.game().rules();
    let mut rng = ayo_env::rng::Rng::new(1);
    let mut boards = Vec::with_capacity(count);
    while boards.len() < count {
        let mut game = rules.start(Player::South);
        while rules.to_play(&game).is_some() && boards.len() < count {
            if let Some(node) = table
                .game()
                .node_of(&game)
                .filter(|n| n.seeds() <= table.max_seeds())
            {
                boards.push(node);
            }
            let a = rng.pick(rules.legal_mask(&game));
            rules.play(&mut game, a).expect("a legal move");
        }
    }
    boards
}

fn bench(table: &Tablebase, count: usize) -> Result<()> {
    let boards = random_boards(table, count);
    let mut out = vec![ayo_env::tablebase::Entry { lo: 0, hi: 0 }; boards.len()];
    let mut best_batched = f64::MAX;
    let mut best_single = f64::MAX;
    let mut check = 0i64;
    for _ in 0..3 {
        let t = std::time::Instant::now();
        table.probe_many(&boards, &mut out);
        best_batched = best_batched.min(t.elapsed().as_secs_f64());
        check += out.iter().map(|e| e.lo as i64).sum::<i64>();
        let t = std::time::Instant::now();
        for b in &boards {
            check += table.probe_node(b).map_or(0, |e| e.hi as i64);
        }
        best_single = best_single.min(t.elapsed().as_secs_f64());
    }
    let n = boards.len() as f64;
    println!(
        "{} boards of random games (at most {} seeds), one thread, best of 3:",
        boards.len(),
        table.max_seeds()
    );
    println!(
        "  batched:      {:.1} M probes/s ({:.0} ns a probe)",
        n / best_batched / 1e6,
        best_batched / n * 1e9
    );
    println!(
        "  one at a time: {:.1} M probes/s ({:.0} ns a probe)   [checksum {check}]",
        n / best_single / 1e6,
        best_single / n * 1e9
    );
    Ok(())
}
