//! The one-shot questions `race` answers: throws at any number, the bot's
//! choice in a position, bot levels above the top, rules given by their
//! differences, and seeds echoed as they were given.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Run, race};
use dice_core::Side;

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn ok(run: &Run) -> &str {
    assert_eq!(run.code, 0, "stdout {} stderr {}", run.out, run.err);
    &run.out
}

// ---- 3. every throw number ----

#[test]
fn the_last_throw_number_is_thrown() {
    let last = u64::MAX.to_string();
    // Throw 18446744073709551615 of the seed "a" (hex 61) has the faces 1010.
    let run = race(&[
        "throws", "ur", "--seed", "a", "--from", &last, "--count", "1",
    ]);
    assert_eq!(ok(&run), format!("{last} 1010 2\n"));
    let run = race(&[
        "throws",
        "ur",
        "--seed-hex",
        "61",
        "--from",
        &last,
        "--count",
        "1",
        "--json",
    ]);
    let v = json(ok(&run));
    assert_eq!(v["throws"][0]["n"].as_u64(), Some(u64::MAX));
    assert_eq!(v["throws"][0]["faces"], "1010");
    // The library agrees.
    let seed = dice_core::Seed::new("a").unwrap();
    assert_eq!(
        dice_core::Faces::thrown(&seed, u64::MAX, 4).to_string(),
        "1010"
    );
    // Three throws ending on the last number: all three.
    let from = (u64::MAX - 2).to_string();
    let run = race(&[
        "throws", "ur", "--seed", "a", "--from", &from, "--count", "3",
    ]);
    let lines: Vec<&str> = ok(&run).lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2], format!("{last} 1010 2"));
}

#[test]
fn throws_past_the_last_number_are_refused_saying_how_many_there_are() {
    let from = (u64::MAX - 1).to_string();
    let run = race(&[
        "throws", "ur", "--seed", "a", "--from", &from, "--count", "3",
    ]);
    // Out of range, as soak's games past the last index are: a usage error.
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(run.out.is_empty(), "nothing printed short: {}", run.out);
    assert_eq!(run.err.lines().count(), 1);
    assert!(
        run.err.starts_with("race: --count: ") && run.err.trim_end().ends_with(" (usage)"),
        "{}",
        run.err
    );
    assert!(run.err.contains("there are 2, not 3"), "{}", run.err);
    assert!(run.err.contains(&u64::MAX.to_string()), "{}", run.err);
    let run = race(&[
        "throws", "ur", "--seed", "a", "--from", &from, "--count", "3", "--json",
    ]);
    assert_eq!(run.code, 2, "{}", run.err);
    let v = json(&run.out);
    assert_eq!(
        (&v["ok"], &v["error"]["code"]),
        (&json("false"), &json("\"usage\""))
    );
}

// ---- 4. bot levels above the top ----

#[test]
fn levels_above_the_top_play_the_top() {
    let run = race(&[
        "selfplay", "ur", "--games", "2", "--light", "5", "--dark", "99", "--seed", "l", "--json",
    ]);
    let v = json(ok(&run));
    assert_eq!(
        (v["light"]["level"].as_u64(), v["dark"]["level"].as_u64()),
        (Some(4), Some(4))
    );
    let top = race(&[
        "selfplay", "ur", "--games", "2", "--light", "4", "--dark", "top", "--seed", "l", "--json",
    ]);
    assert_eq!(run.out, top.out, "level 5 and 99 play as 4 does");
    let run = race(&[
        "selfplay", "senet", "--games", "1", "--light", "7", "--dark", "1", "--json",
    ]);
    assert_eq!(json(ok(&run))["light"]["level"], 4);
    let run = race(&[
        "play", "ur", "--watch", "--seed", "w", "--level", "5", "--ascii",
    ]);
    assert!(
        ok(&run).contains("the bot (level 4) plays both sides"),
        "{}",
        run.out
    );
    for game in ["ur", "senet"] {
        let five = race(&["bot", game, "--roll", "3", "--level", "5", "--json"]);
        let four = race(&["bot", game, "--roll", "3", "--level", "4", "--json"]);
        assert_eq!(ok(&five), ok(&four), "{game}");
    }
    // Outside 1..99 is a usage error.
    for level in ["0", "100", "x"] {
        let run = race(&["bot", "ur", "--roll", "3", "--level", level]);
        assert_eq!(run.code, 2, "{level}: {}", run.err);
    }
}

