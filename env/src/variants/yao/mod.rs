//! `yao@1` — the four-row Yao game of Nyasaland (Sanderson 1913, seed `002_*.txt`;
//! docs/rules.md section 7, docs/sources.md section 6 and defaults 11.6).
//!
//! Each player owns two rows of eight holes: his **back row** (nearest him) and his **front row**
//! (the two centre rows face each other). Hole names follow the article, each row read from its
//! owner's own left; seen from South's seat:
//!
//! ```text
//!           H   G   F   E   D   C   B   A       North's back row
//!          Rd  Rc  Od   V  Ob  Oa  Rb  Ra       North's front row
//!          Ra  Rb  Oa  Ob   V  Od  Rc  Rd       South's front row
//!           A   B   C   D   E   F   G   H       South's back row
//! ```
//! `Ra Rb` and `Rc Rd` are the **reverse** holes, `Oa Ob V Od` the **optional** holes, `V` the
//! **village**. Front hole `c` (0 = Ra … 7 = Rd) faces the other player's front hole `7 − c`; a
//! front hole is **in opposition** when both it and the hole facing it hold men. A player sows
//! only round his own 16 holes (the `holes` module): along the front row, then back along the back row.
//!
//! A turn is a chain of spreads, takes and placings that ends when a man arrives in an empty
//! hole. The player decides only at its start (where to add or spread, and which way) and when
//! the chain arrives at his intact village (rule XV: stop or go on), so a turn is one or two
//! **decision steps** of the same player, each an action of one fixed space of 34:
//!
//! | action      | meaning                                                                  |
//! |-------------|--------------------------------------------------------------------------|
//! | `2k + d`    | begin the turn at own hole `k` (0–7 = Ra … Rd, 8–15 = A … H) going `d` (0 = left, 1 = right, as the mover sees that row) |
//! | 32          | stop at the village (rule XV)                                            |
//! | 33          | go on: spread the village                                                |
//!
//! While men remain in hand, `k` is the front hole the man is added to. When that hole is in
//! opposition the men taken are placed *travelling* `d`: right = from Ra, left = from Rd — the
//! placing end of rule XII, or the only end rule XVIII allows at a reverse hole; otherwise `d` is
//! the direction of the rule-X spread. With no men in hand `k` is the hole spread (rule XIII).
//! A move whose chain would never end is illegal; a player all of whose moves never end passes.

mod holes;
mod notation;
#[cfg(test)]
mod tests;

pub use holes::{back_lane, occupied, Dir, Holes, LOOP, ROW, VILLAGE};

use crate::action::{Action, ActionMask};
use crate::cycle::Brent;
use crate::error::ParseError;
use crate::player::Player;
use crate::rng::mix;
use crate::rules::{NoTrace, Rules, Snapshot, Trace};

/// Men on the board and in hand, together.
pub const MEN: u32 = 64;
/// Men each player holds in hand at the start (rule II).
pub const IN_HAND: u8 = 22;
/// Action: stop at the village (rule XV).
pub const STOP: Action = 32;
/// Action: go on from the village, spreading it.
pub const GO_ON: Action = 33;
/// Size of the action space.
pub const NUM_ACTIONS: usize = 34;
/// Length of the observation.
pub const OBSERVATION_LEN: usize = 40;

/// The front row's hole names, from the owner's left.
pub const FRONT_NAMES: [&str; ROW] = ["Ra", "Rb", "Oa", "Ob", "V", "Od", "Rc", "Rd"];
/// The back row's hole names, from the owner's left.
pub const BACK_NAMES: [&str; ROW] = ["A", "B", "C", "D", "E", "F", "G", "H"];

/// Front hole `Od`, where the gambit adds.
const OD: usize = 5;
/// The gambit's action: add to `Od`, going left.
const GAMBIT: Action = 2 * OD as Action;

/// The lane of own hole `k` (0–7 front Ra … Rd, 8–15 back A … H).
#[inline]
pub const fn lane_of_hole(k: usize) -> usize {
    if k < ROW {
        k
    } else {
        back_lane(k - ROW)
    }
}

/// The own hole number (0–7 front Ra … Rd, 8–15 back A … H) of `lane`.
#[inline]
pub const fn hole_of_lane(lane: usize) -> usize {
    if lane < ROW {
        lane
    } else {
        ROW + (LOOP - 1 - lane)
    }
}

