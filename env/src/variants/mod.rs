//! One file per variant, each reading like its section of RULES.md.

pub mod ayo;
pub mod ayoayo;
pub mod ncho;
pub mod oware;
