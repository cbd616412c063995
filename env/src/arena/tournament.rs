//! Matches between agents in **game pairs**: each pair starts from one opening (a few random
//! plies from the start) and is played twice, each player once in each seat, so that the
//! first-move advantage cancels. The statistics of the results are in [`crate::arena::rating`].
//!
//! All games in flight run together: at each step every agent gets one
//! [`Agent::choose_batch`] call with every game in which it is to move (so a network agent
//! evaluates them in one forward pass), and different agents choose in parallel.
//!
//! ```
//! use ayo_env::arena::tournament::{play, round_robin, Control, MatchConfig};
//! use ayo_env::{Agent, Analysis, Rules, Variant, VariantState};
//!
//! /// Always sows the leftmost legal pit.
//! struct Leftmost;
//! impl Agent for Leftmost {
//!     fn name(&self) -> String { "leftmost".into() }
//!     fn choose(&mut self, v: &Variant, s: &VariantState) -> (u8, Analysis) {
//!         (v.legal_mask(s).nth(0).unwrap(), Analysis::default())
//!     }
//! }
//! let oware = Variant::new("oware", &[]).unwrap();
//! let mut players: Vec<Box<dyn Agent>> = vec![Box::new(Leftmost), Box::new(Leftmost)];
//! let config = MatchConfig { opening_plies: 4, ..Default::default() };
//! let pairs = play(&oware, &mut players, &round_robin(2, 3), &config, |_| Control::Continue).unwrap();
//! assert_eq!(pairs.len(), 3);
//! assert_eq!(pairs[0].records[0].start, pairs[0].records[1].start);
//! ```

use crate::action::Action;
use crate::agent::{Agent, Analysis};
use crate::arena::rating::GamePair;
use crate::error::PlayError;
use crate::player::Player;
use crate::record::GameRecord;
use crate::rules::Rules;
use crate::variant::{Variant, VariantState};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How the games of a match are played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    /// Random plies from the start position that make each pair's opening.
    pub opening_plies: u32,
    /// A game still running after this many plies (after the opening) is cut and scored a draw.
    pub max_plies: u32,
    /// Games in flight at once (pairs are started whole, so this is rounded up to even).
    pub concurrency: usize,
    /// Seed of the openings.
    pub seed: u64,
    /// Record every seed drop in the game records.
    pub detail: bool,
    /// Openings begin at the variant's varied starts ([`Rules::training_start`]: for the
    /// round-based variants a later round with unequal house ownership) instead of the start.
    #[serde(default)]
    pub varied_starts: bool,
    /// A fixed opening book: the `k`-th pair of the schedule plays from `book[k % len]` (a
    /// position in the variant's notation, [`read_book`]) instead of a random opening; empty:
    /// random openings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub book: Vec<String>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            opening_plies: 4,
            max_plies: 1000,
            concurrency: 256,
            seed: 0,
            detail: false,
            varied_starts: false,
            book: Vec::new(),
        }
    }
}

/// Every pairing of `n` players once per round, for `rounds` rounds: `(a, b)` with `a < b`
/// (which of them sits South first alternates by round).
pub fn round_robin(n: usize, rounds: usize) -> Vec<(usize, usize)> {
    let mut schedule = Vec::new();
    for round in 0..rounds {
        for a in 0..n {
            for b in a + 1..n {
                schedule.push(if round % 2 == 0 { (a, b) } else { (b, a) });
            }
        }
    }
    schedule
}

/// `hero` against each other of `n` players once per round, for `rounds` rounds.
pub fn gauntlet(n: usize, hero: usize, rounds: usize) -> Vec<(usize, usize)> {
    let mut schedule = Vec::new();
    for round in 0..rounds {
        for other in (0..n).filter(|&o| o != hero) {
            schedule.push(if round % 2 == 0 {
                (hero, other)
            } else {
                (other, hero)
            });
        }
    }
    schedule
}