/// The article's name of own hole `k`.
pub fn hole_name(k: usize) -> &'static str {
    if k < ROW {
        FRONT_NAMES[k]
    } else {
        BACK_NAMES[k - ROW]
    }
}

/// The action that begins a turn at own hole `k` going `rightwards` (as the mover sees its row).
#[inline]
pub const fn begin_action(k: usize, rightwards: bool) -> Action {
    (2 * k + rightwards as usize) as Action
}

/// What an occupied front hole adds to a player's men in [`Rules::heuristic`]: the game is
/// won by emptying the opponent's front row and lost by emptying one's own.
pub const FRONT_HOLE_WORTH: i32 = 1;

/// Default of [`Yao::max_chain`].
pub const MAX_CHAIN: u32 = 1 << 16;
/// Brent's cycle finder starts at this spread of a chain; almost every chain ends before.
const CYCLE_FROM: u32 = 64;

/// The `yao` preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yao {
    /// Play the article's fixed two opening moves (6.5), B's irregular placing included.
    pub sanderson_gambit: bool,
    /// A chain of more spreads and takes than this counts as never-ending (illegal), as one that
    /// repeats a state does; `None`: only a repeated state (exact, but a single check can take
    /// 10⁹ spreads: a circuit of 16 holes with 50 men has cycles 2·10⁷ spreads long). Random play
    /// never showed a chain that ended after more than ~1300 spreads.
    pub max_chain: Option<u32>,
}

impl Default for Yao {
    fn default() -> Self {
        Yao {
            sanderson_gambit: false,
            max_chain: Some(MAX_CHAIN),
        }
    }
}

/// Everything on the board and in the hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Board {
    /// Each player's 16 holes, indexed by player.
    pub holes: [Holes; 2],
    /// Men each player still holds in hand (and, after the winning take, the men taken last).
    pub hands: [u8; 2],
    /// Whether no man has yet left the player's village (rules X, XV).
    pub village_intact: [bool; 2],
}

impl Board {
    /// Men `p` owns (in his holes and hand) plus [`FRONT_HOLE_WORTH`] for each occupied hole
    /// of his front row: one side of [`Rules::heuristic`].
    pub fn worth(&self, p: Player) -> i32 {
        let side = self.holes[p.index()];
        let front = occupied(side.front()).count_ones() as i32;
        (side.total() + self.hands[p.index()] as u32) as i32 + FRONT_HOLE_WORTH * front
    }
    /// Rule II, III: 22 in hand; 6 in the village and 2 in each of the two holes to its right.
    pub fn start() -> Board {
        let mut side = Holes(0);
        side.add(VILLAGE, 6);
        side.add(VILLAGE + 1, 2);
        side.add(VILLAGE + 2, 2);
        Board {
            holes: [side; 2],
            hands: [IN_HAND; 2],
            village_intact: [true; 2],
        }
    }

    /// Bit `c` set when `p`'s front hole `c` is in opposition.
    #[inline]
    pub fn opposition(&self, p: Player) -> u8 {
        occupied(self.holes[p.index()].front()) & occupied(self.holes[(!p).index()].front_facing())
    }

    /// Whether `p`'s hole at `lane` is a front hole in opposition.
    #[inline]
    pub fn in_opposition(&self, p: Player, lane: usize) -> bool {
        lane < ROW
            && self.holes[p.index()].get(lane) > 0
            && self.holes[(!p).index()].get(ROW - 1 - lane) > 0
    }

    /// The board in absolute order: player 0's front row Ra … Rd, his back row A … H, then
    /// player 1's front and back rows the same way (pits 0–31); `in_hand` men in the air.
    pub fn snapshot(&self, in_hand: u32) -> Snapshot {
        let mut pits = Vec::with_capacity(2 * LOOP);
        for side in self.holes {
            pits.extend((0..LOOP).map(|k| side.get(lane_of_hole(k))));
        }
        Snapshot {
            pits,
            stores: [0, 0],
            hands: [self.hands[0] as u32, self.hands[1] as u32],
            in_hand,
            owners: None,
        }
    }

