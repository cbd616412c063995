//! `alphabeta:D`: negamax with alpha-beta pruning, iterative deepening, move ordering and a
//! transposition table keyed by the position and the repetition memory ([`Rules::hash`],
//! [`Rules::memory_hash`]). `alphabeta@TIME` deepens until its time per move is spent: the
//! iteration under way when time runs out is dropped and the last finished one plays (the
//! previous best move is searched first, so a finished iteration is never worse informed), and
//! it stops early at a proven result.
//!
//! Every search starts from an empty table: what `alphabeta:D` plays in a position depends on
//! the position, `D` and its random tie-break alone, not on the searches before it. (A table kept
//! across searches let a position met again be searched deeper than `D` plies, so the baseline's
//! strength depended on the games it had played and on how many a match driver interleaved.)
//!
//! A costly leaf ([`Leaf::BATCHED`]: a network, `PATH@TIME+ab`) changes three things, each
//! saving forward passes (`ayo bench --checkpoint`: to depth 8 in the positions of a game,
//! 4,613 positions valued a search without them, 2,780 with them):
//! * the table is kept from one search to the next, so the line the game follows was already
//!   searched a few plies deep (alone: 4,171 → 2,780);
//! * principal-variation search: the first move of a node with a full window, the others with
//!   a null window, searched again only when one beats the first (3,045 → 2,780);
//! * the moves are ordered by their positions' scores in the table (from the iteration
//!   before), where there are any, before the rules' heuristic (2,886 → 2,780);
//! * late move reductions: at a node 3 or more plies from the horizon, a move ordered third or
//!   later that captures nothing is searched a ply shallower with a null window first, and to
//!   the full depth only if it beats the best so far (at 500 ms a move in 40 positions of
//!   random games: 11.8 → 13.3 plies deep). Its scores are no longer minimax's, but a result
//!   it proves is proved (tests).
//!
//! The score of a position is [`Rules::heuristic`] from the mover's view (in most variants the
//! score difference; in the fours games the houses expected next round), and
//! exactly ±[`WIN`] (less the plies played, so quicker wins and slower losses are preferred)
//! plus the final difference when the game is over. Turns with several decisions by the same
//! player (Yao) are handled by negating a child's value only when the player to move changes.
//! The table keeps a proven result's plies counted from its node (`rebase`), so it reads
//! right where the same position is met after more or fewer plies.

use crate::action::Action;
use crate::agent::{Agent, Analysis};
use crate::player::Player;
use crate::rng::{mix, Rng};
use crate::rules::Rules;
use crate::tablebase::{NoTable, Oracle, Solved, Tablebase};
use crate::variant::{Variant, VariantState};
use crate::{Budget, Progress};
use std::cell::RefCell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The score of a won game (before the ply and score-difference adjustments).
pub const WIN: i32 = 1_000_000;
const INF: i32 = i32::MAX - 1;
/// Transposition-table entries (16 bytes each: 4 MiB).
const TT_SIZE: usize = 1 << 18;
/// The deepest search: `alphabeta:D`'s largest D, and where a timed search (`alphabeta@TIME`)
/// stops deepening.
pub const MAX_SEARCH_DEPTH: u32 = 64;
/// Nodes between two looks at the clock (or at the caller's stop) in a timed search.
pub const POLL_NODES: u64 = 1024;
/// How much less than a win found by search a win known from the endgame table scores (its
/// length is unknown): a line the search sees to the end is preferred.
const TABLE_PLIES: i32 = 1000;
/// Late move reductions (a costly leaf's search): at a node this many plies from the horizon
/// or more, the moves ordered from this one on (counted from 0) that capture nothing are
/// searched a ply less deep first.
const REDUCE_FROM_DEPTH: u32 = 3;
const REDUCE_FROM_MOVE: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least the stored score (a beta cut-off).
    Lower,
    /// The true value is at most the stored score (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: Action,
    /// The search that wrote the entry ([`AlphaBeta::generation`]); other searches ignore it.
    generation: u8,
}

/// Alpha-beta search to a fixed depth in plies, or for a time per move.
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    depth: u32,
    /// Deepen until this much time is spent instead of to `depth` (`alphabeta@TIME`).
    movetime: Option<Duration>,
    rng: Rng,
    tt: Vec<Option<Entry>>,
    /// Tags the entries of the current search: a new search takes the next tag, so the table
    /// reads as empty without being cleared (it is cleared when the tag wraps).
    generation: u8,
    nodes: u64,
    /// The endgame table that ends a line where it knows the result (`alphabeta:D+tb`).
    table: Option<Arc<Tablebase>>,
    /// Positions of the current search answered by the table.
    table_hits: u64,
    /// The current iteration ran out of time (or was stopped): its scores are dropped.
    stopped: bool,
}

/// What a search may spend on one move: the deepest iteration, and when to stop one under way
/// (`None`: never; else asked every [`POLL_NODES`] nodes once the first iteration is done).
struct Limit<'a> {
    depth: u32,
    go_on: Option<&'a mut dyn FnMut() -> bool>,
}

impl AlphaBeta {
    pub fn new(depth: u32, seed: u64) -> Self {
        AlphaBeta {
            depth: depth.max(1),
            movetime: None,
            rng: Rng::stream(seed, &[0x6162]),
            tt: Vec::new(),
            generation: 0,
            nodes: 0,
            table: None,
            table_hits: 0,
            stopped: false,
        }
    }

