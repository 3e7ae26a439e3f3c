//! The PostgreSQL store: the games in a database that several servers may
//! share, reached over plain TCP (no TLS: a database on the same machine or
//! a private network).
//!
//! The store runs its own small runtime on one thread, so that its calls
//! can be made from anywhere (the hub's blocking tasks, a test's body).
//! One writer connection commits many changes in one transaction (group
//! commit), each change in its own savepoint so that one failing change
//! fails alone, and acknowledges each only after the `COMMIT` returned:
//! with PostgreSQL's default `synchronous_commit = on`, that is once the
//! commit record is flushed to the write-ahead log. A change whose commit
//! failed or whose answer was lost is refused, never acknowledged.
//!
//! A connection that breaks (the database restarted or unreachable) is
//! opened again at the next call; calls made meanwhile fail with a
//! [`StoreError`] that says the database is unreachable.
//!
//! Several servers may share the database: each change is stored only at
//! the game's version the server judged it against (see
//! [`Store::write_at`]), and notified on the `race_games` channel with
//! the game's id and new version; a connection of its own listens for
//! those notices.
//!
//! The schema is versioned (the `race_schema` table counts the migrations
//! applied) and migrated at open inside one transaction under an advisory
//! lock, so that two servers starting at once migrate it once.

use std::str::FromStr as _;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use dice_core::Side;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{Client, NoTls, Statement};

use crate::store::{
    BATCH_MAX, Change, Counts, GameRow, Job, Notice, OpenGame, Pending, Queued, Status, Store,
    StoreError, StoredGame, StoredMove, Summary, Unfinished, bots_of, gather, holder_text,
    rematch_text, rules_of, stored_u32,
};
use crate::throttle::Throttle;

/// How long opening a connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The advisory lock key held while the schema is migrated (`race` in
/// ASCII).
const MIGRATION_LOCK: i64 = 0x7261_6365;

/// The schema, one migration a version; the `race_schema` table holds how
/// many are applied. Append only: a released migration never changes.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        seed BYTEA NOT NULL,
        light TEXT NOT NULL,
        light_hash BYTEA,
        dark TEXT NOT NULL,
        dark_hash BYTEA,
        status TEXT NOT NULL,
        resigned TEXT,
        ply BIGINT NOT NULL,
        position TEXT NOT NULL,
        key TEXT NOT NULL,
        join_check BYTEA,
        join_seal BYTEA,
        created BIGINT NOT NULL,
        updated BIGINT NOT NULL
    );
    CREATE INDEX games_unfinished ON games (status) WHERE status <> 'over';
    CREATE TABLE moves (
        game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n BIGINT NOT NULL,
        ply BIGINT NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (game, n)
    );",
    // 2: the names the players gave.
    "ALTER TABLE games ADD COLUMN light_name TEXT;
    ALTER TABLE games ADD COLUMN dark_name TEXT;",
    // 3: a rematch offered after a friend game, and the game it started.
    "ALTER TABLE games ADD COLUMN rematch_by TEXT;
    ALTER TABLE games ADD COLUMN rematch_game TEXT;",
    // 4: each game's version, the count of changes stored for it, on
    // which a change from one of several servers depends.
    "ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;",
];

/// The channel every committed change is notified on, with its game's id
/// and new version (never the state).
const CHANNEL: &str = "race_games";
/// How long the listener waits before it connects again.
const LISTEN_RETRY: Duration = Duration::from_millis(500);

const GAME_COLUMNS: &str = "id, game, rules, seed, light, light_hash, dark, dark_hash, status, \
     resigned, ply, position, key, join_check, join_seal, created, light_name, dark_name, \
     rematch_by, rematch_game, updated";

/// A PostgreSQL database to serve from: its `postgres://` URL (or
/// key=value connection string), read but never shown whole. Its
/// [`Display`](std::fmt::Display) and `Debug` forms leave out the
/// password.
#[derive(Clone)]
pub struct Database {
    config: tokio_postgres::Config,
    shown: String,
}

