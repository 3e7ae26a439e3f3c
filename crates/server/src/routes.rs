//! The HTTP routes of the contract (`shared/spec/server.md`), each checking
//! in the contract's order: the game, the body, the token, then the game's
//! own checks (in the hub).

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::{Arc, LazyLock};
use std::time::Instant;

use axum::Router;
use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use tokio::time::Sleep;

use dice_core::Side;

use crate::conn::Control;
use crate::edge::{App, Bearer, GameSlot, JsonBody, PeerIp, json};
use crate::error::ApiError;
use crate::feed::{self, Watcher};
use crate::hub::Slot;
use crate::limit::{Over, Ticket};
use crate::page;
use crate::review;
use crate::secret;
use crate::wire;

/// The bytes of the comment an event stream sends when nothing happened
/// for a while: enough that a client that reads nothing fills its buffers
/// and is cut (see `serve`), even on a game where nothing happens.
const KEEP_ALIVE_BYTES: usize = 4096;
/// The send buffer asked for an event stream's socket: what a client that
/// reads nothing holds of the kernel's memory.
const STREAM_SEND_BUFFER: usize = 16 * 1024;
/// The longest path written to the log.
const LOGGED_PATH_MAX: usize = 120;

/// The Content-Security-Policy of every reply: the page's own scripts,
/// styles and requests, nothing else, no framing.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The headers every reply carries (besides `Cache-Control`).
pub(crate) const SECURITY_HEADERS: [(&str, &str); 5] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-opener-policy", "same-origin"),
];

/// The router: every route of the contract, the page, `/metrics`, and the
/// layer that logs, times and adds the security headers.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/g/{id}", get(page_of_game))
        .route("/g/{id}/review", get(page_of_game))
        .route("/page/{file}", get(page::asset))
        .route("/healthz", get(|| async { "ok" }))
        .route("/metrics", get(metrics))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(state).delete(withdraw))
        .route("/api/open", get(open_games))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/seat", patch(rename))
        .route("/api/games/{id}/rematch", post(rematch).delete(unrematch))
        .route("/api/games/{id}/moves", post(play))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/plies", get(review::plies))
        .route("/api/rules", get(review::catalogue))
        .route("/api/rules/{game}", get(review::rule_set))
        .fallback(nothing_here)
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method_not_allowed",
                "this path does not take that method",
            )
        })
        .layer(middleware::from_fn_with_state(app.clone(), frame))
        .with_state(app)
}

/// A request's path as the log shows it: a segment that could be a secret
/// (longer than a game id, in the tokens' alphabet) as `…`, and the whole
/// cut to [`LOGGED_PATH_MAX`] bytes.
fn logged_path(path: &str) -> String {
    let mut logged = String::with_capacity(path.len().min(LOGGED_PATH_MAX + 4));
    for (i, segment) in path.split('/').enumerate() {
        if i > 0 {
            logged.push('/');
        }
        let secret_like = segment.len() > secret::ID_TEXT_LEN
            && segment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        logged.push_str(if secret_like { "…" } else { segment });
        if logged.len() > LOGGED_PATH_MAX {
            break;
        }
    }
    if logged.len() > LOGGED_PATH_MAX {
        let mut end = LOGGED_PATH_MAX;
        while !logged.is_char_boundary(end) {
            end -= 1;
        }
        logged.truncate(end);
        logged.push('…');
    }
    logged
}

/// Logs and times every request and adds the security headers.
async fn frame(State(app): State<App>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = logged_path(req.uri().path());
    let mut response = next.run(req).await;
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    let took = start.elapsed();
    app.hub.metrics().request(took);
    tracing::info!(
        target: "race::http",
        "{method} {path} {} {}us",
        response.status().as_u16(),
        took.as_micros()
    );
    response
}

async fn metrics(State(app): State<App>) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        app.hub.metrics().render(),
    )
        .into_response()
}

/// `GET /g/{id}` and `GET /g/{id}/review`: the page. For a game that is
/// not there, a browser (asking for HTML) gets the page with the error's
/// status, and the page says what is wrong; a program gets the JSON error.
async fn page_of_game(
    headers: HeaderMap,
    slot: Result<GameSlot, ApiError>,
) -> Result<Response, ApiError> {
    match slot {
        Ok(_) => Ok(page::index().await),
        Err(e) if page::wants_html(&headers) => Ok(page::index_with(e.status)),
        Err(e) => Err(e),
    }
}

/// A path nobody serves: 404, as the page for a browser asking for HTML
/// (outside `/api/` and `/page/`), else as the JSON error.
async fn nothing_here(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let first = uri.path().split('/').nth(1).unwrap_or_default();
    let is_api = first == "api" || first == "page";
    if (method == Method::GET || method == Method::HEAD) && !is_api && page::wants_html(&headers) {
        return page::index_with(StatusCode::NOT_FOUND);
    }
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "there is nothing at this path",
    )
    .into_response()
}

