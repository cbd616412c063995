//! `jodu@1` — J'odu (docs/rules.md sections 6 and 9). **Not from the seeds**: `000_*.txt` names the
//! game but stops before describing it; these rules are Murray (1951) as encoded by Ludii's
//! `J'odu.lud` (docs/sources.md 3.5).
//!
//! Relay sowing from a pit of the mover's own row, the origin not skipped: a last seed in an
//! occupied pit lifts it and sowing goes on. When the last seed falls into an empty pit of the
//! mover's **own** row he captures the contents of the **opposite** pit (the capturing seed
//! stays; an empty opposite pit captures nothing); in the opponent's row the turn just ends.
//! A move must leave the opponent's row non-empty if any (terminating) move can. A move whose
//! relay never ends is illegal; a player with seeds whose every move never ends passes. When the
//! player to move has no seed in his row the game ends and each player adds his own row (also
//! when neither player can move — docs/rules.md is silent there). No repetition rule (only the env's
//! `max_plies`). Most seeds wins; 24–24 is a draw.

use crate::action::{Action, ActionMask};
use crate::board::pit_label;
use crate::board::{opposite, pit_of, row_owner, row_sum, Pits, ROW};
use crate::error::ParseError;
use crate::player::Player;
use crate::relay::{relay, Flow, Lift, Relay, RelayEnd, RelayRules};
use crate::rules::{NoTrace, Rules, Snapshot, Trace};
use crate::two_row::Position;

/// The `jodu` preset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Jodu;

/// A game of `jodu`.
#[derive(Clone, Debug, PartialEq)]
pub struct JoduState {
    pub position: Position,
    pub over: bool,
    pub ply: u32,
    legal: ActionMask,
}

/// The capture rule, told about every drop (and recording it when tracing).
struct Capture<'a, T> {
    mover: Player,
    stores: [u8; 2],
    trace: &'a mut T,
}

impl<T: Trace> RelayRules for Capture<'_, T> {
    #[inline]
    fn dropped(&mut self, pits: &mut Pits, pos: usize, hand: u8) -> Flow {
        if T::ACTIVE {
            self.trace.drop_seed(Snapshot {
                pits: pits.to_vec(),
                stores: [self.stores[0] as u32, self.stores[1] as u32],
                in_hand: hand as u32,
                ..Default::default()
            });
        }
        if hand > 0 || pits[pos] > 1 {
            return Flow::Sow;
        }
        // The last seed fell into an empty pit.
        if row_owner(pos) == self.mover {
            let o = opposite(pos);
            self.stores[self.mover.index()] += pits[o];
            pits[o] = 0;
        }
        Flow::End
    }
}

impl Jodu {
    /// Plays the relay of `p` from his pit `action` on `pos`.
    #[inline]
    fn sow<T: Trace>(pos: &mut Position, p: Player, action: Action, trace: &mut T) -> Relay {
        let mut rules = Capture {
            mover: p,
            stores: pos.stores,
            trace,
        };
        let r = relay(
            &mut pos.pits,
            Lift::Pit(pit_of(p, action as usize)),
            &mut rules,
        );
        pos.stores = rules.stores;
        r
    }

    /// The legal actions of `p`: non-empty own pits whose relay ends, and of those, the ones
    /// that leave the opponent's row non-empty if there are any.
    fn legal_for(&self, pos: &Position, p: Player) -> ActionMask {
        let mut ends = ActionMask::EMPTY;
        let mut feeds = ActionMask::EMPTY;
        for k in 0..ROW {
            if pos.pits[pit_of(p, k)] == 0 {
                continue;
            }
            let mut after = *pos;
            if Self::sow(&mut after, p, k as Action, &mut NoTrace).end != RelayEnd::NeverEnds {
                ends.insert(k as Action);
                if row_sum(&after.pits, !p) > 0 {
                    feeds.insert(k as Action);
                }
            }
        }
        if feeds.is_empty() {
            ends
        } else {
            feeds
        }
    }

    /// With `next` to move: the game ends if his row is empty; a player whose every move never
    /// ends passes; if neither can move the game ends too.
    fn settle(&self, s: &mut JoduState, next: Player) {
        s.position.to_move = next;
        for p in [next, !next] {
            s.position.to_move = p;
            if row_sum(&s.position.pits, p) == 0 {
                break;
            }
            s.legal = self.legal_for(&s.position, p);
            if !s.legal.is_empty() {
                return;
            }
        }
        s.position.collect_rows();
        s.over = true;
        s.legal = ActionMask::EMPTY;
    }

