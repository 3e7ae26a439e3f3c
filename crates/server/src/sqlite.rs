//! The SQLite store: one file in the data folder, written by one thread
//! that commits many changes in one transaction (group commit).
//!
//! Durability: the database is in WAL mode with `synchronous=FULL`, so a
//! transaction's commit returns only after its WAL frames are on the disk
//! (fsync). The writer thread takes every change queued while the last
//! commit ran, applies them in one transaction (each in its own savepoint,
//! so one failing change fails alone) and then acknowledges each. A
//! change is acknowledged, and so answered, only once it would survive a
//! crash of the process, of the operating system or a power cut.

use std::fs::File;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use dice_core::Side;
use rusqlite::{Connection, OptionalExtension, Row, Transaction, params};

use crate::store::{
    BATCH_MAX, Change, Counts, GameRow, Job, OpenGame, Pending, Queued, Status, StoreError,
    StoredGame, StoredMove, Summary, Unfinished, bots_of, gather, holder_text, rematch_text,
    rules_of,
};

/// The database file inside the data folder.
pub const DB_FILE: &str = "race.sqlite3";
/// The lock file that keeps a second server off the same folder.
const LOCK_FILE: &str = "race.lock";
/// The data folder's mode when the server creates it: the owner's alone.
pub const DIR_MODE: u32 = 0o700;
/// The database file's mode when the server creates it (SQLite gives its
/// `-wal` and `-shm` files the same) and the lock file's.
pub const FILE_MODE: u32 = 0o600;

/// The schema, one migration a version; `PRAGMA user_version` counts those
/// applied. Append only: a released migration never changes.
const MIGRATIONS: &[&str] = &[
    // 1: games and their moves.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        seed BLOB NOT NULL,
        light TEXT NOT NULL,
        light_hash BLOB,
        dark TEXT NOT NULL,
        dark_hash BLOB,
        status TEXT NOT NULL,
        resigned TEXT,
        ply INTEGER NOT NULL,
        position TEXT NOT NULL,
        key TEXT NOT NULL,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL
    );
    CREATE INDEX games_unfinished ON games (status) WHERE status != 'over';
    CREATE TABLE moves (
        game TEXT NOT NULL,
        n INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (game, n)
    ) WITHOUT ROWID;",
    // 2: a joined seat gets a token of its own; a join sent with a join key
    // keeps that token sealed under the invite and the key, for a retry.
    "ALTER TABLE games ADD COLUMN join_check BLOB;
    ALTER TABLE games ADD COLUMN join_seal BLOB;",
    // 3: the names the players gave.
    "ALTER TABLE games ADD COLUMN light_name TEXT;
    ALTER TABLE games ADD COLUMN dark_name TEXT;",
    // 4: a rematch offered after a friend game, and the game it started.
    "ALTER TABLE games ADD COLUMN rematch_by TEXT;
    ALTER TABLE games ADD COLUMN rematch_game TEXT;",
];

/// Why the store could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The data folder, or a database file in it, can be read by its
    /// group or by others, and that was not allowed.
    #[error(
        "{} is mode {mode:04o}: its group or others can {what}, and it holds the games' \
         seeds; run `chmod {fix:o} {}` (or start with --allow-shared-data to serve it anyway)",
        path.display(),
        path.display(),
        what = if *folder { "read or enter it" } else { "read it" },
        fix = if *folder { DIR_MODE } else { FILE_MODE }
    )]
    Shared {
        /// The folder or file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
        /// Whether it is the data folder (else a database file).
        folder: bool,
    },
    /// Another server holds the database (its lock on the database file).
    #[error("another server holds the database {}; stop it first", path.display())]
    Held {
        /// The database file.
        path: PathBuf,
    },
    /// The folder or the database could not be made, opened or migrated.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The SQLite store (see the module documentation).
