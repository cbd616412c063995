//! Random-play statistics of the relay variants: match lengths and the longest finite relay.
//! `cargo run --release -p ayo-env --example relay_stats -- ncho 200`
use ayo_env::variants::fours::{Episode, Fours, FoursRules};
use ayo_env::variants::relay::RelayEnd;
use ayo_env::variants::{adi::AdiRules, jerin::JerinRules, ncho::NchoRules};
use ayo_env::{Player, Rules};
use rand::{Rng, SeedableRng};

fn run<V: FoursRules>(games: u32) {
    let v = Fours::<V>::with_episode(Episode::Match);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let mut lengths = Vec::new();
    let mut rounds = Vec::new();
    let mut longest = 0;
    for _ in 0..games {
        let mut s = v.start(Player::South);
        while !v.is_terminal(&s) && s.ply < 200_000 {
            let m = v.legal_mask(&s);
            let a = m.nth(rng.gen_range(0..m.count())).unwrap();
            let r = v.relay_laps(&s, a);
            assert_ne!(r.end, RelayEnd::NeverEnds);
            longest = longest.max(r.laps);
            v.play_unchecked(&mut s, a);
        }
        lengths.push(s.ply);
        rounds.push(s.position.round);
    }
    lengths.sort();
    rounds.sort();
    let n = lengths.len();
    println!(
        "{}: {games} matches: plies min {} median {} p90 {} max {}; rounds median {} max {}; longest relay {longest} laps",
        V::NAME, lengths[0], lengths[n / 2], lengths[n * 9 / 10], lengths[n - 1], rounds[n / 2], rounds[n - 1]
    );
}

fn run_jodu(games: u32) {
    use ayo_env::variants::jodu::Jodu;
    let v = Jodu;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let (mut lengths, mut longest, mut never) = (Vec::new(), 0, 0u64);
    let mut detect = (0, String::new());
    for _ in 0..games {
        let mut s = v.start(Player::South);
        while !v.is_terminal(&s) && s.ply < 100_000 {
            for a in 0..6 {
                if s.position.pits[ayo_env::board::pit_of(s.position.to_move, a)] > 0 {
                    let r = v.relay_laps(&s, a as u8);
                    if r.end == RelayEnd::NeverEnds {
                        never += 1;
                        if r.laps > detect.0 {
                            detect = (r.laps, format!("{} action {a}", v.notation(&s)));
                        }
                    }
                }
            }
            let m = v.legal_mask(&s);
            let a = m.nth(rng.gen_range(0..m.count())).unwrap();
            longest = longest.max(v.relay_laps(&s, a).laps);
            v.play_unchecked(&mut s, a);
        }
        lengths.push(s.ply);
    }
    lengths.sort();
    let n = lengths.len();
    println!(
        "jodu: {games} games: plies min {} median {} max {}; longest relay {longest} laps; {never} never-ending moves met",
        lengths[0], lengths[n / 2], lengths[n - 1]
    );
    println!(
        "slowest never-ending relay to detect: {} laps, {}",
        detect.0, detect.1
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games = args.get(2).and_then(|g| g.parse().ok()).unwrap_or(100);
    match args.get(1).map(String::as_str).unwrap_or("ncho") {
        "ncho" => run::<NchoRules>(games),
        "adi" => run::<AdiRules>(games),
        "jerin" => run::<JerinRules>(games),
        "jodu" => run_jodu(games),
        other => panic!("unknown {other}"),
    }
}
