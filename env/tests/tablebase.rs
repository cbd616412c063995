//! The endgame tables of `oware@1` and `ayoayo@1` against independent searches: every board of
//! a small table against alpha-beta with the repetition memory to the end of the game, the
//! exact game result (stores plus the entry) against a search of the real game (`Rules::play`:
//! its repetition rule, oware's stop at 25, ayoayo's odu, retaliation and exhaustion), and the
//! refusal of wrong and damaged files.

use ayo_env::arena::agents::{self, AlphaBeta, Mcts, WIN};
use ayo_env::tablebase::search::check_layer;
use ayo_env::tablebase::{
    accuracy, build_tables, BuildEvent, Game, Index, Node, Oracle, Tablebase, TablebaseError,
};
use ayo_env::{Agent, Player, Rules, Variant, VariantState};
use std::path::PathBuf;
use std::sync::Arc;

/// The small table the tests share: every board of at most `SEEDS` seeds.
const SEEDS: usize = 5;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ayo-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The table of `game` up to `seeds` seeds in the temporary folder `name`, built once (`built`)
/// for every test that asks.
fn shared_table(
    built: &'static std::sync::OnceLock<PathBuf>,
    name: &str,
    game: Game,
    seeds: usize,
) -> (PathBuf, Tablebase) {
    let dir = built.get_or_init(|| {
        let dir = temp_dir(name);
        build_tables(&dir, game, seeds, |_| {}).unwrap();
        dir
    });
    (dir.clone(), Tablebase::open(dir).unwrap())
}

fn small_table() -> (PathBuf, Tablebase) {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    shared_table(&BUILT, "small", Game::Oware, SEEDS)
}

/// Every entry of the layers up to 3 seeds proved by alpha-beta over the game with its
/// repetition memory, searched to the end (no entry read); in the layers of 4 and 5 seeds,
/// every entry whose proof fits in 5,000 nodes (the others are counted): an exact entry equals
/// the search's value and an inexact one's bounds hold it. No entry is contradicted.
#[test]
fn the_entries_of_a_small_table_agree_with_search_to_the_end() {
    let (_, table) = small_table();
    for seeds in 0..=SEEDS {
        let cap = if seeds <= 3 { 1_000_000 } else { 5_000 };
        let check = check_layer(&table, seeds, None, false, cap);
        eprintln!("{check:?}");
        assert!(check.wrong.is_empty(), "layer {seeds}: {:?}", check.wrong);
        assert_eq!(check.searched, Index::get().boards(seeds));
        if seeds <= 3 {
            assert_eq!(check.capped, 0, "layer {seeds}");
        } else {
            assert!(
                check.exact_agree + check.bounds_hold > 0,
                "layer {seeds}: {check:?}"
            );
        }
    }
}

/// A game in notation with North to move, `pits` the board from his view (his row first) and
/// the stores given.
fn north_to_move(pits: &[u8; 12], north_store: u32, south_store: u32) -> String {
    let row = |r: &[u8]| {
        r.iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{} {} | {south_store} {north_store} | 1",
        row(&pits[6..]),
        row(&pits[..6])
    )
}

