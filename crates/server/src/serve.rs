//! Listening: the accept loop, connection limits and graceful shutdown.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::StatusCode;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt as _;

use crate::conn::{self, Conn, Control, HEAD_MAX};
use crate::edge::{App, Peer};
use crate::hub::{Hub, HubError, OPEN_EXPIRY, Options};
use crate::limit::{CreateLimit, Gate, Over};
use crate::metrics::Metrics;
use crate::postgres::{Database, Postgres};
use crate::routes;
use crate::sqlite::{OpenError, Sqlite};
use crate::stall::WriteTimeout;
use crate::store::{Store, StoreError};
use crate::throttle::Throttle;
use race_games::{TableSolve, TableSolveError, Tables, TablesError};

/// How long a client may take to send a request's head; an idle
/// connection is closed after as long.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long requests in flight may take to finish once the server stops.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);
/// Connections over a cap answered at once (outside hyper, with a 503 or
/// `/healthz`'s `ok`); past that many they are closed unanswered.
const OVERFLOW: usize = 64;
/// How long a connection over a cap has to send its request line.
const OVERFLOW_READ: Duration = Duration::from_secs(2);
/// Open files kept for everything but connections (the database, tables,
/// the connections over a cap being answered).
const FILES_KEPT: u64 = 64 + OVERFLOW as u64;
/// The accept loop's error line is written at most once this often.
const ACCEPT_LOG_EVERY: Duration = Duration::from_secs(10);

/// Connections one address may hold open at once, by default.
pub const CONNECTIONS_PER_ADDRESS: usize = 256;
/// Connections the server holds open at once, by default (and never more
/// than its open-file limit allows).
pub const CONNECTIONS: usize = 4096;
/// Event streams one address may hold open at once, by default.
pub const STREAMS_PER_ADDRESS: usize = 64;
/// Event streams the server holds open at once, by default.
pub const STREAMS: usize = 2048;
/// How long a write may wait for the client to read, by default.
pub const STALL: Duration = Duration::from_secs(30);
/// How long a friend game waits for the friend, by default: a day.
pub const WAITING_EXPIRY: Duration = Duration::from_secs(24 * 3600);
/// How long a request with a seat's token keeps the seat `connected`, by
/// default.
pub const PRESENCE_WINDOW: Duration = crate::presence::WINDOW;

/// What `race serve` is given.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (port 0 picks a free one).
    pub addr: SocketAddr,
    /// The folder of the database.
    pub data: PathBuf,
    /// Solved Royal Game of Ur tables, one per rule set, beside those of
    /// the data folder's `tables/` (every file there is opened).
    pub tables: Vec<PathBuf>,
    /// Rule sets whose tables are solved in the background, once the
    /// server is up, when no table of theirs is held; each is written to
    /// the data folder's `tables/` and offered as soon as it is done.
    pub solve: Vec<String>,
    /// The pause before each bot move.
    pub bot_pace: Duration,
    /// Games one address may create a minute; 0 for no limit.
    pub create_limit: u32,
    /// Connections one address may hold open at once; 0 for no cap.
    pub connections_per_address: usize,
    /// Connections held open at once in all; 0 for no cap but the
    /// open-file limit's.
    pub connections: usize,
    /// Event streams one address may hold open at once; 0 for no cap.
    pub streams_per_address: usize,
    /// Event streams held open at once in all; 0 for no cap.
    pub streams: usize,
    /// How long a write may wait for the client to read before the
    /// connection is cut; an event stream with nothing to send sends a
    /// comment every sixth of it.
    pub stall: Duration,
    /// How long a friend game waits for the friend before it is deleted;
    /// zero: for ever.
    pub waiting_expiry: Duration,
    /// How long a request sent with a seat's token keeps the seat
    /// `connected` in the state.
    pub presence_window: Duration,
    /// Whether games open to anyone may be created and are listed.
    pub open_games: bool,
    /// How long a game open to anyone waits before it is deleted.
    pub open_expiry: Duration,
    /// Serve a data folder or database that its group or others can read
    /// (else the start is refused; the folder and files the server makes
    /// are its owner's alone either way).
    pub allow_shared_data: bool,
    /// A PostgreSQL database to keep the games in instead of the SQLite
    /// one in `data`, which several servers may share.
    pub database: Option<Database>,
}

