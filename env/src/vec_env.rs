//! # The vectorised environment: N games stepped together
//!
//! [`VecEnv`] holds `num_envs` games of one variant and steps all of them with one call,
//! spreading the games over its own pool of `threads` worker threads. It is the engine behind
//! self-play, the Python batch API and tournaments. It knows nothing of torch.
//!
//! ## The contract
//!
//! * **Buffers.** Every call writes into caller-provided, C-contiguous [`ndarray`] views
//!   ([`StepOut`]; [`Buffers`] owns a matching set). Row `i` always describes game `i`:
//!
//!   | buffer       | shape                 | type   | meaning                                              |
//!   |--------------|-----------------------|--------|------------------------------------------------------|
//!   | `obs`        | `[N, observation_len]`| `f32`  | the canonical observation, from the view of the player to move ([`Rules::observe`]), then with `lookahead` the look-ahead features ([`crate::input`]) |
//!   | `mask`       | `[N, num_actions]`    | `bool` | legal actions of the player to move (numpy `bool_`; `mask.view(np.int8)` gives 0/1 bytes) |
//!   | `to_play`    | `[N]`                 | `u8`   | the player to move, 0 (South) or 1 (North)            |
//!   | `rewards`    | `[N, 2]`              | `f32`  | reward of **each player** (column = player index, not the mover): the game's result (+1 win, −1 loss, 0 draw) on the step that ends it, 0 otherwise |
//!   | `terminated` | `[N]`                 | `bool` | the game ended by its rules on this step              |
//!   | `truncated`  | `[N]`                 | `bool` | the game reached `max_plies` (default 1000) on this step without ending; its rewards are 0 |
//!
//! * **Reset.** [`VecEnv::reset`] starts every game afresh (episode counters back to 0) and
//!   writes `obs`, `mask`, `to_play`; rewards are 0 and both flags false. Passing a seed
//!   replaces the configured one.
//! * **Auto-reset: same-step** ([`AUTORESET_MODE`], Gymnasium 1.x `AutoresetMode.SAME_STEP`).
//!   When a game terminates or is truncated in [`VecEnv::step`], it is replaced by a new game
//!   *inside that same step*: its flag and rewards describe the finished game, but `obs`,
//!   `mask` and `to_play` already describe the new game's start, so every row is always a live
//!   game and every action passed to `step` is played. The finished game stays reachable until
//!   that slot finishes its next game: [`VecEnv::final_observation`] (from the view of the
//!   player who would have moved), [`VecEnv::final_returns`] (each player's result, 0 for a
//!   truncated game), [`VecEnv::final_state`] (the whole state: scores, board, plies).
//! * **Masks.** `mask[i, a]` is true exactly when action `a` is legal in game `i`
//!   ([`Rules::legal_mask`]). Never all false: passes are automatic and finished games are
//!   replaced at once.
//! * **Actions.** `step(actions)` takes one action per game. If any action is illegal (or the
//!   slice has the wrong length) the call returns an error naming the first bad game index and
//!   its action, and **no game is changed**: all actions are validated before any is played.
//! * **Terminated vs truncated.** `terminated`: the rules ended the game (its `final_returns`
//!   are the result). `truncated`: the game was cut at `max_plies` plies while still live
//!   (`ply == max_plies`); bootstrapping from `final_observation` is appropriate.
//! * **First player.** [`FirstPlayer`]: fixed, alternating per episode (game `i`'s episode
//!   `e` starts with player `(i + e) mod 2`), or random per episode.
//! * **Determinism.** Each game draws its random numbers (random first player,
//!   [`VecEnv::sample_actions`]) from its own stream seeded by `(seed, game index, episode)`,
//!   and games never share state, so results are bit-identical for any number of threads.
//! * **Variant options** are part of the rules value: build it with
//!   `Variant::new("ncho", &[("episode".into(), "match".into())])` or use
//!   [`VecEnv::from_spec`].
//!
//! ```
//! use ayo_env::vec_env::{Buffers, VecEnv, VecEnvConfig};
//! use ayo_env::Variant;
//! let config = VecEnvConfig { num_envs: 8, threads: 1, ..VecEnvConfig::default() };
//! let mut env = VecEnv::new("oware".parse::<Variant>().unwrap(), config).unwrap();
//! let mut buf = Buffers::new(&env);
//! env.reset(Some(1), &mut buf.view_mut()).unwrap();
//! let mut actions = vec![0; 8];
//! for _ in 0..300 {
//!     env.sample_actions(&mut actions);
//!     env.step(&actions, &mut buf.view_mut()).unwrap();
//! }
//! assert!(buf.mask.rows().into_iter().all(|row| row.iter().any(|&legal| legal)));
//! ```

