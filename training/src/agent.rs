//! The network-plus-search agent, and the evaluator that feeds the search from the network.

use crate::checkpoint::{self, CheckpointError, CheckpointMeta};
use crate::external::EngineAgent;
#[cfg(feature = "torch")]
use crate::net::Net;
use crate::net::Network;
use crate::search::{
    self, gumbel_search, search_kept, Evaluator, SearchParams, SearchTree, WithOracle,
};
use ayo_env::agent::format_movetime;
pub use ayo_env::agent::parse_movetime;
use ayo_env::arena::agents::{AlphaBeta, Leaf, MAX_SEARCH_DEPTH};
use ayo_env::arena::book::{Book, Booked};
use ayo_env::tablebase::Tablebase;
use ayo_env::{Action, Agent, Analysis, Budget, Progress, Rules, Variant, VariantState};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Evaluates search leaves with a network: observes every state into one buffer and runs one
/// forward pass for the whole batch.
pub struct NetEvaluator<'a> {
    net: &'a dyn Network,
    rules: &'a Variant,
    obs: Vec<f32>,
    /// Positions evaluated so far.
    pub evaluations: u64,
    /// Forward passes so far.
    pub batches: u64,
}

impl<'a> NetEvaluator<'a> {
    pub fn new(net: &'a dyn Network, rules: &'a Variant) -> Self {
        NetEvaluator {
            net,
            rules,
            obs: Vec::new(),
            evaluations: 0,
            batches: 0,
        }
    }
}

impl Evaluator<VariantState> for NetEvaluator<'_> {
    fn evaluate(&mut self, states: &[&VariantState], logits: &mut [f32], values: &mut [f32]) {
        let shape = self.net.shape();
        let len = shape.inputs;
        self.obs.resize(states.len() * len, 0.0);
        for (i, s) in states.iter().enumerate() {
            shape.encode(self.rules, s, &mut self.obs[i * len..(i + 1) * len]);
        }
        self.net
            .evaluate(&self.obs, states.len(), logits, values, None);
        self.evaluations += states.len() as u64;
        self.batches += 1;
    }
}

/// Values the last positions of an alpha-beta search's lines with a network
/// ([`NetAgent::with_alpha_beta`]): the children of a node one ply from the horizon in one
/// forward pass, each as its value for the searching side times [`LEAF_SCALE`].
pub struct NetLeaf<'a> {
    net: &'a dyn Network,
    obs: Vec<f32>,
    logits: Vec<f32>,
    values: Vec<f32>,
    /// Positions evaluated so far.
    pub evaluations: u64,
}

/// A network value of 1 in alpha-beta's units: far above any seed count of the rules'
/// heuristic, far below a proven result's [`ayo_env::arena::agents::WIN`].
pub const LEAF_SCALE: f32 = 1000.0;

impl<'a> NetLeaf<'a> {
    pub fn new(net: &'a dyn Network) -> Self {
        NetLeaf {
            net,
            obs: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            evaluations: 0,
        }
    }
}

impl Leaf<Variant> for NetLeaf<'_> {
    const BATCHED: bool = true;
    fn to_value(score: i32) -> f32 {
        if score.abs() >= ayo_env::arena::agents::WIN / 2 {
            score.signum() as f32
        } else {
            (score as f32 / LEAF_SCALE).clamp(-1.0, 1.0)
        }
    }
    fn values(
        &mut self,
        rules: &Variant,
        states: &[&VariantState],
        view: ayo_env::Player,
        out: &mut Vec<i32>,
    ) {
        let shape = self.net.shape();
        let (n, len) = (states.len(), shape.inputs);
        self.obs.resize(n * len, 0.0);
        for (i, s) in states.iter().enumerate() {
            shape.encode(rules, s, &mut self.obs[i * len..(i + 1) * len]);
        }
        self.logits.resize(n * shape.actions, 0.0);
        self.values.resize(n, 0.0);
        self.net
            .evaluate(&self.obs, n, &mut self.logits, &mut self.values, None);
        for (s, &v) in states.iter().zip(&self.values) {
            let mover = rules.to_play(s).expect("a leaf is a live game");
            let v = if mover == view { v } else { -v };
            out.push((v * LEAF_SCALE).round() as i32);
        }
        self.evaluations += n as u64;
    }
}

