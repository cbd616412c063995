//! The `ayo` binary driven as a user would: `ayo engine` through its protocol, `ayo play`
//! through a scripted person on stdin, and `ayo tournament` with its files. Each game is
//! checked against the rules library independently of the binary.

use ayo_env::{Action, GameRecord, Player, Rules, Variant};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::common::{assert_success, ayo};

/// Plays a whole game of oware through the protocol, both sides asking the engine for its move,
/// with a bad command and an illegal position on the way.
#[test]
fn engine_plays_a_full_game_through_the_protocol() {
    let mut child = ayo()
        .args([
            "engine",
            "--variant",
            "oware",
            "--agent",
            "alphabeta:2",
            "--seed",
            "3",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ayo runs");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut read_line = || {
        let mut line = String::new();
        from.read_line(&mut line).expect("engine answers");
        assert!(!line.is_empty(), "engine closed its output");
        line.trim_end().to_string()
    };

    writeln!(to, "hello").unwrap();
    let mut hello = Vec::new();
    loop {
        let line = read_line();
        if line == "hellook" {
            break;
        }
        hello.push(line);
    }
    assert!(
        hello.contains(&"id variant oware@1".to_string()),
        "{hello:?}"
    );

    writeln!(to, "jump").unwrap();
    assert!(read_line().starts_with("error unknown command"));
    writeln!(to, "position startpos moves 0 0 0 0 0 0 0 0 0 0 0 0 0 0").unwrap();
    writeln!(to, "isready").unwrap();
    let answer = read_line();
    assert!(answer.starts_with("error position: move"), "{answer}");
    assert_eq!(read_line(), "readyok");

    let rules: Variant = "oware".parse().unwrap();
    let mut game = rules.start(Player::South);
    let mut moves: Vec<String> = Vec::new();
    while !rules.is_terminal(&game) {
        writeln!(to, "position startpos moves {}", moves.join(" ")).unwrap();
        writeln!(to, "go").unwrap();
        // One `info` line per finished iteration of the search (alpha-beta: per depth), then
        // the move.
        let mut infos = 0;
        let best = loop {
            let line = read_line();
            if !line.starts_with("info ") {
                break line;
            }
            assert!(line.starts_with("info value "), "{line}");
            assert!(line.contains(" simulations "), "{line}");
            infos += 1;
        };
        assert!(
            (1..=2).contains(&infos),
            "alphabeta:2 reports each depth: {infos} lines"
        );
        let action: u8 = best
            .strip_prefix("bestmove ")
            .unwrap_or_else(|| panic!("expected bestmove, got {best:?}"))
            .parse()
            .unwrap();
        rules
            .play(&mut game, action)
            .expect("the engine's move is legal");
        moves.push(action.to_string());
        assert!(moves.len() < 2000, "game does not end");
    }
    writeln!(to, "position startpos moves {}", moves.join(" ")).unwrap();
    writeln!(to, "go").unwrap();
    assert!(read_line().starts_with("error the game is over"));
    let [s, n] = rules.scores(&game);
    let status = read_line();
    assert!(status.starts_with(&format!("over {s} {n} ")), "{status}");
    writeln!(to, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

/// A person (this test) plays `ayo play` to the end, first typing moves that are refused.
#[test]
fn play_refuses_bad_input_and_finishes_the_game() {
    let dir = std::env::temp_dir().join(format!("ayo-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record_path = dir.join("game.json");
    let mut child = ayo()
        .args([
            "play",
            "--variant",
            "oware",
            "--agent",
            "greedy",
            "--seat",
            "north",
        ])
        .arg("--record")
        .arg(&record_path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ayo runs");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut transcript = String::new();
    let mut refused = 0;
    let mut bad_inputs = vec!["xyz", "42"];
    loop {
        let mut line = String::new();
        if from.read_line(&mut line).unwrap() == 0 {
            break;
        }
        transcript.push_str(&line);
        if line.contains("is not a legal move") {
            refused += 1;
        }
        if let Some(listing) = line.strip_prefix("Legal moves: ") {
            // Answer the first prompt with bad input, then the highest legal move by label.
            for bad in bad_inputs.drain(..) {
                writeln!(to, "{bad}").unwrap();
            }
            let last = listing.trim().rsplit(", ").next().unwrap();
            let label = last.split(' ').next().unwrap();
            writeln!(to, "{label}").unwrap();
        }
    }
    assert!(child.wait().unwrap().success());
    assert_eq!(refused, 2, "both bad inputs refused:\n{transcript}");
    assert!(transcript.contains("Game over: South "), "{transcript}");
    assert!(transcript.contains("greedy plays "), "{transcript}");
    // The saved game replays under the rules, and it is a finished game.
    let record = GameRecord::from_json(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    let replay = record.replay().expect("the record replays");
    let rules = replay.rules;
    assert!(rules.is_terminal(replay.states.last().unwrap()));
    assert_eq!(record.seats[1], "you");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--out` naming a file (a tournament's, with or without records; a training run's) is refused
/// before a game is played, naming the flag and the path; the file is left as it was.
#[test]
fn tournament_and_train_refuse_an_out_that_is_a_file() {
    let file = std::env::temp_dir().join(format!("ayo-tournament-out-{}", std::process::id()));
    std::fs::write(&file, "kept").unwrap();
    for words in [
        "tournament --variant oware --players random greedy --games 2 --out",
        "tournament --variant oware --players random greedy --games 2 --no-records --out",
        "train --variant oware --iterations 1 --out",
    ] {
        let mut command = ayo();
        command.args(words.split(' ')).arg(&file);
        let output = command.output().expect("ayo runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{stderr}");
        let expected = format!(
            "--out {}: a file is there; expected a folder",
            file.display()
        );
        assert!(stderr.contains(&expected), "{stderr}");
        assert!(
            !stderr.contains("after 1 of"),
            "no pair was played: {stderr}"
        );
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    let _ = std::fs::remove_file(&file);
}

/// A small round robin: tables and records are written, records replay, seats are swapped.
#[test]
fn tournament_writes_tables_and_replayable_records() {
    let dir = std::env::temp_dir().join(format!("ayo-tournament-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let output = ayo()
        .args([
            "tournament",
            "--variant",
            "oware",
            "--players",
            "random",
            "greedy",
            "alphabeta:2",
            "--games",
            "4",
            "--openings",
            "2",
            "--bootstrap",
            "100",
            "--out",
        ])
        .arg(&dir)
        .output()
        .expect("ayo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("Rank"), "{stdout}");
    // Its progress goes to stderr, pair by pair (6 pairs: each is a tenth or more), never into
    // the tables on stdout.
    let stderr = String::from_utf8_lossy(&output.stderr);
    let progress: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("tournament after "))
        .collect();
    assert_eq!(progress.len(), 6, "{stderr}");
    assert!(
        progress[5].starts_with("tournament after 6 of 6 pairs, "),
        "{stderr}"
    );
    assert!(!stdout.contains(" pairs, "), "{stdout}");
    for file in [
        "tournament.json",
        "ratings.csv",
        "crosstable.csv",
        "los.csv",
    ] {
        assert!(dir.join(file).is_file(), "{file} written");
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tournament.json")).unwrap())
            .unwrap();
    assert_eq!(report["games"], 12);
    assert_eq!(report["ratings"].as_array().unwrap().len(), 3);
    let ratings = std::fs::read_to_string(dir.join("ratings.csv")).unwrap();
    assert_eq!(ratings.lines().count(), 4);

    let mut games = std::fs::read_dir(dir.join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect::<Vec<_>>();
    games.sort();
    assert_eq!(games.len(), 12);
    for pair in games.chunks(2) {
        let a = GameRecord::from_json(&std::fs::read_to_string(&pair[0]).unwrap()).unwrap();
        let b = GameRecord::from_json(&std::fs::read_to_string(&pair[1]).unwrap()).unwrap();
        a.replay().expect("record replays");
        b.replay().expect("record replays");
        assert_eq!(a.start, b.start, "same opening");
        assert_eq!(
            a.seats,
            [b.seats[1].clone(), b.seats[0].clone()],
            "seats swapped"
        );
        assert!(a.outcome.is_some() && b.outcome.is_some());
    }
    // `ayo replay` shows a tournament record.
    let mut replay = ayo()
        .arg("replay")
        .arg(&games[0])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    replay
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    assert!(replay.wait().unwrap().success());
    assert!(text.contains("Result:"), "{text}");
    rate_the_records_again(&dir, &report);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ayo tournament --records`: a tournament's recorded games rated again give its Elo; pooled
/// with another tournament's, one table of every player; another variant's, a folder named
/// twice or a folder without pairs are refused, naming it.
fn rate_the_records_again(dir: &Path, played: &serde_json::Value) {
    let tournament = |args: &[&str], out: &Path| {
        ayo()
            .arg("tournament")
            .args(args)
            .args(["--bootstrap", "100", "--out"])
            .arg(out)
            .output()
            .unwrap()
    };
    let report = |out: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(out.join("tournament.json")).unwrap())
            .unwrap()
    };
    let elo = |r: &serde_json::Value, name: &str| -> f64 {
        let rows = r["ratings"].as_array().unwrap();
        let row = rows.iter().find(|row| row["name"] == name).unwrap();
        row["elo"].as_f64().unwrap()
    };
    let games = dir.join("games");
    let games_arg = games.to_str().unwrap();
    let again = tournament(&["--records", games_arg], &dir.join("again"));
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_success(&again);
    assert!(stdout.contains("the games recorded in"), "{stdout}");
    let again = report(&dir.join("again"));
    assert_eq!(again["games"], played["games"]);
    for name in ["random", "greedy", "alphabeta:2"] {
        assert!(
            (elo(&again, name) - elo(played, name)).abs() < 1e-6,
            "{again}"
        );
    }
    assert_eq!(again["crosstable"], played["crosstable"]);

    // Another tournament of one new player and one old, pooled with the first.
    let more = dir.join("more");
    let other = tournament(
        &[
            "--variant",
            "oware",
            "--players",
            "greedy",
            "mcts:2",
            "--games",
            "2",
        ],
        &more,
    );
    assert!(other.status.success());
    let more_games = more.join("games");
    let more_arg = more_games.to_str().unwrap();
    let pooled = tournament(
        &["--records", games_arg, more_arg, "--anchor", "greedy"],
        &dir.join("pooled"),
    );
    assert_success(&pooled);
    // The likelihood-of-superiority matrix numbers the players by rank, as the table above it.
    let text = String::from_utf8_lossy(&pooled.stdout).into_owned();
    let pooled = report(&dir.join("pooled"));
    let matrix = &text[text.find("Likelihood of superiority").unwrap()..];
    for (rank, row) in pooled["ratings"].as_array().unwrap().iter().enumerate() {
        let label = format!("{:>2} {}", rank + 1, row["name"].as_str().unwrap());
        assert!(
            matrix.lines().any(|l| l.starts_with(&format!("{label} "))),
            "{label}: {text}"
        );
    }
    assert_eq!(pooled["games"], 14);
    assert_eq!(pooled["players"].as_array().unwrap().len(), 4);
    assert_eq!(pooled["anchor"], "greedy");
    assert_eq!(elo(&pooled, "greedy"), 0.0);

    // Refused: a folder named twice, a folder without pairs, the games of another variant.
    let refused = |args: &[&str], says: &str| {
        let out = tournament(args, &dir.join("refused"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    refused(&["--records", games_arg, games_arg], "named twice");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    refused(
        &["--records", empty.to_str().unwrap()],
        "empty: no game pairs there",
    );
    let ayo_games = dir.join("ayo-variant");
    let played_ayo = tournament(
        &[
            "--variant",
            "ayo",
            "--players",
            "random",
            "greedy",
            "--games",
            "2",
        ],
        &ayo_games,
    );
    assert!(played_ayo.status.success());
    let ayo_arg = ayo_games.join("games");
    refused(
        &["--records", games_arg, ayo_arg.to_str().unwrap()],
        "--records rates one variant",
    );
}

/// `--sprt` stops a lopsided match long before its game limit.
#[test]
fn sprt_stops_a_lopsided_match_early() {
    let output = oware_against_random("alphabeta:3")
        .args([
            "--games",
            "400",
            "--sprt",
            "0",
            "50",
            "0.05",
            "0.05",
            "--bootstrap",
            "50",
        ])
        .output()
        .expect("ayo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    let sprt_line = stdout.lines().find(|l| l.starts_with("SPRT")).unwrap();
    let pairs: u32 = sprt_line
        .split(" after ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(pairs < 200, "{sprt_line}");
}

/// A checkpoint plays as `PATH:SIMS` (the shipped oware network, no search) against a baseline.
#[test]
fn checkpoints_play_in_tournaments() {
    let ckpt =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/oware/oware-levels-1h.ot");
    assert!(
        ckpt.is_file(),
        "no shipped checkpoint at {}",
        ckpt.display()
    );
    let output = ayo()
        .args([
            "tournament",
            "--variant",
            "oware",
            "--games",
            "4",
            "--bootstrap",
            "20",
            "--players",
        ])
        .arg(format!("{}:0", ckpt.display()))
        .arg("random")
        .output()
        .expect("ayo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("net:oware-levels-1h@0"), "{stdout}");
}

/// `ayo ladder` then `ayo rate` with tiny budgets (every variant is rated in-process by
/// `ayo_env::arena::ladder`'s tests): a two-rung ladder file, and an agent rated on it within
/// its game budget, with its games' records; jerin in whole matches, the ladder's options.
#[test]
fn ladder_and_rate_with_tiny_budgets() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, options) in [("oware", ""), ("jerin", "episode=match")] {
        let ladder = dir.path().join(format!("{variant}.json"));
        let out = ayo()
            .args([
                "ladder",
                "--variant",
                variant,
                "--rungs",
                "random",
                "greedy",
            ])
            .args([
                "--options",
                options,
                "--pairs",
                "2",
                "--max-plies",
                "2000",
                "--out",
            ])
            .arg(&ladder)
            .output()
            .unwrap();
        assert_success(&out);
        let text = std::fs::read_to_string(&ladder).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(json["variant"], variant);
        assert_eq!(json["options"], options);
        assert_eq!(json["rungs"][0]["elo"], 0.0);
        assert_eq!(json["rungs"][1]["games"], 4);

        let records = dir.path().join(format!("{variant}-games"));
        let out = ayo()
            .args(["rate", "--variant", variant, "--agent", "alphabeta:1"])
            .args(["--max-games", "8", "--ladder"])
            .arg(&ladder)
            .arg("--out")
            .arg(&records)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_success(&out);
        assert!(
            stdout.contains("alphabeta:1 on ") && stdout.contains(" Elo "),
            "{stdout}"
        );
        assert!(String::from_utf8_lossy(&out.stderr).contains("round 1:"));
        let rating: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(records.join("rating.json")).unwrap())
                .unwrap();
        let games = rating["rating"]["games"].as_u64().unwrap();
        assert!((2..=8).contains(&games), "{games} games");
        let files = std::fs::read_dir(&records).unwrap().count() as u64;
        assert_eq!(files, games + 1, "one record per game and rating.json");
        let first = GameRecord::from_json(
            &std::fs::read_to_string(records.join("pair-00001-a.json")).unwrap(),
        )
        .unwrap();
        assert!(first.seats.contains(&"alphabeta:1".to_string()));
        if variant == "oware" {
            refit_a_rating_on_other_ladders(dir.path(), &ladder, &records);
        }
    }
}

/// `ayo rate --refit`: a rating's games rated again without playing: on the same ladder the same
/// Elo, on a later version (greedy's link topped up) the games kept, on a ladder without the
/// rung it played an error naming it; two ratings of one agent pooled, of two agents refused.
fn refit_a_rating_on_other_ladders(dir: &Path, ladder: &Path, records: &Path) {
    let read = |file: &Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
    };
    let rating = records.join("rating.json");
    let refit_all = |ladder: &Path, ratings: &[&Path], out: &str| {
        ayo()
            .args(["rate", "--variant", "oware", "--ladder"])
            .arg(ladder)
            .arg("--refit")
            .args(ratings)
            .arg("--out")
            .arg(dir.join(out))
            .output()
            .unwrap()
    };
    let refit = |ladder: &Path, out: &str| refit_all(ladder, &[rating.as_path()], out);
    let same = refit(ladder, "same");
    assert_success(&same);
    let (old, new) = (read(&rating), read(&dir.join("same/rating.json")));
    let elo = |v: &serde_json::Value| v["rating"]["elo"].as_f64().unwrap();
    assert!((elo(&old) - elo(&new)).abs() < 1e-6, "{old} {new}");
    assert_eq!(old["rating"]["rungs"], new["rating"]["rungs"]);

    // A ladder of `rungs` written to `out` (its --pairs and the rest in `args`).
    let make_ladder = |rungs: &[&str], args: &[&str], out: &Path| {
        let made = ayo()
            .args([
                "ladder",
                "--variant",
                "oware",
                "--max-plies",
                "2000",
                "--rungs",
            ])
            .args(rungs)
            .args(args)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        assert_success(&made);
    };
    let v2 = dir.join("v2.json");
    let reuse = ladder.to_str().unwrap();
    make_ladder(
        &["random", "greedy"],
        &["--pairs", "6", "--version", "2", "--reuse", reuse],
        &v2,
    );
    // The same games twice, pooled (a copy; one file named twice is refused): every count doubled.
    let named_twice = refit_all(ladder, &[rating.as_path(), &rating], "twice");
    let stderr = String::from_utf8_lossy(&named_twice.stderr);
    assert!(!named_twice.status.success());
    assert!(stderr.contains("rating.json is named twice"), "{stderr}");
    let copy = dir.join("copy.json");
    std::fs::copy(&rating, &copy).unwrap();
    let pooled = refit_all(ladder, &[rating.as_path(), &copy], "pooled");
    assert_success(&pooled);
    let twice = read(&dir.join("pooled/rating.json"));
    assert_eq!(
        twice["rating"]["games"].as_u64().unwrap(),
        2 * old["rating"]["games"].as_u64().unwrap()
    );
    assert!(elo(&twice).is_finite(), "{twice}");
    for (a, b) in old["rating"]["rungs"]
        .as_array()
        .unwrap()
        .iter()
        .zip(twice["rating"]["rungs"].as_array().unwrap())
    {
        for k in 0..5 {
            let count = |g: &serde_json::Value| g["pentanomial"]["counts"][k].as_u64().unwrap();
            assert_eq!(2 * count(a), count(b), "{a} {b}");
        }
        assert_eq!(2 * a["wdl"]["wins"].as_u64().unwrap(), b["wdl"]["wins"]);
    }
    // Another agent's rating is not pooled with it.
    let mut other_agent = old.clone();
    other_agent["agent"] = "greedy".into();
    let stranger = dir.join("stranger.json");
    std::fs::write(&stranger, other_agent.to_string()).unwrap();
    let mixed = refit_all(ladder, &[rating.as_path(), &stranger], "mixed");
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert!(!mixed.status.success());
    assert!(
        stderr.contains("stranger.json: its games are greedy's") && stderr.contains("one agent"),
        "{stderr}"
    );

    let later = refit(&v2, "later");
    let stderr = String::from_utf8_lossy(&later.stderr);
    assert!(later.status.success(), "{stderr}");
    assert!(stderr.contains("rated again on ladder v2"), "{stderr}");
    let new = read(&dir.join("later/rating.json"));
    assert_eq!(new["ladder_version"], 2);
    assert_eq!(new["rating"]["games"], old["rating"]["games"]);

    let other = dir.join("other.json");
    make_ladder(&["random", "mcts:2"], &["--pairs", "1"], &other);
    let refused = refit(&other, "other");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success());
    assert!(
        stderr.contains("its games against greedy cannot be refitted"),
        "{stderr}"
    );
}

/// `ayo ladder --reuse`: a new version keeps the links of an earlier one between the same two
/// rungs and plays only the new links and the pairs kept links lack (and, with `--precision`,
/// the pairs a link's interval needs); a ladder of another protocol is refused.
#[test]
fn a_new_ladder_version_keeps_the_links_it_shares_with_the_last() {
    let dir = tempfile::tempdir().unwrap();
    let ladder_of = |rungs: &[&str], pairs: &str, version: &str, out: &str, extra: &[&str]| {
        ayo()
            .current_dir(dir.path())
            .args(["ladder", "--variant", "oware", "--rungs"])
            .args(rungs)
            .args(["--pairs", pairs, "--version", version, "--out", out])
            .args(extra)
            .output()
            .unwrap()
    };
    let ladder = |rungs: &[&str], version: &str, out: &str, extra: &[&str]| {
        ladder_of(rungs, "3", version, out, extra)
    };
    let read = |file: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.path().join(file)).unwrap()).unwrap()
    };
    let first = ladder(&["random", "greedy"], "1", "v1.json", &[]);
    assert_success(&first);
    // The link kept the other way round: greedy below random.
    let second = ladder(
        &["greedy", "random", "alphabeta:2"],
        "2",
        "v2.json",
        &["--reuse", "v1.json"],
    );
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(second.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 links kept from ladder v1, 0 of them topped up; 1 to play"),
        "{stderr}"
    );
    let (v1, v2) = (read("v1.json"), read("v2.json"));
    // A link's pentanomial counts, and the pairs they add up to.
    let counts = |v: &serde_json::Value, link: usize| -> Vec<u64> {
        let c = v["links"][link]["pentanomial"].as_array().unwrap();
        c.iter().map(|c| c.as_u64().unwrap()).collect()
    };
    let sum = |v: &serde_json::Value, link: usize| -> u64 { counts(v, link).iter().sum() };
    let mut flipped = counts(&v1, 0);
    flipped.reverse();
    assert_eq!(counts(&v2, 0), flipped, "the same pairs from random's side");
    let by = |v: &serde_json::Value, link: usize| v["links"][link]["played_by"].clone();
    assert_eq!(by(&v2, 0), serde_json::json!([{"version": 1, "pairs": 3}]));
    let score = |v: &serde_json::Value| v["links"][0]["score"].as_f64().unwrap();
    assert!((score(&v1) + score(&v2) - 1.0).abs() < 1e-9);
    assert!(
        v2["links"][1].get("played_by").is_none(),
        "played by v2's command"
    );
    assert_eq!(sum(&v2, 1), 3);
    assert_eq!(v2["rungs"][1]["games"], 12, "random: 3 pairs on each side");
    assert!(v2["command"].as_str().unwrap().contains("--reuse v1.json"));

    // A third version keeping both: each link names the version whose command played it.
    let third = ladder(
        &["greedy", "random", "alphabeta:2"],
        "3",
        "v3.json",
        &["--reuse", "v2.json"],
    );
    assert_success(&third);
    let v3 = read("v3.json");
    assert_eq!(by(&v3, 0), serde_json::json!([{"version": 1, "pairs": 3}]));
    assert_eq!(by(&v3, 1), serde_json::json!([{"version": 2, "pairs": 3}]));
    assert_eq!(v3["links"][1]["pentanomial"], v2["links"][1]["pentanomial"]);

    // More pairs on kept links: each is topped up to --pairs, then, for --precision, to as
    // many as its interval needs (an unreachable ± 1 Elo: four times --pairs).
    let out = ladder_of(
        &["greedy", "random"],
        "5",
        "4",
        "v4.json",
        &["--reuse", "v3.json"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("1 links kept from ladder v3, 1 of them topped up; 0 to play"),
        "{stderr}"
    );
    let v4 = read("v4.json");
    assert_eq!(sum(&v4, 0), 5);
    assert_eq!(
        by(&v4, 0),
        serde_json::json!([{"version": 1, "pairs": 3}, {"version": 4, "pairs": 2}])
    );
    let out = ladder_of(
        &["greedy", "random", "alphabeta:2"],
        "3",
        "5",
        "v5.json",
        &["--reuse", "v4.json", "--precision", "1"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v5 = read("v5.json");
    assert_eq!((sum(&v5, 0), sum(&v5, 1)), (12, 12), "{stderr}");
    assert_eq!(
        by(&v5, 0),
        serde_json::json!([{"version": 1, "pairs": 3}, {"version": 4, "pairs": 2}, {"version": 5, "pairs": 7}])
    );
    assert!(by(&v5, 1).is_null(), "every pair played by v5's command");
    assert!(v5["command"].as_str().unwrap().contains("--precision 1"));
    let out = ayo()
        .current_dir(dir.path())
        .args([
            "ladder",
            "--variant",
            "oware",
            "--rungs",
            "greedy",
            "random",
        ])
        .args(["--out", "v6.json", "--precision=-3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("\"-3\" is not a positive number of Elo"),
        "{stderr}"
    );
    assert!(!dir.path().join("v6.json").exists());

    let other = ladder(
        &["random", "greedy"],
        "2",
        "v4.json",
        &["--reuse", "v1.json", "--openings", "2"],
    );
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success());
    assert!(
        stderr.contains("--reuse v1.json: its games had the protocol"),
        "{stderr}"
    );
}

/// A network rung is pinned by its file's hash: a changed file stops `ayo rate`. The ladder is
/// written by a bare file name, in the current folder.
#[test]
fn rate_refuses_a_ladder_whose_network_changed() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("net.ot");
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../models/oware/oware-levels-1h.ot"
    );
    std::fs::copy(shipped, &net).unwrap();
    let ladder = dir.path().join("ladder.json");
    let status = ayo()
        .current_dir(dir.path())
        .args([
            "ladder",
            "--variant",
            "oware",
            "--pairs",
            "1",
            "--rungs",
            "random",
            "net.ot:1",
            "--out",
            "ladder.json",
        ])
        .output()
        .unwrap();
    assert_success(&status);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ladder).unwrap()).unwrap();
    assert_eq!(
        json["rungs"][1]["spec"], "net.ot:1",
        "named from the ladder's folder"
    );
    assert_eq!(json["rungs"][1]["sha256"].as_str().unwrap().len(), 64);
    let mut bytes = std::fs::read(&net).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&net, bytes).unwrap();
    let out = ayo()
        .args([
            "rate",
            "--variant",
            "oware",
            "--agent",
            "greedy",
            "--ladder",
        ])
        .arg(&ladder)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("SHA-256"));
}

