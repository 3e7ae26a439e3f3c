//! `race serve` from outside: the real binary on 127.0.0.1 with port 0 and
//! a temporary data folder, driven over plain HTTP. One test a guarantee of
//! the server: games played to the end with fair dice, crash safety,
//! retries, seats, hostile requests; and the event streams, shutdown,
//! metrics and the create limit.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod common;

use common::race;
use common::server::{PATIENCE, Scratch, Server, past, sha256_of_hex, unix_now};

const FINKEL2: &str = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2";

/// A seat: the game's id and the seat's token.
struct Seat {
    id: String,
    side: String,
    token: String,
}

/// Creates a game and returns the creator's seat, the invite token (for a
/// friend game) and the reply.
fn create(server: &Server, body: Value) -> (Seat, Option<String>, Value) {
    let reply = server.post("/api/games", None, &body);
    assert_eq!(reply.status, 201, "{}", reply.text());
    let v = reply.json();
    let invite = v["invite"].as_str().map(|link| {
        let (path, token) = link.split_once("#join=").expect("an invite link");
        assert_eq!(path, format!("/g/{}", v["id"].as_str().unwrap()));
        token.to_owned()
    });
    let seat = Seat {
        id: v["id"].as_str().unwrap().to_owned(),
        side: v["seat"].as_str().unwrap().to_owned(),
        token: v["token"].as_str().unwrap().to_owned(),
    };
    (seat, invite, v)
}

/// A friend game with both seats taken: (light, dark).
fn friend_game(server: &Server, game: &str) -> (Seat, Seat) {
    let (creator, invite, _) = create(server, json!({"game": game, "opponent": "friend"}));
    let invite = invite.expect("a friend game has an invite");
    let reply = server.post(
        &format!("/api/games/{}/join", creator.id),
        None,
        &json!({ "invite": invite }),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let v = reply.json();
    assert_eq!(v["state"]["status"], "playing");
    let friend = Seat {
        id: creator.id.clone(),
        side: v["seat"].as_str().unwrap().to_owned(),
        token: v["token"].as_str().unwrap().to_owned(),
    };
    assert_ne!(friend.side, creator.side);
    if creator.side == "light" {
        (creator, friend)
    } else {
        (friend, creator)
    }
}

/// The seat to move and the other one, by the state's `side`.
fn by_turn<'a>(state: &Value, light: &'a Seat, dark: &'a Seat) -> (&'a Seat, &'a Seat) {
    if state["side"] == "light" {
        (light, dark)
    } else {
        (dark, light)
    }
}

fn play(server: &Server, seat: &Seat, ply: &Value, mv: &str) -> common::server::Reply {
    server.post(
        &format!("/api/games/{}/moves", seat.id),
        Some(&seat.token),
        &json!({"ply": ply, "move": mv}),
    )
}