impl Database {
    /// The database this URL names, e.g. `postgres://race@127.0.0.1/race`.
    ///
    /// # Errors
    ///
    /// [`StoreError`] for a URL that does not read (the error does not
    /// repeat it).
    pub fn parse(url: &str) -> Result<Database, StoreError> {
        let mut config = tokio_postgres::Config::from_str(url)
            .map_err(|e| StoreError(format!("the database URL does not read: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        config.application_name("race serve");
        let hosts: Vec<String> = config
            .get_hosts()
            .iter()
            .zip(config.get_ports().iter().chain(std::iter::repeat(&5432)))
            .map(|(host, port)| match host {
                tokio_postgres::config::Host::Tcp(h) => format!("{h}:{port}"),
                tokio_postgres::config::Host::Unix(p) => p.display().to_string(),
            })
            .collect();
        let shown = format!(
            "postgres://{}{}/{}",
            config
                .get_user()
                .map(|u| format!("{u}@"))
                .unwrap_or_default(),
            hosts.join(","),
            config.get_dbname().unwrap_or_default()
        );
        Ok(Database { config, shown })
    }

    /// A connection, its driver spawned on the current runtime.
    async fn connect(&self) -> Result<Client, StoreError> {
        let (client, connection) = self
            .config
            .connect(NoTls)
            .await
            .map_err(|e| self.unreachable(&e))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!("a database connection closed: {e}");
            }
        });
        Ok(client)
    }

    fn unreachable(&self, e: &tokio_postgres::Error) -> StoreError {
        StoreError::unreachable(&format!("{self} ({e})"))
    }
}

impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({})", self.shown)
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> StoreError {
        // The server's own message (a constraint, a missing table) when
        // there is one: it names no password.
        match e.as_db_error() {
            Some(db) => StoreError(format!("database: {}", db.message())),
            None => StoreError(format!("database: {e}")),
        }
    }
}

/// The PostgreSQL store (see the module documentation).
pub struct Postgres {
    db: Arc<Database>,
    runtime: tokio::runtime::Handle,
    jobs: mpsc::UnboundedSender<Job>,
    reader: Arc<tokio::sync::Mutex<Option<Client>>>,
    /// The notices of committed changes, until the hub takes them.
    notices: Mutex<Option<mpsc::UnboundedReceiver<Notice>>>,
    /// Dropped (or sent) to stop the store's thread.
    stop: Mutex<Option<oneshot::Sender<()>>>,
}

impl std::fmt::Debug for Postgres {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Postgres({})", self.db)
    }
}

/// The statements the writer runs, prepared once a connection.
struct Prepared {
    insert_game: Statement,
    insert_move: Statement,
    join: [Statement; 2],
    rename: [Statement; 2],
    rematch: Statement,
    resign: Statement,
    update: Statement,
    expire: Statement,
    withdraw: Statement,
    /// Steps a game's version, when it is the one expected (or any).
    step: Statement,
    notify: Statement,
}

impl Prepared {
    async fn new(client: &Client) -> Result<Prepared, tokio_postgres::Error> {
        let join = |side: &str| {
            format!(
                "UPDATE games SET {side} = 'person', {side}_hash = $2, join_check = $3, \
                 join_seal = $4, {side}_name = $5 WHERE id = $1 AND {side} IN ('open', 'anyone')"
            )
        };
        let rename = |side: &str| format!("UPDATE games SET {side}_name = $2 WHERE id = $1");
        Ok(Prepared {
            insert_game: client
                .prepare(
                    "INSERT INTO games (id, game, rules, seed, light, light_hash, dark, \
                     dark_hash, status, resigned, ply, position, key, created, updated, \
                     light_name, dark_name) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, \
                     $10, $11, $12, $13, $14, $15, $16)",
                )
                .await?,
            insert_move: client
                .prepare("INSERT INTO moves (game, n, ply, move) VALUES ($1, $2, $3, $4)")
                .await?,
            join: [
                client.prepare(&join("light")).await?,
                client.prepare(&join("dark")).await?,
            ],
            rename: [
                client.prepare(&rename("light")).await?,
                client.prepare(&rename("dark")).await?,
            ],
            rematch: client
                .prepare(
                    "UPDATE games SET rematch_by = $2, rematch_game = $3, updated = $4 \
                     WHERE id = $1",
                )
                .await?,
            resign: client
                .prepare("UPDATE games SET resigned = $2 WHERE id = $1")
                .await?,
            update: client
                .prepare(
                    "UPDATE games SET status = $2, ply = $3, position = $4, key = $5, \
                     updated = $6 WHERE id = $1",
                )
                .await?,
            expire: client
                .prepare("DELETE FROM games WHERE id = $1 AND status = 'waiting' AND created < $2")
                .await?,
            withdraw: client
                .prepare("DELETE FROM games WHERE id = $1 AND status = 'waiting'")
                .await?,
            step: client
                .prepare(
                    "UPDATE games SET version = version + 1 WHERE id = $1 \
                     AND ($2::BIGINT IS NULL OR version = $2) RETURNING version",
                )
                .await?,
            notify: client.prepare("SELECT pg_notify($1, $2)").await?,
        })
    }
}