async fn create(
    State(app): State<App>,
    PeerIp(address): PeerIp,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let request = wire::parse_create(&body).map_err(|e| ApiError::bad_request(e.0))?;
    let plan = app.hub.plan(request)?;
    if !app.limit.allow(address, Instant::now()) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "too many games created from this address in the last minute; wait a little",
        ));
    }
    let seated = app.hub.create(plan).await?;
    Ok(json(StatusCode::CREATED, seated.body()))
}

/// The state; a seat's token with the request keeps that seat shown
/// `connected` (a token that holds no seat changes nothing).
/// The most games `GET /api/games?ids=...` answers for.
pub const LIST_MAX: usize = 50;

/// The query of `GET /api/games`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Game ids, comma-separated.
    ids: String,
}

/// `GET /api/games?ids=ID,ID,...`: the states of the games asked for, in
/// the order asked, leaving out the ids of no game.
async fn list(
    State(app): State<App>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let ids: Vec<&str> = query.ids.split(',').filter(|id| !id.is_empty()).collect();
    if ids.len() > LIST_MAX {
        return Err(ApiError::bad_request(format!(
            "at most {LIST_MAX} ids at once, not {}",
            ids.len()
        )));
    }
    let mut out = b"{\"games\":[".to_vec();
    let mut first = true;
    for id in ids {
        let slot = match app.hub.slot(id).await {
            Ok(slot) => slot,
            Err(e) if e.code == "no_game" => continue,
            Err(e) => return Err(e.into()),
        };
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        out.extend_from_slice(&slot.state());
    }
    out.extend_from_slice(b"]}");
    Ok(json(StatusCode::OK, out))
}

async fn state(State(app): State<App>, GameSlot(slot): GameSlot, bearer: Bearer) -> Response {
    if let Ok(token) = bearer.hash() {
        app.hub.seen(&slot, &token);
    }
    json(StatusCode::OK, slot.state())
}

async fn join(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let request = wire::parse_join(&body).map_err(|e| ApiError::bad_request(e.0))?;
    let seated = app
        .hub
        .join(slot, request.invite, request.key, request.name)
        .await?;
    Ok(json(StatusCode::OK, seated.body()))
}

async fn rename(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    bearer: Bearer,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let name = wire::parse_rename(&body).map_err(|e| ApiError::bad_request(e.0))?;
    let token = bearer.hash()?;
    app.hub.seen(&slot, &token);
    let state = app.hub.rename(slot, token, name).await?;
    Ok(json(StatusCode::OK, state))
}

async fn play(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    bearer: Bearer,
    body: Result<JsonBody, ApiError>,
) -> Result<Response, ApiError> {
    let refused = |e: ApiError| {
        app.hub.metrics().move_refused(e.code);
        e
    };
    let JsonBody(body) = body.map_err(refused)?;
    let request = wire::parse_move(&body).map_err(|e| refused(ApiError::bad_request(e.0)))?;
    let token = bearer.hash().map_err(refused)?;
    app.hub.seen(&slot, &token);
    let state = app.hub.play(slot, token, request.ply, request.mv).await?;
    Ok(json(StatusCode::OK, state))
}

/// What a seat's action that takes no body checks first, in the contract's
/// order: the body empty, then the token; the seat is then marked as seen.
fn seat_action(
    app: &App,
    slot: &Arc<Slot>,
    bearer: Bearer,
    body: &[u8],
) -> Result<secret::TokenHash, ApiError> {
    wire::parse_empty(body).map_err(|e| ApiError::bad_request(e.0))?;
    let token = bearer.hash()?;
    app.hub.seen(slot, &token);
    Ok(token)
}

async fn resign(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    bearer: Bearer,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let token = seat_action(&app, &slot, bearer, &body)?;
    let state = app.hub.resign(slot, token).await?;
    Ok(json(StatusCode::OK, state))
}

/// `DELETE /api/games/{id}`: the creator withdraws a game still waiting.
async fn withdraw(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    bearer: Bearer,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    wire::parse_empty(&body).map_err(|e| ApiError::bad_request(e.0))?;
    let token = bearer.hash()?;
    app.hub.withdraw(slot, token).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// One game of `GET /api/open`.
#[derive(Serialize)]
struct OpenView {
    id: String,
    game: &'static str,
    rules: String,
    name: Option<String>,
    since: i64,
}

/// `GET /api/open`: the games open to anyone that wait for a player.
async fn open_games(State(app): State<App>) -> Result<Response, ApiError> {
    let Some(games) = app.hub.open_games().await? else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "this server lists no open games",
        ));
    };
    let games: Vec<OpenView> = games
        .into_iter()
        .map(|g| OpenView {
            id: g.id,
            game: g.rules.kind().as_str(),
            rules: g.rules.to_string(),
            name: g.name,
            since: g.created,
        })
        .collect();
    let body = serde_json::to_vec(&serde_json::json!({ "games": games }))
        .map_err(|e| ApiError::from(crate::refusal::Refusal::internal(e)))?;
    Ok(json(StatusCode::OK, body))
}

async fn rematch(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    bearer: Bearer,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let token = seat_action(&app, &slot, bearer, &body)?;
    let state = app.hub.rematch(slot, token).await?;
    Ok(json(StatusCode::OK, state))
}

