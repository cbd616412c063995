//! `ayo.VecEnv`: N games stepped together by `ayo_env::VecEnv`, numpy in and out.
//!
//! Each call allocates fresh numpy arrays and lets `ayo-env` write straight into them with the
//! GIL released: nothing is copied, and arrays returned by earlier calls stay valid.

use crate::game::Game;
use crate::options::{self, value_error};
use ayo_env::vec_env::{FirstPlayer, StepOut, VecEnvConfig, VecEnvSnapshot, AUTORESET_MODE};
use ayo_env::{Action, Rules, Variant};
use ndarray::{ArrayViewMut1, ArrayViewMut2};
use numpy::{
    Element, PyArray1, PyArray2, PyArray3, PyArrayDescrMethods, PyArrayMethods, PyUntypedArray,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// N games of one variant, stepped together (see the module doc of `ayo_env::vec_env` for the
/// whole contract: same-step auto-reset, masks, rewards of each player, truncation).
#[pyclass(module = "ayo._ayo", name = "VecEnv")]
pub struct VecEnv {
    pub env: ayo_env::VecEnv<Variant>,
}

/// Fresh numpy arrays for one call's output.
struct Out<'py> {
    obs: Bound<'py, PyArray2<f32>>,
    mask: Bound<'py, PyArray2<bool>>,
    to_play: Bound<'py, PyArray1<u8>>,
    rewards: Bound<'py, PyArray2<f32>>,
    terminated: Bound<'py, PyArray1<bool>>,
    truncated: Bound<'py, PyArray1<bool>>,
}

/// A new array's data as a mutable slice.
///
/// # Safety
/// `a` must be an array this module has just created and not yet handed to Python, and no
/// other slice of it may be alive: the returned slice is the only access to its data.
#[allow(clippy::mut_from_ref)] // the contract above makes the slice the only access
unsafe fn slice<'a, T: Element, D: ndarray::Dimension>(
    a: &'a Bound<'_, numpy::PyArray<T, D>>,
) -> &'a mut [T] {
    unsafe { a.as_slice_mut() }.expect("a new array is contiguous")
}

impl<'py> Out<'py> {
    fn new(py: Python<'py>, env: &ayo_env::VecEnv<Variant>) -> Self {
        let n = env.num_envs();
        Out {
            obs: PyArray2::zeros(py, [n, env.observation_len()], false),
            mask: PyArray2::zeros(py, [n, env.num_actions()], false),
            to_play: PyArray1::zeros(py, n, false),
            rewards: PyArray2::zeros(py, [n, 2], false),
            terminated: PyArray1::zeros(py, n, false),
            truncated: PyArray1::zeros(py, n, false),
        }
    }

