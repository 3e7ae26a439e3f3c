//! Every recorded game in fixtures/senet/ replays, with a snapshot of what
//! it came to; every broken record is refused, with a snapshot of why.

use dice_core::Side;
use senet::{Game, GameExt};
use serde_json::json;

#[test]
fn records_replay() {
    insta::glob!("../../../fixtures/senet", "*.txt", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let game =
            Game::replay_text(&text, None).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // the record round-trips byte for byte
        assert_eq!(game.to_record().to_string(), text);
        let result = game.result();
        let summary = json!({
            "rules": game.variant().to_string(),
            "first": game.first(),
            "light": game.seat_of(Side::Light),
            "seeded": game.seed().is_some(),
            "plies": game.ply(),
            "throws": game.throws(),
            "forfeits": game.forfeits_since(0).len(),
            "swaps": game.log().iter().filter(|e| e.flags.swap).count(),
            "position": game.position().to_string(),
            "key": game.key().to_string(),
            "home": { "light": game.home(Side::Light), "dark": game.home(Side::Dark) },
            "result": result.map(|r| json!({ "winner": r.winner, "how": r.how.as_str() })),
            "roll_in_hand": game.roll(),
            "last": game.log().last().map(|e| e.mv.map_or("-".to_owned(), |m| m.to_string())),
        });
        // Keys sorted, whichever order serde_json keeps them in (a workspace
        // build turns on its preserve_order for the command-line tool).
        insta::with_settings!({sort_maps => true}, {
            insta::assert_json_snapshot!(summary);
        });
    });
}

#[test]
fn broken_records_are_refused() {
    insta::glob!("../../../fixtures/senet/broken", "*.txt", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let error = Game::replay_text(&text, None)
            .err()
            .unwrap_or_else(|| panic!("{} replayed", path.display()));
        let summary = json!({
            "code": error.code(),
            "why": error.why(),
            "line": error.line(),
            "ply": error.ply(),
            "message": error.to_string(),
        });
        // Keys sorted, whichever order serde_json keeps them in (a workspace
        // build turns on its preserve_order for the command-line tool).
        insta::with_settings!({sort_maps => true}, {
            insta::assert_json_snapshot!(summary);
        });
    });
}
