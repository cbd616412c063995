//! `ayo play`: a person plays an agent in the terminal. The board is drawn with its pit labels,
//! the legal moves are listed (by label and by action number), the agent's move and its value
//! estimate are shown, and input that is not a legal move is answered with a message and a new
//! prompt. The game can be saved as a record for `ayo replay`.

use anyhow::{bail, Context, Result};
use ayo_env::{Action, Agent, GameRecord, Player, Rules, Variant, VariantState};
use std::io::{BufRead, Write};
use std::path::PathBuf;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    /// The opponent.
    #[command(flatten)]
    opponent: super::AgentArgs,
    /// Your seat: `south` (moves first) or `north`.
    #[arg(long, default_value = "south")]
    seat: String,
    /// Write the game record (JSON) here when the game ends.
    #[arg(long)]
    record: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let rules = a.game.rules()?;
    let seat = match a.seat.to_ascii_lowercase().as_str() {
        "south" | "s" | "0" => Player::South,
        "north" | "n" | "1" => Player::North,
        other => bail!("--seat {other:?}: expected south or north"),
    };
    let mut agent = a.opponent.load(&rules)?;
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let record = play(&rules, agent.as_mut(), seat, stdin.lock(), stdout.lock())?;
    if let (Some(path), Some(record)) = (&a.record, record) {
        std::fs::write(path, record.to_json())
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!("Game record written to {}", path.display());
    }
    Ok(())
}

/// A human's input read as a legal action: an action number or a move's name (its pit label).
fn read_move(rules: &Variant, game: &VariantState, text: &str) -> Result<Action, String> {
    let legal = rules.legal_actions(game);
    let listing = legal_listing(rules, game);
    if let Ok(action) = text.parse::<Action>() {
        return if legal.contains(&action) {
            Ok(action)
        } else {
            Err(format!(
                "{action} is not a legal move here; legal: {listing}"
            ))
        };
    }
    let by_name = |exact: bool| {
        legal.iter().copied().find(|&a| {
            let name = rules.action_name(game, a);
            if exact {
                name == text
            } else {
                name.eq_ignore_ascii_case(text)
            }
        })
    };
    by_name(true)
        .or_else(|| by_name(false))
        .ok_or_else(|| format!("{text:?} is not a legal move here; legal: {listing}"))
}

fn legal_listing(rules: &Variant, game: &VariantState) -> String {
    rules
        .legal_actions(game)
        .iter()
        .map(|&a| format!("{} ({a})", rules.action_name(game, a)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plays one game between the person at `input`/`output` in `seat` and `agent`; returns the
/// record, or `None` when the person quit or the input ended.
pub fn play(
    rules: &Variant,
    agent: &mut dyn Agent,
    seat: Player,
    mut input: impl BufRead,
    mut out: impl Write,
) -> Result<Option<GameRecord>> {
    let mut game = rules.start(Player::South);
    let mut record = GameRecord::new(rules, Player::South, None, false);
    let me = "you".to_string();
    record.seats = if seat == Player::South {
        [me, agent.name()]
    } else {
        [agent.name(), me]
    };
    let seat_name = |p: Player| ["South", "North"][p.index()];
    writeln!(
        out,
        "{} — you play {} against {}. Type a pit label or an action number; `quit` ends.\n",
        rules,
        seat_name(seat),
        agent.name()
    )?;
    writeln!(out, "{}\n", rules.render(&game))?;
    while let Some(mover) = rules.to_play(&game) {
        if mover == seat {
            writeln!(out, "Legal moves: {}", legal_listing(rules, &game))?;
            let action = loop {
                write!(out, "Your move> ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out, "\nInput ended; game abandoned.")?;
                    return Ok(None);
                }
                let text = line.trim();
                if text.is_empty() {
                    continue;
                }
                if text == "quit" {
                    writeln!(out, "Game abandoned.")?;
                    return Ok(None);
                }
                match read_move(rules, &game, text) {
                    Ok(action) => break action,
                    Err(message) => writeln!(out, "{message}")?,
                }
            };
            let name = rules.action_name(&game, action);
            record.play(rules, &mut game, action)?;
            writeln!(out, "You play {name} (action {action}).\n")?;
        } else {
            let (action, analysis) = agent.choose(rules, &game);
            let name = rules.action_name(&game, action);
            let value = analysis.value.map_or("no estimate".to_string(), |v| {
                format!("value {v:+.2} for {}", agent.name())
            });
            record
                .play(rules, &mut game, action)
                .with_context(|| format!("{} chose an illegal move", agent.name()))?;
            writeln!(
                out,
                "{} plays {name} (action {action}); {value}, {} simulations/nodes.\n",
                agent.name(),
                analysis.work
            )?;
        }
        writeln!(out, "{}\n", rules.render(&game))?;
        if rules.ply(&game) >= 2000 {
            record.finish(rules, &game, true);
            writeln!(out, "Game cut after 2000 plies.")?;
            return Ok(Some(record));
        }
    }
    let [south, north] = rules.scores(&game);
    let r = rules.returns(&game)[seat.index()];
    let verdict = if r > 0.0 {
        "You win"
    } else if r < 0.0 {
        "You lose"
    } else {
        "Draw"
    };
    writeln!(out, "Game over: South {south}, North {north}. {verdict}.")?;
    Ok(Some(record))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_move_takes_labels_and_numbers_and_refuses_the_rest() {
        let rules: Variant = "oware".parse().unwrap();
        let game = rules.start(Player::South);
        assert_eq!(read_move(&rules, &game, "C"), Ok(2));
        assert_eq!(read_move(&rules, &game, "c"), Ok(2));
        assert_eq!(read_move(&rules, &game, "4"), Ok(4));
        assert!(read_move(&rules, &game, "9")
            .unwrap_err()
            .contains("not a legal move"));
        assert!(read_move(&rules, &game, "sow").is_err());
    }
}