    /// The same search deepening for `movetime` per move instead of to a fixed depth
    /// (`alphabeta@TIME`).
    pub fn with_movetime(mut self, movetime: Duration) -> Self {
        self.movetime = Some(movetime);
        self
    }

    /// The same search ending its lines where `table` knows the result.
    pub fn with_table(mut self, table: Arc<Tablebase>) -> Self {
        self.table = Some(table);
        self
    }

    /// The best action in the live game `s` at the full depth, its score from the mover's view
    /// and the nodes searched. Among equally good root actions the choice is random.
    pub fn search<R: Rules>(&mut self, rules: &R, s: &R::State) -> (Action, i32, u64) {
        self.search_with(rules, s, &NoTable)
    }

    /// [`AlphaBeta::search`] where a line ends at a position whose result `oracle` knows (the
    /// root excepted: its move is searched).
    pub fn search_with<R: Rules, O: Oracle<R::State>>(
        &mut self,
        rules: &R,
        s: &R::State,
        oracle: &O,
    ) -> (Action, i32, u64) {
        let limit = Limit {
            depth: self.depth,
            go_on: None,
        };
        self.run(rules, s, oracle, &mut Heuristic, limit, &mut |_, _, _| true)
    }

    /// [`AlphaBeta::search_with`] deepening until `movetime` is spent (at least one ply).
    pub fn search_for<R: Rules, O: Oracle<R::State>>(
        &mut self,
        rules: &R,
        s: &R::State,
        oracle: &O,
        movetime: Duration,
    ) -> (Action, i32, u64) {
        let deadline = Instant::now() + movetime;
        let limit = Limit {
            depth: MAX_SEARCH_DEPTH,
            go_on: Some(&mut || Instant::now() < deadline),
        };
        self.run(rules, s, oracle, &mut Heuristic, limit, &mut |_, _, _| true)
    }

    /// Iterative deepening of the live game `s` within `limit`, the lines' last positions
    /// valued by `leaf`, telling `report` each finished iteration's best action and score,
    /// nodes and table hits (it returns `false` to stop there). A timed search stops once a
    /// result is proven: deeper iterations only confirm it.
    fn run<R: Rules, O: Oracle<R::State>, L: Leaf<R>>(
        &mut self,
        rules: &R,
        s: &R::State,
        oracle: &O,
        leaf: &mut L,
        mut limit: Limit,
        report: &mut dyn FnMut((Action, i32), u64, u64) -> bool,
    ) -> (Action, i32, u64) {
        let fresh = self.tt.is_empty() || self.generation == u8::MAX;
        if fresh {
            self.tt.clear();
            self.tt.resize(TT_SIZE, None);
            self.generation = 0;
        }
        // A costly leaf's search keeps what it learnt for the next move.
        if fresh || !L::BATCHED {
            self.generation += 1;
        }
        self.nodes = 0;
        self.table_hits = 0;
        self.stopped = false;
        let timed = limit.go_on.is_some();
        let mover = rules.to_play(s).expect("alpha-beta searches a live game");
        let mut moves: Vec<(Action, R::State)> = rules
            .legal_mask(s)
            .iter()
            .map(|a| {
                let mut child = s.clone();
                rules.play_unchecked(&mut child, a);
                (a, child)
            })
            .collect();
        self.rng.shuffle(&mut moves);
        let mut best = (moves[0].0, -INF);
        let mut never = || true;
        for depth in 1..=limit.depth {
            // The previous iteration's best move is searched first; the rest keep their order.
            if let Some(i) = moves.iter().position(|(a, _)| *a == best.0) {
                moves[..=i].rotate_right(1);
            }
            // The first iteration always finishes: a timed search has a move to play.
            let go_on: &mut dyn FnMut() -> bool = match limit.go_on.as_deref_mut() {
                Some(go_on) if depth > 1 => go_on,
                _ => &mut never,
            };
            let mut cx = Context {
                oracle,
                leaf: &mut *leaf,
                go_on,
            };
            let mut alpha = -INF;
            let mut iteration_best = best;
            iteration_best.1 = -INF;
            for (k, (a, child)) in moves.iter().enumerate() {
                let mut v = if k > 0 && L::BATCHED {
                    self.value(rules, &mut cx, child, mover, depth - 1, alpha, alpha + 1)
                } else {
                    self.value(rules, &mut cx, child, mover, depth - 1, alpha, INF)
                };
                if k > 0 && L::BATCHED && v > alpha && !self.stopped {
                    v = self.value(rules, &mut cx, child, mover, depth - 1, alpha, INF);
                }
                if self.stopped {
                    return (best.0, best.1, self.nodes);
                }
                if v > iteration_best.1 {
                    iteration_best = (*a, v);
                }
                alpha = alpha.max(v);
            }
            best = iteration_best;
            let proven = best.1.abs() >= WIN / 2;
            if !report(best, self.nodes, self.table_hits) || (timed && proven) {
                break;
            }
        }
        (best.0, best.1, self.nodes)
    }

