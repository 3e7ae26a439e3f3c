//! Known answers: what the command line and the server said before this
//! crate held the games for them (the catalogue and rule sets of `GET
//! /api/rules`, the plies of `GET /api/games/{id}/plies`, the narration of
//! `race play`, the moves and thoughts of `race moves` and `race bot`),
//! and what the one layer says now.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{Faces, Game};
use race_games::{
    Bot, Kind, Level, RaceGame, RuleSetView, Story, Tables, catalogue, for_kind, narrate,
    read_rules,
};
use royal_ur::Ur;
use senet::Senet;
use serde_json::Value;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Drops the fields the one layer adds, so that what was there before
/// can be compared.
fn without(mut value: Value, keys: &[&str]) -> Value {
    match &mut value {
        Value::Object(map) => {
            for key in keys {
                map.remove(*key);
            }
            for v in map.values_mut() {
                *v = without(v.take(), keys);
            }
        }
        Value::Array(items) => {
            for v in items {
                *v = without(v.take(), keys);
            }
        }
        _ => {}
    }
    value
}

#[test]
fn the_catalogue_is_the_servers_with_a_line_about_each_preset_and_level() {
    let text = data("rules.json");
    let mut lines = text.lines();
    let before: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    let now = serde_json::to_value(catalogue(&Tables::default())).unwrap();
    assert_eq!(without(now.clone(), &["about", "level_notes"]), before);
    // What the page held: a line about each preset, each level in words.
    assert_eq!(
        now["games"][1]["named"][1]["about"],
        "The gym-senet reconstruction: two in a row block, house 26 throws again, the water holds a piece."
    );
    assert_eq!(now["games"][0]["level_notes"][4]["level"], "perfect");
    assert_eq!(now["games"][1]["level_notes"].as_array().unwrap().len(), 4);
    // Each rule set's view, as `GET /api/rules/{game}?rules=...` gave it;
    // a preset a record spells out (finkel2p, masters4d) now has its name.
    for line in lines {
        let before: Value = serde_json::from_str(line).unwrap();
        let kind: Kind = before["game"].as_str().unwrap().parse().unwrap();
        let rules = before["rules"].as_str().unwrap();
        let view = for_kind!(kind, G => {
            let variant = read_rules::<G>(Some(rules)).unwrap();
            RuleSetView::of::<G>(&variant, &Tables::default())
        });
        let now = serde_json::to_value(view).unwrap();
        // The board as data and the game's words are new beside the old
        // view: the layout's routes are the board's, square by square.
        assert_eq!(now["layout"]["routes"], board_routes(&now), "{rules}");
        assert_eq!(now["words"]["dice"], for_kind!(kind, G => G::WORDS.dice));
        // So are the rules told in lines and the legend.
        assert!(!now["how_to"].as_array().unwrap().is_empty(), "{rules}");
        assert!(now["legend"].is_array(), "{rules}");
        let mut now = without(now, &["layout", "words", "how_to", "legend"]);
        if before["name"].is_null() && rules.starts_with("route=") {
            assert!(now["name"].is_string(), "{rules}: {now}");
            now["name"] = Value::Null;
        }
        assert_eq!(now, before, "{rules}");
    }
}

/// The old view's routes, or for Senet the track 1 to 30 both sides
/// share.
fn board_routes(view: &Value) -> Value {
    match view["board"].get("routes") {
        Some(routes) => routes.clone(),
        None => {
            let track: Vec<String> = (1..=30).map(|n| n.to_string()).collect();
            serde_json::json!({"light": track, "dark": track})
        }
    }
}

/// The plies the server told for a game, and the story the one layer
/// tells from the game's own walk.
fn story_holds<G: RaceGame>(name: &str) {
    let game = Game::<G>::replay_text(&data(&format!("{name}.txt")), None).unwrap();
    let told = data(&format!("{name}.plies.json"));
    let mut lines = told
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let story = serde_json::to_value(Story::of(&game, 0)).unwrap();
    assert_eq!(
        without(story["start"].clone(), &["pieces", "counts"]),
        lines.next().unwrap()
    );
    let plies = story["plies"].as_array().unwrap();
    assert_eq!(plies.len(), game.log().len());
    let mut n = 0;
    for (now, before) in plies.iter().zip(lines) {
        // A move's places, beside it, are the two ends of its text.
        if let Some(mv) = now["move"].as_str() {
            let places = format!(
                "{}-{}",
                now["from"].as_str().unwrap(),
                now["to"].as_str().unwrap()
            );
            assert_eq!(places, mv, "{name}");
            assert!(
                now["offered"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|o| o["move"] == mv)
            );
        }
        let new = [
            "water", "words", "pieces", "counts", "said", "offered", "from", "to",
        ];
        assert_eq!(without(now.clone(), &new), before, "{name}");
        n += 1;
    }
    assert_eq!(n, plies.len());
    // Each ply's pieces by place agree with its counts, and the pieces of
    // the last ply are those of the game's board as it stands.
    for p in plies {
        for side in ["light", "dark"] {
            let on = p["pieces"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|piece| piece["side"] == side)
                .count();
            assert_eq!(Some(on as u64), p["counts"][side]["on_board"].as_u64());
        }
    }
    let board = serde_json::to_value(G::board(game.variant(), game.position())).unwrap();
    let last = plies.last().unwrap();
    assert_eq!(
        (&last["pieces"], &last["counts"]),
        (&board["pieces"], &board["counts"])
    );
    // From a ply on, the same plies.
    let later = serde_json::to_value(Story::of(&game, 40)).unwrap();
    assert_eq!(later["plies"].as_array().unwrap()[..], plies[40..]);
    assert_eq!(later["start"], story["start"]);
}

