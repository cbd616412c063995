//! Ratings from paired games: Bradley–Terry Elo with bootstrap intervals, likelihood of
//! superiority, cross-tables, pentanomial counts and the pentanomial SPRT.
//!
//! Pure statistics (no games, no torch), so it lives in `ayo-env` and its tests run fast;
//! `ayo tournament` and evaluation during training use it.
//!
//! Games come in **pairs**: the same opening played twice, each player once in each seat
//! (mancala's first-move advantage makes this essential). A pair is the unit of sampling:
//! the bootstrap resamples pairs, and the SPRT counts pair scores (the *pentanomial* model:
//! a pair scores 0, ½, 1, 1½ or 2 points), because the two games of a pair are not independent.
//!
//! * Elo is logistic: a player `d` Elo stronger expects the score `1 / (1 + 10^(−d/400))`.
//! * [`bradley_terry`] is the maximum-likelihood fit of that model to every game at once
//!   (draws count as half a point), found by Hunter's MM iteration. Each pairing that was
//!   played also gets [`RateConfig::prior_draws`] virtual drawn games (as BayesElo's prior), so
//!   a player who won every game still gets a finite rating; with hundreds of games its effect
//!   is a fraction of an Elo point.
//! * [`rate`] anchors the ratings on one player (its Elo is 0 by definition), and draws 95 %
//!   intervals and the likelihood of superiority from a bootstrap that resamples game pairs
//!   within each pairing (the design of the tournament is kept).
//! * [`Sprt`] is fastchess's pentanomial SPRT with logistic Elo bounds: the log-likelihood ratio
//!   of `elo1` against `elo0` under the maximum-likelihood pentanomial distributions whose mean
//!   score is fixed at each hypothesis (M. Van den Bergh, *Comments on Normalized Elo*, prop. 1.1).
//! * [`fit_fixed`] rates players against others whose Elo is **held fixed** (the rungs of a
//!   ladder, `ayo rate`), and rates a ladder itself with one rung fixed at 0: the same logistic
//!   maximum likelihood, with intervals from the **pairs' own spread** (the sandwich variance:
//!   each pair's residual score is one sample, so a pair that the opening decided, 1–1 whoever
//!   sits where, adds no noise, and the two games of a pair are never counted as independent).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The expected score of a player `elo` Elo stronger than his opponent.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives the expected score `score` (infinite at 0 and 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Two games between players `a` and `b` (indices into the player list) from the same opening:
/// `points[0]` is what `a` scored sitting South, `points[1]` sitting North (1, ½ or 0 each).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamePair {
    pub a: usize,
    pub b: usize,
    pub points: [f64; 2],
}

impl GamePair {
    /// `a`'s score over both games, 0 to 2 in half points.
    pub fn score(&self) -> f64 {
        self.points[0] + self.points[1]
    }

    /// The pair from `b`'s side.
    pub fn flipped(&self) -> GamePair {
        GamePair {
            a: self.b,
            b: self.a,
            points: [1.0 - self.points[1], 1.0 - self.points[0]],
        }
    }
}

/// Games and points per pairing, the sufficient statistics of the Bradley–Terry model.
#[derive(Clone, Debug)]
struct Totals {
    /// `games[i][j]`: games between `i` and `j` (symmetric).
    games: Vec<Vec<f64>>,
    /// `points[i][j]`: what `i` scored against `j`.
    points: Vec<Vec<f64>>,
}

impl Totals {
    fn new(n: usize) -> Self {
        Totals {
            games: vec![vec![0.0; n]; n],
            points: vec![vec![0.0; n]; n],
        }
    }

    fn add(&mut self, pair: &GamePair) {
        let (a, b) = (pair.a, pair.b);
        self.games[a][b] += 2.0;
        self.games[b][a] += 2.0;
        self.points[a][b] += pair.score();
        self.points[b][a] += 2.0 - pair.score();
    }
}

/// Maximum-likelihood Bradley–Terry Elo of `n` players from game pairs, with `prior_draws`
/// virtual draws added to every pairing that was played; the ratings average 0 over the
/// players who played. Players without games get 0.
pub fn bradley_terry(n: usize, pairs: &[GamePair], prior_draws: f64) -> Vec<f64> {
    let mut totals = Totals::new(n);
    for p in pairs {
        totals.add(p);
    }
    fit(&totals, prior_draws)
}

fn fit(totals: &Totals, prior_draws: f64) -> Vec<f64> {
    let n = totals.games.len();
    let mut games = totals.games.clone();
    let mut points = totals.points.clone();
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                games[i][j] += prior_draws;
                points[i][j] += prior_draws / 2.0;
            }
        }
    }
    let wins: Vec<f64> = points.iter().map(|row| row.iter().sum()).collect();
    let played: Vec<bool> = games
        .iter()
        .map(|row| row.iter().any(|&g| g > 0.0))
        .collect();
    // Hunter's MM update on strengths γ = 10^(r/400): γᵢ ← Wᵢ / Σⱼ nᵢⱼ / (γᵢ + γⱼ).
    let mut gamma = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut next = gamma.clone();
        for i in (0..n).filter(|&i| played[i]) {
            let denominator: f64 = (0..n)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            // A player with no points at all (possible only without a prior) sinks towards 0;
            // keep him finite so that the others still converge.
            next[i] = (wins[i] / denominator).max(1e-12);
        }
        // Normalise: geometric mean 1 over the players who played.
        let count = played.iter().filter(|&&p| p).count().max(1) as f64;
        let mean_log = (0..n)
            .filter(|&i| played[i])
            .map(|i| next[i].ln())
            .sum::<f64>()
            / count;
        for (i, g) in next.iter_mut().enumerate() {
            *g = if played[i] {
                (g.ln() - mean_log).exp()
            } else {
                1.0
            };
        }
        let change = (0..n)
            .map(|i| (next[i].ln() - gamma[i].ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if change < 1e-10 {
            break;
        }
    }
    gamma
        .iter()
        .map(|g| 400.0 * g.log10())
        .collect::<Vec<f64>>()
}