pub struct Sqlite {
    jobs: mpsc::Sender<Job>,
    reader: Mutex<Connection>,
    writer: Mutex<Option<JoinHandle<()>>>,
    _lock: File,
    /// The database file, locked (`flock`) for the store's life; also
    /// held by the writer thread, so that it is closed only after the
    /// last connection.
    _db_lock: std::sync::Arc<File>,
}

impl std::fmt::Debug for Sqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sqlite")
    }
}

/// The time now in Unix seconds.
pub(crate) fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(StoreError(format!(
            "{} cannot be put in WAL mode (it is {mode})",
            path.display()
        )));
    }
    conn.execute_batch("PRAGMA synchronous=FULL;")?;
    Ok(conn)
}

fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError(format!(
            "the database is at schema version {version}, newer than this server's {known}"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        tx.execute_batch(sql)?;
        tx.execute_batch(&format!("PRAGMA user_version = {}", i + 1))?;
    }
    tx.commit()?;
    Ok(())
}

/// Refuses `path` when its group or others may read it (or, for the
/// folder, enter it), unless `allow_shared`.
fn check_private(path: &Path, folder: bool, allow_shared: bool) -> Result<(), OpenError> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if !folder && e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(StoreError(format!("cannot read {}: {e}", path.display())).into()),
    };
    let mode = meta.permissions().mode() & 0o7777;
    let open = if folder { 0o055 } else { 0o044 };
    if allow_shared || mode & open == 0 {
        Ok(())
    } else {
        Err(OpenError::Shared {
            path: path.to_owned(),
            mode,
            folder,
        })
    }
}

/// Opens `path` for reading and writing, creating it with exactly
/// [`FILE_MODE`] (set, not left to the umask) if it is missing; an
/// existing file keeps its mode.
fn open_private(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true);
    match options.clone().create_new(true).mode(FILE_MODE).open(path) {
        Ok(file) => {
            file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))?;
            Ok(file)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => options.open(path),
        Err(e) => Err(e),
    }
}

impl Sqlite {
    /// Opens (creating if needed) the store in folder `dir`, refusing a
    /// folder or database its group or others can read: as
    /// [`Sqlite::open_with`] without `allow_shared`.
    ///
    /// # Errors
    ///
    /// As [`Sqlite::open_with`].
    pub fn open(dir: &Path) -> Result<Sqlite, OpenError> {
        Sqlite::open_with(dir, false)
    }

