//! The conformance suite: the contract of [`Rules`] (see `env/src/rules.rs`) checked on random
//! games of **every** preset in [`VARIANT_NAMES`], and of its match episode (and a few other rule
//! options, [`OPTIONS`]) where the preset accepts the option. A variant added to `variants!` is
//! covered without touching this file.
//!
//! Each property runs as a proptest over random seeds: the seed picks the first player and every
//! move of a uniformly random game. At every position of the game the suite checks
//! * seeds are conserved (`snapshot(s).total()` never changes), also after every single drop;
//! * the mask is empty exactly when the game is over, and equals the set of actions for which
//!   `play` succeeds on a clone; `play` on any other action in `0..=num_actions` errors and
//!   leaves the state unchanged;
//! * `play`, `play_unchecked` and `play_traced` reach the same state, and `play_for_outcome`
//!   the same board, scores, end and result;
//! * `returns` are 0 for both until the end and sum to 0 after it; `ply` counts the actions;
//! * `notation(parse_notation(notation(s))) == notation(s)`, with the same snapshot and hash;
//! * the observation has `observation_len()` finite values (every entry is written);
//! * the look-ahead features and the heuristic stay within their declared bounds, and the
//!   encoded input (observation, then features) within `input_bounds`;
//! * games end within 1000 plies, whole matches (`episode=match`) within [`MATCH_MAX_PLIES`] (the
//!   length distribution is printed, `--nocapture` shows it);
//! * the game's detailed [`GameRecord`] serialises to JSON and replays to the same final state
//!   and the same per-drop boards.
//!
//! `PROPTEST_CASES` overrides the number of games per preset (default [`GAMES`]).

use ayo_env::input::{encode, input_bounds, input_len, MAX_LOOKAHEAD};
use ayo_env::rules::{exchanges, exchanges_after, tactics_bound, GAIN_UNIT};
use ayo_env::{
    Action, GameRecord, PlayError, Player, Rules, Snapshot, Variant, VariantState, VARIANT_NAMES,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::RefCell;

/// Random games per preset and property run, unless `PROPTEST_CASES` says otherwise.
const GAMES: u32 = 128;
/// The ply cap every env applies (docs/rules.md 1); a random game must end before it.
const MAX_PLIES: u32 = 1000;
/// A whole match (`episode=match`) of the fours variants lasts dozens of rounds under random
/// play (ncho: median ~1900 plies, max ~17 000 in 100 matches), so it must end within this cap
/// instead; the env truncates it at its own `max_plies` all the same.
const MATCH_MAX_PLIES: u32 = 400_000;

/// Options whose other values change the rules enough to deserve their own random games; each
/// is tried on every variant and kept where the variant accepts it.
const OPTIONS: &[(&str, &str)] = &[
    ("episode", "match"),
    ("max_chain_pits", "none"),
    ("end", "both"),
    ("seeds", "3"),
];

/// Every preset under test: each variant with its defaults, plus each of [`OPTIONS`] the variant
/// accepts (`episode=match` for the fours family).
fn presets() -> Vec<(String, Variant)> {
    let mut out = Vec::new();
    for name in VARIANT_NAMES {
        let v = Variant::new(name, &[]).unwrap_or_else(|e| panic!("{name} does not load: {e}"));
        out.push((v.id(), v.clone()));
        for (key, value) in OPTIONS {
            let mut m = v.clone();
            if m.set_option(key, value).is_ok() {
                out.push((format!("{} {key}={value}", v.id()), m));
            }
        }
    }
    out
}

/// Whether `v` plays whole matches (many rounds: its random games hit the ply cap).
fn is_match(v: &Variant) -> bool {
    v.options()
        .iter()
        .any(|(k, val)| k == "episode" && val == "match")
}

/// A runner of [`GAMES`] cases (`PROPTEST_CASES` overrides); a match's games are capped at
/// 1000 plies of many rounds each, so a match preset gets [`GAMES`] / 8 of them.
fn runner_for(v: &Variant) -> TestRunner {
    let config = if std::env::var_os("PROPTEST_CASES").is_some() {
        Config::default()
    } else if is_match(v) {
        Config::with_cases(GAMES / 8)
    } else {
        Config::with_cases(GAMES)
    };
    TestRunner::new(Config {
        failure_persistence: None,
        ..config
    })
}

/// Runs `property` on random seeds for every preset; panics naming the preset and the seed.
fn for_every_preset(property: impl Fn(&Variant, u64) -> Result<(), TestCaseError>) {
    for (label, v) in presets() {
        let mut runner = runner_for(&v);
        if let Err(e) = runner.run(&any::<u64>(), |seed| property(&v, seed)) {
            panic!("{label}: {e}");
        }
    }
}

/// A uniformly random game from `seed`: the first player, then the actions, until the game
/// ends or `MAX_PLIES` actions were played. Calls `visit(state, next action)` before each move
/// and `visit(final state, None)` at the end.
fn random_game(
    v: &Variant,
    seed: u64,
    visit: impl FnMut(&VariantState, Option<Action>) -> Result<(), TestCaseError>,
) -> Result<(Player, Vec<Action>, VariantState), TestCaseError> {
    random_game_capped(v, seed, MAX_PLIES, visit)
}

/// [`random_game`] with a ply cap of `cap`.
fn random_game_capped(
    v: &Variant,
    seed: u64,
    cap: u32,
    mut visit: impl FnMut(&VariantState, Option<Action>) -> Result<(), TestCaseError>,
) -> Result<(Player, Vec<Action>, VariantState), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let first = if rng.gen::<bool>() {
        Player::North
    } else {
        Player::South
    };
    let mut s = v.start(first);
    let mut actions = Vec::new();
    while !v.is_terminal(&s) && (actions.len() as u32) < cap {
        let mask = v.legal_mask(&s);
        let a = mask
            .nth(rng.gen_range(0..mask.count()))
            .ok_or_else(|| TestCaseError::fail("a live game has an empty mask"))?;
        visit(&s, Some(a))?;
        v.play_unchecked(&mut s, a);
        actions.push(a);
    }
    visit(&s, None)?;
    Ok((first, actions, s))
}

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

