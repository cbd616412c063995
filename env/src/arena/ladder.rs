//! A **rating ladder** per variant: fixed reference players (rungs) whose Elo is data, so that
//! any agent's strength is a number another lab can reproduce (`ayo rate`), and the two loops
//! that use the match driver for it: [`measure`] plays paired games between neighbouring rungs
//! (the ladder's own fit, anchored `random` = 0), and [`rate`] places one agent on a ladder by
//! playing the rungs around it until its interval is narrow enough.
//!
//! ```text
//!   rung  Elo        played against
//!   net@32   +1790   ┐
//!   net@8    +1660   ┘┐      a new agent: a few pairs against the middle rung, then pairs
//!   …                 …      against the rungs just below and above its estimate, until the
//!   greedy   +440    ┐        interval is ± precision; the rungs' Elo is held fixed
//!   mcts:6   +225    ┘┐      (`rating::fit_fixed`)
//!   random      0     ┘
//! ```
//!
//! The statistics are [`crate::arena::rating`]'s; the file format is [`Ladder`], JSON with a
//! version that goes up whenever a rung or the opening protocol changes.

use crate::agent::Agent;
use crate::arena::rating::{fit_fixed, FitError, FixedFit, GamePair, Pentanomial, Wdl};
use crate::arena::tournament::{self, Control, MatchConfig, MatchError, PlayedPair};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::path::Path;

/// The version of the [`Ladder`] file format.
pub const LADDER_FORMAT: u32 = 1;

/// A variant's rating ladder, as `models/<variant>/ladder.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// [`LADDER_FORMAT`].
    pub format: u32,
    /// This variant's ladder version: a rating cites it; it goes up when a rung, a network's
    /// file or the opening protocol changes.
    pub version: u32,
    /// The variant's name and its rules' version (`oware`, 1).
    pub variant: String,
    pub rules_version: u32,
    /// Options of the games on top of the variant's defaults, `key=value,…` (`episode=match`
    /// for whole matches), empty for none.
    pub options: String,
    /// How every game of the ladder and of a rating against it starts and ends.
    pub protocol: Protocol,
    /// The rungs from the weakest (`random`, Elo 0) up.
    pub rungs: Vec<Rung>,
    /// The measured neighbours, rung `i` against rung `i + 1`.
    pub links: Vec<Link>,
    /// The command that made this file.
    pub command: String,
}

/// The games' protocol: random openings shared by the two games of a pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protocol {
    /// Random plies from the start that make each pair's opening.
    pub opening_plies: u32,
    /// Openings begin at the variant's varied starts.
    pub varied_starts: bool,
    /// A game still running after this many plies is cut and scored a draw.
    pub max_plies: u32,
}

impl Protocol {
    /// The match driver's settings for this protocol.
    pub fn match_config(&self, seed: u64, concurrency: usize) -> MatchConfig {
        MatchConfig {
            opening_plies: self.opening_plies,
            max_plies: self.max_plies,
            concurrency,
            seed,
            detail: false,
            varied_starts: self.varied_starts,
            book: Vec::new(),
        }
    }
}

/// One reference player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rung {
    /// The agent's spec: a baseline (`alphabeta:3`) or a network with its budget, its file
    /// named relative to the ladder's folder (`oware-levels-1h.ot:32`).
    pub spec: String,
    /// SHA-256 of a network's file, checked before it plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Elo (the first rung 0) and its 95 % interval.
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// Games this rung played in the ladder's measurement.
    pub games: u32,
}

/// Two neighbouring rungs' games, from the upper rung's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub lower: usize,
    pub upper: usize,
    /// The upper rung's share of the points, 0 to 1.
    pub score: f64,
    /// The pairs that scored 0, ½, 1, 1½ and 2 points.
    pub pentanomial: [u32; 5],
    /// Normalized Elo with its 95 % interval.
    pub nelo: Option<[f64; 3]>,
    /// The Elo gap and half its 95 % interval.
    pub gap: f64,
    pub gap_half_width: f64,
    /// Which ladder versions' commands played this link's pairs, where not all were played by
    /// this file's command (`ayo ladder --reuse` keeps an earlier version's pairs and may add
    /// more); empty where this file's command played them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played_by: Vec<PlayedBy>,
    /// The older form of `played_by` (every pair played by that version's command), read and
    /// turned into `played_by` on load, never written.
    #[serde(default, skip_serializing)]
    reused_from: Option<u32>,
}

