//! `ayo serve`: the computer Ayo of `004` in the browser — play, watch ("Display Runs", "Show
//! Runs in Detail"), review records and see what a network thinks of a position.
//!
//! A thin layer, like the Python binding: every handler turns JSON into calls of the library
//! (the rules, [`GameRecord`], the agents of [`crate::agent::load_player`]) and the answers back
//! into JSON; the page (`page/`, compiled into the binary) asks for every legal move and board
//! and holds no rule. The API is documented in `docs/serve.md`.
//!
//! Games are kept in memory by id; each has its own lock, so games in several tabs run
//! independently, and agents think on the blocking thread pool.

mod game;

pub use game::{Game, GameView, Seat};

use crate::agent::{checkpoint_spec, load_player, NetAgent, NetEvaluator};
use crate::search::gumbel_search;
use crate::search::Evaluator;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ayo_env::tablebase::{self, Tablebase};
use ayo_env::{Budget, GameRecord, Player, Rules, Variant, VariantState, VARIANT_NAMES};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The largest request body accepted (a game record with every drop of a long game fits).
pub const BODY_LIMIT: usize = 4 << 20;
/// Games kept at once; the oldest is dropped to make room.
pub const MAX_GAMES: usize = 1000;
/// Simulations of a checkpoint named without `:SIMS`.
pub const DEFAULT_SIMS: u32 = 32;
/// The most simulations an analysis may ask for.
pub const MAX_ANALYSIS_SIMS: u32 = 100_000;

const INDEX_HTML: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE_CSS: &str = include_str!("page/style.css");

/// An error answer: a status and a message naming the bad value and what was expected.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(message: String) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message,
        }
    }
    pub fn not_found(message: String) -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message,
        }
    }
    pub fn conflict(message: String) -> Self {
        ApiError {
            status: StatusCode::CONFLICT,
            message,
        }
    }
    pub fn internal(message: String) -> Self {
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (
            self.status,
            Json(Body {
                error: self.message,
            }),
        )
            .into_response()
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

/// The server's state: the games, the folder of shipped models and the networks loaded for
/// analysis.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

/// A network loaded for analysis, shared by the requests that use it.
type Analyst = Arc<Mutex<NetAgent>>;

struct Inner {
    games: Mutex<Games>,
    models: PathBuf,
    analysts: Mutex<HashMap<(PathBuf, String), Analyst>>,
    /// The endgame table the analysis reads, if the server was given one.
    table: Option<Arc<Tablebase>>,
}

#[derive(Default)]
struct Games {
    next_id: u64,
    by_id: BTreeMap<u64, Arc<Mutex<Game>>>,
}

impl AppState {
    /// A server with no games, listing the checkpoints under `models`.
    pub fn new(models: PathBuf) -> AppState {
        AppState::with_tablebase(models, None)
    }

    /// The same, with an endgame table whose verdict the analysis adds (`oware` games).
    pub fn with_tablebase(models: PathBuf, table: Option<Arc<Tablebase>>) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                games: Mutex::new(Games {
                    next_id: 1,
                    ..Default::default()
                }),
                models,
                analysts: Mutex::new(HashMap::new()),
                table,
            }),
        }
    }

    fn insert(&self, game: Game) -> (u64, Arc<Mutex<Game>>) {
        let mut games = self.inner.games.lock().expect("games lock");
        let id = games.next_id;
        games.next_id += 1;
        while games.by_id.len() >= MAX_GAMES {
            games.by_id.pop_first();
        }
        let game = Arc::new(Mutex::new(game));
        games.by_id.insert(id, game.clone());
        (id, game)
    }

    fn game(&self, id: &str) -> Result<(u64, Arc<Mutex<Game>>), ApiError> {
        let games = self.inner.games.lock().expect("games lock");
        let found = id
            .parse::<u64>()
            .ok()
            .and_then(|n| Some((n, games.by_id.get(&n)?.clone())));
        found.ok_or_else(|| {
            ApiError::not_found(format!(
                "no game {id:?} on this server (games are kept in memory: was the server restarted?)"
            ))
        })
    }
}