/// A trained network playing with a Gumbel search of `simulations` per move, or for a time
/// per move. With simulations, all the games of a `choose_batch` call are searched together,
/// their leaves evaluated in one forward pass. With a time ([`NetAgent::with_movetime`]) or
/// through [`Agent::think`], it searches one game in rounds of doubling size, each round
/// starting from the tree of the last (and from the previous move's tree when the game went
/// on from it), until the time is spent.
pub struct NetAgent {
    net: Box<dyn Network>,
    /// The checkpoint's metadata, when loaded from one.
    pub meta: Option<CheckpointMeta>,
    pub simulations: u32,
    /// Think this long per move instead of a number of simulations.
    pub movetime: Option<Duration>,
    pub params: SearchParams,
    rng: ChaCha8Rng,
    label: String,
    /// The tree of the last `think`, for the next move.
    kept: Option<SearchTree<VariantState>>,
    /// The endgame table that ends a line where it knows the result (`…+tb`).
    table: Option<Arc<Tablebase>>,
    /// Searches by alpha-beta with the network's value at the lines' ends instead of the
    /// Gumbel search (`PATH@TIME+ab`, [`NetAgent::with_alpha_beta`]).
    alpha_beta: Option<AlphaBeta>,
}

/// Simulations of the first round of a timed search; later rounds double.
const FIRST_ROUND: u32 = 32;
/// How deep below the last searched position the next one is looked for in the kept tree
/// (the agent's move, the reply, and passes or multi-decision turns between them).
const REUSE_PLIES: usize = 4;

impl NetAgent {
    /// Loads the checkpoint at `path` to play with `simulations` per move and the root noise of
    /// its run's evaluations (`eval_gumbel_scale`, 0 = the search's best move); `seed` seeds
    /// the search's Gumbel noise.
    /// With libtorch (the `torch` feature) the network runs on the best device it finds;
    /// without, on the CPU through [`CpuNet`](crate::net::CpuNet) ([`checkpoint::read`]).
    pub fn load(path: &Path, simulations: u32, seed: u64) -> Result<NetAgent, CheckpointError> {
        let (net, meta) = checkpoint::read(path)?;
        Ok(NetAgent::of_checkpoint(net, meta, path, simulations, seed))
    }

    /// [`NetAgent::load`] with the network on the CPU without libtorch ([`CpuNet`](crate::net::CpuNet)).
    pub fn load_cpu(path: &Path, simulations: u32, seed: u64) -> Result<NetAgent, CheckpointError> {
        let (net, meta) = checkpoint::read_cpu(path)?;
        Ok(NetAgent::of_checkpoint(
            Box::new(net),
            meta,
            path,
            simulations,
            seed,
        ))
    }

    /// The agent playing a checkpoint's network with its run's evaluation settings, named
    /// `net:STEM@SIMULATIONS` after the file.
    fn of_checkpoint(
        net: Box<dyn Network>,
        meta: CheckpointMeta,
        path: &Path,
        simulations: u32,
        seed: u64,
    ) -> NetAgent {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut agent = NetAgent::from_network(net, simulations, seed);
        agent.params = meta.config.eval_search_params();
        agent.label = format!("net:{stem}@{simulations}");
        agent.meta = Some(meta);
        agent
    }

    /// An agent playing `net` (default search parameters).
    #[cfg(feature = "torch")]
    pub fn from_net(net: Net, simulations: u32, seed: u64) -> NetAgent {
        NetAgent::from_network(Box::new(net), simulations, seed)
    }