impl Config {
    /// The defaults of `race serve` for listening on `addr` with the
    /// database in `data`.
    #[must_use]
    pub fn new(addr: SocketAddr, data: PathBuf) -> Config {
        Config {
            addr,
            data,
            tables: Vec::new(),
            solve: Vec::new(),
            bot_pace: Duration::from_millis(600),
            create_limit: 60,
            connections_per_address: CONNECTIONS_PER_ADDRESS,
            connections: CONNECTIONS,
            streams_per_address: STREAMS_PER_ADDRESS,
            streams: STREAMS,
            stall: STALL,
            waiting_expiry: WAITING_EXPIRY,
            presence_window: PRESENCE_WINDOW,
            open_games: true,
            open_expiry: OPEN_EXPIRY,
            allow_shared_data: false,
            database: None,
        }
    }
}

/// A table file the server could not take.
#[derive(Debug, thiserror::Error)]
#[error("table {path}: {why}")]
pub struct TableError {
    /// The file.
    pub path: String,
    /// What was wrong.
    pub why: String,
}

/// Opens every table of the data folder's `tables/` (first removing, where
/// it can, the temporary files killed writes left there) and every file of `paths`
/// (one that is also in the folder once), saying which one could not be
/// taken. A data path that is no folder holds no tables: opening the
/// store then says what is wrong with it.
fn open_tables(data: &std::path::Path, paths: &[PathBuf]) -> Result<Tables, TableError> {
    let folder = if data.is_dir() {
        match race_games::remove_stale_temps(data) {
            Ok(stale) => {
                for path in stale {
                    tracing::info!(
                        "removed {}, left by a write that was killed",
                        path.display()
                    );
                }
            }
            // Passed over either way (hidden files are no tables).
            Err(e) => tracing::warn!("the files killed writes left are kept: {e}"),
        }
        race_games::table_files(data).map_err(|e| TableError {
            path: race_games::tables_folder(data).display().to_string(),
            why: format!("the folder cannot be read: {e}"),
        })?
    } else {
        Vec::new()
    };
    let found: Vec<PathBuf> = folder
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let given = paths
        .iter()
        .filter(|p| p.canonicalize().map_or(true, |p| !found.contains(&p)));
    let mut tables = Tables::default();
    for path in folder.iter().chain(given) {
        tables.add(path).map_err(|e| TableError {
            path: path.display().to_string(),
            why: match e {
                TablesError::Twice { rules, .. } => format!("a second table for {rules}"),
                other => other.to_string(),
            },
        })?;
    }
    for rules in tables.rules_of::<race_games::royal_ur::Ur>() {
        tracing::info!("table of {rules}: the bot level perfect and the review graph are offered");
    }
    Ok(tables)
}

/// The tables of `rules` to solve in the background: those not held yet,
/// each once; a rule set the solver refuses is an error naming it.
fn missing_tables(rules: &[String], tables: &Tables) -> Result<Vec<TableSolve>, ServeError> {
    let mut missing: Vec<TableSolve> = Vec::new();
    for text in rules {
        let solve = TableSolve::new(text).map_err(|error| ServeError::Solve {
            rules: text.clone(),
            error,
        })?;
        if solve.is_in(tables) {
            tracing::info!("--solve {text}: its table is held already");
        } else if missing.iter().all(|m| m.rules() != solve.rules()) {
            missing.push(solve);
        }
    }
    Ok(missing)
}