/// Pairs of a link played by one ladder version's command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedBy {
    pub version: u32,
    pub pairs: u32,
}

impl Link {
    /// The link's pairs by the version whose command played them (`version` is this file's).
    pub fn provenance(&self, version: u32) -> Vec<PlayedBy> {
        if self.played_by.is_empty() {
            let pairs = self.pentanomial.iter().sum();
            vec![PlayedBy { version, pairs }]
        } else {
            self.played_by.clone()
        }
    }
}

/// A ladder file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum LadderError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path} is not a ladder: {source}")]
    Parse {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path} has ladder format {found}; this build reads format {LADDER_FORMAT}")]
    Format { path: String, found: u32 },
    #[error("the ladder is for {ladder}, the games are {rules}")]
    Rules { ladder: String, rules: String },
    #[error(transparent)]
    Fit(#[from] FitError),
    #[error(transparent)]
    Match(#[from] MatchError),
}

impl Ladder {
    pub fn load(path: &Path) -> Result<Ladder, LadderError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| LadderError::Read {
            path: shown.clone(),
            source,
        })?;
        let mut ladder: Ladder =
            serde_json::from_str(&text).map_err(|source| LadderError::Parse {
                path: shown.clone(),
                source,
            })?;
        for link in &mut ladder.links {
            if let Some(version) = link.reused_from.take() {
                if link.played_by.is_empty() {
                    link.played_by = link.provenance(version);
                }
            }
        }
        if ladder.format != LADDER_FORMAT {
            return Err(LadderError::Format {
                path: shown,
                found: ladder.format,
            });
        }
        Ok(ladder)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a ladder serialises") + "\n"
    }

    /// `variant@version` of the ladder's games.
    pub fn rules_id(&self) -> String {
        format!("{}@{}", self.variant, self.rules_version)
    }

    /// Checks that `rules` (with the ladder's options applied) are the ladder's.
    pub fn check_rules(&self, rules: &Variant) -> Result<(), LadderError> {
        use crate::rules::Rules;
        if rules.name() != self.variant || rules.version() != self.rules_version {
            return Err(LadderError::Rules {
                ladder: self.rules_id(),
                rules: rules.id(),
            });
        }
        Ok(())
    }

    /// The ladder measured by `pairs` among `specs` (rung `i` played rung `i + 1`), anchored
    /// on the first rung at 0.
    #[allow(clippy::too_many_arguments)]
    pub fn fit(
        version: u32,
        rules: &Variant,
        options: &str,
        protocol: Protocol,
        specs: &[(String, Option<String>)],
        pairs: &[GamePair],
        command: &str,
    ) -> Result<Ladder, LadderError> {
        use crate::rules::Rules;
        let mut fixed = vec![None; specs.len()];
        fixed[0] = Some(0.0);
        let fit = fit_fixed(&fixed, pairs, 1.0)?;
        let rungs = specs
            .iter()
            .enumerate()
            .map(|(i, (spec, sha256))| {
                let (low, high) = fit.interval(i);
                Rung {
                    spec: spec.clone(),
                    sha256: sha256.clone(),
                    elo: fit.elo[i],
                    low,
                    high,
                    games: fit.games[i],
                }
            })
            .collect();
        let links = (1..specs.len())
            .map(|upper| {
                let lower = upper - 1;
                let counts = pentanomial(pairs, upper, lower);
                let (gap, half) = fit.difference(upper, lower);
                Link {
                    lower,
                    upper,
                    score: counts.score(),
                    pentanomial: counts.counts,
                    nelo: counts.nelo().map(|(n, lo, hi)| [n, lo, hi]),
                    gap,
                    gap_half_width: half,
                    played_by: Vec::new(),
                    reused_from: None,
                }
            })
            .collect();
        Ok(Ladder {
            format: LADDER_FORMAT,
            version,
            variant: rules.name().to_string(),
            rules_version: rules.version(),
            options: options.to_string(),
            protocol,
            rungs,
            links,
            command: command.to_string(),
        })
    }

    /// The pair counts, from `upper`'s side, of this ladder's link between the rungs `lower`
    /// and `upper` (each a spec and a network's hash, as [`Ladder::fit`] takes them; in either
    /// order), if it measured that link, with the versions of the ladders whose commands played
    /// those pairs (this one's, or those it kept them from).
    pub fn measured_link(
        &self,
        lower: &(String, Option<String>),
        upper: &(String, Option<String>),
    ) -> Option<(Pentanomial, Vec<PlayedBy>)> {
        let is = |rung: usize, (spec, sha256): &(String, Option<String>)| {
            self.rungs[rung].spec == *spec && self.rungs[rung].sha256 == *sha256
        };
        self.links.iter().find_map(|l| {
            let counts = Pentanomial {
                counts: l.pentanomial,
            };
            let played_by = l.provenance(self.version);
            if is(l.lower, lower) && is(l.upper, upper) {
                Some((counts, played_by))
            } else if is(l.lower, upper) && is(l.upper, lower) {
                Some((counts.flipped(), played_by))
            } else {
                None
            }
        })
    }
}

