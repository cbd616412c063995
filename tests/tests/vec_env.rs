//! The vectorised environment against N scalar games, and its contract: auto-reset, truncation,
//! illegal actions, final observations, thread determinism.

use ayo_env::rules::exchanges;
use ayo_env::vec_env::VecEnvSnapshot;
use ayo_env::vec_env::AUTORESET_MODE;
use ayo_env::{
    Action, Buffers, FirstPlayer, Player, Rules, Variant, VecEnv, VecEnvConfig, VecEnvError,
    VARIANT_NAMES,
};

fn env(name: &str, num_envs: usize, threads: usize, max_plies: Option<u32>) -> VecEnv {
    let config = VecEnvConfig {
        num_envs,
        threads,
        seed: 42,
        max_plies,
        first: FirstPlayer::Alternate,
        lookahead: 0,
    };
    VecEnv::from_spec(name, &[], config).unwrap()
}

/// Every buffer of every step of a random run, for comparing runs.
fn run(name: &str, threads: usize, steps: usize) -> Vec<Buffers> {
    let mut e = env(name, 300, threads, Some(150));
    let mut buf = Buffers::new(&e);
    e.reset(None, &mut buf.view_mut()).unwrap();
    let mut out = vec![buf];
    out.extend(play_on(&mut e, steps));
    out
}

#[test]
fn n_games_in_vec_env_equal_n_scalar_games_move_for_move() {
    for name in VARIANT_NAMES {
        let rules: Variant = name.parse().unwrap();
        let max_plies = 150;
        let mut e = env(name, 300, 2, Some(max_plies));
        let n = e.num_envs();
        let mut buf = Buffers::new(&e);
        e.reset(None, &mut buf.view_mut()).unwrap();
        // Game i's episode k starts with player (i + k) mod 2.
        let mut episodes = vec![0usize; n];
        let mut games: Vec<_> = (0..n).map(|i| rules.start(Player::BOTH[i % 2])).collect();
        let mut actions = vec![0; n];
        let mut obs = vec![0.0; rules.observation_len()];
        let mut finished = 0;
        for step in 0..400 {
            for (i, game) in games.iter().enumerate() {
                let ctx = format!("{name}: game {i} before step {step}");
                rules.observe(game, &mut obs);
                assert_eq!(buf.obs.row(i).to_vec(), obs, "{ctx}: observation");
                let mask: Vec<Action> = (0..rules.num_actions() as Action)
                    .filter(|&a| buf.mask[[i, a as usize]])
                    .collect();
                assert_eq!(mask, rules.legal_actions(game), "{ctx}: mask");
                assert_eq!(
                    Some(buf.to_play[i] as usize),
                    rules.to_play(game).map(Player::index),
                    "{ctx}: player to move"
                );
            }
            e.sample_actions(&mut actions);
            e.step(&actions, &mut buf.view_mut()).unwrap();
            for (i, game) in games.iter_mut().enumerate() {
                let ctx = format!("{name}: game {i} at step {step}");
                rules.play(game, actions[i]).unwrap();
                let over = rules.is_terminal(game);
                let cut = !over && rules.ply(game) >= max_plies;
                assert_eq!(buf.terminated[i], over, "{ctx}: terminated");
                assert_eq!(buf.truncated[i], cut, "{ctx}: truncated");
                let reward = if over { rules.returns(game) } else { [0.0; 2] };
                assert_eq!(buf.rewards.row(i).to_vec(), reward, "{ctx}: rewards");
                if over || cut {
                    assert_eq!(e.final_state(i), Some(&*game), "{ctx}: final state");
                    assert_eq!(e.final_returns(i), reward, "{ctx}: final returns");
                    episodes[i] += 1;
                    *game = rules.start(Player::BOTH[(i + episodes[i]) % 2]);
                    finished += 1;
                }
                assert_eq!(e.state(i), &*game, "{ctx}: state");
            }
        }
        assert!(finished > 0, "{name}: no game finished in 400 steps");
    }
}

#[test]
fn one_and_two_threads_give_identical_results() {
    for name in VARIANT_NAMES {
        assert!(run(name, 1, 300) == run(name, 2, 300), "{name}");
    }
}

#[test]
fn the_autoreset_mode_is_same_step() {
    assert_eq!(AUTORESET_MODE, "same-step");
    assert_eq!(env("oware", 1, 1, None).autoreset_mode(), "same-step");
}