    /// Drops one man into each of the `n` holes after `from` going `dir`; the arrival and what
    /// it held before the last man.
    #[inline]
    fn sow<T: Trace>(
        &mut self,
        p: Player,
        from: usize,
        dir: Dir,
        n: u8,
        trace: &mut T,
    ) -> (usize, u8) {
        if T::ACTIVE {
            let (mut at, mut before) = (from, 0);
            for left in (0..n).rev() {
                at = dir.step(at);
                before = self.holes[p.index()].get(at);
                self.holes[p.index()].add(at, 1);
                trace.drop_seed(self.snapshot(left as u32));
            }
            (at, before)
        } else {
            self.holes[p.index()].sow(from, dir, n)
        }
    }

    /// Spreads `n` men of `p`'s hole `lane` going `dir` (the hole keeps the rest).
    #[inline]
    fn spread<T: Trace>(
        &mut self,
        p: Player,
        lane: usize,
        n: u8,
        dir: Dir,
        trace: &mut T,
    ) -> (usize, u8) {
        self.holes[p.index()].remove(lane, n);
        if lane == VILLAGE {
            self.village_intact[p.index()] = false;
        }
        self.sow(p, lane, dir, n, trace)
    }

    /// Rule IV: one man from hand into `p`'s front hole `lane`.
    #[inline]
    fn add<T: Trace>(&mut self, p: Player, lane: usize, trace: &mut T) {
        self.hands[p.index()] -= 1;
        self.holes[p.index()].add(lane, 1);
        if T::ACTIVE {
            trace.drop_seed(self.snapshot(0));
        }
    }

    /// Takes the men facing `p`'s front hole `c`. `None` when that empties the opponent's front
    /// row: `p` has won, and the men taken last stay in his hand (Y-5); otherwise how many.
    #[inline]
    fn take<T: Trace>(&mut self, p: Player, c: usize, trace: &mut T) -> Option<u8> {
        let q = !p;
        let facing = ROW - 1 - c;
        let men = self.holes[q.index()].lift(facing);
        if facing == VILLAGE {
            self.village_intact[q.index()] = false; // Y-2: taken from counts as removed
        }
        if self.holes[q.index()].front() == 0 {
            self.hands[p.index()] += men;
            if T::ACTIVE {
                trace.drop_seed(self.snapshot(0));
            }
            return None;
        }
        if T::ACTIVE {
            trace.drop_seed(self.snapshot(men as u32));
        }
        Some(men)
    }

    /// Rules XVI, XVIII, XIX (and XII through `dir`): takes the men facing `p`'s front hole `c`
    /// and places them one per hole from an end of his front row, on into the back row.
    /// From a reverse hole they go from the end hole of that reverse; from an optional hole they
    /// keep travelling `dir`, from Ra when that is rightwards and from Rd when leftwards.
    /// Returns the arrival, what it held before the last man and the new direction, or `None`
    /// when the take won the game.
    #[inline]
    fn take_and_place<T: Trace>(
        &mut self,
        p: Player,
        c: usize,
        dir: Dir,
        trace: &mut T,
    ) -> Option<(usize, u8, Dir)> {
        let men = self.take(p, c, trace)?;
        let dir = match c {
            0 | 1 => Dir::Clockwise,
            6 | 7 => Dir::Anticlockwise,
            _ => dir,
        };
        // The man placed first goes into the end hole itself: sow from the hole before it.
        let before_end = match dir {
            Dir::Clockwise => back_lane(0),
            Dir::Anticlockwise => back_lane(ROW - 1),
        };
        let (at, before) = self.sow(p, before_end, dir, men, trace);
        Some((at, before, dir))
    }
}

/// The decision the player to move faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Decision {
    /// A new turn: where to add or spread, and which way (actions 0–31).
    Begin,
    /// The chain has arrived at the mover's intact village, not in opposition (rule XV):
    /// stop (32) or go on (33), travelling `dir`, taking on arrivals in opposition if `capturing`.
    Village { dir: Dir, capturing: bool },
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Status {
    Live,
    Won(Player),
    /// Neither player has a move that ends (never seen in practice).
    Drawn,
}

/// A game of `yao`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct YaoState {
    pub board: Board,
    /// The player to move (or who would move, once the game is over).
    pub to_move: Player,
    pub decision: Decision,
    /// Moves of the gambit still to play (2, 1 or 0).
    pub gambit: u8,
    pub status: Status,
    pub ply: u32,
    legal: ActionMask,
}

