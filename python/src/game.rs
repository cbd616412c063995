//! `ayo.Game`: one game of a variant, for search, analysis and tests.

use crate::options::{self, value_error};
use ayo_env::input::{encode, input_bounds, input_len};
use ayo_env::picture::{self, Layout};
use ayo_env::{Action, GameRecord, Player, Rules, Variant, VariantState};
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// One game of a variant: legal actions, moves, the board, scores and the game's record.
///
/// ```python
/// g = ayo.Game("oware")
/// g.apply(g.legal_actions()[0])
/// print(g)            # the board
/// g.board             # seeds per pit, absolute pit order 0..11
/// ```
#[pyclass(module = "ayo._ayo", name = "Game")]
#[derive(Clone)]
pub struct Game {
    pub rules: Variant,
    pub state: VariantState,
    record: GameRecord,
    /// The pit the last action began at, ringed in pictures.
    last_pit: Option<usize>,
}

/// An action from Python: an int in `0..num_actions`, else a `ValueError` naming it.
pub fn action(rules: &Variant, action: i64) -> PyResult<Action> {
    if action < 0 || action as usize >= rules.num_actions() {
        return Err(PyValueError::new_err(format!(
            "action {action} is outside the action space 0..{} of {}",
            rules.num_actions(),
            rules.id()
        )));
    }
    Ok(action as Action)
}

fn player(index: i64) -> PyResult<Player> {
    usize::try_from(index)
        .ok()
        .and_then(Player::from_index)
        .ok_or_else(|| PyValueError::new_err(format!("player {index} is not 0 or 1")))
}

impl Game {
    /// A game from `state` (a copy of a position; its record starts there).
    pub fn at(rules: Variant, state: VariantState) -> Game {
        let opening = rules.notation(&state);
        Game::starting(rules, state, Some(opening))
    }

    /// A game from `state`, its record starting at `opening` (`None`: the variant's start).
    fn starting(rules: Variant, state: VariantState, opening: Option<String>) -> Game {
        let first = rules.to_play(&state).unwrap_or(Player::South);
        let record = GameRecord::new(&rules, first, opening, false);
        Game {
            rules,
            state,
            record,
            last_pit: None,
        }
    }

    /// The player to move as Python sees it: 0, 1, or −1 once the game is over.
    fn to_play_index(&self) -> i64 {
        self.rules
            .to_play(&self.state)
            .map_or(-1, |p| p.index() as i64)
    }
}

#[pymethods]
impl Game {
    /// A new game of `variant` (`"oware"` or `"oware@1"`), player `first` (0 = South) to move,
    /// with the preset's options given as keywords (e.g. `seeds=3`).
    #[new]
    #[pyo3(signature = (variant, first = 0, **options))]
    fn new(variant: &str, first: i64, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let rules = options::variant(variant, options)?;
        let state = rules.start(player(first)?);
        Ok(Game::starting(rules, state, None))
    }

    /// A game starting from `notation` (the variant's text notation, see `Game.notation()`).
    #[staticmethod]
    #[pyo3(signature = (variant, notation, **options))]
    fn from_notation(
        variant: &str,
        notation: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let rules = options::variant(variant, options)?;
        let state = rules.parse_notation(notation).map_err(value_error)?;
        Ok(Game::starting(rules, state, Some(notation.to_string())))
    }

    /// The game at the end of a record (JSON, as written by `record()`), every move replayed
    /// and checked.
    #[staticmethod]
    fn from_record(json: &str) -> PyResult<Self> {
        let record = GameRecord::from_json(json).map_err(value_error)?;
        let replay = record.replay().map_err(value_error)?;
        let state = replay
            .states
            .last()
            .expect("a replay has the start")
            .clone();
        let n = replay.states.len();
        let last_pit = match (record.actions.last(), n.checked_sub(2)) {
            (Some(&a), Some(before)) => replay.rules.action_pit(&replay.states[before], a),
            _ => None,
        };
        Ok(Game {
            rules: replay.rules,
            state,
            record,
            last_pit,
        })
    }

    /// `"name@version"` of the variant.
    #[getter]
    fn variant(&self) -> String {
        self.rules.id()
    }

    /// Size of the action space.
    #[getter]
    fn num_actions(&self) -> usize {
        self.rules.num_actions()
    }

    /// Length of `observation()`.
    #[getter]
    fn observation_len(&self) -> usize {
        self.rules.observation_len()
    }

    /// `(low, high)` bounds of every observation feature (0 and the number of seeds in play).
    #[getter]
    fn observation_bounds(&self) -> (f32, f32) {
        input_bounds(&self.rules, 0)
    }

    /// `(length, low, high)` of `observation(lookahead)`: what an observation space needs.
    /// With `lookahead` the features may be negative: a move loses what it gives away.
    #[pyo3(signature = (lookahead = None))]
    fn observation_spec(
        &self,
        lookahead: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(usize, f32, f32)> {
        let plies = options::lookahead_plies(lookahead)?;
        let (low, high) = input_bounds(&self.rules, plies);
        Ok((input_len(&self.rules, plies), low, high))
    }

    /// The legal actions of the player to move, in increasing order (empty once over).
    fn legal_actions(&self) -> Vec<u32> {
        self.rules
            .legal_mask(&self.state)
            .iter()
            .map(u32::from)
            .collect()
    }

    /// The legal actions as a boolean array of length `num_actions`.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mask = self.rules.legal_mask(&self.state);
        let out = PyArray1::<bool>::zeros(py, self.rules.num_actions(), false);
        // SAFETY: `out` was just created here and nothing else refers to it.
        let slice = unsafe { out.as_slice_mut() }.expect("a new array is contiguous");
        for a in mask.iter() {
            slice[a as usize] = true;
        }
        out
    }

