//! Runs the built `race` binary: every subcommand, every exit code, the JSON
//! shapes (snapshotted), scripted interactive games, and hostile input.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::path::{Path, PathBuf};

mod common;

use common::{Run, race, race_in};

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// A path in the tests' scratch folder, with no file left there by an
/// earlier run.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("race-cli-tests");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// A refusal: exit 1 and exactly one line on stderr, `race: WHERE: WHAT
/// (CODE[, WHY])`, that names `what`.
fn refused(run: &Run, what: &str) {
    assert_eq!(run.code, 1, "stdout {} stderr {}", run.out, run.err);
    assert_eq!(run.err.lines().count(), 1, "one line: {:?}", run.err);
    assert!(run.err.starts_with("race: "), "{}", run.err);
    assert!(run.err.trim_end().ends_with(')'), "{}", run.err);
    assert!(run.err.contains(what), "{:?} should name {what:?}", run.err);
}

/// A usage error: exit 2 and one line on stderr, `race: WHERE: WHAT
/// (usage)`.
fn usage(run: &Run) {
    assert_eq!(run.code, 2, "stdout {} stderr {}", run.out, run.err);
    assert_eq!(run.err.lines().count(), 1, "one line: {:?}", run.err);
    assert!(run.err.starts_with("race: "), "{}", run.err);
    assert!(run.err.trim_end().ends_with(" (usage)"), "{}", run.err);
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

// ---- usage: help, version, bad flags ----

#[test]
fn help_and_version_exit_zero() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["play", "--help"],
        &["replay", "--help"],
        &["moves", "--help"],
        &["position", "--help"],
        &["throws", "--help"],
        &["perft", "--help"],
        &["selfplay", "--help"],
        &["bench", "--help"],
    ] {
        let run = race(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.err);
        assert!(!run.out.is_empty());
    }
}

#[test]
fn usage_errors_exit_two() {
    for args in [
        &[][..],
        &["fly"],
        &["play", "chess"],
        &["replay"],
        &["moves", "ur"],
        &["moves", "ur", "--roll", "x"],
        &["moves", "ur", "--roll", "300"],
        &["throws", "ur", "--seed", "a", "--seed-hex", "00"],
        &["throws", "ur"],
        &["play", "ur", "--hotseat", "--watch"],
        &["perft", "ur", "--depth", "-1"],
        &["selfplay", "ur", "--games", "many"],
        &["position", "ur", "--position", "x", "--bogus"],
        // Option values out of range.
        &["play", "ur", "--level", "0"],
        &["play", "ur", "--level", "100"],
        &["play", "ur", "--level", "05"],
        &["play", "ur", "--level", "perfect"],
        &["play", "senet", "--level", "perfect"],
        &["selfplay", "ur", "--light", "100", "--games", "1"],
        &["selfplay", "senet", "--dark", "0", "--games", "1"],
        &["bot", "ur", "--roll", "2", "--level", "100"],
        &["throws", "ur", "--seed", "a", "--count", "1000001"],
        &["perft", "ur", "--depth", "65"],
        &["bench", "--seconds", "0"],
        &["solve", "finkel", "--pieces", "0", "--out", "x"],
        &["play", "ur", "--pace", "3600001"],
    ] {
        usage(&race(args));
    }
    // Where clap finds the error, the option or the command is named, with
    // what clap says and where to read more.
    let run = race(&["moves", "ur", "--rols", "3"]);
    assert!(
        run.err
            .starts_with("race: --rols: unexpected argument '--rols' found; "),
        "{}",
        run.err
    );
    assert!(run.err.contains("race moves --help"), "{}", run.err);
    let run = race(&["replay"]);
    assert!(
        run.err
            .starts_with("race: replay: the following required arguments were not provided: "),
        "{}",
        run.err
    );
    // With --json, the error is JSON too.
    let run = race(&["moves", "ur", "--roll", "x", "--json"]);
    usage(&run);
    let v = json(&run.out);
    assert_eq!(
        (&v["ok"], &v["error"]["code"]),
        (&json("false"), &json("\"usage\""))
    );
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("'x'")),
        "{v}"
    );
}