#[test]
fn seeds_are_conserved_at_every_step_and_every_drop() {
    for_every_preset(|v, seed| {
        let total = v.snapshot(&v.start(Player::South)).total();
        random_game(v, seed, |s, next| {
            let snap = v.snapshot(s);
            prop_assert_eq!(snap.total(), total, "board {} at ply {}", snap, v.ply(s));
            if let Some(a) = next {
                let drops = v
                    .play_traced(&mut s.clone(), a)
                    .map_err(|e| fail(format!("legal action refused: {e}")))?;
                prop_assert!(!drops.is_empty(), "action {} drops nothing", a);
                for d in &drops {
                    prop_assert_eq!(d.total(), total, "drop board {} of action {}", d, a);
                }
            }
            Ok(())
        })?;
        Ok(())
    });
}

/// Every legal action begins at a pit of the board that holds seeds (the hole a person clicks
/// on `ayo serve`'s page to choose it), and that pit is the mover's or a house he owns.
#[test]
fn every_legal_action_begins_at_an_occupied_pit_of_the_mover() {
    for_every_preset(|v, seed| {
        random_game(v, seed, |s, _| {
            let snap = v.snapshot(s);
            let Some(mover) = v.to_play(s) else {
                return Ok(());
            };
            for a in v.legal_actions(s) {
                let pit = v.action_pit(s, a);
                let Some(pit) = pit.filter(|&p| p < snap.pits.len()) else {
                    return Err(fail(format!(
                        "action {a} begins at no pit ({pit:?}) in {snap}"
                    )));
                };
                prop_assert!(
                    snap.pits[pit] > 0,
                    "action {} begins at the empty pit {} in {}",
                    a,
                    pit,
                    snap
                );
                let owner = match &snap.owners {
                    Some(owners) => owners[pit] as usize,
                    None => pit * 2 / snap.pits.len(),
                };
                prop_assert_eq!(
                    owner,
                    mover.index(),
                    "action {} begins at pit {} in {}",
                    a,
                    pit,
                    snap
                );
            }
            Ok(())
        })?;
        Ok(())
    });
}

