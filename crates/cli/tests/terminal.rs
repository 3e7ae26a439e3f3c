//! `race play` on a real terminal: the binary runs in a pseudo-terminal and
//! its screen is read as a grid. Each test waits for what it expects on
//! the screen, with generous time-outs, and times nothing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::path::{Path, PathBuf};

mod common;

use common::pty::{Term, ply_of};
use common::{race, race_in};
use rustix::process::Signal;

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("race-terminal-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

/// A record's turn lines.
fn turns(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.starts_with('['))
        .map(str::to_owned)
        .collect()
}

/// `race replay --json` of a record: it must replay.
fn replayed(path: &Path) -> serde_json::Value {
    let run = race(&["replay", "--json", &path.display().to_string()]);
    assert_eq!(run.code, 0, "{}: {}", path.display(), run.err);
    serde_json::from_str(&run.out).expect("JSON")
}

/// How many boards a screen shows: the Royal Game of Ur's file letters.
fn boards(screen: &str) -> usize {
    screen.matches("a  b  c  d  e  f  g  h").count()
}

/// Light, moving first, plays the move picked with Enter; then `ahead` is
/// typed, while the bot plays or before light's next throw is drawn (from
/// `seed`'s dice). It is dropped, the screen says so, and no move is made
/// blind.
fn typed_ahead_is_dropped(name: &str, seed: &str, in_the_bots_turn: bool) {
    let dir = folder(name);
    // The bot waits long enough for the keys to come in its turn, even on
    // a slow machine.
    let pace = if in_the_bots_turn { "10000" } else { "0" };
    let mut t = Term::start(
        &[
            "play", "ur", "--seed", seed, "--first", "light", "--level", "1", "--pace", pace,
            "--record", "game.txt",
        ],
        &dir,
        120,
        40,
    );
    let before = ply_of(&t.wait_text("light> ")).expect("a ply");
    // A second move, and letters with no Enter.
    let ahead = "1\rxyz";
    if in_the_bots_turn {
        t.send("\r");
        t.wait_text("(the bot)");
        t.send(ahead);
    } else {
        t.send(&format!("\r{ahead}"));
    }
    let screen = lights_turn_after(&mut t, before);
    assert!(
        screen.contains("keys typed before this roll was shown: ignored"),
        "{screen}"
    );
    let input = screen
        .lines()
        .find(|l| l.starts_with("light> "))
        .unwrap_or_default();
    assert!(
        !input.contains("xyz"),
        "typed-ahead letters kept: {input:?}"
    );
    let lines = turns(&dir.join("game.txt"));
    let light = lines.iter().filter(|l| l.contains(". l ")).count();
    assert_eq!(
        light, 1,
        "one move of light's, not a blind second: {lines:?}"
    );
    assert_eq!(
        ply_of(&screen),
        Some(u32::try_from(lines.len()).expect("plies")),
        "the record holds every ply shown:\n{screen}"
    );
    // What is typed once the roll is shown is kept.
    t.send("xyz");
    t.wait_text("light> xyz");
    t.send("\x03");
    assert_eq!(t.exit_code(), 130);
}

#[test]
fn keys_typed_after_a_rosette_are_dropped() {
    // Light's first move lands on a rosette: light throws again at once.
    typed_ahead_is_dropped("after-a-rosette", "r20", false);
}

#[test]
fn keys_typed_in_the_bots_turn_are_dropped() {
    typed_ahead_is_dropped("in-the-bots-turn", "b1", true);
}

#[test]
fn line_by_line_on_a_terminal_lines_typed_ahead_are_dropped() {
    let dir = folder("plain-ahead");
    let mut t = Term::start(
        &[
            "play", "ur", "--plain", "--seed", "b1", "--first", "light", "--level", "1", "--pace",
            "3000", "--record", "game.txt",
        ],
        &dir,
        120,
        40,
    );
    t.wait_text("light> ");
    // The second line is typed during the bot's turn.
    t.send("1\r1\r");
    let screen = t.wait_for("light's next prompt", |s| {
        s.contains("(what was typed before this roll was shown is ignored)")
            && s.trim_end().ends_with("light>")
    });
    let lines = turns(&dir.join("game.txt"));
    let light = lines.iter().filter(|l| l.contains(". l ")).count();
    assert_eq!(
        light, 1,
        "one move of light's, not a blind second: {lines:?}\n{screen}"
    );
    t.send("quit\r");
    assert_eq!(t.exit_code(), 0);
}

