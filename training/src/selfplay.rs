//! Self-play: many games at once, one batched Gumbel search per move for all of them, and the
//! finished games turned into training positions.
//!
//! Targets (docs/search.md section 5): the policy target is the search's improved policy `pi'`; the
//! value target is the game's result from the view of the player to move at that decision (a
//! multi-decision turn gives one position per decision, each from its mover's view); the
//! auxiliary score target is the final seed difference from the mover's view over half the
//! seeds. A game cut by the ply cap gives no value or score targets (with `cut_draw`, a
//! draw's). With `round_share`, a share of the whole matches of the fours games ends with its
//! first round, valued by that round's result; with `round_score`, a whole match's decisions
//! get their own round's house difference as the score target instead of the match's last
//! round's.
//!
//! With `opponents` (a share of the games, `opponent_share`), a baseline agent takes one seat
//! of a game: only the network's decisions become training positions, and their value target is
//! the result against that agent.
//!
//! With a `teacher` (a share of the network's decisions, `teacher_share`), a baseline agent
//! chooses a move in the position the network has just searched, and that move, one-hot, is the
//! decision's policy target instead of the search's: expert iteration with a fixed expert. The
//! game goes on with the network's move.

use crate::agent::NetEvaluator;
use crate::config::TrainConfig;
use crate::net::Net;
use crate::replay::Sample;
use crate::search::{gumbel_search, SearchParams, SearchResult};
use ayo_env::arena::agents::{self, AgentSpecError};
use ayo_env::rules::round_share;
use ayo_env::{Action, Agent, Player, Rules, Variant, VariantState};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::sync::mpsc::{channel, sync_channel, Receiver, SyncSender};
use std::thread::JoinHandle;

/// One decision of a game in progress, waiting for the game's result.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Decision {
    obs: Vec<f32>,
    policy: Vec<f32>,
    mask: u64,
    mover: Player,
    full: bool,
    /// The search's value of the position, from the mover's view.
    #[serde(default)]
    root_value: f32,
    /// Plies played in the game before this decision (the random opening included).
    #[serde(default)]
    ply: u32,
}

/// The seat an opponent agent takes in a self-play game ([`SelfPlay::configure`]).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct Opponent {
    seat: Player,
    /// Which of the run's opponents.
    agent: usize,
}

/// A game in progress. The state is rebuilt from the actions when a run resumes.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Slot {
    first: Player,
    /// Which start position (`Rules::training_start`); 0 is the ordinary start.
    #[serde(default)]
    variety: u64,
    /// How many of the first `actions` were random opening plies (no training positions).
    #[serde(default)]
    opening: u32,
    actions: Vec<Action>,
    decisions: Vec<Decision>,
    /// The opponent agent of this game, if one plays a seat.
    #[serde(default)]
    opponent: Option<Opponent>,
    /// The round the game began in (after its opening).
    #[serde(default)]
    round: u32,
    /// The game ends with the round it began in (`round_share`).
    #[serde(default)]
    round_only: bool,
    /// The rounds of a whole match that have ended so far, with `round_score`.
    #[serde(default)]
    round_ends: Vec<RoundEnd>,
    #[serde(skip)]
    state: Option<VariantState>,
}

/// A round of a whole match that ended before the match did (`round_score`).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
struct RoundEnd {
    /// Plies played when it ended: the decisions before belong to it or to earlier rounds.
    ply: u32,
    /// Its score target for each seat ([`round_score`]).
    score: [f32; 2],
}

impl Slot {
    /// Plays `action`, noting the round it ends, if any, when `track_rounds`.
    fn play(&mut self, rules: &Variant, action: Action, track_rounds: bool) {
        let state = self.state.as_mut().expect("restored");
        let round = rules.round(state);
        rules.play_unchecked(state, action);
        self.actions.push(action);
        if track_rounds && !rules.is_terminal(state) && rules.round(state) != round {
            self.round_ends.push(RoundEnd {
                ply: self.actions.len() as u32,
                score: round_score(rules, state),
            });
        }
    }
}

/// What one self-play step produced.
#[derive(Default)]
pub struct StepReport {
    /// Positions searched (one per game in progress).
    pub positions: usize,
    /// Leaf evaluations of the network.
    pub evaluations: u64,
    /// Training positions of the games that ended.
    pub samples: Vec<Sample>,
    /// Lengths in plies of the games that ended, random opening plies not counted.
    pub game_lengths: Vec<u32>,
    /// Results of the games that ended from the first mover's view.
    pub first_mover_returns: Vec<f32>,
    /// The network's scores (1 a win, ½ a draw, 0 a loss) in the games against an opponent
    /// agent that ended (cut games not counted; with `cut_draw`, counted as draws).
    pub opponent_scores: Vec<f32>,
}

/// A batch of self-play games.
#[derive(Serialize, Deserialize)]
pub struct SelfPlay {
    slots: Vec<Slot>,
    rng: ChaCha8Rng,
    /// Games finished so far.
    pub games: u64,
    /// Positions searched so far.
    pub positions: u64,
    /// New games begin at the variant's varied training starts (later rounds of round-based
    /// variants) rather than always at the ordinary start.
    #[serde(default)]
    pub varied_starts: bool,
    /// New games begin with up to this many uniformly random plies (the number drawn per game).
    #[serde(default)]
    pub opening_plies: u32,
    /// Agents that take one seat of a share of the games ([`SelfPlay::configure`]).
    #[serde(skip)]
    opponents: Vec<Box<dyn Agent>>,
    /// Their random streams, saved with the run so that a resumed run goes on exactly.
    #[serde(default)]
    opponent_streams: Vec<Option<u64>>,
    /// The agent whose moves are the policy targets of a share of the decisions.
    #[serde(skip)]
    teacher: Option<Box<dyn Agent>>,
    /// Its random stream, saved as the opponents' are.
    #[serde(default)]
    teacher_stream: Option<u64>,
    /// The teacher on its own thread (`teacher_async`; `teacher` is then None).
    #[serde(skip)]
    teacher_thread: Option<TeacherThread>,
    /// Positions the asynchronous teacher has labelled so far.
    #[serde(default)]
    pub taught: u64,
    /// The game that finished last, off which new games branch (`branch_share`).
    #[serde(default)]
    branch_source: Option<BranchSource>,
}