/// The mask is empty exactly when the game is over and holds no bit beyond the action space;
/// every action outside it is refused with the error that says why, and leaves the state as it
/// was. (That `play` accepts the mask's actions needs no test: `play` is `check` + `apply`.)
#[test]
fn mask_is_empty_at_the_end_only_and_refusals_change_nothing() {
    for_every_preset(|v, seed| {
        let n = v.num_actions();
        prop_assert!(n <= 64, "{} actions is more than a 64-bit mask holds", n);
        random_game(v, seed, |s, _| {
            let mask = v.legal_mask(s);
            prop_assert_eq!(mask.is_empty(), v.to_play(s).is_none(), "mask {:?}", mask);
            prop_assert_eq!(mask.0 >> n, 0, "mask {:?} outside 0..{}", mask, n);
            // One past the action space must be refused too.
            for a in (0..=n as Action).filter(|&a| !mask.contains(a)) {
                let mut t = s.clone();
                let Err(e) = v.play(&mut t, a) else {
                    return Err(fail(format!("play accepted {a} outside {mask:?}")));
                };
                prop_assert_eq!(&t, s, "refused action {} changed the state", a);
                let expected = if a as usize >= n {
                    matches!(e, PlayError::OutOfRange { .. })
                } else if v.is_terminal(s) {
                    matches!(e, PlayError::GameOver { .. })
                } else {
                    matches!(e, PlayError::Illegal { .. })
                };
                prop_assert!(expected, "action {} refused with the wrong error: {}", a, e);
            }
            Ok(())
        })?;
        Ok(())
    });
}

/// Recording every drop (`play_traced`, a different instantiation of `apply`) changes nothing
/// in the move itself, and every legal action advances the ply count by one; playing it only
/// for its outcome (`play_for_outcome`) reaches the same board and result.
#[test]
fn traced_play_reaches_the_same_state() {
    for_every_preset(|v, seed| {
        random_game(v, seed, |s, _| {
            for a in v.legal_mask(s).iter() {
                let (mut fast, mut traced) = (s.clone(), s.clone());
                v.play_unchecked(&mut fast, a);
                let drops = v
                    .play_traced(&mut traced, a)
                    .map_err(|e| fail(format!("{e}")))?;
                prop_assert_eq!(&fast, &traced, "action {} from {}", a, v.notation(s));
                prop_assert!(!drops.is_empty(), "action {} dropped no seed", a);
                prop_assert_eq!(v.ply(&fast), v.ply(s) + 1, "ply after action {}", a);
                // Played only as far as its outcome (what the look-ahead features measure):
                // the same board, scores, end and result, whatever the next mask holds.
                let mut measured = s.clone();
                v.play_for_outcome(&mut measured, a);
                let at = || format!("action {} from {}", a, v.notation(s));
                prop_assert_eq!(v.snapshot(&measured), v.snapshot(&fast), "{}", at());
                prop_assert_eq!(v.scores(&measured), v.scores(&fast), "{}", at());
                prop_assert_eq!(v.is_terminal(&measured), v.is_terminal(&fast), "{}", at());
                prop_assert_eq!(v.returns(&measured), v.returns(&fast), "{}", at());
                for p in Player::BOTH {
                    prop_assert_eq!(v.heuristic(&measured, p), v.heuristic(&fast, p), "{}", at());
                    let measure = v.gain_measure(&measured, p);
                    prop_assert_eq!(measure, v.gain_measure(&fast, p), "{}", at());
                }
            }
            Ok(())
        })?;
        Ok(())
    });
}

#[test]
fn returns_are_zero_until_the_end_and_sum_to_zero_after() {
    for_every_preset(|v, seed| {
        random_game(v, seed, |s, _| {
            let r = v.returns(s);
            if v.is_terminal(s) {
                prop_assert_eq!(r[0] + r[1], 0.0, "returns {:?}", r);
                prop_assert!(r[0].abs() <= 1.0, "returns {:?} outside [-1, 1]", r);
            } else {
                prop_assert_eq!(r, [0.0, 0.0], "returns of a live game");
            }
            Ok(())
        })?;
        Ok(())
    });
}