/// `ayo rate --engine`: `ayo engine` itself rated as an external program, and a broken engine
/// (its every move unplayable) that forfeits every game, counted.
#[test]
fn rate_plays_an_external_engine_and_counts_its_forfeits() {
    let dir = tempfile::tempdir().unwrap();
    let ladder = dir.path().join("ladder.json");
    let out = ayo()
        .args([
            "ladder",
            "--variant",
            "oware",
            "--rungs",
            "random",
            "greedy",
        ])
        .args(["--pairs", "2", "--out"])
        .arg(&ladder)
        .output()
        .unwrap();
    assert_success(&out);
    let engine = format!(
        "{} engine --variant oware --agent alphabeta:1",
        env!("CARGO_BIN_EXE_ayo")
    );
    let broken = "while read line; do case \"$line\" in \
        hello) printf 'id agent broken\\nid variant oware@1\\nhellook\\n';; \
        go*) echo 'bestmove 9';; quit) exit 0;; esac; done";
    for (command, forfeits) in [
        (engine.as_str(), "forfeited 0 of its 8"),
        (broken, "forfeited 8 of its 8"),
    ] {
        let out = ayo()
            .args(["rate", "--variant", "oware", "--max-games", "8", "--ladder"])
            .arg(&ladder)
            .args(["--engine", command])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_success(&out);
        assert!(stdout.contains(forfeits), "{stdout}");
        assert!(stdout.contains("engine:"), "{stdout}");
    }
}