/// A finished game pair.
#[derive(Clone, Debug)]
pub struct PlayedPair {
    /// Position of the pair in the schedule.
    pub index: usize,
    /// The opening in the variant's notation (`None`: the usual start).
    pub opening: Option<String>,
    /// The game with `result.a` South, then the game with `result.a` North.
    pub records: [GameRecord; 2],
    pub result: GamePair,
    /// Games of the pair that the ply cap cut short.
    pub truncated: u32,
}

/// Different games among `pairs`, identical ones (same seat order, same start, same moves)
/// counted once: how much the openings and the agents' randomness varied the games (two
/// deterministic agents from too few openings replay the same game).
pub fn distinct_games<'a>(pairs: impl IntoIterator<Item = &'a PlayedPair>) -> usize {
    let mut different = std::collections::HashSet::new();
    for pair in pairs {
        for (leg, record) in pair.records.iter().enumerate() {
            different.insert((leg, &record.seats, &record.start, &record.actions));
        }
    }
    different.len()
}

/// The action by which an agent gives up the game it is asked about: it loses that game and
/// the match goes on. An external engine answers it when it crashed, timed out or chose an
/// action that cannot be played (any other action that cannot be played stops the match with
/// [`MatchError::BadMove`]: an agent of this library that does so has a bug).
pub const FORFEIT: Action = Action::MAX;

/// What the caller of [`play`] wants after each finished pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    /// Stop now; games in flight are abandoned.
    Stop,
}

/// An agent broke the contract of [`Agent`].
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("agent {agent} chose action {action}, which cannot be played: {source}")]
    BadMove {
        agent: String,
        action: Action,
        source: PlayError,
    },
    #[error("agent {agent} returned {got} choices for {expected} games")]
    BadBatch {
        agent: String,
        got: usize,
        expected: usize,
    },
}

struct LiveGame {
    slot: usize,
    /// 0: the pair's `a` sits South; 1: North.
    leg: usize,
    /// Player indices by seat.
    seats: [usize; 2],
    state: VariantState,
    record: GameRecord,
    /// The mover answered [`FORFEIT`].
    forfeited: bool,
}

struct PairSlot {
    index: usize,
    a: usize,
    b: usize,
    opening: Option<String>,
    records: [Option<GameRecord>; 2],
}

/// A random opening: `plies` uniformly random legal moves from the start (South to move) or,
/// with `varied`, from one of the variant's varied starts ([`Rules::training_start`]), as
/// notation; drawn again if the game ends within the opening. `None`: the usual start.
pub fn random_opening(
    rules: &Variant,
    plies: u32,
    varied: bool,
    rng: &mut impl Rng,
) -> Option<String> {
    if plies == 0 && !varied {
        return None;
    }
    for _ in 0..1000 {
        let mut state = if varied {
            rules.training_start(Player::South, rng.gen())
        } else {
            rules.start(Player::South)
        };
        for _ in 0..plies {
            let mask = rules.legal_mask(&state);
            if mask.is_empty() {
                break;
            }
            let a = mask.nth(rng.gen_range(0..mask.count())).expect("n < count");
            rules.play_unchecked(&mut state, a);
        }
        if !rules.is_terminal(&state) {
            return Some(rules.notation(&state));
        }
    }
    None
}

/// An opening book that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("cannot read the opening book {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("opening book {path} line {line}: {text:?}: {reason}")]
    Line {
        path: String,
        line: usize,
        text: String,
        reason: String,
    },
    #[error("opening book {path}: no positions (one per line in the variant's notation)")]
    Empty { path: String },
}

/// The positions of an opening book file for `rules` ([`MatchConfig::book`]): one per line in
/// the variant's notation, anything after `#` a comment; each must parse and be a live game.
pub fn read_book(rules: &Variant, path: &std::path::Path) -> Result<Vec<String>, BookError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| BookError::Read {
        path: name.clone(),
        source,
    })?;
    let mut book = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        let bad = |reason: String| BookError::Line {
            path: name.clone(),
            line: n + 1,
            text: text.to_string(),
            reason,
        };
        let state = rules.parse_notation(text).map_err(|e| bad(e.to_string()))?;
        if rules.is_terminal(&state) {
            return Err(bad("the game is over in this position".into()));
        }
        book.push(rules.notation(&state));
    }
    if book.is_empty() {
        return Err(BookError::Empty { path: name });
    }
    Ok(book)
}