/// How [`rate`] fits and bootstraps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RateConfig {
    /// The player whose Elo is 0.
    pub anchor: usize,
    /// Bootstrap resamples for the intervals and the likelihood of superiority.
    pub bootstrap: usize,
    /// Virtual drawn games per played pairing (see the module doc).
    pub prior_draws: f64,
    /// Confidence level of the intervals.
    pub confidence: f64,
    pub seed: u64,
}

impl Default for RateConfig {
    fn default() -> Self {
        RateConfig {
            anchor: 0,
            bootstrap: 1000,
            prior_draws: 1.0,
            confidence: 0.95,
            seed: 0,
        }
    }
}

/// Ratings of a set of players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratings {
    /// Elo relative to the anchor (maximum likelihood).
    pub elo: Vec<f64>,
    /// Lower and upper ends of the confidence interval of each Elo (bootstrap percentiles).
    pub low: Vec<f64>,
    pub high: Vec<f64>,
    /// `los[i][j]`: the likelihood that `i` is stronger than `j` (share of bootstrap
    /// resamples in which `i` rates higher; ties count half).
    pub los: Vec<Vec<f64>>,
    /// Games and points of each player.
    pub games: Vec<u32>,
    pub points: Vec<f64>,
    pub anchor: usize,
    pub confidence: f64,
}

/// Fits, anchors and bootstraps the ratings of `n` players from their game pairs.
pub fn rate(n: usize, pairs: &[GamePair], config: &RateConfig) -> Ratings {
    assert!(config.anchor < n, "the anchor must be one of the players");
    let anchored = |elo: Vec<f64>| {
        let zero = elo[config.anchor];
        elo.into_iter().map(|e| e - zero).collect::<Vec<f64>>()
    };
    let elo = anchored(bradley_terry(n, pairs, config.prior_draws));

    // Resample pairs within each pairing so that every resample has the tournament's design.
    let mut by_pairing: std::collections::BTreeMap<(usize, usize), Vec<GamePair>> =
        Default::default();
    for p in pairs {
        let p = if p.a <= p.b { *p } else { p.flipped() };
        by_pairing.entry((p.a, p.b)).or_default().push(p);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(config.bootstrap); n];
    let mut above = vec![vec![0.0; n]; n];
    for _ in 0..config.bootstrap {
        let mut totals = Totals::new(n);
        for group in by_pairing.values() {
            for _ in 0..group.len() {
                totals.add(&group[rng.gen_range(0..group.len())]);
            }
        }
        let resampled = anchored(fit(&totals, config.prior_draws));
        for i in 0..n {
            samples[i].push(resampled[i]);
            for j in 0..n {
                if resampled[i] > resampled[j] {
                    above[i][j] += 1.0;
                } else if resampled[i] == resampled[j] {
                    above[i][j] += 0.5;
                }
            }
        }
    }
    let tail = (1.0 - config.confidence) / 2.0;
    let (mut low, mut high) = (elo.clone(), elo.clone());
    for i in 0..n {
        if config.bootstrap > 0 {
            let s = &mut samples[i];
            s.sort_by(f64::total_cmp);
            low[i] = quantile(s, tail);
            high[i] = quantile(s, 1.0 - tail);
        }
    }
    let los = above
        .iter()
        .enumerate()
        .map(|(i, row)| {
            row.iter()
                .enumerate()
                .map(|(j, &x)| {
                    if i == j || config.bootstrap == 0 {
                        0.5
                    } else {
                        x / config.bootstrap as f64
                    }
                })
                .collect()
        })
        .collect();
    let mut games = vec![0u32; n];
    let mut points = vec![0.0; n];
    for p in pairs {
        games[p.a] += 2;
        games[p.b] += 2;
        points[p.a] += p.score();
        points[p.b] += 2.0 - p.score();
    }
    Ratings {
        elo,
        low,
        high,
        los,
        games,
        points,
        anchor: config.anchor,
        confidence: config.confidence,
    }
}

/// The `q`-quantile of sorted values (linear interpolation).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let x = q * (sorted.len() - 1) as f64;
    let (i, frac) = (x.floor() as usize, x.fract());
    if i + 1 < sorted.len() {
        sorted[i] * (1.0 - frac) + sorted[i + 1] * frac
    } else {
        sorted[i]
    }
}

/// Elo per unit of the logistic's natural log-odds: `E(d) = 1 / (1 + e^(−d·C))`.
const C: f64 = std::f64::consts::LN_10 / 400.0;