    /// Plays `action` for the player to move. An illegal action raises `ValueError` and leaves
    /// the game unchanged.
    fn apply(&mut self, action: i64) -> PyResult<()> {
        let action = self::action(&self.rules, action)?;
        let pit = self.rules.action_pit(&self.state, action);
        self.record
            .play(&self.rules, &mut self.state, action)
            .map_err(value_error)?;
        self.last_pit = pit;
        Ok(())
    }

    /// A picture of the board (numpy uint8 `[height, width, 3]`): pits labelled with their
    /// seeds, the stores (Yao: men in hand), each fours house ringed in its owner's colour, a
    /// bar along the side of the player to move and a ring on the last move's pit; seen from
    /// `bottom`'s side (0 = South at the bottom). The same drawing as `render_mode="rgb_array"`.
    #[pyo3(signature = (bottom = 0))]
    pub fn render_rgb<'py>(
        &self,
        py: Python<'py>,
        bottom: i64,
    ) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let layout = Layout::of(&self.rules, player(bottom)?);
        let img = picture::draw_state(&self.rules, &layout, &self.state, self.last_pit);
        let array = ndarray::Array3::from_shape_vec((img.height, img.width, 3), img.rgb)
            .expect("a picture has height × width × 3 bytes");
        Ok(PyArray3::from_owned_array(py, array))
    }

    /// Pickling (and `copy.deepcopy` through it): the game's record, replayed on loading, so
    /// the copy has the same position and history (repetitions included).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_record = py.get_type::<Game>().getattr("from_record")?;
        Ok((from_record, (self.record.to_json(),)))
    }

    /// Seeds per pit in absolute pit order (0..11 for 2 × 6 boards: South's row 0..5 from
    /// his left, then North's row 6..11 from his left).
    #[getter]
    fn board(&self) -> Vec<u32> {
        let pits = self.rules.snapshot(&self.state).pits;
        pits.into_iter().map(u32::from).collect()
    }

    /// Each player's score (seeds taken), South first.
    #[getter]
    fn scores(&self) -> [i32; 2] {
        self.rules.scores(&self.state)
    }

    /// The player to move (0 = South, 1 = North), or −1 once the game is over.
    #[getter]
    fn to_play(&self) -> i64 {
        self.to_play_index()
    }

    /// Number of actions played.
    #[getter]
    fn ply(&self) -> u32 {
        self.rules.ply(&self.state)
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.rules.is_terminal(&self.state)
    }

    /// The result from each player's view (+1 win, −1 loss, 0 draw); zeros until the end.
    fn returns(&self) -> [f32; 2] {
        self.rules.returns(&self.state)
    }

    /// The observation from the view of the player to move (float32, `observation_len`); with
    /// `lookahead` (`True` or 1), followed by the look-ahead features (`tactics()`), with
    /// `lookahead=2` then by `exchanges()`, and with `3` and `4` then by the third and fourth
    /// plies, as a network trained with them takes its input and as `VecEnv(..., lookahead=...)`
    /// writes its rows.
    #[pyo3(signature = (lookahead = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        lookahead: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let plies = options::lookahead_plies(lookahead)?;
        let mut out = vec![0.0; input_len(&self.rules, plies)];
        encode(&self.rules, &self.state, plies, &mut out);
        Ok(PyArray1::from_vec(py, out))
    }

    /// The look-ahead features of the position (float32, `tactics_len`): what each action of
    /// the player to move gains by the baselines' heuristic (in the fours games: by what the
    /// round would give if it ended now) (seeds / 8; ±8 for a move that
    /// ends the game won or lost, 0 for an illegal one), and in yao then what each of the
    /// opponent's moves would gain him were it his turn. A network trained with `lookahead`
    /// takes them after the observation (`Net.input`).
    fn tactics<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0.0; self.rules.tactics_len()];
        self.rules.tactics(&self.state, &mut out);
        PyArray1::from_vec(py, out)
    }

    /// The second ply of look-ahead (float32, `num_actions`): what each action of the player
    /// to move gains (as in `tactics()`) once the best answer to it is counted — less what the
    /// opponent's best move then gains him, or plus the mover's own best next gain when he
    /// moves again; a move that ends the game reads its gain alone; 0 for an illegal one.
    fn exchanges<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        let mut out = vec![0.0; self.rules.num_actions()];
        ayo_env::rules::exchanges(&self.rules, &self.state, &mut out);
        PyArray1::from_vec(py, out)
    }

    /// Length of `tactics()`.
    #[getter]
    fn tactics_len(&self) -> usize {
        self.rules.tactics_len()
    }

    /// The position in the variant's text notation (see `Game.from_notation`).
    fn notation(&self) -> String {
        self.rules.notation(&self.state)
    }

    /// A 64-bit hash of the position.
    fn hash(&self) -> u64 {
        self.rules.hash(&self.state)
    }

    /// A short human name of `action` for the player to move (e.g. `"B"`).
    fn action_name(&self, action: i64) -> PyResult<String> {
        let action = self::action(&self.rules, action)?;
        Ok(self.rules.action_name(&self.state, action))
    }

    /// The game so far as a JSON game record (the same format `ayo replay` reads).
    fn record(&self) -> String {
        self.record.to_json()
    }

    /// An independent copy of the game.
    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Self {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        Clone::clone(self)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Game>() {
            Ok(other) => {
                let other = other.borrow();
                self.rules == other.rules && self.state == other.state
            }
            Err(_) => false,
        }
    }

    /// The board drawn for people.
    fn __str__(&self) -> String {
        self.rules.render(&self.state)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, notation={:?})",
            self.rules.id(),
            self.rules.notation(&self.state)
        )
    }
}
