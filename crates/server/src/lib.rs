#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod conn;
mod edge;

mod error;
mod feed;
mod hub;
mod limit;
pub mod loadtest;
mod metrics;
mod page;
mod postgres;
mod presence;
mod refusal;
mod review;
mod routes;
pub mod secret;
mod serve;
mod sqlite;
mod stall;
pub mod store;
mod throttle;
pub mod wire;

pub use edge::{App, Peer};
pub use error::ApiError;
pub use hub::{Hub, HubError, OPEN_EXPIRY, OPEN_LISTED, Options, Plan, Seated, Slot};
pub use limit::CreateLimit;
pub use metrics::Metrics;
pub use postgres::{Database, Postgres};
pub use refusal::{Fault, INTERNAL_MESSAGE, Refusal};
pub use routes::{CSP, router};
pub use serve::{
    CONNECTIONS, CONNECTIONS_PER_ADDRESS, Config, PRESENCE_WINDOW, STALL, STREAMS,
    STREAMS_PER_ADDRESS, ServeError, Server, TableError, WAITING_EXPIRY, log_to_stderr,
    serve_until_signal, shutdown_signal,
};
pub use sqlite::{DB_FILE, DIR_MODE, FILE_MODE, OpenError, Sqlite};
pub use store::{Notice, Store};
