//! The one game record type: written by self-play, tournaments and `ayo play`, read by
//! `ayo replay` and Python, serialised as JSON.

use crate::action::Action;
use crate::error::RecordError;
use crate::player::Player;
use crate::rules::{Rules, Snapshot};
use crate::variant::{Variant, VariantState};
use serde::{Deserialize, Serialize};

/// How a recorded game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub scores: [i32; 2],
    pub returns: [f32; 2],
    /// `true` when the game was cut by the ply cap rather than ended by the rules.
    #[serde(default)]
    pub truncated: bool,
    /// The player who forfeited the game (an external engine that crashed, timed out or chose
    /// an action that cannot be played): he lost, whatever the board says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Player>,
}

/// A game: variant@version, options, seats, the actions, the board after each action and,
/// on request, after each single seed drop ("Show Runs in Detail"), and the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// `name@version` of the preset.
    pub variant: String,
    /// Options that differ from the preset's defaults.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// Who sat where (agent names), South (player 0) first.
    #[serde(default)]
    pub seats: [String; 2],
    /// The player who moved first.
    pub first: Player,
    /// The start position in the variant's notation, when it is not the usual start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    pub actions: Vec<Action>,
    /// The player who chose each action (a turn of several decisions shows as a run of one player).
    pub movers: Vec<Player>,
    /// The board after each action.
    pub boards: Vec<Snapshot>,
    /// For each action, the board after every single drop (only when recorded in detail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drops: Option<Vec<Vec<Snapshot>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

impl GameRecord {
    /// An empty record of a game of `rules` starting from `start` (the usual start when `None`).
    pub fn new(rules: &Variant, first: Player, start: Option<String>, detail: bool) -> Self {
        GameRecord {
            variant: rules.id(),
            options: rules.options(),
            seats: Default::default(),
            first,
            start,
            actions: Vec::new(),
            movers: Vec::new(),
            boards: Vec::new(),
            drops: detail.then(Vec::new),
            outcome: None,
        }
    }

    /// Plays `action` in `state` and records it (with every drop if the record is detailed).
    pub fn play(
        &mut self,
        rules: &Variant,
        state: &mut VariantState,
        action: Action,
    ) -> Result<(), crate::PlayError> {
        let mover = rules
            .to_play(state)
            .ok_or(crate::PlayError::GameOver { action })?;
        if let Some(drops) = &mut self.drops {
            drops.push(rules.play_traced(state, action)?);
        } else {
            rules.play(state, action)?;
        }
        self.actions.push(action);
        self.movers.push(mover);
        self.boards.push(rules.snapshot(state));
        if rules.is_terminal(state) {
            self.finish(rules, state, false);
        }
        Ok(())
    }

    /// Writes the outcome (`truncated` when the ply cap ended the game).
    pub fn finish(&mut self, rules: &Variant, state: &VariantState, truncated: bool) {
        self.outcome = Some(Outcome {
            scores: rules.scores(state),
            returns: rules.returns(state),
            truncated,
            forfeit: None,
        });
    }

    /// Ends the game at `state` as lost by `loser`, who forfeited it.
    pub fn forfeit(&mut self, rules: &Variant, state: &VariantState, loser: Player) {
        let mut returns = [1.0; 2];
        returns[loser.index()] = -1.0;
        self.outcome = Some(Outcome {
            scores: rules.scores(state),
            returns,
            truncated: false,
            forfeit: Some(loser),
        });
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record always serialises")
    }

    pub fn from_json(text: &str) -> Result<Self, RecordError> {
        Ok(serde_json::from_str(text)?)
    }

    /// The record's variant with its options.
    pub fn rules(&self) -> Result<Variant, RecordError> {
        Ok(Variant::new(&self.variant, &self.options)?)
    }

    /// The game's start state.
    pub fn start_state(&self, rules: &Variant) -> Result<VariantState, RecordError> {
        Ok(match &self.start {
            Some(text) => rules.parse_notation(text)?,
            None => rules.start(self.first),
        })
    }

    /// Replays every action, checking each recorded board; returns the states after the start
    /// and after each action, and the per-drop boards of each action. A record whose boards or
    /// result disagree with the rules is refused.
    pub fn replay(&self) -> Result<Replay, RecordError> {
        let rules = self.rules()?;
        if self.boards.len() != self.actions.len() {
            return Err(RecordError::Length {
                boards: self.boards.len(),
                actions: self.actions.len(),
            });
        }
        let mut state = self.start_state(&rules)?;
        let mut states = vec![state.clone()];
        let mut drops = Vec::with_capacity(self.actions.len());
        for (index, &action) in self.actions.iter().enumerate() {
            let d = rules
                .play_traced(&mut state, action)
                .map_err(|source| RecordError::Move {
                    index,
                    action,
                    source,
                })?;
            let board = rules.snapshot(&state);
            if board != self.boards[index] {
                return Err(RecordError::BoardMismatch {
                    index,
                    found: self.boards[index].to_string(),
                    expected: board.to_string(),
                });
            }
            drops.push(d);
            states.push(state.clone());
        }
        if let Some(outcome) = &self.outcome {
            let expected = (rules.scores(&state), rules.returns(&state));
            if !outcome.truncated && (outcome.scores, outcome.returns) != expected {
                return Err(RecordError::Result {
                    found: format!("{:?}", (outcome.scores, outcome.returns)),
                    expected: format!("{expected:?}"),
                });
            }
        }
        Ok(Replay {
            rules,
            states,
            drops,
        })
    }
}

/// A replayed record.
pub struct Replay {
    pub rules: Variant,
    /// The start state and the state after each action.
    pub states: Vec<VariantState>,
    /// The boards after every drop of each action.
    pub drops: Vec<Vec<Snapshot>>,
}
