//! The arena: the classic baseline [`agents`], books of moves ([`book`]), the one match driver and tournaments
//! ([`tournament`]), Elo ratings with intervals ([`rating`]) and the reports built from them
//! ([`report`]), and the per-variant rating [`ladder`] that `ayo rate` places agents on. Every
//! agent plays through the [`crate::Agent`] trait.

pub mod agents;
pub mod book;
pub mod ladder;
pub mod rating;
pub mod report;
pub mod tournament;
