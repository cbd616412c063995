//! The baseline agents of `ayo-env` (`random`, `greedy`, `alphabeta:D`, `mcts:N`) from Python.

use pyo3::prelude::*;

pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
