//! `ayo train`: AlphaZero-style training with a Gumbel search (alone, or as the learner of a
//! distributed run), or `--bench` for throughput.

use anyhow::{Context, Result};
use ayo_env::{Player, Rules};
use ayo_train::config::{self, Given, TrainConfig};
use ayo_train::logger::metric;
use ayo_train::net::Net;
use ayo_train::replay::ReplayBuffer;
use ayo_train::run::Run;
use ayo_train::selfplay::{search_parallel, SelfPlay};
use ayo_train::trainer::Trainer;
use clap::parser::ValueSource;
use indicatif::{ProgressBar, ProgressStyle};
use rand::{Rng, SeedableRng};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// TOML configuration (e.g. experiments/oware.toml); flags given here override it.
    /// Without it a new run starts from its variant's tuned config (experiments/VARIANT.toml,
    /// built into ayo).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run folder (default: runs/VARIANT).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Train for this many minutes (this session), then checkpoint and stop; default: until Ctrl-C.
    #[arg(long)]
    minutes: Option<f64>,
    /// Continue the run saved in --out exactly where it stopped.
    #[arg(long)]
    resume: bool,
    /// Start the new run's network from this checkpoint's weights (same variant and shape)
    /// instead of random ones: train a network further on a new schedule.
    #[arg(long, value_name = "CHECKPOINT", conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Measure leaf evaluations/s in search, self-play positions/s and training samples/s, then exit.
    #[arg(long)]
    bench: bool,
    /// Stop after this many iterations (one move in every self-play game each; with --learner,
    /// one shard each).
    #[arg(long)]
    iterations: Option<u64>,
    /// A distributed run's storage (a folder, file:///path or s3://bucket/prefix): with
    /// --learner, this process trains on the shards that `ayo selfplay --run URL` workers
    /// write there and publishes its networks there.
    #[arg(long)]
    run: Option<String>,
    /// Be the learner of the distributed run --run (no self-play in this process).
    #[arg(long, requires = "run")]
    learner: bool,
    #[command(flatten)]
    train: TrainConfig,
}

static STOP: AtomicBool = AtomicBool::new(false);

pub fn run(a: Args) -> Result<()> {
    let (given, cfg) = resolve(&a)?;
    tch::set_num_threads(cfg.threads as i32);
    if a.bench {
        bench(&cfg)
    } else {
        train(&a, &given, cfg)
    }
}

/// The settings given (the config file's keys, then the flags given on the command line) and
/// the run's configuration they make. A new run (or a benchmark) without --config starts from
/// its variant's tuned config; a resumed run keeps its saved settings ([`Run::resume`] checks
/// the given ones against them).
fn resolve(a: &Args) -> Result<(Given, TrainConfig)> {
    let matches = <crate::Cli as clap::CommandFactory>::command()
        .try_get_matches()
        .ok();
    let sub = matches
        .as_ref()
        .and_then(|m| m.subcommand_matches("train").cloned());
    let explicit = |key: &str| {
        sub.as_ref()
            .map(|m| {
                m.try_get_raw(key).is_ok() && m.value_source(key) == Some(ValueSource::CommandLine)
            })
            .unwrap_or(false)
    };
    let tuned = match (&a.config, a.resume) {
        (None, false) => config::tuned(&a.train.variant),
        _ => None,
    };
    let file = match (&a.config, tuned) {
        (Some(path), _) => Some((
            path.display().to_string(),
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read config {}", path.display()))?,
        )),
        (None, Some(text)) => {
            let name = a.train.variant.split('@').next().unwrap_or_default();
            Some((format!("experiments/{name}.toml"), text.to_string()))
        }
        (None, None) => None,
    };
    let file = file
        .as_ref()
        .map(|(name, text)| (name.as_str(), text.as_str()));
    let (given, cfg) = TrainConfig::resolve_text(file, &a.train, explicit)?;
    if tuned.is_some() {
        println!(
            "config: experiments/{}.toml as built into ayo (tuned for {}); --config FILE for another",
            cfg.rules()?.name(),
            cfg.variant
        );
    }
    Ok((given, cfg))
}