    /// Runs `f` on views of the arrays with the GIL released.
    fn fill<T: Send>(
        &self,
        py: Python<'_>,
        env: &mut ayo_env::VecEnv<Variant>,
        f: impl FnOnce(&mut ayo_env::VecEnv<Variant>, &mut StepOut<'_>) -> T + Send,
    ) -> T {
        let (n, l, a) = (env.num_envs(), env.observation_len(), env.num_actions());
        // SAFETY: `fill` takes each array of `Out` (made by `Out::new`, not yet returned to
        // Python) once.
        let (obs, mask, to_play) =
            unsafe { (slice(&self.obs), slice(&self.mask), slice(&self.to_play)) };
        let (rewards, terminated) = unsafe { (slice(&self.rewards), slice(&self.terminated)) };
        let truncated = unsafe { slice(&self.truncated) };
        const SHAPE: &str = "arrays were made in the env's shapes";
        py.detach(move || {
            let mut out = StepOut {
                obs: ArrayViewMut2::from_shape((n, l), obs).expect(SHAPE),
                mask: ArrayViewMut2::from_shape((n, a), mask).expect(SHAPE),
                to_play: ArrayViewMut1::from(to_play),
                rewards: ArrayViewMut2::from_shape((n, 2), rewards).expect(SHAPE),
                terminated: ArrayViewMut1::from(terminated),
                truncated: ArrayViewMut1::from(truncated),
            };
            f(env, &mut out)
        })
    }

    fn info(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("action_mask", &self.mask)?;
        info.set_item("to_play", &self.to_play)?;
        Ok(info)
    }
}

/// The actions of one step: a 1-d integer array (or sequence) of length `n`, each in
/// `0..num_actions`. Anything else is a `TypeError` (not integers) or `ValueError` (shape,
/// range) naming what was found.
fn actions(
    py: Python<'_>,
    value: &Bound<'_, PyAny>,
    n: usize,
    num_actions: usize,
    active: Option<&[bool]>,
) -> PyResult<Vec<Action>> {
    if let Some(active) = active {
        if active.len() != n {
            return Err(PyValueError::new_err(format!(
                "active must have one flag per game ({n}), found {}",
                active.len()
            )));
        }
    }
    let array = match value.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => {
            let np = py.import("numpy")?;
            np.call_method1("asarray", (value,))?
                .cast_into::<PyUntypedArray>()?
        }
    };
    let dtype = array.dtype();
    if !matches!(dtype.kind(), b'i' | b'u') {
        return Err(PyTypeError::new_err(format!(
            "actions must be integers, found dtype {}",
            dtype.str()?
        )));
    }
    if array.shape() != [n] {
        return Err(PyValueError::new_err(format!(
            "actions must have shape ({n},), one per game, found shape {}",
            array.getattr("shape")?
        )));
    }
    let array = if dtype.is_equiv_to(&numpy::dtype::<i64>(py)) {
        array.cast_into::<PyArray1<i64>>()?
    } else {
        array
            .call_method1("astype", ("int64",))?
            .cast_into::<PyArray1<i64>>()?
    };
    let values = array.readonly();
    let values = values.as_array();
    let mut out = Vec::with_capacity(n);
    for (game, &a) in values.iter().enumerate() {
        if active.is_some_and(|active| !active[game]) {
            out.push(0); // not played, not looked at
            continue;
        }
        if a < 0 || a as usize >= num_actions {
            return Err(PyValueError::new_err(format!(
                "game {game}: action {a} is outside the action space 0..{num_actions}; no game was changed"
            )));
        }
        out.push(a as Action);
    }
    Ok(out)
}

impl VecEnv {
    fn check_index(&self, i: usize) -> PyResult<()> {
        if i >= self.env.num_envs() {
            return Err(PyValueError::new_err(format!(
                "game {i} does not exist: this env has games 0..{}",
                self.env.num_envs()
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl VecEnv {
    /// `num_envs` games of `variant` (with the preset's `**options`), stepped by `num_threads`
    /// worker threads (0 = one per core). Games still live after `max_plies` plies are
    /// truncated (`None`: never). `first`: who starts each game — `"south"`/`0` (the
    /// default), `"north"`/`1`, `"alternate"` or `"random"`. `lookahead`: each observation row
    /// ends with the look-ahead features of that many plies (`True`: 1; see
    /// `Game.observation(lookahead)`).
    #[new]
    #[pyo3(signature = (variant, num_envs, seed = 0, num_threads = 0, max_plies = Some(1000), first = None, lookahead = None, **options))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        variant: &str,
        num_envs: usize,
        seed: u64,
        num_threads: usize,
        max_plies: Option<u32>,
        first: Option<&Bound<'_, PyAny>>,
        lookahead: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let first = match first {
            Some(f) => f.str()?.to_str()?.to_lowercase(),
            None => "south".to_string(),
        };
        let rules = options::variant(variant, options)?;
        let config = VecEnvConfig {
            num_envs,
            threads: num_threads,
            seed,
            max_plies,
            first: first.parse::<FirstPlayer>().map_err(value_error)?,
            lookahead: options::lookahead_plies(lookahead)?,
        };
        let env = ayo_env::VecEnv::new(rules, config).map_err(value_error)?;
        Ok(VecEnv { env })
    }

    /// `"name@version"` of the variant.
    #[getter]
    fn variant(&self) -> String {
        self.env.rules().id()
    }
    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }
    #[getter]
    fn num_threads(&self) -> usize {
        self.env.threads()
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.num_actions()
    }
    #[getter]
    fn observation_len(&self) -> usize {
        self.env.observation_len()
    }
    /// `(low, high)` bounds of every observation feature (see `Game.observation_spec`).
    #[getter]
    fn observation_bounds(&self) -> (f32, f32) {
        ayo_env::input::input_bounds(self.env.rules(), self.env.config().lookahead)
    }
    /// Plies of look-ahead features at the end of each observation row (0: none).
    #[getter]
    fn lookahead(&self) -> u8 {
        self.env.config().lookahead
    }
    #[getter]
    fn max_plies(&self) -> Option<u32> {
        self.env.config().max_plies
    }
    /// The seed of the last reset.
    #[getter]
    fn seed(&self) -> u64 {
        self.env.config().seed
    }
    /// `"same-step"`: a finished game is replaced by a new one inside the step that ends it.
    #[getter]
    fn autoreset_mode(&self) -> &'static str {
        AUTORESET_MODE
    }

    /// Starts every game afresh and returns `(obs, info)`: `obs` float32
    /// `[N, observation_len]`; `info["action_mask"]` bool `[N, num_actions]`, `info["to_play"]`
    /// uint8 `[N]`. `seed`: one integer for all games, or a list of one per game. With `mask`
    /// (bool, one per game) only the games marked start a new episode, the others go on (and
    /// `seed` must be `None`).
    #[pyo3(signature = (seed = None, mask = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
        mask: Option<Vec<bool>>,
    ) -> PyResult<(Bound<'py, PyArray2<f32>>, Bound<'py, PyDict>)> {
        let out = Out::new(py, &self.env);
        let seeds: Option<Vec<u64>> = match seed {
            None => None,
            Some(s) if s.is_none() => None,
            Some(s) => Some(match s.extract::<u64>() {
                Ok(one) => vec![one],
                Err(_) => s.extract::<Vec<u64>>().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "seed must be None, a non-negative integer or a list of one per game, got {}",
                        s.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })?,
            }),
        };
        match (seeds, mask) {
            (Some(_), Some(_)) => {
                return Err(PyValueError::new_err(
                    "reset with a mask continues the other games: give no seed with it",
                ))
            }
            (None, Some(mask)) => out.fill(py, &mut self.env, |env, o| env.reset_some(&mask, o)),
            (Some(seeds), None) if seeds.len() == 1 => {
                out.fill(py, &mut self.env, |env, o| env.reset(Some(seeds[0]), o))
            }
            (Some(seeds), None) => out.fill(py, &mut self.env, |env, o| env.reset_seeds(&seeds, o)),
            (None, None) => out.fill(py, &mut self.env, |env, o| env.reset(None, o)),
        }
        .map_err(value_error)?;
        let info = out.info(py)?;
        Ok((out.obs, info))
    }