/// A teacher on a thread of its own (`teacher_async`): it labels the positions offered to it
/// with its move while self-play goes on, and hands back each as a policy-only sample.
struct TeacherThread {
    /// Positions to label (the state, the network's input and the legal mask); a full queue
    /// refuses an offer rather than hold self-play up. None once closing.
    offers: Option<SyncSender<(VariantState, Vec<f32>, u64)>>,
    labelled: Receiver<Sample>,
    worker: Option<JoinHandle<()>>,
}

impl TeacherThread {
    fn start(rules: &Variant, mut teacher: Box<dyn Agent>) -> Self {
        let actions = rules.num_actions();
        let (offers, jobs) = sync_channel::<(VariantState, Vec<f32>, u64)>(4);
        let (labels, labelled) = channel();
        let rules = rules.clone();
        let worker = std::thread::spawn(move || {
            for (state, obs, mask) in jobs {
                let mut policy = vec![0.0; actions];
                policy[teacher.choose(&rules, &state).0 as usize] = 1.0;
                let sample = Sample {
                    obs,
                    policy,
                    mask,
                    value: 0.0,
                    score: 0.0,
                    policy_weight: 1.0,
                    value_weight: 0.0,
                };
                if labels.send(sample).is_err() {
                    break;
                }
            }
        });
        TeacherThread {
            offers: Some(offers),
            labelled,
            worker: Some(worker),
        }
    }

    /// Offers a position; dropped if the teacher is still busy with earlier ones.
    fn offer(&self, state: &VariantState, obs: &[f32], mask: u64) {
        if let Some(offers) = &self.offers {
            let _ = offers.try_send((state.clone(), obs.to_vec(), mask));
        }
    }
}

impl Drop for TeacherThread {
    fn drop(&mut self) {
        self.offers = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// A finished game as far as a branch off it needs it: its start and its plies.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct BranchSource {
    first: Player,
    variety: u64,
    /// Its random opening plies (a branch begins after them).
    opening: u32,
    actions: Vec<Action>,
}

impl SelfPlay {
    /// `games` games at once; each new game starts at a varied training start if
    /// `varied_starts`, then plays up to `opening_plies` random plies.
    pub fn new(
        rules: &Variant,
        games: usize,
        seed: u64,
        varied_starts: bool,
        opening_plies: u32,
    ) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let slots = (0..games)
            .map(|_| new_slot(rules, varied_starts, opening_plies, &mut rng))
            .collect();
        SelfPlay {
            slots,
            rng,
            games: 0,
            positions: 0,
            varied_starts,
            opening_plies,
            opponents: Vec::new(),
            opponent_streams: Vec::new(),
            teacher: None,
            teacher_stream: None,
            teacher_thread: None,
            taught: 0,
            branch_source: None,
        }
    }

    /// Lets the agents of `cfg.opponents` take a random seat in `cfg.opponent_share` of the
    /// games, and ends `cfg.round_share` of them with their first round (before the first step,
    /// also the games already set up); sets up `cfg.teacher`. A resumed run (same config) gets
    /// its opponents and teacher back as they were.
    pub fn configure(&mut self, cfg: &TrainConfig, seed: u64) -> Result<(), AgentSpecError> {
        self.opponents = cfg
            .opponent_specs()
            .iter()
            .enumerate()
            .map(|(i, spec)| agents::parse(spec, seed ^ (0x0990 + i as u64)))
            .collect::<Result<_, _>>()?;
        if self.opponent_streams.len() == self.opponents.len() {
            for (agent, stream) in self.opponents.iter_mut().zip(&self.opponent_streams) {
                if let Some(stream) = stream {
                    agent.set_random_state(*stream);
                }
            }
        }
        self.teacher = match cfg.teacher_spec() {
            None => None,
            Some(spec) => {
                let mut agent = agents::parse(spec, seed ^ 0x7eac)?;
                if let Some(stream) = self.teacher_stream {
                    agent.set_random_state(stream);
                }
                Some(agent)
            }
        };
        self.teacher_thread = None;
        if cfg.teacher_async {
            if let Some(agent) = self.teacher.take() {
                let rules = cfg.rules().expect("a validated config");
                self.teacher_thread = Some(TeacherThread::start(&rules, agent));
            }
        }
        if self.positions == 0 {
            for i in 0..self.slots.len() {
                self.slots[i].opponent = self.draw_opponent(cfg.opponent_share);
                self.slots[i].round_only = self.draw_round_only(cfg.round_share);
            }
        }
        Ok(())
    }

    /// An opponent agent in a random seat, in `share` of the calls.
    fn draw_opponent(&mut self, share: f64) -> Option<Opponent> {
        (!self.opponents.is_empty() && self.rng.gen::<f64>() < share).then(|| Opponent {
            seat: *[Player::South, Player::North]
                .choose(&mut self.rng)
                .unwrap(),
            agent: self.rng.gen_range(0..self.opponents.len()),
        })
    }

    /// True in `share` of the calls: the game ends with the round it begins in.
    fn draw_round_only(&mut self, share: f64) -> bool {
        share > 0.0 && self.rng.gen::<f64>() < share
    }

