//! `ayo book`: a book of moves for the opening (`ayo_env::arena::book`), made by an agent's
//! deep search along its own lines: from the start, every reply of the other side and the
//! agent's own choice for the side it plays, seen from either seat, to `--plies` plies. The
//! first `--free-plies` plies cover every move of both sides (the random openings that
//! tournaments and `scripts/vs-aalina.sh` play). An agent names the book with `+book=FILE`.

use anyhow::{bail, Context, Result};
use ayo_env::arena::book::{Book, BookMove};
use ayo_env::{Player, Rules, Variant, VariantState};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: super::VariantArgs,
    /// The player whose choices the book keeps: a deep search (`PATH@5s+ab`, `alphabeta:14`).
    #[arg(long)]
    agent: String,
    /// The book covers the positions of the first PLIES plies (from the start) in which the
    /// side to move plays the book and the other side any move.
    #[arg(long, default_value_t = 6)]
    plies: u32,
    /// Plies from the start in which every move of both sides is covered.
    #[arg(long, default_value_t = 2)]
    free_plies: u32,
    /// Searches at once, each with its own copy of the agent (one per core).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Simulations of a checkpoint agent given without `:SIMS` or `@TIME`.
    #[arg(long, default_value_t = 32)]
    sims: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The book to write. An existing book of the same rules is kept and extended: its
    /// positions are not searched again (a build resumes after an interruption, ply by ply).
    #[arg(long)]
    out: PathBuf,
}

/// A position of the tree and the seats from which it is reached: `seen[s]` when the player
/// of seat `s` plays the book on the way to it.
struct Node {
    state: VariantState,
    seen: [bool; 2],
}

pub fn run(a: Args) -> Result<()> {
    let rules = a.game.rules()?;
    if a.threads == 0 || a.free_plies > a.plies {
        bail!(
            "--threads {} --free-plies {} --plies {}: expected at least one thread and no more \
             free plies than plies",
            a.threads,
            a.free_plies,
            a.plies
        );
    }
    let mut agents = (0..a.threads)
        .map(|i| {
            ayo_train::agent::load_player(&a.agent, &rules, a.sims, a.seed.wrapping_add(i as u64))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut moves = existing(&a.out, &rules)?;
    let kept = moves.len();
    let options = match &a.game.options {
        Some(o) => format!(" --options {o}"),
        None => String::new(),
    };
    let comment = format!(
        "made by `ayo book --variant {}{options} --agent {} --plies {} --free-plies {}`",
        a.game.variant, a.agent, a.plies, a.free_plies
    );
    let start = rules.start(Player::South);
    let mut level: HashMap<String, Node> = HashMap::new();
    level.insert(
        rules.notation(&start),
        Node {
            state: start,
            seen: [true, true],
        },
    );
    for ply in 0..a.plies {
        let wanted: Vec<(&String, &Node)> = level
            .iter()
            .filter(|(text, node)| seat_plays_book(&rules, node) && !moves.contains_key(*text))
            .collect();
        eprintln!(
            "book: ply {ply}: {} positions, {} to search",
            level.len(),
            wanted.len()
        );
        for (text, m) in search_all(&rules, &mut agents, &wanted, ply) {
            moves.insert(text, m);
        }
        save(&a.out, &rules, &moves, &comment)?;
        let mut next: HashMap<String, Node> = HashMap::new();
        for (text, node) in &level {
            let mover = rules
                .to_play(&node.state)
                .expect("the tree holds live games");
            for seat in [Player::South, Player::North] {
                if !node.seen[seat.index()] {
                    continue;
                }
                let replies = if ply >= a.free_plies && mover == seat {
                    vec![moves[text].action]
                } else {
                    rules.legal_actions(&node.state)
                };
                for action in replies {
                    let mut child = node.state.clone();
                    rules.play_unchecked(&mut child, action);
                    if rules.is_terminal(&child) {
                        continue;
                    }
                    next.entry(rules.notation(&child))
                        .or_insert_with(|| Node {
                            state: child,
                            seen: [false, false],
                        })
                        .seen[seat.index()] = true;
                }
            }
        }
        level = next;
    }
    eprintln!(
        "book: {} positions ({kept} of them kept from the file) written to {}",
        moves.len(),
        a.out.display()
    );
    Ok(())
}

/// Whether the player to move plays the book here (it is reached from his own seat's tree).
fn seat_plays_book(rules: &Variant, node: &Node) -> bool {
    let mover = rules
        .to_play(&node.state)
        .expect("the tree holds live games");
    node.seen[mover.index()]
}

/// The moves of a book already at `path`, if there is one; a book of other rules is refused.
fn existing(path: &Path, rules: &Variant) -> Result<HashMap<String, BookMove>> {
    if !path.exists() {
        return Ok(HashMap::new());
    }
    let book = Book::load(path)?;
    book.check_rules(rules)
        .context("give another --out: a book is extended only with moves of its own rules")?;
    Ok(book.entries().map(|(k, m)| (k.clone(), *m)).collect())
}

fn save(
    path: &Path,
    rules: &Variant,
    moves: &HashMap<String, BookMove>,
    comment: &str,
) -> Result<()> {
    let entries: Vec<(String, BookMove)> = moves.iter().map(|(k, m)| (k.clone(), *m)).collect();
    let text = Book::write(rules, &entries, &[comment.to_string()]);
    let partial = path.with_extension("partial");
    std::fs::write(&partial, text)
        .with_context(|| format!("cannot write {}", partial.display()))?;
    std::fs::rename(&partial, path).with_context(|| format!("cannot write {}", path.display()))
}

/// The agents' moves in `wanted`, each agent on its own thread taking the next position.
fn search_all(
    rules: &Variant,
    agents: &mut [Box<dyn ayo_env::Agent>],
    wanted: &[(&String, &Node)],
    ply: u32,
) -> Vec<(String, BookMove)> {
    let bar = ProgressBar::new(wanted.len() as u64).with_style(
        ProgressStyle::with_template("book ply {msg}: {bar:30} {pos}/{len} {elapsed} (eta {eta})")
            .expect("a valid template"),
    );
    bar.set_message(ply.to_string());
    let next = AtomicUsize::new(0);
    let found = Mutex::new(Vec::with_capacity(wanted.len()));
    std::thread::scope(|scope| {
        for agent in agents.iter_mut() {
            let (next, found, bar) = (&next, &found, &bar);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((text, node)) = wanted.get(i) else {
                    break;
                };
                let (action, analysis) = agent.choose(rules, &node.state);
                let m = BookMove {
                    action,
                    value: analysis.value.map(|v| v.clamp(-1.0, 1.0)),
                };
                found.lock().expect("book lock").push(((*text).clone(), m));
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    found.into_inner().expect("book lock")
}