/// `ayo tournament --variant oware --players PLAYER random`, to which a test adds its own
/// arguments.
fn oware_against_random(player: &str) -> Command {
    let mut command = ayo();
    command.args([
        "tournament",
        "--variant",
        "oware",
        "--players",
        player,
        "random",
    ]);
    command
}

/// `engine:CMD` is a player like any other: a tournament plays `ayo engine` itself as an
/// external program; a command that does not start is refused with the spec.
#[test]
fn tournaments_play_an_external_engine() {
    let engine = format!(
        "engine:{} engine --variant oware --agent alphabeta:3",
        env!("CARGO_BIN_EXE_ayo")
    );
    let out = oware_against_random(&engine)
        .args(["--games", "4", "--bootstrap", "50"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_success(&out);
    let row = stdout
        .lines()
        .find(|l| l.starts_with("engine:alphabeta:3 vs random"))
        .unwrap_or_else(|| panic!("no cross-table row of the engine: {stdout}"));
    assert!(
        row.contains("pairs 0 0 0 0 2"),
        "the engine against random: {row}"
    );

    let missing = "engine:/nonexistent/ayo-engine";
    let out = oware_against_random(missing).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains(missing) && stderr.contains("cannot start"),
        "{stderr}"
    );
}

/// An external engine is told each game from the first position it was asked about, with every
/// action since (its repetition memory is the referee's): each `position` it receives is a
/// recorded game's position after `k` actions and the actions that follow, and the last it
/// receives in a game goes back to the game's first or second position and lacks at most the
/// final two actions (told only the position, `k` would be the game's length).
#[test]
fn an_external_engine_is_told_the_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("received.txt");
    let engine = format!(
        "engine:tee -a {} | {} engine --variant oware --agent greedy",
        log.display(),
        env!("CARGO_BIN_EXE_ayo")
    );
    let out = oware_against_random(&engine)
        .args(["--games", "2", "--seed", "3", "--out"])
        .arg(dir.path().join("t"))
        .output()
        .unwrap();
    assert_success(&out);
    let rules: Variant = "oware".parse().unwrap();
    // Each recorded game's actions, and the notation of its position after each prefix.
    let games: Vec<(Vec<Action>, Vec<String>)> = ["a", "b"]
        .iter()
        .map(|leg| {
            let path = dir.path().join(format!("t/games/pair-00001-{leg}.json"));
            let r = GameRecord::from_json(&std::fs::read_to_string(path).unwrap()).unwrap();
            let notations = r
                .replay()
                .unwrap()
                .states
                .iter()
                .map(|s| rules.notation(s))
                .collect();
            (r.actions, notations)
        })
        .collect();
    let received = std::fs::read_to_string(&log).unwrap();
    // Per game, the position the engine was told that goes furthest: (k, actions after it).
    let mut told: [Option<(usize, usize)>; 2] = [None; 2];
    for line in received.lines().filter(|l| l.starts_with("position ")) {
        let rest = line.strip_prefix("position notation ").unwrap();
        let (first, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
        let moves: Vec<Action> = moves
            .split_whitespace()
            .map(|a| a.parse().unwrap())
            .collect();
        let (g, k) = games
            .iter()
            .enumerate()
            .find_map(|(g, (actions, notations))| {
                (0..notations.len())
                    .find(|&k| notations[k] == first && actions[k..].starts_with(&moves))
                    .map(|k| (g, k))
            })
            .unwrap_or_else(|| panic!("{line:?} is no recorded game's position and actions"));
        if told[g].is_none_or(|(k0, n0)| k + moves.len() > k0 + n0) {
            told[g] = Some((k, moves.len()));
        }
    }
    for ((actions, _), told) in games.iter().zip(told) {
        let (k, n) = told.expect("the engine was asked in every game");
        assert!(
            k <= 1 && k + n + 2 >= actions.len(),
            "the engine's last position of a game of {} actions: after {k}, with {n} moves",
            actions.len()
        );
    }
}

/// Every committed ladder (`models/<variant>/ladder.json`) loads, its networks match their
/// hashes, and `ayo rate` plays on it.
#[test]
fn the_committed_ladders_rate_an_agent() {
    let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
    let mut found = 0;
    for entry in std::fs::read_dir(&models).unwrap() {
        let ladder = entry.unwrap().path().join("ladder.json");
        if !ladder.is_file() {
            continue;
        }
        found += 1;
        let variant = ladder
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let out = ayo()
            .args([
                "rate",
                "--variant",
                variant,
                "--agent",
                "greedy",
                "--max-games",
                "8",
            ])
            .arg("--ladder")
            .arg(&ladder)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_success(&out);
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ladder).unwrap()).unwrap();
        let version = json["version"].as_u64().unwrap();
        assert!(
            stdout.contains(&format!("{variant}@1 ladder v{version}")),
            "{stdout}"
        );
    }
    assert!(found >= 2, "the oware and ayo ladders at least");
}