#[test]
fn a_finished_game_is_replaced_in_the_same_step_and_its_final_observation_kept() {
    let oware: Variant = "oware".parse().unwrap();
    let mut e = env("oware", 16, 1, None);
    let mut buf = Buffers::new(&e);
    e.reset(None, &mut buf.view_mut()).unwrap();
    let mut actions = vec![0; 16];
    let mut seen = 0;
    for _ in 0..5000 {
        e.sample_actions(&mut actions);
        e.step(&actions, &mut buf.view_mut()).unwrap();
        for i in (0..16).filter(|&i| buf.terminated[i]) {
            seen += 1;
            // The row already shows the new game's start.
            let first = Player::BOTH[(i + e.episode(i) as usize) % 2];
            let mut start_obs = vec![0.0; 14];
            oware.observe(&oware.start(first), &mut start_obs);
            assert_eq!(buf.obs.row(i).to_vec(), start_obs);
            assert_eq!(buf.obs.row(i).sum(), 12.0, "12 pits of 4 seeds, each / 4");
            assert_eq!(buf.to_play[i] as usize, first.index());
            assert_eq!(oware.ply(e.state(i)), 0);
            assert!(buf.mask.row(i).iter().all(|&m| m), "every pit is full");
            // The final observation: rows collected, every seed in a store (each / 24).
            let fin = e.final_observation(i);
            assert!(fin[..12].iter().all(|&x| x == 0.0), "{fin:?}");
            assert_eq!((fin[12] + fin[13]) * 24.0, 48.0, "{fin:?}");
            assert_eq!(e.final_observations().row(i).to_vec(), fin);
            // Rewards are each player's result, kept as the final returns.
            let stores = oware.scores(e.final_state(i).unwrap());
            let win = (stores[0] - stores[1]).signum() as f32;
            assert_eq!(buf.rewards.row(i).to_vec(), vec![win, -win]);
            assert_eq!(e.final_returns(i), [win, -win]);
        }
        if seen >= 20 {
            return;
        }
    }
    panic!("only {seen} games ended");
}

#[test]
fn a_game_is_truncated_at_the_ply_cap() {
    let mut e = env("oware", 8, 1, Some(10));
    let mut buf = Buffers::new(&e);
    e.reset(None, &mut buf.view_mut()).unwrap();
    let mut actions = vec![0; 8];
    for step in 1..=10 {
        e.sample_actions(&mut actions);
        e.step(&actions, &mut buf.view_mut()).unwrap();
        for i in 0..8 {
            assert!(!buf.terminated[i], "oware cannot end within 10 plies");
            assert_eq!(buf.truncated[i], step == 10, "game {i} step {step}");
        }
    }
    for i in 0..8 {
        assert_eq!(buf.rewards.row(i).to_vec(), vec![0.0, 0.0]);
        assert_eq!(e.final_returns(i), [0.0, 0.0]);
        let fin = e.final_state(i).unwrap();
        assert_eq!(e.rules().ply(fin), 10);
        assert!(
            !e.rules().is_terminal(fin),
            "a truncated game is still live"
        );
        assert_eq!(e.rules().ply(e.state(i)), 0);
        assert_eq!(e.episode(i), 1);
    }
}

#[test]
fn an_illegal_action_in_a_batch_names_the_game_and_changes_nothing() {
    let mut e = env("oware", 6, 2, None);
    let mut buf = Buffers::new(&e);
    e.reset(None, &mut buf.view_mut()).unwrap();
    // Games 0, 2, 4 start with South, games 1, 3, 5 with North; after two moves of pit 0 by
    // each side, pit 0 of the player to move is empty.
    let zeros = vec![0; 6];
    e.step(&zeros, &mut buf.view_mut()).unwrap();
    e.step(&zeros, &mut buf.view_mut()).unwrap();
    let states = e.states().to_vec();
    let before = buf.clone();
    let mut actions: Vec<Action> = (0..6).map(|i| e.legal_mask(i).nth(0).unwrap()).collect();
    actions[3] = 0;
    actions[4] = 9;
    let err = e.step(&actions, &mut buf.view_mut()).unwrap_err();
    assert!(
        matches!(
            err,
            VecEnvError::Illegal {
                game: 3,
                action: 0,
                ..
            }
        ),
        "{err:?}"
    );
    let text = err.to_string();
    assert!(
        text.contains("game 3") && text.contains("action 0"),
        "{text}"
    );
    assert_eq!(e.states(), states.as_slice(), "no game changed");
    assert_eq!(buf, before, "no buffer written");

    let err = e.step(&actions[..5], &mut buf.view_mut()).unwrap_err();
    assert_eq!(
        err,
        VecEnvError::ActionCount {
            expected: 6,
            found: 5
        }
    );
    assert_eq!(e.states(), states.as_slice(), "no game changed");
}

