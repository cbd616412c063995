//! A training run: self-play and training alternating in one process, periodic checkpoints and
//! evaluations, logs, and exact resume.
//!
//! A run folder holds:
//! ```text
//! config.toml          the resolved configuration
//! train.jsonl          one JSON object per log event, the same scalars as TensorBoard
//! tb/                  TensorBoard event files
//! checkpoints/latest.ot (+ .json)   the newest network, atomically replaced
//! checkpoints/step-NNNNNNN.ot       every checkpoint kept
//! resume.ot            everything needed to continue exactly: weights, Adam moments, replay
//!                      buffer, games in progress, random generators, counters
//! ```
//! Each iteration plays one move in every self-play game, stores the finished games'
//! positions, then takes as many training steps as `replay_ratio` allows. Everything that
//! decides the run's course is saved in `resume.ot`; wall-clock timers only decide *when* to
//! checkpoint or evaluate, which never changes the run's course, so a resumed run continues the
//! same run.

use crate::agent::{load_player, NetAgent};
use crate::checkpoint::{self, CheckpointMeta};
use crate::config::{Given, TrainConfig};
use crate::eval::{self, MatchResult};
use crate::logger::{metric, Logger};
use crate::net::Net;
use crate::replay::ReplayBuffer;
use crate::selfplay::SelfPlay;
use crate::shard::Shard;
use crate::trainer::{Losses, Trainer};
use anyhow::{bail, Context, Result};
use ayo_env::arena::tournament::MatchConfig;
use ayo_env::{Rules, Variant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tch::Tensor;

const STATE: &str = "__run_state__";

/// Counters of a run, carried over every resume.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Counters {
    /// Training samples consumed.
    pub samples: u64,
    /// Training samples owed to the replay ratio and not yet drawn.
    pub credit: f64,
    /// Evaluations done.
    pub evals: u64,
    /// Checkpoints written.
    pub checkpoints: u64,
    /// Wall time of the run before this session.
    pub wall_time_s: f64,
}

#[derive(Serialize, Deserialize)]
struct RunState {
    /// The run's configuration, of format `config_format` ([`crate::config::FORMAT`]).
    config: TrainConfig,
    /// Absent from the states of runs begun before the configuration had formats: 1.
    #[serde(default = "first_format")]
    config_format: u32,
    counters: Counters,
    step: u64,
    selfplay: SelfPlay,
    rng: ChaCha8Rng,
    /// A learner's consumed shards (see [`Run::learn`]).
    #[serde(default)]
    consumed: BTreeSet<String>,
}

/// What one iteration did.
#[derive(Clone, Debug, Default)]
pub struct Iteration {
    pub positions: usize,
    pub games: usize,
    pub evaluations: u64,
    pub train_steps: u64,
    /// Mean losses over the iteration's training steps.
    pub losses: Option<Losses>,
    pub selfplay_s: f64,
    pub train_s: f64,
    pub game_lengths: Vec<u32>,
}

fn first_format() -> u32 {
    1
}

/// Sums of the iterations since the last log line.
#[derive(Default)]
struct Window {
    start_wall: f64,
    positions: u64,
    games: u64,
    evaluations: u64,
    steps: u64,
    losses: Losses,
    length_sum: u64,
    selfplay_s: f64,
    train_s: f64,
}

/// A training run in its folder.
pub struct Run {
    pub cfg: TrainConfig,
    pub rules: Variant,
    pub dir: PathBuf,
    pub trainer: Trainer,
    pub selfplay: SelfPlay,
    pub buffer: ReplayBuffer,
    pub counters: Counters,
    /// The network's copy searching the second half of the self-play games (two threads).
    helper: Option<Net>,
    rng: ChaCha8Rng,
    /// A learner's shards whose positions are in the run (saved with the replay buffer they
    /// went into, so a resumed learner consumes every shard exactly once).
    pub consumed: BTreeSet<String>,
    logger: Option<Logger>,
    session_start: Instant,
    last_checkpoint: f64,
    last_eval: f64,
    window: Window,
}