/// Solves the tables one after another on a thread of the lowest
/// priority, so that play is not slowed, and adds each to the hub as
/// soon as it is written; the log and `/metrics` follow each solve.
fn solve_in_background(hub: Arc<Hub>, data: PathBuf, solves: Vec<TableSolve>) {
    let spawned = std::thread::Builder::new()
        .name("race-solve".to_owned())
        .spawn(move || {
            lower_priority();
            let metrics = Arc::clone(hub.metrics());
            for solve in &solves {
                metrics.solving(&solve.rules(), "queued", 0, 0);
            }
            for solve in &solves {
                solve_one(&hub, &data, solve);
            }
        });
    if let Err(e) = spawned {
        tracing::error!("the tables cannot be solved: no thread for them: {e}");
    }
}

/// Solves one table, writes it and adds it to the hub, saying so in the
/// log: a line when a phase starts and at every tenth of the states.
fn solve_one(hub: &Hub, data: &std::path::Path, solve: &TableSolve) {
    let rules = solve.rules();
    let metrics = hub.metrics();
    let started = Instant::now();
    tracing::info!("solving the table of {rules} in the background");
    let mut said = ("", 0);
    let mut states = 0;
    let solved = solve.run(data, |p| {
        metrics.solving(&rules, p.phase, p.states_done, p.states);
        states = p.states;
        let tenth = p.states_done.saturating_mul(10) / p.states.max(1);
        if (p.phase, tenth) != said {
            said = (p.phase, tenth);
            tracing::info!(
                "solving {rules}: {}, {} of {} states settled, {:.0} s",
                p.phase,
                p.states_done,
                p.states,
                started.elapsed().as_secs_f64()
            );
        }
    });
    let added = solved.map_err(|e| e.to_string()).and_then(|path| {
        hub.add_table(&path)
            .map(|()| path)
            .map_err(|e| e.to_string())
    });
    match added {
        Ok(path) => {
            metrics.solving(&rules, "done", states, states);
            tracing::info!(
                "table of {rules} solved in {:.1} s and written to {}: the bot level perfect and the review graph are offered",
                started.elapsed().as_secs_f64(),
                path.display()
            );
        }
        Err(e) => {
            metrics.solving(&rules, "failed", 0, 0);
            tracing::error!("the table of {rules} could not be solved: {e}");
        }
    }
}

/// Puts the calling thread (and the threads it starts, which inherit it)
/// at the lowest priority, nice 19.
fn lower_priority() {
    let thread = rustix::thread::gettid();
    if let Err(e) = rustix::process::setpriority_process(Some(thread), 19) {
        tracing::warn!("the solving thread keeps its priority: {e}");
    }
}

/// Why the server could not start or stop cleanly.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// A table file could not be opened.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A rule set to solve is none, or one the solver refuses.
    #[error("--solve {rules}: {error}")]
    Solve {
        /// The rules as given.
        rules: String,
        /// Why.
        error: TableSolveError,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The store could not be opened: a data folder others can read, a
    /// database another server holds, or a store error.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// The stored games could not be loaded.
    #[error(transparent)]
    Hub(#[from] HubError),
    /// The runtime could not start.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {why}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// The system's reason.
        why: std::io::Error,
    },
}

/// A server that has opened its store, loaded its games and bound its
/// address, ready to [`Server::run`].
pub struct Server {
    listener: TcpListener,
    app: App,
    addr: SocketAddr,
    connections: Arc<Gate>,
    stall: Duration,
    unfinished: u64,
    data: PathBuf,
    solves: Vec<TableSolve>,
}

