//! `ayo@1`, one test per rule clause of docs/rules.md 3 and 9, and docs/sources.md 7.4 (the computer
//! Ayo's rules on OpenSpiel's unit-test positions).
//!
//! Notation: `p0 … p11 | store0 store1 | to-move`, pits in sowing order (South 0–5, North 6–11).
//! The notation holds all 48 seeds; OpenSpiel's positions have fewer on the board, and the rest
//! are put in the stores (chosen so that the 25 threshold is, or is not, reached as the test says).

mod common;
use ayo_env::{PlayError, Player, Rules, Variant};
use common::*;

fn ayo() -> Variant {
    variant("ayo@1", &[])
}

fn notation_after(start: &str, actions: &[u8]) -> String {
    let v = ayo();
    v.notation(&after(&v, start, actions))
}

// ---- docs/sources.md 7.4 ----

#[test]
fn rules_sources_7_4_openspiel_positions_under_ayo_rules() {
    let v = ayo();
    // NoCaptureBecauseGrandSlamTest: OpenSpiel allows action 2 (capturing nothing); here it
    // would take all 10 of South's seeds without reaching 25, so only action 5 is legal.
    assert_eq!(legal(&v, "1 1 1 1 1 0 0 0 8 0 0 1 | 20 14 | 1"), vec![5]);
    // LegalActionsLeaveTheOpponentSeedsTest: {5}, as in OpenSpiel.
    assert_eq!(legal(&v, "1 0 0 0 0 1 0 0 0 0 0 0 | 23 23 | 0"), vec![5]);
    // CaptureOpponentHousesTillBeginTest: the same capture of 11 (pits 10..6), pit 11 keeps 3.
    assert_eq!(
        notation_after("0 0 8 0 0 1 1 1 1 1 2 3 | 13 17 | 0", &[2]),
        "0 0 0 1 1 2 0 0 0 0 0 3 | 24 17 | 1"
    );
}

// ---- moves and captures ----

#[test]
fn ayo_legal_actions_are_the_non_empty_own_pits() {
    assert_eq!(
        legal(&ayo(), "4 4 0 5 5 5 5 4 4 4 4 4 | 0 0 | 0"),
        vec![0, 1, 3, 4, 5]
    );
    assert_eq!(
        legal(&ayo(), "4 4 0 5 5 5 5 0 4 4 4 4 | 0 4 | 1"),
        vec![0, 2, 3, 4, 5]
    );
}

#[test]
fn ayo_feeding_a_move_may_not_leave_the_opponent_without_seeds() {
    // North's row is empty: pit A's seed stays in South's row, pit F's reaches North.
    let v = ayo();
    let mut s = setup(&v, "1 0 0 0 0 1 0 0 0 0 0 0 | 23 23 | 0");
    assert_eq!(v.legal_actions(&s), vec![5]);
    assert!(matches!(v.play(&mut s, 0), Err(PlayError::Illegal { .. })));
}

