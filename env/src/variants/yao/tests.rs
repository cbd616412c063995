//! One test per rule clause of `yao` (Sanderson's rules I–XX as in rules-sources 6.3–6.4 and
//! the defaults of 11.6): setup notation → action → expected notation.

use super::*;

const Y: Yao = Yao {
    sanderson_gambit: false,
    max_chain: Some(MAX_CHAIN),
};

#[test]
fn start_has_22_in_hand_and_6_2_2_right_of_the_village_with_no_opposition() {
    let s = Y.start(Player::South);
    assert_eq!(
        Y.notation(&s),
        "0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 | 0 0 0 0 6 2 2 0 / 0 0 0 0 0 0 0 0 \
         | hands 22 22 | 0 | village 1 1 | gambit 0 | begin"
    );
    assert_eq!(
        s.board.opposition(Player::South),
        0,
        "rule III: no opposition"
    );
    assert_eq!(Y.snapshot(&s).total(), MEN);
}