/// The writer's connection and its statements.
struct Writer {
    client: Client,
    prepared: Prepared,
}

impl Writer {
    async fn open(db: &Database) -> Result<Writer, StoreError> {
        let client = db.connect().await?;
        let prepared = Prepared::new(&client)
            .await
            .map_err(|e| db.unreachable(&e))?;
        Ok(Writer { client, prepared })
    }
}

async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS race_schema (version BIGINT NOT NULL)")
        .await?;
    let version: i64 = match tx.query_opt("SELECT version FROM race_schema", &[]).await? {
        Some(row) => row.try_get(0)?,
        None => {
            tx.execute("INSERT INTO race_schema (version) VALUES (0)", &[])
                .await?;
            0
        }
    };
    let known = i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX);
    if version > known {
        return Err(StoreError(format!(
            "the database is at schema version {version}, newer than this server's {known}"
        )));
    }
    for (i, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(version).unwrap_or(0))
    {
        tx.batch_execute(sql).await?;
        let applied = i64::try_from(i + 1).unwrap_or(i64::MAX);
        tx.execute("UPDATE race_schema SET version = $1", &[&applied])
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

impl Postgres {
    /// Opens the store in `db`: connects, and creates or migrates the
    /// schema.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the database is unreachable, refuses the user,
    /// or has a schema newer than this server knows.
    pub fn open(db: &Database) -> Result<Postgres, StoreError> {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("race-postgres".into())
            .spawn(move || {
                let runtime = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => runtime,
                    Err(e) => {
                        let _ = ready_tx.send(Err(StoreError(format!(
                            "cannot start the database's runtime: {e}"
                        ))));
                        return;
                    }
                };
                let _ = ready_tx.send(Ok(runtime.handle().clone()));
                runtime.block_on(async move {
                    let _ = stop_rx.await;
                });
            })
            .map_err(|e| StoreError(format!("cannot start the database's thread: {e}")))?;
        let runtime = ready_rx
            .recv()
            .map_err(|_| StoreError("the database's thread stopped".into()))??;
        let db = Arc::new(db.clone());
        let opened = {
            let db = Arc::clone(&db);
            on(&runtime, async move {
                let mut client = db.connect().await?;
                migrate(&mut client).await?;
                drop(client);
                let writer = Writer::open(&db).await?;
                let reader = db.connect().await?;
                Ok((writer, reader))
            })
        };
        let (writer, reader) = match opened {
            Ok(opened) => opened,
            Err(e) => {
                let _ = stop_tx.send(());
                return Err(e);
            }
        };
        let (jobs, rx) = mpsc::unbounded_channel();
        runtime.spawn(write_loop(Arc::clone(&db), Some(writer), rx));
        let (notify, notices) = mpsc::unbounded_channel();
        runtime.spawn(listen(Arc::clone(&db), notify));
        Ok(Postgres {
            db,
            runtime,
            jobs,
            reader: Arc::new(tokio::sync::Mutex::new(Some(reader))),
            notices: Mutex::new(Some(notices)),
            stop: Mutex::new(Some(stop_tx)),
        })
    }

    /// Runs `f` with the reader's connection on the store's runtime, and
    /// waits for it; the connection is opened again when it broke, and
    /// dropped when `f` fails with the connection broken.
    fn read<T, F>(&self, f: impl FnOnce(Client) -> F + Send + 'static) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = (Client, Result<T, tokio_postgres::Error>)> + Send,
    {
        let db = Arc::clone(&self.db);
        let reader = Arc::clone(&self.reader);
        on(&self.runtime, async move {
            let mut held = reader.lock().await;
            let client = match held.take() {
                Some(client) if !client.is_closed() => client,
                _ => db.connect().await?,
            };
            let (client, result) = f(client).await;
            if !client.is_closed() {
                *held = Some(client);
            }
            result.map_err(|e| {
                if lost(&e) {
                    db.unreachable(&e)
                } else {
                    StoreError::from(e)
                }
            })
        })
    }
}

/// Whether an error is the connection's, not the statement's: no answer
/// from the database, or one saying the connection is ending (SQLSTATE
/// class 08, connection exception, or 57, operator intervention: a
/// shutdown, a terminated backend).
fn lost(e: &tokio_postgres::Error) -> bool {
    match e.as_db_error() {
        None => true,
        Some(db) => {
            let code = db.code().code();
            code.starts_with("08") || code.starts_with("57")
        }
    }
}

/// A stored version, which is never negative.
fn version_of(n: i64) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| StoreError(format!("{n} is no version")))
}

