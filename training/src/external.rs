//! An **external engine** as an [`Agent`]: any program that speaks `ayo engine`'s protocol
//! (docs/engine.md) on its standard input and output, run as a child process, so that
//! `ayo rate --engine "CMD"` can place someone else's program on a rating ladder.
//!
//! For each move the engine is sent `position notation <first> moves <a1> <a2> …` and `go`: the
//! game from the first position the engine was asked about, with every action since, so that
//! its repetition memory is the referee's (a notation alone carries none). Its
//! `bestmove` is checked against the rules. An engine that crashes, answers `error`, breaks the protocol,
//! takes longer than its time per move or names an action that cannot be played **forfeits**
//! that game ([`FORFEIT`]: the match driver scores it as lost and goes on); the failure is
//! written to stderr, counted, and the engine is started again for its next move.

use ayo_env::arena::tournament::FORFEIT;
use ayo_env::{Action, Agent, Analysis, Rules, Variant, VariantState};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An external engine could not be started for a variant (failures during games are forfeits).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start engine {command:?}: {reason}")]
    Start { command: String, reason: String },
    #[error("engine {command:?} plays {found}, the games are {expected}")]
    Variant {
        command: String,
        found: String,
        expected: String,
    },
}

/// Games followed at once: the match driver interleaves the two games of a pair, and a game
/// that ended stays until newer ones push it out.
const GAMES_KEPT: usize = 8;

/// The games an engine is playing, as it is told them. The match driver hands an agent only
/// positions; a position continues a game when it is reached from the position the engine's
/// last move there left, by the opponent's moves alone (one or more decisions of its turn);
/// any other position starts a game there.
#[derive(Default)]
struct Games {
    /// The most recent first.
    games: Vec<Game>,
}

struct Game {
    first: String,
    actions: Vec<Action>,
    /// The position after the last action.
    last: VariantState,
}

impl Games {
    /// The `position` command that sets `state` with its game's history; that game becomes the
    /// most recent.
    fn position(&mut self, rules: &Variant, state: &VariantState) -> String {
        let found =
            self.games.iter().enumerate().find_map(|(i, game)| {
                opponent_moves(rules, &game.last, state).map(|moves| (i, moves))
            });
        let game = match found {
            Some((i, moves)) => {
                let mut game = self.games.remove(i);
                game.actions.extend(moves);
                game.last = state.clone();
                game
            }
            None => Game {
                first: rules.notation(state),
                actions: Vec::new(),
                last: state.clone(),
            },
        };
        self.games.insert(0, game);
        self.games.truncate(GAMES_KEPT);
        let game = &self.games[0];
        let mut command = format!("position notation {}", game.first);
        if !game.actions.is_empty() {
            command.push_str(" moves");
            for a in &game.actions {
                command.push_str(&format!(" {a}"));
            }
        }
        command
    }

    /// The engine played `action` in the most recent game.
    fn played(&mut self, rules: &Variant, action: Action) {
        if let Some(game) = self.games.first_mut() {
            rules.play_unchecked(&mut game.last, action);
            game.actions.push(action);
        }
    }
}

/// The actions that lead from `from` to `to` when every one is a decision of a player other
/// than `to`'s mover (none when they are the same position), or `None`.
fn opponent_moves(rules: &Variant, from: &VariantState, to: &VariantState) -> Option<Vec<Action>> {
    if from == to {
        return Some(Vec::new());
    }
    let (here, there) = (rules.ply(from), rules.ply(to));
    let mover = rules.to_play(from)?;
    if there <= here || Some(mover) == rules.to_play(to) {
        return None;
    }
    rules.legal_mask(from).iter().find_map(|a| {
        let mut next = from.clone();
        rules.play_unchecked(&mut next, a);
        let mut rest = opponent_moves(rules, &next, to)?;
        rest.insert(0, a);
        Some(rest)
    })
}

/// A running child and the lines it writes.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A program speaking the `ayo engine` protocol, as an agent.
pub struct EngineAgent {
    command: String,
    rules_id: String,
    name: String,
    movetime: Duration,
    process: Option<Process>,
    failures: Arc<AtomicU32>,
    games: Games,
}