    fn begin(&self, position: Position) -> JoduState {
        let mut s = JoduState {
            position,
            over: false,
            ply: 0,
            legal: ActionMask::EMPTY,
        };
        self.settle(&mut s, position.to_move);
        s
    }

    /// The relay of `action` from `s`, played on a copy (for tests and relay statistics).
    pub fn relay_laps(&self, s: &JoduState, action: Action) -> Relay {
        let mut after = s.position;
        Self::sow(&mut after, s.position.to_move, action, &mut NoTrace)
    }
}

impl Rules for Jodu {
    type State = JoduState;

    fn name(&self) -> &'static str {
        "jodu"
    }
    fn version(&self) -> u32 {
        1
    }
    fn num_actions(&self) -> usize {
        ROW
    }
    fn observation_len(&self) -> usize {
        14
    }
    fn start(&self, first: Player) -> JoduState {
        self.begin(Position::start(4, first))
    }
    #[inline]
    fn to_play(&self, s: &JoduState) -> Option<Player> {
        (!s.over).then_some(s.position.to_move)
    }
    #[inline]
    fn legal_mask(&self, s: &JoduState) -> ActionMask {
        s.legal
    }
    fn apply<T: Trace>(&self, s: &mut JoduState, action: Action, trace: &mut T) {
        let p = s.position.to_move;
        let r = Self::sow(&mut s.position, p, action, trace);
        debug_assert_ne!(
            r.end,
            RelayEnd::NeverEnds,
            "an illegal, never-ending move was played"
        );
        s.ply += 1;
        self.settle(s, !p);
    }
    fn scores(&self, s: &JoduState) -> [i32; 2] {
        [s.position.stores[0] as i32, s.position.stores[1] as i32]
    }
    fn returns(&self, s: &JoduState) -> [f32; 2] {
        if !s.over {
            return [0.0, 0.0];
        }
        let d = s.position.stores[0].cmp(&s.position.stores[1]) as i8 as f32;
        [d, -d]
    }
    fn ply(&self, s: &JoduState) -> u32 {
        s.ply
    }
    fn observe(&self, s: &JoduState, out: &mut [f32]) {
        s.position.observe(out)
    }
    fn snapshot(&self, s: &JoduState) -> Snapshot {
        s.position.snapshot()
    }
    fn hash(&self, s: &JoduState) -> u64 {
        s.position.hash(s.over as u64)
    }
    fn notation(&self, s: &JoduState) -> String {
        s.position.notation(&[])
    }
    fn parse_notation(&self, text: &str) -> Result<JoduState, ParseError> {
        let (pos, _) = Position::parse(text, 0, 48)?;
        Ok(self.begin(pos))
    }
    fn render(&self, s: &JoduState) -> String {
        s.position.render(s.over)
    }
    fn action_name(&self, s: &JoduState, action: Action) -> String {
        format!("{}", pit_label(s.position.to_move, action as usize))
    }
    fn describe(&self) -> String {
        "jodu@1 — J'odu. Not from the seeds: 000 names it without rules; these are Murray (1951) as\n\
         encoded by Ludii's J'odu.lud.\n\
         Board: 2 rows of 6 pits, 4 seeds each (48); South (player 0) owns pits 0-5, North pits 6-11.\n\
         Move: lift an own pit and sow counter-clockwise, the origin not skipped; a last seed in an occupied\n\
         pit lifts it and sowing goes on (relay). A last seed in an empty pit of the mover's own row captures\n\
         the contents of the opposite pit (the capturing seed stays); in the opponent's row the turn ends.\n\
         A move must leave the opponent's row non-empty if any move can. A move whose relay would never end\n\
         (repeats a board and pit at a lift) is illegal; a player whose every move never ends passes.\n\
         End: when the player to move has no seed in his row (or neither player can move), each player adds\n\
         his own row. No repetition rule. Most seeds wins; 24-24 is a draw.\n\
         Actions (0-5): the mover's pit counted from his own left (South: pit a, North: pit 6+a).\n\
         Notation: `p0 … p11 | store0 store1 | to-move`.\n\
         Observation (14 floats, mover's view): 12 pits from the mover's left (seeds/4), own store/24,\n\
         opponent's store/24."
            .into()
    }
}

