//! Self-play: many games at once, one batched Gumbel search per move for all of them, and the
//! finished games turned into training positions.
//!
//! Targets (docs/search.md section 5): the policy target is the search's improved policy `pi'`; the
//! value target is the game's result from the view of the player to move at that decision (a
//! multi-decision turn gives one position per decision, each from its mover's view); the
//! auxiliary score target is the final seed difference from the mover's view over half the
//! seeds. A game cut by the ply cap gives no value or score targets.

use crate::agent::NetEvaluator;
use crate::config::TrainConfig;
use crate::net::Net;
use crate::replay::Sample;
use crate::search::{gumbel_search, SearchParams, SearchResult};
use ayo_env::{Action, Player, Rules, Variant, VariantState};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

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
    #[serde(skip)]
    state: Option<VariantState>,
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
        }
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
        // Playout-cap randomisation: a share of the moves get a cheap search.
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
        let states: Vec<&VariantState> = self
            .slots
            .iter()
            .map(|slot| slot.state.as_ref().expect("restored"))
            .collect();
        let params = cfg.search_params();
        let (results, evaluations) =
            search_parallel(rules, &states, &sims, &params, net, helper, &mut self.rng);
        drop(states);
        let mut report = StepReport {
            positions: self.slots.len(),
            evaluations,
            ..Default::default()
        };
        let target = ValueTarget {
            q: cfg.value_target_q as f32,
            discount: cfg.value_discount as f32,
        };
        for (i, r) in results.into_iter().enumerate() {
            let slot = &mut self.slots[i];
            let sampled = (slot.actions.len() as u32) < slot.opening + cfg.sample_plies;
            let action = if sampled {
                sample_from(&r.policy, &mut self.rng)
            } else {
                r.action
            };
            slot.decide(rules, net, r, sims[i] == cfg.simulations);
            slot.play(rules, action);
            let state = slot.state.as_ref().expect("restored");
            let end = if rules.is_terminal(state) {
                End::Game
            } else if slot.actions.len() as u32 >= cfg.max_plies {
                End::Cut
            } else {
                continue;
            };
            finish(rules, slot, end, target, &mut report);
            *slot = new_slot(rules, self.varied_starts, self.opening_plies, &mut self.rng);
            self.games += 1;
        }
        self.positions += report.positions as u64;
        report
    }
}

impl Slot {
    /// Notes the decision the search `r` made in this game's position (`full`: a full search,
    /// whose policy becomes a target).
    fn decide(&mut self, rules: &Variant, net: &Net, r: SearchResult, full: bool) {
        let state = self.state.as_ref().expect("restored");
        let mut obs = vec![0.0; net.shape.inputs];
        net.shape.encode(rules, state, &mut obs);
        self.decisions.push(Decision {
            obs,
            policy: r.policy,
            mask: rules.legal_mask(state).0,
            mover: rules.to_play(state).expect("live game"),
            full,
            root_value: r.value,
            ply: self.actions.len() as u32,
        });
    }

    /// Plays `action`.
    fn play(&mut self, rules: &Variant, action: Action) {
        rules.play_unchecked(self.state.as_mut().expect("restored"), action);
        self.actions.push(action);
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
/// random opening never finishes a game). The opening plies give no training positions.
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
    Slot {
        first,
        variety,
        opening: actions.len() as u32,
        actions,
        decisions: Vec::new(),
        state: Some(state),
    }
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
}

/// Why a game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The game is over.
    Game,
    /// The ply cap cut it: no value targets.
    Cut,
}

/// Turns a stopped game's decisions into samples (value targets as `target` says; none for a
/// cut game), with each seat's result and the seed (group) difference over half the seeds.
fn finish(
    rules: &Variant,
    slot: &mut Slot,
    end: End,
    target: ValueTarget,
    report: &mut StepReport,
) {
    let state = slot.state.as_ref().expect("restored");
    let returns = rules.returns(state);
    let scores = crate::search::final_score(rules, state);
    let valued = end == End::Game;
    let end = slot.actions.len() as u32;
    let ValueTarget { q, discount } = target;
    for d in slot.decisions.drain(..) {
        let m = d.mover.index();
        let result = returns[m] * discount.powi(end.saturating_sub(d.ply + 1) as i32);
        report.samples.push(Sample {
            obs: d.obs,
            policy: d.policy,
            mask: d.mask,
            value: (1.0 - q) * result + q * d.root_value,
            score: scores[m],
            policy_weight: if d.full { 1.0 } else { 0.0 },
            value_weight: if valued { 1.0 } else { 0.0 },
        });
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
                opening: 0,
                actions: vec![5, 5, 5],
                decisions: vec![
                    decision(Player::South, 0.2, 0),
                    decision(Player::North, -0.6, 1),
                ],
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
            let target = ValueTarget { q, discount };
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
        // Cut by the ply cap before F is played (the game not over): no value targets.
        let target = ValueTarget {
            q: 0.5,
            discount: 1.0,
        };
        let cut = stopped(&state, End::Cut, target);
        assert!(cut.iter().all(|&(_, w)| w == 0.0), "{cut:?}");
    }
}
