//! The run's logs: one JSON object per line in `train.jsonl` and TensorBoard event files in
//! `tb/`, under the same scalar names ([`metric`]).

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// The names of the logged scalars (TensorBoard tags and `train.jsonl` keys).
pub mod metric {
    /// Self-play positions searched per second of wall time.
    pub const POSITIONS_PER_S: &str = "charts/positions_per_s";
    /// Self-play games finished per second.
    pub const GAMES_PER_S: &str = "charts/games_per_s";
    /// Leaf evaluations of the network per second.
    pub const EVALUATIONS_PER_S: &str = "charts/evaluations_per_s";
    /// Training samples (steps × batch size) per second.
    pub const SAMPLES_PER_S: &str = "charts/samples_per_s";
    /// Share of the time spent in self-play rather than training.
    pub const SELFPLAY_FRACTION: &str = "charts/selfplay_fraction";
    /// Self-play games finished so far.
    pub const GAMES: &str = "charts/games";
    /// Self-play positions so far (the x axis of every log line).
    pub const POSITIONS: &str = "charts/positions";
    /// Training steps so far.
    pub const TRAIN_STEPS: &str = "charts/train_steps";
    /// Positions in the replay buffer.
    pub const BUFFER_SIZE: &str = "charts/buffer_size";
    /// Mean length in plies of the games finished since the last line.
    pub const GAME_LENGTH: &str = "charts/game_length";
    /// Cross-entropy of the policy head against the search's improved policy.
    pub const LOSS_POLICY: &str = "losses/policy";
    /// Squared error of the value head against the game's result.
    pub const LOSS_VALUE: &str = "losses/value";
    /// Squared error of the auxiliary score head.
    pub const LOSS_SCORE: &str = "losses/score";
    /// The weighted sum that is minimised.
    pub const LOSS_TOTAL: &str = "losses/total";
    /// Entropy of the network's policy.
    pub const POLICY_ENTROPY: &str = "losses/policy_entropy";
    /// The learning rate of the last step.
    pub const LEARNING_RATE: &str = "charts/learning_rate";
    /// Training steps at an evaluation.
    pub const EVAL_TRAIN_STEPS: &str = "eval/train_steps";

    /// Share of the evaluation games won against `agent`.
    pub fn eval_win_rate(agent: &str) -> String {
        format!("eval/win_rate_vs_{agent}")
    }
    /// Score (wins plus half the draws, over the games) against `agent`.
    pub fn eval_score(agent: &str) -> String {
        format!("eval/score_vs_{agent}")
    }
}

/// JSONL and TensorBoard logs with the same scalar names.
pub struct Logger {
    jsonl: std::fs::File,
    tb: tensorboard_rs::summary_writer::SummaryWriter,
}

impl Logger {
    pub fn open(dir: &Path) -> Result<Logger> {
        let jsonl = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("train.jsonl"))
            .context("cannot open train.jsonl")?;
        let tb = tensorboard_rs::summary_writer::SummaryWriter::new(dir.join("tb"));
        Ok(Logger { jsonl, tb })
    }

    /// Writes `scalars` at `step` (self-play positions so far).
    pub fn log(&mut self, step: u64, wall_time_s: f64, scalars: &[(String, f64)]) {
        let mut obj = serde_json::Map::new();
        obj.insert("step".into(), step.into());
        obj.insert(
            "wall_time_s".into(),
            serde_json::json!((wall_time_s * 10.0).round() / 10.0),
        );
        for (k, v) in scalars {
            obj.insert(k.clone(), serde_json::json!(v));
            self.tb.add_scalar(k, *v as f32, step as usize);
        }
        let _ = writeln!(self.jsonl, "{}", serde_json::Value::Object(obj));
        let _ = self.jsonl.flush();
        self.tb.flush();
    }
}