#[test]
fn ayo_grand_slam_is_illegal_unless_it_reaches_25() {
    let v = ayo();
    // North's pit c would take all 10 of South's seeds: 14 + 10 = 24 is not enough.
    assert_eq!(legal(&v, "1 1 1 1 1 0 0 0 8 0 0 1 | 20 14 | 1"), vec![5]);
    // With 15 in his store the same move wins (25): legal, and the game ends at once with the
    // seeds left on the board uncollected (25 is checked before "no legal move").
    assert_eq!(legal(&v, "1 1 1 1 1 0 0 0 8 0 0 1 | 19 15 | 1"), vec![2, 5]);
    let s = after(&v, "1 1 1 1 1 0 0 0 8 0 0 1 | 19 15 | 1", &[2]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 1 1 2 | 19 25 | 0");
    assert_eq!(v.returns(&s), [-1.0, 1.0]);
}

#[test]
fn ayo_chain_captures_back_to_the_opponents_first_pit() {
    assert_eq!(
        notation_after("0 0 8 0 0 1 1 1 1 1 2 3 | 13 17 | 0", &[2]),
        "0 0 0 1 1 2 0 0 0 0 0 3 | 24 17 | 1"
    );
}

#[test]
fn ayo_chain_stops_at_a_pit_not_holding_2_or_3() {
    // Pits 10..7 are taken (3 + 2 + 2 + 2); pit 6 holds 4 and bars the chain.
    assert_eq!(
        notation_after("0 0 8 0 0 1 3 1 1 1 2 0 | 10 21 | 0", &[2]),
        "0 0 0 1 1 2 4 0 0 0 0 0 | 19 21 | 1"
    );
}

#[test]
fn ayo_no_capture_when_the_last_pit_holds_1_or_4() {
    assert_eq!(
        notation_after("3 1 1 1 0 0 0 0 8 0 0 1 | 17 16 | 1", &[2]),
        "4 2 2 2 1 0 0 0 0 1 1 2 | 17 16 | 0"
    );
    assert_eq!(
        notation_after("0 0 8 0 0 1 3 1 1 1 3 0 | 15 15 | 0", &[2]),
        "0 0 0 1 1 2 4 2 2 2 4 0 | 15 15 | 1"
    );
}

#[test]
fn ayo_no_capture_in_the_movers_own_row() {
    assert_eq!(
        notation_after("0 1 1 0 0 4 4 4 4 4 4 4 | 8 10 | 0", &[1]),
        "0 0 2 0 0 4 4 4 4 4 4 4 | 8 10 | 1"
    );
}

#[test]
fn ayo_chain_has_no_pit_limit() {
    let v = ayo();
    // All six North pits end on 2 or 3 (15 seeds): 14 + 15 = 29 wins, so the move is legal and
    // takes all six; the game ends with South's seeds uncollected.
    let s = after(&v, "11 0 0 0 0 0 1 2 1 2 1 2 | 14 14 | 0", &[0]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 1 1 1 1 1 0 0 0 0 0 0 | 29 14 | 1");
    // 8 + 15 = 23 does not win, so taking all six is illegal; pit B is the only legal move.
    assert_eq!(legal(&v, "11 1 0 0 0 0 1 2 1 2 1 2 | 8 19 | 0"), vec![1]);
    // With a seed left behind the last pit, the five pits 10..6 are taken.
    assert_eq!(
        notation_after("10 0 0 0 0 0 1 2 1 2 1 4 | 8 19 | 0", &[0]),
        "0 1 1 1 1 1 0 0 0 0 0 4 | 20 19 | 1"
    );
}

#[test]
fn ayo_origin_is_skipped_on_12_or_more() {
    // The 12th seed skips pit F and lands in pit 6, making 2, which is taken.
    assert_eq!(
        notation_after("1 1 1 1 1 12 0 1 1 1 1 1 | 13 13 | 0", &[5]),
        "2 2 2 2 2 0 0 2 2 2 2 2 | 15 13 | 1"
    );
}

// ---- the end ----

#[test]
fn ayo_reaching_25_ends_with_the_seeds_left_uncollected() {
    let v = ayo();
    let s = after(&v, "0 0 8 0 0 1 1 1 1 1 2 3 | 14 16 | 0", &[2]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 1 1 2 0 0 0 0 0 3 | 25 16 | 1");
    assert_eq!(v.scores(&s), [25, 16]);
    assert_eq!(v.returns(&s), [1.0, -1.0]);
}

#[test]
fn ayo_end_both_option_ends_when_the_stores_together_reach_25() {
    // The capture of 11 makes 23 + 12 = 35 together: over under `end=both`, not by default.
    let start = "3 3 8 0 0 1 1 1 1 1 2 3 | 12 12 | 0";
    let both = variant("ayo@1", &[("end", "both")]);
    let s = after(&both, start, &[2]);
    assert!(both.is_terminal(&s));
    assert_eq!(both.notation(&s), "3 3 0 1 1 2 0 0 0 0 0 3 | 23 12 | 1");
    assert_eq!(both.returns(&s), [1.0, -1.0]);
    let v = ayo();
    let s = after(&v, start, &[2]);
    assert_eq!(v.to_play(&s), Some(Player::North));
}

#[test]
fn ayo_no_legal_move_ends_and_each_collects_his_row() {
    // North sows his last seed into South's row; neither of South's seeds can reach North's
    // empty row, so South has no legal move.
    let v = ayo();
    let s = after(&v, "0 0 0 0 1 0 0 0 0 0 0 1 | 23 23 | 1", &[5]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 25 23 | 0");
    assert_eq!(v.returns(&s), [1.0, -1.0]);
}

#[test]
fn ayo_repetition_ends_and_each_collects_his_row() {
    // OpenSpiel's GameEndsByRepetitionTest position: both seeds walk once round the board.
    let v = ayo();
    let start = "1 0 0 0 0 0 1 0 0 0 0 0 | 23 23 | 0";
    let s = after(&v, start, &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    assert_eq!(v.notation(&s), "0 0 0 0 0 1 0 0 0 0 0 1 | 23 23 | 0");
    assert!(!v.is_terminal(&s));
    let s = after(&v, start, &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 24 24 | 0");
}

#[test]
fn ayo_24_all_is_a_draw() {
    let v = ayo();
    let s = after(
        &v,
        "1 0 0 0 0 0 1 0 0 0 0 0 | 23 23 | 0",
        &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
    );
    assert_eq!(v.scores(&s), [24, 24]);
    assert_eq!(v.returns(&s), [0.0, 0.0]);
}

#[test]
fn ayo_few_seeds_do_not_end_the_game() {
    // No exhaustion rule: two seeds on the board, the game goes on.
    let v = ayo();
    assert_eq!(
        v.to_play(&setup(&v, "1 0 0 0 0 0 1 0 0 0 0 0 | 23 23 | 0")),
        Some(Player::South)
    );
}

#[test]
fn ayo_has_no_odu_action() {
    let v = ayo();
    assert_eq!(v.num_actions(), 6);
    let mut s = v.start(Player::South);
    assert!(matches!(
        v.play(&mut s, 6),
        Err(PlayError::OutOfRange { .. })
    ));
}

#[test]
fn ayo_detailed_record_shows_every_drop() {
    // "Show Runs in Detail": the board after each single seed of the opening move C.
    let v = ayo();
    let mut s = v.start(Player::South);
    let drops = v.play_traced(&mut s, 2).unwrap();
    let boards: Vec<Vec<u8>> = drops.iter().map(|d| d.pits.clone()).collect();
    assert_eq!(
        boards,
        vec![
            vec![4, 4, 0, 5, 4, 4, 4, 4, 4, 4, 4, 4],
            vec![4, 4, 0, 5, 5, 4, 4, 4, 4, 4, 4, 4],
            vec![4, 4, 0, 5, 5, 5, 4, 4, 4, 4, 4, 4],
            vec![4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4],
        ]
    );
    let in_hand: Vec<u32> = drops.iter().map(|d| d.in_hand).collect();
    assert_eq!(in_hand, vec![3, 2, 1, 0]);
}
