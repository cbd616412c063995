//! `oware@1`, one test per rule clause of docs/rules.md 2, and OpenSpiel's own test vectors
//! (docs/sources.md 9.1: `oware_test.cc` and the recorded playthrough
//! `integration_tests/playthroughs/oware.txt`).
//!
//! Notation: `p0 … p11 | store0 store1 | to-move`, pits in sowing order (South 0–5, North 6–11).
//! The notation holds all 48 seeds. OpenSpiel's unit tests use custom boards with fewer seeds and
//! empty stores; the missing seeds are put in the stores here, so each expected score is
//! OpenSpiel's plus the stores added. Where OpenSpiel's end threshold matters (a score above half
//! of the board's seeds), the stores are chosen so that the same capture crosses 24.

mod common;
use ayo_env::rules::exchanges;
use ayo_env::{PlayError, Player, Rules, Variant};
use common::*;

fn oware() -> Variant {
    variant("oware@1", &[])
}

fn notation_after(start: &str, actions: &[u8]) -> String {
    let v = oware();
    v.notation(&after(&v, start, actions))
}

// ---- moves and captures ----

#[test]
fn oware_legal_actions_are_the_non_empty_own_pits() {
    // OpenSpiel LegalActionsNoConstraintsTest (12 seeds on the board; 18 + 18 added).
    assert_eq!(
        legal(&oware(), "1 0 9 0 0 1 1 0 0 0 0 0 | 18 18 | 0"),
        vec![0, 2, 5]
    );
    assert_eq!(
        legal(&oware(), "1 0 9 0 0 1 1 0 0 3 0 2 | 16 15 | 1"),
        vec![0, 3, 5]
    );
}

#[test]
fn oware_feeding_only_moves_that_reach_an_empty_opponent_are_legal() {
    // OpenSpiel LegalActionsLeaveTheOpponentSeedsTest (2 seeds; 23 + 23 added): pit A's seed
    // stays in South's row, pit F's reaches North.
    assert_eq!(
        legal(&oware(), "1 0 0 0 0 1 0 0 0 0 0 0 | 23 23 | 0"),
        vec![5]
    );
    // North: pit e (1 seed) stops in his own pit f, pit f (2 seeds) reaches South.
    assert_eq!(
        legal(&oware(), "0 0 0 0 0 0 0 0 0 0 1 2 | 22 23 | 1"),
        vec![5]
    );
    let v = oware();
    let mut s = setup(&v, "1 0 0 0 0 1 0 0 0 0 0 0 | 23 23 | 0");
    assert!(matches!(v.play(&mut s, 0), Err(PlayError::Illegal { .. })));
}

#[test]
fn oware_sowing_is_counter_clockwise_one_seed_per_pit() {
    assert_eq!(
        notation_after("4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0", &[2]),
        "4 4 0 5 5 5 5 4 4 4 4 4 | 0 0 | 1"
    );
    // North's action 5 is pit 11; his sowing wraps into South's row.
    assert_eq!(
        notation_after("4 4 0 5 5 5 5 4 4 4 4 4 | 0 0 | 1", &[5]),
        "5 5 1 6 5 5 5 4 4 4 4 0 | 0 0 | 0"
    );
}

#[test]
fn oware_chain_captures_back_to_the_opponents_first_pit() {
    // OpenSpiel CaptureOpponentHousesTillBeginTest's board (18 seeds; 10 + 20 added, so the
    // capture does not end the game): the last seed makes pit 10 hold 3; pits 10, 9, 8, 7, 6
    // (3 + 2 + 2 + 2 + 2 = 11) are taken; pit 11 is after the last pit and keeps its 3.
    assert_eq!(
        notation_after("0 0 8 0 0 1 1 1 1 1 2 3 | 10 20 | 0", &[2]),
        "0 0 0 1 1 2 0 0 0 0 0 3 | 21 20 | 1"
    );
}

