//! The one training configuration: a TOML file merged with command-line flags (flags win),
//! unknown keys refused, validated once, written into the run folder and into every checkpoint.
//!
//! ```
//! use ayo_train::config::TrainConfig;
//! let c = TrainConfig::from_toml("variant = \"oware\"\nsimulations = 16\n").unwrap();
//! assert_eq!(c.simulations, 16);
//! assert!(TrainConfig::from_toml("simulatons = 16").is_err());
//! ```

use crate::search::SearchParams;
use ayo_env::{Rules, Variant};
use clap::Parser;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Everything that decides a training run.
#[derive(clap::Args, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Variant to train (`name` or `name@version`).
    #[arg(long, default_value = "oware")]
    pub variant: String,
    /// Variant options as `key=value,key=value`.
    #[arg(long, default_value = "")]
    pub options: String,

    /// Width of the network's residual trunk.
    #[arg(long, default_value_t = 128)]
    pub width: usize,
    /// Number of residual blocks.
    #[arg(long, default_value_t = 2)]
    pub blocks: usize,
    /// Thermometer levels of the network's input: each observation entry `x` also enters as
    /// `clamp(4x - k, 0, 1)` for `k < input_levels` ("more than k seeds" for a pit); 0 = off.
    #[arg(long, default_value_t = 12)]
    pub input_levels: usize,
    /// Plies of look-ahead features the network gets beside the observation
    /// ([`ayo_env::input`]): 0 none; 1 what each legal move gains by the baseline heuristic (in
    /// the fours games: by what the round would give if it ended now), and in `yao` what each
    /// of the opponent's moves would gain him (one ply of search the network need not learn;
    /// costs a ply of play per legal move at every evaluation); 2 also what each move gains
    /// once the best answer to it is counted (a second ply: a ply of play per answer); 3 also
    /// what it gains once the mover's best reply to that answer is counted (a third ply).
    /// `--lookahead` alone is 1; configs may write `true` for 1.
    #[arg(long, default_value_t = 0, num_args = 0..=1, default_missing_value = "1",
          value_parser = ayo_env::input::parse_lookahead)]
    #[serde(deserialize_with = "ayo_env::input::deserialize_lookahead")]
    pub lookahead: u8,

    /// Simulations per move of a full search in self-play.
    #[arg(long, default_value_t = 32)]
    pub simulations: u32,
    /// Playout-cap randomisation: simulations of a cheap search (0 = every search is full).
    #[arg(long, default_value_t = 0)]
    pub fast_simulations: u32,
    /// Playout-cap randomisation: probability that a move gets a full search (only those become
    /// policy targets).
    #[arg(long, default_value_t = 1.0)]
    pub full_search_prob: f64,
    /// Most root actions considered by sequential halving.
    #[arg(long, default_value_t = 16)]
    pub max_considered: usize,
    /// Scale of the root Gumbel noise in self-play.
    #[arg(long, default_value_t = 1.0)]
    pub gumbel_scale: f32,
    /// `c_visit` of the completed-Q sigma transform.
    #[arg(long, default_value_t = 50.0)]
    pub c_visit: f32,
    /// `c_scale` of the completed-Q sigma transform.
    #[arg(long, default_value_t = 0.1)]
    pub c_scale: f32,
    /// Min-max rescale completed Q per node before the sigma transform.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub rescale: bool,

    /// Self-play games played at once (their leaves share one forward pass).
    #[arg(long, default_value_t = 256)]
    pub games: usize,
    /// Plies at the start of each game whose move is sampled from the improved policy
    /// (afterwards the search's choice is played).
    #[arg(long, default_value_t = 8)]
    pub sample_plies: u32,
    /// Each self-play game begins with a number of uniformly random plies drawn from
    /// `0..=opening_plies` (no training positions for them), so that self-play meets the
    /// positions evaluation's random openings lead to rather than a few lines from the start.
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// Share of the new self-play games that branch off a finished one (KataGo's side
    /// positions): they begin at its position after a uniformly drawn number of its plies,
    /// then play one uniformly random ply (no training positions for either) and go on as any
    /// game (its first `sample_plies` moves sampled), so that self-play also meets middle games
    /// just after a mistake, where one side is behind, that its own lines rarely reach.
    #[arg(long, default_value_t = 0.0)]
    pub branch_share: f64,
    /// Start half the self-play games of round-based variants (`episode = round`: ncho, adi,
    /// jerin) at a later round with unequal house ownership, so later rounds are learned too
    /// (other variants always start at the start).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub varied_starts: bool,
    /// Baseline agents, comma-separated (`alphabeta:4,alphabeta:6`; see `ayo tournament`),
    /// that take one seat of a share of the self-play games (`opponent_share`): the network
    /// then learns the value of positions against an opponent that punishes what its own
    /// search does not see. Only the network's decisions become training positions.
    #[arg(long, default_value = "")]
    pub opponents: String,
    /// Share of the new self-play games in which one of `opponents` (drawn uniformly) takes a
    /// random seat (0 = pure self-play).
    #[arg(long, default_value_t = 0.0)]
    pub opponent_share: f64,
    /// A baseline agent (`alphabeta:10`; see `ayo tournament`) whose move becomes the policy
    /// target of a share of the network's self-play decisions (`teacher_share`): the network
    /// learns to propose what a deeper classic search plays (expert iteration with a fixed
    /// expert); the games still follow the network's own moves. Empty: none.
    #[arg(long, default_value = "")]
    pub teacher: String,
    /// Share of the network's self-play decisions whose policy target is `teacher`'s move, one-hot
    /// (such a decision trains the policy even where its own search was a fast one).
    #[arg(long, default_value_t = 0.0)]
    pub teacher_share: f64,
    /// The teacher works on a thread of its own (the second core, beside one self-play thread)
    /// instead of inside self-play: `teacher_share` of the network's decisions are offered to it
    /// (those it has no time for are skipped), self-play goes on at its own speed with its own
    /// targets, and each position the teacher has labelled enters the replay buffer as one more
    /// sample, its move the policy target, with no value or score target. Which positions get
    /// labelled depends on timing, so such a run does not resume exactly.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    pub teacher_async: bool,
    /// Plies after which a self-play game is cut (its positions get no value target, unless
    /// `cut_draw`).
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// A self-play game cut by `max_plies` gives value targets as a draw (result 0; the target
    /// is then `value_target_q` × the search's root value) instead of none, as the evaluation
    /// scores a cut match. A network that stops ending its games (some of jerin's whole-match
    /// runs drifted to 300-600-ply matches) then learns that a lead held forever is worth no
    /// more than a draw. Off: a cut game gives no value targets.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    #[serde(skip_serializing_if = "is_false")]
    pub cut_draw: bool,

    /// Replay buffer capacity in positions.
    #[arg(long, default_value_t = 200_000)]
    pub buffer_size: usize,
    /// Positions in the buffer before training starts.
    #[arg(long, default_value_t = 4096)]
    pub min_buffer: usize,
    /// Minibatch size.
    #[arg(long, default_value_t = 512)]
    pub batch_size: usize,
    /// Training samples drawn per new self-play position.
    #[arg(long, default_value_t = 2.0)]
    pub replay_ratio: f64,
    /// Peak learning rate (Adam).
    #[arg(long, default_value_t = 2e-3)]
    pub lr: f64,
    /// Final learning rate of the cosine decay.
    #[arg(long, default_value_t = 2e-4)]
    pub lr_min: f64,
    /// Linear warm-up, in training steps.
    #[arg(long, default_value_t = 100)]
    pub warmup_steps: u64,
    /// Training steps over which the learning rate decays from `lr` to `lr_min` (0 = constant).
    #[arg(long, default_value_t = 0)]
    pub decay_steps: u64,
    /// Minutes of training (the run's wall time, over all its sessions) over which the learning
    /// rate decays from `lr` to `lr_min`, instead of `decay_steps`: the same schedule whatever
    /// the machine's speed (0 = by steps).
    #[arg(long, default_value_t = 0.0)]
    pub decay_minutes: f64,
    /// Decoupled weight decay (AdamW).
    #[arg(long, default_value_t = 1e-4)]
    pub weight_decay: f64,
    /// Checkpoints hold an exponential moving average of the trained weights (what evaluation,
    /// play and tournaments load): after training step `t` the average moves towards the
    /// weights by `1 − d`, with `d = min(ema_decay, (1 + t) / (10 + t))`. Self-play goes on
    /// with the trained weights, and a resumed run continues the average exactly. 0 = off:
    /// checkpoints hold the trained weights.
    #[arg(long, default_value_t = 0.0)]
    pub ema_decay: f64,
    /// Weight of the value loss.
    #[arg(long, default_value_t = 1.0)]
    pub value_weight: f64,
    /// Weight of the auxiliary final-score loss.
    #[arg(long, default_value_t = 0.5)]
    pub score_weight: f64,
    /// Share of the search's root value in the value target: the target is
    /// `(1 - q) · result + q · root value` (0 = the game's result only). The root value is less
    /// noisy than one game's result, the result unbiased.
    #[arg(long, default_value_t = 0.0)]
    pub value_target_q: f64,
    /// Factor per ply by which the game's result counts in the value target of a decision made
    /// that many plies before the end: `result · discount^(plies to the end − 1)` (1 = the
    /// result as it is). Below 1 a win reached sooner is worth more than one put off, so the
    /// network learns to end a whole match instead of holding a lead (the fours games).
    #[arg(long, default_value_t = 1.0)]
    pub value_discount: f64,
    /// Share of the self-play games of a variant played in rounds (whole matches of `ncho`,
    /// `adi`, `jerin`) that end with the round they begin in, valued by that round: the sign of
    /// the houses each player won over the other (0 = every game is played to its end). More
    /// of the training positions lie in first rounds, which decide most matches.
    #[arg(long, default_value_t = 0.0)]
    pub round_share: f64,
    /// The score head's target in whole matches of the fours games: each decision's own round
    /// (the houses each player won in it over the other, over 24: 7 to 5 is 1/12) instead of
    /// the match's last round, which only repeats the match's result. A search with score
    /// utility then still fights for houses in a round it is losing.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    #[serde(skip_serializing_if = "is_false")]
    pub round_score: bool,
    /// Weight of the score head beside the value in self-play's search (KataGo's score utility,
    /// [`SearchParams::score_utility`]): its policy targets then prefer the larger margin where
    /// the result is alike. The value targets stay results. 0 = the value alone.
    #[arg(long, default_value_t = 0.0)]
    #[serde(skip_serializing_if = "is_zero")]
    pub score_utility: f32,

    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 120.0)]
    pub checkpoint_every_s: f64,
    /// Seconds between evaluations against the baseline (0 = never).
    #[arg(long, default_value_t = 300.0)]
    pub eval_every_s: f64,
    /// Baseline agent of the periodic evaluation, e.g. `random`, `greedy`, `mcts:200`.
    #[arg(long, default_value = "random")]
    pub eval_agent: String,
    /// Games per evaluation (half in each seat).
    #[arg(long, default_value_t = 64)]
    pub eval_games: usize,
    /// Simulations per move of the network in evaluation games.
    #[arg(long, default_value_t = 32)]
    pub eval_simulations: u32,
    /// Scale of the root Gumbel noise in evaluation games: 0 plays the search's best move
    /// (strongest), 1 samples like self-play.
    #[arg(long, default_value_t = 0.0)]
    pub eval_gumbel_scale: f32,
    /// Actions the Gumbel root considers in evaluation games: 0 = `max_considered`, as in
    /// self-play; fewer trusts the policy more, more searches wider.
    #[arg(long, default_value_t = 0)]
    pub eval_max_considered: usize,
    /// `c_scale` of the sigma transform in evaluation games: 0 = `c_scale`, as in self-play;
    /// more weighs the search's action values more against the network's policy when the
    /// move is chosen.
    #[arg(long, default_value_t = 0.0)]
    pub eval_c_scale: f32,
    /// Whether evaluation games min-max rescale the search's action values per node before the
    /// sigma transform (`rescale`); unset = as in self-play. With `eval_c_scale` it plays a
    /// network trained one way with the other's search, which separates what a setting did to
    /// training from what it does to play.
    #[arg(long)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval_rescale: Option<bool>,
    /// Weight of the network's score head beside its value when evaluation games pick a move
    /// (KataGo's score utility, [`SearchParams::score_utility`]): the search maximises value +
    /// weight × score (the final seed difference over half the seeds), so a decided position is
    /// still played for seeds. 0 = the value alone, as in self-play.
    #[arg(long, default_value_t = 0.0)]
    #[serde(skip_serializing_if = "is_zero")]
    pub eval_score_utility: f32,
    /// Random plies that open each pair of evaluation games (the same opening for both games
    /// of a pair, one per seat), so that a deterministic network plays different games.
    #[arg(long, default_value_t = 4)]
    pub eval_opening_plies: u32,
    /// Evaluation games begin at the variant's varied starts, as self-play does (for the
    /// round-based variants, half of them a later round with unequal house ownership).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub eval_varied_starts: bool,

    /// Self-play threads: 2 searches the two halves of the games at once, each with its own copy
    /// of the network (both cores busy), 1 searches them all on one thread.
    #[arg(long, default_value_t = 2)]
    pub selfplay_threads: usize,
    /// Overlap self-play and training: a trainer thread takes the training steps the replay
    /// ratio owes for the positions of the previous move while the self-play threads play the
    /// next move with a copy of the network (refreshed after every move). The run's course is
    /// as reproducible as without (the trainer reads the replay buffer as it was before the
    /// move; the new positions join it after), and it resumes exactly.
    #[arg(long, default_value_t = false, action = clap::ArgAction::Set)]
    pub overlap: bool,
    /// Distributed runs: positions a self-play worker (`ayo selfplay`) writes per shard.
    #[arg(long, default_value_t = 4096)]
    pub shard_positions: usize,
    /// Distributed runs: training steps of the learner (`ayo train --learner`) between the
    /// networks it publishes to the workers.
    #[arg(long, default_value_t = 100)]
    pub publish_every_steps: u64,
    /// Threads of torch's intra-op pool. 1 is fastest for these small networks on a busy
    /// machine (OpenMP threads spin-wait when the cores are oversubscribed).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Threads of torch's intra-op pool while training on a minibatch (self-play is paused
    /// then). 2 trains about 1.3x faster on an idle 2-core machine, but its OpenMP threads
    /// spin-wait and crawl as soon as another process wants a core.
    #[arg(long, default_value_t = 1)]
    pub train_threads: usize,
    /// Seed of every random choice of the run.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

