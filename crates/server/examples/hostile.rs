//! The hostile-load attacks of `docs/server.md`, repeated against a running
//! `race serve`, while `/healthz` is asked every 50 ms and the server's
//! resident memory is read every 100 ms. Prints, for each attack, the
//! peak and final memory and the `/healthz` answer times (p50, p99, max,
//! and how many went unanswered within 2 s).
//!
//! ```text
//! race serve --port 8080 --data DIR &
//! cargo run --release -p race-server --example hostile -- http://127.0.0.1:8080 PID
//! ```
//!
//! The attacks (each from many loopback addresses, 127.0.0.0/8, so that
//! they meet the server's caps in total and not only per address):
//!
//! 1. `heads`: 2,000 connections each sending an unfinished request head
//!    of 385 KiB, held for 10 s;
//! 2. `long games`: 40 friend games under `path=murray` (long games:
//!    hundreds of plies, so a state carries a long log) played as fast as
//!    the server answers for 20 s, the first 40 with one event stream
//!    each that is never read;
//! 3. `streams`: 1,500 event streams never read, on the first 10 of the
//!    games being played, held for 40 s (past the 30 s `--stall`).
//!
//! Linux only (memory from `/proc/PID/status`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "an example stops at the first thing that goes wrong"
)]

use std::error::Error;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A connection to the server from the loopback address 127.0.A.B.
async fn connect(server: SocketAddr, a: u8, b: u8) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::V4(SocketAddrV4::new(
        Ipv4Addr::new(127, 0, a, b),
        0,
    )))?;
    socket.connect(server).await
}

/// One request on its own connection: the status and the body.
async fn call(
    server: SocketAddr,
    from: (u8, u8),
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Vec<u8>), Box<dyn Error + Send + Sync>> {
    let mut stream = connect(server, from.0, from.1).await?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await?;
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).await?;
    let text = String::from_utf8_lossy(&reply);
    let status = text
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or("no status line")?;
    let at = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no head end")?
        + 4;
    Ok((status, reply.split_off(at)))
}

/// The server's resident memory in MiB.
fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// What the probes saw during one attack.
#[derive(Default)]
struct Seen {
    healthz_ms: Vec<f64>,
    unanswered: u32,
    rss_peak: f64,
}

/// Asks `/healthz` every 50 ms and reads the memory every 100 ms until
/// `stop`, into `seen`.
async fn probe(server: SocketAddr, pid: u32, stop: Arc<AtomicBool>, seen: Arc<Mutex<Seen>>) {
    let mut tick = 0u32;
    while !stop.load(Ordering::Relaxed) {
        let start = Instant::now();
        let answer = tokio::time::timeout(
            Duration::from_secs(2),
            call(server, (255, 1), "GET", "/healthz", None, None),
        )
        .await;
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        {
            let mut seen = seen.lock().expect("probe lock");
            match answer {
                Ok(Ok((200, _))) => seen.healthz_ms.push(ms),
                _ => seen.unanswered += 1,
            }
            if tick.is_multiple_of(2) {
                let rss = rss_mib(pid).unwrap_or(0.0);
                seen.rss_peak = seen.rss_peak.max(rss);
            }
        }
        tick += 1;
        tokio::time::sleep(Duration::from_millis(50).saturating_sub(start.elapsed())).await;
    }
}

/// The `q`-quantile of sorted `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    v.get(((v.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or(f64::NAN)
}

/// A friend game with both seats held: its id and the two tokens.
struct Seated {
    id: String,
    light: String,
    dark: String,
}

/// Creates a friend game of the Royal Game of Ur and joins it, from 127.0.A.B.
async fn seated(
    server: SocketAddr,
    from: (u8, u8),
    rules: &str,
) -> Result<Seated, Box<dyn Error + Send + Sync>> {
    let body =
        serde_json::json!({"game": "ur", "rules": rules, "opponent": "friend", "side": "light"});
    let (status, reply) = call(server, from, "POST", "/api/games", None, Some(&body)).await?;
    if status != 201 {
        return Err(format!("create answered {status}").into());
    }
    let created: Value = serde_json::from_slice(&reply)?;
    let id = created["id"].as_str().ok_or("no id")?.to_owned();
    let light = created["token"].as_str().ok_or("no token")?.to_owned();
    let invite = created["invite"]
        .as_str()
        .and_then(|i| i.split_once("#join="))
        .ok_or("no invite")?
        .1;
    let join = serde_json::json!({"invite": invite});
    let path = format!("/api/games/{id}/join");
    let (status, reply) = call(server, from, "POST", &path, None, Some(&join)).await?;
    if status != 200 {
        return Err(format!("join answered {status}").into());
    }
    let joined: Value = serde_json::from_slice(&reply)?;
    let dark = joined["token"].as_str().ok_or("no token")?.to_owned();
    Ok(Seated { id, light, dark })
}

/// Plays friend games from 127.0.A.B as fast as the server answers until
/// `stop`, a new one when one ends; each new game's id goes to `games`.
async fn player(
    server: SocketAddr,
    from: (u8, u8),
    rules: &'static str,
    stop: Arc<AtomicBool>,
    moves: Arc<AtomicU64>,
    games: tokio::sync::mpsc::UnboundedSender<String>,
) {
    while !stop.load(Ordering::Relaxed) {
        let Ok(game) = seated(server, from, rules).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let _ = games.send(game.id.clone());
        let path = format!("/api/games/{}", game.id);
        let Ok((200, reply)) = call(server, from, "GET", &path, None, None).await else {
            continue;
        };
        let mut state: Value = serde_json::from_slice(&reply).unwrap_or_default();
        while !stop.load(Ordering::Relaxed) && state["status"] == "playing" {
            let ply = state["ply"].as_u64().unwrap_or(0);
            let legal = state["legal"].as_array().cloned().unwrap_or_default();
            let Some(mv) = legal.get(ply as usize % legal.len().max(1)) else {
                break;
            };
            let token = if state["side"] == "light" {
                &game.light
            } else {
                &game.dark
            };
            let body = serde_json::json!({"ply": ply, "move": mv});
            let path = format!("/api/games/{}/moves", game.id);
            match call(server, from, "POST", &path, Some(token), Some(&body)).await {
                Ok((200, reply)) => {
                    moves.fetch_add(1, Ordering::Relaxed);
                    state = serde_json::from_slice(&reply).unwrap_or_default();
                }
                _ => break,
            }
        }
    }
}

