//! Target 2: the game-record reader (`ayo_env::GameRecord::from_json`) and its replay and
//! verification (`GameRecord::replay`): a corrupt record must be refused, never panic.
//!
//! Input: if byte 0 is even, the rest is the record's JSON text as is. If it is odd, the bytes
//! drive a real game (variant, first player, detail, optional notation start, up to 31
//! actions, 7 in a detailed record); its
//! record must survive the JSON round trip and replay, and then one corruption chosen by the
//! next bytes (an action, a board, a drop, the result, the variant, the options, the start, the
//! length, or one byte of the JSON text) must be refused or replayed, never panic.
#![no_main]

use ayo_env::{GameRecord, Player, Rules, Variant, VariantState};
use ayo_fuzz::{variant, Bytes};
use libfuzzer_sys::fuzz_target;

fn check(record: &GameRecord) {
    if let Ok(replay) = record.replay() {
        assert_eq!(replay.states.len(), record.actions.len() + 1);
        assert_eq!(replay.drops.len(), record.actions.len());
        let json = record.to_json();
        let back = GameRecord::from_json(&json).expect("a record's own JSON reads back");
        assert_eq!(&back, record, "JSON round trip");
    }
}

fn real_game(b: &mut Bytes) -> (Variant, GameRecord) {
    let rules = variant(b.next());
    let flags = b.next();
    let first = if flags & 1 == 0 {
        Player::South
    } else {
        Player::North
    };
    let detail = flags & 2 != 0;
    let mut state: VariantState = rules.start(first);
    let mut start = None;
    if flags & 4 != 0 {
        // Start from a later position, given in notation.
        for _ in 0..b.next() % 16 {
            let mask = rules.legal_mask(&state);
            if mask.is_empty() {
                break;
            }
            let a = mask.nth(b.next() as u32 % mask.count()).unwrap();
            rules.play(&mut state, a).unwrap();
        }
        let text = rules.notation(&state);
        state = rules.parse_notation(&text).expect("own notation parses");
        start = Some(text);
    }
    let mut record = GameRecord::new(&rules, first, start, detail);
    // A detailed record holds every drop of every move: a short game is enough for it.
    let plies = b.next() % if detail { 8 } else { 32 };
    for _ in 0..plies {
        let mask = rules.legal_mask(&state);
        if mask.is_empty() {
            break;
        }
        let a = mask.nth(b.next() as u32 % mask.count()).unwrap();
        record
            .play(&rules, &mut state, a)
            .expect("a legal action plays");
    }
    if record.outcome.is_none() && flags & 8 != 0 {
        record.finish(&rules, &state, true);
    }
    (rules, record)
}

fn corrupt(record: &mut GameRecord, json: &str, b: &mut Bytes) {
    let n = record.actions.len();
    let k = |b: &mut Bytes, n: usize| if n == 0 { 0 } else { b.next() as usize % n };
    match b.next() % 12 {
        0 if n > 0 => {
            let i = k(b, n);
            record.actions[i] = b.next();
        }
        1 if n > 0 => {
            let i = k(b, n);
            let board = &mut record.boards[i];
            let p = k(b, board.pits.len());
            if let Some(pit) = board.pits.get_mut(p) {
                *pit = b.next();
            }
            if b.next() & 1 == 1 {
                board.stores[b.next() as usize % 2] = u32::from(b.next()) << (b.next() % 32);
            }
        }
        2 if n > 0 => {
            let i = k(b, n);
            record.boards[i].pits.truncate(b.next() as usize % 40);
        }
        3 => match b.next() % 3 {
            0 => {
                record.boards.pop();
            }
            1 => {
                record.actions.pop();
            }
            _ => record.movers.clear(),
        },
        4 => {
            if let Some(o) = &mut record.outcome {
                o.scores[b.next() as usize % 2] = b.next() as i32 - 128;
                o.returns[b.next() as usize % 2] = f32::from(b.next()) - 128.0;
                o.truncated = b.next() & 1 == 1;
            }
        }
        5 => {
            let names = [
                "oware@2",
                "ayo@1",
                "yao",
                "ncho@0",
                "",
                "@",
                "jerin@1@1",
                "oware@",
            ];
            record.variant = names[b.next() as usize % names.len()].to_string();
        }
        6 => {
            let opts = [
                ("seeds", "5"),
                ("seeds", "0"),
                ("episode", "match"),
                ("max_chain_pits", "none"),
                ("max_chain", "0"),
                ("end", "both"),
                ("sanderson_gambit", "yes"),
                ("", ""),
            ];
            let (key, value) = opts[b.next() as usize % opts.len()];
            record.options.push((key.to_string(), value.to_string()));
        }
        7 => {
            let text = String::from_utf8_lossy(b.rest()).into_owned();
            record.start = Some(text);
        }
        8 => {
            if let Some(drops) = &mut record.drops {
                if let Some(d) = drops.last_mut() {
                    d.clear();
                }
            }
        }
        9 => {
            record.first = !record.first;
        }
        10 => {
            let mut json = json.as_bytes().to_vec();
            if !json.is_empty() {
                let at = (usize::from(b.next()) << 8 | usize::from(b.next())) % json.len();
                json[at] = b.next();
                if let Ok(text) = std::str::from_utf8(&json) {
                    if let Ok(r) = GameRecord::from_json(text) {
                        check(&r);
                    }
                }
            }
        }
        _ => {
            let n = b.next() as usize % 4;
            record.actions.extend(std::iter::repeat(b.next()).take(n));
            record
                .boards
                .extend(record.boards.last().cloned().into_iter().cycle().take(n));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode & 1 == 0 {
        if let Ok(text) = std::str::from_utf8(rest) {
            if let Ok(record) = GameRecord::from_json(text) {
                check(&record);
            }
        }
        return;
    }
    let mut b = Bytes::new(rest);
    let (_, mut record) = real_game(&mut b);
    let json = serde_json::to_string(&record).expect("a record serialises");
    let back = GameRecord::from_json(&json).expect("own JSON reads back");
    assert_eq!(back, record, "JSON round trip of a played game");
    let replay = back
        .replay()
        .unwrap_or_else(|e| panic!("a played game replays: {e}"));
    if let Some(drops) = &record.drops {
        assert_eq!(&replay.drops, drops, "drops of the replay");
    }
    corrupt(&mut record, &json, &mut b);
    // Refused or replayed, never a panic (the JSON round trip was checked above).
    if let Ok(replay) = record.replay() {
        assert_eq!(replay.states.len(), record.actions.len() + 1);
    }
});