/// Trains until the time (--minutes) or the iterations (--iterations) are spent or Ctrl-C:
/// self-play and training steps in turn, or as the learner of a distributed run, training on
/// its workers' shards. Checkpoints and evaluates when due, and saves at the end.
fn train(a: &Args, given: &Given, cfg: TrainConfig) -> Result<()> {
    let out = a.out.clone().unwrap_or_else(|| {
        PathBuf::from("runs").join(cfg.rules().map(|r| r.name()).unwrap_or("run"))
    });
    // Before anything is made: a new run creates its folder only after its config is checked.
    super::out_not_a_file(&out)?;
    let mut run = if a.resume {
        Run::resume(&out, given)
            .with_context(|| format!("cannot resume the run in {}", out.display()))?
    } else {
        Run::create_from(cfg, &out, a.init.as_deref())?
    };
    super::stop_on_interrupt(&STOP);
    let mut learner = match (&a.run, a.learner) {
        (Some(url), true) => Some(Learner::start(url, &mut run, a.resume)?),
        (Some(_), false) => anyhow::bail!("--run is for the learner of a distributed run: add --learner (workers run `ayo selfplay --run URL`)"),
        _ => None,
    };
    println!(
        "training {} in {} — {} parameters, {} games × {} simulations, step {}",
        run.rules.id(),
        out.display(),
        run.trainer.net.num_parameters(),
        run.cfg.games,
        run.cfg.simulations,
        run.trainer.step
    );
    let mut progress = TrainProgress::start(a.minutes);
    let mut iterations = 0u64;
    loop {
        if STOP.load(Ordering::SeqCst) {
            progress.say("interrupted: finishing the step and saving".into());
            break;
        }
        if progress.time_is_up() || a.iterations.is_some_and(|n| iterations >= n) {
            break;
        }
        match &mut learner {
            Some(l) => {
                if !l.poll(&mut run, &progress.bar)? {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
            None => {
                run.iterate();
            }
        }
        iterations += 1;
        progress.update(&mut run);
        if run.checkpoint_due() {
            run.save()?;
        }
        if run.eval_due() {
            let r = run.evaluate()?;
            progress.say(format!(
                "step {}: vs {} won {}, drew {}, lost {} of {}",
                run.trainer.step,
                run.cfg.eval_agent,
                r.wins,
                r.draws,
                r.losses,
                r.games()
            ));
        }
    }
    run.log_window();
    if let Some(l) = &mut learner {
        l.publish(&run)?;
    }
    let path = run.save()?;
    progress.bar.finish_and_clear();
    println!(
        "saved {} (step {}, {} games, {} positions, {:.0} s of training); continue with --resume --out {}",
        path.display(),
        run.trainer.step,
        run.selfplay.games,
        run.selfplay.positions,
        run.wall_time_s(),
        out.display()
    );
    Ok(())
}

/// The progress of a training session: a bar on a terminal (against the time budget, or a
/// spinner), a plain line every 30 s without one (a log file, CI).
struct TrainProgress {
    bar: ProgressBar,
    budget: Option<Duration>,
    start: Instant,
    last_log: Instant,
    last_line: Instant,
}

impl TrainProgress {
    fn start(minutes: Option<f64>) -> TrainProgress {
        let budget = minutes.map(|m| Duration::from_secs_f64(m * 60.0));
        let bar = match budget {
            Some(d) => ProgressBar::new(d.as_secs().max(1)),
            None => ProgressBar::new_spinner(),
        };
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {msg}")
                .unwrap()
                .progress_chars("=> "),
        );
        TrainProgress {
            bar,
            budget,
            start: Instant::now(),
            last_log: Instant::now(),
            last_line: Instant::now(),
        }
    }

    /// Whether the session's time budget is spent.
    fn time_is_up(&self) -> bool {
        self.budget.is_some_and(|d| self.start.elapsed() >= d)
    }

    /// Every 10 s: logs the run's window of scalars and shows its throughput and losses.
    fn update(&mut self, run: &mut Run) {
        if self.last_log.elapsed() < Duration::from_secs(10) {
            return;
        }
        self.last_log = Instant::now();
        let s = run.log_window();
        let get = |k: &str| {
            s.iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| *v)
                .unwrap_or(f64::NAN)
        };
        let progress = format!(
            "{} games {:.1} games/s {:.0} pos/s | step {} loss p {:.3} v {:.3} s {:.3}",
            run.selfplay.games,
            get(metric::GAMES_PER_S),
            get(metric::POSITIONS_PER_S),
            run.trainer.step,
            get(metric::LOSS_POLICY),
            get(metric::LOSS_VALUE),
            get(metric::LOSS_SCORE),
        );
        if self.bar.is_hidden() && self.last_line.elapsed() >= Duration::from_secs(30) {
            self.last_line = Instant::now();
            println!("{:.0} s: {progress}", self.start.elapsed().as_secs_f64());
        }
        self.bar.set_message(progress);
        if self.budget.is_some() {
            self.bar.set_position(self.start.elapsed().as_secs());
        } else {
            self.bar.tick();
        }
    }

    /// Prints a line above the bar (or plainly when the bar is hidden).
    fn say(&self, line: String) {
        say(&self.bar, line)
    }
}