/// How play went on after a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    /// Arrived in an empty hole: the turn is over (rule VII).
    Lies,
    /// Stopped at the village (rule XV): the turn is over.
    Stops,
    /// Arrived at the intact village: the player decides.
    Village { dir: Dir, capturing: bool },
    /// Took the last men of the opponent's front row.
    Wins,
    /// The chain repeats itself and would never end.
    Endless,
}

/// Plays on from an arrival at `p`'s hole `at`, which held `before` men before the last one,
/// until the turn ends or the village asks for a decision. `check` looks for never-ending chains.
#[inline]
fn play_on<T: Trace>(
    b: &mut Board,
    p: Player,
    mut at: usize,
    mut before: u8,
    mut dir: Dir,
    capturing: bool,
    check: Option<u32>,
    trace: &mut T,
) -> Run {
    if !T::ACTIVE && !capturing && !b.village_intact[p.index()] {
        return quiet_chain(&mut b.holes[p.index()], at, before, dir, check);
    }
    let mut cycle: Option<Brent<(Board, usize, Dir)>> = None;
    let mut acts = 0u32;
    loop {
        if before == 0 {
            return Run::Lies; // VII
        }
        if at == VILLAGE && b.village_intact[p.index()] && !b.in_opposition(p, at) {
            return Run::Village { dir, capturing }; // XV
        }
        if capturing && b.in_opposition(p, at) {
            // VIII, IX (XIV: only in a chain that may capture)
            match b.take_and_place(p, at, dir, trace) {
                None => return Run::Wins,
                Some((a, n, d)) => (at, before, dir) = (a, n, d),
            }
        } else {
            let men = b.holes[p.index()].get(at);
            (at, before) = b.spread(p, at, men, dir, trace);
        }
        if let Some(max) = check {
            acts += 1;
            if acts > max {
                return Run::Endless;
            }
            if acts >= CYCLE_FROM {
                match &mut cycle {
                    None => cycle = Some(Brent::starting_at((*b, at, dir))),
                    Some(c) => {
                        if c.repeats((*b, at, dir)) {
                            return Run::Endless;
                        }
                    }
                }
            }
        }
    }
}

/// [`play_on`] for a chain that can neither take nor stop at the village: it only moves the
/// player's own men round his circuit, and it behaves the same wherever on the circuit it is,
/// so Brent's finder compares states turned to put the current hole first.
#[inline]
fn quiet_chain(
    holes: &mut Holes,
    mut at: usize,
    mut before: u8,
    dir: Dir,
    check: Option<u32>,
) -> Run {
    let mut cycle: Option<Brent<u128>> = None;
    let mut acts = 0u32;
    while before > 0 {
        let men = holes.lift(at);
        (at, before) = holes.sow(at, dir, men);
        if let Some(max) = check {
            acts += 1;
            if acts > max {
                return Run::Endless;
            }
            if acts >= CYCLE_FROM {
                let now = holes.0.rotate_right(8 * at as u32);
                match &mut cycle {
                    None => cycle = Some(Brent::starting_at(now)),
                    Some(c) => {
                        if c.repeats(now) {
                            return Run::Endless;
                        }
                    }
                }
            }
        }
    }
    Run::Lies
}

/// Plays action `a` (0–31) that begins `p`'s turn.
#[inline]
fn begin<T: Trace>(
    b: &mut Board,
    p: Player,
    a: Action,
    gambit: bool,
    check: Option<u32>,
    trace: &mut T,
) -> Run {
    let lane = lane_of_hole(a as usize / 2);
    let dir = Dir::along(lane, a % 2 == 1);
    if b.hands[p.index()] == 0 {
        // XIII: spread any hole of two or more; XIV: the chain may capture only if the first
        // spread arrives (in an occupied hole) in opposition.
        let men = b.holes[p.index()].get(lane);
        let (at, before) = b.spread(p, lane, men, dir, trace);
        let capturing = before > 0 && b.in_opposition(p, at);
        return play_on(b, p, at, before, dir, capturing, check, trace);
    }
    // IV, V: add a man; VI: to a hole in opposition if there is one.
    let capturing = b.in_opposition(p, lane);
    b.add(p, lane, trace);
    if capturing && gambit {
        // 6.5: the second move of the gambit places the man taken into the hole added to.
        let Some(men) = b.take(p, lane, trace) else {
            return Run::Wins;
        };
        for left in (0..men).rev() {
            b.holes[p.index()].add(lane, 1);
            if T::ACTIVE {
                trace.drop_seed(b.snapshot(left as u32));
            }
        }
        let before = b.holes[p.index()].get(lane) - 1;
        return play_on(b, p, lane, before, dir, true, check, trace);
    }
    if capturing {
        return match b.take_and_place(p, lane, dir, trace) {
            None => Run::Wins,
            Some((at, before, dir)) => play_on(b, p, at, before, dir, true, check, trace),
        };
    }
    // X: spread the hole added to, either way; only two men from the intact village.
    // XI: such a move never captures.
    let men = if lane == VILLAGE && b.village_intact[p.index()] {
        2
    } else {
        b.holes[p.index()].get(lane)
    };
    let (at, before) = b.spread(p, lane, men, dir, trace);
    play_on(b, p, at, before, dir, false, check, trace)
}

