//! A distributed run end to end: a learner and two self-play workers as separate `ayo`
//! processes sharing a temporary folder, then an S3-compatible bucket (moto's server on
//! loopback, started and stopped here). Networks advance and the workers pick them up; a worker
//! killed with SIGKILL leaves no partial shard that the learner reads; the learner, killed with
//! SIGKILL and resumed, goes on with the same counters and consumes every shard exactly once
//! (its positions and games are the sums over all shards in storage).

use ayo_train::distributed::{self, SHARDS};
use ayo_train::shard::Shard;
use ayo_train::storage::Storage;
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"
variant = "oware"
width = 16
blocks = 1
simulations = 4
fast_simulations = 2
games = 16
max_plies = 60
buffer_size = 4096
min_buffer = 64
batch_size = 32
replay_ratio = 1.0
shard_positions = 128
publish_every_steps = 20
checkpoint_every_s = 1.0
eval_every_s = 0.0
selfplay_threads = 1
"#;

/// A child process killed (SIGKILL) when dropped, however the test ends.
struct Proc(Child);
impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn ayo(args: &[&str], env: &[(&str, String)], log: &Path) -> Proc {
    let out = std::fs::File::create(log).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ayo"));
    cmd.args(args).stdout(out.try_clone().unwrap()).stderr(out);
    for (k, v) in env {
        cmd.env(k, v);
    }
    Proc(cmd.spawn().expect("ayo starts"))
}

fn wait_until(what: &str, timeout: Duration, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn status(dir: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("status.json")).ok()?).ok()
}

