//! `oware@1` — Abapa exactly as OpenSpiel's `oware` (docs/rules.md section 2).
//!
//! Single lap, the origin skipped; a last seed in the opponent's row that makes 2 or 3 takes
//! that pit and the pits behind it while they hold 2 or 3, unless that would take every seed
//! the opponent has (a **grand slam**: legal, captures nothing). If the opponent has no seeds,
//! only moves that reach his row are legal. After each move the game ends, each player adding
//! the seeds of his own row to his store, when the position repeats since the last capture, when
//! the player to move has no legal move, or when a store passes half the seeds.

use crate::action::{Action, ActionMask};
use crate::board::pit_label;
use crate::board::{
    capture_chain, is_grand_slam, pit_of, row_owner, sow, sow_quick, to_lanes, OriginSkip, ROW,
};
use crate::error::ParseError;
use crate::player::Player;
use crate::repetition::Repetition;
use crate::rules::{Rules, Snapshot, Trace};
use crate::variants::two_row::{two_row_rules, Position};

/// The `oware` preset. `seeds` per pit at the start (default 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oware {
    pub seeds: u8,
}

impl Default for Oware {
    fn default() -> Self {
        Oware { seeds: 4 }
    }
}

/// A game of `oware`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OwareState {
    pub position: Position,
    pub over: bool,
    pub ply: u32,
    legal: ActionMask,
    history: Repetition,
}

/// The exact key of a position for the repetition rule: the pits' byte lanes and the player
/// to move (the stores cannot change between captures).
#[inline]
fn key(pos: &Position) -> u128 {
    to_lanes(&pos.pits) | (pos.to_move.index() as u128) << 96
}

/// Bit `k` set for each non-zero byte `k` of the six byte lanes in `row` (every lane < 128).
#[inline]
fn nonzero_lanes(row: u64) -> u64 {
    // Adding 0x7f sets a lane's top bit exactly when the lane is non-zero. Multiplying by
    // Σ 2^(56 − 7k) moves the bit of lane k (at 8k after the shift) to 56 + k; the other
    // products land on distinct bits below 56 or above 63, so nothing carries into 56..62.
    let tops = (row + 0x7f7f_7f7f_7f7f) & 0x8080_8080_8080;
    (tops >> 7).wrapping_mul(0x0102_0408_1020_0000) >> 56 & 0x3f
}

/// The capture of the move by `pos.to_move` whose last seed fell in `last`: the seeds taken
/// (into the mover's store), 0 for none. A capture needs 2 or 3 seeds in the last pit in the
/// opponent's row; that is checked before the grand slam.
#[inline]
fn capture(pos: &mut Position, last: usize) -> u8 {
    let p = pos.to_move;
    if row_owner(last) != !p
        || !(2..=3).contains(&pos.pits[last])
        || is_grand_slam(&pos.pits, last, !p)
    {
        return 0;
    }
    let captured = capture_chain(&mut pos.pits, last, !p, None);
    pos.stores[p.index()] += captured;
    captured
}

impl OwareState {
    /// The positions the repetition rule remembers (1 at the start and right after a capture).
    pub fn memory_len(&self) -> usize {
        self.history.len()
    }
}

impl Oware {
    /// Plays `action` (legal) on a bare position, without the game's end checks or repetition
    /// memory: sows, captures and passes the move. Returns the seeds captured. What the
    /// endgame tables are built from (`crate::tablebase`).
    #[inline]
    pub(crate) fn play_position(pos: &mut Position, action: Action) -> u8 {
        let from = pit_of(pos.to_move, action as usize);
        let last = sow_quick(&mut pos.pits, from, OriginSkip::Origin);
        let captured = capture(pos, last);
        pos.to_move = !pos.to_move;
        captured
    }

    fn total(&self) -> u8 {
        self.seeds * 12
    }

    /// Non-empty own pits; if the opponent has no seeds, only those whose sowing reaches him.
    #[inline]
    pub(crate) fn legal_of(pos: &Position) -> ActionMask {
        let p = pos.to_move;
        let lanes = to_lanes(&pos.pits);
        let row_lanes = |q: Player| (lanes >> (48 * q.index())) as u64 & 0xffff_ffff_ffff;
        if row_lanes(!p) != 0 {
            return ActionMask(nonzero_lanes(row_lanes(p)));
        }
        let mut mask = ActionMask::EMPTY;
        for k in 0..ROW {
            let seeds = pos.pits[pit_of(p, k)] as usize;
            if seeds > ROW - 1 - k {
                mask.insert(k as Action);
            }
        }
        mask
    }

    /// The end-of-move checks that do not need the history: a store past half the seeds
    /// (OpenSpiel then collects the rows too), or no legal move for the player to move.
    #[inline]
    fn settle(&self, s: &mut OwareState) {
        let half = self.total() / 2;
        let [s0, s1] = s.position.stores;
        let decided = s0 > half || s1 > half || (s0 == half && s1 == half);
        s.legal = if decided {
            ActionMask::EMPTY
        } else {
            Self::legal_of(&s.position)
        };
        s.over = s.legal.is_empty();
        if s.over {
            s.position.collect_rows();
        }
    }