/// Leaves a game that is not over with `keys` (q and Enter at a prompt, q
/// when watching, Ctrl-D): the screen asks first, and y leaves.
fn leave(t: &mut Term, keys: &str) {
    t.send(keys);
    t.wait_text("leave the game? (y/n)");
    t.send("y");
}

/// Waits for light's prompt (the person's turn) after ply `after`, and
/// returns the screen.
fn lights_turn_after(t: &mut Term, after: u32) -> String {
    t.wait_for(&format!("light's turn after ply {after}"), |s| {
        s.contains("light> ") && !s.contains("(the bot)") && ply_of(s).is_some_and(|p| p > after)
    })
}

/// Plays `moves` person moves (move 1 each time) against the level 1 bot,
/// then quits; `first` is on the first screen.
fn play_then_quit(dir: &Path, args: &[&str], moves: usize, first: &str) {
    let mut t = Term::start(args, dir, 120, 40);
    t.wait_text(first);
    for _ in 0..moves {
        let before = ply_of(&t.wait_text("light> ")).unwrap_or(0);
        t.send("\r");
        lights_turn_after(&mut t, before);
    }
    leave(&mut t, "q\r");
    assert_eq!(t.exit_code(), 0, "{}", t.screen());
}

#[test]
fn a_resumed_game_goes_on_with_the_same_throws() {
    let dir = folder("resume");
    let new = [
        "play", "ur", "--seed", "resume", "--level", "1", "--pace", "0", "--record", "a.txt",
    ];
    play_then_quit(&dir, &new, 2, "light> ");
    let before = turns(&dir.join("a.txt"));
    assert!(before.len() >= 4, "{before:?}");
    play_then_quit(
        &dir,
        &["play", "--resume", "a.txt", "--level", "1", "--pace", "0"],
        2,
        "you play light (--side dark plays the other side).",
    );
    let resumed = turns(&dir.join("a.txt"));
    assert!(resumed.len() > before.len() && resumed.starts_with(&before));
    // The same game played through without stopping.
    let whole = [
        "play", "ur", "--seed", "resume", "--level", "1", "--pace", "0", "--record", "b.txt",
    ];
    play_then_quit(&dir, &whole, 4, "light> ");
    assert_eq!(resumed, turns(&dir.join("b.txt")));
    assert_eq!(
        std::fs::read_to_string(dir.join("a.txt")).expect("a"),
        std::fs::read_to_string(dir.join("b.txt")).expect("b")
    );
    // In 40 columns the note is wrapped, not cut.
    let mut t = Term::start(
        &["play", "--resume", "a.txt", "--side", "dark"],
        &dir,
        40,
        40,
    );
    let note = format!(
        "going on from ply {} of a.txt: you play dark (--side light plays the other side).",
        resumed.len()
    );
    t.wait_for("the whole note", |s| {
        let words: Vec<&str> = s.split_whitespace().collect();
        words.join(" ").contains(&note)
    });
    t.send("\x03");
    assert_eq!(t.exit_code(), 130);
}

#[test]
fn a_finished_record_says_so_and_steps_through() {
    let dir = folder("finished");
    let record = dir.join("done.txt");
    let watched = race_in(
        &[
            "play",
            "senet",
            "--watch",
            "--seed",
            "done",
            "--level",
            "1",
            "--record",
            &record.display().to_string(),
        ],
        b"",
        &[],
    );
    assert_eq!(watched.code, 0, "{}", watched.err);
    let written = std::fs::read_to_string(&record).expect("the record");
    let mut t = Term::start(
        &["play", "--resume", "done.txt", "--pace", "25"],
        &dir,
        100,
        30,
    );
    t.wait_text("this record is of a finished game");
    t.wait_text("wins with every piece borne off");
    t.send("replay\r");
    t.wait_text("replaying");
    t.wait_text("the end of the record");
    t.send("q");
    t.wait_for("the record's end again", |s| {
        s.contains("this record is of a finished game") && !s.contains("replaying")
    });
    t.send("q");
    assert_eq!(t.exit_code(), 0);
    assert_eq!(
        std::fs::read_to_string(&record).expect("the record"),
        written,
        "looking at a finished record leaves it as it was"
    );
    // Going on from an earlier ply goes on in a new file, and says so.
    let mut t = Term::start(
        &[
            "play", "--resume", "done.txt", "--level", "1", "--pace", "0",
        ],
        &dir,
        100,
        30,
    );
    t.wait_text("this record is of a finished game, kept as it is");
    t.send("undo\r");
    t.wait_for("where the game goes on", |s| {
        let words: Vec<&str> = s.split_whitespace().collect();
        words
            .join(" ")
            .contains("the game goes on in done-2.txt, and done.txt keeps its record as it was.")
    });
    leave(&mut t, "quit\r");
    assert_eq!(t.exit_code(), 0);
    assert_eq!(
        std::fs::read_to_string(&record).expect("the record"),
        written,
        "an undo leaves the finished record as it was"
    );
    let v = replayed(&dir.join("done-2.txt"));
    assert_eq!(v["over"], false, "{v}");
}

