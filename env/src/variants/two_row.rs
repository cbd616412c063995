//! What the single-lap 2 × 6 variants (`oware`, `ayo`, `ayoayo`) share besides the sowing
//! primitives: the position, its notation, observation, hash and drawing.

use crate::board::{pack, pit_of, Pits, PITS, ROW};
use crate::error::ParseError;
use crate::player::Player;
use crate::rng::mix;
use crate::rules::Snapshot;

/// A 2 × 6 position with stores. `stores[p]` are the seeds player `p` has taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub pits: Pits,
    pub stores: [u8; 2],
    pub to_move: Player,
}

impl Position {
    pub fn start(seeds_per_pit: u8, first: Player) -> Self {
        Position {
            pits: [seeds_per_pit; PITS],
            stores: [0, 0],
            to_move: first,
        }
    }

    /// The exact key of the board and the player to move (stores are constant between captures).
    #[inline]
    pub fn key(&self) -> u128 {
        pack(&self.pits) | (self.to_move.index() as u128) << 72
    }

    /// Each player adds the seeds in his own row to his store.
    #[inline]
    pub fn collect_rows(&mut self) {
        for p in Player::BOTH {
            for i in crate::board::row(p) {
                self.stores[p.index()] += self.pits[i];
                self.pits[i] = 0;
            }
        }
    }

    /// The result from each player's view by the stores: +1 more seeds, −1 fewer, 0 equal.
    /// (Not `f32::signum`, which gives +1 for a difference of 0.)
    #[inline]
    pub fn result(&self) -> [f32; 2] {
        let d = (self.stores[0] as i32 - self.stores[1] as i32).signum() as f32;
        [d, -d]
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            pits: self.pits.to_vec(),
            stores: [self.stores[0] as u32, self.stores[1] as u32],
            ..Default::default()
        }
    }

    /// Observation from the mover's view: the 12 pits in sowing order starting at the mover's
    /// own left (his row, then the opponent's row), each as seeds / 4; then his store and the
    /// opponent's store, each as seeds / 24.
    #[inline]
    pub fn observe(&self, out: &mut [f32]) {
        let p = self.to_move;
        for k in 0..PITS {
            out[k] = self.pits[pit_of(p, k)] as f32 / 4.0;
        }
        out[PITS] = self.stores[p.index()] as f32 / 24.0;
        out[PITS + 1] = self.stores[(!p).index()] as f32 / 24.0;
    }

    /// Zobrist-style hash: a mixed 64-bit hash of the exact key.
    #[inline]
    pub fn hash(&self, extra: u64) -> u64 {
        let k = self.key();
        let a = mix(k as u64 ^ extra.rotate_left(17));
        mix(a ^ (k >> 64) as u64 ^ (self.stores[0] as u64) << 8 ^ (self.stores[1] as u64) << 16)
    }

    /// `"p0 p1 … p11 | s0 s1 | m"`, `m` the player to move (0 or 1), then `extra` fields.
    pub fn notation(&self, extra: &[String]) -> String {
        let pits: Vec<String> = self.pits.iter().map(|s| s.to_string()).collect();
        let mut out = format!(
            "{} | {} {} | {}",
            pits.join(" "),
            self.stores[0],
            self.stores[1],
            self.to_move.index()
        );
        for e in extra {
            out.push_str(" | ");
            out.push_str(e);
        }
        out
    }

    /// Parses [`Position::notation`]; returns the position and the extra fields.
    pub fn parse(
        text: &str,
        extras: usize,
        total: u32,
    ) -> Result<(Position, Vec<String>), ParseError> {
        let bad = |reason: String| ParseError::Notation {
            text: text.to_string(),
            reason,
        };
        let fields: Vec<&str> = text.split('|').map(str::trim).collect();
        if fields.len() != 3 + extras {
            return Err(bad(format!(
                "expected {} fields separated by '|', found {}",
                3 + extras,
                fields.len()
            )));
        }
        let nums = |f: &str, n: usize, what: &str| -> Result<Vec<u8>, ParseError> {
            let v: Result<Vec<u8>, _> = f.split_whitespace().map(str::parse::<u8>).collect();
            match v {
                Ok(v) if v.len() == n => Ok(v),
                _ => Err(bad(format!(
                    "expected {n} numbers 0..=255 for {what}, found {f:?}"
                ))),
            }
        };
        let pits = nums(fields[0], PITS, "the pits")?;
        let stores = nums(fields[1], 2, "the stores")?;
        let to_move = match fields[2] {
            "0" => Player::South,
            "1" => Player::North,
            other => {
                return Err(bad(format!(
                    "expected the player to move, 0 or 1, found {other:?}"
                )))
            }
        };
        let pos = Position {
            pits: pits.try_into().unwrap(),
            stores: [stores[0], stores[1]],
            to_move,
        };
        let sum = pos.snapshot().total();
        if sum != total {
            return Err(bad(format!(
                "expected {total} seeds in pits and stores, found {sum}"
            )));
        }
        Ok((pos, fields[3..].iter().map(|s| s.to_string()).collect()))
    }

    /// The board for people: North's row on top (labels `a`–`f` from North's left), South's
    /// below (`A`–`F`), stores at the side.
    pub fn render(&self, over: bool) -> String {
        let cell = |i: usize| format!("{:>3}", self.pits[i]);
        let north: String = (ROW..PITS).rev().map(cell).collect::<Vec<_>>().join(" ");
        let south: String = (0..ROW).map(cell).collect::<Vec<_>>().join(" ");
        let mover = if over {
            "game over".to_string()
        } else {
            format!("{} to move", ["South", "North"][self.to_move.index()])
        };
        format!(
            "         f   e   d   c   b   a\n North {north}   store {}\n South {south}   store {}\n         A   B   C   D   E   F\n {mover}",
            self.stores[1], self.stores[0]
        )
    }
}

/// The `Rules` methods that every two-row variant answers the same way from its state's
/// `position`, `over`, `ply` and `legal` fields: expanded inside each variant's `impl Rules`
/// (`two_row_rules!(OwareState);`), so each variant's file holds only what is its own.
macro_rules! two_row_rules {
    ($state:ty) => {
        #[inline]
        fn to_play(&self, s: &$state) -> Option<Player> {
            (!s.over).then_some(s.position.to_move)
        }
        #[inline]
        fn legal_mask(&self, s: &$state) -> ActionMask {
            s.legal
        }
        fn scores(&self, s: &$state) -> [i32; 2] {
            [s.position.stores[0] as i32, s.position.stores[1] as i32]
        }
        fn returns(&self, s: &$state) -> [f32; 2] {
            if !s.over {
                return [0.0, 0.0];
            }
            s.position.result()
        }
        fn ply(&self, s: &$state) -> u32 {
            s.ply
        }
        fn snapshot(&self, s: &$state) -> Snapshot {
            s.position.snapshot()
        }
    };
    // The board alone is the whole state's picture (oware, ayo; ayoayo adds its odu).
    ($state:ty, render) => {
        two_row_rules!($state);
        fn render(&self, s: &$state) -> String {
            s.position.render(s.over)
        }
    };
}
pub(crate) use two_row_rules;
