//! Every record in `fixtures/royal-ur/` is replayed and its summary
//! snapshotted; every broken record's exact error is snapshotted.
//!
//! The records were written by this engine (`cargo run -p royal-ur
//! --example ur_fixtures`).

use std::fs;

use dice_core::{Record, Side};
use royal_ur::{Game, GameExt, Ur, Variant};
use serde_json::json;

#[test]
fn records_replay_and_their_summaries_hold() {
    let mut seen = 0;
    insta::glob!("../../../fixtures/royal-ur", "*.txt", |path| {
        seen += 1;
        let text = fs::read_to_string(path).unwrap();
        let game =
            Game::replay_text(&text, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Read and written again, the bytes are identical.
        let record = Record::<Ur>::parse(&text).unwrap();
        assert_eq!(record.to_string(), text);
        // The game writes the same record back, except that a named rule
        // set spelled out in full comes back as its name.
        if !record.spelled_out {
            assert_eq!(game.to_record().to_string(), text, "{}", path.display());
        }
        let result = game.result();
        let summary = json!({
            "rules": game.variant().to_string(),
            "first": game.first(),
            "opening": game.opening().len(),
            "final": game.position().to_string(),
            "key": game.key().to_string(),
            "result": result.map(|o| format!("{} {}", o.winner.map_or("draw", Side::as_str), o.how)),
            "plies": game.ply(),
            "rolls": game.throws(),
            "lost_turns": game.forfeits_since(0).len(),
            "home": [game.home(Side::Light), game.home(Side::Dark)],
            "next": game.side().zip(game.roll()).map(|(s, r)| format!("{s} rolls {r}")),
        });
        // Keys sorted, whichever order serde_json keeps them in (a workspace
        // build turns on its preserve_order for the command-line tool).
        insta::with_settings!({sort_maps => true}, {
            insta::assert_json_snapshot!(summary);
        });
    });
    assert!(seen >= 40, "only {seen} fixtures");
}

#[test]
fn broken_records_fail_with_the_exact_error() {
    let mut seen = 0;
    insta::glob!("../../../fixtures/royal-ur/broken", "*.txt", |path| {
        seen += 1;
        let text = fs::read_to_string(path).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy();
        let rules = name.ends_with("as-masters").then_some(Variant::MASTERS);
        let Err(err) = Game::replay_text(&text, rules) else {
            panic!("{} replays", path.display());
        };
        let error = json!({
            "code": err.code(),
            "why": err.why(),
            "line": err.line(),
            "ply": err.ply(),
            "message": err.to_string(),
        });
        // Keys sorted, whichever order serde_json keeps them in (a workspace
        // build turns on its preserve_order for the command-line tool).
        insta::with_settings!({sort_maps => true}, {
            insta::assert_json_snapshot!(error);
        });
    });
    assert!(seen >= 10, "only {seen} broken fixtures");
}