use crate::action::{Action, ActionMask};
use crate::error::ParseError;
use crate::input::{encode, input_len};
use crate::player::Player;
use crate::rng::Rng;
use crate::rules::Rules;
use crate::variant::{Variant, VariantState};
use ndarray::{Array1, Array2, ArrayView2, ArrayViewMut1, ArrayViewMut2};
use rayon::prelude::*;
use thiserror::Error;

/// The declared auto-reset mode, named as Gymnasium 1.x's `AutoresetMode.SAME_STEP`.
pub const AUTORESET_MODE: &str = "same-step";

/// Games per parallel task: large enough to amortise scheduling, small enough to balance.
const CHUNK: usize = 256;

/// Who moves first in each new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FirstPlayer {
    /// Always this player.
    Fixed(Player),
    /// Game `i`'s episode `e` starts with player `(i + e) mod 2`.
    Alternate,
    /// Drawn from the game's own random stream at each reset.
    Random,
}

impl std::str::FromStr for FirstPlayer {
    type Err = VecEnvError;
    /// `south` / `0`, `north` / `1`, `alternate`, `random`.
    fn from_str(s: &str) -> Result<Self, VecEnvError> {
        match s {
            "south" | "0" => Ok(FirstPlayer::Fixed(Player::South)),
            "north" | "1" => Ok(FirstPlayer::Fixed(Player::North)),
            "alternate" => Ok(FirstPlayer::Alternate),
            "random" => Ok(FirstPlayer::Random),
            _ => Err(VecEnvError::Config {
                reason: format!(
                    "unknown first player {s:?} (expected south, north, 0, 1, alternate or random)"
                ),
            }),
        }
    }
}

/// How a [`VecEnv`] is set up.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VecEnvConfig {
    /// Number of games N.
    pub num_envs: usize,
    /// Worker threads of the env's own pool; 0 = one per core.
    pub threads: usize,
    /// Seed of every game's random stream.
    pub seed: u64,
    /// A game still live after this many plies is truncated; `None`: never.
    pub max_plies: Option<u32>,
    /// Who moves first in each new game.
    pub first: FirstPlayer,
    /// Plies of look-ahead features at the end of each observation row ([`crate::input`]):
    /// 0 none, 1 what each move gains by the baselines' heuristic ([`Rules::tactics`]), 2 also
    /// what it gains once the best answer is counted.
    #[serde(default, deserialize_with = "crate::input::deserialize_lookahead")]
    pub lookahead: u8,
}

impl Default for VecEnvConfig {
    fn default() -> Self {
        VecEnvConfig {
            num_envs: 1024,
            threads: 0,
            seed: 0,
            max_plies: Some(1000),
            first: FirstPlayer::Fixed(Player::South),
            lookahead: 0,
        }
    }
}