    fn state_at(&self, position: Position) -> OwareState {
        let mut s = OwareState {
            position,
            over: false,
            ply: 0,
            legal: ActionMask::EMPTY,
            history: Repetition::default(),
        };
        s.history.restart(key(&position));
        self.settle(&mut s);
        s
    }
}

impl Rules for Oware {
    type State = OwareState;

    two_row_rules!(OwareState, render);

    fn name(&self) -> &'static str {
        "oware"
    }
    fn version(&self) -> u32 {
        1
    }
    fn options(&self) -> Vec<(String, String)> {
        if self.seeds == 4 {
            vec![]
        } else {
            vec![("seeds".into(), self.seeds.to_string())]
        }
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        match key {
            "seeds" => {
                self.seeds = value
                    .parse()
                    .ok()
                    .filter(|n| (1..=5).contains(n))
                    .ok_or_else(|| ParseError::BadOptionValue {
                        option: key.into(),
                        value: value.into(),
                        expected: "seeds per pit, 1 to 5".into(),
                    })?;
                Ok(())
            }
            _ => Err(ParseError::UnknownOption {
                variant: self.id(),
                option: key.into(),
                expected: "seeds".into(),
            }),
        }
    }
    fn num_actions(&self) -> usize {
        ROW
    }
    fn observation_len(&self) -> usize {
        14
    }
    fn start(&self, first: Player) -> OwareState {
        self.state_at(Position::start(self.seeds, first))
    }

    #[inline]
    fn apply<T: Trace>(&self, s: &mut OwareState, action: Action, trace: &mut T) {
        let pos = &mut s.position;
        let p = pos.to_move;
        let from = pit_of(p, action as usize);
        let stores = pos.stores;
        let in_hand = std::cell::Cell::new(pos.pits[from] as u32);
        let last = if T::ACTIVE {
            sow(&mut pos.pits, from, OriginSkip::Origin, |pits| {
                in_hand.set(in_hand.get() - 1);
                trace.drop_seed(Snapshot {
                    pits: pits.to_vec(),
                    stores: [stores[0] as u32, stores[1] as u32],
                    in_hand: in_hand.get(),
                    ..Default::default()
                });
            })
        } else {
            sow_quick(&mut pos.pits, from, OriginSkip::Origin)
        };
        let captured = capture(pos, last);
        pos.to_move = !p;
        s.ply += 1;
        let key = key(pos);
        if captured > 0 {
            s.history.restart(key);
        } else if s.history.recurs(key) {
            pos.collect_rows();
            s.over = true;
            s.legal = ActionMask::EMPTY;
            return;
        }
        self.settle(s);
    }

    fn observe(&self, s: &OwareState, out: &mut [f32]) {
        s.position.observe(out)
    }
    fn hash(&self, s: &OwareState) -> u64 {
        s.position.hash(s.over as u64)
    }
    fn memory_hash(&self, s: &OwareState) -> u64 {
        s.history.fingerprint()
    }
    fn notation(&self, s: &OwareState) -> String {
        s.position.notation(&[])
    }
    fn parse_notation(&self, text: &str) -> Result<OwareState, ParseError> {
        let (pos, _) = Position::parse(text, 0, self.total() as u32)?;
        Ok(self.state_at(pos))
    }
    fn action_pit(&self, s: &OwareState, action: Action) -> Option<usize> {
        ((action as usize) < ROW).then(|| pit_of(s.position.to_move, action as usize))
    }
    fn action_name(&self, s: &OwareState, action: Action) -> String {
        format!("{}", pit_label(s.position.to_move, action as usize))
    }
    fn describe(&self) -> String {
        format!(
            "oware@1 — Oware Abapa, move for move as OpenSpiel's `oware`.\n\
             Board: 2 rows of 6 pits, {} seeds each; South (player 0) owns pits 0-5, North pits 6-11; South moves first.\n\
             Move: lift all seeds of an own pit and sow them one by one counter-clockwise, never into the pit they came from.\n\
             Capture: if the last seed lands in the opponent's row making 2 or 3, take it and the pits behind it\n\
             (toward his first pit) while they hold 2 or 3 — unless that takes all his seeds (grand slam: no capture).\n\
             Feeding: if the opponent has no seeds, only moves that reach his row are legal.\n\
             End: a store above {half} wins; if the position repeats since the last capture or the player to move\n\
             has no legal move, each player adds his own row to his store. More seeds wins; equal is a draw.\n\
             Actions (0-5): the mover's pit counted from his own left (South: pit a, North: pit 6+a);\n\
             OpenSpiel prints them A-F for South and a-f for North.\n\
             Notation: `p0 … p11 | store0 store1 | to-move`.\n\
             Observation (14 floats, mover's view): 12 pits from the mover's left (seeds/4), own store/24, opponent's store/24.",
            self.seeds,
            half = self.total() / 2
        )
    }
}
