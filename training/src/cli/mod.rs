//! One module per `ayo` subcommand: its clap arguments (`Args`) and `run`.

pub mod accuracy;
pub mod bench;
pub mod book;
pub mod checkpoint;
pub mod egtb;
pub mod engine;
pub mod evaluate;
pub mod ladder;
pub mod openings;
pub mod perft;
pub mod play;
pub mod plot;
pub mod rate;
pub mod replay;
pub mod rules;
pub mod selfplay;
pub mod serve;
pub mod tournament;
pub mod train;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use ayo_env::Variant;
use indicatif::{ProgressBar, ProgressStyle};

/// Refuses a `--out` that names a file where a folder is wanted, naming the flag.
pub fn out_not_a_file(path: &Path) -> Result<()> {
    if path.exists() && !path.is_dir() {
        bail!(
            "--out {}: a file is there; expected a folder (created if missing)",
            path.display()
        );
    }
    Ok(())
}

/// Creates the folder a command's `--out` names, with its parents, before the command plays or
/// trains anything; a file in its place is refused naming the flag.
pub fn out_folder(path: &Path) -> Result<()> {
    out_not_a_file(path)?;
    std::fs::create_dir_all(path)
        .with_context(|| format!("--out {}: cannot create the folder", path.display()))
}

/// Sets `flag` when the process is interrupted (SIGINT, Ctrl-C), so that a long command
/// (`ayo train`, `ayo selfplay`) finishes its step and saves instead of dying half-way.
///
/// A parent may have started the process with SIGINT blocked — a Ray actor's thread does, and
/// the blocked set outlives `exec` — and then the handler would never run (`Launcher.stop` in
/// `python/ayo/ray_train.py` waited a minute per process and killed it): once the handler is in
/// place, SIGINT is unblocked.
pub fn stop_on_interrupt(flag: &'static AtomicBool) {
    let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    #[cfg(unix)]
    // SAFETY: plain calls on a local signal set; unblocking a signal whose handler is installed.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGINT);
        libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    }
}

/// The progress of a match or a tournament, pair by pair, on stderr (stdout keeps the results):
/// a bar on a terminal; otherwise (a log file) a line at every tenth of the pairs, at the last,
/// and after any pair that ends a minute or more without a line (slow players: a tenth of
/// `alphabeta:12`'s 100 jerin pairs takes ten minutes), `STATUS after K of N pairs, T s`.
pub struct PairProgress {
    bar: ProgressBar,
    started: Instant,
    /// When the last line was written (log files).
    last_line: Mutex<Instant>,
}

/// The longest a log goes without a progress line while pairs end.
const QUIET_LOG: Duration = Duration::from_secs(60);

impl PairProgress {
    /// Starts the clock of the lines' seconds.
    pub fn start() -> Self {
        let bar = ProgressBar::new(0).with_style(
            ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} pairs {elapsed}<{eta}")
                .expect("a valid template"),
        );
        PairProgress {
            bar,
            started: Instant::now(),
            last_line: Mutex::new(Instant::now()),
        }
    }

    /// `done` of `pairs` pairs played; `status` says how they went (a W-D-L, or the label).
    pub fn update(&self, done: usize, pairs: usize, status: &str) {
        if self.bar.is_hidden() {
            let mut last_line = self.last_line.lock().expect("not poisoned");
            let tenth = done * 10 / pairs != (done - 1) * 10 / pairs;
            if tenth || done == pairs || last_line.elapsed() >= QUIET_LOG {
                *last_line = Instant::now();
                eprintln!(
                    "{status} after {done} of {pairs} pairs, {:.1} s",
                    self.started.elapsed().as_secs_f64()
                );
            }
        } else {
            self.bar.set_length(pairs as u64);
            self.bar.set_message(status.to_string());
            self.bar.set_position(done as u64);
            if done == pairs {
                self.bar.finish_and_clear();
            }
        }
    }
}

/// `--variant NAME [--options K=V,…]`, shared by the subcommands that play one variant.
#[derive(clap::Args)]
pub struct VariantArgs {
    /// Variant name, e.g. `oware` (or `oware@1`).
    #[arg(long)]
    pub variant: String,
    /// Options as `key=value,key=value`.
    #[arg(long)]
    pub options: Option<String>,
}

impl VariantArgs {
    /// The variant with its options.
    pub fn rules(&self) -> Result<Variant> {
        variant(&self.variant, self.options.as_deref())
    }
}

/// `--agent SPEC [--sims N] [--seed S]`, shared by the subcommands that put one agent in a game.
#[derive(clap::Args)]
pub struct AgentArgs {
    /// The agent: random, greedy, alphabeta:D, mcts:N, or a checkpoint file PATH, PATH:SIMS or
    /// PATH@TIME (a time per move: 1s, 0.5s, 250ms).
    #[arg(long)]
    pub agent: String,
    /// Simulations per move of a checkpoint given without `:SIMS` (0: network policy alone).
    #[arg(long, default_value_t = 0)]
    pub sims: u32,
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl AgentArgs {
    /// The agent, for games of `rules`.
    pub fn load(&self, rules: &Variant) -> Result<Box<dyn ayo_env::Agent>> {
        Ok(ayo_train::agent::load_player(
            &self.agent,
            rules,
            self.sims,
            self.seed,
        )?)
    }
}

/// An interval's half-width in Elo (`--precision`): a positive number.
pub fn precision(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(e) if e > 0.0 && e.is_finite() => Ok(e),
        _ => Err(format!(
            "{text:?} is not a positive number of Elo, such as 30"
        )),
    }
}

/// The variant named on the command line (`name` or `name@version`) with `key=value,…` options.
pub fn variant(spec: &str, options: Option<&str>) -> Result<Variant> {
    let opts = Variant::parse_options(options.unwrap_or(""))?;
    Variant::new(spec, &opts).with_context(|| format!("cannot load variant {spec:?}"))
}