/// Plays the game pairs of `schedule` (`(a, b)`: indices into `players`) and returns them in
/// the order they finished; `on_pair` sees each pair as it finishes and may stop the match.
pub fn play(
    rules: &Variant,
    players: &mut [Box<dyn Agent>],
    schedule: &[(usize, usize)],
    config: &MatchConfig,
    mut on_pair: impl FnMut(&PlayedPair) -> Control,
) -> Result<Vec<PlayedPair>, MatchError> {
    let names: Vec<String> = players.iter().map(|p| p.name()).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let mut queue = schedule.iter().copied().enumerate();
    let mut slots: Vec<Option<PairSlot>> = Vec::new();
    let mut live: Vec<LiveGame> = Vec::new();
    let mut finished = Vec::new();
    let capacity = config.concurrency.max(2);
    loop {
        // Start new pairs while there is room.
        while live.len() + 2 <= capacity {
            let Some((index, (a, b))) = queue.next() else {
                break;
            };
            let opening = if config.book.is_empty() {
                random_opening(rules, config.opening_plies, config.varied_starts, &mut rng)
            } else {
                Some(config.book[index % config.book.len()].clone())
            };
            let slot = slots.len();
            live.extend(start_pair(rules, config, &names, slot, [a, b], &opening));
            slots.push(Some(PairSlot {
                index,
                a,
                b,
                opening,
                records: [None, None],
            }));
        }
        if live.is_empty() {
            break;
        }
        decide(rules, players, &names, &mut live)?;
        for pair in retire(rules, config, &mut live, &mut slots) {
            let control = on_pair(&pair);
            finished.push(pair);
            if control == Control::Stop {
                return Ok(finished);
            }
        }
    }
    Ok(finished)
}

/// The two games of the pair in `slot` between `a` and `b` (`players`), from `opening`: `a`
/// South in the first, North in the second.
fn start_pair(
    rules: &Variant,
    config: &MatchConfig,
    names: &[String],
    slot: usize,
    [a, b]: [usize; 2],
    opening: &Option<String>,
) -> Vec<LiveGame> {
    [[a, b], [b, a]]
        .into_iter()
        .enumerate()
        .map(|(leg, seats)| {
            let state = match opening {
                Some(text) => rules
                    .parse_notation(text)
                    .expect("the notation of a reachable position parses"),
                None => rules.start(Player::South),
            };
            let first = rules.to_play(&state).expect("openings are live");
            let mut record = GameRecord::new(rules, first, opening.clone(), config.detail);
            record.seats = [names[seats[0]].clone(), names[seats[1]].clone()];
            LiveGame {
                slot,
                leg,
                seats,
                state,
                record,
                forfeited: false,
            }
        })
        .collect()
}

/// One decision in every live game: each agent chooses for all games it is to move in (the
/// agents in parallel), and the moves are played.
fn decide(
    rules: &Variant,
    players: &mut [Box<dyn Agent>],
    names: &[String],
    live: &mut [LiveGame],
) -> Result<(), MatchError> {
    let mut waiting: Vec<Vec<usize>> = vec![Vec::new(); players.len()];
    for (g, game) in live.iter().enumerate() {
        let mover = rules.to_play(&game.state).expect("live games are not over");
        waiting[game.seats[mover.index()]].push(g);
    }
    let choices: Vec<Vec<(Action, Analysis)>> = players
        .par_iter_mut()
        .zip(waiting.par_iter())
        .map(|(agent, games)| {
            if games.is_empty() {
                return Vec::new();
            }
            let states: Vec<&VariantState> = games.iter().map(|&g| &live[g].state).collect();
            agent.choose_batch(rules, &states)
        })
        .collect();
    for (p, (games, chosen)) in waiting.iter().zip(&choices).enumerate() {
        if games.len() != chosen.len() {
            return Err(MatchError::BadBatch {
                agent: names[p].clone(),
                got: chosen.len(),
                expected: games.len(),
            });
        }
        for (&g, &(action, _)) in games.iter().zip(chosen) {
            let game = &mut live[g];
            if action == FORFEIT {
                let loser = rules.to_play(&game.state).expect("live games are not over");
                game.record.forfeit(rules, &game.state, loser);
                game.forfeited = true;
                continue;
            }
            game.record
                .play(rules, &mut game.state, action)
                .map_err(|source| MatchError::BadMove {
                    agent: names[p].clone(),
                    action,
                    source,
                })?;
        }
    }
    Ok(())
}