    /// Plays `actions[i]` in game `i` (one integer per game) and returns
    /// `(obs, rewards, terminated, truncated, info)`: `rewards` float32 `[N, 2]` holds each
    /// player's reward (column = player: the result on the step that ends a game, else 0).
    /// A game that ends is replaced at once, so `obs` and the info's `action_mask` and
    /// `to_play` describe the next game. With `active` (bool, one per game) only the games
    /// marked play; the others keep their position, their action is not looked at, and their
    /// rows describe their position with zero rewards. An illegal action raises `ValueError`
    /// naming the game and the action, and no game is changed.
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (actions, active = None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        active: Option<Vec<bool>>,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyDict>,
    )> {
        let actions = self::actions(
            py,
            actions,
            self.env.num_envs(),
            self.env.num_actions(),
            active.as_deref(),
        )?;
        let out = Out::new(py, &self.env);
        match &active {
            None => out.fill(py, &mut self.env, |env, o| env.step(&actions, o)),
            Some(active) => out.fill(py, &mut self.env, |env, o| {
                env.step_some(&actions, active, o)
            }),
        }
        .map_err(value_error)?;
        let info = out.info(py)?;
        Ok((out.obs, out.rewards, out.terminated, out.truncated, info))
    }

    /// Game `i`'s live position as an `ayo.Game` (a copy: for an agent to choose in, or to
    /// look at).
    fn game(&self, i: usize) -> PyResult<Game> {
        self.check_index(i)?;
        Ok(Game::at(
            self.env.rules().clone(),
            self.env.state(i).clone(),
        ))
    }