#[test]
fn every_json_reply_says_ok_and_every_error_says_code_and_message() {
    let record = fixture("ur-finkel.txt");
    for args in [
        &["replay", "--json", &record][..],
        &["moves", "ur", "--roll", "2", "--json"],
        &[
            "position",
            "ur",
            "--position",
            "4xx2/8/4xx2 l 7 0 7 0",
            "--json",
        ],
        &["throws", "senet", "--seed", "s", "--json"],
        &["perft", "ur", "--depth", "1", "--json"],
        &["bot", "ur", "--roll", "2", "--level", "1", "--json"],
        &["bot", "ur", "--roll", "0", "--json"],
        &[
            "selfplay", "ur", "--games", "1", "--light", "1", "--dark", "1", "--json",
        ],
    ] {
        let run = race(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.err);
        let v = json(&run.out);
        assert_eq!(v["ok"], true, "{args:?}: {v}");
        assert_eq!(
            v.as_object()
                .and_then(|o| o.keys().next())
                .map(String::as_str),
            Some("ok")
        );
    }
    for (args, code) in [
        (&["replay", "--json", "/no/such/record.txt"][..], "file"),
        (&["moves", "ur", "--roll", "9", "--json"], "roll"),
        (
            &["moves", "ur", "--rules", "chess", "--roll", "1", "--json"],
            "rules",
        ),
        (
            &["position", "ur", "--position", "k", "--json"],
            "POS_LETTER",
        ),
        (&["throws", "ur", "--seed-hex", "5f1", "--json"], "seed"),
        (
            &["bot", "ur", "--roll", "2", "--level", "0", "--json"],
            "usage",
        ),
    ] {
        let run = race(args);
        let v = json(&run.out);
        assert_eq!(v["ok"], false, "{args:?}: {v}");
        let e = &v["error"];
        assert_eq!(e["code"], code, "{args:?}: {v}");
        let message = e["message"].as_str().unwrap_or_default();
        assert!(!message.is_empty(), "{args:?}: {v}");
        assert!(
            run.err.contains(message),
            "the stderr line's sentence: {}",
            run.err
        );
        for field in ["why", "line", "ply", "detail"] {
            assert!(e.get(field).is_some(), "{args:?}: no {field}: {v}");
        }
    }
}

// ---- replay ----

#[test]
fn replay_fixtures_json() {
    insta::glob!("fixtures/*.txt", |path| {
        let run = race(&["replay", "--json", &path.display().to_string()]);
        assert_eq!(run.code, 0, "{}", run.err);
        let v = json(&run.out);
        let text = std::fs::read_to_string(path).expect("fixture");
        assert_eq!(
            v["record"],
            text.as_str(),
            "the record comes back byte for byte"
        );
        let mut v = v;
        v["record"] = serde_json::Value::String(format!("{} bytes", text.len()));
        insta::assert_json_snapshot!(v);
    });
}

