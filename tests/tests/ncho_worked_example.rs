//! The worked example of source 001 ("The Game of Ayo", docs/sources.md), replayed through a per-drop game
//! record: every one of the eight printed boards must appear, lap by lap.
//!
//! The source prints the board after the last seed of each lap, before that pit is lifted
//! (docs/sources.md 4.3). The laps sow 4, 5, 5, 6, 6 seeds (turn 1) and 1, 7, 7 (turn 2), so the
//! printed boards are the boards after drops 4, 9, 14, 20, 26 of the first move and 1, 8, 15 of
//! the second. Boards are written as the source's rows: Player 1's houses 1-6 (pits 0-5), then
//! Player 2's houses 1-6 (pits 6-11).

use ayo_env::{GameRecord, Player, Rules, Variant};

/// One printed diagram: the drop (1-based) after which it is shown, and its 12 pits.
struct Diagram {
    drop: usize,
    pits: [u8; 12],
}

const TURN_1: [Diagram; 5] = [
    // "Player 1 starts and elects to play from House 3 placing one token in each of the next four houses."
    Diagram {
        drop: 4,
        pits: [4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4, 4],
    },
    // "He now picks the five tokens from House 1 of his opponent and plays to House 6."
    Diagram {
        drop: 9,
        pits: [4, 4, 0, 5, 5, 5, 0, 5, 5, 5, 5, 5],
    },
    // "And to his own House 5..."
    Diagram {
        drop: 14,
        pits: [5, 5, 1, 6, 6, 5, 0, 5, 5, 5, 5, 0],
    },
    // "... Player 2's House 5..."
    Diagram {
        drop: 20,
        pits: [5, 5, 1, 6, 0, 6, 1, 6, 6, 6, 6, 0],
    },
    // "...and back to his own House 5." (an empty house: the turn ends)
    Diagram {
        drop: 26,
        pits: [6, 6, 2, 7, 1, 6, 1, 6, 6, 6, 0, 1],
    },
];

const TURN_2: [Diagram; 3] = [
    // "Turn 2 : Player 2 from House 6"
    Diagram {
        drop: 1,
        pits: [7, 6, 2, 7, 1, 6, 1, 6, 6, 6, 0, 0],
    },
    // "From House 1 of Player 1."
    Diagram {
        drop: 8,
        pits: [0, 7, 3, 8, 2, 7, 2, 7, 6, 6, 0, 0],
    },
    // "And finally from his own House 2..." (the last seed makes *4* in Player 1's House 3)
    Diagram {
        drop: 15,
        pits: [1, 8, 4, 8, 2, 7, 2, 0, 7, 7, 1, 1],
    },
];

#[test]
fn worked_example_of_001_reproduces_all_eight_boards() {
    let ncho = Variant::new("ncho@1", &[]).unwrap();
    let mut game = ncho.start(Player::South);
    let mut record = GameRecord::new(&ncho, Player::South, None, true);
    // Player 1 (South) from his House 3 = action 2; Player 2 (North) from his House 6 = action 5.
    record.play(&ncho, &mut game, 2).unwrap();
    assert_eq!(ncho.to_play(&game), Some(Player::North));
    record.play(&ncho, &mut game, 5).unwrap();

    let drops = record.drops.as_ref().unwrap();
    for (turn, (diagrams, seeds)) in [(&TURN_1[..], 26), (&TURN_2[..], 15)]
        .into_iter()
        .enumerate()
    {
        assert_eq!(drops[turn].len(), seeds, "drops of turn {}", turn + 1);
        for d in diagrams {
            let snap = &drops[turn][d.drop - 1];
            assert_eq!(snap.pits, d.pits, "turn {} after drop {}", turn + 1, d.drop);
            assert_eq!(snap.in_hand, 0, "a printed board ends a lap");
        }
    }
    // "... Player 2 wins the four tokens in his opponents House 3."
    let end = ncho.snapshot(&game);
    assert_eq!(end.pits, vec![1, 8, 0, 8, 2, 7, 2, 0, 7, 7, 1, 1]);
    assert_eq!(end.stores, [0, 4]);
    assert_eq!(ncho.scores(&game), [0, 1]);
    assert_eq!(ncho.to_play(&game), Some(Player::South));

    // The record replays, and its JSON round-trips.
    let again = GameRecord::from_json(&record.to_json()).unwrap();
    assert_eq!(again.replay().unwrap().drops, *drops);
}
