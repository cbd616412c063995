//! `ayo.Tablebase`: an `oware` or `ayoayo` endgame table (built by `ayo egtb build` or
//! `Tablebase.build`),
//! probed one game at a time or over every game of a `VecEnv` (numpy out).

use crate::game::Game;
use crate::vec_env::VecEnv;
use ayo_env::tablebase::{self, build_tables, decide, Entry, Node, Oracle};
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// The exact value, or bounds on it, of every `oware` (or `ayoayo`) position with at most
/// `max_seeds` seeds on the board: the margin its mover will still make under best play from a
/// fresh repetition memory (docs/tablebase.md).
///
/// ```python
/// tb = ayo.Tablebase("tables/oware")
/// tb.probe(game)      # (lo, hi) for the mover, or None outside the table
/// tb.solve(game)      # 1, 0, -1: the game's result for the mover where the table decides it
/// lo, hi, result = tb.probe_env(env)
/// ```
/// Two int8 arrays `[N]`: the lower and the upper bounds of N entries.
type Bounds<'py> = (Bound<'py, PyArray1<i8>>, Bound<'py, PyArray1<i8>>);

#[pyclass(module = "ayo._ayo", name = "Tablebase", frozen)]
pub struct Tablebase {
    table: Arc<tablebase::Tablebase>,
}

fn error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

fn bounds(e: Entry) -> (i32, i32) {
    (e.lo as i32, e.hi as i32)
}

#[pymethods]
impl Tablebase {
    /// Opens the table in `path` (every layer file checked); a `ValueError` names the file and
    /// what is wrong with it.
    #[new]
    fn new(path: PathBuf) -> PyResult<Self> {
        Ok(Tablebase {
            table: tablebase::open_shared(&path).map_err(error)?,
        })
    }

    /// Builds the table of `variant` (`oware`, or `ayoayo`) of every position with at most
    /// `seeds` seeds into `path` (resuming at its first missing layer) and opens it. A few
    /// seconds up to 8 seeds in `oware`; see docs/tablebase.md.
    #[staticmethod]
    #[pyo3(signature = (path, seeds, variant = "oware"))]
    fn build(py: Python<'_>, path: PathBuf, seeds: usize, variant: &str) -> PyResult<Self> {
        if seeds > 24 {
            return Err(PyValueError::new_err(format!(
                "seeds {seeds}: expected at most 24 (see docs/tablebase.md for the time per layer)"
            )));
        }
        let rules = ayo_env::Variant::new(variant, &[]).map_err(error)?;
        let game = tablebase::Game::of(&rules)
            .ok_or_else(|| error(tablebase::TablebaseError::Variant(ayo_env::Rules::id(&rules))))?;
        py.detach(|| build_tables(&path, game, seeds, |_| {}))
            .map_err(error)?;
        Tablebase::new(path)
    }

    /// The variant the table is of (`oware@1`, `ayoayo@1`).
    #[getter]
    fn rules(&self) -> &'static str {
        self.table.game().rules_id()
    }

    /// The most seeds a board in the table holds.
    #[getter]
    fn max_seeds(&self) -> usize {
        self.table.max_seeds()
    }

    /// The bounds `(lo, hi)` of the value of `game`'s position for its mover (exact when
    /// equal), or `None` for a finished game, another variant or a board with more seeds. The value
    /// is the game's where the move into it captured (see `solve`).
    fn probe(&self, game: &Game) -> Option<(i32, i32)> {
        self.table.probe(&game.state).map(bounds)
    }

    /// The result of `game` for its mover under best play (1, 0 or -1) where the table decides
    /// it: right after a capture (or at the start), the store difference plus the bounds on
    /// one side of 0. `None` elsewhere.
    fn solve(&self, game: &Game) -> Option<i32> {
        self.table.solve(&game.state).map(|s| s.result)
    }

    /// The entries of many boards, int8 `[N, 12]` each from its mover's view (his row first;
    /// in `ayoayo` with both odu available), as two int8 arrays `lo`, `hi` `[N]`; a board the
    /// table does not hold gets `lo = 1, hi = -1` (an empty interval).
    fn probe_boards<'py>(
        &self,
        py: Python<'py>,
        boards: PyReadonlyArray2<'py, u8>,
    ) -> PyResult<Bounds<'py>> {
        let shape = boards.shape();
        if shape[1] != 12 {
            return Err(PyValueError::new_err(format!(
                "boards of shape {shape:?}: expected [N, 12] (each board from its mover's view)"
            )));
        }
        let flat = boards.as_slice().map_err(error)?;
        let pits: Vec<Node> = flat
            .chunks_exact(12)
            .map(|c| Node::board(c.try_into().expect("rows of 12")))
            .collect();
        let mut out = vec![Entry { lo: 1, hi: -1 }; pits.len()];
        py.detach(|| self.table.probe_many(&pits, &mut out));
        Ok(split(py, &out))
    }

    /// Every live game of `env` at once: `lo`, `hi` (int8 `[N]`, the bounds of each board's
    /// value for its mover; `lo = 1, hi = -1` where the table does not hold it) and `result`
    /// (int8 `[N]`: 1, 0, -1 for the mover where the table decides the game, as `solve`;
    /// -2 elsewhere).
    #[allow(clippy::type_complexity)]
    fn probe_env<'py>(
        &self,
        py: Python<'py>,
        env: &VecEnv,
    ) -> (
        Bound<'py, PyArray1<i8>>,
        Bound<'py, PyArray1<i8>>,
        Bound<'py, PyArray1<i8>>,
    ) {
        let states = env.env.states();
        let table = &self.table;
        let (entries, results) = py.detach(|| {
            let game = table.game();
            let pits: Vec<Node> = states
                .iter()
                .map(|s| game.node_of(s).unwrap_or(Node::board([u8::MAX; 12])))
                .collect();
            let mut entries = vec![Entry { lo: 1, hi: -1 }; pits.len()];
            table.probe_many(&pits, &mut entries);
            // The result from the entry just read (not a second probe).
            let results: Vec<i8> = states
                .iter()
                .zip(&entries)
                .map(|(s, &e)| decide(s, e).map_or(-2, |s| s.result as i8))
                .collect();
            (entries, results)
        });
        let (lo, hi) = split(py, &entries);
        (lo, hi, PyArray1::from_vec(py, results))
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase({:?}, max_seeds={})",
            self.table.dir().display().to_string(),
            self.table.max_seeds()
        )
    }
}

fn split<'py>(py: Python<'py>, entries: &[Entry]) -> Bounds<'py> {
    (
        PyArray1::from_iter(py, entries.iter().map(|e| e.lo)),
        PyArray1::from_iter(py, entries.iter().map(|e| e.hi)),
    )
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Tablebase>()?;
    Ok(())
}
