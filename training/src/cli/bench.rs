//! `ayo bench`: steps per second of the scalar engine and of the vectorised env, the bytes a
//! game takes, and the time of an `alphabeta:8` search from the start position; with
//! `--checkpoint`, the network's forward passes per second and its alpha-beta search's nodes.

use anyhow::Result;
use ayo_env::arena::agents::AlphaBeta;
use ayo_env::perft::random_walk;
use ayo_env::rng::Rng;
use ayo_env::{Buffers, FirstPlayer, Player, Rules, VecEnv, VecEnvConfig};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// Variant name, e.g. `oware`.
    #[arg(long, default_value = "oware")]
    variant: String,
    /// Options as `key=value,key=value`.
    #[arg(long)]
    options: Option<String>,
    /// Games in the vectorised env.
    #[arg(long, default_value_t = 4096)]
    envs: usize,
    /// Threads of the vectorised env (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The vectorised env writes this many plies of look-ahead features into each observation
    /// row (`VecEnvConfig::lookahead`; `--lookahead` alone: 1): what they cost per step.
    #[arg(long, default_value_t = 0, num_args = 0..=1, default_missing_value = "1",
          value_parser = ayo_env::input::parse_lookahead)]
    lookahead: u8,
    /// Seconds to time each measurement (after a short warm-up).
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// A checkpoint whose network is timed too: forward passes with libtorch and without
    /// (batches of 1, 6 and 64 positions: a timed Gumbel search's, alpha-beta's horizon's,
    /// a batched search's), and its alpha-beta search (`PATH@TIME+ab`) for `--seconds` from
    /// the start position.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
}

pub fn run(a: Args) -> Result<()> {
    let v = super::variant(&a.variant, a.options.as_deref())?;
    println!(
        "variant {}  (load average {}; rates per CPU-second stay meaningful on a busy machine)",
        v.id(),
        load_average()
    );

    let (steps, games, t) = scalar_random_play(&v, a.seconds);
    println!(
        "scalar engine, random self-play, legality + terminal checks, 1 thread: \
         {:>6.2} M steps per CPU-second ({:.2} M/s wall; {} games, {:.1} plies/game)",
        steps as f64 / t.cpu / 1e6,
        steps as f64 / t.wall / 1e6,
        games,
        steps as f64 / games.max(1) as f64
    );

    let config = VecEnvConfig {
        num_envs: a.envs,
        threads: a.threads,
        seed: 1,
        max_plies: Some(1000),
        first: FirstPlayer::Alternate,
        lookahead: a.lookahead,
    };
    let rss_before = resident_bytes();
    let mut env = VecEnv::new(v.clone(), config)?;
    let (steps, t) = vec_env_random_play(&mut env, a.seconds)?;
    let threads = env.threads() as f64;
    println!(
        "VecEnv, random actions, observations{} + masks, {} games, {} threads: \
         {:>6.2} M steps/s on {} idle cores ({:.2} M per CPU-second; {:.2} M/s wall)",
        match a.lookahead {
            0 => String::new(),
            plies => format!(" with {plies} plies of look-ahead features"),
        },
        env.num_envs(),
        env.threads(),
        steps as f64 / t.cpu * threads / 1e6,
        env.threads(),
        steps as f64 / t.cpu / 1e6,
        steps as f64 / t.wall / 1e6
    );

    let resident = resident_bytes().saturating_sub(rss_before) as f64;
    println!(
        "bytes per game: state {} (size_of: a fixed size; the variants with a repetition rule keep \
         {} keys inline and allocate only past that many positions without a capture); in a VecEnv {} with its buffers and \
         the kept final game; resident memory grew {:.1} MB for {} games, {:.0} per game (fixed \
         costs dominate below ~100000 games)",
        v.state_size(),
        ayo_env::repetition::INLINE,
        per_game_bytes(&env),
        resident / 1e6,
        env.num_envs(),
        resident / env.num_envs() as f64
    );

    let start = v.start(Player::South);
    let (cpu, wall) = (cpu_seconds(true), Instant::now());
    let (action, score, nodes) = AlphaBeta::new(8, 1).search(&v, &start);
    println!(
        "alphabeta:8 from the start position: {:.3} CPU-seconds ({:.3} s wall), {} nodes, plays {} (score {})",
        cpu_seconds(true) - cpu,
        wall.elapsed().as_secs_f64(),
        nodes,
        v.action_name(&start, action),
        score
    );
    if let Some(path) = &a.checkpoint {
        network(&v, path, a.seconds)?;
    }
    Ok(())
}