/// The pairs between `me` and `other` from `me`'s side.
pub fn pentanomial(pairs: &[GamePair], me: usize, other: usize) -> Pentanomial {
    let mine: Vec<GamePair> = pairs
        .iter()
        .filter_map(|p| {
            if p.a == me && p.b == other {
                Some(*p)
            } else if p.a == other && p.b == me {
                Some(p.flipped())
            } else {
                None
            }
        })
        .collect();
    Pentanomial::of(&mine)
}

/// Plays `pairs` game pairs between every two neighbouring `rungs` (all links at once, so that
/// every core is busy while the slow rungs think); `on_pair` sees each finished pair.
pub fn measure(
    rules: &Variant,
    rungs: &mut [Box<dyn Agent>],
    pairs: usize,
    config: &MatchConfig,
    on_pair: impl FnMut(&PlayedPair) -> Control,
) -> Result<Vec<PlayedPair>, MatchError> {
    let links: Vec<(usize, usize)> = (0..rungs.len().saturating_sub(1))
        .map(|lower| (lower, pairs))
        .collect();
    measure_links(rules, rungs, &links, config, on_pair)
}

/// [`measure`] for the links `lower → lower + 1` listed in `links` alone, each with its own
/// number of pairs (`(lower, pairs)`).
pub fn measure_links(
    rules: &Variant,
    rungs: &mut [Box<dyn Agent>],
    links: &[(usize, usize)],
    config: &MatchConfig,
    on_pair: impl FnMut(&PlayedPair) -> Control,
) -> Result<Vec<PlayedPair>, MatchError> {
    let most = links.iter().map(|&(_, pairs)| pairs).max().unwrap_or(0);
    let mut schedule = Vec::new();
    for k in 0..most {
        for &(lower, pairs) in links {
            if k < pairs {
                schedule.push(if k % 2 == 0 {
                    (lower, lower + 1)
                } else {
                    (lower + 1, lower)
                });
            }
        }
    }
    tournament::play(rules, rungs, &schedule, config, on_pair)
}

/// How [`rate`] spends its games.
#[derive(Clone, Debug, PartialEq)]
pub struct RateOptions {
    /// Stop once the 95 % interval is ± this many Elo (or narrower).
    pub precision: f64,
    /// Stop after this many games, whatever the interval.
    pub max_games: usize,
    /// Pairs per rung in the first rounds (finding the neighbourhood); rounds then grow to
    /// `batch_pairs` per rung.
    pub probe_pairs: usize,
    pub batch_pairs: usize,
    /// Pairs before the interval may stop the rating (fewer pairs estimate their own spread
    /// too poorly).
    pub min_pairs: usize,
    pub seed: u64,
    pub concurrency: usize,
}

impl Default for RateOptions {
    fn default() -> Self {
        RateOptions {
            precision: 40.0,
            max_games: 2000,
            probe_pairs: 4,
            batch_pairs: 32,
            min_pairs: 24,
            seed: 0,
            concurrency: 256,
        }
    }
}

/// The agent's games against one rung.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RungGames {
    pub rung: usize,
    /// The agent's pairs against this rung.
    pub pentanomial: Pentanomial,
    pub wdl: Wdl,
}