#[test]
fn a_buffer_of_the_wrong_shape_is_refused() {
    let mut e = env("oware", 4, 1, None);
    let mut buf = Buffers::new(&e);
    buf.obs = ndarray::Array2::zeros((4, 13));
    let err = e.reset(None, &mut buf.view_mut()).unwrap_err();
    assert_eq!(
        err,
        VecEnvError::Buffer {
            name: "obs",
            expected: vec![4, 14],
            found: vec![4, 13]
        }
    );
}

#[test]
fn the_first_player_can_be_fixed_alternating_or_random() {
    let starters = |first: FirstPlayer, seed: u64| -> Vec<u8> {
        let config = VecEnvConfig {
            num_envs: 64,
            threads: 1,
            seed,
            max_plies: None,
            first,
            lookahead: 0,
        };
        let mut e = VecEnv::from_spec("oware", &[], config).unwrap();
        let mut buf = Buffers::new(&e);
        e.reset(None, &mut buf.view_mut()).unwrap();
        buf.to_play.to_vec()
    };
    assert!(starters(FirstPlayer::Fixed(Player::North), 0)
        .iter()
        .all(|&p| p == 1));
    let alternate = starters(FirstPlayer::Alternate, 0);
    assert!(alternate
        .iter()
        .enumerate()
        .all(|(i, &p)| p as usize == i % 2));
    let random = starters(FirstPlayer::Random, 5);
    assert_eq!(
        random,
        starters(FirstPlayer::Random, 5),
        "same seed, same draw"
    );
    assert_ne!(random, starters(FirstPlayer::Random, 6));
    let norths = random.iter().filter(|&&p| p == 1).count();
    assert!((16..=48).contains(&norths), "{norths} of 64 North");
    assert_eq!(
        "alternate".parse::<FirstPlayer>().unwrap(),
        FirstPlayer::Alternate
    );
    assert!("west".parse::<FirstPlayer>().is_err());
}

#[test]
fn variant_options_pass_through() {
    let opts = vec![("seeds".to_string(), "3".to_string())];
    let config = VecEnvConfig {
        num_envs: 2,
        threads: 1,
        ..VecEnvConfig::default()
    };
    let mut e = VecEnv::from_spec("oware", &opts, config).unwrap();
    let mut buf = Buffers::new(&e);
    e.reset(None, &mut buf.view_mut()).unwrap();
    assert_eq!(buf.obs[[0, 0]], 0.75, "3 seeds / 4");
    let bad = vec![("seeds".to_string(), "9".to_string())];
    assert!(matches!(
        VecEnv::from_spec("oware", &bad, VecEnvConfig::default()),
        Err(VecEnvError::Variant(_))
    ));
}

/// `step_some`: the inactive games are not played (their action, even an illegal one, is not
/// looked at) and keep their position; the active ones move exactly as in scalar games.
#[test]
fn step_some_plays_only_the_active_games() {
    let rules: Variant = "oware".parse().unwrap();
    let mut venv = env("oware", 4, 1, None);
    let mut buf = Buffers::new(&venv);
    venv.reset(Some(3), &mut buf.view_mut()).unwrap();
    let before: Vec<_> = venv.states().to_vec();
    let legal = rules.legal_actions(&before[0])[0];
    let actions = vec![legal, 99, legal, 99];
    let active = [true, false, true, false];
    venv.step_some(&actions, &active, &mut buf.view_mut())
        .unwrap();
    let mut expected = before[0].clone();
    rules.play(&mut expected, legal).unwrap();
    assert_eq!(venv.state(0), &expected);
    assert_eq!(venv.state(2), &expected);
    assert_eq!(venv.state(1), &before[1], "an inactive game is unchanged");
    assert_eq!(venv.state(3), &before[3]);
    let mut obs = vec![0.0; rules.observation_len()];
    rules.observe(&before[1], &mut obs);
    assert_eq!(
        buf.obs.row(1).to_vec(),
        obs,
        "an inactive game's row is its position"
    );
    assert_eq!(buf.rewards.row(1).to_vec(), vec![0.0, 0.0]);
    // An illegal action of an active game is still refused, and nothing changes.
    let err = venv
        .step_some(&[99, 0, 0, 0], &active, &mut buf.view_mut())
        .unwrap_err();
    assert!(err.to_string().contains("game 0: action 99"), "{err}");
    assert!(venv
        .step_some(&actions, &[true], &mut buf.view_mut())
        .is_err());
}