    /// An agent playing any [`Network`] (default search parameters).
    pub fn from_network(net: Box<dyn Network>, simulations: u32, seed: u64) -> NetAgent {
        NetAgent {
            net,
            meta: None,
            simulations,
            movetime: None,
            params: SearchParams::default(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            label: format!("net@{simulations}"),
            kept: None,
            table: None,
            alpha_beta: None,
        }
    }

    /// The same agent whose search ends a line where `table` knows the result (`…+tb`).
    pub fn with_table(mut self, table: Arc<Tablebase>) -> NetAgent {
        self.label.push_str("+tb");
        self.alpha_beta = self.alpha_beta.map(|ab| ab.with_table(table.clone()));
        self.table = Some(table);
        self
    }

    /// The same network searching by alpha-beta for its time per move (`PATH@TIME+ab`):
    /// iterative deepening with a transposition table, the network's value at the lines' ends
    /// ([`NetLeaf`]) and the endgame table, if any, ending lines where it knows the result.
    /// The agent's random stream seeds the root's tie-break.
    pub fn with_alpha_beta(mut self, movetime: Duration) -> NetAgent {
        let seed = rand::RngCore::next_u64(&mut self.rng);
        let mut ab = AlphaBeta::new(MAX_SEARCH_DEPTH, seed).with_movetime(movetime);
        if let Some(table) = &self.table {
            ab = ab.with_table(table.clone());
        }
        self = self.with_movetime(movetime);
        self.label.push_str("+ab");
        self.alpha_beta = Some(ab);
        self
    }

    /// The agent thinking `movetime` per move (its label `…@1s` or `…@250ms`).
    pub fn with_movetime(mut self, movetime: Duration) -> NetAgent {
        let stem = self
            .label
            .rsplit_once('@')
            .map_or(self.label.as_str(), |(s, _)| s);
        self.label = format!("{stem}@{}", format_movetime(movetime));
        self.movetime = Some(movetime);
        self
    }

    /// Checks that the agent was trained for `rules`.
    pub fn check_rules(&self, rules: &Variant) -> Result<(), CheckpointError> {
        match &self.meta {
            Some(m) => checkpoint::check_rules(m, rules, Path::new(&self.label)),
            None => Ok(()),
        }
    }

    pub fn net(&self) -> &dyn Network {
        &*self.net
    }
}

impl Agent for NetAgent {
    fn name(&self) -> String {
        self.label.clone()
    }

    /// How far the agent's ChaCha stream (seeded by its seed) has gone, in 32-bit words: with
    /// the same seed, [`Agent::set_random_state`] puts a new agent at the same point.
    fn random_state(&self) -> Option<u64> {
        match &self.alpha_beta {
            Some(ab) => ab.random_state(),
            None => Some(self.rng.get_word_pos() as u64),
        }
    }
    fn set_random_state(&mut self, state: u64) {
        match &mut self.alpha_beta {
            Some(ab) => ab.set_random_state(state),
            None => self.rng.set_word_pos(u128::from(state)),
        }
    }

    fn choose(&mut self, rules: &Variant, state: &VariantState) -> (Action, Analysis) {
        if self.movetime.is_some() {
            return self.think(rules, state, Budget::Own, &mut |_| true);
        }
        self.choose_batch(rules, &[state])
            .pop()
            .expect("one choice per game")
    }

    fn choose_batch(
        &mut self,
        rules: &Variant,
        states: &[&VariantState],
    ) -> Vec<(Action, Analysis)> {
        self.check_observation(rules);
        if self.movetime.is_some() {
            // A clock per move: one game after another.
            return states.iter().map(|s| self.choose(rules, s)).collect();
        }
        match self.table.clone() {
            Some(table) => self.search_batch(&WithOracle::new(rules, &*table), rules, states),
            None => self.search_batch(rules, rules, states),
        }
    }

    fn think(
        &mut self,
        rules: &Variant,
        state: &VariantState,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> (Action, Analysis) {
        self.check_observation(rules);
        if let Some(ab) = &mut self.alpha_beta {
            let mut leaf = NetLeaf::new(&*self.net);
            return ab.think_with(rules, state, &mut leaf, budget, progress);
        }
        match self.table.clone() {
            Some(table) => {
                let game = WithOracle::new(rules, &*table);
                self.think_in(&game, rules, state, budget, progress)
            }
            None => self.think_in(rules, rules, state, budget, progress),
        }
    }
}

impl NetAgent {
    /// The games of `states` searched together in `game` (the rules, or the rules with a table).
    fn search_batch<G: search::Game<State = VariantState>>(
        &mut self,
        game: &G,
        rules: &Variant,
        states: &[&VariantState],
    ) -> Vec<(Action, Analysis)> {
        let sims = vec![self.simulations; states.len()];
        let mut evaluator = NetEvaluator::new(&*self.net, rules);
        let results = gumbel_search(
            game,
            states,
            &sims,
            &self.params,
            &mut evaluator,
            &mut self.rng,
        );
        // The table's hits over the batch, given to its first game.
        let mut hits = search::Game::solved_count(game);
        results
            .into_iter()
            .map(|r| {
                (
                    r.action,
                    Analysis {
                        value: Some(r.value),
                        work: r.simulations as u64,
                        table_hits: std::mem::take(&mut hits),
                    },
                )
            })
            .collect()
    }

