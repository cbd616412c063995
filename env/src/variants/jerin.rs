//! `jerin@1` — J'erin after Newberry (`000_*.txt`; docs/rules.md sections 5 and 9).
//!
//! * **Two-house opening**: the first move of every round, when the mover owns two adjacent
//!   pits of his home row, lifts both (8 seeds) and sows them as one stream from the pit after
//!   the pair (actions 12–16 = pairs starting at own pit 0–4); then the turn goes on as an
//!   ordinary relay. Otherwise the round opens with an ordinary move.
//! * **Only the mover takes fours, and only in houses he owns**: an intermediate four in his own
//!   house is removed at once; a last-seed four in his own house is taken and ends the turn; a
//!   four on the opponent's side, intermediate or last, is an ordinary pit (the last seed there
//!   relays on).
//! * **The last eight**: while only 8 seeds are in play (board and hand, re-checked at every
//!   drop, so an intermediate capture can switch it on mid-sowing), fours are taken by nobody,
//!   and the first player whose last seed makes a four in any house takes all 8; the round ends.
//! * No 11th-group rule. The loser of a round starts the next (after 6–6, the player who did
//!   not start it).

use crate::board::Pits;
use crate::variants::fours::{Feeding, Fours, FoursRules, NextStarter, Opening, Turn};
use crate::variants::relay::Flow;

/// The rule choices of `jerin`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JerinRules;

/// The `jerin` preset.
pub type Jerin = Fours<JerinRules>;

/// Seeds in play when the last-eight rule holds.
const LAST_EIGHT: u8 = 8;

impl FoursRules for JerinRules {
    const NAME: &'static str = "jerin";
    const NEXT_STARTER: NextStarter = NextStarter::Loser;
    const FEEDING: Feeding = Feeding::None;
    const OPENING: Opening = Opening::TwoHouses;

    #[inline]
    fn dropped(turn: &mut Turn, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        let last = hand == 0;
        if pits[pos] == 4 {
            if turn.in_play == LAST_EIGHT {
                if last {
                    turn.take_the_rest(turn.mover, pits);
                    return Flow::RoundOver;
                }
                return Flow::Sow;
            }
            if turn.owner[pos] == turn.mover {
                turn.take_four(turn.mover, pits, pos);
                return if last { Flow::End } else { Flow::Sow };
            }
            // A four in the opponent's house is an ordinary pit.
            return Flow::Sow;
        }
        if last && pits[pos] == 1 {
            Flow::End
        } else {
            Flow::Sow
        }
    }

    fn summary() -> &'static str {
        "J'erin after Newberry (000).\n\
         The first move of each round is the two-house opening: lift two adjacent own home pits (8 seeds)\n\
         and sow them as one stream from the pit after the pair, then relay as usual. Only the mover takes\n\
         fours, and only in houses he owns: an intermediate four there is removed at once, a last-seed\n\
         four there is taken and ends the turn; a four on the opponent's side is an ordinary pit (the last\n\
         seed there relays on). While only 8 seeds are in play (board and hand), fours are taken by nobody\n\
         and the first player whose last seed makes a four anywhere takes all 8; the round ends. A player\n\
         with no seed passes. The loser of a round starts the next (6-6: the player who did not start)."
    }
}

/// One test per rule clause: setup notation → action → expected notation.
#[cfg(test)]
mod clauses {
    use super::*;
    use crate::rules::Rules;
    use crate::variants::fours::{clause, Episode, OPENING};
    use crate::Player;

    fn jerin() -> Jerin {
        Jerin::default()
    }

