//! The check of a table against search: the value of a board found by alpha-beta over the game
//! itself, the repetition memory carried along every line, independently of the build's
//! retrograde analysis ([`check_layer`]).

use super::game::{rows_margin, Game, Move, Node, Turn};
use super::Tablebase;
use crate::action::Action;
use crate::rng::Rng;
use std::collections::HashMap;

/// Alpha-beta over the game with its repetition memory, to the end. The value of a node with
/// a fresh memory (right after a capture) is a function of the node, so it is remembered once
/// found; with `lower`, a capture's child in a layer already checked is read from its exact entry.
pub struct Search<'a> {
    game: Game,
    lower: Option<(&'a Tablebase, usize)>,
    fresh: HashMap<Node, i32>,
    nodes: u64,
    cap: u64,
}

impl<'a> Search<'a> {
    /// A search of `game` that stops a node after `cap` nodes. `lower`: a table (of `game`)
    /// whose layers below `below` seeds may be probed for captures' children.
    pub fn new(game: Game, cap: u64, lower: Option<(&'a Tablebase, usize)>) -> Self {
        Search {
            game,
            lower,
            fresh: HashMap::new(),
            nodes: 0,
            cap,
        }
    }

    /// The value of `node` with the memory holding it alone; `None` past the node cap.
    pub fn value(&mut self, node: &Node) -> Option<i32> {
        self.nodes = 0;
        self.fresh_value(node)
    }

    /// Whether the value of `node` (memory holding it alone) is at least `lo` and at most `hi`,
    /// by two null-window searches; `None` past the node cap.
    pub fn holds(&mut self, node: &Node, lo: i32, hi: i32) -> Option<bool> {
        self.nodes = 0;
        let at_least = self.line(node, &mut vec![*node], lo - 1, lo)? >= lo;
        let at_most = self.line(node, &mut vec![*node], hi, hi + 1)? <= hi;
        Some(at_least && at_most)
    }

    /// What the legal move `action` of `node` (memory holding it alone) is worth to its
    /// mover, exactly; `None` past the node cap.
    pub fn move_value(&mut self, node: &Node, action: Action) -> Option<i32> {
        self.nodes = 0;
        Some(match self.game.play(node, action) {
            Move::Capture { taken, node: child } => taken as i32 - self.fresh_value(&child)?,
            Move::Quiet { node: child } => {
                -self.line(&child, &mut vec![*node, child], -1000, 1000)?
            }
        })
    }

    /// Whether the legal move `action` of `node` (memory holding it alone) is worth at least
    /// `t` to its mover, by a null-window search; `None` past the node cap.
    pub fn move_at_least(&mut self, node: &Node, action: Action, t: i32) -> Option<bool> {
        self.nodes = 0;
        Some(match self.game.play(node, action) {
            Move::Capture { taken, node: child } => {
                // taken − value(child) ≥ t ⇔ value(child) ≤ taken − t.
                let bound = taken as i32 - t;
                let known = self.lower.and_then(|(table, _)| table.probe_node(&child));
                match known {
                    Some(e) if e.hi as i32 <= bound => true,
                    Some(e) if e.lo as i32 > bound => false,
                    _ => self.line(&child, &mut vec![child], bound, bound + 1)? <= bound,
                }
            }
            Move::Quiet { node: child } => {
                self.line(&child, &mut vec![*node, child], -t, -t + 1)? <= -t
            }
        })
    }

    fn fresh_value(&mut self, node: &Node) -> Option<i32> {
        if let Some(&v) = self.fresh.get(node) {
            return Some(v);
        }
        if let Some((table, below)) = self.lower {
            if node.seeds() < below {
                let e = table.probe_node(node).filter(|e| e.is_exact());
                if let Some(e) = e {
                    return Some(e.lo as i32);
                }
            }
        }
        let v = self.line(node, &mut vec![*node], -1000, 1000)?;
        self.fresh.insert(*node, v);
        Some(v)
    }

    /// Puts the moves that the table's entries say are best first (a child's entry holds for a
    /// fresh memory, so it only guesses a quiet move's worth here; the order changes no value,
    /// only how soon alpha-beta cuts). Without a table the order is the actions'.
    fn order(&self, list: &mut [Move]) {
        let Some((table, _)) = self.lower else { return };
        let mid = |node: &Node| {
            table
                .probe_node(node)
                .map_or(0, |e| (e.lo as i32 + e.hi as i32) / 2)
        };
        list.sort_by_cached_key(|m| match m {
            Move::Capture { taken, node } => mid(node) - *taken as i32,
            Move::Quiet { node } => mid(node),
        });
    }

    /// Negamax with alpha-beta on `node`, `memory` the nodes since the last capture (the last
    /// is `node`).
    fn line(
        &mut self,
        node: &Node,
        memory: &mut Vec<Node>,
        mut alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.cap {
            return None;
        }
        let mask = match self.game.turn(node) {
            Turn::Over(v) => return Some(v),
            Turn::Moves(mask) => mask,
        };
        let mut list: Vec<Move> = mask.iter().map(|a| self.game.play(node, a)).collect();
        self.order(&mut list);
        let mut best = i32::MIN;
        for m in list {
            let v = match m {
                Move::Capture { taken, node: child } => {
                    // The capture empties the memory: the child's value does not depend on it.
                    taken as i32 - self.fresh_value(&child)?
                }
                // The end of the game at the child (no move in `oware`; retaliation or
                // exhaustion in `ayoayo`) comes before the repetition rule.
                Move::Quiet { node: child } if repeats(memory, &child) => {
                    match self.game.turn(&child) {
                        Turn::Over(v) => -v,
                        Turn::Moves(_) => -rows_margin(&child.pits),
                    }
                }
                Move::Quiet { node: child } => {
                    memory.push(child);
                    let v = self.line(&child, memory, -beta, -alpha);
                    memory.pop();
                    -v?
                }
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// Whether the node `child`, reached from the last node of `memory`, repeats a position of the
/// memory: the same node with the same player to move, so one an even number of plies back
/// (the memory's nodes alternate movers).
pub fn repeats(memory: &[Node], child: &Node) -> bool {
    memory.iter().rev().skip(1).step_by(2).any(|b| b == child)
}

/// How a layer's entries compare with search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Check {
    pub seeds: usize,
    /// Boards searched (every board of the layer, or a random sample).
    pub searched: u64,
    /// Of those, exact entries equal to the search's value, and inexact ones whose bounds hold it.
    pub exact_agree: u64,
    pub bounds_hold: u64,
    /// Boards the search gave up on at the node cap.
    pub capped: u64,
    /// Nodes whose entry the search contradicts: the node, lo, hi, value.
    pub wrong: Vec<(Node, i8, i8, i32)>,
}

/// Checks the layer of `seeds` seeds of `table` against [`Search`]: every board when `sample`
/// is `None`, else that many boards drawn at random (seeded); each entry's two bounds are proved
/// by null-window searches (an exact entry: its value, from both sides). With `probe_lower`,
/// captures' children are read from the exact entries of the smaller layers (checked before);
/// otherwise searched to the end. A wrong entry is listed with its value searched in full
/// (`i32::MIN` past the cap).
pub fn check_layer(
    table: &Tablebase,
    seeds: usize,
    sample: Option<(u64, u64)>,
    probe_lower: bool,
    cap: u64,
) -> Check {
    let game = table.game();
    let boards = game.nodes(seeds);
    let ranks: Vec<u64> = match sample {
        None => (0..boards).collect(),
        Some((count, seed)) => {
            let mut rng = Rng::new(seed);
            (0..count.min(boards))
                .map(|_| rng.next_u64() % boards)
                .collect()
        }
    };
    let mut search = Search::new(game, cap, probe_lower.then_some((table, seeds)));
    let mut check = Check {
        seeds,
        ..Default::default()
    };
    for rank in ranks {
        let node = game.unrank(rank, seeds);
        let entry = table.probe_node(&node).expect("the layer is in the table");
        check.searched += 1;
        match search.holds(&node, entry.lo as i32, entry.hi as i32) {
            None => check.capped += 1,
            Some(true) if entry.is_exact() => check.exact_agree += 1,
            Some(true) => check.bounds_hold += 1,
            Some(false) => {
                let v = search.value(&node).map_or(i32::MIN, |v| v);
                check.wrong.push((node, entry.lo, entry.hi, v));
            }
        }
    }
    check
}

#[cfg(test)]
mod tests {
    use super::repeats;
    use crate::tablebase::Node;

    #[test]
    fn a_repetition_is_the_same_board_with_the_same_player_to_move() {
        // The memory alternates movers: after a, b, c (c's mover moves, the child's mover is
        // b's), only b, two plies before the child, can be repeated; a had the other mover.
        let (a, b, c) = (
            Node::board([1u8; 12]),
            Node::board([2u8; 12]),
            Node::board([3u8; 12]),
        );
        let memory = [a, b, c];
        assert!(repeats(&memory, &b));
        let other_mover = "the same board with the other player to move";
        assert!(!repeats(&memory, &a), "{other_mover}");
        assert!(!repeats(&memory, &c));
        assert!(!repeats(&[c], &c), "{other_mover}");
    }
}
