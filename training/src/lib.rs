//! ayo-train: network, search, self-play, trainer, tournaments.

pub mod device;
