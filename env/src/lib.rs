//! # ayo-env — the rules core of the Ayo family
//!
//! Pure rules, boards and batches; nothing of torch. One [`Rules`] trait that every variant
//! implements (one file per variant in [`variants`]), a runtime [`Variant`] enum that
//! dispatches to them, [`GameRecord`]s, [`perft()`], the [`Agent`] abstraction with the classic
//! baseline [`agents`], and the vectorised environment [`VecEnv`].
//!
//! ```
//! use ayo_env::{perft, Player, Rules, Variant};
//! let oware = Variant::new("oware@1", &[]).unwrap();
//! assert_eq!(perft(&oware, &oware.start(Player::South), 4), 1014);
//! ```

pub mod action;
pub mod agent;
pub mod agents;
pub mod board;
pub mod error;
pub mod fours;
pub mod perft;
pub mod player;
pub mod rating;
pub mod record;
pub mod relay;
pub mod repetition;
pub mod report;
pub mod rng;
pub mod rules;
pub mod tournament;
pub mod two_row;
pub mod variant;
pub mod variants;
pub mod vec_env;

pub use action::{Action, ActionMask};
pub use agent::{Agent, Analysis};
pub use error::{ParseError, PlayError, RecordError};
pub use perft::perft;
pub use player::Player;
pub use record::{GameRecord, Outcome, Replay};
pub use rules::{DropTrace, NoTrace, Rules, Snapshot, Trace};
pub use variant::{Variant, VariantState, VARIANT_NAMES};
pub use vec_env::{Buffers, FirstPlayer, StepOut, VecEnv, VecEnvConfig, VecEnvError};
