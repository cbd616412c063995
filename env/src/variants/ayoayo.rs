//! `ayoayo@1` — Newberry's "ayoyayo" (`000_*.txt`; docs/rules.md sections 4 and 9).
//!
//! Single lap, the origin skipped. A last seed in the opponent's row making 2 or 3 takes that
//! pit and the pits behind it in his row while they hold 2 or 3, **at most five pits**. No
//! feeding duty. **Odu**: once per player per game, instead of sowing, the whole content of an
//! own pit moves into the next pit of his own row. **Retaliation**: a player whose row is empty
//! at the start of his turn takes every seed left and the game ends. **Exhaustion**: after a
//! move, if both rows hold ≤ 2 seeds, each adds his own row and the game ends. A position that
//! repeats since the last capture ends the game the same way. More than 24 wins; 24–24 draws.

use crate::action::{Action, ActionMask};
use crate::board::pit_label;
use crate::board::{capture_chain, pit_of, row_owner, row_sum, sow, OriginSkip, PITS, ROW};
use crate::error::ParseError;
use crate::player::Player;
use crate::repetition::Repetition;
use crate::rules::{Rules, Snapshot, Trace};
use crate::variants::two_row::{two_row_rules, Position};

/// First odu action: action `ODU + k` moves own pit `k` (0..=4) into own pit `k + 1`.
pub const ODU: Action = 6;

/// The `ayoayo` preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ayoayo {
    /// Most pits one capture chain may empty (`None`: unlimited; the source's 16-seed example
    /// contradicts its own limit of five).
    pub max_chain_pits: Option<u8>,
}

impl Default for Ayoayo {
    fn default() -> Self {
        Ayoayo {
            max_chain_pits: Some(5),
        }
    }
}

/// A game of `ayoayo`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AyoayoState {
    pub position: Position,
    /// Whether each player has used his odu.
    pub odu_used: [bool; 2],
    pub over: bool,
    pub ply: u32,
    legal: ActionMask,
    history: Repetition,
}

impl AyoayoState {
    /// The positions the repetition rule remembers (1 at the start and right after a capture).
    pub fn memory_len(&self) -> usize {
        self.history.len()
    }

    fn key(&self) -> u128 {
        self.position.key() | (self.odu_used[0] as u128) << 73 | (self.odu_used[1] as u128) << 74
    }
}

impl Ayoayo {
    fn legal_of(&self, s: &AyoayoState) -> ActionMask {
        Self::legal_at(&s.position, s.odu_used)
    }

    /// The legal moves of a position whose odu flags are `odu_used`: every non-empty own pit,
    /// and its odu while the mover has his.
    pub(crate) fn legal_at(pos: &Position, odu_used: [bool; 2]) -> ActionMask {
        let p = pos.to_move;
        let mut mask = ActionMask::EMPTY;
        for k in 0..ROW {
            if pos.pits[pit_of(p, k)] > 0 {
                mask.insert(k as Action);
                if k + 1 < ROW && !odu_used[p.index()] {
                    mask.insert(ODU + k as Action);
                }
            }
        }
        mask
    }

    /// The end-of-move checks that do not need the history, in order: retaliation (the player
    /// to move has an empty row: he takes every seed left), then exhaustion (both rows hold
    /// ≤ 2: each adds his own). Returns whether the game is over; the seeds are then stored.
    pub(crate) fn settle_position(pos: &mut Position) -> bool {
        let mover = pos.to_move;
        if row_sum(&pos.pits, mover) == 0 {
            let all: u8 = pos.pits.iter().sum();
            pos.stores[mover.index()] += all;
            pos.pits = [0; PITS];
            true
        } else if row_sum(&pos.pits, Player::South) <= 2 && row_sum(&pos.pits, Player::North) <= 2 {
            pos.collect_rows();
            true
        } else {
            false
        }
    }

