//! `ayo.Net`: a network trained by `ayo train`, evaluated without torch (`ayo_train::net::CpuNet`:
//! the checkpoint read by a strict reader, the forward pass in `ndarray`).

use crate::game::Game;
use crate::options::value_error;
use ayo_env::Rules;
use ayo_train::checkpoint::{self, check_rules, CheckpointMeta};
use ayo_train::net::{CpuNet, Network};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;

/// A trained network: `Net.load(path)`, then `evaluate(obs)` for a batch of observations or
/// `analyse(game)` for one position.
#[pyclass(module = "ayo._ayo", name = "Net")]
pub struct Net {
    net: CpuNet,
    meta: CheckpointMeta,
    path: PathBuf,
}

#[pymethods]
impl Net {
    /// Reads the checkpoint at `path` (`.ot`, as `ayo train` writes it). A damaged file or one
    /// that is not a checkpoint raises `ValueError`.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Net> {
        let (net, meta) = checkpoint::read_cpu(&path).map_err(value_error)?;
        Ok(Net { net, meta, path })
    }

    /// Pickling (and `copy.deepcopy`): by its checkpoint's path, read again on loading (as a
    /// checkpoint `ayo.Agent` is pickled by its spec), so the file must be there.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (PathBuf,))> {
        let load = py.get_type::<Net>().getattr("load")?;
        Ok((load, (self.path.clone(),)))
    }

    /// `"name@version"` of the variant it was trained for.
    #[getter]
    fn variant(&self) -> String {
        self.meta.variant.clone()
    }

    /// Its sizes: `inputs`, `actions`, `width`, `blocks`, `levels`, and `lookahead` (the plies
    /// of look-ahead features its input ends with, `Game.observation(lookahead)`; 0: none).
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let s = self.net.shape;
        for (k, v) in [
            ("inputs", s.inputs),
            ("actions", s.actions),
            ("width", s.width),
            ("blocks", s.blocks),
            ("levels", s.levels),
        ] {
            d.set_item(k, v)?;
        }
        d.set_item("lookahead", s.lookahead)?;
        Ok(d)
    }

    /// The network's input for the position of `game` (float32 `[inputs]`): its observation,
    /// then its look-ahead features when the network takes them — what `evaluate` expects.
    fn input<'py>(&self, py: Python<'py>, game: &Game) -> PyResult<Bound<'py, PyArray1<f32>>> {
        check_rules(&self.meta, &game.rules, &self.path).map_err(value_error)?;
        let mut obs = vec![0.0; self.net.shape.inputs];
        self.net.shape.encode(&game.rules, &game.state, &mut obs);
        Ok(PyArray1::from_vec(py, obs))
    }

    /// Training steps of the checkpoint.
    #[getter]
    fn step(&self) -> u64 {
        self.meta.step
    }

    /// Policy logits (float32 `[n, actions]`) and values (float32 `[n]`, tanh, the view of the
    /// player to move) of a batch of inputs (float32 `[n, inputs]`: observations as
    /// `Game.observation` and `VecEnv` give them, or `Net.input` for a network with look-ahead
    /// features). Releases the GIL.
    #[allow(clippy::type_complexity)]
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray2<'py, f32>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>)> {
        let shape = obs.shape();
        let (n, inputs, actions) = (shape[0], self.net.shape.inputs, self.net.shape.actions);
        if shape[1] != inputs {
            return Err(PyValueError::new_err(format!(
                "inputs of {} values, expected {inputs} (the input of {}: Net.input(game))",
                shape[1], self.meta.variant
            )));
        }
        let obs: Vec<f32> = obs.as_array().iter().copied().collect();
        let (mut logits, mut values) = (vec![0.0; n * actions], vec![0.0; n]);
        let net = &self.net;
        py.detach(|| net.evaluate(&obs, n, &mut logits, &mut values, None));
        let logits = PyArray1::from_vec(py, logits).reshape([n, actions])?;
        Ok((logits, PyArray1::from_vec(py, values)))
    }

    /// `(value, policy)` of the position of `game`: the value for the player to move, and the
    /// network's policy (float32 `[num_actions]`, softmax over the legal actions, 0 elsewhere).
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        game: &Game,
    ) -> PyResult<(f32, Bound<'py, PyArray1<f32>>)> {
        check_rules(&self.meta, &game.rules, &self.path).map_err(value_error)?;
        if game.rules.is_terminal(&game.state) {
            return Err(PyValueError::new_err(
                "the game is over: nothing to analyse",
            ));
        }
        let mut obs = vec![0.0; self.net.shape.inputs];
        self.net.shape.encode(&game.rules, &game.state, &mut obs);
        let na = game.rules.num_actions();
        let (mut logits, mut value) = (vec![0.0; na], [0.0f32]);
        self.net.evaluate(&obs, 1, &mut logits, &mut value, None);
        let legal = game.rules.legal_mask(&game.state);
        let max = legal
            .iter()
            .map(|a| logits[a as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        let mut policy = vec![0.0f32; na];
        for a in legal.iter() {
            policy[a as usize] = (logits[a as usize] - max).exp();
        }
        let total: f32 = policy.iter().sum();
        policy.iter_mut().for_each(|p| *p /= total);
        Ok((value[0], PyArray1::from_vec(py, policy)))
    }

    fn __repr__(&self) -> String {
        format!(
            "Net({:?}, variant={:?}, step={})",
            self.path.display().to_string(),
            self.meta.variant,
            self.meta.step
        )
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Net>()
}