/// One test per rule clause: setup notation → action → expected notation.
#[cfg(test)]
mod clauses {
    use super::*;
    use crate::PlayError;

    fn clause(setup: &str, action: Action, expected: &str) {
        let v = Jodu;
        let mut s = v.parse_notation(setup).unwrap();
        v.play(&mut s, action)
            .unwrap_or_else(|e| panic!("{setup}: {e}"));
        assert_eq!(
            v.notation(&s),
            expected,
            "after action {action} from {setup}"
        );
        assert_eq!(v.snapshot(&s).total(), 48);
    }

    #[test]
    fn last_seed_in_an_empty_own_pit_captures_the_opposite_pit() {
        // South sows pit 0 (1 seed) into the empty pit 1: he takes pit 10 (5); his seed stays.
        clause(
            "1 0 4 4 4 4 4 4 4 4 5 4 | 6 0 | 0",
            0,
            "0 1 4 4 4 4 4 4 4 4 0 4 | 11 0 | 1",
        );
    }

    #[test]
    fn an_empty_opposite_pit_captures_nothing() {
        clause(
            "1 0 4 4 4 4 4 4 4 4 0 4 | 11 0 | 0",
            0,
            "0 1 4 4 4 4 4 4 4 4 0 4 | 11 0 | 1",
        );
    }

    #[test]
    fn last_seed_in_an_empty_pit_of_the_opponents_row_just_ends_the_turn() {
        // South sows pit 5 (1 seed) into North's empty pit 6: no capture (pit 5 faces 6).
        clause(
            "4 4 4 4 4 1 0 4 4 4 4 4 | 7 0 | 0",
            5,
            "4 4 4 4 4 0 1 4 4 4 4 4 | 7 0 | 1",
        );
    }

    #[test]
    fn last_seed_in_an_occupied_pit_relays_then_captures() {
        // South sows pit 0 (2): 1, 2; pit 2 held 1 -> lift 2: 3, 4 (empty, own row): take pit 7.
        clause(
            "2 0 1 0 0 4 4 3 4 4 4 4 | 10 8 | 0",
            0,
            "0 1 0 1 1 4 4 0 4 4 4 4 | 13 8 | 1",
        );
    }

    #[test]
    fn a_move_must_leave_the_opponents_row_non_empty_if_any_move_can() {
        // Pit 0 would take pit 10, North's last seeds; pit 4 leaves him seeds: only 4 is legal.
        let setup = "1 0 0 0 2 0 0 0 0 0 3 0 | 22 20 | 0";
        let v = Jodu;
        let s = v.parse_notation(setup).unwrap();
        assert_eq!(v.legal_actions(&s), vec![4]);
        assert!(matches!(
            v.play(&mut s.clone(), 0),
            Err(PlayError::Illegal { .. })
        ));
        clause(setup, 4, "1 0 0 0 0 1 1 0 0 0 3 0 | 22 20 | 1");
    }

    #[test]
    fn game_ends_when_the_player_to_move_has_no_seed_and_each_adds_his_row() {
        // South's only move takes North's last seeds; North cannot move: South adds pit 1.
        let v = Jodu;
        let mut s = v
            .parse_notation("1 0 0 0 0 0 0 0 0 0 3 0 | 24 20 | 0")
            .unwrap();
        v.play(&mut s, 0).unwrap();
        assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 28 20 | 1");
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [1.0, -1.0]);
    }

    #[test]
    fn a_relay_that_repeats_millions_of_laps_later_is_illegal() {
        // Met in random play: North's pit 10 (action 4) relays for ever, its lift states
        // repeating only after millions of laps (Brent's check needs ~16 million laps here).
        let v = Jodu;
        let s = v
            .parse_notation("3 2 5 2 1 0 4 0 12 1 16 1 | 0 1 | 1")
            .unwrap();
        let r = v.relay_laps(&s, 4);
        assert_eq!(r.end, RelayEnd::NeverEnds);
        assert!(r.laps > 1_000_000, "{} laps", r.laps);
        assert!(!v.legal_mask(&s).contains(4));
        assert!(!v.legal_mask(&s).is_empty());
    }

    #[test]
    fn twenty_four_all_is_a_draw() {
        let v = Jodu;
        let s = v
            .parse_notation("0 0 0 0 0 0 0 0 0 0 0 0 | 24 24 | 0")
            .unwrap();
        assert!(v.is_terminal(&s));
        assert_eq!(v.returns(&s), [0.0, 0.0]);
    }
}