    /// The value of `child` from the view of `parent_mover`, searched `depth` more plies.
    #[allow(clippy::too_many_arguments)]
    fn value<R: Rules, O: Oracle<R::State>, L: Leaf<R>>(
        &mut self,
        rules: &R,
        cx: &mut Context<O, L>,
        child: &R::State,
        parent_mover: Player,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mover = match rules.to_play(child) {
            None => return terminal_score(rules, child, parent_mover),
            Some(m) => m,
        };
        if let Some(solved) = cx.oracle.solve(child) {
            self.table_hits += 1;
            return solved_score(rules, child, solved, parent_mover);
        }
        match mover {
            _ if depth == 0 => cx.leaf.value(rules, child, parent_mover),
            m if m == parent_mover => self.negamax(rules, cx, child, depth, alpha, beta),
            _ => -self.negamax(rules, cx, child, depth, -beta, -alpha),
        }
    }

    /// The value of the live game `s` from its mover's view, `depth ≥ 1` plies deep
    /// (meaningless once the search is [`AlphaBeta::stopped`]).
    fn negamax<R: Rules, O: Oracle<R::State>, L: Leaf<R>>(
        &mut self,
        rules: &R,
        cx: &mut Context<O, L>,
        s: &R::State,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_NODES) && !(cx.go_on)() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let key = rules.hash(s) ^ mix(rules.memory_hash(s));
        let slot = key as usize & (TT_SIZE - 1);
        let mut tt_move = None;
        let generation = self.generation;
        if let Some(e) = self.tt[slot].filter(|e| e.key == key && e.generation == generation) {
            tt_move = Some(e.best);
            if e.depth as u32 >= depth {
                let score = rebase(e.score, -ply_of(rules, s));
                match e.bound {
                    Bound::Exact => return score,
                    Bound::Lower => alpha = alpha.max(score),
                    Bound::Upper => beta = beta.min(score),
                }
                if alpha >= beta {
                    return score;
                }
            }
        }
        let mover = rules.to_play(s).expect("negamax searches a live game");
        let alpha_before = alpha;
        let best = if depth == 1 && L::BATCHED {
            self.frontier(rules, cx, s, mover)
        } else {
            // Move ordering: the table's move first, then the best heuristic value after the
            // move.
            let mut children: Vec<((u8, i32), Action, R::State)> = rules
                .legal_mask(s)
                .iter()
                .map(|a| {
                    let mut child = s.clone();
                    rules.play_unchecked(&mut child, a);
                    let order = if Some(a) == tt_move {
                        (2, 0)
                    } else if let Some(known) = L::BATCHED
                        .then(|| self.known(rules, &child, mover))
                        .flatten()
                    {
                        (1, known)
                    } else {
                        (0, rules.heuristic(&child, mover))
                    };
                    (order, a, child)
                })
                .collect();
            children.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));
            let mut best = (children[0].1, -INF);
            // The scores before the move, where a late quiet move may be reduced.
            let scores = (L::BATCHED && depth >= REDUCE_FROM_DEPTH).then(|| rules.scores(s));
            for (k, (_, a, child)) in children.iter().enumerate() {
                // A late quiet move is first searched a ply shallower, with a null window: only
                // a move that beats alpha there is searched to the full depth.
                let reduced = k >= REDUCE_FROM_MOVE && scores == Some(rules.scores(child));
                let shallow = reduced
                    .then(|| self.value(rules, cx, child, mover, depth - 2, alpha, alpha + 1));
                let v = match shallow {
                    Some(v) if v <= alpha || self.stopped => v,
                    _ => {
                        let null = k > 0 && L::BATCHED && beta > alpha + 1;
                        let mut v = if null {
                            self.value(rules, cx, child, mover, depth - 1, alpha, alpha + 1)
                        } else {
                            self.value(rules, cx, child, mover, depth - 1, alpha, beta)
                        };
                        if null && v > alpha && v < beta && !self.stopped {
                            v = self.value(rules, cx, child, mover, depth - 1, alpha, beta);
                        }
                        v
                    }
                };
                if self.stopped {
                    return 0;
                }
                if v > best.1 {
                    best = (*a, v);
                }
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            best
        };
        let bound = if best.1 <= alpha_before {
            Bound::Upper
        } else if best.1 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt[slot] = Some(Entry {
            key,
            score: rebase(best.1, ply_of(rules, s)),
            depth: depth.min(255) as u8,
            bound,
            best: best.0,
            generation,
        });
        best.1
    }

    /// The best move of the live game `s` one ply deep and its value from `mover`'s view, its
    /// live children valued in one call of a [`Leaf::BATCHED`] leaf (one forward pass of a
    /// network): every child is valued, so the order of the moves does not matter.
    fn frontier<R: Rules, O: Oracle<R::State>, L: Leaf<R>>(
        &mut self,
        rules: &R,
        cx: &mut Context<O, L>,
        s: &R::State,
        mover: Player,
    ) -> (Action, i32) {
        let children: Vec<(Action, R::State)> = rules
            .legal_mask(s)
            .iter()
            .map(|a| {
                let mut child = s.clone();
                rules.play_unchecked(&mut child, a);
                (a, child)
            })
            .collect();
        let mut values = vec![0; children.len()];
        let mut live = Vec::new();
        for (i, (_, child)) in children.iter().enumerate() {
            if rules.to_play(child).is_none() {
                values[i] = terminal_score(rules, child, mover);
            } else if let Some(solved) = cx.oracle.solve(child) {
                self.table_hits += 1;
                values[i] = solved_score(rules, child, solved, mover);
            } else {
                live.push(i);
            }
        }
        if !live.is_empty() {
            let states: Vec<&R::State> = live.iter().map(|&i| &children[i].1).collect();
            let mut out = Vec::with_capacity(states.len());
            cx.leaf.values(rules, &states, mover, &mut out);
            for (&i, v) in live.iter().zip(out) {
                values[i] = v;
            }
        }
        let mut best = (children[0].0, values[0]);
        for ((a, _), &v) in children.iter().zip(&values).skip(1) {
            if v > best.1 {
                best = (*a, v);
            }
        }
        best
    }

    /// The table's score of the live game `s` from `view`, whatever its depth or bound: what
    /// orders the moves into it.
    fn known<R: Rules>(&self, rules: &R, s: &R::State, view: Player) -> Option<i32> {
        let key = rules.hash(s) ^ mix(rules.memory_hash(s));
        let slot = key as usize & (TT_SIZE - 1);
        let e = self.tt[slot].filter(|e| e.key == key && e.generation == self.generation)?;
        let score = rebase(e.score, -ply_of(rules, s));
        let mover = rules.to_play(s)?;
        Some(if mover == view { score } else { -score })
    }
}

