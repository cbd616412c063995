//! One test per rule clause of `yao` (Sanderson's rules I–XX as condensed in docs/sources.md 6.3,
//! executable in 6.4, with the defaults of 11.6): setup notation → action → expected notation.
//! Every expected position was worked out by hand from the rule text, man by man (the comments
//! give the walk); rows are written from their owner's left, `front / back`.

use super::*;

fn yao() -> Yao {
    Yao::default()
}

fn position(text: &str) -> YaoState {
    yao().parse_notation(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The notation after playing `actions` from `setup`.
fn after(setup: &str, actions: &[Action]) -> String {
    let y = yao();
    let mut s = position(setup);
    for &a in actions {
        y.play(&mut s, a)
            .unwrap_or_else(|e| panic!("{e}\n{}", y.render(&s)));
    }
    y.notation(&s)
}

fn mask(setup: &str) -> Vec<Action> {
    let s = position(setup);
    yao().legal_mask(&s).to_vec()
}

const RA: usize = 0;
const RB: usize = 1;
const OB: usize = 3;
const V: usize = 4;
const RD: usize = 7;

#[test]
fn start_has_22_in_hand_and_6_2_2_right_of_the_village_with_no_opposition() {
    let s = yao().start(Player::South);
    assert_eq!(
        yao().notation(&s),
        "0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 22 22 | 0 | village 1 1 | gambit 0 | begin"
    );
    assert_eq!(
        s.board.opposition(Player::South),
        0,
        "rule III: no opposition"
    );
    // Rules IV, V, X: add to an occupied front hole and spread either way; the intact village
    // only when every other front hole is empty.
    let od_rc: Vec<Action> = vec![10, 11, 12, 13];
    assert_eq!(yao().legal_mask(&s).to_vec(), od_rc);
}

// South's Ob faces North's V (6 men): the only hole in opposition.
const OPPOSITION_AT_OB: &str =
    "0 0 0 1 6 2 2 0 / 0 0 0 0 0 0 0 0 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
                                | hands 22 21 | 0 | village 1 1 | gambit 0 | begin";

#[test]
fn rule_vi_a_man_must_be_added_to_a_hole_in_opposition() {
    assert_eq!(
        mask(OPPOSITION_AT_OB),
        vec![begin_action(OB, false), begin_action(OB, true)]
    );
}

#[test]
fn rule_xii_men_taken_by_adding_to_an_optional_hole_are_placed_from_either_end() {
    // Add Ob (2), take North's V (6). From Ra: Ra Rb Oa Ob V Od, arriving Od (held 2): Od
    // faces North's Oa (empty), so spread Od (3) on rightwards: Rc Rd H, lying in H.
    assert_eq!(
        after(OPPOSITION_AT_OB, &[begin_action(OB, true)]),
        "1 1 1 3 7 0 3 1 / 0 0 0 0 0 0 0 1 | 0 0 0 0 0 2 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 21 21 | 1 | village 1 0 | gambit 0 | begin"
    );
    // From Rd: Rd Rc Od V Ob Oa, arriving Oa, which was empty: he lies there.
    assert_eq!(
        after(OPPOSITION_AT_OB, &[begin_action(OB, false)]),
        "0 0 1 3 7 3 3 1 / 0 0 0 0 0 0 0 0 | 0 0 0 0 0 2 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 21 21 | 1 | village 1 0 | gambit 0 | begin"
    );
}

#[test]
fn rules_x_xi_a_move_begun_without_opposition_takes_nothing() {
    // No opposition: add Ra (17) and spread rightwards round the whole circuit (the hole
    // spread from gets a man too), arriving Rb again (2). Rb now faces North's Rc (2) but the
    // move began without opposition: spread on. Rb→Ob, Ob→Od, Od→Rd, Rd→G, G→E, E→C, C→A,
    // A (2) → Ra, Rb: Rb was emptied, so he lies there.
    assert_eq!(
        after(
            "16 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 | 0 0 0 4 0 0 2 0 / 0 0 0 0 0 0 0 0 \
             | hands 21 21 | 0 | village 0 0 | gambit 0 | begin",
            &[begin_action(RA, true)]
        ),
        "2 1 2 0 2 0 2 0 / 0 2 0 2 0 2 0 2 | 0 0 0 4 0 0 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 20 21 | 1 | village 0 0 | gambit 0 | begin"
    );
}

#[test]
fn rule_x_the_intact_village_spreads_two_men_and_only_when_alone() {
    let alone = "0 0 0 0 6 0 0 0 / 2 2 2 2 0 0 0 0 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
                 | hands 20 20 | 0 | village 1 1 | gambit 0 | begin";
    assert_eq!(
        mask(alone),
        vec![begin_action(V, false), begin_action(V, true)]
    );
    // Add V (7), lift two men only: Od, Rc; he lies in Rc. The village is no longer intact.
    assert_eq!(
        after(alone, &[begin_action(V, true)]),
        "0 0 0 0 5 1 1 0 / 2 2 2 2 0 0 0 0 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 19 20 | 1 | village 0 1 | gambit 0 | begin"
    );
    let not_alone = "0 0 0 0 6 0 0 1 / 2 2 2 1 0 0 0 0 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
                     | hands 20 20 | 0 | village 1 1 | gambit 0 | begin";
    assert_eq!(
        mask(not_alone),
        vec![begin_action(RD, false), begin_action(RD, true)]
    );
    // Once men have left the village the restriction is gone (specimen 18B): V spreads all 7.
    let opened = not_alone.replace("village 1 1", "village 0 1");
    assert_eq!(
        mask(&opened),
        vec![8, 9, begin_action(RD, false), begin_action(RD, true)]
    );
    assert_eq!(
        after(&opened, &[begin_action(V, true)]),
        "0 0 0 0 0 1 1 2 / 2 2 2 1 1 1 1 1 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 19 20 | 1 | village 0 1 | gambit 0 | begin"
    );
}

// Phase 2: South's Oa (1) faces North's Od (3).
const FIRST_SPREAD_TAKES: &str =
    "2 0 1 0 0 0 0 0 / 4 4 4 4 4 4 4 4 | 1 0 0 0 0 3 0 0 / 3 3 3 3 3 3 3 4 \
                                  | hands 0 0 | 0 | village 0 0 | gambit 0 | begin";

#[test]
fn rule_xiv_a_first_spread_arriving_in_opposition_takes() {
    // Spread Ra (2): Rb, Oa (2, in opposition): take 3; travelling rightwards from an optional
    // hole, place from Ra (XIX): Ra Rb Oa, arriving Oa (3), no longer in opposition: spread
    // Ob V Od, lying in Od.
    assert_eq!(
        after(FIRST_SPREAD_TAKES, &[begin_action(RA, true)]),
        "1 2 0 1 1 1 0 0 / 4 4 4 4 4 4 4 4 | 1 0 0 0 0 0 0 0 / 3 3 3 3 3 3 3 4 \
         | hands 0 0 | 1 | village 0 0 | gambit 0 | begin"
    );
}

#[test]
fn rule_xiv_a_first_spread_not_arriving_in_opposition_takes_nothing_later() {
    // Spread Ra (2): Rb, Oa (3; North's Od is empty): no take in this move. Spread Oa: Ob V
    // Od (2), which faces North's Oa (2) — spread on all the same: Rc Rd, lying in Rd.
    assert_eq!(
        after(
            "2 0 2 0 0 1 0 0 / 4 4 4 4 4 4 4 4 | 1 0 2 0 0 0 0 0 / 3 3 3 3 3 3 3 3 \
             | hands 0 0 | 0 | village 0 0 | gambit 0 | begin",
            &[begin_action(RA, true)]
        ),
        "0 1 0 1 1 0 1 1 / 4 4 4 4 4 4 4 4 | 1 0 2 0 0 0 0 0 / 3 3 3 3 3 3 3 3 \
         | hands 0 0 | 1 | village 0 0 | gambit 0 | begin"
    );
}

#[test]
fn arriving_in_an_empty_hole_never_takes_even_facing_men() {
    // As the XIV test, but North's Oa (2) faces the empty Od where the move ends: he lies.
    assert_eq!(
        after(
            "2 0 1 0 0 0 0 0 / 4 4 4 4 4 4 4 4 | 1 0 2 0 0 3 0 0 / 3 3 3 3 3 3 3 2 \
             | hands 0 0 | 0 | village 0 0 | gambit 0 | begin",
            &[begin_action(RA, true)]
        ),
        "1 2 0 1 1 1 0 0 / 4 4 4 4 4 4 4 4 | 1 0 2 0 0 0 0 0 / 3 3 3 3 3 3 3 2 \
         | hands 0 0 | 1 | village 0 0 | gambit 0 | begin"
    );
}

// The specimen after 3B: South's Rd faces North's Ra (1); South's V faces North's empty Ob.
const AFTER_3B: &str = "1 0 0 0 9 0 0 1 / 0 0 0 0 0 0 0 0 | 1 2 0 0 9 1 2 0 / 0 0 0 0 0 0 0 0 \
                        | hands 19 19 | 0 | village 1 1 | gambit 0 | begin";

#[test]
fn rule_xv_arriving_at_the_intact_village_not_in_opposition_he_may_stop() {
    // 4A: add Rd, take 1, place Rd (3), spread Rc Od V: arriving at the village he decides.
    let reached = after(AFTER_3B, &[begin_action(RD, false)]);
    assert_eq!(
        reached,
        "1 0 0 0 10 1 1 0 / 0 0 0 0 0 0 0 0 | 0 2 0 0 9 1 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 18 19 | 0 | village 1 1 | gambit 0 | village left taking"
    );
    assert_eq!(mask(&reached), vec![STOP, GO_ON]);
    assert_eq!(
        after(&reached, &[STOP]),
        "1 0 0 0 10 1 1 0 / 0 0 0 0 0 0 0 0 | 0 2 0 0 9 1 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 18 19 | 1 | village 1 1 | gambit 0 | begin"
    );
    // Going on spreads the village (10) leftwards: Ob Oa Rb Ra A B C D E F, lying in F.
    assert_eq!(
        after(&reached, &[GO_ON]),
        "2 1 1 1 0 1 1 0 / 1 1 1 1 1 1 0 0 | 0 2 0 0 9 1 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 18 19 | 1 | village 0 1 | gambit 0 | begin"
    );
}

#[test]
fn rule_xv_no_stop_at_a_village_in_opposition() {
    // As 4A, but North's Ob (1) faces South's V: arriving there he must take it, and place it
    // from Rd (travelling leftwards, XIX), lying in Rd.
    assert_eq!(
        after(
            "1 0 0 0 9 0 0 1 / 0 0 0 0 0 0 0 0 | 1 2 0 1 9 1 2 0 / 0 0 0 0 0 0 0 0 \
             | hands 19 18 | 0 | village 1 1 | gambit 0 | begin",
            &[begin_action(RD, false)]
        ),
        "1 0 0 0 10 1 1 1 / 0 0 0 0 0 0 0 0 | 0 2 0 0 9 1 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 18 18 | 1 | village 1 1 | gambit 0 | begin"
    );
}

// South's Rb faces North's Rc (11).
const ELEVEN_FACING_RB: &str =
    "0 1 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 | 1 0 0 0 0 0 11 0 / 4 4 4 4 4 4 4 3 \
                                | hands 10 10 | 0 | village 0 0 | gambit 0 | begin";

#[test]
fn rule_xviii_men_taken_from_a_reverse_hole_are_placed_from_its_end() {
    // Rb is a reverse hole: the men go from Ra, rightwards — one action only.
    assert_eq!(mask(ELEVEN_FACING_RB), vec![begin_action(RB, true)]);
    // At Rd only leftwards (from Rd): see the rule-XV tests.
    assert_eq!(mask(AFTER_3B), vec![begin_action(RD, false)]);
}

#[test]
fn rules_xvi_xvii_placing_beyond_the_front_row_goes_back_along_the_back_row() {
    // Take 11, place from Ra: Ra … Rd (8), then H G F (3), lying in F.
    assert_eq!(
        after(ELEVEN_FACING_RB, &[begin_action(RB, true)]),
        "1 3 1 1 1 1 1 1 / 0 0 0 0 0 1 1 1 | 1 0 0 0 0 0 0 0 / 4 4 4 4 4 4 4 3 \
         | hands 9 10 | 1 | village 0 0 | gambit 0 | begin"
    );
}

#[test]
fn rule_xix_men_taken_from_an_optional_hole_travelling_left_are_placed_from_rd() {
    // Spread Od (2) leftwards: V, Ob (2) facing North's V (3): take 3; from Rd leftwards:
    // Rd Rc Od, lying in the emptied Od.
    assert_eq!(
        after(
            "0 0 0 1 0 2 0 0 / 4 4 4 4 4 4 4 4 | 1 0 0 0 3 0 0 0 / 3 3 3 3 3 3 3 4 \
             | hands 0 0 | 0 | village 0 0 | gambit 0 | begin",
            &[begin_action(5, false)]
        ),
        "0 0 0 2 1 1 1 1 / 4 4 4 4 4 4 4 4 | 1 0 0 0 0 0 0 0 / 3 3 3 3 3 3 3 4 \
         | hands 0 0 | 1 | village 0 0 | gambit 0 | begin"
    );
}

#[test]
fn taking_the_last_men_of_the_front_row_wins_at_once_and_they_stay_in_hand() {
    let y = yao();
    let mut s = position(
        "0 1 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 | 0 0 0 0 0 0 2 0 / 4 4 4 4 4 4 4 4 \
         | hands 11 18 | 0 | village 0 0 | gambit 0 | begin",
    );
    y.play(&mut s, begin_action(RB, true)).unwrap();
    assert_eq!(
        y.notation(&s),
        "0 2 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 | 0 0 0 0 0 0 0 0 / 4 4 4 4 4 4 4 4 \
         | hands 12 18 | 0 | village 0 0 | gambit 0 | won 0"
    );
    assert_eq!(y.to_play(&s), None);
    assert_eq!(y.returns(&s), [1.0, -1.0]);
}

#[test]
fn emptying_his_own_front_row_loses() {
    // Spread Ra (2) leftwards: A, B, lying in B — South's front row is empty.
    assert_eq!(
        after(
            "2 0 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 | 8 8 8 8 8 8 8 6 / 0 0 0 0 0 0 0 0 \
             | hands 0 0 | 0 | village 0 0 | gambit 0 | begin",
            &[begin_action(RA, false)]
        ),
        "0 0 0 0 0 0 0 0 / 1 1 0 0 0 0 0 0 | 8 8 8 8 8 8 8 6 / 0 0 0 0 0 0 0 0 \
         | hands 0 0 | 0 | village 0 0 | gambit 0 | won 1"
    );
}

#[test]
fn rule_xx_with_none_in_hand_and_only_single_men_he_loses() {
    let singles = "1 1 1 1 1 1 1 1 / 1 1 1 1 1 1 1 1 | 6 6 6 6 6 6 6 6 / 0 0 0 0 0 0 0 0 \
                   | hands 0 0 | 0 | village 0 0 | gambit 0 | begin";
    let s = position(singles);
    assert_eq!(s.status, Status::Won(Player::North));
    assert_eq!(yao().returns(&s), [-1.0, 1.0]);
    // With a man in hand (phase 1) rule XX does not apply: he adds.
    let in_hand = "1 1 1 1 1 1 1 1 / 1 1 1 1 1 1 1 0 | 6 6 6 6 6 6 6 6 / 0 0 0 0 0 0 0 0 \
                   | hands 1 0 | 0 | village 0 0 | gambit 0 | begin";
    assert_eq!(position(in_hand).status, Status::Live);
}

// South's circuit (29 men, lanes Ra … Rd, H … A = 2 0 1 3 1 2 3 2 | 1 2 1 2 1 4 0 4): spreading
// Ob leftwards never ends; every other start does (found by an independent search script).
const ONE_ENDLESS: &str = "2 0 1 3 1 2 3 2 / 4 0 4 1 2 1 2 1 | 5 5 5 5 5 5 5 0 / 0 0 0 0 0 0 0 0 \
                           | hands 0 0 | 0 | village 0 0 | gambit 0 | begin";

#[test]
fn a_move_that_never_ends_is_illegal() {
    let legal = mask(ONE_ENDLESS);
    assert!(!legal.contains(&begin_action(OB, false)), "{legal:?}");
    assert!(legal.contains(&begin_action(OB, true)));
    assert_eq!(
        legal.len(),
        17,
        "18 starts of 2 or more men, one never ends"
    );
    // The same without the length bound: the chain really repeats a state.
    let exact = Yao {
        max_chain: None,
        ..Yao::default()
    };
    let s = exact.parse_notation(ONE_ENDLESS).unwrap();
    assert_eq!(exact.legal_mask(&s).to_vec(), legal);
    let mut t = s.clone();
    assert!(exact.play(&mut t, begin_action(OB, false)).is_err());
    assert_eq!(t, s);
}

#[test]
fn the_gambit_forces_the_two_opening_moves_and_b_places_in_od() {
    let y = Yao {
        sanderson_gambit: true,
        ..Yao::default()
    };
    let mut s = y.start(Player::South);
    // 1A: add Od, spread 3 left (V Ob Oa); 1B: add Od, take 1, place Od, spread 4 left.
    for _ in 0..2 {
        assert_eq!(y.legal_mask(&s).to_vec(), vec![begin_action(5, false)]);
        y.play(&mut s, begin_action(5, false)).unwrap();
    }
    // Fig. 3 (docs/sources.md 6.5): A front 0 0 0 1 7 0 2 0, B front 0 1 1 1 7 0 2 0, 21/21;
    // B's V, Ob and Rb are in opposition.
    assert_eq!(
        y.notation(&s),
        "0 0 0 1 7 0 2 0 / 0 0 0 0 0 0 0 0 | 0 1 1 1 7 0 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 21 21 | 0 | village 1 1 | gambit 0 | begin"
    );
    assert_eq!(s.board.opposition(Player::North), 0b0001_1010);
}

#[test]
fn a_turn_is_one_player_deciding_until_it_ends() {
    let y = yao();
    let reached = position(&after(AFTER_3B, &[begin_action(RD, false)]));
    assert_eq!(y.to_play(&reached), Some(Player::South));
    assert_eq!(y.action_name(&reached, STOP), "stop at V");
}

#[test]
fn notation_names_what_is_wrong() {
    let err = yao().parse_notation("0 0 | 1").unwrap_err().to_string();
    assert!(err.contains("expected 7 fields"), "{err}");
    let err = yao()
        .parse_notation(&AFTER_3B.replace("hands 19 19", "hands 19 20"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("expected 64 men"), "{err}");
}

#[test]
fn a_player_whose_every_move_never_ends_passes() {
    // South's only hole of two men is Ra. Rightwards: Rb Oa (2), spread Ob V (2), spread Od
    // Rc, lying in Rc; leftwards: A B (2), spread C D (2), spread E F, lying in F. Each relays
    // twice, so with chains bounded at one relay both count as never-ending: South passes.
    let setup = "2 1 1 1 1 0 0 0 / 1 1 1 1 0 0 0 0 | 6 6 6 6 6 0 6 6 / 6 6 0 0 0 0 0 0 \
                 | hands 0 0 | 0 | village 0 0 | gambit 0 | begin";
    let bounded = Yao {
        max_chain: Some(1),
        ..Yao::default()
    };
    let s = bounded.parse_notation(setup).unwrap();
    assert_eq!(
        bounded.to_play(&s),
        Some(Player::North),
        "{}",
        bounded.notation(&s)
    );
    assert!(!bounded.legal_mask(&s).is_empty());
    let s = yao().parse_notation(setup).unwrap();
    assert_eq!(yao().to_play(&s), Some(Player::South));
    assert_eq!(
        yao().legal_mask(&s).to_vec(),
        vec![begin_action(RA, false), begin_action(RA, true)]
    );
}

#[test]
fn tactics_give_each_moves_gain_and_the_opponents_threats() {
    let y = yao();
    let s = position(FIRST_SPREAD_TAKES);
    let mut t = vec![f32::NAN; y.tactics_len()];
    y.tactics(&s, &mut t);
    // Spreading Ra rightwards takes North's 3 in Od (rule XIV, worked above): South goes from
    // 35 men and 2 occupied front holes to 38 and 5, North from 29 and 2 to 26 and 1 — the
    // heuristic difference from 37 − 31 = 6 to 43 − 27 = 16: a gain of 10 men, 10 / 8.
    assert_eq!(t[begin_action(RA, true) as usize], 1.25);
    // Rb is empty and the village decision is not due: illegal actions read 0.
    assert_eq!(t[begin_action(RB, true) as usize], 0.0);
    assert_eq!(t[STOP as usize], 0.0);
    // The threats are what North's own moves would gain him were it his turn.
    let theirs = position(&FIRST_SPREAD_TAKES.replace("| 0 | village", "| 1 | village"));
    let mut u = vec![f32::NAN; y.tactics_len()];
    y.tactics(&theirs, &mut u);
    assert_eq!(t[NUM_ACTIONS..], u[..NUM_ACTIONS]);
    assert!(
        u[..NUM_ACTIONS].iter().any(|&g| g > 0.0),
        "North can take too"
    );
}

#[test]
fn tactics_read_a_winning_take_as_eight() {
    let y = yao();
    let s = position(
        "0 1 0 0 0 0 0 0 / 0 0 0 0 0 0 0 0 | 0 0 0 0 0 0 2 0 / 4 4 4 4 4 4 4 4 \
         | hands 11 18 | 0 | village 0 0 | gambit 0 | begin",
    );
    let mut t = vec![f32::NAN; y.tactics_len()];
    y.tactics(&s, &mut t);
    assert_eq!(t[begin_action(RB, true) as usize], 8.0);
}
