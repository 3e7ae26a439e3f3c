//! `race loadtest`: friend games played against a running server as fast
//! as it answers, event watchers held open, and at the end a check that
//! every game's record holds exactly the moves seen accepted.
//!
//! Each game is driven by one task that holds both seats: it creates a
//! friend game, joins it with the invite, then plays a random legal move
//! for the side to move, with its ply, until the game ends or the time is
//! up, and starts another. A move whose reply is lost (the connection
//! failed) is sent again, the same `{ply, move}`: the server plays it once.
//!
//! Given several servers (sharing one database), game `i` is created on
//! server `i mod k` and joined on the next; each seat's moves go to the
//! server it was seated on, and watcher `n` starts on server `n mod k`. A
//! request that fails in transport is sent again to the next server, and
//! a server that failed is passed over for a second: the load goes on
//! through the others when one dies.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode, Uri, header};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::Deserialize;

use race_games::{Kind, record_moves};

/// How many times a request that failed in transport is sent again.
const RETRIES: u32 = 5;
/// The longest a single request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The servers, each `http://HOST:PORT` (at least one).
    pub urls: Vec<String>,
    /// Games played at once.
    pub games: usize,
    /// How long to play.
    pub seconds: f64,
    /// Event streams held open.
    pub watchers: usize,
    /// The games to play, taken in turn.
    pub kinds: Vec<Kind>,
    /// Moves a second to aim for, spread evenly over the games; 0 plays
    /// each game as fast as the server answers.
    pub rate: f64,
    /// Watchers ask for delta events (`?delta=true`: the whole state once,
    /// then what each move changed) instead of a whole state a move.
    pub delta: bool,
}

/// Why the load test could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// A URL is not `http://HOST:PORT`, or none was given.
    #[error("{0:?} is not a server address like http://127.0.0.1:8080")]
    Url(String),
    /// The server could not be reached or refused to make games.
    #[error("the server: {0}")]
    Server(String),
    /// The runtime could not start.
    #[error("cannot start: {0}")]
    Runtime(String),
}

/// What the run measured.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Games played at once.
    pub concurrent: usize,
    /// The rate aimed for (0: as fast as the server answers).
    pub rate: f64,
    /// Games created.
    pub started: u64,
    /// Games played to the end.
    pub finished: u64,
    /// Moves accepted.
    pub accepted: u64,
    /// Seconds of play.
    pub seconds: f64,
    /// Move latencies in microseconds, sorted.
    pub latencies: Vec<u32>,
    /// Errors, by code (`transport` for a failed connection).
    pub errors: BTreeMap<String, u64>,
    /// Event streams held.
    pub watchers: usize,
    /// Events received.
    pub events: u64,
    /// Events whose ply went back.
    pub out_of_order: u64,
    /// Records checked.
    pub checked: u64,
    /// Games whose record does not hold exactly the moves seen accepted.
    pub mismatches: Vec<String>,
    /// What each server did, in the order given.
    pub servers: Vec<ServerTally>,
    /// Every game made, with the moves acknowledged for it.
    pub games: Vec<Played>,
}

/// What one server did in a run.
#[derive(Clone, Debug, Default)]
pub struct ServerTally {
    /// The server, as given.
    pub url: String,
    /// Requests sent to it.
    pub requests: u64,
    /// Requests that failed in transport there (sent again elsewhere).
    pub failed: u64,
    /// Moves it acknowledged.
    pub accepted: u64,
}

impl Report {
    /// The latency at quantile `q` (0..1) in milliseconds.
    #[must_use]
    pub fn quantile_ms(&self, q: f64) -> f64 {
        if self.latencies.is_empty() {
            return 0.0;
        }
        let i = ((self.latencies.len() - 1) as f64 * q).round() as usize;
        f64::from(self.latencies.get(i).copied().unwrap_or(0)) / 1000.0
    }

