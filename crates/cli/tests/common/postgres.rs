//! A fresh PostgreSQL database for a test, dropped afterwards.
//!
//! The server is the one at `RACE_TEST_DATABASE` (a `postgres://` URL
//! whose user may create databases) when it is set, else the local one on
//! 127.0.0.1:5432 when it answers (user `root`, else `postgres`, trust
//! authentication), else a throwaway cluster of Debian's PostgreSQL made
//! in a temporary folder for this test process (installing `postgresql`
//! with apt-get when it is missing, as the page tests do for Chromium),
//! stopped when the process ends. Each [`TestDb`] makes a database of its
//! own and drops it when dropped; the server's other databases are never
//! touched.

use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The local server tried before a throwaway cluster is made.
const LOCAL: &str = "127.0.0.1:5432";

/// A database made for one test.
pub struct TestDb {
    /// Its URL.
    pub url: String,
    name: String,
    admin: String,
}

/// Runs `sql` on the database at `url`, on a runtime of its own.
fn execute(url: &str, sql: &str) -> Result<(), String> {
    let url = url.to_owned();
    let sql = sql.to_owned();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .map_err(|e| e.to_string())?;
            tokio::spawn(connection);
            client.batch_execute(&sql).await.map_err(|e| e.to_string())
        })
    })
    .join()
    .unwrap_or_else(|_| Err("the SQL thread panicked".into()))
}

/// `url` with its database name replaced by `name`.
fn with_name(url: &str, name: &str) -> String {
    let (base, query) = url
        .split_once('?')
        .map_or((url, None), |(b, q)| (b, Some(q)));
    let head = match base.find("://").map(|at| at + 3) {
        Some(start) => match base[start..].find('/') {
            Some(slash) => &base[..start + slash],
            None => base,
        },
        None => base,
    };
    match query {
        Some(q) => format!("{head}/{name}?{q}"),
        None => format!("{head}/{name}"),
    }
}

/// The URL of a database on the server the tests use, from which others
/// are made.
fn admin_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| {
        if let Ok(url) = std::env::var("RACE_TEST_DATABASE") {
            return url;
        }
        let local: SocketAddr = LOCAL.parse().expect("an address");
        if TcpStream::connect_timeout(&local, Duration::from_secs(1)).is_ok() {
            let mut why = Vec::new();
            for user in ["root", "postgres"] {
                for db in ["test", "postgres"] {
                    let url = format!("postgres://{user}@{LOCAL}/{db}");
                    match execute(&url, "SELECT 1") {
                        Ok(()) => return url,
                        Err(e) => why.push(format!("{user}@{db}: {e}")),
                    }
                }
            }
            eprintln!(
                "PostgreSQL on {LOCAL} answers but takes no test user ({}); making a cluster",
                why.join("; ")
            );
        }
        Cluster::start()
    })
}

impl TestDb {
    /// A fresh, empty database.
    ///
    /// # Panics
    ///
    /// When no PostgreSQL server can be had or the database cannot be
    /// made; the message says why.
    pub fn new() -> TestDb {
        static N: AtomicU32 = AtomicU32::new(0);
        let admin = admin_url().to_owned();
        let name = format!(
            "race_test_{}_{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        execute(&admin, &format!("DROP DATABASE IF EXISTS {name}"))
            .and_then(|()| execute(&admin, &format!("CREATE DATABASE {name}")))
            .unwrap_or_else(|e| panic!("cannot make the test database {name}: {e}"));
        TestDb {
            url: with_name(&admin, &name),
            name,
            admin,
        }
    }

    /// Runs `sql` on this database.
    ///
    /// # Panics
    ///
    /// When it fails.
    pub fn execute(&self, sql: &str) {
        execute(&self.url, sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Err(e) = execute(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        ) {
            eprintln!("cannot drop the test database {}: {e}", self.name);
        }
    }
}

/// A throwaway cluster in a temporary folder.
struct Cluster;

impl Cluster {
    /// Debian's PostgreSQL programs, installed when missing.
    fn bin() -> PathBuf {
        let find = || {
            let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path().join("bin"))
                .filter(|bin| bin.join("initdb").exists())
                .collect();
            found.sort();
            found.pop()
        };
        if let Some(bin) = find() {
            return bin;
        }
        for args in [
            &["update"][..],
            &["install", "-y", "--no-install-recommends", "postgresql"][..],
        ] {
            let out = Command::new("apt-get")
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .output()
                .unwrap_or_else(|e| panic!("the PostgreSQL tests need apt-get: {e}"));
            assert!(
                out.status.success(),
                "the PostgreSQL tests need a server: set RACE_TEST_DATABASE, run one on {LOCAL}, \
                 or install Debian's postgresql (`apt-get {}` failed: {})",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        find().expect("postgresql is installed but has no initdb")
    }

    /// Makes and starts the cluster, stopped when this process ends; its
    /// URL.
    #[expect(
        clippy::zombie_processes,
        reason = "the stopper outlives this process: it waits for it to end"
    )]
    fn start() -> String {
        let bin = Cluster::bin();
        let dir = std::env::temp_dir().join(format!("race-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder for the cluster");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        // PostgreSQL refuses to run as root: the cluster is the postgres
        // user's (made by the package).
        let as_root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
        let run = |program: &Path, args: &[&str]| {
            let mut cmd = if as_root {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", "postgres", "--"]).arg(program);
                cmd
            } else {
                Command::new(program)
            };
            let out = cmd
                .args(args)
                .stdin(Stdio::null())
                .output()
                .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
            assert!(
                out.status.success(),
                "{} {args:?} failed: {}",
                program.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        };
        if as_root {
            let chown = Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&dir)
                .status()
                .expect("chown");
            assert!(chown.success(), "cannot give {} to postgres", dir.display());
        }
        let data = dir.join("data");
        let data_text = data.display().to_string();
        let dir_text = dir.display().to_string();
        run(
            &bin.join("initdb"),
            &["-D", &data_text, "-U", "postgres", "--auth=trust"],
        );
        let options = format!("-p {port} -k {dir_text} -c listen_addresses=127.0.0.1");
        let log = dir.join("log").display().to_string();
        run(
            &bin.join("pg_ctl"),
            &["-D", &data_text, "-o", &options, "-l", &log, "-w", "start"],
        );
        // Stopped, and its folder removed, once this process is gone.
        let stop = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
             {runner}{pg_ctl} -D {data_text} -m immediate stop; rm -rf {dir_text}",
            pid = std::process::id(),
            runner = if as_root {
                "runuser -u postgres -- "
            } else {
                ""
            },
            pg_ctl = bin.join("pg_ctl").display(),
        );
        Command::new("sh")
            .args(["-c", &stop])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the cluster's stopper");
        let url = format!("postgres://postgres@127.0.0.1:{port}/postgres");
        let deadline = Instant::now() + Duration::from_secs(60);
        while let Err(e) = execute(&url, "SELECT 1") {
            assert!(
                Instant::now() < deadline,
                "the cluster does not answer: {e}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        url
    }
}