    /// Plays the legal `action` on a position and its odu flags, without the end-of-move checks
    /// ([`Ayoayo::settle_position`], the repetition rule); returns the seeds taken. The
    /// endgame table plays its moves here.
    pub(crate) fn play_position<T: Trace>(
        &self,
        pos: &mut Position,
        odu_used: &mut [bool; 2],
        action: Action,
        trace: &mut T,
    ) -> u8 {
        let p = pos.to_move;
        let stores = [pos.stores[0] as u32, pos.stores[1] as u32];
        let mut taken = 0;
        if action < ODU {
            let from = pit_of(p, action as usize);
            let mut in_hand = pos.pits[from] as u32;
            let last = sow(&mut pos.pits, from, OriginSkip::Origin, |pits| {
                if T::ACTIVE {
                    in_hand -= 1;
                    trace.drop_seed(Snapshot {
                        pits: pits.to_vec(),
                        stores,
                        in_hand,
                        ..Default::default()
                    });
                }
            });
            if row_owner(last) == !p {
                taken = capture_chain(&mut pos.pits, last, !p, self.max_chain_pits);
                pos.stores[p.index()] += taken;
            }
        } else {
            // Odu: the whole pit moves en bloc into the next pit of the mover's row.
            let from = pit_of(p, (action - ODU) as usize);
            pos.pits[from + 1] += pos.pits[from];
            pos.pits[from] = 0;
            odu_used[p.index()] = true;
            if T::ACTIVE {
                trace.drop_seed(Snapshot {
                    pits: pos.pits.to_vec(),
                    stores,
                    ..Default::default()
                });
            }
        }
        pos.to_move = !p;
        taken
    }

    /// Retaliation and exhaustion ([`Ayoayo::settle_position`]), then the repetition rule.
    fn settle(&self, s: &mut AyoayoState, captured: bool) {
        if Self::settle_position(&mut s.position) {
            s.over = true;
        } else {
            let key = s.key();
            if captured {
                s.history.restart(key);
            } else if s.history.recurs(key) {
                s.position.collect_rows();
                s.over = true;
            }
        }
        s.legal = if s.over {
            ActionMask::EMPTY
        } else {
            self.legal_of(s)
        };
    }

    fn state_at(&self, position: Position, odu_used: [bool; 2]) -> AyoayoState {
        let mut s = AyoayoState {
            position,
            odu_used,
            over: false,
            ply: 0,
            legal: ActionMask::EMPTY,
            history: Repetition::default(),
        };
        self.settle(&mut s, true);
        s
    }
}

impl Rules for Ayoayo {
    type State = AyoayoState;

    two_row_rules!(AyoayoState);

    /// The board, then whether each player's odu is still available.
    fn render(&self, s: &AyoayoState) -> String {
        let odu = |p: usize| if s.odu_used[p] { "used" } else { "available" };
        format!(
            "{}\n odu: South {}, North {}",
            s.position.render(s.over),
            odu(0),
            odu(1)
        )
    }

