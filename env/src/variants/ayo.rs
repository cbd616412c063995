//! `ayo@1` — the computer Ayo of `004_*.txt` (docs/rules.md sections 3 and 9).
//!
//! Single lap, the origin skipped; a last seed in the opponent's row that makes 2 or 3 takes
//! that pit and every pit behind it in his row while they hold 2 or 3 (no limit, no grand-slam
//! forfeit). A move that would leave the opponent with no seeds is illegal unless it brings
//! the mover to 25. The game ends when a player reaches 25 (the seeds left on the board are not
//! collected); when the player to move has no legal move, or a position repeats since the last
//! capture, each player adds the seeds on his own side.

use crate::action::{Action, ActionMask};
use crate::board::pit_label;
use crate::board::{capture_chain, pit_of, row_owner, row_sum, sow, OriginSkip, Pits, ROW};
use crate::error::ParseError;
use crate::player::Player;
use crate::repetition::Repetition;
use crate::rules::{Rules, Snapshot, Trace};
use crate::variants::two_row::{two_row_rules, Position};

/// Which total ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndThreshold {
    /// One player has 25 or more (default: the majority of 48).
    Either,
    /// Both stores together reach 25 (the source's literal wording, probably a slip).
    Both,
}

/// The `ayo` preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ayo {
    pub end: EndThreshold,
}

impl Default for Ayo {
    fn default() -> Self {
        Ayo {
            end: EndThreshold::Either,
        }
    }
}

/// A game of `ayo`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AyoState {
    pub position: Position,
    pub over: bool,
    pub ply: u32,
    legal: ActionMask,
    history: Repetition,
}

const WIN: u8 = 25;

impl Ayo {
    fn reached(&self, stores: [u8; 2]) -> bool {
        match self.end {
            EndThreshold::Either => stores[0] >= WIN || stores[1] >= WIN,
            EndThreshold::Both => stores[0] + stores[1] >= WIN,
        }
    }

    /// Sows pit `k` of the mover and takes the 2-or-3 chain; returns the seeds taken.
    #[inline]
    fn sow_and_capture(pits: &mut Pits, p: Player, k: usize, mut on_drop: impl FnMut(&Pits)) -> u8 {
        let last = sow(pits, pit_of(p, k), OriginSkip::Origin, &mut on_drop);
        if row_owner(last) == !p {
            capture_chain(pits, last, !p, None)
        } else {
            0
        }
    }

    /// Non-empty own pits whose move leaves the opponent a seed, or brings the mover to 25.
    fn legal_of(&self, pos: &Position) -> ActionMask {
        let p = pos.to_move;
        let mut mask = ActionMask::EMPTY;
        for k in 0..ROW {
            if pos.pits[pit_of(p, k)] == 0 {
                continue;
            }
            let mut pits = pos.pits;
            let taken = Self::sow_and_capture(&mut pits, p, k, |_| {});
            let mut stores = pos.stores;
            stores[p.index()] += taken;
            if row_sum(&pits, !p) > 0 || self.reached(stores) {
                mask.insert(k as Action);
            }
        }
        mask
    }

    /// End checks in the order of docs/rules.md 9: 25 reached, then no legal move (the repetition
    /// check is done by the caller, which knows whether this move captured).
    fn settle(&self, s: &mut AyoState) {
        let reached = self.reached(s.position.stores);
        s.legal = if reached {
            ActionMask::EMPTY
        } else {
            self.legal_of(&s.position)
        };
        s.over = s.legal.is_empty();
        // 25 reached keeps the rows on the board; no legal move collects them.
        if s.over && !reached {
            s.position.collect_rows();
        }
    }

    fn state_at(&self, position: Position) -> AyoState {
        let mut s = AyoState {
            position,
            over: false,
            ply: 0,
            legal: ActionMask::EMPTY,
            history: Repetition::default(),
        };
        s.history.restart(position.key());
        self.settle(&mut s);
        s
    }
}

impl Rules for Ayo {
    type State = AyoState;

    two_row_rules!(AyoState, render);

