//! Golden playthroughs (as OpenSpiel's `integration_tests/playthroughs/`): for every variant in
//! [`VARIANT_NAMES`], one seeded random game written out move by move, with the board drawn after
//! each move, in `tests/data/playthroughs/<variant>.txt`. The test regenerates each transcript and
//! compares it with the file, so any change of the rules, the notation or the drawing shows up in
//! review as a diff of that file.
//!
//! After an intended change, rewrite the files with
//! `AYO_BLESS=1 cargo test -p ayo-tests --test playthroughs` and commit them.
//!
//! These are regression records of our own output, not independent references: the rule tests,
//! the OpenSpiel differential test and the perft counts are what check correctness.

use ayo_env::{Player, Rules, Variant, VARIANT_NAMES};
use std::fmt::Write;
use std::path::PathBuf;

/// The seed of every golden game.
const SEED: u64 = 1;
/// Transcripts stop here if a game is longer (the env's ply cap).
const MAX_PLIES: u32 = 1000;

/// SplitMix64: a tiny generator whose sequence is fixed forever (no dependency's version can
/// change the golden games).
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e3779b97f4a7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    }
}

/// The transcript of the golden game of `v`.
fn transcript(v: &Variant) -> String {
    let mut rng = SplitMix(SEED);
    let mut out = String::new();
    let mut s = v.start(Player::South);
    writeln!(
        out,
        "# Golden playthrough of {}: uniformly random moves (SplitMix64 seed {SEED}), South first.\n\
         # Regenerated and compared by tests/tests/playthroughs.rs; `AYO_BLESS=1` rewrites it.\n",
        v.id()
    )
    .unwrap();
    writeln!(out, "start: {}\n{}\n", v.notation(&s), v.render(&s)).unwrap();
    while let Some(mover) = v.to_play(&s) {
        if v.ply(&s) >= MAX_PLIES {
            writeln!(out, "truncated after {MAX_PLIES} plies").unwrap();
            break;
        }
        let mask = v.legal_mask(&s);
        let a = mask.nth((rng.next() % mask.count() as u64) as u32).unwrap();
        let name = v.action_name(&s, a);
        let legal: Vec<String> = mask.iter().map(|l| l.to_string()).collect();
        v.play(&mut s, a).unwrap();
        writeln!(
            out,
            "move {}: {mover:?} plays {name} (action {a} of legal {})\n{}\n{}\n",
            v.ply(&s),
            legal.join(","),
            v.notation(&s),
            v.render(&s)
        )
        .unwrap();
    }
    let r = v.returns(&s);
    writeln!(
        out,
        "result: scores {:?}, returns [{}, {}]",
        v.scores(&s),
        r[0],
        r[1]
    )
    .unwrap();
    out
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/playthroughs")
        .join(format!("{name}.txt"))
}

#[test]
fn golden_playthroughs_are_unchanged() {
    let bless = std::env::var_os("AYO_BLESS").is_some_and(|v| v != "0");
    let mut problems = Vec::new();
    for name in VARIANT_NAMES {
        let v = Variant::new(name, &[]).unwrap();
        let text = transcript(&v);
        let path = golden_path(name);
        if bless {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &text).unwrap();
            eprintln!("blessed {}", path.display());
            continue;
        }
        match std::fs::read_to_string(&path) {
            Err(_) => problems.push(format!("{name}: no golden file {}", path.display())),
            Ok(golden) if golden != text => {
                let line = golden
                    .lines()
                    .zip(text.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(golden.lines().count().min(text.lines().count()));
                problems.push(format!(
                    "{name}: {} differs from line {}:\n  golden: {:?}\n  now:    {:?}",
                    path.display(),
                    line + 1,
                    golden.lines().nth(line).unwrap_or("<end>"),
                    text.lines().nth(line).unwrap_or("<end>")
                ));
            }
            Ok(_) => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{}\nIf the change is intended: AYO_BLESS=1 cargo test -p ayo-tests --test playthroughs, \
         then review and commit tests/data/playthroughs/.",
        problems.join("\n")
    );
}
