//! Criterion benches of the engine: perft (asserting the published counts while it times),
//! scalar random play, and one `VecEnv` step of 4096 games with observations and masks.
//! Run with `cargo bench -p ayo-env --bench step`.

use ayo_env::rng::Rng;
use ayo_env::{
    perft, Buffers, FirstPlayer, Player, Rules, Variant, VecEnv, VecEnvConfig, VARIANT_NAMES,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    let cases = perft::parse_perft_file(include_str!("../../tests/data/perft.txt"))
        .expect("a valid perft file");
    for perft::PerftCase {
        variant: name,
        depth,
        count,
    } in cases
    {
        // Depths of 100 000 to 1 000 000 sequences: long enough to time, short enough to repeat.
        if !(100_000..1_000_000).contains(&count) {
            continue;
        }
        let v: Variant = name
            .parse()
            .unwrap_or_else(|e| panic!("perft file names variant {name}: {e}"));
        let start = v.start(Player::South);
        g.throughput(Throughput::Elements(count));
        g.bench_function(format!("{name} depth {depth}"), |b| {
            b.iter(|| {
                assert_eq!(
                    perft::perft(&v, &start, depth),
                    count,
                    "{name} perft({depth})"
                )
            })
        });
    }
    g.finish();
}

fn bench_random_play(c: &mut Criterion) {
    const STEPS: u64 = 100_000;
    let mut g = c.benchmark_group("scalar random play");
    g.throughput(Throughput::Elements(STEPS));
    for name in VARIANT_NAMES {
        let v: Variant = name.parse().unwrap();
        let mut rng = Rng::new(1);
        let mut s = v.start(Player::South);
        g.bench_function(*name, |b| {
            b.iter(|| perft::random_walk(&v, &mut s, &mut rng, STEPS))
        });
    }
    g.finish();
}

fn bench_vec_env(c: &mut Criterion) {
    const N: usize = 4096;
    let mut g = c.benchmark_group("VecEnv step, 4096 games, obs + masks");
    g.throughput(Throughput::Elements(N as u64));
    for name in VARIANT_NAMES {
        for threads in [1, 2] {
            let config = VecEnvConfig {
                num_envs: N,
                threads,
                seed: 1,
                max_plies: Some(1000),
                first: FirstPlayer::Alternate,
                lookahead: 0,
            };
            let mut env = VecEnv::from_spec(name, &[], config).unwrap();
            let mut buf = Buffers::new(&env);
            env.reset(None, &mut buf.view_mut()).unwrap();
            let mut actions = vec![0; N];
            g.bench_function(format!("{name}, {threads} threads"), |b| {
                b.iter(|| {
                    env.sample_actions(&mut actions);
                    env.step(&actions, &mut buf.view_mut()).unwrap();
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench_perft, bench_random_play, bench_vec_env);
criterion_main!(benches);
