//! The review page in a real browser (headless Chromium over WebDriver,
//! as `page.rs`), against `race serve` with a 2-piece finkel table solved
//! for the test: it opens on the ply asked for, draws the move played and
//! the best one, steps by the arrow keys whatever has focus, graphs the
//! viewer's side, and shows each side's accuracy, grades, luck and
//! luck-adjusted result and the key moments exactly as `race analyse
//! --json` gives them for the same record and table.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use fantoccini::key::Key;
use serde_json::{Value, json};

mod common;

use common::browser::{Browser, DESKTOP, Driver};
use common::race;
use common::server::{Scratch, Server};

const FINKEL2: &str = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2";

/// A finished friend game on finkel2 with both seats played through the
/// API, light always taking its first legal move and dark its last, which
/// has a move that was not the best in it: the game's id, dark's token,
/// and what `race analyse --json` says of its record.
fn finished_game(server: &Server, scratch: &Scratch, table: &str) -> (String, String, Value) {
    for _ in 0..20 {
        let made = server.post(
            "/api/games",
            None,
            &json!({"game": "ur", "rules": FINKEL2, "opponent": "friend", "side": "light"}),
        );
        assert_eq!(made.status, 201, "{}", made.text());
        let made = made.json();
        let id = made["id"].as_str().unwrap().to_owned();
        let invite = made["invite"]
            .as_str()
            .unwrap()
            .split_once("#join=")
            .unwrap()
            .1;
        let joined = server.post(
            &format!("/api/games/{id}/join"),
            None,
            &json!({ "invite": invite }),
        );
        assert_eq!(joined.status, 200, "{}", joined.text());
        let joined = joined.json();
        let tokens = [
            made["token"].as_str().unwrap().to_owned(),
            joined["token"].as_str().unwrap().to_owned(),
        ];
        loop {
            let state = server.state(&id);
            if state["status"] == "over" {
                break;
            }
            let legal = state["legal"].as_array().unwrap();
            let (token, mv) = if state["side"] == "light" {
                (&tokens[0], &legal[0])
            } else {
                (&tokens[1], legal.last().unwrap())
            };
            let reply = server.post(
                &format!("/api/games/{id}/moves"),
                Some(token),
                &json!({"ply": state["ply"], "move": mv}),
            );
            assert_eq!(reply.status, 200, "{}", reply.text());
        }
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
        let mistake = analysis["turns"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["lost"].as_f64().unwrap() > 1e-9 && t["ply"].as_u64().unwrap() > 0);
        if mistake {
            return (id, tokens[1].clone(), analysis);
        }
    }
    panic!("no game with a move that was not the best in 20");
}

/// A server with a 2-piece finkel table solved for the test, a finished
/// game on it, and a browser holding that game's dark seat.
struct Review {
    server: Server,
    /// The folder of the table and the server's data, kept while the
    /// review runs.
    _scratch: Scratch,
    id: String,
    /// Dark's seat token.
    token: String,
    analysis: Value,
    story: Value,
    driver: Driver,
}

impl Review {
    async fn new(name: &str) -> Review {
        let scratch = Scratch::new(name);
        let table = scratch.path("finkel2.table");
        let table = table.to_str().unwrap().to_owned();
        let run = race(&["solve", "finkel", "--pieces", "2", "--out", &table]);
        assert_eq!(run.code, 0, "{}", run.err);
        let server = Server::start(&scratch.path("data"), &["--table", &table]);
        let (id, token, analysis) = finished_game(&server, &scratch, &table);
        let story = server.get(&format!("/api/games/{id}/plies")).json();
        let driver = Driver::start(name).await;
        Review {
            server,
            _scratch: scratch,
            id,
            token,
            analysis,
            story,
            driver,
        }
    }

    /// A browser that holds the game's dark seat, as the one who played
    /// it does.
    async fn browser(&self) -> Browser {
        let b = self.driver.browser(DESKTOP).await;
        b.open(&self.server.addr, "/").await;
        b.js(&format!(
            "localStorage.setItem('race.seat.{}', JSON.stringify({{seat: 'dark', token: '{}'}})); return true",
            self.id, self.token
        ))
        .await;
        b
    }

    /// Opens the review at `hash` and waits for its graph.
    async fn open(&self, b: &Browser, hash: &str) {
        b.open(&self.server.addr, &format!("/g/{}/review{hash}", self.id))
            .await;
        b.wait(
            "the graph",
            "return document.querySelectorAll('#graph .pt').length",
        )
        .await;
    }

    fn plies(&self) -> u64 {
        self.story["plies"].as_array().unwrap().len() as u64
    }

