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

use ayo_env::arena::tournament::FORFEIT;
use ayo_env::{Action, Agent, Budget, Player, Progress, Rules, Variant, VariantState};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc;
use std::time::Duration;

const COMMANDS: &str =
    "hello, isready, newgame, position startpos|notation <text> [moves <a> ...], \
                        legal, show, go [nodes <n>|movetime <ms>|infinite|stime <ms> ntime <ms> [sinc <ms>] [ninc <ms>] [movestogo <n>]], stop, quit";

/// What the engine reads its lines from.
pub trait Lines {
    /// The next line (without waiting when `wait` is false: then `Poll::Pending` if no line
    /// has arrived yet).
    fn poll(&mut self, wait: bool) -> std::io::Result<Poll>;
}

/// A line, nothing yet, or the end of the input.
pub enum Poll {
    Line(Vec<u8>),
    Pending,
    End,
}

/// A script of lines in memory (tests, fuzzing): every line has already arrived, so a `stop`
/// sent after `go infinite` is read at the search's first progress report.
impl Lines for &[u8] {
    fn poll(&mut self, _wait: bool) -> std::io::Result<Poll> {
        let mut line = Vec::new();
        Ok(match self.read_until(b'\n', &mut line)? {
            0 => Poll::End,
            _ => Poll::Line(line),
        })
    }
}

/// Lines of standard input, read by a thread of their own so that a search can listen for
/// `stop` while it thinks.
pub struct StdinLines(mpsc::Receiver<std::io::Result<Vec<u8>>>);

impl StdinLines {
    pub fn spawn() -> StdinLines {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            loop {
                let mut line = Vec::new();
                match stdin.read_until(b'\n', &mut line) {
                    Ok(0) => return,
                    Ok(_) => {
                        if tx.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        StdinLines(rx)
    }
}

impl Lines for StdinLines {
    fn poll(&mut self, wait: bool) -> std::io::Result<Poll> {
        let next = if wait {
            self.0.recv().map_err(|_| mpsc::TryRecvError::Disconnected)
        } else {
            self.0.try_recv()
        };
        match next {
            Ok(line) => line.map(Poll::Line),
            Err(mpsc::TryRecvError::Empty) => Ok(Poll::Pending),
            Err(mpsc::TryRecvError::Disconnected) => Ok(Poll::End),
        }
    }
}

/// The engine's input: the lines, and those read during a search that wait their turn.
struct Input<L> {
    lines: L,
    waiting: VecDeque<String>,
    ended: bool,
}

impl<L: Lines> Input<L> {
    /// The next command line, waiting for it; `None` at the end of the input.
    fn next(&mut self) -> std::io::Result<Option<String>> {
        if let Some(l) = self.waiting.pop_front() {
            return Ok(Some(l));
        }
        if self.ended {
            return Ok(None);
        }
        self.read(true)
    }

    fn read(&mut self, wait: bool) -> std::io::Result<Option<String>> {
        match self.lines.poll(wait)? {
            // Lines are decoded leniently: a line that is not UTF-8 is a bad command (answered
            // with an error line), not the end of the engine.
            Poll::Line(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).trim().to_string())),
            Poll::Pending => Ok(None),
            Poll::End => {
                self.ended = true;
                Ok(None)
            }
        }
    }
}

/// What was heard during a search: `stop`, `quit` or the end of the input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Interrupt {
    Stop,
    Quit,
    End,
}

/// Answers protocol commands read from `input` on `output` until `quit` or the end of input;
/// it returns an error only when reading or writing fails, never because of what it read.
pub fn serve(
    rules: &Variant,
    agent: &mut dyn Agent,
    input: impl Lines,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut input = Input {
        lines: input,
        waiting: VecDeque::new(),
        ended: false,
    };
    let mut game = rules.start(Player::South);
    while let Some(line) = input.next()? {
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r.trim()),
            None => (line.as_str(), ""),
        };
        match command {
            "" | "stop" => continue,
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
            "go" => match go_budget(rest, rules.to_play(&game)) {
                Err(message) => writeln!(output, "error {message}")?,
                Ok(_) if rules.is_terminal(&game) => {
                    writeln!(output, "error the game is over; no move to choose")?;
                    write_status(rules, &game, &mut output)?;
                }
                Ok(budget) => {
                    if go(rules, agent, &game, budget, &mut input, &mut output)?
                        == Some(Interrupt::Quit)
                    {
                        break;
                    }
                }
            },
            other => writeln!(
                output,
                "error unknown command {other:?} (expected one of: {COMMANDS})"
            )?,
        }
        output.flush()?;
    }
    output.flush()
}

