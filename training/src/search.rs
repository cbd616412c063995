//! Batched Gumbel MCTS (Danihelka et al. 2022, with mctx's semantics; see `docs/search.md`).
//!
//! * Root: Gumbel-Top-k without replacement and sequential halving, driven by the considered-visit
//!   schedule [`considered_visits`]; the move played is the halving's winner.
//! * Interior: the deterministic `argmax pi'(a) - N(a) / (1 + ΣN)`.
//! * Completed Q with `v_mix`, the sigma transform, and the improved policy `pi'` as the
//!   training target.
//! * Values are from the view of each node's player to move; an edge flips the sign only when
//!   the player to move changes (multi-decision turns, passes), and a terminal child returns
//!   the exact result, never a network value.
//!
//! Many games are searched at once and in lockstep: every simulation step takes one leaf from
//! each game and evaluates all of them in **one** batched call of the [`Evaluator`].

use ayo_env::tablebase::Oracle;
use ayo_env::{Action, ActionMask, Player, Rules};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::cell::Cell;

/// What the search needs of a game. Every [`Rules`] is one; tests use small hand-made trees.
pub trait Game {
    type State: Clone;
    fn num_actions(&self) -> usize;
    /// The player to move, `None` when the game is over.
    fn to_play(&self, s: &Self::State) -> Option<Player>;
    fn legal_mask(&self, s: &Self::State) -> ActionMask;
    fn apply(&self, s: &mut Self::State, action: Action);
    /// The final result from each player's view (only asked of finished games).
    fn returns(&self, s: &Self::State) -> [f32; 2];
    /// The result from each player's view of a live position known without search (an
    /// endgame table's): the search ends the line there. None by default.
    fn solved(&self, _s: &Self::State) -> Option<[f32; 2]> {
        None
    }
    /// Positions answered by [`Game::solved`] so far.
    fn solved_count(&self) -> u64 {
        0
    }
}

/// A game whose positions an [`Oracle`] (an endgame table) may know the result of.
pub struct WithOracle<'a, R, O> {
    pub rules: &'a R,
    pub oracle: &'a O,
    hits: Cell<u64>,
}

impl<'a, R, O> WithOracle<'a, R, O> {
    pub fn new(rules: &'a R, oracle: &'a O) -> Self {
        WithOracle {
            rules,
            oracle,
            hits: Cell::new(0),
        }
    }
}

impl<R: Rules, O: Oracle<R::State>> Game for WithOracle<'_, R, O> {
    type State = R::State;
    fn num_actions(&self) -> usize {
        Rules::num_actions(self.rules)
    }
    #[inline]
    fn to_play(&self, s: &R::State) -> Option<Player> {
        Rules::to_play(self.rules, s)
    }
    #[inline]
    fn legal_mask(&self, s: &R::State) -> ActionMask {
        Rules::legal_mask(self.rules, s)
    }
    #[inline]
    fn apply(&self, s: &mut R::State, action: Action) {
        self.rules.play_unchecked(s, action)
    }
    fn returns(&self, s: &R::State) -> [f32; 2] {
        Rules::returns(self.rules, s)
    }
    fn solved(&self, s: &R::State) -> Option<[f32; 2]> {
        let solved = self.oracle.solve(s)?;
        self.hits.set(self.hits.get() + 1);
        Some(solved.returns())
    }
    fn solved_count(&self) -> u64 {
        self.hits.get()
    }
}

/// The score of a position (at a game's end: its final score), each player's view: the seed
/// (group) difference over half the seeds on the board, within [-1, 1]. The network's score
/// head learns it (the final position's, [`crate::selfplay`]).
pub fn final_score<R: Rules>(rules: &R, s: &R::State) -> [f32; 2] {
    let scores = rules.scores(s);
    let half = (rules.snapshot(s).total() as f32 / 2.0).max(1.0);
    let d = ((scores[0] - scores[1]) as f32 / half).clamp(-1.0, 1.0);
    [d, -d]
}

impl<R: Rules> Game for R {
    type State = R::State;
    fn num_actions(&self) -> usize {
        Rules::num_actions(self)
    }
    #[inline]
    fn to_play(&self, s: &R::State) -> Option<Player> {
        Rules::to_play(self, s)
    }
    #[inline]
    fn legal_mask(&self, s: &R::State) -> ActionMask {
        Rules::legal_mask(self, s)
    }
    #[inline]
    fn apply(&self, s: &mut R::State, action: Action) {
        self.play_unchecked(s, action)
    }
    fn returns(&self, s: &R::State) -> [f32; 2] {
        Rules::returns(self, s)
    }
}

/// Evaluates a batch of live positions: prior logits (`states.len() × num_actions`, row-major;
/// illegal entries are ignored) and values from the view of each position's player to move.
pub trait Evaluator<S> {
    fn evaluate(&mut self, states: &[&S], logits: &mut [f32], values: &mut [f32]);
}

/// The search's parameters (mctx defaults unless said otherwise).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    /// Most root actions considered by sequential halving (mctx: 16).
    pub max_considered: usize,
    /// Scale of the root's Gumbel noise (1 in self-play, 0 for deterministic play).
    pub gumbel_scale: f32,
    /// `c_visit` of the sigma transform.
    pub c_visit: f32,
    /// `c_scale` of the sigma transform.
    pub c_scale: f32,
    /// Min-max rescale the completed Q of each node to [0, 1] before sigma.
    pub rescale: bool,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            max_considered: 16,
            gumbel_scale: 1.0,
            c_visit: 50.0,
            c_scale: 0.1,
            rescale: true,
        }
    }
}