#[test]
fn notation_round_trips_with_the_same_board_and_hash() {
    for_every_preset(|v, seed| {
        random_game(v, seed, |s, _| {
            let text = v.notation(s);
            let parsed = v
                .parse_notation(&text)
                .map_err(|e| fail(format!("own notation refused: {e}")))?;
            prop_assert_eq!(v.notation(&parsed), text.clone());
            prop_assert_eq!(v.snapshot(&parsed), v.snapshot(s), "{}", text);
            prop_assert_eq!(v.to_play(&parsed), v.to_play(s), "{}", text);
            prop_assert_eq!(v.hash(&parsed), v.hash(s), "{}", text);
            if !v.is_terminal(s) {
                prop_assert_eq!(v.legal_mask(&parsed), v.legal_mask(s), "{}", text);
            }
            Ok(())
        })?;
        Ok(())
    });
}

#[test]
fn observation_has_observation_len_finite_values() {
    for_every_preset(|v, seed| {
        let len = v.observation_len();
        random_game(v, seed, |s, _| {
            // NaN first, so an entry the variant forgets to write is caught.
            let mut obs = vec![f32::NAN; len];
            v.observe(s, &mut obs);
            prop_assert!(
                obs.iter().all(|x| x.is_finite()),
                "observation {:?} of {}",
                obs,
                v.notation(s)
            );
            Ok(())
        })?;
        Ok(())
    });
}

#[test]
fn tactics_and_exchanges_are_bounded_and_zero_for_illegal_moves() {
    for_every_preset(|v, seed| {
        let (len, n) = (v.tactics_len(), v.num_actions());
        prop_assert!(len >= n, "the mover's gains come first");
        let (bound, h_bound) = (tactics_bound(v), v.heuristic_bound());
        let (low, high) = input_bounds(v, 1);
        prop_assert_eq!(input_bounds(v, 2), (low, high));
        random_game(v, seed, |s, _| {
            let mut t = vec![f32::NAN; len];
            v.tactics(s, &mut t);
            let mask = v.legal_mask(s);
            for (a, &g) in t.iter().enumerate() {
                prop_assert!(
                    g.abs() <= bound,
                    "entry {a} = {g}, beyond ±{bound}, at {}",
                    v.notation(s)
                );
                if a < n && !mask.contains(a as u8) {
                    prop_assert!(
                        g == 0.0,
                        "illegal action {a} reads {g} at {}",
                        v.notation(s)
                    );
                }
            }
            for p in Player::BOTH {
                let h = v.heuristic(s, p);
                prop_assert!(
                    h.abs() <= h_bound,
                    "heuristic {h} beyond ±{h_bound} at {}",
                    v.notation(s)
                );
            }
            // The whole input (observation, then the features) within its declared bounds.
            // The second ply: each legal move's gain with the best answer counted, bounded
            // the same way, 0 for illegal moves.
            let mut x = vec![f32::NAN; n];
            exchanges(v, s, &mut x);
            for (a, &g) in x.iter().enumerate() {
                prop_assert!(g.abs() <= bound, "exchange {a} = {g} at {}", v.notation(s));
                if !mask.contains(a as u8) {
                    prop_assert!(g == 0.0, "illegal action {a} exchanges {g}");
                }
            }
            // The whole input (observation, then the features of each ply) within its
            // declared bounds.
            let mut obs = vec![f32::NAN; v.observation_len()];
            v.observe(s, &mut obs);
            // (Each ply beyond the second costs a ply of play per reply: the third every
            // fourth position, the fourth every sixteenth.)
            let deepest = match v.ply(s) % 16 {
                0 => MAX_LOOKAHEAD,
                4 | 8 | 12 => 3,
                _ => 2,
            };
            for plies in 1..=deepest {
                let mut input = vec![f32::NAN; input_len(v, plies)];
                encode(v, s, plies, &mut input);
                let (o, rest) = input.split_at(obs.len());
                prop_assert_eq!(o, &obs[..]);
                prop_assert_eq!(&rest[..len], &t[..]);
                let deeper = &rest[len..];
                prop_assert_eq!(deeper.len(), (plies as usize).saturating_sub(1) * n);
                if plies >= 2 {
                    prop_assert_eq!(&deeper[..n], &x[..]);
                }
                prop_assert!(
                    input.iter().all(|x| (low..=high).contains(x)),
                    "input {input:?} beyond [{low}, {high}] at {}",
                    v.notation(s)
                );
            }
            Ok(())
        })?;
        Ok(())
    });
}