#[test]
fn oware_chain_stops_at_a_pit_not_holding_2_or_3() {
    // OpenSpiel CaptureMostOpponentHousesTest's board (17 seeds; 10 + 21 added): pits 10..7
    // are taken (3 + 2 + 2 + 2 = 9); pit 6 holds 4 and stops the chain.
    assert_eq!(
        notation_after("0 0 8 0 0 1 3 1 1 1 2 0 | 10 21 | 0", &[2]),
        "0 0 0 1 1 2 4 0 0 0 0 0 | 19 21 | 1"
    );
}

#[test]
fn oware_no_capture_when_the_last_pit_holds_too_few_seeds() {
    // OpenSpiel NoCaptureBecauseTooFewSeedsTest (15 seeds; 17 + 16 added): the last seed makes 1.
    assert_eq!(
        notation_after("3 1 1 1 0 0 0 0 8 0 0 1 | 17 16 | 1", &[2]),
        "4 2 2 2 1 0 0 0 0 1 1 2 | 17 16 | 0"
    );
}

#[test]
fn oware_no_capture_when_the_last_pit_holds_too_many_seeds() {
    // OpenSpiel NoCaptureBecauseTooManySeedsTest (18 seeds; 15 + 15 added): the last seed makes
    // 4, so the 2s behind it are not taken either.
    assert_eq!(
        notation_after("0 0 8 0 0 1 3 1 1 1 3 0 | 15 15 | 0", &[2]),
        "0 0 0 1 1 2 4 2 2 2 4 0 | 15 15 | 1"
    );
}

#[test]
fn oware_no_capture_in_the_movers_own_row() {
    // South's last seed makes 2 in his own pit C.
    assert_eq!(
        notation_after("0 1 1 0 0 4 4 4 4 4 4 4 | 8 10 | 0", &[1]),
        "0 0 2 0 0 4 4 4 4 4 4 4 | 8 10 | 1"
    );
}

#[test]
fn oware_grand_slam_captures_nothing() {
    // OpenSpiel NoCaptureBecauseGrandSlamTest (14 seeds; 17 + 17 added): North's last seed
    // makes every South pit 2, which would take all of South's seeds; the move is legal and
    // captures nothing.
    let v = oware();
    assert_eq!(legal(&v, "1 1 1 1 1 0 0 0 8 0 0 1 | 17 17 | 1"), vec![2, 5]);
    assert_eq!(
        notation_after("1 1 1 1 1 0 0 0 8 0 0 1 | 17 17 | 1", &[2]),
        "2 2 2 2 2 0 0 0 0 1 1 2 | 17 17 | 0"
    );
}

#[test]
fn oware_has_no_pit_limit_but_a_six_pit_chain_is_a_grand_slam() {
    // Every North pit ends on 2 or 3 and the last seed is in pit 11: all six would be taken,
    // which is a grand slam, so nothing is.
    assert_eq!(
        notation_after("11 0 0 0 0 0 1 2 1 2 1 2 | 14 14 | 0", &[0]),
        "0 1 1 1 1 1 2 3 2 3 2 3 | 14 14 | 1"
    );
    // With seeds left behind the last pit, the five pits 10..6 are taken (2+3+2+3+2 = 12).
    assert_eq!(
        notation_after("10 0 0 0 0 0 1 2 1 2 1 4 | 8 19 | 0", &[0]),
        "0 1 1 1 1 1 0 0 0 0 0 4 | 20 19 | 1"
    );
}

#[test]
fn oware_origin_is_skipped_on_12_or_more() {
    // 12 seeds from pit F: one in each other pit, the origin skipped, the 12th in pit 6, which
    // then holds 2 and is taken (pits 7..11 keep seeds, so it is no grand slam).
    assert_eq!(
        notation_after("1 1 1 1 1 12 0 1 1 1 1 1 | 13 13 | 0", &[5]),
        "2 2 2 2 2 0 0 2 2 2 2 2 | 15 13 | 1"
    );
}

// ---- the end ----

