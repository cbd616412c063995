//! The specimen game of Sanderson (1913) replayed by `yao@1` with the gambit (docs/rules.md 7).
//!
//! # Source: `tests/data/yao_specimen_moves.json` (the 49 half-moves as primitive tokens) and
//! `tests/data/yao_specimen_positions.txt` (the board and hands after each), copied from the
//! shared `testdata/`: M. G. Sanderson, "Native games of Central Africa", J. Royal
//! Anthropological Institute 43 (1913) 726-736, transcribed with the emendations of
//! docs/sources.md section 6.6 and replayed by an independent reference script.
//!
//! The decisions are read from the tokens — the hole added to or spread, the placing end, the
//! direction (stated, or the one whose count reaches the stated hole), a village stop — and the
//! engine does the rest; after every half-move the whole board and both hands must equal the
//! positions file, and A must win on his 25th move.

use ayo_env::variants::yao::{self, BACK_NAMES, FRONT_NAMES, GO_ON, STOP};
use ayo_env::{Action, GameRecord, Player, Rules, Snapshot, Variant};
use serde_json::Value;

const MOVES: &str = include_str!("../data/yao_specimen_moves.json");
const POSITIONS: &str = include_str!("../data/yao_specimen_positions.txt");
const RECORD: &str = include_str!("../data/yao_specimen.record.json");

/// Own hole number 0–15 (front Ra … Rd, back A … H) of an article name.
fn hole(name: &str) -> usize {
    FRONT_NAMES
        .iter()
        .chain(BACK_NAMES.iter())
        .position(|n| *n == name)
        .unwrap_or_else(|| panic!("no hole named {name}"))
}

/// Loop position of a hole: the front row left to right, then the back row right to left.
fn loop_pos(k: usize) -> i32 {
    if k < 8 {
        k as i32
    } else {
        15 - (k as i32 - 8)
    }
}

/// Whether `n` men spread from hole `from` reach hole `to` going right (as the mover sees the
/// row of `from`); computed from the board's geometry, not by the engine.
fn rightwards_reaching(from: usize, n: i32, to: usize) -> bool {
    let (f, t) = (loop_pos(from), loop_pos(to));
    let clockwise = (f + n).rem_euclid(16) == t;
    let anticlockwise = (f - n).rem_euclid(16) == t;
    assert!(
        clockwise != anticlockwise,
        "{n} from {from} to {to} is ambiguous"
    );
    // Clockwise is rightwards along the front row and leftwards along the back row.
    clockwise == (from < 8)
}

/// The first decision of a half-move, from its tokens.
fn first_action(tokens: &[Value]) -> Action {
    let word = |t: &Value, i: usize| t[i].as_str().map(str::to_string);
    let first = &tokens[0];
    match first[0].as_str().unwrap() {
        "add" => {
            let k = hole(&word(first, 1).unwrap());
            let next = &tokens[1];
            let rightwards = match next[0].as_str().unwrap() {
                "take" => {
                    let place = &tokens[2];
                    match word(place, 1).unwrap().as_str() {
                        "Ra" => true,
                        "Rd" => false,
                        // The gambit places into the hole added to, then spreads on.
                        _ => {
                            let spread = &tokens[3];
                            let n = spread[1].as_i64().unwrap() as i32;
                            rightwards_reaching(k, n, hole(&word(spread, 2).unwrap()))
                        }
                    }
                }
                "spread" => match word(next, 3).as_deref() {
                    Some("R") => true,
                    Some("L") => false,
                    _ => {
                        let n = next[1].as_i64().expect("a count or a direction") as i32;
                        rightwards_reaching(k, n, hole(&word(next, 2).unwrap()))
                    }
                },
                other => panic!("unexpected token {other} after add"),
            };
            yao::begin_action(k, rightwards)
        }
        "spread" => {
            let k = hole(&word(first, 4).expect("a phase-2 spread names its hole"));
            let rightwards = word(first, 3).expect("a phase-2 spread names its way") == "R";
            yao::begin_action(k, rightwards)
        }
        other => panic!("a half-move cannot begin with {other}"),
    }
}