/// What went wrong in a [`VecEnv`] call. A failed call changes no game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VecEnvError {
    #[error(
        "game {game}: action {action} is not legal (legal actions: {legal:?}); no game was changed"
    )]
    Illegal {
        game: usize,
        action: Action,
        legal: Vec<Action>,
    },
    #[error("expected {expected} actions (one per game), found {found}; no game was changed")]
    ActionCount { expected: usize, found: usize },
    #[error("buffer `{name}` has shape {found:?}, expected {expected:?} in standard (C-contiguous) layout")]
    Buffer {
        name: &'static str,
        expected: Vec<usize>,
        found: Vec<usize>,
    },
    #[error("bad vectorised env configuration: {reason}")]
    Config { reason: String },
    #[error(transparent)]
    Variant(#[from] ParseError),
}

/// Caller-provided output views for one [`VecEnv`] call (see the module doc for shapes).
pub struct StepOut<'a> {
    pub obs: ArrayViewMut2<'a, f32>,
    pub mask: ArrayViewMut2<'a, bool>,
    pub to_play: ArrayViewMut1<'a, u8>,
    pub rewards: ArrayViewMut2<'a, f32>,
    pub terminated: ArrayViewMut1<'a, bool>,
    pub truncated: ArrayViewMut1<'a, bool>,
}

/// Owned buffers of the right shapes for a [`VecEnv`].
#[derive(Clone, Debug, PartialEq)]
pub struct Buffers {
    pub obs: Array2<f32>,
    pub mask: Array2<bool>,
    pub to_play: Array1<u8>,
    pub rewards: Array2<f32>,
    pub terminated: Array1<bool>,
    pub truncated: Array1<bool>,
}

impl Buffers {
    /// Zeroed buffers shaped for `env`.
    pub fn new<R: Rules>(env: &VecEnv<R>) -> Self {
        let n = env.num_envs();
        Buffers {
            obs: Array2::zeros((n, env.observation_len())),
            mask: Array2::from_elem((n, env.num_actions()), false),
            to_play: Array1::zeros(n),
            rewards: Array2::zeros((n, 2)),
            terminated: Array1::from_elem(n, false),
            truncated: Array1::from_elem(n, false),
        }
    }

    /// Mutable views of every buffer, to pass to [`VecEnv::step`] or [`VecEnv::reset`].
    pub fn view_mut(&mut self) -> StepOut<'_> {
        StepOut {
            obs: self.obs.view_mut(),
            mask: self.mask.view_mut(),
            to_play: self.to_play.view_mut(),
            rewards: self.rewards.view_mut(),
            terminated: self.terminated.view_mut(),
            truncated: self.truncated.view_mut(),
        }
    }
}

/// N games of one variant, stepped together. See the [module documentation](self).
pub struct VecEnv<R: Rules = Variant> {
    rules: R,
    config: VecEnvConfig,
    pool: rayon::ThreadPool,
    states: Vec<R::State>,
    /// The legal actions of each live game, beside the states: checking and sampling the
    /// actions of a step reads these 8 bytes a game instead of walking the states.
    legal: Vec<ActionMask>,
    /// Episodes finished so far in each slot (the index of the game being played).
    episodes: Vec<u32>,
    /// The seed of each game's random streams (the config's, unless a reset gave one per game).
    seeds: Vec<u64>,
    rngs: Vec<Rng>,
    final_states: Vec<Option<R::State>>,
    final_obs: Vec<f32>,
    final_returns: Vec<[f32; 2]>,
}

/// Everything a [`VecEnv`] of a [`Variant`] is, as plain data (`serde`): its configuration and,
/// per game, the random stream's state and the live and last finished positions themselves
/// (states are fixed-size values with their repetition memory, so they are written exactly).
/// [`VecEnv::restore`] checks every position against the rules before using it, so a restored
/// env continues exactly as the original would. Python's pickling of `ayo.VecEnv` uses it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct VecEnvSnapshot {
    /// `name@version` of the rules, checked on restore.
    pub variant: String,
    pub config: VecEnvConfig,
    pub games: Vec<GameSnapshot>,
}

/// One slot of a [`VecEnvSnapshot`].
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameSnapshot {
    pub seed: u64,
    pub episode: u32,
    pub rng: u64,
    pub state: VariantState,
    /// The slot's last finished game (terminated or truncated), if any.
    pub last: Option<VariantState>,
}

