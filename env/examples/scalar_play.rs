//! Fixed-work random self-play, for `perf stat` (cycles and instructions per step do not depend
//! on how busy the machine is): `cargo run --release --example scalar_play -- oware 20000000 [concrete]`
//! (`concrete`: the `Oware` type itself rather than the runtime `Variant`).

use ayo_env::perft::random_walk;
use ayo_env::rng::Rng;
use ayo_env::{Player, Rules, Variant};

fn play<R: Rules>(rules: &R, steps: u64) -> u64 {
    let mut s = rules.start(Player::South);
    random_walk(rules, &mut s, &mut Rng::new(7), steps).1
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("oware", String::as_str);
    let steps = args
        .get(2)
        .map_or(20_000_000, |s| s.parse().expect("a step count"));
    let t = std::time::Instant::now();
    let games = if args.get(3).is_some_and(|a| a == "concrete") {
        play(&ayo_env::variants::oware::Oware::default(), steps)
    } else {
        play(&name.parse::<Variant>().expect("a variant name"), steps)
    };
    eprintln!("{name}: {steps} steps, {games} games, {:.2?}", t.elapsed());
}
