//! `alphabeta:D`: negamax with alpha-beta pruning, iterative deepening, move ordering and a
//! transposition table keyed by the position and the repetition memory ([`Rules::hash`],
//! [`Rules::memory_hash`]).
//!
//! Every search starts from an empty table: what `alphabeta:D` plays in a position depends on
//! the position, `D` and its random tie-break alone, not on the searches before it. (A table kept
//! across searches let a position met again be searched deeper than `D` plies, so the baseline's
//! strength depended on the games it had played and on how many a match driver interleaved.)
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
use std::sync::Arc;

/// The score of a won game (before the ply and score-difference adjustments).
pub const WIN: i32 = 1_000_000;
const INF: i32 = i32::MAX - 1;
/// Transposition-table entries (16 bytes each: 4 MiB).
const TT_SIZE: usize = 1 << 18;
/// How much less than a win found by search a win known from the endgame table scores (its
/// length is unknown): a line the search sees to the end is preferred.
const TABLE_PLIES: i32 = 1000;

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

/// Alpha-beta search to a fixed depth in plies.
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    depth: u32,
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
}

impl AlphaBeta {
    pub fn new(depth: u32, seed: u64) -> Self {
        AlphaBeta {
            depth: depth.max(1),
            rng: Rng::stream(seed, &[0x6162]),
            tt: Vec::new(),
            generation: 0,
            nodes: 0,
            table: None,
            table_hits: 0,
        }
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
        if self.tt.is_empty() || self.generation == u8::MAX {
            self.tt.clear();
            self.tt.resize(TT_SIZE, None);
            self.generation = 0;
        }
        self.generation += 1;
        self.nodes = 0;
        self.table_hits = 0;
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
        for depth in 1..=self.depth {
            // The previous iteration's best move is searched first; the rest keep their order.
            if let Some(i) = moves.iter().position(|(a, _)| *a == best.0) {
                moves[..=i].rotate_right(1);
            }
            let mut alpha = -INF;
            let mut iteration_best = best;
            iteration_best.1 = -INF;
            for (a, child) in &moves {
                let v = self.value(rules, oracle, child, mover, depth - 1, alpha, INF);
                if v > iteration_best.1 {
                    iteration_best = (*a, v);
                }
                alpha = alpha.max(v);
            }
            best = iteration_best;
        }
        (best.0, best.1, self.nodes)
    }

    /// The value of `child` from the view of `parent_mover`, searched `depth` more plies.
    #[allow(clippy::too_many_arguments)]
    fn value<R: Rules, O: Oracle<R::State>>(
        &mut self,
        rules: &R,
        oracle: &O,
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
        if let Some(solved) = oracle.solve(child) {
            self.table_hits += 1;
            return solved_score(rules, child, solved, parent_mover);
        }
        match mover {
            _ if depth == 0 => rules.heuristic(child, parent_mover),
            m if m == parent_mover => self.negamax(rules, oracle, child, depth, alpha, beta),
            _ => -self.negamax(rules, oracle, child, depth, -beta, -alpha),
        }
    }

    /// The value of the live game `s` from its mover's view, `depth ≥ 1` plies deep.
    fn negamax<R: Rules, O: Oracle<R::State>>(
        &mut self,
        rules: &R,
        oracle: &O,
        s: &R::State,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
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
        // Move ordering: the table's move first, then the best heuristic value after the move.
        let mut children: Vec<(i32, Action, R::State)> = rules
            .legal_mask(s)
            .iter()
            .map(|a| {
                let mut child = s.clone();
                rules.play_unchecked(&mut child, a);
                let order = if Some(a) == tt_move {
                    INF
                } else {
                    rules.heuristic(&child, mover)
                };
                (order, a, child)
            })
            .collect();
        children.sort_unstable_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)));

        let alpha_before = alpha;
        let mut best = (children[0].1, -INF);
        for (_, a, child) in &children {
            let v = self.value(rules, oracle, child, mover, depth - 1, alpha, beta);
            if v > best.1 {
                best = (*a, v);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
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
        format!("alphabeta:{}{table}", self.depth)
    }
    fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
        let (a, score, nodes) = match self.table.clone() {
            Some(table) => self.search_with(rules, s, &*table),
            None => self.search(rules, s),
        };
        let value = Some(score_to_value(score));
        (
            a,
            Analysis {
                value,
                work: nodes,
                table_hits: self.table_hits,
            },
        )
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
                let mut rng = Rng::stream(11, &[game]);
                let mut s = v.start(Player::South);
                for ply in 0..240 {
                    let Some(mover) = v.to_play(&s) else { break };
                    if ply % 8 == 0 {
                        let score = AlphaBeta::new(4, game).search(&v, &s).1;
                        let at = v.notation(&s);
                        assert_eq!(score, minimax(&v, &s, mover, 4), "{name} at {at}");
                    }
                    let a = rng.pick(v.legal_mask(&s));
                    v.play_unchecked(&mut s, a);
                }
            }
        }
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

    #[test]
    fn entries_stay_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Option<Entry>>(), 16);
    }
}
