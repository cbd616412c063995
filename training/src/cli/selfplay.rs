//! `ayo selfplay --run URL`: a self-play worker of a distributed run (see
//! `ayo_train::distributed`).

use anyhow::Result;
use ayo_env::Rules;
use ayo_train::distributed::Worker;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(clap::Args)]
pub struct Args {
    /// The run's storage: a folder, file:///path or s3://bucket/prefix (AWS_* variables).
    #[arg(long)]
    run: String,
    /// This worker's name (letters, digits, '_', '.'): its shards are named after it.
    #[arg(long, default_value = "worker")]
    worker: String,
    /// Stop after writing this many shards (default: until stopped).
    #[arg(long)]
    shards: Option<u64>,
    /// Stop after this many minutes.
    #[arg(long)]
    minutes: Option<f64>,
    /// Seconds to wait for the learner's config and first network.
    #[arg(long, default_value_t = 300.0)]
    wait: f64,
}

static STOP: AtomicBool = AtomicBool::new(false);

pub fn run(a: Args) -> Result<()> {
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
        ^ (std::process::id() as u64) << 32;
    let mut w = Worker::join(&a.run, &a.worker, nonce, Duration::from_secs_f64(a.wait))?;
    tch::set_num_threads(w.cfg.threads as i32);
    super::stop_on_interrupt(&STOP);
    println!(
        "worker {} on {}: {} games of {}, network of step {}, {} positions per shard",
        a.worker,
        a.run,
        w.cfg.games,
        w.rules.id(),
        w.model_step,
        w.cfg.shard_positions
    );
    let start = Instant::now();
    let mut written = 0u64;
    while !STOP.load(Ordering::SeqCst)
        && a.shards.is_none_or(|n| written < n)
        && a.minutes
            .is_none_or(|m| start.elapsed().as_secs_f64() < m * 60.0)
    {
        let t = Instant::now();
        let (key, positions) = w.play_shard()?;
        written += 1;
        println!(
            "{key}: {positions} positions in {:.1} s ({:.0} positions/s), network of step {}",
            t.elapsed().as_secs_f64(),
            positions as f64 / t.elapsed().as_secs_f64(),
            w.model_step
        );
        if w.refresh()? {
            println!("now playing the network of step {}", w.model_step);
        }
    }
    Ok(())
}