    /// Whether every record held exactly the moves seen accepted.
    #[must_use]
    pub fn is_sound(&self) -> bool {
        self.mismatches.is_empty()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "games           {} at once, {} started, {} played to the end",
            self.concurrent, self.started, self.finished
        )?;
        let aim = if self.rate > 0.0 {
            format!(" (aiming at {:.0})", self.rate)
        } else {
            " (as fast as answered)".to_owned()
        };
        writeln!(
            f,
            "moves accepted  {} in {:.1} s: {:.0} a second{aim}",
            self.accepted,
            self.seconds,
            self.accepted as f64 / self.seconds.max(1e-9)
        )?;
        writeln!(
            f,
            "move latency    p50 {:.2} ms  p95 {:.2} ms  p99 {:.2} ms  max {:.2} ms",
            self.quantile_ms(0.5),
            self.quantile_ms(0.95),
            self.quantile_ms(0.99),
            self.quantile_ms(1.0)
        )?;
        if self.errors.is_empty() {
            writeln!(f, "errors          none")?;
        } else {
            let list: Vec<String> = self
                .errors
                .iter()
                .map(|(c, n)| format!("{c} {n}"))
                .collect();
            writeln!(f, "errors          {}", list.join(", "))?;
        }
        writeln!(
            f,
            "watchers        {} held, {} events, {} out of order",
            self.watchers, self.events, self.out_of_order
        )?;
        if self.mismatches.is_empty() {
            writeln!(
                f,
                "check           {} records hold exactly the moves seen accepted",
                self.checked
            )?;
        } else {
            writeln!(
                f,
                "check           {} of {} records differ from the moves seen accepted:",
                self.mismatches.len(),
                self.checked
            )?;
            for m in &self.mismatches {
                writeln!(f, "  {m}")?;
            }
        }
        for s in &self.servers {
            writeln!(
                f,
                "server          {}: {} requests, {} failed in transport, {} moves accepted",
                s.url, s.requests, s.failed, s.accepted
            )?;
        }
        Ok(())
    }
}

type Http = Client<HttpConnector, Full<Bytes>>;

/// A reply: its status and body, or a transport failure.
async fn send(
    http: &Http,
    method: Method,
    uri: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> Result<(StatusCode, Bytes), String> {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(token) = token {
        req = req.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    if body.is_some() {
        req = req.header(header::CONTENT_TYPE, "application/json");
    }
    let req = req
        .body(Full::new(Bytes::from(body.unwrap_or_default())))
        .map_err(|e| e.to_string())?;
    let reply = async {
        let res = http.request(req).await.map_err(|e| e.to_string())?;
        let status = res.status();
        let body = res
            .into_body()
            .collect()
            .await
            .map_err(|e| e.to_string())?
            .to_bytes();
        Ok((status, body))
    };
    tokio::time::timeout(REQUEST_TIMEOUT, reply)
        .await
        .unwrap_or_else(|_| Err("timed out".into()))
}

#[derive(Deserialize)]
struct StateLite {
    ply: u32,
    side: Option<String>,
    legal: Vec<String>,
    status: String,
}

#[derive(Deserialize)]
struct SeatedLite {
    id: String,
    seat: String,
    token: String,
    #[serde(default)]
    invite: Option<String>,
    state: StateLite,
}

#[derive(Deserialize)]
struct ErrorLite {
    error: ErrorCode,
    #[serde(default)]
    state: Option<StateLite>,
}

#[derive(Deserialize)]
struct ErrorCode {
    code: String,
}

/// A small generator for picking moves (xorshift64*).
struct Pick(u64);

impl Pick {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (x % n.max(1) as u64) as usize
    }
}

/// What the drivers share.
struct Shared {
    http: Http,
    /// The servers, without a trailing `/`.
    bases: Vec<String>,
    /// Until when each server is passed over, after a transport failure.
    down: Mutex<Vec<Option<Instant>>>,
    deadline: Instant,
    kinds: Vec<Kind>,
    /// The time between two moves of one game, when paced.
    interval: Option<Duration>,
    tally: Mutex<Tally>,
    /// Games being played, for the watchers to pick from.
    live: Mutex<Vec<String>>,
    /// The query of a watcher's stream (`?delta=true` or nothing).
    events_query: &'static str,
}

#[derive(Default)]
struct Tally {
    started: u64,
    finished: u64,
    accepted: u64,
    latencies: Vec<u32>,
    errors: BTreeMap<String, u64>,
    games: Vec<Played>,
    events: u64,
    out_of_order: u64,
    servers: Vec<ServerTally>,
}

/// A game as the tool saw it: every move acknowledged, with its ply.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game's id.
    pub id: String,
    /// Its game.
    pub kind: Kind,
    /// Every move acknowledged, `(ply, move)`, in order.
    pub moves: Vec<(u32, String)>,
}

/// How long a server that failed in transport is passed over.
const PASS_OVER: Duration = Duration::from_secs(1);