// ---- race bot ----

#[test]
fn the_bot_query_answers_with_the_reference_fields() {
    // A search level: `ok`, then the fields of the reference's think, in
    // its order.
    let position = "4xx2/3d4/3lxx2 d 6 0 6 0";
    let run = race(&[
        "bot",
        "ur",
        "--rules",
        "finkel",
        "--position",
        position,
        "--roll",
        "3",
        "--level",
        "3",
        "--json",
    ]);
    let v = json(ok(&run));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "ok", "move", "level", "index", "depth", "value", "nodes", "stopped"
        ]
    );
    let pos = royal_ur::Position::parse(position).unwrap();
    let t = royal_ur::Bot::new(Some(3), None)
        .unwrap()
        .think(&royal_ur::Variant::FINKEL, &pos, 3)
        .unwrap();
    assert_eq!(v["move"], t.mv.to_string());
    assert_eq!(v["level"], 3);
    assert_eq!(v["index"].as_u64(), Some(t.index as u64));
    assert_eq!(v["depth"], t.depth);
    assert_eq!(v["value"].as_i64(), t.value);
    assert_eq!(v["nodes"], t.nodes);
    assert_eq!(v["stopped"], u8::from(t.stopped));
    // Greedy: depth 0, value null, nodes 0, stopped 0.
    let greedy = |more: &[&str]| {
        let args = [
            "bot",
            "ur",
            "--position",
            position,
            "--roll",
            "3",
            "--level",
            "1",
        ];
        race(&[&args[..], more].concat())
    };
    let run = greedy(&["--json"]);
    let v = json(ok(&run));
    assert_eq!(
        (&v["depth"], &v["value"], &v["nodes"], &v["stopped"]),
        (&json("0"), &json("null"), &json("0"), &json("0"))
    );
    // No move: just that.
    let run = race(&["bot", "ur", "--roll", "0", "--json"]);
    assert_eq!(ok(&run), "{\"ok\":true,\"move\":null}\n");
    let run = race(&["bot", "ur", "--roll", "0"]);
    assert!(
        ok(&run).contains("light has no move on a roll of 0"),
        "{}",
        run.out
    );
    // In words.
    let run = greedy(&[]);
    assert!(
        ok(&run).starts_with(&format!(
            "the bot (level 1) plays {} for dark",
            v["move"].as_str().unwrap()
        )),
        "{}",
        run.out
    );
}

#[test]
fn the_bot_query_answers_for_senet_with_its_bots_fields() {
    let run = race(&["bot", "senet", "--rules", "skyruk", "--roll", "3", "--json"]);
    let v = json(ok(&run));
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["ok", "move", "level", "index", "depth", "value", "nodes"]
    );
    let start = senet::Position::start(&senet::Variant::SKYRUK, Side::Light);
    let t = senet::Bot::new(Some(4), None)
        .unwrap()
        .think(&senet::Variant::SKYRUK, &start, 3)
        .unwrap();
    assert_eq!(v["move"], t.mv.to_string());
    assert_eq!(v["nodes"], t.nodes);
}

#[test]
fn the_bot_query_refuses_a_bad_position_roll_or_rules() {
    for args in [
        &[
            "bot",
            "ur",
            "--roll",
            "2",
            "--position",
            "4xx2/8/4xx2 l 7 0 7 1",
        ][..],
        &["bot", "ur", "--roll", "2", "--position", "nope"],
        &["bot", "ur", "--roll", "5"],
        &["bot", "senet", "--roll", "0"],
        &["bot", "ur", "--roll", "2", "--rules", "chess"],
        &["bot", "senet", "--roll", "2", "--rules", "finkel"],
    ] {
        let run = race(args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.err);
        assert_eq!(run.err.lines().count(), 1, "{}", run.err);
    }
}

// ---- 6. rules by their differences ----

