//! `jodu@1` — J'odu (docs/rules.md sections 6 and 9). **Not from the seeds**: `000_*.txt` names the
//! game but stops before describing it; these rules are Murray (1951) as encoded by Ludii's
//! `J'odu.lud` (docs/sources.md 3.5).
//!
//! Relay sowing from a pit of the mover's own row, the origin not skipped: a last seed in an
//! occupied pit lifts it and sowing goes on. When the last seed falls into an empty pit of the
//! mover's **own** row he captures the contents of the **opposite** pit (the capturing seed
//! stays; an empty opposite pit captures nothing); in the opponent's row the turn just ends.
//! A move must leave the opponent's row non-empty if any (terminating) move can. A move whose
//! relay never ends is illegal; a player with seeds whose every move never ends passes. When the
//! player to move has no seed in his row the game ends and each player adds his own row (also
//! when neither player can move — docs/rules.md is silent there). No repetition rule (only the env's
//! `max_plies`). Most seeds wins; 24–24 is a draw.

use crate::action::{Action, ActionMask};
use crate::board::pit_label;
use crate::board::{opposite, pit_of, row_owner, row_sum, Pits, PITS, ROW};
use crate::cycle::Brent;
use crate::error::ParseError;
use crate::player::Player;
use crate::rules::{NoTrace, Rules, Snapshot, Trace};
use crate::variants::relay::{relay, Flow, Lift, Relay, RelayEnd, RelayRules};
use crate::variants::two_row::Position;

/// The `jodu` preset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Jodu;

/// A game of `jodu`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct JoduState {
    pub position: Position,
    pub over: bool,
    pub ply: u32,
    legal: ActionMask,
}

/// The capture rule, told about every drop (and recording it when tracing).
struct Capture<'a, T> {
    mover: Player,
    stores: [u8; 2],
    trace: &'a mut T,
}

impl<T: Trace> RelayRules for Capture<'_, T> {
    #[inline]
    fn dropped(&mut self, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        if T::ACTIVE {
            self.trace.drop_seed(Snapshot {
                pits: pits.to_vec(),
                stores: [self.stores[0] as u32, self.stores[1] as u32],
                in_hand: hand as u32,
                ..Default::default()
            });
        }
        if hand > 0 || pits[pos] > 1 {
            return Flow::Sow;
        }
        // The last seed fell into an empty pit.
        if row_owner(pos) == self.mover {
            let o = opposite(pos);
            self.stores[self.mover.index()] += pits[o];
            pits[o] = 0;
        }
        Flow::End
    }
}

impl Jodu {
    /// Plays the relay of `p` from his pit `action` on `pos`.
    #[inline]
    fn sow<T: Trace>(pos: &mut Position, p: Player, action: Action, trace: &mut T) -> Relay {
        let mut rules = Capture {
            mover: p,
            stores: pos.stores,
            trace,
        };
        let r = relay(
            &mut pos.pits,
            Lift::Pit(pit_of(p, action as usize)),
            &mut rules,
        );
        pos.stores = rules.stores;
        r
    }

    /// The legal actions of `p`: non-empty own pits whose relay ends, and of those, the ones
    /// that leave the opponent's row non-empty if there are any. The relays are simulated by
    /// [`quick_relay`], which plays exactly the laps of [`Self::sow`] (no capture can happen
    /// before the last lap, so the capture rule only matters at the end).
    fn legal_for(&self, pos: &Position, p: Player) -> ActionMask {
        let mut ends = ActionMask::EMPTY;
        let mut feeds = ActionMask::EMPTY;
        for k in 0..ROW {
            let from = pit_of(p, k);
            if pos.pits[from] == 0 {
                continue;
            }
            if let Some((mut after, last)) = quick_relay(&pos.pits, from) {
                ends.insert(k as Action);
                // The last seed fell into an empty pit: in the mover's row it takes the
                // opposite pit.
                if row_owner(last) == p {
                    after[opposite(last)] = 0;
                }
                if row_sum(&after, !p) > 0 {
                    feeds.insert(k as Action);
                }
            }
        }
        if feeds.is_empty() {
            ends
        } else {
            feeds
        }
    }

