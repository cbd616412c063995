//! Fixed work over the game tree, for tests and benchmarks: perft (the number of legal action
//! sequences of exactly `depth` plies), the perft file format, and random walks.

use crate::player::Player;
use crate::rng::Rng;
use crate::rules::Rules;

/// Counts the action sequences of exactly `depth` plies from `state` (a game that ends earlier
/// contributes nothing; passes are automatic and never counted).
pub fn perft<R: Rules>(rules: &R, state: &R::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mask = rules.legal_mask(state);
    if depth == 1 {
        return mask.count() as u64;
    }
    mask.iter()
        .map(|a| {
            let mut child = state.clone();
            rules.play_unchecked(&mut child, a);
            perft(rules, &child, depth - 1)
        })
        .sum()
}

/// Random self-play, one game at a time: `steps` times, asks for the legal mask (empty: the
/// game is over and a new one starts at `state`'s place) or plays a uniformly random legal
/// action with the checked `play`. Returns the actions played and the games finished.
pub fn random_walk<R: Rules>(
    rules: &R,
    state: &mut R::State,
    rng: &mut Rng,
    steps: u64,
) -> (u64, u64) {
    let (mut played, mut games) = (0, 0);
    for _ in 0..steps {
        let mask = rules.legal_mask(state);
        if mask.is_empty() {
            *state = rules.start(Player::South);
            games += 1;
            continue;
        }
        rules.play(state, rng.pick(mask)).expect("a legal action");
        played += 1;
    }
    (played, games)
}

/// One line of a perft file: the variant, the depth and the expected count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub variant: String,
    pub depth: u32,
    pub count: u64,
}

/// A perft file that cannot be read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PerftFileError {
    #[error("perft file line {line}: {text:?}: expected `VARIANT DEPTH COUNT`")]
    BadLine { line: usize, text: String },
    #[error("perft file names no source (a `# Source:` comment line)")]
    NoSource,
}

/// Parses a perft file (`tests/data/perft.txt`): `#` comments, one of which names the source
/// (`# Source:`), and lines `VARIANT DEPTH COUNT`.
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftCase>, PerftFileError> {
    if !text.lines().any(|l| l.starts_with("# Source:")) {
        return Err(PerftFileError::NoSource);
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let bad = || PerftFileError::BadLine {
                line: i + 1,
                text: l.to_string(),
            };
            match l.split_whitespace().collect::<Vec<_>>()[..] {
                [variant, depth, count] => Ok(PerftCase {
                    variant: variant.to_string(),
                    depth: depth.parse().map_err(|_| bad())?,
                    count: count.parse().map_err(|_| bad())?,
                }),
                _ => Err(bad()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_file_lines_and_errors() {
        let ok = parse_perft_file("# Source: here\noware 1 6\n\n# c\nncho 2 36\n").unwrap();
        assert_eq!(ok.len(), 2);
        assert_eq!(
            (ok[1].variant.as_str(), ok[1].depth, ok[1].count),
            ("ncho", 2, 36)
        );
        assert_eq!(
            parse_perft_file("oware 1 6\n"),
            Err(PerftFileError::NoSource)
        );
        assert!(matches!(
            parse_perft_file("# Source: x\noware one 6\n"),
            Err(PerftFileError::BadLine { line: 2, .. })
        ));
        assert!(parse_perft_file("# Source: x\noware 1\n").is_err());
    }
}