/// A rating fit with some players' Elo held fixed ([`fit_fixed`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FixedFit {
    /// Every player's Elo: the fixed ones as given, the others fitted.
    pub elo: Vec<f64>,
    /// `covariance[i][j]` of the fitted Elos (rows and columns of fixed players are 0): the
    /// sandwich `I⁻¹ B I⁻¹`, `I` the logistic model's information and `B` the sum over pairs of
    /// each pair's score residual squared (its outer product with several free players).
    pub covariance: Vec<Vec<f64>>,
    /// Games each player played.
    pub games: Vec<u32>,
}

/// Two-sided 95 % normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

impl FixedFit {
    /// Half the width of player `i`'s 95 % interval (0 for a fixed player).
    pub fn half_width(&self, i: usize) -> f64 {
        Z95 * self.covariance[i][i].max(0.0).sqrt()
    }
    /// Player `i`'s 95 % interval.
    pub fn interval(&self, i: usize) -> (f64, f64) {
        let h = self.half_width(i);
        (self.elo[i] - h, self.elo[i] + h)
    }
    /// `elo[i] − elo[j]` and half the width of its 95 % interval (the covariance counted: two
    /// neighbours on a ladder are measured by the same pairs).
    pub fn difference(&self, i: usize, j: usize) -> (f64, f64) {
        let v = &self.covariance;
        let var = v[i][i] + v[j][j] - 2.0 * v[i][j];
        (self.elo[i] - self.elo[j], Z95 * var.max(0.0).sqrt())
    }
}

/// Why [`fit_fixed`] cannot rate the players.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FitError {
    #[error("player {player} has no chain of games to a player of fixed Elo, so nothing places it on the scale")]
    Unanchored { player: usize },
    #[error("{got} fixed Elos for {expected} players")]
    Players { got: usize, expected: usize },
    #[error("game pair between players {a} and {b} names a player beyond the {n} given")]
    Pair { a: usize, b: usize, n: usize },
}

/// Maximum-likelihood Elo of the players whose `fixed[i]` is `None`, the others held at their
/// given Elo, from game pairs among all of them (any design: a player against rungs, a ladder's
/// neighbours, several players that also met each other).
///
/// The model is [`bradley_terry`]'s (a game scores `E(elo_a − elo_b)` in expectation, a draw half
/// a point) with `prior_draws` virtual draws per pairing played, so that a sweep stays finite.
/// The intervals (see [`FixedFit`]) come from the pairs' own spread, not from the model's
/// binomial variance, and they hold the fixed players' Elo as exact: a rating against a ladder
/// is relative to that ladder's version.
///
/// ```
/// use ayo_env::arena::rating::{fit_fixed, GamePair};
/// // Against a rung fixed at 100: 19 pairs won twice, 6 split, 25 split again — 76 % of the
/// // points in pairs that mostly split.
/// let mut pairs = vec![GamePair { a: 0, b: 1, points: [1.0, 1.0] }; 26];
/// pairs.extend(vec![GamePair { a: 0, b: 1, points: [1.0, 0.0] }; 24]);
/// let fit = fit_fixed(&[None, Some(100.0)], &pairs, 0.0).unwrap();
/// assert!((fit.elo[0] - 300.0).abs() < 5.0);
/// ```
pub fn fit_fixed(
    fixed: &[Option<f64>],
    pairs: &[GamePair],
    prior_draws: f64,
) -> Result<FixedFit, FitError> {
    let n = fixed.len();
    for p in pairs {
        if p.a >= n || p.b >= n {
            return Err(FitError::Pair { a: p.a, b: p.b, n });
        }
    }
    // Free players, numbered 0..m, each reached from a fixed player through games.
    let free: Vec<usize> = (0..n).filter(|&i| fixed[i].is_none()).collect();
    let mut slot = vec![usize::MAX; n];
    for (k, &i) in free.iter().enumerate() {
        slot[i] = k;
    }
    let mut reached: Vec<bool> = fixed.iter().map(Option::is_some).collect();
    loop {
        let mut grew = false;
        for p in pairs {
            if reached[p.a] != reached[p.b] {
                reached[p.a] = true;
                reached[p.b] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    if let Some(player) = free.iter().copied().find(|&i| !reached[i]) {
        return Err(FitError::Unanchored { player });
    }
    let mut pairings: std::collections::BTreeSet<(usize, usize)> = Default::default();
    for p in pairs {
        pairings.insert((p.a.min(p.b), p.a.max(p.b)));
    }
    let m = free.len();
    let mut elo: Vec<f64> = fixed.iter().map(|f| f.unwrap_or(0.0)).collect();
    if m > 0 {
        let start = fixed.iter().flatten().sum::<f64>() / (n - m) as f64;
        for &i in &free {
            elo[i] = start;
        }
    }
    // Gradient and information of the log-likelihood over the free Elos.
    let derivatives = |elo: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        let mut gradient = vec![0.0; m];
        let mut information = vec![vec![0.0; m]; m];
        let mut add = |a: usize, b: usize, games: f64, points: f64| {
            let e = expected_score(elo[a] - elo[b]);
            let g = C * (points - games * e);
            let h = C * C * games * e * (1.0 - e);
            if slot[a] != usize::MAX {
                gradient[slot[a]] += g;
                information[slot[a]][slot[a]] += h;
            }
            if slot[b] != usize::MAX {
                gradient[slot[b]] -= g;
                information[slot[b]][slot[b]] += h;
            }
            if slot[a] != usize::MAX && slot[b] != usize::MAX {
                information[slot[a]][slot[b]] -= h;
                information[slot[b]][slot[a]] -= h;
            }
        };
        for p in pairs {
            add(p.a, p.b, 2.0, p.score());
        }
        for &(a, b) in &pairings {
            add(a, b, prior_draws, prior_draws / 2.0);
        }
        (gradient, information)
    };
    // Damped Newton: the log-likelihood is concave; steps are capped so that a sweep (whose
    // optimum lies far out) is approached without overshooting into the flat tails.
    for _ in 0..200 {
        let (gradient, information) = derivatives(&elo);
        let Some(step) = solve(&information, &gradient) else {
            break;
        };
        let largest = step.iter().fold(0.0f64, |x, s| x.max(s.abs()));
        let scale = if largest > 200.0 {
            200.0 / largest
        } else {
            1.0
        };
        for (k, &i) in free.iter().enumerate() {
            elo[i] += scale * step[k];
        }
        if largest < 1e-9 {
            break;
        }
    }
    // Sandwich covariance.
    let (_, information) = derivatives(&elo);
    let mut meat = vec![vec![0.0; m]; m];
    for p in pairs {
        let residual = C * (p.score() - 2.0 * expected_score(elo[p.a] - elo[p.b]));
        let sides = [(slot[p.a], residual), (slot[p.b], -residual)];
        for &(i, gi) in &sides {
            for &(j, gj) in &sides {
                if i != usize::MAX && j != usize::MAX {
                    meat[i][j] += gi * gj;
                }
            }
        }
    }
    let inverse = invert(&information);
    let bread_meat: Vec<Vec<f64>> = (0..m)
        .map(|i| {
            (0..m)
                .map(|j| (0..m).map(|k| inverse[i][k] * meat[k][j]).sum())
                .collect()
        })
        .collect();
    let mut covariance = vec![vec![0.0; n]; n];
    for i in 0..m {
        for j in 0..m {
            covariance[free[i]][free[j]] = (0..m).map(|k| bread_meat[i][k] * inverse[k][j]).sum();
        }
    }
    let mut games = vec![0u32; n];
    for p in pairs {
        games[p.a] += 2;
        games[p.b] += 2;
    }
    Ok(FixedFit {
        elo,
        covariance,
        games,
    })
}

/// `x` with `a x = b` (Gaussian elimination with partial pivoting), `None` if `a` is singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let m = b.len();
    let mut rows: Vec<Vec<f64>> = (0..m)
        .map(|i| {
            let mut r = a[i].clone();
            r.push(b[i]);
            r
        })
        .collect();
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| rows[x][col].abs().total_cmp(&rows[y][col].abs()))?;
        if rows[pivot][col].abs() < 1e-300 {
            return None;
        }
        rows.swap(col, pivot);
        for r in 0..m {
            if r != col {
                let f = rows[r][col] / rows[col][col];
                for c in col..=m {
                    rows[r][c] -= f * rows[col][c];
                }
            }
        }
    }
    Some((0..m).map(|i| rows[i][m] / rows[i][i]).collect())
}

