//! One game held by the server — played on the page, or a record loaded for review — and the
//! JSON views the page draws. Every board, legal move, drop and result comes from the library
//! (the rules through [`Rules`], the record through [`GameRecord`], the agents through
//! [`Agent`]); this file only arranges them for the page.

use super::ApiError;
use ayo_env::picture::{pit_labels, Layout};
use ayo_env::{Action, Agent, GameRecord, Player, Rules, Snapshot, Variant, VariantState};
use serde::Serialize;

/// A game still running after this many plies is cut and scored as the rules stand (as in
/// `ayo play`).
pub const MAX_PLIES: usize = 2000;

/// Who decides for one seat.
pub enum Seat {
    /// A person at the page.
    Human,
    /// An agent, which the server asks as soon as it is to move.
    Agent(Box<dyn Agent>),
    /// A seat of a reviewed record: nobody plays on.
    Recorded(String),
}

impl Seat {
    fn name(&self) -> String {
        match self {
            Seat::Human => "you".into(),
            Seat::Agent(a) => a.name(),
            Seat::Recorded(name) => name.clone(),
        }
    }
}

/// A game: its rules, its seats and its record (always with every drop), and the state after
/// the start and after each action.
pub struct Game {
    pub rules: Variant,
    pub seats: [Seat; 2],
    pub record: GameRecord,
    pub states: Vec<VariantState>,
    /// A loaded record: read only.
    pub review: bool,
}

impl Game {
    /// A new game of `rules` from the start, South first.
    pub fn new(rules: Variant, seats: [Seat; 2]) -> Game {
        let start = rules.start(Player::South);
        let mut record = GameRecord::new(&rules, Player::South, None, true);
        record.seats = [seats[0].name(), seats[1].name()];
        Game {
            rules,
            seats,
            record,
            states: vec![start],
            review: false,
        }
    }

    /// A game record for review, checked by replaying it (its boards and result must agree
    /// with the rules).
    pub fn review(mut record: GameRecord) -> Result<Game, ApiError> {
        let replay = record
            .replay()
            .map_err(|e| ApiError::bad_request(format!("the record does not replay: {e}")))?;
        record.drops = Some(replay.drops);
        let seats = record.seats.clone().map(Seat::Recorded);
        Ok(Game {
            rules: replay.rules,
            seats,
            record,
            states: replay.states,
            review: true,
        })
    }

    pub fn state(&self) -> &VariantState {
        self.states.last().expect("the start state is always there")
    }

    fn is_over(&self) -> bool {
        self.rules.is_terminal(self.state()) || self.record.outcome.is_some()
    }

