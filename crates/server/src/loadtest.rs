//! `race loadtest`: friend games played against a running server as fast
//! as it answers, event watchers held open, and at the end a check that
//! every game's record holds exactly the moves seen accepted.
//!
//! Each game is driven by one task that holds both seats: it creates a
//! friend game, joins it with the invite, then plays a random legal move
//! for the side to move, with its ply, until the game ends or the time is
//! up, and starts another. A move whose reply is lost (the connection
//! failed) is sent again, the same `{ply, move}`: the server plays it once.

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
    /// The server, `http://HOST:PORT`.
    pub url: String,
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
    /// The URL is not `http://HOST:PORT`.
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
            )
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
            Ok(())
        }
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
    base: String,
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
}

/// A game as the tool saw it: every move accepted, with its ply.
struct Played {
    id: String,
    kind: Kind,
    moves: Vec<(u32, String)>,
}

impl Shared {
    fn tally(&self) -> std::sync::MutexGuard<'_, Tally> {
        self.tally.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn error(&self, code: &str) {
        *self.tally().errors.entry(code.to_owned()).or_default() += 1;
    }

    /// A request, sent again while it fails in transport.
    async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
    ) -> Result<(StatusCode, Bytes), String> {
        let uri = format!("{}{path}", self.base);
        let mut last = String::new();
        for attempt in 0..=RETRIES {
            if attempt > 0 {
                self.error("transport");
                tokio::time::sleep(Duration::from_millis(50 << attempt.min(4))).await;
            }
            match send(&self.http, method.clone(), &uri, token, body.clone()).await {
                Ok(reply) => return Ok(reply),
                Err(e) => last = e,
            }
        }
        self.error("transport");
        Err(last)
    }
}

fn code_of(body: &[u8]) -> String {
    serde_json::from_slice::<ErrorLite>(body).map_or_else(|_| "unreadable".into(), |e| e.error.code)
}

/// Plays one game; returns false when the server could not be used.
async fn play_one(shared: &Shared, kind: Kind, pick: &mut Pick) -> Result<(), String> {
    let body = format!(r#"{{"game":"{}","opponent":"friend"}}"#, kind.as_str()).into_bytes();
    let (status, reply) = shared
        .call(Method::POST, "/api/games", None, Some(body))
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
    let (status, reply) = shared
        .call(
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
    let mut tokens: BTreeMap<String, String> = BTreeMap::new();
    tokens.insert(created.seat, created.token);
    tokens.insert(joined.seat, joined.token);
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
        let token = tokens.get(side).cloned().unwrap_or_default();
        let Some(mv) = state.legal.get(pick.below(state.legal.len())).cloned() else {
            break;
        };
        let ply = state.ply;
        let body = serde_json::to_vec(&serde_json::json!({ "ply": ply, "move": mv }))
            .map_err(|e| e.to_string())?;
        let start = Instant::now();
        let sent = shared
            .call(Method::POST, &path, Some(&token), Some(body))
            .await;
        let took = u32::try_from(start.elapsed().as_micros()).unwrap_or(u32::MAX);
        let (status, reply) = match sent {
            Ok(r) => r,
            Err(e) => {
                failed = Some(e);
                break;
            }
        };
        latencies.push(took);
        if status == StatusCode::OK {
            moves.push((ply, mv));
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
        play_one(&shared, kind, &mut pick).await?;
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
/// another, until the time is up.
async fn watcher(shared: Arc<Shared>, n: usize) {
    while Instant::now() < shared.deadline {
        let id = {
            let live = shared.live.lock().unwrap_or_else(PoisonError::into_inner);
            live.get(n % live.len().max(1)).cloned()
        };
        let Some(id) = id else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let uri = format!(
            "{}/api/games/{id}/events{}",
            shared.base, shared.events_query
        );
        let Ok(req) = Request::get(uri).body(Full::new(Bytes::new())) else {
            return;
        };
        let left = shared.deadline.saturating_duration_since(Instant::now());
        let Ok(Ok(res)) = tokio::time::timeout(left, shared.http.request(req)).await else {
            shared.error("watch");
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

/// Runs the load test (see the module documentation).
///
/// # Errors
///
/// [`LoadError`] when the URL is not a server address, or the server
/// cannot be used at all (no game can be made).
pub fn run(options: &Options) -> Result<Report, LoadError> {
    let base = options.url.trim_end_matches('/').to_owned();
    let uri: Uri = base
        .parse()
        .map_err(|_| LoadError::Url(options.url.clone()))?;
    if uri.scheme_str() != Some("http") || uri.host().is_none() || uri.path() != "/" {
        return Err(LoadError::Url(options.url.clone()));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| LoadError::Runtime(e.to_string()))?;
    runtime.block_on(async {
        let http: Http = Client::builder(TokioExecutor::new())
            .pool_idle_timeout(Duration::from_secs(5))
            .build_http();
        let (status, _) = send(&http, Method::GET, &format!("{base}/healthz"), None, None)
            .await
            .map_err(LoadError::Server)?;
        if status != StatusCode::OK {
            return Err(LoadError::Server(format!("/healthz answered {status}")));
        }
        let start = Instant::now();
        let shared = Arc::new(Shared {
            http,
            base,
            deadline: start + Duration::from_secs_f64(options.seconds),
            kinds: if options.kinds.is_empty() {
                vec![Kind::Ur]
            } else {
                options.kinds.clone()
            },
            interval: (options.rate > 0.0)
                .then(|| Duration::from_secs_f64(options.games as f64 / options.rate)),
            tally: Mutex::new(Tally::default()),
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
            let path = format!("/api/games/{}/record", game.id);
            let mismatch = match shared.call(Method::GET, &path, None, None).await {
                Ok((StatusCode::OK, text)) => {
                    let text = String::from_utf8_lossy(&text);
                    match record_moves(game.kind, &text) {
                        Some(moves) if moves == game.moves => None,
                        Some(moves) => Some(format!(
                            "game {}: the record holds {} moves, {} were seen accepted",
                            game.id,
                            moves.len(),
                            game.moves.len()
                        )),
                        None => Some(format!("game {}: the record does not read", game.id)),
                    }
                }
                Ok((status, _)) => Some(format!("game {}: the record answered {status}", game.id)),
                Err(e) => Some(format!(
                    "game {}: the record could not be fetched: {e}",
                    game.id
                )),
            };
            report.mismatches.extend(mismatch);
        }
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
    fn only_http_server_addresses_are_taken() {
        for bad in ["ftp://x:1", "127.0.0.1:8080", "http://x:1/api", "nonsense"] {
            let options = Options {
                url: bad.into(),
                games: 1,
                seconds: 0.1,
                watchers: 0,
                kinds: vec![],
                rate: 0.0,
                delta: false,
            };
            assert!(matches!(run(&options), Err(LoadError::Url(_))), "{bad}");
        }
    }
}
