//! `ayo openings`: an opening book whose positions are neither decided nor dead level by a
//! judge's search (docs/rating.md), so that the pairs of a match separate players: random
//! openings of a few plies, each valued by the judge, kept when the value for South lies in
//! the window.

use anyhow::{bail, Context, Result};
use ayo_env::arena::tournament::random_opening;
use ayo_env::{Player, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    /// The player whose search values the candidates (any agent spec with a value: a
    /// checkpoint PATH:SIMS, mcts:N, alphabeta:D); not one of the players the book will measure.
    #[arg(long)]
    judge: String,
    /// Random plies from the start that make a candidate.
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// Keep a candidate when the judge's value for South (in [-1, 1]) lies in [LOW, HIGH].
    #[arg(long, num_args = 2, value_names = ["LOW", "HIGH"], allow_hyphen_values = true, default_values_t = [-0.5, 0.5])]
    window: Vec<f32>,
    /// Positions to keep.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// The most candidates to draw (repeated ones count).
    #[arg(long, default_value_t = 5000)]
    candidates: usize,
    /// Simulations of a checkpoint judge given without `:SIMS`.
    #[arg(long, default_value_t = 64)]
    sims: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The book to write: one position per line in the variant's notation.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: Args) -> Result<()> {
    let rules = a.game.rules()?;
    let (low, high) = (a.window[0], a.window[1]);
    if !(-1.0..=1.0).contains(&low) || !(-1.0..=1.0).contains(&high) || low > high {
        bail!("--window {low} {high}: expected -1 <= LOW <= HIGH <= 1");
    }
    let mut judge = ayo_train::agent::load_player(&a.judge, &rules, a.sims, a.seed)?;
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let (mut seen, mut kept, mut judged) = (HashSet::new(), Vec::new(), 0);
    while kept.len() < a.count && judged < a.candidates {
        let Some(text) = random_opening(&rules, a.plies, false, &mut rng) else {
            bail!(
                "{}: no live position after {} random plies",
                rules.id(),
                a.plies
            );
        };
        judged += 1;
        if !seen.insert(text.clone()) {
            continue; // drawn before
        }
        let state = rules
            .parse_notation(&text)
            .expect("a notation the rules wrote");
        let (_, analysis) = judge.choose(&rules, &state);
        let Some(value) = analysis.value else {
            bail!(
                "{} gives no value: expected a searching judge",
                judge.name()
            );
        };
        let south = match rules.to_play(&state) {
            Some(Player::North) => -value,
            _ => value,
        };
        if (low..=high).contains(&south) {
            kept.push(format!("{text}  # {south:+.3}"));
        }
        if judged % 100 == 0 {
            eprintln!("openings: {} kept of {judged} drawn", kept.len());
        }
    }
    let header = format!(
        "# {} opening book: {} positions of {} random plies whose value for South by {} lies in \
         [{low}, {high}]; {judged} candidates drawn (seed {}).\n",
        rules.id(),
        kept.len(),
        a.plies,
        judge.name(),
        a.seed
    );
    std::fs::write(&a.out, header + &kept.join("\n") + "\n")
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    eprintln!(
        "{} positions of {judged} drawn written to {}",
        kept.len(),
        a.out.display()
    );
    Ok(())
}