    /// One move of `p` whose relay ends, if he has any: whether he can move, without listing
    /// every legal move ([`Rules::play_for_outcome`]).
    fn any_move(&self, pos: &Position, p: Player) -> ActionMask {
        let mut one = ActionMask::EMPTY;
        if let Some(k) = (0..ROW).find(|&k| {
            let from = pit_of(p, k);
            pos.pits[from] > 0 && quick_relay(&pos.pits, from).is_some()
        }) {
            one.insert(k as Action);
        }
        one
    }

    /// With `next` to move: the game ends if his row is empty; a player whose every move never
    /// ends passes; if neither can move the game ends too. `moves` lists a player's legal moves
    /// ([`Self::legal_for`]; for an outcome alone, [`Self::any_move`]).
    fn settle(
        &self,
        s: &mut JoduState,
        next: Player,
        moves: impl Fn(&Position, Player) -> ActionMask,
    ) {
        s.position.to_move = next;
        for p in [next, !next] {
            s.position.to_move = p;
            if row_sum(&s.position.pits, p) == 0 {
                break;
            }
            s.legal = moves(&s.position, p);
            if !s.legal.is_empty() {
                return;
            }
        }
        s.position.collect_rows();
        s.over = true;
        s.legal = ActionMask::EMPTY;
    }

    fn begin(&self, position: Position) -> JoduState {
        let mut s = JoduState {
            position,
            over: false,
            ply: 0,
            legal: ActionMask::EMPTY,
        };
        self.settle(&mut s, position.to_move, |pos, p| self.legal_for(pos, p));
        s
    }

    /// The relay of `action` from `s`, played on a copy (for tests and relay statistics).
    pub fn relay_laps(&self, s: &JoduState, action: Action) -> Relay {
        let mut after = s.position;
        Self::sow(&mut after, s.position.to_move, action, &mut NoTrace)
    }
}

// ---------------------------------------------------------------------------------------------
// The legality check's relay (issue 13).
//
// Almost all the time of a J'odu step went into the legality check's never-ending relays: they
// are rare (about one relay in 2,000 of random play) but cycle for up to tens of millions of
// laps, and Brent's check needs two to three times the cycle's length to see it. Four exact
// changes (6 M random steps: 620 M laps before, 150 M after; 1.5 M to 2.7 M steps per second):
//
// 1. **One lap in a few instructions.** The board is one `u128`, pit `i` in byte `i`. One lap
//    from pit 0 is one wrapping addition of a precomputed constant `LAP[seeds]` (take `seeds`
//    from pit 0, add one seed to each of the next `seeds` pits, pit 0 included on a lap of 12
//    or more). The relay goes on while the last pit holds more than one seed, exactly as
//    `Capture::dropped` answers (no capture happens before a lap's last seed, and then only
//    when the relay ends).
// 2. **The board is turned, not the pit moved.** Relay sowing treats the twelve pits alike,
//    so the relay from pit `k` is the relay from pit 0 of the board turned by `k`: every lift
//    state is kept turned so that the pit to lift comes first. The turned states repeat as
//    soon as a board recurs up to a turn, which cuts the never-ending relays' cycles by up to
//    twelve (the laps they cost fell from 541 M to 72 M in the run above).
// 3. **The start state is watched.** The relay is deterministic and the board's seeds are
//    conserved until it ends, so it never ends exactly when a lift state repeats. In practice
//    the first state repeats first (no never-ending relay of random play ever had a tail), so
//    each lap's state is compared with the start; Brent's check still runs beside it, so a
//    relay that enters a cycle not through its start is found too.
// 4. **Known cycles are remembered.** Every (turned) state on a never-ending relay's path never ends.
//    States whose mixed key has its 12 top bits zero ("distinguished", 1 in 4096) met on a
//    relay found never-ending go into a per-thread set of exact 128-bit keys (no hash is
//    trusted: a hit is a full key compare). A later relay that reaches one of them never ends.
//    Long cycles cover many states, so random play meets the same long cycle again and again.
//    The set is bounded (cleared when full); it only ever changes how fast the answer comes.
// ---------------------------------------------------------------------------------------------

/// Most seeds one pit can hold (all 48 of the board): the `LAP` table's index.
const MAX_SEEDS: usize = 48;
/// The 96 bits of a packed board.
const BOARD_BITS: u128 = (1 << 96) - 1;