impl Server {
    /// Opens the store (the PostgreSQL `config.database`, else the
    /// SQLite one in `config.data`), checks that every unfinished
    /// game's bot can play, and binds `config.addr`. The games are loaded
    /// when first asked for.
    ///
    /// # Errors
    ///
    /// [`ServeError`] naming the table, the store, the game or the address
    /// that failed.
    pub async fn bind(config: &Config) -> Result<Server, ServeError> {
        let tables = open_tables(&config.data, &config.tables)?;
        let solves = missing_tables(&config.solve, &tables)?;
        let data = config.data.clone();
        let allow_shared = config.allow_shared_data;
        let database = config.database.clone();
        let store = tokio::task::spawn_blocking(move || -> Result<Arc<dyn Store>, ServeError> {
            Ok(match database {
                Some(db) => Arc::new(Postgres::open(&db)?),
                None => Arc::new(Sqlite::open_with(&data, allow_shared)?),
            })
        })
        .await
        .map_err(|e| StoreError(e.to_string()))??;
        let options = Options {
            pace: config.bot_pace,
            expiry: (!config.waiting_expiry.is_zero()).then_some(config.waiting_expiry),
            presence: config.presence_window,
            open_games: config.open_games,
            open_expiry: config.open_expiry,
        };
        let loader = Arc::clone(&store);
        let (hub, unfinished) = tokio::task::spawn_blocking(move || {
            let counts = loader.counts()?;
            let metrics = Arc::new(Metrics::new(counts));
            let hub = Hub::start(loader, tables, metrics, options)?;
            Ok::<_, ServeError>((hub, counts[0] + counts[1]))
        })
        .await
        .map_err(|e| StoreError(e.to_string()))??;
        hub.sweep_in_background();
        hub.follow_store_in_background();
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(|why| ServeError::Listen {
                addr: config.addr,
                why,
            })?;
        let addr = listener.local_addr().map_err(|why| ServeError::Listen {
            addr: config.addr,
            why,
        })?;
        let files = raise_file_limit();
        let room = usize::try_from(files.saturating_sub(FILES_KEPT)).unwrap_or(usize::MAX);
        let connections = match config.connections {
            0 => room,
            n => n.min(room),
        };
        tracing::info!(
            "open files: up to {files}; connections: up to {connections} ({} an address), event streams: up to {} ({} an address)",
            cap_text(config.connections_per_address),
            cap_text(config.streams),
            cap_text(config.streams_per_address),
        );
        Ok(Server {
            listener,
            app: App {
                hub,
                limit: Arc::new(CreateLimit::new(config.create_limit)),
                streams: Arc::new(Gate::new(config.streams_per_address, config.streams)),
                keep_alive: (config.stall / 6).max(Duration::from_millis(10)),
            },
            addr,
            connections: Arc::new(Gate::new(config.connections_per_address, connections)),
            stall: config.stall,
            unfinished,
            data: config.data.clone(),
            solves,
        })
    }

    /// The address listened on (with the real port).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many games in the store are not over (each is loaded when
    /// first asked for).
    #[must_use]
    pub fn unfinished(&self) -> u64 {
        self.unfinished
    }