/// The outcome of one game's search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move to play: the sequential-halving winner.
    pub action: Action,
    /// The improved policy `pi'` over the whole action space (0 on illegal actions).
    pub policy: Vec<f32>,
    /// Root visit counts over the whole action space.
    pub visits: Vec<u32>,
    /// The root's mean value after the search, from the mover's view.
    pub value: f32,
    /// Simulations run.
    pub simulations: u32,
}

/// The required root visit count at each simulation (`seq_halving.py`), for `m` considered
/// actions and `n` simulations.
pub fn considered_visits(m: usize, n: usize) -> Vec<u32> {
    if m <= 1 {
        return (0..n as u32).collect();
    }
    let log2m = (m as f64).log2().ceil() as usize;
    let mut out = Vec::with_capacity(n + m);
    let mut visits = vec![0u32; m];
    let mut k = m;
    while out.len() < n {
        let rounds = (n / (log2m * k)).max(1);
        for _ in 0..rounds {
            for v in visits.iter_mut().take(k) {
                out.push(*v);
                *v += 1;
            }
        }
        k = (k / 2).max(2);
    }
    out.truncate(n);
    out
}

const NO_CHILD: u32 = u32::MAX;

#[derive(Clone, Debug)]
struct Edge {
    action: Action,
    logit: f32,
    n: u32,
    r: f32,
    gamma: f32,
    child: u32,
}

#[derive(Clone, Debug)]
struct Node<S> {
    state: S,
    /// `None` for a finished game.
    to_play: Option<Player>,
    /// The network's value.
    raw_v: f32,
    /// Mean value of the visits.
    v: f32,
    cnt: u32,
    first_edge: u32,
    num_edges: u32,
}

/// One game's search tree: nodes and their legal edges in flat arrays.
struct Tree<S> {
    nodes: Vec<Node<S>>,
    edges: Vec<Edge>,
    gumbel: Vec<f32>,
    schedule: Vec<u32>,
    simulations: u32,
}