/// What the positions where a search's lines stop are worth: [`Heuristic`] for `alphabeta`, a
/// network's value for a network searching by alpha-beta (in the training crate).
pub trait Leaf<R: Rules> {
    /// Whether the leaf values several positions at once more cheaply than one by one: the
    /// search then values all the children of a node one ply from its horizon in one call
    /// (without cut-offs among them), and spends table lookups to call it less (the module's
    /// documentation).
    const BATCHED: bool = false;
    /// The values of the live positions `states` from `view`, pushed onto `out` in order: in
    /// the units of [`Rules::heuristic`] (seeds), or any other far below [`WIN`] / 2.
    fn values(&mut self, rules: &R, states: &[&R::State], view: Player, out: &mut Vec<i32>);
    /// A search score in these units as a value in [-1, 1] ([`score_to_value`] for seeds).
    fn to_value(score: i32) -> f32 {
        score_to_value(score)
    }
    /// The value of one live position from `view`.
    fn value(&mut self, rules: &R, state: &R::State, view: Player) -> i32 {
        let mut out = Vec::with_capacity(1);
        self.values(rules, &[state], view, &mut out);
        out[0]
    }
}

/// The rules' own heuristic ([`Rules::heuristic`]): `alphabeta`'s leaves.
pub struct Heuristic;

impl<R: Rules> Leaf<R> for Heuristic {
    fn values(&mut self, rules: &R, states: &[&R::State], view: Player, out: &mut Vec<i32>) {
        out.extend(states.iter().map(|s| rules.heuristic(s, view)));
    }
    fn value(&mut self, rules: &R, state: &R::State, view: Player) -> i32 {
        rules.heuristic(state, view)
    }
}

/// What one iteration of a search consults besides the rules and its own table.
struct Context<'a, O, L> {
    /// The endgame table (or [`NoTable`]).
    oracle: &'a O,
    /// What a line's last position is worth.
    leaf: &'a mut L,
    /// Asked every [`POLL_NODES`] nodes whether to go on.
    go_on: &'a mut dyn FnMut() -> bool,
}

/// `view`'s score minus the opponent's.
fn score_difference<R: Rules>(rules: &R, s: &R::State, view: Player) -> i32 {
    let scores = rules.scores(s);
    scores[view.index()] - scores[(!view).index()]
}

/// The exact value of a finished game from `view`: ±(WIN − plies) plus the score difference.
fn terminal_score<R: Rules>(rules: &R, s: &R::State, view: Player) -> i32 {
    let result = rules.returns(s)[view.index()];
    let ply = ply_of(rules, s);
    let outcome = if result > 0.0 {
        WIN - ply
    } else if result < 0.0 {
        -(WIN - ply)
    } else {
        0
    };
    outcome + score_difference(rules, s, view)
}

/// The score from `view` of a live game whose result the table knows: a proven result
/// [`TABLE_PLIES`] beyond its position, plus the final score difference.
fn solved_score<R: Rules>(rules: &R, s: &R::State, solved: Solved, view: Player) -> i32 {
    let outcome = solved.result * (WIN - ply_of(rules, s) - TABLE_PLIES);
    let score = outcome + solved.margin;
    if solved.mover == view {
        score
    } else {
        -score
    }
}

/// The plies played in `s`, as a proven score counts them.
fn ply_of<R: Rules>(rules: &R, s: &R::State) -> i32 {
    rules.ply(s).min(WIN as u32 / 2) as i32
}

/// A proven result's score with its end moved `plies` nearer (negative: farther); heuristic
/// scores unchanged. The table keeps a proven result counted from its node, `rebase(score,
/// ply)`, and reads it back at the node's ply with `rebase(entry, -ply)`: so an entry reads
/// right at the same position reached after more or fewer plies (a round's start in a whole
/// match, say), not as the game's length along the path that wrote it.
fn rebase(score: i32, plies: i32) -> i32 {
    if score >= WIN / 2 {
        score + plies
    } else if score <= -WIN / 2 {
        score - plies
    } else {
        score
    }
}

