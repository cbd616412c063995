//! One file per variant, each reading like its section of docs/rules.md, grouped by family:
//!
//! * two-row capture games on a 2 × 6 board with stores: [`two_row`] (the shared board, sowing
//!   and capture primitives), [`oware`], [`ayo`], [`ayoayo`];
//! * relay sowing: [`relay`] (one relay loop with its cycle check), [`jodu`] (relay with a
//!   capture), and the fours games, [`fours`] (houses, ownership, rounds and matches) with
//!   [`ncho`], [`adi`], [`jerin`];
//! * [`yao`], the four-row game with hands and a village.

pub mod ayo;
pub mod ayoayo;
pub mod oware;
pub mod two_row;

pub mod adi;
pub mod fours;
pub mod jerin;
pub mod jodu;
pub mod ncho;
pub mod relay;

pub mod yao;