/// The game's result from South's view (+1, 0, −1) under best play, by negamax over the real
/// game to its end.
fn south_result(rules: &Variant, s: &VariantState) -> i32 {
    fn mover_result(rules: &Variant, s: &VariantState, mut alpha: i32, beta: i32) -> i32 {
        let p = rules.to_play(s).expect("a live game");
        let mut best = -2;
        for a in rules.legal_actions(s) {
            let mut next = s.clone();
            rules.play(&mut next, a).unwrap();
            let v = match rules.to_play(&next) {
                None => rules.returns(&next)[p.index()] as i32,
                Some(q) => {
                    assert_ne!(q, p, "oware alternates");
                    -mover_result(rules, &next, -beta, -alpha)
                }
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
    match rules.to_play(s) {
        None => rules.returns(s)[0] as i32,
        Some(p) => {
            let v = mover_result(rules, s, -2, 2);
            if p == Player::South {
                v
            } else {
                -v
            }
        }
    }
}

/// The exact result of a game whose board is in the table and whose memory is fresh is the sign
/// of the store difference plus the entry (the mover's view): checked against a search of the
/// real game, stop at 25 included, on every board of up to 3 seeds with stores on both sides of
/// it.
#[test]
fn stores_plus_an_exact_entry_give_the_real_games_result() {
    let (_, table) = small_table();
    let oware: Variant = "oware".parse().unwrap();
    let index = Index::get();
    let mut checked = 0;
    for seeds in 1..=3usize {
        for rank in 0..index.boards(seeds) {
            let pits = index.unrank(rank, seeds);
            let entry = table.probe_board(&pits).unwrap();
            if !entry.is_exact() {
                continue;
            }
            let rest = 48 - seeds as u32;
            for mover_store in [rest / 2 - 3, rest / 2, rest / 2 + 2, 24] {
                let other = rest - mover_store;
                if other > 24 {
                    continue;
                }
                let text = north_to_move(&pits, mover_store, other);
                let game = oware.parse_notation(&text).unwrap();
                if oware.to_play(&game).is_none() {
                    // Over already (no legal move): the table's terminal entry is the rows.
                    assert_eq!(table.probe(&game), None, "{text}");
                    continue;
                }
                assert_eq!(table.probe(&game), Some(entry), "{text}");
                let expected = (mover_store as i32 - other as i32 + entry.lo as i32).signum();
                assert_eq!(
                    -south_result(&oware, &game),
                    expected,
                    "{text}: entry {entry:?}"
                );
                // What the searches are told: the same result, for the mover.
                let solved = table.solve(&game).expect("an exact entry decides");
                assert_eq!((solved.mover, solved.result), (Player::North, expected));
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked} games checked");
}

/// Resuming: a build finds the sound layers on disk, keeps them and builds the rest; the files
/// equal a build from nothing.
#[test]
fn a_build_resumes_at_the_first_missing_layer() {
    let (small, _) = small_table();
    let dir = temp_dir("resume");
    build_tables(&dir, Game::Oware, 4, |_| {}).unwrap();
    std::fs::remove_file(dir.join("oware-04.egtb")).unwrap();
    let (mut kept, mut built) = (vec![], vec![]);
    build_tables(&dir, Game::Oware, 5, |event| match event {
        BuildEvent::Kept(s) => kept.push(s.seeds),
        BuildEvent::Built(s) => built.push(s.seeds),
        BuildEvent::Progress { .. } => {}
    })
    .unwrap();
    assert_eq!((kept, built), (vec![0, 1, 2, 3], vec![4, 5]));
    for seeds in 0..=5 {
        let name = format!("oware-{seeds:02}.egtb");
        let [a, b] = [&dir, &small].map(|d| std::fs::read(d.join(&name)).unwrap());
        // The header holds the build's time; the entries are compared.
        assert_eq!(
            a[a.len() - 2 * Index::get().boards(seeds) as usize..],
            b[b.len() - 2 * Index::get().boards(seeds) as usize..]
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged, truncated, foreign or mislabelled file is refused with a message naming it.
#[test]
fn wrong_and_damaged_files_are_refused() {
    let (small, _) = small_table();
    let dir = temp_dir("refuse");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = |n: usize| {
        for seeds in 0..=n {
            let name = format!("oware-{seeds:02}.egtb");
            std::fs::copy(small.join(&name), dir.join(&name)).unwrap();
        }
    };
    let open_err = || Tablebase::open(&dir).expect_err("refused").to_string();
    let path = dir.join("oware-03.egtb");

    assert!(matches!(
        Tablebase::open(&dir),
        Err(TablebaseError::Empty { .. })
    ));
    copy(3);
    assert_eq!(Tablebase::open(&dir).unwrap().max_seeds(), 3);

    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let msg = open_err();
    assert!(
        msg.contains("oware-03.egtb") && msg.contains("CRC-32"),
        "{msg}"
    );

    copy(3);
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
    assert!(open_err().contains("damaged"), "{}", open_err());

    copy(3);
    let mut foreign = std::fs::read(&path).unwrap();
    let at = foreign.windows(7).position(|w| w == b"oware@1").unwrap();
    foreign[at + 6] = b'2';
    std::fs::write(&path, &foreign).unwrap();
    let msg = open_err();
    assert!(
        msg.contains("its rules is oware@2, expected oware@1"),
        "{msg}"
    );

    // Layer 2's file where layer 3's belongs.
    std::fs::copy(small.join("oware-02.egtb"), &path).unwrap();
    let msg = open_err();
    assert!(msg.contains("its layer is 2 seeds"), "{msg}");

    std::fs::write(&path, b"not a table at all").unwrap();
    assert!(matches!(
        Tablebase::open(&dir),
        Err(TablebaseError::NotATable { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A board's probe through a game of `oware` equals its probe by board, from either seat.
#[test]
fn a_game_probes_its_board_from_the_movers_view() {
    let (_, table) = small_table();
    let oware: Variant = "oware".parse().unwrap();
    let game = oware
        .parse_notation("0 0 0 0 0 1 2 1 0 0 0 0 | 20 24 | 0")
        .unwrap();
    assert_eq!(table.probe(&game).map(|e| (e.lo, e.hi)), Some((2, 2)));
    let flipped = oware
        .parse_notation("2 1 0 0 0 0 0 0 0 0 0 1 | 24 20 | 1")
        .unwrap();
    assert_eq!(table.probe(&flipped), table.probe(&game));
    assert_eq!(table.probe(&oware.start(Player::South)), None, "48 seeds");
}

/// An oracle answers only where the game's memory is fresh (the value is the game's there):
/// after a quiet move, the same board is not answered.
#[test]
fn the_table_answers_right_after_a_capture_only() {
    let (_, table) = small_table();
    let oware: Variant = "oware".parse().unwrap();
    // South's f (1 seed) takes North's a (3 seeds): North's 1-seed row is left, fresh memory.
    let mut game = oware
        .parse_notation("0 0 0 0 1 1 2 1 0 0 0 0 | 20 23 | 0")
        .unwrap();
    assert!(table.solve(&game).is_some());
    oware.play(&mut game, 4).unwrap(); // e: quiet, the memory holds two positions
    assert_eq!(table.solve(&game), None);
    assert!(table.probe(&game).is_some(), "the board is in the table");
}

/// A search that ends its lines at the table's known results proves what the table knows of
/// the root, and more than the search alone: on every board of 5 seeds whose entry decides the
/// result (North to move, fresh memory, stores a seed apart either way), wherever
/// `alphabeta:2+tb` proves a win or a loss it is the table's result for the root (which the
/// search never reads) and its move keeps it where the table knows the next position; it
/// proves more positions than `alphabeta:2` alone; and `mcts:100+tb` asks the table too.
#[test]
fn searches_with_the_table_prove_the_tables_result() {
    let (dir, _) = small_table();
    let table = Arc::new(Tablebase::open(&dir).unwrap());
    let oware: Variant = "oware".parse().unwrap();
    let index = Index::get();
    let seeds = SEEDS;
    let proven = |score: i32| score.abs() >= WIN / 2;
    let (mut checked, mut with_table, mut without) = (0, 0, 0);
    let mut mcts = Mcts::new(100, 1).with_table(table.clone());
    let mut mcts_hits = 0;
    for rank in 0..index.boards(seeds) {
        let pits = index.unrank(rank, seeds);
        let rest = 48 - seeds as u32;
        for mover_store in [rest / 2, rest / 2 + 1] {
            let other = rest - mover_store;
            let text = north_to_move(&pits, mover_store, other);
            let game = oware.parse_notation(&text).unwrap();
            let Some(truth) = table.solve(&game).map(|s| s.result) else {
                continue;
            };
            let (action, score, _) = AlphaBeta::new(2, 1).search_with(&oware, &game, &*table);
            if proven(score) {
                with_table += 1;
                assert_eq!(score.signum(), truth, "{text}: score {score}");
                let mut next = game.clone();
                oware.play(&mut next, action).unwrap();
                let kept = match oware.to_play(&next) {
                    None => Some(oware.returns(&next)[Player::North.index()] as i32),
                    Some(_) => table.solve(&next).map(|s| -s.result),
                };
                assert!(kept.is_none_or(|k| k == truth), "{text}: move {action}");
            }
            without += proven(AlphaBeta::new(2, 1).search(&oware, &game).1) as u32;
            if checked % 16 == 0 {
                mcts_hits += mcts.choose(&oware, &game).1.table_hits;
            }
            checked += 1;
        }
    }
    eprintln!("{checked} games: proven {with_table} with the table, {without} without");
    assert!(
        checked > 1000 && with_table > without,
        "{checked} games: {with_table} > {without}?"
    );
    assert!(mcts_hits > 0);
}

/// Specs name the table with `+tb=DIR`; a non-searching agent, a missing folder and a bare
/// `+tb` without `AYO_TABLEBASE` are refused with the spec and the reason.
#[test]
fn agent_specs_take_a_table() {
    let (dir, _) = small_table();
    let spec = format!("alphabeta:4+tb={}", dir.display());
    assert_eq!(agents::parse(&spec, 1).unwrap().name(), "alphabeta:4+tb");
    let mcts = format!("mcts:50+tb={}", dir.display());
    assert_eq!(agents::parse(&mcts, 1).unwrap().name(), "mcts:50+tb");
    let random = format!("random+tb={}", dir.display());
    let e = agents::parse(&random, 1).err().unwrap();
    assert!(e.reason.contains("does not search"), "{e}");
    let e = agents::parse("alphabeta:4+tb=/no/such/table", 1)
        .err()
        .unwrap();
    assert!(e.to_string().contains("/no/such/table"), "{e}");
    let e = agents::parse("alphabeta:4+tbx", 1).err().unwrap();
    assert!(e.reason.contains("+tb=DIR"), "{e}");
    if std::env::var_os(agents::TABLEBASE_VAR).is_none() {
        let e = agents::parse("alphabeta:4+tb", 1).err().unwrap();
        assert!(e.reason.contains(agents::TABLEBASE_VAR), "{e}");
    }
}

/// The optimal-move metric's labels: on every board of up to 3 seeds (North to move, fresh
/// memory, stores a seed apart either way) whose entry is exact, the best move is worth the
/// entry, a move keeps the margin exactly where its worth (searched in full) is the entry's,
/// and it keeps the result exactly where a search of the real game after it finds the
/// position's result.
#[test]
fn move_labels_agree_with_the_table_and_the_real_game() {
    let (_, table) = small_table();
    let oware: Variant = "oware".parse().unwrap();
    let index = Index::get();
    let mut moves = 0;
    for seeds in 1..=3usize {
        for rank in 0..index.boards(seeds) {
            let pits = index.unrank(rank, seeds);
            let rest = 48 - seeds as u32;
            for mover_store in [rest / 2, rest / 2 + 1] {
                let other = rest - mover_store;
                let text = north_to_move(&pits, mover_store, other);
                let game = oware.parse_notation(&text).unwrap();
                if oware.to_play(&game).is_none() {
                    continue;
                }
                let entry = table.probe(&game).unwrap();
                let Some(labels) = accuracy::label(&table, &oware, &game) else {
                    assert!(!entry.is_exact(), "{text}: an exact entry is labelled");
                    continue;
                };
                assert_eq!(labels.value, entry.lo as i32);
                let best = labels.moves.iter().filter_map(|m| m.worth).max();
                assert_eq!(best, Some(labels.value), "{text}: the best move's worth");
                let truth = -south_result(&oware, &game);
                for m in &labels.moves {
                    let a = m.action;
                    assert_eq!(
                        m.keeps_margin,
                        m.worth == Some(labels.value),
                        "{text}: {m:?}"
                    );
                    let mut next = game.clone();
                    oware.play(&mut next, a).unwrap();
                    let after = -south_result(&oware, &next);
                    assert_eq!(labels.keeps_result(a), after == truth, "{text}: move {a}");
                    moves += 1;
                }
            }
        }
    }
    assert!(moves > 500, "{moves} moves");
}

/// The small `ayoayo` table the tests share: every position (board and each side's odu) of at
/// most `AYOAYO_SEEDS` seeds.
const AYOAYO_SEEDS: usize = 6;

fn ayoayo_table() -> (PathBuf, Tablebase) {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    shared_table(&BUILT, "ayoayo", Game::Ayoayo, AYOAYO_SEEDS)
}

/// The final store difference for the player to move of a real game under best play for it:
/// negamax over `Rules::play` to the end (its own repetition memory, odu, retaliation and
/// exhaustion); `None` past `cap` nodes.
fn final_difference(rules: &Variant, s: &VariantState, cap: u64) -> Option<i32> {
    fn negamax(
        rules: &Variant,
        s: &VariantState,
        mut alpha: i32,
        beta: i32,
        nodes: &mut u64,
        cap: u64,
    ) -> Option<i32> {
        *nodes += 1;
        if *nodes > cap {
            return None;
        }
        let p = rules.to_play(s).expect("a live game");
        let mut best = i32::MIN;
        for a in rules.legal_actions(s) {
            let mut next = s.clone();
            rules.play(&mut next, a).unwrap();
            let v = match rules.to_play(&next) {
                None => {
                    let scores = rules.scores(&next);
                    scores[p.index()] - scores[(!p).index()]
                }
                Some(q) => {
                    assert_ne!(q, p, "the players alternate");
                    -negamax(rules, &next, -beta, -alpha, nodes, cap)?
                }
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
    let mut nodes = 0;
    negamax(rules, s, -100, 100, &mut nodes, cap)
}

/// Every position of the `ayoayo` table against the real game: South to move with the node's
/// board and odu flags, the other seeds split between the stores; where the game is over at
/// once (retaliation, exhaustion) the entry is its final difference, else a search of the real
/// game finds a final difference inside the entry's bounds plus the stores (equal to an exact
/// one). Every position of up to 4 seeds and a sample of 1,500 of each larger layer are
/// searched within 20,000 nodes; those over the cap are counted (the real game's search
/// carries its memory and remembers nothing, so long cycles pass any cap: 100,000 proves no
/// more). Then the table's own check
/// (`check_layer`, alpha-beta with the repetition memory) proves every position of up to 3
/// seeds to the end.
#[test]
fn the_ayoayo_table_agrees_with_the_real_game() {
    let (_, table) = ayoayo_table();
    let game = Game::Ayoayo;
    assert_eq!(table.game(), game);
    let rules = game.rules();
    let (mut over, mut searched, mut exact, mut capped) = (0, 0, 0, 0);
    for seeds in 0..=AYOAYO_SEEDS {
        let nodes = game.nodes(seeds);
        let ranks: Vec<u64> = if seeds <= 4 {
            (0..nodes).collect()
        } else {
            (0..1_500u64).map(|i| i * 7_919 % nodes).collect()
        };
        let cap = 20_000;
        for rank in ranks {
            let node = game.unrank(rank, seeds);
            let rest = 48 - seeds as u8;
            let stores = [rest / 2, rest - rest / 2];
            let d = stores[0] as i32 - stores[1] as i32;
            let state = game.state_at(&node, stores).unwrap();
            let entry = table.probe_node(&node).unwrap();
            let Some(mover) = rules.to_play(&state) else {
                let scores = rules.scores(&state);
                assert!(entry.is_exact(), "{node:?}: over, {entry:?}");
                assert_eq!(scores[0] - scores[1], d + entry.lo as i32, "{node:?}");
                over += 1;
                continue;
            };
            assert_eq!(mover, Player::South);
            assert_eq!(
                table.probe(&state),
                Some(entry),
                "{node:?}: the game's probe"
            );
            let Some(real) = final_difference(&rules, &state, cap) else {
                capped += 1;
                continue;
            };
            searched += 1;
            let (lo, hi) = (d + entry.lo as i32, d + entry.hi as i32);
            assert!(
                lo <= real && real <= hi,
                "{node:?}: the real game ends {real}, the entry says [{lo}, {hi}]"
            );
            exact += entry.is_exact() as u32;
        }
    }
    eprintln!("ayoayo: {over} over at once, {searched} searched ({exact} exact), {capped} capped");
    assert!(
        over > 1000 && searched > 1500 && exact > 1000,
        "{over} over, {searched} searched, {exact} exact"
    );
    for seeds in 0..=3 {
        let check = check_layer(&table, seeds, None, false, 1_000_000);
        assert!(check.wrong.is_empty(), "layer {seeds}: {:?}", check.wrong);
        assert_eq!(check.capped, 0, "layer {seeds}");
        assert_eq!(check.searched, game.nodes(seeds));
    }
}

/// A position reached by an odu keeps the table's value: the odu is a quiet move, and the
/// flags it sets make every earlier position unrepeatable, so the child's fresh-memory entry
/// is exact for the parent. Here South's odu from his pit e into f, the table's node and the
/// real game's agree on the flags from the next mover's view.
#[test]
fn an_odu_moves_to_the_other_flags_seen_from_the_next_mover() {
    let (_, table) = ayoayo_table();
    let game = Game::Ayoayo;
    let mut pits = [0u8; 12];
    pits[4] = 3;
    pits[7] = 2;
    let node = Node { pits, side: 0 };
    let rules = game.rules();
    let mut state = game.state_at(&node, [21, 22]).unwrap();
    let odu_e = 6 + 4;
    let ayo_env::tablebase::Move::Quiet { node: child } = game.play(&node, odu_e) else {
        panic!("an odu captures nothing");
    };
    rules.play(&mut state, odu_e).unwrap();
    assert_eq!(game.node_of(&state), Some(child));
    assert_eq!(child.side, 2, "North to move: his odu free, South's used");
    assert!(table.probe_node(&child).is_some());
}

/// A folder holds one game's table: an `ayoayo` table is opened as one, refused for `oware`
/// (and the reverse), and a build of another game into its folder is refused.
#[test]
fn a_table_serves_its_own_game_only() {
    let (ayoayo_dir, ayoayo) = ayoayo_table();
    let (oware_dir, oware) = small_table();
    let oware_rules: Variant = "oware".parse().unwrap();
    let ayoayo_rules: Variant = "ayoayo".parse().unwrap();
    assert!(ayoayo.check_variant(&ayoayo_rules).is_ok());
    let msg = ayoayo.check_variant(&oware_rules).unwrap_err().to_string();
    assert!(msg.contains("ayoayo@1") && msg.contains("oware@1"), "{msg}");
    assert!(oware.check_variant(&ayoayo_rules).is_err());
    let other_limit = Variant::new("ayoayo", &[("max_chain_pits".into(), "none".into())]).unwrap();
    assert!(ayoayo.check_variant(&other_limit).is_err());
    let e = build_tables(&oware_dir, Game::Ayoayo, 2, |_| {}).unwrap_err();
    assert!(matches!(e, TablebaseError::OtherGame { .. }), "{e}");
    let e = build_tables(&ayoayo_dir, Game::Oware, 2, |_| {}).unwrap_err();
    assert!(e.to_string().contains("ayoayo@1"), "{e}");
    // An oware game is not in an ayoayo table, whatever its board.
    let game = oware_rules
        .parse_notation("0 0 0 0 0 1 2 1 0 0 0 0 | 20 24 | 0")
        .unwrap();
    assert_eq!(ayoayo.probe(&game), None);
}

/// `alphabeta:2+tb` on `ayoayo`: wherever it proves a result on positions of 6 seeds (fresh
/// memory, stores level), it is the table's result, and it proves more than `alphabeta:2`.
#[test]
fn an_ayoayo_search_with_the_table_proves_its_result() {
    let (dir, _) = ayoayo_table();
    let table = Arc::new(Tablebase::open(&dir).unwrap());
    let game = Game::Ayoayo;
    let rules = game.rules();
    let (mut checked, mut proven, mut without) = (0, 0, 0);
    for rank in (0..game.nodes(AYOAYO_SEEDS)).step_by(5) {
        let node = game.unrank(rank, AYOAYO_SEEDS);
        let state = game.state_at(&node, [21, 21]).unwrap();
        let Some(truth) = table.solve(&state).map(|s| s.result) else {
            continue;
        };
        let (_, score, _) = AlphaBeta::new(2, 1).search_with(&rules, &state, &*table);
        if score.abs() >= WIN / 2 {
            assert_eq!(score.signum(), truth, "{node:?}: score {score}");
            proven += 1;
        }
        without += (AlphaBeta::new(2, 1).search(&rules, &state).1.abs() >= WIN / 2) as u32;
        checked += 1;
    }
    eprintln!("{checked} positions: {proven} proven with the table, {without} without");
    assert!(
        checked > 1000 && proven > without,
        "{checked}: {proven} > {without}?"
    );
}