/// Light moves first and plays one move, then the bot's turn is left
/// waiting (a pace of a minute): `stop` ends the program there.
fn stopped_in_the_bots_turn(name: &str, stop: impl FnOnce(&mut Term), code: u32) {
    let dir = folder(name);
    let mut t = Term::start(
        &[
            "play", "ur", "--seed", "stop", "--first", "light", "--level", "1", "--pace", "60000",
            "--record", "game.txt",
        ],
        &dir,
        120,
        40,
    );
    t.wait_text("light> ");
    t.send("\r");
    let ply = ply_of(&t.wait_text("(the bot)")).expect("a ply");
    assert!(t.alternate());
    stop(&mut t);
    assert_eq!(t.exit_code(), code, "{}", t.screen());
    if t.is_open() {
        t.wait_own_screen();
    }
    let record = dir.join("game.txt");
    let v = replayed(&record);
    assert_eq!(v["ply"], ply, "every ply shown is in the record: {v}");
    assert_eq!(v["over"], false);
    let last = turns(&record).pop().unwrap_or_default();
    assert!(last.contains(". l "), "light's move is the last: {last}");
    let resumed = race_in(
        &[
            "play",
            "--resume",
            &record.display().to_string(),
            "--level",
            "1",
        ],
        b"quit\n",
        &[],
    );
    assert_eq!(resumed.code, 0, "{}", resumed.err);
    assert!(
        resumed.out.contains(&format!("going on from ply {ply}")),
        "{}",
        resumed.out
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers, ["game.txt"], "no temporary file is left");
}

#[test]
fn sigint_in_the_bots_turn_leaves_a_record_that_replays_and_resumes() {
    stopped_in_the_bots_turn("sigint", |t| t.signal(Signal::INT), 130);
}

#[test]
fn sighup_in_the_bots_turn_leaves_a_record_that_replays_and_resumes() {
    stopped_in_the_bots_turn("sighup", |t| t.signal(Signal::HUP), 129);
}

#[test]
fn ctrl_c_in_the_bots_turn_leaves_a_record_that_replays_and_resumes() {
    stopped_in_the_bots_turn("ctrl-c", |t| t.send("\x03"), 130);
}

#[test]
fn a_closed_terminal_in_the_bots_turn_leaves_a_record_that_replays_and_resumes() {
    stopped_in_the_bots_turn("closed", Term::close, 129);
}

#[test]
fn a_second_game_goes_to_a_numbered_file() {
    let dir = folder("second-game");
    let mut t = Term::start(
        &[
            "play", "ur", "--seed", "two", "--level", "1", "--pace", "0", "--record", "game.txt",
        ],
        &dir,
        120,
        40,
    );
    let before = ply_of(&t.wait_text("light> ")).expect("a ply");
    t.send("\r");
    lights_turn_after(&mut t, before);
    t.send("new\r");
    t.wait_text("start a new one? (y/n)");
    t.send("y");
    t.wait_text("recorded in game-2.txt");
    let before = ply_of(&t.wait_text("light> ")).expect("a ply");
    t.send("\r");
    lights_turn_after(&mut t, before);
    leave(&mut t, "q\r");
    assert_eq!(t.exit_code(), 0);
    let first = replayed(&dir.join("game.txt"));
    let second = replayed(&dir.join("game-2.txt"));
    assert!(first["ply"].as_u64() > Some(0) && second["ply"].as_u64() > Some(0));
    assert_ne!(first["record"], second["record"]);
}

