//! `adi@1` — Adi after Felix Kpodo-Amenu's leaflet (`003_*.txt`; docs/rules.md sections 5 and 9).
//!
//! As [`ncho`](super::ncho) (the same drop rule: intermediate fours to the house's owner,
//! last-seed fours to the sower, the 11th group takes the last), except:
//! * **feeding** (rule 8, "if one player is out of seeds, the other must play into his side"):
//!   when the opponent owns no seed at the start of the mover's turn, only moves whose whole
//!   relay drops at least one seed into an opponent-owned house are legal; if no (terminating)
//!   move feeds, any terminating move is;
//! * the **loser** of a round starts the next one (after 6–6, the player who did not start it).
//!
//! Houses are bought in the same default order, 3,4,2,5,1,6 of the opponent's row.

use crate::board::Pits;
use crate::variants::fours::{Feeding, Fours, FoursRules, NextStarter, Opening, Turn};
use crate::variants::ncho::owner_and_sower_fours;
use crate::variants::relay::Flow;

/// The rule choices of `adi`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AdiRules;

/// The `adi` preset.
pub type Adi = Fours<AdiRules>;

impl FoursRules for AdiRules {
    const NAME: &'static str = "adi";
    const NEXT_STARTER: NextStarter = NextStarter::Loser;
    const FEEDING: Feeding = Feeding::MustFeed;
    const OPENING: Opening = Opening::Ordinary;

    #[inline]
    fn dropped(turn: &mut Turn, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        owner_and_sower_fours(turn, pits, pos, hand)
    }

    fn summary() -> &'static str {
        "Adi after Felix Kpodo-Amenu's leaflet (003); ncho's captures with Adi's feeding rule.\n\
         An intermediate drop that makes a pit exactly 4 gives the four at once to the house's owner\n\
         (sowing goes on); a last seed that makes 4 gives them to the sower, whoever owns the house, and\n\
         ends the turn. Whoever takes the 11th group also takes the last. Feeding: if the opponent owns\n\
         no seed, only moves whose whole relay drops a seed into one of his houses are legal (if none\n\
         does, any move). A player with no seed passes. The loser of a round starts the next (6-6: the\n\
         player who did not start)."
    }
}

/// One test per rule clause: setup notation → action → expected notation.
#[cfg(test)]
mod clauses {
    use super::*;
    use crate::rules::Rules;
    use crate::variants::fours::{clause, Episode};
    use crate::PlayError;

    fn adi() -> Adi {
        Adi::default()
    }

    #[test]
    fn intermediate_four_goes_to_the_houses_owner() {
        clause(
            &adi(),
            "2 2 0 0 3 0 3 0 2 2 2 0 | 4 4 | 0 | 000000111111 | round 1 starter 0",
            4,
            "2 2 0 0 0 1 0 1 2 2 2 0 | 4 5 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn last_seed_four_goes_to_the_sower_whoever_owns_the_house() {
        clause(
            &adi(),
            "2 2 2 0 0 2 0 3 2 2 1 0 | 4 4 | 0 | 000000111111 | round 1 starter 0",
            5,
            "2 2 2 0 0 0 1 0 2 2 1 0 | 5 4 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn feeding_only_moves_that_drop_a_seed_into_the_opponents_houses_are_legal() {
        // North owns no seed. South's pit 0 (1 seed) stays in his row; pits 3 and 4 reach
        // North's row. Only 3 and 4 are legal.
        let setup = "1 0 0 5 2 0 0 0 0 0 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 0";
        let v = adi();
        let s = v.parse_notation(setup).unwrap();
        assert_eq!(v.legal_actions(&s), vec![3, 4]);
        assert!(matches!(
            v.play(&mut s.clone(), 0),
            Err(PlayError::Illegal { .. })
        ));
        clause(
            &v,
            setup,
            4,
            "1 0 0 5 0 1 1 0 0 0 0 0 | 5 5 | 1 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn feeding_when_no_move_feeds_any_move_is_legal_and_the_starved_player_passes() {
        // North owns only pit 11, which is empty; no move of South reaches it, so every move is
        // legal. North still has no seed afterwards and passes: South moves again.
        let setup = "4 0 0 0 0 4 0 0 0 0 0 0 | 5 5 | 0 | 000000000001 | round 2 starter 0";
        let v = adi();
        let s = v.parse_notation(setup).unwrap();
        assert_eq!(v.legal_actions(&s), vec![0, 5]);
        clause(
            &v,
            setup,
            0,
            "0 1 1 1 1 4 0 0 0 0 0 0 | 5 5 | 0 | 000000000001 | round 2 starter 0",
        );
    }

    #[test]
    fn eleventh_group_made_mid_sowing_takes_everything_left() {
        clause(
            &adi(),
            "1 0 0 0 3 0 3 0 0 0 1 0 | 5 5 | 0 | 000000111111 | round 1 starter 0",
            4,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 5 7 | 0 | 000000111111 | round 1 starter 0",
        );
    }

    #[test]
    fn round_boundary_moves_houses_and_the_loser_starts() {
        // North started round 1 and loses it 5-7: he starts round 2 too (ncho would alternate).
        clause(
            &Adi::with_episode(Episode::Match),
            "0 0 0 0 0 2 0 3 0 3 0 0 | 5 5 | 0 | 000000111111 | round 1 starter 1",
            5,
            "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 1 | 000000110111 | round 2 starter 1",
        );
    }

    #[test]
    fn match_ends_when_a_player_owns_all_twelve_houses() {
        let v = Adi::with_episode(Episode::Match);
        clause(
            &v,
            "0 0 0 0 0 2 0 3 0 3 0 0 | 10 0 | 0 | 000000100001 | round 3 starter 1",
            5,
            "0 0 0 0 0 0 0 0 0 0 0 0 | 12 0 | 0 | 000000000000 | round 3 starter 1",
        );
    }
}