/// A search score as a value in [-1, 1]: ±1 for a proven result, else a squashed difference.
pub fn score_to_value(score: i32) -> f32 {
    if score.abs() >= WIN / 2 {
        score.signum() as f32
    } else {
        (score as f32 / 8.0).tanh()
    }
}

impl Agent for AlphaBeta {
    fn random_state(&self) -> Option<u64> {
        Some(self.rng.state())
    }
    fn set_random_state(&mut self, state: u64) {
        self.rng = Rng::from_state(state);
    }
    fn name(&self) -> String {
        let table = if self.table.is_some() { "+tb" } else { "" };
        match self.movetime {
            Some(t) => format!("alphabeta@{}{table}", crate::agent::format_movetime(t)),
            None => format!("alphabeta:{}{table}", self.depth),
        }
    }
    fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
        self.think_with(rules, s, &mut Heuristic, Budget::Own, &mut |_| true)
    }
    fn think(
        &mut self,
        rules: &Variant,
        s: &VariantState,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> (Action, Analysis) {
        self.think_with(rules, s, &mut Heuristic, budget, progress)
    }
}

impl AlphaBeta {
    /// [`Agent::think`] with the lines' last positions valued by `leaf`. A time budget (`go
    /// movetime`) deepens until it is spent, `Infinite` until `progress` says stop; else the
    /// agent's own depth or time (`Own`; a number of nodes is not a budget alpha-beta keeps).
    /// `progress` hears of every finished iteration, and a timed or endless search asks it
    /// every [`POLL_NODES`] nodes whether to go on.
    pub fn think_with<L: Leaf<Variant>>(
        &mut self,
        rules: &Variant,
        s: &VariantState,
        leaf: &mut L,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> (Action, Analysis) {
        let start = Instant::now();
        let endless = budget == Budget::Infinite;
        let time = match budget {
            Budget::Time(t) => Some(t),
            Budget::Infinite => None,
            Budget::Own | Budget::Nodes(_) => self.movetime,
        };
        let deadline = time.map(|t| start + t);
        let progress = RefCell::new(progress);
        // The last finished iteration: what an endless search shows `progress` when it asks.
        let last: RefCell<Option<Progress>> = RefCell::new(None);
        let mut go_on = || {
            deadline.is_none_or(|d| Instant::now() < d)
                && (!endless
                    || last
                        .borrow()
                        .as_ref()
                        .is_none_or(|p| (*progress.borrow_mut())(p)))
        };
        let mut report = |(a, score): (Action, i32), nodes: u64, table_hits: u64| {
            let p = Progress {
                pv: vec![a],
                value: Some(L::to_value(score)),
                work: nodes,
                elapsed: start.elapsed(),
                table_hits,
            };
            let go = (*progress.borrow_mut())(&p);
            *last.borrow_mut() = Some(p);
            go
        };
        let anytime = time.is_some() || endless;
        let limit = Limit {
            depth: if anytime {
                MAX_SEARCH_DEPTH
            } else {
                self.depth
            },
            go_on: anytime.then_some(&mut go_on as &mut dyn FnMut() -> bool),
        };
        let (a, score, nodes) = match self.table.clone() {
            Some(table) => self.run(rules, s, &*table, leaf, limit, &mut report),
            None => self.run(rules, s, &NoTable, leaf, limit, &mut report),
        };
        let analysis = Analysis {
            value: Some(L::to_value(score)),
            work: nodes,
            table_hits: self.table_hits,
        };
        (a, analysis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::ActionMask;
    use crate::error::ParseError;
    use crate::rules::{Snapshot, Trace};
    use crate::variants::oware::Oware;

    #[test]
    fn takes_the_capture_of_three() {
        // Only South's pit F (action 5, one seed) ends in North's pit 6, making 3 there.
        let oware = Oware::default();
        let s = oware
            .parse_notation("4 4 3 4 1 1 2 4 4 4 4 4 | 8 1 | 0")
            .unwrap();
        let (a, score, _) = AlphaBeta::new(1, 1).search(&oware, &s);
        assert_eq!((a, score), (5, 11 - 1));
    }

    #[test]
    fn a_search_does_not_depend_on_the_searches_before_it() {
        // A position searched again, after other searches, costs the same nodes and scores the
        // same as in a fresh agent with the same random stream (the root's tie-break): nothing
        // of the earlier searches is read.
        let oware = Oware::default();
        let start = oware.start(Player::South);
        let mut later = oware.start(Player::South);
        for a in [2, 3, 4] {
            oware.play(&mut later, a).unwrap();
        }
        let fresh = |stream: u64| {
            let mut agent = AlphaBeta::new(6, 1);
            agent.set_random_state(stream);
            agent.search(&oware, &later)
        };
        let mut agent = AlphaBeta::new(6, 1);
        agent.search(&oware, &start);
        for _ in 0..2 {
            let stream = agent.random_state().unwrap();
            assert_eq!(agent.search(&oware, &later), fresh(stream));
        }
        // The same past the 255 searches after which the table's tags wrap.
        let mut shallow = AlphaBeta::new(3, 1);
        let stream = shallow.random_state().unwrap();
        let first = shallow.search(&oware, &later);
        for _ in 0..300 {
            shallow.set_random_state(stream);
            assert_eq!(shallow.search(&oware, &later), first);
        }
    }

    /// Plain minimax to `depth`, no pruning and no table, scored as [`AlphaBeta`] scores a
    /// node (from `view`, negated where the mover changes): the reference its search must equal.
    fn minimax<R: Rules>(rules: &R, s: &R::State, view: Player, depth: u32) -> i32 {
        match rules.to_play(s) {
            None => terminal_score(rules, s, view),
            Some(_) if depth == 0 => rules.heuristic(s, view),
            Some(mover) => {
                let best = rules
                    .legal_mask(s)
                    .iter()
                    .map(|a| {
                        let mut child = s.clone();
                        rules.play_unchecked(&mut child, a);
                        minimax(rules, &child, mover, depth - 1)
                    })
                    .max()
                    .expect("a live game has a move");
                if mover == view {
                    best
                } else {
                    -best
                }
            }
        }
    }

    #[test]
    fn the_search_scores_positions_of_play_as_plain_minimax_does_in_every_variant() {
        // Positions from games of random play, a round or a game each. (In whole matches a new
        // round's start is reached at different plies: the table reuses a deeper search of it,
        // so scores there differ from a fixed-depth minimax.)
        for &name in crate::variant::VARIANT_NAMES {
            let v = Variant::new(name, &[]).unwrap();
            for game in 0..3u64 {
                for (s, mover, _) in positions_of_play(&v, Rng::stream(11, &[game]), 0..240, 8) {
                    let score = AlphaBeta::new(4, game).search(&v, &s).1;
                    let at = v.notation(&s);
                    assert_eq!(score, minimax(&v, &s, mover, 4), "{name} at {at}");
                }
            }
        }
    }

    /// The heuristic as a batched leaf: the search values a horizon node's children together.
    struct Batched;

    impl<R: Rules> Leaf<R> for Batched {
        const BATCHED: bool = true;
        fn values(&mut self, rules: &R, states: &[&R::State], view: Player, out: &mut Vec<i32>) {
            Heuristic.values(rules, states, view, out)
        }
    }

    #[test]
    fn a_batched_leaf_scores_positions_of_play_as_plain_minimax_does() {
        // The horizon's children valued in one call (what a network leaf asks for) leave the
        // minimax value unchanged, in every variant, where the search is too shallow to reduce
        // a move (below [`REDUCE_FROM_DEPTH`] plies at the root's children).
        let depth = REDUCE_FROM_DEPTH;
        for &name in crate::variant::VARIANT_NAMES {
            let v = Variant::new(name, &[]).unwrap();
            for (s, mover, ply) in positions_of_play(&v, Rng::stream(12, &[]), 0..240, 8) {
                let score = batched_search(&v, &s, depth, ply);
                let at = v.notation(&s);
                assert_eq!(score, minimax(&v, &s, mover, depth), "{name} at {at}");
            }
        }
    }

    #[test]
    fn late_move_reductions_keep_every_result_the_search_proves() {
        // A batched leaf's search reduces late quiet moves, so its scores are no longer
        // minimax's; but a result it proves is a proof: the plain search to the same depth (which
        // is minimax, above) proves the same result. And it proves some, in every variant.
        let proves = |score: i32| (score.abs() >= WIN / 2).then_some(score.signum());
        for &name in crate::variant::VARIANT_NAMES {
            let v = Variant::new(name, &[]).unwrap();
            let mut proven = 0;
            for (s, _, ply) in positions_of_play(&v, Rng::stream(13, &[]), 0..240, 8) {
                let s = &s;
                let at = v.notation(s);
                let reduced = batched_search(&v, s, 7, ply);
                if proves(reduced).is_some() {
                    proven += 1;
                    let plain = AlphaBeta::new(7, ply).search(&v, s).1;
                    assert_eq!(proves(reduced), proves(plain), "{name} at {at}");
                }
                // A move is reduced by one ply at most, so twice the depth sees every line the
                // plain search sees: it proves whatever that proves.
                let half = AlphaBeta::new(4, ply).search(&v, s).1;
                if proves(half).is_some() {
                    let deep = batched_search(&v, s, 8, ply);
                    assert_eq!(
                        proves(deep),
                        proves(half),
                        "{name} at {at}: 4 plies, 8 reduced"
                    );
                }
            }
            assert!(proven > 0, "{name}: no result proven");
        }
    }

    /// The positions of a game of random play (moves drawn from `rng`) at the plies of `plies`
    /// that are multiples of `every`, with their movers and plies, until the game ends.
    fn positions_of_play(
        v: &Variant,
        mut rng: Rng,
        plies: std::ops::Range<u64>,
        every: u64,
    ) -> Vec<(VariantState, Player, u64)> {
        let mut s = v.start(Player::South);
        let mut out = Vec::new();
        for ply in 0..plies.end {
            let Some(mover) = v.to_play(&s) else { break };
            if ply >= plies.start && ply % every == 0 {
                out.push((s.clone(), mover, ply));
            }
            let a = rng.pick(v.legal_mask(&s));
            v.play_unchecked(&mut s, a);
        }
        out
    }

    /// The score of a fresh search of `s` to `depth` with the [`Batched`] leaf.
    fn batched_search(v: &Variant, s: &VariantState, depth: u32, seed: u64) -> i32 {
        let limit = Limit { depth, go_on: None };
        let mut ab = AlphaBeta::new(depth, seed);
        ab.run(v, s, &NoTable, &mut Batched, limit, &mut |_, _, _| true)
            .1
    }

    #[test]
    fn a_batched_leaf_keeps_the_table_for_the_next_search() {
        // The same position searched again is answered from the table the first search left
        // (a network's search keeps it from move to move), with the same score; the heuristic
        // leaf's search starts afresh and does the same work again.
        let v = Variant::new("oware", &[]).unwrap();
        let mut s = v.start(Player::South);
        for a in [0, 1, 2, 3] {
            v.play(&mut s, a).unwrap();
        }
        let limit = || Limit {
            depth: 6,
            go_on: None,
        };
        let mut batched = AlphaBeta::new(6, 1);
        let first = batched.run(&v, &s, &NoTable, &mut Batched, limit(), &mut |_, _, _| true);
        let again = batched.run(&v, &s, &NoTable, &mut Batched, limit(), &mut |_, _, _| true);
        assert_eq!(again.1, first.1);
        assert!(
            again.2 * 10 < first.2,
            "{} nodes again, {} the first time",
            again.2,
            first.2
        );
        let mut plain = AlphaBeta::new(6, 1);
        let first = plain.run(&v, &s, &NoTable, &mut Heuristic, limit(), &mut |_, _, _| {
            true
        });
        let again = plain.run(&v, &s, &NoTable, &mut Heuristic, limit(), &mut |_, _, _| {
            true
        });
        assert_eq!((again.1, again.2), (first.1, first.2));
    }

    #[test]
    fn the_same_board_with_another_repetition_memory_is_another_entry() {
        // An ayoayo game between alpha-beta players (93 plies, no capture in the last ones): in
        // the search below, boards met again along one line end the game there and play on along
        // another. A table keyed by the board alone scored the position 1 instead of 2.
        let ayoayo = Variant::new("ayoayo", &[]).unwrap();
        let line = [
            6, 10, 3, 1, 0, 0, 1, 2, 4, 2, 1, 0, 0, 1, 1, 3, 0, 4, 0, 0, 2, 0, 1, 2, 0, 1, 5, 4, 4,
            2, 3, 4, 5, 1, 4, 5, 3, 0, 0, 3, 5, 5, 2, 3, 3, 2, 0, 5, 0, 3, 4, 2, 1, 1, 0, 0, 3, 3,
            0, 1, 1, 4, 4, 2, 3, 1, 2, 0, 3, 4, 5, 1, 4, 5, 0, 2, 2, 0, 0, 5, 3, 1, 0, 3, 0, 4, 3,
            2, 0, 5, 1, 1, 4,
        ];
        let mut s = ayoayo.start(Player::South);
        for a in line {
            ayoayo.play(&mut s, a).unwrap();
        }
        let mover = ayoayo.to_play(&s).unwrap();
        let reference = minimax(&ayoayo, &s, mover, 6);
        assert_eq!(reference, 2);
        for seed in 0..4 {
            assert_eq!(AlphaBeta::new(6, seed).search(&ayoayo, &s).1, reference);
        }
    }

    /// A count down small enough to solve: a player takes one, two or three; taking two keeps
    /// the turn (a turn of two decisions, as in Yao; the fours games' automatic pass does the
    /// same), taking one or three passes it; whoever takes the last loses. So the same position
    /// (counter and mover) is reached after one ply (two) or two (one, then three by the other):
    /// a transposition at another ply, like a whole match's next round reached by rounds of
    /// different lengths. A player who cannot avoid taking the last prefers the slower way.
    #[derive(Clone, Debug)]
    struct Race(u8);

    #[derive(Clone, Debug, PartialEq)]
    struct RaceState {
        left: u8,
        mover: Player,
        ply: u32,
        winner: Option<Player>,
    }

    impl Rules for Race {
        type State = RaceState;
        fn name(&self) -> &'static str {
            "race"
        }
        fn version(&self) -> u32 {
            1
        }
        fn num_actions(&self) -> usize {
            3
        }
        fn observation_len(&self) -> usize {
            1
        }
        fn start(&self, first: Player) -> RaceState {
            RaceState {
                left: self.0,
                mover: first,
                ply: 0,
                winner: None,
            }
        }
        fn to_play(&self, s: &RaceState) -> Option<Player> {
            s.winner.is_none().then_some(s.mover)
        }
        fn legal_mask(&self, s: &RaceState) -> ActionMask {
            let takes = if s.winner.is_some() {
                0..1
            } else {
                1..s.left.min(3) + 1
            };
            takes.map(|take| take - 1).collect()
        }
        fn apply<T: Trace>(&self, s: &mut RaceState, action: Action, _trace: &mut T) {
            s.left -= action + 1;
            s.ply += 1;
            if s.left == 0 {
                s.winner = Some(!s.mover);
            } else if action != 1 {
                s.mover = !s.mover;
            }
        }
        fn scores(&self, _s: &RaceState) -> [i32; 2] {
            [0, 0]
        }
        fn returns(&self, s: &RaceState) -> [f32; 2] {
            match s.winner {
                Some(Player::South) => [1.0, -1.0],
                Some(Player::North) => [-1.0, 1.0],
                None => [0.0, 0.0],
            }
        }
        fn ply(&self, s: &RaceState) -> u32 {
            s.ply
        }
        fn observe(&self, s: &RaceState, out: &mut [f32]) {
            out[0] = s.left as f32;
        }
        fn snapshot(&self, s: &RaceState) -> Snapshot {
            Snapshot {
                pits: vec![s.left],
                ..Snapshot::default()
            }
        }
        /// The position without the ply: what a transposition table keys by.
        fn hash(&self, s: &RaceState) -> u64 {
            mix(s.left as u64 * 2 + s.mover.index() as u64)
        }
        fn notation(&self, s: &RaceState) -> String {
            format!("{} {:?}", s.left, s.mover)
        }
        fn parse_notation(&self, text: &str) -> Result<RaceState, ParseError> {
            Err(ParseError::Notation {
                text: text.into(),
                reason: "the race has none".into(),
            })
        }
        fn render(&self, s: &RaceState) -> String {
            self.notation(s)
        }
        fn describe(&self) -> String {
            "a race to zero (alpha-beta's table test)".into()
        }
    }

    #[test]
    fn a_proven_result_reads_the_same_wherever_its_position_is_met_again() {
        // Deep enough to solve the race: alpha-beta must find the quickest win and the slowest
        // loss that plain minimax finds. A table keeping a result's ply counted from the game's
        // start read a result stored along one way to a position as if reached along the other
        // (from 5 with 8 of these 16 seeds: a loss one ply sooner than the slowest).
        for left in 1..=14 {
            let race = Race(left);
            let start = race.start(Player::South);
            let reference = minimax(&race, &start, Player::South, 16);
            assert!(
                reference.abs() >= WIN / 2,
                "the race from {left} is solved at depth 16"
            );
            for seed in 0..16 {
                let (_, score, _) = AlphaBeta::new(16, seed).search(&race, &start);
                assert_eq!(score, reference, "the race from {left}");
            }
        }
    }

    /// Positions from a random game of `name`, every fifth ply from the tenth to the sixtieth.
    fn middle_positions(name: &str, seed: u64) -> (Variant, Vec<VariantState>) {
        let v = Variant::new(name, &[]).unwrap();
        let positions = positions_of_play(&v, Rng::stream(seed, &[7]), 10..60, 5);
        (v, positions.into_iter().map(|(s, _, _)| s).collect())
    }

    #[test]
    fn an_endless_search_stopped_after_an_iteration_plays_that_depth() {
        // Stopped when it reports its `K`-th iteration, or at the first look at the clock during
        // the next (whose unfinished work is dropped), an endless search plays what
        // `alphabeta:K` plays from the same random stream, with the same value.
        const K: u32 = 8;
        let mut stopped_during_next = 0;
        for name in ["oware", "ayo", "jodu"] {
            let (v, positions) = middle_positions(name, 3);
            for s in &positions {
                for during_next in [false, true] {
                    let mut agent = AlphaBeta::new(2, 9);
                    let stream = agent.random_state().unwrap();
                    let mut reports = 0u32;
                    let mut seen: Option<Progress> = None;
                    let (a, analysis) = agent.think(&v, s, Budget::Infinite, &mut |p| {
                        if seen.as_ref() != Some(p) {
                            reports += 1;
                            seen = Some(p.clone());
                            // A next iteration too small to look at the clock stops here.
                            return reports < K || (during_next && reports == K);
                        }
                        reports < K
                    });
                    let mut fixed = AlphaBeta::new(K, 0);
                    fixed.set_random_state(stream);
                    let (b, score, nodes) = fixed.search(&v, s);
                    let at = v.notation(s);
                    if reports < K {
                        // A proven result ends an endless search too.
                        assert_eq!(analysis.value.map(f32::abs), Some(1.0), "{name} at {at}");
                        continue;
                    }
                    if during_next {
                        if reports > K {
                            continue;
                        }
                        stopped_during_next += 1;
                        assert!(analysis.work > nodes, "{name} at {at}");
                    } else {
                        assert_eq!(analysis.work, nodes, "{name} at {at}");
                    }
                    assert_eq!(reports, K, "{name} at {at}");
                    assert_eq!(a, b, "{name} at {at}");
                    assert_eq!(
                        analysis.value,
                        Some(score_to_value(score)),
                        "{name} at {at}"
                    );
                }
            }
        }
        assert!(stopped_during_next >= 10, "{stopped_during_next}");
    }

    #[test]
    fn a_timed_search_plays_a_legal_move_and_is_named_by_its_time() {
        let oware: Variant = "oware".parse().unwrap();
        let mut agent = AlphaBeta::new(1, 4).with_movetime(Duration::from_millis(30));
        assert_eq!(agent.name(), "alphabeta@30ms");
        let (_, positions) = middle_positions("oware", 5);
        for s in &positions {
            let (a, analysis) = agent.choose(&oware, s);
            assert!(oware.legal_mask(s).contains(a));
            assert!(analysis.work > 0);
        }
        // A search that finds a forced win stops deepening there (not after a minute): South's
        // one seed in F makes North's first pit two, and the capture the 25th seed.
        let won = oware
            .parse_notation("0 0 0 0 0 1 1 0 0 0 0 2 | 23 21 | 0")
            .unwrap();
        let mut agent = AlphaBeta::new(1, 4).with_movetime(Duration::from_secs(60));
        let (a, analysis) = agent.choose(&oware, &won);
        assert_eq!((a, analysis.value), (5, Some(1.0)));
    }

    #[test]
    fn entries_stay_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Option<Entry>>(), 16);
    }
}
