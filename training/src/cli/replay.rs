use anyhow::{Context, Result};
use ayo_env::{GameRecord, Player, Rules};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    /// A game record (JSON) as written by self-play, tournaments or `ayo play`.
    record: PathBuf,
    /// Show the board after every single seed drop ("Show Runs in Detail").
    #[arg(long)]
    detail: bool,
    /// Draw the board from this player's seat (`south` or `north`), where the variant can.
    #[arg(long, default_value = "south")]
    seat: String,
}

pub fn run(a: Args) -> Result<()> {
    let seat = match a.seat.as_str() {
        "south" | "0" => Player::South,
        "north" | "1" => Player::North,
        other => anyhow::bail!("--seat {other:?}: expected south or north"),
    };
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
    println!("Start:\n{}\n", v.render_from(&replay.states[0], seat));
    // A turn of several decision steps (e.g. yao's village stop) shows as one move.
    let mut turn = 0;
    for (i, &action) in record.actions.iter().enumerate() {
        let before = &replay.states[i];
        let mover = ["South", "North"][record.movers[i].index()];
        let name = v.action_name(before, action);
        if v.continues_turn(before) {
            println!("Move {turn}, continued: {mover} plays {name} (action {action})");
        } else {
            turn += 1;
            println!("Move {turn}: {mover} plays {name} (action {action})");
        }
        if a.detail {
            for (d, snap) in replay.drops[i].iter().enumerate() {
                println!("  drop {:>2}: {snap}", d + 1);
            }
        }
        println!("{}\n", v.render_from(&replay.states[i + 1], seat));
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
