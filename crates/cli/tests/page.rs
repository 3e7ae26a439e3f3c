//! The page in a real browser: headless Chromium, driven over WebDriver,
//! against the real `race serve` on 127.0.0.1 with port 0, no bot pace and
//! a temporary data folder. A person's way through the page: a whole game
//! against the bot by clicking, a friend game through the invite link, a
//! resignation and a rematch, a reload in the middle, a watcher, keyboard
//! play, the review against `race analyse`, screenshots at phone and
//! desktop sizes, and a move made while the server is away.
//!
//! Chromium and ChromeDriver come from Debian's packages; the first test
//! installs them when missing (see `common/browser.rs`). Nothing here
//! times anything: each step waits for what the page shows.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use fantoccini::key::Key;
use serde_json::{Value, json};

mod common;

use common::browser::{Browser, DESKTOP, Driver, PHONE};
use common::race;
use common::server::{PATIENCE, Scratch, Server, past};

const FINKEL2: &str = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2";

/// The game view's `data-` attributes: ply, status and seat.
async fn view(b: &Browser) -> Value {
    b.js("const g = document.getElementById('game'); \
          return g && g.dataset.ply !== undefined \
            ? {ply: Number(g.dataset.ply), status: g.dataset.status, seat: g.dataset.seat} : null")
        .await
}

async fn ply(b: &Browser) -> u64 {
    view(b).await["ply"].as_u64().expect("a game is shown")
}

/// Fills in the start form by clicking (radios) and choosing (selects),
/// starts the game, and returns its id.
async fn start_game(b: &Browser, addr: &str, form: &[(&str, &str)]) -> String {
    b.open(addr, "/").await;
    b.wait(
        "the start form",
        "return document.querySelector('#start:not([disabled])')",
    )
    .await;
    for &(name, value) in form {
        if name == "rules" || name.starts_with("field-") {
            b.find(&format!("select[name='{name}']"))
                .await
                .select_by_value(value)
                .await
                .unwrap_or_else(|e| panic!("cannot choose {value} for {name}: {e}"));
        } else {
            b.click(&format!("input[name='{name}'][value='{value}']"))
                .await;
        }
        b.wait(
            &format!("{name}={value} to be taken"),
            &format!(
                "const el = document.querySelector(\"[name='{name}']:checked, select[name='{name}']\"); \
                 return el && el.value === '{value}' && !document.querySelector('#start').disabled"
            ),
        )
        .await;
    }
    b.click("#start").await;
    let id = b
        .wait(
            "the game page",
            "const m = location.pathname.match(/^\\/g\\/([A-Za-z0-9_-]+)$/); \
             return m && document.getElementById('game') ? m[1] : null",
        )
        .await;
    id.as_str().expect("an id").to_owned()
}

/// What the browser should do next in its game.
#[derive(Debug, PartialEq, Eq)]
enum Next {
    Move,
    Over,
}

const NEXT: &str = "const g = document.getElementById('game'); \
     if (!g) return null; \
     if (g.dataset.status === 'over') return 'over'; \
     return document.querySelectorAll('#board .movable').length ? 'move' : null";

/// Waits until it is this browser's turn, or the game is over.
async fn next(b: &Browser) -> Next {
    match b.wait("this seat's turn or the end", NEXT).await.as_str() {
        Some("over") => Next::Over,
        _ => Next::Move,
    }
}

/// Clicks a move: a piece (the last one offered when `last`, else the
/// first) and then its target (a single legal move too is shown before it
/// is played). Returns the move clicked. The moves offered are read in one script and
/// each click finds its element afresh, so a board drawn again in between
/// (a watcher's update arriving) cannot leave the test holding a stale one.
async fn pick_move(b: &Browser, last: bool) -> String {
    let offered = b
        .js("return [...document.querySelectorAll('#board .movable')].map(p => p.dataset.move)")
        .await;
    let offered: Vec<&str> = offered
        .as_array()
        .expect("the moves offered")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    let mv = match (offered.first(), offered.last()) {
        (Some(first), Some(end)) => (if last { end } else { first }).to_string(),
        _ => panic!("no piece to move"),
    };
    b.click(&format!("#board .movable[data-move='{mv}']")).await;
    b.click(&format!("#board .target[data-move='{mv}']")).await;
    mv
}

/// Plays a move by clicking (see [`pick_move`]) and waits until the page
/// shows it played. Returns the move played.
async fn click_move(b: &Browser, last: bool) -> String {
    let before = ply(b).await;
    let mv = pick_move(b, last).await;
    b.wait(
        "the move to be played",
        &format!(
            "const g = document.getElementById('game'); \
             return Number(g.dataset.ply) > {before} || g.dataset.status === 'over'"
        ),
    )
    .await;
    mv
}

/// The pieces the board shows, as `side:place`, sorted, with the trays.
async fn board_text(b: &Browser) -> Value {
    b.js("return { \
            pieces: [...document.querySelectorAll('#board .piece')] \
              .map(p => p.dataset.side + ':' + p.dataset.place).sort(), \
            trays: [...document.querySelectorAll('#board .tray')].map(t => t.getAttribute('aria-label')) }")
        .await
}

/// The pieces of a Royal Game of Ur position text, as `side:square`.
fn ur_pieces(position: &str) -> Value {
    let board = position.split(' ').next().expect("a board");
    let mut out = BTreeSet::new();
    for (i, row) in board.split('/').enumerate() {
        let rank = 3 - i;
        let mut file = 0u8;
        let mut run = 0u8;
        for ch in row.chars() {
            if let Some(digit) = ch.to_digit(10) {
                // A number, of one or two digits, is a run of empty squares.
                run = run * 10 + digit as u8;
                continue;
            }
            file += std::mem::take(&mut run);
            match ch {
                'l' | 'd' | 'L' | 'D' => {
                    let side = if ch.eq_ignore_ascii_case(&'l') {
                        "light"
                    } else {
                        "dark"
                    };
                    out.insert(format!("{side}:{}{rank}", char::from(b'a' + file)));
                    file += 1;
                }
                _ => file += 1,
            }
        }
    }
    json!(out.into_iter().collect::<Vec<_>>())
}