/// The router: the page at `/`, the JSON API under `/api`.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
                    INDEX_HTML,
                )
            }),
        )
        .route(
            "/app.js",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
                    APP_JS,
                )
            }),
        )
        .route(
            "/style.css",
            get(|| async {
                (
                    [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
                    STYLE_CSS,
                )
            }),
        )
        .route("/api/variants", get(variants))
        .route("/api/models", get(models))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/moves", post(play_move))
        .route("/api/games/{id}/runs", get(runs))
        .route("/api/games/{id}/runs/{index}", get(drops))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/analysis", post(analysis))
        .route("/api/records", post(load_record))
        .fallback(|| async {
            ApiError::not_found("no such page or API endpoint (see docs/serve.md)".into())
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

/// Reads a JSON body, answering an oversized or malformed one with a message that says why.
fn json_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!("request body refused ({e}): the limit is {BODY_LIMIT} bytes"),
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
}

/// Runs `f` on the blocking pool (agents and networks think there).
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("the request's worker failed: {e}")))?
}

fn lock(game: &Mutex<Game>) -> std::sync::MutexGuard<'_, Game> {
    // A panic while a game was held leaves it as the last completed move left it.
    game.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[derive(Serialize)]
struct VariantInfo {
    name: &'static str,
    id: String,
    description: String,
}

async fn variants() -> Json<Vec<VariantInfo>> {
    Json(
        VARIANT_NAMES
            .iter()
            .map(|&name| {
                let v = Variant::by_name(name).expect("every listed name loads");
                VariantInfo {
                    name,
                    id: v.id(),
                    description: v.describe(),
                }
            })
            .collect(),
    )
}

/// A checkpoint found under the models folder.
#[derive(Serialize)]
struct ModelInfo {
    /// The path to give as an opponent (`PATH:SIMS`) or to the analysis.
    path: String,
    /// The variant it was trained for (its metadata file's `variant`), when known.
    variant: Option<String>,
    /// Whether it is its variant's shipped model (`models/shipped.json`); those come first.
    shipped: bool,
}

async fn models(State(state): State<AppState>) -> Json<Vec<ModelInfo>> {
    let root = state.inner.models.clone();
    // A models folder without a list of shipped models is still listed.
    let shipped: Vec<PathBuf> = crate::shipped::read(&root)
        .map(|list| list.values().map(|e| root.join(&e.model)).collect())
        .unwrap_or_default();
    let mut found = Vec::new();
    let mut dirs = vec![root.clone()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "ot") {
                let variant = std::fs::read_to_string(path.with_extension("json"))
                    .ok()
                    .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                    .and_then(|m| m.get("variant")?.as_str().map(str::to_string));
                found.push(ModelInfo {
                    shipped: shipped.contains(&path),
                    path: path.to_string_lossy().into_owned(),
                    variant,
                });
            }
        }
    }
    found.sort_by(|a, b| (!a.shipped, &a.path).cmp(&(!b.shipped, &b.path)));
    Json(found)
}

/// `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// `name` or `name@version`.
    variant: String,
    /// `key=value,…`
    #[serde(default)]
    options: String,
    /// The person's seat: `south` (moves first) or `north`.
    #[serde(default = "south")]
    seat: String,
    /// `human` (two people at one screen), a baseline spec or a checkpoint `PATH[:SIMS]`.
    #[serde(default = "human")]
    opponent: String,
    #[serde(default)]
    seed: u64,
}

fn south() -> String {
    "south".into()
}
fn human() -> String {
    "human".into()
}

fn parse_seat(text: &str) -> Result<Player, ApiError> {
    match text.to_ascii_lowercase().as_str() {
        "south" | "s" | "0" => Ok(Player::South),
        "north" | "n" | "1" => Ok(Player::North),
        _ => Err(ApiError::bad_request(format!(
            "seat {text:?}: expected south or north"
        ))),
    }
}