/// Takes the games that are over or cut by the ply cap out of `live`, and returns the pairs
/// that they finish, in the order they finished.
fn retire(
    rules: &Variant,
    config: &MatchConfig,
    live: &mut Vec<LiveGame>,
    slots: &mut [Option<PairSlot>],
) -> Vec<PlayedPair> {
    let mut pairs = Vec::new();
    let mut g = 0;
    while g < live.len() {
        let game = &mut live[g];
        let over = game.forfeited || rules.is_terminal(&game.state);
        let cut = !over && rules.ply(&game.state) >= config.max_plies;
        if !(over || cut) {
            g += 1;
            continue;
        }
        if cut {
            game.record.finish(rules, &game.state, true);
        }
        let game = live.swap_remove(g);
        let slot = slots[game.slot].as_mut().expect("slot of a live game");
        slot.records[game.leg] = Some(game.record);
        if slot.records.iter().all(Option::is_some) {
            let slot = slots[game.slot].take().expect("slot of a live game");
            pairs.push(finish_pair(slot));
        }
    }
    pairs
}

/// Points of the South player of a finished record: 1 win, ½ draw (or cut), 0 loss.
pub fn south_points(record: &GameRecord) -> f64 {
    match &record.outcome {
        Some(o) if !o.truncated => {
            if o.returns[0] > o.returns[1] {
                1.0
            } else if o.returns[0] < o.returns[1] {
                0.0
            } else {
                0.5
            }
        }
        _ => 0.5,
    }
}

impl PlayedPair {
    /// The pair `index` of players `a` and `b` from `opening`: its two finished `records`, `a`
    /// South in the first, North in the second.
    pub fn new(
        index: usize,
        a: usize,
        b: usize,
        opening: Option<String>,
        records: [GameRecord; 2],
    ) -> PlayedPair {
        let truncated = records
            .iter()
            .filter(|r| r.outcome.as_ref().is_none_or(|o| o.truncated))
            .count() as u32;
        let result = GamePair {
            a,
            b,
            points: [south_points(&records[0]), 1.0 - south_points(&records[1])],
        };
        PlayedPair {
            index,
            opening,
            records,
            result,
            truncated,
        }
    }
}