    /// A new game ([`new_slot`], or in `cfg.branch_share` of them [`branch_slot`] off the game
    /// that finished last), with an opponent agent in a random seat in `cfg.opponent_share` of
    /// them, ending with its first round in `cfg.round_share`.
    fn begin(&mut self, rules: &Variant, cfg: &TrainConfig) -> Slot {
        let branch = match &self.branch_source {
            Some(source) if cfg.branch_share > 0.0 && self.rng.gen::<f64>() < cfg.branch_share => {
                branch_slot(rules, source, &mut self.rng)
            }
            _ => None,
        };
        let mut slot = branch.unwrap_or_else(|| {
            new_slot(rules, self.varied_starts, self.opening_plies, &mut self.rng)
        });
        slot.opponent = self.draw_opponent(cfg.opponent_share);
        slot.round_only = self.draw_round_only(cfg.round_share);
        slot
    }

    /// Rebuilds the states of the games in progress (after deserialising).
    pub fn restore(&mut self, rules: &Variant) {
        for slot in &mut self.slots {
            slot.state = Some(replay(rules, slot.first, slot.variety, &slot.actions));
        }
    }

    /// One move in every game; finished games are replaced by new ones.
    ///
    /// With a `helper` (a copy of `net`), the games are split in two halves searched at once on
    /// two threads, each half's leaves in one forward pass of its own network copy.
    pub fn step(
        &mut self,
        rules: &Variant,
        net: &Net,
        helper: Option<&mut Net>,
        cfg: &TrainConfig,
    ) -> StepReport {
        let params = cfg.search_params();
        let sims: Vec<u32> = self
            .slots
            .iter()
            .map(|_| {
                if cfg.fast_simulations > 0 && self.rng.gen::<f64>() >= cfg.full_search_prob {
                    cfg.fast_simulations
                } else {
                    cfg.simulations
                }
            })
            .collect();
        // The opponents move in their games; the network searches the rest.
        let mut opponent_moves: Vec<Option<Action>> = Vec::with_capacity(self.slots.len());
        for slot in &self.slots {
            let state = slot.state.as_ref().expect("restored");
            opponent_moves.push(match slot.opponent {
                Some(o) if rules.to_play(state) == Some(o.seat) => {
                    Some(self.opponents[o.agent].choose(rules, state).0)
                }
                _ => None,
            });
        }
        let searched: Vec<usize> = (0..self.slots.len())
            .filter(|&i| opponent_moves[i].is_none())
            .collect();
        let states: Vec<&VariantState> = searched
            .iter()
            .map(|&i| self.slots[i].state.as_ref().expect("restored"))
            .collect();
        let searched_sims: Vec<u32> = searched.iter().map(|&i| sims[i]).collect();
        let (results, evaluations) = if states.is_empty() {
            (Vec::new(), 0)
        } else {
            search_parallel(
                rules,
                &states,
                &searched_sims,
                &params,
                net,
                helper,
                &mut self.rng,
            )
        };
        drop(states);
        let mut report = StepReport {
            positions: searched.len(),
            evaluations,
            ..Default::default()
        };
        let shape = net.shape;
        let mut obs = vec![0.0; shape.inputs];
        let mut results = results.into_iter();
        for (i, opponent_move) in opponent_moves.into_iter().enumerate() {
            let slot = &mut self.slots[i];
            let state = slot.state.as_ref().expect("restored");
            let action = match opponent_move {
                Some(a) => a,
                None => {
                    let mut r = results.next().expect("one search result per searched game");
                    shape.encode(rules, state, &mut obs);
                    let action = if (slot.actions.len() as u32) < slot.opening + cfg.sample_plies {
                        sample_from(&r.policy, &mut self.rng)
                    } else {
                        r.action
                    };
                    let mut full = sims[i] == cfg.simulations;
                    if let Some(teacher) = self.teacher.as_mut() {
                        if self.rng.gen::<f64>() < cfg.teacher_share {
                            let taught = teacher.choose(rules, state).0;
                            r.policy.fill(0.0);
                            r.policy[taught as usize] = 1.0;
                            full = true;
                        }
                    }
                    let mask = rules.legal_mask(state).0;
                    if let Some(teacher) = &self.teacher_thread {
                        if self.rng.gen::<f64>() < cfg.teacher_share {
                            teacher.offer(state, &obs, mask);
                        }
                    }
                    slot.decisions.push(Decision {
                        obs: obs.clone(),
                        policy: r.policy,
                        mask,
                        mover: rules.to_play(state).expect("live game"),
                        full,
                        root_value: r.value,
                        ply: slot.actions.len() as u32,
                    });
                    action
                }
            };
            slot.play(rules, action, cfg.round_score && !slot.round_only);
            let state = slot.state.as_ref().expect("restored");
            let end = if rules.is_terminal(state) {
                End::Game
            } else if slot.round_only && rules.round(state) != slot.round {
                End::Round
            } else if slot.actions.len() as u32 >= cfg.max_plies {
                End::Cut
            } else {
                continue;
            };
            finish(
                rules,
                slot,
                end,
                ValueTarget {
                    q: cfg.value_target_q as f32,
                    discount: cfg.value_discount as f32,
                    cut_draw: cfg.cut_draw,
                },
                &mut report,
            );
            if cfg.branch_share > 0.0 {
                let done = &self.slots[i];
                self.branch_source = Some(BranchSource {
                    first: done.first,
                    variety: done.variety,
                    opening: done.opening,
                    actions: done.actions.clone(),
                });
            }
            self.slots[i] = self.begin(rules, cfg);
            self.games += 1;
        }
        if !self.opponents.is_empty() {
            self.opponent_streams = self.opponents.iter().map(|a| a.random_state()).collect();
        }
        if let Some(teacher) = &self.teacher {
            self.teacher_stream = teacher.random_state();
        }
        if let Some(teacher) = &self.teacher_thread {
            let before = report.samples.len();
            report.samples.extend(teacher.labelled.try_iter());
            self.taught += (report.samples.len() - before) as u64;
        }
        self.positions += report.positions as u64;
        report
    }
}