/// Creates a game through the API: `(id, {side: token}, state)`, both
/// seats taken for a friend game.
fn api_game(server: &Server, body: Value) -> (String, Vec<(String, String)>, Value) {
    let made = server.post("/api/games", None, &body);
    assert_eq!(made.status, 201, "{}", made.text());
    let made = made.json();
    let id = made["id"].as_str().unwrap().to_owned();
    let mut seats = vec![(
        made["seat"].as_str().unwrap().to_owned(),
        made["token"].as_str().unwrap().to_owned(),
    )];
    let mut state = made["state"].clone();
    if let Some(invite) = made["invite"].as_str() {
        let invite = invite.split_once("#join=").unwrap().1;
        let joined = server.post(
            &format!("/api/games/{id}/join"),
            None,
            &json!({ "invite": invite }),
        );
        assert_eq!(joined.status, 200, "{}", joined.text());
        let joined = joined.json();
        seats.push((
            joined["seat"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        ));
        state = joined["state"].clone();
    }
    (id, seats, state)
}

/// Plays one move through the API for the seat to move (which must be one
/// of `seats`), choosing the `n`th legal move; returns the new state.
fn api_move(server: &Server, id: &str, seats: &[(String, String)], n: usize) -> Value {
    let state = server.state(id);
    let side = state["side"].as_str().unwrap();
    let token = &seats
        .iter()
        .find(|(s, _)| s == side)
        .expect("a seat to move")
        .1;
    let legal = state["legal"].as_array().unwrap();
    let mv = legal[n % legal.len()].as_str().unwrap();
    let reply = server.post(
        &format!("/api/games/{id}/moves"),
        Some(token),
        &json!({"ply": state["ply"], "move": mv}),
    );
    assert_eq!(reply.status, 200, "{}", reply.text());
    reply.json()
}

/// A finished game against the level-1 bot, played through the API with
/// the person on `side`: the final state and the person's seat token.
fn finished_bot_game(server: &Server, rules: &str, pick: usize, side: &str) -> (Value, String) {
    let (id, seats, _) = api_game(
        server,
        json!({"game": "ur", "rules": rules, "level": 1, "side": side}),
    );
    let mut n = pick;
    loop {
        let state = server.wait_for(&id, |s| s["status"] == "over" || s["side"] == side);
        if state["status"] == "over" {
            return (state, seats[0].1.clone());
        }
        api_move(server, &id, &seats, n);
        n += 1;
    }
}

/// A finished finkel2 game against the bot with a mistake in it, the
/// person on `side`: its state, the person's token, and what
/// `race analyse --json` says of it.
fn game_with_a_mistake(
    server: &Server,
    scratch: &Scratch,
    table: &str,
    side: &str,
) -> (Value, String, Value) {
    (0..20)
        .find_map(|pick| {
            let (state, token) = finished_bot_game(server, FINKEL2, pick, side);
            let id = state["id"].as_str().unwrap();
            let file = scratch.path(&format!("{id}.txt"));
            std::fs::write(&file, server.get(&format!("/api/games/{id}/record")).text()).unwrap();
            let run = race(&[
                "analyse",
                file.to_str().unwrap(),
                "--table",
                table,
                "--json",
            ]);
            assert_eq!(run.code, 0, "{}", run.err);
            let analysis: Value = serde_json::from_str(&run.out).unwrap();
            let mistakes = analysis["turns"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["lost"].as_f64().unwrap() > 1e-9);
            mistakes.then_some((state, token, analysis))
        })
        .expect("a game with a mistake")
}

/// Waits for a file to be downloaded completely.
async fn downloaded(b: &Browser, name: &str) -> String {
    let path = b.downloads.join(name);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let partial = std::fs::read_dir(&b.downloads)
            .map(|d| {
                d.flatten()
                    .any(|e| e.path().extension().is_some_and(|x| x == "crdownload"))
            })
            .unwrap_or(false);
        if !partial && let Ok(text) = std::fs::read_to_string(&path) {
            return text;
        }
        assert!(Instant::now() < deadline, "{name} was not downloaded");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A server with a data folder of its own, and a ChromeDriver; dropped in
/// that order (browsers, then the server, then the folder).
struct Bench {
    driver: Driver,
    server: Server,
    /// The data folder, removed when the bench is dropped.
    _scratch: Scratch,
}

impl Bench {
    /// `race serve` with `extra` arguments, and a driver, for test `name`.
    async fn start(name: &str, extra: &[&str]) -> Bench {
        let scratch = Scratch::new(&format!("page-{name}"));
        let server = Server::start(&scratch.path("data"), extra);
        let driver = Driver::start(name).await;
        Bench {
            driver,
            server,
            _scratch: scratch,
        }
    }
}

/// A Royal Game of Ur game against the level-1 bot, as light.
const UR_BOT: [(&str, &str); 4] = [
    ("game", "ur"),
    ("opponent", "bot"),
    ("level", "1"),
    ("side", "light"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_ur_game_against_the_bot_by_clicking_and_its_record_replays() {
    let bench = Bench::start("bot", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(
        &b,
        &server.addr,
        &[
            ("game", "ur"),
            ("rules", "custom"),
            ("field-pieces", "3"),
            ("opponent", "bot"),
            ("level", "1"),
            ("side", "light"),
        ],
    )
    .await;
    let mut moves = 0;
    while next(&b).await == Next::Move {
        click_move(&b, false).await;
        moves += 1;
    }
    assert!(moves >= 3, "a game takes more than {moves} moves");
    let state = server.state(&id);
    assert_eq!(
        state["rules"],
        "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=3"
    );
    assert_eq!(state["seats"]["dark"], "bot:1");

    // The result, and the dice checked in the page.
    b.wait(
        "the dice checked",
        "return document.querySelector('#check')?.dataset.check === 'match'",
    )
    .await;
    let title = b
        .js("return document.querySelector('#end-title').textContent")
        .await;
    let won = state["result"]["winner"] == "light";
    assert!(
        title
            .as_str()
            .unwrap()
            .starts_with(if won { "You won" } else { "You lost" }),
        "{title} for {}",
        state["result"]
    );
    assert_eq!(
        b.js("return document.querySelector('#seed').textContent")
            .await,
        state["seed"]
    );

    // The record, downloaded, replays to the same result.
    b.click("#download").await;
    let name = format!("race-{id}.txt");
    let text = downloaded(&b, &name).await;
    assert_eq!(text, server.get(&format!("/api/games/{id}/record")).text());
    let file = b.downloads.join(&name);
    let run = race(&["replay", file.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let replayed: Value = serde_json::from_str(&run.out).unwrap();
    assert_eq!(replayed["result"], state["result"]);
    assert_eq!(replayed["ply"], state["ply"]);
    assert_eq!(replayed["position"], state["position"]);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resignation_ends_the_game_and_a_rematch_starts_the_same_again() {
    let bench = Bench::start("resign", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(&b, &server.addr, &UR_BOT).await;
    b.wait(
        "the resign button",
        "const r = document.querySelector('#resign'); return r && !r.hidden",
    )
    .await;
    // The page asks first; the browser says yes.
    b.js("window.confirm = () => true; return null").await;
    b.click("#resign").await;
    b.wait(
        "the dice checked",
        "return document.querySelector('#check')?.dataset.check === 'match'",
    )
    .await;
    let state = server.state(&id);
    assert_eq!(state["status"], "over");
    assert_eq!(state["result"]["winner"], "dark");
    assert_eq!(state["result"]["how"], "resign");
    let end = b
        .js("return document.querySelector('#end-title').textContent")
        .await;
    let end = end.as_str().unwrap();
    assert!(
        end.starts_with("You lost") && end.contains("by resignation"),
        "{end}"
    );

    b.click("#rematch").await;
    let again = b
        .wait(
            "the rematch's page",
            &format!(
                "const m = location.pathname.match(/^\\/g\\/([A-Za-z0-9_-]+)$/); \
                 return m && m[1] !== '{id}' && document.getElementById('game') ? m[1] : null"
            ),
        )
        .await;
    let again = server.state(again.as_str().unwrap());
    assert_eq!(again["game"], state["game"]);
    assert_eq!(again["rules"], state["rules"]);
    assert_eq!(again["seats"]["dark"], "bot:1");
    assert_ne!(again["status"], "over");
    assert_eq!(view(&b).await["seat"], "light");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_senet_friend_game_through_the_invite_link() {
    let bench = Bench::start("friend", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let host = driver.browser(DESKTOP).await;
    let friend = driver.browser(DESKTOP).await;
    let id = start_game(
        &host,
        &server.addr,
        &[("game", "senet"), ("opponent", "friend"), ("side", "light")],
    )
    .await;
    let link = host
        .wait(
            "the invite link",
            "return document.querySelector('#invite-link')?.value",
        )
        .await;
    let link = link.as_str().unwrap();
    let prefix = format!("http://{}/g/{id}#join=", server.addr);
    assert!(link.starts_with(&prefix), "{link}");
    assert!(
        host.js("return document.querySelector('#copy').getAttribute('aria-label')")
            .await
            .as_str()
            .is_some_and(|l| !l.is_empty())
    );
    assert_eq!(view(&host).await["status"], "waiting");
    host.click("#copy").await;
    host.wait(
        "the copy to be confirmed",
        "return document.querySelector('#invite .copied')?.textContent === 'Copied.'",
    )
    .await;

    // The friend opens the link: the seat is taken, the token kept in the
    // browser and gone from the address.
    friend.client.goto(link).await.expect("the link opens");
    friend
        .wait(
            "the friend's seat",
            "return document.getElementById('game')?.dataset.seat === 'dark'",
        )
        .await;
    assert_eq!(
        friend.js("return location.href").await,
        format!("http://{}/g/{id}", server.addr)
    );
    let token = friend
        .js(&format!(
            "return JSON.parse(localStorage.getItem('race.seat.{id}')).token"
        ))
        .await;
    let token = token.as_str().expect("a token kept");
    assert!(token.len() >= 22);
    assert!(
        !friend
            .js("return document.documentElement.outerHTML")
            .await
            .as_str()
            .unwrap()
            .contains(token)
    );
    host.wait(
        "the host to see the friend",
        "return document.getElementById('game').dataset.status === 'playing' && document.querySelector('#invite').hidden",
    )
    .await;

    // They play to the end, each in their own browser: the side to move
    // waits for its page to offer the move, and plays it (the game ends by
    // the ply cap at the latest, so the turns are bounded).
    let mut moves = [0u32; 2];
    for _ in 0..=dice_core::PLY_CAP {
        let state = server.state(&id);
        if state["status"] == "over" {
            break;
        }
        let i = usize::from(state["side"] == "dark");
        let b = [&host, &friend][i];
        if next(b).await == Next::Over {
            break;
        }
        click_move(b, true).await;
        moves[i] += 1;
    }
    assert!(moves[0] > 0 && moves[1] > 0, "{moves:?}");
    let state = server.state(&id);
    assert_eq!(state["status"], "over");
    let won = state["result"]["winner"].as_str().unwrap();
    for (b, side) in [(&host, "light"), (&friend, "dark")] {
        b.wait(
            "the dice checked",
            "return document.querySelector('#check')?.dataset.check === 'match'",
        )
        .await;
        let title = b
            .js("return document.querySelector('#end-title').textContent")
            .await;
        let expect = if won == side { "You won" } else { "You lost" };
        assert!(
            title.as_str().unwrap().starts_with(expect),
            "{side}: {title}"
        );
    }
    host.close().await;
    friend.close().await;
}

/// A friend game made through the API, its friend's seat still open:
/// `(id, the host's side, the invite token)`.
fn waiting_game(server: &Server) -> (String, String, String) {
    let made = server.post(
        "/api/games",
        None,
        &json!({"game": "ur", "opponent": "friend"}),
    );
    assert_eq!(made.status, 201, "{}", made.text());
    let made = made.json();
    let invite = made["invite"]
        .as_str()
        .unwrap()
        .split_once("#join=")
        .unwrap()
        .1;
    (
        made["id"].as_str().unwrap().to_owned(),
        made["seat"].as_str().unwrap().to_owned(),
        invite.to_owned(),
    )
}

/// Everything this browser keeps for the pages of the server.
async fn kept(b: &Browser) -> String {
    b.js("return JSON.stringify(Object.entries(localStorage))")
        .await
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invite_opened_in_the_tab_of_its_game_joins_without_a_reload() {
    let bench = Bench::start("rejoin", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let (id, host, invite) = waiting_game(server);
    let friend = if host == "light" { "dark" } else { "light" };
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, &format!("/g/{id}")).await;
    b.wait(
        "the watcher's view",
        "return document.getElementById('game')?.dataset.seat === 'watcher'",
    )
    .await;
    b.js("window.sameDocument = true; return null").await;
    // The link pasted into the same tab changes only the hash.
    b.js(&format!("location.hash = '#join={invite}'; return null"))
        .await;
    b.wait(
        "the friend's seat",
        &format!("return document.getElementById('game')?.dataset.seat === '{friend}'"),
    )
    .await;
    assert_eq!(
        b.js("return window.sameDocument === true").await,
        true,
        "no reload"
    );
    assert_eq!(
        b.js("return location.href").await,
        format!("http://{}/g/{id}", server.addr),
        "the invite is off the address"
    );
    let state = server.state(&id);
    assert_eq!(state["status"], "playing");
    // The browser keeps the seat's own token, not the spent invite.
    let token = b
        .js(&format!(
            "return JSON.parse(localStorage.getItem('race.seat.{id}')).token"
        ))
        .await;
    let token = token.as_str().unwrap();
    assert_ne!(token, invite);
    assert!(!kept(&b).await.contains(&invite), "{}", kept(&b).await);
    // It plays with that token.
    // (A turn the host lost to a throw allowing no move may already be
    // logged, so the friend's move is the entry after those.)
    if state["side"] == friend {
        let before = state["log"].as_array().map_or(0, Vec::len);
        click_move(&b, false).await;
        let entry = &server.state(&id)["log"][before];
        assert_eq!(entry["side"], friend, "{entry}");
        assert!(entry["move"].is_string(), "{entry}");
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_whose_reply_was_lost_is_sent_again_and_gets_the_same_seat() {
    let bench = Bench::start("lostjoin", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let (id, host, invite) = waiting_game(server);
    let friend = if host == "light" { "dark" } else { "light" };
    // The browser opened the link and sent its join with a key of its own;
    // the server took the seat, but the reply never came back.
    let key = "the-key-this-browser-sent-first";
    let lost = server.post(
        &format!("/api/games/{id}/join"),
        None,
        &json!({"invite": invite, "key": key}),
    );
    assert_eq!(lost.status, 200, "{}", lost.text());
    let token = lost.json()["token"].as_str().unwrap().to_owned();
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    b.js(&format!(
        "localStorage.setItem('race.join.{id}', JSON.stringify({{invite: '{invite}', key: '{key}'}})); return null"
    ))
    .await;
    // Opened again (a reload; the link is gone from the address), the page
    // sends the join again with the same key, and gets the seat.
    b.open(&server.addr, &format!("/g/{id}")).await;
    b.wait(
        "the friend's seat",
        &format!("return document.getElementById('game')?.dataset.seat === '{friend}'"),
    )
    .await;
    assert_eq!(
        b.js(&format!(
            "return JSON.parse(localStorage.getItem('race.seat.{id}')).token"
        ))
        .await,
        Value::String(token)
    );
    assert!(!kept(&b).await.contains(&invite), "the join is settled");
    // Another browser with the link watches, and is told why.
    let other = driver.browser(DESKTOP).await;
    other
        .open(&server.addr, &format!("/g/{id}#join={invite}"))
        .await;
    let said = other
        .wait(
            "the refusal said",
            "return document.getElementById('game')?.dataset.seat === 'watcher' \
               && [...document.querySelectorAll('#game > .notice')].map(n => n.textContent).join(' ')",
        )
        .await;
    assert!(
        said.as_str().unwrap().contains("both seats are taken"),
        "{said}"
    );
    assert_eq!(
        other.js("return location.href").await,
        format!("http://{}/g/{id}", server.addr)
    );
    other.close().await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aseb_game_on_its_long_board_and_a_custom_path() {
    let bench = Bench::start("aseb", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(
        &b,
        &server.addr,
        &[
            ("rules", "aseb"),
            ("opponent", "bot"),
            ("level", "1"),
            ("side", "light"),
        ],
    )
    .await;
    // The aseb board: twenty squares, twelve of them in the middle row,
    // and no square of the standard board's far end on the sides.
    let cells = b
        .js("return [...document.querySelectorAll('#board .cell')].map(c => c.dataset.cell)")
        .await;
    let cells: Vec<&str> = cells
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(cells.len(), 20, "{cells:?}");
    assert!(cells.contains(&"l2") && !cells.contains(&"g1"), "{cells:?}");
    let rosettes = b
        .js("return [...document.querySelectorAll('#board .cell')] \
               .filter(c => c.querySelector('.rosette')).map(c => c.dataset.cell).sort()")
        .await;
    assert_eq!(rosettes, json!(["a1", "a3", "d2", "h2", "l2"]));
    for _ in 0..12 {
        if next(&b).await == Next::Over {
            break;
        }
        // This seat's turn: the server waits for it, and the board shows
        // the server's position, pieces on i2..l2 included.
        let state = server.state(&id);
        assert_eq!(
            board_text(&b).await["pieces"],
            ur_pieces(state["position"].as_str().unwrap())
        );
        click_move(&b, true).await;
    }
    assert_eq!(server.state(&id)["rules"], "aseb");
    fits(&b, "the aseb board at desktop size").await;
    b.screenshot("aseb-play-desktop").await;
    // The long board on a phone, seen by a watcher.
    let phone = driver.browser(PHONE).await;
    phone.open(&server.addr, &format!("/g/{id}")).await;
    phone
        .wait(
            "the aseb board",
            "return document.querySelectorAll('#board .cell').length === 20",
        )
        .await;
    fits(&phone, "the aseb board at phone size").await;
    phone.screenshot("aseb-play-phone").await;
    phone.close().await;

    // A custom rule set on murray's path, chosen field by field.
    let id = start_game(
        &b,
        &server.addr,
        &[
            ("game", "ur"),
            ("rules", "custom"),
            ("field-path", "murray"),
            ("field-capture_again", "1"),
            ("opponent", "bot"),
            ("level", "1"),
            ("side", "light"),
        ],
    )
    .await;
    assert_eq!(
        server.state(&id)["rules"],
        "board=standard path=murray dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
         capture_again=1 pieces=7"
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_position_and_the_seat_and_play_goes_on() {
    let bench = Bench::start("reload", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(
        &b,
        &server.addr,
        &[
            ("game", "ur"),
            ("opponent", "bot"),
            ("level", "2"),
            ("side", "light"),
        ],
    )
    .await;
    for _ in 0..3 {
        assert_eq!(next(&b).await, Next::Move);
        click_move(&b, false).await;
    }
    assert_eq!(next(&b).await, Next::Move);
    let before = (view(&b).await, board_text(&b).await);
    let turn = b
        .js("return document.querySelector('#turn').textContent")
        .await;
    b.client.refresh().await.expect("a reload");
    b.wait("the game again", NEXT).await;
    assert_eq!((view(&b).await, board_text(&b).await), before);
    assert_eq!(
        b.js("return document.querySelector('#turn').textContent")
            .await,
        turn
    );
    let players = b
        .js("return document.querySelector('.players').textContent")
        .await;
    assert!(
        players.as_str().unwrap().starts_with("Light: you"),
        "{players}"
    );
    let at = before.0["ply"].as_u64().unwrap();
    let mv = click_move(&b, false).await;
    let state = server.state(&id);
    let entry = &state["log"][at as usize];
    assert_eq!(
        (entry["side"].as_str(), entry["move"].as_str()),
        (Some("light"), Some(mv.as_str()))
    );
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_sees_every_move_and_has_no_controls() {
    let bench = Bench::start("watch", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let (id, seats, _) = api_game(server, json!({"game": "ur", "opponent": "friend"}));
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, &format!("/g/{id}")).await;
    b.wait(
        "the watcher's view",
        "return document.getElementById('game')?.dataset.seat === 'watcher'",
    )
    .await;
    for n in 0..12 {
        let state = api_move(server, &id, &seats, n);
        let ply = state["ply"].as_u64().unwrap();
        b.wait(
            "the move to appear",
            &format!(
                "const g = document.getElementById('game'); \
                 return Number(g.dataset.ply) === {ply} && document.querySelectorAll('#log li').length === {ply}"
            ),
        )
        .await;
        assert_eq!(
            board_text(&b).await["pieces"],
            ur_pieces(state["position"].as_str().unwrap())
        );
        let last = state["log"]
            .as_array()
            .unwrap()
            .iter()
            .rev()
            .find(|e| e["move"].is_string())
            .unwrap();
        let said = b
            .js(&format!(
                "return document.querySelector('#log li[value=\"{}\"]').textContent",
                last["ply"].as_u64().unwrap() + 1
            ))
            .await;
        let to = last["move"].as_str().unwrap().split('-').nth(1).unwrap();
        assert!(
            said.as_str().unwrap().contains(to),
            "{said} for {}",
            last["move"]
        );
        let controls = b
            .js("return document.querySelectorAll('#board .movable, #board .target, #board [tabindex]').length \
                 + (document.querySelector('#resign').hidden ? 0 : 1) \
                 + document.querySelectorAll('#rematch').length")
            .await;
        assert_eq!(controls, 0, "a watcher has no move controls");
    }
    let help = b
        .js("return document.querySelector('.help').textContent")
        .await;
    assert_eq!(help, "You are watching this game.");
    b.close().await;
}

/// The controls the page shows (rendered and not hidden): buttons, links
/// drawn as buttons, fields, disclosures and the board's pieces and
/// targets, by id, else label, else text, sorted.
async fn visible_controls(b: &Browser) -> Vec<String> {
    let v = b
        .js("return [...document.querySelectorAll('button, a.button, input, select, textarea, summary, \
                 #board [tabindex], #board .movable, #board .target')] \
               .filter(el => el.checkVisibility({checkVisibilityCSS: true}) && el.getClientRects().length) \
               .map(el => el.id || el.getAttribute('aria-label') || el.textContent.trim()).sort()")
        .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_control_a_viewer_cannot_use_is_visible() {
    let bench = Bench::start("controls", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let host = driver.browser(DESKTOP).await;
    let watcher = driver.browser(DESKTOP).await;
    let id = start_game(
        &host,
        &server.addr,
        &[("game", "ur"), ("opponent", "friend"), ("side", "light")],
    )
    .await;
    // Waiting for the friend: the invite, nothing to resign, and the box
    // that asks to be notified of one's turn.
    host.wait(
        "the invite",
        "return document.querySelector('#invite-link')",
    )
    .await;
    assert_eq!(
        visible_controls(&host).await,
        [
            "Fair dice",
            "How to play",
            "coordinates",
            "copy",
            "invite-link",
            "notify"
        ]
    );
    watcher.open(&server.addr, &format!("/g/{id}")).await;
    watcher
        .wait(
            "the watcher's view",
            "return document.getElementById('game')?.dataset.seat === 'watcher'",
        )
        .await;
    assert_eq!(
        visible_controls(&watcher).await,
        ["Fair dice", "How to play", "coordinates"]
    );

    // In play: the host may resign; a watcher has nothing to press.
    assert_eq!(server.state(&id)["status"], "waiting");
    let link = host
        .js("return document.querySelector('#invite-link').value")
        .await;
    let invite = link.as_str().unwrap().split_once("#join=").unwrap().1;
    let joined = server.post(
        &format!("/api/games/{id}/join"),
        None,
        &json!({ "invite": invite }),
    );
    assert_eq!(joined.status, 200, "{}", joined.text());
    let friend = joined.json()["token"].as_str().unwrap().to_owned();
    for b in [&host, &watcher] {
        b.wait(
            "the game on",
            "return document.getElementById('game').dataset.status === 'playing'",
        )
        .await;
    }
    let controls = visible_controls(&host).await;
    assert!(
        controls.contains(&"resign".to_owned()) && controls.contains(&"notify".to_owned()),
        "{controls:?}"
    );
    assert_eq!(
        visible_controls(&watcher).await,
        ["Fair dice", "How to play", "coordinates"]
    );

    // Over: the record, the review, a rematch offered to the friend (a
    // new game for the watcher), and no resignation, nor turns to notify.
    let over = server.post(
        &format!("/api/games/{id}/resign"),
        Some(&friend),
        &json!({}),
    );
    assert_eq!(over.status, 200, "{}", over.text());
    for b in [&host, &watcher] {
        b.wait(
            "the end",
            "return document.getElementById('game').dataset.status === 'over' \
               && !document.getElementById('end').hidden",
        )
        .await;
    }
    assert_eq!(
        visible_controls(&host).await,
        [
            "Fair dice",
            "How to play",
            "coordinates",
            "download",
            "rematch-offer",
            "review-link"
        ]
    );
    assert_eq!(
        visible_controls(&watcher).await,
        [
            "Fair dice",
            "How to play",
            "New game",
            "coordinates",
            "download",
            "review-link"
        ]
    );
    host.close().await;
    watcher.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refused_action_is_said() {
    let bench = Bench::start("refused", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let (id, _, state) = api_game(server, json!({"game": "ur", "opponent": "friend"}));
    // A browser that holds a token the server does not know for the seat
    // to move (a data folder restored from elsewhere, say).
    let side = state["side"].as_str().unwrap();
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    b.js(&format!(
        "localStorage.setItem('race.seat.{id}', JSON.stringify({{seat: '{side}', token: 'a-token-nobody-was-given'}})); return null"
    ))
    .await;
    b.open(&server.addr, &format!("/g/{id}")).await;
    assert_eq!(next(&b).await, Next::Move);
    pick_move(&b, false).await;
    let said = b
        .wait(
            "the refusal of the move",
            "return document.getElementById('notice').textContent",
        )
        .await;
    assert_eq!(
        said,
        "The move was refused: that token holds no seat of this game"
    );
    b.js("window.confirm = () => true; return null").await;
    b.click("#resign").await;
    b.wait(
        "the refusal of the resignation",
        "return document.getElementById('notice').textContent \
           === 'The resignation was refused: that token holds no seat of this game'",
    )
    .await;
    assert_eq!(server.state(&id), state, "nothing changed");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_is_shown_a_card_where_nothing_is() {
    let bench = Bench::start("missing", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    for (path, title) in [
        ("/g/AAAAAAAAAAAAAAAA", "No such game"),
        ("/g/AAAAAAAAAAAAAAAA/review", "No such game"),
        ("/no/such/page", "No such page"),
    ] {
        b.open(&server.addr, path).await;
        let shown = b
            .wait(
                "the card",
                "return document.querySelector('#missing h1')?.textContent",
            )
            .await;
        assert_eq!(shown, title, "{path}");
        let link = b
            .js("return document.querySelector('#missing a').getAttribute('href')")
            .await;
        assert_eq!(link, "/", "{path}");
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_by_keyboard_only() {
    let bench = Bench::start("keys", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(&b, &server.addr, &UR_BOT).await;
    let focused = "const a = document.activeElement; \
         return a && a.classList.contains('movable') ? a.getAttribute('data-move') : null";
    let mut played = Vec::new();
    while played.len() < 5 {
        if next(&b).await == Next::Over {
            break;
        }
        let before = ply(&b).await;
        let offered = b
            .js("return document.querySelectorAll('#board .movable').length")
            .await;
        let mut presses = 0;
        while b.js(focused).await.is_null() {
            assert!(presses < 60, "Tab never reached a movable piece");
            b.keys(&[Key::Tab]).await;
            presses += 1;
        }
        let first = b.js(focused).await;
        if offered.as_u64() > Some(1) {
            b.keys(&[Key::Right]).await;
            let second = b.js(focused).await;
            assert!(
                second.is_string() && second != first,
                "the arrow moved from {first} to {second}"
            );
            // Reached by the keyboard, the piece shows where it goes.
            assert!(
                b.js("return document.querySelectorAll('#board .target').length")
                    .await
                    .as_u64()
                    >= Some(1)
            );
        }
        let mv = b.js(focused).await.as_str().unwrap().to_owned();
        b.keys(&[Key::Enter]).await;
        b.wait(
            "the move to be played",
            &format!("return Number(document.getElementById('game').dataset.ply) > {before}"),
        )
        .await;
        let state = server.state(&id);
        assert_eq!(state["log"][before as usize]["move"], mv.as_str());
        played.push(mv);
    }
    assert!(played.len() >= 3, "only {} moves were played", played.len());
    b.close().await;
}

/// A 2-piece finkel table, solved for the test.
fn finkel2_table(scratch: &Scratch) -> String {
    let table = scratch.path("finkel2.table");
    let run = race(&[
        "solve",
        "finkel",
        "--pieces",
        "2",
        "--out",
        table.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    table.to_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_graphs_every_ply_and_lists_the_mistakes_race_analyse_finds() {
    let scratch = Scratch::new("page-review");
    let table = finkel2_table(&scratch);
    let server = Server::start(&scratch.path("data"), &["--table", &table]);
    let driver = Driver::start("review").await;
    let b = driver.browser(DESKTOP).await;

    // The start form offers the perfect bot for the rules with a table only.
    b.open(&server.addr, "/").await;
    b.wait(
        "the start form",
        "return document.querySelector('#start:not([disabled])')",
    )
    .await;
    b.find("select[name='rules']")
        .await
        .select_by_value("custom")
        .await
        .unwrap();
    b.find("select[name='field-pieces']")
        .await
        .select_by_value("2")
        .await
        .unwrap();
    b.find("input[name='level'][value='perfect']").await;
    b.find("select[name='field-pieces']")
        .await
        .select_by_value("3")
        .await
        .unwrap();
    b.wait(
        "perfect to go",
        "return !document.querySelector(\"input[name='level'][value='perfect']\")",
    )
    .await;

    // A finished game with mistakes in it, and what race analyse says.
    let (state, _, analysis) = game_with_a_mistake(&server, &scratch, &table, "light");
    let id = state["id"].as_str().unwrap();
    let plies = state["ply"].as_u64().unwrap();
    let turns = analysis["turns"].as_array().unwrap();
    assert_eq!(turns.len() as u64, plies);

    b.open(&server.addr, &format!("/g/{id}/review")).await;
    let points = b
        .wait(
            "the graph",
            "return document.querySelectorAll('#graph .pt').length",
        )
        .await;
    assert_eq!(points.as_u64(), Some(plies), "one point a ply");

    // The graph is light's chance after each ply, by the table.
    let shown = b
        .js("return [...document.querySelectorAll('#graph .pt')].map(p => Number(p.dataset.value))")
        .await;
    let expected: Vec<f64> = turns
        .iter()
        .map(|t| {
            let after = t["after"].as_f64().unwrap();
            if t["side"] == "light" {
                after
            } else {
                1.0 - after
            }
        })
        .collect();
    assert_eq!(numbers(&shown), expected.len());
    for (i, (shown, expected)) in shown.as_array().unwrap().iter().zip(&expected).enumerate() {
        assert!(
            same(shown, *expected),
            "ply {i}: the graph shows {shown}, race analyse {expected}"
        );
    }

    // The mistakes listed, each with the chance lost race analyse gives.
    let listed = b
        .js("return [...document.querySelectorAll('.mistake')].map(m => [m.classList.contains('light') ? 'light' : 'dark', Number(m.dataset.ply), Number(m.dataset.lost)])")
        .await;
    let expected: Vec<Value> = ["light", "dark"]
        .into_iter()
        .flat_map(|side| {
            turns
                .iter()
                .filter(move |t| t["side"] == side && t["lost"].as_f64().unwrap() > 1e-9)
                .map(move |t| json!([side, t["ply"], t["lost"]]))
        })
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(
        numbers(&listed),
        expected.len(),
        "{listed} against {expected:?}"
    );
    for (shown, expected) in listed.as_array().unwrap().iter().zip(&expected) {
        assert_eq!((&shown[0], &shown[1]), (&expected[0], &expected[1]));
        assert!(
            same(&shown[2], expected[2].as_f64().unwrap()),
            "{shown} against {expected}"
        );
    }
    let words = b
        .js("return document.querySelector('.mistake').textContent")
        .await;
    let lost = expected[0][2].as_f64().unwrap() * 100.0;
    assert!(
        words
            .as_str()
            .unwrap()
            .contains(&format!("−{lost:.2} points")),
        "{words}"
    );

    // A point shows the board after its ply, a mistake the board it was made on.
    let story = server.get(&format!("/api/games/{id}/plies")).json();
    let k = plies / 2;
    b.click(&format!("#graph .pt[data-ply='{k}']")).await;
    b.wait(
        "the board after the ply",
        &format!("return document.querySelector('#review-caption').textContent.startsWith('Ply {} of {plies}')", k + 1),
    )
    .await;
    assert_eq!(
        board_text(&b).await["pieces"],
        ur_pieces(story["plies"][k as usize]["position"].as_str().unwrap())
    );
    let m = expected[0][1].as_u64().unwrap();
    b.click(&format!(".mistake[data-ply='{m}']")).await;
    let before = if m == 0 {
        story["start"]["position"].clone()
    } else {
        story["plies"][m as usize - 1]["position"].clone()
    };
    b.wait(
        "the board the mistake was made on",
        &format!("return document.querySelector('#step').value === '{m}'"),
    )
    .await;
    assert_eq!(
        board_text(&b).await["pieces"],
        ur_pieces(before.as_str().unwrap())
    );
    b.close().await;
}

/// Checks the review shows ply `turn["ply"] + 1` as it was played: its
/// number, its throw, the board it was played on, the move played and the
/// best move drawn.
async fn shows_the_ply_as_played(b: &Browser, story: &Value, turn: &Value, plies: u64) {
    let k = turn["ply"].as_u64().unwrap();
    let caption = b
        .wait(
            "the ply asked for",
            &format!(
                "const c = document.querySelector('#review-caption'); \
                 return c && c.textContent.startsWith('Ply {} of {plies}:') ? c.textContent : null",
                k + 1
            ),
        )
        .await;
    let roll = turn["roll"].as_u64().unwrap();
    let caption = caption.as_str().unwrap();
    assert!(caption.contains(&format!("threw {roll}")), "{caption}");
    let dice = b
        .js("return document.querySelector('.dice .throw').getAttribute('aria-label')")
        .await;
    assert!(
        dice.as_str()
            .unwrap()
            .ends_with(&format!("a roll of {roll}")),
        "{dice} for a throw of {roll}"
    );
    let before = if k == 0 {
        &story["start"]["position"]
    } else {
        &story["plies"][k as usize - 1]["position"]
    };
    assert_eq!(
        board_text(b).await["pieces"],
        ur_pieces(before.as_str().unwrap())
    );
    let arrows = b
        .js(
            "return Object.fromEntries([...document.querySelectorAll('#board .arrow')] \
               .map(a => [a.classList.contains('best') ? 'best' : 'played', a.dataset.move]))",
        )
        .await;
    assert_eq!(
        arrows,
        json!({"played": turn["move"], "best": turn["best"]}),
        "a mistake draws the move played and the best"
    );
    assert!(
        caption.contains(turn["best"].as_str().unwrap()),
        "{caption}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_opens_on_the_ply_asked_for_draws_its_moves_and_keeps_the_viewer_below() {
    let scratch = Scratch::new("page-review-ply");
    let table = finkel2_table(&scratch);
    let server = Server::start(&scratch.path("data"), &["--table", &table]);
    let (state, token, analysis) = game_with_a_mistake(&server, &scratch, &table, "dark");
    let id = state["id"].as_str().unwrap();
    let plies = state["ply"].as_u64().unwrap();
    let story = server.get(&format!("/api/games/{id}/plies")).json();
    let turn = analysis["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["lost"].as_f64().unwrap() > 1e-9)
        .unwrap()
        .clone();
    let driver = Driver::start("review-ply").await;
    let b = driver.browser(DESKTOP).await;
    let graph = "return document.querySelectorAll('#graph .pt').length";

    // The browser holds the dark seat, as the one who played it does.
    b.open(&server.addr, "/").await;
    b.js(&format!(
        "localStorage.setItem('race.seat.{id}', JSON.stringify({{seat: 'dark', token: '{token}'}})); return true"
    ))
    .await;
    b.open(&server.addr, &format!("/g/{id}/review")).await;
    b.wait("the graph", graph).await;
    let ys = b
        .js("const y = (side) => document.querySelector(`#board .tray[data-place='hand'][data-side='${side}']`) \
               .getBoundingClientRect().top; \
             return [y('light'), y('dark')]")
        .await;
    assert!(
        ys[1].as_f64() > ys[0].as_f64(),
        "dark's hand is below light's for the dark player: {ys}"
    );

    // A mistake opens on the ply it was made in.
    let m = turn["ply"].as_u64().unwrap();
    b.click(&format!(".mistake[data-ply='{m}']")).await;
    shows_the_ply_as_played(&b, &story, &turn, plies).await;
    b.screenshot("review-mistake-desktop").await;

    // The ply asked for by the address.
    b.open(&server.addr, "/").await;
    b.open(&server.addr, &format!("/g/{id}/review#ply={}", m + 1))
        .await;
    b.wait("the graph", graph).await;
    shows_the_ply_as_played(&b, &story, &turn, plies).await;

    // A point of the graph: the board after its ply, the move played drawn.
    let k = story["plies"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["move"].is_string())
        .unwrap();
    b.click(&format!("#graph .pt[data-ply='{k}']")).await;
    b.wait(
        "the board after the ply",
        &format!(
            "return document.querySelector('#review-caption').textContent.startsWith('Ply {} of {plies}:')",
            k + 1
        ),
    )
    .await;
    assert_eq!(
        board_text(&b).await["pieces"],
        ur_pieces(story["plies"][k]["position"].as_str().unwrap())
    );
    let played = b
        .js("return document.querySelector('#board .arrow.played')?.dataset.move ?? null")
        .await;
    assert_eq!(played, story["plies"][k]["move"]);
    b.close().await;
}

/// How many items a JSON list holds.
fn numbers(list: &Value) -> usize {
    list.as_array().map_or(0, Vec::len)
}

/// Whether a number the page shows is the number given. The page writes
/// each number back exactly (the shortest text that reads as the same
/// double, as the server does), but reading JSON numbers here may be off in
/// the last binary digit, so they are compared to within 1e-12.
fn same(shown: &Value, expected: f64) -> bool {
    shown
        .as_f64()
        .is_some_and(|x| (x - expected).abs() <= 1e-12)
}

/// Checks the board lies inside the viewport and nothing scrolls sideways.
async fn fits(b: &Browser, what: &str) {
    let r = b
        .js("const r = document.querySelector('#board svg').getBoundingClientRect(); \
             return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight, document.documentElement.scrollWidth]")
        .await;
    let v: Vec<f64> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let [left, top, right, bottom, width, height, scroll] = v[..] else {
        panic!("{r}")
    };
    assert!(
        left >= 0.0
            && top >= 0.0
            && right <= width
            && bottom <= height
            && right - left > 0.5 * width.min(700.0),
        "{what}: the board lies at {left},{top}..{right},{bottom} in a viewport of {width}x{height}"
    );
    assert!(
        scroll <= width,
        "{what}: the page scrolls sideways ({scroll} > {width})"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn screenshots_at_phone_and_desktop_sizes_with_the_board_in_view() {
    let scratch = Scratch::new("page-shots");
    let table = finkel2_table(&scratch);
    let server = Server::start(&scratch.path("data"), &["--table", &table]);
    let (finished, _) = finished_bot_game(&server, FINKEL2, 1, "light");
    let finished = finished["id"].as_str().unwrap();
    let driver = Driver::start("shots").await;
    for (size, name) in [(PHONE, "phone"), (DESKTOP, "desktop")] {
        let b = driver.browser(size).await;
        b.open(&server.addr, "/").await;
        b.wait(
            "the start form",
            "return document.querySelector('#start:not([disabled])')",
        )
        .await;
        b.screenshot(&format!("start-{name}")).await;
        let scroll = b
            .js("return document.documentElement.scrollWidth <= innerWidth")
            .await;
        assert_eq!(
            scroll, true,
            "the start page scrolls sideways at {name} size"
        );

        for game in ["ur", "senet"] {
            start_game(
                &b,
                &server.addr,
                &[
                    ("game", game),
                    ("opponent", "bot"),
                    ("level", "1"),
                    ("side", "light"),
                ],
            )
            .await;
            for _ in 0..4 {
                if next(&b).await == Next::Move {
                    click_move(&b, true).await;
                }
            }
            if next(&b).await == Next::Move {
                // A piece chosen: its route and target show.
                b.click("#board .movable").await;
                b.find("#board .target").await;
                b.find("#board .route").await;
            }
            fits(&b, &format!("{game} at {name} size")).await;
            b.screenshot(&format!("{game}-play-{name}")).await;
        }

        b.open(&server.addr, &format!("/g/{finished}/review")).await;
        b.wait(
            "the graph",
            "return document.querySelectorAll('#graph .pt').length",
        )
        .await;
        fits(&b, &format!("the review at {name} size")).await;
        b.screenshot(&format!("review-{name}")).await;
        b.close().await;
    }
}

/// The squares' names drawn on the board, as `cell:name`, sorted.
async fn coordinates(b: &Browser) -> Value {
    b.js("return [...document.querySelectorAll('#board .coord')] \
            .map(c => c.closest('[data-cell]').dataset.cell + ':' + c.textContent).sort()")
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_squares_names_are_shown_at_a_switch_that_is_remembered() {
    let bench = Bench::start("coordinates", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(&b, &server.addr, &UR_BOT).await;
    b.find("#board svg").await;
    assert_eq!(coordinates(&b).await, json!([]), "off at first");
    let squares = server.state(&id)["board"]["squares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            let name = q["name"].as_str().unwrap();
            format!("{name}:{name}")
        })
        .collect::<BTreeSet<_>>();
    assert_eq!(squares.len(), 20);
    let expected = json!(squares.into_iter().collect::<Vec<_>>());
    b.click("#coordinates").await;
    b.wait(
        "the squares' names",
        "return document.querySelectorAll('#board .coord').length",
    )
    .await;
    assert_eq!(coordinates(&b).await, expected, "every square named");
    // Remembered: a reload draws them again.
    b.client.refresh().await.unwrap();
    b.wait(
        "the board again",
        "return document.querySelector('#board svg') && document.querySelector('#coordinates')?.checked",
    )
    .await;
    assert_eq!(coordinates(&b).await, expected, "remembered");
    b.screenshot("ur-coordinates-desktop").await;
    b.fit(PHONE).await;
    fits(&b, "the board with its squares' names at phone size").await;
    b.screenshot("ur-coordinates-phone").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dark_mode_and_reduced_motion_are_followed() {
    let bench = Bench::start("dark", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver
        .browser_with(
            PHONE,
            &["--force-dark-mode", "--force-prefers-reduced-motion"],
        )
        .await;
    start_game(&b, &server.addr, &UR_BOT).await;
    assert_eq!(next(&b).await, Next::Move);
    click_move(&b, false).await;
    let seen = b
        .js(
            "return { dark: matchMedia('(prefers-color-scheme: dark)').matches, \
                      still: matchMedia('(prefers-reduced-motion: reduce)').matches, \
                      background: getComputedStyle(document.body).backgroundColor, \
                      sliding: document.querySelectorAll('.sliding').length }",
        )
        .await;
    assert_eq!(
        seen,
        json!({"dark": true, "still": true, "background": "rgb(24, 22, 20)", "sliding": 0})
    );
    fits(&b, "ur in dark mode").await;
    b.screenshot("ur-play-dark-phone").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_made_offline_is_sent_when_the_server_is_back_and_played_once() {
    let scratch = Scratch::new("page-offline");
    let data = scratch.path("data");
    let mut server = Server::start(&data, &[]);
    let driver = Driver::start("offline").await;
    let b = driver.browser(DESKTOP).await;
    let id = start_game(&b, &server.addr, &UR_BOT).await;
    let mut clicked = Vec::new();
    for _ in 0..2 {
        if next(&b).await == Next::Move {
            clicked.push(click_move(&b, false).await);
        }
    }
    assert_eq!(next(&b).await, Next::Move);
    let before = ply(&b).await;

    // The server goes away: the page says so, and a move made now waits.
    let addr = server.addr.clone();
    server.kill();
    b.wait(
        "the offline notice",
        "return !document.getElementById('net').hidden",
    )
    .await;
    let mv = pick_move(&b, false).await;
    b.wait(
        "the move to wait",
        "return document.getElementById('notice').textContent.startsWith('Offline')",
    )
    .await;
    clicked.push(mv.clone());

    // Back on the same address: the move arrives once, and play goes on.
    let server = Server::start(&data, &["--addr", &addr]);
    b.wait(
        "the move to be played",
        &format!(
            "return Number(document.getElementById('game').dataset.ply) > {before} \
             && document.getElementById('net').hidden"
        ),
    )
    .await;
    let state = server.state(&id);
    assert_eq!(state["log"][before as usize]["move"], mv.as_str());
    while next(&b).await == Next::Move && clicked.len() < 6 {
        clicked.push(click_move(&b, false).await);
    }
    let state = server.state(&id);
    let light: Vec<&str> = state["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["side"] == "light")
        .filter_map(|e| e["move"].as_str())
        .collect();
    assert_eq!(light, clicked, "each move clicked is played once");
    b.close().await;
}

/// The presets of race-games' catalogue, the one place they are written:
/// for each game its word and each preset's name and line about it.
fn catalogue_presets() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    race_games::catalogue(&race_games::Tables::default())
        .games
        .iter()
        .map(|g| (g.game, g.named.iter().map(|n| (n.name, n.about)).collect()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_of_the_catalogue_is_in_the_help_the_api_and_the_start_form() {
    let presets = catalogue_presets();
    assert!(presets.iter().all(|(_, named)| !named.is_empty()));
    // The command line's help lists each one with its line.
    let help = race(&["play", "--help"]);
    assert_eq!(help.code, 0, "{}", help.err);
    for (game, named) in &presets {
        for (name, about) in named {
            assert!(
                help.out
                    .lines()
                    .any(|l| l.contains(&format!(" {name} ")) && l.contains(about)),
                "race play --help lacks {game} {name}:\n{}",
                help.out
            );
        }
    }
    let bench = Bench::start("presets", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    // The server's catalogue names the same ones, in the same order.
    let rules = server.get("/api/rules").json();
    let served: Vec<(String, Vec<(String, String)>)> = rules["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let named = g["named"].as_array().unwrap().iter();
            (
                g["game"].as_str().unwrap().to_owned(),
                named
                    .map(|n| {
                        let s = |k: &str| n[k].as_str().unwrap().to_owned();
                        (s("name"), s("about"))
                    })
                    .collect(),
            )
        })
        .collect();
    let expected: Vec<(String, Vec<(String, String)>)> = presets
        .iter()
        .map(|(g, named)| {
            let named = named
                .iter()
                .map(|(n, a)| ((*n).to_owned(), (*a).to_owned()));
            ((*g).to_owned(), named.collect())
        })
        .collect();
    assert_eq!(served, expected);
    // The start form offers each one and says its line when chosen.
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    b.wait(
        "the start form",
        "return document.querySelector('#start:not([disabled])')",
    )
    .await;
    for (game, named) in &presets {
        b.click(&format!("input[name='game'][value='{game}']"))
            .await;
        // The form draws the game's rule sets once it has checked its
        // default: wait for the list to be the catalogue's.
        let names: Vec<&str> = named.iter().map(|(n, _)| *n).collect();
        let listed = b
            .wait(
                &format!("the rule sets of {game}: {names:?}"),
                &format!(
                    "const l = [...document.querySelectorAll(\"select[name='rules'] option\")] \
                          .map((o) => o.value).filter((v) => v !== 'custom'); \
                     return JSON.stringify(l) === {:?} ? l : null",
                    json!(names).to_string()
                ),
            )
            .await;
        assert_eq!(listed, json!(names), "{game}");
        for (name, about) in named {
            b.find("select[name='rules']")
                .await
                .select_by_value(name)
                .await
                .unwrap_or_else(|e| panic!("cannot choose {name}: {e}"));
            let note = b
                .wait(
                    &format!("the line about {name}"),
                    &format!(
                        "const n = document.querySelector('fieldset.choice p.note'); \
                         return n && n.textContent === {about:?} ? n.textContent : null"
                    ),
                )
                .await;
            assert_eq!(note, *about);
        }
    }
    b.close().await;
}

/// The id of the game a browser shows, once it is not `not`.
async fn shown_game(b: &Browser, what: &str, not: &str) -> String {
    let id = b
        .wait(
            what,
            &format!(
                "const m = location.pathname.match(/^\\/g\\/([A-Za-z0-9_-]+)$/); \
                 return m && m[1] !== '{not}' && document.getElementById('game') ? m[1] : null"
            ),
        )
        .await;
    id.as_str().expect("an id").to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_are_named_seen_told_their_turn_and_take_a_rematch_together() {
    let bench = Bench::start("people", &["--presence-window", "1"]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let host = driver.browser(DESKTOP).await;
    let friend = driver.browser(DESKTOP).await;
    // The name given last is the start form's.
    host.open(&server.addr, "/").await;
    host.js("localStorage.setItem('race.name', '<b>Ann</b>'); return null")
        .await;
    let id = start_game(
        &host,
        &server.addr,
        &[("game", "ur"), ("opponent", "friend"), ("side", "light")],
    )
    .await;
    let link = host
        .wait(
            "the invite link",
            "return document.querySelector('#invite-link')?.value",
        )
        .await;
    friend.open(&server.addr, "/").await;
    friend
        .js("localStorage.setItem('race.name', 'Bea'); return null")
        .await;
    friend
        .client
        .goto(link.as_str().unwrap())
        .await
        .expect("the link opens");
    friend
        .wait(
            "the friend's seat",
            "return document.getElementById('game')?.dataset.seat === 'dark'",
        )
        .await;
    // Both names, shown as text to both.
    for b in [&host, &friend] {
        b.wait(
            "both names",
            "const p = document.querySelector('.players'); \
             return p && p.textContent.includes('<b>Ann</b>') && p.textContent.includes('Bea') \
               && !p.querySelector('b')",
        )
        .await;
    }
    assert_eq!(
        server.state(&id)["names"],
        json!({"light": "<b>Ann</b>", "dark": "Bea"})
    );
    // The host's tab says who came, until a move is made.
    host.wait(
        "the title to say the friend joined",
        "return document.title.includes('Bea joined')",
    )
    .await;

    // The friend's title and icon say when it is its turn.
    let deadline = Instant::now() + PATIENCE;
    loop {
        assert!(Instant::now() < deadline, "never the friend's turn");
        let st = server.state(&id);
        if st["side"] == "dark" {
            friend
                .wait(
                    "the title and the icon to say so",
                    "return document.title.startsWith('Your turn') \
                       && document.querySelector(\"link[rel='icon']\").getAttribute('href') === '/page/icon-turn.svg'",
                )
                .await;
            break;
        }
        if host.js(NEXT).await.as_str() == Some("move") {
            click_move(&host, false).await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let tab = host
        .js("return {title: document.title, icon: document.querySelector(\"link[rel='icon']\").getAttribute('href')}")
        .await;
    assert!(
        !tab["title"].as_str().unwrap().starts_with("Your turn"),
        "{tab}"
    );
    assert_eq!(tab["icon"], "/page/icon.svg");
    let icon = server.get("/page/icon-turn.svg");
    assert_eq!(icon.status, 200);
    assert_eq!(icon.header("content-type"), Some("image/svg+xml"));
    assert_ne!(icon.text(), server.get("/page/icon.svg").text());

    // The host resigns; the friend offers a rematch, which the host's page
    // shows at once and accepts: both pages move to the new game.
    host.js("window.confirm = () => true; return null").await;
    host.click("#resign").await;
    friend
        .wait(
            "the rematch button",
            "return document.querySelector('#rematch-offer')",
        )
        .await;
    friend.click("#rematch-offer").await;
    host.wait(
        "the offer",
        "return document.querySelector('#rematch-offered')",
    )
    .await;
    host.click("#rematch-offer").await;
    let again = shown_game(&host, "the rematch's page", &id).await;
    assert_eq!(shown_game(&friend, "the rematch's page", &id).await, again);
    assert_eq!(view(&host).await["seat"], "dark");
    assert_eq!(view(&friend).await["seat"], "light");
    assert_eq!(
        server.state(&again)["names"],
        json!({"light": "Bea", "dark": "<b>Ann</b>"})
    );

    // The host's tab closes: the friend sees the host away.
    host.close().await;
    friend
        .wait(
            "the host away",
            "return document.querySelector('.player.dark .presence')?.dataset.presence === 'away'",
        )
        .await;

    // After a reload, the front page lists both games.
    friend.open(&server.addr, "/").await;
    let listed = friend
        .wait(
            "my games",
            "const l = [...document.querySelectorAll('#my-games .game-item')].map(i => i.dataset.id); \
             return l.length === 2 ? l : null",
        )
        .await;
    let listed: BTreeSet<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(listed, BTreeSet::from([id.as_str(), again.as_str()]));
    friend.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_third_browser_takes_an_open_game_from_the_front_page() {
    let bench = Bench::start("open", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let host = driver.browser(DESKTOP).await;
    let id = start_game(
        &host,
        &server.addr,
        &[("game", "senet"), ("opponent", "open"), ("side", "light")],
    )
    .await;
    assert_eq!(view(&host).await["status"], "waiting");
    let taker = driver.browser(PHONE).await;
    taker.open(&server.addr, "/").await;
    taker
        .wait(
            "the open game",
            &format!("return document.querySelector(\"#open-games [data-id='{id}'] .take\")"),
        )
        .await;
    taker
        .click(&format!("#open-games [data-id='{id}'] .take"))
        .await;
    assert_eq!(shown_game(&taker, "the game taken", "").await, id);
    taker
        .wait(
            "the taker's seat",
            "return document.getElementById('game')?.dataset.seat === 'dark'",
        )
        .await;
    host.wait(
        "the host to see it taken",
        "return document.getElementById('game').dataset.status === 'playing'",
    )
    .await;
    assert_eq!(server.state(&id)["status"], "playing");
    let listed = server.get("/api/open").json();
    assert_eq!(listed["games"], json!([]));
    host.close().await;
    taker.close().await;
}

/// Keeps a seat in this browser as the page keeps it.
async fn hold_seat(b: &Browser, id: &str, side: &str, token: &str) {
    let seat = json!({"seat": side, "token": token}).to_string();
    b.js(&format!(
        "localStorage.setItem('race.seat.{id}', {}); return null",
        json!(seat)
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_games_say_when_each_last_changed_and_which_wait_for_me() {
    let bench = Bench::start("my-games", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let friend = json!({"game": "ur", "opponent": "friend", "side": "light"});
    // Four games, each changed a second after the one before: one waiting
    // for its friend, one over, one where this browser is to move, one
    // where the other is.
    let made = server.post("/api/games", None, &friend).json();
    let waiting = made["id"].as_str().unwrap().to_owned();
    let mut held = vec![(
        waiting.clone(),
        "light".to_owned(),
        made["token"].as_str().unwrap().to_owned(),
    )];
    past(server.state(&waiting)["changed"].as_i64().unwrap());
    let (over, seats, _) = api_game(server, friend.clone());
    let resigned = server.post(
        &format!("/api/games/{over}/resign"),
        Some(&seats[0].1),
        &json!({}),
    );
    assert_eq!(resigned.json()["status"], "over");
    held.push((over.clone(), seats[0].0.clone(), seats[0].1.clone()));
    let mut last = resigned.json()["changed"].as_i64().unwrap();
    let mut pair = Vec::new();
    for to_move in [true, false] {
        past(last);
        let (id, seats, state) = api_game(server, friend.clone());
        last = state["changed"].as_i64().unwrap();
        let (side, token) = seats
            .iter()
            .find(|(side, _)| (state["side"] == side.as_str()) == to_move)
            .unwrap()
            .clone();
        held.push((id.clone(), side, token));
        pair.push(id);
    }
    let (mine, theirs) = (pair[0].clone(), pair[1].clone());

    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    for (id, side, token) in &held {
        hold_seat(&b, id, side, token).await;
    }
    // After a reload: the game waiting for this browser first, then the
    // latest changed, each saying when.
    b.open(&server.addr, "/").await;
    let listed = b
        .wait(
            "my games",
            "const l = [...document.querySelectorAll('#my-games .game-item')]; \
             return l.length === 4 ? l.map(i => ({id: i.dataset.id, \
               changed: Date.parse(i.querySelector('time.changed').dateTime) / 1000, \
               ago: i.querySelector('time.changed').textContent, \
               status: i.querySelector('.game-status').textContent})) : null",
        )
        .await;
    let listed = listed.as_array().unwrap();
    let order: Vec<&str> = listed.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(
        order,
        [
            mine.as_str(),
            theirs.as_str(),
            over.as_str(),
            waiting.as_str()
        ]
    );
    for shown in listed {
        let id = shown["id"].as_str().unwrap();
        assert_eq!(
            shown["changed"].as_f64(),
            server.state(id)["changed"].as_f64(),
            "{shown}"
        );
        let ago = shown["ago"].as_str().unwrap();
        assert!(ago == "just now" || ago.ends_with(" ago"), "{id}: {ago}");
    }
    assert_eq!(listed[0]["status"], "waits for you");
    assert_ne!(listed[1]["status"], "waits for you");
    // The words for longer waits.
    let words = b
        .js("return import('/page/people.js').then(m => \
               [m.ago(1000, 1030), m.ago(1000, 1060), m.ago(1000, 1000 + 150), \
                m.ago(1000, 1000 + 7200), m.ago(1000, 1000 + 86400 * 3), \
                m.ago(1000, 1000 + 86400 * 8).startsWith('on ')])")
        .await;
    assert_eq!(
        words,
        json!([
            "just now",
            "1 minute ago",
            "2 minutes ago",
            "2 hours ago",
            "3 days ago",
            true
        ])
    );
    b.close().await;
}

/// Plays through the API, for whichever side is to move, until `side` is
/// to move; returns the state then.
fn play_until(server: &Server, id: &str, seats: &[(String, String)], side: &str) -> Value {
    let mut state = server.state(id);
    let mut n = 0;
    while state["side"] != side {
        assert_eq!(state["status"], "playing", "the game ended first");
        state = api_move(server, id, seats, n);
        n += 1;
    }
    state
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_tab_notifies_of_its_turn_once_the_player_allowed_it() {
    let bench = Bench::start("notify", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let (id, seats, _) = api_game(
        server,
        json!({"game": "ur", "opponent": "friend", "side": "light"}),
    );
    let light = seats.iter().find(|(s, _)| s == "light").unwrap().1.clone();
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    hold_seat(&b, &id, "light", &light).await;
    b.open(&server.addr, &format!("/g/{id}")).await;
    b.wait(
        "the box that asks",
        "return document.getElementById('game')?.dataset.seat === 'light' \
           && document.querySelector('#notify') && !document.querySelector('#notify').checked",
    )
    .await;
    // The browser's notifications, counted from here; the tab hidden.
    b.js("window.asked = 0; window.shown = []; \
          class Told { constructor(title, o) { window.shown.push({title, body: o.body}); } \
                       addEventListener() {} close() {} } \
          Told.permission = 'default'; \
          Told.requestPermission = () => { window.asked += 1; Told.permission = 'granted'; return Promise.resolve('granted'); }; \
          window.Notification = Told; \
          Object.defineProperty(document, 'hidden', {configurable: true, get: () => window.hide}); \
          window.hide = true; return null")
        .await;
    let shown_at = |ply: &Value| {
        format!(
            "return document.getElementById('game').dataset.ply === '{ply}' ? \
               {{asked: window.asked, shown: window.shown.length, title: document.title}} : null"
        )
    };
    // Its turn comes, hidden, not asked for: nothing, and nothing asked.
    play_until(server, &id, &seats, "dark");
    let state = play_until(server, &id, &seats, "light");
    let seen = b.wait("the turn", &shown_at(&state["ply"])).await;
    assert_eq!(seen["asked"], 0);
    assert_eq!(seen["shown"], 0);
    assert!(seen["title"].as_str().unwrap().starts_with("Your turn"));
    // Asked for: the browser's leave is asked once, and the next turn
    // that comes while hidden is told.
    b.click("#notify").await;
    b.wait(
        "the leave kept",
        "return window.asked === 1 && localStorage.getItem('race.notify') === 'on' \
           && document.querySelector('#notify').checked",
    )
    .await;
    play_until(server, &id, &seats, "dark");
    let state = play_until(server, &id, &seats, "light");
    let seen = b.wait("the turn", &shown_at(&state["ply"])).await;
    assert_eq!(seen["shown"], 1);
    let told = b.js("return window.shown[0]").await;
    assert_eq!(told["title"], "Your turn");
    assert!(
        told["body"].as_str().unwrap().contains("your turn"),
        "{told}"
    );
    // A tab in view is not notified.
    b.js("window.hide = false; return null").await;
    play_until(server, &id, &seats, "dark");
    let state = play_until(server, &id, &seats, "light");
    let seen = b.wait("the turn", &shown_at(&state["ply"])).await;
    assert_eq!(
        (seen["asked"].clone(), seen["shown"].clone()),
        (json!(1), json!(1))
    );
    b.close().await;
}

/// The hot-seat form of the start page: the game, two players here, light
/// for the creator, and the box that turns the board ticked or not.
async fn start_hot_seat(b: &Browser, addr: &str, turn: bool) -> String {
    b.open(addr, "/").await;
    b.wait(
        "the start form",
        "return document.querySelector('#start:not([disabled])')",
    )
    .await;
    b.click("input[name='game'][value='ur']").await;
    b.find("select[name='rules']")
        .await
        .select_by_value("custom")
        .await
        .expect("custom rules");
    b.wait(
        "the custom fields",
        "return document.querySelector(\"select[name='field-pieces']\")",
    )
    .await;
    b.find("select[name='field-pieces']")
        .await
        .select_by_value("2")
        .await
        .expect("two pieces");
    b.click("input[name='opponent'][value='here']").await;
    let ticked = b
        .wait(
            "the box that turns the board",
            "const t = document.querySelector(\"input[name='turn']\"); return t ? {on: t.checked} : null",
        )
        .await;
    assert_eq!(ticked["on"], true, "the board turns unless told not to");
    if !turn {
        b.click("input[name='turn']").await;
    }
    b.wait(
        "the form as asked",
        &format!(
            "return document.querySelector(\"input[name='turn']\").checked === {turn} \
               && !document.querySelector('#start').disabled"
        ),
    )
    .await;
    b.click("input[name='side'][value='light']").await;
    b.click("#start").await;
    shown_game(b, "the hot-seat game", "").await
}

/// Plays a hot-seat game in one browser for whichever side is to move,
/// to the end when `whole`, else until both sides have moved; gives,
/// for each side, where the board drew its square `a1` while it moved.
async fn play_here(
    b: &Browser,
    server: &Server,
    id: &str,
    whole: bool,
) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let deadline = Instant::now() + PATIENCE * 10;
    let mut drawn: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    while whole || drawn.len() < 2 {
        assert!(Instant::now() < deadline, "the game did not end");
        match next(b).await {
            Next::Over => break,
            Next::Move => {
                let seat = view(b).await["seat"].as_str().unwrap().to_owned();
                let before = server.state(id);
                assert_eq!(
                    before["side"].as_str(),
                    Some(seat.as_str()),
                    "the seat is the side to move"
                );
                let a1 = b
                    .js("return document.querySelector(\"#board [data-cell='a1']\").getAttribute('transform')")
                    .await;
                drawn
                    .entry(seat)
                    .or_default()
                    .insert(a1.as_str().unwrap().to_owned());
                click_move(b, false).await;
            }
        }
    }
    drawn
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_at_one_screen_play_a_game_to_the_end_and_a_rematch() {
    let bench = Bench::start("hotseat", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_hot_seat(&b, &server.addr, true).await;
    let state = server.state(&id);
    assert_eq!(state["status"], "playing");
    assert_eq!(state["seats"], json!({"light": "person", "dark": "person"}));
    // One browser moves for whichever side is to move, to the end, the
    // board turned toward each.
    let drawn = play_here(&b, server, &id, true).await;
    assert_eq!(
        drawn.keys().collect::<Vec<_>>(),
        ["dark", "light"],
        "both sides moved"
    );
    assert!(
        drawn["dark"].is_disjoint(&drawn["light"]),
        "the board turns toward the side to move: {drawn:?}"
    );
    assert_eq!(server.state(&id)["status"], "over");
    b.wait(
        "the end",
        "return !document.getElementById('end').hidden && document.querySelector('#end-title')",
    )
    .await;

    // The rematch is a new game for the two here, both seats held at once.
    b.click("#rematch").await;
    let again = shown_game(&b, "the rematch", &id).await;
    let state = server.state(&again);
    assert_eq!(state["status"], "playing");
    assert_eq!(state["seats"], json!({"light": "person", "dark": "person"}));
    assert_eq!(state["rules"], server.state(&id)["rules"]);
    let kept = b
        .js(&format!(
            "const s = JSON.parse(localStorage.getItem('race.seat.{again}')); \
             return {{both: Object.keys(s.both).sort(), turn: s.turn}}"
        ))
        .await;
    assert_eq!(kept, json!({"both": ["dark", "light"], "turn": true}));
    let drawn = play_here(&b, server, &again, false).await;
    assert!(drawn["dark"].is_disjoint(&drawn["light"]), "{drawn:?}");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_at_one_screen_may_keep_the_board_still() {
    let bench = Bench::start("hotseat-still", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_hot_seat(&b, &server.addr, false).await;
    let kept = b
        .js(&format!(
            "return JSON.parse(localStorage.getItem('race.seat.{id}')).turn"
        ))
        .await;
    assert_eq!(kept, false);
    let drawn = play_here(&b, server, &id, false).await;
    assert_eq!(
        drawn["dark"], drawn["light"],
        "the board stays as it was drawn for both sides"
    );
    assert_eq!(drawn["dark"].len(), 1, "{drawn:?}");
    b.close().await;
}

/// Whether `path` is the `roll` places of `route` after `from`: the hand
/// stands before step 1, home after the last step; a square a route
/// passes twice may be either visit.
fn on_route(route: &[Value], from: &str, roll: usize, path: &[Value]) -> bool {
    let starts: Vec<usize> = if from == "hand" {
        vec![0]
    } else {
        (0..route.len())
            .filter(|&i| route[i] == from)
            .map(|i| i + 1)
            .collect()
    };
    starts.into_iter().any(|start| {
        let expected: Vec<Value> = (start..start + roll)
            .map(|i| route.get(i).cloned().unwrap_or_else(|| json!("home")))
            .collect();
        start + roll <= route.len() + 1 && expected == path
    })
}

/// The route the board draws for `mv`: its path, the places of its steps,
/// where it lands and what landing does.
async fn route_shown(b: &Browser, mv: &str) -> Value {
    b.wait(
        &format!("the route of {mv}"),
        &format!(
            "const r = document.querySelector('#board .route[data-move=\"{mv}\"]'); \
             return r ? {{path: r.dataset.path.split(' '), \
                          steps: [...r.querySelectorAll('.route-step')].map(c => c.dataset.place), \
                          landing: r.querySelector('.landing').dataset.place, \
                          lands: r.dataset.lands ? r.dataset.lands.split(' ') : []}} : null"
        ),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_piece_hovered_or_focused_shows_its_route_square_by_square_and_its_landing() {
    let bench = Bench::start("route", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    let id = start_game(&b, &server.addr, &UR_BOT).await;
    let mut turns = 0;
    let mut landings = BTreeSet::new();
    while turns < 6 && next(&b).await == Next::Move {
        let state = server.state(&id);
        let route = state["board"]["routes"]["light"].as_array().unwrap();
        let roll = state["roll"].as_u64().unwrap() as usize;
        let moves = state["moves"].as_array().unwrap();
        // Each legal move comes with its places, as data.
        let names: Vec<&Value> = moves.iter().map(|m| &m["move"]).collect();
        assert_eq!(json!(names), state["legal"]);
        for m in moves {
            let mv = m["move"].as_str().unwrap();
            let path = m["path"].as_array().unwrap();
            assert!(
                on_route(route, m["from"].as_str().unwrap(), roll, path),
                "{m} is not {roll} steps of {route:?}"
            );
            assert_eq!(path.last(), Some(&m["to"]), "{m}");
            b.hover(&format!("#board .movable[data-move='{mv}']")).await;
            let shown = route_shown(&b, mv).await;
            assert_eq!(shown["path"], json!(path), "{mv}");
            assert_eq!(shown["steps"], json!(path[..path.len() - 1]), "{mv}");
            assert_eq!(shown["landing"], m["to"], "{mv}");
            assert_eq!(shown["lands"], m["lands"], "{mv}");
            if m["to"] == "home" {
                assert!(m["lands"].as_array().unwrap().contains(&json!("home")));
            }
            landings.extend(m["lands"].as_array().unwrap().iter().map(|l| l.to_string()));
        }
        // From the keyboard: the piece focused shows its route.
        b.mouse_away().await;
        let mut presses = 0;
        let focused = loop {
            let f = b
                .js("const a = document.activeElement; \
                     return a && a.classList.contains('movable') ? a.dataset.move : null")
                .await;
            if let Some(f) = f.as_str() {
                break f.to_owned();
            }
            assert!(presses < 60, "Tab never reached a movable piece");
            b.keys(&[Key::Tab]).await;
            presses += 1;
        };
        let m = moves
            .iter()
            .find(|m| m["move"] == focused.as_str())
            .unwrap();
        assert_eq!(route_shown(&b, &focused).await["path"], m["path"]);
        let before = ply(&b).await;
        b.keys(&[Key::Enter]).await;
        b.wait(
            "the move to be played",
            &format!(
                "const g = document.getElementById('game'); \
                 return Number(g.dataset.ply) > {before} || g.dataset.status === 'over'"
            ),
        )
        .await;
        turns += 1;
    }
    assert!(turns >= 3, "only {turns} turns were played");
    assert!(landings.contains("\"enter\""), "{landings:?}");
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_start_form_says_what_each_game_is_in_the_catalogues_words() {
    let bench = Bench::start("blurb", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let catalogue = server.get("/api/rules").json();
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    b.wait(
        "the start form",
        "return document.querySelector('#start:not([disabled])')",
    )
    .await;
    for g in catalogue["games"].as_array().unwrap() {
        let about = g["about"].as_str().unwrap();
        assert!(!about.is_empty(), "{g}");
        let shown = b
            .js(&format!(
                "return document.querySelector(\"input[name='game'][value='{}']\") \
                   .closest('label').querySelector('.note').textContent",
                g["game"].as_str().unwrap()
            ))
            .await;
        assert_eq!(shown, about);
    }
    b.close().await;
}

/// The plies `/plies` says, from `from` on, to the player of `side`.
fn said_to(server: &Server, id: &str, from: usize, side: &str) -> Vec<String> {
    let story = server
        .get(&format!("/api/games/{id}/plies?from={from}"))
        .json();
    story["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["said"][side].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_of_your_piece_is_said_in_the_status_line_and_announced_once() {
    let bench = Bench::start("said", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let (id, seats, _) = api_game(
        server,
        json!({"game": "ur", "opponent": "friend", "side": "light"}),
    );
    let light = &seats.iter().find(|(s, _)| s == "light").unwrap().1;
    let b = driver.browser(DESKTOP).await;
    b.open(&server.addr, "/").await;
    b.js(&format!(
        "localStorage.setItem('race.seat.{id}', JSON.stringify({{seat: 'light', token: '{light}'}})); return null"
    ))
    .await;
    b.open(&server.addr, &format!("/g/{id}")).await;
    b.wait("the game", "return document.getElementById('game')")
        .await;
    // Both seats play through the API: light runs its front piece, dark
    // takes whatever it can; the browser holds light's seat.
    let mut captured = None;
    let mut tops = BTreeSet::new();
    for _ in 0..400 {
        let state = server.state(&id);
        if state["status"] == "over" {
            break;
        }
        let moves = state["moves"].as_array().unwrap();
        let pick = if state["side"] == "dark" {
            moves
                .iter()
                .position(|m| m["lands"].as_array().unwrap().contains(&json!("capture")))
                .unwrap_or(0)
        } else {
            moves.len().saturating_sub(1)
        };
        let before = state["ply"].as_u64().unwrap();
        let after = api_move(server, &id, &seats, pick);
        let ply = after["ply"].as_u64().unwrap();
        b.wait(
            "the ply to be told",
            &format!(
                "return Number(document.getElementById('game').dataset.ply) === {ply} \
                   && document.querySelectorAll('#log li').length === {ply}"
            ),
        )
        .await;
        // The board never moves under the finger as the notices change.
        let top = b
            .js("return document.querySelector('#board svg').getBoundingClientRect().top")
            .await;
        tops.insert(top.to_string());
        let log = after["log"].as_array().unwrap();
        let new = &log[before as usize..];
        if new
            .iter()
            .any(|e| e["side"] == "dark" && e["capture"] == true)
        {
            captured = Some((before as usize, ply as usize));
            break;
        }
    }
    let (from, ply) = captured.expect("dark captured a light piece");
    assert_eq!(tops.len(), 1, "the board moved: {tops:?}");
    let said = said_to(server, &id, from, "light");
    let capture = said
        .iter()
        .find(|s| s.contains("taking your piece there: it goes back to your hand"))
        .unwrap_or_else(|| panic!("no capture said in {said:?}"));
    assert!(capture.starts_with("Dark threw "), "{capture}");
    let shown = b
        .js(
            "return {notice: document.getElementById('notice').textContent, \
                     announced: document.getElementById('announce').textContent, \
                     live: document.getElementById('announce').getAttribute('aria-live'), \
                     log: document.querySelector('#log li').textContent}",
        )
        .await;
    let notice = shown["notice"].as_str().unwrap();
    assert!(notice.contains(capture.as_str()), "{notice}");
    // Announced once: the plies new since the last state, nothing older.
    assert_eq!(shown["announced"], said.join(" "));
    assert_eq!(shown["live"], "polite");
    assert_eq!(shown["log"].as_str(), said.last().map(String::as_str));
    // The viewer reads "you" for its own plies, never its side's name.
    let all = said_to(server, &id, 0, "light");
    let mine = server.get(&format!("/api/games/{id}/plies")).json();
    for (p, text) in mine["plies"].as_array().unwrap().iter().zip(&all) {
        if p["side"] == "light" {
            assert!(text.starts_with("You threw"), "{text}");
        }
    }
    assert_eq!(all.len(), ply);
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_how_to_panel_gives_the_rule_sets_own_rules_and_senet_has_a_legend() {
    let bench = Bench::start("howto", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(DESKTOP).await;
    for (game, rules, dice, route) in [
        ("ur", "masters", "a throw of nothing counts 4", true),
        ("ur", "finkel", "a throw of nothing loses the turn", true),
        ("senet", "skyruk", "none up counts 5", false),
    ] {
        let (id, _, _) = api_game(
            server,
            json!({"game": game, "rules": rules, "opponent": "friend"}),
        );
        let set = server
            .get(&format!("/api/rules/{game}?rules={rules}"))
            .json();
        b.open(&server.addr, &format!("/g/{id}")).await;
        let shown = b
            .wait(
                "the how-to panel",
                "const p = document.getElementById('how-to'); \
                 return p && {open: p.open, lines: [...p.querySelectorAll('dd')].map(d => [d.dataset.topic, d.textContent]), \
                   legend: [...document.querySelectorAll('#legend li')].map(l => l.dataset.kind)}",
            )
            .await;
        let lines: Vec<Value> = set["how_to"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| json!([l["topic"], l["text"]]))
            .collect();
        assert_eq!(shown["lines"], json!(lines), "{game} {rules}");
        let text = |topic: &str| {
            lines
                .iter()
                .find(|l| l[0] == topic)
                .and_then(|l| l[1].as_str())
                .unwrap_or_default()
                .to_owned()
        };
        let throws = if game == "ur" { "Dice" } else { "Sticks" };
        assert!(text(throws).contains(dice), "{}", text(throws));
        if route {
            // The route named is the rule set's own.
            let squares: Vec<&str> = set["layout"]["routes"]["light"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect();
            assert!(
                text("Route").contains(&squares.join(" ")),
                "{}",
                text("Route")
            );
        }
        let kinds: Vec<&Value> = set["legend"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| &l["kind"])
            .collect();
        assert_eq!(shown["legend"], json!(kinds));
        if game == "senet" {
            assert_eq!(kinds.len(), 6, "every special house is in the legend");
            assert!(
                text("The water").contains("stands"),
                "{}",
                text("The water")
            );
        }
        // Open on the first visit only.
        assert_eq!(
            shown["open"],
            game == "ur" && rules == "masters",
            "{game} {rules}"
        );
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_ur_squares_are_big_enough_to_tap_and_each_names_its_occupant() {
    let bench = Bench::start("tap", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser(PHONE).await;
    let id = start_game(&b, &server.addr, &UR_BOT).await;
    for _ in 0..3 {
        if next(&b).await == Next::Move {
            click_move(&b, false).await;
        }
    }
    next(&b).await;
    let state = server.state(&id);
    let cells = b
        .js("return [...document.querySelectorAll('#board .cell')].map(c => { \
               const r = c.getBoundingClientRect(); \
               return {cell: c.dataset.cell, w: r.width, h: r.height, label: c.getAttribute('aria-label'), role: c.getAttribute('role')}; })")
        .await;
    let cells = cells.as_array().unwrap();
    assert_eq!(cells.len(), 20);
    for c in cells {
        let (w, h) = (c["w"].as_f64().unwrap(), c["h"].as_f64().unwrap());
        assert!(w >= 44.0 && h >= 44.0, "{c}: {w}x{h} px");
        let name = c["cell"].as_str().unwrap();
        let on = state["board"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["square"] == name);
        let occupant = on.map_or("empty".to_owned(), |p| {
            format!("a {} piece", p["side"].as_str().unwrap())
        });
        let label = c["label"].as_str().unwrap();
        assert!(label.starts_with(&format!("square {name}")), "{label}");
        assert!(
            label.ends_with(&format!(": {occupant}")),
            "{label} for {on:?}"
        );
        assert_eq!(c["role"], "img");
    }
    // Every piece has a name, whether it can move or not.
    let unnamed = b
        .js("return [...document.querySelectorAll('#board .piece')] \
               .filter(p => !(p.getAttribute('aria-label') ?? '').includes(' piece on ')).length")
        .await;
    assert_eq!(unnamed, 0);
    b.close().await;
}

/// The contrast of a colour against another, as WCAG measures it, in the
/// page: `fg` and `bg` are CSS colours as `getComputedStyle` gives them.
const CONTRAST: &str = "const lum = (c) => { \
       const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => { \
         v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); \
       return 0.2126 * r + 0.7152 * g + 0.0722 * b; }; \
     const contrast = (fg, bg) => { const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x); \
       return (a + 0.05) / (b + 0.05); };";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_dark_mode_senets_glyphs_and_the_notices_stand_out() {
    let bench = Bench::start("contrast", &[]).await;
    let (server, driver) = (&bench.server, &bench.driver);
    let b = driver.browser_with(PHONE, &["--force-dark-mode"]).await;
    let (id, _, _) = api_game(server, json!({"game": "senet", "opponent": "friend"}));
    b.open(&server.addr, &format!("/g/{id}")).await;
    b.wait(
        "the board",
        "return document.querySelector('#board .glyph')",
    )
    .await;
    let measured = b
        .js(&format!(
            "{CONTRAST} \
             const glyphs = [...document.querySelectorAll('#board .glyph')].map((g) => {{ \
               const square = g.closest('.cell').querySelector('.square'); \
               return getComputedStyle(g).opacity < 1 ? 0 \
                 : contrast(getComputedStyle(g).stroke, getComputedStyle(square).fill); }}); \
             const behind = (el) => {{ \
               for (let e = el; e; e = e.parentElement) {{ \
                 const c = getComputedStyle(e).backgroundColor; \
                 if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; }} \
               return 'rgb(255, 255, 255)'; }}; \
             const on = (el) => contrast(getComputedStyle(el).color, behind(el)); \
             const text = [...document.querySelectorAll('#how-to dd, #legend li, .turn, .players')].map(on); \
             return {{glyphs, notice: on(document.getElementById('notice')), text, \
                     dark: matchMedia('(prefers-color-scheme: dark)').matches}};"
        ))
        .await;
    assert_eq!(measured["dark"], true);
    let glyphs = measured["glyphs"].as_array().unwrap();
    assert_eq!(glyphs.len(), 6, "{measured}");
    for g in glyphs {
        assert!(
            g.as_f64().unwrap() >= 3.0,
            "a glyph stands {g}:1 on its house"
        );
    }
    assert!(measured["notice"].as_f64().unwrap() >= 4.5, "{measured}");
    let text = measured["text"].as_array().unwrap();
    assert!(!text.is_empty());
    for t in text {
        assert!(
            t.as_f64().unwrap() >= 4.5,
            "a text stands {t}:1 on the page"
        );
    }
    b.close().await;
}
