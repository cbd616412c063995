use anyhow::{Context, Result};
use ayo_env::{GameRecord, Rules};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A game record (JSON) as written by self-play, tournaments or `ayo play`.
    record: PathBuf,
    /// Show the board after every single seed drop ("Show Runs in Detail").
    #[arg(long)]
    detail: bool,
}

pub fn run(a: Args) -> Result<()> {
    let text = std::fs::read_to_string(&a.record)
        .with_context(|| format!("cannot read {}", a.record.display()))?;
    let record = GameRecord::from_json(&text)
        .with_context(|| format!("{} is not a game record", a.record.display()))?;
    let replay = record
        .replay()
        .with_context(|| format!("{} does not replay", a.record.display()))?;
    let v = &replay.rules;
    println!(
        "{} — {} vs {}",
        record.variant, record.seats[0], record.seats[1]
    );
    println!("Start:\n{}\n", v.render(&replay.states[0]));
    for (i, &action) in record.actions.iter().enumerate() {
        let before = &replay.states[i];
        let mover = ["South", "North"][record.movers[i].index()];
        println!(
            "Move {}: {mover} plays {} (action {action})",
            i + 1,
            v.action_name(before, action)
        );
        if a.detail {
            for (d, snap) in replay.drops[i].iter().enumerate() {
                println!("  drop {:>2}: {snap}", d + 1);
            }
        }
        println!("{}\n", v.render(&replay.states[i + 1]));
    }
    if let Some(o) = &record.outcome {
        let how = if o.truncated {
            " (cut by the ply cap)"
        } else {
            ""
        };
        println!(
            "Result: scores {}-{}, returns {:?}{how}",
            o.scores[0], o.scores[1], o.returns
        );
    }
    Ok(())
}