/// The deeper plies of look-ahead are the minimax of the gains' measure
/// ([`Rules::gain_measure`]: the heuristic, or in the fours games what the round would give if
/// it ended now), found here by playing every line out: where no line of the ply's depth ends
/// the game, ply `k` of a move is the measure `k` decisions on, each side choosing its best,
/// less the measure now (the gains telescope along the line), in units of [`GAIN_UNIT`]. Plies 2
/// and 3 at every eighth position of each game of every variant, ply 4 too at every sixteenth.
#[test]
fn deeper_plies_are_the_measures_minimax() {
    let checked = RefCell::new(0usize);
    for_every_preset(|v, seed| {
        let n = v.num_actions();
        let bound = tactics_bound(v);
        random_game(v, seed, |s, _| {
            let Some(mover) = v.to_play(s) else {
                return Ok(());
            };
            if v.ply(s) % 8 != 0 {
                return Ok(());
            }
            let plies = if v.ply(s) % 16 == 0 { MAX_LOOKAHEAD } else { 3 };
            let mut deeper = vec![f32::NAN; (plies as usize - 1) * n];
            exchanges_after(v, s, plies, &mut deeper);
            let now = v.gain_measure(s, mover);
            for a in v.legal_mask(s).iter() {
                let mut after = s.clone();
                v.play_unchecked(&mut after, a);
                for k in 2..=plies as u32 {
                    let Some(best) = minimax(v, &after, k - 1, mover) else {
                        continue; // a line ends the game: the gain alone is read
                    };
                    let expected = (best - now) as f32 / GAIN_UNIT;
                    if expected.abs() < bound {
                        let got = deeper[(k as usize - 2) * n + a as usize];
                        prop_assert!(
                            (got - expected).abs() < 1e-4,
                            "ply {k} of action {a} reads {got}, minimax {expected}, at {}",
                            v.notation(s)
                        );
                        *checked.borrow_mut() += 1;
                    }
                }
            }
            Ok(())
        })?;
        Ok(())
    });
    assert!(
        *checked.borrow() > 1000,
        "only {} plies compared",
        checked.borrow()
    );
}

/// The gains' measure from `view` `depth` decisions on, each player to move choosing his best;
/// `None` where some line ends the game sooner.
fn minimax(v: &Variant, s: &VariantState, depth: u32, view: Player) -> Option<i32> {
    let p = v.to_play(s)?;
    if depth == 0 {
        return Some(v.gain_measure(s, view));
    }
    let mut values = Vec::new();
    for b in v.legal_mask(s).iter() {
        let mut child = s.clone();
        v.play_unchecked(&mut child, b);
        values.push(minimax(v, &child, depth - 1, view)?);
    }
    if p == view {
        values.into_iter().max()
    } else {
        values.into_iter().min()
    }
}

#[test]
fn random_games_end_within_the_ply_cap() {
    let mut summary = Vec::new();
    for (label, v) in presets() {
        let lengths = RefCell::new(Vec::new());
        let cap = if is_match(&v) {
            MATCH_MAX_PLIES
        } else {
            MAX_PLIES
        };
        let mut runner = runner_for(&v);
        let result = runner.run(&any::<u64>(), |seed| {
            let (_, actions, end) = random_game_capped(&v, seed, cap, |_, _| Ok(()))?;
            prop_assert!(
                v.is_terminal(&end),
                "game not over after {} plies: {}",
                cap,
                v.notation(&end)
            );
            lengths.borrow_mut().push(actions.len());
            Ok(())
        });
        if let Err(e) = result {
            panic!("{label}: {e}");
        }
        let mut l = lengths.into_inner();
        l.sort_unstable();
        summary.push(format!(
            "{label}: {} games, plies min {} median {} max {}",
            l.len(),
            l[0],
            l[l.len() / 2],
            l[l.len() - 1]
        ));
    }
    eprintln!("random game lengths:\n  {}", summary.join("\n  "));
}