/// Searches `states` with `net`, or, given a `helper` copy of the network, the first half with
/// `net` and the second half with `helper` on a second thread (both cores busy; each half's
/// leaves still go through one forward pass per simulation). The second half's noise comes from
/// a generator seeded from `rng`, so the results are reproducible. Returns the results in the
/// order of `states` and the number of leaf evaluations.
pub fn search_parallel(
    rules: &Variant,
    states: &[&VariantState],
    sims: &[u32],
    params: &SearchParams,
    net: &Net,
    helper: Option<&mut Net>,
    rng: &mut ChaCha8Rng,
) -> (Vec<SearchResult>, u64) {
    let Some(helper) = helper.filter(|_| states.len() >= 2) else {
        let mut evaluator = NetEvaluator::new(net, rules);
        let results = gumbel_search(rules, states, sims, params, &mut evaluator, rng);
        return (results, evaluator.evaluations);
    };
    let mid = states.len() / 2;
    let (states_a, states_b) = states.split_at(mid);
    let (sims_a, sims_b) = sims.split_at(mid);
    let mut rng_b = ChaCha8Rng::seed_from_u64(rng.gen());
    // OpenMP's thread count is per calling thread: the new thread must be told too, or it
    // spins up one OpenMP worker per core and oversubscribes them.
    let torch_threads = tch::get_num_threads();
    std::thread::scope(|scope| {
        let other = scope.spawn(move || {
            tch::set_num_threads(torch_threads);
            let mut evaluator = NetEvaluator::new(&*helper, rules);
            let results =
                gumbel_search(rules, states_b, sims_b, params, &mut evaluator, &mut rng_b);
            (results, evaluator.evaluations)
        });
        let mut evaluator = NetEvaluator::new(net, rules);
        let mut results = gumbel_search(rules, states_a, sims_a, params, &mut evaluator, rng);
        let (rest, evaluations) = other.join().expect("the search thread does not panic");
        results.extend(rest);
        (results, evaluator.evaluations + evaluations)
    })
}

/// A new game: a random first player, a varied start if `varied_starts`, then a number of
/// uniformly random plies drawn from `0..=opening_plies` (fewer if the game would end: a
/// random opening never finishes a game).
fn new_slot(
    rules: &Variant,
    varied_starts: bool,
    opening_plies: u32,
    rng: &mut ChaCha8Rng,
) -> Slot {
    let first = *[Player::South, Player::North].choose(rng).unwrap();
    let variety = if varied_starts { rng.gen() } else { 0 };
    let mut state = rules.training_start(first, variety);
    let mut actions = Vec::new();
    if opening_plies > 0 {
        for _ in 0..rng.gen_range(0..=opening_plies) {
            if !random_ply(rules, &mut state, &mut actions, rng) {
                break;
            }
        }
    }
    opened_slot(rules, first, variety, state, actions)
}

/// A branch game (`branch_share`): `source`'s position after a uniformly drawn number of its
/// plies past its random opening (before its last, so the game is live), then one uniformly
/// random ply unless it would end the game. None if `source` has no such position.
fn branch_slot(rules: &Variant, source: &BranchSource, rng: &mut ChaCha8Rng) -> Option<Slot> {
    let plies = source.opening as usize..source.actions.len();
    if plies.is_empty() {
        return None;
    }
    let mut actions = source.actions[..rng.gen_range(plies)].to_vec();
    let mut state = replay(rules, source.first, source.variety, &actions);
    random_ply(rules, &mut state, &mut actions, rng);
    Some(opened_slot(
        rules,
        source.first,
        source.variety,
        state,
        actions,
    ))
}

/// The state that `actions` lead to from the start (`first`, `variety`).
fn replay(rules: &Variant, first: Player, variety: u64, actions: &[Action]) -> VariantState {
    let mut state = rules.training_start(first, variety);
    for &a in actions {
        rules.play_unchecked(&mut state, a);
    }
    state
}

/// Plays a uniformly random legal ply in the live `state` and notes it in `actions`, unless it
/// would end the game (then nothing changes and false is returned).
fn random_ply(
    rules: &Variant,
    state: &mut VariantState,
    actions: &mut Vec<Action>,
    rng: &mut ChaCha8Rng,
) -> bool {
    let mask = rules.legal_mask(state);
    let a = mask.nth(rng.gen_range(0..mask.count())).expect("live game");
    let mut next = state.clone();
    rules.play_unchecked(&mut next, a);
    if rules.is_terminal(&next) {
        return false;
    }
    *state = next;
    actions.push(a);
    true
}

/// A game about to begin at `state`, reached from the start (`first`, `variety`) by `actions`,
/// all of them opening plies (no training positions).
fn opened_slot(
    rules: &Variant,
    first: Player,
    variety: u64,
    state: VariantState,
    actions: Vec<Action>,
) -> Slot {
    Slot {
        first,
        variety,
        round: rules.round(&state),
        round_only: false,
        round_ends: Vec::new(),
        opening: actions.len() as u32,
        actions,
        decisions: Vec::new(),
        opponent: None,
        state: Some(state),
    }
}

/// An action drawn in proportion to `policy`.
fn sample_from(policy: &[f32], rng: &mut impl Rng) -> Action {
    let total: f32 = policy.iter().sum();
    let mut x = rng.gen::<f32>() * total;
    let mut last = 0;
    for (a, &p) in policy.iter().enumerate() {
        if p > 0.0 {
            last = a;
            if x < p {
                return a as Action;
            }
            x -= p;
        }
    }
    last as Action
}

/// How a decision's value target is made from the game's result and the search's value.
#[derive(Clone, Copy, Debug)]
struct ValueTarget {
    /// Share of the search's root value in the target (the rest is the game's result).
    q: f32,
    /// Factor per ply between the decision and the game's end by which the result counts: a win
    /// reached sooner is worth more, a loss put off is worth less (1 = the result as it is).
    discount: f32,
    /// A cut game is valued as a draw (`cut_draw`) rather than not at all.
    cut_draw: bool,
}

