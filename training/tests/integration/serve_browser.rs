//! `ayo serve` end to end in a real headless browser (Debian's `chromium`, driven through
//! `chromedriver` by WebDriver): starts the binary on a free loopback port, plays a whole game
//! of `ayo` against `greedy` by clicking the holes, opens "Display Runs" and "Show Runs in
//! Detail" and checks every board shown against the engine's own replay of the record, clicks a
//! hole that is not legal and checks that nothing changed, loads records of `ncho` and `yao` and
//! steps through them, and asks the shipped `ayo` network for its analysis.
//!
//! Screenshots of the page (play, runs, detail, yao, analysis) are written as
//! `serve-*.png` into `$AYO_SCREENSHOTS` (`docs/img` refreshes the README's), else into
//! `target/serve-screenshots`.
//!
//! The browser is required: without it the test fails and says how to install it
//! (`apt-get install -y chromium chromium-driver`; `scripts/test.sh` does).

use crate::common;

use ayo_env::{GameRecord, Rules, Snapshot};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Kills a child process when the test ends, however it ends.
struct Killed(Child);
impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `ayo serve --port 0`, and the address it printed.
fn start_server() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ayo"))
        .args(["serve", "--port", "0", "--models"])
        .arg(repo().join("models"))
        .stdout(Stdio::piped())
        .spawn()
        .expect("ayo serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("ayo serve printed no address: {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (Killed(child), url)
}

async fn start_browser() -> (Killed, Client, tempfile::TempDir) {
    for (path, what) in [(CHROMIUM, "chromium"), (CHROMEDRIVER, "chromedriver")] {
        assert!(
            Path::new(path).exists(),
            "{path} ({what}) is missing: this test drives a real headless browser. Install it with \
             `apt-get install -y chromium chromium-driver` (scripts/test.sh does this)."
        );
    }
    let port = free_port();
    let driver = Killed(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts"),
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver did not listen on {port}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let profile = tempfile::tempdir().unwrap();
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1100,1400",
                format!("--user-data-dir={}", profile.path().display()),
            ],
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session with chromium");
    (driver, client, profile)
}

/// Evaluates `expr` in the page.
async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return ({expr});"), vec![])
        .await
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// Waits until `expr` is truthy in the page; returns its value.
async fn wait_for(c: &Client, what: &str, expr: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = js(c, expr).await;
        if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
            return v;
        }
        if Instant::now() > deadline {
            let message = js(c, "document.getElementById('message').textContent").await;
            if let Ok(png) = c.screenshot().await {
                let _ = std::fs::write(screenshot_dir().join("failed.png"), png);
            }
            panic!("timed out waiting for {what} ({expr}); page message: {message}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits for the page to be idle (no request in flight).
async fn idle(c: &Client) {
    wait_for(
        c,
        "the page to be idle",
        "document.body.dataset.busy === '0'",
    )
    .await;
}

/// The board drawn in the element `#id` (or the element `css`), read from the buttons' and the
/// stores' labels: pits by pit index, stores South first.
async fn shown_board(c: &Client, css: &str) -> (Vec<u64>, Vec<u64>) {
    let v = js(
        c,
        &format!(
            "(() => {{ const el = document.querySelector({css:?});
                const pits = [...el.querySelectorAll('.pit')].map(b => [Number(b.dataset.pit), Number(b.querySelector('.count').textContent)]);
                pits.sort((a, b) => a[0] - b[0]);
                const store = p => Number(el.querySelector(`.store[data-player=${{p}}] .count`).textContent);
                return {{ pits: pits.map(p => p[1]), stores: [store('South'), store('North')] }}; }})()"
        ),
    )
    .await;
    let nums = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .collect()
    };
    (nums(&v["pits"]), nums(&v["stores"]))
}

/// What a snapshot should look like on the page: its pits, and its stores (Yao: its hands).
fn expected(s: &Snapshot, yao: bool) -> (Vec<u64>, Vec<u64>) {
    let pits = s.pits.iter().map(|&p| p as u64).collect();
    let side = if yao { s.hands } else { s.stores };
    (pits, side.iter().map(|&x| x as u64).collect())
}

async fn fetch_text(c: &Client, path: &str) -> String {
    let v = c
        .execute(
            "return fetch(arguments[0]).then(r => r.text());",
            vec![json!(path)],
        )
        .await
        .unwrap();
    v.as_str().unwrap().to_string()
}

fn screenshot_dir() -> PathBuf {
    let dir = match std::env::var_os("AYO_SCREENSHOTS") {
        Some(d) => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                d
            } else {
                repo().join(d)
            }
        }
        None => repo().join("target/serve-screenshots"),
    };
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

async fn screenshot(c: &Client, css: &str, name: &str) {
    let el = c.find(Locator::Css(css)).await.unwrap();
    let png = el.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG of {css}");
    std::fs::write(screenshot_dir().join(format!("serve-{name}.png")), png).unwrap();
}

