//! One file per variant, each reading like its section of docs/rules.md.

pub mod adi;
pub mod ayo;
pub mod ayoayo;
pub mod jerin;
pub mod jodu;
pub mod ncho;
pub mod oware;
pub mod yao;
