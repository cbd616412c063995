//! ayo-train: network, search, self-play, trainer, tournaments.
//!
//! * [`net`]: the residual MLP policy/value network;
//! * [`search`]: batched Gumbel MCTS over many games at once;
//! * [`selfplay`], [`replay`], [`trainer`], [`run`]: AlphaZero-style training;
//! * [`checkpoint`]: atomic checkpoints with metadata;
//! * [`agent`]: [`agent::NetAgent`], the trained network as an `ayo_env::Agent`;
//! * [`engine`]: the text protocol of `ayo engine`;
//! * [`config`]: the one training configuration.

pub mod agent;
pub mod checkpoint;
pub mod config;
pub mod device;
pub mod engine;
pub mod eval;
pub mod logger;
pub mod net;
pub mod replay;
pub mod run;
pub mod search;
pub mod selfplay;
pub mod trainer;
