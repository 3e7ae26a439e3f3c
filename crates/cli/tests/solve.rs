//! `race solve`, `race analyse` and the `perfect` bot level, on rule sets
//! small enough to solve in a moment in a debug build.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

const FINKEL2: &str = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2";

mod common;

use common::{Run, race, race_in};
use ur_solve::Table;

/// A refusal: exit 1 and one line on stderr ending with the code in
/// parentheses.
fn refused(run: &Run, code: &str) {
    assert_eq!(run.code, 1, "stderr: {}", run.err);
    assert_eq!(run.err.lines().count(), 1, "one line: {}", run.err);
    let codes = run.err.trim_end().rsplit_once(" (").map_or("", |(_, c)| c);
    assert!(
        codes == format!("{code})") || codes.starts_with(&format!("{code}, ")),
        "code {code}: {}",
        run.err
    );
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        static N: AtomicU32 = AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "race-solve-{name}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn solve_into(dir: &Scratch, rules: &str, extra: &[&str], name: &str) -> (String, Run) {
    let table = dir.path(name);
    let mut args = vec!["solve", rules, "--out", &table];
    args.extend_from_slice(extra);
    let run = race(&args);
    assert_eq!(run.code, 0, "solve {rules}: {}", run.err);
    assert!(Path::new(&table).exists());
    (table, run)
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).expect("one JSON object")
}