impl Run {
    /// Starts a new run in `dir` (which must not hold a run already).
    pub fn create(cfg: TrainConfig, dir: &Path) -> Result<Run> {
        Run::create_from(cfg, dir, None)
    }

    /// Starts a new run in `dir` whose network starts from the weights of the checkpoint
    /// `init` (`ayo train --init`: trained for the same variant, of the same shape) instead of
    /// random ones; the optimizer, the replay buffer and the schedule start afresh. `None` is
    /// [`Run::create`].
    pub fn create_from(cfg: TrainConfig, dir: &Path, init: Option<&Path>) -> Result<Run> {
        cfg.validate()?;
        let rules = cfg.rules()?;
        let shape = cfg.net_shape()?;
        let device = crate::device::best_device();
        let start = init
            .map(|path| -> Result<Net> {
                let (net, _) = checkpoint::load_for(path, &rules, device)?;
                if net.shape != shape {
                    bail!(
                        "--init {}: the network is {}, the run's config asks for {}",
                        path.display(),
                        describe(&net.shape),
                        describe(&shape)
                    );
                }
                Ok(net)
            })
            .transpose()?;
        if dir.join("resume.ot").exists() {
            bail!(
                "{} already holds a run; continue it with --resume or choose another --out",
                dir.display()
            );
        }
        std::fs::create_dir_all(dir.join("checkpoints"))
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let mut toml = cfg.to_toml();
        if let Some(path) = init {
            toml.push_str(&format!(
                "# The network started from the weights of {} (--init).\n",
                path.display()
            ));
        }
        std::fs::write(dir.join("config.toml"), toml).context("cannot write config.toml")?;
        tch::manual_seed(cfg.seed as i64);
        let net = start.unwrap_or_else(|| Net::new(shape, device));
        let selfplay = SelfPlay::new(
            &rules,
            cfg.games,
            cfg.seed,
            cfg.varied_starts,
            cfg.opening_plies,
        );
        let buffer = ReplayBuffer::new(cfg.buffer_size, net.shape.inputs, rules.num_actions());
        Ok(Run {
            helper: helper_of(&net, &cfg)?,
            rng: ChaCha8Rng::seed_from_u64(cfg.seed ^ 0x5eed_ba7c),
            consumed: BTreeSet::new(),
            rules,
            dir: dir.to_path_buf(),
            trainer: Trainer::new(net).averaging(cfg.ema_decay),
            selfplay,
            buffer,
            counters: Counters::default(),
            logger: Some(Logger::open(dir)?),
            session_start: Instant::now(),
            last_checkpoint: 0.0,
            last_eval: 0.0,
            window: Window::default(),
            cfg,
        })
    }

    /// Continues the run saved in `dir` with its saved configuration, changed by the `given`
    /// settings that may change (see [`TrainConfig::resumed`]; others are refused).
    pub fn resume(dir: &Path, given: &Given) -> Result<Run> {
        let path = dir.join("resume.ot");
        let tensors = checkpoint::load_tensors(&path)?;
        let (net, _) = checkpoint::net_from_tensors(&tensors, &path, crate::device::best_device())?;
        let state_t = tensors
            .iter()
            .find(|(n, _)| n == STATE)
            .context("resume.ot has no run state")?;
        let bytes = Vec::<u8>::try_from(state_t.1.to_kind(tch::Kind::Uint8))?;
        let mut stored: serde_json::Value =
            serde_json::from_slice(&bytes).context("resume.ot: run state")?;
        let format = stored["config_format"].as_u64().unwrap_or(1) as u32;
        let saved = TrainConfig::from_stored(stored["config"].take(), format)?;
        stored["config"] = serde_json::to_value(saved)?;
        let mut state: RunState = serde_json::from_value(stored).context("resume.ot: run state")?;
        state.config = state.config.resumed(given)?;
        let cfg = state.config;
        let rules = cfg.rules()?;
        let helper = helper_of(&net, &cfg)?;
        let mut trainer = Trainer::new(net).averaging(cfg.ema_decay);
        trainer.step = state.step;
        trainer
            .load_optimizer(&tensors)
            .map_err(|k| anyhow::anyhow!("resume.ot: optimizer tensor {k} missing"))?;
        let buffer = ReplayBuffer::from_tensors(
            cfg.buffer_size,
            trainer.net.shape.inputs,
            rules.num_actions(),
            &tensors,
        )
        .context("resume.ot: replay buffer missing or misshapen")?;
        state.selfplay.restore(&rules);
        let wall = state.counters.wall_time_s;
        Ok(Run {
            helper,
            rules,
            dir: dir.to_path_buf(),
            trainer,
            selfplay: state.selfplay,
            buffer,
            counters: state.counters,
            rng: state.rng,
            consumed: state.consumed,
            logger: Some(Logger::open(dir)?),
            session_start: Instant::now(),
            last_checkpoint: wall,
            last_eval: wall,
            window: Window {
                start_wall: wall,
                ..Default::default()
            },
            cfg,
        })
    }

