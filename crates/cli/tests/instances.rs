//! Several `race serve` processes on one PostgreSQL database, behaving as
//! one server: each test starts two real servers on 127.0.0.1, port 0, on
//! a fresh database (see `common/postgres.rs`), and drives them over plain
//! HTTP.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::sync::Barrier;

use serde_json::{Value, json};

mod common;

use common::postgres::TestDb;
use common::server::{Scratch, Server};

/// A seat: the game's id and the seat's token.
struct Seat {
    id: String,
    token: String,
}

/// Two servers on one fresh database.
struct Pair {
    a: Server,
    b: Server,
    _scratch: Scratch,
    db: TestDb,
}

fn two_servers(name: &str) -> Pair {
    let db = TestDb::new();
    let scratch = Scratch::new(name);
    let a = Server::start(&scratch.path("a"), &["--database", &db.url]);
    let b = Server::start(&scratch.path("b"), &["--database", &db.url]);
    Pair {
        a,
        b,
        _scratch: scratch,
        db,
    }
}

/// A friend game created on `creator_at`, joined on `joiner_at`: the
/// seats (light, dark), and the states of the creation and the join.
fn friend_game(creator_at: &Server, joiner_at: &Server) -> ((Seat, Seat), [Value; 2]) {
    let reply = creator_at.post(
        "/api/games",
        None,
        &json!({"game": "ur", "opponent": "friend"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let created = reply.json();
    let id = created["id"].as_str().unwrap().to_owned();
    let invite = created["invite"].as_str().unwrap();
    let (_, invite) = invite.split_once("#join=").unwrap();
    let reply = joiner_at.post(
        &format!("/api/games/{id}/join"),
        None,
        &json!({ "invite": invite }),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let joined = reply.json();
    assert_eq!(joined["state"]["status"], "playing");
    let creator = Seat {
        id: id.clone(),
        token: created["token"].as_str().unwrap().to_owned(),
    };
    let friend = Seat {
        id,
        token: joined["token"].as_str().unwrap().to_owned(),
    };
    let seats = if created["seat"] == "light" {
        (creator, friend)
    } else {
        (friend, creator)
    };
    (seats, [created["state"].clone(), joined["state"].clone()])
}

fn to_move<'a>(state: &Value, light: &'a Seat, dark: &'a Seat) -> &'a Seat {
    if state["side"] == "light" {
        light
    } else {
        dark
    }
}

fn play(server: &Server, seat: &Seat, ply: &Value, mv: &str) -> common::server::Reply {
    server.post(
        &format!("/api/games/{}/moves", seat.id),
        Some(&seat.token),
        &json!({"ply": ply, "move": mv}),
    )
}

/// A state without what differs from server to server (who is
/// connected to which, and how many watch it there).
fn game_part(state: &Value) -> Value {
    let mut state = state.clone();
    for field in ["presence", "presence_since", "watchers"] {
        state.as_object_mut().unwrap().remove(field);
    }
    state
}

#[test]
fn a_game_created_on_one_server_is_joined_and_played_on_the_other_and_watched_on_both() {
    let pair = two_servers("watched");
    let reply = pair.a.post(
        "/api/games",
        None,
        &json!({"game": "ur", "opponent": "friend"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let created = reply.json();
    let id = created["id"].as_str().unwrap().to_owned();
    // A watcher on each server from the start, the game waiting.
    let mut watchers = [pair.a.events(&id), pair.b.events(&id)];
    let invite = created["invite"].as_str().unwrap();
    let (_, invite) = invite.split_once("#join=").unwrap();
    let reply = pair.b.post(
        &format!("/api/games/{id}/join"),
        None,
        &json!({ "invite": invite }),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    let joined = reply.json();
    let creator = Seat {
        id: id.clone(),
        token: created["token"].as_str().unwrap().to_owned(),
    };
    let friend = Seat {
        id: id.clone(),
        token: joined["token"].as_str().unwrap().to_owned(),
    };
    let (light, dark) = if created["seat"] == "light" {
        (&creator, &friend)
    } else {
        (&friend, &creator)
    };
    // Every state the game went through, as the servers answered it.
    let mut expected = vec![game_part(&created["state"]), game_part(&joined["state"])];
    let mut state = joined["state"].clone();
    let servers = [&pair.a, &pair.b];
    for n in 0..60 {
        if state["status"] != "playing" {
            break;
        }
        let legal = state["legal"].as_array().unwrap();
        let mv = legal[n % legal.len()].as_str().unwrap();
        let reply = play(
            servers[n % 2],
            to_move(&state, light, dark),
            &state["ply"],
            mv,
        );
        assert_eq!(reply.status, 200, "move {n}: {}", reply.text());
        state = reply.json();
        expected.push(game_part(&state));
    }
    assert!(expected.len() > 30, "too short a game to tell");
    for (watcher, name) in watchers.iter_mut().zip(["A", "B"]) {
        let mut seen: Vec<Value> = Vec::new();
        while seen.last() != expected.last() {
            let full = watcher
                .next_state()
                .unwrap_or_else(|| panic!("{name}'s stream ended after {} states", seen.len()));
            let part = game_part(&full);
            // A presence change repeats the game's state with its new
            // presence (or, once settled, as it was): a state seen again
            // out of its turn is caught below, as one out of order.
            if seen.last() != Some(&part) {
                seen.push(part);
            }
        }
        assert_eq!(seen.len(), expected.len(), "{name}");
        for (n, (got, want)) in seen.iter().zip(&expected).enumerate() {
            assert_eq!(got, want, "{name}'s state {n}");
        }
    }
}

#[test]
fn one_of_two_moves_for_a_ply_sent_to_two_servers_at_once_is_accepted_200_times() {
    let pair = two_servers("race");
    let mut races = 0;
    let mut games = 0;
    while races < 200 {
        let ((light, dark), [_, joined]) = friend_game(&pair.a, &pair.b);
        games += 1;
        let mut state = joined;
        while state["status"] == "playing" && races < 200 {
            let legal: Vec<String> = state["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            let seat = to_move(&state, &light, &dark);
            if legal.len() < 2 {
                let reply = play(&pair.a, seat, &state["ply"], &legal[0]);
                assert_eq!(reply.status, 200, "{}", reply.text());
                state = reply.json();
                continue;
            }
            let barrier = Barrier::new(2);
            let replies: Vec<common::server::Reply> = std::thread::scope(|s| {
                let sent: Vec<_> = [(&pair.a, &legal[0]), (&pair.b, &legal[1])]
                    .into_iter()
                    .map(|(server, mv)| {
                        let (barrier, ply) = (&barrier, &state["ply"]);
                        s.spawn(move || {
                            barrier.wait();
                            play(server, seat, ply, mv)
                        })
                    })
                    .collect();
                sent.into_iter().map(|t| t.join().unwrap()).collect()
            });
            let won: Vec<&common::server::Reply> =
                replies.iter().filter(|r| r.status == 200).collect();
            assert_eq!(won.len(), 1, "race {races}: {replies:?}");
            for reply in replies.iter().filter(|r| r.status != 200) {
                let v = reply.error(409, reply.json()["error"]["code"].as_str().unwrap());
                let code = v["error"]["code"].as_str().unwrap();
                assert!(
                    ["stale_ply", "not_your_turn", "game_over"].contains(&code),
                    "race {races}: {v}"
                );
            }
            state = won[0].json();
            races += 1;
        }
        // Both servers hold the game as stored: every accepted move, once.
        for server in [&pair.a, &pair.b] {
            let reply = play(server, &light, &json!(1_000_000), "pass");
            // A request for a change catches the server up first.
            assert_eq!(reply.status, 409, "{}", reply.text());
            let there = reply.json()["state"].clone();
            assert_eq!(there["ply"], state["ply"], "{}", reply.text());
            assert_eq!(there["log"], state["log"]);
        }
    }
    assert!(games >= 1);
}

#[test]
fn a_bot_game_whose_server_is_killed_while_its_bot_waits_is_played_on_by_the_other_once() {
    let db = TestDb::new();
    let scratch = Scratch::new("bot");
    // A's bot waits a minute before each move: it is killed in that wait.
    let mut a = Server::start(
        &scratch.path("a"),
        &["--database", &db.url, "--bot-pace", "60000"],
    );
    let b = Server::start(&scratch.path("b"), &["--database", &db.url]);
    let reply = a.post(
        "/api/games",
        None,
        &json!({"game": "ur", "opponent": "bot", "level": 1, "side": "light"}),
    );
    assert_eq!(reply.status, 201, "{}", reply.text());
    let created = reply.json();
    let seat = Seat {
        id: created["id"].as_str().unwrap().to_owned(),
        token: created["token"].as_str().unwrap().to_owned(),
    };
    // B holds the game: a watcher follows it there.
    let mut watcher = b.events(&seat.id);
    let mut state = created["state"].clone();
    while state["side"] == "light" {
        let mv = state["legal"][0].as_str().unwrap().to_owned();
        let reply = play(&a, &seat, &state["ply"], &mv);
        assert_eq!(reply.status, 200, "{}", reply.text());
        state = reply.json();
    }
    let ply = state["ply"].as_u64().unwrap();
    a.kill();
    // B plays the bot's turn (all its plies, a rosette throwing again).
    let after = watcher.state_where(|s| {
        s["ply"].as_u64().unwrap() > ply && (s["side"] == "light" || s["status"] == "over")
    });
    let log = after["log"].as_array().unwrap();
    for (n, entry) in log.iter().enumerate() {
        assert_eq!(entry["ply"], n, "every ply once, in order: {after}");
    }
    assert_eq!(log[usize::try_from(ply).unwrap()]["side"], "dark");
    // The human plays on through B.
    if after["status"] == "playing" {
        let mv = after["legal"][0].as_str().unwrap();
        let reply = play(&b, &seat, &after["ply"], mv);
        assert_eq!(reply.status, 200, "{}", reply.text());
    }
}

/// Sends a move until a server answers other than 503 `unavailable`
/// (each 503 checked to be the contract's JSON); the answer, and how
/// many 503s came first.
fn play_through(server: &Server, seat: &Seat, state: &Value, mv: &str) -> (Value, usize) {
    let mut refused = 0;
    loop {
        let reply = play(server, seat, &state["ply"], mv);
        if reply.status == 200 {
            return (reply.json(), refused);
        }
        assert_eq!(reply.status, 503, "{}; {}", reply.text(), server.stderr());
        reply.error(503, "unavailable");
        refused += 1;
        assert!(refused < 1000, "the servers never recovered");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn moves_go_on_while_the_database_drops_every_connection_and_none_acknowledged_is_lost() {
    let pair = two_servers("cut");
    let ((light, dark), [_, joined]) = friend_game(&pair.a, &pair.b);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mut acknowledged: Vec<(u64, String)> = Vec::new();
    let mut refused = 0;
    let mut state = joined;
    std::thread::scope(|s| {
        // Every connection to the test's database is cut, ten times a
        // second, for five seconds.
        let cutter = s.spawn(|| {
            let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
            while std::time::Instant::now() < until {
                pair.db.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = current_database() AND pid <> pg_backend_pid()",
                );
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let servers = [&pair.a, &pair.b];
        let mut n = 0;
        while !stop.load(std::sync::atomic::Ordering::Relaxed) && state["status"] == "playing" {
            let mv = state["legal"][0].as_str().unwrap().to_owned();
            let ply = state["ply"].as_u64().unwrap();
            let (next, cut) =
                play_through(servers[n % 2], to_move(&state, &light, &dark), &state, &mv);
            refused += cut;
            acknowledged.push((ply, mv));
            state = next;
            n += 1;
        }
        cutter.join().unwrap();
    });
    eprintln!(
        "{} moves acknowledged, {refused} refused with 503 while the connections were cut",
        acknowledged.len()
    );
    assert!(!acknowledged.is_empty());
    // Both servers serve again by themselves: a new game created on one,
    // joined on the other, and moved on both.
    let ((again_light, again_dark), [_, again]) = friend_game(&pair.a, &pair.b);
    let mut again = again;
    for server in [&pair.a, &pair.b, &pair.a, &pair.b] {
        let mv = again["legal"][0].as_str().unwrap().to_owned();
        let reply = play(
            server,
            to_move(&again, &again_light, &again_dark),
            &again["ply"],
            &mv,
        );
        assert_eq!(reply.status, 200, "{}", reply.text());
        again = reply.json();
    }
    // Every acknowledged move is stored, and both servers hold it.
    for server in [&pair.a, &pair.b] {
        let reply = play(server, &light, &json!(1_000_000), "pass");
        assert_eq!(reply.status, 409, "{}", reply.text());
        let there = reply.json()["state"].clone();
        assert_eq!(there["log"], state["log"]);
        let log = there["log"].as_array().unwrap();
        for (ply, mv) in &acknowledged {
            assert_eq!(
                log[usize::try_from(*ply).unwrap()]["move"],
                mv.as_str(),
                "ply {ply}"
            );
        }
    }
}

/// The moves a server accepted since it started, from its `/metrics`.
fn moves_accepted(server: &Server) -> u64 {
    let metrics = server.get("/metrics").text();
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("race_moves_accepted_total "))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{metrics}"))
}

#[test]
fn a_load_test_over_two_servers_goes_on_through_one_when_the_other_is_killed_and_loses_nothing() {
    let mut pair = two_servers("load");
    let urls = [
        format!("http://{}", pair.a.addr),
        format!("http://{}", pair.b.addr),
    ];
    let acks = pair._scratch.path("acks.txt");
    let acks_arg = acks.display().to_string();
    let done = std::sync::atomic::AtomicBool::new(false);
    let (run, b_at_kill) = std::thread::scope(|s| {
        let load = s.spawn(|| {
            let run = common::race(&[
                "loadtest",
                &urls[0],
                &urls[1],
                "--game",
                "ur",
                "--games",
                "6",
                "--watchers",
                "4",
                "--seconds",
                "10",
                "--acks",
                &acks_arg,
            ]);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            run
        });
        // A is killed under load, once it has accepted some moves.
        while moves_accepted(&pair.a) < 300 {
            assert!(
                !done.load(std::sync::atomic::Ordering::Relaxed),
                "the load test ended before A accepted 300 moves"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        pair.a.kill();
        let b_at_kill = moves_accepted(&pair.b);
        (load.join().unwrap(), b_at_kill)
    });
    assert_eq!(run.code, 0, "{}\n{}", run.out, run.err);
    // The load went on through B.
    let b_after = moves_accepted(&pair.b);
    assert!(
        b_after > b_at_kill,
        "B accepted nothing after the kill: {}",
        run.out
    );
    let server_line = |url: &str| {
        run.out
            .lines()
            .find(|l| l.starts_with("server") && l.contains(&format!(" {url}: ")))
            .unwrap_or_else(|| panic!("no line for {url}: {}", run.out))
            .to_owned()
    };
    assert!(
        !server_line(&urls[0]).contains(" 0 failed in transport"),
        "{}",
        run.out
    );
    assert!(
        !server_line(&urls[1]).ends_with(" 0 moves accepted"),
        "{}",
        run.out
    );
    // Every move acknowledged is stored: B serves it from the database.
    let mut by_game: std::collections::BTreeMap<String, Vec<(usize, String)>> =
        std::collections::BTreeMap::new();
    let text = std::fs::read_to_string(&acks).unwrap();
    for line in text.lines() {
        let mut words = line.split(' ');
        let (Some(id), Some(ply), Some(mv), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            panic!("not an acknowledgement: {line:?}");
        };
        by_game
            .entry(id.to_owned())
            .or_default()
            .push((ply.parse().unwrap(), mv.to_owned()));
    }
    let total: usize = by_game.values().map(Vec::len).sum();
    assert!(total > 20, "too few moves acknowledged to tell: {text}");
    for (id, moves) in &by_game {
        let last = moves.iter().map(|(ply, _)| *ply).max().unwrap();
        let state = pair
            .b
            .wait_for(id, |s| s["log"].as_array().unwrap().len() > last);
        let log = state["log"].as_array().unwrap();
        for (ply, mv) in moves {
            assert_eq!(
                log[*ply]["move"],
                mv.as_str(),
                "game {id}, ply {ply}: {state}"
            );
        }
    }
    eprintln!(
        "{total} moves acknowledged over {} games, B accepted {} after the kill\n{}",
        by_game.len(),
        b_after - b_at_kill,
        run.out
    );
}