#[test]
fn detailed_records_serialise_and_replay_to_the_same_final_state() {
    for_every_preset(|v, seed| {
        let mut drops: Vec<Vec<Snapshot>> = Vec::new();
        let (first, actions, end) = random_game(v, seed, |s, next| {
            if let Some(a) = next {
                drops.push(
                    v.play_traced(&mut s.clone(), a)
                        .map_err(|e| fail(format!("{e}")))?,
                );
            }
            Ok(())
        })?;
        let mut record = GameRecord::new(v, first, None, true);
        let mut s = v.start(first);
        for &a in &actions {
            record
                .play(v, &mut s, a)
                .map_err(|e| fail(format!("record refused action {a}: {e}")))?;
        }
        if !v.is_terminal(&s) {
            record.finish(v, &s, true);
        }
        prop_assert_eq!(&s, &end);
        let json = record.to_json();
        let back = GameRecord::from_json(&json).map_err(|e| fail(format!("{e}\n{json}")))?;
        prop_assert_eq!(&back, &record);
        let replay = back.replay().map_err(|e| fail(format!("{e}")))?;
        prop_assert_eq!(replay.states.len(), actions.len() + 1);
        prop_assert_eq!(replay.states.last().unwrap(), &end);
        prop_assert_eq!(&replay.drops, &drops);
        prop_assert_eq!(record.drops.as_ref(), Some(&drops));
        Ok(())
    });
}

#[test]
fn every_variant_name_loads_with_and_without_version() {
    for name in VARIANT_NAMES {
        let v = Variant::new(name, &[]).unwrap();
        assert_eq!(v.name(), *name);
        assert_eq!(&v.id().parse::<Variant>().unwrap(), &v);
        assert!(v.num_actions() <= 64, "{name}");
        assert!(!v.describe().is_empty(), "{name}");
        assert!(format!("{name}@0").parse::<Variant>().is_err());
    }
}

/// `training_start(first, 0)` is the start; any other variety is a live position with all 48
/// (or the preset's) seeds, reached without a move. Round-based presets (`episode=round`)
/// start later rounds with unequal ownership for odd varieties; every other preset always
/// starts at the start.
#[test]
fn training_starts_are_live_and_zero_is_the_start() {
    for (label, v) in presets() {
        let rounds = has_rounds(&v) && !is_match(&v);
        let total = v.snapshot(&v.start(Player::South)).total();
        let mut later = 0;
        for variety in 0..40u64 {
            for first in Player::BOTH {
                let s = v.training_start(first, variety);
                if variety == 0 {
                    assert_eq!(s, v.start(first), "{label}: variety 0");
                }
                assert_eq!(
                    v.to_play(&s),
                    Some(first),
                    "{label} {variety}: {}",
                    v.notation(&s)
                );
                assert_eq!(v.ply(&s), 0, "{label}");
                assert_eq!(v.snapshot(&s).total(), total, "{label}: seeds");
                if s != v.start(first) {
                    later += 1;
                    assert!(rounds, "{label}: {}", v.notation(&s));
                    let owners = v.snapshot(&s).owners.expect("a fours variant has owners");
                    let south = owners.iter().filter(|&&o| o == 0).count();
                    assert_ne!(south, 6, "{label}: unequal ownership: {}", v.notation(&s));
                }
            }
        }
        if rounds {
            assert_eq!(later, 40, "{label}: odd varieties start later rounds");
        }
    }
}

/// Whether the preset plays rounds that move house ownership (the fours family).
fn has_rounds(v: &Variant) -> bool {
    v.snapshot(&v.start(Player::South)).owners.is_some()
}
