//! The one `Rules` trait that every variant implements.

use crate::action::{Action, ActionMask};
use crate::error::{ParseError, PlayError};
use crate::player::Player;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// What is on the board at one moment, in absolute coordinates: used by game records, the
/// text rendering and Python's `Game.board`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Seeds per pit in absolute pit order (0..12 for 2 × 6 boards, 0..32 for Yao).
    pub pits: Vec<u8>,
    /// Seeds (or groups' seeds) each player has taken.
    pub stores: [u32; 2],
    /// Seeds in each player's hand (Yao), zero elsewhere.
    #[serde(default, skip_serializing_if = "is_zero_pair")]
    pub hands: [u32; 2],
    /// Seeds being sown (only in per-drop snapshots of a sowing in progress).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub in_hand: u32,
    /// The owner (0 or 1) of each pit, for variants whose houses change hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owners: Option<Vec<u8>>,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}
fn is_zero_pair(x: &[u32; 2]) -> bool {
    *x == [0, 0]
}

impl Snapshot {
    /// Seeds on the board, in stores and in hands: conserved by every move.
    pub fn total(&self) -> u32 {
        self.pits.iter().map(|&s| s as u32).sum::<u32>()
            + self.stores[0]
            + self.stores[1]
            + self.hands[0]
            + self.hands[1]
            + self.in_hand
    }
}

impl std::fmt::Display for Snapshot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pits: Vec<String> = self.pits.iter().map(|s| s.to_string()).collect();
        write!(
            f,
            "[{}] stores {}-{}",
            pits.join(" "),
            self.stores[0],
            self.stores[1]
        )?;
        if self.hands != [0, 0] {
            write!(f, " hands {}-{}", self.hands[0], self.hands[1])?;
        }
        if self.in_hand != 0 {
            write!(f, " in hand {}", self.in_hand)?;
        }
        Ok(())
    }
}

/// Receives the board after every single seed drop of a move ("Show Runs in Detail").
/// The fast path uses [`NoTrace`], whose `ACTIVE = false` lets the compiler remove every call.
pub trait Trace {
    const ACTIVE: bool;
    fn drop_seed(&mut self, snapshot: Snapshot);
}

/// A trace that records nothing.
pub struct NoTrace;
impl Trace for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn drop_seed(&mut self, _: Snapshot) {}
}

/// A trace that keeps every snapshot.
#[derive(Default)]
pub struct DropTrace(pub Vec<Snapshot>);
impl Trace for DropTrace {
    const ACTIVE: bool = true;
    fn drop_seed(&mut self, snapshot: Snapshot) {
        self.0.push(snapshot);
    }
}

