//! Helpers shared by the fuzz targets: a byte reader, the variant a byte selects, and the
//! rules contract of `ayo_env::Rules` checked on any state a parser accepted.

use ayo_env::{Action, Player, Rules, Variant, VariantState, VARIANT_NAMES};

/// Reads the fuzzer's bytes one at a time; 0 once they are used up.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, pos: 0 }
    }
    pub fn next(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }
    pub fn is_empty(&self) -> bool {
        self.pos >= self.data.len()
    }
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos.min(self.data.len())..]
    }
}

/// The preset (default options) that byte `b` selects, among every variant.
pub fn variant(b: u8) -> Variant {
    Variant::by_name(VARIANT_NAMES[b as usize % VARIANT_NAMES.len()]).expect("a known name")
}

/// Checks the [`Rules`] contract on `s`, a state some parser accepted (or a state reached from
/// one): a live game has a legal action and a finished one none, legal actions lie in the action
/// space, the seeds add up to `total`, the observation is finite, every accessor answers and
/// the notation parses back to a state with the same notation.
pub fn check_state(rules: &Variant, s: &VariantState, total: u32) {
    let mask = rules.legal_mask(s);
    assert_eq!(
        rules.to_play(s).is_none(),
        mask.is_empty(),
        "legal actions {:?} but to_play {:?} in {}",
        mask.to_vec(),
        rules.to_play(s),
        rules.notation(s)
    );
    for a in mask.iter() {
        assert!(
            (a as usize) < rules.num_actions(),
            "legal action {a} out of range"
        );
        let _ = rules.action_name(s, a);
    }
    let snap = rules.snapshot(s);
    assert_eq!(snap.total(), total, "seeds not conserved: {snap}");
    let mut obs = vec![0.0f32; rules.observation_len()];
    rules.observe(s, &mut obs);
    assert!(obs.iter().all(|x| x.is_finite()), "observation {obs:?}");
    let _ = (
        rules.scores(s),
        rules.returns(s),
        rules.ply(s),
        rules.hash(s),
    );
    let _ = (rules.continues_turn(s), rules.render(s));
    let _ = rules.render_from(s, Player::North);
    let text = rules.notation(s);
    let back = rules
        .parse_notation(&text)
        .unwrap_or_else(|e| panic!("notation {text:?} does not parse back: {e}"));
    assert_eq!(rules.notation(&back), text, "notation round trip");
}

/// Plays from `s` with actions chosen by `bytes` (a byte with the high bit set first tries an
/// action that may be illegal, which must then be refused and leave the game unchanged),
/// checking the contract after every action, for at most `max_plies` plies.
pub fn playout(rules: &Variant, s: &mut VariantState, bytes: &mut Bytes, max_plies: usize) {
    let total = rules.snapshot(s).total();
    check_state(rules, s, total);
    for _ in 0..max_plies {
        let mask = rules.legal_mask(s);
        if mask.is_empty() {
            break;
        }
        let b = bytes.next();
        if b & 0x80 != 0 {
            let a = (b & 0x3f) as Action;
            let before = s.clone();
            if rules.play(s, a).is_err() {
                assert_eq!(*s, before, "a refused action changed the game");
            } else {
                assert!(mask.contains(a), "illegal action {a} was played");
                check_state(rules, s, total);
                continue;
            }
        }
        let a = mask.nth(b as u32 % mask.count()).expect("n < count");
        if b & 0x40 != 0 {
            let drops = rules.play_traced(s, a).expect("a legal action plays");
            for d in &drops {
                assert_eq!(d.total(), total, "a drop of {a} lost seeds: {d}");
            }
        } else {
            rules.play(s, a).expect("a legal action plays");
        }
        check_state(rules, s, total);
        if bytes.is_empty() {
            break;
        }
    }
}