/// `reset_some` starts a new episode of the masked games only; `reset_seeds` gives each game
/// its own seed: the same seed list gives the same games, game for game.
#[test]
fn reset_some_and_per_game_seeds() {
    let config = VecEnvConfig {
        num_envs: 3,
        threads: 1,
        first: FirstPlayer::Random,
        ..VecEnvConfig::default()
    };
    let mut venv = VecEnv::from_spec("oware", &[], config.clone()).unwrap();
    let mut buf = Buffers::new(&venv);
    venv.reset(Some(1), &mut buf.view_mut()).unwrap();
    let mut actions = vec![0; 3];
    for _ in 0..5 {
        venv.sample_actions(&mut actions);
        venv.step(&actions, &mut buf.view_mut()).unwrap();
    }
    let played: Vec<_> = venv.states().to_vec();
    venv.reset_some(&[false, true, false], &mut buf.view_mut())
        .unwrap();
    assert_eq!(venv.state(0), &played[0]);
    assert_eq!(venv.state(2), &played[2]);
    assert_eq!(venv.episode(1), 1);
    assert_eq!(venv.rules().ply(venv.state(1)), 0, "game 1 starts afresh");

    let firsts = |venv: &VecEnv| -> Vec<_> {
        (0..3)
            .map(|i| venv.rules().to_play(venv.state(i)))
            .collect()
    };
    let mut other = VecEnv::from_spec("oware", &[], config).unwrap();
    let seeds = [5, 6, 7];
    venv.reset_seeds(&seeds, &mut buf.view_mut()).unwrap();
    other.reset_seeds(&seeds, &mut buf.view_mut()).unwrap();
    assert_eq!(firsts(&venv), firsts(&other));
    let mut sampled = [vec![0; 3], vec![0; 3]];
    venv.sample_actions(&mut sampled[0]);
    other.sample_actions(&mut sampled[1]);
    assert_eq!(sampled[0], sampled[1]);
    assert!(venv.reset_seeds(&[1, 2], &mut buf.view_mut()).is_err());
}

/// Runs `steps` random steps of `env` (actions from its own streams), returning every buffer.
fn play_on(e: &mut VecEnv, steps: usize) -> Vec<Buffers> {
    let mut buf = Buffers::new(e);
    let mut actions = vec![0; e.num_envs()];
    let mut out = Vec::new();
    for _ in 0..steps {
        e.sample_actions(&mut actions);
        e.step(&actions, &mut buf.view_mut()).unwrap();
        out.push(buf.clone());
    }
    out
}

#[test]
fn with_lookahead_each_row_is_the_observation_then_the_tactics() {
    for name in VARIANT_NAMES {
        let make = |lookahead| {
            let config = VecEnvConfig {
                num_envs: 32,
                threads: 2,
                seed: 3,
                max_plies: Some(80),
                first: FirstPlayer::Alternate,
                lookahead,
            };
            let mut e = VecEnv::from_spec(name, &[], config).unwrap();
            let mut buf = Buffers::new(&e);
            e.reset(None, &mut buf.view_mut()).unwrap();
            (e, buf)
        };
        let ((mut plain, mut pb), (mut with, mut wb)) = (make(0), make(2));
        let rules = plain.rules().clone();
        let (n, t, k) = (
            rules.observation_len(),
            rules.tactics_len(),
            rules.num_actions(),
        );
        assert_eq!(with.observation_len(), n + t + k, "{name}");
        let mut actions = vec![0; 32];
        // What a row should end with: the tactics, then the exchanges.
        let features = |s: &ayo_env::VariantState| -> Vec<f32> {
            let mut f = vec![0.0; t + k];
            rules.tactics(s, &mut f[..t]);
            exchanges(&rules, s, &mut f[t..]);
            f
        };
        for _ in 0..120 {
            plain.sample_actions(&mut actions);
            plain.step(&actions, &mut pb.view_mut()).unwrap();
            with.step(&actions, &mut wb.view_mut()).unwrap();
            for i in 0..32 {
                let row = wb.obs.row(i);
                assert_eq!(
                    row.slice(ndarray::s![..n]),
                    pb.obs.row(i),
                    "{name}: game {i}"
                );
                assert_eq!(
                    row.slice(ndarray::s![n..]).to_vec(),
                    features(with.state(i)),
                    "{name}: game {i}"
                );
                let last = with.final_observation(i);
                assert_eq!(&last[..n], plain.final_observation(i), "{name}: game {i}");
                if let Some(s) = with.final_state(i) {
                    assert_eq!(&last[n..], &features(s)[..], "{name}: game {i}");
                }
            }
        }
    }
}

