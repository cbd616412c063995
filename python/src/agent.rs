//! The baseline agents of `ayo-env` (`random`, `greedy`, `alphabeta:D`, `mcts:N`) from Python.

use crate::game::Game;
use crate::options::value_error;
use crate::vec_env::VecEnv;
use ayo_env::{Rules, VariantState};
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Mutex;

/// A baseline agent, named by its spec: `random`, `greedy`, `alphabeta:D` (depth D plies) or
/// `mcts:N` (N simulations); its random choices are seeded by `seed`.
///
/// ```python
/// agent = ayo.Agent("alphabeta:6", seed=1)
/// game.apply(agent.choose(game))
/// ```
/// What unpickling an agent is given: its spec, seed and random state.
type Restore = (String, u64, Option<u64>);

#[pyclass(module = "ayo._ayo", name = "Agent")]
pub struct Agent {
    agent: Mutex<Box<dyn ayo_env::Agent>>,
    /// The spec and seed it was made from: with its random state, what pickling keeps.
    spec: String,
    seed: u64,
}

fn live(game: &Game) -> PyResult<&VariantState> {
    if game.rules.is_terminal(&game.state) {
        return Err(PyValueError::new_err(
            "the game is over: an agent needs a game with a player to move",
        ));
    }
    Ok(&game.state)
}

#[pymethods]
impl Agent {
    #[new]
    #[pyo3(signature = (spec, seed = 0))]
    fn new(spec: &str, seed: u64) -> PyResult<Self> {
        let agent = ayo_env::arena::agents::parse(spec, seed).map_err(value_error)?;
        Ok(Agent {
            agent: Mutex::new(agent),
            spec: spec.to_string(),
            seed,
        })
    }

    /// The agent rebuilt from its spec and seed with its random stream where it was (what
    /// unpickling calls).
    #[staticmethod]
    fn _restore(spec: &str, seed: u64, random_state: Option<u64>) -> PyResult<Self> {
        let agent = Agent::new(spec, seed)?;
        if let Some(state) = random_state {
            agent
                .agent
                .lock()
                .expect("agent lock")
                .set_random_state(state);
        }
        Ok(agent)
    }

    /// Pickling (and `copy.deepcopy`): the spec, the seed and the random stream's state, so the
    /// copy chooses exactly as the original would from here on.
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Restore)> {
        let restore = py.get_type::<Agent>().getattr("_restore")?;
        let state = self.agent.lock().expect("agent lock").random_state();
        Ok((restore, (self.spec.clone(), self.seed, state)))
    }

    /// The agent's spec, e.g. `"alphabeta:6"`.
    #[getter]
    fn name(&self) -> String {
        self.agent.lock().expect("agent lock").name()
    }

    /// A legal action for the player to move in `game` (the game is not changed). Searches
    /// release the GIL.
    fn choose(&self, py: Python<'_>, game: &Game) -> PyResult<u32> {
        Ok(self.analyse(py, game)?.0)
    }

    /// `(action, value, work)`: the chosen action, the agent's value estimate of it from the
    /// mover's view in [-1, 1] (or `None`), and the simulations or nodes spent.
    fn analyse(&self, py: Python<'_>, game: &Game) -> PyResult<(u32, Option<f32>, u64)> {
        let state = live(game)?;
        let rules = &game.rules;
        let agent = &self.agent;
        let (action, analysis) =
            py.detach(|| agent.lock().expect("agent lock").choose(rules, state));
        Ok((action.into(), analysis.value, analysis.work))
    }

    /// One action per game of `games` (none of them over), chosen in one batch.
    fn choose_batch(&self, py: Python<'_>, games: Vec<PyRef<'_, Game>>) -> PyResult<Vec<u32>> {
        let Some(first) = games.first() else {
            return Ok(Vec::new());
        };
        let rules = first.rules.clone();
        let mut states = Vec::with_capacity(games.len());
        for (i, g) in games.iter().enumerate() {
            if g.rules != rules {
                return Err(PyValueError::new_err(format!(
                    "game {i} is {}, but game 0 is {}: a batch holds one variant",
                    g.rules.id(),
                    rules.id()
                )));
            }
            states.push(live(g).map_err(|e| PyValueError::new_err(format!("game {i}: {e}")))?);
        }
        let agent = &self.agent;
        let choices = py.detach(|| {
            agent
                .lock()
                .expect("agent lock")
                .choose_batch(&rules, &states)
        });
        Ok(choices.into_iter().map(|(a, _)| a.into()).collect())
    }

    /// One action per game of a `VecEnv` (int64 `[N]`, ready for `VecEnv.step`), chosen in one
    /// batch with the GIL released.
    fn choose_vec<'py>(
        &self,
        py: Python<'py>,
        env: PyRef<'py, VecEnv>,
    ) -> Bound<'py, PyArray1<i64>> {
        let env = &env.env;
        let agent = &self.agent;
        let choices = py.detach(|| {
            let states: Vec<&VariantState> = env.states().iter().collect();
            agent
                .lock()
                .expect("agent lock")
                .choose_batch(env.rules(), &states)
        });
        PyArray1::from_iter(py, choices.into_iter().map(|(a, _)| i64::from(a)))
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.name())
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Agent>()
}