/// `race analyse RECORD --table TABLE --json`, which must succeed.
fn analyse(record: &Path, table: &str) -> serde_json::Value {
    let run = race(&[
        "analyse",
        &record.display().to_string(),
        "--table",
        table,
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    json(&run.out)
}

#[test]
fn solve_two_pieces_matches_the_published_chance() {
    let dir = Scratch::new("published");
    let (_, run) = solve_into(&dir, "finkel", &["--pieces", "2", "--threads", "2"], "f2");
    let line = run
        .out
        .lines()
        .find(|l| l.starts_with("first mover"))
        .expect("a first mover line");
    let pct: f64 = line
        .split_whitespace()
        .nth(2)
        .and_then(|w| w.parse().ok())
        .expect("a percentage");
    assert!((pct - 51.858).abs() <= 0.0015, "{line}");
    // At least ten significant digits.
    let digits = line.split_whitespace().nth(2).unwrap_or("");
    assert!(digits.chars().filter(char::is_ascii_digit).count() >= 10);
    for word in [
        "sweeps",
        "residual",
        "wall time",
        "cpu time",
        "peak memory",
        "table",
    ] {
        assert!(run.out.contains(word), "{word} in {}", run.out);
    }
    // The same rules spelled out, as JSON, stored in f64.
    let (_, run) = solve_into(&dir, FINKEL2, &["--f64", "--json"], "s2");
    let v = json(&run.out);
    assert_eq!(v["ok"], true);
    assert_eq!(v["value_type"], "f64");
    let first = v["first_mover"].as_f64().expect("first_mover");
    assert!((first * 100.0 - 51.858).abs() <= 0.0015, "{first}");
    assert!(v["residual"].as_f64().expect("residual") < 1e-8);
    // With no memory for successor lists the sweeps generate every move,
    // and reach the same chance.
    let (_, run) = solve_into(&dir, FINKEL2, &["--json", "--list-mib", "0"], "s3");
    let v = json(&run.out);
    let unlisted = v["first_mover"].as_f64().expect("first_mover");
    assert!(
        (unlisted - first).abs() < 1e-9,
        "{unlisted} against {first}"
    );
    let bad = race(&[
        "solve",
        "finkel",
        "--list-mib",
        "-1",
        "--out",
        &dir.path("x"),
    ]);
    assert_eq!(bad.code, 2, "{}", bad.err);
}

#[test]
fn solve_one_piece_and_refusals() {
    let dir = Scratch::new("one");
    let (_, run) = solve_into(&dir, "finkel", &["--pieces", "1"], "f1");
    assert!(run.out.contains("pieces=1"), "{}", run.out);
    refused(
        &race(&["solve", "no-such-rules", "--out", &dir.path("x")]),
        "rules",
    );
    let run = race(&["solve", "finkel", "--pieces", "0", "--out", &dir.path("x")]);
    assert_eq!(
        run.code, 2,
        "a value out of range is a usage error: {}",
        run.err
    );
    let unwritable = dir.path("no/such/dir/t");
    let run = race(&["solve", "finkel", "--pieces", "1", "--out", &unwritable]);
    refused(&run, "file");
    assert_eq!(run.err.matches(&unwritable).count(), 1, "{}", run.err);
}

#[test]
fn the_output_is_checked_before_the_solve() {
    let dir = Scratch::new("out");
    let kept = dir.path("kept.table");
    std::fs::write(&kept, "kept\n").expect("a file");
    // Whole finkel would take minutes and gigabytes: refused first.
    for out in [kept.as_str(), &dir.path("no/such/folder/t"), &dir.path("")] {
        let run = race(&["solve", "finkel", "--out", out]);
        assert_eq!(run.code, 1, "{out}: {}", run.err);
        assert_eq!(run.err.lines().count(), 1, "{}", run.err);
        assert!(run.err.starts_with("race: --out: "), "{}", run.err);
        let shown = out.trim_end_matches('/');
        assert_eq!(
            run.err.matches(shown).count(),
            1,
            "the path once: {}",
            run.err
        );
        assert!(run.out.is_empty(), "{}", run.out);
    }
    let run = race(&["solve", "finkel", "--out", &kept]);
    refused(&run, "exists");
    assert!(run.err.contains("--force"), "{}", run.err);
    assert_eq!(std::fs::read_to_string(&kept).expect("kept"), "kept\n");
    // --force replaces it, with a whole table and nothing left beside it.
    let (table, _) = solve_into(&dir, "finkel", &["--pieces", "1", "--force"], "kept.table");
    assert!(Table::open(Path::new(&table)).is_ok());
    let names: Vec<_> = std::fs::read_dir(&dir.0)
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(names, ["kept.table"], "no temporary file left");
}

#[test]
fn perfect_selfplay_and_analysis() {
    let dir = Scratch::new("perfect");
    let (table, _) = solve_into(&dir, FINKEL2, &[], "t");
    let records = dir.path("records");
    let run = race(&[
        "selfplay",
        "ur",
        "--rules",
        FINKEL2,
        "--light",
        "perfect",
        "--dark",
        "1",
        "--table",
        &table,
        "--games",
        "20",
        "--records",
        &records,
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let v = json(&run.out);
    assert_eq!(v["light"]["level"], "perfect");
    assert_eq!(v["dark"]["level"], 1);
    let wins =
        v["light"]["wins"].as_u64().expect("wins") + v["dark"]["wins"].as_u64().expect("wins");
    assert_eq!(wins, 20);

    // Analyse the first record: one entry per logged turn, nothing lost
    // below zero, finite luck.
    let record = Path::new(&records).join("ur-0001.txt");
    let text = std::fs::read_to_string(&record).expect("record");
    let run = race(&["replay", &record.display().to_string(), "--json"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let replay = json(&run.out);
    let plies = usize::try_from(replay["ply"].as_u64().expect("ply")).expect("plies");
    let v = analyse(&record, &table);
    assert_eq!(v["ok"], true);
    let turns = v["turns"].as_array().expect("turns");
    assert_eq!(turns.len(), plies, "{text}");
    for t in turns {
        assert!(t["lost"].as_f64().expect("lost") >= -1e-9, "{t}");
        assert!(t["luck"].as_f64().expect("luck").is_finite(), "{t}");
    }
    // Light played perfectly.
    assert!(v["light"]["lost"].as_f64().expect("lost").abs() < 1e-6);
    for side in ["light", "dark"] {
        assert!(v[side]["luck"].as_f64().expect("luck").is_finite());
    }
    let n: u64 = ["light", "dark"]
        .iter()
        .map(|s| v[*s]["turns"].as_u64().expect("turns"))
        .sum();
    assert_eq!(n as usize, turns.len());

    // Each turn by its ply (from 0, as record errors count) and by its
    // number in the record (from 1), as the text shows it.
    for (i, t) in turns.iter().enumerate() {
        assert_eq!(
            (t["ply"].as_u64(), t["turn"].as_u64()),
            (Some(i as u64), Some(i as u64 + 1))
        );
    }
    // The text form has a row a turn, numbered as the record numbers them
    // (from 1), and the totals.
    let run = race(&["analyse", &record.display().to_string(), "--table", &table]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(run.out.contains("mistakes"), "{}", run.out);
    assert!(run.out.lines().count() >= turns.len() + 2);
    let numbers: Vec<&str> = run
        .out
        .lines()
        .skip(2)
        .take(turns.len())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let expected: Vec<String> = (1..=turns.len()).map(|n| n.to_string()).collect();
    assert_eq!(numbers, expected, "{}", run.out);
    let header = run.out.lines().nth(1).unwrap_or_default();
    assert!(header.trim_start().starts_with("turn "), "{header}");
    let first_turn = text
        .lines()
        .find(|l| l.starts_with("1. "))
        .expect("a first turn line");
    assert!(first_turn.starts_with(numbers[0]), "{first_turn}");

    grades_and_accuracy_agree_with_the_turns(&v, &run.out);

    // From standard input too.
    let out = Command::new(env!("CARGO_BIN_EXE_race"))
        .args(["analyse", "-", "--table", &table])
        .stdin(std::fs::File::open(&record).expect("record"))
        .output()
        .expect("race runs");
    assert_eq!(out.status.code(), Some(0));
}

/// Checks `race analyse --json`'s grades, accuracy, luck-adjusted results
/// and key moments against its own turns, and that the text report shows
/// the same figures.
fn grades_and_accuracy_agree_with_the_turns(v: &serde_json::Value, text: &str) {
    let turns = v["turns"].as_array().expect("turns");
    let f = |x: &serde_json::Value| x.as_f64().expect("a number");
    for t in turns {
        let grade = if t["choice"] == true {
            let lost = f(&t["lost"]);
            serde_json::json!(match lost {
                l if l <= 1e-9 => "best",
                l if l < 0.01 => "good",
                l if l < 0.03 => "inaccuracy",
                l if l < 0.08 => "mistake",
                _ => "blunder",
            })
        } else {
            serde_json::Value::Null
        };
        assert_eq!(t["grade"], grade, "{t}");
        assert!((f(&t["swing"]) - (f(&t["after"]) - f(&t["before"]))).abs() < 1e-12);
    }
    for (side, other) in [("light", "dark"), ("dark", "light")] {
        let mine: Vec<&serde_json::Value> = turns.iter().filter(|t| t["side"] == side).collect();
        let decided: Vec<&&serde_json::Value> =
            mine.iter().filter(|t| t["choice"] == true).collect();
        for grade in ["best", "good", "inaccuracy", "mistake", "blunder"] {
            let n = decided.iter().filter(|t| t["grade"] == grade).count() as u64;
            assert_eq!(v[side]["grades"][grade].as_u64(), Some(n), "{side} {grade}");
        }
        let lost: f64 = decided.iter().map(|t| f(&t["lost"])).sum();
        let mean = lost / decided.len() as f64;
        assert!((f(&v[side]["mean_lost"]) - mean).abs() < 1e-12);
        let accuracy = f(&v[side]["accuracy"]);
        assert!((accuracy - 100.0 * (1.0 - mean)).abs() < 1e-9);
        let last = turns.last().expect("a turn");
        let result = if last["side"] == side {
            f(&last["after"])
        } else {
            1.0 - f(&last["after"])
        };
        assert!((f(&v[side]["result"]) - result).abs() < 1e-12);
        let adjusted = result - f(&v[side]["luck"]) + f(&v[other]["luck"]);
        assert!((f(&v[side]["luck_adjusted"]) - adjusted).abs() < 1e-9);
        let shown = format!(
            "accuracy {accuracy:.2} ({:.2} points lost a choice)",
            mean * 100.0
        );
        assert!(text.contains(&shown), "{shown} in {text}");
        let shown = format!("luck-adjusted {:.2}%", f(&v[side]["luck_adjusted"]) * 100.0);
        assert!(text.contains(&shown), "{shown} in {text}");
    }
    let mut swings: Vec<(f64, u64)> = turns
        .iter()
        .map(|t| (f(&t["swing"]).abs(), t["ply"].as_u64().expect("ply")))
        .collect();
    swings.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let key: Vec<u64> = swings.iter().take(5).map(|s| s.1).collect();
    assert_eq!(v["key_moments"], serde_json::json!(key));
    let turns_said: Vec<String> = key.iter().map(|p| (p + 1).to_string()).collect();
    let line = format!(
        "key moments (largest swings first): turns {}",
        turns_said.join(", ")
    );
    assert!(text.contains(&line), "{line} in {text}");
}

#[test]
fn perfect_level_errors() {
    let dir = Scratch::new("errors");
    let (table, _) = solve_into(&dir, FINKEL2, &[], "t");
    let (other, _) = solve_into(&dir, "finkel", &["--pieces", "1"], "o");

    // No table file.
    let missing = dir.path("missing");
    let run = race(&[
        "selfplay", "ur", "--rules", FINKEL2, "--light", "perfect", "--table", &missing, "--games",
        "1",
    ]);
    refused(&run, "missing");
    let run = race(&[
        "play", "ur", "--rules", FINKEL2, "--level", "perfect", "--table", &missing, "--watch",
    ]);
    refused(&run, "missing");

    // A table of other rules.
    let run = race(&[
        "selfplay", "ur", "--rules", FINKEL2, "--dark", "perfect", "--table", &other, "--games",
        "1",
    ]);
    refused(&run, "wrong_rules");

    // A file that is not a table.
    let garbage = dir.path("garbage");
    std::fs::write(&garbage, b"not a table at all\n").expect("write");
    let run = race(&[
        "selfplay", "ur", "--rules", FINKEL2, "--light", "perfect", "--table", &garbage, "--games",
        "1",
    ]);
    assert_eq!(run.code, 1, "{}", run.err);
    assert_eq!(run.err.lines().count(), 1);

    // perfect without --table is a usage error.
    let run = race(&["selfplay", "ur", "--light", "perfect", "--games", "1"]);
    assert_eq!(run.code, 2, "{}", run.err);
    let run = race(&["play", "ur", "--level", "perfect", "--watch"]);
    assert_eq!(run.code, 2, "{}", run.err);

    // Senet has no perfect level: a usage error.
    let run = race(&["selfplay", "senet", "--light", "perfect", "--games", "1"]);
    assert_eq!(run.code, 2, "{}", run.err);
    assert!(
        run.err.contains("senet has no perfect level"),
        "{}",
        run.err
    );

    // Analyse: a senet record, a garbage table, a missing table.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let senet = fixtures.join("senet-kendall.txt").display().to_string();
    refused(&race(&["analyse", &senet, "--table", &table]), "game");
    let ur = fixtures.join("ur-finkel.txt").display().to_string();
    let run = race(&["analyse", &ur, "--table", &garbage, "--json"]);
    assert_eq!(run.code, 1);
    assert_eq!(json(&run.out)["ok"], false);
    refused(&race(&["analyse", &ur, "--table", &missing]), "missing");
    // A seven-piece record against a two-piece table.
    refused(&race(&["analyse", &ur, "--table", &table]), "wrong_rules");
}

#[test]
fn the_level_command_switches_to_perfect_with_a_table() {
    let dir = Scratch::new("level");
    let (table, _) = solve_into(&dir, FINKEL2, &[], "f2");
    let args = [
        "play", "ur", "--rules", FINKEL2, "--seed", "lvl", "--ascii", "--level", "1",
    ];
    let with: Vec<&str> = args
        .iter()
        .copied()
        .chain(["--table", table.as_str()])
        .collect();
    let run = race_in(&with, b"level perfect\nquit\n", &[]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out.contains("the bot now plays at level perfect."),
        "{}",
        run.out
    );
    // Without a table the command is refused and the game goes on.
    let run = race_in(&args, b"level perfect\nlevel 2\nquit\n", &[]);
    assert_eq!(run.code, 0, "{}", run.err);
    assert!(
        run.out
            .contains("refused: level: perfect needs --table PATH"),
        "{}",
        run.out
    );
    assert!(
        run.out.contains("the bot now plays at level 2."),
        "{}",
        run.out
    );
}

/// Rule sets past the reference's: a blitz table (a capture throws again,
/// rosettes not safe) and an aseb table (its own board) say their rules
/// in the header, the perfect bot plays by them, a record under them is
/// analysed, and a table of other rules is refused.
#[test]
fn blitz_and_aseb_tables_play_and_analyse() {
    const BLITZ2: &str = "board=standard path=masters dice=4 zero_rolls=0 safe_rosettes=0 \
                          rosette_again=1 capture_again=1 pieces=2";
    let dir = Scratch::new("blitz");
    let (blitz, run) = solve_into(&dir, "blitz", &["--pieces", "2", "--json"], "blitz2");
    let v = json(&run.out);
    assert_eq!(v["rules"], BLITZ2);
    let header = std::fs::read(&blitz).expect("table");
    assert!(
        header.windows(BLITZ2.len()).any(|w| w == BLITZ2.as_bytes()),
        "the header names the rules"
    );
    let (aseb, run) = solve_into(&dir, "aseb", &["--pieces", "1", "--json"], "aseb1");
    let aseb_rules = json(&run.out)["rules"].as_str().expect("rules").to_owned();
    assert!(aseb_rules.contains("board=aseb"), "{aseb_rules}");
    for (rules, table) in [(BLITZ2, &blitz), (aseb_rules.as_str(), &aseb)] {
        let records = dir.path(&format!("records-{}", table.len()));
        let run = race(&[
            "selfplay",
            "ur",
            "--rules",
            rules,
            "--light",
            "perfect",
            "--dark",
            "1",
            "--table",
            table,
            "--games",
            "6",
            "--seed",
            "blitz",
            "--records",
            &records,
            "--json",
        ]);
        assert_eq!(run.code, 0, "{rules}: {}", run.err);
        let record = Path::new(&records).join("ur-0001.txt");
        let text = std::fs::read_to_string(&record).expect("record");
        let v = analyse(&record, table);
        assert_eq!(v["rules"], rules, "{text}");
        let turns = v["turns"].as_array().expect("turns");
        assert!(!turns.is_empty(), "{text}");
        for t in turns {
            assert!(t["lost"].as_f64().expect("lost") >= -1e-6, "{t}");
        }
        // The perfect side gives nothing away (a 2-byte table: its choices
        // keep the best move exact).
        assert!(v["light"]["lost"].as_f64().expect("lost").abs() < 1e-5);
        // The other rule set's table is refused, naming both.
        let other = if table == &blitz { &aseb } else { &blitz };
        let run = race(&["analyse", &record.display().to_string(), "--table", other]);
        refused(&run, "wrong_rules");
        assert!(run.err.contains(rules), "{}", run.err);
    }
}

/// A path that visits `a2..g2` twice: skiriuk with a capture throwing
/// again, two pieces, solved by `race solve`; the perfect bot plays from
/// its table and gives nothing away in `race analyse`, over games whose
/// pieces come round to a second visit; murray with seven pieces is
/// refused with its size.
#[test]
fn skiriuk_table_plays_and_analyses_and_murray_is_too_big() {
    const SKIRIUK2: &str = "board=standard path=skiriuk dice=4 zero_rolls=0 safe_rosettes=1 \
                            rosette_again=1 capture_again=1 pieces=2";
    let dir = Scratch::new("skiriuk");
    let (table, run) = solve_into(
        &dir,
        "path=skiriuk capture_again=1 pieces=2",
        &["--json"],
        "skiriuk2",
    );
    let v = json(&run.out);
    assert_eq!(v["rules"], SKIRIUK2);
    assert!(v["residual"].as_f64().expect("residual") < 1e-8);
    let records = dir.path("records");
    let run = race(&[
        "selfplay",
        "ur",
        "--rules",
        SKIRIUK2,
        "--light",
        "1",
        "--dark",
        "perfect",
        "--table",
        &table,
        "--games",
        "4",
        "--seed",
        "skiriuk",
        "--records",
        &records,
        "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let mut second_visits = 0;
    for game in 1..=4 {
        let record = Path::new(&records).join(format!("ur-{game:04}.txt"));
        let v = analyse(&record, &table);
        assert_eq!(v["rules"], SKIRIUK2);
        let turns = v["turns"].as_array().expect("turns");
        assert!(turns.len() > 10, "{v}");
        for t in turns {
            assert!(t["lost"].as_f64().expect("lost") >= -1e-6, "{t}");
        }
        // The perfect side gives nothing away (a 2-byte table: its choices
        // keep the best move exact).
        assert!(
            v["dark"]["lost"].as_f64().expect("lost").abs() < 1e-5,
            "{v}"
        );
        // Moves onto a2..g2 from the far end of the path (g1, g3, h1, h2,
        // h3) come round to a second visit.
        second_visits += turns
            .iter()
            .filter_map(|t| t["move"].as_str()?.split_once('-'))
            .filter(|&(from, to)| {
                ["g1", "g3", "h1", "h2", "h3"].contains(&from) && to.ends_with('2') && to < "h"
            })
            .count();
    }
    assert!(second_visits > 0, "no second visit in four games");
    let run = race(&[
        "solve",
        "path=murray pieces=7",
        "--out",
        &dir.path("murray"),
    ]);
    refused(&run, "too_big");
    assert!(run.err.contains("107967669800"), "{}", run.err);
    assert!(!Path::new(&dir.path("murray")).exists());
}

/// `race solve RULES --data DIR` writes DIR/tables/ under a name made from
/// the rules (a 2-byte table by default); `race tables` lists it with its
/// rules, format, size and checksum state, and a damaged copy as damaged;
/// `race table export --format rgu` writes RoyalUr's file, `race table
/// import` reads it back into a table the perfect bot plays from.
#[test]
fn data_folder_tables_listed_exported_and_imported() {
    let dir = Scratch::new("data");
    let data = dir.path("data");
    let run = race(&["solve", "finkel2p", "--data", &data, "--json"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let v = json(&run.out);
    assert_eq!(v["value_type"], "p16");
    let table = Path::new(&data).join("tables").join("finkel2p.p16.table");
    assert_eq!(v["table"], table.display().to_string());
    assert!(table.is_file());
    // A second solve to the same name is refused without --force.
    refused(&race(&["solve", "finkel2p", "--data", &data]), "exists");
    // A damaged copy beside it.
    let mut bytes = std::fs::read(&table).expect("table");
    let at = bytes.len() - 100;
    bytes[at] ^= 1;
    std::fs::write(Path::new(&data).join("tables").join("broken.table"), &bytes).expect("copy");
    let run = race(&["tables", "--data", &data, "--json"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let v = json(&run.out);
    let tables = v["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 2, "{v}");
    let broken = &tables[0];
    assert_eq!(broken["checksum"], "bad", "{broken}");
    assert_eq!(broken["code"], "checksum");
    let good = &tables[1];
    assert_eq!(good["rules"], FINKEL2);
    assert_eq!(good["name"], "finkel2p");
    assert_eq!(good["format"], "p16");
    assert_eq!(good["version"], 3);
    assert_eq!(good["states"], 13112);
    assert_eq!(good["checksum"], "ok");
    assert_eq!(good["bytes"], bytes.len());
    let run = race(&["tables", "--data", &data]);
    assert!(run.out.contains("finkel2p.p16.table"), "{}", run.out);
    assert!(run.out.contains("checksum ok"), "{}", run.out);
    assert!(run.out.contains("(checksum)"), "{}", run.out);
    let empty = race(&["tables", "--data", &dir.path("none"), "--json"]);
    assert_eq!(json(&empty.out)["tables"], serde_json::json!([]));
    // Out to RoyalUr's format and back.
    let rgu = dir.path("finkel2p.rgu");
    let t = table.display().to_string();
    let run = race(&[
        "table", "export", &t, "--format", "rgu", "--out", &rgu, "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    let v = json(&run.out);
    assert_eq!(v["entries"], 12990);
    assert_eq!(&std::fs::read(&rgu).expect("rgu")[..4], b"RGU\0");
    refused(&race(&["table", "export", &t, "--out", &rgu]), "exists");
    let back = dir.path("back");
    let run = race(&["table", "import", &rgu, "--data", &back, "--json"]);
    assert_eq!(run.code, 0, "{}", run.err);
    let imported = json(&run.out)["table"].as_str().expect("table").to_owned();
    assert!(imported.ends_with("finkel2p.p16.table"), "{imported}");
    let run = race(&[
        "selfplay", "ur", "--rules", "finkel2p", "--light", "perfect", "--dark", "1", "--table",
        &imported, "--games", "4", "--seed", "imported", "--json",
    ]);
    assert_eq!(run.code, 0, "{}", run.err);
    refused(&race(&["table", "import", &t]), "not_rgu");
}