fn consumed(s: &Value) -> BTreeSet<String> {
    s["consumed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// The shard the test cuts short on purpose.
const PARTIAL: &str = "shards/zz-partial.shard";

/// Every shard in storage but [`PARTIAL`], decoded (a partial or corrupt one fails the test).
fn shards(store: &Storage) -> Vec<(String, Shard)> {
    store
        .list(SHARDS)
        .unwrap()
        .into_iter()
        .filter(|k| k.ends_with(".shard") && k != PARTIAL)
        .map(|k| {
            let bytes = store.get(&k).unwrap().unwrap();
            let shard = Shard::decode(&k, &bytes, 14, 6)
                .unwrap_or_else(|e| panic!("a partial shard in storage: {e}"));
            (k, shard)
        })
        .collect()
}

fn distributed_run(url: &str, env: &[(&str, String)]) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("tiny.toml"), CONFIG).unwrap();
    let config = d.join("tiny.toml");
    let learner_dir = d.join("learner");
    let (cfg, out) = (config.to_str().unwrap(), learner_dir.to_str().unwrap());
    let learner_args = [
        "train",
        "--config",
        cfg,
        "--run",
        url,
        "--learner",
        "--out",
        out,
    ];
    let mut learner = ayo(&learner_args, env, &d.join("learner.log"));
    let store = Storage::open(url).unwrap();
    let mut a = ayo(
        &["selfplay", "--run", url, "--worker", "a"],
        env,
        &d.join("a.log"),
    );
    let b = ayo(
        &["selfplay", "--run", url, "--worker", "b"],
        env,
        &d.join("b.log"),
    );

    // Networks advance, and the workers play the newer ones.
    wait_until(
        "a published network beyond step 0",
        Duration::from_secs(180),
        || {
            distributed::latest_step(&store)
                .unwrap()
                .is_some_and(|s| s > 0)
        },
    );
    wait_until(
        "shards played by a newer network",
        Duration::from_secs(180),
        || shards(&store).iter().any(|(_, s)| s.model_step > 0),
    );
    let played_by: BTreeSet<u64> = shards(&store).iter().map(|(_, s)| s.model_step).collect();
    assert!(
        played_by.len() >= 2,
        "shards of several networks: {played_by:?}"
    );

    // A worker killed while it works leaves only whole shards. (Both workers share the CPU with
    // the learner: wait for worker a's first shard rather than assume it has written one.)
    wait_until("a shard of worker a", Duration::from_secs(180), || {
        shards(&store).iter().any(|(k, _)| k.contains("/a-"))
    });
    let _ = a.0.kill();
    let _ = a.0.wait();
    let after_kill = shards(&store);
    assert!(after_kill.iter().any(|(k, _)| k.contains("/a-")));
    // A shard cut short under its final name (a store without atomic writes, a disk error) is
    // refused by its checksum, not read.
    let (_, whole) = &after_kill[0];
    let bytes = whole.encode(14, 6);
    store
        .put(PARTIAL, bytes[..bytes.len() / 2].to_vec())
        .unwrap();

    // The learner killed and resumed goes on from its last saved state.
    wait_until("a saved learner state", Duration::from_secs(60), || {
        status(&learner_dir).is_some()
    });
    let _ = learner.0.kill();
    let _ = learner.0.wait();
    let saved = status(&learner_dir).unwrap();
    let mut resumed = learner_args.to_vec();
    resumed.push("--resume");
    learner = ayo(&resumed, env, &d.join("learner2.log"));
    wait_until(
        "the resumed learner to save",
        Duration::from_secs(120),
        || status(&learner_dir).is_some_and(|s| s["step"].as_u64() > saved["step"].as_u64()),
    );
    let later = status(&learner_dir).unwrap();
    for key in ["positions", "games", "samples"] {
        assert!(
            later[key].as_u64() >= saved[key].as_u64(),
            "{key}: {} then {}",
            saved[key],
            later[key]
        );
    }
    assert!(consumed(&later).is_superset(&consumed(&saved)));

    // Every shard consumed exactly once: stop the worker, let the learner catch up, stop it.
    drop(b);
    let all = shards(&store);
    let names: BTreeSet<String> = all.iter().map(|(k, _)| k.clone()).collect();
    wait_until(
        "the learner to consume every shard",
        Duration::from_secs(120),
        || status(&learner_dir).is_some_and(|s| consumed(&s) == names),
    );
    unsafe { libc::kill(learner.0.id() as i32, libc::SIGINT) };
    let _ = learner.0.wait();
    let last = status(&learner_dir).unwrap();
    assert_eq!(consumed(&last), names);
    let positions: u64 = all.iter().map(|(_, s)| s.samples.len() as u64).sum();
    let games: u64 = all.iter().map(|(_, s)| s.games as u64).sum();
    assert_eq!(
        last["positions"].as_u64().unwrap(),
        positions,
        "positions: each shard counted once"
    );
    assert_eq!(
        last["games"].as_u64().unwrap(),
        games,
        "games: each shard counted once"
    );
    let log = std::fs::read_to_string(d.join("learner.log")).unwrap()
        + &std::fs::read_to_string(d.join("learner2.log")).unwrap();
    assert!(
        log.contains(&format!("refused: shard {PARTIAL}: checksum mismatch")),
        "{log}"
    );
    assert_eq!(
        log.matches("refused").count(),
        log.matches(PARTIAL).count(),
        "{log}"
    );
}

#[test]
fn learner_and_workers_on_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    distributed_run(dir.path().join("store").to_str().unwrap(), &[]);
}

/// moto's S3 server from the project virtualenv (scripts/setup-venv.sh installs it).
fn moto_server() -> PathBuf {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/moto_server");
    assert!(
        venv.exists(),
        "{} is missing: the S3 test needs moto's server (bash scripts/setup-venv.sh installs it)",
        venv.display()
    );
    venv
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `PUT /bucket` to the S3 server (moto takes unsigned requests).
fn create_bucket(port: u16, bucket: &str) {
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "PUT /{bucket} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn learner_and_workers_on_an_s3_bucket() {
    let port = free_port();
    let _server = Proc(
        Command::new(moto_server())
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server starts"),
    );
    wait_until("moto's server", Duration::from_secs(60), || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    });
    create_bucket(port, "ayo-test");
    let env = [
        ("AWS_ENDPOINT", format!("http://127.0.0.1:{port}")),
        ("AWS_ALLOW_HTTP", "true".to_string()),
        ("AWS_ACCESS_KEY_ID", "test".to_string()),
        ("AWS_SECRET_ACCESS_KEY", "test".to_string()),
        ("AWS_REGION", "us-east-1".to_string()),
    ];
    for (k, v) in &env {
        std::env::set_var(k, v); // for this process's own Storage
    }
    distributed_run("s3://ayo-test/run1", &env);
}