#[test]
fn a_restored_snapshot_continues_exactly_as_the_original() {
    for name in VARIANT_NAMES {
        let config = VecEnvConfig {
            num_envs: 64,
            threads: 2,
            seed: 7,
            max_plies: Some(60),
            first: FirstPlayer::Random,
            lookahead: 2, // the final observations carry the features too
        };
        let mut original = VecEnv::from_spec(name, &[], config).unwrap();
        let mut buf = Buffers::new(&original);
        original.reset(None, &mut buf.view_mut()).unwrap();
        // Far enough that games have finished (by the rules and by the ply cap) and others
        // are in the middle, some restarted by a reset of a few slots.
        play_on(&mut original, 150);
        let mask: Vec<bool> = (0..64).map(|i| i % 5 == 0).collect();
        original.reset_some(&mask, &mut buf.view_mut()).unwrap();
        play_on(&mut original, 7);
        assert!(
            (0..64).any(|i| original.episode(i) > 1),
            "{name}: games finished"
        );

        let snapshot = original.snapshot();
        // Through JSON, as the Python pickle carries it, on one thread.
        let text = serde_json::to_string(&snapshot).unwrap();
        let mut restored = VecEnv::restore(
            name.parse::<Variant>().unwrap(),
            &serde_json::from_str(&text).unwrap(),
            1,
        )
        .unwrap();
        assert_eq!(restored.config().lookahead, 2);
        let rules = original.rules().clone();
        for i in 0..64 {
            assert_eq!(
                rules.notation(restored.state(i)),
                rules.notation(original.state(i)),
                "{name}: game {i}"
            );
            assert_eq!(rules.ply(restored.state(i)), rules.ply(original.state(i)));
            assert_eq!(restored.final_observation(i), original.final_observation(i));
            assert_eq!(restored.final_returns(i), original.final_returns(i));
            assert_eq!(restored.episode(i), original.episode(i));
        }
        assert_eq!(
            play_on(&mut restored, 200),
            play_on(&mut original, 200),
            "{name}: the restored env plays on exactly as the original"
        );
    }
}

#[test]
fn a_snapshot_of_other_rules_or_with_a_false_position_is_refused() {
    let mut e = env("oware", 4, 1, Some(100));
    let mut buf = Buffers::new(&e);
    e.reset(None, &mut buf.view_mut()).unwrap();
    play_on(&mut e, 5);
    let snapshot = e.snapshot();
    let oware = || "oware".parse::<Variant>().unwrap();
    let refused = |s: &VecEnvSnapshot, rules: Variant| {
        VecEnv::restore(rules, s, 1)
            .err()
            .expect("refused")
            .to_string()
    };
    assert!(refused(&snapshot, "ayo".parse().unwrap()).contains("the snapshot is of oware@"));

    // The snapshot as JSON text, one game's part edited the way a corrupt file could be (as
    // text: the repetition keys are 128-bit numbers, beyond serde_json::Value).
    let edited = |game: usize, edit: &dyn Fn(&str) -> String| {
        let text = serde_json::to_string(&snapshot).unwrap();
        let part = serde_json::to_string(&snapshot.games[game]).unwrap();
        let text = text.replacen(&part, &edit(&part), 1);
        serde_json::from_str::<VecEnvSnapshot>(&text).unwrap()
    };
    let one_seed_more = edited(2, &|g| {
        let (head, tail) = g.split_once("\"pits\":[").unwrap();
        let (first, rest) = tail.split_once(',').unwrap();
        let first: u32 = first.parse().unwrap();
        format!("{head}\"pits\":[{},{rest}", first + 1)
    });
    let err = refused(&one_seed_more, oware());
    assert!(err.contains("game 2") && err.contains("49 seeds"), "{err}");

    let no_legal_moves = edited(1, &|g| {
        let (head, tail) = g.split_once("\"legal\":").unwrap();
        let (_, rest) = tail.split_once(',').unwrap();
        format!("{head}\"legal\":0,{rest}")
    });
    let err = refused(&no_legal_moves, oware());
    assert!(
        err.contains("game 1") && err.contains("legal moves disagree"),
        "{err}"
    );

    let other_variant = edited(3, &|g| {
        let ayo = "ayo".parse::<Variant>().unwrap().start(Player::South);
        let (head, tail) = g.split_once("\"state\":").unwrap();
        let (_, rest) = tail.split_once(",\"last\"").unwrap();
        let ayo = serde_json::to_string(&ayo).unwrap();
        format!("{head}\"state\":{ayo},\"last\"{rest}")
    });
    let err = refused(&other_variant, oware());
    assert!(
        err.contains("game 3") && err.contains("another variant"),
        "{err}"
    );

    let mut short = snapshot;
    short.games.pop();
    assert!(refused(&short, oware()).contains("3 games"));
}
