//! `ayo.rate`: an agent or a Python policy placed on a variant's rating ladder, by the loop
//! `ayo rate` runs (`ayo_env::arena::ladder::rate`: a few pairs against the middle rung, then
//! rounds against the rungs around the estimate, the Elo fitted with the rungs held fixed) and
//! its rungs loaded as `ayo rate` loads them (`ayo_train::rungs`); and `ayo.serve_engine`,
//! which puts a Python policy behind `ayo engine`'s text protocol (`ayo_train::engine`).
//!
//! Without `ladder=`, the ladder is the one shipped in the package (`ayo/ladders/<variant>/`,
//! the files of `models/<variant>/` with the networks its rungs name).

use crate::agent::{of_python, OnFailure};
use crate::options::value_error;
use ayo_env::arena::ladder::{self, Ladder, RateOptions};
use ayo_env::arena::tournament::Control;
use ayo_env::{Rules, Variant};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// An agent's rating on a ladder: `elo` with its 95 % interval `[low, high]` (the rungs' Elo
/// held exact), the games, and the agent's games against each rung it played (`rungs`).
/// `str(rating)` is the table `ayo rate` prints.
#[pyclass(module = "ayo._ayo", name = "Rating", frozen)]
pub struct Rating {
    rating: ladder::Rating,
    ladder: Ladder,
    path: PathBuf,
    agent: String,
    names: Vec<String>,
    seconds: f64,
}

#[pymethods]
impl Rating {
    /// The agent's Elo on the ladder.
    #[getter]
    fn elo(&self) -> f64 {
        self.rating.elo
    }

    /// The 95 % interval `(low, high)`; infinite on a side no game bounds.
    #[getter]
    fn interval(&self) -> (f64, f64) {
        (self.rating.low, self.rating.high)
    }

    #[getter]
    fn games(&self) -> usize {
        self.rating.games
    }

    /// Rounds played (the first against the middle rung alone).
    #[getter]
    fn rounds(&self) -> usize {
        self.rating.rounds
    }

    /// The rated agent's name (`python:MODULE:NAME` for a callable).
    #[getter]
    fn agent(&self) -> String {
        self.agent.clone()
    }

    /// `"name@version"` of the ladder's games, e.g. `"oware@1"`.
    #[getter]
    fn variant(&self) -> String {
        self.ladder.rules_id()
    }

    /// The ladder's version: cite it with the rating.
    #[getter]
    fn ladder_version(&self) -> u32 {
        self.ladder.version
    }

    /// The ladder file played.
    #[getter]
    fn ladder(&self) -> PathBuf {
        self.path.clone()
    }

    #[getter]
    fn seconds(&self) -> f64 {
        self.seconds
    }

    /// One dict per rung played, from the weakest: `rung` (its place on the ladder), `spec`,
    /// `name`, `elo` (the rung's), `wins`, `draws`, `losses`, `score` (the agent's share of the
    /// points), `pentanomial` (the agent's pairs that scored 0, ½, 1, 1½, 2) and `nelo`
    /// (`(nElo, low, high)`, or `None` when the pairs have no spread).
    #[getter]
    fn rungs<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.rating
            .rungs
            .iter()
            .map(|g| {
                let rung = &self.ladder.rungs[g.rung];
                let d = PyDict::new(py);
                d.set_item("rung", g.rung)?;
                d.set_item("spec", &rung.spec)?;
                d.set_item("name", &self.names[g.rung])?;
                d.set_item("elo", rung.elo)?;
                d.set_item("wins", g.wdl.wins)?;
                d.set_item("draws", g.wdl.draws)?;
                d.set_item("losses", g.wdl.losses)?;
                d.set_item("score", g.pentanomial.score())?;
                d.set_item("pentanomial", g.pentanomial.counts.to_vec())?;
                d.set_item("nelo", g.pentanomial.nelo())?;
                Ok(d)
            })
            .collect()
    }

    fn __str__(&self) -> String {
        let source = self.path.display().to_string();
        self.rating.table(
            &self.ladder,
            &source,
            &self.agent,
            &self.names,
            self.seconds,
        )
    }

    fn __repr__(&self) -> String {
        let r = &self.rating;
        format!(
            "Rating(agent={:?}, elo={:+.0}, interval=({:+.0}, {:+.0}), games={}, ladder=\"{} v{}\")",
            self.agent,
            r.elo,
            r.low,
            r.high,
            r.games,
            self.ladder.rules_id(),
            self.ladder.version
        )
    }
}