/// A variant's rules. `self` carries the preset's options; the state is a plain value.
///
/// Contract (checked for every variant by the conformance suite in `tests/`):
/// * `legal_mask` is empty exactly when the game is over (`to_play` is `None`); passes are
///   automatic, so a live game always has a legal action for the player to move.
/// * `play_unchecked` on a legal action and `play` agree; `play` on an illegal action returns
///   an error and leaves the state unchanged.
/// * seeds are conserved: `snapshot(s).total()` never changes.
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    /// The complete game state, including what the repetition rule needs to remember.
    type State: Clone + Debug + PartialEq + Send + Sync + 'static;

    /// The preset's name, e.g. `"oware"`.
    fn name(&self) -> &'static str;
    /// The preset's version; a behaviour change bumps it.
    fn version(&self) -> u32;
    /// The options that differ from the preset's defaults, as `key=value` pairs.
    fn options(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Sets option `key` of the preset from text (e.g. `max_chain_pits=none`); the error names
    /// the option or value and what was expected.
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        let _ = value;
        Err(ParseError::UnknownOption {
            variant: self.id(),
            option: key.to_string(),
            expected: "(this preset has no options)".into(),
        })
    }
    /// Size of the fixed action space (≤ 64).
    fn num_actions(&self) -> usize;
    /// Length of the observation vector.
    fn observation_len(&self) -> usize;

    /// The start position, `first` to move.
    fn start(&self, first: Player) -> Self::State;
    /// A start position for self-play, chosen by `variety` (any number; equal numbers give
    /// equal starts, and 0 always gives [`Rules::start`]). Variants whose episode is one round
    /// of a match start later rounds too, with the house ownership an earlier round left, so
    /// a learner sees every round it may have to play; the others return `start(first)`.
    fn training_start(&self, first: Player, variety: u64) -> Self::State {
        let _ = variety;
        self.start(first)
    }
    /// The player to move, or `None` when the game is over.
    fn to_play(&self, s: &Self::State) -> Option<Player>;
    /// The legal actions of the player to move (empty when the game is over).
    fn legal_mask(&self, s: &Self::State) -> ActionMask;
    /// Plays a legal action, reporting every seed drop to `trace`.
    fn apply<T: Trace>(&self, s: &mut Self::State, action: Action, trace: &mut T);
    /// Seeds (or the variant's score unit) each player has now.
    fn scores(&self, s: &Self::State) -> [i32; 2];
    /// The result from each player's view (+1 win, −1 loss, 0 draw); 0 for both until the end.
    fn returns(&self, s: &Self::State) -> [f32; 2];
    /// A static estimate of how well `view` stands in `s`, for the search of the baseline
    /// agents: larger is better for `view`, 0 is even, and the estimate of the opponent is the
    /// negation. Alpha-beta scores the leaves of its search and orders moves by it; rollout
    /// MCTS scores a rollout it cuts off by its sign. Its unit is about one seed (≈ one point of
    /// [`Rules::scores`] in the seed-counting games): `alphabeta:D` reports `tanh(h / 8)`.
    ///
    /// * default (`oware`, `ayo`, `ayoayo`, `jodu`): the score difference, seeds taken by `view`
    ///   minus the opponent's — the taken seeds decide these games.
    /// * fours (`ncho`, `adi`, `jerin`): the houses each player can expect next round, in seeds:
    ///   4 × groups taken + his share of the board's seeds in proportion to the houses he owns,
    ///   `view`'s minus the opponent's. The groups decide the round (`episode = round`); in
    ///   `episode = match` the groups won become the next round's houses, and the measure reads
    ///   the same across the boundary (4 × houses at a round's start).
    /// * `yao`: men owned (in his holes and hand, which captures move) plus a bonus for the
    ///   occupied holes of his front row, which the game is won and lost by.
    fn heuristic(&self, s: &Self::State, view: Player) -> i32 {
        let scores = self.scores(s);
        scores[view.index()] - scores[(!view).index()]
    }
    /// A bound on [`Rules::heuristic`]'s magnitude in every position. By default the pieces
    /// in play (a score difference, or the fours' worths, never exceeds them); `yao` adds its
    /// front-row bonus.
    fn heuristic_bound(&self) -> i32 {
        self.snapshot(&self.start(Player::South)).total() as i32
    }
    /// Length of [`Rules::tactics`].
    fn tactics_len(&self) -> usize {
        self.num_actions()
    }
    /// The measure of a position, from `view`, whose change by each move the look-ahead
    /// features read ([`Rules::gains`] and the deeper plies): by default [`Rules::heuristic`];
    /// the fours games measure what the round would give if it ended now. Antisymmetric, like
    /// the heuristic: the opponent's view reads its negation.
    fn gain_measure(&self, s: &Self::State, view: Player) -> i32 {
        self.heuristic(s, view)
    }
    /// What each move of the player to move gains by [`Rules::gain_measure`]
    /// ([`move_gains_by`]). `out[..num_actions]` is written. Variants change the measure, not
    /// this: the deeper plies ([`exchanges_after`]) measure the moves they play themselves.
    fn gains(&self, s: &Self::State, out: &mut [f32]) {
        move_gains_by(self, s, out, |s, view| self.gain_measure(s, view))
    }
    /// Look-ahead features a network may take beside the observation (the training config's
    /// `lookahead`): one ply of search by [`Rules::gains`], which the network would otherwise
    /// have to learn to see. By default the gains; `yao` adds the opponent's threats. The first
    /// `num_actions` entries are always the gains (the second ply, [`exchanges`], builds on
    /// them). `out.len() == tactics_len()`.
    fn tactics(&self, s: &Self::State, out: &mut [f32]) {
        self.gains(s, out)
    }
    /// The round an episode of several rounds is in (the fours games' whole matches); 0 for
    /// games without rounds. The baseline MCTS ends its rollouts with the round.
    fn round(&self, _s: &Self::State) -> u32 {
        0
    }
    /// Number of actions played so far.
    fn ply(&self, s: &Self::State) -> u32;
    /// The canonical observation from the view of the player to move (or of the player who
    /// would move, once the game is over); `out.len() == observation_len()`.
    fn observe(&self, s: &Self::State, out: &mut [f32]);
    /// The board in absolute coordinates.
    fn snapshot(&self, s: &Self::State) -> Snapshot;
    /// A hash of the position (Zobrist or equivalent), for transposition tables.
    fn hash(&self, s: &Self::State) -> u64;
    /// A hash of what decides the game's future besides the position: the repetition rule's
    /// memory of the positions since the last capture (0 in variants without that rule). A
    /// transposition table keys by both: the same board can end the game at its recurrence on
    /// one path and play on along another.
    fn memory_hash(&self, _s: &Self::State) -> u64 {
        0
    }
    /// The compact text notation of the position.
    fn notation(&self, s: &Self::State) -> String;
    /// Parses [`Rules::notation`]; the history of the repetition rule starts at this position.
    fn parse_notation(&self, text: &str) -> Result<Self::State, ParseError>;
    /// The board drawn for people, with pit labels.
    fn render(&self, s: &Self::State) -> String;
    /// The board drawn from `seat`'s side of the table; variants that draw one fixed view
    /// ignore the seat.
    fn render_from(&self, s: &Self::State, seat: Player) -> String {
        let _ = seat;
        self.render(s)
    }
    /// Whether the decision due in `s` continues the mover's turn rather than beginning a new
    /// one (a turn of several decision steps, as in `yao`); records group such runs as one move.
    fn continues_turn(&self, _s: &Self::State) -> bool {
        false
    }
    /// A short human name of `action` for the player to move in `s` (e.g. `"sow B"`).
    fn action_name(&self, _s: &Self::State, action: Action) -> String {
        action.to_string()
    }
    /// The pit (an index into [`Snapshot::pits`]) where `action` begins, for the player to move
    /// in `s` — the hole a person clicks to choose it; several actions may share a pit (Yao's
    /// two directions, ayoayo's odu, J'erin's opening), and actions tied to no pit give `None`.
    fn action_pit(&self, _s: &Self::State, _action: Action) -> Option<usize> {
        None
    }
    /// The rules summary and the action encoding, as printed by `ayo rules`.
    fn describe(&self) -> String;

    // ---- provided ----

    /// Bytes of one game state held inline (`size_of::<Self::State>()`; the repetition
    /// history's keys live on the heap besides).
    fn state_size(&self) -> usize {
        std::mem::size_of::<Self::State>()
    }
    /// `"name@version"`.
    fn id(&self) -> String {
        format!("{}@{}", self.name(), self.version())
    }
    fn is_terminal(&self, s: &Self::State) -> bool {
        self.to_play(s).is_none()
    }
    fn legal_actions(&self, s: &Self::State) -> Vec<Action> {
        self.legal_mask(s).to_vec()
    }
    /// Plays `action` if it is legal; otherwise returns an error and leaves `s` unchanged.
    fn play(&self, s: &mut Self::State, action: Action) -> Result<(), PlayError> {
        self.check(s, action)?;
        self.apply(s, action, &mut NoTrace);
        Ok(())
    }
    /// Whether `action` may be played in `s`, as an error naming it when not.
    fn check(&self, s: &Self::State, action: Action) -> Result<(), PlayError> {
        if action as usize >= self.num_actions() {
            return Err(PlayError::OutOfRange {
                action,
                num_actions: self.num_actions(),
            });
        }
        if self.is_terminal(s) {
            return Err(PlayError::GameOver { action });
        }
        let mask = self.legal_mask(s);
        if !mask.contains(action) {
            return Err(PlayError::Illegal {
                action,
                legal: mask.to_vec(),
            });
        }
        Ok(())
    }
    /// Plays an action known to be legal (search, the vectorised env after its mask check).
    #[inline]
    fn play_unchecked(&self, s: &mut Self::State, action: Action) {
        self.apply(s, action, &mut NoTrace)
    }
    /// Plays a legal action as far as its outcome, what [`Rules::gains`] measures: the board,
    /// the scores and whether (and how) the game ended are exact, but the next player's legal
    /// actions may be left unlisted, so the state serves only to be measured. By default
    /// [`Rules::play_unchecked`]; `yao` and `jodu`, whose legal moves are found by playing each
    /// one out (never-ending chains and relays are not legal), only look for one where a pass
    /// may end the game.
    #[inline]
    fn play_for_outcome(&self, s: &mut Self::State, action: Action) {
        self.play_unchecked(s, action)
    }
    /// Plays `action` and returns the board after every single drop.
    fn play_traced(&self, s: &mut Self::State, action: Action) -> Result<Vec<Snapshot>, PlayError> {
        self.check(s, action)?;
        let mut trace = DropTrace::default();
        self.apply(s, action, &mut trace);
        Ok(trace.0)
    }
}