/// `LAP[seeds]`: the wrapping constant that plays one lap of `seeds` lifted from pit 0 of a
/// packed board (take them from pit 0, add one to each of the next `seeds` pits round the
/// board, pit 0 included on a lap of 12 or more). No byte over- or underflows (a pit holds at
/// most 48 seeds and pit 0 holds the `seeds` taken), so the sum is exact.
static LAP: [u128; MAX_SEEDS + 1] = lap_table();

const fn lap_table() -> [u128; MAX_SEEDS + 1] {
    let mut t = [0u128; MAX_SEEDS + 1];
    let mut seeds = 0;
    while seeds <= MAX_SEEDS {
        let mut c = 0u128.wrapping_sub(seeds as u128);
        let mut n = 1;
        while n <= seeds {
            c = c.wrapping_add(1u128 << (8 * (n % PITS)));
            n += 1;
        }
        t[seeds] = c;
        seeds += 1;
    }
    t
}

/// The board packed into a `u128`, pit `i` in byte `i`.
#[inline]
fn pack_board(pits: &Pits) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(pits);
    u128::from_le_bytes(bytes)
}

/// The packed board turned so that pit `k` comes first: byte `i` of the result is pit
/// `(i + k) mod 12`. Relay sowing goes round all twelve pits alike, so a relay from pit `k`
/// of a board is the relay from pit 0 of the board turned by `k`.
#[inline]
fn turn(board: u128, k: usize) -> u128 {
    if k == 0 {
        board
    } else {
        ((board >> (8 * k)) | (board << (96 - 8 * k))) & BOARD_BITS
    }
}

#[inline]
fn unpack_pits(state: u128) -> Pits {
    let bytes = state.to_le_bytes();
    let mut pits = [0u8; 12];
    pits.copy_from_slice(&bytes[..12]);
    pits
}

/// Whether a lift state is one of the 1 in 4096 remembered on never-ending relays.
#[inline]
fn distinguished(state: u128) -> bool {
    let z = (state as u64) ^ ((state >> 64) as u64).rotate_left(29);
    z.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52 == 0
}

/// Lift states known to lie on never-ending relays, per thread. Exact keys.
struct NeverEnding {
    states: std::collections::HashSet<u128, std::hash::BuildHasherDefault<KeyHasher>>,
}

/// Most remembered states per thread: 16 bytes each, 16 MB of keys (about 32 MB with the
/// table's slack) at the most, only on a thread that meets that many long cycles. A quarter of
/// it made 6 M random steps 25 % slower (the set filled and was cleared).
const MAX_REMEMBERED: usize = 1 << 20;

thread_local! {
    static NEVER_ENDING: std::cell::RefCell<NeverEnding> = std::cell::RefCell::new(NeverEnding {
        states: Default::default(),
    });
}