    fn name(&self) -> &'static str {
        "ayoayo"
    }
    fn version(&self) -> u32 {
        1
    }
    fn options(&self) -> Vec<(String, String)> {
        match self.max_chain_pits {
            Some(5) => vec![],
            Some(n) => vec![("max_chain_pits".into(), n.to_string())],
            None => vec![("max_chain_pits".into(), "none".into())],
        }
    }
    fn set_option(&mut self, key: &str, value: &str) -> Result<(), ParseError> {
        if key != "max_chain_pits" {
            return Err(ParseError::UnknownOption {
                variant: self.id(),
                option: key.into(),
                expected: "max_chain_pits".into(),
            });
        }
        self.max_chain_pits = match value {
            "none" | "unlimited" => None,
            n => Some(
                n.parse()
                    .ok()
                    .filter(|n| (1..=6).contains(n))
                    .ok_or_else(|| ParseError::BadOptionValue {
                        option: key.into(),
                        value: value.into(),
                        expected: "a number of pits 1 to 6, or `none`".into(),
                    })?,
            ),
        };
        Ok(())
    }
    fn num_actions(&self) -> usize {
        ROW + ROW - 1
    }
    fn observation_len(&self) -> usize {
        16
    }
    fn start(&self, first: Player) -> AyoayoState {
        self.state_at(Position::start(4, first), [false, false])
    }

    fn apply<T: Trace>(&self, s: &mut AyoayoState, action: Action, trace: &mut T) {
        let taken = self.play_position(&mut s.position, &mut s.odu_used, action, trace);
        s.ply += 1;
        self.settle(s, taken > 0);
    }

    /// The shared 14 floats, then 1.0 if the mover's odu is still available, and the same for
    /// the opponent.
    fn observe(&self, s: &AyoayoState, out: &mut [f32]) {
        s.position.observe(out);
        let p = s.position.to_move;
        out[14] = (!s.odu_used[p.index()]) as u8 as f32;
        out[15] = (!s.odu_used[(!p).index()]) as u8 as f32;
    }
    fn hash(&self, s: &AyoayoState) -> u64 {
        s.position
            .hash(s.over as u64 | (s.odu_used[0] as u64) << 1 | (s.odu_used[1] as u64) << 2)
    }
    fn memory_hash(&self, s: &AyoayoState) -> u64 {
        s.history.fingerprint()
    }
    fn notation(&self, s: &AyoayoState) -> String {
        s.position.notation(&[format!(
            "odu {} {}",
            s.odu_used[0] as u8, s.odu_used[1] as u8
        )])
    }
    fn parse_notation(&self, text: &str) -> Result<AyoayoState, ParseError> {
        let (pos, extra) = Position::parse(text, 1, 48)?;
        let used: Vec<&str> = extra[0].split_whitespace().collect();
        let flag = |f: &str| match f {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(()),
        };
        match used.as_slice() {
            ["odu", a, b] => match (flag(a), flag(b)) {
                (Ok(a), Ok(b)) => Ok(self.state_at(pos, [a, b])),
                _ => Err(ParseError::Notation {
                    text: text.into(),
                    reason: format!("expected odu flags 0 or 1, found {:?}", extra[0]),
                }),
            },
            _ => Err(ParseError::Notation {
                text: text.into(),
                reason: format!("expected `odu <used0> <used1>`, found {:?}", extra[0]),
            }),
        }
    }
    /// Sowing and odu from a pit both begin at it.
    fn action_pit(&self, s: &AyoayoState, action: Action) -> Option<usize> {
        let k = if action < ODU { action } else { action - ODU } as usize;
        (k < ROW).then(|| pit_of(s.position.to_move, k))
    }
    fn action_name(&self, s: &AyoayoState, action: Action) -> String {
        let p = s.position.to_move;
        if action < ODU {
            format!("{}", pit_label(p, action as usize))
        } else {
            let k = (action - ODU) as usize;
            format!("odu {}>{}", pit_label(p, k), pit_label(p, k + 1))
        }
    }
    fn describe(&self) -> String {
        let limit = match self.max_chain_pits {
            Some(n) => format!("at most {n} pits"),
            None => "no limit".into(),
        };
        format!(
            "ayoayo@1 — Newberry's \"ayoyayo\" (000), the commonest form of ayo.\n\
             Board: 2 rows of 6 pits, 4 seeds each; South (player 0) owns pits 0-5, North pits 6-11; South moves first.\n\
             Move: lift all seeds of an own pit and sow them counter-clockwise, never into the pit they came from.\n\
             Capture: if the last seed lands in the opponent's row making 2 or 3, take it and the pits behind it\n\
             in his row while they hold 2 or 3 ({limit}). No feeding duty.\n\
             Odu: once per player per game, instead of sowing, move the whole of an own pit into the next own pit.\n\
             Retaliation: a player whose row is empty at the start of his turn takes every seed left; game over.\n\
             Exhaustion: after a move, if both rows hold 2 seeds or fewer, each adds his own row; game over.\n\
             Repetition since the last capture ends the game the same way. More than 24 wins; 24-24 draws.\n\
             Actions: 0-5 sow the mover's pit counted from his own left; 6-10 odu from own pit 0-4 into the next.\n\
             Notation: `p0 … p11 | store0 store1 | to-move | odu used0 used1`.\n\
             Observation (16 floats, mover's view): 12 pits from the mover's left (seeds/4), own store/24,\n\
             opponent's store/24, own odu available, opponent's odu available."
        )
    }
}
