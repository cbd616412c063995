//! The agents from Python: the baselines of `ayo-env` (`random`, `greedy`, `alphabeta:D`,
//! `mcts:N`) and trained checkpoints (`PATH`, `PATH:SIMS`, `PATH@TIME`) with their search,
//! through `ayo_train::agent::parse_player` (the network runs without libtorch: `CpuNet`).

use crate::game::Game;
use crate::options::value_error;
use crate::vec_env::VecEnv;
use ayo_env::{Rules, VariantState};
use ayo_train::agent::{parse_player, Player};
use ayo_train::checkpoint::CheckpointMeta;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Mutex;

/// An agent, named by its spec: `random`, `greedy`, `alphabeta:D` (depth D plies), `mcts:N`
/// (N simulations), or a checkpoint of `ayo train` with its Gumbel search: `PATH` (32
/// simulations), `PATH:SIMS` or `PATH@TIME` (`1s`, `250ms`); its random choices are seeded by
/// `seed`.
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
    /// A checkpoint's metadata: the games it may play.
    meta: Option<CheckpointMeta>,
}

/// Simulations of a checkpoint named without `:SIMS`.
const DEFAULT_SIMS: u32 = 32;

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
        let (agent, meta): (Box<dyn ayo_env::Agent>, _) =
            match parse_player(spec, DEFAULT_SIMS, seed).map_err(value_error)? {
                Player::Baseline(a) => (a, None),
                Player::Net(n) => {
                    let meta = n.meta.clone();
                    (n, meta)
                }
            };
        Ok(Agent {
            agent: Mutex::new(agent),
            meta,
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
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Restore)> {
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
        self.check(&game.rules)?;
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
        self.check(&rules)?;
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
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let env = &env.env;
        self.check(env.rules())?;
        let agent = &self.agent;
        let choices = py.detach(|| {
            let states: Vec<&VariantState> = env.states().iter().collect();
            agent
                .lock()
                .expect("agent lock")
                .choose_batch(env.rules(), &states)
        });
        Ok(PyArray1::from_iter(
            py,
            choices.into_iter().map(|(a, _)| i64::from(a)),
        ))
    }

    /// The checkpoint's variant (`"oware@1"`), or `None` for a baseline.
    #[getter]
    fn variant(&self) -> Option<String> {
        self.meta.as_ref().map(|m| m.variant.clone())
    }

    fn __repr__(&self) -> String {
        format!("Agent({:?})", self.name())
    }
}

impl Agent {
    /// A checkpoint plays only the variant it was trained for.
    fn check(&self, rules: &ayo_env::Variant) -> PyResult<()> {
        match &self.meta {
            Some(m) => {
                ayo_train::checkpoint::check_rules(m, rules, std::path::Path::new(&self.spec))
                    .map_err(value_error)
            }
            None => Ok(()),
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Agent>()
}
