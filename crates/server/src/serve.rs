//! Listening: the accept loop, connection limits and graceful shutdown.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tower::ServiceExt as _;

use crate::engine::Tables;
use crate::hub::{Hub, HubError};
use crate::limit::CreateLimit;
use crate::metrics::Metrics;
use crate::routes::{self, App, Peer};
use crate::sqlite::Sqlite;
use crate::stall::WriteTimeout;
use crate::store::{Store, StoreError};

/// How long a client may take to send a request's head; an idle
/// connection is closed after as long.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a reply may wait for the client to read before the
/// connection is cut.
const WRITE_STALL: Duration = Duration::from_secs(30);
/// How long requests in flight may take to finish once the server stops.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(10);

/// What `race serve` is given.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen (port 0 picks a free one).
    pub addr: SocketAddr,
    /// The folder of the database.
    pub data: PathBuf,
    /// Solved Royal Game of Ur tables, one per rule set.
    pub tables: Vec<PathBuf>,
    /// The pause before each bot move.
    pub bot_pace: Duration,
    /// Games one address may create a minute; 0 for no limit.
    pub create_limit: u32,
}

/// Why the server could not start or stop cleanly.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// A table file could not be opened.
    #[error(transparent)]
    Table(#[from] crate::engine::TableError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
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
}

impl Server {
    /// Opens the store in `config.data`, loads every unfinished game
    /// (replayed and checked) and binds `config.addr`.
    ///
    /// # Errors
    ///
    /// [`ServeError`] naming the table, the store, the game or the address
    /// that failed.
    pub async fn bind(config: &Config) -> Result<Server, ServeError> {
        let tables = Tables::open(&config.tables)?;
        let data = config.data.clone();
        let store: Arc<dyn Store> = Arc::new(
            tokio::task::spawn_blocking(move || Sqlite::open(&data))
                .await
                .map_err(|e| StoreError(e.to_string()))??,
        );
        let pace = config.bot_pace;
        let loader = Arc::clone(&store);
        let hub = tokio::task::spawn_blocking(move || {
            let metrics = Arc::new(Metrics::new(loader.counts()?));
            Hub::start(loader, tables, pace, metrics)
        })
        .await
        .map_err(|e| StoreError(e.to_string()))??;
        hub.wake_bots();
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
        Ok(Server {
            listener,
            app: App {
                hub,
                limit: Arc::new(CreateLimit::new(config.create_limit)),
            },
            addr,
        })
    }

    /// The address listened on (with the real port).
    #[must_use]
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// How many games were loaded and are in memory.
    #[must_use]
    pub fn games(&self) -> usize {
        self.app.hub.len()
    }

    /// Serves until `shutdown` resolves; then stops accepting, ends the
    /// event streams and the bots, lets requests in flight finish (up to
    /// 10 s), and closes the store.
    ///
    /// # Errors
    ///
    /// [`ServeError::Store`] when the store's last writes or its close
    /// fail.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> Result<(), ServeError> {
        let Server { listener, app, .. } = self;
        let router = routes::router(app.clone());
        let graceful = GracefulShutdown::new();
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(HEAD_TIMEOUT)
            .keep_alive(true);
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(pair) => pair,
                    Err(e) => {
                        // Out of file descriptors, or a connection reset
                        // before it was taken: wait a little and go on.
                        tracing::warn!("accept: {e}");
                        tokio::time::sleep(Duration::from_millis(20)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let router = router.clone();
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                req.extensions_mut().insert(Peer(peer));
                router.clone().oneshot(req.map(Body::new))
            });
            let io = TokioIo::new(WriteTimeout::new(stream, WRITE_STALL));
            let conn = graceful.watch(builder.serve_connection(io, service));
            tokio::spawn(async move {
                if let Err(e) = conn.await {
                    tracing::debug!("connection from {peer}: {e}");
                }
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
            .map_err(|e| StoreError(e.to_string()))??;
        tracing::info!("stopped; the database is closed");
        Ok(())
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
/// games loaded), then [`Server::run`].
///
/// # Errors
///
/// As [`Server::bind`] and [`Server::run`], and [`ServeError::Runtime`]
/// when the runtime cannot start.
pub fn serve_until_signal(
    config: &Config,
    ready: impl FnOnce(SocketAddr, usize),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("race-serve")
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async {
        let server = Server::bind(config).await?;
        ready(server.local_addr(), server.games());
        server.run(shutdown_signal()).await
    })
}