/// Forward passes of the checkpoint at `path` per second, and its alpha-beta search's nodes.
fn network(v: &ayo_env::Variant, path: &Path, seconds: f64) -> Result<()> {
    use ayo_train::net::Network;
    let nets: [(&str, Box<dyn Network>); 2] = [
        ("libtorch", ayo_train::checkpoint::read(path)?.0),
        (
            "CPU, no libtorch",
            Box::new(ayo_train::checkpoint::read_cpu(path)?.0),
        ),
    ];
    // Positions of random play.
    let mut rng = Rng::stream(3, &[]);
    let mut states = Vec::new();
    while states.len() < 64 {
        let mut s = v.start(Player::South);
        for _ in 0..rng.below(60) {
            if v.to_play(&s).is_none() {
                break;
            }
            let a = rng.pick(v.legal_mask(&s));
            v.play_unchecked(&mut s, a);
        }
        if v.to_play(&s).is_some() {
            states.push(s);
        }
    }
    for (name, net) in &nets {
        let shape = net.shape();
        for batch in [1, 6, 64] {
            let mut obs = vec![0.0; batch * shape.inputs];
            for (i, s) in states[..batch].iter().enumerate() {
                shape.encode(v, s, &mut obs[i * shape.inputs..(i + 1) * shape.inputs]);
            }
            let (mut logits, mut values) = (vec![0.0; batch * shape.actions], vec![0.0; batch]);
            let (n, t) = timed(seconds, false, || {
                net.evaluate(&obs, batch, &mut logits, &mut values, None);
                batch as u64
            });
            println!(
                "network ({name}), batches of {batch:>2}: {:>8.0} positions/s wall ({:.0} per \
                 CPU-second of the process), {:>6.1} µs per forward pass",
                n as f64 / t.wall,
                n as f64 / t.cpu,
                t.wall / (n as f64 / batch as f64) * 1e6
            );
        }
    }
    let movetime = Duration::from_secs_f64(seconds);
    let mut agent = ayo_train::agent::NetAgent::load_cpu(path, 0, 1)?.with_alpha_beta(movetime);
    let start = v.start(Player::South);
    let mut iterations = 0;
    let (action, analysis) =
        ayo_env::Agent::think(&mut agent, v, &start, ayo_env::Budget::Own, &mut |_| {
            iterations += 1;
            true
        });
    println!(
        "{} from the start position: {} iterations (plies), {} nodes ({:.0} per second), plays {}",
        ayo_env::Agent::name(&agent),
        iterations,
        analysis.work,
        analysis.work as f64 / seconds,
        v.action_name(&start, action)
    );
    // A game of `alphabeta:6` against itself, searched position after position as in a game.
    let mut line = vec![start.clone()];
    let mut baseline = AlphaBeta::new(6, 1);
    while line.len() < 80 {
        let mut s = line[line.len() - 1].clone();
        if v.to_play(&s).is_none() {
            break;
        }
        let a = baseline.search(v, &s).0;
        v.play_unchecked(&mut s, a);
        line.push(s);
    }
    let net = ayo_train::checkpoint::read_cpu(path)?.0;
    let depth = 8;
    let mut search = AlphaBeta::new(depth, 1);
    let mut leaf = ayo_train::agent::NetLeaf::new(&net);
    let (mut nodes, mut searched) = (0, 0);
    let wall = Instant::now();
    for s in line.iter().filter(|s| v.to_play(s).is_some()) {
        nodes += search
            .think_with(v, s, &mut leaf, ayo_env::Budget::Own, &mut |_| true)
            .1
            .work;
        searched += 1;
    }
    let t = wall.elapsed().as_secs_f64();
    println!(
        "the same search to depth {depth} in each position of a game of alphabeta:6: \
         {searched} positions in {t:.2} s ({:.1} ms each), {nodes} nodes, {} positions evaluated \
         ({:.0} each)",
        t * 1e3 / searched as f64,
        leaf.evaluations,
        leaf.evaluations as f64 / searched as f64
    );
    Ok(())
}

