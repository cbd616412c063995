//! Relay sowing, shared by `ncho`, `adi`, `jerin` and `jodu` (docs/rules.md sections 1, 5, 6, 9).
//!
//! A relay turn lifts a pit and sows its seeds one by one counter-clockwise, the origin **not**
//! skipped (a lap of ≥ 12 seeds drops one back into it). When the last seed of a lap lands in a
//! pit that was occupied, that pit is lifted in turn and sowing goes on; when it lands in a pit
//! that was empty the turn ends. What a drop captures is the variant's business: it answers
//! through [`RelayRules::dropped`] after every single drop.
//!
//! ```text
//!  lap 1: lift 2, sow 3 4 5 6           last seed in 6 (held 4, now 5) -> lift 6
//!  lap 2: lift 6, sow 7 8 9 10 11       last seed in 11 (held 4, now 5) -> lift 11
//!  …                                     last seed in an empty pit       -> the turn ends
//! ```
//!
//! **Never-ending sowings.** A relay may cycle for ever. Between two captures the next lift
//! state is a function of the current one (the board and the pit about to be lifted), so a
//! relay never ends exactly when a `(board, pit)` lift state repeats. [`relay`] finds that with
//! Brent's cycle-finding algorithm ([`Brent`]): constant memory, one 12-byte comparison per lap, and at most
//! about three times the laps of the first repetition (some J'odu relays repeat only after two
//! million laps, docs/rules.md 9). A capture makes the board lighter, so no state before it can recur
//! after it; the check needs no reset.

use crate::board::{next, Pits};
use crate::cycle::Brent;

/// What the variant says after a drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep going: sow the next seed, or, after the last seed of a lap, lift this pit and relay.
    Sow,
    /// The turn ends here (only meaningful after the last seed of a lap).
    End,
    /// The round ended in the middle of the sowing (the variant has already taken the board
    /// and the seeds in hand); nothing more is sown.
    RoundOver,
}

/// How a relay turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelayEnd {
    /// The turn ended after the last seed fell into pit `last`.
    Ended { last: usize },
    /// The variant ended the round during the sowing.
    RoundOver,
    /// The relay repeats a `(board, pit)` lift state: it would never end. The board is left
    /// as it was at the repetition; callers simulate on a copy.
    NeverEnds,
}

/// The result of [`relay`]: how it ended and how many laps were sown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relay {
    pub end: RelayEnd,
    pub laps: u32,
}

/// Where a relay turn begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lift {
    /// Lift every seed of this pit and sow from the pit after it.
    Pit(usize),
    /// `seeds` are already in hand (lifted elsewhere, e.g. J'erin's two-house opening); sow them
    /// from the pit after `after`.
    Hand { after: usize, seeds: u8 },
}

/// A variant's answer to each drop of a relay.
pub trait RelayRules {
    /// Called after every single drop, `pits` already holding the new seed in `pos` and `hand`
    /// seeds still to sow in this lap (0 for the last seed of the lap). The variant may take
    /// seeds from `pits` (captures). A drop that makes the pit hold exactly 1 with `hand == 0`
    /// is a last seed in a pit that was empty; the variant usually answers [`Flow::End`].
    fn dropped(&mut self, pits: &mut Pits, pos: usize, hand: u8) -> Flow;
}

/// Plays one relay turn on `pits` from `start`, asking `rules` after every drop.
/// Returns [`RelayEnd::NeverEnds`] as soon as a lift state repeats.
#[inline]
pub fn relay<R: RelayRules>(pits: &mut Pits, start: Lift, rules: &mut R) -> Relay {
    let (mut pos, mut hand) = match start {
        Lift::Pit(from) => {
            let seeds = pits[from];
            debug_assert!(seeds > 0, "relay from the empty pit {from}");
            pits[from] = 0;
            (from, seeds)
        }
        Lift::Hand { after, seeds } => (after, seeds),
    };
    let mut cycle = Brent::default();
    let mut laps = 1;
    loop {
        while hand > 0 {
            pos = next(pos);
            pits[pos] += 1;
            hand -= 1;
            match rules.dropped(pits, pos, hand) {
                Flow::Sow => {}
                Flow::End if hand == 0 => {
                    return Relay {
                        end: RelayEnd::Ended { last: pos },
                        laps,
                    }
                }
                Flow::End => {}
                Flow::RoundOver => {
                    return Relay {
                        end: RelayEnd::RoundOver,
                        laps,
                    }
                }
            }
        }
        // The last seed fell into an occupied pit: relay from it, unless this lift state
        // was seen before.
        if cycle.repeats((*pits, pos)) {
            return Relay {
                end: RelayEnd::NeverEnds,
                laps,
            };
        }
        hand = pits[pos];
        pits[pos] = 0;
        laps += 1;
    }
}

/// Relay sowing with no captures at all: the last seed in an empty pit ends the turn (for
/// tests of relays alone).
#[cfg(test)]
pub(crate) struct Plain;

#[cfg(test)]
impl RelayRules for Plain {
    fn dropped(&mut self, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        if hand == 0 && pits[pos] == 1 {
            Flow::End
        } else {
            Flow::Sow
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relay_lifts_the_last_pit_until_a_seed_falls_into_an_empty_pit() {
        // Lap 1: 2 seeds from pit 0 into 1, 2; pit 2 held 1 -> lap 2: 2 seeds into 3, 4 (empty).
        let mut pits = [2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let r = relay(&mut pits, Lift::Pit(0), &mut Plain);
        assert_eq!(r.end, RelayEnd::Ended { last: 4 });
        assert_eq!(r.laps, 2);
        assert_eq!(pits, [0, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
    }

    #[test]
    fn relay_of_twelve_seeds_drops_one_back_into_its_origin() {
        let mut pits = [0; 12];
        pits[5] = 12;
        pits[4] = 1;
        // 12 seeds: one in every pit, the last back into pit 5 (empty after the lift) -> ends.
        let r = relay(&mut pits, Lift::Pit(5), &mut Plain);
        assert_eq!(r.end, RelayEnd::Ended { last: 5 });
        assert_eq!(pits[5], 1);
        assert_eq!(pits[4], 2);
    }

    #[test]
    fn relay_that_repeats_a_lift_state_never_ends() {
        // docs/sources.md 4.4: this board relays from pit 1 in a cycle of 60 laps (no four is
        // ever made on the way, so the plain relay cycles too).
        let mut pits = [1, 3, 1, 0, 1, 0, 1, 0, 2, 1, 0, 2];
        let r = relay(&mut pits, Lift::Pit(1), &mut Plain);
        assert_eq!(r.end, RelayEnd::NeverEnds);
        assert!(
            r.laps >= 60,
            "a 60-lap cycle cannot be seen in {} laps",
            r.laps
        );
    }
}
