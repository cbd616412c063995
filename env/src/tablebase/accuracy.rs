//! The optimal-move metric: what each legal move of a position is worth by the table, and how
//! far a player's move falls from the best (`ayo accuracy`, docs/tablebase.md).
//!
//! A position qualifies when the game's memory is fresh (right after a capture), its board is in
//! the table, and the worth of every legal move is found exactly ([`label`]): a capture's by the
//! table below (searched where its entry is inexact), a quiet move's by alpha-beta with the
//! repetition memory ([`Search::move_values`]), each within a node cap.

use super::search::Search;
use super::{board_of, memory_is_fresh, Tablebase};
use crate::action::Action;
use crate::rules::Rules;
use crate::variant::{Variant, VariantState};

/// Nodes a move's search may visit when a position is labelled.
pub const MOVE_CAP: u64 = 200_000;

/// A position's moves by their exact worth to the mover (the margin he will make after it).
#[derive(Clone, Debug, PartialEq)]
pub struct Labels {
    /// Seeds on the board.
    pub seeds: usize,
    /// The mover's store minus the other's.
    pub stores: i32,
    /// Each legal move and its worth.
    pub moves: Vec<(Action, i32)>,
}

impl Labels {
    /// The best worth: the board's value.
    pub fn best(&self) -> i32 {
        self.moves
            .iter()
            .map(|m| m.1)
            .max()
            .expect("a live position")
    }

    /// What `action` is worth, if legal.
    pub fn worth(&self, action: Action) -> Option<i32> {
        self.moves.iter().find(|m| m.0 == action).map(|m| m.1)
    }

    /// Whether `action` keeps the game's result (win, draw or loss under best play).
    pub fn keeps_result(&self, action: Action) -> bool {
        self.worth(action)
            .is_some_and(|w| (self.stores + w).signum() == (self.stores + self.best()).signum())
    }
}

/// The labels of `state` (a game of `oware`), or `None` where it does not qualify.
pub fn label(table: &Tablebase, rules: &Variant, state: &VariantState) -> Option<Labels> {
    if !memory_is_fresh(state) {
        return None;
    }
    let pits = board_of(state)?;
    let seeds: usize = pits.iter().map(|&s| s as usize).sum();
    table.probe_board(&pits)?;
    let mover = rules.to_play(state)?;
    let scores = rules.scores(state);
    let moves = Search::new(MOVE_CAP, Some((table, seeds))).move_values(&pits)?;
    Some(Labels {
        seeds,
        stores: scores[mover.index()] - scores[(!mover).index()],
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
    /// Seeds lost against the best, summed.
    pub seeds_lost: u64,
}

impl Tally {
    pub fn add(&mut self, labels: &Labels, action: Action) {
        let worth = labels.worth(action).expect("a legal move");
        self.positions += 1;
        self.result_kept += labels.keeps_result(action) as u64;
        self.margin_kept += (worth == labels.best()) as u64;
        self.seeds_lost += (labels.best() - worth) as u64;
    }

    /// The share of moves that keep the result, that keep the margin, and the mean seeds lost.
    pub fn shares(&self) -> (f64, f64, f64) {
        let n = self.positions.max(1) as f64;
        (
            self.result_kept as f64 / n,
            self.margin_kept as f64 / n,
            self.seeds_lost as f64 / n,
        )
    }
}