/// Wall and CPU seconds of a measurement.
pub struct Timing {
    pub wall: f64,
    pub cpu: f64,
}

/// Runs `work` (which returns its step count) until it has used `seconds` of CPU (of this
/// thread, or of the process when `thread` is false), or 20 times that in wall time.
fn timed(seconds: f64, thread: bool, mut work: impl FnMut() -> u64) -> (u64, Timing) {
    work();
    let (wall, cpu) = (Instant::now(), cpu_seconds(thread));
    let mut steps = 0;
    while cpu_seconds(thread) - cpu < seconds && wall.elapsed().as_secs_f64() < 20.0 * seconds {
        steps += work();
    }
    let t = Timing {
        wall: wall.elapsed().as_secs_f64(),
        cpu: cpu_seconds(thread) - cpu,
    };
    (steps, t)
}

/// CPU seconds used so far by the calling thread (`thread = true`) or by the whole process.
/// Timing by CPU time keeps the figures meaningful while other jobs share the cores.
pub fn cpu_seconds(thread: bool) -> f64 {
    let clock = if thread {
        libc::CLOCK_THREAD_CPUTIME_ID
    } else {
        libc::CLOCK_PROCESS_CPUTIME_ID
    };
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and `clock` a clock id Linux knows.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Random self-play with one game at a time: each step asks for the legal mask (empty = over,
/// then a new game starts), picks a legal action uniformly and plays it with the checked `play`.
/// Returns actions played, games finished and the timing.
pub fn scalar_random_play<R: Rules>(rules: &R, seconds: f64) -> (u64, u64, Timing) {
    let mut rng = Rng::new(7);
    let mut s = rules.start(Player::South);
    let mut games = 0;
    let (steps, t) = timed(seconds, true, || {
        let (played, finished) = random_walk(rules, &mut s, &mut rng, 1_000_000);
        games += finished;
        played
    });
    (steps, games, t)
}

/// The vectorised env stepped with random legal actions; returns game steps and the timing
/// (CPU time of the whole process).
pub fn vec_env_random_play<R: Rules>(env: &mut VecEnv<R>, seconds: f64) -> Result<(u64, Timing)> {
    let mut buf = Buffers::new(env);
    env.reset(None, &mut buf.view_mut())?;
    let mut actions = vec![0; env.num_envs()];
    let (steps, t) = timed(seconds, false, || {
        for _ in 0..10 {
            env.sample_actions(&mut actions);
            env.step(&actions, &mut buf.view_mut())
                .expect("sampled actions are legal");
        }
        10 * env.num_envs() as u64
    });
    Ok((steps, t))
}

/// Bytes a VecEnv holds per game: the live and the kept final state, the buffers (observation,
/// final observation, mask, player, rewards, flags), the random stream and episode counter.
fn per_game_bytes<R: Rules>(env: &VecEnv<R>) -> usize {
    let state = env.rules().state_size();
    let obs = 4 * env.observation_len();
    2 * state + 2 * obs + env.num_actions() + 1 + 8 + 2 + 8 + 4 + 8
}

/// Resident memory of the process (`VmRSS`), in bytes.
fn resident_bytes() -> usize {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}
