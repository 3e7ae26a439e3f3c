//! How `race` refuses input: the reference's codes, whys, lines, plies and
//! details in JSON, one plain line on stderr, and exit codes that tell a
//! refused input (1) from a usage error (2).

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

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("race-refusal-tests");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

/// The one line on stderr of a refusal (exit 1), checked for its shape:
/// `race: WHERE: WHAT (CODE[, WHY])`, the code given once.
fn refusal(run: &Run, code: &str) -> String {
    assert_eq!(run.code, 1, "stdout {} stderr {}", run.out, run.err);
    assert_eq!(run.err.lines().count(), 1, "one line: {:?}", run.err);
    let line = run.err.trim_end().to_owned();
    assert!(line.starts_with("race: "), "{line}");
    let codes = line.rsplit_once(" (").map(|(_, c)| c).unwrap_or("");
    assert!(
        codes == format!("{code})") || codes.starts_with(&format!("{code}, ")),
        "{line:?} should end with ({code}...)"
    );
    // The code once, at the end: not as a prefix or a parenthesis before.
    let (message, _) = line.rsplit_once(" (").unwrap_or((&line, ""));
    let what = message.splitn(3, ": ").nth(2).unwrap_or("");
    assert!(
        !what.contains(&format!("({code}")) && !what.contains(&format!("{code}:")),
        "the code once, in parentheses: {line}"
    );
    line
}

/// The `error` object of a `--json` refusal.
fn error(run: &Run) -> serde_json::Value {
    let v = json(&run.out);
    assert_eq!(v["ok"], false, "{v}");
    v["error"].clone()
}

// ---- 1. refusal details ----

#[test]
fn a_refused_move_in_a_record_carries_from_to_roll_and_ply() {
    // The example of the reference: hand-d1 on a 3 is not the roll away.
    let text = b"[rules finkel]\n[first light]\n1. l 3: hand-d1\n";
    let run = race_in(&["replay", "-", "--json"], text, &[]);
    let e = error(&run);
    assert_eq!(e["code"], "wrong_distance");
    assert_eq!(e["ply"], 0);
    // The record's line the move is on, and the sentence.
    assert_eq!(e["line"], 3);
    assert_eq!(
        e["message"],
        "line 3, ply 0: hand-d1 on a roll of 3 is refused: that is not the roll away along the \
         route"
    );
    assert_eq!(e["detail"]["from"], "hand");
    assert_eq!(e["detail"]["to"], "d1");
    assert_eq!(e["detail"]["roll"], 3);
    assert_eq!(e["detail"]["ply"], 0);
    assert!(e["detail"].get("move").is_none(), "{e}");
    let line = refusal(&run, "wrong_distance");
    assert!(
        line.contains("line 3, ply 0: hand-d1 on a roll of 3 is refused"),
        "{line}"
    );
    // Senet's refusals have the same shape, its houses as numbers.
    let text = b"[rules kendall]\n[first light]\n1. l 3: 2-4\n";
    let run = race_in(&["replay", "-", "--json"], text, &[]);
    let e = error(&run);
    assert_eq!(e["code"], "wrong_distance");
    assert_eq!(e["detail"]["from"], 2);
    assert_eq!(e["detail"]["to"], 4);
    assert_eq!(e["detail"]["roll"], 3);
    assert_eq!(e["detail"]["ply"], 0);
    refusal(&run, "wrong_distance");
}

// ---- 2. empty records and records without a final newline ----

#[test]
fn an_empty_record_is_empty_at_line_0_whatever_the_game() {
    let empty = scratch("empty.txt");
    std::fs::write(&empty, b"").expect("write");
    let file = empty.display().to_string();
    for game in [None, Some("ur"), Some("senet")] {
        let mut args = vec!["replay", "--json"];
        if let Some(g) = game {
            args.extend(["--game", g]);
        }
        for from_stdin in [false, true] {
            let mut args = args.clone();
            args.push(if from_stdin { "-" } else { &file });
            let run = race_in(&args, b"", &[]);
            let e = error(&run);
            assert_eq!(
                (e["code"].as_str(), e["why"].as_str(), e["line"].as_u64()),
                (Some("bad_record"), Some("empty"), Some(0)),
                "{args:?}"
            );
            let line = refusal(&run, "bad_record");
            assert!(line.ends_with("(bad_record, empty)"), "{line}");
        }
    }
}