/// The level 1 bot playing `game` against itself from `seed`, at `pace`
/// milliseconds a ply, in a terminal `cols` by `rows`.
fn watch(game: &str, seed: &str, pace: &str, dir: &Path, cols: u16, rows: u16) -> Term {
    Term::start(
        &[
            "play", game, "--watch", "--seed", seed, "--level", "1", "--pace", pace,
        ],
        dir,
        cols,
        rows,
    )
}

#[test]
fn the_screen_holds_one_board_however_many_plies() {
    let dir = folder("one-board");
    let mut t = watch("ur", "one", "25", &dir, 120, 40);
    assert!(t.wait_text("last plies").contains("a  b  c"));
    let screen = t.wait_for("ten plies", |s| ply_of(s).is_some_and(|p| p >= 10));
    assert_eq!(boards(&screen), 1, "{screen}");
    assert!(t.alternate());
    leave(&mut t, "q");
    assert_eq!(t.exit_code(), 0);
    t.wait_own_screen();
}

#[test]
fn a_narrow_terminal_gets_the_narrow_board_unwrapped() {
    let dir = folder("narrow");
    let mut t = watch("senet", "narrow", "25", &dir, 40, 30);
    let screen = t.wait_for("six plies", |s| ply_of(s).is_some_and(|p| p >= 6));
    for numbers in [
        "1  2  3  4  5  6  7  8  9 10",
        "20 19 18 17 16 15 14 13 12 11",
        "21 22 23 24 25 26 27 28 29 30",
    ] {
        assert_eq!(screen.matches(numbers).count(), 1, "{numbers}:\n{screen}");
    }
    assert!(screen.contains("borne off"), "{screen}");
    leave(&mut t, "q");
    assert_eq!(t.exit_code(), 0);
    let mut t = watch("ur", "narrow", "25", &dir, 40, 30);
    let screen = t.wait_for("six plies", |s| ply_of(s).is_some_and(|p| p >= 6));
    assert_eq!(boards(&screen), 1, "{screen}");
    for hands in ["light  hand", "dark   hand"] {
        assert_eq!(screen.matches(hands).count(), 1, "{hands}:\n{screen}");
    }
    leave(&mut t, "q");
    assert_eq!(t.exit_code(), 0);
    // Narrower than the board: a message, not a broken board.
    let mut t = Term::start(&["play", "senet", "--seed", "narrow"], &dir, 30, 20);
    let screen = t.wait_text("too small");
    assert!(!screen.contains("21 22 23"), "{screen}");
    t.send("\x03");
    assert_eq!(t.exit_code(), 130);
}

#[test]
fn the_keys_box_wraps_its_lines_on_a_narrow_screen() {
    let dir = folder("keys-narrow");
    let mut t = watch("ur", "keys", "25", &dir, 60, 50);
    t.wait_for("a ply", |s| ply_of(s).is_some());
    t.send("?");
    // The ends of the longest lines, which a cut box would lose.
    let screen = t.wait_text("--table)");
    assert!(screen.contains("written)"), "{screen}");
    t.send("x");
    leave(&mut t, "q");
    assert_eq!(t.exit_code(), 0);
}

#[test]
fn watching_pauses_steps_changes_pace_and_leaves() {
    let dir = folder("watch");
    let mut t = watch("ur", "watch", "200", &dir, 120, 40);
    t.wait_for("two plies", |s| ply_of(s).is_some_and(|p| p >= 2));
    t.send(" ");
    let screen = t.wait_text("· paused");
    let at = ply_of(&screen).expect("a ply");
    t.send("n");
    let screen = t.wait_for("one more ply", |s| ply_of(s) == Some(at + 1));
    assert!(screen.contains("· paused"), "{screen}");
    t.send("\x1b[C");
    t.wait_for("one more ply, by the arrow", |s| ply_of(s) == Some(at + 2));
    t.send("+");
    t.wait_text("pace 100 ms");
    t.send("--");
    t.wait_text("pace 400 ms");
    t.send("?");
    t.wait_text("these keys");
    t.send(" ");
    t.wait_for("the keys closed", |s| !s.contains("these keys"));
    t.send(" ");
    t.wait_for("playing on", |s| {
        !s.contains("· paused") && ply_of(s).is_some_and(|p| p > at + 2)
    });
    leave(&mut t, "q");
    assert_eq!(t.exit_code(), 0);
}