    /// Opens (creating if needed) the store in folder `dir`: the folder
    /// (made with mode [`DIR_MODE`]), the database (made with
    /// [`FILE_MODE`]) and its schema. Unless `allow_shared`, a folder its
    /// group or others can read or enter, or a database file they can
    /// read, is refused. The lock file and the database file are locked
    /// for the store's life, so that a second server cannot open the
    /// same database even if the lock file is deleted.
    ///
    /// # Errors
    ///
    /// [`OpenError::Shared`] for a folder or file others can read,
    /// [`OpenError::Held`] when another server holds the database, and
    /// [`OpenError::Store`] when the folder or the database cannot be
    /// made or opened, or the schema is newer than this server knows.
    pub fn open_with(dir: &Path, allow_shared: bool) -> Result<Sqlite, OpenError> {
        let fail =
            |what: &str, e: std::io::Error| StoreError(format!("{what} {}: {e}", dir.display()));
        if !dir.exists() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(DIR_MODE)
                .create(dir)
                .map_err(|e| fail("cannot create", e))?;
            // Set, not left to the umask.
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(DIR_MODE))
                .map_err(|e| fail("cannot set the mode of", e))?;
        }
        if !dir.is_dir() {
            return Err(StoreError(format!("{} is not a folder", dir.display())).into());
        }
        check_private(dir, true, allow_shared)?;
        let lock_path = dir.join(LOCK_FILE);
        let lock = open_private(&lock_path).map_err(|e| fail("cannot lock", e))?;
        lock.try_lock().map_err(|_| {
            StoreError(format!(
                "another server is using {}; stop it first",
                dir.display()
            ))
        })?;
        let path: PathBuf = dir.join(DB_FILE);
        // A lock of its own on the database file (flock, apart from
        // SQLite's fcntl locks), kept open until every connection closed.
        let db_lock = open_private(&path).map_err(|e| fail("cannot open the database in", e))?;
        for file in [
            path.clone(),
            dir.join(format!("{DB_FILE}-wal")),
            dir.join(format!("{DB_FILE}-shm")),
        ] {
            check_private(&file, false, allow_shared)?;
        }
        match db_lock.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(OpenError::Held { path });
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(fail("cannot lock the database in", e).into());
            }
        }
        let db_lock = std::sync::Arc::new(db_lock);
        let mut writer = connect(&path)?;
        migrate(&mut writer)?;
        let reader = connect(&path)?;
        let (jobs, rx) = mpsc::channel();
        let held = std::sync::Arc::clone(&db_lock);
        let thread = std::thread::Builder::new()
            .name("race-store".into())
            .spawn(move || {
                write_loop(writer, &rx);
                drop(held);
            })
            .map_err(|e| fail("cannot start the writer for", e))?;
        Ok(Sqlite {
            jobs,
            reader: Mutex::new(reader),
            writer: Mutex::new(Some(thread)),
            _lock: lock,
            _db_lock: db_lock,
        })
    }

    fn read<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let conn = self.reader.lock().unwrap_or_else(PoisonError::into_inner);
        f(&conn)
    }
}

/// The writer thread: takes every job waiting, commits the writes among
/// them in one transaction, then acknowledges each.
fn write_loop(mut conn: Connection, jobs: &mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH_MAX);
    while let Ok(first) = jobs.recv() {
        let closing = gather(first, &mut batch, || jobs.try_recv().ok());
        if !batch.is_empty() {
            commit_batch(&mut conn, &mut batch);
        }
        if let Some(done) = closing {
            let result = conn
                .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
                .map_err(StoreError::from)
                .and_then(|()| conn.close().map_err(|(_, e)| StoreError::from(e)));
            let _ = done.send(result);
            return;
        }
    }
}

fn commit_batch(conn: &mut Connection, batch: &mut Vec<Queued>) {
    let mut results: Vec<Result<(), StoreError>> = Vec::with_capacity(batch.len());
    let committed = (|| {
        let mut tx = conn.transaction()?;
        for (change, _, _) in batch.iter() {
            results.push(apply_one(&mut tx, change));
        }
        tx.commit()
    })();
    for ((_, _, ack), result) in batch
        .drain(..)
        .zip(results.into_iter().chain(std::iter::repeat_with(|| Ok(()))))
    {
        let result = match &committed {
            Ok(()) => result,
            Err(e) => Err(StoreError(format!("the commit failed: {e}"))),
        };
        let _ = ack.send(result);
    }
}

/// One change in its own savepoint, so that a failing change leaves the
/// others of its batch whole.
fn apply_one(tx: &mut Transaction<'_>, change: &Change) -> Result<(), StoreError> {
    let sp = tx.savepoint()?;
    apply(&sp, change)?;
    sp.commit()?;
    Ok(())
}

