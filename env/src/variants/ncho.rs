//! `ncho@1` — the Igbo fours game of `001_*.txt` ("The Game of Ayo"; docs/rules.md sections 5 and 9).
//!
//! Relay sowing from any house the mover owns. An intermediate drop that makes a pit exactly 4
//! gives those four at once to the house's **owner** and sowing goes on; a last seed that makes
//! 4 gives them to the **sower**, whoever owns the house, and ends the turn. Whoever takes the
//! 11th group also takes the last: if that happens in the middle of a sowing, the round ends at
//! once and he takes everything still on the board and in hand. The next round is started by
//! the other player. Everything the fours variants share (ownership, rounds, passes, the cycle
//! rule, notation, observation) is in [`crate::variants::fours`].

use crate::board::Pits;
use crate::variants::fours::{Feeding, Fours, FoursRules, NextStarter, Opening, Turn};
use crate::variants::relay::Flow;

/// The rule choices of `ncho`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NchoRules;

/// The `ncho` preset.
pub type Ncho = Fours<NchoRules>;

/// The drop rule that `ncho` and `adi` share (`adi` is `ncho` with feeding and another starter).
#[inline]
pub fn owner_and_sower_fours(turn: &mut Turn, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
    if pits[pos] == 4 {
        // This drop made the pit exactly 4.
        let taker = if hand > 0 {
            turn.owner[pos]
        } else {
            turn.mover
        };
        turn.take_four(taker, pits, pos);
        if turn.eleventh_takes_the_last(taker, pits) {
            Flow::RoundOver
        } else if hand > 0 {
            Flow::Sow
        } else {
            Flow::End
        }
    } else if hand == 0 && pits[pos] == 1 {
        // The last seed fell into a pit that was empty.
        Flow::End
    } else {
        Flow::Sow
    }
}

impl FoursRules for NchoRules {
    const NAME: &'static str = "ncho";
    const NEXT_STARTER: NextStarter = NextStarter::Alternate;
    const FEEDING: Feeding = Feeding::None;
    const OPENING: Opening = Opening::Ordinary;

    #[inline]
    fn dropped(turn: &mut Turn, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        owner_and_sower_fours(turn, pits, pos, hand)
    }

    fn summary() -> &'static str {
        "the Igbo fours game of 001 (\"The Game of Ayo\").\n\
         An intermediate drop that makes a pit exactly 4 gives the four at once to the house's owner\n\
         (sowing goes on); a last seed that makes 4 gives them to the sower, whoever owns the house, and\n\
         ends the turn. Whoever takes the 11th group also takes the last (mid-sowing: the round ends at\n\
         once and he takes everything on the board and in hand). A player with no seed in his houses\n\
         passes. Rounds alternate the first player."
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;
    use crate::variants::relay::RelayEnd;
    use crate::Player;

    #[test]
    fn never_ending_sowing_of_rules_section_1_is_illegal() {
        let v = Ncho::default();
        let mut s = v.start(Player::South);
        for a in [0, 4, 2, 0, 3, 5, 2] {
            v.play(&mut s, a).unwrap();
        }
        assert_eq!(s.position.pits, [3, 1, 0, 3, 1, 0, 3, 13, 0, 3, 1, 0]);
        assert_eq!(s.position.to_move, Player::North);
        assert_eq!(v.relay_laps(&s, 1).end, RelayEnd::NeverEnds);
        assert!(!v.legal_mask(&s).contains(1));
        assert!(v.play(&mut s.clone(), 1).is_err());
    }

    #[test]
    fn mid_game_cycle_of_rules_sources_4_4_is_found() {
        let v = Ncho::default();
        let s = v
            .parse_notation("1 3 1 0 1 0 1 0 2 1 0 2 | 5 4 | 0 | 000000111111 | round 1 starter 0")
            .unwrap();
        assert_eq!(v.relay_laps(&s, 1).end, RelayEnd::NeverEnds);
        assert!(!v.legal_mask(&s).contains(1));
    }
}

/// One test per rule clause: setup notation → action → expected notation.
#[cfg(test)]
mod clauses {
    use super::*;
    use crate::rules::Rules;
    use crate::variants::fours::{clause, Episode};

    fn ncho() -> Ncho {
        Ncho::default()
    }
    fn ncho_match() -> Ncho {
        Ncho::with_episode(Episode::Match)
    }

