//! Random yao games: decision steps per second (one thread) and the game lengths.
//! `cargo run --release -p ayo-env --example yao_random [games] [options, e.g. max_chain=4096]`
use ayo_env::{Player, Rules, Variant};
use std::time::Instant;

fn main() {
    let games: usize = std::env::args().nth(1).map_or(2000, |a| a.parse().unwrap());
    let opts = Variant::parse_options(&std::env::args().nth(2).unwrap_or_default()).unwrap();
    let v = Variant::new("yao", &opts).unwrap();
    let mut rng = 0x9e3779b97f4a7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut steps, mut lengths, mut wins, mut capped) = (0u64, Vec::new(), [0; 3], 0);
    let t = Instant::now();
    for _ in 0..games {
        let mut s = v.start(Player::South);
        let mut n = 0;
        while !v.is_terminal(&s) && n < 100_000 {
            let m = v.legal_mask(&s);
            let a = m.nth((next() % m.count() as u64) as u32).unwrap();
            v.play_unchecked(&mut s, a);
            n += 1;
        }
        if !v.is_terminal(&s) {
            capped += 1;
        }
        let r = v.returns(&s);
        wins[if r[0] > 0.0 {
            0
        } else if r[1] > 0.0 {
            1
        } else {
            2
        }] += 1;
        steps += n;
        lengths.push(n);
    }
    let secs = t.elapsed().as_secs_f64();
    lengths.sort_unstable();
    let q = |f: f64| lengths[((lengths.len() - 1) as f64 * f) as usize];
    println!(
        "{games} games, {steps} steps in {secs:.2}s = {:.0} steps/s; plies min {} median {} p90 {} p99 {} max {}; over 1000: {}; wins S/N/draw {:?}; unfinished {capped}",
        steps as f64 / secs,
        q(0.0), q(0.5), q(0.9), q(0.99), q(1.0),
        lengths.iter().filter(|&&l| l > 1000).count(),
        wins
    );
}