fn apply(conn: &Connection, change: &Change) -> Result<(), StoreError> {
    let changed = match change {
        Change::Create(g) => insert_game(conn, g)?,
        Change::Move {
            id,
            n,
            mv,
            after,
            at,
        } => {
            conn.prepare_cached("INSERT INTO moves (game, n, ply, move) VALUES (?1, ?2, ?3, ?4)")?
                .execute(params![id, n, mv.ply, mv.text])?;
            update(conn, id, after, *at)?
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
            let sql = match seat {
                Side::Light => {
                    "UPDATE games SET light = 'person', light_hash = ?2, join_check = ?3,
                     join_seal = ?4, light_name = ?5
                     WHERE id = ?1 AND light IN ('open', 'anyone')"
                }
                Side::Dark => {
                    "UPDATE games SET dark = 'person', dark_hash = ?2, join_check = ?3,
                     join_seal = ?4, dark_name = ?5
                     WHERE id = ?1 AND dark IN ('open', 'anyone')"
                }
            };
            let n = conn.prepare_cached(sql)?.execute(params![
                id,
                &token.0[..],
                seal.as_ref().map(|s| s.check.to_vec()),
                seal.as_ref().map(|s| s.sealed.to_vec()),
                name,
            ])?;
            if n == 0 {
                return Err(StoreError(format!("game {id} has no open {seat} seat")));
            }
            update(conn, id, after, *at)?
        }
        Change::Resign {
            id,
            side,
            after,
            at,
        } => {
            conn.prepare_cached("UPDATE games SET resigned = ?2 WHERE id = ?1")?
                .execute(params![id, side.as_str()])?;
            update(conn, id, after, *at)?
        }
        Change::Rename { id, seat, name } => {
            let sql = match seat {
                Side::Light => "UPDATE games SET light_name = ?2 WHERE id = ?1",
                Side::Dark => "UPDATE games SET dark_name = ?2 WHERE id = ?1",
            };
            conn.prepare_cached(sql)?.execute(params![id, name])?
        }
        Change::Rematch {
            id,
            rematch,
            start,
            at,
        } => {
            if let Some(g) = start {
                insert_game(conn, g)?;
            }
            let (by, game) = rematch_text(rematch.as_ref());
            conn.prepare_cached(
                "UPDATE games SET rematch_by = ?2, rematch_game = ?3, updated = ?4 WHERE id = ?1",
            )?
            .execute(params![id, by, game, at])?
        }
        Change::Withdraw { id } => conn
            .prepare_cached("DELETE FROM games WHERE id = ?1 AND status = 'waiting'")?
            .execute(params![id])?,
        Change::Expire { id, before } => conn
            .prepare_cached(
                "DELETE FROM games WHERE id = ?1 AND status = 'waiting' AND created < ?2",
            )?
            .execute(params![id, before])?,
    };
    if changed == 1 {
        Ok(())
    } else {
        Err(StoreError("the change names no stored game".into()))
    }
}

fn insert_game(conn: &Connection, g: &StoredGame) -> Result<usize, StoreError> {
    let (light, light_hash) = holder_text(&g.seats[0]);
    let (dark, dark_hash) = holder_text(&g.seats[1]);
    let s = &g.summary;
    Ok(conn
        .prepare_cached(
            "INSERT INTO games (id, game, rules, seed, light, light_hash, dark, dark_hash,
         status, resigned, ply, position, key, created, updated, light_name, dark_name)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11, ?12, ?13, ?14,
         ?15, ?16)",
        )?
        .execute(params![
            g.id,
            g.rules.kind().as_str(),
            g.rules.to_string(),
            g.seed,
            light,
            light_hash,
            dark,
            dark_hash,
            s.status.as_str(),
            s.ply,
            s.position,
            s.key,
            g.created,
            g.changed,
            g.names[0],
            g.names[1]
        ])?)
}

fn update(conn: &Connection, id: &str, s: &Summary, at: i64) -> Result<usize, StoreError> {
    Ok(conn
        .prepare_cached(
            "UPDATE games SET status = ?2, ply = ?3, position = ?4, key = ?5, updated = ?6
             WHERE id = ?1",
        )?
        .execute(params![id, s.status.as_str(), s.ply, s.position, s.key, at])?)
}

const GAME_COLUMNS: &str = "id, game, rules, seed, light, light_hash, dark, dark_hash, status, \
     resigned, ply, position, key, join_check, join_seal, created, light_name, dark_name, \
     rematch_by, rematch_game, updated";

