//! The agents from Python: the baselines of `ayo-env` (`random`, `greedy`, `alphabeta:D`,
//! `mcts:N`) and trained checkpoints (`PATH`, `PATH:SIMS`, `PATH@TIME`) with their search,
//! through `ayo_train::agent::parse_player` (the network runs without libtorch: `CpuNet`);
//! and the other way round, a Python callable `f(game) -> action` as an `ayo_env::Agent`
//! ([`Policy`]), so that `ayo.rate` and `python -m ayo.engine` can play it.

use crate::game::Game;
use crate::options::value_error;
use crate::vec_env::VecEnv;
use ayo_env::arena::tournament::FORFEIT;
use ayo_env::{Action, Analysis, Rules, Variant, VariantState};
use ayo_train::agent::{load_player, parse_player};
use ayo_train::checkpoint::CheckpointMeta;
use numpy::PyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::{Arc, Mutex};

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
    /// Its book of moves (`+book=FILE`), made for one variant.
    book: Option<std::sync::Arc<ayo_env::arena::book::Book>>,
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
        let player = parse_player(spec, DEFAULT_SIMS, seed).map_err(value_error)?;
        let book = player.book();
        let (agent, meta) = player.into_agent();
        Ok(Agent {
            agent: Mutex::new(agent),
            meta,
            book,
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
    /// A copy that plays `rules` exactly as this agent would from here on (its spec, seed and
    /// random state, as pickling keeps them), for a match that owns its players.
    fn copy_for(&self, rules: &Variant) -> PyResult<Box<dyn ayo_env::Agent>> {
        let mut agent =
            load_player(&self.spec, rules, DEFAULT_SIMS, self.seed).map_err(value_error)?;
        if let Some(state) = self.agent.lock().expect("agent lock").random_state() {
            agent.set_random_state(state);
        }
        Ok(agent)
    }

    /// A checkpoint plays only the variant it was trained for, a book only its own.
    fn check(&self, rules: &ayo_env::Variant) -> PyResult<()> {
        if let Some(book) = &self.book {
            book.check_rules(rules).map_err(value_error)?;
        }
        match &self.meta {
            Some(m) => {
                ayo_train::checkpoint::check_rules(m, rules, std::path::Path::new(&self.spec))
                    .map_err(value_error)
            }
            None => Ok(()),
        }
    }
}

/// What a [`Policy`] does when its function fails (raises, returns something that is not an
/// action number, or an action that cannot be played).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// Keep the first failure for the caller ([`Policy::failure`]) and give up every game from
    /// then on at once: the caller stops the match and raises it (`ayo.rate`).
    Stop,
    /// Print the failure to stderr and give up this position; the next call tries again
    /// (`python -m ayo.engine`: the engine answers `error …` and goes on).
    GiveUp,
}

/// A Python callable `f(game) -> action` as an agent: each decision calls it with a fresh
/// `ayo.Game` at the position (its record starts there) and checks its answer against the
/// rules. A failure gives the game up ([`FORFEIT`]), as [`OnFailure`] says.
pub struct Policy {
    function: Py<PyAny>,
    name: String,
    on_failure: OnFailure,
    failure: Arc<Mutex<Option<PyErr>>>,
}

impl Policy {
    /// The policy `function`, named `python:MODULE:NAME` after it.
    pub fn new(function: &Bound<'_, PyAny>, on_failure: OnFailure) -> Policy {
        let attribute = |name: &str| -> Option<String> {
            function.getattr(name).ok()?.extract::<String>().ok()
        };
        let name = match (attribute("__module__"), attribute("__qualname__")) {
            (Some(module), Some(qualname)) => format!("python:{module}:{qualname}"),
            (_, Some(qualname)) => format!("python:{qualname}"),
            _ => format!(
                "python:{}",
                function
                    .get_type()
                    .name()
                    .map_or("callable".into(), |n| n.to_string())
            ),
        };
        Policy {
            function: function.clone().unbind(),
            name,
            on_failure,
            failure: Arc::default(),
        }
    }

    /// The first failure kept ([`OnFailure::Stop`]), shared: it can be read once the policy was
    /// handed to a match.
    pub fn failure(&self) -> Arc<Mutex<Option<PyErr>>> {
        self.failure.clone()
    }

    /// The function's action in `state`, checked: an int that names a legal action.
    fn ask(&self, py: Python<'_>, rules: &Variant, state: &VariantState) -> PyResult<Action> {
        let game = Bound::new(py, Game::at(rules.clone(), state.clone()))?;
        let answer = self.function.bind(py).call1((game,))?;
        let Ok(number) = answer.extract::<i64>() else {
            return Err(PyTypeError::new_err(format!(
                "policy {} returned {}, expected an action number (an int)",
                self.name,
                answer.repr()?
            )));
        };
        let legal = rules.legal_actions(state);
        match Action::try_from(number) {
            Ok(action) if legal.contains(&action) => Ok(action),
            _ => Err(PyValueError::new_err(format!(
                "policy {} returned action {number}, which cannot be played in {} \
                 (legal actions: {legal:?})",
                self.name,
                rules.notation(state)
            ))),
        }
    }
}

impl ayo_env::Agent for Policy {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, rules: &Variant, state: &VariantState) -> (Action, Analysis) {
        let stopped = || self.failure.lock().expect("failure lock").is_some();
        if self.on_failure == OnFailure::Stop && stopped() {
            return (FORFEIT, Analysis::default());
        }
        let answer = Python::attach(|py| {
            self.ask(py, rules, state)
                .map_err(|e| match self.on_failure {
                    OnFailure::Stop => {
                        self.failure.lock().expect("failure lock").get_or_insert(e);
                    }
                    OnFailure::GiveUp => e.print(py),
                })
        });
        (answer.unwrap_or(FORFEIT), Analysis::default())
    }
}

/// The agent a Python value names, for games of `rules`: an `ayo.Agent` (a copy that goes on as
/// it would), an agent spec (`str`, read as `ayo.Agent(spec, seed)` reads it) or a callable
/// `f(game) -> action` ([`Policy`]: then its failure, shared).
#[allow(clippy::type_complexity)]
pub fn of_python(
    value: &Bound<'_, PyAny>,
    rules: &Variant,
    seed: u64,
    on_failure: OnFailure,
) -> PyResult<(Box<dyn ayo_env::Agent>, Option<Arc<Mutex<Option<PyErr>>>>)> {
    if let Ok(agent) = value.cast::<Agent>() {
        return Ok((agent.borrow().copy_for(rules)?, None));
    }
    if let Ok(spec) = value.cast::<PyString>() {
        let spec = spec.to_str()?;
        let agent = load_player(spec, rules, DEFAULT_SIMS, seed).map_err(value_error)?;
        return Ok((agent, None));
    }
    if value.is_callable() {
        let policy = Policy::new(value, on_failure);
        let failure = policy.failure();
        return Ok((Box::new(policy), Some(failure)));
    }
    Err(PyTypeError::new_err(format!(
        "agent {}: expected an ayo.Agent, an agent spec (str) or a callable f(game) -> action",
        value.repr()?
    )))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Agent>()
}
