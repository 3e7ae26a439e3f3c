//! `race soak` from the outside: a few games of each game pass with their
//! totals on stdout, and a bad flag is a usage error.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

/// `race` run as (exit code, stdout, stderr).
fn race(args: &[&str]) -> (i32, String, String) {
    let run = common::race(args);
    (run.code, run.out, run.err)
}

/// The number before `word` in a totals line.
fn count(line: &str, word: &str) -> u64 {
    let at = line
        .find(word)
        .unwrap_or_else(|| panic!("no {word:?} in {line:?}"));
    line[..at]
        .trim_end()
        .rsplit([' ', ':', ','])
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count before {word:?} in {line:?}"))
}

/// The count of refused illegal moves in a totals line, which says they
/// were all correctly refused.
fn refused(line: &str) -> u64 {
    let (_, rest) = line
        .split_once("; refused illegal moves tried: ")
        .unwrap_or_else(|| panic!("no refused moves in {line:?}"));
    let (n, rest) = rest.split_once(' ').expect("a count");
    assert_eq!(rest.trim_end(), "(all correctly refused)", "{line}");
    n.parse().expect("a number")
}

#[test]
fn a_few_games_of_each_game_pass() {
    for (game, rules) in [
        ("ur", ["finkel", "masters"]),
        ("senet", ["kendall", "skyruk"]),
    ] {
        let (code, out, err) = race(&["soak", game, "--games", "4", "--seed", "test"]);
        assert_eq!(code, 0, "{out}{err}");
        assert!(err.is_empty(), "stderr is not a terminal here: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        for (line, name) in lines.iter().zip(rules) {
            assert!(line.starts_with(&format!("{game} {name}: ")), "{line}");
            assert_eq!(count(line, "games"), 4, "{line}");
            assert_eq!(count(line, "replays"), 4, "{line}");
            assert_eq!(count(line, "failures"), 0, "{line}");
            let plies = count(line, "plies");
            assert!(plies > 0, "{line}");
            assert_eq!(
                count(line, "undo checks") + count(line, "lost turns"),
                plies
            );
            assert!(refused(line) > 0, "{line}");
            assert!(!line.contains("refusals"), "{line}");
        }
        assert!(lines[2].starts_with("total: 8 games"), "{}", lines[2]);
    }
}

#[test]
fn one_rule_set_and_a_split_run_agree_with_a_whole_one() {
    let whole = race(&["soak", "senet", "--rules", "kendall", "--games", "6"]);
    let first = race(&["soak", "senet", "--rules", "kendall", "--games", "3"]);
    let second = race(&[
        "soak", "senet", "--rules", "kendall", "--games", "3", "--from", "3",
    ]);
    for run in [&whole, &first, &second] {
        assert_eq!(run.0, 0, "{}{}", run.1, run.2);
        assert_eq!(run.1.lines().count(), 1, "{}", run.1);
    }
    for word in ["plies", "lost turns", "captures/swaps", "undo checks"] {
        assert_eq!(
            count(&whole.1, word),
            count(&first.1, word) + count(&second.1, word),
            "{word}"
        );
    }
    assert_eq!(refused(&whole.1), refused(&first.1) + refused(&second.1));
    let spelled = "protect=all blockade=3 reach26=exact on26=none water=reborn off30=one pieces=7";
    let (code, out, err) = race(&["soak", "senet", "--rules", spelled, "--games", "2"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!("senet {spelled}: 2 games")),
        "{out}"
    );
}

#[test]
fn bad_input_is_refused() {
    let (code, _, err) = race(&["soak", "ur", "--gmaes", "3"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = race(&["soak", "ur", "--games", "many"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = race(&["soak", "chess"]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = race(&["soak", "ur", "--rules", "kendall", "--games", "1"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.starts_with("race: --rules: "), "{err}");
    assert!(err.trim_end().ends_with("(rules, unknown_name)"), "{err}");
    assert!(out.is_empty(), "{out}");
}

#[test]
fn the_last_game_index_is_played_and_none_past_it() {
    let last = u64::MAX.to_string();
    let (code, out, err) = race(&[
        "soak", "senet", "--rules", "kendall", "--games", "1", "--from", &last,
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(count(&out, "games"), 1, "{out}");
    let (code, out, err) = race(&[
        "soak", "senet", "--rules", "kendall", "--games", "2", "--from", &last,
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("there are 1, not 2"), "{err}");
}
