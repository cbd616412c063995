//! # ayo-env — the rules core of the Ayo family
//!
//! Pure rules, boards and batches; nothing of torch. One [`Rules`] trait that every variant
//! implements (one file per variant in [`variants`]), a runtime [`Variant`] enum that
//! dispatches to them, [`GameRecord`]s, [`perft()`], the [`Agent`] abstraction with the classic
//! baseline [`agents`](arena::agents), and the vectorised environment [`VecEnv`].
//!
//! ```
//! use ayo_env::{perft, Player, Rules, Variant};
//! let oware = Variant::new("oware@1", &[]).unwrap();
//! assert_eq!(perft(&oware, &oware.start(Player::South), 4), 1014);
//! ```

// The core vocabulary: actions, players, boards, errors and the random streams.
pub mod action;
pub mod board;
pub mod cycle;
pub mod error;
pub mod player;
pub mod rng;

// The seams: one rules trait, the runtime variant, game records, the agent abstraction.
pub mod agent;
pub mod input;
pub mod record;
pub mod repetition;
pub mod rules;
pub mod variant;

// The variants, by family: two-row (oware, ayo, ayoayo), relay and fours (ncho, adi, jerin,
// jodu), yao.
pub mod variants;

// What is built on the rules: perft, the vectorised environment, and the arena (baseline
// agents, the match driver and tournaments, ratings, reports), the endgame tables.
pub mod arena;
pub mod perft;
pub mod picture;
pub mod tablebase;
pub mod vec_env;

pub use action::{Action, ActionMask};
pub use agent::{Agent, Analysis, Budget, Progress};
pub use error::{ParseError, PlayError, RecordError};
pub use perft::perft;
pub use player::Player;
pub use record::{GameRecord, Outcome, Replay};
pub use rules::{DropTrace, NoTrace, Rules, Snapshot, Trace};
pub use variant::{Variant, VariantState, VARIANT_NAMES};
pub use vec_env::{Buffers, FirstPlayer, StepOut, VecEnv, VecEnvConfig, VecEnvError};
