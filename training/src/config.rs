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
    /// what it gains once the mover's best reply to that answer is counted (a third ply); 4 also
    /// once the opponent's best answer to that reply is counted (a fourth ply).
    /// `--lookahead` alone is 1; configs may write `true` for 1.
    #[arg(long, default_value_t = 0, num_args = 0..=1, default_missing_value = "1",
          value_parser = ayo_env::input::parse_lookahead)]
    #[serde(deserialize_with = "ayo_env::input::deserialize_lookahead")]
    pub lookahead: u8,

    /// Simulations per move of a full search in self-play.
    #[arg(long, default_value_t = 32)]
    pub simulations: u32,
    /// Playout-cap randomisation: simulations of a cheap search (0 = every search is full).
    #[arg(long, default_value_t = 8)]
    pub fast_simulations: u32,
    /// Playout-cap randomisation: probability that a move gets a full search (only those become
    /// policy targets).
    #[arg(long, default_value_t = 0.3)]
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
    #[arg(long, default_value_t = 10)]
    pub sample_plies: u32,
    /// Each self-play game begins with a number of uniformly random plies drawn from
    /// `0..=opening_plies` (no training positions for them), so that self-play meets the
    /// positions evaluation's random openings lead to rather than a few lines from the start.
    #[arg(long, default_value_t = 0)]
    pub opening_plies: u32,
    /// Start half the self-play games of round-based variants (`episode = round`: ncho, adi,
    /// jerin) at a later round with unequal house ownership, so later rounds are learned too
    /// (other variants always start at the start).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub varied_starts: bool,
    /// Plies after which a self-play game is cut (its positions get no value target).
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,

    /// Replay buffer capacity in positions.
    #[arg(long, default_value_t = 200_000)]
    pub buffer_size: usize,
    /// Positions in the buffer before training starts.
    #[arg(long, default_value_t = 8192)]
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
    #[arg(long, default_value_t = 1e-4)]
    pub lr_min: f64,
    /// Linear warm-up, in training steps.
    #[arg(long, default_value_t = 200)]
    pub warmup_steps: u64,
    /// Training steps over which the learning rate decays from `lr` to `lr_min` (0 = constant).
    #[arg(long, default_value_t = 0)]
    pub decay_steps: u64,
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

    /// Seconds between checkpoints.
    #[arg(long, default_value_t = 600.0)]
    pub checkpoint_every_s: f64,
    /// Seconds between evaluations against the baseline (0 = never).
    #[arg(long, default_value_t = 600.0)]
    pub eval_every_s: f64,
    /// Baseline agent of the periodic evaluation, e.g. `random`, `greedy`, `mcts:200`.
    #[arg(long, default_value = "random")]
    pub eval_agent: String,
    /// Games per evaluation (half in each seat).
    #[arg(long, default_value_t = 32)]
    pub eval_games: usize,
    /// Simulations per move of the network in evaluation games.
    #[arg(long, default_value_t = 32)]
    pub eval_simulations: u32,
    /// Scale of the root Gumbel noise in evaluation games: 0 plays the search's best move
    /// (strongest), 1 samples like self-play.
    #[arg(long, default_value_t = 0.0)]
    pub eval_gumbel_scale: f32,
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
    #[arg(long, default_value_t = 1)]
    pub selfplay_threads: usize,
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
    #[arg(long, default_value_t = 1)]
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

/// Settings given by a config file or by flags, by key.
pub type Given = serde_json::Map<String, serde_json::Value>;

/// How a trained network plays (the root of its search in evaluation games, tournaments,
/// `play`, `engine`, `serve`): settings a checkpoint carries that do not touch its weights, so
/// `ayo checkpoint --out` may write a copy with others.
pub const PLAY: &[&str] = &["eval_gumbel_scale", "eval_c_scale", "eval_rescale"];

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

