//! The JSON API of `ayo serve`, called in-process on its router: every endpoint, and every bad
//! input answered with a 4xx that names the bad value while the game stays as it was.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use ayo_env::arena::agents;
use ayo_env::{GameRecord, Player, Rules, Variant};
use ayo_train::serve::{router, AppState, BODY_LIMIT};
use serde_json::{json, Value};
use std::path::PathBuf;
use tower::ServiceExt;

fn models() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../models")
}

fn model(variant: &str, file: &str) -> String {
    models()
        .join(variant)
        .join(file)
        .to_string_lossy()
        .into_owned()
}

fn app() -> Router {
    router(AppState::new(models()))
}

/// Sends one request; returns the status and the body (JSON, or the text as a JSON string).
async fn call(app: &Router, method: &str, uri: &str, body: Option<String>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json")
        .body(body.map_or_else(Body::empty, Body::from))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

async fn post(app: &Router, uri: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", uri, Some(body.to_string())).await
}

async fn get(app: &Router, uri: &str) -> (StatusCode, Value) {
    call(app, "GET", uri, None).await
}

/// Asserts a 4xx answer whose message contains every one of `words`.
fn refused(answer: (StatusCode, Value), status: StatusCode, words: &[&str]) {
    let (s, body) = answer;
    assert_eq!(s, status, "{body}");
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"));
    for w in words {
        assert!(message.contains(w), "{message:?} does not name {w:?}");
    }
}

async fn new_game(app: &Router, body: Value) -> Value {
    let (status, view) = post(app, "/api/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{view}");
    view
}

fn legal(view: &Value) -> Vec<u64> {
    view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_u64().unwrap())
        .collect()
}

/// A finished game of `variant`: greedy (South) against random.
fn agent_record(variant: &str, seed: u64) -> GameRecord {
    common::greedy_vs_random(variant, seed, true)
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let app = app();
    let (s, page) = get(&app, "/").await;
    assert_eq!(s, StatusCode::OK);
    let page = page.as_str().unwrap();
    assert!(page.contains("Display Runs") && page.contains("Show Runs in Detail"));
    assert!(page.contains("/app.js") && page.contains("/style.css"));
    let (s, js) = get(&app, "/app.js").await;
    assert_eq!(s, StatusCode::OK);
    assert!(js.as_str().unwrap().contains("/api/games"));
    assert_eq!(get(&app, "/style.css").await.0, StatusCode::OK);
    refused(
        get(&app, "/api/nothing").await,
        StatusCode::NOT_FOUND,
        &["no such"],
    );
}

#[tokio::test]
async fn variants_and_shipped_models_are_listed() {
    let app = app();
    let (s, variants) = get(&app, "/api/variants").await;
    assert_eq!(s, StatusCode::OK);
    let names: Vec<&str> = variants
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ayo_env::VARIANT_NAMES);
    assert!(variants[1]["description"]
        .as_str()
        .unwrap()
        .contains("ayo@1"));
    let (s, models) = get(&app, "/api/models").await;
    assert_eq!(s, StatusCode::OK);
    let ayo = models
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["path"].as_str().unwrap().ends_with("ayo/ayo-1h.ot"))
        .unwrap_or_else(|| panic!("models/ayo/ayo-1h.ot not listed in {models}"));
    assert_eq!(ayo["variant"], "ayo@1");
    assert!(models.as_array().unwrap().len() >= 8, "{models}");
    // The shipped model of each variant (models/shipped.json) is marked and listed first.
    let list = models.as_array().unwrap();
    let shipped = list.iter().take_while(|m| m["shipped"] == true).count();
    assert_eq!(shipped, ayo_env::VARIANT_NAMES.len(), "{models}");
    assert!(list[shipped..].iter().all(|m| m["shipped"] == false));
    let names = ayo_train::shipped::read(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../models"
    )))
    .unwrap();
    let ncho = &names["ncho"].model;
    assert!(
        list[..shipped]
            .iter()
            .any(|m| m["path"].as_str().unwrap().ends_with(ncho)),
        "{ncho} among the shipped models of {models}"
    );
}