/// The positions file: for each half-move, its label and the expected snapshot (A = player 0).
fn positions() -> Vec<(String, Snapshot)> {
    POSITIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let l = l.split('#').next().unwrap();
            let label = l.split_whitespace().next().unwrap().to_string();
            let field = |key: &str| -> Vec<u8> {
                let start = l.find(key).unwrap_or_else(|| panic!("{key} in {l}")) + key.len();
                l[start..]
                    .split(['|', 'h'])
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect()
            };
            let mut pits = Vec::new();
            for key in ["A.front=", "A.back=", "B.front=", "B.back="] {
                let row = field(key);
                assert_eq!(row.len(), 8, "{key} in {l}");
                pits.extend(row);
            }
            let number = |key: &str| -> u32 {
                let start = l.find(key).unwrap_or_else(|| panic!("{key} in {l}")) + key.len();
                l[start..]
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            let hands = [number("hand A="), number(" B=")];
            let snap = Snapshot {
                pits,
                hands,
                ..Default::default()
            };
            (label, snap)
        })
        .collect()
}

fn gambit_rules() -> Variant {
    Variant::new("yao@1", &[("sanderson_gambit".into(), "true".into())]).unwrap()
}

/// Plays the specimen, checking every half-move; returns the record of the game.
fn play_specimen() -> GameRecord {
    let moves: Value = serde_json::from_str(MOVES).unwrap();
    let half_moves = moves["half_moves"].as_array().unwrap();
    let expected = positions();
    assert_eq!(half_moves.len(), 49);
    assert_eq!(expected.len(), 49);
    let v = gambit_rules();
    let mut s = v.start(Player::South);
    let mut record = GameRecord::new(&v, Player::South, None, false);
    record.seats = ["A".into(), "B".into()];
    for (h, (label, want)) in half_moves.iter().zip(&expected) {
        let player = match h["player"].as_str().unwrap() {
            "A" => Player::South,
            _ => Player::North,
        };
        let name = format!("{}{}", h["move"], h["player"].as_str().unwrap());
        assert_eq!(&name, label, "the two files list the same half-moves");
        assert_eq!(v.to_play(&s), Some(player), "{name}: player to move");
        let tokens = h["tokens"].as_array().unwrap();
        let stops = tokens.last().unwrap()[1].as_str() == Some("village");
        record
            .play(&v, &mut s, first_action(tokens))
            .unwrap_or_else(|e| panic!("{name}: {e}\n{}", v.render(&s)));
        // Rule XV: the engine asks at every arrival at the intact village; the text says
        // where the player stopped.
        while v.to_play(&s) == Some(player) {
            let mask = v.legal_mask(&s);
            assert!(
                mask.contains(STOP),
                "{name}: the turn goes on only at the village"
            );
            let a = if stops { STOP } else { GO_ON };
            record
                .play(&v, &mut s, a)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(
            &v.snapshot(&s),
            want,
            "{name}: board after the half-move\n{}",
            v.render(&s)
        );
    }
    assert!(v.is_terminal(&s), "the game is over after 25A");
    assert_eq!(v.returns(&s), [1.0, -1.0], "A wins on his 25th move");
    record
}

#[test]
fn specimen_game_replays_position_by_position_and_a_wins_on_move_25() {
    play_specimen();
}

#[test]
fn specimen_village_stop_is_taken_once_and_hands_are_empty_after_move_22() {
    let record = play_specimen();
    let stops = record.actions.iter().filter(|&&a| a == STOP).count();
    assert_eq!(stops, 1, "XV is used once, at 4A");
    let expected = positions();
    assert_eq!(expected[43].0, "22B");
    assert_eq!(expected[43].1.hands, [0, 0]);
}

/// `tests/data/yao_specimen.record.json` is the same game as a [`GameRecord`] (for `ayo
/// replay`); it replays, and the board at the end of each turn is the positions file's.
/// Regenerate it with `YAO_WRITE_RECORD=1 cargo test -p ayo-tests --test yao_specimen`.
#[test]
fn specimen_record_replays_and_its_turns_match_the_positions() {
    let fresh = play_specimen();
    if std::env::var_os("YAO_WRITE_RECORD").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/yao_specimen.record.json");
        std::fs::write(path, fresh.to_json() + "\n").unwrap();
    }
    let record = GameRecord::from_json(RECORD).unwrap();
    let replay = record.replay().unwrap();
    let mut turn_ends = Vec::new();
    for i in 0..record.actions.len() {
        if i + 1 == record.actions.len() || record.movers[i + 1] != record.movers[i] {
            turn_ends.push(record.boards[i].clone());
        }
    }
    let expected: Vec<Snapshot> = positions().into_iter().map(|(_, s)| s).collect();
    assert_eq!(turn_ends, expected);
    assert!(replay.rules.is_terminal(replay.states.last().unwrap()));
    assert_eq!(record.outcome.unwrap().returns, [1.0, -1.0]);
}
