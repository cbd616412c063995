//! Evaluation matches of a network against other agents (in-run evaluation, `ayo evaluate`,
//! the main job): the tournament's one match driver, [`ayo_env::arena::tournament::play`],
//! with its paired random openings — every pair of games starts from the same few random plies,
//! one game per seat, so that a deterministic network against a baseline still plays different
//! games — summed up from the first agent's side.

use ayo_env::arena::rating::{self, GamePair, RateConfig, Ratings};
use ayo_env::arena::tournament::{self, Control, MatchConfig, MatchError, PlayedPair};
use ayo_env::{Agent, Variant};

/// Wins, draws and losses of the first agent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games cut by the ply cap (counted as draws).
    pub truncated: u32,
    /// Different games among them, identical games (same start, same seats, same moves)
    /// counted once: how much the openings and the agents' randomness varied the games.
    pub distinct: u32,
    /// Pairs (one opening, a game in each seat) whose both games the first agent won, and
    /// whose both it lost; the rest are split. An opening that one seat wins whoever plays it
    /// splits; a pair lost both times is one the first agent misplays from either side.
    pub pairs_won_both: u32,
    pub pairs_lost_both: u32,
    /// Wins of the first agent sitting South (the rest of its wins it took sitting North):
    /// where an opening favours one seat, how often the agent wins from the other.
    pub wins_south: u32,
    /// The pairs' results, the first agent as `a` (index 0), the second as `b` (index 1).
    pub pairs: Vec<GamePair>,
}

impl MatchResult {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    /// Pairs neither won nor lost both times (a draw in either game splits a pair).
    pub fn pairs_split(&self) -> u32 {
        self.games().div_ceil(2) - self.pairs_won_both - self.pairs_lost_both
    }
    /// Wins of the first agent sitting North.
    pub fn wins_north(&self) -> u32 {
        self.wins - self.wins_south
    }
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games().max(1) as f64
    }
    /// Wins plus half the draws, over the games.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
    /// Whether the first agent won every game or lost every game.
    pub fn sweep(&self) -> bool {
        self.games() > 0 && (self.wins == self.games() || self.losses == self.games())
    }
    /// The first agent's Elo over the second (anchored at 0) with its 95 % interval
    /// ([`rating::rate`]: a bootstrap over the pairs): `elo[0]`, `low[0]`, `high[0]`.
    pub fn ratings(&self) -> Ratings {
        let config = RateConfig {
            anchor: 1,
            ..RateConfig::default()
        };
        rating::rate(2, &self.pairs, &config)
    }
    /// Counts a played pair's two games from the first agent's side: the pair's `result` is
    /// scored for its schedule's `a`, which a match's schedule makes the first agent.
    fn add(&mut self, pair: &PlayedPair) {
        self.truncated += pair.truncated;
        self.pairs.push(pair.result);
        let (mut won, mut lost) = (0, 0);
        // `points[0]` is the game the first agent played South.
        if pair.result.points[0] > 0.5 {
            self.wins_south += 1;
        }
        for points in pair.result.points {
            match points {
                p if p > 0.5 => won += 1,
                p if p < 0.5 => lost += 1,
                _ => self.draws += 1,
            }
        }
        self.wins += won;
        self.losses += lost;
        match (won, lost) {
            (2, _) => self.pairs_won_both += 1,
            (_, 2) => self.pairs_lost_both += 1,
            _ => {}
        }
    }
}

/// `games` games (rounded up to whole pairs) of `a` against `b` under `config` (openings, ply
/// cap, varied starts), `a` taking each seat once per pair.
pub fn play_match(
    rules: &Variant,
    a: Box<dyn Agent>,
    b: Box<dyn Agent>,
    games: usize,
    config: &MatchConfig,
) -> Result<MatchResult, MatchError> {
    play_match_observed(rules, a, b, games, config, |_, _, _| {})
}

