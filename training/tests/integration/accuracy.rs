//! `ayo accuracy` and `ayo evaluate --tablebase`: an agent's moves on endgame positions judged
//! by a small table built here, against the same judgement made through the library.

use super::common::{assert_success, ayo};
use ayo_env::arena::agents;
use ayo_env::tablebase::{accuracy, build_tables, Game, Index, Tablebase};
use ayo_env::{Rules, Variant};

/// Boards of 3 seeds (every one proved within the search cap), South to move with the stores
/// level, one per line.
fn positions() -> String {
    let index = Index::get();
    let row = |r: &[u8]| {
        r.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    (0..index.boards(3))
        .step_by(3)
        .map(|rank| {
            let pits = index.unrank(rank, 3);
            format!("{} {} | 22 23 | 0\n", row(&pits[..6]), row(&pits[6..]))
        })
        .collect()
}

#[test]
fn accuracy_and_evaluate_judge_moves_as_the_library_does() {
    let dir = tempfile::tempdir().unwrap();
    let table_dir = dir.path().join("egtb");
    build_tables(&table_dir, Game::Oware, 3, |_| {}).unwrap();
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, positions()).unwrap();

    // The expected share for alphabeta:4 (deterministic), through the library.
    let oware = Variant::new("oware", &[]).unwrap();
    let table = Tablebase::open(&table_dir).unwrap();
    let mut agent = agents::parse("alphabeta:4", 0).unwrap();
    let (mut labelled, mut kept) = (0, 0);
    for line in positions().lines() {
        let state = oware.parse_notation(line).unwrap();
        if Game::Oware.node_of(&state).is_none() {
            continue;
        }
        if let Some(labels) = accuracy::label(&table, &oware, &state) {
            labelled += 1;
            kept += labels.keeps_result(agent.choose(&oware, &state).0) as u32;
        }
    }
    assert!(labelled >= 20, "only {labelled} positions labelled");
    let expected = format!("{:.1}%", 100.0 * kept as f64 / labelled as f64);

    let out = ayo()
        .args([
            "accuracy",
            "--variant",
            "oware",
            "--agent",
            "alphabeta:4",
            "random",
        ])
        .arg("--tablebase")
        .arg(&table_dir)
        .arg("--positions")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!("{labelled} positions labelled")),
        "{stderr}"
    );
    let row = stdout
        .lines()
        .find(|l| l.starts_with("alphabeta:4"))
        .expect(&stdout);
    assert_eq!(
        row.split_whitespace().nth(1),
        Some(expected.as_str()),
        "{stdout}"
    );
    assert!(stdout.lines().any(|l| l.starts_with("random")), "{stdout}");

    // The shipped network's learning-curve row, beside its games.
    let ckpt = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../models/oware/oware-levels-1h.ot"
    );
    let out = ayo()
        .args(["evaluate", ckpt, "--against", "random", "--eval-games", "2"])
        .args(["--eval-simulations", "8", "--tablebase"])
        .arg(&table_dir)
        .arg("--positions")
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_success(&out);
    let header = format!("Move accuracy on {labelled} endgame positions");
    assert!(stdout.contains(&header), "{stdout}");
    let row = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with(ckpt))
        .expect(&stdout);
    assert!(row.trim_end().ends_with('%'), "{row}");

    // Another variant's checkpoint is refused with the variant.
    let ayo_ckpt = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/ayo/ayo-1h.ot");
    let out = ayo()
        .args([
            "evaluate",
            ayo_ckpt,
            "--against",
            "random",
            "--eval-games",
            "2",
        ])
        .args(["--eval-simulations", "1", "--tablebase"])
        .arg(&table_dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("ayo@1"),
        "{stderr}"
    );
}