    /// Wall-clock seconds of the run, over every session.
    pub fn wall_time_s(&self) -> f64 {
        self.counters.wall_time_s + self.session_start.elapsed().as_secs_f64()
    }

    /// One move in every self-play game, then the training steps the replay ratio allows.
    pub fn iterate(&mut self) -> Iteration {
        let t0 = Instant::now();
        let report = self.selfplay.step(
            &self.rules,
            &self.trainer.net,
            self.helper.as_mut(),
            &self.cfg,
        );
        for s in &report.samples {
            self.buffer.push(s);
        }
        let selfplay_s = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let mut it = Iteration {
            positions: report.positions,
            games: report.game_lengths.len(),
            evaluations: report.evaluations,
            selfplay_s,
            game_lengths: report.game_lengths,
            ..Default::default()
        };
        (it.train_steps, it.losses) = self.train_on_new(report.positions);
        if it.train_steps > 0 {
            if let Some(h) = &mut self.helper {
                h.copy_from(&self.trainer.net).expect("same shape");
            }
        }
        it.train_s = t1.elapsed().as_secs_f64();
        self.account(&it);
        it
    }

    /// A learner's step: the positions of the shard `name` (played by workers) join the replay
    /// buffer, they count as new positions for the replay ratio (which caps the training steps
    /// per new position, however fast or slow the workers are), and the steps owed are taken.
    pub fn learn(&mut self, name: &str, shard: &Shard) -> Iteration {
        let t = Instant::now();
        for s in &shard.samples {
            self.buffer.push(s);
        }
        self.consumed.insert(name.to_string());
        self.selfplay.games += shard.games as u64;
        self.selfplay.positions += shard.samples.len() as u64;
        let mut it = Iteration {
            positions: shard.samples.len(),
            games: shard.games as usize,
            ..Default::default()
        };
        (it.train_steps, it.losses) = self.train_on_new(shard.samples.len());
        it.train_s = t.elapsed().as_secs_f64();
        self.account(&it);
        it
    }

    /// Credits `positions` new positions (once the buffer holds `min_buffer`) and takes the
    /// training steps the replay ratio owes, with `train_threads` torch threads (self-play is
    /// paused: training may use both cores).
    fn train_on_new(&mut self, positions: usize) -> (u64, Option<Losses>) {
        if self.buffer.len() < self.cfg.min_buffer.max(1) {
            return (0, None);
        }
        self.counters.credit += positions as f64 * self.cfg.replay_ratio;
        tch::set_num_threads(self.cfg.train_threads as i32);
        let trained = train_owed(
            &mut self.trainer,
            &self.buffer,
            &mut self.rng,
            &mut self.counters,
            &self.cfg,
        );
        tch::set_num_threads(self.cfg.threads as i32);
        trained
    }

    fn account(&mut self, it: &Iteration) {
        let w = &mut self.window;
        w.positions += it.positions as u64;
        w.games += it.games as u64;
        w.evaluations += it.evaluations;
        w.length_sum += it.game_lengths.iter().map(|&l| l as u64).sum::<u64>();
        w.selfplay_s += it.selfplay_s;
        w.train_s += it.train_s;
        if let Some(l) = it.losses {
            w.losses = add(w.losses, scale(l, it.train_steps as f64));
            w.steps += it.train_steps;
        }
    }