#[test]
fn rules_may_name_only_the_fields_that_differ() {
    let rules_of = |game: &str, rules: &str| {
        let run = race(&["perft", game, "--rules", rules, "--depth", "0", "--json"]);
        json(ok(&run))["rules"].as_str().unwrap_or("").to_owned()
    };
    assert_eq!(
        rules_of("ur", "pieces=3"),
        "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=3"
    );
    let long5 = "route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=5";
    assert_eq!(rules_of("ur", "route=long pieces=5"), long5);
    assert_eq!(rules_of("ur", "pieces=5 route=long"), long5);
    assert_eq!(rules_of("ur", long5), long5);
    assert_eq!(
        rules_of("ur", "route=long dice=3 zero_rolls=4 safe_rosettes=0"),
        "masters"
    );
    assert_eq!(
        rules_of("senet", "pieces=7 water=stand"),
        "protect=all blockade=3 reach26=exact on26=none water=stand off30=one pieces=7"
    );
    // A start position of three pieces a side fits `pieces=3`.
    let run = race(&[
        "position",
        "ur",
        "--rules",
        "pieces=3",
        "--position",
        "4xx2/8/4xx2 l 3 0 3 0",
        "--json",
    ]);
    assert_eq!(json(ok(&run))["consistent"], true);
    // Unknown and repeated fields are refused, naming the field.
    for (game, rules, word) in [
        ("ur", "colour=red", "colour"),
        ("ur", "pieces=3 pieces=4", "pieces"),
        ("ur", "pieces=8", "pieces"),
        ("senet", "colour=red", "colour"),
        ("senet", "water=stand water=reborn", "water"),
    ] {
        let run = race(&["moves", game, "--rules", rules, "--roll", "1"]);
        assert_eq!(run.code, 1, "{rules}: {}", run.err);
        assert!(run.err.starts_with("race: --rules: "), "{}", run.err);
        assert!(
            run.err.contains(&format!("\"{word}\"")) || run.err.contains(word),
            "{}",
            run.err
        );
    }
}

#[test]
fn records_keep_every_field_in_canonical_order() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("race-rules-records");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.display().to_string();
    let run = race(&[
        "selfplay",
        "ur",
        "--rules",
        "pieces=2 route=long",
        "--games",
        "1",
        "--light",
        "1",
        "--dark",
        "1",
        "--records",
        &dir_text,
    ]);
    ok(&run);
    let record = std::fs::read_dir(&dir)
        .expect("records")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .next()
        .expect("a record");
    let text = std::fs::read_to_string(&record).expect("record");
    assert!(
        text.starts_with("[rules route=long dice=4 zero_rolls=0 safe_rosettes=1 pieces=2]\n"),
        "{text}"
    );
    ok(&race(&["replay", &record.display().to_string()]));
    // A record's rules line is the strict one: the differences alone are
    // not a rules line.
    let run = common::race_in(
        &["replay", "-", "--game", "ur", "--json"],
        b"[rules pieces=2]\n[first light]\n",
        &[],
    );
    assert_eq!(json(&run.out)["error"]["why"], "rules");
}

