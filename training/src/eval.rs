//! Evaluation matches of a network against other agents (in-run evaluation, `ayo train
//! --evaluate`, the main job): the tournament's one match driver, [`ayo_env::arena::tournament::play`],
//! with its paired random openings — every pair of games starts from the same few random plies,
//! one game per seat, so that a deterministic network against a baseline still plays different
//! games — summed up from the first agent's side.

use ayo_env::arena::tournament::{self, Control, MatchConfig, MatchError};
use ayo_env::{Agent, Player, Variant};

/// Wins, draws and losses of the first agent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games cut by the ply cap (counted as draws).
    pub truncated: u32,
    /// Different games among them, identical games (same start, same seats, same moves)
    /// counted once: how much the openings and the agents' randomness varied the games.
    pub distinct: u32,
}

impl MatchResult {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games().max(1) as f64
    }
    /// Wins plus half the draws, over the games.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
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
    let mut players = vec![a, b];
    let schedule = vec![(0, 1); games.div_ceil(2)];
    let pairs = tournament::play(rules, &mut players, &schedule, config, |_| {
        Control::Continue
    })?;
    let mut result = MatchResult::default();
    for pair in &pairs {
        result.truncated += pair.truncated;
        for (leg, record) in pair.records.iter().enumerate() {
            let seat_of_a = if leg == 0 {
                Player::South
            } else {
                Player::North
            };
            let south = tournament::south_points(record);
            let points = if seat_of_a == Player::South {
                south
            } else {
                1.0 - south
            };
            match points {
                p if p > 0.5 => result.wins += 1,
                p if p < 0.5 => result.losses += 1,
                _ => result.draws += 1,
            }
        }
    }
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

    #[test]
    fn every_game_is_counted_once() {
        let rules: Variant = "oware".parse().unwrap();
        let r = play_match(
            &rules,
            agents::parse("random", 1).unwrap(),
            agents::parse("greedy", 2).unwrap(),
            10,
            &config(4),
        )
        .unwrap();
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