    /// Writes the scalars gathered since the last call to the logs, and returns them.
    pub fn log_window(&mut self) -> Vec<(String, f64)> {
        let wall = self.wall_time_s();
        let w = std::mem::take(&mut self.window);
        self.window.start_wall = wall;
        let dt = (wall - w.start_wall).max(1e-9);
        let mut s: Vec<(String, f64)> = vec![
            (metric::POSITIONS_PER_S.into(), w.positions as f64 / dt),
            (metric::GAMES_PER_S.into(), w.games as f64 / dt),
            (metric::EVALUATIONS_PER_S.into(), w.evaluations as f64 / dt),
            (
                metric::SAMPLES_PER_S.into(),
                (w.steps * self.cfg.batch_size as u64) as f64 / dt,
            ),
            (
                metric::SELFPLAY_FRACTION.into(),
                w.selfplay_s / (w.selfplay_s + w.train_s).max(1e-9),
            ),
            (metric::GAMES.into(), self.selfplay.games as f64),
            (metric::POSITIONS.into(), self.selfplay.positions as f64),
            (metric::TRAIN_STEPS.into(), self.trainer.step as f64),
            (metric::BUFFER_SIZE.into(), self.buffer.len() as f64),
        ];
        if w.games > 0 {
            s.push((
                metric::GAME_LENGTH.into(),
                w.length_sum as f64 / w.games as f64,
            ));
        }
        if w.steps > 0 {
            let l = scale(w.losses, 1.0 / w.steps as f64);
            s.extend([
                (metric::LOSS_POLICY.into(), l.policy),
                (metric::LOSS_VALUE.into(), l.value),
                (metric::LOSS_SCORE.into(), l.score),
                (metric::LOSS_TOTAL.into(), l.total),
                (metric::POLICY_ENTROPY.into(), l.entropy),
                (metric::LEARNING_RATE.into(), l.lr),
            ]);
        }
        self.log(&s);
        s
    }

    fn log(&mut self, scalars: &[(String, f64)]) {
        let (step, wall) = (self.selfplay.positions, self.wall_time_s());
        if let Some(l) = &mut self.logger {
            l.log(step, wall, scalars);
        }
    }

    /// The metadata of a checkpoint of the run now.
    pub fn meta(&self) -> CheckpointMeta {
        CheckpointMeta {
            format: checkpoint::FORMAT,
            variant: self.rules.id(),
            options: self.rules.options(),
            shape: self.trainer.net.shape,
            config: self.cfg.clone(),
            step: self.trainer.step,
            wall_time_s: self.wall_time_s(),
            games: self.selfplay.games,
            positions: self.selfplay.positions,
            samples: self.counters.samples,
        }
    }

    /// Writes the network (`checkpoints/latest.ot` and a numbered copy: the weights' average
    /// with `ema_decay`) and everything needed to resume (`resume.ot`: the trained weights,
    /// the optimiser's state and the average), each atomically. Returns the numbered checkpoint's path.
    pub fn save(&mut self) -> Result<PathBuf> {
        let meta = self.meta();
        let ckpt_dir = self.dir.join("checkpoints");
        let numbered = ckpt_dir.join(format!("step-{:07}.ot", self.trainer.step));
        let saved = self.trainer.saved_net();
        checkpoint::save(saved, &meta, &numbered)?;
        checkpoint::save(saved, &meta, &ckpt_dir.join("latest.ot"))?;
        let mut counters = self.counters.clone();
        counters.wall_time_s = meta.wall_time_s;
        counters.checkpoints += 1;
        let state = serde_json::json!({
            "config": &self.cfg,
            "config_format": crate::config::FORMAT,
            "counters": counters,
            "step": self.trainer.step,
            "selfplay": &self.selfplay,
            "rng": &self.rng,
            "consumed": &self.consumed,
        });
        let mut tensors = checkpoint::net_tensors(&self.trainer.net, &meta);
        tensors.extend(self.trainer.optimizer_tensors());
        tensors.extend(self.buffer.to_tensors());
        tensors.push((
            STATE.into(),
            Tensor::from_slice(&serde_json::to_vec(&state)?),
        ));
        checkpoint::save_tensors_atomic(&tensors, &self.dir.join("resume.ot"))?;
        let status = serde_json::json!({
            "step": self.trainer.step,
            "games": self.selfplay.games,
            "positions": self.selfplay.positions,
            "samples": counters.samples,
            "consumed": &self.consumed,
        });
        checkpoint::write_atomic(&self.dir.join("status.json"), &status.to_string())?;
        self.counters.checkpoints += 1;
        self.last_checkpoint = self.wall_time_s();
        Ok(numbered)
    }