/// A hasher for the set's `u128` keys (already spread by `distinguished`'s choice; mixed here).
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    #[inline]
    fn write_u128(&mut self, k: u128) {
        let z = ((k as u64) ^ ((k >> 64) as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = z ^ (z >> 29);
    }
}

/// The relay of every seed of `from` on `pits`, without captures: `Some((board, last))` when
/// it ends (the last seed fell into the empty pit `last`; `board` before any capture), `None`
/// when it never ends. Plays exactly the laps of [`relay`] with [`Capture`].
fn quick_relay(pits: &Pits, from: usize) -> Option<(Pits, usize)> {
    debug_assert!(pits[from] > 0);
    // `state`: the board turned so that the pit about to be lifted is byte 0; `origin`: the
    // pit of the real board that byte 0 stands for.
    let start = turn(pack_board(pits), from);
    let mut state = start;
    let mut origin = from;
    // Brent's check beside the start comparison.
    let mut cycle = Brent::starting_at(start);
    // Distinguished states met on the way, remembered if the relay never ends.
    let mut met: Vec<u128> = Vec::new();
    loop {
        let seeds = state as u8 as usize;
        let sown = state.wrapping_add(LAP[seeds]);
        let last = seeds % PITS;
        if (sown >> (8 * last)) as u8 == 1 {
            let board = turn(sown, (PITS - origin) % PITS);
            return Some((unpack_pits(board), (origin + last) % PITS));
        }
        state = turn(sown, last);
        origin = (origin + last) % PITS;
        if state == start || cycle.repeats(state) {
            break;
        }
        if distinguished(state) {
            let known = NEVER_ENDING.with(|n| n.borrow().states.contains(&state));
            if known {
                break;
            }
            met.push(state);
        }
    }
    if !met.is_empty() {
        NEVER_ENDING.with(|n| {
            let mut n = n.borrow_mut();
            if n.states.len() + met.len() > MAX_REMEMBERED {
                n.states.clear();
            }
            n.states.extend(met);
        });
    }
    None
}

impl Rules for Jodu {
    type State = JoduState;

    fn name(&self) -> &'static str {
        "jodu"
    }
    fn version(&self) -> u32 {
        1
    }
    fn num_actions(&self) -> usize {
        ROW
    }
    fn observation_len(&self) -> usize {
        14
    }
    fn start(&self, first: Player) -> JoduState {
        self.begin(Position::start(4, first))
    }
    #[inline]
    fn to_play(&self, s: &JoduState) -> Option<Player> {
        (!s.over).then_some(s.position.to_move)
    }
    #[inline]
    fn legal_mask(&self, s: &JoduState) -> ActionMask {
        s.legal
    }
    fn apply<T: Trace>(&self, s: &mut JoduState, action: Action, trace: &mut T) {
        let p = s.position.to_move;
        let r = Self::sow(&mut s.position, p, action, trace);
        debug_assert_ne!(
            r.end,
            RelayEnd::NeverEnds,
            "an illegal, never-ending move was played"
        );
        s.ply += 1;
        self.settle(s, !p, |pos, q| self.legal_for(pos, q));
    }
    /// The move and whether the game goes on: one move of the next player whose relay ends is
    /// enough to know it (the legal list is left short).
    fn play_for_outcome(&self, s: &mut JoduState, action: Action) {
        let p = s.position.to_move;
        Self::sow(&mut s.position, p, action, &mut NoTrace);
        s.ply += 1;
        self.settle(s, !p, |pos, q| self.any_move(pos, q));
    }
    fn scores(&self, s: &JoduState) -> [i32; 2] {
        [s.position.stores[0] as i32, s.position.stores[1] as i32]
    }
    fn returns(&self, s: &JoduState) -> [f32; 2] {
        if !s.over {
            return [0.0, 0.0];
        }
        let d = s.position.stores[0].cmp(&s.position.stores[1]) as i8 as f32;
        [d, -d]
    }
    fn ply(&self, s: &JoduState) -> u32 {
        s.ply
    }
    fn observe(&self, s: &JoduState, out: &mut [f32]) {
        s.position.observe(out)
    }
    fn snapshot(&self, s: &JoduState) -> Snapshot {
        s.position.snapshot()
    }
    fn hash(&self, s: &JoduState) -> u64 {
        s.position.hash(s.over as u64)
    }
    fn notation(&self, s: &JoduState) -> String {
        s.position.notation(&[])
    }
    fn parse_notation(&self, text: &str) -> Result<JoduState, ParseError> {
        let (pos, _) = Position::parse(text, 0, 48)?;
        Ok(self.begin(pos))
    }
    fn render(&self, s: &JoduState) -> String {
        s.position.render(s.over)
    }
    fn action_pit(&self, s: &JoduState, action: Action) -> Option<usize> {
        ((action as usize) < ROW).then(|| pit_of(s.position.to_move, action as usize))
    }
    fn action_name(&self, s: &JoduState, action: Action) -> String {
        format!("{}", pit_label(s.position.to_move, action as usize))
    }
    fn describe(&self) -> String {
        "jodu@1 — J'odu. Not from the seeds: 000 names it without rules; these are Murray (1951) as\n\
         encoded by Ludii's J'odu.lud.\n\
         Board: 2 rows of 6 pits, 4 seeds each (48); South (player 0) owns pits 0-5, North pits 6-11.\n\
         Move: lift an own pit and sow counter-clockwise, the origin not skipped; a last seed in an occupied\n\
         pit lifts it and sowing goes on (relay). A last seed in an empty pit of the mover's own row captures\n\
         the contents of the opposite pit (the capturing seed stays); in the opponent's row the turn ends.\n\
         A move must leave the opponent's row non-empty if any move can. A move whose relay would never end\n\
         (repeats a board and pit at a lift) is illegal; a player whose every move never ends passes.\n\
         End: when the player to move has no seed in his row (or neither player can move), each player adds\n\
         his own row. No repetition rule. Most seeds wins; 24-24 is a draw.\n\
         Actions (0-5): the mover's pit counted from his own left (South: pit a, North: pit 6+a).\n\
         Notation: `p0 … p11 | store0 store1 | to-move`.\n\
         Observation (14 floats, mover's view): 12 pits from the mover's left (seeds/4), own store/24,\n\
         opponent's store/24."
            .into()
    }
}