/// The version of the defaults that a stored configuration's missing keys read as.
///
/// A checkpoint's metadata carries it as the checkpoint's `format`; a run folder's
/// `config.toml` as its first line, `config_format = 2`; a resume state as `config_format`.
/// Format 1 (every checkpoint and run folder written before the defaults became the recipe)
/// left keys out, so there a missing key reads as its format-1 default
/// (`FORMAT_1_DEFAULTS`); format 2 writes every key (an unset `eval_rescale` aside, unset in
/// both formats). A stored configuration without a format is of format 1; a config file a
/// person writes (`--config`, `experiments/<variant>.toml`) is of the current format unless it
/// says otherwise, so its missing keys read as today's defaults.
pub const FORMAT: u32 = 2;

/// The defaults of format 1 that differ from today's, frozen: only format-1 configurations
/// read them (see [`FORMAT`]).
const FORMAT_1_DEFAULTS: &str = r#"
fast_simulations = 0
full_search_prob = 1.0
sample_plies = 8
min_buffer = 4096
warmup_steps = 100
lr_min = 2e-4
checkpoint_every_s = 120.0
eval_every_s = 300.0
eval_games = 64
selfplay_threads = 2
seed = 0
"#;

/// Levers that were measured, gained nothing and left the code (experiments/FINDINGS.md), each
/// with its neutral value (its old default): a stored configuration that names one at that
/// value still reads, without it; any other value is refused.
const RETIRED: &str = r#"
teacher = ""
teacher_share = 0.0
teacher_async = false
opponents = ""
opponent_share = 0.0
branch_share = 0.0
round_share = 0.0
round_score = false
score_utility = 0.0
eval_score_utility = 0.0
cut_draw = false
decay_minutes = 0.0
overlap = false
eval_max_considered = 0
"#;

/// The key that says a TOML configuration's [`FORMAT`].
const FORMAT_KEY: &str = "config_format";

/// Where a setting's value came from, as an error names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Source {
    /// The default (not given anywhere).
    Default,
    /// A config file, by name (`experiments/oware.toml` for a variant's built-in config).
    File(String),
    /// A flag given on the command line.
    Flag,
}

impl Source {
    /// How an error names this source of `key`'s value.
    fn describe(&self, key: &str) -> String {
        match self {
            Source::Default => "the default".into(),
            Source::File(name) => name.clone(),
            Source::Flag => flag(key),
        }
    }
}

/// The command-line flag of `key`.
fn flag(key: &str) -> String {
    format!("--{}", key.replace('_', "-"))
}

/// Two settings that contradict a bound between them: `low` must be at most `high`.
#[derive(Debug)]
pub struct Conflict {
    pub low: &'static str,
    pub low_value: String,
    pub high: &'static str,
    pub high_value: String,
    /// Where each value came from (`low`'s, `high`'s), when the resolution knows it.
    pub sources: Option<(Source, Source)>,
}

impl std::fmt::Display for Conflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Conflict {
            low,
            low_value: lv,
            high,
            high_value: hv,
            ..
        } = self;
        let Some((ls, hs)) = &self.sources else {
            return write!(
                f,
                "{low} = {lv} is above {high} = {hv}: expected {low} at most {high}"
            );
        };
        let (ld, hd) = (ls.describe(low), hs.describe(high));
        if hs > ls {
            write!(
                f,
                "{high} = {hv} ({hd}) is below {low} = {lv} ({ld}): pass {} {hv} or less too",
                flag(low)
            )
        } else if ls > hs {
            write!(
                f,
                "{low} = {lv} ({ld}) is above {high} = {hv} ({hd}): pass {} {lv} or more too",
                flag(high)
            )
        } else {
            write!(
                f,
                "{low} = {lv} ({ld}) is above {high} = {hv} ({hd}): lower {low} or raise {high}"
            )
        }
    }
}

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
    #[error("config: {0}")]
    Conflict(Box<Conflict>),
    #[error("config key {key} = {value}: {key} was retired (it measured no gain, see experiments/FINDINGS.md); remove it (only its old default {neutral} is still read)")]
    Retired {
        key: String,
        value: String,
        neutral: String,
    },
    #[error("config_format = {0}: expected 1 to {FORMAT}")]
    Format(String),
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