#[test]
fn replay_draws_the_board_and_result() {
    let run = race(&["replay", "--ascii", &fixture("ur-finkel.txt")]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("replay_ur_ascii", run.out);
    let run = race(&["replay", "--ascii", &fixture("senet-kendall.txt")]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("replay_senet_ascii", run.out);
    let run = race(&["replay", &fixture("senet-skyruk.txt")]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("replay_senet_unicode", run.out);
}

#[test]
fn replay_from_stdin_and_under_other_rules() {
    let text = std::fs::read(fixture("ur-finkel.txt")).expect("fixture");
    let run = race_in(&["replay", "-", "--json"], &text, &[]);
    assert_eq!(run.code, 0);
    assert_eq!(json(&run.out)["game"], "royal-ur");
    let run = race(&[
        "replay",
        "--json",
        "--rules",
        "masters",
        &fixture("ur-finkel.txt"),
    ]);
    // Masters throws three dice: the record's four faces no longer fit.
    assert_eq!(run.code, 1);
    let v = json(&run.out);
    assert_eq!(v["ok"], false);
    insta::assert_json_snapshot!("replay_other_rules", v);
}

#[test]
fn replay_refusals_name_line_and_ply() {
    let good = std::fs::read_to_string(fixture("ur-finkel.txt")).expect("fixture");
    // A move changed: the refusal's own code and the ply.
    let mut lines: Vec<String> = good.lines().map(str::to_owned).collect();
    let (head, _) = lines[4].split_once(": ").expect("turn line");
    lines[4] = format!("{head}: hand-h2");
    let bad = format!("{}\n", lines.join("\n"));
    let run = race_in(&["replay", "-", "--json"], bad.as_bytes(), &[]);
    refused(&run, "ply 0");
    insta::assert_json_snapshot!("replay_wrong_distance", json(&run.out));
    // A broken turn line: bad_record with the line.
    let bad = good.replacen("1. ", "1.", 1);
    let run = race_in(&["replay", "-", "--json"], bad.as_bytes(), &[]);
    refused(&run, "line 5");
    insta::assert_json_snapshot!("replay_bad_turn", json(&run.out));
    // No final newline.
    let run = race_in(&["replay", "-"], good.trim_end().as_bytes(), &[]);
    refused(&run, "no_newline");
}

#[test]
fn replay_hostile_input() {
    refused(&race(&["replay", "/no/such/record.txt"]), "no such file");
    refused(&race(&["replay", env!("CARGO_MANIFEST_DIR")]), "directory");
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    refused(&race_in(&["replay", "-"], &garbage, &[]), "standard input");
    let mut long = b"[rules finkel]\n[first light]\n1. l 3: ".to_vec();
    long.extend(std::iter::repeat_n(b'a', 10 * 1024 * 1024));
    long.push(b'\n');
    refused(&race_in(&["replay", "-"], &long, &[]), "bad_record");
    refused(&race_in(&["replay", "-"], b"", &[]), "bad_record");
    let odd_seed = b"[rules finkel]\n[first light]\n[seed 5f1]\n1. l 3: hand-b1\n";
    refused(
        &race_in(&["replay", "-", "--json"], odd_seed, &[]),
        "line 3",
    );
    // The wrong game: a Royal Game of Ur record read as Senet.
    let run = race(&[
        "replay",
        "--game",
        "senet",
        "--json",
        &fixture("ur-finkel.txt"),
    ]);
    refused(&run, "line 1");
    assert_eq!(json(&run.out)["error"]["why"], "rules");
    refused(
        &race_in(&["replay", "-"], b"[rules chess]\n[first light]\n", &[]),
        "rules",
    );
}

// ---- moves, position, throws, perft ----

#[test]
fn moves_json() {
    let ur = race(&[
        "moves",
        "ur",
        "--rules",
        "finkel",
        "--position",
        "4xx2/3d4/3lxx2 d 6 0 6 0",
        "--roll",
        "3",
        "--json",
    ]);
    assert_eq!(ur.code, 0);
    insta::assert_json_snapshot!("moves_ur", json(&ur.out));
    let capture = race(&[
        "moves",
        "ur",
        "--position",
        "4xx2/l2d4/4xx2 l 6 0 6 0",
        "--roll",
        "3",
        "--json",
    ]);
    assert_eq!(capture.code, 0);
    insta::assert_json_snapshot!("moves_ur_capture", json(&capture.out));
    let senet = race(&[
        "moves", "senet", "--rules", "kendall", "--roll", "5", "--json",
    ]);
    assert_eq!(senet.code, 0);
    insta::assert_json_snapshot!("moves_senet", json(&senet.out));
    let water = race(&[
        "moves",
        "senet",
        "--position",
        ".........d/........../.....l.... l",
        "--roll",
        "1",
        "--json",
    ]);
    assert_eq!(water.code, 0);
    insta::assert_json_snapshot!("moves_senet_water", json(&water.out));
    let none = race(&["moves", "ur", "--roll", "0"]);
    assert_eq!(none.code, 0);
    assert!(none.out.contains("no move"));
}

#[test]
fn moves_refusals() {
    let run = race(&[
        "moves",
        "ur",
        "--position",
        "4xx2/3d4/3l3 d 6 0 6 0",
        "--roll",
        "3",
        "--json",
    ]);
    refused(&run, "POS_GAP");
    assert_eq!(json(&run.out)["error"]["code"], "POS_GAP");
    refused(&race(&["moves", "ur", "--roll", "5"]), "--roll");
    refused(&race(&["moves", "senet", "--roll", "0"]), "--roll");
    refused(
        &race(&["moves", "ur", "--rules", "chess", "--roll", "1"]),
        "--rules",
    );
}

#[test]
fn position_checks() {
    let run = race(&[
        "position",
        "ur",
        "--position",
        "4xx2/3d4/3lxx2 d 6 0 6 0",
        "--json",
    ]);
    assert_eq!(run.code, 0);
    insta::assert_json_snapshot!("position_ur", json(&run.out));
    let run = race(&[
        "position",
        "ur",
        "--position",
        "llllxxll/lll5/4xx2 l 7 7 7 7",
        "--json",
    ]);
    assert_eq!(json(&run.out)["consistent"], false);
    let run = race(&[
        "position",
        "ur",
        "--position",
        "4xx2/3d4/3l3 d 6 0 6 0",
        "--json",
    ]);
    refused(&run, "POS_GAP");
    insta::assert_json_snapshot!("position_ur_gap", json(&run.out));
    let run = race(&[
        "position",
        "senet",
        "--position",
        "dldldldldl/........../.......... l",
        "--json",
    ]);
    insta::assert_json_snapshot!("position_senet", json(&run.out));
    refused(
        &race(&[
            "position",
            "senet",
            "--position",
            "dldldldldl/........../.......... x",
        ]),
        "side",
    );
    let run = race(&[
        "position",
        "ur",
        "--ascii",
        "--position",
        "4xx2/3d4/3lxx2 d 6 0 6 0",
    ]);
    assert_eq!(run.code, 0);
    insta::assert_snapshot!("position_ur_ascii", run.out);
}

#[test]
fn throws_known_answers() {
    let run = race(&[
        "throws",
        "ur",
        "--seed",
        "royalur pinned one",
        "--count",
        "8",
        "--json",
    ]);
    assert_eq!(run.code, 0);
    let faces: Vec<String> = json(&run.out)["throws"]
        .as_array()
        .expect("throws")
        .iter()
        .map(|t| t["faces"].as_str().unwrap_or("").to_owned())
        .collect();
    assert_eq!(faces.join(" "), "1100 1101 0010 1010 0100 1010 0110 1001");
    let run = race(&[
        "throws",
        "senet",
        "--seed",
        "senet example",
        "--from",
        "2",
        "--count",
        "3",
        "--json",
    ]);
    insta::assert_json_snapshot!("throws_senet", json(&run.out));
    let run = race(&[
        "throws",
        "ur",
        "--seed-hex",
        "5f1c9a",
        "--rules",
        "masters",
        "--count",
        "2",
    ]);
    assert_eq!(run.out, "0 100 1\n1 000 4\n");
    refused(&race(&["throws", "ur", "--seed-hex", "5f1"]), "odd_length");
    refused(&race(&["throws", "ur", "--seed-hex", "zz"]), "not_hex");
    refused(&race(&["throws", "ur", "--seed", ""]), "empty");
}

#[test]
fn perft_counts() {
    assert_eq!(
        race(&["perft", "ur", "--rules", "finkel", "--depth", "1"]).out,
        "depth 1: 5 leaves\n"
    );
    assert_eq!(
        race(&["perft", "ur", "--rules", "finkel", "--depth", "0"]).out,
        "depth 0: 1 leaves\n"
    );
    // Walked in parts (for the progress shown on a terminal), the count is
    // the library's whole walk.
    for depth in [2u32, 3, 5] {
        let v = json(&race(&["perft", "ur", "--depth", &depth.to_string(), "--json"]).out);
        let start = royal_ur::Position::start(&royal_ur::Variant::FINKEL, dice_core::Side::Light);
        let whole = dice_core::walk::<royal_ur::Ur>(&royal_ur::Variant::FINKEL, &start, depth);
        assert_eq!(
            (
                v["depth"].as_u64(),
                v["leaves"].as_u64(),
                v["rules"].as_str()
            ),
            (Some(u64::from(depth)), Some(whole), Some("finkel")),
            "{v}"
        );
    }
    let won = "4xx2/8/4xx2 d 0 7 7 0";
    let run = race(&["perft", "ur", "--depth", "3", "--position", won]);
    assert_eq!(run.out, "depth 3: 1 leaves\n", "a won game is one leaf");
    let ur3 = race(&["perft", "ur", "--rules", "finkel", "--depth", "3"]);
    assert_eq!(ur3.code, 0);
    let senet = race(&["perft", "senet", "--rules", "kendall", "--depth", "2"]);
    assert_eq!(senet.code, 0);
    insta::assert_snapshot!(
        "perft",
        format!("ur finkel 3: {}senet kendall 2: {}", ur3.out, senet.out)
    );
    refused(
        &race(&["perft", "ur", "--depth", "2", "--position", "nope"]),
        "POS_",
    );
}

// ---- selfplay and bench ----

#[test]
fn selfplay_is_deterministic_and_writes_records() {
    let dir = scratch("selfplay-records");
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.display().to_string();
    let args = [
        "selfplay", "ur", "--rules", "finkel", "--games", "4", "--light", "1", "--dark", "2",
        "--seed", "s", "--json",
    ];
    let a = race(&args);
    assert_eq!(a.code, 0, "{}", a.err);
    let b = race(&[&args[..], &["--records", &dir_text]].concat());
    assert_eq!(a.out, b.out, "the same seed gives the same run");
    insta::assert_json_snapshot!("selfplay_ur", json(&a.out));
    let records = std::fs::read_dir(&dir).expect("records").count();
    assert_eq!(records, 4);
    let first = std::fs::read_dir(&dir)
        .expect("records")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .min()
        .expect("a record");
    assert_eq!(race(&["replay", &first.display().to_string()]).code, 0);
    let senet = race(&[
        "selfplay", "senet", "--games", "2", "--light", "1", "--dark", "2",
    ]);
    assert_eq!(senet.code, 0);
    assert!(senet.out.contains("swaps"));
    usage(&race(&["selfplay", "ur", "--games", "1", "--light", "100"]));
}

#[test]
fn selfplay_checks_its_records_folder_before_the_games() {
    let root = scratch("selfplay-folders");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("a folder");
    let games = |dir: &Path, more: &[&str]| {
        let dir = dir.display().to_string();
        let args = [
            &[
                "selfplay", "ur", "--games", "3", "--light", "1", "--dark", "1",
            ][..],
            &["--records", &dir],
            more,
        ]
        .concat();
        race(&args)
    };
    // No chain of folders is made: the folder the records go in must be
    // in one that exists.
    let deep = root.join("a/b/records");
    let run = games(&deep, &[]);
    refused(&run, "does not exist");
    assert_eq!(
        run.err.matches(&deep.display().to_string()).count(),
        1,
        "the path once: {}",
        run.err
    );
    assert!(run.out.is_empty(), "no games played: {}", run.out);
    assert!(!root.join("a").exists());
    // One folder is made, and said.
    let dir = root.join("records");
    let run = games(&dir, &[]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert_eq!(
        run.err.trim_end(),
        format!("race: --records: made the folder {}", dir.display())
    );
    let first = std::fs::read_to_string(dir.join("ur-0001.txt")).expect("a record");
    // Records already there are kept unless --force.
    std::fs::write(dir.join("ur-0002.txt"), "mine\n").expect("a file");
    let run = games(&dir, &[]);
    refused(&run, "already holds ur-0001.txt");
    assert!(run.err.contains("--force"), "{}", run.err);
    assert!(run.out.is_empty(), "no games played: {}", run.out);
    assert_eq!(
        std::fs::read_to_string(dir.join("ur-0002.txt")).expect("kept"),
        "mine\n"
    );
    let run = games(&dir, &["--force"]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(run.err.is_empty(), "{}", run.err);
    assert_eq!(
        std::fs::read_to_string(dir.join("ur-0001.txt")).expect("a record"),
        first
    );
    assert_ne!(
        std::fs::read_to_string(dir.join("ur-0002.txt")).expect("a record"),
        "mine\n"
    );
    // Other files in the folder are no matter.
    std::fs::write(dir.join("notes.txt"), "x").expect("a file");
    std::fs::write(dir.join("ur-0009.txt"), "x").expect("a file");
    assert_eq!(games(&dir, &[]).code, 1, "ur-0001..3 are there");
    let other = root.join("other");
    std::fs::create_dir_all(&other).expect("a folder");
    std::fs::write(other.join("ur-0009.txt"), "x").expect("a file");
    std::fs::write(other.join("senet-0001.txt"), "x").expect("a file");
    let run = games(&other, &[]);
    assert_eq!(run.code, 0, "{}", run.err);
}

#[test]
fn bench_prints_figures() {
    let run = race(&["bench", "ur", "--seconds", "0.05"]);
    assert_eq!(run.code, 0);
    assert!(run.out.contains("royal-ur finkel") && run.out.contains("royal-ur masters"));
    assert!(run.out.contains("games/s") && run.out.contains("move generations/s"));
    usage(&race(&["bench", "--seconds", "0"]));
}

// ---- play ----

#[test]
fn play_with_no_input_watches_the_bots_finish() {
    let run = race(&["play", "ur", "--seed", "readme", "--ascii"]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(run.out.contains("end of input"));
    assert!(run.out.contains("wins with every piece home"));
    let run = race(&[
        "play", "senet", "--watch", "--seed", "readme", "--level", "1",
    ]);
    assert_eq!(run.code, 0);
    assert!(run.out.contains("wins with every piece borne off"));
}

/// Plays move 1 every time in a hotseat game, then quits.
fn scripted(game: &str, seed: &str) -> Run {
    let record = scratch(&format!("scripted-{game}.txt"));
    let mut script = "1\n".repeat(1200);
    script.push_str("list\nquit\n");
    let run = race_in(
        &[
            "play",
            game,
            "--hotseat",
            "--seed",
            seed,
            "--ascii",
            "--record",
            &record.display().to_string(),
        ],
        script.as_bytes(),
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    let text = std::fs::read_to_string(&record).expect("record written");
    let replayed = race(&["replay", "--json", &record.display().to_string()]);
    assert_eq!(json(&replayed.out)["over"], true, "{text}");
    assert!(
        !run.out.contains("end of input"),
        "the script lasts the game"
    );
    run
}

#[test]
fn scripted_hotseat_games_reach_the_end() {
    let ur = scripted("ur", "script");
    assert!(ur.out.contains("wins with every piece home"));
    assert!(ur.out.contains("the game is over"));
    let senet = scripted("senet", "script");
    assert!(senet.out.contains("wins with every piece borne off"));
}

#[test]
fn scripted_game_against_the_bot_with_undo_and_quit() {
    let record = scratch("undo.txt");
    let script = "1\n1\n2\nundo\nlist\nzzz\n99\nhand-h3\nlevel 9\nlevel 2\nroute\nhelp\nmoves\nboard\n1\nquit\n1\n";
    let run = race_in(
        &[
            "play",
            "ur",
            "--seed",
            "undo",
            "--level",
            "1",
            "--ascii",
            "--record",
            &record.display().to_string(),
        ],
        script.as_bytes(),
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    for text in [
        "taken back",
        "neither a move nor a command",
        "there is no move 99",
        "refused",
        "level 2",
        "route",
        "commands:",
        "quit.",
    ] {
        assert!(
            run.out.contains(text),
            "{text:?} missing from:\n{}",
            run.out
        );
    }
    assert!(
        !run.out.contains("wins with every piece home"),
        "quit halfway"
    );
    let replayed = race(&["replay", "--json", &record.display().to_string()]);
    let v = json(&replayed.out);
    assert_eq!(v["over"], false);
    assert!(v["ply"].as_u64().unwrap_or(0) > 0);
}

#[test]
fn play_refuses_bad_options() {
    refused(&race(&["play", "ur", "--seed-hex", "abc"]), "--seed-hex");
    usage(&race(&["play", "ur", "--level", "100"]));
    refused(&race(&["play", "senet", "--rules", "finkel"]), "--rules");
    let run = race(&[
        "play",
        "ur",
        "--seed",
        "x",
        "--record",
        "/no/such/dir/r.txt",
    ]);
    assert_eq!(run.code, 1);
    assert!(run.err.contains("/no/such/dir/r.txt"));
}

#[test]
fn play_honours_no_color_and_first() {
    let run = race_in(
        &["play", "ur", "--watch", "--seed", "c", "--first", "dark"],
        b"",
        &[("NO_COLOR", "1")],
    );
    assert_eq!(run.code, 0);
    assert!(!run.out.contains('\x1b'));
    assert!(run.out.contains("dark moves first"));
    assert!(!run.out.contains("opening throw"));
}

#[test]
fn play_survives_binary_input() {
    let garbage: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 7) as u8)
        .collect();
    let run = race_in(
        &["play", "senet", "--hotseat", "--seed", "g"],
        &garbage,
        &[],
    );
    assert_eq!(run.code, 0);
}

#[test]
fn play_help_lists_commands_keys_pace_and_how_rules_are_written() {
    let run = race(&["play", "--help"]);
    assert_eq!(run.code, 0, "{}", run.err);
    for text in [
        // The in-game commands and the screen's keys.
        "undo (u)",
        "save FILE",
        "replay ",
        "? shows the keys",
        "space pauses",
        "right or n plays one ply",
        // The default pace.
        "400 ms between bot moves",
        // Fields spelled out, one example for each game.
        "spelled out: e.g. --rules \"route=long",
        "spelled out: e.g. --rules \"protect=ends",
        // Which side a resumed game is played from, and how to take the other.
        "You play the side --side gives, light unless told",
        "add --side dark to go on as dark",
    ] {
        assert!(
            run.out.contains(text),
            "{text:?} missing from:\n{}",
            run.out
        );
    }
}

/// Every preset of the catalogue, with its line, in the help of `race
/// play`, and its name in the help of `--rules` (a preset added to the
/// catalogue appears there with nothing else to change).
#[test]
fn the_help_lists_every_preset_of_the_catalogue() {
    use race_games::{Kind, RaceGame, for_kind};
    fn presets<G: RaceGame>() -> Vec<(&'static str, &'static str)> {
        G::PRESETS.iter().map(|p| (p.name, p.about)).collect()
    }
    let play = race(&["play", "--help"]).out;
    let moves = race(&["moves", "--help"]).out;
    for kind in Kind::ALL {
        let all = for_kind!(kind, G => presets::<G>());
        assert!(all.len() >= 2, "{kind}");
        for (name, about) in &all {
            let line = play.lines().find(|l| l.contains(about));
            assert!(
                line.is_some_and(|l| l.split_whitespace().any(|w| w == *name)),
                "{name}: {about:?} missing from:\n{play}"
            );
        }
        let names: Vec<&str> = all.iter().map(|(name, _)| *name).collect();
        assert!(
            moves.contains(&format!("{kind}: {}", names.join(", "))),
            "{kind} missing from:\n{moves}"
        );
    }
}

#[test]
fn play_takes_game_names_in_any_case_and_refuses_side_without_a_bot() {
    for name in ["UR", "Senet"] {
        let run = race_in(
            &["play", name, "--hotseat", "--seed", "case"],
            b"quit\n",
            &[],
        );
        assert_eq!(run.code, 0, "{name}: {}", run.err);
        assert!(run.out.contains("quit."), "{}", run.out);
    }
    for mode in ["--hotseat", "--watch"] {
        let run = race(&["play", "ur", mode, "--side", "dark"]);
        usage(&run);
        assert!(run.err.contains("--side"), "{}", run.err);
    }
}

#[test]
fn a_single_move_is_named_as_such() {
    // The first roll of the Royal Game of Ur can only enter a piece.
    let run = race_in(
        &["play", "ur", "--hotseat", "--seed", "one"],
        b"2\nquit\n",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out
            .contains("there is no move 2: there is one move: 1, or type help."),
        "{}",
        run.out
    );
    assert!(!run.out.contains("choose 1 to 1"));
}

#[test]
fn the_opening_says_that_marked_dice_are_compared() {
    // Seed b: two ties, then light throws one marked die to none.
    let run = race(&[
        "play", "ur", "--rules", "masters", "--watch", "--seed", "b", "--level", "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let opening: Vec<&str> = run
        .out
        .lines()
        .filter(|l| l.starts_with("opening throw"))
        .collect();
    assert_eq!(opening.len(), 3, "{}", run.out);
    assert!(opening[0].ends_with("both threw 1 marked, so they throw again."));
    assert!(opening[2].ends_with("light threw more marked dice (1 to 0) and moves first."));
    assert!(opening.iter().all(|l| !l.contains("roll")), "{opening:?}");
}

/// The throws narrated in a game's output: (the number thrown, the faces).
fn narrated_throws(out: &str) -> Vec<(u32, String)> {
    out.lines()
        .filter_map(|line| {
            let (_, rest) = line
                .split_once(" rolls ")
                .or_else(|| line.split_once(" throws "))?;
            let (n, rest) = rest.split_once(" (")?;
            let (faces, _) = rest.split_once(')')?;
            Some((n.parse().ok()?, faces.to_owned()))
        })
        .collect()
}

#[test]
fn both_games_draw_the_faces_that_count_alike() {
    let ur = race(&["play", "ur", "--watch", "--seed", "dice", "--level", "1"]);
    let senet = race(&["play", "senet", "--watch", "--seed", "dice", "--level", "1"]);
    for (run, counts, blank, all_blank) in [(&ur, '▲', '△', 0), (&senet, '▮', '▯', 5)] {
        assert_eq!(run.code, 0, "{}", run.err);
        let throws = narrated_throws(&run.out);
        assert!(throws.len() > 50, "{}", run.out);
        for (n, faces) in throws {
            let marked = faces.chars().filter(|&c| c == counts).count();
            assert_eq!(faces.chars().count(), marked + faces.matches(blank).count());
            let expected = if marked == 0 { all_blank } else { marked };
            assert_eq!(usize::try_from(n), Ok(expected), "{n} ({faces})");
        }
    }
    // Asked to move, a person is told which face counts.
    for (game, key) in [("ur", "▲ counts"), ("senet", "▮ counts")] {
        let run = race_in(&["play", game, "--hotseat", "--seed", "d"], b"quit\n", &[]);
        assert!(run.out.contains(key), "{game}: {}", run.out);
    }
}

#[test]
fn senet_says_borne_off_on_the_board_and_in_the_result() {
    let run = race(&["play", "senet", "--watch", "--seed", "off", "--level", "1"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let result = run
        .out
        .lines()
        .find(|l| l.contains(" wins "))
        .expect("a result");
    assert!(
        result.contains("wins with every piece borne off"),
        "{result}"
    );
    assert!(result.contains(" borne off, "), "{result}");
    let board = run.out.lines().rev().find(|l| l.contains("on the board"));
    assert!(
        board.is_some_and(|l| l.contains("borne off 5")),
        "{}",
        run.out
    );
    assert!(
        !run.out.contains(" home"),
        "one word for pieces off: {}",
        run.out
    );
}

#[test]
fn a_record_is_claimed_when_the_game_starts() {
    let record = scratch("claimed.txt");
    std::fs::write(&record, "not a game\n").expect("a file");
    let path = record.display().to_string();
    let run = race_in(
        &["play", "ur", "--seed", "x", "--record", &path],
        b"1\n",
        &[],
    );
    refused(&run, "already exists");
    assert!(run.err.contains("--force"), "{}", run.err);
    assert!(run.out.is_empty(), "no game is played: {}", run.out);
    assert_eq!(
        std::fs::read_to_string(&record).expect("kept"),
        "not a game\n"
    );
    let run = race_in(
        &["play", "ur", "--seed", "x", "--record", &path, "--force"],
        b"quit\n",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        std::fs::read_to_string(&record)
            .expect("written")
            .starts_with("[rules finkel]")
    );
}

#[test]
fn a_saved_game_resumes_with_the_side_given() {
    let saved = scratch("saved.txt");
    let other = scratch("other.txt");
    std::fs::write(&other, "kept\n").expect("a file");
    let script = format!(
        "1\n1\nsave {}\nsave {}\nquit\n",
        saved.display(),
        other.display()
    );
    let run = race_in(
        &["play", "senet", "--hotseat", "--seed", "one"],
        script.as_bytes(),
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out
            .contains("already holds something other than this game")
    );
    assert_eq!(std::fs::read_to_string(&other).expect("kept"), "kept\n");
    let path = saved.display().to_string();
    let run = race_in(
        &["play", "--resume", &path, "--side", "dark", "--level", "1"],
        b"quit\n",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out.contains("you play dark against the bot"),
        "{}",
        run.out
    );
    assert!(
        run.out.contains(&format!(
            "going on from ply 2 of {path}: you play dark (--side light plays the other side)."
        )),
        "{}",
        run.out
    );
    // The game went on in the same file: the bot (light) played.
    let v = json(&race(&["replay", "--json", &path]).out);
    assert!(v["ply"].as_u64() > Some(2), "{v}");
}

#[test]
fn a_resumed_record_is_never_shortened() {
    // A finished record: undo goes on in a new file, the record stays.
    let finished = scratch("finished.txt");
    let next = scratch("finished-2.txt");
    let path = finished.display().to_string();
    let run = race(&[
        "play", "senet", "--watch", "--seed", "done", "--level", "1", "--record", &path,
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let written = std::fs::read_to_string(&finished).expect("the record");
    let run = race_in(
        &["play", "--resume", &path, "--level", "1"],
        b"undo\nquit\n",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out
            .contains("this record is of a finished game, kept as it is"),
        "{}",
        run.out
    );
    assert!(
        run.out.contains(&format!(
            "; the game goes on in {}, and {path} keeps its record as it was.",
            next.display()
        )),
        "{}",
        run.out
    );
    assert_eq!(std::fs::read_to_string(&finished).expect("kept"), written);
    let v = json(&race(&["replay", "--json", &next.display().to_string()]).out);
    assert_eq!(v["over"], false, "{v}");
    assert!(written.starts_with(v["record"].as_str().unwrap_or("?").trim_end_matches('\n')));
    // An unfinished one: what this run added may be taken back, what the
    // record held may not.
    let record = scratch("going.txt");
    let next = scratch("going-2.txt");
    let path = record.display().to_string();
    let args = [
        "play",
        "ur",
        "--hotseat",
        "--seed",
        "keep",
        "--record",
        &path,
    ];
    let run = race_in(&args, b"1\n1\n1\nquit\n", &[]);
    assert_eq!(run.code, 0, "{}", run.err);
    let before = std::fs::read_to_string(&record).expect("the record");
    let resume = ["play", "--resume", &path, "--hotseat"];
    let run = race_in(&resume, b"1\nundo\nquit\n", &[]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(!run.out.contains("goes on in"), "{}", run.out);
    assert!(!next.exists());
    assert_eq!(std::fs::read_to_string(&record).expect("kept"), before);
    let run = race_in(&resume, b"undo\nquit\n", &[]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out
            .contains(&format!("the game goes on in {}", next.display())),
        "{}",
        run.out
    );
    assert!(
        run.out
            .contains(&format!("the record is in {}", next.display())),
        "{}",
        run.out
    );
    assert_eq!(std::fs::read_to_string(&record).expect("kept"), before);
    let (a, b) = (
        json(&race(&["replay", "--json", &path]).out),
        json(&race(&["replay", "--json", &next.display().to_string()]).out),
    );
    assert!(b["ply"].as_u64() < a["ply"].as_u64(), "{a} {b}");
    // Nor can save shorten it.
    let run = race_in(
        &resume,
        format!("undo\nsave {path}\nquit\n").as_bytes(),
        &[],
    );
    assert!(
        run.out
            .contains("holds this game with plies this one has taken back"),
        "{}",
        run.out
    );
    assert_eq!(std::fs::read_to_string(&record).expect("kept"), before);
}

#[test]
fn line_by_line_the_board_is_drawn_once_for_each_roll_offered() {
    for args in [
        &["play", "ur", "--hotseat", "--seed", "lines"][..],
        &["play", "ur", "--seed", "lines", "--level", "1"],
    ] {
        let run = race_in(args, b"1\n1\n1\n1\n1\nquit\n", &[]);
        assert_eq!(run.code, 0, "{}", run.err);
        let boards = run.out.matches("a  b  c  d  e  f  g  h").count();
        let offered = run.out.matches(" to move, dice ").count();
        assert!(offered >= 5, "{}", run.out);
        assert_eq!(boards, offered, "{args:?}:\n{}", run.out);
    }
    // After light's rosette and second throw, both plies of that turn are
    // marked and listed, with dark's turn before.
    let run = race_in(
        &["play", "ur", "--hotseat", "--seed", "lines"],
        "1\n".repeat(9).as_bytes(),
        &[],
    );
    assert!(
        run.out
            .contains("  1 [○] ○  · [○]       ✿  ·    light  hand 4 ○○○○  home 0\n  last: dark 2: hand-c3, light 3: d1-a1*, light 1: hand-d1\n"),
        "{}",
        run.out
    );
}

#[test]
fn a_new_game_asks_first_and_keeps_the_last_in_its_file() {
    let record = scratch("kept.txt");
    let second = scratch("kept-2.txt");
    let path = record.display().to_string();
    let run = race_in(
        &[
            "play",
            "ur",
            "--hotseat",
            "--seed",
            "new",
            "--record",
            &path,
        ],
        b"1\nnew\nno\nnew\nyes\n1\nquit\n",
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.err);
    assert_eq!(
        run.out
            .matches("the game is not over: start a new one? (yes/no)> ")
            .count(),
        2,
        "{}",
        run.out
    );
    assert!(run.out.contains("the game goes on."), "{}", run.out);
    let first = json(&race(&["replay", "--json", &path]).out);
    let next = json(&race(&["replay", "--json", &second.display().to_string()]).out);
    assert_eq!(
        (first["ply"].as_u64(), next["ply"].as_u64()),
        (Some(1), Some(1))
    );
    assert_ne!(first["record"], next["record"]);
}
