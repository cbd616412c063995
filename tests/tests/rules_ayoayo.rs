//! `ayoayo@1`, one test per rule clause of docs/rules.md 4 and 9, and the constructed test vectors of
//! docs/sources.md 2.6 (AY-i, AY-ii, AY-ii', AY-last) and the 16-seed example of 2.5.
//!
//! Notation: `p0 … p11 | store0 store1 | to-move | odu used0 used1`, pits in sowing order.
//! Newberry numbers the houses 1..12 in sowing order from A's (South's) first: house n = pit n-1.
//! Rules-sources 2.6 lists only the pits that matter; the other pits are filled so that no other
//! rule (exhaustion, retaliation) fires, and the stores make up 48 seeds.

mod common;
use ayo_env::{PlayError, Player, Rules, Variant};
use common::*;

fn ayoayo() -> Variant {
    variant("ayoayo@1", &[])
}

fn notation_after(start: &str, actions: &[u8]) -> String {
    let v = ayoayo();
    v.notation(&after(&v, start, actions))
}

/// Odu action from own pit `k` (docs/rules.md 4: actions 6-10).
const fn odu(k: u8) -> u8 {
    6 + k
}

// ---- captures (docs/sources.md 2.6) ----

#[test]
fn ayoayo_chain_stops_at_a_pit_not_holding_2_or_3() {
    // AY-i: A sows house 5 (5 seeds) into houses 6..10, which become 1, 2, 4, 2, 3; A takes h10
    // (3) and h9 (2); h8 = 4 bars the chain, so h7 = 2 stays.
    assert_eq!(
        notation_after("1 1 1 1 5 0 1 3 1 2 1 1 | 15 15 | 0 | odu 0 0", &[4]),
        "1 1 1 1 0 1 2 4 0 0 1 1 | 20 15 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_chain_stops_after_five_pits() {
    // AY-ii: A sows house 4 (8 seeds) into houses 5..12; B's houses 7..12 become 2,3,2,3,2,3.
    // A takes h12, h11, h10, h9, h8 = 3+2+3+2+3 = 13; h7 = 2 stays (the 5-pit limit).
    assert_eq!(
        notation_after("2 2 2 8 1 1 1 2 1 2 1 2 | 12 11 | 0 | odu 0 0", &[3]),
        "2 2 2 0 2 2 2 0 0 0 0 0 | 25 11 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_unlimited_chain_option_takes_all_six_and_the_opponent_retaliates() {
    // AY-ii': with max_chain_pits=none A takes all six (15); B's row is empty at his turn, so he
    // takes every seed left (A's 10) and the game ends.
    let v = variant("ayoayo@1", &[("max_chain_pits", "none")]);
    let s = after(&v, "2 2 2 8 1 1 1 2 1 2 1 2 | 12 11 | 0 | odu 0 0", &[3]);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 27 21 | 1 | odu 0 0"
    );
    assert_eq!(v.returns(&s), [1.0, -1.0]);
}

#[test]
fn ayoayo_no_capture_in_the_movers_own_row() {
    // AY-last: B sows house 10 (1 seed); house 11 becomes 2, but it is B's own: no capture.
    assert_eq!(
        notation_after("2 2 2 2 2 2 0 0 0 1 1 0 | 17 17 | 1 | odu 0 0", &[3]),
        "2 2 2 2 2 2 0 0 0 0 2 0 | 17 17 | 0 | odu 0 0"
    );
}

#[test]
fn ayoayo_sixteen_seed_example_needs_the_unlimited_option() {
    // Rules-sources 2.5: B plays house 10 (8 seeds) into 11, 12, 1..6; A's 1,2,2,2,2,1 become
    // 2,3,3,3,3,2 = 16 "including the six played by himself". With the 5-pit limit B takes 14
    // (h6..h2) and h1 stays; only without the limit does he take 16.
    assert_eq!(
        notation_after("1 2 2 2 2 1 3 0 0 8 0 0 | 13 14 | 1 | odu 0 0", &[3]),
        "2 0 0 0 0 0 3 0 0 0 1 1 | 13 28 | 0 | odu 0 0"
    );
    let v = variant("ayoayo@1", &[("max_chain_pits", "none")]);
    let s = after(&v, "1 2 2 2 2 1 3 0 0 8 0 0 | 13 14 | 1 | odu 0 0", &[3]);
    assert_eq!(v.scores(&s), [13 + 5, 14 + 16]);
    assert!(v.is_terminal(&s));
}

#[test]
fn ayoayo_chain_captures_back_to_the_opponents_first_pit() {
    // OpenSpiel's CaptureOpponentHousesTillBegin board: five pits (11 seeds) up to pit 6.
    assert_eq!(
        notation_after("0 0 8 0 0 1 1 1 1 1 2 3 | 10 20 | 0 | odu 0 0", &[2]),
        "0 0 0 1 1 2 0 0 0 0 0 3 | 21 20 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_no_capture_when_the_last_pit_holds_1_or_4() {
    assert_eq!(
        notation_after("0 0 8 0 0 1 3 1 1 1 3 0 | 15 15 | 0 | odu 0 0", &[2]),
        "0 0 0 1 1 2 4 2 2 2 4 0 | 15 15 | 1 | odu 0 0"
    );
    assert_eq!(
        notation_after("3 1 1 1 0 0 0 0 8 0 0 1 | 17 16 | 1 | odu 0 0", &[2]),
        "4 2 2 2 1 0 0 0 0 1 1 2 | 17 16 | 0 | odu 0 0"
    );
}

#[test]
fn ayoayo_grand_slam_captures_and_the_opponent_retaliates() {
    // OpenSpiel's NoCaptureBecauseGrandSlam board: here North does take all five of South's
    // pits (10 seeds); South's row is then empty at his turn, and he takes North's 4 seeds.
    let v = ayoayo();
    let s = after(&v, "1 1 1 1 1 0 0 0 8 0 0 1 | 17 17 | 1 | odu 0 0", &[2]);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 21 27 | 0 | odu 0 0"
    );
}

#[test]
fn ayoayo_origin_is_skipped_on_12_or_more() {
    assert_eq!(
        notation_after("1 1 1 1 1 12 0 1 1 1 1 1 | 13 13 | 0 | odu 0 0", &[5]),
        "2 2 2 2 2 0 0 2 2 2 2 2 | 15 13 | 1 | odu 0 0"
    );
}

// ---- feeding, odu ----

#[test]
fn ayoayo_has_no_feeding_duty() {
    // North's row is empty; every South pit may be sown (and odu'd), even pit A, whose seed
    // stays in South's row. North then retaliates, taking the 5 seeds left.
    let v = ayoayo();
    let start = "1 0 0 3 0 1 0 0 0 0 0 0 | 22 21 | 0 | odu 0 0";
    assert_eq!(legal(&v, start), vec![0, 3, 5, odu(0), odu(3)]);
    let s = after(&v, start, &[0]);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 22 26 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_odu_moves_a_whole_pit_into_the_next_own_pit() {
    assert_eq!(
        notation_after("4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0 | odu 0 0", &[odu(2)]),
        "4 4 0 8 4 4 4 4 4 4 4 4 | 0 0 | 1 | odu 1 0"
    );
    // North's odu from his pit e (10) into f (11).
    assert_eq!(
        notation_after("4 4 0 8 4 4 4 4 4 4 4 4 | 0 0 | 1 | odu 1 0", &[odu(4)]),
        "4 4 0 8 4 4 4 4 4 4 0 8 | 0 0 | 0 | odu 1 1"
    );
}

#[test]
fn ayoayo_odu_into_an_empty_pit_captures_nothing() {
    // The target may be empty; the odu never captures (it stays in the mover's row).
    assert_eq!(
        notation_after("4 0 4 4 4 4 4 4 4 4 4 4 | 2 2 | 0 | odu 0 0", &[odu(0)]),
        "0 4 4 4 4 4 4 4 4 4 4 4 | 2 2 | 1 | odu 1 0"
    );
}

#[test]
fn ayoayo_odu_is_allowed_once_per_player() {
    let v = ayoayo();
    let s = after(
        &v,
        "4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0 | odu 0 0",
        &[odu(2), 0],
    );
    // South has used his odu: only sowing; North still has his.
    assert_eq!(v.legal_actions(&s), vec![0, 1, 3, 4, 5]);
    let mut t = s.clone();
    assert!(matches!(
        v.play(&mut t, odu(0)),
        Err(PlayError::Illegal { .. })
    ));
    let s = after(&v, "4 4 0 8 4 4 0 5 5 5 5 4 | 0 0 | 1 | odu 1 0", &[]);
    assert_eq!(
        v.legal_actions(&s),
        vec![1, 2, 3, 4, 5, odu(1), odu(2), odu(3), odu(4)]
    );
}

#[test]
fn ayoayo_odu_never_from_an_empty_pit_nor_from_the_last_pit() {
    let v = ayoayo();
    // Pit A is empty (no odu 6); pit F has no own pit after it (no action for it at all).
    assert_eq!(v.num_actions(), 11);
    assert_eq!(
        legal(&v, "0 4 4 4 4 8 4 4 4 4 4 4 | 0 0 | 0 | odu 0 0"),
        vec![1, 2, 3, 4, 5, odu(1), odu(2), odu(3), odu(4)]
    );
    let mut s = v.start(Player::South);
    assert!(matches!(
        v.play(&mut s, 11),
        Err(PlayError::OutOfRange { .. })
    ));
}

// ---- the end ----

#[test]
fn ayoayo_retaliation_when_a_player_emptied_his_own_row() {
    // South sows his last seed into North's row; North does not feed him; at South's turn his
    // row is empty and he takes every seed left (4).
    let v = ayoayo();
    let start = "0 0 0 0 0 1 0 0 3 0 0 0 | 22 22 | 0 | odu 0 0";
    let s = after(&v, start, &[5]);
    assert_eq!(v.to_play(&s), Some(Player::North));
    let s = after(&v, start, &[5, 0]);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 26 22 | 0 | odu 0 0"
    );
    assert_eq!(v.returns(&s), [1.0, -1.0]);
}

#[test]
fn ayoayo_retaliation_comes_before_exhaustion() {
    // South takes North's two pits (4 seeds); both rows then hold ≤ 2, but North's is empty:
    // North retaliates and takes South's last seed (exhaustion would give it to South).
    let v = ayoayo();
    let s = after(&v, "1 0 0 0 0 2 1 1 0 0 0 0 | 22 21 | 0 | odu 0 0", &[5]);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 26 22 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_exhaustion_each_adds_his_own_row() {
    // After South's capture each row holds one seed (≤ 2): each player adds his own.
    let v = ayoayo();
    let s = after(&v, "1 0 0 0 0 2 1 1 1 0 0 0 | 20 22 | 0 | odu 0 0", &[5]);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 25 23 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_does_not_end_when_a_store_passes_24() {
    let v = ayoayo();
    let s = after(&v, "0 0 8 0 0 1 1 1 1 1 2 3 | 15 15 | 0 | odu 0 0", &[2]);
    assert_eq!(v.scores(&s), [26, 15]);
    assert_eq!(v.to_play(&s), Some(Player::North));
}

/// Six single seeds walk round the board without ever landing on one another, so nothing is
/// captured; after twelve moves the position recurs.
const CYCLE_START: &str = "1 0 0 1 0 1 1 0 1 0 0 1 | 21 21 | 1 | odu 0 0";
const CYCLE: [u8; 12] = [2, 3, 3, 0, 5, 1, 4, 2, 0, 5, 1, 4];

#[test]
fn ayoayo_repetition_ends_and_each_collects_his_row() {
    let v = ayoayo();
    let s = after(&v, CYCLE_START, &CYCLE[..11]);
    assert!(!v.is_terminal(&s));
    assert_eq!(v.scores(&s), [21, 21]);
    let s = after(&v, CYCLE_START, &CYCLE);
    assert!(v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "0 0 0 0 0 0 0 0 0 0 0 0 | 24 24 | 1 | odu 0 0"
    );
}

#[test]
fn ayoayo_24_all_is_a_draw() {
    let v = ayoayo();
    let s = after(&v, CYCLE_START, &CYCLE);
    assert_eq!(v.scores(&s), [24, 24]);
    assert_eq!(v.returns(&s), [0.0, 0.0]);
}

#[test]
fn ayoayo_odu_flags_are_part_of_the_repeated_position() {
    // North's first step of the cycle moves one seed from pit 8 into the empty pit 9; his odu
    // from pit 8 does the same to the board. Played as an odu, the board recurs after twelve
    // moves but North's odu flag differs, so the game goes on; the position after the odu
    // (same board, same flags) recurs one move later.
    let v = ayoayo();
    let mut actions = CYCLE.to_vec();
    actions[0] = odu(2);
    let s = after(&v, CYCLE_START, &actions);
    assert!(!v.is_terminal(&s));
    assert_eq!(
        v.notation(&s),
        "1 0 0 1 0 1 1 0 1 0 0 1 | 21 21 | 1 | odu 0 1"
    );
    actions.push(CYCLE[0]);
    let s = after(&v, CYCLE_START, &actions);
    assert!(v.is_terminal(&s));
    assert_eq!(v.scores(&s), [24, 24]);
}