impl Postgres {
    fn queue(&self, change: Change, version: Option<u64>) -> Pending {
        let (ack, pending) = Pending::new();
        if let Err(mpsc::error::SendError(Job::Write(_, _, ack))) =
            self.jobs.send(Job::Write(change, version, ack))
        {
            let _ = ack.send(Err(StoreError("the store is closed".into())));
        }
        pending
    }
}

/// The listener: one connection of its own that `LISTEN`s on
/// [`CHANNEL`] and passes each notification on; when it breaks, it is
/// opened again, and a [`Notice::Gap`] sent once it listens (what was
/// notified meanwhile is lost). It ends when nobody takes the notices.
async fn listen(db: Arc<Database>, notices: mpsc::UnboundedSender<Notice>) {
    while !notices.is_closed() {
        if let Err(e) = listen_once(&db, &notices).await {
            static LOG: Throttle = Throttle::new(Duration::from_secs(10));
            if let Some(left_out) = LOG.allow(Instant::now()) {
                tracing::warn!(
                    "listening for the other servers' changes: {} ({left_out} more since the last line)",
                    e.0
                );
            }
        }
        tokio::time::sleep(LISTEN_RETRY).await;
    }
}

async fn listen_once(
    db: &Database,
    notices: &mpsc::UnboundedSender<Notice>,
) -> Result<(), StoreError> {
    let (client, mut connection) = db
        .config
        .connect(NoTls)
        .await
        .map_err(|e| db.unreachable(&e))?;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(tokio_postgres::AsyncMessage::Notification(n))) => {
                    if tx.send(n.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => {
                    tracing::debug!("the listening connection closed: {e}");
                    return;
                }
                None => return,
            }
        }
    });
    let listening = client.batch_execute(&format!("LISTEN {CHANNEL}")).await;
    if let Err(e) = listening {
        driver.abort();
        return Err(db.unreachable(&e));
    }
    if notices.send(Notice::Gap).is_err() {
        driver.abort();
        return Ok(());
    }
    while let Some(payload) = rx.recv().await {
        let notice = payload
            .split_once(' ')
            .and_then(|(id, v)| Some(Notice::Changed(id.to_owned(), v.parse().ok()?)));
        match notice {
            Some(notice) => {
                if notices.send(notice).is_err() {
                    break;
                }
            }
            None => tracing::warn!("a notice that does not read: {payload:?}"),
        }
    }
    driver.abort();
    drop(client);
    Ok(())
}

/// Runs `f` on `runtime` and waits for it on this thread (which may be a
/// runtime's own: the wait is a plain channel's).
fn on<T: Send + 'static>(
    runtime: &tokio::runtime::Handle,
    f: impl Future<Output = Result<T, StoreError>> + Send + 'static,
) -> Result<T, StoreError> {
    let (tx, rx) = std::sync::mpsc::channel();
    runtime.spawn(async move {
        let _ = tx.send(f.await);
    });
    rx.recv()
        .unwrap_or_else(|_| Err(StoreError("the store is closed".into())))
}

/// The writer: takes every job waiting, commits the writes among them in
/// one transaction, then acknowledges each.
async fn write_loop(
    db: Arc<Database>,
    mut writer: Option<Writer>,
    mut jobs: mpsc::UnboundedReceiver<Job>,
) {
    let mut batch = Vec::with_capacity(BATCH_MAX);
    while let Some(first) = jobs.recv().await {
        let closing = gather(first, &mut batch, || jobs.try_recv().ok());
        if !batch.is_empty() {
            commit_batch(&db, &mut writer, &mut batch).await;
        }
        if let Some(done) = closing {
            let _ = done.send(Ok(()));
            return;
        }
    }
}