    /// Plays `action` for the person to move, then lets the agents answer until a person is to
    /// move or the game is over; returns the moves played. A refused action leaves the game as
    /// it was.
    pub fn play_human(&mut self, action: i64) -> Result<Vec<MoveView>, ApiError> {
        if self.review {
            return Err(ApiError::conflict(
                "this game is a loaded record, for review only; start a new game to play".into(),
            ));
        }
        if self.is_over() {
            return Err(ApiError::conflict(format!(
                "action {action} was given but the game is over"
            )));
        }
        let mover = self.rules.to_play(self.state()).expect("the game is live");
        if !matches!(self.seats[mover.index()], Seat::Human) {
            return Err(ApiError::conflict(format!(
                "{mover:?} is to move, and plays by itself ({})",
                self.seats[mover.index()].name()
            )));
        }
        let action = Action::try_from(action)
            .ok()
            .filter(|&a| (a as usize) < self.rules.num_actions())
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "action {action} is outside the action space 0..{} of {}",
                    self.rules.num_actions(),
                    self.rules.id()
                ))
            })?;
        self.rules
            .check(self.state(), action)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let mut moves = vec![self.apply(action, None)?];
        moves.extend(self.answer()?);
        Ok(moves)
    }

    /// Lets the agents move while one is to move (the opponent's answer, or the first move when
    /// the person sits North).
    pub fn answer(&mut self) -> Result<Vec<MoveView>, ApiError> {
        let mut moves = Vec::new();
        while !self.is_over() {
            let state = self.state().clone();
            let mover = self.rules.to_play(&state).expect("the game is live");
            let Seat::Agent(agent) = &mut self.seats[mover.index()] else {
                break;
            };
            let (action, analysis) = agent.choose(&self.rules, &state);
            let name = agent.name();
            let value = analysis.value;
            self.rules.check(&state, action).map_err(|e| {
                ApiError::internal(format!("{name} chose an action that cannot be played: {e}"))
            })?;
            moves.push(self.apply(action, value)?);
        }
        Ok(moves)
    }

    /// Plays a checked action into the record.
    fn apply(&mut self, action: Action, value: Option<f32>) -> Result<MoveView, ApiError> {
        let mut state = self.state().clone();
        let before = state.clone();
        self.record
            .play(&self.rules, &mut state, action)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        if self.record.actions.len() >= MAX_PLIES && !self.rules.is_terminal(&state) {
            self.record.finish(&self.rules, &state, true);
        }
        self.states.push(state);
        let index = self.record.actions.len() - 1;
        Ok(MoveView {
            index: index + 1,
            mover: self.record.movers[index],
            action,
            name: self.rules.action_name(&before, action),
            value,
        })
    }

    /// The view of the position after `ply` actions (the last one when `None`).
    pub fn view(
        &self,
        id: u64,
        ply: Option<usize>,
        last: Vec<MoveView>,
    ) -> Result<GameView, ApiError> {
        let plies = self.record.actions.len();
        let ply = ply.unwrap_or(plies);
        let state = self.states.get(ply).ok_or_else(|| {
            ApiError::bad_request(format!(
                "ply {ply} is beyond this game's {plies} moves (expected 0..={plies})"
            ))
        })?;
        let rules = &self.rules;
        let to_play = if ply == plies && self.is_over() {
            None
        } else {
            rules.to_play(state)
        };
        let playable = ply == plies
            && !self.review
            && to_play.is_some_and(|p| matches!(self.seats[p.index()], Seat::Human));
        let legal = if playable {
            rules
                .legal_actions(state)
                .into_iter()
                .map(|a| ActionView {
                    action: a,
                    name: rules.action_name(state, a),
                    pit: rules.action_pit(state, a),
                })
                .collect()
        } else {
            Vec::new()
        };
        let result = (ply == plies)
            .then_some(self.record.outcome.as_ref())
            .flatten()
            .map(|o| ResultView::new(o, &self.record.seats));
        let view_seat = self.bottom_seat();
        Ok(GameView {
            id,
            variant: rules.id(),
            options: rules.options(),
            seats: [0, 1].map(|i| SeatView {
                name: self.record.seats[i].clone(),
                human: matches!(self.seats[i], Seat::Human),
            }),
            review: self.review,
            ply,
            plies,
            to_play,
            board: rules.snapshot(state),
            scores: rules.scores(state),
            round: rules.round(state),
            result,
            legal,
            layout: Layout::of(rules, view_seat),
            text: rules.render_from(state, view_seat),
            notation: rules.notation(state),
            last,
        })
    }

    /// The seat drawn at the bottom: the person's when one person plays, else South.
    fn bottom_seat(&self) -> Player {
        match (&self.seats[0], &self.seats[1]) {
            (Seat::Agent(_), Seat::Human) => Player::North,
            _ => Player::South,
        }
    }

    /// "Display Runs": the start board and the board after every move.
    pub fn runs(&self) -> RunsView {
        let rules = &self.rules;
        let drops = self.record.drops.as_deref().unwrap_or_default();
        let mut turn = 0;
        let moves = self
            .record
            .actions
            .iter()
            .enumerate()
            .map(|(i, &action)| {
                let before = &self.states[i];
                let after = &self.states[i + 1];
                let continued = rules.continues_turn(before);
                if !continued {
                    turn += 1;
                }
                let board = rules.snapshot(after);
                let origin = rules.action_pit(before, action);
                let mut events = changes(rules, &rules.snapshot(before), &board, origin, false);
                events.extend(round_and_end(rules, before, after));
                RunView {
                    index: i + 1,
                    turn,
                    continued,
                    mover: self.record.movers[i],
                    action,
                    name: rules.action_name(before, action),
                    board,
                    scores: rules.scores(after),
                    round: rules.round(after),
                    events,
                    drops: drops.get(i).map_or(0, Vec::len),
                }
            })
            .collect();
        RunsView {
            id_variant: rules.id(),
            seats: self.record.seats.clone(),
            start: rules.snapshot(&self.states[0]),
            layout: Layout::of(rules, self.bottom_seat()),
            moves,
        }
    }

    /// "Show Runs in Detail": the board before move `index` (1-based), after each single drop,
    /// and after the move when the move's end changed it further (captures, round ends).
    pub fn drops(&self, index: usize) -> Result<DropsView, ApiError> {
        let plies = self.record.actions.len();
        if index == 0 || index > plies {
            return Err(ApiError::bad_request(format!(
                "move {index} does not exist: this game has moves 1..={plies}"
            )));
        }
        let rules = &self.rules;
        let i = index - 1;
        let before_state = &self.states[i];
        let after_state = &self.states[index];
        let before = rules.snapshot(before_state);
        let after = rules.snapshot(after_state);
        let recorded = self
            .record
            .drops
            .as_ref()
            .and_then(|d| d.get(i))
            .cloned()
            .unwrap_or_default();
        let mut steps = Vec::with_capacity(recorded.len() + 1);
        let mut prev = before.clone();
        let origin = rules.action_pit(before_state, self.record.actions[i]);
        for (k, board) in recorded.into_iter().enumerate() {
            let events = if k == 0 {
                changes(rules, &prev, &board, origin, false)
            } else {
                changes(rules, &prev, &board, None, true)
            };
            prev = board.clone();
            steps.push(DropStep {
                board,
                events,
                end: false,
            });
        }
        let mut end_events = round_and_end(rules, before_state, after_state);
        if after != prev || !end_events.is_empty() {
            let mut events = changes(rules, &prev, &after, None, false);
            events.append(&mut end_events);
            steps.push(DropStep {
                board: after.clone(),
                events,
                end: true,
            });
        }
        Ok(DropsView {
            index,
            mover: self.record.movers[i],
            action: self.record.actions[i],
            name: rules.action_name(before_state, self.record.actions[i]),
            before,
            steps,
            layout: Layout::of(rules, self.bottom_seat()),
        })
    }
}