#[test]
fn a_record_without_a_final_newline_is_no_newline_whatever_the_game() {
    let cut = b"[rules finkel]\n[first light]\n1. l 4: hand-a1";
    for game in [None, Some("ur"), Some("senet")] {
        let mut args = vec!["replay", "-", "--json"];
        if let Some(g) = game {
            args.extend(["--game", g]);
        }
        let run = race_in(&args, cut, &[]);
        let e = error(&run);
        assert_eq!(
            (e["why"].as_str(), e["line"].as_u64()),
            (Some("no_newline"), Some(0)),
            "{args:?}"
        );
        let line = refusal(&run, "bad_record");
        assert!(
            line.contains("the last line has no newline (the file may be cut short)"),
            "{line}"
        );
    }
}

// ---- 5. positions that cannot occur ----

#[test]
fn moves_and_position_refuse_a_position_that_cannot_occur() {
    let eight = "4xx2/8/4xx2 l 7 0 7 1";
    let astray = "l3xx2/8/4xx2 l 6 0 7 0";
    for (text, says, why) in [
        (eight, "dark has 8 pieces", "pieces"),
        (astray, "a light piece stands on a3", "route"),
    ] {
        for args in [
            vec!["moves", "ur", "--position", text, "--roll", "2"],
            vec!["position", "ur", "--position", text],
            vec!["perft", "ur", "--position", text, "--depth", "1"],
            vec!["bot", "ur", "--position", text, "--roll", "2"],
        ] {
            let run = race(&args);
            let line = refusal(&run, "inconsistent");
            assert!(line.contains(says), "{args:?}: {line}");
            assert!(line.contains("under finkel"), "{line}");
            assert!(line.ends_with(&format!("(inconsistent, {why})")), "{line}");
            assert!(run.out.is_empty(), "{}", run.out);
        }
        // position --json still reports what it read and that it cannot occur.
        let run = race(&["position", "ur", "--position", text, "--json"]);
        assert_eq!(run.code, 1);
        let v = json(&run.out);
        assert_eq!(v["ok"], false);
        assert_eq!(v["consistent"], false);
        assert_eq!(v["position"], text);
        assert_eq!(v["error"]["code"], "inconsistent");
        assert_eq!(v["error"]["why"], why);
    }
    // A position that can occur still answers, and says so.
    let run = race(&[
        "position",
        "ur",
        "--position",
        "4xx2/3d4/3lxx2 d 6 0 6 0",
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert_eq!(json(&run.out)["consistent"], true);
    // Senet: both sides borne off; the side not to move on 26 under skyruk.
    let run = race(&[
        "position",
        "senet",
        "--position",
        "........../........../.......... l",
    ]);
    assert!(refusal(&run, "inconsistent").ends_with("(inconsistent, both_home)"));
    let on26 = "d........./........../.....d...l l";
    let run = race(&[
        "moves",
        "senet",
        "--rules",
        "skyruk",
        "--position",
        on26,
        "--roll",
        "1",
    ]);
    assert!(refusal(&run, "inconsistent").contains("stands on 26"));
    let run = race(&[
        "moves",
        "senet",
        "--rules",
        "kendall",
        "--position",
        on26,
        "--roll",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
}

// ---- record errors a person can act on ----

#[test]
fn record_errors_say_what_to_put_right() {
    let replay = |text: &[u8]| race_in(&["replay", "-", "--json"], text, &[]);
    // Windows line endings: the reference's refusal, and what to do.
    let run = replay(b"[rules finkel]\r\n[first light]\r\n1. l 3: hand-d1\r\n");
    let e = error(&run);
    assert_eq!(
        (e["why"].as_str(), e["line"].as_u64()),
        (Some("rules"), Some(1))
    );
    let line = refusal(&run, "bad_record");
    assert!(
        line.contains(
            "line 1 ends with a carriage return (Windows line endings); \
             convert the file to LF line endings"
        ),
        "{line}"
    );
    // A byte-order mark.
    let run = replay(b"\xef\xbb\xbf[rules finkel]\n[first light]\n");
    assert_eq!(error(&run)["line"], 1);
    assert!(refusal(&run, "bad_record").contains("byte-order mark"));
    // A trailing space on a turn line: what is wrong, and the line.
    let run = replay(b"[rules finkel]\n[first light]\n1. l 4: hand-a1 \n");
    let e = error(&run);
    assert_eq!(
        (e["why"].as_str(), e["line"].as_u64()),
        (Some("turn"), Some(3))
    );
    let line = refusal(&run, "bad_record");
    assert!(line.contains("ends with a space"), "{line}");
    assert!(line.contains("\"1. l 4: hand-a1 \""), "{line}");
    // The side: which side the line names, which throws, and why.
    let run = replay(b"[rules finkel]\n[first light]\n1. l 4: hand-a1\n2. d 2: hand-c3\n");
    let e = error(&run);
    assert_eq!(
        (e["why"].as_str(), e["line"].as_u64()),
        (Some("side"), Some(4))
    );
    assert!(
        refusal(&run, "bad_record").contains(
            "line 4 names dark to throw, but light throws here: line 3, \"1. l 4: hand-a1\", \
             lands on a rosette, so the same side throws again"
        ),
        "{}",
        run.err
    );
}

#[test]
fn an_illegal_move_onto_a_rosette_is_refused_where_the_reference_refuses_it_and_said() {
    // Light's b1-a3 on line 5 names a rosette, so the record's grammar has
    // light throw again: the reference refuses line 6 as `side`.
    let text = b"[rules finkel]\n[first light]\n1. l 3: hand-b1\n2. d 2: hand-c3\n3. l 1: b1-a3\n4. d 2: c3-a3\n";
    let run = race_in(&["replay", "-", "--json"], text, &[]);
    let e = error(&run);
    assert_eq!(
        (
            e["code"].as_str(),
            e["why"].as_str(),
            e["line"].as_u64(),
            &e["ply"]
        ),
        (
            Some("bad_record"),
            Some("side"),
            Some(6),
            &serde_json::Value::Null
        )
    );
    let line = refusal(&run, "bad_record");
    assert!(
        line.contains(
            "but light cannot make that move (b1-a3 on a roll of 1 is refused: that is not the \
             roll away along the route), so line 5 is what is wrong, and line 6's side only \
             looks wrong because of it"
        ),
        "{line}"
    );
}

#[test]
fn an_edited_move_is_reported_where_the_sides_part() {
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ur-finkel.txt"),
    )
    .expect("fixture");
    let lines: Vec<&str> = good.lines().collect();
    // A light move that passes the turn, edited to land on the rosette d2:
    // the record is refused on the next line, as the reference refuses it.
    let at = (0..lines.len() - 1)
        .find(|&i| {
            lines[i].contains(". l ") && !lines[i].ends_with(": -") && lines[i + 1].contains(". d ")
        })
        .expect("a light move that passes the turn");
    let (head, _) = lines[at].split_once(": ").expect("turn line");
    let edited_line = format!("{head}: hand-d2");
    let mut edited: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    edited[at] = edited_line.clone();
    let text = format!("{}\n", edited.join("\n"));
    let run = race_in(&["replay", "-", "--json"], text.as_bytes(), &[]);
    let e = error(&run);
    let next = at + 2;
    assert_eq!(
        (e["why"].as_str(), e["line"].as_u64()),
        (Some("side"), Some(next as u64))
    );
    let line = refusal(&run, "bad_record");
    assert!(
        line.contains(&format!(
            "line {next} names dark to throw, but light throws here: line {}, {edited_line:?}, \
             lands on a rosette, so the same side throws again",
            at + 1
        )),
        "{line}"
    );
}

#[test]
fn every_broken_fixture_names_its_line_why_and_a_sentence() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let mut seen = 0;
    for game in ["royal-ur", "senet"] {
        let dir = root.join(game).join("broken");
        for entry in std::fs::read_dir(&dir).expect("broken fixtures") {
            let path = entry.expect("entry").path();
            let name = path.display().to_string();
            let mut args = vec!["replay", "--json", name.as_str()];
            if name.contains("as-masters") {
                args.extend(["--rules", "masters"]);
            }
            if name.contains("read-as-kendall") {
                args.extend(["--rules", "kendall"]);
            }
            if game == "senet" {
                args.extend(["--game", "senet"]);
            }
            let run = race(&args);
            let e = error(&run);
            let code = e["code"].as_str().expect("code").to_owned();
            let line = refusal(&run, &code);
            match e["why"].as_str() {
                Some(why) => assert!(line.ends_with(&format!("({code}, {why})")), "{line}"),
                None => assert!(line.ends_with(&format!("({code})")), "{line}"),
            }
            let at = e["line"].as_u64().or(e["ply"].as_u64().map(|_| u64::MAX));
            match at {
                Some(0) => assert!(line.contains("last line") || line.contains("empty")),
                Some(u64::MAX) => assert!(line.contains(", ply "), "{line}"),
                Some(n) => assert!(line.contains(&format!("line {n}")), "{line}"),
                None => panic!("{name}: no line and no ply: {e}"),
            }
            // A plain sentence between the place and the codes.
            let (message, _) = line.rsplit_once(" (").unwrap_or((&line, ""));
            let words = message.split_once(": ").map_or("", |(_, rest)| rest);
            let words = words.split_once(": ").map_or("", |(_, rest)| rest);
            assert!(words.split(' ').count() >= 6, "{line}");
            seen += 1;
        }
    }
    assert!(seen >= 25, "only {seen} broken fixtures");
}

// ---- one style, two exit codes ----

#[test]
fn refusals_give_their_code_once_and_in_parentheses() {
    let run = race(&["position", "ur", "--position", "4xx2/7/4xx2 l 7 0 7 0"]);
    let line = refusal(&run, "POS_WIDTH");
    assert_eq!(line.matches("POS_WIDTH").count(), 1, "{line}");
    assert!(
        line.starts_with("race: --position: \"4xx2/7/4xx2 l 7 0 7 0\" is not a position: "),
        "{line}"
    );
    let run = race(&["position", "senet", "--position", "dldl l"]);
    let line = refusal(&run, "shape");
    assert!(!line.contains(": shape:"), "{line}");
    let run = race(&["throws", "ur", "--seed-hex", "5f1"]);
    assert!(refusal(&run, "seed").ends_with("(seed, odd_length)"));
    let run = race(&["moves", "ur", "--rules", "chess", "--roll", "1"]);
    assert!(refusal(&run, "rules").starts_with("race: --rules: "));
    let run = race(&["moves", "ur", "--roll", "5"]);
    assert!(refusal(&run, "roll").starts_with("race: --roll: "));
}

#[test]
fn the_perfect_level_and_its_table_say_what_they_need_in_one_line() {
    for args in [
        &["play", "ur", "--level", "perfect", "--watch"][..],
        &["selfplay", "ur", "--light", "perfect", "--games", "1"],
        &["bot", "ur", "--roll", "2", "--level", "perfect"],
    ] {
        let run = race(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.err);
        assert_eq!(run.err.lines().count(), 1, "{}", run.err);
        assert!(
            run.err.contains("perfect needs --table PATH"),
            "{}",
            run.err
        );
    }
    let dir = env!("CARGO_MANIFEST_DIR");
    let run = race(&[
        "play", "ur", "--level", "perfect", "--table", dir, "--watch",
    ]);
    let line = refusal(&run, "directory");
    assert!(
        line.starts_with(&format!("race: --table: {dir} is a directory")),
        "{line}"
    );
    assert!(!line.contains("os error"), "{line}");
}