/// Where [`rate`] stands after a round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The agent's Elo on the ladder and its 95 % interval (the rungs held exact).
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub games: usize,
    /// Per rung played, from the weakest.
    pub rungs: Vec<RungGames>,
    /// Rounds played.
    pub rounds: usize,
}

impl Rating {
    /// The agent's (player 0) rating from its `pairs` against the rungs (players 1…, whose Elo
    /// `elo` is held fixed).
    fn fit(elo: &[f64], pairs: &[GamePair], rounds: usize) -> Result<Rating, LadderError> {
        let fixed: Vec<Option<f64>> = std::iter::once(None)
            .chain(elo.iter().map(|&e| Some(e)))
            .collect();
        let fit: FixedFit = fit_fixed(&fixed, pairs, 1.0)?;
        let (low, high) = fit.interval(0);
        Ok(Rating {
            elo: fit.elo[0],
            low,
            high,
            games: 2 * pairs.len(),
            rungs: per_rung_games(pairs, elo.len()),
            rounds,
        })
    }

    /// The same games rated on other rungs' Elo (a later version of the ladder): `games` the
    /// agent's games per rung, numbered as in `elo`. No game is played again.
    pub fn refit(elo: &[f64], games: &[RungGames], rounds: usize) -> Result<Rating, LadderError> {
        let pairs: Vec<GamePair> = games
            .iter()
            .flat_map(|g| g.pentanomial.pairs_between(0, g.rung + 1))
            .collect();
        let mut rating = Rating::fit(elo, &pairs, rounds)?;
        // Pairs keep only their points: the W-D-L comes from the games themselves.
        rating.rungs = games.to_vec();
        rating.rungs.sort_by_key(|g| g.rung);
        Ok(rating)
    }

    /// The rating and the agent's games per rung, as `ayo rate` and Python's `ayo.rate` print
    /// it: `agent` is the rated agent's name, `names` the rungs' (in the ladder's order),
    /// `source` where the ladder was read from, `seconds` the time the rating took.
    pub fn table(
        &self,
        ladder: &Ladder,
        source: &str,
        agent: &str,
        names: &[String],
        seconds: f64,
    ) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{agent} on {} ladder v{} ({source}): Elo {:+.0} ± {:.0} [{:+.0}, {:+.0}] (95 %, rungs \
             held fixed), {} games in {} rounds, {seconds:.1} s\n",
            ladder.rules_id(),
            ladder.version,
            self.elo,
            (self.high - self.low) / 2.0,
            self.low,
            self.high,
            self.games,
            self.rounds,
        );
        let width = names.iter().map(String::len).max().unwrap_or(4).max(4);
        let _ = writeln!(
            s,
            "{:<width$}  {:>7}  {:>5}  {:>9}  {:>6}  {:>18}  {:>14}",
            "Rung", "Elo", "Games", "W-D-L", "Score", "nElo [95%]", "Pairs"
        );
        for g in &self.rungs {
            let nelo = g
                .pentanomial
                .nelo()
                .map(|(n, lo, hi)| format!("{n:+.0} [{lo:+.0}, {hi:+.0}]"))
                .unwrap_or_else(|| "-".into());
            let _ = writeln!(
                s,
                "{:<width$}  {:>+7.0}  {:>5}  {:>9}  {:>5.1}%  {nelo:>18}  {:>14}",
                names[g.rung],
                ladder.rungs[g.rung].elo,
                g.wdl.games(),
                g.wdl.to_string(),
                100.0 * g.pentanomial.score(),
                g.pentanomial.label()
            );
        }
        let _ = writeln!(
            s,
            "\nW-D-L, score, nElo and pairs (0-½-1-1½-2 points) are {agent}'s against each rung."
        );
        s
    }
}

/// The rungs of a round: the one with the highest Elo at or below `estimate` and the one with
/// the lowest Elo above it (one of them beyond the ladder's ends). By Elo, not by place: two
/// neighbouring rungs may come out of the ladder's fit in the other order.
pub fn neighbours(elo: &[f64], estimate: f64) -> Vec<usize> {
    let nearest = |side: &dyn Fn(f64) -> bool| {
        (0..elo.len()).filter(|&i| side(elo[i])).min_by(|&x, &y| {
            (elo[x] - estimate)
                .abs()
                .total_cmp(&(elo[y] - estimate).abs())
        })
    };
    let below = nearest(&|e| e <= estimate);
    let above = nearest(&|e| e > estimate);
    below.into_iter().chain(above).collect()
}