#[test]
fn every_preset_and_board_is_offered() {
    for (name, rules) in [
        ("finkel", "finkel"),
        ("blitz", "blitz"),
        ("aseb", "aseb"),
        (
            "finkel2p",
            "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2",
        ),
        (
            "masters4d",
            "route=long dice=4 zero_rolls=0 safe_rosettes=0 pieces=7",
        ),
        (
            "path=murray dice=3",
            "board=standard path=murray dice=3 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=7",
        ),
    ] {
        let run = race(&["perft", "ur", "--rules", name, "--depth", "0", "--json"]);
        assert_eq!(json(ok(&run))["rules"], rules, "{name}");
    }
    // A board and a path that do not go together, and a path's name.
    let run = race(&[
        "moves",
        "ur",
        "--rules",
        "board=aseb path=masters",
        "--roll",
        "1",
    ]);
    assert_eq!(run.code, 1);
    assert!(run.err.contains("(rules, clash)"), "{}", run.err);
    let run = race(&["moves", "ur", "--rules", "bell", "--roll", "1"]);
    assert!(run.err.contains("(rules, unknown_name)"), "{}", run.err);
    // aseb positions, moves and the board drawn twelve files long.
    let aseb = "4/3l1d1d1l2/3l l 2 0 3 0";
    let run = race(&[
        "moves",
        "ur",
        "--rules",
        "aseb",
        "--position",
        aseb,
        "--roll",
        "2",
        "--json",
    ]);
    let moves: Vec<String> = json(ok(&run))["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, ["hand-c1", "d1-b1", "d2-f2", "j2-l2"]);
    let run = race(&[
        "position",
        "ur",
        "--rules",
        "aseb",
        "--position",
        aseb,
        "--ascii",
    ]);
    let drawn: Vec<&str> = ok(&run).lines().collect();
    assert_eq!(drawn[0], "     a  b  c  d  e  f  g  h  i  j  k  l");
    assert_eq!(drawn[2], "  2  .  .  .  L  .  D  .  D  .  L  .  *");
    assert!(drawn[1].starts_with("  3  *  .  .  .   "), "{}", drawn[1]);
    // The standard board's text is not an aseb position.
    let run = race(&[
        "position",
        "ur",
        "--rules",
        "aseb",
        "--position",
        "4xx2/8/4xx2 l 5 0 5 0",
    ]);
    assert!(run.err.contains("(POS_WIDTH)"), "{}", run.err);
    // Murray's keys hold the second visits: 14 digits.
    let run = race(&[
        "position",
        "ur",
        "--rules",
        "path=murray",
        "--position",
        "1l2xx2/2D1Ld2/4xxl1 l 4 0 5 0",
        "--json",
    ]);
    assert_eq!(json(ok(&run))["key"], "0a000040920100");
    // Bot games under blitz write records that replay.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("race-blitz-records");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.display().to_string();
    let run = race(&[
        "selfplay",
        "ur",
        "--rules",
        "blitz",
        "--games",
        "2",
        "--light",
        "2",
        "--dark",
        "1",
        "--records",
        &dir_text,
    ]);
    ok(&run);
    for record in std::fs::read_dir(&dir)
        .expect("records")
        .filter_map(Result::ok)
    {
        let text = std::fs::read_to_string(record.path()).expect("record");
        assert!(text.starts_with("[rules blitz]\n"), "{text}");
        ok(&race(&["replay", &record.path().display().to_string()]));
    }
}

// ---- seeds as given ----

#[test]
fn seeds_are_shown_one_way_wherever_they_are_shown() {
    // As text when the bytes are printable text, else as lowercase hex,
    // however the seed was given: in the game's title, the replay, the
    // self-play summary.
    let dir = std::env::temp_dir().join(format!("race-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    for (given, shown) in [
        (["--seed", "readme"], "seed \"readme\""),
        (["--seed-hex", "726561646d65"], "seed \"readme\""),
        (["--seed-hex", "5F1c9a"], "seed hex 5f1c9a"),
    ] {
        let record = dir.join("seed.txt").display().to_string();
        let args = [
            &[
                "play", "ur", "--watch", "--level", "1", "--ascii", "--force", "--record",
            ][..],
            &[&record],
            &given,
        ]
        .concat();
        let run = race(&args);
        assert!(
            ok(&run).contains(&format!("{shown}: the bot")),
            "{}",
            run.out
        );
        let run = race(&["replay", &record]);
        assert!(
            ok(&run).contains(&format!("first, {shown}\n")),
            "{}",
            run.out
        );
    }
    let run = race(&[
        "selfplay", "senet", "--games", "1", "--seed", "my seed", "--json",
    ]);
    assert_eq!(json(ok(&run))["seed"], "my seed");
    let run = race(&["selfplay", "senet", "--games", "1", "--seed", "my seed"]);
    assert!(ok(&run).contains("seed \"my seed\"\n"), "{}", run.out);
    let run = race(&["selfplay", "senet", "--games", "1", "--seed", "a\u{7}"]);
    assert!(ok(&run).contains("seed hex 6107\n"), "{}", run.out);
    let _ = std::fs::remove_dir_all(&dir);
}