/// Scale of [`move_gains`]: a gain of this many heuristic units (seeds) reads 1.
pub const GAIN_UNIT: f32 = 8.0;
/// What [`move_gains`] reads for a move that ends the game won (lost: its negation).
pub const WON_GAIN: f32 = 8.0;

/// A bound on every look-ahead feature's magnitude ([`Rules::tactics`] by [`move_gains`]): a
/// decided game reads ±[`WON_GAIN`], and a move can change the heuristic by at most twice
/// [`Rules::heuristic_bound`].
pub fn tactics_bound<R: Rules>(rules: &R) -> f32 {
    WON_GAIN.max(2.0 * rules.heuristic_bound() as f32 / GAIN_UNIT)
}

/// How a round that has just ended reads for South, at the next round's start `s` (whole
/// matches of the fours games): the share of the houses each player won over the other,
/// [`Rules::heuristic`] over `bound` ([`Rules::heuristic_bound`], which a caller that reads many
/// round ends computes once): 7 houses to 5 is 1/6, all 12 the whole match's 1. The baseline
/// MCTS scores a rollout that reaches a round's end by it.
pub fn round_margin<R: Rules>(rules: &R, s: &R::State, bound: f32) -> f32 {
    rules.heuristic(s, Player::South) as f32 / bound
}

