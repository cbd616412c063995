//! Endgame tables of `oware@1`: the exact value, or bounds on it, of every board with at most
//! N seeds on it, built by retrograde analysis (`build_tables`) and probed from files
//! ([`Tablebase`]). docs/tablebase.md gives the semantics, the format and the figures.
//!
//! **The value** of a board is the margin its mover will still make, under best play from an
//! empty repetition memory (the memory holds the board alone, as right after a capture): the
//! seeds he will capture or keep in his row at the end, minus the opponent's, ignoring the
//! stop at 25 (a game's result is the sign of the store difference plus this value). An entry
//! is a pair of bounds `lo ≤ value ≤ hi`; it is exact when they meet.
//!
//! ```
//! use ayo_env::tablebase::{build_tables, Tablebase};
//! use ayo_env::{Rules, Variant};
//! let dir = std::env::temp_dir().join(format!("ayo-doc-egtb-{}", std::process::id()));
//! build_tables(&dir, 4, |_| {}).unwrap();
//! let table = Tablebase::open(&dir).unwrap();
//! let oware = Variant::new("oware", &[]).unwrap();
//! // South to move: his f takes North's a (3 seeds); North's last seed cannot reach South,
//! // so the game ends and North keeps it. South's margin: 3 − 1.
//! let game = oware.parse_notation("0 0 0 0 0 1 2 1 0 0 0 0 | 20 24 | 0").unwrap();
//! let entry = table.probe(&game).unwrap();
//! assert_eq!((entry.lo, entry.hi), (2, 2));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod accuracy;
mod build;
mod file;
mod index;
pub mod search;

use crate::action::{Action, ActionMask};
use crate::board::{Pits, PITS, ROW};
use crate::player::Player;
use crate::variant::VariantState;
use crate::variants::oware::{Oware, OwareState};
use crate::variants::two_row::Position;

pub use build::{build_layer, Finished, LayerStats};
pub use file::{build_tables, BuildEvent, Tablebase, TablebaseError, RULES_ID};
pub use index::Index;

/// The bounds of a board's value for its mover: `lo ≤ value ≤ hi` (exact when equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Entry {
    pub lo: i8,
    pub hi: i8,
}

impl Entry {
    /// Whether the value is known exactly.
    pub fn is_exact(self) -> bool {
        self.lo == self.hi
    }
}

/// A move of a board (its mover's row first), with the board after it from the next mover's
/// view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A move that took `taken` seeds (which restarts the repetition memory).
    Capture { taken: u8, pits: Pits },
    /// A move that took nothing (a grand slam included), which the repetition rule watches.
    Quiet { pits: Pits },
}

/// The board from `p`'s view: his row first.
#[inline]
pub fn view(pits: &Pits, p: Player) -> Pits {
    match p {
        Player::South => *pits,
        Player::North => {
            let mut out = [0u8; PITS];
            out[..ROW].copy_from_slice(&pits[ROW..]);
            out[ROW..].copy_from_slice(&pits[..ROW]);
            out
        }
    }
}

/// The legal moves of a board from its mover's view (`oware@1`'s rule, shared with the game).
#[inline]
pub fn legal(pits: &Pits) -> ActionMask {
    Oware::legal_of(&Position {
        pits: *pits,
        stores: [0, 0],
        to_move: Player::South,
    })
}

/// Plays the legal `action` on a board from its mover's view.
#[inline]
pub fn play(pits: &Pits, action: Action) -> Move {
    let mut pos = Position {
        pits: *pits,
        stores: [0, 0],
        to_move: Player::South,
    };
    let taken = Oware::play_position(&mut pos, action);
    let pits = view(&pos.pits, Player::North);
    if taken > 0 {
        Move::Capture { taken, pits }
    } else {
        Move::Quiet { pits }
    }
}

/// Every legal move of a board from its mover's view, in action order.
pub fn moves(pits: &Pits) -> Vec<Move> {
    legal(pits).iter().map(|a| play(pits, a)).collect()
}

/// The margin when the game ends on this board (no legal move, or a repetition): each side
/// keeps its own row; the mover's row minus the other's.
#[inline]
pub fn terminal_value(pits: &Pits) -> i32 {
    let row = |r: &[u8]| r.iter().map(|&s| s as i32).sum::<i32>();
    row(&pits[..ROW]) - row(&pits[ROW..])
}