/// The input line: the screen's line that starts with `prompt`.
fn input_line(screen: &str, prompt: &str) -> String {
    screen
        .lines()
        .find(|l| l.starts_with(prompt))
        .unwrap_or_default()
        .trim_end()
        .to_owned()
}

#[test]
fn control_chords_edit_the_line_and_are_never_typed() {
    let dir = folder("chords");
    let mut t = Term::start(
        &[
            "play", "ur", "--seed", "chords", "--first", "light", "--level", "1", "--pace", "0",
            "--record", "game.txt",
        ],
        &dir,
        100,
        30,
    );
    let before = ply_of(&t.wait_text("light> ")).expect("a ply");
    t.send("\r");
    let screen = lights_turn_after(&mut t, before);
    let at = ply_of(&screen).expect("a ply");
    // Ctrl-U clears the line: with nothing typed, Enter plays the move
    // picked (a `u` typed would have undone the last one).
    t.send("undo\x15");
    t.wait_for("the line cleared", |s| {
        input_line(s, "light> ") == "light> enter plays the move picked, or type"
    });
    t.send("\x15\r");
    let screen = lights_turn_after(&mut t, at);
    assert!(!screen.contains("taken back"), "{screen}");
    // Ctrl-W deletes a word, Ctrl-A and Alt-x type nothing.
    t.send("save my game.txt\x17");
    t.wait_for("a word deleted", |s| {
        input_line(s, "light> ") == "light> save my"
    });
    t.send("\x17\x17x\x01\x1bx");
    t.wait_for("no letter for a chord", |s| {
        input_line(s, "light> ") == "light> x"
    });
    t.send("\x15");
    // Ctrl-D asks, saying where the record is; n goes on, y leaves.
    let ply = ply_of(&t.screen()).expect("a ply");
    t.send("\x04");
    let screen = t.wait_text("leave the game? (y/n)");
    let words = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!(
            "the game is not over; its record is in game.txt (ply {ply}): race play ur --resume \
             game.txt goes on with it."
        )),
        "{screen}"
    );
    t.send("n");
    t.wait_text("the game goes on.");
    leave(&mut t, "\x04");
    assert_eq!(t.exit_code(), 0);
    assert_eq!(
        turns(&dir.join("game.txt")).len(),
        usize::try_from(ply).expect("plies")
    );
    // Without a record, q says there is none.
    let mut t = Term::start(
        &[
            "play", "ur", "--seed", "chords", "--first", "light", "--level", "1", "--pace", "0",
        ],
        &dir,
        100,
        30,
    );
    let before = ply_of(&t.wait_text("light> ")).expect("a ply");
    t.send("\r");
    lights_turn_after(&mut t, before);
    t.send("q\r");
    t.wait_text("the game is not over; there is no record of it (save FILE writes one).");
    t.send("y");
    assert_eq!(t.exit_code(), 0);
}

#[test]
fn ctrl_z_suspends_the_game_as_a_job_and_fg_goes_on() {
    let dir = folder("suspend");
    let mut shell = Term::start_program("bash", &["--norc", "--noprofile", "-i"], &dir, 100, 30);
    shell.wait_for("a prompt", |s| s.contains('$') || s.contains('#'));
    shell.send(&format!(
        "'{}' play ur --seed jobs --first light --level 1 --pace 0\r",
        env!("CARGO_BIN_EXE_race")
    ));
    let before = ply_of(&shell.wait_text("light> ")).expect("a ply");
    assert!(shell.alternate());
    shell.send("\x1a");
    shell.wait_for("the job stopped", |s| s.contains("Stopped"));
    assert!(!shell.alternate(), "the screen is put away");
    shell.send("fg\r");
    let screen = shell.wait_text("light> ");
    assert!(shell.alternate(), "the screen is back");
    assert_eq!(boards(&screen), 1, "{screen}");
    // The game goes on where it was.
    shell.send("\r");
    lights_turn_after(&mut shell, before);
    shell.send("\x03");
    shell.wait_own_screen();
    shell.send("exit\r");
    assert_eq!(shell.exit_code(), 130, "bash exits as its last job did");
}