impl ConfigError {
    /// This error with the sources of a conflict's two values (`source` of a key).
    pub fn sourced(self, source: impl Fn(&str) -> Source) -> ConfigError {
        match self {
            ConfigError::Conflict(c) => ConfigError::Conflict(Box::new(Conflict {
                sources: Some((source(c.low), source(c.high))),
                ..*c
            })),
            other => other,
        }
    }
}

/// What a number in the configuration must be, with the words an error says it in.
struct Range {
    ok: fn(f64) -> bool,
    expected: &'static str,
}

const AT_LEAST_1: Range = Range {
    ok: |x| x >= 1.0,
    expected: "at least 1",
};
const AT_LEAST_2: Range = Range {
    ok: |x| x >= 2.0,
    expected: "at least 2",
};
const POSITIVE: Range = Range {
    ok: |x| x > 0.0,
    expected: "a positive number",
};
const NON_NEGATIVE: Range = Range {
    ok: |x| x >= 0.0,
    expected: "a non-negative number",
};
const SHARE: Range = Range {
    ok: |x| (0.0..=1.0).contains(&x),
    expected: "between 0 and 1",
};

/// A bound on one key's value.
enum Bound {
    /// The value lies in a range.
    In(Range),
    /// The value is at most another key's.
    AtMost(&'static str),
}

/// Every key's bound, written once (keys not named take any value of their type; the variant
/// and its options are checked by building the rules, `lookahead` by its parser). A number
/// must also be finite: a config is merged through JSON, which has no NaN or infinity.
const BOUNDS: &[(&str, Bound)] = &[
    ("width", Bound::In(AT_LEAST_1)),
    ("simulations", Bound::In(AT_LEAST_1)),
    ("fast_simulations", Bound::AtMost("simulations")),
    ("full_search_prob", Bound::In(SHARE)),
    ("max_considered", Bound::In(AT_LEAST_2)),
    ("gumbel_scale", Bound::In(NON_NEGATIVE)),
    ("c_visit", Bound::In(NON_NEGATIVE)),
    ("c_scale", Bound::In(NON_NEGATIVE)),
    ("games", Bound::In(AT_LEAST_1)),
    ("max_plies", Bound::In(AT_LEAST_1)),
    ("batch_size", Bound::In(AT_LEAST_1)),
    ("batch_size", Bound::AtMost("buffer_size")),
    ("min_buffer", Bound::AtMost("buffer_size")),
    ("replay_ratio", Bound::In(POSITIVE)),
    ("lr", Bound::In(POSITIVE)),
    ("lr_min", Bound::In(NON_NEGATIVE)),
    ("lr_min", Bound::AtMost("lr")),
    ("weight_decay", Bound::In(NON_NEGATIVE)),
    (
        "ema_decay",
        Bound::In(Range {
            ok: |x| (0.0..1.0).contains(&x),
            expected: "0 (off) or a factor below 1, such as 0.999",
        }),
    ),
    ("value_weight", Bound::In(NON_NEGATIVE)),
    ("score_weight", Bound::In(NON_NEGATIVE)),
    ("value_target_q", Bound::In(SHARE)),
    (
        "value_discount",
        Bound::In(Range {
            ok: |x| x > 0.0 && x <= 1.0,
            expected: "above 0 and at most 1",
        }),
    ),
    ("checkpoint_every_s", Bound::In(POSITIVE)),
    ("eval_every_s", Bound::In(NON_NEGATIVE)),
    (
        "eval_games",
        Bound::In(Range {
            ok: |x| x % 2.0 == 0.0,
            expected: "an even number (both seats)",
        }),
    ),
    ("eval_gumbel_scale", Bound::In(NON_NEGATIVE)),
    (
        "eval_c_scale",
        Bound::In(Range {
            ok: |x| x >= 0.0,
            expected: "0 (= c_scale) or a positive number",
        }),
    ),
    (
        "selfplay_threads",
        Bound::In(Range {
            ok: |x| x == 1.0 || x == 2.0,
            expected: "1 or 2",
        }),
    ),
    ("shard_positions", Bound::In(AT_LEAST_1)),
    ("publish_every_steps", Bound::In(AT_LEAST_1)),
    ("threads", Bound::In(AT_LEAST_1)),
    ("train_threads", Bound::In(AT_LEAST_1)),
];

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

/// Parses a TOML text into a table.
fn table(text: &str) -> Result<toml::Table, ConfigError> {
    toml::from_str(text).map_err(|e| ConfigError::Toml(e.to_string()))
}

/// The settings of a stored configuration of `format` ([`FORMAT`]) as a configuration of
/// today reads them: each retired key dropped (refused unless at its neutral value, see
/// [`RETIRED`]), and for format 1 each missing key at its format-1 default.
fn upgrade(mut settings: toml::Table, format: u32) -> Result<toml::Table, ConfigError> {
    for (key, neutral) in table(RETIRED).expect("a valid table") {
        let Some(value) = settings.remove(&key) else {
            continue;
        };
        let number = |v: &toml::Value| v.as_float().or(v.as_integer().map(|i| i as f64));
        let same = match (number(&value), number(&neutral)) {
            (Some(x), Some(n)) => x == n,
            _ => value == neutral,
        };
        if !same {
            return Err(ConfigError::Retired {
                key,
                value: value.to_string(),
                neutral: neutral.to_string(),
            });
        }
    }
    match format {
        1 => {
            for (key, value) in table(FORMAT_1_DEFAULTS).expect("a valid table") {
                settings.entry(key).or_insert(value);
            }
        }
        FORMAT => {}
        other => return Err(ConfigError::Format(other.to_string())),
    }
    Ok(settings)
}

/// The settings of a TOML text, upgraded ([`upgrade`]) from the format its `config_format`
/// says, or else from `format`.
fn toml_settings(text: &str, format: u32) -> Result<toml::Table, ConfigError> {
    let mut settings = table(text)?;
    let format = match settings.remove(FORMAT_KEY) {
        None => format,
        Some(toml::Value::Integer(f)) => u32::try_from(f).unwrap_or(0),
        Some(other) => return Err(ConfigError::Format(other.to_string())),
    };
    upgrade(settings, format)
}

impl TrainConfig {
    /// Parses a TOML text a person wrote (a `--config` file, `experiments/<variant>.toml`):
    /// missing keys take today's defaults, unless its `config_format` says otherwise
    /// ([`FORMAT`]); unknown keys are refused, retired ones read only at their neutral value.
    pub fn from_toml(text: &str) -> Result<TrainConfig, ConfigError> {
        TrainConfig::from_settings(toml_settings(text, FORMAT)?)
    }