    #[test]
    fn two_house_opening_is_compulsory_and_sows_eight_seeds_from_the_pit_after_the_pair() {
        let v = jerin();
        let s = v.start(Player::South);
        assert_eq!(
            v.legal_actions(&s),
            (OPENING..OPENING + 5).collect::<Vec<_>>()
        );
        // Pits 0 and 1 (8 seeds) sown from pit 2 to pit 9 (4 -> 5): relay 9, then 2, then 8;
        // the last seed falls into pit 2, emptied at the second lift.
        clause(
            &v,
            "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0 | 000000111111 | round 1 starter 0 opening",
            OPENING,
            "2 2 1 6 6 6 6 6 0 1 6 6 | 0 0 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn intermediate_four_in_the_movers_own_house_is_taken_at_once() {
        // South sows pit 3 (2 seeds): pit 4 makes 4 mid-sowing and is his: taken.
        clause(
            &jerin(),
            "2 2 2 2 3 0 3 3 3 2 2 0 | 3 3 | 0 | 000000111111 | round 1 starter 0",
            3,
            "2 2 2 0 0 1 3 3 3 2 2 0 | 4 3 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn intermediate_four_in_the_opponents_house_stays() {
        // South sows pit 5 (2 seeds): pit 6 (North's) makes 4 mid-sowing and stays.
        clause(
            &jerin(),
            "2 2 2 2 2 2 3 0 3 3 2 1 | 3 3 | 0 | 000000111111 | round 1 starter 0",
            5,
            "2 2 2 2 2 0 4 1 3 3 2 1 | 3 3 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_seed_four_in_the_movers_own_house_is_taken_and_ends_the_turn() {
        clause(
            &jerin(),
            "2 2 2 0 3 2 2 2 2 2 2 3 | 3 3 | 0 | 000000111111 | round 1 starter 0",
            2,
            "2 2 0 1 0 2 2 2 2 2 2 3 | 4 3 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_seed_four_in_the_opponents_house_relays_on() {
        // South sows pit 5 (1 seed): pit 6 (North's) makes 4 with the last seed: lift it and
        // sow 7, 8, 9, 10; pit 10 was empty: the turn ends.
        clause(
            &jerin(),
            "2 2 2 3 3 1 3 2 2 2 0 2 | 3 3 | 0 | 000000111111 | round 1 starter 0",
            5,
            "2 2 2 3 3 0 0 3 3 3 1 2 | 3 3 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_eight_a_last_seed_four_anywhere_takes_all_eight_and_ends_the_round() {
        // 8 seeds in play: South's last seed makes 4 in North's pit 7 and takes all 8.
        let v = jerin();
        clause(
            &v,
            "0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            5,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 7 5 | 0 | 000000111111 | round 1 starter 0",
        );
        let mut s = v
            .parse_notation("0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0")
            .unwrap();
        v.play(&mut s, 5).unwrap();
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [1.0, -1.0]);
    }

    #[test]
    fn last_eight_intermediate_fours_are_taken_by_nobody() {
        // 8 in play: pit 4 (South's own) makes 4 mid-sowing and stays; the last seed falls into
        // the empty pit 6.
        clause(
            &jerin(),
            "0 0 0 2 3 0 0 0 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            3,
            "0 0 0 0 4 1 0 0 0 3 0 0 | 5 5 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_eight_switches_on_in_the_middle_of_a_sowing() {
        // 12 in play: pit 4 makes 4 mid-sowing and South takes it (8 left); the last seed then
        // makes 4 in North's pit 6, which under the last-eight rule takes all 8.
        clause(
            &jerin(),
            "0 0 0 3 3 0 3 0 0 3 0 0 | 4 5 | 0 | 000000111111 | round 1 starter 0",
            3,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 7 5 | 0 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn round_boundary_moves_houses_the_loser_starts_and_opens_with_two_houses() {
        clause(
            &Jerin::with_episode(Episode::Match),
            "0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 1",
            5,
            "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 1 | 000000110111 | round 2 starter 1 opening",
        );
    }

    #[test]
    fn opening_pairs_never_cross_rows_or_leave_the_movers_houses() {
        // North owns only pits 6, 10 and 11 of his row: his one pair is 10+11 (own pits 4, 5).
        let v = Jerin::with_episode(Episode::Match);
        let s = v
            .parse_notation(
                "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 1 | 000000100011 | round 2 starter 1 opening",
            )
            .unwrap();
        assert_eq!(v.legal_actions(&s), vec![OPENING + 4]);
    }

    #[test]
    fn match_ends_when_a_player_owns_all_twelve_houses() {
        let v = Jerin::with_episode(Episode::Match);
        clause(
            &v,
            "0 0 0 0 0 2 0 3 0 3 0 0 | 10 0 | 0 | 000000100001 | round 3 starter 1",
            5,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 12 0 | 0 | 000000000000 | round 3 starter 1",
        );
    }
}