async fn unrematch(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    bearer: Bearer,
    JsonBody(body): JsonBody,
) -> Result<Response, ApiError> {
    let token = seat_action(&app, &slot, bearer, &body)?;
    let state = app.hub.unrematch(slot, token).await?;
    Ok(json(StatusCode::OK, state))
}

async fn record(GameSlot(slot): GameSlot) -> Response {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        slot.record().await,
    )
        .into_response()
}

/// The comment an event stream sends when it has been quiet.
static KEEP_ALIVE: LazyLock<Bytes> = LazyLock::new(|| {
    let mut comment = b": keep-alive ".to_vec();
    comment.resize(KEEP_ALIVE_BYTES - 2, b'.');
    comment.extend_from_slice(b"\n\n");
    Bytes::from(comment)
});

/// The query of `GET /api/games/{id}/events`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// `true`: after the first state, send what changed (`delta` events).
    delta: Option<bool>,
    /// `true`: follow a finished friend game until a rematch has started.
    rematch: Option<bool>,
}

/// An open event stream: counted while it lives.
struct Watch {
    first: Option<Bytes>,
    watcher: Option<Arc<Watcher>>,
    slot: Arc<Slot>,
    /// The seat whose token opened the stream.
    seat: Option<Side>,
    stop: tokio::sync::watch::Receiver<bool>,
    quiet: Pin<Box<Sleep>>,
    app: App,
    _ticket: Ticket,
}

impl Watch {
    fn hush(&mut self) {
        let at = tokio::time::Instant::now() + self.app.keep_alive;
        self.quiet.as_mut().reset(at);
    }

    /// The next bytes to send; `None` ends the stream.
    async fn next(&mut self) -> Option<Bytes> {
        if let Some(first) = self.first.take() {
            return Some(first);
        }
        let watcher = self.watcher.clone()?;
        loop {
            match watcher.next() {
                feed::Next::Event(event) => {
                    self.hush();
                    return Some(event);
                }
                feed::Next::End => return None,
                feed::Next::Wait => {}
            }
            let quiet = tokio::select! {
                () = watcher.woken() => false,
                () = &mut self.quiet => true,
                _ = self.stop.wait_for(|s| *s) => return None,
            };
            if quiet {
                self.hush();
                return Some(KEEP_ALIVE.clone());
            }
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(watcher) = &self.watcher {
            self.slot.unwatch(watcher);
        }
        self.app.hub.stream_closed(&self.slot, self.seat);
        self.app.hub.metrics().watchers(-1);
    }
}

/// 503 `busy` for a connection or an event stream over a cap.
pub(crate) fn busy(what: &str, over: Over) -> ApiError {
    let message = match over {
        Over::Address(n) => {
            format!("this address holds as many {what} as it may ({n}); close one and try again")
        }
        Over::Total(n) => {
            format!("the server holds as many {what} as it can ({n}); try again in a moment")
        }
    };
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", message)
}

async fn events(
    State(app): State<App>,
    GameSlot(slot): GameSlot,
    query: Result<Query<EventsQuery>, QueryRejection>,
    PeerIp(address): PeerIp,
    bearer: Bearer,
    req: Request,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let ticket = app.streams.admit(address).map_err(|over| {
        app.hub.metrics().busy(match over {
            Over::Address(_) => "streams_per_address",
            Over::Total(_) => "streams",
        });
        busy("event streams", over)
    })?;
    if let Some(control) = req.extensions().get::<Arc<Control>>() {
        control.shrink_send_buffer(STREAM_SEND_BUFFER);
    }
    let kind = if query.delta == Some(true) {
        feed::Kind::Delta
    } else {
        feed::Kind::Full
    };
    let (first, watcher) = slot.watch(kind, query.rematch == Some(true));
    app.hub.metrics().watchers(1);
    let seat = app.hub.stream_opened(&slot, bearer.hash().ok().as_ref());
    let watch = Watch {
        first: Some(first),
        watcher,
        seat,
        slot,
        stop: app.hub.stopping(),
        quiet: Box::pin(tokio::time::sleep(app.keep_alive)),
        app: app.clone(),
        _ticket: ticket,
    };
    let stream = futures_util::stream::unfold(watch, |mut w| async move {
        let bytes = w.next().await?;
        Some((Ok::<_, Infallible>(bytes), w))
    });
    Ok((
        [
            (header::CONTENT_TYPE, "text/event-stream"),
            (HeaderName::from_static("x-accel-buffering"), "no"),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_path_hides_what_could_be_a_token_and_is_bounded() {
        let id = secret::new_id().unwrap();
        let (token, _) = secret::new_token().unwrap();
        let token = token.reveal().to_owned();
        assert_eq!(logged_path(&format!("/g/{id}")), format!("/g/{id}"));
        let logged = logged_path(&format!("/api/games/{token}/moves"));
        assert_eq!(logged, "/api/games/…/moves");
        assert!(!logged.contains(&token));
        let long = format!("/{}", "é/".repeat(100_000));
        assert!(logged_path(&long).len() <= LOGGED_PATH_MAX + '…'.len_utf8());
    }
}