/// One task's share of every per-game array: games `start .. start + states.len()`.
struct Chunk<'a, S> {
    start: usize,
    states: &'a mut [S],
    legal: &'a mut [ActionMask],
    episodes: &'a mut [u32],
    seeds: &'a [u64],
    rngs: &'a mut [Rng],
    final_states: &'a mut [Option<S>],
    final_obs: &'a mut [f32],
    final_returns: &'a mut [[f32; 2]],
    actions: &'a [Action],
    /// Which games play their action (all when empty).
    active: &'a [bool],
    obs: &'a mut [f32],
    mask: &'a mut [bool],
    to_play: &'a mut [u8],
    rewards: &'a mut [f32],
    terminated: &'a mut [bool],
    truncated: &'a mut [bool],
}

impl VecEnv<Variant> {
    /// A vectorised env of the variant `spec` (`name` or `name@version`) with `options`.
    pub fn from_spec(
        spec: &str,
        options: &[(String, String)],
        config: VecEnvConfig,
    ) -> Result<Self, VecEnvError> {
        VecEnv::new(Variant::new(spec, options)?, config)
    }

    /// The env as plain data, for [`VecEnv::restore`] (pickling, checkpoints of an env).
    pub fn snapshot(&self) -> VecEnvSnapshot {
        let games = (0..self.num_envs())
            .map(|i| GameSnapshot {
                seed: self.seeds[i],
                episode: self.episodes[i],
                rng: self.rngs[i].state(),
                state: self.states[i].clone(),
                last: self.final_states[i].clone(),
            })
            .collect();
        VecEnvSnapshot {
            variant: self.rules.id(),
            config: self.config.clone(),
            games,
        }
    }

    /// The env that [`VecEnv::snapshot`] described, with `threads` worker threads (0: one per
    /// core). Refused, naming what is wrong: a snapshot of other rules or another number of
    /// games, or a position that the rules do not agree with (another variant's state, a
    /// position its own notation does not reproduce with the same board, player to move and
    /// legal moves).
    pub fn restore(
        rules: Variant,
        snapshot: &VecEnvSnapshot,
        threads: usize,
    ) -> Result<Self, VecEnvError> {
        let refuse = |reason: String| VecEnvError::Config {
            reason: format!("cannot restore the env: {reason}"),
        };
        if snapshot.variant != rules.id() {
            return Err(refuse(format!(
                "the snapshot is of {}, the rules are {}",
                snapshot.variant,
                rules.id()
            )));
        }
        if snapshot.games.len() != snapshot.config.num_envs {
            return Err(refuse(format!(
                "{} games in a snapshot of num_envs = {}",
                snapshot.games.len(),
                snapshot.config.num_envs
            )));
        }
        let check = |i: usize, s: &VariantState| {
            rules
                .check_state(s)
                .map_err(|e| refuse(format!("game {i}: {e}")))
        };
        let config = VecEnvConfig {
            threads,
            ..snapshot.config.clone()
        };
        let mut env = VecEnv::new(rules.clone(), config)?;
        let obs_len = env.observation_len();
        for (i, g) in snapshot.games.iter().enumerate() {
            check(i, &g.state)?;
            env.seeds[i] = g.seed;
            env.episodes[i] = g.episode;
            env.rngs[i] = Rng::from_state(g.rng);
            env.states[i] = g.state.clone();
            env.legal[i] = env.rules.legal_mask(&g.state);
            if let Some(last) = &g.last {
                check(i, last)?;
                let out = &mut env.final_obs[i * obs_len..(i + 1) * obs_len];
                encode(&env.rules, last, env.config.lookahead, out);
                env.final_returns[i] = env.rules.returns(last);
                env.final_states[i] = Some(last.clone());
            }
        }
        Ok(env)
    }
}