    fn name(&self) -> &'static str {
        "ayo"
    }
    fn version(&self) -> u32 {
        1
    }
    fn options(&self) -> Vec<(String, String)> {
        match self.end {
            EndThreshold::Either => vec![],
            EndThreshold::Both => vec![("end".into(), "both".into())],
        }
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        match (key, value) {
            ("end", "either") => self.end = EndThreshold::Either,
            ("end", "both") => self.end = EndThreshold::Both,
            ("end", _) => {
                return Err(ParseError::BadOptionValue {
                    option: key.into(),
                    value: value.into(),
                    expected: "`either` or `both`".into(),
                })
            }
            _ => {
                return Err(ParseError::UnknownOption {
                    variant: self.id(),
                    option: key.into(),
                    expected: "end".into(),
                })
            }
        }
        Ok(())
    }
    fn num_actions(&self) -> usize {
        ROW
    }
    fn observation_len(&self) -> usize {
        14
    }
    fn start(&self, first: Player) -> AyoState {
        self.state_at(Position::start(4, first))
    }

    fn apply<T: Trace>(&self, s: &mut AyoState, action: Action, trace: &mut T) {
        let pos = &mut s.position;
        let p = pos.to_move;
        let stores = pos.stores;
        let mut in_hand = pos.pits[pit_of(p, action as usize)] as u32;
        let taken = Self::sow_and_capture(&mut pos.pits, p, action as usize, |pits| {
            if T::ACTIVE {
                in_hand -= 1;
                trace.drop_seed(Snapshot {
                    pits: pits.to_vec(),
                    stores: [stores[0] as u32, stores[1] as u32],
                    in_hand,
                    ..Default::default()
                });
            }
        });
        pos.stores[p.index()] += taken;
        pos.to_move = !p;
        s.ply += 1;
        let key = pos.key();
        self.settle(s);
        if s.over {
            return;
        }
        if taken > 0 {
            s.history.restart(key);
        } else if s.history.recurs(key) {
            s.position.collect_rows();
            s.over = true;
            s.legal = ActionMask::EMPTY;
        }
    }

    fn observe(&self, s: &AyoState, out: &mut [f32]) {
        s.position.observe(out)
    }
    fn hash(&self, s: &AyoState) -> u64 {
        s.position.hash(s.over as u64)
    }
    fn memory_hash(&self, s: &AyoState) -> u64 {
        s.history.fingerprint()
    }
    fn notation(&self, s: &AyoState) -> String {
        s.position.notation(&[])
    }
    fn parse_notation(&self, text: &str) -> Result<AyoState, ParseError> {
        let (pos, _) = Position::parse(text, 0, 48)?;
        Ok(self.state_at(pos))
    }
    fn action_pit(&self, s: &AyoState, action: Action) -> Option<usize> {
        ((action as usize) < ROW).then(|| pit_of(s.position.to_move, action as usize))
    }
    fn action_name(&self, s: &AyoState, action: Action) -> String {
        format!("{}", pit_label(s.position.to_move, action as usize))
    }
    fn describe(&self) -> String {
        "ayo@1 — the computer Ayo of Oparah George Uzohue (004), one lap per turn.\n\
         Board: 2 rows of 6 pits, 4 seeds each; South (player 0) owns pits 0-5, North pits 6-11; South moves first.\n\
         Move: lift all seeds of an own pit and sow them counter-clockwise, never into the pit they came from.\n\
         Capture: if the last seed lands in the opponent's row making 2 or 3, take it and every pit behind it\n\
         in his row while they hold 2 or 3 (no limit).\n\
         Legality: a move may not leave the opponent without seeds unless it brings the mover to 25.\n\
         End: when a player reaches 25 (seeds on the board stay uncollected; option end=both: when both stores\n\
         together reach 25); when the player to move has no legal move or a position repeats since the last\n\
         capture, each player adds his own row. More seeds wins; 24-24 is a draw.\n\
         Actions (0-5): the mover's pit counted from his own left (South: pit a, North: pit 6+a).\n\
         Notation: `p0 … p11 | store0 store1 | to-move`.\n\
         Observation (14 floats, mover's view): 12 pits from the mover's left (seeds/4), own store/24, opponent's store/24.\n\
         Records keep the board after every move (\"Display Runs\") and, on request, after every drop (\"Show Runs in Detail\")."
            .to_string()
    }
}
