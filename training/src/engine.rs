//! The engine protocol of `ayo engine` (see `docs/engine.md`): a line-based text protocol in
//! the spirit of chess's UCI. [`serve`] reads commands from any `BufRead` and answers on any
//! `Write`, so the CLI only wires stdin/stdout to it and a fuzz target can drive it with
//! arbitrary lines. Every answer is one or more lines; errors are `error …` lines and never end
//! the engine.
//!
//! ```
//! use ayo_env::Variant;
//! let rules: Variant = "oware".parse().unwrap();
//! let mut agent = ayo_env::arena::agents::parse("random", 1).unwrap();
//! let mut out = Vec::new();
//! ayo_train::engine::serve(&rules, agent.as_mut(), "isready\nfly\n".as_bytes(), &mut out).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.starts_with("readyok\nerror unknown command"));
//! ```

use ayo_env::{Action, Agent, Player, Rules, Variant, VariantState};
use std::io::{BufRead, Write};

const COMMANDS: &str =
    "hello, isready, newgame, position startpos|notation <text> [moves <a> ...], \
                        legal, show, go, quit";

/// Answers protocol commands read from `input` on `output` until `quit` or the end of input;
/// it returns an error only when reading or writing fails, never because of what it read.
pub fn serve(
    rules: &Variant,
    agent: &mut dyn Agent,
    mut input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut game = rules.start(Player::South);
    let mut bytes = Vec::new();
    loop {
        // Lines are read as bytes and decoded leniently: a line that is not UTF-8 is a bad
        // command (answered with an error line), not the end of the engine.
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line, ""),
        };
        match command {
            "" => continue,
            "quit" => break,
            "hello" => {
                writeln!(output, "id name ayo {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(output, "id agent {}", agent.name())?;
                writeln!(output, "id variant {}", rules)?;
                writeln!(output, "id actions {}", rules.num_actions())?;
                writeln!(output, "hellook")?;
            }
            "isready" => writeln!(output, "readyok")?,
            "newgame" => game = rules.start(Player::South),
            "position" => match position(rules, rest) {
                Ok(state) => game = state,
                Err(message) => writeln!(output, "error {message}")?,
            },
            "legal" => {
                let legal: Vec<String> = rules
                    .legal_actions(&game)
                    .iter()
                    .map(|a| a.to_string())
                    .collect();
                writeln!(output, "legal {}", legal.join(" "))?;
            }
            "show" => {
                for l in rules.render(&game).lines() {
                    writeln!(output, "board {l}")?;
                }
                writeln!(output, "notation {}", rules.notation(&game))?;
                write_status(rules, &game, &mut output)?;
            }
            "go" => {
                if rules.is_terminal(&game) {
                    writeln!(output, "error the game is over; no move to choose")?;
                    write_status(rules, &game, &mut output)?;
                } else {
                    let (action, analysis) = agent.choose(rules, &game);
                    let value = analysis
                        .value
                        .map_or("none".to_string(), |v| format!("{v:.4}"));
                    writeln!(
                        output,
                        "info value {value} simulations {} name {}",
                        analysis.work,
                        rules.action_name(&game, action)
                    )?;
                    writeln!(output, "bestmove {action}")?;
                }
            }
            other => writeln!(
                output,
                "error unknown command {other:?} (expected one of: {COMMANDS})"
            )?,
        }
        output.flush()?;
    }
    output.flush()
}

/// `over <south score> <north score> <result>` when the game is over, else `tomove <player>`.
fn write_status(
    rules: &Variant,
    game: &VariantState,
    output: &mut impl Write,
) -> std::io::Result<()> {
    match rules.to_play(game) {
        Some(p) => writeln!(output, "tomove {}", ["south", "north"][p.index()]),
        None => {
            let [s, n] = rules.scores(game);
            let r = rules.returns(game);
            let result = if r[0] > r[1] {
                "south"
            } else if r[1] > r[0] {
                "north"
            } else {
                "draw"
            };
            writeln!(output, "over {s} {n} {result}")
        }
    }
}

/// Parses `startpos [moves …]` or `notation <text> [moves …]` into a game; the error says what
/// was wrong, and the engine's game is left as it was.
fn position(rules: &Variant, rest: &str) -> Result<VariantState, String> {
    let (setup, moves) = match rest.split_once("moves") {
        Some((s, m)) => (s.trim(), Some(m.trim())),
        None => (rest.trim(), None),
    };
    let mut state = if setup == "startpos" {
        rules.start(Player::South)
    } else if let Some(text) = setup.strip_prefix("notation") {
        rules
            .parse_notation(text.trim())
            .map_err(|e| format!("position: {e}"))?
    } else {
        return Err(format!(
            "position needs `startpos` or `notation <text>`, found {setup:?}"
        ));
    };
    for (k, word) in moves.unwrap_or("").split_whitespace().enumerate() {
        let action: Action = word.parse().map_err(|_| {
            format!(
                "position: move {} {word:?} is not an action number 0..{}",
                k + 1,
                rules.num_actions()
            )
        })?;
        rules
            .play(&mut state, action)
            .map_err(|e| format!("position: move {} ({action}): {e}", k + 1))?;
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(script: &str) -> String {
        let rules: Variant = "oware".parse().unwrap();
        let mut agent = ayo_env::arena::agents::parse("greedy", 1).unwrap();
        let mut out = Vec::new();
        serve(&rules, agent.as_mut(), script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn go_answers_a_legal_bestmove_with_an_info_line() {
        let out = talk("position startpos moves 2 1\ngo\n");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("info value "), "{out}");
        let action: u8 = lines[1].strip_prefix("bestmove ").unwrap().parse().unwrap();
        assert!(action < 6);
    }

    #[test]
    fn errors_are_lines_and_the_engine_goes_on() {
        let out = talk("fly\nposition startpos moves 2 99\nposition sideways\nisready\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert!(lines[0].starts_with("error unknown command \"fly\""));
        assert!(
            lines[1].starts_with("error position: move 2"),
            "{}",
            lines[1]
        );
        assert!(lines[2].starts_with("error position needs"));
        assert_eq!(lines[3], "readyok");
    }

    #[test]
    fn a_bad_position_leaves_the_game_as_it_was() {
        let out = talk("position startpos moves 2\nposition startpos moves 0 99\nlegal\n");
        // After South sowed pit 2, North (to move) has all six pits.
        assert!(out.lines().any(|l| l == "legal 0 1 2 3 4 5"), "{out}");
    }
}