    /// The pieces on the board after `i` plies (the start for 0), as
    /// `side:square`, sorted.
    fn pieces_after(&self, i: u64) -> Value {
        let at = if i == 0 {
            &self.story["start"]
        } else {
            &self.story["plies"][i as usize - 1]
        };
        let mut out: Vec<String> = at["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                format!(
                    "{}:{}",
                    p["side"].as_str().unwrap(),
                    p["square"].as_str().unwrap()
                )
            })
            .collect();
        out.sort();
        json!(out)
    }
}

/// The pieces the board shows, as `side:place`, sorted.
async fn pieces_shown(b: &Browser) -> Value {
    b.js("return [...document.querySelectorAll('#board .piece')] \
            .map(p => p.dataset.side + ':' + p.dataset.place).sort()")
        .await
}

/// Waits for the caption to name ply `n` (counted from 1) and returns it.
async fn caption_of(b: &Browser, n: u64, plies: u64) -> String {
    b.wait(
        &format!("the caption of ply {n}"),
        &format!(
            "const c = document.querySelector('#review-caption'); \
             return c && c.textContent.startsWith('Ply {n} of {plies}:') ? c.textContent : null"
        ),
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

/// The arrows drawn on the board: `{played, best}` by their moves.
async fn arrows(b: &Browser) -> Value {
    b.js(
        "return Object.fromEntries([...document.querySelectorAll('#board .arrow')] \
            .map(a => [a.classList.contains('best') ? 'best' : 'played', a.dataset.move]))",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_review_opens_on_the_ply_asked_and_draws_the_move_played_and_the_best() {
    let r = Review::new("review-asked").await;
    let b = r.browser().await;
    let n = r.plies();
    let turns = r.analysis["turns"].as_array().unwrap().clone();
    let mistake = turns
        .iter()
        .find(|t| t["lost"].as_f64().unwrap() > 1e-9 && t["ply"].as_u64().unwrap() > 0)
        .unwrap();
    // Ply 7 as the log numbers it (ply 6 from 0), and a move not the best.
    let asked: Vec<&Value> = turns
        .iter()
        .filter(|t| t["ply"] == 6)
        .chain([mistake])
        .collect();
    for turn in asked {
        let k = turn["ply"].as_u64().unwrap();
        r.open(&b, &format!("#ply={}", k + 1)).await;
        let caption = caption_of(&b, k + 1, n).await;
        let ply = &r.story["plies"][k as usize];
        assert!(
            caption.contains(&format!("threw {}", ply["roll"])),
            "{caption} for {ply}"
        );
        // The throw shown is the ply's own, and the board the one it was
        // played on, at step k of the slider.
        let dice = b
            .js("return document.querySelector('.dice .roll')?.textContent ?? null")
            .await;
        assert_eq!(dice, json!(ply["roll"].to_string()), "ply {k}");
        assert_eq!(pieces_shown(&b).await, r.pieces_after(k), "ply {k}");
        assert_eq!(
            b.js("return document.querySelector('#step').value").await,
            json!(k.to_string())
        );
        // The list marks that ply, and the graph's marked point is the one
        // under the cursor (the position shown).
        let marked = b
            .js("return [...document.querySelectorAll('.ply-item.current')].map(e => Number(e.dataset.ply))")
            .await;
        assert_eq!(marked, json!([k]));
        let point = b
            .js("const p = document.querySelector('#graph .pt.current'); \
                 const c = document.querySelector('#graph .cursor'); \
                 return p ? [Number(p.getAttribute('cx')), Number(c.getAttribute('x1'))] : null")
            .await;
        if k > 0 {
            assert_eq!(point[0], point[1], "the marked point lies on the cursor");
        }
        // The move played, and the best one when it was another.
        let best = &turn["best"];
        let expected = if best == &turn["move"] || best.is_null() {
            json!({"played": turn["move"]})
        } else {
            json!({"played": turn["move"], "best": best})
        };
        let expected = if turn["move"].is_null() {
            json!({})
        } else {
            expected
        };
        assert_eq!(arrows(&b).await, expected, "ply {k}: {caption}");
        if let Some(grade) = turn["grade"].as_str() {
            assert!(caption.contains(&format!("Grade: {grade}.")), "{caption}");
        }
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_arrow_keys_step_the_review_whatever_has_focus() {
    let r = Review::new("review-keys").await;
    let b = r.browser().await;
    let n = r.plies();
    assert!(n > 4, "{n} plies");
    let k = n / 2;
    r.open(&b, &format!("#ply={}", k + 1)).await;
    caption_of(&b, k + 1, n).await;

    // With a step button focused: one ply on shows the board after ply
    // k + 1.
    b.js("document.querySelector(\"button[aria-label='One ply on']\").focus(); return true")
        .await;
    b.keys(&[Key::Right]).await;
    caption_of(&b, k + 1, n).await;
    b.wait(
        "the step after the ply",
        &format!(
            "return document.querySelector('#step').value === '{}'",
            k + 1
        ),
    )
    .await;
    assert_eq!(pieces_shown(&b).await, r.pieces_after(k + 1));

    // With a button of the ply list focused: back two positions.
    b.js(&format!(
        "document.querySelector('.ply-item[data-ply=\"{}\"]').focus(); return true",
        k + 2
    ))
    .await;
    b.keys(&[Key::Left, Key::Left]).await;
    b.wait(
        "two steps back",
        &format!(
            "return document.querySelector('#step').value === '{}'",
            k - 1
        ),
    )
    .await;
    caption_of(&b, k - 1, n).await;
    assert_eq!(pieces_shown(&b).await, r.pieces_after(k - 1));

    // With nothing focused, and with the slider itself, which steps once
    // a key, not twice.
    b.js("document.activeElement.blur(); return true").await;
    b.keys(&[Key::Right]).await;
    b.wait(
        "a step on",
        &format!("return document.querySelector('#step').value === '{k}'"),
    )
    .await;
    b.js("document.querySelector('#step').focus(); return true")
        .await;
    b.keys(&[Key::Right]).await;
    b.wait(
        "a step on by the slider",
        &format!(
            "return document.querySelector('#step').value === '{}'",
            k + 1
        ),
    )
    .await;
    assert_eq!(pieces_shown(&b).await, r.pieces_after(k + 1));
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accuracy_grades_luck_and_key_moments_are_race_analyses() {
    let r = Review::new("review-figures").await;
    let b = r.browser().await;
    r.open(&b, "").await;
    let a = &r.analysis;

    // Each side's figures: the exact number, and the text rounded from it.
    let mut figures: Vec<(String, &str)> =
        ["accuracy", "mean_lost", "luck", "result", "luck_adjusted"]
            .iter()
            .map(|f| ((*f).to_owned(), *f))
            .collect();
    for g in ["best", "good", "inaccuracy", "mistake", "blunder"] {
        figures.push((format!("grades.{g}"), g));
    }
    for (key, _) in &figures {
        let shown = b
            .js(&format!(
                "return [...document.querySelectorAll('#scores tr[data-figure=\"{key}\"] td')] \
                   .map(td => [td.dataset.value, td.textContent])"
            ))
            .await;
        for (i, side) in ["light", "dark"].into_iter().enumerate() {
            let expected = key.split('.').fold(&a[side], |v, part| &v[part]);
            let value = shown[i][0].as_str().unwrap();
            let text = shown[i][1].as_str().unwrap();
            let Some(x) = expected.as_f64() else {
                assert!(
                    expected.is_null() && value.is_empty(),
                    "{key} {side}: {shown}"
                );
                continue;
            };
            let value: f64 = value.parse().unwrap();
            assert!(
                (value - x).abs() <= 1e-12,
                "{key} {side}: shows {value}, race analyse {x}"
            );
            // The text is the number rounded: accuracy and counts as they
            // are, chances in points.
            let scale = if key == "accuracy" || key.starts_with("grades.") {
                1.0
            } else {
                100.0
            };
            let read: f64 = text.trim_end_matches('%').parse().unwrap();
            assert!(
                (read - x * scale).abs() <= 0.005 + 1e-9,
                "{key} {side}: the text {text} for {x}"
            );
        }
    }

    // Each ply's grade in the list.
    let grades = b
        .js("return [...document.querySelectorAll('.ply-item')].map(e => e.dataset.grade || null)")
        .await;
    let expected: Vec<Value> = a["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["grade"].clone())
        .collect();
    assert_eq!(grades, json!(expected));

    // The key moments, in race analyse's order; each opens its ply.
    let moments = b
        .js("return [...document.querySelectorAll('#key-moments .key-moment')].map(e => Number(e.dataset.ply))")
        .await;
    assert_eq!(moments, a["key_moments"]);
    let n = r.plies();
    for ply in a["key_moments"].as_array().unwrap() {
        let k = ply.as_u64().unwrap();
        b.click(&format!("#key-moments .key-moment[data-ply='{k}']"))
            .await;
        caption_of(&b, k + 1, n).await;
        assert_eq!(pieces_shown(&b).await, r.pieces_after(k));
    }

    // The graph is the viewer's side's chance: dark's, for the dark seat.
    let shown = b
        .js("return [...document.querySelectorAll('#graph .pt')].map(p => Number(p.dataset.value))")
        .await;
    let turns = a["turns"].as_array().unwrap();
    assert_eq!(shown.as_array().unwrap().len(), turns.len());
    for (t, v) in turns.iter().zip(shown.as_array().unwrap()) {
        let after = t["after"].as_f64().unwrap();
        let dark = if t["side"] == "dark" {
            after
        } else {
            1.0 - after
        };
        assert!((v.as_f64().unwrap() - dark).abs() <= 1e-12, "{t}: {v}");
    }
    let title = b
        .js("return document.querySelector('#graph').getAttribute('aria-label')")
        .await;
    assert_eq!(title, "Dark's chance to win after every ply");
    b.close().await;
}