#[test]
fn the_story_is_the_servers_plies() {
    story_holds::<Ur>("ur-finkel");
    story_holds::<Senet>("senet-skyruk");
}

/// The faces as the terminal drew them, Unicode.
fn drawn<G: RaceGame>(f: Faces) -> String {
    let (counts, blank) = match G::KIND {
        Kind::Ur => ("▲", "△"),
        Kind::Senet => ("▮", "▯"),
    };
    (0..f.len())
        .map(|i| if f.die(i) { counts } else { blank })
        .collect()
}

/// The narration `race play` printed for a record's plies, and the one
/// layer's.
fn words<G: RaceGame>(name: &str) -> Vec<(String, String)> {
    let game = Game::<G>::replay_text(&data(&format!("{name}.txt")), None).unwrap();
    let said = data(&format!("{name}.words.txt"));
    let said: Vec<&str> = said.lines().collect();
    assert_eq!(said.len(), game.log().len(), "{name}");
    game.log()
        .iter()
        .zip(said)
        .enumerate()
        .map(|(i, (entry, line))| {
            let now = narrate(game.variant(), entry, &drawn::<G>);
            (format!("{:>4}. {now}", i + 1), line.to_owned())
        })
        .collect()
}

#[test]
fn plies_are_told_in_the_terminals_words() {
    for (name, pairs) in [
        ("ur-blitz", words::<Ur>("ur-blitz")),
        ("ur-masters", words::<Ur>("ur-masters")),
        ("senet-kendall", words::<Senet>("senet-kendall")),
        ("senet-custom", words::<Senet>("senet-custom")),
    ] {
        for (now, before) in pairs {
            assert_eq!(now, before, "{name}");
        }
    }
    // Masters' throw of nothing counts four, and says so.
    let masters = words::<Ur>("ur-masters");
    assert!(
        masters
            .iter()
            .any(|(now, _)| now.contains("no marks: worth four"))
    );
}

#[test]
fn a_throw_of_nothing_is_worth_what_the_rules_say() {
    // The terminal said "worth four" only when it was worth four: under
    // zero_rolls=6 it said nothing. It now says what the throw is worth.
    let mut changed = 0;
    for (now, before) in words::<Ur>("ur-zero6") {
        if before.contains("(△△△△△)") {
            let want = before.replacen("(△△△△△)", "(△△△△△), no marks: worth six", 1);
            assert_eq!(now, want);
            changed += 1;
        } else {
            assert_eq!(now, before);
        }
    }
    assert_eq!(changed, 2);
}

/// `race moves` and `race bot` on a question: the moves as JSON and as
/// the numbered list, and the ladder's thought at each level.
fn answer<G: RaceGame>(rules: &str, position: &str, roll: u8) -> Vec<String> {
    let variant = read_rules::<G>((!rules.is_empty()).then_some(rules)).unwrap();
    let position = if position.is_empty() {
        G::start(&variant, dice_core::Side::Light)
    } else {
        G::read_position(position, &variant).unwrap()
    };
    G::check(&variant, &position).unwrap();
    let legal = G::legal_moves(&variant, &position, roll);
    let views: Vec<&G::MoveView> = legal.iter().map(|m| &m.view).collect();
    let mut out = vec![format!(
        "moves {{\"ok\":true,\"moves\":{}}}",
        serde_json::to_string(&views).unwrap()
    )];
    out.extend(
        legal
            .iter()
            .enumerate()
            .map(|(i, m)| format!("label {:>2}. {}", i + 1, m.label())),
    );
    for level in 1..=4 {
        let bot = Bot::<G>::new(Level::Ladder(level), &variant, None).unwrap();
        let thought = bot.think(&variant, &position, roll).unwrap().unwrap();
        let json = serde_json::to_string(&thought).unwrap();
        out.push(format!("bot {level} {{\"ok\":true,{}", &json[1..]));
    }
    out
}

#[test]
fn moves_and_thoughts_are_what_the_command_line_printed() {
    let text = data("questions.txt");
    let mut cases = text.split("? ").filter(|c| !c.is_empty());
    let mut n = 0;
    for case in cases.by_ref() {
        let mut lines = case.lines();
        let head: Vec<&str> = lines.next().unwrap().split('|').collect();
        let [game, rules, position, roll] = head[..] else {
            panic!("{head:?}");
        };
        let roll: u8 = roll.parse().unwrap();
        let kind: Kind = game.parse().unwrap();
        let now = for_kind!(kind, G => answer::<G>(rules, position, roll));
        let before: Vec<&str> = lines.collect();
        assert_eq!(now, before, "{game} {rules} {position} {roll}");
        n += 1;
    }
    assert_eq!(n, 10);
}