fn game_row(row: &Row<'_>) -> Result<StoredGame, StoreError> {
    GameRow {
        id: row.get(0)?,
        game: row.get(1)?,
        rules: row.get(2)?,
        seed: row.get(3)?,
        light: row.get(4)?,
        light_hash: row.get(5)?,
        dark: row.get(6)?,
        dark_hash: row.get(7)?,
        status: row.get(8)?,
        resigned: row.get(9)?,
        ply: row.get(10)?,
        position: row.get(11)?,
        key: row.get(12)?,
        join_check: row.get(13)?,
        join_seal: row.get(14)?,
        created: row.get(15)?,
        light_name: row.get(16)?,
        dark_name: row.get(17)?,
        rematch_by: row.get(18)?,
        rematch_game: row.get(19)?,
        updated: row.get(20)?,
    }
    .decode()
}

fn with_moves(conn: &Connection, mut game: StoredGame) -> Result<StoredGame, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT ply, move FROM moves WHERE game = ?1 ORDER BY n")?;
    let rows = stmt.query_map(params![game.id], |r| {
        Ok(StoredMove {
            ply: r.get(0)?,
            text: r.get(1)?,
        })
    })?;
    game.moves = rows.collect::<Result<_, _>>()?;
    Ok(game)
}

impl crate::store::Store for Sqlite {
    fn write(&self, change: Change) -> Pending {
        let (ack, pending) = Pending::new();
        if let Err(mpsc::SendError(Job::Write(_, _, ack))) =
            self.jobs.send(Job::Write(change, None, ack))
        {
            let _ = ack.send(Err(StoreError("the store is closed".into())));
        }
        pending
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.read(|conn| {
            let row = conn
                .prepare_cached(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"))?
                .query_row(params![id], |r| Ok(game_row(r)))
                .optional()?;
            row.transpose()?.map(|g| with_moves(conn, g)).transpose()
        })
    }

    fn unfinished(&self) -> Result<Vec<Unfinished>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn
                .prepare("SELECT id, game, rules, light, dark FROM games WHERE status != 'over'")?;
            let rows = stmt.query_map([], |row| {
                Ok((|| {
                    let id: String = row.get(0)?;
                    let rules =
                        rules_of(&id, &row.get::<_, String>(1)?, &row.get::<_, String>(2)?)?;
                    let light: String = row.get(3)?;
                    let dark: String = row.get(4)?;
                    let bots = bots_of(&id, [&light, &dark])?;
                    Ok(Unfinished { id, rules, bots })
                })())
            })?;
            rows.collect::<Result<Result<_, _>, _>>()?
        })
    }

    fn waiting_since(&self, before: i64, most: usize) -> Result<Vec<String>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM games WHERE status = 'waiting' AND created < ?1 LIMIT ?2",
            )?;
            let ids = stmt
                .query_map(
                    params![before, i64::try_from(most).unwrap_or(i64::MAX)],
                    |r| r.get(0),
                )?
                .collect::<Result<_, _>>()?;
            Ok(ids)
        })
    }

    fn open_games(&self, before: i64, most: usize) -> Result<Vec<OpenGame>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, game, rules, light, dark, light_name, dark_name, created FROM games
                 WHERE status = 'waiting' AND (light = 'anyone' OR dark = 'anyone')
                 AND created < ?1 ORDER BY created, id LIMIT ?2",
            )?;
            let rows = stmt.query_map(
                params![before, i64::try_from(most).unwrap_or(i64::MAX)],
                |row| {
                    Ok((|| {
                        let light: String = row.get(3)?;
                        let dark: String = row.get(4)?;
                        OpenGame::decode(
                            row.get(0)?,
                            &row.get::<_, String>(1)?,
                            &row.get::<_, String>(2)?,
                            [&light, &dark],
                            [row.get(5)?, row.get(6)?],
                            row.get(7)?,
                        )
                    })())
                },
            )?;
            rows.collect::<Result<Result<_, _>, _>>()?
        })
    }

    fn counts(&self) -> Result<Counts, StoreError> {
        self.read(|conn| {
            let mut counts = [0; 3];
            let mut stmt = conn.prepare("SELECT status, COUNT(*) FROM games GROUP BY status")?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let status: String = row.get(0)?;
                let n: i64 = row.get(1)?;
                if let Some(count) =
                    Status::from_word(&status).and_then(|s| counts.get_mut(s.index()))
                {
                    *count = u64::try_from(n).unwrap_or(0);
                }
            }
            Ok(counts)
        })
    }

    fn close(&self) -> Result<(), StoreError> {
        let (tx, rx) = mpsc::channel();
        if self.jobs.send(Job::Close(tx)).is_err() {
            return Ok(());
        }
        let result = rx
            .recv()
            .unwrap_or_else(|_| Err(StoreError("the writer stopped".into())));
        let thread = self
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(thread) = thread {
            let _ = thread.join();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::TokenHash;
    use crate::store::{Holder, Store};
    use race_games::{AnyVariant, Kind, Level};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("race-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn game(id: &str) -> StoredGame {
        StoredGame {
            id: id.into(),
            rules: AnyVariant::read(Kind::Ur, None).unwrap(),
            seed: vec![1; 32],
            seats: [
                Holder::Person(TokenHash::of("a")),
                Holder::Bot(Level::Ladder(2)),
            ],
            names: [None, None],
            moves: Vec::new(),
            resigned: None,
            join: None,
            summary: Summary {
                status: Status::Playing,
                ply: 0,
                position: "p0".into(),
                key: "k0".into(),
            },
            created: 1000,
            changed: 1000,
            rematch: None,
        }
    }

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[tokio::test]
    async fn a_new_folder_and_its_files_are_the_owners_alone() {
        let dir = scratch("modes");
        let store = Sqlite::open(&dir).unwrap();
        store
            .write(Change::Create(Box::new(game("g1"))))
            .await
            .unwrap();
        assert_eq!(mode(&dir), 0o700);
        for file in [DB_FILE, "race.sqlite3-wal", "race.sqlite3-shm", LOCK_FILE] {
            assert_eq!(mode(&dir.join(file)), 0o600, "{file}");
        }
        store.close().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_folder_or_database_others_can_read_is_refused_unless_allowed() {
        let dir = scratch("shared");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let e = Sqlite::open(&dir).unwrap_err();
        assert!(
            matches!(&e, OpenError::Shared { path, mode: 0o755, folder: true } if *path == dir),
            "{e:?}"
        );
        let text = e.to_string();
        assert!(
            text.contains(&format!("chmod 700 {}", dir.display())) && text.contains("0755"),
            "{text}"
        );
        assert!(
            !dir.join(DB_FILE).exists(),
            "nothing is made in a refused folder"
        );
        let store = Sqlite::open_with(&dir, true).unwrap();
        store.close().unwrap();
        drop(store);
        assert_eq!(mode(&dir.join(DB_FILE)), 0o600, "made private all the same");

        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        let db = dir.join(DB_FILE);
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
        let e = Sqlite::open(&dir).unwrap_err();
        assert!(
            matches!(&e, OpenError::Shared { path, mode: 0o644, folder: false } if *path == db),
            "{e:?}"
        );
        assert!(e.to_string().contains("chmod 600"), "{e}");
        Sqlite::open_with(&dir, true).unwrap().close().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn deleting_the_lock_file_does_not_let_a_second_server_in() {
        let dir = scratch("held");
        let store = Sqlite::open(&dir).unwrap();
        std::fs::remove_file(dir.join(LOCK_FILE)).unwrap();
        let e = Sqlite::open(&dir).unwrap_err();
        assert!(
            matches!(&e, OpenError::Held { path } if *path == dir.join(DB_FILE)),
            "{e:?}"
        );
        assert!(
            e.to_string().contains("another server holds the database"),
            "{e}"
        );
        store.close().unwrap();
        drop(store);
        Sqlite::open(&dir).unwrap().close().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_stored_games_debug_form_leaves_out_the_seed() {
        let text = format!("{:?}", game("g1"));
        assert!(text.contains("g1") && !text.contains("seed"), "{text}");
    }

    #[tokio::test]
    async fn a_database_of_schema_1_is_migrated_and_its_games_play_on() {
        let dir = scratch("schema1");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(DIR_MODE)).unwrap();
        {
            // As the server of schema 1 wrote it: a friend game joined
            // with its invite, which then was the seat's token, and one
            // still waiting for its friend.
            let mut conn = connect(&dir.join(DB_FILE)).unwrap();
            let tx = conn.transaction().unwrap();
            tx.execute_batch(MIGRATIONS[0]).unwrap();
            tx.execute_batch("PRAGMA user_version = 1").unwrap();
            let insert = "INSERT INTO games (id, game, rules, seed, light, light_hash, dark, \
                 dark_hash, status, resigned, ply, position, key, created, updated) \
                 VALUES (?1, 'ur', 'finkel', ?2, 'person', ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9, 1, 1)";
            tx.execute(
                insert,
                params![
                    "joined",
                    vec![1u8; 32],
                    &TokenHash::of("creator").0[..],
                    "person",
                    &TokenHash::of("old-invite").0[..],
                    "playing",
                    1,
                    "p1",
                    "k1"
                ],
            )
            .unwrap();
            tx.execute(
                "INSERT INTO moves (game, n, ply, move) VALUES ('joined', 0, 0, 'hand-c1')",
                [],
            )
            .unwrap();
            tx.execute(
                insert,
                params![
                    "waiting",
                    vec![2u8; 32],
                    &TokenHash::of("host").0[..],
                    "open",
                    &TokenHash::of("invite").0[..],
                    "waiting",
                    0,
                    "p0",
                    "k0"
                ],
            )
            .unwrap();
            tx.commit().unwrap();
        }
        // SQLite made the file under the umask; the server's own are 0600.
        let db = dir.join(DB_FILE);
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(FILE_MODE)).unwrap();
        let store = Sqlite::open(&dir).unwrap();
        let version: i64 = store
            .read(|c| Ok(c.query_row("PRAGMA user_version", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len() as i64);
        let joined = store.load("joined").unwrap().unwrap();
        assert!(
            matches!(joined.seats[1], Holder::Person(h) if h.matches(&TokenHash::of("old-invite"))),
            "the friend of an old game keeps playing with the invite it holds"
        );
        assert!(joined.join.is_none());
        assert_eq!(joined.moves.len(), 1);
        assert_eq!(store.unfinished().unwrap().len(), 2);
        // The waiting game is joined as this server joins: a token of its
        // own, sealed under the invite and the join key.
        let key = "k".repeat(24);
        let (token, hash, seal) = crate::secret::new_sealed_token("invite", &key).unwrap();
        store
            .write(Change::Join {
                id: "waiting".into(),
                seat: Side::Dark,
                token: hash,
                seal: Some(seal),
                name: None,
                after: Summary {
                    status: Status::Playing,
                    ply: 0,
                    position: "p0".into(),
                    key: "k0".into(),
                },
                at: 2000,
            })
            .await
            .unwrap();
        store.close().unwrap();
        drop(store);
        let store = Sqlite::open(&dir).unwrap();
        let g = store.load("waiting").unwrap().unwrap();
        assert_eq!(g.changed, 2000, "a join is the game's last change");
        assert!(
            matches!(g.seats[1], Holder::Person(h) if h.matches(&TokenHash::of(token.reveal())))
        );
        assert_eq!(g.join.and_then(|s| s.open("invite", &key)), Some(token));
        store.close().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
