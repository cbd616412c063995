//! Target 1: the notation parser of every variant (`Rules::parse_notation` through
//! `ayo_env::Variant`) and variant/option parsing from text (`Variant::from_str`,
//! `Variant::parse_options`, `Variant::new`).
//!
//! Input: byte 0 picks the variant (and seeds the playout); the rest is text. If the text has a
//! line break, its first line is `spec [options]` (e.g. `oware@1 seeds=3`) for `Variant::new`,
//! and the rest is the notation for that variant (when the spec was accepted). Any accepted
//! position must satisfy the rules contract (see `ayo_fuzz::check_state`) and be playable.
#![no_main]

use ayo_env::{Rules, Variant};
use ayo_fuzz::{playout, variant, Bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut rules = variant(pick);
    let mut notation: &str = &text;
    if let Some((head, tail)) = text.split_once('\n') {
        let _ = head.parse::<Variant>();
        let (spec, opts) = head.split_once(' ').unwrap_or((head, ""));
        if let Ok(options) = Variant::parse_options(opts) {
            if let Ok(v) = Variant::new(spec, &options) {
                // What a record stores (id and options) loads the same variant again.
                let again = Variant::new(&v.id(), &v.options()).expect("a variant's own id");
                assert_eq!(again, v, "options round trip of {v}");
                let _ = (v.to_string(), v.describe(), v.start(ayo_env::Player::North));
                rules = v;
                notation = tail;
            }
        }
    }
    if let Ok(mut state) = rules.parse_notation(notation) {
        let mut bytes = Bytes::new(data);
        playout(&rules, &mut state, &mut bytes, 64);
    }
});