impl EngineAgent {
    /// Starts `command` (run by `sh -c`), greets it and checks that it plays `rules`;
    /// `movetime` is the longest it may take for one move.
    pub fn start(command: &str, rules: &Variant, movetime: Duration) -> Result<Self, EngineError> {
        let mut agent = EngineAgent {
            command: command.to_string(),
            rules_id: rules.id(),
            name: String::new(),
            movetime,
            process: None,
            failures: Arc::default(),
            games: Games::default(),
        };
        let (process, id) = agent.spawn().map_err(|reason| EngineError::Start {
            command: command.to_string(),
            reason,
        })?;
        if id.variant != agent.rules_id {
            return Err(EngineError::Variant {
                command: command.to_string(),
                found: id.variant,
                expected: agent.rules_id,
            });
        }
        agent.name = format!("engine:{}", id.agent);
        agent.process = Some(process);
        Ok(agent)
    }

    /// The games forfeited so far, shared: it can be read after the agent was handed over.
    pub fn failures(&self) -> Arc<AtomicU32> {
        self.failures.clone()
    }

    fn spawn(&self) -> Result<(Process, Hello), String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| e.to_string())?;
        let input = child.stdin.take().expect("piped");
        let output = child.stdout.take().expect("piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut process = Process {
            child,
            input,
            lines,
        };
        writeln!(process.input, "hello").map_err(|e| e.to_string())?;
        let mut hello = Hello::default();
        let deadline = Instant::now() + self.movetime.max(Duration::from_secs(10));
        loop {
            let line = next_line(&process.lines, deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["hellook"] => break,
                ["id", "agent", rest @ ..] => hello.agent = rest.join(" "),
                ["id", "variant", v] => hello.variant = v.to_string(),
                _ => {}
            }
        }
        Ok((process, hello))
    }

    /// One move from the engine, or why it failed.
    fn ask(&mut self, rules: &Variant, state: &VariantState) -> Result<Action, String> {
        if self.process.is_none() {
            self.process = Some(self.spawn()?.0);
        }
        let position = self.games.position(rules, state);
        let process = self.process.as_mut().expect("started");
        writeln!(process.input, "{position}\ngo")
            .and_then(|_| process.input.flush())
            .map_err(|e| format!("cannot write to it: {e}"))?;
        let deadline = Instant::now() + self.movetime;
        loop {
            let line = next_line(&process.lines, deadline)?;
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["bestmove", action] => {
                    let action: Action = action
                        .parse()
                        .map_err(|_| format!("bestmove {action:?} is not an action number"))?;
                    if !rules.legal_mask(state).contains(action) {
                        return Err(format!(
                            "bestmove {action} cannot be played in {}",
                            rules.notation(state)
                        ));
                    }
                    self.games.played(rules, action);
                    return Ok(action);
                }
                ["error", ..] => return Err(format!("it answered {line:?}")),
                _ => {}
            }
        }
    }
}

#[derive(Default)]
struct Hello {
    agent: String,
    variant: String,
}

fn next_line(lines: &Receiver<String>, deadline: Instant) -> Result<String, String> {
    let wait = deadline.saturating_duration_since(Instant::now());
    lines.recv_timeout(wait).map_err(|e| match e {
        RecvTimeoutError::Timeout => "it did not answer in time".to_string(),
        RecvTimeoutError::Disconnected => "it ended".to_string(),
    })
}

impl Agent for EngineAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, rules: &Variant, state: &VariantState) -> (Action, Analysis) {
        match self.ask(rules, state) {
            Ok(action) => (action, Analysis::default()),
            Err(reason) => {
                let n = self.failures.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!(
                    "{} ({:?}) forfeits a game: {reason} (forfeit {n}); it is started again",
                    self.name, self.command
                );
                // A fresh process for the next move: whatever state it was in is gone.
                self.process = None;
                self.games = Games::default();
                (FORFEIT, Analysis::default())
            }
        }
    }
}