    /// Plays the current network as checkpointed (with `eval_simulations`) against the baseline agent, logs
    /// `eval/win_rate_vs_<agent>` and `eval/score_vs_<agent>`, and returns the result.
    pub fn evaluate(&mut self) -> Result<MatchResult> {
        let seed = self
            .cfg
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(self.counters.evals);
        let net = self.trainer.saved_net().duplicate()?;
        let mut me = NetAgent::from_net(net, self.cfg.eval_simulations, seed);
        me.params = self.cfg.eval_search_params();
        let baseline = load_player(
            &self.cfg.eval_agent,
            &self.rules,
            self.cfg.eval_simulations,
            seed,
        )?;
        let match_config = MatchConfig {
            seed,
            ..self.cfg.eval_match_config()
        };
        let r = eval::play_match(
            &self.rules,
            Box::new(me),
            baseline,
            self.cfg.eval_games,
            &match_config,
        )?;
        self.counters.evals += 1;
        self.last_eval = self.wall_time_s();
        let name = &self.cfg.eval_agent;
        self.log(&[
            (metric::eval_win_rate(name), r.win_rate()),
            (metric::eval_score(name), r.score()),
            (metric::EVAL_TRAIN_STEPS.into(), self.trainer.step as f64),
        ]);
        Ok(r)
    }

    /// Whether a checkpoint is due by the wall clock.
    pub fn checkpoint_due(&self) -> bool {
        self.wall_time_s() - self.last_checkpoint >= self.cfg.checkpoint_every_s
    }

    /// Whether an evaluation is due by the wall clock.
    pub fn eval_due(&self) -> bool {
        self.cfg.eval_every_s > 0.0
            && self.cfg.eval_games > 0
            && self.trainer.step > 0
            && self.wall_time_s() - self.last_eval >= self.cfg.eval_every_s
    }

    /// Turns the logs off (tests).
    pub fn quiet(&mut self) {
        self.logger = None;
    }
}

/// A network's trunk and input as a config writes them.
fn describe(shape: &crate::net::NetShape) -> String {
    format!(
        "width = {}, blocks = {}, input_levels = {}, lookahead = {}",
        shape.width, shape.blocks, shape.levels, shape.lookahead
    )
}

/// A copy of `net` for the second self-play thread, when the config asks for two.
pub(crate) fn helper_of(net: &Net, cfg: &TrainConfig) -> Result<Option<Net>> {
    if cfg.selfplay_threads < 2 {
        return Ok(None);
    }
    Ok(Some(net.duplicate()?))
}

/// Takes the training steps the replay ratio owes: whole batches of `counters.credit`.
/// Returns the number of steps and their mean losses.
fn train_owed(
    trainer: &mut Trainer,
    buffer: &ReplayBuffer,
    rng: &mut ChaCha8Rng,
    counters: &mut Counters,
    cfg: &TrainConfig,
) -> (u64, Option<Losses>) {
    let device = trainer.net.vs.device();
    let (mut steps, mut sum) = (0u64, Losses::default());
    while counters.credit >= cfg.batch_size as f64 {
        let batch = buffer.sample(cfg.batch_size, rng, device);
        sum = add(sum, trainer.train_step(&batch, cfg));
        counters.credit -= cfg.batch_size as f64;
        counters.samples += cfg.batch_size as u64;
        steps += 1;
    }
    (steps, (steps > 0).then(|| scale(sum, 1.0 / steps as f64)))
}

fn add(a: Losses, b: Losses) -> Losses {
    Losses {
        policy: a.policy + b.policy,
        value: a.value + b.value,
        score: a.score + b.score,
        total: a.total + b.total,
        entropy: a.entropy + b.entropy,
        lr: a.lr + b.lr,
    }
}