/// Of a clock's time left, the share one move may take when the moves still to play are not
/// given (`movestogo`): a game of Oware lasts about 50 moves a side, most decided earlier.
const MOVES_TO_GO: u64 = 25;

/// The budget of `go [nodes <n>|movetime <ms>|infinite|stime … ntime …]`. With a clock (each
/// side's time left, `stime` South's and `ntime` North's, their increments `sinc`/`ninc` and
/// optionally `movestogo`) the player to move, `mover`, takes its time left over the moves
/// still to play plus its increment, never more than half its time left.
fn go_budget(args: &str, mover: Option<ayo_env::Player>) -> Result<Budget, String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let number = |what: &str, word: Option<&&str>| -> Result<u64, String> {
        word.and_then(|w| w.parse::<u64>().ok())
            .filter(|&n| (1..=1_000_000_000).contains(&n))
            .ok_or_else(|| {
                format!(
                    "go {what} needs a whole number from 1 to 1000000000, found {:?}",
                    word.copied().unwrap_or("")
                )
            })
    };
    match words.first().copied() {
        None => Ok(Budget::Own),
        Some("infinite") if words.len() == 1 => Ok(Budget::Infinite),
        Some("nodes") if words.len() <= 2 => number("nodes", words.get(1)).map(Budget::Nodes),
        Some("movetime") if words.len() <= 2 => {
            number("movetime", words.get(1)).map(|ms| Budget::Time(Duration::from_millis(ms)))
        }
        Some("stime" | "ntime" | "sinc" | "ninc" | "movestogo")
            if words.len().is_multiple_of(2) =>
        {
            let mut clock = std::collections::HashMap::new();
            for pair in words.chunks(2) {
                let value = match pair[0] {
                    "sinc" | "ninc" => pair[1].parse::<u64>().map_err(|_| {
                        format!(
                            "go {} needs a whole number of ms, found {:?}",
                            pair[0], pair[1]
                        )
                    })?,
                    key @ ("stime" | "ntime" | "movestogo") => number(key, pair.get(1))?,
                    other => {
                        return Err(format!(
                            "go {other:?}: a clock takes stime, ntime, sinc, ninc and movestogo"
                        ))
                    }
                };
                clock.insert(pair[0], value);
            }
            let (time, inc) = match mover {
                Some(ayo_env::Player::North) => ("ntime", "ninc"),
                _ => ("stime", "sinc"),
            };
            let left = *clock
                .get(time)
                .ok_or_else(|| format!("go with a clock needs {time}, the mover's time left"))?;
            let inc = clock.get(inc).copied().unwrap_or(0);
            let moves = clock.get("movestogo").copied().unwrap_or(MOVES_TO_GO);
            let ms = (left / moves + inc).min(left / 2).max(1);
            Ok(Budget::Time(Duration::from_millis(ms)))
        }
        _ => Err(format!(
            "go takes nothing, `nodes <n>`, `movetime <ms>`, `infinite` or a clock (`stime <ms> \
             ntime <ms>`), found {args:?}"
        )),
    }
}

