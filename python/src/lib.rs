//! `ayo._ayo` — the native half of the Python package `ayo`.
//!
//! This crate holds no rules: it converts Python values to `ayo-env` types, calls into
//! `ayo-env`, and converts the answers back (numpy arrays where the data is numeric). Errors of
//! `ayo-env` become `ValueError`s carrying their message, which names the bad value and what was
//! expected. Long calls (stepping thousands of games, searching) release the GIL.

use pyo3::prelude::*;

mod agent;
mod game;
mod net;
mod options;
mod rate;
mod tablebase;
mod vec_env;

/// The names of every variant preset, e.g. `["oware", "ayo", "ayoayo"]`.
#[pyfunction]
fn variants() -> Vec<&'static str> {
    ayo_env::VARIANT_NAMES.to_vec()
}

/// The rules summary and action encoding of a variant, as printed by `ayo rules`.
#[pyfunction]
#[pyo3(signature = (variant, **options))]
fn describe(variant: &str, options: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<String> {
    use ayo_env::Rules;
    Ok(options::variant(variant, options)?.describe())
}

#[pymodule]
fn _ayo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_class::<vec_env::VecEnv>()?;
    m.add("AUTORESET_MODE", ayo_env::vec_env::AUTORESET_MODE)?;
    agent::register(m)?;
    net::register(m)?;
    rate::register(m)?;
    tablebase::register(m)?;
    Ok(())
}