impl<S: Clone> Tree<S> {
    fn empty() -> Self {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            gumbel: Vec::new(),
            schedule: Vec::new(),
            simulations: 0,
        }
    }

    fn add_node<G: Game<State = S>>(
        &mut self,
        game: &G,
        state: S,
        logits: &[f32],
        raw_v: f32,
    ) -> u32 {
        let to_play = game.to_play(&state);
        let first_edge = self.edges.len() as u32;
        if to_play.is_some() {
            let mask = game.legal_mask(&state);
            let max = mask
                .iter()
                .map(|a| logits[a as usize])
                .fold(f32::NEG_INFINITY, f32::max);
            for a in mask.iter() {
                self.edges.push(Edge {
                    action: a,
                    logit: logits[a as usize] - max,
                    n: 0,
                    r: 0.0,
                    gamma: 0.0,
                    child: NO_CHILD,
                });
            }
        }
        let num_edges = self.edges.len() as u32 - first_edge;
        let v = if to_play.is_some() { raw_v } else { 0.0 };
        self.nodes.push(Node {
            state,
            to_play,
            raw_v: v,
            v,
            cnt: 1,
            first_edge,
            num_edges,
        });
        self.nodes.len() as u32 - 1
    }

    /// A leaf that is not searched below: a finished game, or one whose result is known.
    fn add_end(&mut self, state: S) -> u32 {
        self.nodes.push(Node {
            state,
            to_play: None,
            raw_v: 0.0,
            v: 0.0,
            cnt: 1,
            first_edge: self.edges.len() as u32,
            num_edges: 0,
        });
        self.nodes.len() as u32 - 1
    }

    fn edge_range(&self, node: u32) -> std::ops::Range<usize> {
        let nd = &self.nodes[node as usize];
        nd.first_edge as usize..(nd.first_edge + nd.num_edges) as usize
    }

    fn q(&self, e: &Edge) -> f32 {
        let child_v = if e.child == NO_CHILD {
            0.0
        } else {
            self.nodes[e.child as usize].v
        };
        e.r + e.gamma * child_v
    }

    /// `sigma(completedQ)` of every edge of `node` into `out`; returns the edges' prior softmax too.
    fn sigma(
        &self,
        node: u32,
        num_actions: usize,
        p: &SearchParams,
        out: &mut Vec<f32>,
        prior: &mut Vec<f32>,
    ) {
        let range = self.edge_range(node);
        let edges = &self.edges[range];
        softmax_into(edges.iter().map(|e| e.logit), prior);
        let sum_n: u32 = edges.iter().map(|e| e.n).sum();
        let max_n = edges.iter().map(|e| e.n).max().unwrap_or(0);
        let (mut wq, mut wp) = (0.0f64, 0.0f64);
        for (e, &pi) in edges.iter().zip(prior.iter()) {
            if e.n > 0 {
                let pi = (pi as f64).max(f32::MIN_POSITIVE as f64);
                wq += pi * self.q(e) as f64;
                wp += pi;
            }
        }
        let raw_v = self.nodes[node as usize].raw_v as f64;
        let v_mix = if sum_n > 0 {
            (raw_v + sum_n as f64 * (wq / wp)) / (sum_n as f64 + 1.0)
        } else {
            raw_v
        };
        out.clear();
        out.extend(
            edges
                .iter()
                .map(|e| if e.n > 0 { self.q(e) as f64 } else { v_mix } as f32),
        );
        if p.rescale {
            let mut lo = out.iter().copied().fold(f32::INFINITY, f32::min);
            let mut hi = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            if edges.len() < num_actions {
                // mctx keeps illegal actions in the vector with the value v_mix.
                lo = lo.min(v_mix as f32);
                hi = hi.max(v_mix as f32);
            }
            let span = (hi - lo).max(1e-8);
            for c in out.iter_mut() {
                *c = (*c - lo) / span;
            }
        }
        let scale = (p.c_visit + max_n as f32) * p.c_scale;
        for c in out.iter_mut() {
            *c *= scale;
        }
    }

    /// The root edge (index into `edges`) with `n == wanted` maximising `g + logit + sigma`.
    fn root_pick(&self, wanted: u32, sigma: &[f32]) -> usize {
        let range = self.edge_range(0);
        let mut best = (f32::NEG_INFINITY, usize::MAX);
        for (i, e) in self.edges[range.clone()].iter().enumerate() {
            if e.n != wanted {
                continue;
            }
            let score = (self.gumbel[e.action as usize] + e.logit + sigma[i]).max(-1e9);
            if score > best.0 {
                best = (score, i);
            }
        }
        assert!(
            best.1 != usize::MAX,
            "the halving schedule lost track of the root visits"
        );
        range.start + best.1
    }

    /// The interior edge (index into `edges`) maximising `pi'(a) - N(a) / (1 + ΣN)`.
    fn interior_pick(&self, node: u32, sigma: &[f32], buf: &mut Vec<f32>) -> usize {
        let range = self.edge_range(node);
        let edges = &self.edges[range.clone()];
        softmax_into(edges.iter().zip(sigma).map(|(e, s)| e.logit + s), buf);
        let sum_n: u32 = edges.iter().map(|e| e.n).sum();
        let mut best = (f32::NEG_INFINITY, 0);
        for (i, (e, &pi)) in edges.iter().zip(buf.iter()).enumerate() {
            let score = pi - e.n as f32 / (1.0 + sum_n as f32);
            if score > best.0 {
                best = (score, i);
            }
        }
        range.start + best.1
    }

    /// Walks from the root to an edge whose child is new or terminal; the path is
    /// (node, edge index) pairs.
    fn select(
        &self,
        t: usize,
        num_actions: usize,
        p: &SearchParams,
        path: &mut Vec<(u32, u32)>,
        bufs: &mut Bufs,
    ) {
        path.clear();
        let mut node = 0u32;
        loop {
            self.sigma(node, num_actions, p, &mut bufs.sigma, &mut bufs.prior);
            let e = if node == 0 {
                self.root_pick(self.schedule[t], &bufs.sigma)
            } else {
                self.interior_pick(node, &bufs.sigma, &mut bufs.prior)
            };
            path.push((node, e as u32));
            let child = self.edges[e].child;
            if child == NO_CHILD || self.nodes[child as usize].to_play.is_none() {
                return;
            }
            node = child;
        }
    }

    /// Backs `leaf` (the last edge's child value) up the path, mctx's order.
    fn backup(&mut self, path: &[(u32, u32)], leaf: f32) {
        let mut g = leaf;
        for &(node, e) in path.iter().rev() {
            let edge = &mut self.edges[e as usize];
            g = edge.r + edge.gamma * g;
            edge.n += 1;
            let nd = &mut self.nodes[node as usize];
            let k = nd.cnt as f32;
            nd.v = (nd.v * k + g) / (k + 1.0);
            nd.cnt += 1;
        }
    }
}

#[derive(Default)]
struct Bufs {
    sigma: Vec<f32>,
    prior: Vec<f32>,
}

fn softmax_into(xs: impl Iterator<Item = f32> + Clone, out: &mut Vec<f32>) {
    out.clear();
    out.extend(xs);
    let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in out.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in out.iter_mut() {
        *x /= sum;
    }
}

/// One Gumbel draw per action: `scale · -ln(-ln U)`, U uniform on the open interval (0, 1).
pub fn draw_gumbel(rng: &mut impl Rng, num_actions: usize, scale: f32) -> Vec<f32> {
    (0..num_actions)
        .map(|_| {
            if scale == 0.0 {
                return 0.0;
            }
            let mut u: f64 = rng.gen();
            while u <= 0.0 {
                u = rng.gen();
            }
            scale * (-(-u.ln()).ln()) as f32
        })
        .collect()
}

/// Searches every game in `roots` (none finished) with `simulations[i]` simulations each,
/// drawing the root noise from `rng`.
pub fn gumbel_search<G: Game, E: Evaluator<G::State>>(
    game: &G,
    roots: &[&G::State],
    simulations: &[u32],
    params: &SearchParams,
    evaluator: &mut E,
    rng: &mut impl Rng,
) -> Vec<SearchResult> {
    let noise: Vec<Vec<f32>> = roots
        .iter()
        .map(|_| draw_gumbel(rng, game.num_actions(), params.gumbel_scale))
        .collect();
    search_with_noise(game, roots, simulations, params, evaluator, noise)
}