/// Plays the village decision `a` (stop or go on).
#[inline]
fn at_village<T: Trace>(
    b: &mut Board,
    p: Player,
    a: Action,
    dir: Dir,
    capturing: bool,
    check: Option<u32>,
    trace: &mut T,
) -> Run {
    if a == STOP {
        if T::ACTIVE {
            trace.drop_seed(b.snapshot(0)); // nothing moves; the board is reported once
        }
        return Run::Stops;
    }
    let men = b.holes[p.index()].get(VILLAGE);
    let (at, before) = b.spread(p, VILLAGE, men, dir, trace);
    play_on(b, p, at, before, dir, capturing, check, trace)
}

/// The actions that may begin `p`'s turn, never-ending ones removed (each is played out to
/// know), lowest first.
fn begin_moves(
    b: &Board,
    p: Player,
    gambit: bool,
    max_chain: u32,
) -> impl Iterator<Item = Action> + '_ {
    let side = b.holes[p.index()];
    let mut candidates = 0u64;
    let both = |c: usize| 0b11u64 << (2 * c);
    if gambit {
        candidates = 1 << GAMBIT;
    } else if b.hands[p.index()] > 0 {
        let opposition = b.opposition(p);
        if opposition != 0 {
            // VI: add in opposition. XVIII fixes the placing end at a reverse hole; XII lets
            // the player choose it at an optional hole.
            for c in bits(opposition as u64) {
                candidates |= match c {
                    0 | 1 => 1 << begin_action(c, true),
                    6 | 7 => 1 << begin_action(c, false),
                    _ => both(c),
                };
            }
        } else {
            // X: any occupied front hole, either way; the intact village only when every other
            // front hole is empty.
            let mut holes = occupied(side.front());
            if b.village_intact[p.index()] && holes != 1 << VILLAGE {
                holes &= !(1 << VILLAGE);
            }
            for c in bits(holes as u64) {
                candidates |= both(c);
            }
        }
    } else {
        // XIII: any hole holding more than one man, either way.
        for lane in 0..LOOP {
            if side.get(lane) > 1 {
                candidates |= both(hole_of_lane(lane));
            }
        }
    }
    bits(candidates).map(|a| a as Action).filter(move |&a| {
        let mut trial = *b;
        begin(&mut trial, p, a, gambit, Some(max_chain), &mut NoTrace) != Run::Endless
    })
}

/// The legal actions that may begin `p`'s turn, as a mask.
fn begin_mask(b: &Board, p: Player, gambit: bool, max_chain: u32) -> ActionMask {
    let mut mask = ActionMask::EMPTY;
    for a in begin_moves(b, p, gambit, max_chain) {
        mask.insert(a);
    }
    mask
}

/// How much of the next decision a move settles: its legal actions listed (every move played),
/// or only what decides the game's outcome (a move played to be measured,
/// [`Rules::play_for_outcome`]): whether the next player has any move at all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Settle {
    Listed,
    Outcome,
}

/// Stop is always allowed; going on unless the chain would never end.
fn village_mask(b: &Board, p: Player, dir: Dir, capturing: bool, max_chain: u32) -> ActionMask {
    let mut mask = ActionMask(1 << STOP);
    let mut trial = *b;
    if at_village(
        &mut trial,
        p,
        GO_ON,
        dir,
        capturing,
        Some(max_chain),
        &mut NoTrace,
    ) != Run::Endless
    {
        mask.insert(GO_ON);
    }
    mask
}