fn finish_pair(slot: PairSlot) -> PlayedPair {
    let [first, second] = slot.records;
    let records = [first.expect("both legs"), second.expect("both legs")];
    PlayedPair::new(slot.index, slot.a, slot.b, slot.opening, records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// Plays the lowest (or highest) legal action, so that a record shows who moved.
    struct Extreme {
        highest: bool,
        largest_batch: Arc<AtomicUsize>,
    }
    impl Agent for Extreme {
        fn name(&self) -> String {
            if self.highest { "highest" } else { "lowest" }.into()
        }
        fn choose_batch(
            &mut self,
            rules: &Variant,
            states: &[&VariantState],
        ) -> Vec<(Action, Analysis)> {
            self.largest_batch
                .fetch_max(states.len(), Ordering::Relaxed);
            states.iter().map(|s| self.choose(rules, s)).collect()
        }
        fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
            let legal = rules.legal_actions(s);
            let a = if self.highest {
                *legal.last().unwrap()
            } else {
                legal[0]
            };
            (a, Analysis::default())
        }
    }

    fn extremes() -> Vec<Box<dyn Agent>> {
        extremes_counting(&Arc::default())
    }

    fn extremes_counting(largest_batch: &Arc<AtomicUsize>) -> Vec<Box<dyn Agent>> {
        [false, true]
            .into_iter()
            .map(|highest| {
                Box::new(Extreme {
                    highest,
                    largest_batch: largest_batch.clone(),
                }) as Box<dyn Agent>
            })
            .collect()
    }

    /// With a book, pair k starts from the book's k-th position (cycling), both games of it.
    #[test]
    fn a_book_gives_each_pair_its_position_in_turn() {
        let oware = Variant::new("oware", &[]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.txt");
        let mut lines = vec!["# a comment".to_string()];
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..3 {
            let text = random_opening(&oware, 6, false, &mut rng).unwrap();
            lines.push(format!("{text}  # its value"));
        }
        std::fs::write(&path, lines.join("\n")).unwrap();
        let book = read_book(&oware, &path).unwrap();
        assert_eq!(book.len(), 3);
        let config = MatchConfig {
            book: book.clone(),
            concurrency: 2,
            ..Default::default()
        };
        let mut players = extremes();
        let pairs = play(&oware, &mut players, &round_robin(2, 5), &config, |_| {
            Control::Continue
        })
        .unwrap();
        for pair in &pairs {
            let expected = Some(book[pair.index % 3].clone());
            assert_eq!(pair.records[0].start, expected, "pair {}", pair.index);
            assert_eq!(pair.records[1].start, expected, "pair {}", pair.index);
        }

        // A line that does not parse, a finished game and an empty book are refused, named.
        std::fs::write(&path, "0 0 0\n").unwrap();
        let e = read_book(&oware, &path).unwrap_err().to_string();
        assert!(e.contains("line 1") && e.contains("book.txt"), "{e}");
        std::fs::write(&path, "0 0 0 0 0 0 0 0 0 0 0 0 | 24 24 | 0\n").unwrap();
        let e = read_book(&oware, &path).unwrap_err().to_string();
        assert!(e.contains("over"), "{e}");
        std::fs::write(&path, "# nothing\n").unwrap();
        let e = read_book(&oware, &path).unwrap_err().to_string();
        assert!(e.contains("no positions"), "{e}");
    }

    #[test]
    fn paired_games_swap_seats_from_the_same_opening() {
        let oware = Variant::new("oware", &[]).unwrap();
        let mut players = extremes();
        let config = MatchConfig {
            opening_plies: 3,
            ..Default::default()
        };
        let pairs = play(&oware, &mut players, &round_robin(2, 6), &config, |_| {
            Control::Continue
        })
        .unwrap();
        assert_eq!(pairs.len(), 6);
        let mut openings = std::collections::HashSet::new();
        for pair in &pairs {
            let [first, second] = &pair.records;
            assert_eq!(first.start, second.start);
            assert!(first.start.is_some());
            openings.insert(first.start.clone());
            let (a, b) = (pair.result.a, pair.result.b);
            let names = ["lowest", "highest"];
            assert_eq!(first.seats, [names[a].to_string(), names[b].to_string()]);
            assert_eq!(second.seats, [names[b].to_string(), names[a].to_string()]);
            // Independently of the seat labels: in the first game every South move is `a`'s
            // choice and every North move `b`'s; in the second the other way round.
            for (leg, record) in pair.records.iter().enumerate() {
                let replay = record.replay().expect("tournament records replay");
                for (i, &action) in record.actions.iter().enumerate() {
                    let legal = oware.legal_actions(&replay.states[i]);
                    let seat = record.movers[i].index();
                    let chooser = if (seat == 0) == (leg == 0) { a } else { b };
                    let expected = if chooser == 1 {
                        *legal.last().unwrap()
                    } else {
                        legal[0]
                    };
                    assert_eq!(action, expected, "move {i} of leg {leg}");
                }
            }
            // The pair's points are what the records say.
            assert_eq!(pair.result.points[0], south_points(first));
            assert_eq!(pair.result.points[1], 1.0 - south_points(second));
        }
        assert!(openings.len() > 1, "pairs get different openings");
    }

    #[test]
    fn agents_choose_for_all_their_games_at_once() {
        let oware = Variant::new("oware", &[]).unwrap();
        let largest = Arc::new(AtomicUsize::new(0));
        let mut players = extremes_counting(&largest);
        let config = MatchConfig {
            opening_plies: 2,
            concurrency: 64,
            ..Default::default()
        };
        let pairs = play(&oware, &mut players, &round_robin(2, 32), &config, |_| {
            Control::Continue
        })
        .unwrap();
        assert_eq!(pairs.len(), 32);
        // 64 games in flight: after a 2-ply opening South is to move in all of them, and each
        // agent sits South in 32 of them.
        assert_eq!(largest.load(Ordering::Relaxed), 32);
    }

    /// Forfeits from the sixth ply on.
    struct Quitter;
    impl Agent for Quitter {
        fn name(&self) -> String {
            "quitter".into()
        }
        fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
            if rules.ply(s) >= 6 {
                (FORFEIT, Analysis::default())
            } else {
                (rules.legal_actions(s)[0], Analysis::default())
            }
        }
    }

    /// A record says who forfeited, the forfeiter scores 0, and the match goes on.
    #[test]
    fn an_agent_that_forfeits_loses_the_game_and_the_match_goes_on() {
        let oware = Variant::new("oware", &[]).unwrap();
        let mut players: Vec<Box<dyn Agent>> = vec![Box::new(Quitter), extremes().remove(1)];
        let config = MatchConfig {
            opening_plies: 0,
            ..Default::default()
        };
        let pairs = play(&oware, &mut players, &round_robin(2, 3), &config, |_| {
            Control::Continue
        })
        .unwrap();
        assert_eq!(pairs.len(), 3);
        for pair in &pairs {
            let quitter_first = pair.result.a == 0;
            let score = if quitter_first {
                pair.result.score()
            } else {
                2.0 - pair.result.score()
            };
            assert_eq!(score, 0.0);
            for record in &pair.records {
                let outcome = record.outcome.as_ref().unwrap();
                let loser = outcome.forfeit.expect("forfeited");
                assert_eq!(record.seats[loser.index()], "quitter");
                assert!(record.actions.len() >= 5 && record.actions.len() <= 7);
                let again = GameRecord::from_json(&record.to_json()).unwrap();
                assert_eq!(again.outcome.unwrap().forfeit, Some(loser));
            }
        }
        // The bad actions of an agent of this library still stop the match.
        struct Wrong;
        impl Agent for Wrong {
            fn name(&self) -> String {
                "wrong".into()
            }
            fn choose(&mut self, _: &Variant, _: &VariantState) -> (Action, Analysis) {
                (40, Analysis::default())
            }
        }
        let mut bad: Vec<Box<dyn Agent>> = vec![extremes().remove(0), Box::new(Wrong)];
        assert!(matches!(
            play(&oware, &mut bad, &[(0, 1)], &config, |_| Control::Continue),
            Err(MatchError::BadMove { .. })
        ));
    }

    #[test]
    fn the_caller_can_stop_a_match() {
        let oware = Variant::new("oware", &[]).unwrap();
        let mut players = extremes();
        let mut seen = 0;
        let pairs = play(
            &oware,
            &mut players,
            &round_robin(2, 20),
            &MatchConfig::default(),
            |_| {
                seen += 1;
                if seen == 3 {
                    Control::Stop
                } else {
                    Control::Continue
                }
            },
        )
        .unwrap();
        assert_eq!(pairs.len(), 3);
    }

    #[test]
    fn schedules_pair_everyone_as_asked() {
        assert_eq!(round_robin(3, 1), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(round_robin(3, 2).len(), 6);
        assert_eq!(gauntlet(3, 1, 2), vec![(1, 0), (1, 2), (0, 1), (2, 1)]);
    }
}