#[derive(Parser)]
struct Defaults {
    #[command(flatten)]
    config: TrainConfig,
}

impl Default for TrainConfig {
    fn default() -> Self {
        Defaults::parse_from(["ayo"]).config
    }
}

fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

fn is_false(x: &bool) -> bool {
    !x
}

/// Settings given by a config file or by flags, by key.
pub type Given = serde_json::Map<String, serde_json::Value>;

/// How a trained network plays (the root of its search in evaluation games, tournaments,
/// `play`, `engine`, `serve`): settings a checkpoint carries that do not touch its weights, so
/// `ayo checkpoint --out` may write a copy with others.
pub const PLAY: &[&str] = &[
    "eval_gumbel_scale",
    "eval_max_considered",
    "eval_c_scale",
    "eval_rescale",
    "eval_score_utility",
];

/// The settings a resumed run may change besides the play settings ([`PLAY`]): when to
/// checkpoint, how it is evaluated, how many torch threads it uses. Every other setting decides
/// what the run computes.
pub const RESUMABLE: &[&str] = &[
    "checkpoint_every_s",
    "eval_every_s",
    "eval_agent",
    "eval_games",
    "eval_simulations",
    "eval_opening_plies",
    "eval_varied_starts",
    "threads",
    "train_threads",
    "publish_every_steps",
];

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("config is not valid TOML for a training run: {0}")]
    Toml(String),
    #[error("config key {key} = {value}: expected {expected}")]
    Invalid {
        key: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("--resume: {key} = {given} would change the run, which was trained with {key} = {saved}; only {resumable}, {play} may change when a run resumes", resumable = RESUMABLE.join(", "), play = PLAY.join(", "))]
    ChangesRun {
        key: String,
        saved: String,
        given: String,
    },
    #[error("config variant: {0}")]
    Variant(#[from] ayo_env::ParseError),
    #[error("{key} is not a play setting of a checkpoint (expected one of {})", PLAY.join(", "))]
    NotPlay { key: String },
}