/// The ladder shipped in the package for `rules`' variant: `ayo/ladders/<name>/ladder.json`.
fn shipped_ladder(py: Python<'_>, rules: &Variant) -> PyResult<PathBuf> {
    let init: PathBuf = py.import("ayo")?.getattr("__file__")?.extract()?;
    let folder = init.parent().unwrap_or(Path::new(".")).join("ladders");
    let path = folder.join(rules.name()).join("ladder.json");
    if path.is_file() {
        return Ok(path);
    }
    let mut shipped: Vec<String> = std::fs::read_dir(&folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("ladder.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    shipped.sort();
    Err(PyValueError::new_err(format!(
        "no rating ladder ships for {} (ladders: {}); pass ladder=PATH, a ladder made by \
         `ayo ladder` (docs/rating.md)",
        rules.name(),
        shipped.join(", ")
    )))
}

/// Rates `agent` on the variant's ladder: see `ayo.rate` in `_ayo.pyi`.
#[pyfunction]
#[pyo3(signature = (agent, variant, *, games = 2000, precision = 40.0, seed = 0, ladder = None))]
pub fn rate(
    py: Python<'_>,
    agent: &Bound<'_, PyAny>,
    variant: &str,
    games: usize,
    precision: f64,
    seed: u64,
    ladder: Option<PathBuf>,
) -> PyResult<Rating> {
    let named = Variant::new(variant, &[]).map_err(value_error)?;
    if games < 2 {
        return Err(PyValueError::new_err(format!(
            "games = {games}: expected at least 2 (one pair)"
        )));
    }
    if !(precision.is_finite() && precision > 0.0) {
        return Err(PyValueError::new_err(format!(
            "precision = {precision}: expected a positive number of Elo"
        )));
    }
    let path = match ladder {
        Some(path) => path,
        None => shipped_ladder(py, &named)?,
    };
    let file = Ladder::load(&path).map_err(value_error)?;
    let options = Variant::parse_options(&file.options).map_err(value_error)?;
    let rules = Variant::new(variant, &options).map_err(value_error)?;
    file.check_rules(&rules).map_err(value_error)?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let rungs = ayo_train::rungs::load(&file, folder, &rules, seed).map_err(value_error)?;
    let names: Vec<String> = rungs.iter().map(|r| r.name()).collect();
    let (agent, failure) = of_python(agent, &rules, seed, OnFailure::Stop)?;
    let me = agent.name();
    let elo: Vec<f64> = file.rungs.iter().map(|r| r.elo).collect();
    let options = RateOptions {
        precision,
        max_games: games,
        seed,
        ..Default::default()
    };
    let started = Instant::now();
    // Ctrl-C, heard between pairs (signals reach only this thread).
    let mut interrupted = None;
    let rating = py.detach(|| {
        ladder::rate(
            &rules,
            &file.protocol,
            &elo,
            agent,
            rungs,
            &options,
            |_| {
                if failure
                    .as_ref()
                    .is_some_and(|f| f.lock().expect("failure lock").is_some())
                {
                    return Control::Stop;
                }
                match Python::attach(|py| py.check_signals()) {
                    Ok(()) => Control::Continue,
                    Err(e) => {
                        interrupted = Some(e);
                        Control::Stop
                    }
                }
            },
            |_| {},
        )
    });
    if let Some(e) = failure.and_then(|f| f.lock().expect("failure lock").take()) {
        return Err(e);
    }
    if let Some(e) = interrupted {
        return Err(e);
    }
    Ok(Rating {
        rating: rating.map_err(value_error)?,
        ladder: file,
        path,
        agent: me,
        names,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Answers `ayo engine`'s text protocol on stdin/stdout for `agent`: see `ayo.serve_engine` in
/// `_ayo.pyi` and `python -m ayo.engine`.
#[pyfunction]
#[pyo3(signature = (agent, variant, *, options = "", seed = 0))]
pub fn serve_engine(
    py: Python<'_>,
    agent: &Bound<'_, PyAny>,
    variant: &str,
    options: &str,
    seed: u64,
) -> PyResult<()> {
    let pairs = Variant::parse_options(options).map_err(value_error)?;
    let rules = Variant::new(variant, &pairs).map_err(value_error)?;
    let (mut agent, _) = of_python(agent, &rules, seed, OnFailure::GiveUp)?;
    py.detach(|| {
        let input = ayo_train::engine::StdinLines::spawn();
        let stdout = std::io::stdout();
        ayo_train::engine::serve(&rules, agent.as_mut(), input, stdout.lock())
    })
    .map_err(value_error)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Rating>()?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(serve_engine, m)?)
}
