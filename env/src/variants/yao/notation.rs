//! Yao's notation, board drawing, action names and rules summary: how a [`YaoState`] is
//! written, read and shown, nothing of the rules (those are in `mod.rs`).

use super::*;

/// The notation of `s` (described at [`Rules::notation`] for [`Yao`]).
pub(super) fn write(s: &YaoState) -> String {
    let b = &s.board;
    let row = |p: usize, back: bool| -> String {
        (0..ROW)
            .map(|i| {
                b.holes[p]
                    .get(lane_of_hole(if back { ROW + i } else { i }))
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let step = match (s.status, s.decision) {
        (Status::Won(p), _) => format!("won {}", p.index()),
        (Status::Drawn, _) => "drawn".into(),
        (Status::Live, Decision::Begin) => "begin".into(),
        (Status::Live, Decision::Village { dir, capturing }) => format!(
            "village {} {}",
            if dir == Dir::Clockwise {
                "right"
            } else {
                "left"
            },
            if capturing { "taking" } else { "quiet" }
        ),
    };
    format!(
        "{} / {} | {} / {} | hands {} {} | {} | village {} {} | gambit {} | {step}",
        row(0, false),
        row(0, true),
        row(1, false),
        row(1, true),
        b.hands[0],
        b.hands[1],
        s.to_move.index(),
        b.village_intact[0] as u8,
        b.village_intact[1] as u8,
        s.gambit,
    )
}

/// The state written as `text` in [`write`]'s notation, checked.
pub(super) fn parse(rules: &Yao, text: &str) -> Result<YaoState, ParseError> {
    let bad = |reason: String| ParseError::Notation {
        text: text.to_string(),
        reason,
    };
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    if fields.len() != 7 {
        return Err(bad(format!(
            "expected 7 fields separated by '|' (rows of player 0, rows of player 1, hands, player to move, village, gambit, step), found {}",
            fields.len()
        )));
    }
    let numbers = |f: &str, n: usize, what: &str| -> Result<Vec<u8>, ParseError> {
        match f
            .split_whitespace()
            .map(str::parse::<u8>)
            .collect::<Result<Vec<u8>, _>>()
        {
            Ok(v) if v.len() == n => Ok(v),
            _ => Err(bad(format!(
                "expected {n} numbers 0..=255 for {what}, found {f:?}"
            ))),
        }
    };
    let keyword = |f: &str, word: &str, n: usize| -> Result<Vec<u8>, ParseError> {
        match f.strip_prefix(word) {
            Some(rest) => numbers(rest, n, word),
            None => Err(bad(format!(
                "expected `{word}` and {n} numbers, found {f:?}"
            ))),
        }
    };
    let mut board = Board {
        holes: [Holes(0); 2],
        hands: [0; 2],
        village_intact: [false; 2],
    };
    for p in 0..2 {
        let Some((front, back)) = fields[p].split_once('/') else {
            return Err(bad(format!(
                "expected `front row / back row` for player {p}, found {:?}",
                fields[p]
            )));
        };
        let front = numbers(front, ROW, "a front row")?;
        let back = numbers(back, ROW, "a back row")?;
        for i in 0..ROW {
            board.holes[p].add(lane_of_hole(i), front[i]);
            board.holes[p].add(lane_of_hole(ROW + i), back[i]);
        }
    }
    let hands = keyword(fields[2], "hands", 2)?;
    board.hands = [hands[0], hands[1]];
    let to_move = match fields[3] {
        "0" => Player::South,
        "1" => Player::North,
        other => {
            return Err(bad(format!(
                "expected the player to move, 0 or 1, found {other:?}"
            )))
        }
    };
    let village = keyword(fields[4], "village", 2)?;
    if village.iter().any(|&v| v > 1) {
        return Err(bad(format!(
            "expected village flags 0 or 1, found {:?}",
            fields[4]
        )));
    }
    board.village_intact = [village[0] == 1, village[1] == 1];
    let gambit = keyword(fields[5], "gambit", 1)?[0];
    if gambit > 2 {
        return Err(bad(format!(
            "expected 0, 1 or 2 gambit moves left, found {gambit}"
        )));
    }
    let total =
        board.holes.iter().map(|h| h.total()).sum::<u32>() + hands[0] as u32 + hands[1] as u32;
    if total != MEN {
        return Err(bad(format!(
            "expected {MEN} men on the board and in hand, found {total}"
        )));
    }
    if board
        .holes
        .iter()
        .any(|h| (0..LOOP).any(|l| h.get(l) as u32 > MEN))
    {
        return Err(bad("a hole holds more than 64 men".into()));
    }
    let words: Vec<&str> = fields[6].split_whitespace().collect();
    let state = match words.as_slice() {
        ["begin"] => rules.state(board, to_move, Decision::Begin, gambit),
        ["village", way, take] => {
            let dir = match *way {
                "right" => Dir::Clockwise,
                "left" => Dir::Anticlockwise,
                _ => return Err(bad(format!("expected `right` or `left`, found {way:?}"))),
            };
            let capturing = match *take {
                "taking" => true,
                "quiet" => false,
                _ => return Err(bad(format!("expected `taking` or `quiet`, found {take:?}"))),
            };
            if !board.village_intact[to_move.index()]
                || board.holes[to_move.index()].get(VILLAGE) == 0
                || board.in_opposition(to_move, VILLAGE)
            {
                return Err(bad(
                    "a village decision needs the mover's village intact, occupied and not in opposition".into(),
                ));
            }
            rules.state(board, to_move, Decision::Village { dir, capturing }, gambit)
        }
        ["won", w] => {
            let winner = match *w {
                "0" => Player::South,
                "1" => Player::North,
                _ => return Err(bad(format!("expected the winner, 0 or 1, found {w:?}"))),
            };
            rules.over(board, to_move, gambit, Status::Won(winner))
        }
        ["drawn"] => rules.over(board, to_move, gambit, Status::Drawn),
        _ => {
            return Err(bad(format!(
                "expected the step `begin`, `village left|right taking|quiet`, `won 0|1` or `drawn`, found {:?}",
                fields[6]
            )))
        }
    };
    Ok(state)
}

/// The board drawn from `seat`'s side (his rows at the bottom), with the article's names.
pub(super) fn draw(s: &YaoState, seat: Player) -> String {
    let b = &s.board;
    let (me, them) = (seat, !seat);
    let row = |p: Player, back: bool, reversed: bool| -> String {
        let mut cells: Vec<String> = (0..ROW)
            .map(|i| {
                let k = if back { ROW + i } else { i };
                format!("{:>4}", b.holes[p.index()].get(lane_of_hole(k)))
            })
            .collect();
        if reversed {
            cells.reverse();
        }
        cells.concat()
    };
    let names = |names: [&str; ROW], reversed: bool| -> String {
        let mut cells: Vec<String> = names.iter().map(|n| format!("{n:>4}")).collect();
        if reversed {
            cells.reverse();
        }
        cells.concat()
    };
    let who = |p: Player| ["South", "North"][p.index()];
    let village = |p: Player| {
        if b.village_intact[p.index()] {
            "village intact"
        } else {
            "village opened"
        }
    };
    let state = match s.status {
        Status::Won(p) => format!("{} has won", who(p)),
        Status::Drawn => "drawn".to_string(),
        Status::Live => match s.decision {
            Decision::Begin => format!("{} to move", who(s.to_move)),
            Decision::Village { dir, capturing } => format!(
                "{} arrived at V going {}{}: stop or go on",
                who(s.to_move),
                if dir == Dir::Clockwise {
                    "right"
                } else {
                    "left"
                },
                if capturing { ", taking" } else { "" }
            ),
        },
    };
    let gambit = if s.gambit > 0 {
        format!(" (gambit: {} to play)", s.gambit)
    } else {
        String::new()
    };
    format!(
        "       {}\n {:<5} {}   hand {}\n       {}   {}\n       {}\n       {}\n {:<5} {}   {}\n       {}   hand {}\n       {}\n {state}{gambit}",
        names(BACK_NAMES, true),
        who(them),
        row(them, true, true),
        b.hands[them.index()],
        row(them, false, true),
        village(them),
        names(FRONT_NAMES, true),
        names(FRONT_NAMES, false),
        who(me),
        row(me, false, false),
        village(me),
        row(me, true, false),
        b.hands[me.index()],
        names(BACK_NAMES, false),
    )
}

/// What an action does, in the article's words (`add Od, spread left`, `stop at V`).
pub(super) fn action_name(s: &YaoState, action: Action) -> String {
    match action {
        STOP => return "stop at V".into(),
        GO_ON => return "go on from V".into(),
        _ if action as usize >= NUM_ACTIONS => return format!("action {action}"),
        _ => {}
    }
    let p = s.to_move;
    let k = action as usize / 2;
    let name = hole_name(k);
    let way = if action % 2 == 1 { "right" } else { "left" };
    let b = &s.board;
    if b.hands[p.index()] == 0 {
        return format!("spread {name} {way}");
    }
    if k < ROW && b.in_opposition(p, k) {
        if s.gambit > 0 {
            return format!("add {name}, place in {name} (gambit), spread {way}");
        }
        let end = if action % 2 == 1 { "Ra" } else { "Rd" };
        return format!("add {name}, place from {end}");
    }
    format!("add {name}, spread {way}")
}

/// The rules in a few lines, for `ayo rules`.
pub(super) fn describe(rules: &Yao) -> String {
    format!(
        "yao@1 — the four-row Yao game of Nyasaland (Sanderson 1913).\n\
         Board: 4 rows of 8 holes, 64 men. Each player owns his back row (nearest him) and his front row;\n\
         rows are read from their owner's left: front Ra Rb Oa Ob V Od Rc Rd (Ra Rb, Rc Rd reverse holes,\n\
         Oa Ob V Od optional, V the village), back A B C D E F G H (A behind Ra). Front hole c faces the other's\n\
         front hole 7-c; a front hole is in opposition when it and the hole facing it both hold men.\n\
         Start: 22 men in hand; 6 in V, 2 in Od and 2 in Rc. South (player 0) moves first.\n\
         Sowing: round the player's own 16 holes — along the front row, back along the back row (clockwise =\n\
         rightwards in front); the hole sown from is not skipped. A man arriving in an empty hole ends the turn.\n\
         Phase 1 (men in hand): add one man to an occupied front hole — to one in opposition if there is one (VI).\n\
         In opposition: take the men facing it and place them one per hole from an end of the front row, on into\n\
         the back row: from Ra/Rb they go from Ra, from Rc/Rd from Rd (XVIII), from an optional hole from the end\n\
         the player chooses (XII). Otherwise (X) spread the hole added to, either way; from the intact village only\n\
         2 men, and only when every other front hole is empty; such a move never takes (XI).\n\
         Phase 2 (none in hand): spread any own hole holding 2 or more, either way; the move takes only if its\n\
         first spread arrives in an occupied hole in opposition (XIV).\n\
         Chain: arriving in an occupied hole, take and place if the move takes and the hole is in opposition\n\
         (men taken from an optional hole go from Ra when travelling right, from Rd when left, XIX), else spread\n\
         it on the same way. Arriving at the intact village not in opposition, the player may stop (XV).\n\
         End: taking the last men of the opponent's front row wins at once (they stay in hand). A player who\n\
         empties his own front row, or who has no men in hand and only single men (XX), loses.\n\
         A move that would never end (its chain repeats a state, or runs more than max_chain={max_chain} spreads and\n\
         takes) is illegal; a player all of whose moves never end passes. No repetition rule.\n\
         Option sanderson_gambit={gambit} (true: the article's two fixed opening moves — both players add to Od and\n\
         go left; the second places the man taken into Od itself).\n\
         Actions (34): a turn is one or two decisions of the same player.\n\
         \x20 2k+d (0-31): begin at own hole k (0-7 = Ra..Rd, 8-15 = A..H) going d (0 = left, 1 = right, as the mover\n\
         \x20   sees that row). Men in hand: k is the front hole added to; at a hole in opposition d is the way the\n\
         \x20   taken men travel (right = placed from Ra, left = from Rd); otherwise d is the rule-X spread.\n\
         \x20   No men in hand: k is the hole spread.\n\
         \x20 32: stop at the village; 33: go on (spread the village) — offered when the chain arrives there (XV).\n\
         Notation: `front / back | front / back | hands h0 h1 | to-move | village v0 v1 | gambit g | step`, rows of\n\
         player 0 then 1 from their owner's left; step = begin, village left|right taking|quiet, won p or drawn.\n\
         Snapshot pits 0-31: player 0's Ra..Rd, A..H, then player 1's Ra..Rd, A..H; hands in `hands`.\n\
         Observation (40 floats, mover's view, men/8): his Ra..Rd, A..H; the opponent's front holes facing his\n\
         Ra..Rd, and the back holes behind them; hands/22; village flags; village decision, its direction and\n\
         whether it takes; gambit moves left/2.",
        gambit = rules.sanderson_gambit,
        max_chain = rules.max_chain.map_or("none".into(), |n| n.to_string()),
    )
}
