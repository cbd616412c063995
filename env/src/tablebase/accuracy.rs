//! The optimal-move metric: what each legal move of a position is worth by the table, and how
//! far a player's move falls from the best (`ayo accuracy`, docs/tablebase.md).
//!
//! A position qualifies when the game's memory is fresh (right after a capture) and its board's
//! entry is exact ([`label`]). Each legal move is then judged by null-window searches against
//! the value: a capture by the entry below it (searched where that does not decide), a quiet
//! move by alpha-beta with the repetition memory ([`Search::move_at_least`]), within a node cap.

use super::search::Search;
use super::{memory_is_fresh, Tablebase};
use crate::action::Action;
use crate::rules::Rules;
use crate::variant::{Variant, VariantState};

/// Nodes a move's search may visit when a position is labelled.
pub const MOVE_CAP: u64 = 200_000;

/// One legal move of a labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLabel {
    pub action: Action,
    /// Whether it keeps the game's result (win, draw or loss under best play, with the stores).
    pub keeps_result: bool,
    /// Whether it is worth the position's value: the best margin.
    pub keeps_margin: bool,
    /// Its exact worth to the mover, where a full search of it fits the cap.
    pub worth: Option<i32>,
}

/// A position's moves judged by the table: whether each keeps the result and the margin.
#[derive(Clone, Debug, PartialEq)]
pub struct Labels {
    /// Seeds on the board.
    pub seeds: usize,
    /// The mover's store minus the other's.
    pub stores: i32,
    /// The board's exact value (the best move's worth).
    pub value: i32,
    pub moves: Vec<MoveLabel>,
}

impl Labels {
    /// The label of `action`, if legal.
    pub fn get(&self, action: Action) -> Option<&MoveLabel> {
        self.moves.iter().find(|m| m.action == action)
    }

    /// Whether `action` keeps the game's result.
    pub fn keeps_result(&self, action: Action) -> bool {
        self.get(action).is_some_and(|m| m.keeps_result)
    }

    /// Whether the moves differ: some move loses the result or the margin.
    pub fn informative(&self) -> bool {
        self.moves.iter().any(|m| !m.keeps_margin)
    }
}

/// The labels of `state` (a game of the table's game), or `None` where it does not qualify: the memory
/// not fresh, the board outside the table or its entry inexact, or a move's test past the cap.
/// A move keeps the result when its worth `w` gives the stores' difference `d` the sign of
/// `d + value` (null-window searches: `w ≥ −d + 1` for a win, `w ≥ −d` for a draw; in a lost
/// position every move keeps it), and the margin when `w ≥ value`.
pub fn label(table: &Tablebase, rules: &Variant, state: &VariantState) -> Option<Labels> {
    if !memory_is_fresh(state) {
        return None;
    }
    let game = table.game();
    let node = game.node_of(state)?;
    let seeds = node.seeds();
    let entry = table.probe_node(&node).filter(|e| e.is_exact())?;
    let value = entry.lo as i32;
    let mover = rules.to_play(state)?;
    let scores = rules.scores(state);
    let stores = scores[mover.index()] - scores[(!mover).index()];
    let result_at = match (stores + value).signum() {
        1 => Some(1 - stores),
        0 => Some(-stores),
        _ => None,
    };
    let mut search = Search::new(game, MOVE_CAP, Some((table, seeds)));
    let mut moves = Vec::new();
    for action in game.legal(&node).iter() {
        let keeps_margin = search.move_at_least(&node, action, value)?;
        let keeps_result = match result_at {
            Some(t) if t == value => keeps_margin,
            Some(t) => search.move_at_least(&node, action, t)?,
            None => true,
        };
        let worth = if keeps_margin {
            Some(value)
        } else {
            search.move_value(&node, action)
        };
        moves.push(MoveLabel {
            action,
            keeps_result,
            keeps_margin,
            worth,
        });
    }
    Some(Labels {
        seeds,
        stores,
        value,
        moves,
    })
}

/// How a player's moves compare with the best, over positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub positions: u64,
    /// Moves that keep the game's result.
    pub result_kept: u64,
    /// Moves worth the best margin.
    pub margin_kept: u64,
    /// Seeds lost against the best, summed over the moves whose worth is known.
    pub seeds_lost: u64,
    /// Moves whose worth is known.
    pub worth_known: u64,
}

impl Tally {
    pub fn add(&mut self, labels: &Labels, action: Action) {
        let m = labels.get(action).expect("a legal move");
        self.positions += 1;
        self.result_kept += m.keeps_result as u64;
        self.margin_kept += m.keeps_margin as u64;
        if let Some(w) = m.worth {
            self.worth_known += 1;
            self.seeds_lost += (labels.value - w) as u64;
        }
    }

    /// The share of moves that keep the result, that keep the margin, and the mean seeds lost
    /// (over the moves whose worth is known).
    pub fn shares(&self) -> (f64, f64, f64) {
        let n = self.positions.max(1) as f64;
        (
            self.result_kept as f64 / n,
            self.margin_kept as f64 / n,
            self.seeds_lost as f64 / self.worth_known.max(1) as f64,
        )
    }
}
