//! `mcts:N`: UCT (upper confidence bounds applied to trees) with uniformly random rollouts.
//!
//! Each simulation descends the tree by UCB1 from the view of the player choosing at each node,
//! adds one new child, plays a random game from it to the end, and adds the result of the
//! player who chose each edge to that edge's child. Results are per player, so turns with
//! several decisions by the same player need no special case. The most visited root action is
//! played.

use crate::action::{Action, ActionMask};
use crate::agent::{Agent, Analysis};
use crate::player::Player;
use crate::rng::Rng;
use crate::rules::{round_margin, Rules};
use crate::tablebase::{NoTable, Oracle, Tablebase};
use crate::variant::{Variant, VariantState};
use std::sync::Arc;

/// A rollout longer than this many plies is scored by the sign of [`Rules::heuristic`].
const MAX_ROLLOUT: u32 = 2000;

/// UCT search with random rollouts, a fixed number of simulations per move.
#[derive(Clone, Debug)]
pub struct Mcts {
    simulations: u32,
    /// The exploration constant of UCB1 (results lie in [-1, 1]).
    pub exploration: f32,
    rng: Rng,
    /// The endgame table that ends a line where it knows the result (`mcts:N+tb`).
    table: Option<Arc<Tablebase>>,
    /// Positions of the current search answered by the table.
    table_hits: u64,
}

struct Node<S> {
    state: S,
    /// The player to move here, `None` when the game is over.
    mover: Option<Player>,
    /// The action that led here from the parent.
    action: Action,
    parent: u32,
    children: Vec<u32>,
    untried: ActionMask,
    visits: u32,
    /// Sum of the results of the parent's mover over the simulations through this node.
    total: f32,
    /// Each player's result under best play, where the table knows it: a leaf.
    known: Option<[f32; 2]>,
}

impl Mcts {
    pub fn new(simulations: u32, seed: u64) -> Self {
        Mcts {
            simulations: simulations.max(1),
            exploration: 2.0,
            rng: Rng::stream(seed, &[0x6d63_7473]),
            table: None,
            table_hits: 0,
        }
    }

    /// The same search ending its lines where `table` knows the result.
    pub fn with_table(mut self, table: Arc<Tablebase>) -> Self {
        self.table = Some(table);
        self
    }

    /// The most visited root action of the live game `s` and its mean result for the mover.
    pub fn search<R: Rules>(&mut self, rules: &R, s: &R::State) -> (Action, f32) {
        self.search_with(rules, s, &NoTable)
    }

    /// [`Mcts::search`] where a position whose result `oracle` knows is a leaf worth that
    /// result, in the tree and in the rollouts (the root excepted: its move is searched).
    pub fn search_with<R: Rules, O: Oracle<R::State>>(
        &mut self,
        rules: &R,
        s: &R::State,
        oracle: &O,
    ) -> (Action, f32) {
        self.table_hits = 0;
        let root_mask = rules.legal_mask(s);
        let bound = rules.heuristic_bound() as f32;
        let mut nodes = vec![Node {
            state: s.clone(),
            mover: rules.to_play(s),
            action: 0,
            parent: u32::MAX,
            children: Vec::new(),
            untried: root_mask,
            visits: 0,
            total: 0.0,
            known: None,
        }];
        for _ in 0..self.simulations {
            // Selection: descend through fully expanded nodes.
            let mut n = 0usize;
            while nodes[n].untried.is_empty() && !nodes[n].children.is_empty() {
                n = self.select(&nodes, n);
            }
            // Expansion: one untried action, chosen at random.
            if !nodes[n].untried.is_empty() {
                let a = self.rng.pick(nodes[n].untried);
                nodes[n].untried.0 &= !(1u64 << a);
                let mut state = nodes[n].state.clone();
                rules.play_unchecked(&mut state, a);
                let known = oracle.solve(&state).map(|solved| solved.returns());
                let child = Node {
                    mover: rules.to_play(&state),
                    untried: match known {
                        Some(_) => ActionMask::EMPTY,
                        None => rules.legal_mask(&state),
                    },
                    state,
                    action: a,
                    parent: n as u32,
                    children: Vec::new(),
                    visits: 0,
                    total: 0.0,
                    known,
                };
                nodes.push(child);
                let c = nodes.len() - 1;
                nodes[n].children.push(c as u32);
                n = c;
            }
            // Rollout, then backpropagation of each player's result.
            let result = match nodes[n].known {
                Some(known) => {
                    self.table_hits += 1;
                    known
                }
                None => self.rollout(rules, oracle, &nodes[n].state, bound),
            };
            loop {
                nodes[n].visits += 1;
                let parent = nodes[n].parent;
                if parent == u32::MAX {
                    break;
                }
                let chooser = nodes[parent as usize].mover.expect("a parent is live");
                nodes[n].total += result[chooser.index()];
                n = parent as usize;
            }
        }
        let best = nodes[0]
            .children
            .iter()
            .map(|&c| &nodes[c as usize])
            .max_by_key(|c| c.visits)
            .expect("a live root has children");
        (best.action, best.total / best.visits.max(1) as f32)
    }