/// [`gumbel_search`] with the Gumbel vectors given (one per root, indexed by action).
pub fn search_with_noise<G: Game, E: Evaluator<G::State>>(
    game: &G,
    roots: &[&G::State],
    simulations: &[u32],
    params: &SearchParams,
    evaluator: &mut E,
    noise: Vec<Vec<f32>>,
) -> Vec<SearchResult> {
    let a = game.num_actions();
    assert_eq!(simulations.len(), roots.len());
    let mut trees = new_trees(game, roots, evaluator);
    for ((tree, g), &sims) in trees.iter_mut().zip(noise).zip(simulations) {
        tree.plan(g, sims, params);
    }
    simulate(game, &mut trees, params, evaluator);
    trees.iter().map(|t| t.result(a, params)).collect()
}

/// A tree of its root alone for each of `roots` (none finished), evaluated in one call.
fn new_trees<G: Game, E: Evaluator<G::State>>(
    game: &G,
    roots: &[&G::State],
    evaluator: &mut E,
) -> Vec<Tree<G::State>> {
    let (a, b) = (game.num_actions(), roots.len());
    let mut logits = vec![0.0f32; b * a];
    let mut values = vec![0.0f32; b];
    evaluator.evaluate(roots, &mut logits, &mut values);
    let mut trees = Vec::with_capacity(b);
    for (i, &root) in roots.iter().enumerate() {
        assert!(game.to_play(root).is_some(), "search of a finished game");
        let mut tree = Tree::empty();
        let logits = &logits[i * a..(i + 1) * a];
        tree.add_node(game, root.clone(), logits, values[i]);
        trees.push(tree);
    }
    trees
}

/// Runs the planned simulations of every tree, in lockstep: each step takes one leaf from
/// each game still searching and evaluates all of them in one call of the evaluator.
fn simulate<G: Game, E: Evaluator<G::State>>(
    game: &G,
    trees: &mut [Tree<G::State>],
    params: &SearchParams,
    evaluator: &mut E,
) {
    let a = game.num_actions();
    let b = trees.len();
    let mut logits = vec![0.0f32; b * a];
    let mut values = vec![0.0f32; b];
    let max_sims = trees.iter().map(|t| t.simulations).max().unwrap_or(0);
    let mut paths: Vec<Vec<(u32, u32)>> = vec![Vec::new(); b];
    let mut bufs = Bufs::default();
    let mut pending_games: Vec<usize> = Vec::with_capacity(b);
    let mut pending_states: Vec<G::State> = Vec::with_capacity(b);
    for t in 0..max_sims as usize {
        pending_games.clear();
        pending_states.clear();
        for (i, tree) in trees.iter_mut().enumerate() {
            if t >= tree.simulations as usize {
                continue;
            }
            let path = &mut paths[i];
            tree.select(t, a, params, path, &mut bufs);
            let (node, e) = *path.last().unwrap();
            let edge = &tree.edges[e as usize];
            if edge.child != NO_CHILD {
                // A terminal child again: the same exact return, no evaluation.
                tree.backup(path, 0.0);
                continue;
            }
            let mover = tree.nodes[node as usize].to_play.expect("live node");
            let mut state = tree.nodes[node as usize].state.clone();
            game.apply(&mut state, edge.action);
            let known = match game.to_play(&state) {
                None => Some(game.returns(&state)),
                Some(_) => game.solved(&state),
            };
            match known {
                // The game's end, or a result known without search: a leaf worth it.
                Some(returns) => {
                    let child = tree.add_end(state);
                    let edge = &mut tree.edges[e as usize];
                    (edge.r, edge.gamma, edge.child) = (returns[mover.index()], 0.0, child);
                    tree.backup(path, 0.0);
                }
                None => {
                    pending_games.push(i);
                    pending_states.push(state);
                }
            }
        }
        if pending_games.is_empty() {
            continue;
        }
        let n = pending_games.len();
        let refs: Vec<&G::State> = pending_states.iter().collect();
        evaluator.evaluate(&refs, &mut logits[..n * a], &mut values[..n]);
        drop(refs);
        for (j, (&i, state)) in pending_games
            .iter()
            .zip(pending_states.drain(..))
            .enumerate()
        {
            let tree = &mut trees[i];
            let path = &paths[i];
            let (node, e) = *path.last().unwrap();
            let mover = tree.nodes[node as usize].to_play;
            let next = game.to_play(&state);
            let logits = &logits[j * a..(j + 1) * a];
            let child = tree.add_node(game, state, logits, values[j]);
            let edge = &mut tree.edges[e as usize];
            edge.gamma = if next == mover { 1.0 } else { -1.0 };
            edge.child = child;
            tree.backup(path, values[j]);
        }
    }
}

impl<S: Clone> Tree<S> {
    /// Prepares a search of `simulations` from the root with the root noise `gumbel`: the
    /// halving schedule, and the root's visit counts set to zero (a kept tree's subtrees keep
    /// theirs). A root with one legal move is not searched.
    fn plan(&mut self, gumbel: Vec<f32>, simulations: u32, params: &SearchParams) {
        let range = self.edge_range(0);
        for e in &mut self.edges[range.clone()] {
            e.n = 0;
        }
        let k = range.len();
        self.gumbel = gumbel;
        self.simulations = if k > 1 { simulations } else { 0 };
        self.schedule = considered_visits(params.max_considered.min(k), self.simulations as usize);
    }