async fn create_game(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let req: NewGame = json_body(body)?;
    let (id, game, moves) = blocking(move || {
        let options = Variant::parse_options(&req.options)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let rules = Variant::new(&req.variant, &options)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let seat = parse_seat(&req.seat)?;
        let opponent = if req.opponent.trim() == "human" {
            Seat::Human
        } else {
            let agent = load_player(req.opponent.trim(), &rules, DEFAULT_SIMS, req.seed)
                .map_err(|e| ApiError::bad_request(format!("opponent {:?}: {e}", req.opponent)))?;
            Seat::Agent(agent)
        };
        let seats = if seat == Player::South {
            [Seat::Human, opponent]
        } else {
            [opponent, Seat::Human]
        };
        let mut game = Game::new(rules, seats);
        let moves = game.answer()?;
        let (id, shared) = state.insert(game);
        Ok((id, shared, moves))
    })
    .await?;
    let view = lock(&game).view(id, None, moves)?;
    Ok((StatusCode::CREATED, Json(view)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlyQuery {
    ply: Option<usize>,
}

async fn get_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<PlyQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<GameView> {
    let Query(q) =
        query.map_err(|e| ApiError::bad_request(format!("bad query: {e} (expected ?ply=N)")))?;
    let (id, game) = state.game(&id)?;
    let view = lock(&game).view(id, q.ply, Vec::new())?;
    Ok(Json(view))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    action: i64,
}

async fn play_move(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<GameView> {
    let (id, game) = state.game(&id)?;
    let req: MoveRequest = json_body(body)?;
    blocking(move || {
        let mut g = lock(&game);
        let moves = g.play_human(req.action)?;
        g.view(id, None, moves)
    })
    .await
    .map(Json)
}

async fn runs(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<game::RunsView> {
    let (_, game) = state.game(&id)?;
    let runs = lock(&game).runs();
    Ok(Json(runs))
}

async fn drops(
    State(state): State<AppState>,
    Path((id, index)): Path<(String, String)>,
) -> ApiResult<game::DropsView> {
    let (_, game) = state.game(&id)?;
    let index = index.parse::<usize>().map_err(|_| {
        ApiError::bad_request(format!("move {index:?}: expected a move number 1, 2, …"))
    })?;
    let view = lock(&game).drops(index)?;
    Ok(Json(view))
}

async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (id, game) = state.game(&id)?;
    let g = lock(&game);
    let name = format!("ayo-{}-{id}.json", g.rules.name());
    Ok((
        [
            (header::CONTENT_TYPE, "application/json".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        g.record.to_json(),
    )
        .into_response())
}

async fn load_record(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<GameView>), ApiError> {
    let bytes = body.map_err(|e| ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!("record refused ({e}): the limit is {BODY_LIMIT} bytes"),
    })?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the record is not UTF-8 text: {e}")))?;
    let record = GameRecord::from_json(text).map_err(|e| ApiError::bad_request(e.to_string()))?;
    let (id, game) = blocking(move || {
        let game = Game::review(record)?;
        Ok(state.insert(game))
    })
    .await?;
    let view = lock(&game).view(id, Some(0), Vec::new())?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `POST /api/games/{id}/analysis`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalysisRequest {
    /// A checkpoint `PATH` or `PATH:SIMS`.
    checkpoint: String,
    /// Simulations of the search when the checkpoint does not say (0: the network alone).
    #[serde(default)]
    sims: Option<u32>,
    /// The position: after this many actions (the last when absent).
    #[serde(default)]
    ply: Option<usize>,
}

#[derive(Serialize)]
struct Analysis {
    checkpoint: String,
    ply: usize,
    to_play: Player,
    /// The network's value of the position for the player to move, in [-1, 1].
    value: f32,
    /// Per legal action: the network's prior, and with a search its visits and improved policy.
    actions: Vec<ActionAnalysis>,
    /// The search, when it ran.
    search: Option<SearchSummary>,
    /// What the endgame table says of the position, when the server has one for this variant.
    table: Option<TableView>,
    millis: f64,
}

/// The endgame table's verdict on a position (docs/tablebase.md).
#[derive(Serialize)]
struct TableView {
    /// What the table says, in words: the value and the result, or why it says nothing.
    note: String,
    /// The bounds of the board's value for the player to move (its margin from here), where
    /// the table holds the board and the memory is fresh.
    lo: Option<i8>,
    hi: Option<i8>,
    /// The game's result for the player to move (1, 0, −1), where the table decides it.
    result: Option<i32>,
    /// Per legal move, where the value is exact: whether it keeps the result and the margin,
    /// and its worth in seeds (where a search of it fits its cap).
    moves: Vec<TableMove>,
}

#[derive(Serialize)]
struct TableMove {
    action: u8,
    name: String,
    keeps_result: bool,
    keeps_margin: bool,
    worth: Option<i32>,
}

/// The table's verdict on `position`: `None` where the table is not of `rules`.
fn table_view(table: &Tablebase, rules: &Variant, position: &VariantState) -> Option<TableView> {
    table.check_variant(rules).ok()?;
    let silent = |note: String| TableView {
        note,
        lo: None,
        hi: None,
        result: None,
        moves: Vec::new(),
    };
    let Some(node) = table.game().node_of(position) else {
        return Some(silent("the game is over".into()));
    };
    let seeds = node.seeds();
    if !tablebase::memory_is_fresh(position) {
        return Some(silent(format!(
            "{seeds} seeds, but the table's value is the game's only right after a capture (or \
             at the start), where the repetition memory is fresh"
        )));
    }
    let Some(entry) = table.probe_node(&node) else {
        return Some(silent(format!(
            "{seeds} seeds: beyond the table's {} seeds",
            table.max_seeds()
        )));
    };
    let result = tablebase::decide(position, entry).map(|s| s.result);
    let margin = if entry.is_exact() {
        format!("value exactly {:+}", entry.lo)
    } else {
        format!("value between {:+} and {:+}", entry.lo, entry.hi)
    };
    let outcome = match result {
        Some(1) => "the player to move wins",
        Some(0) => "a draw",
        Some(_) => "the player to move loses",
        None => "the result is not known",
    };
    let labels = tablebase::accuracy::label(table, rules, position);
    let moves = labels.map_or_else(Vec::new, |l| {
        l.moves
            .iter()
            .map(|m| TableMove {
                action: m.action,
                name: rules.action_name(position, m.action),
                keeps_result: m.keeps_result,
                keeps_margin: m.keeps_margin,
                worth: m.worth,
            })
            .collect()
    });
    Some(TableView {
        note: format!("{seeds} seeds, {margin} seeds for the player to move: {outcome}"),
        lo: Some(entry.lo),
        hi: Some(entry.hi),
        result,
        moves,
    })
}

#[derive(Serialize)]
struct ActionAnalysis {
    action: u8,
    name: String,
    pit: Option<usize>,
    prior: f32,
    visits: Option<u32>,
    policy: Option<f32>,
}

#[derive(Serialize)]
struct SearchSummary {
    simulations: u32,
    action: u8,
    name: String,
    value: f32,
}

async fn analysis(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Analysis> {
    let (_, game) = state.game(&id)?;
    let req: AnalysisRequest = json_body(body)?;
    blocking(move || {
        let started = std::time::Instant::now();
        let (rules, position, ply) = {
            let g = lock(&game);
            let ply = req.ply.unwrap_or(g.states.len() - 1);
            let position = g.states.get(ply).cloned().ok_or_else(|| {
                ApiError::bad_request(format!("ply {ply} is beyond this game's {} moves", g.states.len() - 1))
            })?;
            (g.rules.clone(), position, ply)
        };
        let Some(to_play) = rules.to_play(&position) else {
            return Err(ApiError::conflict(format!("the position after ply {ply} is over: nothing to analyse")));
        };
        let spec = req.checkpoint.trim();
        let (path, budget) = checkpoint_spec(spec, req.sims.unwrap_or(0))
            .ok_or_else(|| ApiError::bad_request(format!("checkpoint {spec:?}: no such file (expected PATH or PATH:SIMS)")))?;
        let sims = match budget {
            Budget::Nodes(n) => u32::try_from(n).unwrap_or(u32::MAX),
            _ => {
                return Err(ApiError::bad_request(format!(
                    "checkpoint {spec:?}: the analysis takes a simulation count (PATH:SIMS), not a time"
                )))
            }
        };
        if sims > MAX_ANALYSIS_SIMS {
            return Err(ApiError::bad_request(format!("{sims} simulations: expected at most {MAX_ANALYSIS_SIMS}")));
        }
        let agent = state.analyst(path.to_path_buf(), &rules)?;
        let agent = agent.lock().unwrap_or_else(|p| p.into_inner());
        let n = rules.num_actions();
        let mut logits = vec![0.0f32; n];
        let mut value = [0.0f32];
        NetEvaluator::new(agent.net(), &rules).evaluate(&[&position], &mut logits, &mut value);
        let legal = rules.legal_actions(&position);
        let max = legal.iter().map(|&a| logits[a as usize]).fold(f32::NEG_INFINITY, f32::max);
        let total: f32 = legal.iter().map(|&a| (logits[a as usize] - max).exp()).sum();
        let search = (sims > 0).then(|| {
            let params = agent.params.clone();
            let mut rng = rand::thread_rng();
            let mut evaluator = NetEvaluator::new(agent.net(), &rules);
            gumbel_search(&rules, &[&position], &[sims], &params, &mut evaluator, &mut rng)
                .pop()
                .expect("one result per root")
        });
        drop(agent);
        let table = state
            .inner
            .table
            .as_deref()
            .and_then(|t| table_view(t, &rules, &position));
        let actions = legal
            .iter()
            .map(|&a| ActionAnalysis {
                action: a,
                name: rules.action_name(&position, a),
                pit: rules.action_pit(&position, a),
                prior: (logits[a as usize] - max).exp() / total,
                visits: search.as_ref().map(|s| s.visits[a as usize]),
                policy: search.as_ref().map(|s| s.policy[a as usize]),
            })
            .collect();
        Ok(Analysis {
            checkpoint: spec.to_string(),
            ply,
            to_play,
            value: value[0],
            actions,
            search: search.map(|s| SearchSummary {
                simulations: s.simulations,
                action: s.action,
                name: rules.action_name(&position, s.action),
                value: s.value,
            }),
            table,
            millis: started.elapsed().as_secs_f64() * 1e3,
        })
    })
    .await
    .map(Json)
}

impl AppState {
    /// The network at `path`, loaded once and checked to be trained for `rules`.
    fn analyst(&self, path: PathBuf, rules: &Variant) -> Result<Analyst, ApiError> {
        let key = (path.clone(), rules.id());
        if let Some(a) = self.inner.analysts.lock().expect("analysts lock").get(&key) {
            let checked = a
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .check_rules(rules);
            checked.map_err(|e| ApiError::bad_request(e.to_string()))?;
            return Ok(a.clone());
        }
        let agent =
            NetAgent::load(&path, 0, 0).map_err(|e| ApiError::bad_request(e.to_string()))?;
        agent
            .check_rules(rules)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        let agent = Arc::new(Mutex::new(agent));
        self.inner
            .analysts
            .lock()
            .expect("analysts lock")
            .insert(key, agent.clone());
        Ok(agent)
    }
}

/// Serves the page and the API on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, state: AppState) -> std::io::Result<()> {
    axum::serve(listener, router(state)).await
}

#[cfg(test)]
mod tests {
    use super::table_view;
    use ayo_env::tablebase::search::Search;
    use ayo_env::tablebase::{build_tables, Game, Index, Tablebase};
    use ayo_env::{Rules, Variant};

    /// The analysis' table verdict on boards of 3 seeds, South to move right after a capture
    /// and one seed behind in the stores, against alpha-beta over the game with its repetition
    /// memory (not the build's retrograde analysis, and not the table): the value, each move's
    /// worth, and which moves keep the margin and the result; boards the search cannot prove
    /// within its cap are passed over.
    #[test]
    fn the_table_verdict_judges_every_move_as_a_search_of_the_game_does() {
        let dir = tempfile::tempdir().unwrap();
        build_tables(dir.path(), Game::Oware, 3, |_| {}).unwrap();
        let table = Tablebase::open(dir.path()).unwrap();
        let oware = Variant::new("oware", &[]).unwrap();
        let index = Index::get();
        let (mut judged, mut losing_moves) = (0, 0);
        for rank in (0..index.boards(3)).step_by(2) {
            let pits = index.unrank(rank, 3);
            let row = |r: &[u8]| {
                r.iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let notation = format!("{} {} | 22 23 | 0", row(&pits[..6]), row(&pits[6..]));
            let state = oware.parse_notation(&notation).unwrap();
            let Some(node) = Game::Oware.node_of(&state) else {
                continue;
            };
            let view = table_view(&table, &oware, &state).expect("an oware game");
            let mut search = Search::new(Game::Oware, 100_000, None);
            let Some(value) = search.value(&node) else {
                continue;
            };
            let (lo, hi) = (view.lo.unwrap() as i32, view.hi.unwrap() as i32);
            assert!(
                lo <= value && value <= hi,
                "{notation}: {value} outside [{lo}, {hi}]"
            );
            if lo != hi {
                assert!(
                    view.moves.is_empty(),
                    "{notation}: moves judged by an inexact entry"
                );
                continue;
            }
            assert_eq!(
                view.result,
                Some((value - 1).signum()),
                "{notation}: {}",
                view.note
            );
            if view.moves.is_empty() {
                continue; // a move's test passed the labels' node cap
            }
            assert_eq!(
                view.moves.len(),
                oware.legal_actions(&state).len(),
                "{notation}"
            );
            for m in &view.moves {
                let worth = search
                    .move_value(&node, m.action)
                    .expect("a move of a proved board");
                assert_eq!(m.worth, Some(worth), "{notation}: move {}", m.name);
                assert_eq!(
                    m.keeps_margin,
                    worth == value,
                    "{notation}: move {}",
                    m.name
                );
                let keeps = (worth - 1).signum() == (value - 1).signum();
                assert_eq!(m.keeps_result, keeps, "{notation}: move {}", m.name);
                losing_moves += !m.keeps_margin as u32;
            }
            judged += 1;
        }
        assert!(
            judged > 20 && losing_moves > 0,
            "{judged} boards, {losing_moves} moves"
        );

        // After a quiet move the memory is not fresh: the verdict says so and gives no value.
        let start = oware.start(ayo_env::Player::South);
        let mut after = start.clone();
        oware
            .play(&mut after, oware.legal_actions(&start)[0])
            .unwrap();
        let quiet = table_view(&table, &oware, &after).unwrap();
        assert!(
            quiet.lo.is_none() && quiet.note.contains("fresh"),
            "{}",
            quiet.note
        );
        // Beyond the table's seeds (the start: 48) it says so too; another variant: nothing.
        assert!(table_view(&table, &oware, &start)
            .unwrap()
            .note
            .contains("beyond"));
        let ayo = Variant::new("ayo", &[]).unwrap();
        assert!(table_view(&table, &ayo, &ayo.start(ayo_env::Player::South)).is_none());
    }
}