    /// Serves until `shutdown` resolves; then stops accepting, ends the
    /// event streams and the bots, lets requests in flight finish (up to
    /// 10 s), and closes the store. The tables to solve are solved
    /// meanwhile (a solve not done when the server stops is dropped).
    ///
    /// # Errors
    ///
    /// [`ServeError::Store`] when the store's last writes or its close
    /// fail.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        let Server {
            listener,
            app,
            connections,
            stall,
            data,
            solves,
            ..
        } = self;
        if !solves.is_empty() {
            solve_in_background(Arc::clone(&app.hub), data, solves);
        }
        let router = routes::router(app.clone());
        let graceful = GracefulShutdown::new();
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(HEAD_TIMEOUT)
            .max_buf_size(HEAD_MAX)
            .keep_alive(true);
        let overflow = Arc::new(Semaphore::new(OVERFLOW));
        let accept_log = Throttle::new(ACCEPT_LOG_EVERY);
        let metrics = Arc::clone(app.hub.metrics());
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        // Out of file descriptors, or a connection reset
                        // before it was taken: wait a little and go on.
                        if let Some(left_out) = accept_log.allow(Instant::now()) {
                            tracing::warn!("accept: {e} ({left_out} more since the last line)");
                        }
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let ticket = match connections.admit(peer.ip()) {
                Ok(ticket) => ticket,
                Err(over) => {
                    metrics.busy(match over {
                        Over::Address(_) => "connections_per_address",
                        Over::Total(_) => "connections",
                    });
                    if let Ok(permit) = Arc::clone(&overflow).try_acquire_owned() {
                        tokio::spawn(async move {
                            answer_over_cap(stream, over).await;
                            drop(permit);
                        });
                    }
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            let control = Arc::new(Control::default());
            let router = router.clone();
            let reach = Arc::clone(&control);
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(Peer(peer));
                req.extensions_mut().insert(Arc::clone(&reach));
                router.clone().oneshot(req.map(Body::new))
            });
            let io = TokioIo::new(WriteTimeout::new(Conn::new(stream, control), stall));
            let conn = graceful.watch(builder.serve_connection(io, service));
            let metrics = Arc::clone(&metrics);
            metrics.connections(1);
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    tracing::debug!("connection from {peer}: {e}");
                }
                metrics.connections(-1);
                drop(ticket);
            });
        }
        drop(listener);
        tracing::info!("stopping: finishing the requests in flight");
        app.hub.stop();
        if tokio::time::timeout(DRAIN_TIMEOUT, graceful.shutdown())
            .await
            .is_err()
        {
            tracing::warn!("some connections were still open after {DRAIN_TIMEOUT:?}");
        }
        let store = Arc::clone(app.hub.store());
        tokio::task::spawn_blocking(move || store.close())
            .await
            .map_err(|e| StoreError(e.to_string()))?
            .map_err(|e| {
                StoreError(format!(
                    "stopped, but the database could not be closed cleanly \
                     (every move acknowledged was stored before its reply): {}",
                    e.0
                ))
            })?;
        tracing::info!("stopped; the database is closed");
        Ok(())
    }
}

/// Answers a connection over a cap without hyper: `ok` to `GET /healthz`,
/// a 503 `busy` to anything else; then closes it.
async fn answer_over_cap(mut stream: TcpStream, over: Over) {
    let mut head = Vec::with_capacity(512);
    let mut buf = [0u8; 512];
    let _ = tokio::time::timeout(OVERFLOW_READ, async {
        while head.len() < 4096 && !head.windows(4).any(|w| w == b"\r\n\r\n") {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => head.extend_from_slice(buf.get(..n).unwrap_or_default()),
            }
        }
    })
    .await;
    let reply = if head.starts_with(b"GET /healthz ") {
        conn::reply(StatusCode::OK, "text/plain; charset=utf-8", b"ok")
    } else {
        let error = routes::busy("connections", over);
        conn::reply(error.status, "application/json", &error.body())
    };
    let _ = tokio::time::timeout(OVERFLOW_READ, async {
        let _ = stream.write_all(&reply).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Raises the soft limit on open files to the hard one; returns the
/// limit then in force.
fn raise_file_limit() -> u64 {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if let Some(hard) = limit.maximum
        && limit.current.is_some_and(|soft| soft < hard)
        && setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(hard),
                maximum: Some(hard),
            },
        )
        .is_ok()
    {
        return hard;
    }
    limit.current.unwrap_or(u64::MAX)
}

fn cap_text(n: usize) -> String {
    if n == 0 {
        "no cap".to_owned()
    } else {
        n.to_string()
    }
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

/// Sends the log to standard error: one line a request, and what the
/// server does. `RACE_LOG` filters it (`warn`, `race::http=off`, ...).
pub fn log_to_stderr() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("RACE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
}

/// Runs a server on a runtime of its own until SIGINT or SIGTERM:
/// [`Server::bind`], then `ready` (given the address and the number of
/// unfinished games in the store), then [`Server::run`].
///
/// # Errors
///
/// As [`Server::bind`] and [`Server::run`], and [`ServeError::Runtime`]
/// when the runtime cannot start.
pub fn serve_until_signal(
    config: &Config,
    ready: impl FnOnce(SocketAddr, u64),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("race-serve")
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        ready(server.local_addr(), server.unfinished());
        server.run(shutdown_signal()).await
    })
}