#[test]
fn oware_repetition_ends_and_each_collects_his_row() {
    // OpenSpiel GameEndsByRepetitionTest: both seeds walk once round the board.
    let v = oware();
    let start = "1 0 0 0 0 0 1 0 0 0 0 0 | 23 23 | 0";
    let s = after(&v, start, &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    assert!(!v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 1 0 0 0 0 0 1 | 23 23 | 0");
    let s = after(&v, start, &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 24 24 | 0");
}

#[test]
fn oware_24_all_is_a_draw() {
    let v = oware();
    let s = after(
        &v,
        "1 0 0 0 0 0 1 0 0 0 0 0 | 23 23 | 0",
        &[0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5],
    );
    assert_eq!(v.scores(&s), [24, 24]);
    assert_eq!(v.returns(&s), [0.0, 0.0]);
    assert_eq!(v.to_play(&s), None);
}

#[test]
fn oware_no_legal_move_ends_and_each_collects_his_row() {
    // North sows his last seed; South's two seeds cannot reach North's empty row.
    let v = oware();
    let s = after(&v, "0 0 0 0 1 0 0 0 0 0 0 1 | 23 23 | 1", &[5]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 25 23 | 0");
    assert_eq!(v.returns(&s), [1.0, -1.0]);
}

#[test]
fn oware_a_score_above_24_ends_and_the_rows_are_collected() {
    // OpenSpiel CaptureOpponentHousesTillBeginTest (18 seeds; 15 + 15 added): the capture of 11
    // takes South past half the seeds; as in OpenSpiel the rows are then collected too
    // (OpenSpiel {15, 3} + 15 each).
    let v = oware();
    let s = after(&v, "0 0 8 0 0 1 1 1 1 1 2 3 | 15 15 | 0", &[2]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 30 18 | 1");
    assert_eq!(v.returns(&s), [1.0, -1.0]);
    // OpenSpiel CaptureMostOpponentHousesTest (17 seeds; 16 + 15 added): {13, 4} + {16, 15}.
    let s = after(&v, "0 0 8 0 0 1 3 1 1 1 2 0 | 16 15 | 0", &[2]);
    assert!(v.is_terminal(&s));
    assert_eq!(v.notation(&s), "0 0 0 0 0 0 0 0 0 0 0 0 | 29 19 | 1");
}

#[test]
fn oware_few_seeds_do_not_end_the_game() {
    // No exhaustion rule: two seeds on the board, the game goes on.
    let v = oware();
    let s = setup(&v, "1 0 0 0 0 0 1 0 0 0 0 0 | 23 23 | 0");
    assert_eq!(v.to_play(&s), Some(Player::South));
}

#[test]
fn oware_has_no_odu_action() {
    let v = oware();
    assert_eq!(v.num_actions(), 6);
    let mut s = v.start(Player::South);
    assert!(matches!(
        v.play(&mut s, 6),
        Err(PlayError::OutOfRange { .. })
    ));
}

// ---- OpenSpiel's recorded playthrough ----

/// `History()` of OpenSpiel's `integration_tests/playthroughs/oware.txt` (110 moves).
const PLAYTHROUGH: &str = "2 5 2 1 1 2 2 3 5 4 2 3 3 4 0 1 3 0 2 2 4 2 2 4 3 3 0 4 5 1 0 4 4 0 5 1 1 4 0 3 \
    3 4 1 5 3 2 0 3 5 5 1 1 3 2 2 3 5 5 4 5 3 3 1 4 3 1 5 1 4 3 1 5 2 1 5 1 3 2 2 5 4 4 3 3 1 0 4 0 \
    2 1 5 0 3 4 5 5 1 1 0 0 4 2 2 4 0 5 3 3 5 5";

#[test]
fn openspiel_recorded_playthrough_ends_21_27() {
    let v = oware();
    let actions: Vec<u8> = PLAYTHROUGH
        .split_whitespace()
        .map(|a| a.parse().unwrap())
        .collect();
    assert_eq!(actions.len(), 110);
    // ObservationString of the recorded states: "<player> | <scores> | <seeds>".
    let recorded = [
        (
            1,
            "4 4 0 5 5 5 5 4 4 4 4 4 | 0 0 | 1",
            vec![0, 1, 2, 3, 4, 5],
        ),
        (
            2,
            "5 5 1 6 5 5 5 4 4 4 4 0 | 0 0 | 0",
            vec![0, 1, 2, 3, 4, 5],
        ),
        (3, "5 5 0 7 5 5 5 4 4 4 4 0 | 0 0 | 1", vec![0, 1, 2, 3, 4]),
        (100, "0 1 2 0 2 0 0 1 5 1 0 0 | 17 19 | 0", vec![1, 2, 4]),
        (101, "0 1 2 0 0 1 1 1 5 1 0 0 | 17 19 | 1", vec![0, 1, 2, 3]),
        (102, "1 0 2 0 0 1 1 1 0 2 1 1 | 17 21 | 0", vec![0, 2, 5]),
        (109, "1 0 0 0 2 0 0 1 0 0 1 1 | 19 23 | 1", vec![1, 4, 5]),
    ];
    let mut s = v.start(Player::South);
    for (ply, &a) in actions.iter().enumerate() {
        assert!(!v.is_terminal(&s), "over before move {}", ply + 1);
        v.play(&mut s, a)
            .unwrap_or_else(|e| panic!("move {}: {e}", ply + 1));
        if let Some((_, notation, legal)) = recorded.iter().find(|r| r.0 == ply + 1) {
            assert_eq!(&v.notation(&s), notation, "State {}", ply + 1);
            assert_eq!(&v.legal_actions(&s), legal, "State {}", ply + 1);
        }
    }
    // State 110: [FINISHED], scores 21 27, board empty, Returns() = [-1.0, 1.0].
    assert!(v.is_terminal(&s));
    assert_eq!(v.snapshot(&s).pits, vec![0; 12]);
    assert_eq!(v.scores(&s), [21, 27]);
    assert_eq!(v.returns(&s), [-1.0, 1.0]);
}

// ---- look-ahead features (the network's optional input) ----

#[test]
fn oware_move_gains_are_the_seeds_each_move_takes() {
    let v = oware();
    // F's two seeds make North's a and b 2 each: both taken, 4 seeds (24, not yet above half).
    // E's one seed stays home. Every other pit is empty.
    let s = setup(&v, "0 0 0 0 1 2 1 1 0 3 0 0 | 20 20 | 0");
    let mut gains = vec![f32::NAN; v.tactics_len()];
    v.tactics(&s, &mut gains);
    assert_eq!(gains, [0.0, 0.0, 0.0, 0.0, 0.0, 0.5]);
    // A take that passes half the seeds ends the game won: +8.
    let s = setup(&v, "1 0 0 0 0 1 1 0 0 0 2 0 | 23 20 | 0");
    v.tactics(&s, &mut gains);
    assert_eq!(gains, [0.0, 0.0, 0.0, 0.0, 0.0, 8.0]);
}

#[test]
fn oware_exchanges_count_the_best_answer() {
    let v = oware();
    // F takes North's a and b (2 + 2 seeds: +0.5), which leaves North e and f: f's five
    // seeds end in South's e, now 2, and take them (-0.25). E takes nothing, and none of
    // North's answers (a, b, e, f) takes anything either. a-d are empty.
    let s = setup(&v, "0 0 0 0 1 2 1 1 0 0 1 5 | 19 18 | 0");
    let mut gains = vec![f32::NAN; v.num_actions()];
    v.tactics(&s, &mut gains);
    assert_eq!(gains, [0.0, 0.0, 0.0, 0.0, 0.0, 0.5]);
    let mut x = vec![f32::NAN; v.num_actions()];
    exchanges(&v, &s, &mut x);
    assert_eq!(x, [0.0, 0.0, 0.0, 0.0, 0.0, 0.25]);
    // Without North's e, f is North's only answer and empties his row: South cannot feed
    // him, so the game ends and South takes the rest and wins (North's answer reads -8).
    let s = setup(&v, "0 0 0 0 1 2 1 1 0 0 0 5 | 19 19 | 0");
    exchanges(&v, &s, &mut x);
    assert_eq!(x, [0.0, 0.0, 0.0, 0.0, 0.0, 8.5]);
}
