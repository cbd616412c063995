//! The fours family's notation, board text, action names and rules summary: how a
//! [`FoursState`] is written and read, nothing of the rules (those are in `mod.rs`).

use super::{
    Episode, Fours, FoursRules, FoursSetup, FoursState, Opening, HOME_ROWS, OPENING, SEEDS,
};
use crate::action::Action;
use crate::board::{pit_label, pit_of, Pits, PITS, ROW};
use crate::error::ParseError;
use crate::player::Player;

/// The label of absolute pit `i` (`A`–`F` South's, `a`–`f` North's).
fn pit_name(i: usize) -> char {
    let owner = if i < ROW {
        Player::South
    } else {
        Player::North
    };
    pit_label(owner, i % ROW)
}

/// The notation of `s`: `p0 … p11 | g0 g1 | m | owners | round r starter s[ opening]`.
pub(super) fn write(s: &FoursState) -> String {
    let pits: Vec<String> = s.position.pits.iter().map(|x| x.to_string()).collect();
    let owners: String = s
        .position
        .owner
        .iter()
        .map(|p| p.index().to_string())
        .collect();
    format!(
        "{} | {} {} | {} | {} | round {} starter {}{}",
        pits.join(" "),
        s.position.groups[0],
        s.position.groups[1],
        s.position.to_move.index(),
        owners,
        s.position.round,
        s.position.starter.index(),
        if s.position.opening_due {
            " opening"
        } else {
            ""
        }
    )
}
/// The state written as `text` in [`write`]'s notation, checked (48 seeds, a round from 1).
pub(super) fn parse<V: FoursRules>(rules: &Fours<V>, text: &str) -> Result<FoursState, ParseError> {
    let bad = |reason: String| ParseError::Notation {
        text: text.to_string(),
        reason,
    };
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    let [pits, groups, to_move, owners, round] = fields[..] else {
        return Err(bad(format!(
            "expected 5 fields `pits | groups | to move | owners | round r starter s`, found {}",
            fields.len()
        )));
    };
    let nums = |f: &str, n: usize, what: &str| -> Result<Vec<u8>, ParseError> {
        match f.split_whitespace().map(str::parse::<u8>).collect() {
            Ok(v) if Vec::len(&v) == n => Ok(v),
            _ => Err(bad(format!(
                "expected {n} numbers 0..=255 for {what}, found {f:?}"
            ))),
        }
    };
    let player = |f: &str, what: &str| match f {
        "0" => Ok(Player::South),
        "1" => Ok(Player::North),
        _ => Err(bad(format!("expected {what}, 0 or 1, found {f:?}"))),
    };
    let pits: Pits = nums(pits, PITS, "the pits")?.try_into().unwrap();
    let groups: [u8; 2] = nums(groups, 2, "the groups")?.try_into().unwrap();
    let to_move = player(to_move, "the player to move")?;
    if owners.len() != PITS {
        return Err(bad(format!(
            "expected the owners of the 12 pits as 12 digits 0 or 1, found {owners:?}"
        )));
    }
    let mut owner = HOME_ROWS;
    for (i, c) in owners.chars().enumerate() {
        owner[i] = player(&c.to_string(), "an owner")?;
    }
    let words: Vec<&str> = round.split_whitespace().collect();
    let (r, starter, opening) = match words[..] {
        ["round", r, "starter", st] => (r, st, false),
        ["round", r, "starter", st, "opening"] => (r, st, true),
        _ => {
            return Err(bad(format!(
                "expected `round <n> starter <0|1>` (then `opening` while J'erin's opening is due), found {round:?}"
            )))
        }
    };
    let round: u32 = r
        .parse()
        .ok()
        .filter(|&r| r >= 1)
        .ok_or_else(|| bad(format!("expected a round number from 1, found {r:?}")))?;
    let starter = player(starter, "the round's starter")?;
    let total: u32 =
        pits.iter().map(|&x| x as u32).sum::<u32>() + 4 * (groups[0] as u32 + groups[1] as u32);
    if total != SEEDS as u32 {
        return Err(bad(format!(
            "expected {SEEDS} seeds in the pits and groups (4 each), found {total}"
        )));
    }
    Ok(rules.begin(FoursSetup {
        pits,
        owner,
        groups,
        to_move,
        starter,
        round,
        opening_due: opening,
    }))
}
/// The board as text, houses owned across the board marked `*`.
pub(super) fn render<V: FoursRules>(rules: &Fours<V>, s: &FoursState) -> String {
    let cell = |i: usize| {
        let mark = if s.position.owner[i] != crate::board::row_owner(i) {
            '*'
        } else {
            ' '
        };
        format!("{:>3}{mark}", s.position.pits[i])
    };
    let north: String = (ROW..PITS).rev().map(cell).collect();
    let south: String = (0..ROW).map(cell).collect();
    let mover = if s.over {
        if rules.episode == Episode::Match {
            "match over".to_string()
        } else {
            "round over".to_string()
        }
    } else {
        format!("{} to move", ["South", "North"][s.position.to_move.index()])
    };
    let opening = if s.position.opening_due {
        ", opening due"
    } else {
        ""
    };
    format!(
        "         f   e   d   c   b   a\n North {north}  groups {}\n South {south}  groups {}\n         A   B   C   D   E   F\n (* = house owned by the player across the board)\n round {} started by {}{opening}; {mover}",
        s.position.groups[1],
        s.position.groups[0],
        s.position.round,
        ["South", "North"][s.position.starter.index()]
    )
}
/// The pit an action sows (`A`–`F`, `a`–`f`), or J'erin's two-house opening.
pub(super) fn action_name(s: &FoursState, action: Action) -> String {
    let p = s.position.to_move;
    if action < OPENING {
        format!("{}", pit_name(pit_of(p, action as usize)))
    } else {
        let k = (action - OPENING) as usize;
        format!(
            "open {}+{}",
            pit_name(pit_of(p, k)),
            pit_name(pit_of(p, k + 1))
        )
    }
}
/// The rules in a few lines, for `ayo rules`.
pub(super) fn describe<V: FoursRules>(rules: &Fours<V>) -> String {
    let opening = match V::OPENING {
        Opening::Ordinary => String::new(),
        Opening::TwoHouses => {
            "; 12-16 J'erin's two-house opening from own home pits k and k+1 (k = 0-4)".into()
        }
    };
    format!(
        "{name}@1 — {summary}\n\
         Common to the fours family (ncho, adi, jerin): 2 rows of 6 houses, 4 seeds each (48); South (player 0)\n\
         owns pits 0-5 and North pits 6-11 in round 1. A player lifts any non-empty house he owns, on either\n\
         row, and sows counter-clockwise, the origin not skipped; a last seed in an occupied pit lifts it and\n\
         sowing goes on (relay); a last seed in a pit that was empty ends the turn. A move whose relay would\n\
         never end (repeats a board and pit at a lift) is illegal; a player with no legal move passes.\n\
         A position (board, player to move) that recurs since the last capture ends the round: each player\n\
         gets floor(seeds in his houses / 4) groups, a leftover group goes to the larger remainder (2-2: to\n\
         the player who did not start the round); the same if neither player can move.\n\
         Rounds: groups won become houses; a player with g > 6 groups also owns the first g-6 houses of\n\
         the opponent's row in the opponent's order 3,4,2,5,1,6. Owning all 12 houses wins the match.\n\
         Episode (option `episode`, now `{episode}`): `round` ends with the round (result: sign of the group\n\
         difference); `match` goes on to the next round (all pits 4, new owners, its starter to move).\n\
         Actions (0-11): the pit (6·mover + a) mod 12, i.e. counted from the mover's own left in sowing\n\
         order{opening}.\n\
         Notation: `p0 … p11 | groups0 groups1 | to-move | owners of pits 0-11 as 12 digits | round r starter s`\n\
         (jerin adds ` opening` while the two-house opening is due).\n\
         Observation (28 floats, mover's view, pits from the mover's left): 12 pits (seeds/4), 12 flags\n\
         (1 = the mover owns the house), own groups/12, opponent's groups/12, 1 if the mover started the\n\
         round, 1 while J'erin's opening is due.",
        name = V::NAME,
        summary = V::summary(),
        episode = match rules.episode {
            Episode::Round => "round",
            Episode::Match => "match",
        },
    )
}