/// The set bits of `x`, lowest first.
#[inline]
fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let i = x.trailing_zeros() as usize;
            x &= x - 1;
            i
        })
    })
}

impl Yao {
    fn chain_limit(&self) -> u32 {
        self.max_chain.unwrap_or(u32::MAX)
    }

    /// A state with `board`, `to_move` facing `decision`; the turn's checks are made.
    pub fn state(&self, board: Board, to_move: Player, decision: Decision, gambit: u8) -> YaoState {
        let mut s = YaoState {
            board,
            to_move,
            decision,
            gambit,
            status: Status::Live,
            ply: 0,
            legal: ActionMask::EMPTY,
        };
        match decision {
            Decision::Begin => self.begin_turn(&mut s, Settle::Listed),
            Decision::Village { dir, capturing } => {
                s.legal = village_mask(&s.board, to_move, dir, capturing, self.chain_limit())
            }
        }
        s
    }

    /// The checks at the start of a turn: rule XX, an empty front row in phase 1, the gambit,
    /// and passes when every move would never end.
    fn begin_turn(&self, s: &mut YaoState, settle: Settle) {
        s.decision = Decision::Begin;
        for _ in 0..2 {
            let p = s.to_move;
            let side = s.board.holes[p.index()];
            let in_hand = s.board.hands[p.index()] > 0;
            if s.gambit > 0 && side.get(OD) == 0 {
                s.gambit = 0;
            }
            // XX: with no men in hand and only single men, he loses. With men in hand and an
            // empty front row he cannot add (V, X): he has lost by the object of the game.
            if (!in_hand && !side.has_two_or_more()) || (in_hand && side.front() == 0) {
                return self.end(s, Status::Won(!p));
            }
            let (gambit, limit) = (s.gambit > 0, self.chain_limit());
            match settle {
                Settle::Listed => {
                    s.legal = begin_mask(&s.board, p, gambit, limit);
                    if !s.legal.is_empty() {
                        return;
                    }
                }
                Settle::Outcome => {
                    if begin_moves(&s.board, p, gambit, limit).next().is_some() {
                        return;
                    }
                }
            }
            s.to_move = !p; // every move never ends: he passes (docs/rules.md 1)
        }
        self.end(s, Status::Drawn);
    }

    /// A finished game, as written in a notation.
    fn over(&self, board: Board, to_move: Player, gambit: u8, status: Status) -> YaoState {
        YaoState {
            board,
            to_move,
            decision: Decision::Begin,
            gambit,
            status,
            ply: 0,
            legal: ActionMask::EMPTY,
        }
    }

    /// Plays `action` for the player to move, settling the next decision as far as `settle`.
    fn decide<T: Trace>(&self, s: &mut YaoState, action: Action, trace: &mut T, settle: Settle) {
        let p = s.to_move;
        s.ply += 1;
        if settle == Settle::Outcome {
            s.legal = ActionMask::EMPTY; // (not listed: the state is only measured)
        }
        let run = match s.decision {
            Decision::Begin => {
                let gambit = s.gambit > 0;
                s.gambit = s.gambit.saturating_sub(1);
                begin(&mut s.board, p, action, gambit, None, trace)
            }
            Decision::Village { dir, capturing } => {
                at_village(&mut s.board, p, action, dir, capturing, None, trace)
            }
        };
        match run {
            Run::Village { dir, capturing } => {
                s.decision = Decision::Village { dir, capturing };
                if settle == Settle::Listed {
                    s.legal = village_mask(&s.board, p, dir, capturing, self.chain_limit());
                }
            }
            Run::Lies | Run::Stops => {
                if s.board.holes[p.index()].front() == 0 {
                    // He emptied his own front row: the object of the game is the opponent's.
                    return self.end(s, Status::Won(!p));
                }
                s.to_move = !p;
                self.begin_turn(s, settle);
            }
            Run::Wins => self.end(s, Status::Won(p)),
            Run::Endless => unreachable!("a never-ending move is never legal"),
        }
    }

    fn end(&self, s: &mut YaoState, status: Status) {
        s.status = status;
        s.decision = Decision::Begin;
        s.legal = ActionMask::EMPTY;
    }
}

impl Rules for Yao {
    type State = YaoState;