/// The inverse of `a` (zeros where `a` is singular: no information, no interval).
fn invert(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let m = a.len();
    let mut columns = vec![vec![0.0; m]; m];
    for j in 0..m {
        let mut e = vec![0.0; m];
        e[j] = 1.0;
        if let Some(x) = solve(a, &e) {
            for i in 0..m {
                columns[i][j] = x[i];
            }
        }
    }
    columns
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    /// Counts one game scored `points` (1, ½ or 0).
    pub fn add(&mut self, points: f64) {
        if points > 0.5 {
            self.wins += 1;
        } else if points < 0.5 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

impl std::fmt::Display for Wdl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// Counts of pair scores from one player's side: `counts[k]` pairs scored `k/2` points
/// (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl std::ops::AddAssign for Pentanomial {
    fn add_assign(&mut self, other: Pentanomial) {
        for (count, more) in self.counts.iter_mut().zip(other.counts) {
            *count += more;
        }
    }
}

impl Pentanomial {
    /// The counts of `pairs` from the side of each pair's `a`.
    pub fn of(pairs: &[GamePair]) -> Self {
        let mut p = Pentanomial::default();
        for pair in pairs {
            p.add(pair.score());
        }
        p
    }
    /// Pairs that `a` scored against `b` as these counts say, the inverse of [`Pentanomial::of`]
    /// (each pair's points split evenly between its two games: the fit and the pair statistics
    /// see a pair's total alone, so a link kept from an earlier ladder counts as it did there).
    pub fn pairs_between(&self, a: usize, b: usize) -> Vec<GamePair> {
        (0..5)
            .flat_map(|k| {
                let half = k as f64 / 4.0;
                std::iter::repeat_n(
                    GamePair {
                        a,
                        b,
                        points: [half, half],
                    },
                    self.counts[k] as usize,
                )
            })
            .collect()
    }
    /// Counts a pair that scored `score` (0 to 2 in half points).
    pub fn add(&mut self, score: f64) {
        self.counts[(score * 2.0).round().clamp(0.0, 4.0) as usize] += 1;
    }
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }
    /// The mean score per game, in [0, 1].
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        self.counts
            .iter()
            .enumerate()
            .map(|(k, &c)| k as f64 * 0.25 * c as f64)
            .sum::<f64>()
            / n as f64
    }
    /// The Elo difference that the mean score corresponds to.
    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }
    /// **Normalized Elo** (fastchess, fishtest): `(s − ½) / √(2·σ²) · 800 / ln 10`, `s` the mean
    /// score per game and `σ²` the variance of a pair's score per game (0, ¼, ½, ¾ or 1) — a
    /// difference in units of the pairs' own noise, so that a 1–1 split of every pair (which
    /// openings decided) counts as nothing, and 95 % of a match's pairs keep a value apart.
    /// Returns the estimate and its 95 % interval (the mean's normal approximation), or `None`
    /// when fewer than two pairs were played or every pair scored the same.
    pub fn nelo(&self) -> Option<(f64, f64, f64)> {
        let n = self.pairs() as f64;
        let s = self.score();
        let variance = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * (k as f64 * 0.25 - s).powi(2))
            .sum::<f64>()
            / n;
        if n < 2.0 || variance <= 0.0 {
            return None;
        }
        let scale = 800.0 / std::f64::consts::LN_10 / (2.0 * variance).sqrt();
        let half = 1.96 * (variance / n).sqrt();
        Some((
            (s - 0.5) * scale,
            (s - half - 0.5) * scale,
            (s + half - 0.5) * scale,
        ))
    }
    /// The counts as `a-b-c-d-e`: the pairs that scored 0, ½, 1, 1½ and 2 points (lost twice,
    /// lost and drew, split or drew twice, won and drew, won twice).
    pub fn label(&self) -> String {
        let c = self.counts;
        format!("{}-{}-{}-{}-{}", c[0], c[1], c[2], c[3], c[4])
    }
    /// From the other player's side.
    pub fn flipped(&self) -> Self {
        let mut c = self.counts;
        c.reverse();
        Pentanomial { counts: c }
    }
}

