//! Target 3: the engine protocol of `ayo engine` (`ayo_train::engine::serve`) with arbitrary
//! input lines, against the `random` agent.
//!
//! Input: byte 0 picks the variant; the rest is the engine's input, as raw bytes (not
//! necessarily UTF-8). The engine must answer every line without panicking and end only at
//! `quit` or the end of its input (never with an error), and every answer line must be one of
//! the protocol's.
#![no_main]

use ayo_fuzz::variant;
use libfuzzer_sys::fuzz_target;

const ANSWERS: &[&str] = &[
    "id ",
    "hellook",
    "readyok",
    "legal",
    "board ",
    "notation ",
    "tomove ",
    "over ",
    "info ",
    "bestmove ",
    "error ",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let rules = variant(pick);
    let mut agent = ayo_env::arena::agents::parse("random", u64::from(pick)).expect("random");
    let mut out = Vec::new();
    ayo_train::engine::serve(&rules, agent.as_mut(), input, &mut out)
        .expect("the engine ends only at quit or at the end of its input");
    let out = String::from_utf8(out).expect("answers are UTF-8");
    for line in out.lines() {
        assert!(
            ANSWERS.iter().any(|a| line.starts_with(a)),
            "not a protocol answer: {line:?}"
        );
    }
});