/// One test per rule clause: setup notation → action → expected notation.
#[cfg(test)]
mod clauses {
    use super::*;
    use crate::variants::relay::Plain;
    use crate::PlayError;

    fn clause(setup: &str, action: Action, expected: &str) {
        let v = Jodu;
        let mut s = v.parse_notation(setup).unwrap();
        v.play(&mut s, action)
            .unwrap_or_else(|e| panic!("{setup}: {e}"));
        assert_eq!(
            v.notation(&s),
            expected,
            "after action {action} from {setup}"
        );
        assert_eq!(v.snapshot(&s).total(), 48);
    }

    #[test]
    fn last_seed_in_an_empty_own_pit_captures_the_opposite_pit() {
        // South sows pit 0 (1 seed) into the empty pit 1: he takes pit 10 (5); his seed stays.
        clause(
            "1 0 4 4 4 4 4 4 4 4 5 4 | 6 0 | 0",
            0,
            "0 1 4 4 4 4 4 4 4 4 0 4 | 11 0 | 1",
        );
    }

    #[test]
    fn an_empty_opposite_pit_captures_nothing() {
        clause(
            "1 0 4 4 4 4 4 4 4 4 0 4 | 11 0 | 0",
            0,
            "0 1 4 4 4 4 4 4 4 4 0 4 | 11 0 | 1",
        );
    }

    #[test]
    fn last_seed_in_an_empty_pit_of_the_opponents_row_just_ends_the_turn() {
        // South sows pit 5 (1 seed) into North's empty pit 6: no capture (pit 5 faces 6).
        clause(
            "4 4 4 4 4 1 0 4 4 4 4 4 | 7 0 | 0",
            5,
            "4 4 4 4 4 0 1 4 4 4 4 4 | 7 0 | 1",
        );
    }

    #[test]
    fn last_seed_in_an_occupied_pit_relays_then_captures() {
        // South sows pit 0 (2): 1, 2; pit 2 held 1 -> lift 2: 3, 4 (empty, own row): take pit 7.
        clause(
            "2 0 1 0 0 4 4 3 4 4 4 4 | 10 8 | 0",
            0,
            "0 1 0 1 1 4 4 0 4 4 4 4 | 13 8 | 1",
        );
    }

    #[test]
    fn a_move_must_leave_the_opponents_row_non_empty_if_any_move_can() {
        // Pit 0 would take pit 10, North's last seeds; pit 4 leaves him seeds: only 4 is legal.
        let setup = "1 0 0 0 2 0 0 0 0 0 3 0 | 22 20 | 0";
        let v = Jodu;
        let s = v.parse_notation(setup).unwrap();
        assert_eq!(v.legal_actions(&s), vec![4]);
        assert!(matches!(
            v.play(&mut s.clone(), 0),
            Err(PlayError::Illegal { .. })
        ));
        clause(setup, 4, "1 0 0 0 0 1 1 0 0 0 3 0 | 22 20 | 1");
    }