fn scale(a: Losses, k: f64) -> Losses {
    Losses {
        policy: a.policy * k,
        value: a.value * k,
        score: a.score * k,
        total: a.total * k,
        entropy: a.entropy * k,
        lr: a.lr * k,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ayo_env::VARIANT_NAMES;

    fn tiny(variant: &str) -> TrainConfig {
        TrainConfig {
            variant: variant.into(),
            width: 16,
            blocks: 1,
            simulations: 4,
            fast_simulations: 2,
            full_search_prob: 0.5,
            games: 4,
            sample_plies: 2,
            max_plies: 40,
            buffer_size: 512,
            min_buffer: 32,
            batch_size: 16,
            replay_ratio: 2.0,
            warmup_steps: 2,
            eval_games: 2,
            eval_simulations: 2,
            threads: 1,
            seed: 3,
            ..Default::default()
        }
    }

    #[test]
    fn smoke_training_run_of_every_variant() {
        for &name in VARIANT_NAMES {
            let dir = tempfile::tempdir().unwrap();
            let mut run = Run::create(tiny(name), dir.path()).unwrap();
            for _ in 0..60 {
                run.iterate();
            }
            run.log_window();
            assert!(run.trainer.step > 0, "{name}: no training step");
            assert!(run.selfplay.games > 0, "{name}: no game finished");
            let r = run.evaluate().unwrap();
            assert_eq!(r.games(), 2);
            let path = run.save().unwrap();
            let agent = NetAgent::load(&path, 2, 0).unwrap();
            agent.check_rules(&run.rules).unwrap();
            let log = std::fs::read_to_string(dir.path().join("train.jsonl")).unwrap();
            assert!(
                log.contains("losses/policy") && log.contains("eval/win_rate_vs_random"),
                "{name}: {log}"
            );
        }
    }

    fn outputs(run: &Run) -> Vec<f32> {
        net_outputs(&run.trainer.net)
    }

    fn net_outputs(net: &Net) -> Vec<f32> {
        let x =
            Tensor::linspace(0.0, 1.0, 3 * 14, (tch::Kind::Float, tch::Device::Cpu)).view([3, 14]);
        let out = tch::no_grad(|| net.forward(&x));
        Vec::try_from(Tensor::cat(
            &[out.logits.flatten(0, -1), out.value, out.score],
            0,
        ))
        .unwrap()
    }

    #[test]
    fn resume_continues_the_same_run() {
        resumes_exactly(tiny("oware"));
    }

    #[test]
    fn a_run_averaging_its_weights_checkpoints_the_average_and_resumes_exactly() {
        let cfg = TrainConfig {
            ema_decay: 0.9,
            ..tiny("oware")
        };
        resumes_exactly(cfg.clone());
        let dir = tempfile::tempdir().unwrap();
        let mut run = Run::create(cfg, dir.path()).unwrap();
        run.quiet();
        for _ in 0..120 {
            run.iterate();
        }
        assert!(run.trainer.step > 20, "{}", run.trainer.step);
        let path = run.save().unwrap();
        let (saved, _) = checkpoint::load(&path, tch::Device::Cpu).unwrap();
        let (average, trained) = (
            net_outputs(run.trainer.saved_net()),
            net_outputs(&run.trainer.net),
        );
        assert_eq!(
            net_outputs(&saved),
            average,
            "the checkpoint holds the average"
        );
        let apart = average.iter().zip(&trained).map(|(a, w)| (a - w).abs());
        assert!(
            apart.fold(0.0, f32::max) > 1e-4,
            "the average lags the weights"
        );
        // resume.ot holds the trained weights.
        let resumed = Run::resume(dir.path(), &Given::new()).unwrap();
        assert_eq!(outputs(&resumed), trained);
    }

    fn resumes_exactly(cfg: TrainConfig) {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let mut start = Run::create(cfg, a.path()).unwrap();
        start.quiet();
        start.save().unwrap();
        std::fs::copy(a.path().join("resume.ot"), b.path().join("resume.ot")).unwrap();

        // Straight through: 120 iterations.
        let mut straight = Run::resume(a.path(), &Given::new()).unwrap();
        straight.quiet();
        for _ in 0..120 {
            straight.iterate();
        }
        // Interrupted after 60 iterations, saved, resumed, 60 more.
        let mut first = Run::resume(b.path(), &Given::new()).unwrap();
        first.quiet();
        for _ in 0..60 {
            first.iterate();
        }
        first.save().unwrap();
        let steps_at_save = first.trainer.step;
        drop(first);
        let mut second = Run::resume(b.path(), &Given::new()).unwrap();
        second.quiet();
        assert_eq!(second.trainer.step, steps_at_save);
        for _ in 0..60 {
            second.iterate();
        }

        assert!(
            straight.trainer.step > steps_at_save && steps_at_save > 0,
            "training happened on both sides"
        );
        assert_eq!(second.trainer.step, straight.trainer.step, "step counter");
        assert_eq!(second.selfplay.games, straight.selfplay.games);
        assert_eq!(second.selfplay.positions, straight.selfplay.positions);
        assert_eq!(second.buffer.added, straight.buffer.added, "replay buffer");
        assert_eq!(
            (second.counters.samples, second.counters.credit),
            (straight.counters.samples, straight.counters.credit)
        );
        let (x, y) = (outputs(&second), outputs(&straight));
        for (p, q) in x.iter().zip(&y) {
            assert!((p - q).abs() < 1e-5, "weights differ: {x:?} vs {y:?}");
        }
        let (ox, oy) = (
            second.trainer.optimizer_tensors(),
            straight.trainer.optimizer_tensors(),
        );
        for ((n, p), (_, q)) in ox.iter().zip(&oy) {
            assert!(
                p.allclose(q, 1e-5, 1e-7, false),
                "optimizer state {n} differs"
            );
        }
    }

    #[test]
    fn a_run_started_from_a_checkpoint_starts_with_its_weights_and_refuses_another_shape() {
        let trained = tempfile::tempdir().unwrap();
        let mut first = Run::create(tiny("oware"), trained.path()).unwrap();
        for _ in 0..40 {
            first.iterate();
        }
        let path = first.save().unwrap();
        let weights = outputs(&first);
        let fresh = tempfile::tempdir().unwrap();
        let mut cfg = tiny("oware");
        cfg.seed += 1;
        let from = Run::create_from(cfg.clone(), fresh.path(), Some(&path)).unwrap();
        assert_eq!(net_outputs(&from.trainer.net), weights);
        assert_eq!(from.trainer.step, 0, "the schedule starts afresh");
        let config = std::fs::read_to_string(fresh.path().join("config.toml")).unwrap();
        assert!(config.contains("(--init)"), "{config}");
        // Without --init the same config starts elsewhere.
        let other = tempfile::tempdir().unwrap();
        let random = Run::create(cfg.clone(), other.path()).unwrap();
        assert_ne!(outputs(&random), weights);
        // Another width, or another variant: refused, naming both, and no folder is made.
        let wider = TrainConfig {
            width: cfg.width * 2,
            ..cfg.clone()
        };
        let nowhere = fresh.path().join("wider");
        let e = Run::create_from(wider, &nowhere, Some(&path))
            .err()
            .unwrap()
            .to_string();
        let widths = (
            format!("width = {}", cfg.width),
            format!("width = {}", cfg.width * 2),
        );
        assert!(e.contains(&widths.0) && e.contains(&widths.1), "{e}");
        assert!(!nowhere.exists());
        let e = Run::create_from(tiny("ayo"), &nowhere, Some(&path))
            .err()
            .map(|e| format!("{e:#}"))
            .unwrap();
        assert!(e.contains("oware") && e.contains("ayo"), "{e}");
        assert!(!nowhere.exists());
    }

    #[test]
    fn a_new_run_refuses_a_folder_holding_a_run() {
        let dir = tempfile::tempdir().unwrap();
        let mut run = Run::create(tiny("oware"), dir.path()).unwrap();
        run.save().unwrap();
        let e = Run::create(tiny("oware"), dir.path())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("--resume"), "{e}");
    }
}