/// A cross-table: for each ordered pairing, `i`'s results sitting South and sitting North.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossTable {
    /// `seats[i][j][s]`: `i`'s results against `j` with `i` in seat `s` (0 South, 1 North).
    pub seats: Vec<Vec<[Wdl; 2]>>,
    /// `pentanomial[i][j]`: the pairs between `i` and `j` from `i`'s side.
    pub pentanomial: Vec<Vec<Pentanomial>>,
}

impl CrossTable {
    pub fn new(n: usize, pairs: &[GamePair]) -> Self {
        let mut seats = vec![vec![[Wdl::default(); 2]; n]; n];
        let mut pentanomial = vec![vec![Pentanomial::default(); n]; n];
        for pair in pairs {
            for p in [*pair, pair.flipped()] {
                seats[p.a][p.b][0].add(p.points[0]);
                seats[p.a][p.b][1].add(p.points[1]);
                pentanomial[p.a][p.b].add(p.score());
            }
        }
        CrossTable { seats, pentanomial }
    }

    /// `i`'s results against `j` in both seats.
    pub fn total(&self, i: usize, j: usize) -> Wdl {
        let [s, n] = self.seats[i][j];
        Wdl {
            wins: s.wins + n.wins,
            draws: s.draws + n.draws,
            losses: s.losses + n.losses,
        }
    }
}

/// What an SPRT has decided so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// `H0`: the difference is `elo0` or less (the new player is not better by `elo1`).
    AcceptH0,
    /// `H1`: the difference is `elo1` or more.
    AcceptH1,
}