/// [`play_match`], calling `on_pair(pairs done, pairs in all, result so far)` as each pair ends
/// (`ayo evaluate` shows its progress with it). `distinct` is counted at the end.
pub fn play_match_observed(
    rules: &Variant,
    a: Box<dyn Agent>,
    b: Box<dyn Agent>,
    games: usize,
    config: &MatchConfig,
    mut on_pair: impl FnMut(usize, usize, &MatchResult),
) -> Result<MatchResult, MatchError> {
    let mut players = vec![a, b];
    let schedule = vec![(0, 1); games.div_ceil(2)];
    let mut result = MatchResult::default();
    let mut done = 0;
    let pairs = tournament::play(rules, &mut players, &schedule, config, |pair| {
        result.add(pair);
        done += 1;
        on_pair(done, schedule.len(), &result);
        Control::Continue
    })?;
    result.distinct = tournament::distinct_games(&pairs) as u32;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ayo_env::{arena::agents, Action, Analysis, Rules, VariantState};

    fn config(opening_plies: u32) -> MatchConfig {
        MatchConfig {
            opening_plies,
            ..Default::default()
        }
    }

    /// The two seeded baselines the counting tests play.
    fn random_and_greedy() -> (Box<dyn Agent>, Box<dyn Agent>) {
        (
            agents::parse("random", 1).unwrap(),
            agents::parse("greedy", 2).unwrap(),
        )
    }

    #[test]
    fn every_game_is_counted_once() {
        let rules: Variant = "oware".parse().unwrap();
        let (random, greedy) = random_and_greedy();
        let r = play_match(&rules, random, greedy, 10, &config(4)).unwrap();
        assert_eq!(r.games(), 10);
        assert!(r.distinct > 1 && r.distinct <= 10, "{r:?}");
    }

    /// Always the first legal action: every game from the same start with the same seats is the
    /// same game.
    struct First;
    impl Agent for First {
        fn name(&self) -> String {
            "first".into()
        }
        fn choose(&mut self, rules: &Variant, s: &VariantState) -> (Action, Analysis) {
            (
                rules.legal_mask(s).iter().next().unwrap(),
                Analysis::default(),
            )
        }
    }

    #[test]
    fn deterministic_agents_differ_only_by_their_openings() {
        let rules: Variant = "oware".parse().unwrap();
        let from_start = play_match(&rules, Box::new(First), Box::new(First), 8, &config(0));
        assert_eq!(
            from_start.map(|r| (r.games(), r.distinct)).unwrap(),
            (8, 2),
            "from the start position the 8 games are one game per seat"
        );
        let opened = play_match(&rules, Box::new(First), Box::new(First), 8, &config(4)).unwrap();
        assert!(
            opened.distinct > 2,
            "random openings vary the games: {opened:?}"
        );
    }

    #[test]
    fn the_same_agent_in_both_seats_splits_every_pair_and_a_strong_one_wins_both() {
        let rules: Variant = "oware".parse().unwrap();
        // From the start, First against First is one game per seat: whoever sits on the
        // winning side wins it, so each pair is one win and one loss for either agent.
        let mirror = play_match(&rules, Box::new(First), Box::new(First), 8, &config(0)).unwrap();
        assert_eq!(mirror.draws, 0, "{mirror:?}");
        assert_eq!(
            (
                mirror.pairs_won_both,
                mirror.pairs_split(),
                mirror.pairs_lost_both
            ),
            (0, 4, 0)
        );
        let strong = agents::parse("alphabeta:4", 1).unwrap();
        let random = agents::parse("random", 2).unwrap();
        let r = play_match(&rules, strong, random, 10, &config(4)).unwrap();
        assert_eq!(
            (r.pairs_won_both, r.pairs_split(), r.pairs_lost_both),
            (5, 0, 0),
            "alpha-beta wins every opening from both seats against random: {r:?}"
        );
        assert_eq!(r.pairs.len(), 5);
        let elo = r.ratings();
        assert_eq!(elo.elo[1], 0.0, "the second agent is the anchor");
        assert!(
            elo.elo[0] > 100.0 && elo.low[0] <= elo.elo[0] && elo.elo[0] <= elo.high[0],
            "ten wins of ten rate the first agent far above the second: {elo:?}"
        );
    }

    /// Who wins the game `First` plays against itself from the start, South moving first:
    /// the game played here by the rules alone, outside the match driver.
    fn first_against_itself(rules: &Variant) -> Option<ayo_env::Player> {
        let mut s = rules.start(ayo_env::Player::South);
        while !rules.is_terminal(&s) {
            let action = rules.legal_mask(&s).iter().next().unwrap();
            rules.play(&mut s, action).unwrap();
        }
        let [south, north] = rules.returns(&s);
        match south.total_cmp(&north) {
            std::cmp::Ordering::Greater => Some(ayo_env::Player::South),
            std::cmp::Ordering::Less => Some(ayo_env::Player::North),
            std::cmp::Ordering::Equal => None,
        }
    }

    #[test]
    fn wins_are_counted_by_the_seat_they_were_won_from() {
        let rules: Variant = "oware".parse().unwrap();
        let winner = first_against_itself(&rules).expect("the game is decided");
        let mirror = play_match(&rules, Box::new(First), Box::new(First), 8, &config(0)).unwrap();
        let from_winning_seat = (mirror.wins_south, mirror.wins_north());
        match winner {
            ayo_env::Player::South => assert_eq!(from_winning_seat, (4, 0), "{mirror:?}"),
            ayo_env::Player::North => assert_eq!(from_winning_seat, (0, 4), "{mirror:?}"),
        }
        let strong = agents::parse("alphabeta:4", 1).unwrap();
        let random = agents::parse("random", 2).unwrap();
        let r = play_match(&rules, strong, random, 10, &config(4)).unwrap();
        assert_eq!((r.wins_south, r.wins_north()), (5, 5), "{r:?}");
    }

    #[test]
    fn the_observer_sees_every_pair_with_the_tally_so_far() {
        let rules: Variant = "oware".parse().unwrap();
        let mut seen = Vec::new();
        let (random, greedy) = random_and_greedy();
        let r = play_match_observed(
            &rules,
            random,
            greedy,
            10,
            &config(4),
            |done, all, so_far| seen.push((done, all, so_far.games(), so_far.clone())),
        )
        .unwrap();
        let counts: Vec<_> = seen.iter().map(|(d, all, g, _)| (*d, *all, *g)).collect();
        assert_eq!(
            counts,
            [(1, 5, 2), (2, 5, 4), (3, 5, 6), (4, 5, 8), (5, 5, 10)]
        );
        let last = &seen.last().unwrap().3;
        assert_eq!(
            (last.wins, last.draws, last.losses),
            (r.wins, r.draws, r.losses)
        );
        let (random, greedy) = random_and_greedy();
        let plain = play_match(&rules, random, greedy, 10, &config(4)).unwrap();
        assert_eq!(plain, r, "observing a match does not change it");
    }

    #[test]
    fn varied_starts_begin_later_rounds() {
        let rules: Variant = "ncho".parse().unwrap();
        let cfg = MatchConfig {
            opening_plies: 0,
            varied_starts: true,
            ..Default::default()
        };
        let r = play_match(&rules, Box::new(First), Box::new(First), 40, &cfg).unwrap();
        assert_eq!(r.games(), 40);
        assert!(r.distinct > 2, "varied starts give different games: {r:?}");
    }
}
