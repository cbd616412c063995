//! Inputs found by the fuzz targets (fuzz/, docs/fuzzing.md) that crashed or broke a contract,
//! kept as regression tests of the crate where the bug was.

use ayo_env::Variant;

fn talk(variant: &str, input: &[u8]) -> (std::io::Result<()>, String) {
    let rules: Variant = variant.parse().unwrap();
    let mut agent = ayo_env::arena::agents::parse("random", 0).unwrap();
    let mut out = Vec::new();
    let result = ayo_train::engine::serve(&rules, agent.as_mut(), input, &mut out);
    (result, String::from_utf8(out).unwrap())
}

/// fuzz target `engine`, artifact crash-73c22dd3…: a line that is not UTF-8 (here inside a
/// `position notation` command) ended the engine with an I/O error ("stream did not contain
/// valid UTF-8") instead of being answered with an `error` line, against docs/engine.md ("the
/// engine never ends on bad input").
#[test]
fn a_line_that_is_not_utf8_is_an_error_line_and_the_engine_goes_on() {
    let mut input =
        b"position notation 4 4 4 4 4 4 4 4 4 4 4 4 | 0 0 | 0 | 000000111111 | roun".to_vec();
    input.extend_from_slice(
        b"\xff\xff\xff\xff\xffd 1 starter 0 moves 0 1 2\nlegal\n\xfe\nisready\n",
    );
    let (result, out) = talk("ncho", &input);
    result.expect("the engine ends only at quit or at the end of its input");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("error position: "), "{out}");
    assert!(lines[1].starts_with("legal "), "{out}");
    assert!(lines[2].starts_with("error unknown command"), "{out}");
    assert_eq!(lines[3], "readyok");
}

/// The lenient reading keeps the protocol's line handling: `\r\n` line ends and a last line
/// without a line break are commands like any other.
#[test]
fn crlf_and_a_last_line_without_a_line_break_still_work() {
    let (result, out) = talk(
        "oware",
        b"isready\r\nposition startpos moves 2\r\n\r\nlegal",
    );
    result.unwrap();
    assert_eq!(out, "readyok\nlegal 0 1 2 3 4 5\n");
}

/// fuzz target `config`, artifact crash-eb2db143…: `score_weight = -inf` read and validated,
/// but the same file given to `TrainConfig::resolve` was refused as "not valid TOML" (the merge
/// goes through JSON, which has no infinity), and a negative or infinite loss weight would have
/// trained on a nonsense loss. `validate` now refuses every non-finite number and negative
/// weights and search constants, so reading a file and resolving it agree.
#[test]
fn non_finite_and_negative_floats_are_refused_by_validate_and_resolve_alike() {
    use ayo_train::config::TrainConfig;
    let artifact =
        "# e_weight = 1.0\nscore_weight = -inf\n#1\nc_scale = 1\ntrain_threads = 1\nseed = 1\n";
    let c = TrainConfig::from_toml(artifact).unwrap();
    let e = c.validate().unwrap_err().to_string();
    assert!(e.contains("score_weight"), "{e}");

    let dir = tempfile::tempdir().unwrap();
    let floats = [
        "full_search_prob",
        "gumbel_scale",
        "c_visit",
        "c_scale",
        "replay_ratio",
        "lr",
        "lr_min",
        "weight_decay",
        "value_weight",
        "score_weight",
        "value_target_q",
        "value_discount",
        "checkpoint_every_s",
        "eval_every_s",
        "eval_gumbel_scale",
    ];
    for key in floats {
        for value in ["nan", "inf", "-inf", "-1.0"] {
            let text = format!("{key} = {value}\n");
            let c = TrainConfig::from_toml(&text).unwrap();
            let e = c.validate().expect_err(&text).to_string();
            assert!(e.contains(key), "{text}: {e}");
            let path = dir.path().join("c.toml");
            std::fs::write(&path, &text).unwrap();
            assert!(
                TrainConfig::resolve(Some(&path), &TrainConfig::default(), |_| false).is_err(),
                "{text}"
            );
        }
    }
}