impl<R: Rules> VecEnv<R> {
    /// `config.num_envs` games of `rules`, started as by [`VecEnv::reset`] (call `reset` to
    /// get the first observations).
    pub fn new(rules: R, config: VecEnvConfig) -> Result<Self, VecEnvError> {
        if config.num_envs == 0 {
            return Err(VecEnvError::Config {
                reason: "num_envs is 0, expected at least one game".into(),
            });
        }
        if config.max_plies == Some(0) {
            return Err(VecEnvError::Config {
                reason: "max_plies is 0, expected at least 1 (or none)".into(),
            });
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .thread_name(|i| format!("ayo-vec-env-{i}"))
            .build()
            .map_err(|e| VecEnvError::Config {
                reason: format!("cannot start {} threads: {e}", config.threads),
            })?;
        let n = config.num_envs;
        let obs_len = input_len(&rules, config.lookahead);
        let mut env = VecEnv {
            states: Vec::with_capacity(n),
            legal: vec![ActionMask::EMPTY; n],
            episodes: vec![0; n],
            seeds: vec![config.seed; n],
            rngs: vec![Rng::new(0); n],
            final_states: vec![None; n],
            final_obs: vec![0.0; n * obs_len],
            final_returns: vec![[0.0; 2]; n],
            rules,
            config,
            pool,
        };
        env.restart_all();
        Ok(env)
    }

    fn restart_all(&mut self) {
        self.states.clear();
        for i in 0..self.config.num_envs {
            self.episodes[i] = 0;
            self.rngs[i] = Rng::stream(self.seeds[i], &[i as u64, 0]);
            let first = first_player(self.config.first, i, 0, &mut self.rngs[i]);
            self.states.push(self.rules.start(first));
            self.legal[i] = self.rules.legal_mask(&self.states[i]);
            self.final_states[i] = None;
            self.final_returns[i] = [0.0; 2];
        }
        self.final_obs.fill(0.0);
    }

    /// Starts the next episode of game `i` (its finished game, if any, stays reachable).
    fn restart(&mut self, i: usize) {
        self.episodes[i] += 1;
        let episode = self.episodes[i];
        self.rngs[i] = Rng::stream(self.seeds[i], &[i as u64, episode as u64]);
        let first = first_player(self.config.first, i, episode, &mut self.rngs[i]);
        self.states[i] = self.rules.start(first);
        self.legal[i] = self.rules.legal_mask(&self.states[i]);
    }

    /// Starts every game afresh (with `seed` if given) and writes the first observations,
    /// masks and players to move; rewards 0, flags false.
    pub fn reset(&mut self, seed: Option<u64>, out: &mut StepOut) -> Result<(), VecEnvError> {
        self.check_buffers(out)?;
        if let Some(seed) = seed {
            self.config.seed = seed;
            self.seeds.fill(seed);
        }
        self.restart_all();
        self.run(None, &[], out);
        Ok(())
    }

    /// Starts every game afresh, game `i` seeded with `seeds[i]` (Gymnasium's
    /// `reset(seed=[...])`), and writes the first observations.
    pub fn reset_seeds(&mut self, seeds: &[u64], out: &mut StepOut) -> Result<(), VecEnvError> {
        self.check_buffers(out)?;
        if seeds.len() != self.num_envs() {
            return Err(VecEnvError::Config {
                reason: format!(
                    "{} seeds given, expected one per game ({})",
                    seeds.len(),
                    self.num_envs()
                ),
            });
        }
        self.seeds.copy_from_slice(seeds);
        self.restart_all();
        self.run(None, &[], out);
        Ok(())
    }

    /// Starts the next episode of every game `i` with `mask[i]` (the others go on) and writes
    /// every game's observation (Gymnasium's `reset(options={"reset_mask": ...})`).
    pub fn reset_some(&mut self, mask: &[bool], out: &mut StepOut) -> Result<(), VecEnvError> {
        self.check_buffers(out)?;
        if mask.len() != self.num_envs() {
            return Err(VecEnvError::Config {
                reason: format!(
                    "reset mask of {} games, expected {}",
                    mask.len(),
                    self.num_envs()
                ),
            });
        }
        for i in (0..self.num_envs()).filter(|&i| mask[i]) {
            self.restart(i);
        }
        self.run(None, &[], out);
        Ok(())
    }

    /// As [`VecEnv::step`], but only the games `i` with `active[i]` play `actions[i]`; the
    /// others are left as they are (their action is not looked at) and their rows describe
    /// their current position with zero rewards and both flags false. The building block of
    /// next-step auto-reset and of playing against a fixed opponent.
    pub fn step_some(
        &mut self,
        actions: &[Action],
        active: &[bool],
        out: &mut StepOut,
    ) -> Result<(), VecEnvError> {
        if active.len() != self.num_envs() {
            return Err(VecEnvError::Config {
                reason: format!(
                    "active mask of {} games, expected {}",
                    active.len(),
                    self.num_envs()
                ),
            });
        }
        self.step_where(actions, active, out)
    }

    /// Plays `actions[i]` in game `i` for every game, auto-resetting finished games (same-step),
    /// and writes the buffers. An illegal action is an error that names the game and changes
    /// nothing.
    pub fn step(&mut self, actions: &[Action], out: &mut StepOut) -> Result<(), VecEnvError> {
        self.step_where(actions, &[], out)
    }

    /// [`VecEnv::step`] of the games in `active` (all when empty).
    fn step_where(
        &mut self,
        actions: &[Action],
        active: &[bool],
        out: &mut StepOut,
    ) -> Result<(), VecEnvError> {
        self.check_buffers(out)?;
        if actions.len() != self.num_envs() {
            return Err(VecEnvError::ActionCount {
                expected: self.num_envs(),
                found: actions.len(),
            });
        }
        for (game, (&legal, &action)) in self.legal.iter().zip(actions).enumerate() {
            if !active.is_empty() && !active[game] {
                continue;
            }
            if !legal.contains(action) {
                return Err(VecEnvError::Illegal {
                    game,
                    action,
                    legal: legal.to_vec(),
                });
            }
        }
        self.run(Some(actions), active, out);
        Ok(())
    }

    /// Fills `actions` with one uniformly random legal action per game, drawn from each game's
    /// own stream (so it too is independent of the thread count).
    pub fn sample_actions(&mut self, actions: &mut [Action]) {
        for ((a, &legal), rng) in actions.iter_mut().zip(&self.legal).zip(&mut self.rngs) {
            *a = rng.pick(legal);
        }
    }

    fn check_buffers(&self, out: &StepOut) -> Result<(), VecEnvError> {
        let n = self.num_envs();
        let check = |name, found: &[usize], contiguous: bool, expected: Vec<usize>| {
            if found != expected.as_slice() || !contiguous {
                Err(VecEnvError::Buffer {
                    name,
                    expected,
                    found: found.to_vec(),
                })
            } else {
                Ok(())
            }
        };
        check(
            "obs",
            out.obs.shape(),
            out.obs.is_standard_layout(),
            vec![n, self.observation_len()],
        )?;
        check(
            "mask",
            out.mask.shape(),
            out.mask.is_standard_layout(),
            vec![n, self.num_actions()],
        )?;
        check(
            "to_play",
            out.to_play.shape(),
            out.to_play.is_standard_layout(),
            vec![n],
        )?;
        check(
            "rewards",
            out.rewards.shape(),
            out.rewards.is_standard_layout(),
            vec![n, 2],
        )?;
        check(
            "terminated",
            out.terminated.shape(),
            out.terminated.is_standard_layout(),
            vec![n],
        )?;
        check(
            "truncated",
            out.truncated.shape(),
            out.truncated.is_standard_layout(),
            vec![n],
        )
    }

    /// Plays `actions` (if any) and writes every buffer, in parallel over chunks of games.
    fn run(&mut self, actions: Option<&[Action]>, active: &[bool], out: &mut StepOut) {
        let obs_len = self.observation_len();
        let na = self.num_actions();
        const CHECKED: &str = "buffers were checked to be C-contiguous";
        let n = self.num_envs();
        let mut obs = out.obs.as_slice_mut().expect(CHECKED);
        let mut mask = out.mask.as_slice_mut().expect(CHECKED);
        let mut to_play = out.to_play.as_slice_mut().expect(CHECKED);
        let mut rewards = out.rewards.as_slice_mut().expect(CHECKED);
        let mut terminated = out.terminated.as_slice_mut().expect(CHECKED);
        let mut truncated = out.truncated.as_slice_mut().expect(CHECKED);
        let mut acts = actions.unwrap_or(&[]);
        let mut active = active;
        let mut seeds = self.seeds.as_slice();
        let mut states = self.states.as_mut_slice();
        let mut legal = self.legal.as_mut_slice();
        let mut episodes = self.episodes.as_mut_slice();
        let mut rngs = self.rngs.as_mut_slice();
        let mut final_states = self.final_states.as_mut_slice();
        let mut final_obs = self.final_obs.as_mut_slice();
        let mut final_returns = self.final_returns.as_mut_slice();

        let mut chunks = Vec::with_capacity(n.div_ceil(CHUNK));
        let mut start = 0;
        while start < n {
            let len = CHUNK.min(n - start);
            chunks.push(Chunk {
                start,
                states: take(&mut states, len),
                legal: take(&mut legal, len),
                episodes: take(&mut episodes, len),
                seeds: {
                    let (head, tail) = seeds.split_at(len);
                    seeds = tail;
                    head
                },
                rngs: take(&mut rngs, len),
                final_states: take(&mut final_states, len),
                final_obs: take(&mut final_obs, len * obs_len),
                final_returns: take(&mut final_returns, len),
                actions: if acts.is_empty() {
                    acts
                } else {
                    let (head, tail) = acts.split_at(len);
                    acts = tail;
                    head
                },
                active: if active.is_empty() {
                    active
                } else {
                    let (head, tail) = active.split_at(len);
                    active = tail;
                    head
                },
                obs: take(&mut obs, len * obs_len),
                mask: take(&mut mask, len * na),
                to_play: take(&mut to_play, len),
                rewards: take(&mut rewards, len * 2),
                terminated: take(&mut terminated, len),
                truncated: take(&mut truncated, len),
            });
            start += len;
        }

        let rules = &self.rules;
        let config = &self.config;
        let play = actions.is_some();
        if chunks.len() == 1 || self.pool.current_num_threads() == 1 {
            for c in chunks {
                run_chunk(rules, config, play, c);
            }
        } else {
            self.pool.install(|| {
                chunks
                    .into_par_iter()
                    .for_each(|c| run_chunk(rules, config, play, c))
            });
        }
    }

    /// The rules the games are played by.
    pub fn rules(&self) -> &R {
        &self.rules
    }
    /// The configuration (with the seed of the last reset).
    pub fn config(&self) -> &VecEnvConfig {
        &self.config
    }
    /// The declared auto-reset mode, [`AUTORESET_MODE`].
    pub fn autoreset_mode(&self) -> &'static str {
        AUTORESET_MODE
    }
    /// Number of games N.
    pub fn num_envs(&self) -> usize {
        self.config.num_envs
    }
    /// Worker threads in the env's pool.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }
    /// Length of an observation row: [`Rules::observation_len`], and [`Rules::tactics_len`]
    /// more with `lookahead`.
    pub fn observation_len(&self) -> usize {
        input_len(&self.rules, self.config.lookahead)
    }
    /// Size of the action space (columns of the mask).
    pub fn num_actions(&self) -> usize {
        self.rules.num_actions()
    }
    /// The live game in slot `i`.
    pub fn state(&self, i: usize) -> &R::State {
        &self.states[i]
    }
    /// Every live game, in slot order.
    pub fn states(&self) -> &[R::State] {
        &self.states
    }
    /// The legal actions of game `i`.
    pub fn legal_mask(&self, i: usize) -> ActionMask {
        self.legal[i]
    }
    /// Episodes finished so far in slot `i` (the index of the episode now being played).
    pub fn episode(&self, i: usize) -> u32 {
        self.episodes[i]
    }
    /// The last finished game of slot `i` (terminated or truncated), if any since the reset.
    pub fn final_state(&self, i: usize) -> Option<&R::State> {
        self.final_states[i].as_ref()
    }
    /// The observation of slot `i`'s last finished game, from the view of the player who would
    /// have moved (zeros until a game of that slot finishes).
    pub fn final_observation(&self, i: usize) -> &[f32] {
        let l = self.observation_len();
        &self.final_obs[i * l..(i + 1) * l]
    }
    /// Every slot's final observation, `[N, observation_len]`.
    pub fn final_observations(&self) -> ArrayView2<'_, f32> {
        ArrayView2::from_shape((self.num_envs(), self.observation_len()), &self.final_obs)
            .expect("final observations are N × observation_len")
    }
    /// Each player's result in slot `i`'s last finished game (0 for a truncated game).
    pub fn final_returns(&self, i: usize) -> [f32; 2] {
        self.final_returns[i]
    }
}