/// For each action of the player to move in `s`, what playing it changes [`Rules::heuristic`]
/// by from his view, in units of [`GAIN_UNIT`] seeds; a move that ends the game reads
/// ±[`WON_GAIN`] (won or lost) or 0 (drawn), an illegal action 0. `out[..num_actions]` is
/// written.
pub fn move_gains<R: Rules>(rules: &R, s: &R::State, out: &mut [f32]) {
    move_gains_by(rules, s, out, |s, view| rules.heuristic(s, view))
}

/// The second ply of look-ahead (`lookahead = 2` in [`crate::input`]): for each legal action
/// of the player to move in `s`, what it gains ([`Rules::gains`]) once the best next move is
/// counted: less the opponent's best gain after it, or plus the mover's own best gain when it
/// leaves him to move again (a pass, a turn of several decisions); a move that ends the game
/// reads its gain alone. Clamped to ±[`tactics_bound`]; an illegal action reads 0.
/// `out[..num_actions]` is written.
pub fn exchanges<R: Rules>(rules: &R, s: &R::State, out: &mut [f32]) {
    exchanges_after(rules, s, 2, out)
}

/// Plies 2 to `plies` of look-ahead of `s`, one block of `num_actions` entries a ply,
/// `out[..(plies - 1) * num_actions]` (the first ply is [`Rules::gains`], which the input
/// encoder has from [`Rules::tactics`]). Ply `k` of a legal action is its gain once the best
/// continuation is counted, measured by ply `k - 1` of the position it leaves: less the
/// opponent's best, or plus the mover's own when he moves again; a move that ends the game
/// reads its gain alone at every ply. Ply 2 is [`exchanges`]; ply 3 also counts the mover's
/// best reply to the answer. Each ply is clamped to ±[`tactics_bound`]; an illegal action
/// reads 0.
pub fn exchanges_after<R: Rules>(rules: &R, s: &R::State, plies: u8, out: &mut [f32]) {
    let n = rules.num_actions();
    let deeper = plies.saturating_sub(1) as usize;
    if deeper == 0 {
        return;
    }
    let mut gains = vec![0.0; n]; // measured on the way: each move is played once
    plies_of(rules, s, plies, &mut gains, &mut out[..deeper * n]);
}