/// Thinks about `game` within `budget`, answering `info` lines as the search goes and then
/// `bestmove`. While it thinks, `stop` ends the search (its best move so far is played),
/// `isready` is answered at once and other lines wait until the search is over. After
/// `go infinite` the best move is sent only once `stop` (or `quit`, or the end of the input)
/// has come, even if the search ended earlier (one legal move, an agent that is not anytime).
fn go<L: Lines>(
    rules: &Variant,
    agent: &mut dyn Agent,
    game: &VariantState,
    budget: Budget,
    input: &mut Input<L>,
    output: &mut impl Write,
) -> std::io::Result<Option<Interrupt>> {
    let mut interrupt = None;
    let mut failure = None;
    let mut report = |p: &Progress| -> bool {
        let value = p.value.map_or("none".to_string(), |v| format!("{v:.4}"));
        // The line up to a give-up (an agent's FORFEIT is no action of the game).
        let line: Vec<Action> = p.pv.iter().copied().take_while(|&a| a != FORFEIT).collect();
        let pv: Vec<String> = line.iter().map(|a| a.to_string()).collect();
        let written = writeln!(
            output,
            "info value {value} simulations {} time {} tbhits {} name {} pv {}",
            p.work,
            p.elapsed.as_millis(),
            p.table_hits,
            line.first()
                .map_or(String::new(), |&a| rules.action_name(game, a)),
            pv.join(" ")
        )
        .and_then(|_| output.flush());
        if let Err(e) = written {
            failure = Some(e);
            return false;
        }
        match listen(input, output, false) {
            // The end of the input stops only an infinite search (a script's last `go`
            // still thinks for its budget).
            Ok(Some(Interrupt::End)) if budget != Budget::Infinite => {}
            Ok(i) => interrupt = i,
            Err(e) => failure = Some(e),
        }
        interrupt.is_none() && failure.is_none()
    };
    let (action, _) = agent.think(rules, game, budget, &mut report);
    if let Some(e) = failure {
        return Err(e);
    }
    while budget == Budget::Infinite && interrupt.is_none() {
        interrupt = listen(input, output, true)?;
    }
    if action == FORFEIT {
        // An agent that could not choose (a Python policy that raised) gives up the position;
        // the program driving the engine hears it as an error, and the engine goes on.
        writeln!(
            output,
            "error {} chose no move in this position (it gave up)",
            agent.name()
        )?;
        return Ok(interrupt);
    }
    writeln!(output, "bestmove {action}")?;
    Ok(interrupt)
}