    #[test]
    fn intermediate_four_goes_to_the_houses_owner() {
        // South sows pit 4 (3 seeds): pit 6 goes 3 -> 4 with seeds still in hand: North owns
        // it and takes it; the last seed falls into the empty pit 7 and the turn ends.
        clause(
            &ncho(),
            "2 2 0 0 3 0 3 0 2 2 2 0 | 4 4 | 0 | 000000111111 | round 1 starter 0",
            4,
            "2 2 0 0 0 1 0 1 2 2 2 0 | 4 5 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_seed_four_goes_to_the_sower_whoever_owns_the_house() {
        // South sows pit 5 (2 seeds): the last makes 4 in North's pit 7; South takes it.
        clause(
            &ncho(),
            "2 2 2 0 0 2 0 3 2 2 1 0 | 4 4 | 0 | 000000111111 | round 1 starter 0",
            5,
            "2 2 2 0 0 0 1 0 2 2 1 0 | 5 4 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_seed_in_an_empty_pit_ends_the_turn_and_an_occupied_one_relays() {
        // South sows pit 0 (2): pit 2 held 1 -> lift 2, sow 3, 4; pit 4 was empty -> end.
        clause(
            &ncho(),
            "2 0 1 0 0 1 2 2 2 2 2 2 | 4 4 | 0 | 000000111111 | round 1 starter 0",
            0,
            "0 1 0 1 1 1 2 2 2 2 2 2 | 4 4 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn a_player_sows_from_a_house_he_owns_on_the_far_row() {
        // South owns North's houses 1 and 3 (pits 6 and 8): his action 8 sows pit 8.
        clause(
            &ncho(),
            "2 2 2 0 0 2 0 0 1 0 2 1 | 5 4 | 0 | 000000110111 | round 2 starter 0",
            8,
            "2 2 2 0 0 2 0 0 0 1 2 1 | 5 4 | 1 | 000000110111 | round 2 starter 0",
        );
    }

    #[test]
    fn eleventh_group_made_mid_sowing_takes_everything_left() {
        // 10 groups are out. South sows pit 4: pit 6 makes 4 mid-sowing, North's 11th group;
        // North also takes the rest (the 4 left on the board and in hand) and the round ends.
        clause(
            &ncho(),
            "1 0 0 0 3 0 3 0 0 0 1 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            4,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 5 7 | 0 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn eleventh_group_by_the_last_seed_takes_the_last_four() {
        clause(
            &ncho(),
            "0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            5,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 7 5 | 0 | 000000111111 | round 1 starter 0",
        );
        let v = ncho();
        let mut s = v
            .parse_notation("0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0")
            .unwrap();
        v.play(&mut s, 5).unwrap();
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [1.0, -1.0]);
    }

    #[test]
    fn round_boundary_moves_houses_and_the_other_player_starts() {
        // Match mode: the same round ends 7-5; South buys North's house 3 (pit 8) and North,
        // who did not start round 1, starts round 2 with every pit refilled.
        clause(
            &ncho_match(),
            "0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            5,
            "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 1 | 000000110111 | round 2 starter 1",
        );
    }

    #[test]
    fn match_ends_when_a_player_owns_all_twelve_houses() {
        // South owns 10 houses and has taken 10 groups; his 11th and the last end the match.
        let v = ncho_match();
        clause(
            &v,
            "0 0 0 0 0 2 0 3 0 3 0 0 | 10 0 | 0 | 000000100001 | round 3 starter 0",
            5,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 12 0 | 0 | 000000000000 | round 3 starter 0",
        );
        let mut s = v
            .parse_notation("0 0 0 0 0 2 0 3 0 3 0 0 | 10 0 | 0 | 000000100001 | round 3 starter 0")
            .unwrap();
        assert!(!v.is_terminal(&s));
        v.play(&mut s, 5).unwrap();
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [1.0, -1.0]);
    }

    #[test]
    fn player_with_no_seed_in_his_houses_passes() {
        // North has nothing: after South's move South moves again (one ply, no pass action).
        let v = ncho();
        clause(
            &v,
            "1 0 0 3 0 4 0 0 0 0 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            0,
            "0 1 0 3 0 4 0 0 0 0 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn a_pit_holding_four_without_a_drop_making_it_is_not_taken() {
        // Pit 6 holds 4 already; a seed dropped into it makes 5 (no capture) and relays.
        clause(
            &ncho(),
            "1 0 0 0 0 1 4 0 2 2 2 0 | 5 4 | 0 | 000000111111 | round 1 starter 0",
            5,
            "1 0 0 0 0 0 0 1 3 3 3 1 | 5 4 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn round_that_cycles_is_grouped_by_the_seeds_in_each_players_houses() {
        // Single seeds stepping into empty pits; after these 12 moves (found by a search of
        // one-step moves) the board and player to move recur: the round ends, each player's
        // houses hold 4 seeds, one group each.
        let v = ncho();
        let mut s = v
            .parse_notation("1 1 0 1 1 0 1 1 0 1 1 0 | 5 5 | 0 | 000000111111 | round 1 starter 0")
            .unwrap();
        let moves = [1, 1, 0, 0, 4, 4, 3, 3, 2, 2, 5, 5];
        for (i, &a) in moves.iter().enumerate() {
            assert!(!v.is_terminal(&s), "ended early, before move {i}");
            v.play(&mut s, a).unwrap();
        }
        assert_eq!(
            v.notation(&s),
            "0 0 0 0 0 0 0 0 0 0 0 0 | 6 6 | 0 | 000000111111 | round 1 starter 0"
        );
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [0.0, 0.0]);
    }
}