/// Plies 1 to `plies` of look-ahead of `s`: its gains into `gains[..num_actions]`, the deeper
/// plies into `deeper` (`(plies - 1) * num_actions` entries). Each legal move is played once,
/// its gain measured on the position it leaves and that position's own plies found from it;
/// the last ply's gains are measured by [`Rules::gains`] (playing only as far as the outcome).
fn plies_of<R: Rules>(rules: &R, s: &R::State, plies: u8, gains: &mut [f32], deeper: &mut [f32]) {
    let n = rules.num_actions();
    deeper.fill(0.0);
    if plies <= 1 {
        rules.gains(s, gains);
        return;
    }
    gains[..n].fill(0.0);
    let Some(mover) = rules.to_play(s) else {
        return;
    };
    let bound = tactics_bound(rules);
    let now = rules.gain_measure(s, mover);
    let (mut next_gains, mut next_deeper) = (vec![0.0; n], vec![0.0; deeper.len() - n]);
    for a in rules.legal_mask(s).iter() {
        let mut after = s.clone();
        rules.play_unchecked(&mut after, a);
        let gain = gain_by(rules, &after, mover, now, |s, view| {
            rules.gain_measure(s, view)
        });
        gains[a as usize] = gain;
        let Some(answerer) = rules.to_play(&after) else {
            for k in 0..plies as usize - 1 {
                deeper[k * n + a as usize] = gain;
            }
            continue;
        };
        plies_of(rules, &after, plies - 1, &mut next_gains, &mut next_deeper);
        let answers = rules.legal_mask(&after);
        for k in 0..plies as usize - 1 {
            let block = match k {
                0 => &next_gains[..],
                _ => &next_deeper[(k - 1) * n..k * n],
            };
            let best = answers
                .iter()
                .map(|b| block[b as usize])
                .fold(f32::NEG_INFINITY, f32::max);
            let answer = if answerer == mover { best } else { -best };
            deeper[k * n + a as usize] = (gain + answer).clamp(-bound, bound);
        }
    }
}

/// What a move gained its `mover`, who measured `now` before it, by the position `after` it
/// leaves: ±[`WON_GAIN`] (or 0) when it ended the game, else the change of `measure` in units
/// of [`GAIN_UNIT`]. One entry of [`move_gains_by`].
fn gain_by<R: Rules>(
    rules: &R,
    after: &R::State,
    mover: Player,
    now: i32,
    measure: impl Fn(&R::State, Player) -> i32,
) -> f32 {
    if rules.is_terminal(after) {
        WON_GAIN * rules.returns(after)[mover.index()]
    } else {
        (measure(after, mover) - now) as f32 / GAIN_UNIT
    }
}

/// [`move_gains`] by another `measure(position, view)` of a position, in seeds and within
/// ±[`Rules::heuristic_bound`] (the fours games' look-ahead features).
pub fn move_gains_by<R: Rules>(
    rules: &R,
    s: &R::State,
    out: &mut [f32],
    measure: impl Fn(&R::State, Player) -> i32,
) {
    out[..rules.num_actions()].fill(0.0);
    let Some(mover) = rules.to_play(s) else {
        return;
    };
    let now = measure(s, mover);
    for a in rules.legal_mask(s).iter() {
        let mut after = s.clone();
        rules.play_for_outcome(&mut after, a);
        out[a as usize] = gain_by(rules, &after, mover, now, &measure);
    }
}