async fn commit_batch(db: &Database, writer: &mut Option<Writer>, batch: &mut Vec<Queued>) {
    if writer.as_ref().is_none_or(|w| w.client.is_closed()) {
        *writer = None;
        match Writer::open(db).await {
            Ok(w) => *writer = Some(w),
            Err(e) => {
                for (_, _, ack) in batch.drain(..) {
                    let _ = ack.send(Err(e.clone()));
                }
                return;
            }
        }
    }
    let Some(w) = writer.as_ref() else {
        return;
    };
    // Two servers' transactions lock the rows of the games they change
    // in the same order, so neither waits for the other in a circle (a
    // game has at most one change in a batch: it is locked until the
    // change is acknowledged).
    batch.sort_by(|a, b| changed_game(&a.0).cmp(changed_game(&b.0)));
    let mut results = Vec::with_capacity(batch.len());
    let committed = async {
        w.client.batch_execute("BEGIN").await?;
        for (change, version, _) in batch.iter() {
            w.client.batch_execute("SAVEPOINT change").await?;
            match apply(w, change, *version).await {
                Ok(()) => {
                    w.client.batch_execute("RELEASE SAVEPOINT change").await?;
                    results.push(Ok(()));
                }
                Err(e) => {
                    w.client
                        .batch_execute("ROLLBACK TO SAVEPOINT change")
                        .await?;
                    results.push(Err(e));
                }
            }
        }
        w.client.batch_execute("COMMIT").await
    }
    .await;
    let failed = committed.err().map(|e| {
        if lost(&e) {
            db.unreachable(&e)
        } else {
            StoreError(format!("the commit failed: {}", StoreError::from(e).0))
        }
    });
    if failed.is_some() {
        // A broken connection, or one left inside a failed transaction:
        // the next batch opens a fresh one.
        *writer = None;
    }
    for ((_, _, ack), result) in batch
        .drain(..)
        .zip(results.into_iter().chain(std::iter::repeat_with(|| Ok(()))))
    {
        let _ = ack.send(match &failed {
            None => result,
            Some(e) => Err(e.clone()),
        });
    }
}

fn big(n: u32) -> i64 {
    i64::from(n)
}

/// The game a change is to.
fn changed_game(change: &Change) -> &str {
    match change {
        Change::Create(g) => &g.id,
        Change::Move { id, .. }
        | Change::Join { id, .. }
        | Change::Rename { id, .. }
        | Change::Resign { id, .. }
        | Change::Rematch { id, .. }
        | Change::Withdraw { id }
        | Change::Expire { id, .. } => id,
    }
}

/// Applies one change, when its game is at `version` (if one is given),
/// stepping the game's version and notifying it (delivered if the
/// transaction commits); an error that is the change's own (a constraint,
/// no such game, another version) or the connection's.
async fn apply(w: &Writer, change: &Change, version: Option<u64>) -> Result<(), StoreError> {
    let c = &w.client;
    let p = &w.prepared;
    if !matches!(change, Change::Create(_)) {
        let id = changed_game(change);
        let expected = version.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        // The row's lock is held from here to the commit: a server that
        // changes the same game meanwhile waits, then finds a new version.
        let Some(row) = c.query_opt(&p.step, &[&id, &expected]).await? else {
            return Err(StoreError(format!(
                "game {id} is not at version {} (another server changed it)",
                version.unwrap_or_default()
            )));
        };
        let stepped: i64 = row.try_get(0)?;
        c.execute(&p.notify, &[&CHANNEL, &format!("{id} {stepped}")])
            .await?;
    }
    let changed = match change {
        Change::Create(g) => insert_game(w, g).await?,
        Change::Move {
            id,
            n,
            mv,
            after,
            at,
        } => {
            c.execute(&p.insert_move, &[id, &big(*n), &big(mv.ply), &mv.text])
                .await?;
            update(w, id, after, *at).await?
        }
        Change::Join {
            id,
            seat,
            token,
            seal,
            name,
            after,
            at,
        } => {
            let statement = match seat {
                Side::Light => &p.join[0],
                Side::Dark => &p.join[1],
            };
            let n = c
                .execute(
                    statement,
                    &[
                        id,
                        &&token.0[..],
                        &seal.as_ref().map(|s| s.check.to_vec()),
                        &seal.as_ref().map(|s| s.sealed.to_vec()),
                        name,
                    ],
                )
                .await?;
            if n == 0 {
                return Err(StoreError(format!("game {id} has no open {seat} seat")));
            }
            update(w, id, after, *at).await?
        }
        Change::Resign {
            id,
            side,
            after,
            at,
        } => {
            c.execute(&p.resign, &[id, &side.as_str()]).await?;
            update(w, id, after, *at).await?
        }
        Change::Rename { id, seat, name } => {
            let statement = match seat {
                Side::Light => &p.rename[0],
                Side::Dark => &p.rename[1],
            };
            c.execute(statement, &[id, name]).await?
        }
        Change::Rematch {
            id,
            rematch,
            start,
            at,
        } => {
            if let Some(g) = start {
                insert_game(w, g).await?;
            }
            let (by, game) = rematch_text(rematch.as_ref());
            c.execute(&p.rematch, &[id, &by, &game, at]).await?
        }
        Change::Withdraw { id } => c.execute(&p.withdraw, &[id]).await?,
        Change::Expire { id, before } => c.execute(&p.expire, &[id, before]).await?,
    };
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError("the change names no stored game".into()))
    }
}