    fn name(&self) -> &'static str {
        "yao"
    }
    fn version(&self) -> u32 {
        1
    }
    fn options(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.sanderson_gambit {
            out.push(("sanderson_gambit".into(), "true".into()));
        }
        if self.max_chain != Some(MAX_CHAIN) {
            let v = self.max_chain.map_or("none".into(), |n| n.to_string());
            out.push(("max_chain".into(), v));
        }
        out
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        match key {
            "sanderson_gambit" => {
                self.sanderson_gambit = match value {
                    "true" | "1" | "yes" => true,
                    "false" | "0" | "no" => false,
                    _ => {
                        return Err(ParseError::BadOptionValue {
                            option: key.into(),
                            value: value.into(),
                            expected: "true or false".into(),
                        })
                    }
                };
                Ok(())
            }
            "max_chain" => {
                self.max_chain = match value {
                    "none" => None,
                    n => Some(n.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                        ParseError::BadOptionValue {
                            option: key.into(),
                            value: value.into(),
                            expected: "a number of spreads ≥ 1, or none".into(),
                        }
                    })?),
                };
                Ok(())
            }
            _ => Err(ParseError::UnknownOption {
                variant: self.id(),
                option: key.into(),
                expected: "sanderson_gambit, max_chain".into(),
            }),
        }
    }
    fn num_actions(&self) -> usize {
        NUM_ACTIONS
    }
    fn observation_len(&self) -> usize {
        OBSERVATION_LEN
    }
    fn start(&self, first: Player) -> YaoState {
        let gambit = if self.sanderson_gambit { 2 } else { 0 };
        self.state(Board::start(), first, Decision::Begin, gambit)
    }
    #[inline]
    fn to_play(&self, s: &YaoState) -> Option<Player> {
        (s.status == Status::Live).then_some(s.to_move)
    }
    #[inline]
    fn legal_mask(&self, s: &YaoState) -> ActionMask {
        s.legal
    }

    fn apply<T: Trace>(&self, s: &mut YaoState, action: Action, trace: &mut T) {
        self.decide(s, action, trace, Settle::Listed)
    }
    fn play_for_outcome(&self, s: &mut YaoState, action: Action) {
        self.decide(s, action, &mut NoTrace, Settle::Outcome)
    }

    /// Men on each player's side: his 16 holes and his hand.
    fn scores(&self, s: &YaoState) -> [i32; 2] {
        let b = &s.board;
        [0, 1].map(|p| (b.holes[p].total() + b.hands[p] as u32) as i32)
    }
    /// Men owned ([`Rules::scores`]) plus [`FRONT_HOLE_WORTH`] for each occupied hole of the
    /// front row; `view`'s minus the opponent's (see [`Rules::heuristic`]).
    fn heuristic(&self, s: &YaoState, view: Player) -> i32 {
        s.board.worth(view) - s.board.worth(!view)
    }
    /// Every man on one side, and every hole of his front row occupied.
    fn heuristic_bound(&self) -> i32 {
        MEN as i32 + FRONT_HOLE_WORTH * ROW as i32
    }
    fn tactics_len(&self) -> usize {
        2 * NUM_ACTIONS
    }
    /// What each move of the player to move gains ([`Rules::gains`]), then the opponent's
    /// threats: what each turn he could begin on this board, were it his, would gain him.
    fn tactics(&self, s: &YaoState, out: &mut [f32]) {
        self.gains(s, out);
        let threats = &mut out[NUM_ACTIONS..];
        threats.fill(0.0);
        if s.status == Status::Live {
            let theirs = self.state(s.board, !s.to_move, Decision::Begin, 0);
            if theirs.to_move != s.to_move {
                self.gains(&theirs, threats); // (not when he would have to pass)
            }
        }
    }
    fn returns(&self, s: &YaoState) -> [f32; 2] {
        match s.status {
            Status::Won(p) => {
                let mut r = [-1.0; 2];
                r[p.index()] = 1.0;
                r
            }
            _ => [0.0, 0.0],
        }
    }
    fn ply(&self, s: &YaoState) -> u32 {
        s.ply
    }

    /// 40 floats from the view of the player to move, men scaled by 1/8:
    /// * 0–15: his holes Ra … Rd, then A … H;
    /// * 16–23: the opponent's front holes facing his Ra … Rd; 24–31: the opponent's back holes
    ///   behind those (his board as the mover sees it across the table, nearest row first);
    /// * 32, 33: men in his hand and in the opponent's hand, / 22;
    /// * 34, 35: his village intact, the opponent's village intact (0/1);
    /// * 36: 1 when the decision is the village stop; 37: the chain travels rightwards along his
    ///   front row (clockwise); 38: the chain may capture; 39: gambit moves left / 2.
    fn observe(&self, s: &YaoState, out: &mut [f32]) {
        let b = &s.board;
        let (me, them) = (b.holes[s.to_move.index()], b.holes[(!s.to_move).index()]);
        for k in 0..LOOP {
            out[k] = me.get(lane_of_hole(k)) as f32 / 8.0;
        }
        for c in 0..ROW {
            out[LOOP + c] = them.get(ROW - 1 - c) as f32 / 8.0;
            out[LOOP + ROW + c] = them.get(back_lane(ROW - 1 - c)) as f32 / 8.0;
        }
        let (p, q) = (s.to_move.index(), (!s.to_move).index());
        out[32] = b.hands[p] as f32 / IN_HAND as f32;
        out[33] = b.hands[q] as f32 / IN_HAND as f32;
        out[34] = b.village_intact[p] as u8 as f32;
        out[35] = b.village_intact[q] as u8 as f32;
        let (pending, clockwise, capturing) = match s.decision {
            Decision::Begin => (0.0, 0.0, 0.0),
            Decision::Village { dir, capturing } => (
                1.0,
                (dir == Dir::Clockwise) as u8 as f32,
                capturing as u8 as f32,
            ),
        };
        out[36] = pending;
        out[37] = clockwise;
        out[38] = capturing;
        out[39] = s.gambit as f32 / 2.0;
    }

    fn snapshot(&self, s: &YaoState) -> Snapshot {
        s.board.snapshot(0)
    }

    fn hash(&self, s: &YaoState) -> u64 {
        let b = &s.board;
        let decision = match s.decision {
            Decision::Begin => 0,
            Decision::Village { dir, capturing } => {
                1 | ((dir == Dir::Clockwise) as u64 * 2) | (capturing as u64 * 4)
            }
        };
        let status = match s.status {
            Status::Live => 0,
            Status::Won(p) => 1 + p.index() as u64,
            Status::Drawn => 3,
        };
        let small = b.hands[0] as u64
            | (b.hands[1] as u64) << 8
            | (b.village_intact[0] as u64) << 16
            | (b.village_intact[1] as u64) << 17
            | (s.to_move.index() as u64) << 18
            | decision << 20
            | (s.gambit as u64) << 24
            | status << 28;
        let mut h = mix(small);
        for side in b.holes {
            h = mix(h ^ side.0 as u64);
            h = mix(h ^ (side.0 >> 64) as u64);
        }
        h
    }

    /// `F0 / B0 | F1 / B1 | hands h0 h1 | m | village v0 v1 | gambit g | step`: each player's
    /// front row Ra … Rd and back row A … H from his own left, the men in hand, the player to
    /// move (0 or 1), village intact flags (0/1), gambit moves left, and the step: `begin`,
    /// `village left|right taking|quiet` (the village decision, the chain's direction along the
    /// front row and whether it may capture), `won 0|1` or `drawn`.
    fn notation(&self, s: &YaoState) -> String {
        notation::write(s)
    }
    fn parse_notation(&self, text: &str) -> Result<YaoState, ParseError> {
        notation::parse(self, text)
    }

    /// The board from South's seat; [`Rules::render_from`] draws it from either seat.
    fn render(&self, s: &YaoState) -> String {
        notation::draw(s, Player::South)
    }
    fn render_from(&self, s: &YaoState, seat: Player) -> String {
        notation::draw(s, seat)
    }
    /// A village decision (rule XV) continues the turn.
    fn continues_turn(&self, s: &YaoState) -> bool {
        s.decision != Decision::Begin
    }

    /// `2k + d` begins at the mover's hole `k`; stopping at or going on from the village is
    /// chosen at the village.
    fn action_pit(&self, s: &YaoState, action: Action) -> Option<usize> {
        let k = match action {
            STOP | GO_ON => VILLAGE,
            a if (a as usize) < 2 * LOOP => a as usize / 2,
            _ => return None,
        };
        Some(s.to_move.index() * LOOP + k)
    }
    fn action_name(&self, s: &YaoState, action: Action) -> String {
        notation::action_name(s, action)
    }
    fn describe(&self) -> String {
        notation::describe(self)
    }
}