/// Splits the first `n` items off `rest`.
fn take<'a, T>(rest: &mut &'a mut [T], n: usize) -> &'a mut [T] {
    let (head, tail) = std::mem::take(rest).split_at_mut(n);
    *rest = tail;
    head
}

fn first_player(rule: FirstPlayer, game: usize, episode: u32, rng: &mut Rng) -> Player {
    match rule {
        FirstPlayer::Fixed(p) => p,
        FirstPlayer::Alternate => Player::BOTH[(game + episode as usize) % 2],
        FirstPlayer::Random => Player::BOTH[rng.below(2) as usize],
    }
}

/// Steps (when `play`) and observes one chunk of games.
fn run_chunk<R: Rules>(rules: &R, config: &VecEnvConfig, play: bool, c: Chunk<'_, R::State>) {
    let obs_len = input_len(rules, config.lookahead);
    let na = rules.num_actions();
    for j in 0..c.states.len() {
        let s = &mut c.states[j];
        let mut reward = [0.0f32; 2];
        let (mut term, mut trunc) = (false, false);
        if play && (c.active.is_empty() || c.active[j]) {
            rules.play_unchecked(s, c.actions[j]);
            if rules.to_play(s).is_none() {
                term = true;
                reward = rules.returns(s);
            } else if config.max_plies.is_some_and(|m| rules.ply(s) >= m) {
                trunc = true;
            }
            if term || trunc {
                c.final_returns[j] = reward;
                let out = &mut c.final_obs[j * obs_len..(j + 1) * obs_len];
                encode(rules, s, config.lookahead, out);
                let game = c.start + j;
                c.episodes[j] += 1;
                let episode = c.episodes[j];
                c.rngs[j] = Rng::stream(c.seeds[j], &[game as u64, episode as u64]);
                let first = first_player(config.first, game, episode, &mut c.rngs[j]);
                c.final_states[j] = Some(std::mem::replace(s, rules.start(first)));
            }
        }
        c.rewards[2 * j] = reward[0];
        c.rewards[2 * j + 1] = reward[1];
        c.terminated[j] = term;
        c.truncated[j] = trunc;
        encode(
            rules,
            s,
            config.lookahead,
            &mut c.obs[j * obs_len..(j + 1) * obs_len],
        );
        let legal = rules.legal_mask(s);
        c.legal[j] = legal;
        let bits = legal.0;
        for (a, m) in c.mask[j * na..(j + 1) * na].iter_mut().enumerate() {
            *m = bits >> a & 1 == 1;
        }
        c.to_play[j] = rules.to_play(s).map_or(0, |p| p.index() as u8);
    }
}