/// A pentanomial sequential probability ratio test of `elo0` against `elo1` (logistic Elo of
/// the new player over the old) with error rates `alpha` (false H1) and `beta` (false H0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// An invalid SPRT set-up, named with what was expected.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SprtError {
    #[error("SPRT elo0 ({elo0}) must be less than elo1 ({elo1})")]
    Order { elo0: f64, elo1: f64 },
    #[error("SPRT {name} = {value} must lie strictly between 0 and 1, with alpha + beta < 1")]
    Rate { name: &'static str, value: f64 },
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Self, SprtError> {
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::Order { elo0, elo1 });
        }
        for (name, value) in [
            ("alpha", alpha),
            ("beta", beta),
            ("alpha + beta", alpha + beta),
        ] {
            if !(value > 0.0 && value < 1.0) {
                return Err(SprtError::Rate { name, value });
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The LLR at or below which H0 is accepted: ln(β / (1 − α)).
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }
    /// The LLR at or above which H1 is accepted: ln((1 − β) / α).
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 given the pair counts (from the new player's
    /// side). Empty cells count as 0.001 pairs, as in fastchess.
    pub fn llr(&self, counts: &Pentanomial) -> f64 {
        if counts.pairs() == 0 {
            return 0.0;
        }
        let regularised: Vec<f64> = counts
            .counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = regularised.iter().sum();
        let observed: Vec<f64> = regularised.iter().map(|c| c / total).collect();
        let p0 = constrained_mle(&observed, expected_score(self.elo0));
        let p1 = constrained_mle(&observed, expected_score(self.elo1));
        total
            * (0..5)
                .map(|i| observed[i] * (p1[i].ln() - p0[i].ln()))
                .sum::<f64>()
    }

    pub fn decide(&self, counts: &Pentanomial) -> SprtDecision {
        let llr = self.llr(counts);
        if llr >= self.upper() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Pair scores per game of the five pentanomial cells.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution on the five cells closest (in likelihood) to `observed` whose mean score is
/// `s`: `pᵢ = p̂ᵢ / (1 + θ (aᵢ − s))` with θ the root of `Σ p̂ᵢ (aᵢ − s) / (1 + θ (aᵢ − s)) = 0`.
fn constrained_mle(observed: &[f64], s: f64) -> [f64; 5] {
    let f = |theta: f64| -> f64 {
        (0..5)
            .map(|i| {
                let d = PAIR_SCORES[i] - s;
                observed[i] * d / (1.0 + theta * d)
            })
            .sum()
    };
    // 1 + θ(aᵢ − s) > 0 for every cell bounds θ to (−1/(1 − s), 1/s); f decreases on it.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    let shrink = 1e-12;
    lo += shrink * (hi - lo);
    hi -= shrink * (hi - lo);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let theta = 0.5 * (lo + hi);
    let mut p = [0.0; 5];
    for i in 0..5 {
        p[i] = observed[i] / (1.0 + theta * (PAIR_SCORES[i] - s));
    }
    p
}

/// Draws a game result (1, ½, 0 for the first player) with expected score `expected_score`
/// and draws with probability `draw` where possible; for simulations in tests and docs.
pub fn simulate_game<R: Rng>(rng: &mut R, expected_score: f64, draw: f64) -> f64 {
    let draw = draw
        .min(2.0 * expected_score)
        .min(2.0 * (1.0 - expected_score));
    let win = expected_score - draw / 2.0;
    let u: f64 = rng.gen();
    if u < win {
        1.0
    } else if u < win + draw {
        0.5
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Simulated pairs among players of known Elo, with a first-seat advantage that the pairing
    /// must cancel and a draw rate.
    fn simulate(truth: &[f64], pairs_per_pairing: usize, seed: u64) -> Vec<GamePair> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let south_bonus = 40.0;
        let mut pairs = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                for _ in 0..pairs_per_pairing {
                    let d = truth[a] - truth[b];
                    pairs.push(GamePair {
                        a,
                        b,
                        points: [
                            simulate_game(&mut rng, expected_score(d + south_bonus), 0.2),
                            simulate_game(&mut rng, expected_score(d - south_bonus), 0.2),
                        ],
                    });
                }
            }
        }
        pairs
    }

    #[test]
    fn expected_score_and_its_inverse() {
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        // 400 Elo: odds 10 to 1.
        assert!((expected_score(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((elo_of_score(10.0 / 11.0) - 400.0).abs() < 1e-9);
    }

    #[test]
    fn two_players_rate_at_the_logit_of_the_score() {
        // 75 % over many games: Elo difference 400·log10(3) ≈ 190.85 (no prior).
        let pairs: Vec<GamePair> = (0..40)
            .map(|k| GamePair {
                a: 0,
                b: 1,
                points: if k % 2 == 0 { [1.0, 1.0] } else { [1.0, 0.0] },
            })
            .collect();
        let elo = bradley_terry(2, &pairs, 0.0);
        assert!(((elo[0] - elo[1]) - 400.0 * 3f64.log10()).abs() < 1e-6);
    }

    #[test]
    fn perfect_scores_stay_finite_with_the_prior() {
        let pairs = vec![
            GamePair {
                a: 0,
                b: 1,
                points: [1.0, 1.0],
            };
            5
        ];
        let elo = bradley_terry(2, &pairs, 1.0);
        // 10.5 of 11 points: 400·log10(21).
        assert!(((elo[0] - elo[1]) - 400.0 * 21f64.log10()).abs() < 1e-6);
    }

    #[test]
    fn elo_and_interval_recover_known_strengths() {
        let truth = [0.0, 60.0, 150.0, 300.0];
        let (mut inside, mut checks, mut error) = (0, 0, 0.0);
        for rep in 0..40 {
            let pairs = simulate(&truth, 60, rep);
            let config = RateConfig {
                bootstrap: 200,
                seed: rep,
                ..Default::default()
            };
            let r = rate(truth.len(), &pairs, &config);
            assert_eq!(r.elo[0], 0.0, "the anchor rates 0");
            for i in 1..truth.len() {
                checks += 1;
                if r.low[i] <= truth[i] && truth[i] <= r.high[i] {
                    inside += 1;
                }
                error += (r.elo[i] - truth[i]).abs();
                assert!(r.low[i] < r.elo[i] && r.elo[i] < r.high[i]);
            }
        }
        let coverage = inside as f64 / checks as f64;
        // Nominal 95 %; the bootstrap and the seat advantage may cost a little.
        assert!(coverage >= 0.85, "coverage {coverage}");
        assert!(
            error / (checks as f64) < 40.0,
            "mean error {}",
            error / checks as f64
        );
    }

    #[test]
    fn likelihood_of_superiority_orders_clear_gaps() {
        let truth = [0.0, 20.0, 400.0];
        let pairs = simulate(&truth, 100, 7);
        let r = rate(3, &pairs, &RateConfig::default());
        assert!(r.los[2][0] > 0.99 && r.los[0][2] < 0.01);
        assert!((r.los[1][0] + r.los[0][1] - 1.0).abs() < 1e-9);
    }

    #[test]
    fn cross_table_counts_each_seat() {
        let pairs = [
            GamePair {
                a: 0,
                b: 1,
                points: [1.0, 0.5],
            },
            GamePair {
                a: 1,
                b: 0,
                points: [0.0, 1.0],
            },
        ];
        let t = CrossTable::new(2, &pairs);
        // Player 0 as South: won, then (second pair, 1 North scored 1) lost.
        assert_eq!(
            t.seats[0][1][0],
            Wdl {
                wins: 1,
                draws: 0,
                losses: 1
            }
        );
        // Player 0 as North: drew, then won (1 as South scored 0).
        assert_eq!(
            t.seats[0][1][1],
            Wdl {
                wins: 1,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(t.total(1, 0).to_string(), "1-1-2");
        // Pairs from 0's side: 1.5 (WD) and 1.0 (WL).
        assert_eq!(t.pentanomial[0][1].counts, [0, 0, 1, 1, 0]);
        assert_eq!(t.pentanomial[1][0].counts, [0, 1, 1, 0, 0]);
    }

    #[test]
    fn sprt_bounds_are_walds() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        assert!((s.upper() - 2.944).abs() < 1e-3 && (s.lower() + 2.944).abs() < 1e-3);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }

    #[test]
    fn sprt_llr_matches_the_normal_approximation_for_close_hypotheses() {
        // For small Elo gaps the LLR is close to N (s1 − s0)(2ŝ − s0 − s1) / (2 σ²), the
        // Gaussian approximation with the pair-score variance σ² (fastchess before its MLE).
        let counts = Pentanomial {
            counts: [300, 2000, 5000, 2300, 400],
        };
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
        let n = counts.pairs() as f64;
        let mean = counts.score();
        let var: f64 = (0..5)
            .map(|k| counts.counts[k] as f64 / n * (PAIR_SCORES[k] - mean).powi(2))
            .sum();
        let (s0, s1) = (expected_score(0.0), expected_score(5.0));
        let approx = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        let llr = s.llr(&counts);
        assert!(
            (llr - approx).abs() < 0.02 * approx.abs(),
            "{llr} vs {approx}"
        );
    }

    #[test]
    fn sprt_accepts_a_stronger_player_and_rejects_a_weaker_one() {
        let sprt = Sprt::new(0.0, 40.0, 0.05, 0.05).unwrap();
        let run = |true_elo: f64, seed: u64| -> (SprtDecision, u32) {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut counts = Pentanomial::default();
            for _ in 0..20_000 {
                let pair = simulate_game(&mut rng, expected_score(true_elo + 40.0), 0.2)
                    + simulate_game(&mut rng, expected_score(true_elo - 40.0), 0.2);
                counts.add(pair);
                let d = sprt.decide(&counts);
                if d != SprtDecision::Continue {
                    return (d, counts.pairs());
                }
            }
            (SprtDecision::Continue, counts.pairs())
        };
        let (mut h1, mut h0) = (0, 0);
        for seed in 0..20 {
            h1 += (run(80.0, seed).0 == SprtDecision::AcceptH1) as u32;
            h0 += (run(-40.0, 100 + seed).0 == SprtDecision::AcceptH0) as u32;
        }
        assert!(h1 >= 18, "a player 80 Elo stronger passed {h1} of 20");
        assert!(h0 >= 18, "a player 40 Elo weaker failed {h0} of 20");
        // Exactly at elo1 it passes about 95 % of the time, at elo0 about 5 %.
        let at_elo0: u32 = (0..40)
            .map(|seed| (run(0.0, 500 + seed).0 == SprtDecision::AcceptH1) as u32)
            .sum();
        assert!(at_elo0 <= 6, "at elo0 {at_elo0} of 40 passed");
    }

    /// Pairs of `pairing` (players `a`, `b` of Elo `truth`), `count` each, with a seat advantage.
    fn simulate_pairings(
        truth: &[f64],
        pairings: &[(usize, usize)],
        count: usize,
        rng: &mut ChaCha8Rng,
    ) -> Vec<GamePair> {
        let mut pairs = Vec::new();
        for &(a, b) in pairings {
            for _ in 0..count {
                let d = truth[a] - truth[b];
                pairs.push(GamePair {
                    a,
                    b,
                    points: [
                        simulate_game(rng, expected_score(d + 40.0), 0.1),
                        simulate_game(rng, expected_score(d - 40.0), 0.1),
                    ],
                });
            }
        }
        pairs
    }

    #[test]
    fn a_player_scoring_76_percent_of_its_pairs_points_rates_200_above_the_rung() {
        // 76 of 100 points against a rung fixed at −50, as 26 pairs won twice and 24 split.
        let mut pairs = vec![
            GamePair {
                a: 1,
                b: 0,
                points: [1.0, 1.0]
            };
            26
        ];
        pairs.extend(vec![
            GamePair {
                a: 0,
                b: 1,
                points: [0.0, 1.0]
            };
            24
        ]);
        let fit = fit_fixed(&[Some(-50.0), None], &pairs, 0.0).unwrap();
        assert_eq!(fit.elo[0], -50.0);
        let expected = -50.0 + elo_of_score(0.76);
        assert!((fit.elo[1] - expected).abs() < 1e-6, "{}", fit.elo[1]);
        assert!((fit.elo[1] - 150.0).abs() < 1.0);
        assert_eq!(fit.half_width(0), 0.0);
        assert_eq!(fit.games, vec![100, 100]);
        // Between two rungs: 76 % against one at 0 and 24 % against one at 400 is +200.
        // The pairs from the new player's side (a = 1).
        let mine: Vec<GamePair> = pairs
            .iter()
            .map(|p| if p.a == 1 { *p } else { p.flipped() })
            .collect();
        let mut both: Vec<GamePair> = mine.iter().map(|p| GamePair { a: 2, b: 0, ..*p }).collect();
        both.extend(mine.iter().map(|p| GamePair { a: 1, b: 2, ..*p }));
        let fit = fit_fixed(&[Some(0.0), Some(400.0), None], &both, 0.0).unwrap();
        assert!((fit.elo[2] - 200.0).abs() < 1e-6, "{}", fit.elo[2]);
    }

    #[test]
    fn a_pair_that_the_opening_decided_adds_no_noise() {
        // The same 76 % twice: from pairs won twice or split (low spread), and from pairs won
        // twice or lost twice (high spread). The split pairs carry no information about the
        // difference and must give the narrower interval; a sweep stays finite with the prior.
        let pair = |points| GamePair { a: 0, b: 1, points };
        let mut calm = vec![pair([1.0, 1.0]); 26];
        calm.extend(vec![pair([1.0, 0.0]); 24]);
        let mut wild = vec![pair([1.0, 1.0]); 38];
        wild.extend(vec![pair([0.0, 0.0]); 12]);
        let fixed = [None, Some(0.0)];
        let calm = fit_fixed(&fixed, &calm, 0.0).unwrap();
        let wild = fit_fixed(&fixed, &wild, 0.0).unwrap();
        assert!((calm.elo[0] - wild.elo[0]).abs() < 1e-6);
        assert!(
            calm.half_width(0) < 0.6 * wild.half_width(0),
            "{} vs {}",
            calm.half_width(0),
            wild.half_width(0)
        );
        let sweep = fit_fixed(&fixed, &vec![pair([1.0, 1.0]); 10], 1.0).unwrap();
        assert!(sweep.elo[0].is_finite() && sweep.elo[0] > 400.0);
        assert_eq!(
            fit_fixed(&[None, None, Some(0.0)], &[pair([1.0, 0.0])], 1.0),
            Err(FitError::Unanchored { player: 0 })
        );
    }

    /// Coverage of the 95 % intervals: a player against fixed rungs around it, and a ladder of
    /// rungs measured only against their neighbours, anchored on the first.
    #[test]
    fn fixed_fits_recover_known_strengths_with_95_percent_intervals() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let truth = [0.0, 100.0, 250.0, 400.0, 170.0];
        let fixed = [Some(0.0), Some(100.0), Some(250.0), Some(400.0), None];
        let ladder = [0.0, 180.0, 300.0, 520.0, 640.0];
        let (mut inside, mut inside_gap, mut reps) = (0, 0, 0);
        for _ in 0..300 {
            reps += 1;
            let pairs = simulate_pairings(&truth, &[(4, 1), (2, 4), (4, 3)], 40, &mut rng);
            let fit = fit_fixed(&fixed, &pairs, 1.0).unwrap();
            let (low, high) = fit.interval(4);
            inside += (low <= truth[4] && truth[4] <= high) as u32;
            let pairs = simulate_pairings(&ladder, &[(0, 1), (1, 2), (2, 3), (3, 4)], 60, &mut rng);
            let fit = fit_fixed(&[Some(0.0), None, None, None, None], &pairs, 1.0).unwrap();
            let (gap, half) = fit.difference(3, 2);
            inside_gap += ((gap - 220.0).abs() <= half) as u32;
            // Intervals grow along the chain; a neighbour gap is known better than the top rung.
            assert!(fit.half_width(4) > fit.half_width(1));
            assert!(half < fit.half_width(3));
        }
        for (name, k) in [("player", inside), ("ladder gap", inside_gap)] {
            let coverage = k as f64 / reps as f64;
            assert!(
                (0.90..=0.985).contains(&coverage),
                "{name}: coverage {coverage}"
            );
        }
    }

    /// nElo against a direct computation: mean and variance of the pair scores per game written
    /// out, and the known cases (no spread: none; symmetric counts: zero).
    #[test]
    fn normalized_elo_is_the_score_over_the_pairs_spread() {
        let p = Pentanomial {
            counts: [5, 10, 40, 30, 15],
        };
        let xs: Vec<f64> = [(0.0, 5), (0.25, 10), (0.5, 40), (0.75, 30), (1.0, 15)]
            .iter()
            .flat_map(|&(x, c)| std::iter::repeat_n(x, c))
            .collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| x * x).sum::<f64>() / n - mean * mean;
        let expected = (mean - 0.5) / (2.0 * var).sqrt() * 800.0 / 10f64.ln();
        let (nelo, low, high) = p.nelo().unwrap();
        assert!((nelo - expected).abs() < 1e-9, "{nelo} vs {expected}");
        assert!(low < nelo && nelo < high);
        let half = 1.96 * (var / n).sqrt() / (2.0 * var).sqrt() * 800.0 / 10f64.ln();
        assert!((high - nelo - half).abs() < 1e-9);
        assert_eq!(
            Pentanomial {
                counts: [0, 0, 9, 0, 0]
            }
            .nelo(),
            None
        );
        assert_eq!(
            Pentanomial {
                counts: [3, 1, 0, 1, 3]
            }
            .nelo()
            .unwrap()
            .0,
            0.0
        );
        assert_eq!(p.label(), "5-10-40-30-15");
    }
}
