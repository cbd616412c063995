//! Variant specs and `**options` from Python, and `ayo-env` errors as Python exceptions.

use ayo_env::Variant;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

/// Any `ayo-env` error as a `ValueError` with the error's own message.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Plies of look-ahead features from Python: `False`/`None` 0, `True` 1, or a number of plies
/// up to `ayo_env::input::MAX_LOOKAHEAD` (2: also what each move gains once the best answer is
/// counted; 3: once the best reply to that answer is counted too; 4: and the best answer to
/// that reply); anything else is refused, naming it.
pub fn lookahead_plies(value: Option<&Bound<'_, PyAny>>) -> PyResult<u8> {
    let max = ayo_env::input::MAX_LOOKAHEAD;
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(0);
    };
    if let Ok(on) = v.cast::<PyBool>() {
        return Ok(on.is_true() as u8);
    }
    match v.extract::<i64>() {
        Ok(n) if (0..=max as i64).contains(&n) => Ok(n as u8),
        _ => Err(PyValueError::new_err(format!(
            "lookahead = {}: expected False, True or a number of plies from 0 to {max}",
            v.repr()?
        ))),
    }
}

/// `key=value` option pairs from Python keyword arguments. Values may be strings, numbers,
/// booleans (`true`/`false`) or `None` (`none`); they are passed to the variant as text.
pub fn pairs(options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let Some(options) = options else {
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(options.len());
    for (key, value) in options.iter() {
        let key: String = key.extract()?;
        let text = if value.is_none() {
            "none".to_string()
        } else if let Ok(b) = value.cast::<PyBool>() {
            if b.is_true() { "true" } else { "false" }.to_string()
        } else if let Ok(s) = value.cast::<PyString>() {
            s.to_str()?.to_string()
        } else {
            value.str()?.to_str()?.to_string()
        };
        out.push((key, text));
    }
    Ok(out)
}

/// The variant `spec` (`name` or `name@version`) with `options` applied.
pub fn variant(spec: &str, options: Option<&Bound<'_, PyDict>>) -> PyResult<Variant> {
    Variant::new(spec, &pairs(options)?).map_err(value_error)
}