/// `ayo book` covers, from either seat, every reply of the other side and the agent's own
/// move to its depth (checked by walking the tree again here), resumes from its file, and an
/// agent spec `+book=FILE` plays the book's move in `ayo engine`.
#[test]
fn a_book_covers_its_tree_resumes_and_is_played_from_the_spec() {
    use ayo_env::arena::book::Book;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.txt");
    let build = |plies: &str| {
        let output = ayo()
            .args(["book", "--variant", "oware", "--agent", "alphabeta:3"])
            .args([
                "--plies",
                plies,
                "--free-plies",
                "1",
                "--threads",
                "2",
                "--out",
            ])
            .arg(&file)
            .output()
            .expect("ayo runs");
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(output.status.success(), "{stderr}");
        (Book::load(&file).unwrap(), stderr)
    };
    let (small, _) = build("3");
    let (book, stderr) = build("4");
    assert!(
        stderr.contains(&format!("{} of them kept", small.len())),
        "{stderr}"
    );
    for (position, m) in small.entries() {
        assert_eq!(book.entries().find(|e| e.0 == position).unwrap().1, m);
    }
    // The tree again: from each seat, the first ply open to both sides, then the book's move
    // for that seat and every move of the other side.
    let rules: Variant = "oware".parse().unwrap();
    let mut wanted = std::collections::HashSet::new();
    for seat in [Player::South, Player::North] {
        let mut level = vec![rules.start(Player::South)];
        for ply in 0..4 {
            let mut next = Vec::new();
            for state in level {
                let mover = rules.to_play(&state).unwrap();
                let moves = if mover == seat {
                    wanted.insert(rules.notation(&state));
                    let m = book
                        .get(&rules, &state)
                        .expect("the seat's positions are in the book");
                    if ply >= 1 {
                        vec![m.action]
                    } else {
                        rules.legal_actions(&state)
                    }
                } else {
                    rules.legal_actions(&state)
                };
                for a in moves {
                    let mut child = state.clone();
                    rules.play(&mut child, a).unwrap();
                    if !rules.is_terminal(&child) {
                        next.push(child);
                    }
                }
            }
            level = next;
        }
    }
    assert_eq!(
        wanted.len(),
        book.len(),
        "the book holds the tree's positions and no others"
    );

    let start = rules.start(Player::South);
    let first = book.get(&rules, &start).unwrap().action;
    let spec = format!("random+book={}", file.display());
    let mut engine = ayo()
        .args(["engine", "--variant", "oware", "--agent", &spec])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ayo runs");
    let mut to = engine.stdin.take().unwrap();
    writeln!(to, "position startpos\ngo\nquit").unwrap();
    let mut out = String::new();
    engine
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert!(engine.wait().unwrap().success());
    assert!(out.contains(&format!("bestmove {first}\n")), "{out}");

    let output = ayo()
        .args([
            "tournament",
            "--variant",
            "ayo",
            "--games",
            "2",
            "--players",
            &spec,
            "random",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("is for oware@1, not for ayo@1"), "{stderr}");
}