    /// The child of `n` with the highest UCB1 score from the view of `n`'s mover.
    fn select<S>(&self, nodes: &[Node<S>], n: usize) -> usize {
        let log_n = (nodes[n].visits.max(1) as f32).ln();
        let mut best = (0, f32::NEG_INFINITY);
        for &c in &nodes[n].children {
            let child = &nodes[c as usize];
            let v = child.visits as f32;
            let ucb = child.total / v + self.exploration * (log_n / v).sqrt();
            if ucb > best.1 {
                best = (c as usize, ucb);
            }
        }
        best.0
    }

    /// Each player's result of a uniformly random game from `s`. A rollout stops at the end
    /// of the round it started in (whole matches of the fours games), scored by
    /// [`round_margin`] (7 houses to 5 is worth 1/6, all 12 the match's 1), or after
    /// [`MAX_ROLLOUT`] plies, scored by the sign of [`Rules::heuristic`].
    ///
    /// A round's end scored by its sign alone would read 7 houses and 11 as the same win: the
    /// search would not work to take the last houses and end the match (`mcts:1000` then drew
    /// 8 of 20 whole ncho matches against `random` at the 5000-ply cap; by the margin it wins
    /// 20 of 20, in 15-93 plies).
    /// `bound` is [`Rules::heuristic_bound`], computed once per search.
    fn rollout<R: Rules, O: Oracle<R::State>>(
        &mut self,
        rules: &R,
        oracle: &O,
        s: &R::State,
        bound: f32,
    ) -> [f32; 2] {
        let mut s = s.clone();
        let round = rules.round(&s);
        let mut round_over = false;
        for _ in 0..MAX_ROLLOUT {
            if let Some(solved) = oracle.solve(&s) {
                self.table_hits += 1;
                return solved.returns();
            }
            let mask = rules.legal_mask(&s);
            if mask.is_empty() {
                return rules.returns(&s);
            }
            rules.play_unchecked(&mut s, self.rng.pick(mask));
            if rules.round(&s) != round {
                round_over = true;
                break;
            }
        }
        if rules.to_play(&s).is_none() {
            return rules.returns(&s);
        }
        let d = if round_over {
            round_margin(rules, &s, bound)
        } else {
            rules.heuristic(&s, Player::South).signum() as f32
        };
        [d, -d]
    }
}

impl Agent for Mcts {
    fn random_state(&self) -> Option<u64> {
        Some(self.rng.state())
    }
    fn set_random_state(&mut self, state: u64) {
        self.rng = Rng::from_state(state);
    }
    fn name(&self) -> String {
        let table = if self.table.is_some() { "+tb" } else { "" };
        format!("mcts:{}{table}", self.simulations)
    }
    fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
        let (a, value) = match self.table.clone() {
            Some(table) => self.search_with(rules, s, &*table),
            None => self.search(rules, s),
        };
        (
            a,
            Analysis {
                value: Some(value),
                work: self.simulations as u64,
                table_hits: self.table_hits,
            },
        )
    }
}
