//! Typed errors of the rules core. Each names the bad value and what was expected.

use crate::action::Action;
use thiserror::Error;

/// An action that may not be played; the game was left unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("action {action} is not legal here (legal actions: {legal:?})")]
    Illegal { action: Action, legal: Vec<Action> },
    #[error("action {action} was given but the game is over")]
    GameOver { action: Action },
    #[error("action {action} is outside the action space 0..{num_actions}")]
    OutOfRange { action: Action, num_actions: usize },
}

/// A variant name, option or notation that could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseError {
    #[error("unknown variant {name:?} (expected one of: {known})")]
    UnknownVariant { name: String, known: String },
    #[error("variant {name:?} has no version {version} (expected {expected})")]
    UnknownVersion {
        name: String,
        version: String,
        expected: u32,
    },
    #[error("unknown option {option:?} for {variant} (expected one of: {expected})")]
    UnknownOption {
        variant: String,
        option: String,
        expected: String,
    },
    #[error("bad value {value:?} for option {option:?}: expected {expected}")]
    BadOptionValue {
        option: String,
        value: String,
        expected: String,
    },
    #[error("bad notation {text:?}: {reason}")]
    Notation { text: String, reason: String },
    #[error("not a position of {variant}: {reason}")]
    State { variant: String, reason: String },
}

/// A game record that cannot be replayed.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error("record is not valid JSON for a game record: {0}")]
    Json(#[from] serde_json::Error),
    #[error("record names a variant that cannot be loaded: {0}")]
    Variant(#[from] ParseError),
    #[error("record move {index} (action {action}) cannot be played: {source}")]
    Move {
        index: usize,
        action: Action,
        source: PlayError,
    },
    #[error("record board after move {index} is {found}, but replaying gives {expected}")]
    BoardMismatch {
        index: usize,
        found: String,
        expected: String,
    },
    #[error("record has {boards} boards for {actions} actions (expected one board per action)")]
    Length { boards: usize, actions: usize },
    #[error("record result {found} differs from the replayed result {expected}")]
    Result { found: String, expected: String },
}