    /// Parses a run folder's `config.toml`: as [`TrainConfig::from_toml`], but a file without
    /// `config_format` is an old run's, of format 1.
    pub fn from_run_toml(text: &str) -> Result<TrainConfig, ConfigError> {
        TrainConfig::from_settings(toml_settings(text, 1)?)
    }

    /// Reads a configuration stored as JSON (a checkpoint's metadata, a run's resume state)
    /// in `format` ([`FORMAT`]).
    pub fn from_stored(json: serde_json::Value, format: u32) -> Result<TrainConfig, ConfigError> {
        let settings = toml::Table::try_from(json).map_err(|e| ConfigError::Toml(e.to_string()))?;
        TrainConfig::from_settings(upgrade(settings, format)?)
    }

    fn from_settings(settings: toml::Table) -> Result<TrainConfig, ConfigError> {
        settings
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Toml(e.to_string()))
    }

    /// The settings given for a run: every key of the config file's `text` (if any), then the
    /// flags given explicitly on the command line (`explicit(field)` is true), which win. The
    /// file is checked whole (unknown keys and wrong types are refused).
    pub fn given_text(
        text: Option<&str>,
        flags: &TrainConfig,
        explicit: impl Fn(&str) -> bool,
    ) -> Result<Given, ConfigError> {
        let mut given = Given::new();
        if let Some(text) = text {
            let settings = toml_settings(text, FORMAT)?;
            TrainConfig::from_settings(settings.clone())?;
            for (key, value) in settings {
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

    /// The settings given for a run (see [`TrainConfig::given_text`]; the config file as its
    /// name and its text) and the configuration they make from the defaults, validated. A
    /// conflict between two values names where each came from.
    pub fn resolve_text(
        file: Option<(&str, &str)>,
        flags: &TrainConfig,
        explicit: impl Fn(&str) -> bool,
    ) -> Result<(Given, TrainConfig), ConfigError> {
        let given = TrainConfig::given_text(file.map(|(_, text)| text), flags, &explicit)?;
        let source = |key: &str| match file {
            _ if explicit(key) => Source::Flag,
            Some((name, _)) if given.contains_key(key) => Source::File(name.to_string()),
            _ => Source::Default,
        };
        let config = TrainConfig::default()
            .with(&given)
            .map_err(|e| e.sourced(source))?;
        Ok((given, config))
    }

    /// [`TrainConfig::resolve_text`] of the config file at `path` (if any): the run's
    /// configuration.
    pub fn resolve(
        path: Option<&Path>,
        flags: &TrainConfig,
        explicit: impl Fn(&str) -> bool,
    ) -> Result<TrainConfig, ConfigError> {
        let file = match path {
            Some(p) => Some((
                p.display().to_string(),
                std::fs::read_to_string(p).map_err(|source| ConfigError::Read {
                    path: p.display().to_string(),
                    source,
                })?,
            )),
            None => None,
        };
        let file = file
            .as_ref()
            .map(|(name, text)| (name.as_str(), text.as_str()));
        Ok(TrainConfig::resolve_text(file, flags, explicit)?.1)
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

    /// The TOML text of this configuration, every key, of today's [`FORMAT`] (its first line
    /// says so): what a run folder's `config.toml` holds.
    pub fn to_toml(&self) -> String {
        let keys = toml::to_string(self).expect("config serialises to TOML");
        format!("{FORMAT_KEY} = {FORMAT}\n{keys}")
    }

    /// Checks every value once against its bound (`BOUNDS`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.rules()?;
        let values = serde_json::to_value(self).expect("config serialises");
        for (key, bound) in BOUNDS {
            let value = &values[*key];
            let x = value.as_f64().filter(|x| x.is_finite());
            let shown = || match x {
                Some(_) => value.to_string(),
                None => "not a finite number".to_string(),
            };
            match bound {
                Bound::In(range) if !x.is_some_and(range.ok) => {
                    return Err(ConfigError::Invalid {
                        key,
                        value: shown(),
                        expected: range.expected,
                    })
                }
                Bound::AtMost(high) if x.is_some_and(|x| Some(x) > values[*high].as_f64()) => {
                    return Err(ConfigError::Conflict(Box::new(Conflict {
                        low: key,
                        low_value: shown(),
                        high,
                        high_value: values[*high].to_string(),
                        sources: None,
                    })))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The variant with its options.
    pub fn rules(&self) -> Result<Variant, ConfigError> {
        let opts = Variant::parse_options(&self.options)?;
        Ok(Variant::new(&self.variant, &opts)?)
    }

    /// Search parameters of self-play.
    pub fn search_params(&self) -> SearchParams {
        SearchParams {
            max_considered: self.max_considered,
            gumbel_scale: self.gumbel_scale,
            c_visit: self.c_visit,
            c_scale: self.c_scale,
            rescale: self.rescale,
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
    /// `eval_gumbel_scale` root noise and, when given, `eval_c_scale` and `eval_rescale`.
    pub fn apply_eval_settings(&self, params: &mut SearchParams) {
        params.gumbel_scale = self.eval_gumbel_scale;
        if self.eval_c_scale > 0.0 {
            params.c_scale = self.eval_c_scale;
        }
        if let Some(rescale) = self.eval_rescale {
            params.rescale = rescale;
        }
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
                    score_weight: f64::NAN,
                    ..Default::default()
                },
                "score_weight",
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
                    eval_c_scale: -0.5,
                    ..Default::default()
                },
                "eval_c_scale",
            ),
            (
                TrainConfig {
                    eval_games: 7,
                    ..Default::default()
                },
                "eval_games",
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
    fn a_bound_between_two_keys_names_both_and_where_each_came_from() {
        let low = TrainConfig {
            simulations: 4,
            ..Default::default()
        };
        let e = low.validate().unwrap_err().to_string();
        assert!(
            e.contains("fast_simulations = 8") && e.contains("simulations = 4"),
            "{e}"
        );
        let e = TrainConfig::resolve_text(None, &low, |k| k == "simulations")
            .unwrap_err()
            .to_string();
        let expected = "simulations = 4 (--simulations) is below fast_simulations = 8 \
                        (the default): pass --fast-simulations 4 or less too";
        assert!(e.contains(expected), "{e}");
        let file = ("c.toml", "lr_min = 0.5\n");
        let e = TrainConfig::resolve_text(Some(file), &TrainConfig::default(), |_| false)
            .unwrap_err()
            .to_string();
        let expected = "lr_min = 0.5 (c.toml) is above lr = 0.002 (the default): \
                        pass --lr 0.5 or more too";
        assert!(e.contains(expected), "{e}");
    }

    #[test]
    fn a_retired_key_reads_at_its_neutral_value_and_is_refused_at_any_other() {
        for neutral in [
            "teacher = \"\"",
            "teacher_share = 0",
            "overlap = false",
            "eval_max_considered = 0",
        ] {
            let c = TrainConfig::from_toml(&format!("width = 64\n{neutral}\n")).unwrap();
            assert_eq!(c.width, 64, "{neutral}");
        }
        for (text, key) in [
            ("overlap = true", "overlap"),
            ("teacher = \"alphabeta:10\"", "teacher"),
            ("branch_share = 0.5", "branch_share"),
            ("eval_max_considered = 4", "eval_max_considered"),
        ] {
            let e = TrainConfig::from_toml(text).unwrap_err();
            assert!(matches!(e, ConfigError::Retired { .. }), "{e}");
            let e = e.to_string();
            assert!(e.contains(key) && e.contains("retired"), "{e}");
        }
        let stored = serde_json::json!({"width": 64, "cut_draw": false, "decay_minutes": 0.0});
        assert_eq!(TrainConfig::from_stored(stored, FORMAT).unwrap().width, 64);
        let stored = serde_json::json!({"cut_draw": true});
        assert!(TrainConfig::from_stored(stored, FORMAT).is_err());
    }

    #[test]
    fn a_missing_key_of_format_1_reads_as_its_format_1_default() {
        let old = TrainConfig::from_stored(serde_json::json!({"width": 64}), 1).unwrap();
        let new = TrainConfig::from_stored(serde_json::json!({"width": 64}), FORMAT).unwrap();
        assert_eq!(
            new,
            TrainConfig {
                width: 64,
                ..Default::default()
            }
        );
        assert_eq!(
            (
                old.fast_simulations,
                old.full_search_prob,
                old.seed,
                old.lr_min
            ),
            (0, 1.0, 0, 2e-4)
        );
        // A run folder's config.toml says its format; one that says none is of format 1.
        assert_eq!(TrainConfig::from_run_toml("width = 64").unwrap(), old);
        let saved = new.to_toml();
        assert!(saved.starts_with("config_format = 2\n"), "{saved}");
        assert_eq!(TrainConfig::from_run_toml(&saved).unwrap(), new);
        assert!(TrainConfig::from_toml("config_format = 3").is_err());
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