async fn insert_game(w: &Writer, g: &StoredGame) -> Result<u64, StoreError> {
    let (light, light_hash) = holder_text(&g.seats[0]);
    let (dark, dark_hash) = holder_text(&g.seats[1]);
    let s = &g.summary;
    Ok(w.client
        .execute(
            &w.prepared.insert_game,
            &[
                &g.id,
                &g.rules.kind().as_str(),
                &g.rules.to_string(),
                &g.seed,
                &light,
                &light_hash,
                &dark,
                &dark_hash,
                &s.status.as_str(),
                &big(s.ply),
                &s.position,
                &s.key,
                &g.created,
                &g.changed,
                &g.names[0],
                &g.names[1],
            ],
        )
        .await?)
}

async fn update(w: &Writer, id: &str, s: &Summary, at: i64) -> Result<u64, StoreError> {
    Ok(w.client
        .execute(
            &w.prepared.update,
            &[
                &id,
                &s.status.as_str(),
                &big(s.ply),
                &s.position,
                &s.key,
                &at,
            ],
        )
        .await?)
}

fn game_row(row: &tokio_postgres::Row) -> Result<StoredGame, StoreError> {
    GameRow {
        id: row.try_get(0)?,
        game: row.try_get(1)?,
        rules: row.try_get(2)?,
        seed: row.try_get(3)?,
        light: row.try_get(4)?,
        light_hash: row.try_get(5)?,
        dark: row.try_get(6)?,
        dark_hash: row.try_get(7)?,
        status: row.try_get(8)?,
        resigned: row.try_get(9)?,
        ply: row.try_get(10)?,
        position: row.try_get(11)?,
        key: row.try_get(12)?,
        join_check: row.try_get(13)?,
        join_seal: row.try_get(14)?,
        created: row.try_get(15)?,
        light_name: row.try_get(16)?,
        dark_name: row.try_get(17)?,
        rematch_by: row.try_get(18)?,
        rematch_game: row.try_get(19)?,
        updated: row.try_get(20)?,
    }
    .decode()
}

impl Store for Postgres {
    fn write(&self, change: Change) -> Pending {
        self.queue(change, None)
    }

    fn shared(&self) -> bool {
        true
    }