#[test]
fn the_boxes_fit_and_scroll_and_the_plies_panel_scrolls_back() {
    let dir = folder("boxes");
    let record = dir.join("done.txt");
    let watched = race_in(
        &[
            "play",
            "senet",
            "--watch",
            "--seed",
            "done",
            "--level",
            "1",
            "--record",
            &record.display().to_string(),
        ],
        b"",
        &[],
    );
    assert_eq!(watched.code, 0, "{}", watched.err);
    let plies = turns(&dir.join("done.txt")).len();
    assert!(plies > 100, "{plies} plies");
    for (cols, rows) in [(80, 24), (100, 30)] {
        let mut t = Term::start(&["play", "--resume", "done.txt"], &dir, cols, rows);
        t.wait_text("wins with every piece borne off");
        // The plies open at the newest, and scroll to the first.
        t.send("list\r");
        let last = format!("{plies:>4}. ");
        let screen = t.wait_text(&format!(
            "of {}",
            plies.div_ceil((usize::from(cols) - 4) / 24)
        ));
        assert!(screen.contains(&last), "the newest ply: {screen}");
        assert!(
            !screen.contains("   1. l ") && !screen.contains("   1. d "),
            "{screen}"
        );
        t.send("\x1b[H");
        let screen = t.wait_for("the first ply", |s| s.contains("   1. "));
        assert!(!screen.contains(&last), "{screen}");
        t.send("\x1b[F");
        t.wait_text(&last);
        t.send("x");
        t.wait_for("the box closed", |s| !s.contains("┌ plies "));
        // The keys from the first to the last line.
        t.send("?");
        let screen = t.wait_text("playing");
        assert!(!screen.contains("Keys typed before"), "{screen}");
        t.send("\x1b[F");
        let screen = t.wait_text("Keys typed before a new roll is shown are ignored.");
        assert!(!screen.contains("│playing"), "{screen}");
        t.send("\x1b[5~");
        t.send("x");
        t.wait_for("the box closed", |s| !s.contains("┌ keys "));
        // The plies panel pages back, and forward again.
        t.send("\x1b[5~");
        let screen = t.wait_text("(page down: later)");
        let newest = format!("{plies}. ");
        assert!(!screen.contains(&newest), "{screen}");
        t.send("\x1b[6~\x1b[6~\x1b[6~");
        t.wait_for("the newest again", |s| {
            s.contains("last plies") && s.contains(&newest)
        });
        t.send("q");
        assert_eq!(t.exit_code(), 0);
    }
}

#[test]
fn ascii_draws_the_whole_screen_in_ascii() {
    let dir = folder("ascii");
    let mut t = Term::start(
        &[
            "play", "ur", "--ascii", "--seed", "ascii", "--first", "light", "--level", "1",
            "--pace", "0", "--record", "game.txt",
        ],
        &dir,
        80,
        24,
    );
    let before = ply_of(&t.wait_text("light> ")).expect("a ply");
    let screen = t.screen();
    assert!(screen.is_ascii(), "{screen}");
    t.send("\r");
    let screen = lights_turn_after(&mut t, before);
    assert!(screen.is_ascii(), "{screen}");
    // Each box, and a question, and a refusal.
    for (open, shows) in [
        ("?", "+ keys "),
        ("list\r", "+ plies "),
        ("route\r", "+ route "),
    ] {
        t.send(open);
        let screen = t.wait_text(shows);
        assert!(screen.is_ascii(), "{open:?}:\n{screen}");
        t.send("x");
        t.wait_for("the box closed", |s| !s.contains(shows));
    }
    for (keys, shows) in [
        ("\x04", "leave the game? (y/n)"),
        ("n", "the game goes on."),
        ("zzz\r", "neither a move nor a command"),
    ] {
        t.send(keys);
        let screen = t.wait_text(shows);
        assert!(screen.is_ascii(), "{keys:?}:\n{screen}");
    }
    t.send("\x03");
    assert_eq!(t.exit_code(), 130);
    // Senet's board, watched to the end of a game.
    let mut t = Term::start(
        &[
            "play", "senet", "--ascii", "--watch", "--seed", "ascii", "--level", "1", "--pace", "0",
        ],
        &dir,
        80,
        24,
    );
    let screen = t.wait_text("wins with every piece borne off");
    assert!(screen.is_ascii(), "{screen}");
    t.send("q");
    assert_eq!(t.exit_code(), 0);
}