/// What changed from `a` to `b`, as the boards show it: seeds taken into a store, seeds lifted
/// again while sowing (with `relays`: a relay, or Yao's spreading on and taking), houses
/// changing hands. `origin`, the pit the move was lifted from, is no pit taken from.
fn changes(
    rules: &Variant,
    a: &Snapshot,
    b: &Snapshot,
    origin: Option<usize>,
    relays: bool,
) -> Vec<Event> {
    let mut events = Vec::new();
    let labels = pit_labels(rules);
    let fell: Vec<usize> = (0..a.pits.len().min(b.pits.len()))
        .filter(|&i| b.pits[i] < a.pits[i] && Some(i) != origin)
        .collect();
    let pits_text = |pits: &[usize]| {
        pits.iter()
            .map(|&i| labels[i].clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let groups = a.owners.is_some();
    for p in Player::BOTH {
        let gained = b.stores[p.index()].saturating_sub(a.stores[p.index()]);
        if gained > 0 {
            // The fours games' stores hold the seeds of the groups taken, four each.
            let what = if groups {
                let fours = gained / 4;
                format!(
                    "{fours} four{} ({gained} seeds)",
                    if fours == 1 { "" } else { "s" }
                )
            } else {
                format!("{gained} seed{}", if gained == 1 { "" } else { "s" })
            };
            events.push(Event {
                kind: if groups { "four" } else { "capture" },
                text: format!("{p:?} takes {what} from {}", pits_text(&fell)),
                pits: fell.clone(),
            });
        }
    }
    if relays && b.in_hand > a.in_hand && !fell.is_empty() {
        events.push(Event {
            kind: "relay",
            text: format!("lifts {} from {} and sows on", b.in_hand, pits_text(&fell)),
            pits: fell.clone(),
        });
    }
    if let (Some(oa), Some(ob)) = (&a.owners, &b.owners) {
        let moved: Vec<usize> = (0..oa.len().min(ob.len()))
            .filter(|&i| oa[i] != ob[i])
            .collect();
        if !moved.is_empty() {
            events.push(Event {
                kind: "houses",
                text: format!("houses change hands: {}", pits_text(&moved)),
                pits: moved,
            });
        }
    }
    events
}

/// A new round or the end of the game between two states.
fn round_and_end(rules: &Variant, before: &VariantState, after: &VariantState) -> Vec<Event> {
    let mut events = Vec::new();
    let (r0, r1) = (rules.round(before), rules.round(after));
    if r1 != r0 {
        events.push(Event {
            kind: "round",
            text: format!("round {r0} ends; round {r1} begins"),
            pits: Vec::new(),
        });
    }
    if rules.is_terminal(after) {
        let [s, n] = rules.scores(after);
        events.push(Event {
            kind: "end",
            text: format!("game over: South {s}, North {n}"),
            pits: Vec::new(),
        });
    }
    events
}

/// A legal action, with its name and the pit it begins at (where the page puts it).
#[derive(Clone, Debug, Serialize)]
pub struct ActionView {
    pub action: Action,
    pub name: String,
    pub pit: Option<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub name: String,
    pub human: bool,
}

/// A move just played.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// 1-based number of the move in the record.
    pub index: usize,
    pub mover: Player,
    pub action: Action,
    pub name: String,
    /// The agent's value estimate of its move, from its own view, when it has one.
    pub value: Option<f32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    pub scores: [i32; 2],
    pub returns: [f32; 2],
    pub winner: Option<Player>,
    pub truncated: bool,
    pub text: String,
}

impl ResultView {
    fn new(o: &ayo_env::Outcome, seats: &[String; 2]) -> ResultView {
        let winner = if o.returns[0] > o.returns[1] {
            Some(Player::South)
        } else if o.returns[1] > o.returns[0] {
            Some(Player::North)
        } else {
            None
        };
        let verdict = match winner {
            Some(p) => format!("{p:?} ({}) wins", seats[p.index()]),
            None => "draw".to_string(),
        };
        let cut = if o.truncated {
            ", cut by the ply cap"
        } else {
            ""
        };
        ResultView {
            scores: o.scores,
            returns: o.returns,
            winner,
            truncated: o.truncated,
            text: format!(
                "Game over: South {}, North {} — {verdict}{cut}",
                o.scores[0], o.scores[1]
            ),
        }
    }
}

/// The position after some ply of a game, as the page draws it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub id: u64,
    pub variant: String,
    pub options: Vec<(String, String)>,
    pub seats: [SeatView; 2],
    pub review: bool,
    /// The position shown: after this many actions.
    pub ply: usize,
    /// Actions in the game so far.
    pub plies: usize,
    pub to_play: Option<Player>,
    pub board: Snapshot,
    pub scores: [i32; 2],
    pub round: u32,
    pub result: Option<ResultView>,
    /// The actions a person may play now (empty when it is not a person's turn).
    pub legal: Vec<ActionView>,
    pub layout: Layout,
    /// The board as `ayo play` draws it.
    pub text: String,
    pub notation: String,
    /// The moves the request played (the person's and the agents' answers).
    pub last: Vec<MoveView>,
}

/// Something the boards show happening.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    /// `capture`, `four`, `relay`, `houses`, `round` or `end`.
    pub kind: &'static str,
    pub text: String,
    /// The pits it concerns.
    pub pits: Vec<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunView {
    pub index: usize,
    /// The turn the move belongs to (several moves of one turn in Yao).
    pub turn: usize,
    pub continued: bool,
    pub mover: Player,
    pub action: Action,
    pub name: String,
    pub board: Snapshot,
    pub scores: [i32; 2],
    pub round: u32,
    pub events: Vec<Event>,
    /// Single drops recorded for the move.
    pub drops: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunsView {
    pub id_variant: String,
    pub seats: [String; 2],
    pub start: Snapshot,
    pub layout: Layout,
    pub moves: Vec<RunView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct DropStep {
    pub board: Snapshot,
    pub events: Vec<Event>,
    /// The board after the move's end (captures taken, a round ended), not after a drop.
    pub end: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct DropsView {
    pub index: usize,
    pub mover: Player,
    pub action: Action,
    pub name: String,
    pub before: Snapshot,
    pub steps: Vec<DropStep>,
    pub layout: Layout,
}