    #[test]
    fn game_ends_when_the_player_to_move_has_no_seed_and_each_adds_his_row() {
        // South's only move takes North's last seeds; North cannot move: South adds pit 1.
        let v = Jodu;
        let mut s = v
            .parse_notation("1 0 0 0 0 0 0 0 0 0 3 0 | 24 20 | 0")
            .unwrap();
        v.play(&mut s, 0).unwrap();
        assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 28 20 | 1");
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [1.0, -1.0]);
    }

    #[test]
    fn a_relay_that_repeats_millions_of_laps_later_is_illegal() {
        // Met in random play: North's pit 10 (action 4) relays for ever, its lift states
        // repeating only after millions of laps (Brent's check needs ~16 million laps here).
        let v = Jodu;
        let s = v
            .parse_notation("3 2 5 2 1 0 4 0 12 1 16 1 | 0 1 | 1")
            .unwrap();
        let r = v.relay_laps(&s, 4);
        assert_eq!(r.end, RelayEnd::NeverEnds);
        assert!(r.laps > 1_000_000, "{} laps", r.laps);
        assert!(!v.legal_mask(&s).contains(4));
        assert!(!v.legal_mask(&s).is_empty());
    }

    /// The legality check of jodu@1 before issue 13: every relay played by `relay` with
    /// Brent's check. [`Jodu::legal_for`] must agree with it everywhere.
    fn legal_by_relay(pos: &Position, p: Player) -> ActionMask {
        let mut ends = ActionMask::EMPTY;
        let mut feeds = ActionMask::EMPTY;
        for k in 0..ROW {
            if pos.pits[pit_of(p, k)] == 0 {
                continue;
            }
            let mut after = *pos;
            if Jodu::sow(&mut after, p, k as Action, &mut NoTrace).end != RelayEnd::NeverEnds {
                ends.insert(k as Action);
                if row_sum(&after.pits, !p) > 0 {
                    feeds.insert(k as Action);
                }
            }
        }
        if feeds.is_empty() {
            ends
        } else {
            feeds
        }
    }

    #[test]
    fn the_quick_legality_check_agrees_with_the_relay_over_random_games() {
        // Both players' masks in every position of random games, some positions twice (the
        // second time through the remembered never-ending states).
        let v = Jodu;
        let mut rng = crate::rng::Rng::new(13);
        let mut never = 0;
        for _ in 0..2 {
            for g in 0..150 {
                let mut s = v.start(if g % 2 == 0 {
                    Player::South
                } else {
                    Player::North
                });
                while !s.over && s.ply < 300 {
                    for p in [Player::South, Player::North] {
                        let quick = v.legal_for(&s.position, p);
                        assert_eq!(quick, legal_by_relay(&s.position, p), "{}", v.notation(&s));
                        for k in 0..ROW {
                            let from = pit_of(p, k);
                            if s.position.pits[from] > 0
                                && quick_relay(&s.position.pits, from).is_none()
                            {
                                never += 1;
                            }
                        }
                    }
                    let mask = v.legal_mask(&s);
                    let a = rng.pick(mask);
                    v.play(&mut s, a).unwrap();
                }
            }
        }
        assert!(never > 0, "no never-ending relay met");
    }

    #[test]
    fn the_quick_relay_ends_where_the_relay_ends() {
        for (setup, from) in [
            ("3 2 5 2 1 0 4 0 12 1 16 1 | 0 1 | 1", 10),
            ("2 0 1 0 0 4 4 3 4 4 4 4 | 10 8 | 0", 0),
            ("0 0 0 0 0 24 0 0 0 0 0 24 | 0 0 | 0", 5),
            ("0 0 0 0 0 48 0 0 0 0 0 0 | 0 0 | 0", 5),
            ("1 3 1 0 1 0 1 0 2 1 0 2 | 18 18 | 0", 1),
        ] {
            let s = Jodu.parse_notation(setup).unwrap();
            let mut pits = s.position.pits;
            let r = relay(&mut pits, Lift::Pit(from), &mut Plain);
            match (quick_relay(&s.position.pits, from), r.end) {
                (Some((after, last)), RelayEnd::Ended { last: l }) => {
                    assert_eq!((after, last), (pits, l), "{setup}")
                }
                (None, RelayEnd::NeverEnds) => {}
                (q, e) => panic!("{setup}: {q:?} against {e:?}"),
            }
        }
    }

    #[test]
    fn twenty_four_all_is_a_draw() {
        let v = Jodu;
        let s = v
            .parse_notation("0 0 0 0 0 0 0 0 0 0 0 0 | 24 24 | 0")
            .unwrap();
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [0.0, 0.0]);
    }
}