/// Why a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The game is over.
    Game,
    /// The round it began in is over (a game that ends with its round, `round_share`).
    Round,
    /// The ply cap cut it: no value targets, or a draw's (`cut_draw`).
    Cut,
}

/// Each seat's result and score target where a game stopped. A game over or cut: its returns,
/// and the seed (group) difference over half the seeds. A round over ([`End::Round`]; the
/// state is the next round's start): read as the baseline MCTS reads a round's end,
/// [`round_share`] (7 houses to 5 is 1/6, 12 to none 1); the result is its sign, the score
/// target half of it, the scale of a whole match's last round (12 groups to none, ½).
fn outcome(rules: &Variant, state: &VariantState, end: End) -> ([f32; 2], [f32; 2]) {
    if end != End::Round {
        return (
            rules.returns(state),
            crate::search::final_score(rules, state),
        );
    }
    let score = round_score(rules, state);
    let d = match score[0] {
        x if x > 0.0 => 1.0,
        x if x < 0.0 => -1.0,
        _ => 0.0,
    };
    ([d, -d], score)
}

/// Each seat's score target of a round that has just ended, read at the next round's start `s`:
/// half its [`round_share`], the scale of a whole match's last round (12 groups to none, ½).
fn round_score(rules: &Variant, s: &VariantState) -> [f32; 2] {
    let score = (round_share(rules, s, rules.heuristic_bound() as f32) / 2.0).clamp(-1.0, 1.0);
    [score, -score]
}