    /// [`Agent::think`] in `game` (the rules, or the rules with a table).
    fn think_in<G: search::Game<State = VariantState>>(
        &mut self,
        game: &G,
        rules: &Variant,
        state: &VariantState,
        budget: Budget,
        progress: &mut dyn FnMut(&Progress) -> bool,
    ) -> (Action, Analysis) {
        let start = Instant::now();
        let budget = match (budget, self.movetime) {
            (Budget::Own, Some(t)) => Budget::Time(t),
            (Budget::Own, None) => Budget::Nodes(self.simulations as u64),
            (b, _) => b,
        };
        let mut evaluator = NetEvaluator::new(&*self.net, rules);
        let mut tree = self.kept.take().and_then(|t| t.reroot(state, REUSE_PLIES));
        let mut round = match budget {
            Budget::Nodes(n) => n.min(u32::MAX as u64) as u32,
            _ => FIRST_ROUND,
        };
        let mut work = 0u64;
        let mut best: (Action, f32);
        loop {
            let (r, pv, kept) = search_kept(
                game,
                state,
                tree,
                round,
                &self.params,
                &mut evaluator,
                &mut self.rng,
            );
            tree = Some(kept);
            work += r.simulations as u64;
            best = (r.action, r.value);
            let elapsed = start.elapsed();
            let go_on = progress(&Progress {
                pv,
                value: Some(r.value),
                work,
                elapsed,
                table_hits: search::Game::solved_count(game),
            });
            // A root with one legal move is not searched: nothing to think about.
            if !go_on || r.simulations == 0 {
                break;
            }
            let rate = work as f64 / elapsed.as_secs_f64().max(1e-6);
            round = match budget {
                Budget::Own | Budget::Nodes(_) => break,
                Budget::Time(limit) => {
                    // The next round must end in time (at the rate measured so far).
                    let left = limit.saturating_sub(elapsed).as_secs_f64();
                    let fits = (0.9 * left * rate) as u32;
                    if fits < FIRST_ROUND / 2 {
                        break;
                    }
                    (2 * round).min(fits)
                }
                // Rounds of at most a quarter second, so that `stop` is heard soon.
                Budget::Infinite => (2 * round).min(((0.25 * rate) as u32).max(FIRST_ROUND)),
            };
        }
        self.kept = tree;
        (
            best.0,
            Analysis {
                value: Some(best.1),
                work,
                table_hits: search::Game::solved_count(game),
            },
        )
    }

    /// Visits of the search tree kept for the next move (after [`Agent::think`]).
    pub fn kept_visits(&self) -> Option<u32> {
        self.kept.as_ref().map(|t| t.root_visits())
    }

