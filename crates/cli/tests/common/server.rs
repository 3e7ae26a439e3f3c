//! A `race serve` started for a test, and a plain HTTP/1.1 client over
//! `std::net::TcpStream` that can send anything (bytes that are not UTF-8,
//! bodies that lie about their length, a request that never ends).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

/// How long a test waits for anything before it fails.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// The time now in Unix seconds.
pub fn unix_now() -> i64 {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock is after 1970")
        .as_secs();
    i64::try_from(secs).expect("seconds fit")
}

/// Waits until the clock is past `secs` (Unix seconds), so that a change
/// made next is stamped later.
pub fn past(secs: i64) {
    let deadline = Instant::now() + PATIENCE;
    while unix_now() <= secs {
        assert!(Instant::now() < deadline, "the clock stands still");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A scratch folder, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "race-serve-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running `race serve`.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// Where its standard error goes.
    pub log: PathBuf,
}

impl Server {
    /// Starts `race serve` on 127.0.0.1 port 0 with `data` as its folder, no bot pace,
    /// no create limit, and `extra` arguments (which may replace those),
    /// and waits for its `listening on` line.
    pub fn start(data: &Path, extra: &[&str]) -> Server {
        Server::start_with(Command::new(env!("CARGO_BIN_EXE_race")), data, extra)
    }

    /// As [`Server::start`], with `command` running the server (another
    /// build of `race`, or a shell that sets limits and runs it).
    pub fn start_with(mut command: Command, data: &Path, extra: &[&str]) -> Server {
        static N: AtomicU32 = AtomicU32::new(0);
        let log = data.with_extension(format!("log{}", N.fetch_add(1, Ordering::Relaxed)));
        let mut args = vec!["serve"];
        for (flag, default) in [
            ("--addr", "127.0.0.1:0"),
            ("--bot-pace", "0"),
            ("--create-limit", "0"),
        ] {
            if !extra.contains(&flag) {
                args.extend([flag, default]);
            }
        }
        args.extend_from_slice(extra);
        let mut child = command
            .args(&args)
            .arg("--data")
            .arg(data)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("log file"))
            .spawn()
            .expect("race serve starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(PATIENCE).unwrap_or_else(|_| {
            panic!(
                "no listening line; stderr: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            )
        });
        let addr = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|a| a.strip_suffix('/'))
            .unwrap_or_else(|| {
                panic!(
                    "unexpected first line {line:?}; stderr: {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            })
            .to_owned();
        Server { child, addr, log }
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the server at once (SIGKILL): no chance to finish anything.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Asks the server to stop (SIGTERM) and waits for it.
    pub fn terminate(&mut self) -> ExitStatus {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What the server wrote to standard error so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends raw bytes as a request and reads the whole reply.
    ///
    /// The bytes are written from another thread while this one reads: a
    /// server may answer (404, 413) before the body is sent and close the
    /// connection, and the reply must be read before the refused rest of
    /// the body makes the connection reset.
    pub fn raw(&self, request: &[u8]) -> Reply {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let mut writer = stream.try_clone().expect("clone the connection");
        let request = request.to_vec();
        let sender = std::thread::spawn(move || {
            // A server that answered early may close before taking it all.
            let _ = writer.write_all(&request);
        });
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        let _ = sender.join();
        Reply::parse(&bytes)
    }

    /// A request with a body and headers (`Connection: close` added).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Reply {
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.raw(&bytes)
    }

    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, &[], b"")
    }

    /// A JSON POST, with a bearer token if given.
    pub fn post(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        self.send("POST", path, token, body)
    }

    /// A JSON request of any method, with a bearer token if given.
    pub fn send(&self, method: &str, path: &str, token: Option<&str>, body: &Value) -> Reply {
        let auth = token.map(|t| format!("Bearer {t}"));
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(auth) = &auth {
            headers.push(("Authorization", auth));
        }
        self.request(method, path, &headers, body.to_string().as_bytes())
    }

    /// The state of a game.
    pub fn state(&self, id: &str) -> Value {
        let reply = self.get(&format!("/api/games/{id}"));
        assert_eq!(reply.status, 200, "{}", reply.text());
        reply.json()
    }

    /// Waits until `ready` holds of the game's state, and returns it.
    pub fn wait_for(&self, id: &str, ready: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let state = self.state(id);
            if ready(&state) {
                return state;
            }
            assert!(Instant::now() < deadline, "gave up waiting: {state}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Opens the game's event stream.
    pub fn events(&self, id: &str) -> Events {
        self.stream(&format!("/api/games/{id}/events"))
    }

    /// Opens an event stream at `path` (with its query).
    pub fn stream(&self, path: &str) -> Events {
        self.stream_with(path, None)
    }

    /// Opens an event stream at `path`, sending a seat's token if given.
    pub fn stream_with(&self, path: &str, token: Option<&str>) -> Events {
        let mut stream = TcpStream::connect(&self.addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let auth = token.map_or_else(String::new, |t| format!("Authorization: Bearer {t}\r\n"));
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\n{auth}Connection: close\r\n\r\n",
            self.addr
        )
        .expect("send");
        let mut reader = BufReader::new(stream);
        let mut status = String::new();
        reader.read_line(&mut status).expect("status line");
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        let mut chunked = false;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("header");
            if line.trim().is_empty() {
                break;
            }
            let lower = line.to_ascii_lowercase();
            if lower.starts_with("transfer-encoding:") && lower.contains("chunked") {
                chunked = true;
            }
            if lower.starts_with("content-type:") {
                assert!(lower.contains("text/event-stream"), "{line}");
            }
        }
        Events {
            reader,
            chunked,
            pending: Vec::new(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
        let err = self.stderr();
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "the server panicked: {err}"
        );
    }
}

/// An HTTP reply.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    fn parse(bytes: &[u8]) -> Reply {
        let split = bytes
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(bytes)));
        let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .expect("status");
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        let mut body = bytes[split + 4..].to_vec();
        if headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"))
        {
            body = dechunk(&body);
        }
        Reply {
            status,
            headers,
            body,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }

    /// Checks that this is the contract's error, and returns it.
    pub fn error(&self, status: u16, code: &str) -> Value {
        assert_eq!(self.status, status, "{}", self.text());
        assert_eq!(
            self.header("content-type"),
            Some("application/json"),
            "{}",
            self.text()
        );
        let v = self.json();
        assert_eq!(v["error"]["code"], code, "{v}");
        assert!(
            v["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{v}"
        );
        v
    }
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = body.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&body[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = end + 2;
        out.extend_from_slice(&body[start..(start + size).min(body.len())]);
        body = &body[(start + size + 2).min(body.len())..];
    }
}

/// A stream of server-sent events.
pub struct Events {
    reader: BufReader<TcpStream>,
    chunked: bool,
    pending: Vec<u8>,
}

impl Events {
    fn fill(&mut self) -> bool {
        if self.chunked {
            let mut size = String::new();
            if self.reader.read_line(&mut size).unwrap_or(0) == 0 {
                return false;
            }
            let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
                return false;
            };
            if n == 0 {
                return false;
            }
            let mut data = vec![0; n + 2];
            if self.reader.read_exact(&mut data).is_err() {
                return false;
            }
            self.pending.extend_from_slice(&data[..n]);
            true
        } else {
            let mut data = [0u8; 4096];
            match self.reader.read(&mut data) {
                Ok(0) | Err(_) => false,
                Ok(n) => {
                    self.pending.extend_from_slice(&data[..n]);
                    true
                }
            }
        }
    }

    /// The first `state` event of which `ready` holds; panics when the
    /// stream ends first.
    pub fn state_where(&mut self, ready: impl Fn(&Value) -> bool) -> Value {
        loop {
            let state = self.next_state().expect("the stream ended first");
            if ready(&state) {
                return state;
            }
        }
    }

    /// The next `state` event's JSON; `None` when the stream ends.
    pub fn next_state(&mut self) -> Option<Value> {
        loop {
            let (name, data) = self.next_event()?;
            if name == "state" {
                return Some(data);
            }
        }
    }

    /// The next event's name and JSON (comments skipped); `None` when the
    /// stream ends.
    pub fn next_event(&mut self) -> Option<(String, Value)> {
        loop {
            while let Some(end) = self.pending.windows(2).position(|w| w == b"\n\n") {
                let event: Vec<u8> = self.pending.drain(..end + 2).collect();
                let text = String::from_utf8_lossy(&event);
                if let Some((name, data)) = text
                    .strip_prefix("event: ")
                    .and_then(|rest| rest.split_once("\ndata: "))
                {
                    let data = serde_json::from_str(data.trim_end()).expect("event JSON");
                    return Some((name.to_owned(), data));
                }
            }
            if !self.fill() {
                return None;
            }
        }
    }
}

/// The lowercase hex SHA-256 of the bytes a hex text spells.
pub fn sha256_of_hex(hex: &str) -> String {
    use sha2::{Digest, Sha256};
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect();
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