    /// The outcome of the search: the halving's winner, `pi'`, the visits and the values.
    fn result(&self, a: usize, params: &SearchParams) -> SearchResult {
        let mut sigma = Vec::new();
        let mut prior = Vec::new();
        self.sigma(0, a, params, &mut sigma, &mut prior);
        let range = self.edge_range(0);
        let edges = &self.edges[range];
        let max_n = edges.iter().map(|e| e.n).max().unwrap_or(0);
        let mut best = (f32::NEG_INFINITY, 0usize);
        for (i, e) in edges.iter().enumerate() {
            let score = (self.gumbel[e.action as usize] + e.logit + sigma[i]).max(-1e9);
            if e.n == max_n && score > best.0 {
                best = (score, i);
            }
        }
        let mut improved = Vec::new();
        softmax_into(
            edges.iter().zip(&sigma).map(|(e, s)| e.logit + s),
            &mut improved,
        );
        let mut policy = vec![0.0; a];
        let mut visits = vec![0; a];
        for (e, p) in edges.iter().zip(improved) {
            policy[e.action as usize] = p;
            visits[e.action as usize] = e.n;
        }
        SearchResult {
            action: edges[best.1].action,
            policy,
            visits,
            value: self.nodes[0].v,
            simulations: self.simulations,
        }
    }

    /// The most visited line from the root after its first move `first`.
    fn principal_variation(&self, first: Action) -> Vec<Action> {
        let mut pv = vec![first];
        let mut edge = self.edge_range(0).find(|&e| self.edges[e].action == first);
        while let Some(e) = edge {
            let child = self.edges[e].child;
            if child == NO_CHILD {
                break;
            }
            edge = self
                .edge_range(child)
                .filter(|&e| self.edges[e].n > 0)
                .max_by_key(|&e| self.edges[e].n);
            if let Some(e) = edge {
                pv.push(self.edges[e].action);
            }
        }
        pv
    }

    /// The subtree below `node` as a tree of its own (nodes and edges renumbered).
    fn subtree(&self, node: u32) -> Tree<S> {
        let mut out = Tree::empty();
        // Copy breadth first; `queue[k]` is the old index of new node `k`.
        let mut queue = vec![node];
        let mut k = 0;
        while k < queue.len() {
            let old = &self.nodes[queue[k] as usize];
            let first_edge = out.edges.len() as u32;
            for e in self.edge_range(queue[k]) {
                let mut edge = self.edges[e].clone();
                if edge.child != NO_CHILD {
                    queue.push(edge.child);
                    edge.child = queue.len() as u32 - 1;
                }
                out.edges.push(edge);
            }
            out.nodes.push(Node {
                state: old.state.clone(),
                to_play: old.to_play,
                raw_v: old.raw_v,
                v: old.v,
                cnt: old.cnt,
                first_edge,
                num_edges: old.num_edges,
            });
            k += 1;
        }
        out
    }
}

/// One game's search tree, kept after a search so that the next search of the same game can
/// start from it (`ayo engine`'s analysis, thinking in rounds, and moves that follow).
pub struct SearchTree<S> {
    tree: Tree<S>,
}

impl<S: Clone + PartialEq> SearchTree<S> {
    /// The subtree whose root is `state`, when the tree reached that position within `plies`
    /// plies of its root (the game went on along the tree); `None` otherwise.
    pub fn reroot(self, state: &S, plies: usize) -> Option<SearchTree<S>> {
        let mut frontier = vec![0u32];
        for depth in 0..=plies {
            if let Some(&n) = frontier
                .iter()
                .find(|&&n| self.tree.nodes[n as usize].state == *state)
            {
                // A leaf that was not searched (a finished game, a known result): a new tree.
                self.tree.nodes[n as usize].to_play?;
                let tree = if n == 0 {
                    self.tree
                } else {
                    self.tree.subtree(n)
                };
                return Some(SearchTree { tree });
            }
            if depth == plies {
                break;
            }
            frontier = frontier
                .iter()
                .flat_map(|&n| self.tree.edge_range(n))
                .map(|e| self.tree.edges[e].child)
                .filter(|&c| c != NO_CHILD)
                .collect();
        }
        None
    }

    /// Visits of the root so far (all searches that built this tree).
    pub fn root_visits(&self) -> u32 {
        self.tree.nodes[0].cnt
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.tree.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tree.nodes.is_empty()
    }
}