/// Reads the lines that have arrived during a search (waiting for one if `wait`): `stop` and
/// `quit` (or the end of the input) interrupt it and `isready` is answered at once unless other
/// commands already wait (then every line waits in order); the rest wait.
fn listen<L: Lines>(
    input: &mut Input<L>,
    output: &mut impl Write,
    wait: bool,
) -> std::io::Result<Option<Interrupt>> {
    loop {
        if input.ended {
            return Ok(Some(Interrupt::End));
        }
        let Some(line) = input.read(wait)? else {
            return Ok(input.ended.then_some(Interrupt::End));
        };
        match line.as_str() {
            // Once a command waits its turn, every later line waits after it, in order (a
            // script sent all at once: its last `quit` must not drop the commands before it).
            _ if !input.waiting.is_empty() => input.waiting.push_back(line),
            "stop" => return Ok(Some(Interrupt::Stop)),
            "quit" => return Ok(Some(Interrupt::Quit)),
            "isready" => {
                writeln!(output, "readyok")?;
                output.flush()?;
            }
            _ => input.waiting.push_back(line),
        }
    }
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

    /// An agent that gives up ([`FORFEIT`]) is answered with an error line, and the engine goes
    /// on to the next command.
    #[test]
    fn an_agent_that_gives_up_is_an_error_line() {
        struct GivesUp;
        impl Agent for GivesUp {
            fn name(&self) -> String {
                "quitter".into()
            }
            fn choose(&mut self, _: &Variant, _: &VariantState) -> (Action, ayo_env::Analysis) {
                (FORFEIT, ayo_env::Analysis::default())
            }
        }
        let rules: Variant = "oware".parse().unwrap();
        let mut out = Vec::new();
        serve(&rules, &mut GivesUp, "go\nlegal\n".as_bytes(), &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("info "), "{out}");
        assert_eq!(
            &lines[1..],
            [
                "error quitter chose no move in this position (it gave up)",
                "legal 0 1 2 3 4 5"
            ],
            "{out}"
        );
    }

    /// The engine in front of a network (libtorch's; the torch-free build has no way to make
    /// an untrained one).
    #[cfg(feature = "torch")]
    mod with_a_network {
        use super::*;

        /// A small untrained network behind the engine (the protocol does not need a good one).
        fn talk_to_net(script: &str) -> String {
            let rules: Variant = "oware".parse().unwrap();
            let mut agent = crate::agent::untrained(&rules, 1);
            let mut out = Vec::new();
            serve(&rules, &mut agent, script.as_bytes(), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        }

        fn field<'a>(line: &'a str, key: &str) -> &'a str {
            let words: Vec<&str> = line.split_whitespace().collect();
            let i = words.iter().position(|w| *w == key).expect(key);
            words[i + 1]
        }

        /// A script sent all at once (a pipe): every `go` is answered, in order, before the final
        /// `quit` ends the engine (it used to be taken for an interruption of the first search).
        #[test]
        fn a_whole_script_at_once_answers_every_go_before_quit() {
            let out = talk_to_net("position startpos\ngo\nposition startpos moves 2\ngo nodes 8\nposition startpos moves 2 2\ngo\nquit\nisready\n");
            let best = out.lines().filter(|l| l.starts_with("bestmove ")).count();
            assert_eq!(best, 3, "{out}");
            assert!(!out.contains("readyok"), "nothing after quit: {out}");
        }

        #[test]
        fn go_nodes_searches_that_many_simulations_and_reports_a_line() {
            let out = talk_to_net("position startpos moves 2 1\ngo nodes 100\n");
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines.len(), 2, "{out}");
            assert_eq!(field(lines[0], "simulations"), "100", "{out}");
            let pv = lines[0].split(" pv ").nth(1).unwrap();
            let best = lines[1].strip_prefix("bestmove ").unwrap();
            assert_eq!(
                pv.split_whitespace().next(),
                Some(best),
                "the pv starts with the move"
            );
        }

        #[test]
        fn go_movetime_thinks_in_rounds_within_its_time() {
            let out = talk_to_net("go movetime 300\n");
            let infos: Vec<&str> = out.lines().filter(|l| l.starts_with("info ")).collect();
            assert!(infos.len() >= 2, "rounds of doubling size: {out}");
            let sims: Vec<u64> = infos
                .iter()
                .map(|l| field(l, "simulations").parse().unwrap())
                .collect();
            assert!(sims.windows(2).all(|w| w[1] > w[0]), "{sims:?}");
            let last_ms: u64 = field(infos.last().unwrap(), "time").parse().unwrap();
            assert!(last_ms <= 1500, "a 300 ms move took {last_ms} ms");
            assert!(out.lines().last().unwrap().starts_with("bestmove "));
        }

        #[test]
        fn go_infinite_answers_isready_and_waits_for_stop() {
            let out = talk_to_net("go infinite\nisready\nlegal\nstop\nlegal\n");
            let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("info ")).collect();
            assert_eq!(
                lines,
                [
                    "readyok",
                    lines[1],
                    "legal 0 1 2 3 4 5",
                    "legal 0 1 2 3 4 5"
                ],
                "{out}"
            );
            assert!(lines[1].starts_with("bestmove "), "{out}");
            // A baseline is not anytime: it chooses at once, but the best move waits for `stop`.
            let out = talk("go infinite\nisready\nstop\n");
            let lines: Vec<&str> = out.lines().collect();
            assert_eq!(lines[1], "readyok", "{out}");
            assert!(lines[2].starts_with("bestmove "), "{out}");
        }
    }

    #[test]
    fn bad_go_arguments_are_errors_that_name_them() {
        let out = talk("go nodes many\ngo movetime 0\ngo sideways\ngo nodes 5 6\nisready\n");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 5, "{out}");
        assert!(
            lines[0].contains("go nodes needs a whole number") && lines[0].contains("\"many\"")
        );
        assert!(lines[1].contains("go movetime needs") && lines[1].contains("\"0\""));
        assert!(lines[2].contains("\"sideways\""));
        assert!(lines[3].contains("\"nodes 5 6\""));
        assert_eq!(lines[4], "readyok");
    }

    #[test]
    fn a_clock_gives_the_mover_its_share_of_its_time_left() {
        use ayo_env::Player::{North, South};
        let ms = |args: &str, mover| match go_budget(args, Some(mover)) {
            Ok(Budget::Time(t)) => Ok(t.as_millis() as u64),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(ms("stime 50000 ntime 10000", South), Ok(2000));
        assert_eq!(ms("stime 50000 ntime 10000", North), Ok(400));
        assert_eq!(
            ms("stime 1000 ntime 1000 sinc 300 ninc 300", North),
            Ok(340)
        );
        assert_eq!(ms("stime 1000 ntime 900 movestogo 1", North), Ok(450));
        assert!(ms("ntime 1000", South).unwrap_err().contains("needs stime"));
        assert!(ms("stime 0 ntime 5", South).unwrap_err().contains("\"0\""));
        assert!(ms("stime 10 ntime", South).is_err());
    }

    #[test]
    fn a_bad_position_leaves_the_game_as_it_was() {
        let out = talk("position startpos moves 2\nposition startpos moves 0 99\nlegal\n");
        // After South sowed pit 2, North (to move) has all six pits.
        assert!(out.lines().any(|l| l == "legal 0 1 2 3 4 5"), "{out}");
    }
}