/// Turns a stopped game's decisions into samples (value targets as `target` says; the score
/// target of a decision in a round that ended before the game did is that round's).
fn finish(
    rules: &Variant,
    slot: &mut Slot,
    end: End,
    target: ValueTarget,
    report: &mut StepReport,
) {
    let state = slot.state.as_ref().expect("restored");
    let (returns, scores) = outcome(rules, state, end);
    let valued = end != End::Cut || target.cut_draw;
    let end = slot.actions.len() as u32;
    let ValueTarget { q, discount, .. } = target;
    let mut rounds = slot.round_ends.drain(..).peekable();
    for d in slot.decisions.drain(..) {
        let m = d.mover.index();
        while rounds.next_if(|r| r.ply <= d.ply).is_some() {}
        let score = rounds.peek().map_or(scores, |r| r.score);
        let result = returns[m] * discount.powi(end.saturating_sub(d.ply + 1) as i32);
        report.samples.push(Sample {
            obs: d.obs,
            policy: d.policy,
            mask: d.mask,
            value: (1.0 - q) * result + q * d.root_value,
            score: score[m],
            policy_weight: if d.full { 1.0 } else { 0.0 },
            value_weight: if valued { 1.0 } else { 0.0 },
        });
    }
    if let (Some(o), true) = (slot.opponent, valued) {
        report
            .opponent_scores
            .push((1.0 - returns[o.seat.index()]) / 2.0);
    }
    report
        .game_lengths
        .push(slot.actions.len() as u32 - slot.opening);
    report.first_mover_returns.push(returns[slot.first.index()]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::NetShape;

    /// A network of `cfg`'s shape at width 8: fast, untrained self-play for the tests.
    fn tiny_net(cfg: &TrainConfig) -> Net {
        let shape = cfg.net_shape().unwrap();
        Net::new(NetShape { width: 8, ..shape }, tch::Device::Cpu)
    }

    #[test]
    fn games_end_and_give_targets_from_the_movers_view() {
        let rules: Variant = "oware".parse().unwrap();
        let cfg = TrainConfig {
            games: 8,
            simulations: 4,
            max_plies: 60,
            ..Default::default()
        };
        let shape = cfg.net_shape().unwrap();
        let net = Net::new(NetShape { width: 16, ..shape }, tch::Device::Cpu);
        let mut sp = SelfPlay::new(&rules, cfg.games, 3, true, 0);
        let mut samples = Vec::new();
        let mut plies = 0;
        for _ in 0..60 {
            let r = sp.step(&rules, &net, None, &cfg);
            plies += r.game_lengths.iter().sum::<u32>();
            samples.extend(r.samples);
        }
        assert!(sp.games >= 8, "every game is cut at 60 plies at the latest");
        assert_eq!(samples.len(), plies as usize, "one position per decision");
        for s in &samples {
            assert!((s.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            for a in 0..6 {
                assert!(
                    s.mask >> a & 1 == 1 || s.policy[a] == 0.0,
                    "policy on an illegal action"
                );
            }
            if s.value_weight == 0.0 {
                continue;
            }
            assert!(
                s.value == 0.0 || s.value.signum() == s.score.signum(),
                "result and score agree"
            );
        }
    }

    #[test]
    fn random_openings_vary_the_games_and_give_no_positions() {
        let rules: Variant = "jodu".parse().unwrap();
        let cfg = TrainConfig {
            variant: "jodu".into(),
            games: 16,
            simulations: 2,
            sample_plies: 0,
            max_plies: 200,
            opening_plies: 6,
            ..Default::default()
        };
        let net = tiny_net(&cfg);
        let mut sp = SelfPlay::new(&rules, cfg.games, 5, false, cfg.opening_plies);
        let openings: Vec<u32> = sp.slots.iter().map(|s| s.opening).collect();
        assert!(openings.iter().all(|&k| k <= 6), "{openings:?}");
        let distinct: std::collections::HashSet<_> =
            sp.slots.iter().map(|s| s.actions.clone()).collect();
        assert!(
            distinct.len() >= 12,
            "16 games, {} openings",
            distinct.len()
        );
        for slot in &sp.slots {
            assert_eq!(slot.actions.len() as u32, slot.opening);
            let mut replayed = rules.training_start(slot.first, slot.variety);
            for &a in &slot.actions {
                rules
                    .play(&mut replayed, a)
                    .expect("opening plies are legal");
            }
            assert!(
                !rules.is_terminal(&replayed),
                "an opening never ends a game"
            );
            assert_eq!(
                rules.notation(&replayed),
                rules.notation(slot.state.as_ref().unwrap())
            );
        }
        let (mut samples, mut plies) = (0, 0);
        for _ in 0..400 {
            let r = sp.step(&rules, &net, None, &cfg);
            plies += r.game_lengths.iter().sum::<u32>() as usize;
            samples += r.samples.len();
            if sp.games >= 16 {
                break;
            }
        }
        assert!(sp.games >= 16);
        assert_eq!(
            samples, plies,
            "one position per searched ply, none for the opening"
        );
    }

    #[test]
    fn opponents_take_one_seat_and_only_the_network_gives_positions() {
        let rules: Variant = "oware".parse().unwrap();
        let cfg = TrainConfig {
            games: 8,
            simulations: 2,
            sample_plies: 0,
            max_plies: 400,
            opponents: "alphabeta:6".into(),
            opponent_share: 1.0,
            ..Default::default()
        };
        let net = tiny_net(&cfg);
        let mut sp = SelfPlay::new(&rules, cfg.games, 9, false, 0);
        sp.configure(&cfg, 9).unwrap();
        let seats: Vec<Player> = sp.slots.iter().map(|s| s.opponent.unwrap().seat).collect();
        assert!(seats.contains(&Player::South) && seats.contains(&Player::North));
        let (mut samples, mut plies, mut scores) = (0, 0, Vec::new());
        while sp.games < 8 {
            let r = sp.step(&rules, &net, None, &cfg);
            plies += r.game_lengths.iter().sum::<u32>() as usize;
            samples += r.samples.len();
            scores.extend(r.opponent_scores);
        }
        // Each side makes about half the decisions of a game.
        assert!(
            samples * 3 < plies * 2 && samples * 3 > plies,
            "{samples} of {plies}"
        );
        // An untrained network on 2 simulations loses to six plies of alpha-beta.
        assert!(scores.len() >= 6, "{scores:?}");
        let mean = scores.iter().sum::<f32>() / scores.len() as f32;
        assert!(mean < 0.2, "the network scored {mean} against alphabeta:6");
    }

    #[test]
    fn a_teachers_move_is_the_policy_target_and_the_network_plays_on() {
        // greedy teaches: every decision's target is one-hot on a move that leaves the mover the
        // best score difference (checked here against every legal move), also after a fast
        // search; the games still follow the network, so targets and moves part ways.
        let rules: Variant = "oware".parse().unwrap();
        let cfg = TrainConfig {
            games: 8,
            simulations: 4,
            fast_simulations: 2,
            full_search_prob: 0.3,
            sample_plies: 0,
            teacher: "greedy".into(),
            teacher_share: 1.0,
            ..Default::default()
        };
        let net = tiny_net(&cfg);
        let mut sp = SelfPlay::new(&rules, cfg.games, 3, false, 0);
        sp.configure(&cfg, 3).unwrap();
        let (mut taught, mut played_otherwise) = (0, 0);
        for _ in 0..40 {
            let before: Vec<(VariantState, usize)> = sp
                .slots
                .iter()
                .map(|s| (s.state.clone().unwrap(), s.decisions.len()))
                .collect();
            sp.step(&rules, &net, None, &cfg);
            for (slot, (state, decisions)) in sp.slots.iter().zip(before) {
                let Some(d) = slot.decisions.get(decisions) else {
                    continue; // the game ended and a new one began
                };
                let mover = rules.to_play(&state).unwrap().index();
                let diff = |a: Action| {
                    let mut child = state.clone();
                    rules.play(&mut child, a).unwrap();
                    let scores = rules.scores(&child);
                    scores[mover] - scores[1 - mover]
                };
                let best = rules.legal_mask(&state).iter().map(diff).max().unwrap();
                let target = (0..d.policy.len()).find(|&a| d.policy[a] == 1.0).unwrap();
                assert_eq!(d.policy.iter().sum::<f32>(), 1.0, "one-hot");
                assert_eq!(diff(target as Action), best, "the greedy move");
                assert!(d.full, "a taught decision trains the policy");
                taught += 1;
                played_otherwise += (*slot.actions.last().unwrap() as usize != target) as usize;
            }
        }
        assert!(taught > 200, "{taught}");
        assert!(played_otherwise > 20, "{played_otherwise} of {taught}");
    }

    /// jerin played in whole matches, and in single rounds (`episode = round`, whose game ends
    /// with the round and its group count).
    fn jerin_matches_and_rounds() -> (Variant, Variant) {
        let matches = TrainConfig {
            variant: "jerin".into(),
            options: "episode=match".into(),
            ..Default::default()
        }
        .rules()
        .unwrap();
        (matches, "jerin".parse().unwrap())
    }

    #[test]
    fn a_rounds_result_read_at_the_next_rounds_start_is_the_rounds_own() {
        // The same moves played as whole matches and as single rounds (`episode = round`,
        // whose game ends with the round and its group count): what a round-only game is
        // valued by must be the round's own result and group difference.
        let (matches, rounds) = jerin_matches_and_rounds();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut seen = [0; 3];
        for game in 0..60 {
            let first = [Player::South, Player::North][game % 2];
            let (mut m, mut r) = (matches.start(first), rounds.start(first));
            while !matches.is_terminal(&m) && matches.round(&m) == 1 {
                let mask = matches.legal_mask(&m);
                let a = mask.nth(rng.gen_range(0..mask.count())).unwrap();
                matches.play_unchecked(&mut m, a);
                rounds
                    .play(&mut r, a)
                    .expect("the same legal moves in a round");
            }
            assert!(
                rounds.is_terminal(&r),
                "game {game}: the round is over in both"
            );
            let end = if matches.is_terminal(&m) {
                End::Game
            } else {
                End::Round
            };
            let (returns, score) = outcome(&matches, &m, end);
            assert_eq!(returns, rounds.returns(&r), "game {game}");
            let groups = rounds.scores(&r);
            assert_eq!(
                score[0],
                (groups[0] - groups[1]) as f32 / 24.0,
                "game {game}"
            );
            seen[(returns[0] + 1.0) as usize] += 1;
        }
        assert!(
            seen[0] > 0 && seen[2] > 0,
            "both players win rounds: {seen:?}"
        );
    }

    #[test]
    fn round_score_gives_each_decision_its_own_rounds_house_difference() {
        // Random whole matches with a decision at every ply; their first round is also played
        // as a single round (`episode = round`), whose group count is the reference.
        let (matches, rounds) = jerin_matches_and_rounds();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for game in 0..12 {
            let mut slot = new_slot(&matches, false, 0, &mut rng);
            let mut round = rounds.start(slot.first);
            let mut first_round_end = None;
            while !matches.is_terminal(slot.state.as_ref().unwrap()) && slot.actions.len() < 5000 {
                let state = slot.state.as_ref().unwrap();
                let mask = matches.legal_mask(state);
                let a = mask.nth(rng.gen_range(0..mask.count())).unwrap();
                slot.decisions.push(Decision {
                    obs: Vec::new(),
                    policy: Vec::new(),
                    mask: mask.0,
                    mover: matches.to_play(state).unwrap(),
                    full: true,
                    root_value: 0.0,
                    ply: slot.actions.len() as u32,
                });
                if first_round_end.is_none() {
                    rounds.play(&mut round, a).expect("the same legal moves");
                }
                slot.play(&matches, a, true);
                if first_round_end.is_none() && matches.round(slot.state.as_ref().unwrap()) > 1 {
                    first_round_end = Some(slot.actions.len());
                }
            }
            let state = slot.state.clone().unwrap();
            assert!(matches.is_terminal(&state), "game {game}: the match ends");
            let Some(first_round_end) = first_round_end else {
                continue;
            };
            let groups = rounds.scores(&round);
            let last = crate::search::final_score(&matches, &state);
            let movers: Vec<usize> = slot.decisions.iter().map(|d| d.mover.index()).collect();
            let mut report = StepReport::default();
            let target = ValueTarget {
                q: 0.0,
                discount: 1.0,
                cut_draw: false,
            };
            finish(&matches, &mut slot, End::Game, target, &mut report);
            assert!(slot.round_ends.is_empty(), "finish takes the round ends");
            for (ply, (sample, &m)) in report.samples.iter().zip(&movers).enumerate() {
                if ply < first_round_end {
                    let own = (groups[m] - groups[1 - m]) as f32 / 24.0;
                    assert_eq!(sample.score, own, "game {game}, ply {ply}: its round's");
                }
            }
            let final_round = report.samples.last().unwrap();
            assert_eq!(
                final_round.score,
                last[*movers.last().unwrap()],
                "game {game}"
            );
            checked += 1;
        }
        assert!(checked >= 6, "matches past their first round: {checked}");
    }

    #[test]
    fn an_asynchronous_teacher_adds_its_labelled_positions_as_policy_only_samples() {
        let cfg = TrainConfig {
            variant: "oware".into(),
            games: 4,
            simulations: 2,
            sample_plies: 0,
            teacher: "alphabeta:2".into(),
            teacher_share: 1.0,
            teacher_async: true,
            max_plies: 10_000,
            ..Default::default()
        };
        cfg.validate().unwrap();
        let rules = cfg.rules().unwrap();
        let net = tiny_net(&cfg);
        let mut sp = SelfPlay::new(&rules, cfg.games, 5, false, 0);
        sp.configure(&cfg, 5).unwrap();
        let (mut taught, mut own) = (Vec::new(), 0);
        for _ in 0..2000 {
            let report = sp.step(&rules, &net, None, &cfg);
            for s in report.samples {
                if s.value_weight == 0.0 && s.score == 0.0 && s.value == 0.0 {
                    taught.push(s);
                } else {
                    own += 1;
                }
            }
            if taught.len() >= 20 && own > 0 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        assert!(taught.len() >= 20 && own > 0, "{} {own}", taught.len());
        assert_eq!(sp.taught as usize, taught.len());
        for s in &taught {
            let ones: Vec<usize> = (0..s.policy.len())
                .filter(|&a| s.policy[a] == 1.0)
                .collect();
            assert_eq!(ones.len(), 1, "one-hot: {:?}", s.policy);
            assert_eq!(s.policy.iter().sum::<f32>(), 1.0);
            assert!(s.mask & (1 << ones[0]) != 0, "a legal move");
            assert_eq!(s.policy_weight, 1.0);
        }
    }

    #[test]
    fn a_branch_game_begins_in_the_middle_of_the_game_it_replaces() {
        let cfg = TrainConfig {
            variant: "oware".into(),
            games: 4,
            simulations: 2,
            sample_plies: 0,
            max_plies: 400,
            branch_share: 1.0,
            ..Default::default()
        };
        let rules = cfg.rules().unwrap();
        let net = tiny_net(&cfg);
        let play = |cfg: &TrainConfig| {
            let mut sp = SelfPlay::new(&rules, cfg.games, 3, false, 0);
            sp.configure(cfg, 3).unwrap();
            // (the finished game's plies but its last, the new game's plies, its opening)
            let mut new_games = Vec::new();
            while sp.games < 12 {
                let before: Vec<Vec<Action>> = sp.slots.iter().map(|s| s.actions.clone()).collect();
                sp.step(&rules, &net, None, cfg);
                for (slot, old) in sp.slots.iter().zip(before) {
                    assert!(slot.decisions.iter().all(|d| d.ply >= slot.opening));
                    if slot.decisions.is_empty() {
                        new_games.push((old, slot.actions.clone(), slot.opening));
                    }
                }
            }
            new_games
        };
        let branches = play(&cfg);
        assert!(branches.len() >= 8, "{}", branches.len());
        let mut diverged = 0;
        for (old, new, opening) in &branches {
            // A branch point before the finished game's last ply, then one random ply.
            assert_eq!(
                *opening as usize,
                new.len(),
                "no training positions before the branch"
            );
            assert!(!new.is_empty() && old.starts_with(&new[..new.len() - 1]));
            diverged += usize::from(!old.starts_with(new));
        }
        assert!(
            diverged > 0,
            "the random ply leaves the finished game's line"
        );
        assert!(
            branches.iter().any(|(_, new, _)| new.len() > 10),
            "middle games"
        );
        // Without the share every new game begins at the start.
        let plain = play(&TrainConfig {
            branch_share: 0.0,
            ..cfg.clone()
        });
        assert!(plain.iter().all(|(_, new, _)| new.is_empty()));
    }

    #[test]
    fn a_round_share_ends_its_matches_with_their_first_round() {
        let cfg = TrainConfig {
            variant: "jerin".into(),
            options: "episode=match".into(),
            games: 8,
            simulations: 2,
            sample_plies: 0,
            max_plies: 3000,
            round_share: 1.0,
            ..Default::default()
        };
        let rules = cfg.rules().unwrap();
        let net = tiny_net(&cfg);
        let mut sp = SelfPlay::new(&rules, cfg.games, 7, false, 0);
        sp.configure(&cfg, 7).unwrap();
        let mut samples = Vec::new();
        while sp.games < 16 {
            samples.extend(sp.step(&rules, &net, None, &cfg).samples);
            for slot in &sp.slots {
                assert_eq!(rules.round(slot.state.as_ref().unwrap()), 1);
            }
        }
        assert!(!samples.is_empty());
        for s in &samples {
            assert_eq!(s.value_weight, 1.0, "a round's end values its positions");
            assert!([-1.0, 0.0, 1.0].contains(&s.value), "{}", s.value);
        }
        // Without the share, the same matches go on into a second round.
        let whole = TrainConfig {
            round_share: 0.0,
            ..cfg.clone()
        };
        let mut sp = SelfPlay::new(&rules, whole.games, 7, false, 0);
        sp.configure(&whole, 7).unwrap();
        let mut later_round = false;
        for _ in 0..400 {
            sp.step(&rules, &net, None, &whole);
            later_round |= sp
                .slots
                .iter()
                .any(|slot| rules.round(slot.state.as_ref().unwrap()) > 1);
            if later_round {
                break;
            }
        }
        assert!(later_round, "whole matches reach a second round");
    }

    #[test]
    fn value_target_mixes_the_result_with_the_search_value() {
        let rules: Variant = "oware".parse().unwrap();
        // South to move; F (pit 5) takes 2 and wins 25-20.
        let state = rules
            .parse_notation("1 0 0 0 0 1 1 0 0 0 2 0 | 23 20 | 0")
            .unwrap();
        let decision = |mover, root_value, ply| Decision {
            obs: vec![0.0; rules.observation_len()],
            policy: vec![0.0; 6],
            mask: 0b100001,
            mover,
            full: true,
            root_value,
            ply,
        };
        let mut end = state.clone();
        rules.play(&mut end, 5).unwrap();
        assert!(rules.is_terminal(&end));
        // Two decisions: South's, three plies before the end, and North's, two before it
        // (the plies between are not played out: only their count matters here).
        // Each decision's (value target, value weight) where the game stopped at `stop`.
        let stopped = |stop: &VariantState, why: End, target: ValueTarget| {
            let mut slot = Slot {
                first: Player::South,
                variety: 0,
                round: 0,
                round_only: false,
                round_ends: Vec::new(),
                opening: 0,
                actions: vec![5, 5, 5],
                decisions: vec![
                    decision(Player::South, 0.2, 0),
                    decision(Player::North, -0.6, 1),
                ],
                opponent: None,
                state: Some(stop.clone()),
            };
            let mut report = StepReport::default();
            finish(&rules, &mut slot, why, target, &mut report);
            let samples = report.samples.iter();
            samples
                .map(|s| (s.value, s.value_weight))
                .collect::<Vec<_>>()
        };
        let targets = |q: f32, discount: f32| {
            let target = ValueTarget {
                q,
                discount,
                cut_draw: false,
            };
            let samples = stopped(&end, End::Game, target);
            samples
                .iter()
                .map(|&(value, _)| value)
                .collect::<Vec<f32>>()
        };
        assert_eq!(
            targets(0.0, 1.0),
            vec![1.0, -1.0],
            "the result from each mover's view"
        );
        assert_eq!(targets(1.0, 0.5), vec![0.2, -0.6], "the search's values");
        let half = targets(0.5, 1.0);
        assert!(
            (half[0] - 0.6).abs() < 1e-6 && (half[1] + 0.8).abs() < 1e-6,
            "{half:?}"
        );
        // Discounted: the game ended two plies after South's move (0.5²) and one after
        // North's (0.5).
        assert_eq!(targets(0.0, 0.5), vec![0.25, -0.5], "the discounted result");
        let mixed = targets(0.5, 0.5);
        assert!(
            (mixed[0] - 0.225).abs() < 1e-6 && (mixed[1] + 0.55).abs() < 1e-6,
            "{mixed:?}"
        );
        // Cut by the ply cap before F is played (the game not over): no value targets, or,
        // with `cut_draw`, a draw's: the result 0, so only the search's share is left.
        let cut = |cut_draw| {
            let target = ValueTarget {
                q: 0.5,
                discount: 1.0,
                cut_draw,
            };
            stopped(&state, End::Cut, target)
        };
        let unvalued = cut(false);
        assert!(unvalued.iter().all(|&(_, w)| w == 0.0), "{unvalued:?}");
        let drawn = cut(true);
        assert!(drawn.iter().all(|&(_, w)| w == 1.0), "{drawn:?}");
        assert!(
            (drawn[0].0 - 0.1).abs() < 1e-6 && (drawn[1].0 + 0.3).abs() < 1e-6,
            "{drawn:?}"
        );
    }
}