/// The configuration tuned for each variant, `experiments/<variant>.toml`, built into the
/// binary: `ayo train --variant V` without `--config` trains with V's (flags still win), so the
/// main job of every variant starts from the settings its shipped network was trained with.
const TUNED: [(&str, &str); 8] = [
    ("oware", include_str!("../../experiments/oware.toml")),
    ("ayo", include_str!("../../experiments/ayo.toml")),
    ("ayoayo", include_str!("../../experiments/ayoayo.toml")),
    ("ncho", include_str!("../../experiments/ncho.toml")),
    ("adi", include_str!("../../experiments/adi.toml")),
    ("jerin", include_str!("../../experiments/jerin.toml")),
    ("jodu", include_str!("../../experiments/jodu.toml")),
    ("yao", include_str!("../../experiments/yao.toml")),
];

/// The tuned configuration (TOML text, `experiments/<name>.toml`) of the variant `spec`
/// (`name` or `name@version`); `None` for a name without one.
pub fn tuned(spec: &str) -> Option<&'static str> {
    let name = spec.split('@').next().unwrap_or(spec);
    TUNED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

impl TrainConfig {
    /// Parses a TOML text; missing keys take their defaults, unknown keys are refused.
    pub fn from_toml(text: &str) -> Result<TrainConfig, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))
    }

    /// The settings given for a run: every key of the file `path` (if any), then the flags
    /// given explicitly on the command line (`explicit(field)` is true), which win. The file is
    /// checked whole (unknown keys and wrong types are refused).
    pub fn given(
        path: Option<&Path>,
        flags: &TrainConfig,
        explicit: impl Fn(&str) -> bool,
    ) -> Result<Given, ConfigError> {
        let text = match path {
            Some(p) => Some(
                std::fs::read_to_string(p).map_err(|source| ConfigError::Read {
                    path: p.display().to_string(),
                    source,
                })?,
            ),
            None => None,
        };
        TrainConfig::given_text(text.as_deref(), flags, explicit)
    }

    /// [`TrainConfig::given`] with the file's text (a tuned config, [`tuned`]) instead of its path.
    pub fn given_text(
        text: Option<&str>,
        flags: &TrainConfig,
        explicit: impl Fn(&str) -> bool,
    ) -> Result<Given, ConfigError> {
        let mut given = Given::new();
        if let Some(text) = text {
            TrainConfig::from_toml(text)?;
            let table: toml::Table =
                toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))?;
            for (key, value) in table {
                given.insert(key, serde_json::to_value(value).expect("TOML is JSON-like"));
            }
        }
        let flags = serde_json::to_value(flags).expect("config serialises");
        for (key, value) in flags.as_object().expect("a struct") {
            if explicit(key) {
                given.insert(key.clone(), value.clone());
            }
        }
        Ok(given)
    }

    /// The defaults overridden by the file `path` (if any) and then by the flags given
    /// explicitly (see [`TrainConfig::given`]), validated.
    pub fn resolve(
        path: Option<&Path>,
        flags: &TrainConfig,
        explicit: impl Fn(&str) -> bool,
    ) -> Result<TrainConfig, ConfigError> {
        TrainConfig::default().with(&TrainConfig::given(path, flags, explicit)?)
    }

    /// This configuration with the `given` settings, validated.
    pub fn with(&self, given: &Given) -> Result<TrainConfig, ConfigError> {
        let mut merged = serde_json::to_value(self).expect("config serialises");
        for (key, value) in given {
            merged[key] = value.clone();
        }
        let config: TrainConfig =
            serde_json::from_value(merged).map_err(|e| ConfigError::Toml(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// This configuration with other play settings ([`PLAY`]), validated; any other key is
    /// refused, as it would describe a network trained otherwise.
    pub fn with_play(&self, given: &Given) -> Result<TrainConfig, ConfigError> {
        if let Some(key) = given.keys().find(|k| !PLAY.contains(&k.as_str())) {
            return Err(ConfigError::NotPlay { key: key.clone() });
        }
        self.with(given)
    }

    /// The configuration of a resumed run: this saved configuration with the `given` settings
    /// that only change how the rest of the run is watched, scheduled or played ([`RESUMABLE`],
    /// [`PLAY`]); any other given setting must equal the saved one, or the run would not be the
    /// same run.
    pub fn resumed(&self, given: &Given) -> Result<TrainConfig, ConfigError> {
        let candidate = self.with(given)?;
        let (saved, wanted) = (
            serde_json::to_value(self).expect("config serialises"),
            serde_json::to_value(&candidate).expect("config serialises"),
        );
        for key in given.keys() {
            let may_change = [RESUMABLE, PLAY].iter().any(|k| k.contains(&key.as_str()));
            if !may_change && saved[key] != wanted[key] {
                return Err(ConfigError::ChangesRun {
                    key: key.clone(),
                    saved: saved[key].to_string(),
                    given: wanted[key].to_string(),
                });
            }
        }
        Ok(candidate)
    }

    /// The TOML text of this configuration.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("config serialises to TOML")
    }

    /// Checks every value once. Every number must be finite: a config is merged through JSON
    /// ([`TrainConfig::with`]), which has no NaN or infinity.
    pub fn validate(&self) -> Result<(), ConfigError> {
        fn check(
            ok: bool,
            key: &'static str,
            value: impl ToString,
            expected: &'static str,
        ) -> Result<(), ConfigError> {
            if ok {
                Ok(())
            } else {
                Err(ConfigError::Invalid {
                    key,
                    value: value.to_string(),
                    expected,
                })
            }
        }
        let rules = self.rules()?;
        check(self.width >= 1, "width", self.width, "at least 1")?;
        check(
            self.simulations >= 1,
            "simulations",
            self.simulations,
            "at least 1",
        )?;
        check(
            self.fast_simulations <= self.simulations,
            "fast_simulations",
            self.fast_simulations,
            "at most `simulations`",
        )?;
        check(
            (0.0..=1.0).contains(&self.full_search_prob),
            "full_search_prob",
            self.full_search_prob,
            "a probability",
        )?;
        check(
            self.max_considered >= 2,
            "max_considered",
            self.max_considered,
            "at least 2",
        )?;
        check(self.games >= 1, "games", self.games, "at least 1")?;
        check(
            self.max_plies >= 1,
            "max_plies",
            self.max_plies,
            "at least 1",
        )?;
        check(
            self.batch_size >= 1,
            "batch_size",
            self.batch_size,
            "at least 1",
        )?;
        check(
            self.buffer_size >= self.batch_size,
            "buffer_size",
            self.buffer_size,
            "at least `batch_size`",
        )?;
        check(
            self.min_buffer <= self.buffer_size,
            "min_buffer",
            self.min_buffer,
            "at most `buffer_size`",
        )?;
        check(
            self.shard_positions > 0,
            "shard_positions",
            self.shard_positions.to_string(),
            "at least 1",
        )?;
        check(
            self.publish_every_steps > 0,
            "publish_every_steps",
            self.publish_every_steps.to_string(),
            "at least 1",
        )?;
        check(
            self.replay_ratio > 0.0 && self.replay_ratio.is_finite(),
            "replay_ratio",
            self.replay_ratio,
            "a positive number",
        )?;
        check(
            self.lr > 0.0 && self.lr.is_finite(),
            "lr",
            self.lr,
            "a positive number",
        )?;
        check(
            self.lr_min >= 0.0 && self.lr_min <= self.lr,
            "lr_min",
            self.lr_min,
            "between 0 and `lr`",
        )?;
        check(
            self.decay_minutes >= 0.0 && self.decay_minutes.is_finite(),
            "decay_minutes",
            self.decay_minutes,
            "0 (decay by steps) or a positive number of minutes",
        )?;
        check(
            self.decay_minutes == 0.0 || self.decay_steps == 0,
            "decay_minutes",
            self.decay_minutes,
            "0 when `decay_steps` is set (one schedule at a time)",
        )?;
        check(
            self.weight_decay >= 0.0 && self.weight_decay.is_finite(),
            "weight_decay",
            self.weight_decay,
            "a non-negative number",
        )?;
        check(
            (0.0..1.0).contains(&self.ema_decay),
            "ema_decay",
            self.ema_decay,
            "0 (off) or a factor below 1, such as 0.999",
        )?;
        for (key, value) in [
            ("value_weight", self.value_weight),
            ("score_weight", self.score_weight),
            ("gumbel_scale", self.gumbel_scale.into()),
            ("c_visit", self.c_visit.into()),
            ("c_scale", self.c_scale.into()),
            ("eval_every_s", self.eval_every_s),
            ("score_utility", self.score_utility.into()),
            ("eval_score_utility", self.eval_score_utility.into()),
        ] {
            check(
                value >= 0.0 && value.is_finite(),
                key,
                value,
                "a non-negative number",
            )?;
        }
        check(
            (0.0..=1.0).contains(&self.opponent_share)
                && (self.opponent_share == 0.0 || !self.opponent_specs().is_empty()),
            "opponent_share",
            self.opponent_share,
            "between 0 and 1, and 0 unless `opponents` names an agent",
        )?;
        check(
            (0.0..=1.0).contains(&self.teacher_share)
                && (self.teacher_share == 0.0 || self.teacher_spec().is_some()),
            "teacher_share",
            self.teacher_share,
            "between 0 and 1, and 0 unless `teacher` names an agent",
        )?;
        check(
            !self.teacher_async || self.teacher_spec().is_some(),
            "teacher_async",
            self.teacher_async,
            "false unless `teacher` names an agent",
        )?;
        if let Some(spec) = self.teacher_spec() {
            check(
                ayo_env::arena::agents::parse(spec, 0).is_ok(),
                "teacher",
                spec,
                ayo_env::arena::agents::AGENT_SPECS,
            )?;
        }
        for spec in self.opponent_specs() {
            check(
                ayo_env::arena::agents::parse(spec, 0).is_ok(),
                "opponents",
                spec,
                ayo_env::arena::agents::AGENT_SPECS,
            )?;
        }
        check(
            (0.0..=1.0).contains(&self.value_target_q),
            "value_target_q",
            self.value_target_q,
            "between 0 and 1",
        )?;
        check(
            self.value_discount > 0.0 && self.value_discount <= 1.0,
            "value_discount",
            self.value_discount,
            "above 0 and at most 1",
        )?;
        check(
            (0.0..=1.0).contains(&self.branch_share),
            "branch_share",
            self.branch_share,
            "between 0 and 1",
        )?;
        let in_rounds = rules.round(&rules.start(ayo_env::Player::South)) > 0;
        check(
            (0.0..=1.0).contains(&self.round_share) && (self.round_share == 0.0 || in_rounds),
            "round_share",
            self.round_share,
            "between 0 and 1, and 0 unless the variant is played in rounds (ncho, adi, jerin)",
        )?;
        check(
            !self.round_score || in_rounds,
            "round_score",
            self.round_score,
            "false unless the variant is played in rounds (ncho, adi, jerin)",
        )?;
        check(self.threads >= 1, "threads", self.threads, "at least 1")?;
        check(
            self.train_threads >= 1,
            "train_threads",
            self.train_threads,
            "at least 1",
        )?;
        check(
            self.eval_gumbel_scale >= 0.0 && self.eval_gumbel_scale.is_finite(),
            "eval_gumbel_scale",
            self.eval_gumbel_scale,
            "a non-negative number",
        )?;
        check(
            self.eval_max_considered != 1,
            "eval_max_considered",
            self.eval_max_considered,
            "0 (= max_considered) or at least 2",
        )?;
        check(
            self.eval_c_scale >= 0.0 && self.eval_c_scale.is_finite(),
            "eval_c_scale",
            self.eval_c_scale,
            "0 (= c_scale) or a positive number",
        )?;
        check(
            (1..=2).contains(&self.selfplay_threads),
            "selfplay_threads",
            self.selfplay_threads,
            "1 or 2",
        )?;
        check(
            self.eval_games.is_multiple_of(2),
            "eval_games",
            self.eval_games,
            "an even number (both seats)",
        )?;
        check(
            self.checkpoint_every_s > 0.0 && self.checkpoint_every_s.is_finite(),
            "checkpoint_every_s",
            self.checkpoint_every_s,
            "a positive number",
        )?;
        Ok(())
    }

    /// The variant with its options.
    pub fn rules(&self) -> Result<Variant, ConfigError> {
        let opts = Variant::parse_options(&self.options)?;
        Ok(Variant::new(&self.variant, &opts)?)
    }

    /// The agent specs of `opponents`.
    pub fn opponent_specs(&self) -> Vec<&str> {
        self.opponents
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// The agent spec of `teacher`, if it names one.
    pub fn teacher_spec(&self) -> Option<&str> {
        Some(self.teacher.trim()).filter(|s| !s.is_empty())
    }

    /// Search parameters of self-play.
    pub fn search_params(&self) -> SearchParams {
        SearchParams {
            max_considered: self.max_considered,
            gumbel_scale: self.gumbel_scale,
            c_visit: self.c_visit,
            c_scale: self.c_scale,
            rescale: self.rescale,
            score_utility: self.score_utility,
        }
    }

    /// How evaluation games are played: openings, varied starts, the ply cap of self-play.
    pub fn eval_match_config(&self) -> ayo_env::arena::tournament::MatchConfig {
        ayo_env::arena::tournament::MatchConfig {
            opening_plies: self.eval_opening_plies,
            varied_starts: self.eval_varied_starts,
            max_plies: self.max_plies,
            seed: self.seed,
            ..Default::default()
        }
    }

    /// Search parameters of evaluation play: self-play's, with the evaluation settings.
    pub fn eval_search_params(&self) -> SearchParams {
        let mut params = self.search_params();
        self.apply_eval_settings(&mut params);
        params
    }

    /// Puts this config's evaluation settings on `params` (a checkpoint's own, or self-play's):
    /// `eval_gumbel_scale` root noise, `eval_score_utility` and, when given,
    /// `eval_max_considered` root actions, `eval_c_scale` and `eval_rescale`.
    pub fn apply_eval_settings(&self, params: &mut SearchParams) {
        params.gumbel_scale = self.eval_gumbel_scale;
        if self.eval_max_considered > 0 {
            params.max_considered = self.eval_max_considered;
        }
        if self.eval_c_scale > 0.0 {
            params.c_scale = self.eval_c_scale;
        }
        if let Some(rescale) = self.eval_rescale {
            params.rescale = rescale;
        }
        params.score_utility = self.eval_score_utility;
    }

    /// The network's shape for this run's variant.
    pub fn net_shape(&self) -> Result<crate::net::NetShape, ConfigError> {
        let v = self.rules()?;
        Ok(crate::net::NetShape {
            inputs: ayo_env::input::input_len(&v, self.lookahead),
            actions: v.num_actions(),
            width: self.width,
            blocks: self.blocks,
            levels: self.input_levels,
            lookahead: self.lookahead,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_round_trip_through_toml() {
        let c = TrainConfig::default();
        c.validate().unwrap();
        assert_eq!(TrainConfig::from_toml(&c.to_toml()).unwrap(), c);
    }

    #[test]
    fn every_variant_has_a_valid_config_in_experiments() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../experiments");
        for name in ayo_env::VARIANT_NAMES {
            let path = dir.join(format!("{name}.toml"));
            let c = TrainConfig::resolve(Some(&path), &TrainConfig::default(), |_| false)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert_eq!(c.rules().unwrap().name(), *name, "{}", path.display());
            // The one built into the binary is the same variant's, by name or name@version.
            for spec in [name.to_string(), format!("{name}@1")] {
                let text = tuned(&spec).unwrap_or_else(|| panic!("no tuned config for {spec}"));
                let given = TrainConfig::given_text(Some(text), &TrainConfig::default(), |_| false);
                let t = TrainConfig::default().with(&given.unwrap()).unwrap();
                assert_eq!(t, c, "tuned({spec}) is not experiments/{name}.toml");
            }
        }
        assert!(tuned("mancala").is_none());
    }

    #[test]
    fn unknown_keys_are_refused() {
        let e = TrainConfig::from_toml("widht = 3").unwrap_err().to_string();
        assert!(e.contains("widht"), "{e}");
    }

    #[test]
    fn explicit_flags_override_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.toml");
        std::fs::write(&path, "width = 64\nblocks = 3\n").unwrap();
        let flags = TrainConfig {
            width: 32,
            blocks: 9,
            ..Default::default()
        };
        let c = TrainConfig::resolve(Some(&path), &flags, |k| k == "width").unwrap();
        assert_eq!((c.width, c.blocks), (32, 3));
    }

    #[test]
    fn bad_values_name_the_key() {
        let c = TrainConfig {
            lr: -1.0,
            ..Default::default()
        };
        let e = c.validate().unwrap_err().to_string();
        assert!(e.contains("lr") && e.contains("-1"), "{e}");
        for (c, key) in [
            (
                TrainConfig {
                    value_target_q: 1.5,
                    ..Default::default()
                },
                "value_target_q",
            ),
            (
                TrainConfig {
                    value_discount: 0.0,
                    ..Default::default()
                },
                "value_discount",
            ),
            (
                TrainConfig {
                    round_share: 0.5,
                    ..Default::default()
                },
                "round_share",
            ),
            (
                TrainConfig {
                    round_score: true,
                    ..Default::default()
                },
                "round_score",
            ),
            (
                TrainConfig {
                    score_utility: f32::NAN,
                    ..Default::default()
                },
                "score_utility",
            ),
            (
                TrainConfig {
                    ema_decay: 1.0,
                    ..Default::default()
                },
                "ema_decay",
            ),
            (
                TrainConfig {
                    eval_gumbel_scale: -1.0,
                    ..Default::default()
                },
                "eval_gumbel_scale",
            ),
            (
                TrainConfig {
                    opponents: "alphabeta:4,alphabet:6".into(),
                    opponent_share: 0.5,
                    ..Default::default()
                },
                "alphabet:6",
            ),
            (
                TrainConfig {
                    opponent_share: 0.5,
                    ..Default::default()
                },
                "opponent_share",
            ),
            (
                TrainConfig {
                    teacher_share: 0.5,
                    ..Default::default()
                },
                "teacher_share",
            ),
            (
                TrainConfig {
                    teacher: "alphabeta:0x".into(),
                    teacher_share: 0.5,
                    ..Default::default()
                },
                "alphabeta:0x",
            ),
            (
                TrainConfig {
                    eval_max_considered: 1,
                    ..Default::default()
                },
                "eval_max_considered",
            ),
            (
                TrainConfig {
                    eval_c_scale: -0.5,
                    ..Default::default()
                },
                "eval_c_scale",
            ),
            (
                TrainConfig {
                    decay_steps: 30_000,
                    decay_minutes: 60.0,
                    ..Default::default()
                },
                "decay_minutes",
            ),
            (
                TrainConfig {
                    train_threads: 0,
                    ..Default::default()
                },
                "train_threads",
            ),
        ] {
            let e = c.validate().unwrap_err().to_string();
            assert!(e.contains(key), "{e}");
        }
    }

    #[test]
    fn evaluation_considers_its_own_number_of_actions_when_given() {
        let own = TrainConfig {
            max_considered: 16,
            ..Default::default()
        };
        assert_eq!(own.eval_search_params().max_considered, 16);
        let narrow = TrainConfig {
            eval_max_considered: 4,
            ..own
        };
        assert_eq!(narrow.eval_search_params().max_considered, 4);
        assert_eq!(
            narrow.search_params().max_considered,
            16,
            "self-play keeps its own"
        );
    }

    #[test]
    fn evaluation_weighs_action_values_by_its_own_c_scale_when_given() {
        let own = TrainConfig {
            c_scale: 0.1,
            ..Default::default()
        };
        assert_eq!(own.eval_search_params().c_scale, 0.1);
        let sharper = TrainConfig {
            eval_c_scale: 0.4,
            ..own
        };
        assert_eq!(sharper.eval_search_params().c_scale, 0.4);
        assert_eq!(
            sharper.search_params().c_scale,
            0.1,
            "self-play keeps its own"
        );
    }

    #[test]
    fn evaluation_rescales_action_values_as_self_play_unless_told() {
        let raw = TrainConfig {
            rescale: false,
            ..Default::default()
        };
        assert!(!raw.eval_search_params().rescale);
        let rescaled = TrainConfig {
            eval_rescale: Some(true),
            ..raw.clone()
        };
        assert!(rescaled.eval_search_params().rescale);
        assert!(!rescaled.search_params().rescale, "self-play keeps its own");
    }

    #[test]
    fn play_settings_change_alone_and_nothing_else_does() {
        let cfg = TrainConfig::default();
        let raw: Given =
            serde_json::from_str(r#"{"eval_rescale": false, "eval_c_scale": 0.5}"#).unwrap();
        let played = cfg.with_play(&raw).unwrap();
        assert_eq!(
            (played.eval_rescale, played.eval_c_scale),
            (Some(false), 0.5)
        );
        assert_eq!(
            TrainConfig {
                eval_rescale: None,
                eval_c_scale: cfg.eval_c_scale,
                ..played
            },
            cfg,
            "nothing else changed"
        );
        let trained: Given = serde_json::from_str(r#"{"c_scale": 0.5}"#).unwrap();
        let e = cfg.with_play(&trained).unwrap_err().to_string();
        assert!(e.starts_with("c_scale is not a play setting"), "{e}");
        let bad: Given = serde_json::from_str(r#"{"eval_c_scale": -1.0}"#).unwrap();
        assert!(cfg.with_play(&bad).is_err(), "values are checked");
    }

    #[test]
    fn evaluation_rescale_reads_from_a_config_file_and_an_unset_one_stays_unset() {
        let given: Given = serde_json::from_str(r#"{"eval_rescale": false}"#).unwrap();
        let cfg = TrainConfig::default().with(&given).unwrap();
        assert_eq!(cfg.eval_rescale, Some(false));
        assert!(!cfg.eval_search_params().rescale);
        let saved = toml::to_string(&TrainConfig::default()).unwrap();
        assert!(
            !saved.contains("eval_rescale"),
            "unset is not written: {saved}"
        );
        let back: TrainConfig = toml::from_str(&saved).unwrap();
        assert_eq!(back.eval_rescale, None);
    }
}
