//! Perft counts from `tests/data/perft.txt` (the shared test vectors). A variant named in the
//! file that the library does not know fails the test.

use ayo_env::perft::{parse_perft_file, PerftCase};
use ayo_env::{perft, Player, Rules, Variant};

fn cases() -> Vec<PerftCase> {
    parse_perft_file(include_str!("../data/perft.txt")).expect("a valid perft file")
}

fn check(max_depth: u32, min_depth: u32) {
    let mut checked = 0;
    for case in cases() {
        if case.depth < min_depth || case.depth > max_depth {
            continue;
        }
        let v = Variant::new(&case.variant, &[])
            .unwrap_or_else(|e| panic!("perft file names variant {}: {e}", case.variant));
        assert_eq!(
            perft(&v, &v.start(Player::South), case.depth),
            case.count,
            "{} perft({})",
            case.variant,
            case.depth
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn perft_up_to_depth_7() {
    check(7, 1);
}

#[test]
fn perft_depth_8_and_9() {
    check(9, 8);
}