/// Places `agent` on the ladder whose rungs are `rungs` (loaded in the ladder's order) with Elo
/// `elo`: a few pairs against the middle rung, then rounds against the rungs around the
/// estimate ([`neighbours`]), refitted after each round with the rungs held fixed
/// ([`fit_fixed`]), until the interval is ± [`RateOptions::precision`] or the games run out.
/// `on_pair` sees every finished pair (its `index` counts across rounds, the agent is
/// player 0 and rung `i` player `i + 1`) and may stop the rating ([`Control::Stop`]: the rating
/// of the rounds finished before is returned, the stopped round's games dropped); `on_round`
/// sees the rating after each round.
#[allow(clippy::too_many_arguments)]
pub fn rate(
    rules: &Variant,
    protocol: &Protocol,
    elo: &[f64],
    agent: Box<dyn Agent>,
    rungs: Vec<Box<dyn Agent>>,
    options: &RateOptions,
    mut on_pair: impl FnMut(&PlayedPair) -> Control,
    mut on_round: impl FnMut(&Rating),
) -> Result<Rating, LadderError> {
    assert_eq!(elo.len(), rungs.len(), "one Elo per rung");
    let mut players: Vec<Box<dyn Agent>> = std::iter::once(agent).chain(rungs).collect();
    let mut pairs: Vec<GamePair> = Vec::new();
    let mut rating = Rating {
        elo: elo[elo.len() / 2],
        low: f64::NEG_INFINITY,
        high: f64::INFINITY,
        games: 0,
        rungs: Vec::new(),
        rounds: 0,
    };
    let mut played = 0usize;
    loop {
        let enough =
            pairs.len() >= options.min_pairs && rating.high - rating.low <= 2.0 * options.precision;
        if enough || 2 * pairs.len() + 2 > options.max_games {
            return Ok(rating);
        }
        let mut opponents = if pairs.is_empty() {
            vec![elo.len() / 2]
        } else {
            neighbours(elo, rating.elo)
        };
        // Pairs left in the budget; too few for every neighbour: the nearest first.
        let left = options.max_games / 2 - pairs.len();
        if left < opponents.len() {
            opponents.sort_by(|&x, &y| {
                (elo[x] - rating.elo)
                    .abs()
                    .total_cmp(&(elo[y] - rating.elo).abs())
            });
            opponents.truncate(left);
        }
        let per_rung = (pairs.len() / 2)
            .clamp(options.probe_pairs, options.batch_pairs)
            .min(left / opponents.len());
        let mut schedule = Vec::new();
        for k in 0..per_rung {
            for &r in &opponents {
                schedule.push(if k % 2 == 0 { (0, r + 1) } else { (r + 1, 0) });
            }
        }
        let config = protocol.match_config(
            options.seed.wrapping_add(rating.rounds as u64),
            options.concurrency,
        );
        let offset = played;
        let mut stopped = false;
        let round = tournament::play(rules, &mut players, &schedule, &config, |pair| {
            let mut pair = pair.clone();
            pair.index += offset;
            let control = on_pair(&pair);
            stopped = control == Control::Stop;
            control
        })?;
        if stopped {
            return Ok(rating);
        }
        played += round.len();
        pairs.extend(round.iter().map(|p| p.result));
        rating = Rating::fit(elo, &pairs, rating.rounds + 1)?;
        on_round(&rating);
    }
}

