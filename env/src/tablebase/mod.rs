//! Endgame tables of `oware@1` and `ayoayo@1` ([`Game`]): the exact value, or bounds on it, of
//! every position with at most N seeds on the board, built by retrograde analysis
//! (`build_tables`) and probed from files ([`Tablebase`]). docs/tablebase.md gives the
//! semantics, the format and the figures.
//!
//! **The value** of a position ([`Node`]: the board and, in `ayoayo`, each side's odu) is the
//! margin its mover will still make, under best play from an empty repetition memory (the
//! memory holds the position alone, as right after a capture): the seeds he will capture or
//! keep at the end, minus the opponent's, ignoring `oware`'s stop at 25 (a game's result is the
//! sign of the store difference plus this value). An entry is a pair of bounds
//! `lo ≤ value ≤ hi`; it is exact when they meet.
//!
//! ```
//! use ayo_env::tablebase::{build_tables, Game, Tablebase};
//! use ayo_env::{Rules, Variant};
//! let dir = std::env::temp_dir().join(format!("ayo-doc-egtb-{}", std::process::id()));
//! build_tables(&dir, Game::Oware, 4, |_| {}).unwrap();
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
mod game;
mod index;
pub mod search;

pub use build::{build_layer, Finished, LayerStats};
pub use file::{build_tables, BuildEvent, Tablebase, TablebaseError};
pub use game::{memory_is_fresh, rows_margin, view, Game, Move, Node, Turn};
pub use index::Index;

use crate::player::Player;
use crate::variant::VariantState;

/// The bounds of a board's value for its mover: `lo ≤ value ≤ hi` (exact when equal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(C)]
pub struct Entry {
    pub lo: i8,
    pub hi: i8,
}

impl Entry {
    /// The entry of a value known exactly.
    pub fn exact(value: i32) -> Entry {
        Entry {
            lo: value as i8,
            hi: value as i8,
        }
    }

    /// Whether the value is known exactly.
    pub fn is_exact(self) -> bool {
        self.lo == self.hi
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

/// The result that `entry`, the entry of the game's node, decides: where the memory is fresh
/// (right after a capture, or at the start) and the store difference plus the entry's bounds
/// lies on one side of 0 (docs/tablebase.md). Elsewhere, `None`: with a longer memory a
/// repetition may end the game otherwise.
pub fn decide(s: &VariantState, entry: Entry) -> Option<Solved> {
    let (mover, stores) = match s {
        VariantState::Oware(g) if !g.over => (g.position.to_move, g.position.stores),
        VariantState::Ayoayo(g) if !g.over => (g.position.to_move, g.position.stores),
        _ => return None,
    };
    if !memory_is_fresh(s) || entry.lo > entry.hi {
        return None;
    }
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

impl Oracle<VariantState> for Tablebase {
    /// [`decide`] with the entry of the game's node, if the table holds it.
    fn solve(&self, s: &VariantState) -> Option<Solved> {
        if !memory_is_fresh(s) {
            return None;
        }
        decide(s, self.probe(s)?)
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