impl Shared {
    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn error(&self, code: &str) {
        *self.tally().errors.entry(code.to_owned()).or_default() += 1;
    }

    /// The first server from `at` on that is not being passed over
    /// (`at` itself when all are).
    fn up_from(&self, at: usize) -> usize {
        let down = self.down.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        let k = self.bases.len();
        (0..k)
            .map(|i| (at + i) % k)
            .find(|&i| {
                down.get(i)
                    .copied()
                    .flatten()
                    .is_none_or(|until| until <= now)
            })
            .unwrap_or(at % k.max(1))
    }

    /// A request to server `at` (or the next one up), sent again, to the
    /// next server, while it fails in transport: the reply, and the server
    /// that gave it.
    async fn call(
        &self,
        at: usize,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<(StatusCode, Bytes, usize), String> {
        let mut at = self.up_from(at);
        let mut last = String::new();
        for attempt in 0..=RETRIES {
            if attempt > 0 {
                self.error("transport");
                tokio::time::sleep(Duration::from_millis(50 << attempt.min(4))).await;
                at = self.up_from(at + 1);
            }
            let uri = format!("{}{path}", self.bases.get(at).map_or("", String::as_str));
            if let Some(s) = self.tally().servers.get_mut(at) {
                s.requests += 1;
            }
            match send(&self.http, method.clone(), &uri, token, body.clone()).await {
                Ok((status, reply)) => return Ok((status, reply, at)),
                Err(e) => {
                    last = e;
                    if let Some(s) = self.tally().servers.get_mut(at) {
                        s.failed += 1;
                    }
                    let mut down = self.down.lock().unwrap_or_else(PoisonError::into_inner);
                    if let Some(until) = down.get_mut(at) {
                        *until = Some(Instant::now() + PASS_OVER);
                    }
                }
            }
        }
        self.error("transport");
        Err(last)
    }
}

fn code_of(body: &[u8]) -> String {
    serde_json::from_slice::<ErrorLite>(body).map_or_else(|_| "unreadable".into(), |e| e.error.code)
}

/// Plays game `slot` (created on server `slot mod k`, joined on the
/// next); an error when the servers could not be used.
async fn play_one(shared: &Shared, slot: usize, kind: Kind, pick: &mut Pick) -> Result<(), String> {
    let k = shared.bases.len().max(1);
    let (creator_at, joiner_at) = (slot % k, (slot + 1) % k);
    let body = format!(r#"{{"game":"{}","opponent":"friend"}}"#, kind.as_str()).into_bytes();
    let (status, reply, _) = shared
        .call(creator_at, Method::POST, "/api/games", None, Some(body))
        .await?;
    if status != StatusCode::CREATED {
        return Err(format!("create answered {status}: {}", code_of(&reply)));
    }
    let created: SeatedLite =
        serde_json::from_slice(&reply).map_err(|e| format!("create reply: {e}"))?;
    let invite = created
        .invite
        .as_deref()
        .and_then(|i| i.split_once("#join="))
        .map(|(_, t)| t.to_owned())
        .ok_or("the create reply has no invite")?;
    let id = created.id;
    let join =
        serde_json::to_vec(&serde_json::json!({ "invite": invite })).map_err(|e| e.to_string())?;
    let (status, reply, _) = shared
        .call(
            joiner_at,
            Method::POST,
            &format!("/api/games/{id}/join"),
            None,
            Some(join),
        )
        .await?;
    if status != StatusCode::OK {
        return Err(format!("join answered {status}: {}", code_of(&reply)));
    }
    let joined: SeatedLite =
        serde_json::from_slice(&reply).map_err(|e| format!("join reply: {e}"))?;
    // Each seat's token, and the server it was seated on.
    let mut tokens: BTreeMap<String, (String, usize)> = BTreeMap::new();
    tokens.insert(created.seat, (created.token, creator_at));
    tokens.insert(joined.seat, (joined.token, joiner_at));
    shared.tally().started += 1;
    shared
        .live
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(id.clone());

    let mut state = joined.state;
    let mut moves = Vec::new();
    let path = format!("/api/games/{id}/moves");
    let mut latencies = Vec::with_capacity(256);
    let mut failed = None;
    let mut next = Instant::now();
    while state.status == "playing" && Instant::now() < shared.deadline {
        if let Some(interval) = shared.interval {
            tokio::time::sleep_until(next.into()).await;
            next = (next + interval).max(Instant::now());
        }
        let (Some(side), false) = (state.side.as_deref(), state.legal.is_empty()) else {
            break;
        };
        let (token, at) = tokens.get(side).cloned().unwrap_or_default();
        let Some(mv) = state.legal.get(pick.below(state.legal.len())).cloned() else {
            break;
        };
        let ply = state.ply;
        let body = serde_json::to_vec(&serde_json::json!({ "ply": ply, "move": mv }))
            .map_err(|e| e.to_string())?;
        let start = Instant::now();
        let sent = shared
            .call(at, Method::POST, &path, Some(&token), Some(body))
            .await;
        let took = u32::try_from(start.elapsed().as_micros()).unwrap_or(u32::MAX);
        let (status, reply, by) = match sent {
            Ok(r) => r,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        latencies.push(took);
        if status == StatusCode::OK {
            moves.push((ply, mv));
            if let Some(s) = shared.tally().servers.get_mut(by) {
                s.accepted += 1;
            }
            match serde_json::from_slice::<StateLite>(&reply) {
                Ok(s) => state = s,
                Err(e) => {
                    failed = Some(format!("move reply: {e}"));
                    break;
                }
            }
        } else {
            let code = code_of(&reply);
            shared.error(&code);
            match serde_json::from_slice::<ErrorLite>(&reply)
                .ok()
                .and_then(|e| e.state)
            {
                Some(s) => state = s,
                None => {
                    failed = Some(format!("a move answered {status} {code}"));
                    break;
                }
            }
        }
    }
    let over = state.status == "over";
    let mut tally = shared.tally();
    tally.accepted += moves.len() as u64;
    tally.latencies.extend_from_slice(&latencies);
    if over {
        tally.finished += 1;
    }
    tally.games.push(Played {
        id: id.clone(),
        kind,
        moves,
    });
    drop(tally);
    shared
        .live
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|g| *g != id);
    failed.map_or(Ok(()), Err)
}

async fn driver(shared: Arc<Shared>, n: usize) -> Result<(), String> {
    let mut seed = [0u8; 8];
    getrandom::fill(&mut seed).map_err(|e| e.to_string())?;
    let mut pick = Pick(u64::from_le_bytes(seed) | 1);
    if let Some(interval) = shared.interval {
        // Spread the games' moves evenly over the interval.
        let phase = interval.mul_f64(pick.below(1000) as f64 / 1000.0);
        tokio::time::sleep(phase).await;
    }
    let mut k = n;
    while Instant::now() < shared.deadline {
        let kind = shared
            .kinds
            .get(k % shared.kinds.len().max(1))
            .copied()
            .unwrap_or(Kind::Ur);
        k += 1;
        play_one(&shared, k - 1, kind, &mut pick).await?;
    }
    Ok(())
}

/// The top-level ply of a state event (the first `"ply":` in it).
fn ply_of(event: &[u8]) -> Option<u64> {
    let at = event.windows(6).position(|w| w == b"\"ply\":")? + 6;
    let digits = event.get(at..)?.iter().take_while(|b| b.is_ascii_digit());
    let mut n = 0u64;
    let mut any = false;
    for d in digits {
        n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        any = true;
    }
    any.then_some(n)
}

/// One watcher: follows a game being played until its stream ends, then
/// another, until the time is up; it starts on server `n mod k` and moves
/// to the next one when its server cannot be reached.
async fn watcher(shared: Arc<Shared>, n: usize) {
    let mut at = n % shared.bases.len().max(1);
    while Instant::now() < shared.deadline {
        let id = {
            let live = shared.live.lock().unwrap_or_else(PoisonError::into_inner);
            live.get(n % live.len().max(1)).cloned()
        };
        let Some(id) = id else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        at = shared.up_from(at);
        let uri = format!(
            "{}/api/games/{id}/events{}",
            shared.bases.get(at).map_or("", String::as_str),
            shared.events_query
        );
        let Ok(req) = Request::get(uri).body(Full::new(Bytes::new())) else {
            return;
        };
        let left = shared.deadline.saturating_duration_since(Instant::now());
        let Ok(Ok(res)) = tokio::time::timeout(left, shared.http.request(req)).await else {
            shared.error("watch");
            at = (at + 1) % shared.bases.len().max(1);
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let mut body = res.into_body();
        let mut buffer: Vec<u8> = Vec::new();
        let mut scanned: usize = 0;
        let mut last_ply = None;
        let (mut events, mut out_of_order) = (0, 0);
        loop {
            let left = shared.deadline.saturating_duration_since(Instant::now());
            let Ok(Some(Ok(frame))) = tokio::time::timeout(left, body.frame()).await else {
                break;
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            buffer.extend_from_slice(&data);
            // Only the bytes not yet looked at (and the one before them)
            // can end an event.
            let (mut start, mut from) = (0, scanned.saturating_sub(1));
            while let Some(at) = buffer
                .get(from..)
                .and_then(|rest| rest.windows(2).position(|w| w == b"\n\n"))
            {
                let end = from + at + 2;
                let event = buffer.get(start..end).unwrap_or_default();
                if event.starts_with(b"event: state") || event.starts_with(b"event: delta") {
                    events += 1;
                    let ply = ply_of(event.get(..event.len().min(512)).unwrap_or_default());
                    if ply < last_ply {
                        out_of_order += 1;
                    }
                    last_ply = ply;
                }
                (start, from) = (end, end);
            }
            buffer.drain(..start);
            scanned = buffer.len();
        }
        let mut tally = shared.tally();
        tally.events += events;
        tally.out_of_order += out_of_order;
    }
}

/// How many times a record that lacks the last moves seen accepted is
/// fetched again, 100 ms apart, when several servers share the games: a
/// server catches up a game it holds on the notice of another's change,
/// which may come a moment after that change was acknowledged.
const CATCH_UP_TRIES: u32 = 50;

/// Whether a game's record holds exactly the moves seen accepted: what
/// differs, if anything.
async fn check(shared: &Shared, game: &Played) -> Option<String> {
    let path = format!("/api/games/{}/record", game.id);
    let mut tries = 0;
    loop {
        let moves = match shared.call(0, Method::GET, &path, None, None).await {
            Ok((StatusCode::OK, text, _)) => {
                record_moves(game.kind, &String::from_utf8_lossy(&text))
            }
            Ok((status, _, _)) => {
                return Some(format!("game {}: the record answered {status}", game.id));
            }
            Err(e) => {
                return Some(format!(
                    "game {}: the record could not be fetched: {e}",
                    game.id
                ));
            }
        };
        let Some(moves) = moves else {
            return Some(format!("game {}: the record does not read", game.id));
        };
        if moves == game.moves {
            return None;
        }
        let behind = moves.len() < game.moves.len() && game.moves.starts_with(&moves);
        if !(behind && shared.bases.len() > 1 && tries < CATCH_UP_TRIES) {
            return Some(format!(
                "game {}: the record holds {} moves, {} were seen accepted",
                game.id,
                moves.len(),
                game.moves.len()
            ));
        }
        tries += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Runs the load test (see the module documentation).
///
/// # Errors
///
/// [`LoadError`] when no URL is given or one is not a server address, a
/// server does not answer at the start, or none can be used at all (no
/// game can be made).
pub fn run(options: &Options) -> Result<Report, LoadError> {
    if options.urls.is_empty() {
        return Err(LoadError::Url(String::new()));
    }
    let mut bases = Vec::with_capacity(options.urls.len());
    for url in &options.urls {
        let base = url.trim_end_matches('/').to_owned();
        let uri: Uri = base.parse().map_err(|_| LoadError::Url(url.clone()))?;
        if uri.scheme_str() != Some("http") || uri.host().is_none() || uri.path() != "/" {
            return Err(LoadError::Url(url.clone()));
        }
        bases.push(base);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| LoadError::Runtime(e.to_string()))?;
    runtime.block_on(async {
        let http: Http = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(5))
            .build_http();
        for base in &bases {
            let (status, _) = send(&http, Method::GET, &format!("{base}/healthz"), None, None)
                .await
                .map_err(|e| LoadError::Server(format!("{base}: {e}")))?;
            if status != StatusCode::OK {
                return Err(LoadError::Server(format!(
                    "{base}/healthz answered {status}"
                )));
            }
        }
        let start = Instant::now();
        let tally = Tally {
            servers: options
                .urls
                .iter()
                .map(|url| ServerTally {
                    url: url.clone(),
                    ..ServerTally::default()
                })
                .collect(),
            ..Tally::default()
        };
        let shared = Arc::new(Shared {
            http,
            down: Mutex::new(vec![None; bases.len()]),
            bases,
            deadline: start + Duration::from_secs_f64(options.seconds),
            kinds: if options.kinds.is_empty() {
                vec![Kind::Ur]
            } else {
                options.kinds.clone()
            },
            interval: (options.rate > 0.0)
                .then(|| Duration::from_secs_f64(options.games as f64 / options.rate)),
            tally: Mutex::new(tally),
            events_query: if options.delta { "?delta=true" } else { "" },
            live: Mutex::new(Vec::new()),
        });
        let watchers: Vec<_> = (0..options.watchers)
            .map(|n| tokio::spawn(watcher(Arc::clone(&shared), n)))
            .collect();
        let drivers: Vec<_> = (0..options.games)
            .map(|n| tokio::spawn(driver(Arc::clone(&shared), n)))
            .collect();
        let mut failures = Vec::new();
        for d in drivers {
            match d.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failures.push(e),
                Err(e) => failures.push(e.to_string()),
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        for w in watchers {
            let _ = w.await;
        }
        let mut tally = std::mem::take(&mut *shared.tally());
        // The record checks below are counted per server too.
        shared.tally().servers = std::mem::take(&mut tally.servers);
        if tally.started == 0
            && let Some(first) = failures.first()
        {
            return Err(LoadError::Server(first.clone()));
        }
        for f in &failures {
            *tally
                .errors
                .entry(format!("driver stopped: {f}"))
                .or_default() += 1;
        }
        let mut report = Report {
            concurrent: options.games,
            rate: options.rate,
            started: tally.started,
            finished: tally.finished,
            accepted: tally.accepted,
            seconds,
            errors: tally.errors,
            watchers: options.watchers,
            events: tally.events,
            out_of_order: tally.out_of_order,
            ..Report::default()
        };
        tally.latencies.sort_unstable();
        report.latencies = tally.latencies;
        for game in &tally.games {
            report.checked += 1;
            report.mismatches.extend(check(&shared, game).await);
        }
        report.servers = std::mem::take(&mut shared.tally().servers);
        report.games = tally.games;
        Ok(report)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_ply_is_read_from_an_event() {
        let event = br#"event: state
data: {"id":"x","game":"ur","rules":"finkel","status":"playing","seats":{},"ply":12,"log":[{"ply":0}]}"#;
        assert_eq!(ply_of(event), Some(12));
        assert_eq!(ply_of(b"data: {}"), None);
    }

    #[test]
    fn quantiles_read_the_sorted_latencies() {
        let report = Report {
            latencies: (1..=100).map(|ms| ms * 1000).collect(),
            ..Report::default()
        };
        assert_eq!(report.quantile_ms(0.5), 51.0);
        assert_eq!(report.quantile_ms(0.99), 99.0);
        assert_eq!(report.quantile_ms(1.0), 100.0);
    }

    #[test]
    fn a_server_that_failed_is_passed_over_until_its_time_is_up() {
        let now = Instant::now();
        let shared = Shared {
            http: Client::builder(TokioExecutor::new()).build_http(),
            bases: vec![
                "http://a:1".into(),
                "http://b:1".into(),
                "http://c:1".into(),
            ],
            down: Mutex::new(vec![Some(now + PASS_OVER), None, Some(now)]),
            deadline: now,
            kinds: vec![Kind::Ur],
            interval: None,
            tally: Mutex::new(Tally::default()),
            live: Mutex::new(Vec::new()),
            events_query: "",
        };
        assert_eq!(shared.up_from(0), 1);
        assert_eq!(shared.up_from(1), 1);
        // c's time is up: it is used again.
        assert_eq!(shared.up_from(2), 2);
        assert_eq!(shared.up_from(3), 1, "counting round");
        *shared.down.lock().unwrap() = vec![Some(now + PASS_OVER); 3];
        assert_eq!(shared.up_from(2), 2, "all down: the one asked for");
    }

    #[test]
    fn only_http_server_addresses_are_taken() {
        for bad in ["ftp://x:1", "127.0.0.1:8080", "http://x:1/api", "nonsense"] {
            let options = Options {
                urls: vec!["http://127.0.0.1:1".into(), bad.into()],
                games: 1,
                seconds: 0.1,
                watchers: 0,
                kinds: vec![],
                rate: 0.0,
                delta: false,
            };
            assert!(matches!(run(&options), Err(LoadError::Url(_))), "{bad}");
        }
        let none = Options {
            urls: vec![],
            games: 1,
            seconds: 0.1,
            watchers: 0,
            kinds: vec![],
            rate: 0.0,
            delta: false,
        };
        assert!(matches!(run(&none), Err(LoadError::Url(_))));
    }
}
