//! Perft counts from `tests/data/perft.txt` (the shared test vectors).

use ayo_env::{perft, Player, Rules, Variant};

fn cases() -> Vec<(String, u32, u64)> {
    let text = include_str!("../data/perft.txt");
    assert!(
        text.contains("# Source:"),
        "perft data must name its source"
    );
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn check(max_depth: u32, min_depth: u32) {
    let mut checked = 0;
    for (name, depth, count) in cases() {
        if depth < min_depth || depth > max_depth {
            continue;
        }
        let Ok(v) = Variant::new(&name, &[]) else {
            eprintln!("variant {name} not implemented yet; skipping its perft");
            continue;
        };
        assert_eq!(
            perft(&v, &v.start(Player::South), depth),
            count,
            "{name} perft({depth})"
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