/// Prints a line above the progress bar (or plainly when the bar is hidden, e.g. in a log file).
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        println!("{line}");
    } else {
        bar.println(line);
    }
}

/// Prints the three throughput figures for `cfg`'s variant and network: leaf evaluations per
/// second in search, self-play positions per second (full searches, then with the playout cap
/// if the config has one) and training samples per second.
fn bench(cfg: &TrainConfig) -> Result<()> {
    let rules = cfg.rules()?;
    tch::manual_seed(0);
    let net = Net::new(cfg.net_shape()?, ayo_train::device::best_device());
    println!(
        "{}: net {}x{} ({} parameters), {} games, {} simulations, {} torch threads, device {:?}",
        rules.id(),
        cfg.blocks,
        cfg.width,
        net.num_parameters(),
        cfg.games,
        cfg.simulations,
        tch::get_num_threads(),
        net.vs.device()
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut helper = (cfg.selfplay_threads > 1).then(|| net.duplicate().expect("same shape"));
    bench_search(cfg, &rules, &net, helper.as_mut(), &mut rng);
    let buffer = bench_selfplay(cfg, &rules, &net, helper.as_mut());
    bench_training(cfg, net, &buffer, &mut rng);
    Ok(())
}

/// Leaf evaluations per second of `cfg.games` searches batched together, from positions a few
/// random plies into the game (so that the trees differ).
fn bench_search(
    cfg: &TrainConfig,
    rules: &ayo_env::Variant,
    net: &Net,
    mut helper: Option<&mut Net>,
    rng: &mut rand_chacha::ChaCha8Rng,
) {
    let states: Vec<_> = (0..cfg.games)
        .map(|_| {
            let mut s = rules.start(Player::South);
            for _ in 0..rng.gen_range(0..10) {
                let m = rules.legal_mask(&s);
                if m.count() == 0 {
                    break;
                }
                rules.play_unchecked(&mut s, m.nth(rng.gen_range(0..m.count())).unwrap());
            }
            if rules.is_terminal(&s) {
                rules.start(Player::South)
            } else {
                s
            }
        })
        .collect();
    let refs: Vec<_> = states.iter().collect();
    let sims = vec![cfg.simulations; refs.len()];
    let params = cfg.search_params();
    let (mut evals, mut secs) = (0u64, 0.0);
    while secs < 5.0 {
        let t = Instant::now();
        let (_, n) = search_parallel(
            rules,
            &refs,
            &sims,
            &params,
            net,
            helper.as_deref_mut(),
            rng,
        );
        secs += t.elapsed().as_secs_f64();
        evals += n;
    }
    println!(
        "search:    {:>9.0} leaf evaluations/s (batched across {} games)",
        evals as f64 / secs,
        cfg.games
    );
}

/// Self-play positions per second with a full search at every move, then (if the config has
/// one) with its playout cap; returns the replay buffer filled with the games' samples (at
/// least a batch).
fn bench_selfplay(
    cfg: &TrainConfig,
    rules: &ayo_env::Variant,
    net: &Net,
    mut helper: Option<&mut Net>,
) -> ReplayBuffer {
    let mut buffer = ReplayBuffer::new(
        cfg.buffer_size.max(cfg.batch_size),
        net.shape.inputs,
        rules.num_actions(),
    );
    let full = TrainConfig {
        fast_simulations: 0,
        ..cfg.clone()
    };
    let mut runs = vec![(full, format!("at {} simulations per move", cfg.simulations))];
    if cfg.fast_simulations > 0 && cfg.full_search_prob < 1.0 {
        runs.push((
            cfg.clone(),
            format!(
                "with the playout cap ({:.0} % of moves {} simulations, the rest {})",
                cfg.full_search_prob * 100.0,
                cfg.simulations,
                cfg.fast_simulations
            ),
        ));
    }
    let mut sp = SelfPlay::new(rules, cfg.games, 2, cfg.varied_starts, cfg.opening_plies);
    for (run_cfg, label) in &runs {
        let (mut positions, t) = (0usize, Instant::now());
        while t.elapsed().as_secs_f64() < 8.0 {
            let r = sp.step(rules, net, helper.as_deref_mut(), run_cfg);
            positions += r.positions;
            for s in &r.samples {
                buffer.push(s);
            }
        }
        println!(
            "self-play: {:>9.0} positions/s {label}",
            positions as f64 / t.elapsed().as_secs_f64(),
        );
    }
    while buffer.len() < cfg.batch_size {
        for s in sp.step(rules, net, helper.as_deref_mut(), cfg).samples {
            buffer.push(&s);
        }
    }
    buffer
}

/// Training samples per second at `cfg.batch_size`, on batches drawn from `buffer`.
fn bench_training(
    cfg: &TrainConfig,
    net: Net,
    buffer: &ReplayBuffer,
    rng: &mut rand_chacha::ChaCha8Rng,
) {
    let mut trainer = Trainer::new(net).averaging(cfg.ema_decay);
    let device = trainer.net.vs.device();
    let (mut samples, t) = (0usize, Instant::now());
    while t.elapsed().as_secs_f64() < 5.0 {
        let batch = buffer.sample(cfg.batch_size, rng, device);
        trainer.train_step(&batch, cfg);
        samples += cfg.batch_size;
    }
    println!(
        "training:  {:>9.0} samples/s at batch {}",
        samples as f64 / t.elapsed().as_secs_f64(),
        cfg.batch_size
    );
}

/// The learner's side of a distributed run: new shards in, networks out.
struct Learner {
    store: ayo_train::storage::Storage,
    published: u64,
    /// Shards refused (corrupt or of another run), reported once each.
    refused: std::collections::BTreeSet<String>,
}

impl Learner {
    /// Opens the run's storage; a new run writes its config and first network there.
    fn start(url: &str, run: &mut Run, resumed: bool) -> Result<Learner> {
        use ayo_train::distributed;
        let store = ayo_train::storage::Storage::open(url)?;
        if let Some(bytes) = store.get(distributed::CONFIG)? {
            let theirs = TrainConfig::from_run_toml(&String::from_utf8_lossy(&bytes))?;
            if theirs.variant != run.cfg.variant || theirs.net_shape()? != run.cfg.net_shape()? {
                anyhow::bail!(
                    "{url} holds a run of {} ({:?}), not of this learner's {} ({:?}): choose another --run",
                    theirs.variant,
                    theirs.net_shape()?,
                    run.cfg.variant,
                    run.cfg.net_shape()?
                );
            }
        } else if resumed {
            anyhow::bail!(
                "{url} has no {}: is it the storage of this run?",
                distributed::CONFIG
            );
        }
        store.put(distributed::CONFIG, run.cfg.to_toml().into_bytes())?;
        let mut l = Learner {
            store,
            published: distributed::latest_step(&ayo_train::storage::Storage::open(url)?)?
                .unwrap_or(0),
            refused: Default::default(),
        };
        if !resumed || l.published != run.trainer.step {
            l.publish(run)?;
        }
        Ok(l)
    }

    fn publish(&mut self, run: &Run) -> Result<()> {
        ayo_train::distributed::publish(&self.store, &run.trainer.net, &run.meta())?;
        self.published = run.trainer.step;
        Ok(())
    }

    /// Reads the shards not yet consumed and trains on them; publishes a network when
    /// `publish_every_steps` steps have passed. Says whether there was anything new.
    fn poll(&mut self, run: &mut Run, bar: &ProgressBar) -> Result<bool> {
        use ayo_train::shard::Shard;
        let keys = ayo_train::distributed::new_shards(&self.store, &run.consumed)?;
        let mut any = false;
        for key in keys {
            if self.refused.contains(&key) {
                continue;
            }
            let Some(bytes) = self.store.get(&key)? else {
                continue;
            };
            match Shard::decode(
                &key,
                &bytes,
                run.trainer.net.shape.inputs,
                run.rules.num_actions(),
            ) {
                Ok(shard) => {
                    run.learn(&key, &shard);
                    any = true;
                    if run.trainer.step >= self.published + run.cfg.publish_every_steps {
                        self.publish(run)?;
                    }
                }
                Err(e) => {
                    say(bar, format!("refused: {e}"));
                    self.refused.insert(key);
                }
            }
            if STOP.load(Ordering::SeqCst) {
                break;
            }
        }
        Ok(any)
    }
}