    fn check_observation(&self, rules: &Variant) {
        let shape = self.net.shape();
        assert_eq!(
            ayo_env::input::input_len(rules, shape.lookahead),
            shape.inputs,
            "{} was trained for another observation size than {}'s",
            self.label,
            rules.id()
        );
    }
}

/// Help text for player arguments.
pub const PLAYER_SPECS: &str = "random, greedy, alphabeta:D, alphabeta@TIME, mcts:N, or a \
     checkpoint file with its simulations PATH[:SIMS] or its time per move PATH@TIME (1s, 0.5s, \
     250ms), searching by alpha-beta with the network's values as PATH@TIME+ab; a searching \
     player +tb=DIR (or +tb: $AYO_TABLEBASE) ends lines at an endgame table (oware, ayoayo); any player \
     +book=FILE (last) plays a book of moves (`ayo book`) where it has one";

/// The end of a timed checkpoint's spec that makes it search by alpha-beta
/// ([`NetAgent::with_alpha_beta`]): `PATH@TIME+ab`.
pub const ALPHA_BETA_SUFFIX: &str = "+ab";

/// A player that cannot be made from its spec.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    #[error("{baseline}; nor is {spec:?} a checkpoint file ({PLAYER_SPECS})")]
    Unknown {
        spec: String,
        baseline: ayo_env::arena::agents::AgentSpecError,
    },
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error(transparent)]
    Spec(#[from] ayo_env::arena::agents::AgentSpecError),
    #[error("bad agent spec {spec:?}: {reason}")]
    Bad { spec: String, reason: String },
    #[error(transparent)]
    BookRules(#[from] ayo_env::arena::book::BookRulesError),
    #[error("bad agent spec {spec:?}: its endgame table: {reason}")]
    TableVariant { spec: String, reason: String },
}

/// A checkpoint path and its search budget, when `spec` names an existing file: `PATH`
/// (`default_sims` simulations), `PATH:SIMS` or `PATH@TIME` (a time per move, see
/// [`parse_movetime`]).
pub fn checkpoint_spec(spec: &str, default_sims: u32) -> Option<(&Path, Budget)> {
    if Path::new(spec).is_file() {
        return Some((Path::new(spec), Budget::Nodes(default_sims as u64)));
    }
    if let Some((path, time)) = spec.rsplit_once('@') {
        if let Some(t) = parse_movetime(time) {
            return Path::new(path)
                .is_file()
                .then(|| (Path::new(path), Budget::Time(t)));
        }
    }
    let (path, sims) = spec.rsplit_once(':')?;
    let sims: u32 = sims.parse().ok()?;
    Path::new(path)
        .is_file()
        .then(|| (Path::new(path), Budget::Nodes(sims as u64)))
}

/// A player made from its spec, before it meets a game: a baseline, or a checkpoint's network
/// (whose variant [`NetAgent::check_rules`] checks).
pub enum Player {
    Baseline(Box<dyn Agent>),
    Net(Box<NetAgent>),
    /// A player with a book of moves (`SPEC+book=FILE`).
    Booked(Box<Player>, Arc<Book>),
}

impl Player {
    /// The agent, and the checkpoint's metadata where it is a network's.
    pub fn into_agent(self) -> (Box<dyn Agent>, Option<CheckpointMeta>) {
        match self {
            Player::Baseline(a) => (a, None),
            Player::Net(n) => {
                let meta = n.meta.clone();
                (n, meta)
            }
            Player::Booked(inner, book) => {
                let (agent, meta) = inner.into_agent();
                (Box::new(Booked::new(agent, book)), meta)
            }
        }
    }

    /// Its book of moves, if its spec names one.
    pub fn book(&self) -> Option<Arc<Book>> {
        match self {
            Player::Booked(_, book) => Some(book.clone()),
            _ => None,
        }
    }

    /// Whether it may play games of `rules`: a network trained for them, a book made for them.
    pub fn check_rules(&self, rules: &Variant) -> Result<(), PlayerError> {
        match self {
            Player::Baseline(_) => Ok(()),
            Player::Net(n) => Ok(n.check_rules(rules)?),
            Player::Booked(inner, book) => {
                book.check_rules(rules)?;
                inner.check_rules(rules)
            }
        }
    }
}

/// The player named by `spec`: a baseline agent of `ayo_env::arena::agents` or a checkpoint
/// searching `default_sims` simulations per move unless its spec says `:SIMS` (0: the
/// network's policy alone) or `@TIME` (a time per move).
pub fn parse_player(spec: &str, default_sims: u32, seed: u64) -> Result<Player, PlayerError> {
    use ayo_env::arena::agents;
    if let (base, Some(file)) = agents::split_book(spec)? {
        let inner = parse_player(base, default_sims, seed)?;
        let book = agents::open_book(spec, &file)?;
        return Ok(Player::Booked(Box::new(inner), book));
    }
    let baseline = match agents::parse(spec, seed) {
        Ok(agent) => return Ok(Player::Baseline(agent)),
        Err(e) => e,
    };
    let (base, table) = agents::split_table(spec)?;
    let (base, alpha_beta) = match base.strip_suffix(ALPHA_BETA_SUFFIX) {
        Some(base) => (base.trim(), true),
        None => (base, false),
    };
    let Some((path, budget)) = checkpoint_spec(base, default_sims) else {
        return Err(PlayerError::Unknown {
            spec: spec.to_string(),
            baseline,
        });
    };
    let agent = match budget {
        // One thread, the torch-free network: alpha-beta asks for batches of at most six
        // positions, which it evaluates faster than libtorch's two threads (`ayo bench`).
        Budget::Time(t) if alpha_beta => {
            NetAgent::load_cpu(path, default_sims, seed)?.with_alpha_beta(t)
        }
        Budget::Time(t) => NetAgent::load(path, default_sims, seed)?.with_movetime(t),
        Budget::Nodes(_) if alpha_beta => {
            return Err(PlayerError::Bad {
                spec: spec.to_string(),
                reason: format!(
                "alpha-beta over a network needs a time per move, as PATH@500ms{ALPHA_BETA_SUFFIX}"
            ),
            })
        }
        Budget::Nodes(n) => NetAgent::load(path, n as u32, seed)?,
        Budget::Own | Budget::Infinite => unreachable!("specs give nodes or a time"),
    };
    Ok(Player::Net(Box::new(match table {
        Some(dir) => agent.with_table(agents::open_table(spec, &dir)?),
        None => agent,
    })))
}

/// The spec of an external engine: `engine:CMD`, a program speaking `ayo engine`'s protocol
/// ([`EngineAgent`]).
pub const ENGINE_PREFIX: &str = "engine:";

/// The longest an `engine:CMD` player may think about one move before it forfeits the game.
pub const ENGINE_MOVE_LIMIT: std::time::Duration = std::time::Duration::from_secs(60);

/// The player named by `spec` for games of `rules` ([`parse_player`], a checkpoint checked to
/// be trained for `rules`; `engine:CMD` an external program, [`ENGINE_PREFIX`]). Used by tournaments, the engine, `ayo play`, `ayo serve`, the
/// evaluation during training and the Python package alike.
pub fn load_player(
    spec: &str,
    rules: &Variant,
    default_sims: u32,
    seed: u64,
) -> Result<Box<dyn Agent>, PlayerError> {
    if let Some(command) = spec.trim().strip_prefix(ENGINE_PREFIX) {
        let engine = EngineAgent::start(command.trim(), rules, ENGINE_MOVE_LIMIT).map_err(|e| {
            PlayerError::Bad {
                spec: spec.to_string(),
                reason: e.to_string(),
            }
        })?;
        return Ok(Box::new(engine));
    }
    if let Some(dir) = ayo_env::arena::agents::split_table(spec)?.1 {
        let table = ayo_env::arena::agents::open_table(spec, &dir)?;
        table
            .check_variant(rules)
            .map_err(|e| PlayerError::TableVariant {
                spec: spec.to_string(),
                reason: e.to_string(),
            })?;
    }
    let player = parse_player(spec, default_sims, seed)?;
    player.check_rules(rules)?;
    Ok(player.into_agent().0)
}

/// A small untrained network for `rules` searching 16 simulations per move (tests of what
/// does not need a good network: protocols, tree reuse).
#[cfg(all(test, feature = "torch"))]
pub(crate) fn untrained(rules: &Variant, seed: u64) -> NetAgent {
    let shape = crate::net::NetShape {
        inputs: rules.observation_len(),
        actions: rules.num_actions(),
        width: 16,
        blocks: 1,
        levels: 0,
        lookahead: 0,
    };
    NetAgent::from_net(Net::new(shape, tch::Device::Cpu), 16, seed)
}

#[cfg(all(test, feature = "torch"))]
mod tests {
    use super::*;
    use ayo_env::Player;

    fn agent(rules: &Variant) -> NetAgent {
        untrained(rules, 3)
    }

    #[test]
    fn the_next_move_starts_from_the_subtree_of_the_line_played() {
        let rules: Variant = "oware".parse().unwrap();
        let mut a = agent(&rules);
        let start = rules.start(Player::South);
        let mut pv = Vec::new();
        a.think(&rules, &start, Budget::Nodes(200), &mut |p| {
            pv = p.pv.clone();
            true
        });
        assert_eq!(a.kept_visits(), Some(201));
        assert!(pv.len() >= 2, "a reply was searched: {pv:?}");
        let mut game = start.clone();
        rules.play(&mut game, pv[0]).unwrap();
        rules.play(&mut game, pv[1]).unwrap();
        a.think(&rules, &game, Budget::Nodes(50), &mut |_| true);
        let visits = a.kept_visits().unwrap();
        assert!(
            visits > 51,
            "the subtree's earlier visits are kept: {visits}"
        );
        // A position the tree never reached starts a new tree.
        let other = rules
            .parse_notation("1 0 0 0 0 1 1 0 0 0 2 0 | 23 20 | 0")
            .unwrap();
        a.think(&rules, &other, Budget::Nodes(10), &mut |_| true);
        assert_eq!(a.kept_visits(), Some(11));
    }

    #[test]
    fn a_network_with_lookahead_features_loads_and_plays_on_either_cpu_path() {
        let rules: Variant = "yao".parse().unwrap();
        let shape = crate::net::NetShape {
            inputs: ayo_env::input::input_len(&rules, 2),
            actions: rules.num_actions(),
            width: 8,
            blocks: 1,
            levels: 2,
            lookahead: 2,
        };
        assert_eq!(
            shape.inputs,
            40 + 3 * 34,
            "yao: observation, gains, threats, exchanges"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ot");
        let meta = CheckpointMeta {
            format: checkpoint::FORMAT,
            variant: rules.id(),
            options: rules.options(),
            shape,
            config: crate::config::TrainConfig::default(),
            step: 7,
            wall_time_s: 1.5,
            games: 2,
            positions: 3,
            samples: 4,
        };
        checkpoint::save(&Net::new(shape, tch::Device::Cpu), &meta, &path).unwrap();
        let (_, meta) = checkpoint::load_for(&path, &rules, tch::Device::Cpu).unwrap();
        assert_eq!(meta.shape.lookahead, 2);
        let start = rules.start(ayo_env::Player::South);
        let mut torch = NetAgent::load(&path, 8, 1).unwrap();
        let mut cpu = NetAgent::load_cpu(&path, 8, 1).unwrap();
        let (a, b) = (torch.choose(&rules, &start).0, cpu.choose(&rules, &start).0);
        assert!(rules.legal_mask(&start).contains(a));
        assert_eq!(a, b, "both networks see the same input");
        // Without the flag the same weights expect another input length.
        let plain = CheckpointMeta {
            shape: crate::net::NetShape {
                lookahead: 0,
                ..shape
            },
            ..meta
        };
        assert!(matches!(
            checkpoint::check_rules(&plain, &rules, &path),
            Err(CheckpointError::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn alpha_beta_over_a_network_takes_a_win_it_proves_and_needs_a_time() {
        let rules: Variant = "oware".parse().unwrap();
        let mut a = agent(&rules).with_alpha_beta(Duration::from_secs(30));
        assert_eq!(a.name(), "net@30s+ab");
        // South's one seed in F makes North's first pit two: the capture is the 25th seed. The
        // search stops at the proof, not after 30 s.
        let won = rules
            .parse_notation("0 0 0 0 0 1 1 0 0 0 0 2 | 23 21 | 0")
            .unwrap();
        let (action, analysis) = a.choose(&rules, &won);
        assert_eq!((action, analysis.value), (5, Some(1.0)));
        let shipped = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../models/oware/oware-levels-1h.ot"
        );
        let e = parse_player(&format!("{shipped}:32+ab"), 32, 1)
            .err()
            .unwrap();
        assert!(e.to_string().contains("needs a time per move"), "{e}");
        match parse_player(&format!("{shipped}@20ms+ab"), 32, 1).unwrap() {
            super::Player::Net(n) => assert_eq!(n.name(), "net:oware-levels-1h@20ms+ab"),
            other => panic!("{}", other.into_agent().0.name()),
        }
    }

    #[test]
    fn a_timed_agent_is_named_by_its_time() {
        let rules: Variant = "oware".parse().unwrap();
        let a = agent(&rules).with_movetime(Duration::from_millis(250));
        assert_eq!(a.name(), "net@250ms");
    }
}