#[tokio::test]
async fn a_move_is_played_and_the_opponent_answers_as_the_engine_replays() {
    let app = app();
    let view = new_game(
        &app,
        json!({"variant": "ayo", "opponent": "greedy", "seat": "south"}),
    )
    .await;
    let id = view["id"].as_u64().unwrap();
    assert_eq!(view["ply"], 0);
    assert_eq!(view["to_play"], "South");
    assert_eq!(view["seats"][1]["name"], "greedy");
    assert_eq!(legal(&view), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(view["legal"][2]["pit"], 2);
    assert_eq!(view["legal"][2]["name"], "C");
    assert_eq!(
        view["layout"]["rows"][0][0]["pit"], 11,
        "North's row drawn right to left on top"
    );
    let (s, after) = post(
        &app,
        &format!("/api/games/{id}/moves"),
        json!({"action": 2}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{after}");
    assert_eq!(after["ply"], 2, "the person's move and greedy's answer");
    assert_eq!(after["last"][0]["name"], "C");
    assert_eq!(after["last"][1]["mover"], "North");
    // The engine's own replay of the moves gives the board shown.
    let rules: Variant = "ayo".parse().unwrap();
    let mut s = rules.start(Player::South);
    rules.play(&mut s, 2).unwrap();
    rules
        .play(&mut s, after["last"][1]["action"].as_u64().unwrap() as u8)
        .unwrap();
    assert_eq!(
        after["board"],
        serde_json::to_value(rules.snapshot(&s)).unwrap()
    );
    assert_eq!(after["notation"], rules.notation(&s));
    let (_, got) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(got["board"], after["board"]);
    let (_, start) = get(&app, &format!("/api/games/{id}?ply=0")).await;
    assert_eq!(start["board"]["pits"], json!(vec![4; 12]));
    assert_eq!(
        start["legal"],
        json!([]),
        "an earlier position is not playable"
    );
}

#[tokio::test]
async fn illegal_out_of_range_and_malformed_moves_are_refused_and_change_nothing() {
    let app = app();
    let view = new_game(&app, json!({"variant": "ayo", "opponent": "greedy"})).await;
    let id = view["id"].as_u64().unwrap();
    let moves = format!("/api/games/{id}/moves");
    // Play South's first legal pit until one of its pits is empty, hence illegal.
    let before = loop {
        let (_, view) = get(&app, &format!("/api/games/{id}")).await;
        assert!(
            view["result"].is_null(),
            "the game ended before South had an empty pit"
        );
        if legal(&view).len() < 6 {
            break view;
        }
        post(&app, &moves, json!({"action": legal(&view)[0]})).await;
    };
    let empty = (0..6u64).find(|a| !legal(&before).contains(a)).unwrap();
    refused(
        post(&app, &moves, json!({"action": empty})).await,
        StatusCode::BAD_REQUEST,
        &[&format!("action {empty}"), "not legal"],
    );
    refused(
        post(&app, &moves, json!({"action": 6})).await,
        StatusCode::BAD_REQUEST,
        &["action 6", "0..6"],
    );
    refused(
        post(&app, &moves, json!({"action": -1})).await,
        StatusCode::BAD_REQUEST,
        &["action -1", "0..6"],
    );
    refused(
        post(&app, &moves, json!({"action": 1e12})).await,
        StatusCode::BAD_REQUEST,
        &["bad JSON", "1000000000000"],
    );
    refused(
        post(&app, &moves, json!({"action": "C"})).await,
        StatusCode::BAD_REQUEST,
        &["bad JSON", "\"C\""],
    );
    refused(
        post(&app, &moves, json!({"pit": 2})).await,
        StatusCode::BAD_REQUEST,
        &["unknown field `pit`"],
    );
    refused(
        call(&app, "POST", &moves, Some("{\"action\":".into())).await,
        StatusCode::BAD_REQUEST,
        &["bad JSON"],
    );
    refused(
        post(&app, "/api/games/999999/moves", json!({"action": 1})).await,
        StatusCode::NOT_FOUND,
        &["999999"],
    );
    refused(
        post(&app, "/api/games/x1/moves", json!({"action": 1})).await,
        StatusCode::NOT_FOUND,
        &["\"x1\""],
    );
    let (_, after) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(after, before, "refused moves left the game as it was");
}

#[tokio::test]
async fn bad_games_are_refused_with_the_bad_value_named() {
    let app = app();
    let games = "/api/games";
    refused(
        post(&app, games, json!({"variant": "owari"})).await,
        StatusCode::BAD_REQUEST,
        &["\"owari\"", "oware"],
    );
    refused(
        post(&app, games, json!({"variant": "ayo@7"})).await,
        StatusCode::BAD_REQUEST,
        &["version 7"],
    );
    refused(
        post(
            &app,
            games,
            json!({"variant": "ncho", "options": "episode=forever"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        &["forever"],
    );
    refused(
        post(&app, games, json!({"variant": "ayo", "seat": "east"})).await,
        StatusCode::BAD_REQUEST,
        &["\"east\"", "south or north"],
    );
    refused(
        post(
            &app,
            games,
            json!({"variant": "ayo", "opponent": "alphabeta:0"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        &["alphabeta:0", "1..=64"],
    );
    refused(
        post(
            &app,
            games,
            json!({"variant": "ayo", "opponent": "/no/such.ot:32"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        &["/no/such.ot:32"],
    );
    let oware = format!("{}:8", model("oware", "oware-levels-1h.ot"));
    refused(
        post(&app, games, json!({"variant": "ayo", "opponent": oware})).await,
        StatusCode::BAD_REQUEST,
        &["oware@1", "ayo@1"],
    );
    refused(
        post(&app, games, json!({"variant": "ayo", "colour": "red"})).await,
        StatusCode::BAD_REQUEST,
        &["unknown field `colour`"],
    );
    refused(
        post(&app, games, json!({})).await,
        StatusCode::BAD_REQUEST,
        &["missing field `variant`"],
    );
    let big = format!("{{\"variant\": \"{}\"}}", "a".repeat(BODY_LIMIT + 1));
    refused(
        call(&app, "POST", games, Some(big)).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        &["limit", &BODY_LIMIT.to_string()],
    );
}

#[tokio::test]
async fn runs_and_drops_are_the_records_boards_and_every_drop() {
    let app = app();
    let view = new_game(&app, json!({"variant": "ayo", "opponent": "greedy"})).await;
    let id = view["id"].as_u64().unwrap();
    for _ in 0..4 {
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        let a = legal(&v)[0];
        assert_eq!(
            post(
                &app,
                &format!("/api/games/{id}/moves"),
                json!({"action": a})
            )
            .await
            .0,
            StatusCode::OK
        );
    }
    let (s, text) = get(&app, &format!("/api/games/{id}/record")).await;
    assert_eq!(s, StatusCode::OK);
    let record = GameRecord::from_json(&serde_json::to_string(&text).unwrap()).unwrap();
    let replay = record.replay().expect("the downloaded record replays");
    assert_eq!(record.actions.len(), 8);
    assert_eq!(record.seats, ["you".to_string(), "greedy".to_string()]);
    let (s, runs) = get(&app, &format!("/api/games/{id}/runs")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(runs["start"]["pits"], json!(vec![4; 12]));
    let moves = runs["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 8);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(
            m["board"],
            serde_json::to_value(&record.boards[i]).unwrap(),
            "board after move {}",
            i + 1
        );
        assert_eq!(m["drops"].as_u64().unwrap() as usize, replay.drops[i].len());
        assert_eq!(m["turn"].as_u64().unwrap() as usize, i + 1);
    }
    let (s, detail) = get(&app, &format!("/api/games/{id}/runs/1")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(detail["before"]["pits"], json!(vec![4; 12]));
    let steps = detail["steps"].as_array().unwrap();
    for (k, drop) in replay.drops[0].iter().enumerate() {
        assert_eq!(
            steps[k]["board"],
            serde_json::to_value(drop).unwrap(),
            "drop {}",
            k + 1
        );
        assert_eq!(steps[k]["end"], false);
    }
    refused(
        get(&app, &format!("/api/games/{id}/runs/0")).await,
        StatusCode::BAD_REQUEST,
        &["move 0", "1..=8"],
    );
    refused(
        get(&app, &format!("/api/games/{id}/runs/9")).await,
        StatusCode::BAD_REQUEST,
        &["move 9", "1..=8"],
    );
    refused(
        get(&app, &format!("/api/games/{id}/runs/two")).await,
        StatusCode::BAD_REQUEST,
        &["\"two\""],
    );
    refused(
        get(&app, &format!("/api/games/{id}?ply=9")).await,
        StatusCode::BAD_REQUEST,
        &["ply 9", "0..=8"],
    );
    refused(
        get(&app, &format!("/api/games/{id}?ply=-1")).await,
        StatusCode::BAD_REQUEST,
        &["ply"],
    );
    refused(
        get(&app, "/api/games/77777/runs").await,
        StatusCode::NOT_FOUND,
        &["77777"],
    );
    refused(
        get(&app, "/api/games/77777/record").await,
        StatusCode::NOT_FOUND,
        &["77777"],
    );
}

#[tokio::test]
async fn a_capture_is_marked_on_the_move_and_on_the_end_of_its_drops() {
    // South's F (pit 5) holds 2: its last seed makes North's b (pit 7) hold 2 — a capture.
    let rules: Variant = "ayo".parse().unwrap();
    let start = "4 4 4 4 4 2 4 1 4 4 4 4 | 5 0 | 0";
    let mut state = rules.parse_notation(start).unwrap();
    let mut record = GameRecord::new(&rules, Player::South, Some(start.into()), false);
    record.play(&rules, &mut state, 5).unwrap();
    assert_eq!(rules.scores(&state)[0], 7, "the capture took 2");
    let app = app();
    let (s, view) = post(&app, "/api/records", serde_json::to_value(&record).unwrap()).await;
    assert_eq!(s, StatusCode::CREATED, "{view}");
    let id = view["id"].as_u64().unwrap();
    let (_, runs) = get(&app, &format!("/api/games/{id}/runs")).await;
    let event = &runs["moves"][0]["events"][0];
    assert_eq!(event["kind"], "capture", "{runs}");
    assert!(
        event["text"]
            .as_str()
            .unwrap()
            .contains("South takes 2 seeds"),
        "{event}"
    );
    assert_eq!(event["pits"], json!([7]));
    let (_, detail) = get(&app, &format!("/api/games/{id}/runs/1")).await;
    let steps = detail["steps"].as_array().unwrap();
    assert_eq!(
        steps.len(),
        3,
        "two drops and the board after the capture: {detail}"
    );
    assert_eq!(steps[2]["end"], true);
    assert_eq!(steps[2]["events"][0]["kind"], "capture");
}

#[tokio::test]
async fn a_relay_and_a_round_are_marked_in_a_fours_match() {
    let app = app();
    let mut record = agent_record("ncho", 3);
    // A whole match: rounds follow each other within the game.
    let rules = Variant::new("ncho", &[("episode".into(), "match".into())]).unwrap();
    let mut players = [
        agents::parse("greedy", 1).unwrap(),
        agents::parse("greedy", 2).unwrap(),
    ];
    let mut state = rules.start(Player::South);
    let mut match_record = GameRecord::new(&rules, Player::South, None, false);
    while let Some(p) = rules.to_play(&state) {
        if rules.round(&state) > 1 || match_record.actions.len() > 600 {
            break;
        }
        let (a, _) = players[p.index()].choose(&rules, &state);
        match_record.play(&rules, &mut state, a).unwrap();
    }
    assert!(
        rules.round(&state) > 1,
        "the match reached its second round"
    );
    for (r, expect) in [(&mut record, "relay"), (&mut match_record, "round")] {
        let (s, view) = post(&app, "/api/records", serde_json::to_value(&*r).unwrap()).await;
        assert_eq!(s, StatusCode::CREATED, "{view}");
        let (_, runs) = get(&app, &format!("/api/games/{}/runs", view["id"])).await;
        let kinds: Vec<&str> = runs["moves"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| {
                m["events"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["kind"].as_str().unwrap())
            })
            .collect();
        if expect == "relay" {
            // Relays show in the drops, not in the whole move's change.
            let mut relays = 0;
            for i in 1..=r.actions.len().min(30) {
                let (_, d) = get(&app, &format!("/api/games/{}/runs/{i}", view["id"])).await;
                relays += d["steps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|s| s["events"].as_array().unwrap().clone())
                    .filter(|e| e["kind"] == "relay")
                    .count();
            }
            assert!(relays > 0, "ncho's relay sowing shows as relays");
        } else {
            assert!(kinds.contains(&"round"), "{kinds:?}");
            assert!(
                kinds.contains(&"houses") || kinds.contains(&"four"),
                "{kinds:?}"
            );
        }
    }
}

#[tokio::test]
async fn a_record_loads_for_review_and_steps_through() {
    let app = app();
    for variant in ["ncho", "yao"] {
        let record = agent_record(variant, 5);
        let (s, view) = call(&app, "POST", "/api/records", Some(record.to_json())).await;
        assert_eq!(s, StatusCode::CREATED, "{view}");
        assert_eq!(view["review"], true);
        assert_eq!(view["ply"], 0);
        assert_eq!(view["legal"], json!([]));
        let id = view["id"].as_u64().unwrap();
        for k in [1, record.actions.len() / 2, record.actions.len()] {
            let (_, v) = get(&app, &format!("/api/games/{id}?ply={k}")).await;
            assert_eq!(
                v["board"],
                serde_json::to_value(&record.boards[k - 1]).unwrap(),
                "{variant} after move {k}"
            );
        }
        let (_, end) = get(&app, &format!("/api/games/{id}")).await;
        assert!(
            end["result"]["text"]
                .as_str()
                .unwrap()
                .starts_with("Game over"),
            "{end}"
        );
        refused(
            post(
                &app,
                &format!("/api/games/{id}/moves"),
                json!({"action": 0}),
            )
            .await,
            StatusCode::CONFLICT,
            &["review"],
        );
        let (_, runs) = get(&app, &format!("/api/games/{id}/runs")).await;
        assert_eq!(
            runs["moves"].as_array().unwrap().len(),
            record.actions.len()
        );
        if variant == "yao" {
            assert_eq!(
                view["layout"]["rows"].as_array().unwrap().len(),
                4,
                "yao's four rows"
            );
            assert_eq!(view["layout"]["store"], "none");
            assert_eq!(view["layout"]["rows"][2][4]["label"], "V");
        } else {
            assert_eq!(view["layout"]["houses"], true);
        }
    }
}

#[tokio::test]
async fn malformed_and_false_records_are_refused() {
    let app = app();
    let records = "/api/records";
    refused(
        call(&app, "POST", records, Some("not json".into())).await,
        StatusCode::BAD_REQUEST,
        &["not valid JSON"],
    );
    refused(
        call(
            &app,
            "POST",
            records,
            Some("{\"variant\": \"ayo@1\"}".into()),
        )
        .await,
        StatusCode::BAD_REQUEST,
        &["missing field"],
    );
    let mut record = agent_record("ayo", 2);
    record.variant = "owari@1".into();
    refused(
        call(&app, "POST", records, Some(record.to_json())).await,
        StatusCode::BAD_REQUEST,
        &["\"owari\""],
    );
    let mut record = agent_record("ayo", 2);
    record.boards[3].pits[0] += 1;
    refused(
        call(&app, "POST", records, Some(record.to_json())).await,
        StatusCode::BAD_REQUEST,
        &["board after move 3"],
    );
    let mut record = agent_record("ayo", 2);
    record.actions[0] = 9;
    refused(
        call(&app, "POST", records, Some(record.to_json())).await,
        StatusCode::BAD_REQUEST,
        &["move 0", "action 9"],
    );
    let big = " ".repeat(BODY_LIMIT + 10);
    refused(
        call(&app, "POST", records, Some(big)).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        &[&BODY_LIMIT.to_string()],
    );
}

#[tokio::test]
async fn analysis_gives_the_networks_value_priors_and_visits() {
    let app = app();
    let view = new_game(&app, json!({"variant": "ayo", "opponent": "human"})).await;
    let id = view["id"].as_u64().unwrap();
    let uri = format!("/api/games/{id}/analysis");
    let ckpt = model("ayo", "ayo-1h.ot");
    let (s, a) = post(&app, &uri, json!({"checkpoint": ckpt, "sims": 0})).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let value = a["value"].as_f64().unwrap();
    assert!((-1.0..=1.0).contains(&value));
    let priors: f64 = a["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["prior"].as_f64().unwrap())
        .sum();
    assert!(
        (priors - 1.0).abs() < 1e-4,
        "priors over the legal holes sum to 1: {priors}"
    );
    assert_eq!(a["search"], Value::Null);
    let (s, a) = post(&app, &uri, json!({"checkpoint": format!("{ckpt}:32")})).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let visits: u64 = a["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["visits"].as_u64().unwrap())
        .sum();
    assert_eq!(a["search"]["simulations"], 32);
    assert!(visits > 0 && visits <= 32, "{visits}");
    let oware = model("oware", "oware-levels-1h.ot");
    refused(
        post(&app, &uri, json!({"checkpoint": oware})).await,
        StatusCode::BAD_REQUEST,
        &["oware@1", "ayo@1"],
    );
    refused(
        post(&app, &uri, json!({"checkpoint": "/no/such.ot"})).await,
        StatusCode::BAD_REQUEST,
        &["\"/no/such.ot\""],
    );
    refused(
        post(&app, &uri, json!({"checkpoint": ckpt, "ply": 3})).await,
        StatusCode::BAD_REQUEST,
        &["ply 3"],
    );
    refused(
        post(&app, &uri, json!({"checkpoint": ckpt, "sims": 1_000_000})).await,
        StatusCode::BAD_REQUEST,
        &["1000000 simulations"],
    );
    // A finished game has nothing to analyse.
    let record = agent_record("ayo", 4);
    let (_, review) = call(&app, "POST", "/api/records", Some(record.to_json())).await;
    refused(
        post(
            &app,
            &format!("/api/games/{}/analysis", review["id"]),
            json!({"checkpoint": ckpt}),
        )
        .await,
        StatusCode::CONFLICT,
        &["over"],
    );
}

#[tokio::test]
async fn a_network_opponent_answers_and_moves_first_when_the_person_sits_north() {
    // Its speed is measured by scripts/bench-serve.sh, not here.
    let app = app();
    let spec = format!("{}:32", model("ayo", "ayo-1h.ot"));
    let view = new_game(
        &app,
        json!({"variant": "ayo", "opponent": spec, "seat": "north"}),
    )
    .await;
    assert_eq!(view["ply"], 1, "the network (South) moved first");
    assert_eq!(view["to_play"], "North");
    assert_eq!(
        view["layout"]["bottom"], "North",
        "the person's row is drawn at the bottom"
    );
    assert!(view["last"][0]["value"].is_number());
    let id = view["id"].as_u64().unwrap();
    for _ in 0..5 {
        let (_, v) = get(&app, &format!("/api/games/{id}")).await;
        if v["result"] != Value::Null {
            break;
        }
        let a = legal(&v)[0];
        let (s, after) = post(
            &app,
            &format!("/api/games/{id}/moves"),
            json!({"action": a}),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{after}");
        assert_eq!(
            after["last"][0]["action"], a,
            "the person's move comes first"
        );
        if after["result"] == Value::Null {
            assert_eq!(after["last"][1]["mover"], "South", "the network answered");
            assert_eq!(after["to_play"], "North");
        }
    }
}

#[tokio::test]
async fn games_in_several_tabs_are_independent() {
    let app = app();
    let a = new_game(&app, json!({"variant": "ayo", "opponent": "human"})).await;
    let b = new_game(&app, json!({"variant": "yao", "opponent": "random"})).await;
    let (ia, ib) = (a["id"].as_u64().unwrap(), b["id"].as_u64().unwrap());
    assert_ne!(ia, ib);
    let yao_action = legal(&b)[0];
    let (ua, ub) = (
        format!("/api/games/{ia}/moves"),
        format!("/api/games/{ib}/moves"),
    );
    let (ra, rb) = tokio::join!(
        post(&app, &ua, json!({"action": 3})),
        post(&app, &ub, json!({"action": yao_action})),
    );
    assert_eq!(ra.0, StatusCode::OK, "{}", ra.1);
    assert_eq!(rb.0, StatusCode::OK, "{}", rb.1);
    // Two people at one screen: North is offered moves after South's.
    assert_eq!(ra.1["ply"], 1);
    assert_eq!(ra.1["to_play"], "North");
    assert_eq!(legal(&ra.1), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(ra.1["legal"][0]["pit"], 6);
    let (_, b2) = get(&app, &format!("/api/games/{ib}")).await;
    assert_eq!(b2["variant"], "yao@1");
    assert_eq!(b2["board"], rb.1["board"]);
    assert!(
        b2["ply"].as_u64().unwrap() >= 2,
        "random answered the yao move"
    );
}

#[tokio::test]
async fn yao_offers_both_ways_from_one_hole() {
    let app = app();
    let view = new_game(&app, json!({"variant": "yao", "opponent": "human"})).await;
    let mut by_pit = std::collections::BTreeMap::<u64, Vec<String>>::new();
    for a in view["legal"].as_array().unwrap() {
        by_pit
            .entry(a["pit"].as_u64().unwrap())
            .or_default()
            .push(a["name"].as_str().unwrap().into());
    }
    assert!(
        by_pit.values().any(|names| names.len() == 2),
        "a hole with two ways: {by_pit:?}"
    );
    for pit in by_pit.keys() {
        assert!(*pit < 16, "South's holes only: {by_pit:?}");
    }
}