    fn write_at(&self, change: Change, version: u64) -> Pending {
        self.queue(change, Some(version))
    }

    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let id = id.to_owned();
        let row = self.read(move |c| async move {
            let result = c
                .query_opt("SELECT version FROM games WHERE id = $1", &[&id])
                .await;
            (c, result)
        })?;
        row.map(|r| version_of(r.try_get(0)?)).transpose()
    }

    fn notices(&self) -> Option<mpsc::UnboundedReceiver<Notice>> {
        self.notices
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        Ok(self.load_versioned(id)?.map(|(g, _)| g))
    }

    fn load_versioned(&self, id: &str) -> Result<Option<(StoredGame, u64)>, StoreError> {
        let id = id.to_owned();
        let rows = self.read(move |mut c| async move {
            // One snapshot: the moves are those the row's summary is of.
            let result = async {
                let tx = c
                    .build_transaction()
                    .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                    .read_only(true)
                    .start()
                    .await?;
                let game = tx
                    .query_opt(
                        &format!("SELECT {GAME_COLUMNS}, version FROM games WHERE id = $1"),
                        &[&id],
                    )
                    .await?;
                let moves = match game {
                    Some(_) => {
                        tx.query(
                            "SELECT ply, move FROM moves WHERE game = $1 ORDER BY n",
                            &[&id],
                        )
                        .await?
                    }
                    None => Vec::new(),
                };
                tx.commit().await?;
                Ok((game, moves))
            }
            .await;
            (c, result)
        })?;
        let (Some(row), moves) = rows else {
            return Ok(None);
        };
        let mut game = game_row(&row)?;
        let version = version_of(row.try_get("version")?)?;
        game.moves = moves
            .iter()
            .map(|r| {
                Ok(StoredMove {
                    ply: stored_u32(&game.id, r.try_get(0)?)?,
                    text: r.try_get(1)?,
                })
            })
            .collect::<Result<_, StoreError>>()?;
        Ok(Some((game, version)))
    }

    fn unfinished(&self) -> Result<Vec<Unfinished>, StoreError> {
        let rows = self.read(|c| async move {
            let result = c
                .query(
                    "SELECT id, game, rules, light, dark FROM games WHERE status <> 'over'",
                    &[],
                )
                .await;
            (c, result)
        })?;
        rows.iter()
            .map(|row| {
                let id: String = row.try_get(0)?;
                let rules = rules_of(&id, row.try_get(1)?, row.try_get(2)?)?;
                let bots = bots_of(&id, [row.try_get(3)?, row.try_get(4)?])?;
                Ok(Unfinished { id, rules, bots })
            })
            .collect()
    }

    fn waiting_since(&self, before: i64, most: usize) -> Result<Vec<String>, StoreError> {
        let most = i64::try_from(most).unwrap_or(i64::MAX);
        let rows = self.read(move |c| async move {
            let result = c
                .query(
                    "SELECT id FROM games WHERE status = 'waiting' AND created < $1 LIMIT $2",
                    &[&before, &most],
                )
                .await;
            (c, result)
        })?;
        rows.iter()
            .map(|r| r.try_get(0).map_err(StoreError::from))
            .collect()
    }

    fn open_games(&self, before: i64, most: usize) -> Result<Vec<OpenGame>, StoreError> {
        let most = i64::try_from(most).unwrap_or(i64::MAX);
        let rows = self.read(move |c| async move {
            let result = c
                .query(
                    "SELECT id, game, rules, light, dark, light_name, dark_name, created \
                     FROM games WHERE status = 'waiting' AND (light = 'anyone' OR dark = 'anyone') \
                     AND created < $1 ORDER BY created, id LIMIT $2",
                    &[&before, &most],
                )
                .await;
            (c, result)
        })?;
        rows.iter()
            .map(|row| {
                let light: String = row.try_get(3)?;
                let dark: String = row.try_get(4)?;
                OpenGame::decode(
                    row.try_get(0)?,
                    row.try_get(1)?,
                    row.try_get(2)?,
                    [&light, &dark],
                    [row.try_get(5)?, row.try_get(6)?],
                    row.try_get(7)?,
                )
            })
            .collect()
    }

    fn counts(&self) -> Result<Counts, StoreError> {
        let rows = self.read(|c| async move {
            let result = c
                .query("SELECT status, COUNT(*) FROM games GROUP BY status", &[])
                .await;
            (c, result)
        })?;
        let mut counts = [0; 3];
        for row in &rows {
            let status: String = row.try_get(0)?;
            let n: i64 = row.try_get(1)?;
            if let Some(count) = Status::from_word(&status).and_then(|s| counts.get_mut(s.index()))
            {
                *count = u64::try_from(n).unwrap_or(0);
            }
        }
        Ok(counts)
    }

    fn close(&self) -> Result<(), StoreError> {
        let (tx, rx) = std::sync::mpsc::channel();
        if self.jobs.send(Job::Close(tx)).is_err() {
            return Ok(());
        }
        let result = rx
            .recv()
            .unwrap_or_else(|_| Err(StoreError("the writer stopped".into())));
        if let Some(stop) = self
            .stop
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
        {
            let _ = stop.send(());
        }
        result
    }
}