/// The moves of a state's log, with their plies.
fn moves_of(state: &Value) -> Vec<(u64, String)> {
    state["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| Some((e["ply"].as_u64()?, e["move"].as_str()?.to_owned())))
        .collect()
}

/// The fair-dice check of a finished game: the seed shown matches the
/// commitment shown from the start, the record carries it, and `race
/// replay` replays the record to the same throws, position and result.
fn check_finished(server: &Server, scratch: &Scratch, state: &Value, commitment: &str) {
    assert_eq!(state["status"], "over");
    assert_eq!(
        state["commitment"], commitment,
        "the commitment never changes"
    );
    let seed = state["seed"].as_str().expect("the seed once over");
    assert_eq!(seed.len(), 64);
    assert_eq!(sha256_of_hex(seed), commitment);
    let id = state["id"].as_str().unwrap();
    let record = server.get(&format!("/api/games/{id}/record"));
    assert_eq!(record.status, 200);
    assert!(
        record
            .header("content-type")
            .unwrap()
            .starts_with("text/plain")
    );
    let text = record.text();
    assert!(text.contains(&format!("[seed {seed}]\n")), "{text}");
    let file = scratch.path(&format!("{id}.txt"));
    std::fs::write(&file, &text).unwrap();
    let run = race(&["replay", file.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let replayed: Value = serde_json::from_str(&run.out).unwrap();
    assert_eq!(replayed["over"], true);
    assert_eq!(replayed["result"], state["result"]);
    assert_eq!(replayed["position"], state["position"]);
    assert_eq!(replayed["key"], state["key"]);
    assert_eq!(replayed["ply"], state["ply"]);
    assert_eq!(replayed["record"].as_str().unwrap(), text);
}

/// Plays a bot game as `side` (the first legal move each time) to the end.
fn play_against_bot(server: &Server, scratch: &Scratch, body: Value) -> Value {
    let (me, _, created) = create(server, body);
    let commitment = created["state"]["commitment"].as_str().unwrap().to_owned();
    assert!(created["state"]["seed"].is_null());
    loop {
        let state = server.wait_for(&me.id, |s| {
            s["status"] == "over" || s["side"].as_str() == Some(me.side.as_str())
        });
        if state["status"] == "over" {
            check_finished(server, scratch, &state, &commitment);
            return state;
        }
        assert!(state["seed"].is_null(), "no seed while the game is on");
        let record = server.get(&format!("/api/games/{}/record", me.id)).text();
        assert!(!record.contains("[seed"), "{record}");
        let mv = state["legal"][0].as_str().unwrap();
        let reply = play(server, &me, &state["ply"], mv);
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
}

#[test]
fn games_against_the_bot_play_to_the_end_with_fair_dice() {
    let scratch = Scratch::new("bot");
    let server = Server::start(&scratch.path("data"), &[]);
    for (game, side) in [
        ("ur", "light"),
        ("ur", "dark"),
        ("senet", "light"),
        ("senet", "dark"),
    ] {
        let end = play_against_bot(
            &server,
            &scratch,
            json!({"game": game, "opponent": "bot", "level": 1, "side": side}),
        );
        let bot = if side == "light" { "dark" } else { "light" };
        assert_eq!(end["seats"][bot], "bot:1");
        assert_eq!(end["seats"][side], "person");
    }
    // The top level thinks longer, on threads of its own; a few moves show
    // it plays.
    let (me, _, _) = create(&server, json!({"game": "ur", "side": "light"}));
    let state = server.wait_for(&me.id, |s| s["side"] == "light");
    assert_eq!(state["seats"]["dark"], "bot:4");
}

#[test]
fn friend_games_play_to_the_end_with_fair_dice() {
    let scratch = Scratch::new("friend");
    let server = Server::start(&scratch.path("data"), &[]);
    for game in ["ur", "senet"] {
        let (light, dark) = friend_game(&server, game);
        let mut state = server.state(&light.id);
        let commitment = state["commitment"].as_str().unwrap().to_owned();
        let mut n = 0usize;
        while state["status"] == "playing" {
            let seat = if state["side"] == "light" {
                &light
            } else {
                &dark
            };
            let legal = state["legal"].as_array().unwrap();
            let mv = legal[n % legal.len()].as_str().unwrap();
            let reply = play(&server, seat, &state["ply"], mv);
            assert_eq!(reply.status, 200, "{}", reply.text());
            let next = reply.json();
            assert!(next["ply"].as_u64() > state["ply"].as_u64());
            assert_eq!(next, server.state(&light.id), "the reply is the state");
            state = next;
            n += 1;
        }
        check_finished(&server, &scratch, &state, &commitment);
    }
}

/// A server given the table of `rules`, solved by `race solve`.
fn serve_a_table(scratch: &Scratch, rules: &str) -> Server {
    let table = scratch.path("rules.table");
    let run = race(&["solve", rules, "--out", table.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.err);
    Server::start(&scratch.path("data"), &["--table", table.to_str().unwrap()])
}

#[test]
fn the_perfect_bot_plays_from_a_table() {
    let scratch = Scratch::new("perfect");
    let server = serve_a_table(&scratch, FINKEL2);
    let end = play_against_bot(
        &server,
        &scratch,
        json!({"game": "ur", "rules": FINKEL2, "level": "perfect", "side": "light"}),
    );
    assert_eq!(end["seats"]["dark"], "bot:perfect");
    // Other rules have no table, and Senet no perfect level.
    for body in [
        json!({"game": "ur", "level": "perfect"}),
        json!({"game": "senet", "level": "perfect"}),
    ] {
        server
            .post("/api/games", None, &body)
            .error(400, "bad_request");
    }
    let state = server.state(end["id"].as_str().unwrap());
    assert!(state["light_chance"].is_number(), "{state}");
}

/// Plays a game of `rules` against the perfect bot (`side` is the
/// person's) to the end, and checks the review of it: the table's
/// win-chance graph, a chance after every ply, and the bot losing nothing.
fn play_perfect_and_review(server: &Server, scratch: &Scratch, rules: &str, side: &str) -> Value {
    let end = play_against_bot(
        server,
        scratch,
        json!({"game": "ur", "rules": rules, "level": "perfect", "side": side}),
    );
    let bot = if side == "light" { "dark" } else { "light" };
    assert_eq!(end["seats"][bot], "bot:perfect");
    let id = end["id"].as_str().unwrap();
    let plies = server.get(&format!("/api/games/{id}/plies")).json();
    let analysis = &plies["analysis"];
    let chances = analysis["light_chances"].as_array().expect("a graph");
    assert_eq!(
        chances.len(),
        end["ply"].as_u64().unwrap() as usize,
        "{plies}"
    );
    assert!(
        chances
            .iter()
            .all(|c| c.as_f64().is_some_and(|c| (0.0..=1.0).contains(&c))),
        "{plies}"
    );
    assert!(
        analysis[bot]["lost"].as_f64().unwrap().abs() < 1e-5,
        "{plies}"
    );
    end
}

/// A blitz table (a capture throws again, rosettes not safe): the perfect
/// bot plays from it and the review of a finished game has the table's
/// win-chance graph, a chance after every ply.
#[test]
fn a_blitz_table_plays_and_reviews() {
    const BLITZ2: &str = "board=standard path=masters dice=4 zero_rolls=0 safe_rosettes=0 \
                          rosette_again=1 capture_again=1 pieces=2";
    let scratch = Scratch::new("blitz");
    let server = serve_a_table(&scratch, BLITZ2);
    play_perfect_and_review(&server, &scratch, BLITZ2, "dark");
}

/// The permission bits of a file or folder.
fn mode_of(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Whether `server` offers the bot level `perfect` for `rules` (a game
/// against it can be created).
fn offers_perfect(server: &Server, rules: &str) -> bool {
    let body = json!({"game": "ur", "rules": rules, "level": "perfect"});
    let reply = server.post("/api/games", None, &body);
    match reply.status {
        201 => true,
        400 => false,
        other => panic!("{other}: {}", reply.text()),
    }
}

/// A data folder `race solve --data` makes is one `race serve --data`
/// takes (the folders their owner's alone), and the table found there is
/// served with no `--table`: `perfect` and the review graph. A half table
/// a killed write left beside it is neither listed by `race tables` nor
/// loaded, and the server removes it at start. A table `race table
/// import` puts into a new data folder is served the same way.
#[test]
fn a_data_folder_race_solve_makes_is_served_with_its_tables() {
    let scratch = Scratch::new("folder");
    let data = scratch.path("data");
    let d = data.to_str().unwrap();
    let run = race(&["solve", "finkel2p", "--data", d]);
    assert_eq!(run.code, 0, "{}", run.err);
    let tables = data.join("tables");
    let table = tables.join("finkel2p.p16.table");
    assert_eq!(mode_of(&data), 0o700);
    assert_eq!(mode_of(&tables), 0o700);
    assert_eq!(mode_of(&table), 0o600);
    // Process ids stop below 2^22: no writer of this one runs.
    let half = tables.join(".finkel.p16.table.4999999.0.tmp");
    std::fs::write(&half, &std::fs::read(&table).unwrap()[..100]).unwrap();
    let listed = race(&["tables", "--data", d, "--json"]);
    assert_eq!(listed.code, 0, "{}", listed.err);
    let listed: Value = serde_json::from_str(&listed.out).unwrap();
    let files: Vec<&str> = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, [table.to_str().unwrap()], "{listed}");
    let server = Server::start(&data, &[]);
    assert!(!half.exists(), "{}", server.stderr());
    assert!(server.stderr().contains("left by a write that was killed"));
    play_perfect_and_review(&server, &scratch, FINKEL2, "light");
    assert!(!offers_perfect(&server, "finkel"), "no table of finkel");
    drop(server);
    // Out as RoyalUr's file, and imported into a new data folder.
    let rgu = scratch.path("finkel2p.rgu");
    let r = rgu.to_str().unwrap();
    let t = table.to_str().unwrap();
    let run = race(&["table", "export", t, "--format", "rgu", "--out", r]);
    assert_eq!(run.code, 0, "{}", run.err);
    let imported = scratch.path("imported");
    let run = race(&["table", "import", r, "--data", imported.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert_eq!(mode_of(&imported), 0o700);
    let server = Server::start(&imported, &[]);
    assert!(offers_perfect(&server, FINKEL2), "{}", server.stderr());
}

/// The phase `/metrics` gives the background solve in, with its states
/// settled and in all.
fn solve_phase(server: &Server) -> Option<(String, u64, u64)> {
    let text = server.get("/metrics").text();
    let number = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.split_once("} ")?.1.parse().ok())
    };
    let phase = text.lines().find_map(|l| {
        let rest = l.strip_prefix("race_table_solve_phase{")?;
        let (_, phase) = rest.split_once("phase=\"")?;
        Some(phase.split_once('"')?.0.to_owned())
    })?;
    Some((
        phase,
        number("race_table_solve_states_done{")?,
        number("race_table_solve_states{")?,
    ))
}

/// `race serve --solve finkel2p` with no table of it: the server comes
/// up, solves the table in the background into the data folder's
/// `tables/` and then offers `perfect` and the review graph for it; a
/// server started again on the folder finds the table there.
#[test]
fn serve_solve_makes_the_table_while_serving() {
    let scratch = Scratch::new("solving");
    let data = scratch.path("data");
    let server = Server::start(&data, &["--solve", "finkel2p"]);
    eventually("the table solved", || {
        solve_phase(&server).is_some_and(|(phase, _, _)| phase == "done")
    });
    let (_, done, states) = solve_phase(&server).unwrap();
    assert_eq!((done, states), (13112, 13112));
    let log = server.stderr();
    assert!(
        log.contains(&format!("solving the table of {FINKEL2}")),
        "{log}"
    );
    assert!(
        log.contains(&format!("table of {FINKEL2} solved in")),
        "{log}"
    );
    let table = data.join("tables").join("finkel2p.p16.table");
    assert_eq!(mode_of(&table), 0o600);
    play_perfect_and_review(&server, &scratch, FINKEL2, "dark");
    drop(server);
    let server = Server::start(&data, &["--solve", "finkel2p"]);
    assert!(offers_perfect(&server, FINKEL2));
    assert!(
        server.stderr().contains("its table is held already"),
        "{}",
        server.stderr()
    );
}

/// SIGTERM in the middle of a `--solve`: the server stops at once
/// (cleanly, exit 0) rather than finishing the solve, and leaves no table
/// under the real name; started again, it comes up without one.
#[test]
fn a_server_stopped_mid_solve_exits_and_leaves_no_table() {
    // Seconds of solving (7 s of CPU time, at the lowest priority).
    const FINKEL4: &str = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=4";
    let scratch = Scratch::new("midsolve");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &["--solve", FINKEL4]);
    eventually("the solve under way", || {
        solve_phase(&server)
            .is_some_and(|(phase, done, states)| phase == "sweeping" && done < states / 2)
    });
    let status = server.terminate();
    assert!(status.success(), "{status:?}: {}", server.stderr());
    let log = server.stderr();
    assert!(!log.contains("solved in"), "{log}");
    assert!(log.contains("stopped; the database is closed"), "{log}");
    let tables = data.join("tables");
    let left: Vec<_> = std::fs::read_dir(&tables)
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(
        left.iter().all(|n| n.to_string_lossy().starts_with('.')),
        "{left:?}"
    );
    let listed = race(&["tables", "--data", data.to_str().unwrap(), "--json"]);
    let listed: Value = serde_json::from_str(&listed.out).unwrap();
    assert_eq!(listed["tables"], json!([]), "{listed}");
    drop(server);
    let server = Server::start(&data, &[]);
    assert!(!offers_perfect(&server, FINKEL4));
}

/// The moves acknowledged, by game, each with its ply.
type Acknowledged = HashMap<String, Vec<(u64, String)>>;

/// 20 friend games played from 20 threads; the server is killed with
/// SIGKILL after at least 200 acknowledged moves and started again on the
/// same folder.
#[test]
fn a_killed_server_loses_no_acknowledged_move() {
    let scratch = Scratch::new("crash");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &[]);
    let games: Vec<(Seat, Seat)> = (0..20)
        .map(|i| friend_game(&server, if i % 2 == 0 { "ur" } else { "senet" }))
        .collect();
    let acknowledged = Arc::new(AtomicU64::new(0));
    let seen: Arc<Mutex<Acknowledged>> = Arc::default();
    let addr = server.addr.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let threads: Vec<_> = games
        .iter()
        .map(|(light, dark)| {
            let (id, tokens) = (light.id.clone(), [light.token.clone(), dark.token.clone()]);
            let (acknowledged, seen, addr, stop) = (
                Arc::clone(&acknowledged),
                Arc::clone(&seen),
                addr.clone(),
                Arc::clone(&stop),
            );
            std::thread::spawn(move || {
                let mut state: Option<Value> = None;
                while !stop.load(Ordering::Relaxed) {
                    let current = match &state {
                        Some(s) => s.clone(),
                        None => match get_json(&addr, &format!("/api/games/{id}")) {
                            Some(s) => s,
                            None => return,
                        },
                    };
                    if current["status"] != "playing" {
                        return;
                    }
                    let token = &tokens[usize::from(current["side"] != "light")];
                    let mv = current["legal"][0].as_str().unwrap().to_owned();
                    let body = json!({"ply": current["ply"], "move": mv}).to_string();
                    let Some((status, reply)) =
                        post_raw(&addr, &format!("/api/games/{id}/moves"), token, &body)
                    else {
                        return; // the server is gone: this move was not acknowledged
                    };
                    assert_eq!(status, 200, "{reply}");
                    seen.lock()
                        .unwrap()
                        .entry(id.clone())
                        .or_default()
                        .push((current["ply"].as_u64().unwrap(), mv));
                    acknowledged.fetch_add(1, Ordering::SeqCst);
                    state = Some(serde_json::from_str(&reply).unwrap());
                }
            })
        })
        .collect();
    let deadline = Instant::now() + PATIENCE;
    while acknowledged.load(Ordering::SeqCst) < 200 {
        assert!(
            Instant::now() < deadline,
            "the load did not reach 200 moves"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    server.kill();
    stop.store(true, Ordering::Relaxed);
    for t in threads {
        t.join().unwrap();
    }
    let seen = seen.lock().unwrap().clone();
    let total: usize = seen.values().map(Vec::len).sum();
    assert!(total >= 200, "{total}");

    let server = Server::start(&data, &[]);
    for (light, dark) in &games {
        let state = server.state(&light.id);
        let stored = moves_of(&state);
        let acked = seen.get(&light.id).cloned().unwrap_or_default();
        assert!(
            stored.len() >= acked.len() && stored[..acked.len()] == acked[..],
            "game {}: acknowledged {acked:?}, stored {stored:?}",
            light.id
        );
        assert!(
            stored.len() <= acked.len() + 1,
            "at most the move in flight is stored unacknowledged"
        );
        if state["status"] != "playing" {
            continue;
        }
        // The game goes on: a few more moves, then a resignation shows the
        // seed, and the throw made after the restart is the seed's.
        let restart_ply = state["ply"].as_u64().unwrap() as usize;
        let restart_roll = state["roll"].clone();
        let mut state = state;
        for _ in 0..3 {
            if state["status"] != "playing" {
                break;
            }
            let seat = if state["side"] == "light" {
                light
            } else {
                dark
            };
            let reply = play(
                &server,
                seat,
                &state["ply"],
                state["legal"][0].as_str().unwrap(),
            );
            assert_eq!(reply.status, 200, "{}", reply.text());
            state = reply.json();
        }
        if state["status"] == "playing" {
            let reply = server.post(
                &format!("/api/games/{}/resign", light.id),
                Some(&light.token),
                &json!({}),
            );
            assert_eq!(reply.status, 200, "{}", reply.text());
            state = reply.json();
        }
        let commitment = state["commitment"].as_str().unwrap().to_owned();
        check_finished(&server, &scratch, &state, &commitment);
        assert_eq!(state["log"][restart_ply]["roll"], restart_roll);
    }
}

fn get_json(addr: &str, path: &str) -> Option<Value> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    let (_, body) = text.split_once("\r\n\r\n")?;
    serde_json::from_str(body).ok()
}

/// A move sent over a fresh connection; `None` when the server is gone.
fn post_raw(addr: &str, path: &str, token: &str, body: &str) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .ok()?;
    let mut text = String::new();
    stream.read_to_string(&mut text).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, body.to_owned()))
}

#[test]
fn a_retried_move_plays_once_and_of_two_at_once_one_is_accepted() {
    let scratch = Scratch::new("retry");
    let server = Server::start(&scratch.path("data"), &[]);
    let (light, dark) = friend_game(&server, "senet");
    let mut state = server.state(&light.id);

    // The same {ply, move} twice: the second answers the current state.
    let mv = state["legal"][0].as_str().unwrap().to_owned();
    let ply = state["ply"].clone();
    let (seat, other) = by_turn(&state, &light, &dark);
    let first = play(&server, seat, &ply, &mv);
    assert_eq!(first.status, 200);
    let again = play(&server, seat, &ply, &mv);
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.json(), first.json());
    state = server.state(&light.id);
    assert_eq!(moves_of(&state).len(), 1);
    // A retry by the other seat is not a retry.
    let refused = play(&server, other, &ply, &mv);
    assert_eq!(refused.status, 409, "{}", refused.text());

    // Two moves for the same ply at once, from two connections.
    let mut races = 0;
    let mut n = 0;
    while races < 12 && state["status"] == "playing" {
        let legal: Vec<String> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        let (seat, _) = by_turn(&state, &light, &dark);
        if legal.len() < 2 {
            state = play(&server, seat, &state["ply"], &legal[0]).json();
            continue;
        }
        let before = moves_of(&state).len();
        let barrier = Arc::new(Barrier::new(2));
        let replies: Vec<_> = [legal[0].clone(), legal[1].clone()]
            .into_iter()
            .map(|mv| {
                let (addr, barrier) = (server.addr.clone(), Arc::clone(&barrier));
                let path = format!("/api/games/{}/moves", seat.id);
                let token = seat.token.clone();
                let body = json!({"ply": state["ply"], "move": mv}).to_string();
                std::thread::spawn(move || {
                    barrier.wait();
                    post_raw(&addr, &path, &token, &body).expect("a reply")
                })
            })
            .collect();
        let replies: Vec<(u16, String)> = replies.into_iter().map(|t| t.join().unwrap()).collect();
        let accepted = replies.iter().filter(|(s, _)| *s == 200).count();
        assert_eq!(accepted, 1, "{replies:?}");
        for (status, body) in &replies {
            if *status != 200 {
                assert_eq!(*status, 409, "{body}");
                let v: Value = serde_json::from_str(body).unwrap();
                let code = v["error"]["code"].as_str().unwrap();
                assert!(code == "stale_ply" || code == "not_your_turn", "{v}");
            }
        }
        state = server.state(&light.id);
        assert_eq!(moves_of(&state).len(), before + 1);
        races += 1;
        n += 1;
    }
    assert!(n > 0, "no position with two moves came up");
}

#[test]
fn no_one_acts_for_another_seat() {
    let scratch = Scratch::new("seats");
    let server = Server::start(&scratch.path("data"), &[]);
    let (light, dark) = friend_game(&server, "ur");
    let (elsewhere, _) = friend_game(&server, "ur");
    let state = server.state(&light.id);
    let (_, waiter) = by_turn(&state, &light, &dark);
    let path = format!("/api/games/{}/moves", light.id);
    let body = json!({"ply": state["ply"], "move": state["legal"][0]});
    let cases: [(Option<&str>, u16, &str); 4] = [
        (None, 401, "no_token"),
        (Some("not-a-token-of-anyone"), 403, "not_your_seat"),
        (Some(&waiter.token), 409, "not_your_turn"),
        (Some(&elsewhere.token), 403, "not_your_seat"),
    ];
    for (token, status, code) in cases {
        let reply = server.post(&path, token, &body);
        reply.error(status, code);
        assert_eq!(server.state(&light.id), state, "unchanged after {code}");
    }
    // Other spellings of a missing token.
    for auth in ["Basic abc", "Bearer", "Bearer    "] {
        let reply = server.request(
            "POST",
            &path,
            &[
                ("Content-Type", "application/json"),
                ("Authorization", auth),
            ],
            body.to_string().as_bytes(),
        );
        reply.error(401, "no_token");
    }
    // A spectator (no token), another game's token and a wrong one cannot
    // resign either.
    let resign = format!("/api/games/{}/resign", light.id);
    server
        .post(&resign, None, &json!({}))
        .error(401, "no_token");
    server
        .post(&resign, Some(&elsewhere.token), &json!({}))
        .error(403, "not_your_seat");
    assert_eq!(server.state(&light.id), state);
    // The invite of a waiting game holds no seat until it is used; a wrong
    // invite takes nothing; a taken seat is taken.
    let (creator, invite, _) = create(&server, json!({"game": "senet", "opponent": "friend"}));
    let invite = invite.unwrap();
    let waiting = server.state(&creator.id);
    let move_body = json!({"ply": 0, "move": waiting["legal"][0]});
    let moves = format!("/api/games/{}/moves", creator.id);
    server
        .post(&moves, Some(&invite), &move_body)
        .error(403, "not_your_seat");
    server
        .post(&moves, Some(&creator.token), &move_body)
        .error(409, "not_started");
    let join = format!("/api/games/{}/join", creator.id);
    server
        .post(&join, None, &json!({"invite": "wrong"}))
        .error(403, "not_your_seat");
    assert_eq!(server.state(&creator.id), waiting);
    let joined = server.post(&join, None, &json!({"invite": invite}));
    assert_eq!(joined.status, 200);
    server
        .post(&join, None, &json!({"invite": "wrong"}))
        .error(409, "seat_taken");
    let (bot_game, _, _) = create(&server, json!({"game": "ur", "level": 1}));
    server
        .post(
            &format!("/api/games/{}/join", bot_game.id),
            None,
            &json!({"invite": invite}),
        )
        .error(409, "seat_taken");
    // Tokens never reach the log.
    let log = server.stderr();
    for token in [
        &light.token,
        &dark.token,
        &elsewhere.token,
        &invite,
        &creator.token,
    ] {
        assert!(!log.contains(token.as_str()), "a token in the log");
    }
}

#[test]
fn an_invite_is_spent_when_its_seat_is_taken_and_only_its_joiner_may_retry() {
    let scratch = Scratch::new("invite");
    let server = Server::start(&scratch.path("data"), &[]);
    let (creator, invite, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
    let invite = invite.unwrap();
    let join = format!("/api/games/{}/join", creator.id);
    let key = "the-joining-browsers-own-key-1";
    let first = server.post(&join, None, &json!({"invite": invite, "key": key}));
    assert_eq!(first.status, 200, "{}", first.text());
    let first = first.json();
    let token = first["token"].as_str().unwrap().to_owned();
    assert_ne!(token, invite, "the seat gets a fresh token");
    assert!(token.len() >= 22, "at least 128 bits: {token}");
    assert_ne!(first["seat"], creator.side.as_str());
    let friend = Seat {
        id: creator.id.clone(),
        side: first["seat"].as_str().unwrap().to_owned(),
        token: token.clone(),
    };
    let (light, dark) = if creator.side == "light" {
        (&creator, &friend)
    } else {
        (&friend, &creator)
    };
    let state = server.state(&creator.id);
    assert_eq!(state["status"], "playing");
    // The invite is spent: it acts for no seat, and joining with it again
    // takes nothing and shows no token.
    let (mover, _) = by_turn(&state, light, dark);
    let as_invite = Seat {
        id: creator.id.clone(),
        side: mover.side.clone(),
        token: invite.clone(),
    };
    let mv = state["legal"][0].as_str().unwrap();
    play(&server, &as_invite, &state["ply"], mv).error(403, "not_your_seat");
    server
        .post(
            &format!("/api/games/{}/resign", creator.id),
            Some(&invite),
            &json!({}),
        )
        .error(403, "not_your_seat");
    for body in [
        json!({"invite": invite}),
        json!({"invite": invite, "key": "someone-elses-key-of-22-chars"}),
        json!({"invite": "wrong", "key": key}),
    ] {
        let v = server.post(&join, None, &body).error(409, "seat_taken");
        assert!(
            v.get("token").is_none() && !v.to_string().contains(&token),
            "{v}"
        );
    }
    assert_eq!(server.state(&creator.id), state, "nothing changed");
    // The joining browser retrying with its own key (the reply was lost) is
    // answered as the first join: the same seat and token, also later.
    let reply = play(&server, mover, &state["ply"], mv);
    assert_eq!(reply.status, 200, "{}", reply.text());
    let retry = server.post(&join, None, &json!({"invite": invite, "key": key}));
    assert_eq!(retry.status, 200, "{}", retry.text());
    let retry = retry.json();
    assert_eq!(retry["token"], token.as_str());
    assert_eq!(retry["seat"], first["seat"]);
    assert_eq!(retry["state"], server.state(&creator.id));
    // The fresh token plays, and survives a restart.
    drop(server);
    let server = Server::start(&scratch.path("data"), &[]);
    let again = server.post(&join, None, &json!({"invite": invite, "key": key}));
    assert_eq!(again.json()["token"], token.as_str());
    let state = server.state(&creator.id);
    let (mover, _) = by_turn(&state, light, dark);
    let reply = play(
        &server,
        mover,
        &state["ply"],
        state["legal"][0].as_str().unwrap(),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    // A join without a key gets a fresh token too, and no retry.
    let (other, invite, _) = create(&server, json!({"game": "senet", "opponent": "friend"}));
    let invite = invite.unwrap();
    let join = format!("/api/games/{}/join", other.id);
    let joined = server.post(&join, None, &json!({"invite": invite}));
    assert_eq!(joined.status, 200);
    assert_ne!(joined.json()["token"], invite.as_str());
    server
        .post(&join, None, &json!({"invite": invite}))
        .error(409, "seat_taken");
    // A join key too short to be secret, or not URL-safe, is refused.
    for key in ["short", "has spaces in it, twenty-two", &"k".repeat(129)] {
        let (g, invite, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
        let path = format!("/api/games/{}/join", g.id);
        let waiting = server.state(&g.id);
        server
            .post(&path, None, &json!({"invite": invite.unwrap(), "key": key}))
            .error(400, "bad_request");
        assert_eq!(server.state(&g.id), waiting);
    }
    let log = server.stderr();
    assert!(
        !log.contains(&token) && !log.contains(key),
        "a secret in the log"
    );
}

#[test]
fn hostile_requests_get_their_4xx_and_the_contracts_json() {
    let scratch = Scratch::new("hostile");
    let server = Server::start(&scratch.path("data"), &[]);
    let (light, dark) = friend_game(&server, "ur");
    let state = server.state(&light.id);
    let (mover, waiter) = by_turn(&state, &light, &dark);
    let path = format!("/api/games/{}/moves", light.id);
    let auth = format!("Bearer {}", mover.token);
    let send = |body: &[u8]| {
        server.request(
            "POST",
            &path,
            &[
                ("Content-Type", "application/json"),
                ("Authorization", &auth),
            ],
            body,
        )
    };
    let long_move = format!(r#"{{"ply": 0, "move": "{}"}}"#, "a".repeat(10_000));
    let bodies: Vec<(Vec<u8>, &str, u16)> = vec![
        (b"{\"ply\": 0, \"move\": ".to_vec(), "bad_request", 400),
        (b"not json".to_vec(), "bad_request", 400),
        (b"".to_vec(), "bad_request", 400),
        (b"[]".to_vec(), "bad_request", 400),
        (
            br#"{"ply": "0", "move": "a1-b1"}"#.to_vec(),
            "bad_request",
            400,
        ),
        (
            br#"{"ply": -1, "move": "a1-b1"}"#.to_vec(),
            "bad_request",
            400,
        ),
        (br#"{"ply": 0, "move": 7}"#.to_vec(), "bad_request", 400),
        (br#"{"ply": 0}"#.to_vec(), "bad_request", 400),
        (
            br#"{"ply": 0, "move": "a1-b1", "token": "x"}"#.to_vec(),
            "bad_request",
            400,
        ),
        (
            b"{\"ply\": 0, \"move\": \"\xff\xfe\"}".to_vec(),
            "bad_request",
            400,
        ),
        (long_move.into_bytes(), "bad_request", 400),
        (vec![b' '; 1 << 20], "too_large", 413),
    ];
    for (body, code, status) in bodies {
        send(&body).error(status, code);
    }
    // A body over the limit without a declared length.
    let mut chunked = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Authorization: {auth}\r\nTransfer-Encoding: chunked\r\n\r\n"
    )
    .into_bytes();
    for _ in 0..20 {
        chunked.extend_from_slice(format!("{:x}\r\n", 1024).as_bytes());
        chunked.extend_from_slice(&[b' '; 1024]);
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    server.raw(&chunked).error(413, "too_large");
    // Not JSON by its content type.
    server
        .request(
            "POST",
            &path,
            &[("Authorization", &auth)],
            br#"{"ply": 0, "move": "x"}"#,
        )
        .error(400, "bad_request");
    // Unknown ids, before the body is looked at.
    for p in [
        "/api/games/nope/moves",
        "/api/games/AAAAAAAAAAAAAAAA/moves",
        "/api/games/%FF%FE/moves",
    ] {
        server
            .request(
                "POST",
                p,
                &[("Content-Type", "application/json")],
                &vec![b' '; 1 << 20],
            )
            .error(404, "no_game");
    }
    server
        .get("/api/games/AAAAAAAAAAAAAAAA")
        .error(404, "no_game");
    server
        .get("/api/games/AAAAAAAAAAAAAAAA/events")
        .error(404, "no_game");
    server.get("/no/such/path").error(404, "not_found");
    server
        .request("DELETE", "/api/games", &[], b"")
        .error(405, "method_not_allowed");
    // Bad create bodies.
    for body in [
        json!({"game": "chess"}),
        json!({"game": "ur", "rules": "kendall"}),
        json!({"game": "ur", "level": 9}),
        json!({"game": "ur", "side": "up"}),
        json!({"rules": "finkel"}),
    ] {
        server
            .post("/api/games", None, &body)
            .error(400, "bad_request");
    }
    // Out of turn, a stale ply, an illegal move: each with the state.
    let mv = state["legal"][0].clone();
    let reply = play(&server, waiter, &state["ply"], mv.as_str().unwrap());
    assert_eq!(reply.error(409, "not_your_turn")["state"], state);
    let stale = json!(state["ply"].as_u64().unwrap() + 1);
    let reply = play(&server, mover, &stale, mv.as_str().unwrap());
    assert_eq!(reply.error(409, "stale_ply")["state"], state);
    for (text, refusal) in [("nonsense", "bad_move"), ("h3-h3", "no_piece")] {
        let v = play(&server, mover, &state["ply"], text).error(422, "illegal_move");
        assert_eq!(v["error"]["refusal"], refusal);
        assert_eq!(v["state"], state);
    }
    assert_eq!(server.state(&light.id), state, "nothing changed");
    // Moves after the end.
    let reply = server.post(
        &format!("/api/games/{}/resign", light.id),
        Some(&light.token),
        &json!({}),
    );
    assert_eq!(reply.status, 200);
    let over = reply.json();
    assert_eq!(over["result"], json!({"winner": "dark", "how": "resign"}));
    play(&server, mover, &over["ply"], mv.as_str().unwrap()).error(409, "game_over");
    server
        .post(
            &format!("/api/games/{}/resign", light.id),
            Some(&dark.token),
            &json!({}),
        )
        .error(409, "game_over");
    let again = server.post(
        &format!("/api/games/{}/resign", light.id),
        Some(&light.token),
        &json!({}),
    );
    assert_eq!(again.status, 200, "a repeated resignation is a retry");

    // A slow client: a request head that never ends is closed, and the
    // server goes on answering others meanwhile.
    let mut slow = TcpStream::connect(&server.addr).unwrap();
    slow.write_all(b"POST /api/games HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut idle = TcpStream::connect(&server.addr).unwrap();
    assert_eq!(server.get("/healthz").text(), "ok");
    slow.set_read_timeout(Some(PATIENCE)).unwrap();
    idle.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut buffer = Vec::new();
    let started = Instant::now();
    let _ = slow.read_to_end(&mut buffer);
    let _ = idle.read_to_end(&mut buffer);
    assert!(
        started.elapsed() < PATIENCE,
        "the slow connections were closed"
    );
    // A body that stops short.
    let mut short = TcpStream::connect(&server.addr).unwrap();
    short
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"game\"",
        )
        .unwrap();
    short.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut reply = Vec::new();
    let _ = short.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(reply.contains(r#""code":"timeout""#), "{reply}");
    assert_eq!(server.get("/healthz").status, 200);
}

#[test]
fn a_browser_gets_the_page_where_nothing_is_and_a_program_the_json() {
    let scratch = Scratch::new("missing");
    let server = Server::start(&scratch.path("data"), &[]);
    let browser = [(
        "Accept",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    )];
    let page = server.get("/").text();
    for path in [
        "/g/AAAAAAAAAAAAAAAA",
        "/g/AAAAAAAAAAAAAAAA/review",
        "/g/not-an-id",
        "/no/such/path",
        "/g/AAAAAAAAAAAAAAAA/other",
    ] {
        let reply = server.request("GET", path, &browser, b"");
        assert_eq!(reply.status, 404, "{path}");
        assert!(
            reply
                .header("content-type")
                .unwrap()
                .starts_with("text/html"),
            "{path}"
        );
        assert_eq!(reply.text(), page, "{path}");
        assert!(reply.header("content-security-policy").is_some());
    }
    // A program (no Accept, or JSON) keeps the contract's JSON.
    for (path, code) in [
        ("/g/AAAAAAAAAAAAAAAA", "no_game"),
        ("/g/AAAAAAAAAAAAAAAA/review", "no_game"),
        ("/no/such/path", "not_found"),
    ] {
        server.get(path).error(404, code);
        server
            .request("GET", path, &[("Accept", "application/json")], b"")
            .error(404, code);
    }
    // The API, the page's files and other methods answer JSON to a browser too.
    for (method, path, code) in [
        ("GET", "/api/games/AAAAAAAAAAAAAAAA", "no_game"),
        ("GET", "/api/nothing", "not_found"),
        ("GET", "/page/nothing.js", "not_found"),
        ("POST", "/no/such/path", "not_found"),
    ] {
        server.request(method, path, &browser, b"").error(404, code);
    }
}

#[test]
fn watchers_get_every_state_in_order() {
    let scratch = Scratch::new("events");
    let server = Server::start(&scratch.path("data"), &[]);
    let (creator, invite, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
    let mut watchers: Vec<_> = (0..3).map(|_| server.events(&creator.id)).collect();
    let mut delta = server.stream(&format!("/api/games/{}/events?delta=true", creator.id));
    let reply = server.post(
        &format!("/api/games/{}/join", creator.id),
        None,
        &json!({"invite": invite.unwrap()}),
    );
    let friend_token = reply.json()["token"].as_str().unwrap().to_owned();
    let friend_side = reply.json()["seat"].as_str().unwrap().to_owned();
    let mut sent = vec![server.state(&creator.id)];
    for _ in 0..30 {
        let state = sent.last().unwrap().clone();
        if state["status"] != "playing" {
            break;
        }
        let token = if state["side"] == friend_side.as_str() {
            &friend_token
        } else {
            &creator.token
        };
        let seat = Seat {
            id: creator.id.clone(),
            side: String::new(),
            token: token.clone(),
        };
        let reply = play(
            &server,
            &seat,
            &state["ply"],
            state["legal"][0].as_str().unwrap(),
        );
        assert_eq!(reply.status, 200);
        sent.push(reply.json());
    }
    for w in &mut watchers {
        let first = w.next_state().unwrap();
        assert_eq!(first["status"], "waiting");
        for expected in &sent {
            assert_eq!(&w.next_state().unwrap(), expected);
        }
    }
    // A delta stream: the whole state first, then what changed, which
    // rebuilds every state.
    let mut state = delta.next_state().unwrap();
    assert_eq!(state["status"], "waiting");
    for expected in &sent {
        let (name, change) = delta.next_event().unwrap();
        assert_eq!(name, "delta", "{change}");
        let from = change["log_from"].as_u64().unwrap() as usize;
        let added = change["log"].as_array().unwrap();
        let mut log = state["log"].as_array().unwrap()[..from].to_vec();
        // Only what is new: the plies from the one the watcher stood at
        // (none for the join; a move, then any turns lost after it), none
        // it already had.
        let plies: Vec<u64> = added.iter().map(|e| e["ply"].as_u64().unwrap()).collect();
        let at = state["ply"].as_u64().unwrap();
        assert_eq!(
            plies,
            (at..at + plies.len() as u64).collect::<Vec<_>>(),
            "only what is new: {change}"
        );
        log.extend(added.iter().cloned());
        state = change;
        state.as_object_mut().unwrap().remove("log_from");
        state["log"] = Value::Array(log);
        assert_eq!(&state, expected);
    }
    server
        .get(&format!("/api/games/{}/events?delta=maybe", creator.id))
        .error(400, "bad_request");
    server
        .get(&format!("/api/games/{}/events?full=1", creator.id))
        .error(400, "bad_request");
    // A watcher that comes back gets the current state at once.
    let mut late = server.events(&creator.id);
    assert_eq!(&late.next_state().unwrap(), sent.last().unwrap());
    // The stream of a finished game ends after its last state.
    server.post(
        &format!("/api/games/{}/resign", creator.id),
        Some(&creator.token),
        &json!({}),
    );
    let last = late.next_state().unwrap();
    assert_eq!(last["status"], "over");
    assert!(late.next_state().is_none());
}

#[test]
fn an_over_long_request_head_is_refused_with_the_contracts_json() {
    let scratch = Scratch::new("head");
    let server = Server::start(&scratch.path("data"), &[]);
    let long_path = format!("/api/games/{}", "a".repeat(20_000));
    let reply = server.get(&long_path);
    reply.error(414, "uri_too_long");
    assert!(
        reply.header("content-security-policy").is_some(),
        "{reply:?}"
    );
    let big = "b".repeat(20_000);
    server
        .request("GET", "/healthz", &[("X-Big", &big)], b"")
        .error(431, "head_too_large");
    let many: Vec<(String, String)> = (0..200)
        .map(|i| (format!("X-Header-{i}"), "c".repeat(100)))
        .collect();
    let many: Vec<(&str, &str)> = many.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    server
        .request("GET", "/healthz", &many, b"")
        .error(431, "head_too_large");
    // A head within the limit is served.
    let fine = "d".repeat(8_000);
    let reply = server.request("GET", "/healthz", &[("X-Fine", &fine)], b"");
    assert_eq!(reply.text(), "ok");
    // Bytes that are not HTTP.
    server
        .raw(b"\x16\x03\x01\x02\x00 hello\r\n\r\n")
        .error(400, "bad_request");
    assert_eq!(server.get("/healthz").text(), "ok");
}

/// The value of a metric line `NAME VALUE` (no labels).
fn metric(server: &Server, name: &str) -> Option<i64> {
    let reply = server.get("/metrics");
    (reply.status == 200).then_some(())?;
    reply
        .text()
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// Waits until `ready` holds.
fn eventually(what: &str, ready: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !ready() {
        assert!(Instant::now() < deadline, "gave up waiting: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn what_is_over_a_cap_gets_a_503_and_healthz_still_answers() {
    let scratch = Scratch::new("caps");
    let server = Server::start(
        &scratch.path("data"),
        &[
            "--max-streams-per-address",
            "2",
            "--max-connections-per-address",
            "6",
        ],
    );
    let (creator, _, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
    let events = format!("/api/games/{}/events", creator.id);
    let mut streams = vec![server.stream(&events), server.stream(&events)];
    let refused = server.get(&events).error(503, "busy");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("this address"),
        "{refused}"
    );
    // The two streams and four idle connections are the six an address
    // may hold: a seventh connection is answered 503 whatever it asks,
    // but /healthz still answers.
    let idle: Vec<TcpStream> = (0..4)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    let reply = server.get(&format!("/api/games/{}", creator.id));
    reply.error(503, "busy");
    assert!(reply.header("content-security-policy").is_some());
    assert_eq!(server.get("/healthz").text(), "ok");
    drop(idle);
    streams.pop();
    eventually("a connection and a stream given back", || {
        server.get(&format!("/api/games/{}", creator.id)).status == 200
            && metric(&server, "race_watchers") == Some(1)
    });
    let mut again = server.stream(&events);
    assert_eq!(again.next_state().unwrap()["status"], "waiting");
    assert_eq!(
        metric(&server, "race_busy_total{cap=\"streams_per_address\"}"),
        Some(1)
    );
    assert!(
        metric(&server, "race_busy_total{cap=\"connections_per_address\"}") >= Some(2),
        "{}",
        server.get("/metrics").text()
    );

    // The caps for all addresses together.
    let scratch = Scratch::new("caps-total");
    let server = Server::start(
        &scratch.path("data"),
        &["--max-streams", "1", "--max-connections", "3"],
    );
    let (creator, _, _) = create(&server, json!({"game": "senet", "opponent": "friend"}));
    let events = format!("/api/games/{}/events", creator.id);
    let _stream = server.stream(&events);
    let refused = server.get(&events).error(503, "busy");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("the server holds"),
        "{refused}"
    );
    let _idle: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(&server.addr).unwrap())
        .collect();
    server.get("/api/rules").error(503, "busy");
    assert_eq!(server.get("/healthz").text(), "ok");
}

#[test]
fn a_watcher_that_reads_nothing_is_cut_even_on_a_quiet_game() {
    let scratch = Scratch::new("stalled");
    let server = Server::start(&scratch.path("data"), &["--stall", "1"]);
    let (creator, invite, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
    // One watcher reads (the keep-alive comments too), one reads nothing.
    let mut reading = server.events(&creator.id);
    assert_eq!(reading.next_state().unwrap()["status"], "waiting");
    let reader = std::thread::spawn(move || reading.next_state());
    let mut stalled = TcpStream::connect(&server.addr).unwrap();
    write!(
        stalled,
        "GET /api/games/{}/events HTTP/1.1\r\nHost: x\r\n\r\n",
        creator.id
    )
    .unwrap();
    eventually("two watchers", || {
        metric(&server, "race_watchers") == Some(2)
    });
    eventually("the stalled watcher cut", || {
        metric(&server, "race_watchers") == Some(1)
    });
    // The one that reads is still there and is sent the next state.
    let reply = server.post(
        &format!("/api/games/{}/join", creator.id),
        None,
        &json!({"invite": invite.unwrap()}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let next = reader.join().unwrap().expect("the reading watcher goes on");
    assert_eq!(next["status"], "playing");
    drop(stalled);
}

#[test]
fn sigterm_stops_cleanly_and_the_games_are_there_after() {
    let scratch = Scratch::new("stop");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &["--create-limit", "2"]);
    let (light, _dark) = friend_game(&server, "senet");
    let state = server.state(&light.id);
    create(&server, json!({"game": "ur", "level": 1, "side": "dark"}));
    // Two creates a minute from one address; the third is refused.
    server
        .post("/api/games", None, &json!({"game": "ur", "level": 1}))
        .error(429, "rate_limited");
    for path in [
        "/",
        &format!("/g/{}", light.id),
        &format!("/g/{}/review", light.id),
        "/page/app.js",
        "/page/style.css",
        "/healthz",
        "/metrics",
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 200, "{path}");
        let csp = reply.header("content-security-policy").unwrap();
        assert!(
            csp.contains("script-src 'self'") && csp.contains("default-src 'none'"),
            "{csp}"
        );
        assert_eq!(reply.header("x-content-type-options"), Some("nosniff"));
    }
    assert!(
        server
            .get("/")
            .header("content-type")
            .unwrap()
            .starts_with("text/html")
    );
    assert!(
        server
            .get("/page/app.js")
            .header("content-type")
            .unwrap()
            .starts_with("text/javascript")
    );
    assert!(
        server
            .get("/page/style.css")
            .header("content-type")
            .unwrap()
            .starts_with("text/css")
    );
    let metrics = server.get("/metrics").text();
    for line in [
        "race_games{status=\"playing\"} 2",
        "race_games{status=\"waiting\"} 0",
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in {metrics}");
    }
    assert!(metrics.contains("race_request_duration_seconds_bucket{le=\"+Inf\"}"));
    let mut watcher = server.events(&light.id);
    assert!(watcher.next_state().is_some());
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    assert!(watcher.next_state().is_none(), "the stream ends");
    assert!(server.stderr().contains("the database is closed"));
    let server = Server::start(&data, &[]);
    // Who is there is not kept: every seat is away after a restart.
    let without_presence = |mut state: Value| {
        let fields = state.as_object_mut().unwrap();
        assert!(fields.remove("presence").is_some() && fields.remove("presence_since").is_some());
        state
    };
    let after = server.state(&light.id);
    assert_eq!(after["presence"], json!({"light": "away", "dark": "away"}));
    assert_eq!(without_presence(after), without_presence(state));
    assert!(
        server.stderr().contains("2 unfinished games in ")
            && server
                .stderr()
                .contains("(each loaded when first asked for)"),
        "{}",
        server.stderr()
    );
}

#[test]
fn games_are_loaded_when_asked_for_and_a_friend_game_not_joined_expires() {
    let scratch = Scratch::new("lazy");
    let data = scratch.path("data");
    // The bot (light) is to move first and waits: the server is killed
    // before it moves.
    let mut server = Server::start(&data, &["--bot-pace", "600000"]);
    let (me, _, _) = create(
        &server,
        json!({"game": "senet", "level": 1, "side": "dark"}),
    );
    let before = server.state(&me.id);
    assert_eq!(before["side"], "light");
    let (waiting, invite, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
    let invite = invite.unwrap();
    server.kill();
    drop(server);

    // Started again, the bot's game goes on once it is asked for.
    let mut server = Server::start(&data, &["--waiting-expiry", "1"]);
    let moved = server.wait_for(&me.id, |s| s["ply"].as_u64() > before["ply"].as_u64());
    assert_eq!(moved["commitment"], before["commitment"]);
    // The friend game that waited more than a second is gone, with its
    // stream and its invite; the bot's game stays.
    let mut stream = server.events(&waiting.id);
    assert_eq!(stream.next_state().unwrap()["status"], "waiting");
    eventually("the waiting game expired", || {
        server.get(&format!("/api/games/{}", waiting.id)).status == 404
    });
    assert!(stream.next_state().is_none(), "its stream ends");
    server
        .post(
            &format!("/api/games/{}/join", waiting.id),
            None,
            &json!({ "invite": invite }),
        )
        .error(404, "no_game");
    assert_eq!(server.state(&me.id)["status"], "playing");
    let metrics = server.get("/metrics").text();
    assert!(
        metrics
            .lines()
            .any(|l| l == "race_games{status=\"waiting\"} 0"),
        "{metrics}"
    );
    // A friend game joined in time does not expire.
    let (light, _dark) = friend_game(&server, "ur");
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(server.state(&light.id)["status"], "playing");
    server.kill();
    let server = Server::start(&data, &[]);
    server
        .get(&format!("/api/games/{}", waiting.id))
        .error(404, "no_game");
    assert!(
        server.stderr().contains("2 unfinished games in "),
        "{}",
        server.stderr()
    );
}

#[test]
fn the_load_test_checks_every_record_against_the_moves_it_saw() {
    let scratch = Scratch::new("load");
    let server = Server::start(&scratch.path("data"), &[]);
    let url = format!("http://{}", server.addr);
    let run = race(&[
        "loadtest",
        &url,
        "--games",
        "4",
        "--seconds",
        "2",
        "--watchers",
        "3",
    ]);
    assert_eq!(run.code, 0, "{}\n{}", run.out, run.err);
    assert!(run.out.contains("errors          none"), "{}", run.out);
    let checked: u64 = run
        .out
        .lines()
        .find_map(|l| l.strip_prefix("check           "))
        .and_then(|l| l.strip_suffix(" records hold exactly the moves seen accepted"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", run.out));
    assert!(checked >= 4, "{}", run.out);
    let metrics = server.get("/metrics").text();
    let accepted: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("race_moves_accepted_total "))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(
        run.out.contains(&format!("moves accepted  {accepted} in ")),
        "{}\n{metrics}",
        run.out
    );
    // A server that is not there is refused with exit 1.
    let gone = race(&[
        "loadtest",
        "http://127.0.0.1:9",
        "--games",
        "1",
        "--seconds",
        "1",
    ]);
    assert_eq!(gone.code, 1, "{}", gone.err);
    let bad = race(&["loadtest", "ftp://x", "--seconds", "1"]);
    assert_eq!(bad.code, 1, "{}", bad.err);
    for (flag, value) in [("--seconds", "0"), ("--rate", "nan"), ("--games", "0")] {
        let usage = race(&["loadtest", "http://127.0.0.1:9/", flag, value]);
        assert_eq!(usage.code, 2, "{flag} {value}: {}", usage.err);
        assert!(usage.err.contains(flag), "{}", usage.err);
    }
}

#[test]
fn serve_refuses_what_it_cannot_use() {
    let scratch = Scratch::new("refuse");
    let file = scratch.path("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let data = scratch.path("data");
    let server = Server::start(&data, &[]);
    for (args, code) in [
        (vec!["--data", file.to_str().unwrap()], "(store)"),
        (vec!["--data", data.to_str().unwrap()], "another server"),
        (
            vec![
                "--table",
                "/no/such/table",
                "--data",
                data.to_str().unwrap(),
            ],
            "(table)",
        ),
    ] {
        let mut all = vec!["serve", "--addr", "127.0.0.1:0"];
        all.extend(args);
        let run = race(&all);
        assert_eq!(run.code, 1, "{all:?}: {}", run.err);
        assert_eq!(run.err.lines().count(), 1, "{}", run.err);
        assert!(run.err.contains(code), "{code} in {}", run.err);
    }
    assert_eq!(server.get("/healthz").text(), "ok");
}

#[test]
fn names_are_given_at_create_and_join_checked_shown_as_text_and_kept() {
    let scratch = Scratch::new("names");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &[]);
    let too_long = "é".repeat(25);
    for bad in [too_long.as_str(), "a\u{7}b", "tab\there", "a\u{202e}b"] {
        let reply = server.post(
            "/api/games",
            None,
            &json!({"game": "ur", "opponent": "friend", "name": bad}),
        );
        let e = reply.error(400, "bad_request");
        assert!(
            e["error"]["message"].as_str().unwrap().contains("24"),
            "{e}"
        );
    }
    let (creator, invite, made) = create(
        &server,
        json!({"game": "ur", "opponent": "friend", "side": "light", "name": "  <b>Ann</b> "}),
    );
    assert_eq!(
        made["state"]["names"],
        json!({"light": "<b>Ann</b>", "dark": null})
    );
    let join = format!("/api/games/{}/join", creator.id);
    let invite = invite.unwrap();
    let refused = server.post(&join, None, &json!({"invite": invite, "name": too_long}));
    refused.error(400, "bad_request");
    let joined = server.post(
        &join,
        None,
        &json!({"invite": invite, "name": "é".repeat(24)}),
    );
    assert_eq!(joined.status, 200, "{}", joined.text());
    let friend = joined.json()["token"].as_str().unwrap().to_owned();
    let state = server.state(&creator.id);
    assert_eq!(state["names"]["dark"], "é".repeat(24));
    assert_eq!(state["names"]["light"], "<b>Ann</b>");

    // Renamed by its own seat only, in the contract's order: the body,
    // then the token.
    let seat = format!("/api/games/{}/seat", creator.id);
    server
        .send("PATCH", &seat, None, &json!({"name": "x", "side": "dark"}))
        .error(400, "bad_request");
    server
        .send("PATCH", &seat, None, &json!({"name": "Bea"}))
        .error(401, "no_token");
    server
        .send("PATCH", &seat, Some("nobody"), &json!({"name": "Bea"}))
        .error(403, "not_your_seat");
    server
        .send("PATCH", &seat, Some(&friend), &json!({"name": "a\u{0}"}))
        .error(400, "bad_request");
    let mut events = server.events(&creator.id);
    assert!(events.next_state().is_some());
    let renamed = server.send("PATCH", &seat, Some(&friend), &json!({"name": " Bea "}));
    assert_eq!(renamed.status, 200, "{}", renamed.text());
    assert_eq!(renamed.json()["names"]["dark"], "Bea");
    assert_eq!(events.next_state().unwrap()["names"]["dark"], "Bea");
    let unnamed = server.send("PATCH", &seat, Some(&creator.token), &json!({"name": null}));
    assert_eq!(
        unnamed.json()["names"],
        json!({"light": null, "dark": "Bea"})
    );
    assert!(!unnamed.text().contains(&friend) && !renamed.text().contains(&friend));

    // A bot's name is its level's.
    let (bot_game, _, made) = create(
        &server,
        json!({"game": "senet", "level": 2, "side": "dark", "name": "Cy"}),
    );
    assert_eq!(
        made["state"]["names"],
        json!({"light": "Casual", "dark": "Cy"})
    );

    server.kill();
    drop(server);
    let server = Server::start(&data, &[]);
    assert_eq!(
        server.state(&creator.id)["names"],
        json!({"light": null, "dark": "Bea"})
    );
    assert_eq!(server.state(&bot_game.id)["names"]["dark"], "Cy");
}

#[test]
fn presence_follows_the_seats_streams_and_requests_and_watchers_are_counted() {
    let scratch = Scratch::new("presence");
    let server = Server::start(&scratch.path("data"), &["--presence-window", "1"]);
    let (bot_game, _, made) = create(&server, json!({"game": "ur", "level": 1, "side": "light"}));
    assert_eq!(made["state"]["presence"]["dark"], "bot");
    let (_, _, waiting) = create(
        &server,
        json!({"game": "ur", "opponent": "friend", "side": "light"}),
    );
    assert_eq!(waiting["state"]["presence"]["dark"], "open");
    assert_eq!(waiting["state"]["watchers"], 0);
    drop(bot_game);

    let (light, dark) = friend_game(&server, "senet");
    let path = format!("/api/games/{}/events", light.id);
    let mut watcher = server.stream(&path);
    let away = |s: &Value, side: &str| s["presence"][side] == "away";
    // Both players turn away once their requests are a window old.
    let state = watcher.state_where(|s| away(s, "light") && away(s, "dark"));
    assert!(state["presence_since"]["dark"].is_i64(), "{state}");
    assert_eq!(state["watchers"], 1);

    // A stream with the dark seat's token keeps dark connected while it
    // is open, and it is no watcher.
    // A token that holds no seat makes a watcher, counted in the next
    // state.
    let mut other = server.stream_with(&path, Some("nobody"));
    assert!(other.next_state().is_some());
    let mut player = server.stream_with(&path, Some(&dark.token));
    assert!(player.next_state().is_some());
    let state = watcher.state_where(|s| s["presence"]["dark"] == "connected");
    assert_eq!(state["presence"]["light"], "away");
    assert_eq!(state["watchers"], 2);
    drop(other);
    assert_eq!(server.state(&light.id)["presence"]["dark"], "connected");
    drop(player);
    watcher.state_where(|s| away(s, "dark"));

    // A request with the light seat's token counts, until the window
    // passes; one with no seat's token changes nothing.
    let reply = server.request(
        "GET",
        &format!("/api/games/{}", light.id),
        &[("Authorization", &format!("Bearer {}", light.token))],
        b"",
    );
    assert_eq!(reply.status, 200);
    assert!(!reply.text().contains(&light.token));
    watcher.state_where(|s| s["presence"]["light"] == "connected");
    watcher.state_where(|s| away(s, "light"));
    assert_eq!(server.state(&light.id)["presence"]["light"], "away");
}

#[test]
fn the_list_gives_the_games_asked_for_in_order_and_is_bounded() {
    let scratch = Scratch::new("list");
    let server = Server::start(&scratch.path("data"), &[]);
    let ids: Vec<String> = (0..3)
        .map(|_| {
            create(&server, json!({"game": "ur", "opponent": "friend"}))
                .0
                .id
        })
        .collect();
    let unknown = "AAAAAAAAAAAAAAAA";
    let asked = format!("{},{unknown},{},nonsense,{}", ids[2], ids[0], ids[1]);
    let reply = server.get(&format!("/api/games?ids={asked}"));
    assert_eq!(reply.status, 200, "{}", reply.text());
    let listed = reply.json();
    let got: Vec<&str> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(got, [ids[2].as_str(), &ids[0], &ids[1]]);
    assert_eq!(server.state(&ids[0]), reply.json()["games"][1]);
    assert_eq!(server.get("/api/games?ids=").json(), json!({"games": []}));
    let fifty = vec![ids[0].as_str(); 50].join(",");
    let reply = server.get(&format!("/api/games?ids={fifty}"));
    assert_eq!(reply.json()["games"].as_array().unwrap().len(), 50);
    let e = server
        .get(&format!("/api/games?ids={fifty},{}", ids[1]))
        .error(400, "bad_request");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("50"),
        "{e}"
    );
    server.get("/api/games").error(400, "bad_request");
    server
        .get("/api/games?ids=x&more=1")
        .error(400, "bad_request");
}

#[test]
fn a_rematch_is_offered_withdrawn_declined_kept_and_accepted_with_sides_swapped() {
    let scratch = Scratch::new("rematch");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &[]);
    let (light, dark) = friend_game(&server, "ur");
    let seat = format!("/api/games/{}/seat", light.id);
    let named = server.send("PATCH", &seat, Some(&light.token), &json!({"name": "Ann"}));
    assert_eq!(named.status, 200, "{}", named.text());
    let path = format!("/api/games/{}/rematch", light.id);
    let offer = |seat: &Seat| server.post(&path, Some(&seat.token), &json!({}));
    let withdraw = |seat: &Seat| server.send("DELETE", &path, Some(&seat.token), &json!({}));
    offer(&light).error(409, "not_over");
    server.post(&path, None, &json!({})).error(401, "no_token");
    server
        .post(&path, Some(&light.token), &json!({"game": "x"}))
        .error(400, "bad_request");
    let (bot, _, _) = create(&server, json!({"game": "ur", "level": 1}));
    let bot_path = format!("/api/games/{}/rematch", bot.id);
    server
        .post(&bot_path, Some(&bot.token), &json!({}))
        .error(409, "no_rematch");

    let events = format!("/api/games/{}/events?rematch=true", light.id);
    let mut light_events = server.stream_with(&events, Some(&light.token));
    let mut dark_events = server.stream_with(&events, Some(&dark.token));
    let mut plain = server.events(&light.id);
    let resigned = server.post(
        &format!("/api/games/{}/resign", light.id),
        Some(&light.token),
        &json!({}),
    );
    assert_eq!(resigned.json()["rematch"], Value::Null);
    plain.state_where(|s| s["status"] == "over");
    assert!(
        plain.next_state().is_none(),
        "a plain stream ends with the game"
    );

    // Offered, seen by the other seat at once; a repeat is a retry.
    let offered = offer(&light);
    assert_eq!(offered.status, 200, "{}", offered.text());
    let pending = json!({"offered_by": "light", "game": null});
    assert_eq!(offered.json()["rematch"], pending);
    assert_eq!(
        dark_events.state_where(|s| !s["rematch"].is_null())["rematch"],
        pending
    );
    assert_eq!(offer(&light).json()["rematch"], pending);
    server
        .post(&path, Some("nobody"), &json!({}))
        .error(403, "not_your_seat");
    // Withdrawn; then offered by dark and declined by light.
    assert_eq!(withdraw(&light).json()["rematch"], Value::Null);
    dark_events.state_where(|s| s["rematch"].is_null());
    withdraw(&dark).error(409, "no_offer");
    assert_eq!(offer(&dark).json()["rematch"]["offered_by"], "dark");
    light_events.state_where(|s| s["rematch"]["offered_by"] == "dark");
    assert_eq!(withdraw(&light).json()["rematch"], Value::Null);
    light_events.state_where(|s| s["rematch"].is_null());
    assert_eq!(offer(&light).json()["rematch"], pending);
    drop((light_events, dark_events));

    // An offer is kept across a restart.
    server.kill();
    drop(server);
    server = Server::start(&data, &[]);
    let offer = |seat: &Seat| server.post(&path, Some(&seat.token), &json!({}));
    let withdraw = |seat: &Seat| server.send("DELETE", &path, Some(&seat.token), &json!({}));
    assert_eq!(server.state(&light.id)["rematch"], pending);
    let mut light_events = server.stream_with(&events, Some(&light.token));
    let mut dark_events = server.stream_with(&events, Some(&dark.token));
    assert_eq!(light_events.next_state().unwrap()["rematch"], pending);
    assert_eq!(dark_events.next_state().unwrap()["rematch"], pending);

    // Accepted: a new game, both streams told, then ended.
    let accepted = offer(&dark);
    assert_eq!(accepted.status, 200, "{}", accepted.text());
    let text = accepted.text();
    assert!(!text.contains(&light.token) && !text.contains(&dark.token));
    let rematch = accepted.json()["rematch"].clone();
    assert_eq!(rematch["offered_by"], "light");
    let new_id = rematch["game"].as_str().expect("the new game").to_owned();
    assert_ne!(new_id, light.id);
    for stream in [&mut light_events, &mut dark_events] {
        let told = stream.state_where(|s| !s["rematch"]["game"].is_null());
        assert_eq!(told["rematch"]["game"], new_id);
        assert!(stream.next_state().is_none(), "nothing follows");
    }
    assert_eq!(offer(&light).json()["rematch"], rematch, "a retry");
    assert_eq!(offer(&dark).json()["rematch"], rematch, "a retry");
    withdraw(&dark).error(409, "rematch_started");

    // The sides are swapped, both seats held by the old tokens.
    let new = server.state(&new_id);
    assert_eq!(new["status"], "playing");
    assert_eq!(new["rules"], server.state(&light.id)["rules"]);
    assert_eq!(new["names"], json!({"light": null, "dark": "Ann"}));
    assert_eq!(new["seats"], json!({"light": "person", "dark": "person"}));
    let swapped_light = Seat {
        id: new_id.clone(),
        side: "light".into(),
        token: dark.token.clone(),
    };
    let swapped_dark = Seat {
        id: new_id.clone(),
        side: "dark".into(),
        token: light.token.clone(),
    };
    let (to_move, waiting) = by_turn(&new, &swapped_light, &swapped_dark);
    let mv = new["legal"][0].as_str().unwrap();
    play(&server, waiting, &new["ply"], mv).error(409, "not_your_turn");
    let moved = play(&server, to_move, &new["ply"], mv);
    assert_eq!(moved.status, 200, "{}", moved.text());
    let invite_less = server.post(
        &format!("/api/games/{new_id}/join"),
        None,
        &json!({"invite": "x"}),
    );
    invite_less.error(409, "seat_taken");
}

/// The ids `GET /api/open` lists.
fn open_ids(server: &Server) -> Vec<String> {
    let reply = server.get("/api/open");
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn an_open_game_is_listed_taken_by_exactly_one_withdrawn_kept_and_expires() {
    let scratch = Scratch::new("open");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &[]);
    let (first, invite, made) = create(
        &server,
        json!({"game": "senet", "opponent": "open", "side": "light", "name": "Ann"}),
    );
    assert!(invite.is_none(), "no invite: anyone may take it");
    assert_eq!(made["state"]["status"], "waiting");
    assert_eq!(made["state"]["seats"]["dark"], "open");
    assert_eq!(made["state"]["presence"]["dark"], "open");
    let listed = server.get("/api/open").json();
    let entry = &listed["games"][0];
    assert_eq!(entry["id"], first.id);
    assert_eq!(entry["game"], "senet");
    assert_eq!(entry["rules"], made["state"]["rules"]);
    assert_eq!(entry["name"], "Ann");
    assert!(entry["since"].is_i64());
    assert!(!listed.to_string().contains(&first.token));

    // Two takers at once, several times: exactly one plays each game.
    let server_ref = &server;
    for round in 0..4 {
        let (game, _, _) = create(server_ref, json!({"game": "ur", "opponent": "open"}));
        let barrier = Barrier::new(2);
        let replies: Vec<common::server::Reply> = std::thread::scope(|s| {
            let takers: Vec<_> = (0..2)
                .map(|n| {
                    let barrier = &barrier;
                    let path = format!("/api/games/{}/join", game.id);
                    s.spawn(move || {
                        barrier.wait();
                        server_ref.post(&path, None, &json!({"name": format!("taker {n}")}))
                    })
                })
                .collect();
            takers.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let won: Vec<_> = replies.iter().filter(|r| r.status == 200).collect();
        assert_eq!(won.len(), 1, "round {round}: {replies:?}");
        let lost = replies.iter().find(|r| r.status != 200).unwrap();
        let e = lost.error(409, "seat_taken");
        assert!(e.get("token").is_none());
        let state = server_ref.state(&game.id);
        assert_eq!(state["status"], "playing");
        let taken = won[0].json()["seat"].as_str().unwrap().to_owned();
        assert!(
            state["names"][&taken]
                .as_str()
                .unwrap()
                .starts_with("taker"),
            "{state}"
        );
        assert!(!open_ids(server_ref).contains(&game.id));
    }
    assert_eq!(open_ids(&server), [first.id.as_str()]);

    // Withdrawn by its creator alone, while it waits.
    let (second, _, _) = create(&server, json!({"game": "ur", "opponent": "open"}));
    let path = format!("/api/games/{}", second.id);
    server
        .send("DELETE", &path, None, &json!({}))
        .error(401, "no_token");
    server
        .send("DELETE", &path, Some("nobody"), &json!({}))
        .error(403, "not_your_seat");
    let withdrawn = server.send("DELETE", &path, Some(&second.token), &json!({}));
    assert_eq!(withdrawn.status, 204, "{}", withdrawn.text());
    server.get(&path).error(404, "no_game");
    server
        .post(&format!("{path}/join"), None, &json!({}))
        .error(404, "no_game");
    let (light, _) = friend_game(&server, "ur");
    server
        .send(
            "DELETE",
            &format!("/api/games/{}", light.id),
            Some(&light.token),
            &json!({}),
        )
        .error(409, "not_waiting");
    // A friend game's seat still needs its invite.
    let (friend, _, _) = create(&server, json!({"game": "ur", "opponent": "friend"}));
    server
        .post(&format!("/api/games/{}/join", friend.id), None, &json!({}))
        .error(403, "not_your_seat");

    // Kept across a restart, then expired after its wait.
    server.kill();
    drop(server);
    server = Server::start(&data, &[]);
    assert_eq!(open_ids(&server), [first.id.as_str()]);
    server.kill();
    drop(server);
    let server = Server::start(&data, &["--open-expiry", "1"]);
    let deadline = Instant::now() + PATIENCE;
    while !open_ids(&server).is_empty() {
        assert!(Instant::now() < deadline, "never expired");
        std::thread::sleep(Duration::from_millis(50));
    }
    let deadline = Instant::now() + PATIENCE;
    while server.get(&format!("/api/games/{}", first.id)).status != 404 {
        assert!(Instant::now() < deadline, "never deleted");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_private_server_lists_no_open_games() {
    let scratch = Scratch::new("private");
    let server = Server::start(&scratch.path("data"), &["--no-open-games"]);
    server.get("/api/open").error(404, "not_found");
    let e = server
        .post(
            "/api/games",
            None,
            &json!({"game": "ur", "opponent": "open"}),
        )
        .error(400, "bad_request");
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("open games"),
        "{e}"
    );
    create(&server, json!({"game": "ur", "opponent": "friend"}));
}

/// A state's `changed`.
fn changed(state: &Value) -> i64 {
    state["changed"].as_i64().expect("changed is Unix seconds")
}

#[test]
fn a_game_says_when_it_last_changed_and_keeps_it_across_a_restart() {
    let scratch = Scratch::new("changed");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &[]);
    let before = unix_now();
    let (light, invite, made) = create(
        &server,
        json!({"game": "ur", "opponent": "friend", "side": "light"}),
    );
    let created = changed(&made["state"]);
    assert!((before..=unix_now()).contains(&created), "{created}");
    assert_eq!(changed(&server.state(&light.id)), created);
    let seat = format!("/api/games/{}/seat", light.id);

    // A rename is no change of the game; taking the seat is.
    past(created);
    let renamed = server.send("PATCH", &seat, Some(&light.token), &json!({"name": "Ann"}));
    assert_eq!(changed(&renamed.json()), created, "a rename");
    let joined = server.post(
        &format!("/api/games/{}/join", light.id),
        None,
        &json!({ "invite": invite.unwrap() }),
    );
    assert_eq!(joined.status, 200, "{}", joined.text());
    let joined_at = changed(&joined.json()["state"]);
    assert!(joined_at > created, "the join: {joined_at} after {created}");
    let dark = Seat {
        id: light.id.clone(),
        side: "dark".into(),
        token: joined.json()["token"].as_str().unwrap().to_owned(),
    };

    // A move; watching or asking changes nothing.
    past(joined_at);
    let state = server.state(&light.id);
    assert_eq!(changed(&state), joined_at);
    let (to_move, _) = by_turn(&state, &light, &dark);
    let moved = play(
        &server,
        to_move,
        &state["ply"],
        state["legal"][0].as_str().unwrap(),
    );
    assert_eq!(moved.status, 200, "{}", moved.text());
    let moved_at = changed(&moved.json());
    assert!(moved_at > joined_at, "the move");

    // The resignation, then a rematch offered and withdrawn.
    past(moved_at);
    let resigned = server.post(
        &format!("/api/games/{}/resign", light.id),
        Some(&light.token),
        &json!({}),
    );
    let resigned_at = changed(&resigned.json());
    assert!(resigned_at > moved_at, "the resignation");
    let rematch = format!("/api/games/{}/rematch", light.id);
    past(resigned_at);
    let offered = server.post(&rematch, Some(&dark.token), &json!({}));
    let offered_at = changed(&offered.json());
    assert!(offered_at > resigned_at, "the offer");
    past(offered_at);
    let withdrawn = server.send("DELETE", &rematch, Some(&dark.token), &json!({}));
    let withdrawn_at = changed(&withdrawn.json());
    assert!(withdrawn_at > offered_at, "the withdrawal");
    let listed = server.get(&format!("/api/games?ids={}", light.id)).json();
    assert_eq!(changed(&listed["games"][0]), withdrawn_at);

    // Kept across a restart, to the second.
    server.kill();
    drop(server);
    server = Server::start(&data, &[]);
    assert_eq!(changed(&server.state(&light.id)), withdrawn_at);

    // An accepted rematch: both games changed then, the new one created.
    past(withdrawn_at);
    server.post(&rematch, Some(&dark.token), &json!({}));
    let accepted = server.post(&rematch, Some(&light.token), &json!({}));
    let accepted = accepted.json();
    let new_id = accepted["rematch"]["game"].as_str().unwrap();
    let new = server.state(new_id);
    assert!(changed(&accepted) > withdrawn_at);
    assert_eq!(changed(&new), changed(&accepted));
    server.kill();
    drop(server);
    let server = Server::start(&data, &[]);
    assert_eq!(changed(&server.state(new_id)), changed(&new));
}
