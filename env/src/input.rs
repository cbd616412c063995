//! # What a learner sees of a position
//!
//! The observation ([`Rules::observe`]) and, when asked for, the look-ahead features after it,
//! by plies of search with the baselines' heuristic (`lookahead`): `0` none, `1`
//! [`Rules::tactics`] (what each move gains), `2` also [`exchanges`](crate::rules::exchanges)
//! (what each move gains once the best answer to it is counted), `3` also what it gains once
//! the answer and the best reply to it are counted
//! ([`exchanges_after`]). A network trained with `lookahead`, the
//! [`VecEnv`](crate::VecEnv) configured with it and the Python environments built with it all
//! encode a position here, so they agree entry for entry.

use crate::player::Player;
use crate::rules::{exchanges_after, tactics_bound, Rules};
use serde::Deserialize;

/// The deepest look-ahead [`encode`] offers.
pub const MAX_LOOKAHEAD: u8 = 4;

/// Length of [`encode`]'s output: the observation, then the look-ahead features of
/// `lookahead` plies.
pub fn input_len<R: Rules>(rules: &R, lookahead: u8) -> usize {
    rules.observation_len()
        + match lookahead {
            0 => 0,
            plies => rules.tactics_len() + (plies as usize - 1) * rules.num_actions(),
        }
}

/// Writes the input of `s` into `out` (`input_len(rules, lookahead)` long): the observation
/// from the view of the player to move, then the look-ahead features of `lookahead` plies
/// (`1`: [`Rules::tactics`]; `2`: those, then [`exchanges`](crate::rules::exchanges); `3`, `4`:
/// then the third and fourth plies, [`exchanges_after`]).
pub fn encode<R: Rules>(rules: &R, s: &R::State, lookahead: u8, out: &mut [f32]) {
    let n = rules.observation_len();
    rules.observe(s, &mut out[..n]);
    if lookahead >= 1 {
        let (tactics, rest) = out[n..].split_at_mut(rules.tactics_len());
        rules.tactics(s, tactics);
        exchanges_after(rules, s, lookahead, rest);
    }
}

/// `(low, high)` bounds of every entry of [`encode`]'s output: an observation entry lies
/// within `0..=` the pieces in play, a look-ahead feature within ±[`tactics_bound`].
pub fn input_bounds<R: Rules>(rules: &R, lookahead: u8) -> (f32, f32) {
    let pieces = rules.snapshot(&rules.start(Player::South)).total() as f32;
    if lookahead > 0 {
        let t = tactics_bound(rules);
        (-t, pieces.max(t))
    } else {
        (0.0, pieces)
    }
}

/// Reads a `lookahead` setting written either way: a number of plies (`0..=`[`MAX_LOOKAHEAD`])
/// or, as configs and checkpoints wrote it before the second ply, `false`/`true` (0/1).
/// For `#[serde(deserialize_with = "ayo_env::input::deserialize_lookahead")]`.
pub fn deserialize_lookahead<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    #[derive(serde::Deserialize)]
    #[serde(untagged)]
    enum Written {
        Flag(bool),
        Plies(u64),
    }
    match Written::deserialize(d)? {
        Written::Flag(on) => Ok(on as u8),
        Written::Plies(n) => lookahead_plies(&n.to_string()),
    }
    .map_err(serde::de::Error::custom)
}

/// Reads a `--lookahead` value as a config's `lookahead` reads: `false`, `true` or a number of
/// plies from 0 to [`MAX_LOOKAHEAD`]. For clap's `value_parser`.
pub fn parse_lookahead(s: &str) -> Result<u8, String> {
    match s {
        "false" => Ok(0),
        "true" => Ok(1),
        plies => lookahead_plies(plies),
    }
}

fn lookahead_plies(written: &str) -> Result<u8, String> {
    match written.parse::<u8>() {
        Ok(plies) if plies <= MAX_LOOKAHEAD => Ok(plies),
        _ => Err(format!(
            "lookahead = {written}: expected false, true or a number of plies from 0 to {MAX_LOOKAHEAD}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Setting {
        #[serde(deserialize_with = "deserialize_lookahead")]
        lookahead: u8,
    }

    fn read(json: &str) -> Result<u8, String> {
        serde_json::from_str::<Setting>(json)
            .map(|s| s.lookahead)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn lookahead_reads_plies_and_the_older_flags() {
        assert_eq!(read(r#"{"lookahead": false}"#), Ok(0));
        assert_eq!(read(r#"{"lookahead": true}"#), Ok(1));
        assert_eq!(read(r#"{"lookahead": 2}"#), Ok(2));
        assert_eq!(read(r#"{"lookahead": 4}"#), Ok(4));
        let e = read(r#"{"lookahead": 5}"#).unwrap_err();
        assert!(e.contains("lookahead = 5") && e.contains("0 to 4"), "{e}");
        assert!(read(r#"{"lookahead": "deep"}"#).is_err());
    }

    #[test]
    fn the_command_line_reads_lookahead_as_a_config_does() {
        for (flag, json) in [
            ("false", "false"),
            ("true", "true"),
            ("0", "0"),
            ("1", "1"),
            ("3", "3"),
            ("4", "4"),
            ("5", "5"),
            ("300", "300"),
            ("-1", "-1"),
            ("deep", r#""deep""#),
        ] {
            let config = read(&format!(r#"{{"lookahead": {json}}}"#));
            assert_eq!(parse_lookahead(flag).ok(), config.ok(), "{flag}");
        }
        let e = parse_lookahead("5").unwrap_err();
        assert!(e.contains("lookahead = 5") && e.contains("0 to 4"), "{e}");
    }
}