/// The agent's (player 0) pairs and games against each rung it played.
fn per_rung_games(pairs: &[GamePair], rungs: usize) -> Vec<RungGames> {
    (0..rungs)
        .filter_map(|r| {
            let counts = pentanomial(pairs, 0, r + 1);
            if counts.pairs() == 0 {
                return None;
            }
            let mut wdl = Wdl::default();
            for p in pairs {
                let p = if p.a == 0 && p.b == r + 1 {
                    *p
                } else if p.b == 0 && p.a == r + 1 {
                    p.flipped()
                } else {
                    continue;
                };
                wdl.add(p.points[0]);
                wdl.add(p.points[1]);
            }
            Some(RungGames {
                rung: r,
                pentanomial: counts,
                wdl,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::agents;

    #[test]
    fn neighbours_bracket_the_estimate() {
        let elo = [0.0, 200.0, 450.0];
        assert_eq!(neighbours(&elo, 300.0), vec![1, 2]);
        assert_eq!(neighbours(&elo, 200.0), vec![1, 2]);
        assert_eq!(neighbours(&elo, -80.0), vec![0]);
        assert_eq!(neighbours(&elo, 900.0), vec![2]);
        // Out of order (a fit may put a rung below the one before it).
        let elo = [0.0, 400.0, 380.0, 600.0];
        assert_eq!(neighbours(&elo, 390.0), vec![2, 1]);
        assert_eq!(neighbours(&elo, 300.0), vec![0, 2]);
    }

    /// `on_pair` stops a rating: the rounds finished before it are what comes back; the
    /// table names the rungs played with the agent's games against them.
    #[test]
    fn a_stopped_rating_returns_the_rounds_before_and_prints_its_table() {
        let rules: Variant = "oware".parse().unwrap();
        let protocol = Protocol {
            opening_plies: 4,
            varied_starts: false,
            max_plies: 1000,
        };
        let elo = [0.0, 400.0];
        let rungs = || {
            vec![
                agents::parse("random", 1).unwrap(),
                agents::parse("greedy", 2).unwrap(),
            ]
        };
        let options = RateOptions {
            max_games: 200,
            ..Default::default()
        };
        let mut seen = 0;
        let rating = rate(
            &rules,
            &protocol,
            &elo,
            agents::parse("random", 3).unwrap(),
            rungs(),
            &options,
            |pair| {
                seen += 1;
                if pair.index >= options.probe_pairs {
                    Control::Stop
                } else {
                    Control::Continue
                }
            },
            |_| {},
        )
        .unwrap();
        assert_eq!(
            seen,
            options.probe_pairs + 1,
            "it stopped at the next round's first pair"
        );
        assert_eq!((rating.rounds, rating.games), (1, 2 * options.probe_pairs));
        assert_eq!(
            rating.rungs.len(),
            1,
            "the first round plays the middle rung alone"
        );
        assert_eq!(rating.rungs[0].rung, 1);
        let ladder = Ladder {
            format: LADDER_FORMAT,
            version: 7,
            variant: "oware".into(),
            rules_version: 1,
            options: String::new(),
            protocol,
            rungs: ["random", "greedy"]
                .iter()
                .zip(elo)
                .map(|(spec, elo)| Rung {
                    spec: spec.to_string(),
                    sha256: None,
                    elo,
                    low: elo,
                    high: elo,
                    games: 0,
                })
                .collect(),
            links: vec![],
            command: String::new(),
        };
        let names = ["random".to_string(), "greedy".to_string()];
        let table = rating.table(&ladder, "here.json", "me", &names, 1.5);
        assert!(
            table.starts_with("me on oware@1 ladder v7 (here.json): Elo "),
            "{table}"
        );
        let row = table
            .lines()
            .find(|l| l.starts_with("greedy"))
            .expect(&table);
        assert!(row.contains(&rating.rungs[0].wdl.to_string()), "{row}");
        assert!(!table.lines().any(|l| l.starts_with("random ")), "{table}");
    }

    /// A three-rung oware ladder measured and fitted, then a rung rated against it as if it
    /// were new: it lands near its own Elo, and the file round-trips.
    #[test]
    fn a_rung_rated_against_its_own_ladder_lands_on_itself() {
        let rules: Variant = "oware".parse().unwrap();
        let specs = ["random", "mcts:8", "greedy"];
        let mut rungs: Vec<Box<dyn Agent>> = specs
            .iter()
            .enumerate()
            .map(|(i, s)| agents::parse(s, i as u64).unwrap())
            .collect();
        let protocol = Protocol {
            opening_plies: 4,
            varied_starts: false,
            max_plies: 1000,
        };
        let played = measure(
            &rules,
            &mut rungs,
            60,
            &protocol.match_config(1, 64),
            |_| Control::Continue,
        )
        .unwrap();
        assert_eq!(played.len(), 120);
        let pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
        let specs: Vec<(String, Option<String>)> =
            specs.iter().map(|s| (s.to_string(), None)).collect();
        let ladder = Ladder::fit(1, &rules, "", protocol, &specs, &pairs, "test").unwrap();
        assert_eq!(ladder.rungs[0].elo, 0.0);
        assert!(ladder.rungs[1].elo > 100.0 && ladder.rungs[2].elo > ladder.rungs[1].elo);
        assert!(ladder.links[0].score > 0.6, "{:?}", ladder.links[0]);
        let text = ladder.to_json();
        let again = Ladder::load_str(&text);
        assert_eq!((again.rungs.len(), again.links.len()), (3, 2));
        assert_eq!(
            again.to_json(),
            Ladder::load_str(&again.to_json()).to_json()
        );

        let elo: Vec<f64> = ladder.rungs.iter().map(|r| r.elo).collect();
        let fresh = || -> Vec<Box<dyn Agent>> {
            specs
                .iter()
                .enumerate()
                .map(|(i, (s, _))| agents::parse(s, 100 + i as u64).unwrap())
                .collect()
        };
        let options = RateOptions {
            precision: 1.0,
            max_games: 120,
            seed: 5,
            ..Default::default()
        };
        let (mut pairs_seen, mut rounds_seen) = (0, 0);
        let rating = rate(
            &rules,
            &ladder.protocol,
            &elo,
            agents::parse("mcts:8", 99).unwrap(),
            fresh(),
            &options,
            |_| {
                pairs_seen += 1;
                Control::Continue
            },
            |_| rounds_seen += 1,
        )
        .unwrap();
        assert_eq!(rating.games, 120, "the budget, not the precision, stops it");
        assert_eq!(pairs_seen, 60);
        assert_eq!(rounds_seen, rating.rounds);
        assert!(
            rating.low < elo[1] && elo[1] < rating.high,
            "{rating:?} vs {elo:?}"
        );
        let games: u32 = rating.rungs.iter().map(|r| r.wdl.games()).sum();
        assert_eq!(games as usize, rating.games);
    }

    /// Every variant: a two-rung ladder measured and an agent rated on it within its budget.
    #[test]
    fn every_variant_measures_and_rates() {
        for name in [
            "oware", "ayo", "ayoayo", "ncho", "adi", "jerin", "jodu", "yao",
        ] {
            let rules: Variant = name.parse().unwrap();
            let protocol = Protocol {
                opening_plies: 2,
                varied_starts: false,
                max_plies: 400,
            };
            let config = protocol.match_config(3, 64);
            let parse = |s: &str| agents::parse(s, 1).unwrap();
            let mut rungs = vec![parse("random"), parse("greedy")];
            let played = measure(&rules, &mut rungs, 3, &config, |_| Control::Continue).unwrap();
            let pairs: Vec<GamePair> = played.iter().map(|p| p.result).collect();
            let specs = [("random".to_string(), None), ("greedy".to_string(), None)];
            let ladder = Ladder::fit(1, &rules, "", protocol, &specs, &pairs, "").unwrap();
            ladder.check_rules(&rules).unwrap();
            let elo: Vec<f64> = ladder.rungs.iter().map(|r| r.elo).collect();
            let options = RateOptions {
                max_games: 10,
                ..Default::default()
            };
            let rating = rate(
                &rules,
                &ladder.protocol,
                &elo,
                parse("alphabeta:1"),
                vec![parse("random"), parse("greedy")],
                &options,
                |_| Control::Continue,
                |_| {},
            )
            .unwrap();
            assert!((2..=10).contains(&rating.games), "{name}: {rating:?}");
            assert!(
                rating.low <= rating.elo && rating.elo <= rating.high,
                "{name}"
            );
        }
        let other: Variant = "ayo".parse().unwrap();
        let oware: Variant = "oware".parse().unwrap();
        let ladder = Ladder {
            format: LADDER_FORMAT,
            version: 1,
            variant: "oware".into(),
            rules_version: 1,
            options: String::new(),
            protocol: Protocol {
                opening_plies: 4,
                varied_starts: false,
                max_plies: 1000,
            },
            rungs: vec![],
            links: vec![],
            command: String::new(),
        };
        ladder.check_rules(&oware).unwrap();
        assert!(ladder.check_rules(&other).is_err());
    }

    impl Ladder {
        fn load_str(text: &str) -> Ladder {
            serde_json::from_str(text).unwrap()
        }
    }
}