/// A finished game of `variant`: greedy (South) against random.
fn agent_record(variant: &str, seed: u64) -> GameRecord {
    common::greedy_vs_random(variant, seed, false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_plays_shows_runs_and_reviews_in_a_headless_browser() {
    let (_server, url) = start_server();
    let (_driver, c, _profile) = start_browser().await;

    // A cold server: the first page load, until the page has asked for the variants and models.
    let t = Instant::now();
    c.goto(&format!("{url}/")).await.unwrap();
    wait_for(
        &c,
        "the page to start",
        "document.body.dataset.ready === 'init'",
    )
    .await;
    let cold = t.elapsed();
    // Its speed is measured by scripts/bench-serve.sh; this is only printed.
    eprintln!(
        "cold page load in the browser: {:.0} ms",
        cold.as_secs_f64() * 1e3
    );

    // ---- a whole game of ayo against greedy, by clicking ----
    js(&c, "(document.getElementById('variant').value = 'ayo', document.getElementById('variant').dispatchEvent(new Event('change')), 1)").await;
    js(
        &c,
        "(document.getElementById('opponent').value = 'greedy', 1)",
    )
    .await;
    c.find(Locator::Id("new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let id = wait_for(
        &c,
        "a game",
        "document.getElementById('board').dataset.game",
    )
    .await;
    let id = id.as_str().unwrap().to_string();
    idle(&c).await;
    let mut clicks = 0;
    let mut illegal_checked = false;
    loop {
        if js(&c, "document.getElementById('status').dataset.over === '1'").await == json!(true) {
            break;
        }
        let ply = js(&c, "document.getElementById('board').dataset.ply").await;
        let before = shown_board(&c, "#board").await;
        if !illegal_checked && ply != json!("0") {
            // A hole that is not legal now: clicking it changes nothing, here or on the server.
            let not_legal = c
                .find(Locator::Css("#board .pit:not(.legal)"))
                .await
                .expect("a hole that is not legal");
            let _ = not_legal.click().await;
            c.execute(
                "arguments[0].click();",
                vec![serde_json::to_value(&not_legal).unwrap()],
            )
            .await
            .unwrap();
            tokio::time::sleep(Duration::from_millis(300)).await;
            idle(&c).await;
            assert_eq!(
                shown_board(&c, "#board").await,
                before,
                "an illegal click changed the board"
            );
            assert_eq!(
                js(&c, "document.getElementById('board').dataset.ply").await,
                ply
            );
            let server: Value =
                serde_json::from_str(&fetch_text(&c, &format!("/api/games/{id}")).await).unwrap();
            assert_eq!(
                json!(server["ply"].to_string()),
                ply,
                "the server's game did not move"
            );
            illegal_checked = true;
        }
        let legal = c.find_all(Locator::Css("#board .pit.legal")).await.unwrap();
        assert!(!legal.is_empty(), "a live game offers a legal hole");
        legal[clicks % legal.len()].click().await.unwrap();
        clicks += 1;
        wait_for(
            &c,
            "the answer to a click",
            &format!("document.getElementById('board').dataset.ply !== {ply} && document.body.dataset.busy === '0'"),
        )
        .await;
        assert!(clicks < 400, "the game did not end");
    }
    assert!(illegal_checked);
    let status = js(&c, "document.getElementById('status').textContent").await;
    assert!(
        status.as_str().unwrap().starts_with("Game over"),
        "{status}"
    );
    screenshot(&c, "#play", "play").await;

    // The engine's own record of the game, replayed by the library.
    let record =
        GameRecord::from_json(&fetch_text(&c, &format!("/api/games/{id}/record")).await).unwrap();
    let replay = record.replay().expect("the page's game replays");
    assert_eq!(record.seats[1], "greedy");
    assert!(record.outcome.is_some());
    assert_eq!(
        shown_board(&c, "#board").await,
        expected(&record.boards[record.boards.len() - 1], false)
    );

    // ---- Display Runs: the board after every move ----
    c.find(Locator::Id("display-runs"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        &c,
        "the runs",
        &format!(
            "document.getElementById('runs-list').dataset.count === '{}'",
            record.actions.len()
        ),
    )
    .await;
    assert_eq!(
        shown_board(&c, "#runs-list .run[data-index='0'] .board").await,
        expected(&replay.rules.snapshot(&replay.states[0]), false)
    );
    for (i, board) in record.boards.iter().enumerate() {
        let shown = shown_board(
            &c,
            &format!("#runs-list .run[data-index='{}'] .board", i + 1),
        )
        .await;
        assert_eq!(
            shown,
            expected(board, false),
            "Display Runs, board after move {}",
            i + 1
        );
    }
    screenshot(&c, "#runs", "runs").await;

    // ---- Show Runs in Detail: every drop of a move that captures ----
    let k = (0..record.actions.len())
        .find(|&i| {
            let before = replay.rules.snapshot(&replay.states[i]);
            record.boards[i].stores != before.stores && replay.drops[i].len() >= 3
        })
        .unwrap_or(0)
        + 1;
    c.find(Locator::Css(&format!("#runs-list .run[data-index='{k}']")))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        &c,
        "the detail",
        &format!("document.getElementById('detail-title').textContent.startsWith('Move {k}:')"),
    )
    .await;
    assert_eq!(
        shown_board(&c, "#detail-board").await,
        expected(&replay.rules.snapshot(&replay.states[k - 1]), false)
    );
    let drops = &replay.drops[k - 1];
    for (d, drop) in drops.iter().enumerate() {
        c.find(Locator::Id("drop-next"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(
            shown_board(&c, "#detail-board").await,
            expected(drop, false),
            "move {k}, drop {}",
            d + 1
        );
        if d == drops.len() / 2 {
            screenshot(&c, "#detail", "detail").await;
        }
    }
    c.find(Locator::Id("drop-last"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    assert_eq!(
        shown_board(&c, "#detail-board").await,
        expected(&record.boards[k - 1], false),
        "after move {k}"
    );
    let events = js(&c, "document.getElementById('detail-events').textContent").await;
    if record.boards[k - 1].stores != replay.rules.snapshot(&replay.states[k - 1]).stores {
        assert!(
            events.as_str().unwrap().contains("takes"),
            "the capture is marked: {events}"
        );
    }

    // ---- Review: records of ncho and yao, stepped through ----
    let dir = tempfile::tempdir().unwrap();
    for variant in ["ncho", "yao"] {
        let record = agent_record(variant, 11);
        let path = dir.path().join(format!("{variant}.json"));
        std::fs::write(&path, record.to_json()).unwrap();
        let input = c.find(Locator::Id("record-file")).await.unwrap();
        input.send_keys(&path.to_string_lossy()).await.unwrap();
        wait_for(
            &c,
            "the review",
            &format!(
                "document.getElementById('status').textContent.startsWith('Review: {variant}')"
            ),
        )
        .await;
        idle(&c).await;
        let yao = variant == "yao";
        let start = record.replay().unwrap();
        assert_eq!(
            shown_board(&c, "#board").await,
            expected(&start.rules.snapshot(&start.states[0]), yao)
        );
        let steps = record.actions.len().min(12);
        for i in 0..steps {
            c.find(Locator::Id("next"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            wait_for(
                &c,
                "the next move",
                &format!(
                    "document.getElementById('board').dataset.ply === '{}'",
                    i + 1
                ),
            )
            .await;
            assert_eq!(
                shown_board(&c, "#board").await,
                expected(&record.boards[i], yao),
                "{variant}, after move {}",
                i + 1
            );
            assert!(
                c.find_all(Locator::Css("#board .pit.legal"))
                    .await
                    .unwrap()
                    .is_empty(),
                "a review is not played"
            );
        }
        if yao {
            screenshot(&c, "#play", "yao").await;
        }
        c.find(Locator::Id("last"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        wait_for(
            &c,
            "the last move",
            &format!(
                "document.getElementById('board').dataset.ply === '{}'",
                record.actions.len()
            ),
        )
        .await;
        assert_eq!(
            shown_board(&c, "#board").await,
            expected(record.boards.last().unwrap(), yao)
        );
    }

    // ---- Analysis by the shipped ayo network ----
    js(&c, "(document.getElementById('variant').value = 'ayo', document.getElementById('variant').dispatchEvent(new Event('change')), 1)").await;
    c.find(Locator::Id("new-game"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&c, "a new game", &format!("document.getElementById('board').dataset.game !== '{id}' && document.getElementById('board').dataset.ply === '0'")).await;
    idle(&c).await;
    c.find(Locator::Css("#board .pit.legal"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(&c, "the answer", "document.getElementById('board').dataset.ply === '2' && document.body.dataset.busy === '0'").await;
    c.find(Locator::Id("show-analysis"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let checkpoint = wait_for(
        &c,
        "the checkpoints",
        "document.getElementById('checkpoint').value",
    )
    .await;
    assert!(
        checkpoint.as_str().unwrap().ends_with("ayo-1h.ot"),
        "{checkpoint}"
    );
    c.find(Locator::Id("analyse"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_for(
        &c,
        "the analysis",
        "document.getElementById('analysis-out').dataset.done === '1'",
    )
    .await;
    let rows = c
        .find_all(Locator::Css("#analysis-out tr[data-action]"))
        .await
        .unwrap();
    let legal = c.find_all(Locator::Css("#board .pit.legal")).await.unwrap();
    assert_eq!(rows.len(), legal.len(), "one row per legal hole");
    let text = js(&c, "document.getElementById('analysis-out').textContent").await;
    assert!(text.as_str().unwrap().contains("32 simulations"), "{text}");
    screenshot(&c, "main", "analysis").await;

    c.close().await.unwrap();
}