    /// A picture of game `i`'s board (uint8 `[height, width, 3]`, as `Game.render_rgb`).
    #[pyo3(signature = (i, bottom = 0))]
    fn render_rgb<'py>(
        &self,
        py: Python<'py>,
        i: usize,
        bottom: i64,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        self.check_index(i)?;
        Game::at(self.env.rules().clone(), self.env.state(i).clone()).render_rgb(py, bottom)
    }

    /// One uniformly random legal action per game (int64 `[N]`), from each game's own stream.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let mut actions = vec![0; self.env.num_envs()];
        self.env.sample_actions(&mut actions);
        PyArray1::from_iter(py, actions.into_iter().map(i64::from))
    }

    /// The legal actions of every game as a bool array `[N, num_actions]`.
    fn action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        let (n, na) = (self.env.num_envs(), self.env.num_actions());
        let out = PyArray2::<bool>::zeros(py, [n, na], false);
        // SAFETY: `out` was just created here.
        let s = unsafe { slice(&out) };
        for i in 0..n {
            for a in self.env.legal_mask(i).iter() {
                s[i * na + a as usize] = true;
            }
        }
        out
    }

    /// The observation of each slot's last finished game, from the view of the player who
    /// would have moved (zeros for slots without a finished game), float32
    /// `[N, observation_len]` (a copy).
    fn final_observations<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        PyArray2::from_array(py, &self.env.final_observations())
    }

    /// The legal actions in each slot's last finished game (all false where it ended by the
    /// rules or no game has finished; a truncated game's live actions), bool `[N, num_actions]`.
    fn final_action_masks<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<bool>> {
        let (n, na) = (self.env.num_envs(), self.env.num_actions());
        let out = PyArray2::<bool>::zeros(py, [n, na], false);
        // SAFETY: `out` was just created here.
        let s = unsafe { slice(&out) };
        let rules = self.env.rules();
        for i in 0..n {
            if let Some(state) = self.env.final_state(i) {
                for a in rules.legal_mask(state).iter() {
                    s[i * na + a as usize] = true;
                }
            }
        }
        out
    }

    /// Each player's result in each slot's last finished game (0 for truncated games and
    /// slots without a finished game), float32 `[N, 2]`.
    fn final_returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        let n = self.env.num_envs();
        let flat: Vec<f32> = (0..n).flat_map(|i| self.env.final_returns(i)).collect();
        PyArray1::from_vec(py, flat)
            .reshape([n, 2])
            .expect("2 returns per game")
    }

    /// The scores (South, North) of each slot's live game, int32 `[N, 2]`.
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i32>> {
        let n = self.env.num_envs();
        let rules = self.env.rules();
        let flat: Vec<i32> = self
            .env
            .states()
            .iter()
            .flat_map(|s| rules.scores(s))
            .collect();
        PyArray1::from_vec(py, flat)
            .reshape([n, 2])
            .expect("2 scores per game")
    }

    /// Plies played in each slot's live game, uint32 `[N]`.
    fn plies<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        let rules = self.env.rules();
        PyArray1::from_iter(py, self.env.states().iter().map(|s| rules.ply(s)))
    }

    /// Episodes finished so far in each slot, uint32 `[N]`.
    fn episodes<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_iter(py, (0..self.env.num_envs()).map(|i| self.env.episode(i)))
    }

    /// Restores a pickled env (see `__reduce__`).
    #[staticmethod]
    fn _restore(
        variant: &str,
        options: Vec<(String, String)>,
        snapshot: &str,
        num_threads: usize,
    ) -> PyResult<Self> {
        let rules = Variant::new(variant, &options).map_err(value_error)?;
        let snapshot: VecEnvSnapshot = serde_json::from_str(snapshot)
            .map_err(|e| PyValueError::new_err(format!("not a pickled ayo.VecEnv: {e}")))?;
        let env = ayo_env::VecEnv::restore(rules, &snapshot, num_threads).map_err(value_error)?;
        Ok(VecEnv { env })
    }

    /// Pickling (and `copy.deepcopy`): the configuration and, per game, the random stream, the
    /// position with its repetition memory and the last finished game (`VecEnv::snapshot`),
    /// each position checked against the rules on loading, so the copy steps exactly as the
    /// original would from here on.
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(
        Bound<'py, PyAny>,
        (String, Vec<(String, String)>, String, usize),
    )> {
        let restore = py.get_type::<VecEnv>().getattr("_restore")?;
        let rules = self.env.rules();
        let snapshot = serde_json::to_string(&self.env.snapshot()).map_err(value_error)?;
        Ok((
            restore,
            (rules.id(), rules.options(), snapshot, self.env.threads()),
        ))
    }

    fn __len__(&self) -> usize {
        self.env.num_envs()
    }

    fn __repr__(&self) -> String {
        format!(
            "VecEnv({:?}, num_envs={}, num_threads={}{})",
            self.env.rules().id(),
            self.env.num_envs(),
            self.env.threads(),
            match self.env.config().lookahead {
                0 => String::new(),
                plies => format!(", lookahead={plies}"),
            }
        )
    }
}