/// Searches one game with `simulations` more simulations, starting from `kept` (whose root
/// must be `root`: see [`SearchTree::reroot`]) or from a new tree, and returns the result, the
/// principal variation and the tree for the next search. The root's halving starts afresh
/// (new noise, its visit counts from zero); the subtrees keep their visits and values.
pub fn search_kept<G, E>(
    game: &G,
    root: &G::State,
    kept: Option<SearchTree<G::State>>,
    simulations: u32,
    params: &SearchParams,
    evaluator: &mut E,
    rng: &mut impl Rng,
) -> (SearchResult, Vec<Action>, SearchTree<G::State>)
where
    G: Game,
    G::State: PartialEq,
    E: Evaluator<G::State>,
{
    assert!(game.to_play(root).is_some(), "search of a finished game");
    let a = game.num_actions();
    let mut tree = match kept {
        Some(k) => {
            assert!(
                k.tree.nodes[0].state == *root,
                "a kept tree of another position"
            );
            k.tree
        }
        None => new_trees(game, &[root], evaluator).remove(0),
    };
    tree.plan(
        draw_gumbel(rng, a, params.gumbel_scale),
        simulations,
        params,
    );
    let mut trees = [tree];
    simulate(game, &mut trees, params, evaluator);
    let [tree] = trees;
    let result = tree.result(a, params);
    let pv = tree.principal_variation(result.action);
    (result, pv, SearchTree { tree })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn considered_visits_match_the_table() {
        let s = |m, n| considered_visits(m, n);
        assert_eq!(s(2, 8), vec![0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(s(3, 8), vec![0, 0, 0, 1, 1, 2, 2, 3]);
        assert_eq!(
            s(4, 16),
            vec![0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
        );
        assert_eq!(
            s(5, 16),
            vec![0, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]
        );
        assert_eq!(
            s(6, 16),
            vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5]
        );
        assert_eq!(s(8, 5), vec![0; 5]);
        // mctx's policies_test: n = 17, m = 4 gives root visits {7, 6, 2, 2}.
        let mut n = [0u32; 4];
        for (t, &cv) in s(4, 17).iter().enumerate() {
            let i = n
                .iter()
                .position(|&x| x == cv)
                .expect("a candidate at every step");
            let _ = t;
            n[i] += 1;
        }
        let mut sorted = n.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(sorted, vec![7, 6, 2, 2]);
    }

    /// The toy tree of docs/search.md section 9: states are action paths.
    struct Toy;
    fn toy_net(path: &[u8]) -> (Player, Vec<u8>, [f32; 4], f32) {
        use Player::*;
        match path {
            [] => (South, vec![0, 1, 2, 3], [1.0, 0.5, 0.0, -0.5], 0.1),
            [0] => (North, vec![0, 1, 2], [0.2, 0.0, -0.3, 0.0], -0.2),
            [1] => (North, vec![0, 1, 2, 3], [0.0; 4], 0.3),
            [2] => (South, vec![1, 3], [0.0, 0.5, 0.0, 0.0], 0.25),
            _ => {
                let parent = toy_net(&path[..path.len() - 1]).0;
                let v = match path {
                    [0, 0] => 0.5,
                    [0, 1] => -0.1,
                    [2, 1] => 0.6,
                    [2, 3] => 0.2,
                    [1, ..] => -0.4,
                    _ => 0.0,
                };
                (!parent, vec![0, 1, 2, 3], [0.0; 4], v)
            }
        }
    }
    impl Game for Toy {
        type State = Vec<u8>;
        fn num_actions(&self) -> usize {
            4
        }
        fn to_play(&self, s: &Vec<u8>) -> Option<Player> {
            (s.as_slice() != [3]).then(|| toy_net(s).0)
        }
        fn legal_mask(&self, s: &Vec<u8>) -> ActionMask {
            toy_net(s).1.into_iter().collect()
        }
        fn apply(&self, s: &mut Vec<u8>, action: Action) {
            s.push(action)
        }
        fn returns(&self, _: &Vec<u8>) -> [f32; 2] {
            [-1.0, 1.0] // (3): the mover, player 0, loses
        }
    }
    struct ToyNet(usize);
    impl Evaluator<Vec<u8>> for ToyNet {
        fn evaluate(&mut self, states: &[&Vec<u8>], logits: &mut [f32], values: &mut [f32]) {
            self.0 += states.len();
            for (i, s) in states.iter().enumerate() {
                let (_, _, l, v) = toy_net(s);
                logits[i * 4..i * 4 + 4].copy_from_slice(&l);
                values[i] = v;
            }
        }
    }

    fn close(got: &[f32], want: &[f32], tol: f32) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < tol, "got {got:?}, want {want:?}");
        }
    }

    /// The toy game where the table knows position [1] (North to move after South's 1): a
    /// South win.
    struct ToyWithTable;
    impl Game for ToyWithTable {
        type State = Vec<u8>;
        fn num_actions(&self) -> usize {
            4
        }
        fn to_play(&self, s: &Vec<u8>) -> Option<Player> {
            Toy.to_play(s)
        }
        fn legal_mask(&self, s: &Vec<u8>) -> ActionMask {
            Toy.legal_mask(s)
        }
        fn apply(&self, s: &mut Vec<u8>, action: Action) {
            Toy.apply(s, action)
        }
        fn returns(&self, s: &Vec<u8>) -> [f32; 2] {
            Toy.returns(s)
        }
        fn solved(&self, s: &Vec<u8>) -> Option<[f32; 2]> {
            (s.as_slice() == [1]).then_some([1.0, -1.0])
        }
    }

    #[test]
    fn a_known_result_ends_the_line_and_is_worth_it() {
        let params = SearchParams {
            gumbel_scale: 0.0,
            ..Default::default()
        };
        // The network prefers 0 and thinks little of [1] (−0.4 below it); the table says [1]
        // wins for South: the search plays 1, its improved policy follows it, and it never evaluates [1] or below.
        struct Watch(ToyNet);
        impl Evaluator<Vec<u8>> for Watch {
            fn evaluate(&mut self, states: &[&Vec<u8>], logits: &mut [f32], values: &mut [f32]) {
                assert!(states.iter().all(|s| s.first() != Some(&1)), "{states:?}");
                self.0.evaluate(states, logits, values)
            }
        }
        let mut rng = rand::rngs::mock::StepRng::new(0, 1);
        let mut net = Watch(ToyNet(0));
        let (r, _, tree) = search_kept(
            &ToyWithTable,
            &vec![],
            None,
            32,
            &params,
            &mut net,
            &mut rng,
        );
        assert_eq!(r.action, 1, "{r:?}");
        assert!(
            r.policy[1] > 0.8,
            "the improved policy follows the known win: {r:?}"
        );
        assert!(
            tree.reroot(&vec![1], 1).is_none(),
            "a known result is not searched below"
        );
        let plain = search_kept(&Toy, &vec![], None, 32, &params, &mut ToyNet(0), &mut rng).0;
        assert_ne!(plain.action, 1, "without the table 1 looks bad: {plain:?}");
    }

    #[test]
    fn worked_example_mctx_defaults() {
        let params = SearchParams::default();
        let noise = vec![vec![-0.2, 0.9, 0.4, 0.1]];
        let mut net = ToyNet(0);
        let r = search_with_noise(&Toy, &[&vec![]], &[8], &params, &mut net, noise).remove(0);
        assert_eq!(r.visits, vec![3, 1, 3, 1]);
        assert_eq!(r.action, 0);
        assert!((r.value - -0.1278).abs() < 1e-4, "root value {}", r.value);
        close(&r.policy, &[0.8807, 0.0587, 0.0596, 0.0009809], 1e-4);
        // 1 root + 7 leaves; the terminal edge (3) needs no evaluation.
        assert_eq!(net.0, 8);
    }

    #[test]
    fn a_kept_tree_search_is_the_search_and_goes_on_below_the_move_played() {
        let params = SearchParams {
            gumbel_scale: 0.0,
            ..Default::default()
        };
        let mut rng = rand::rngs::mock::StepRng::new(0, 1);
        let mut net = ToyNet(0);
        let fresh = search_with_noise(
            &Toy,
            &[&vec![]],
            &[8],
            &params,
            &mut net,
            vec![vec![0.0; 4]],
        )
        .remove(0);
        let mut net = ToyNet(0);
        let (r, pv, tree) = search_kept(&Toy, &vec![], None, 8, &params, &mut net, &mut rng);
        assert_eq!((r.visits.clone(), r.action), (fresh.visits, fresh.action));
        assert_eq!(r.value, fresh.value);
        assert_eq!(pv[0], r.action);
        assert_eq!(
            tree.root_visits(),
            9,
            "the root's evaluation and 8 simulations"
        );
        assert!(tree.len() > 4);

        // The game goes on with action 0: the subtree below it is kept, with its visits.
        let below = tree.reroot(&vec![0], 2).expect("action 0 was searched");
        assert_eq!(below.root_visits(), r.visits[0]);
        let (r2, _, below) =
            search_kept(&Toy, &vec![0], Some(below), 4, &params, &mut net, &mut rng);
        assert_eq!(below.root_visits(), r.visits[0] + 4, "4 more simulations");
        assert_eq!(
            r2.visits.iter().sum::<u32>(),
            4,
            "the root's halving starts afresh"
        );
        assert!(below.reroot(&vec![3, 3], 3).is_none(), "never reached");
    }

    #[test]
    fn worked_example_paper_scaling() {
        let params = SearchParams {
            c_scale: 0.5,
            rescale: false,
            ..Default::default()
        };
        let noise = vec![vec![-0.2, 0.9, 0.4, 0.1]];
        let r = search_with_noise(&Toy, &[&vec![]], &[8], &params, &mut ToyNet(0), noise).remove(0);
        assert_eq!(r.visits, vec![3, 1, 3, 1]);
        assert_eq!(r.action, 0);
        // The reference prints 4 significant digits.
        let want = [0.99998, 1.068e-06, 1.426e-05, 3.451e-15];
        for (g, w) in r.policy.iter().zip(want) {
            assert!(
                (g - w).abs() <= 1e-3 * w + 1e-6,
                "got {:?}, want {want:?}",
                r.policy
            );
        }
    }

    /// mctx `policies_test::test_gumbel_muzero_policy`'s bandit: logits [0, -1, 2, 3], legal
    /// {1, 2}, rewards [3, -1], root value -5.
    struct Bandit;
    impl Game for Bandit {
        type State = Option<u8>;
        fn num_actions(&self) -> usize {
            4
        }
        fn to_play(&self, s: &Option<u8>) -> Option<Player> {
            s.is_none().then_some(Player::South)
        }
        fn legal_mask(&self, _: &Option<u8>) -> ActionMask {
            [1, 2].into_iter().collect()
        }
        fn apply(&self, s: &mut Option<u8>, action: Action) {
            *s = Some(action)
        }
        fn returns(&self, s: &Option<u8>) -> [f32; 2] {
            let r = if *s == Some(1) { 3.0 } else { -1.0 };
            [r, -r]
        }
    }
    struct BanditNet;
    impl Evaluator<Option<u8>> for BanditNet {
        fn evaluate(&mut self, states: &[&Option<u8>], logits: &mut [f32], values: &mut [f32]) {
            for i in 0..states.len() {
                logits[i * 4..i * 4 + 4].copy_from_slice(&[0.0, -1.0, 2.0, 3.0]);
                values[i] = -5.0;
            }
        }
    }

    #[test]
    fn improved_policy_matches_mctx_bandit_test() {
        let params = SearchParams {
            c_visit: 60.0,
            c_scale: 0.05,
            ..Default::default()
        };
        let mut rng = rand::rngs::mock::StepRng::new(1 << 40, 1 << 50);
        let r =
            gumbel_search(&Bandit, &[&None], &[17], &params, &mut BanditNet, &mut rng).remove(0);
        close(&r.policy, &[0.0, 0.601869, 0.398131, 0.0], 1e-5);
        assert_eq!(r.visits[1] + r.visits[2], 17);
    }

    #[test]
    fn gumbel_root_picks_the_best_arm_of_a_bandit() {
        use rand::SeedableRng;
        // A uniform prior: only the search can tell the arms apart.
        struct Uniform;
        impl Evaluator<Option<u8>> for Uniform {
            fn evaluate(&mut self, states: &[&Option<u8>], logits: &mut [f32], values: &mut [f32]) {
                logits[..states.len() * 4].fill(0.0);
                values[..states.len()].fill(0.0);
            }
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let roots = [None; 64];
        let refs: Vec<&Option<u8>> = roots.iter().collect();
        let results = gumbel_search(
            &Bandit,
            &refs,
            &vec![16; 64],
            &SearchParams::default(),
            &mut Uniform,
            &mut rng,
        );
        let best = results.iter().filter(|r| r.action == 1).count();
        assert!(
            best >= 62,
            "the best arm was chosen in only {best} of 64 searches"
        );
        assert!(results.iter().all(|r| r.policy[1] > 0.99));
    }
}