/// The board of a live game of `oware` from its mover's view, or `None` for another variant or
/// a finished game.
pub fn board_of(state: &VariantState) -> Option<Pits> {
    match state {
        VariantState::Oware(s) if !s.over => Some(view(&s.position.pits, s.position.to_move)),
        _ => None,
    }
}

/// Whether a game's repetition memory holds its current position alone (at the start or right
/// after a capture), where an entry's value is the game's.
pub fn memory_is_fresh(state: &VariantState) -> bool {
    match state {
        VariantState::Oware(s) => s.memory_len() == 1,
        _ => false,
    }
}

/// A game's result under best play, known without searching it (from an endgame table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The player to move.
    pub mover: Player,
    /// The mover's result: 1 a win, 0 a draw, −1 a loss.
    pub result: i32,
    /// The final score difference for the mover (exact, or the middle of its bounds).
    pub margin: i32,
}

impl Solved {
    /// The result from each player's view (South, North): ±1 or 0.
    pub fn returns(&self) -> [f32; 2] {
        let r = self.result as f32;
        match self.mover {
            Player::South => [r, -r],
            Player::North => [-r, r],
        }
    }
}

/// What a search may know of a position without searching it. The searches take one
/// ([`NoTable`] when they have none) and end a line where it answers.
pub trait Oracle<S> {
    /// The result of the live game `s` under best play, if known.
    fn solve(&self, s: &S) -> Option<Solved>;
}

/// No table: nothing is known without search.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTable;

impl<S> Oracle<S> for NoTable {
    #[inline]
    fn solve(&self, _: &S) -> Option<Solved> {
        None
    }
}

/// The result that `entry`, the entry of `s`'s board, decides: where the memory is fresh (right
/// after a capture, or at the start) and the store difference plus the board's bounds lies on
/// one side of 0 (docs/tablebase.md). Elsewhere, `None`: with a longer memory a repetition may
/// end the game otherwise.
pub fn decide(s: &OwareState, entry: Entry) -> Option<Solved> {
    if s.over || s.memory_len() != 1 || entry.lo > entry.hi {
        return None;
    }
    let mover = s.position.to_move;
    let stores = s.position.stores;
    let d = stores[mover.index()] as i32 - stores[(!mover).index()] as i32;
    let (lo, hi) = (d + entry.lo as i32, d + entry.hi as i32);
    let result = match (lo.signum(), hi.signum()) {
        (l, h) if l == h => l,
        _ => return None,
    };
    Some(Solved {
        mover,
        result,
        margin: (lo + hi) / 2,
    })
}

/// [`decide`] for a game of any variant: `None` but for `oware`.
pub fn decide_game(s: &VariantState, entry: Entry) -> Option<Solved> {
    match s {
        VariantState::Oware(s) => decide(s, entry),
        _ => None,
    }
}

impl Oracle<OwareState> for Tablebase {
    /// [`decide`] with the entry of the game's board, if the table holds it.
    fn solve(&self, s: &OwareState) -> Option<Solved> {
        if s.over || s.memory_len() != 1 {
            return None;
        }
        let entry = self.probe_board(&view(&s.position.pits, s.position.to_move))?;
        decide(s, entry)
    }
}

impl Oracle<VariantState> for Tablebase {
    fn solve(&self, s: &VariantState) -> Option<Solved> {
        match s {
            VariantState::Oware(s) => self.solve(s),
            _ => None,
        }
    }
}

/// The table in `dir`, opened once per process and shared by every agent that names it.
pub fn open_shared(dir: &std::path::Path) -> Result<std::sync::Arc<Tablebase>, TablebaseError> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, Weak};
    static OPEN: Mutex<Option<HashMap<std::path::PathBuf, Weak<Tablebase>>>> = Mutex::new(None);
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    let open = open.get_or_insert_with(HashMap::new);
    if let Some(table) = open.get(dir).and_then(Weak::upgrade) {
        return Ok(table);
    }
    let table = Arc::new(Tablebase::open(dir)?);
    open.insert(dir.to_path_buf(), Arc::downgrade(&table));
    Ok(table)
}
