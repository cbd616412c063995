//! ayo-train: network, search, self-play, trainer, tournaments.
//!
//! * [`net`]: the residual MLP policy/value network;
//! * [`search`]: batched Gumbel MCTS over many games at once;
//! * [`selfplay`], [`replay`], [`trainer`], [`run`]: AlphaZero-style training;
//! * [`checkpoint`]: atomic checkpoints with metadata;
//! * [`agent`]: [`agent::NetAgent`], the trained network as an `ayo_env::Agent`;
//! * [`engine`]: the text protocol of `ayo engine`; [`external`]: a program speaking it, as an
//!   agent (`ayo rate --engine`);
//! * [`config`]: the one training configuration;
//! * [`serve`]: the web page and JSON API of `ayo serve`;
//! * [`shipped`]: `models/shipped.json`, each variant's shipped network;
//! * [`rungs`]: a rating ladder's rungs as players, networks checked by their hash;
//! * [`distributed`], [`storage`], [`shard`]: self-play workers and a learner sharing a folder
//!   or a bucket.
//!
//! The `torch` feature (on by default) brings everything that needs libtorch: the network and
//! all that uses it, and the `ayo` binary. Without it the crate is the torch-free part: the
//! configuration reader, the engine protocol, the search and [`net::NetShape`] (the fuzz
//! targets build it that way).

pub mod agent;
pub mod checkpoint;
pub mod config;
#[cfg(feature = "torch")]
pub mod device;
#[cfg(feature = "torch")]
pub mod distributed;
pub mod engine;
#[cfg(feature = "torch")]
pub mod eval;
pub mod external;
#[cfg(feature = "torch")]
pub mod logger;
pub mod net;
#[cfg(feature = "torch")]
pub mod replay;
#[cfg(feature = "torch")]
pub mod run;
pub mod rungs;
pub mod search;
#[cfg(feature = "torch")]
pub mod selfplay;
#[cfg(feature = "torch")]
pub mod serve;
#[cfg(feature = "torch")]
pub mod shard;
pub mod shipped;
#[cfg(feature = "torch")]
pub mod storage;
#[cfg(feature = "torch")]
pub mod trainer;