/// An event stream on `id` from 127.0.A.B that is never read; `None` when
/// it could not be opened.
async fn unread_stream(server: SocketAddr, from: (u8, u8), id: &str) -> Option<TcpStream> {
    let mut stream = connect(server, from.0, from.1).await.ok()?;
    let head = format!("GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\n\r\n");
    stream.write_all(head.as_bytes()).await.ok()?;
    Some(stream)
}

/// Runs `attack` with the probes around it and prints what they saw.
async fn measured<F: std::future::Future<Output = String>>(
    name: &str,
    server: SocketAddr,
    pid: u32,
    attack: F,
) {
    let before = rss_mib(pid).unwrap_or(f64::NAN);
    let (stop, seen) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(Mutex::new(Seen::default())),
    );
    let prober = tokio::spawn(probe(server, pid, stop.clone(), seen.clone()));
    let what = attack.await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    stop.store(true, Ordering::Relaxed);
    let _ = prober.await;
    let after = rss_mib(pid).unwrap_or(f64::NAN);
    let mut seen = std::mem::take(&mut *seen.lock().expect("probe lock"));
    seen.healthz_ms.sort_by(f64::total_cmp);
    println!(
        "{name:<11} rss {before:.0} -> peak {:.0} -> {after:.0} MiB 3 s after; healthz {} answered, \
         p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms, {} unanswered in 2 s; {what}",
        seen.rss_peak,
        seen.healthz_ms.len(),
        quantile(&seen.healthz_ms, 0.5),
        quantile(&seen.healthz_ms, 0.99),
        seen.healthz_ms.last().copied().unwrap_or(f64::NAN),
        seen.unanswered,
    );
}

/// Attack 1: unfinished 385-KiB request heads.
async fn heads(server: SocketAddr) -> String {
    let refused = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for n in 0..2000u32 {
        let refused = refused.clone();
        tasks.push(tokio::spawn(async move {
            let Ok(mut stream) = connect(server, 1, (n % 8 + 1) as u8).await else {
                return;
            };
            let _ = stream
                .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: ")
                .await;
            let chunk = vec![b'a'; 16 * 1024];
            for _ in 0..24 {
                if stream.write_all(&chunk).await.is_err() {
                    break;
                }
            }
            let mut reply = [0u8; 12];
            let read = tokio::time::timeout(Duration::from_secs(10), stream.read_exact(&mut reply));
            if let Ok(Ok(12)) = read.await
                && reply.starts_with(b"HTTP/1.1 4")
            {
                refused.fetch_add(1, Ordering::Relaxed);
            }
            tokio::time::sleep(Duration::from_secs(10)).await;
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    format!(
        "{} of 2000 heads refused with a 4xx",
        refused.load(Ordering::Relaxed)
    )
}

/// Plays `games` games under `rules` from their own addresses for
/// `seconds`, holding `per_game` unread streams on each of the first
/// `games` games started; returns the moves accepted and the streams
/// opened.
async fn played_with_streams(
    server: SocketAddr,
    rules: &'static str,
    games: u8,
    per_game: u32,
    seconds: u64,
) -> String {
    let (stop, moves) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(AtomicU64::new(0)),
    );
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let players: Vec<_> = (0..games)
        .map(|g| {
            tokio::spawn(player(
                server,
                (2, g + 1),
                rules,
                stop.clone(),
                moves.clone(),
                tx.clone(),
            ))
        })
        .collect();
    drop(tx);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut held = Vec::new();
    let mut opened = 0u32;
    let mut next = 0u32;
    while let Ok(Some(id)) = tokio::time::timeout(
        deadline.saturating_duration_since(Instant::now()),
        rx.recv(),
    )
    .await
    {
        if next >= u32::from(games) * per_game {
            continue;
        }
        for _ in 0..per_game {
            // 50 streams an address, under the per-address cap of 64.
            let from = (3 + (next / (50 * 250)) as u8, (next / 50 % 250) as u8 + 1);
            next += 1;
            if let Some(s) = unread_stream(server, from, &id).await {
                opened += 1;
                held.push(s);
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    for p in players {
        let _ = p.await;
    }
    drop(held);
    format!(
        "{} moves accepted, {opened} unread streams opened",
        moves.load(Ordering::Relaxed)
    )
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "URL PID (e.g. http://127.0.0.1:8080 12345)";
    let url = args.next().ok_or(usage)?;
    let pid: u32 = args.next().ok_or(usage)?.parse()?;
    let server: SocketAddr = url
        .strip_prefix("http://")
        .ok_or(usage)?
        .trim_end_matches('/')
        .parse()?;
    rss_mib(pid).ok_or("no such process")?;
    measured("heads", server, pid, heads(server)).await;
    measured(
        "long games",
        server,
        pid,
        played_with_streams(server, "path=murray", 40, 1, 20),
    )
    .await;
    measured(
        "streams",
        server,
        pid,
        played_with_streams(server, "path=murray", 10, 150, 40),
    )
    .await;
    Ok(())
}
