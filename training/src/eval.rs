//! Matches between two agents, used by the periodic evaluation during training.
//!
//! Both agents get whole batches: every game where an agent is to move goes into one
//! `choose_batch` call.

use ayo_env::{Agent, Player, Rules, Variant, VariantState};

/// A baseline agent from its spec (`random`, `greedy`, `alphabeta:D`, `mcts:N`; see
/// `ayo_env::agents`).
pub fn baseline(spec: &str, seed: u64) -> Result<Box<dyn Agent>, ayo_env::agents::AgentSpecError> {
    ayo_env::agents::parse(spec, seed)
}

/// Wins, draws and losses of the first agent.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchResult {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games cut by the ply cap (counted as draws).
    pub truncated: u32,
    /// Different games among them, identical games (same seats, same moves) counted once: how
    /// much the agents' randomness varied the games.
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

/// `games` games of `a` against `b` from the start position (South first), `a` taking South
/// in the even games and North in the odd ones; a game longer than `max_plies` is a draw.
pub fn play_match(
    rules: &Variant,
    a: &mut dyn Agent,
    b: &mut dyn Agent,
    games: usize,
    max_plies: u32,
) -> MatchResult {
    let mut states: Vec<VariantState> = (0..games).map(|_| rules.start(Player::South)).collect();
    let seat_of_a = |g: usize| {
        if g % 2 == 0 {
            Player::South
        } else {
            Player::North
        }
    };
    let mut result = MatchResult::default();
    let mut moves: Vec<Vec<ayo_env::Action>> = vec![Vec::new(); games];
    let mut live: Vec<usize> = (0..games).collect();
    while !live.is_empty() {
        // Each agent moves in every live game where it is to move (a game may end in between).
        for is_a in [true, false] {
            let agent: &mut dyn Agent = if is_a { &mut *a } else { &mut *b };
            let movers: Vec<usize> = live
                .iter()
                .copied()
                .filter(|&g| {
                    rules
                        .to_play(&states[g])
                        .is_some_and(|p| (p == seat_of_a(g)) == is_a)
                })
                .collect();
            if movers.is_empty() {
                continue;
            }
            let refs: Vec<&VariantState> = movers.iter().map(|&g| &states[g]).collect();
            let choices = agent.choose_batch(rules, &refs);
            for (&g, (action, _)) in movers.iter().zip(choices) {
                rules
                    .play(&mut states[g], action)
                    .expect("agents play legal actions");
                moves[g].push(action);
            }
        }
        live.retain(|&g| {
            let s = &states[g];
            if rules.is_terminal(s) {
                let r = rules.returns(s)[seat_of_a(g).index()];
                match r.partial_cmp(&0.0) {
                    Some(std::cmp::Ordering::Greater) => result.wins += 1,
                    Some(std::cmp::Ordering::Less) => result.losses += 1,
                    _ => result.draws += 1,
                }
                false
            } else if rules.ply(s) >= max_plies {
                result.draws += 1;
                result.truncated += 1;
                false
            } else {
                true
            }
        });
    }
    // A game is told apart by the seats and the moves.
    let different: std::collections::HashSet<(Player, Vec<ayo_env::Action>)> = moves
        .into_iter()
        .enumerate()
        .map(|(g, m)| (seat_of_a(g), m))
        .collect();
    result.distinct = different.len() as u32;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_counted_once() {
        let rules: Variant = "oware".parse().unwrap();
        let (mut a, mut b) = (
            baseline("random", 1).unwrap(),
            baseline("greedy", 2).unwrap(),
        );
        let r = play_match(&rules, a.as_mut(), b.as_mut(), 10, 1000);
        assert_eq!(r.games(), 10);
        assert!(r.distinct > 1 && r.distinct <= 10, "{r:?}");
    }

    /// Always the first legal action: every game with the same seats is the same game.
    struct First;
    use ayo_env::{Action, Analysis};
    impl Agent for First {
        fn name(&self) -> String {
            "first".into()
        }
        fn choose_batch(
            &mut self,
            rules: &Variant,
            states: &[&VariantState],
        ) -> Vec<(Action, Analysis)> {
            states
                .iter()
                .map(|s| {
                    (
                        rules.legal_mask(s).iter().next().unwrap(),
                        Analysis::default(),
                    )
                })
                .collect()
        }
    }

    #[test]
    fn deterministic_agents_play_one_game_per_seat() {
        let rules: Variant = "oware".parse().unwrap();
        let r = play_match(&rules, &mut First, &mut First, 8, 1000);
        assert_eq!((r.games(), r.distinct), (8, 2), "{r:?}");
    }
}