#[cfg(test)]
mod oware_tests {
    use super::*;
    use ayo_env::{Rules, Variant, VariantState};

    /// Prefers `favourite` strongly and values every position at 0: only terminal returns,
    /// which the search computes exactly, can show the way.
    struct Misleading(Action);
    impl Evaluator<VariantState> for Misleading {
        fn evaluate(&mut self, states: &[&VariantState], logits: &mut [f32], values: &mut [f32]) {
            for i in 0..states.len() {
                for a in 0..6 {
                    logits[i * 6 + a] = if a == self.0 as usize { 5.0 } else { 0.0 };
                }
                values[i] = 0.0;
            }
        }
    }

    /// Deterministic play (no root noise), as in evaluation.
    fn exact() -> SearchParams {
        SearchParams {
            gumbel_scale: 0.0,
            ..Default::default()
        }
    }

    #[test]
    fn search_finds_a_forced_win_in_an_oware_endgame() {
        let rules: Variant = "oware".parse().unwrap();
        // South to move with 23 seeds taken: F (pit 5) sows its seed into North's pit 6,
        // making 2, which South takes: 25 > 24 wins. A (pit 0) does not.
        let pos = rules
            .parse_notation("1 0 0 0 0 1 1 0 0 0 2 0 | 23 20 | 0")
            .unwrap();
        let mut check = pos.clone();
        rules.play(&mut check, 5).unwrap();
        assert!(
            rules.is_terminal(&check) && Rules::returns(&rules, &check)[0] == 1.0,
            "the constructed win"
        );
        let mut rng = rand::rngs::mock::StepRng::new(0, 1 << 60);
        for sims in [2, 8, 32] {
            let r = gumbel_search(
                &rules,
                &[&pos],
                &[sims],
                &exact(),
                &mut Misleading(0),
                &mut rng,
            )
            .remove(0);
            assert_eq!(r.action, 5, "{sims} simulations: {r:?}");
            // The sigma bonus of a win (up to (50 + maxN) · 0.1 nats) outweighs the prior's 5 nats.
            assert!(r.policy[5] > 0.5, "{r:?}");
        }
    }

    #[test]
    fn search_avoids_a_forced_loss_two_plies_deep() {
        let rules: Variant = "oware".parse().unwrap();
        // South to move; North threatens F-style capture of 2 with his pit 11 → pit 0 unless
        // South empties pit 0 first. South's pit 0 holds 1: moving it (A) leaves nothing to take.
        // North leads 23 stores to 21: a capture of 2 wins for him.
        let pos = rules
            .parse_notation("1 0 0 2 0 0 0 0 0 0 0 1 | 21 23 | 0")
            .unwrap();
        // After D (pit 3: 2 seeds into pits 4, 5), North's pit 11 sows into pit 0 making 2: taken.
        let mut lose = pos.clone();
        rules.play(&mut lose, 3).unwrap();
        rules.play(&mut lose, 5).unwrap();
        assert!(
            rules.is_terminal(&lose) && Rules::returns(&rules, &lose)[1] == 1.0,
            "the constructed threat"
        );
        let mut rng = rand::rngs::mock::StepRng::new(0, 1 << 60);
        let r = gumbel_search(
            &rules,
            &[&pos],
            &[32],
            &exact(),
            &mut Misleading(3),
            &mut rng,
        )
        .remove(0);
        assert_eq!(r.action, 0, "{r:?}");
    }
}
