//! Record text: parse errors, byte-identical round trips, replay errors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::toy::{Toy, ToyVariant};
use dice_core::{
    Dice, Game, MismatchKind, ParseRecordError, Record, RecordErrorKind, ReplayError, ScriptRoll,
    Seed, Setup, Side,
};

type ToyGame = Game<Toy>;

fn parse(text: &str) -> Result<Record<Toy>, ParseRecordError> {
    Record::parse(text)
}

/// A finished seeded game, played with the last legal move each time.
fn finished(seed: &str) -> ToyGame {
    let mut game: ToyGame = Game::seeded(Seed::new(seed).unwrap(), ToyVariant::default()).unwrap();
    while !game.is_over() {
        let last = *game.legal().last().unwrap();
        game.play(last).unwrap();
    }
    game
}

#[test]
fn a_seeded_game_round_trips_through_its_text() {
    let game = finished("round trip");
    let text = game.to_record().to_string();
    assert!(text.starts_with("[rules toy]\n[first "));
    assert!(text.contains("[seed 726f756e642074726970]\n"));
    assert!(text.ends_with("home]\n"));
    let record = parse(&text).unwrap();
    assert_eq!(record.to_string(), text);
    let again = Game::replay(&record, None).unwrap();
    assert_eq!(again, game);
    assert_eq!(again.to_record().to_string(), text);
}

#[test]
fn hand_written_records_read_back_byte_for_byte() {
    let texts = [
        "[rules toy]\n[first light]\n",
        "[rules goal=12 dice=3]\n[first dark]\n1. d 2 011: 0-2\n",
        "[rules goal=20 dice=4]\n[first light]\n1. l 0: -\n2. d 4 1111: 0-4\n[result draw ply_cap]\n",
        "[rules toy]\n[first light]\n[seed 00ff]\n[opening 6]\n[result dark resign]\n",
    ];
    for text in texts {
        let record = parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(record.to_string(), text);
    }
    let spelled = parse("[rules goal=12 dice=3]\n[first dark]\n").unwrap();
    assert!(spelled.spelled_out);
    assert_eq!(spelled.variant, ToyVariant::default());
}

#[test]
fn every_parse_error_names_its_line_and_check() {
    use RecordErrorKind::*;
    let cases: &[(&str, usize, RecordErrorKind)] = &[
        ("", 0, Empty),
        ("[rules toy]\n[first light]", 0, NoNewline),
        ("\n", 1, Rules),
        ("[rules Toy]\n[first light]\n", 1, Rules),
        ("[rules goal=99 dice=3]\n[first light]\n", 1, Rules),
        ("[rules dice=3 goal=12]\n[first light]\n", 1, Rules),
        ("[rules toy]\n", 2, First),
        ("[rules toy]\n[first Light]\n", 2, First),
        ("[rules toy]\n[first light]\n[opening 2]\n", 3, Opening),
        (
            "[rules toy]\n[first light]\n[seed 61]\n[opening 3]\n",
            4,
            Opening,
        ),
        ("[rules toy]\n[first light]\n[opening 0]\n", 3, Turn),
        ("[rules toy]\n[first light]\n[seed 6G]\n", 3, Turn),
        ("[rules toy]\n[first light]\n[seed 616]\n", 3, Turn),
        (
            "[rules toy]\n[first light]\n[result light home]\n1. l 1: 0-1\n",
            4,
            AfterResult,
        ),
        (
            "[rules toy]\n[first light]\n[result light draw]\n",
            3,
            Result,
        ),
        (
            "[rules toy]\n[first light]\n[result draw home]\n",
            3,
            Result,
        ),
        ("[rules toy]\n[first light]\n[result Light home]\n", 3, Turn),
        ("[rules toy]\n[first light]\n\n", 3, Turn),
        ("[rules toy]\n[first light]\n1. l 1 0-1\n", 3, Turn),
        ("[rules toy]\n[first light]\n1. l 5: 0-5\n", 3, Turn),
        ("[rules toy]\n[first light]\n1. l 1 01: 0-1\n", 3, Turn),
        ("[rules toy]\n[first light]\n1.  l 1: 0-1\n", 3, Turn),
        ("[rules toy]\n[first light]\n01. l 1: 0-1\n", 3, Turn),
        ("[rules toy]\n[first light]\n2. l 1: 0-1\n", 3, Number),
        ("[rules toy]\n[first light]\n1. d 1: 0-1\n", 3, Side),
        (
            "[rules toy]\n[first light]\n1. l 1: 0-1\n2. l 1: 0-1\n",
            4,
            Side,
        ),
        ("[rules toy]\n[first light]\n1. l 1 1000: 0-1\n", 3, Faces),
        ("[rules toy]\n[first light]\n1. l 2 100: 0-2\n", 3, Faces),
        (
            "[rules toy]\n[first light]\n[seed 61]\n1. l 3: 0-3\n",
            4,
            Roll,
        ),
        ("[rules toy]\n[first light]\n1. l 1: 0_1\n", 3, Move),
        ("[rules toy]\n[first light]\n1. l 1: 00-1\n", 3, Move),
    ];
    for &(text, line, kind) in cases {
        let err = parse(text).unwrap_err();
        assert_eq!((err.line, err.kind), (line, kind), "{text:?}");
        // The sentence names the line it is about (0 is the text as a whole).
        if line > 0 {
            assert!(
                err.message().starts_with(&format!("line {line}")),
                "{text:?}: {}",
                err.message()
            );
        }
        assert_eq!(err.to_string(), format!("{} ({kind})", err.message()));
    }
}

#[test]
fn the_seed_checks_faces_as_well_as_rolls() {
    let text = finished("faces").to_record().to_string();
    // Swap the faces of a turn line for others with the same roll.
    let (index, turn, other) = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(". "))
        .find_map(|(i, l)| {
            let (head, _) = l.split_once(": ")?;
            let faces = head.rsplit(' ').next()?;
            let other: String = faces.chars().rev().collect();
            (other != faces).then_some((i, l, other))
        })
        .expect("some throw has faces that are not a palindrome");
    let (head, mv) = turn.split_once(": ").unwrap();
    let broken_line = format!("{}{other}: {mv}", &head[..head.len() - 3]);
    let broken = text.replacen(turn, &broken_line, 1);
    let err = parse(&broken).unwrap_err();
    assert_eq!((err.line, err.kind), (index + 1, RecordErrorKind::Faces));
}

#[test]
fn parsed_records_serialize_to_json_and_back() {
    let record = finished("json record").to_record();
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"rules\":\"toy\""));
    let back: Record<Toy> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, record);
    let err = ParseRecordError::new(3, RecordErrorKind::NoNewline);
    assert_eq!(
        serde_json::to_string(&err).unwrap(),
        r#"{"line":3,"kind":"no_newline"}"#
    );
}

fn replay(text: &str, rules: Option<ToyVariant>) -> Result<ToyGame, ReplayError<Toy>> {
    Game::replay_text(text, rules)
}

fn mismatch(text: &str, rules: Option<ToyVariant>) -> (Option<usize>, Option<&'static str>) {
    let err = replay(text, rules).unwrap_err();
    assert_eq!(err.code(), "bad_record", "{err}");
    (err.ply(), err.why())
}

#[test]
fn a_seedless_record_replays_its_own_rolls_and_then_has_none() {
    let text = "[rules toy]\n[first light]\n1. l 0: -\n2. d 3 111: 0-3\n3. l 2: 0-2\n";
    let game = replay(text, None).unwrap();
    assert_eq!(game.ply(), 3);
    assert_eq!(game.roll(), None);
    assert_eq!(game.side(), Some(Side::Dark));
    assert_eq!(game.to_record().to_string(), text);
}

#[test]
fn replay_names_the_ply_and_the_reason() {
    let head = "[rules toy]\n[first light]\n";
    // The game loses the turn by itself (roll 0) but the record moves.
    assert_eq!(
        mismatch(&format!("{head}1. l 0: 0-0\n"), None),
        (Some(0), Some("move"))
    );
    // The record loses a turn the game has a move for.
    assert_eq!(
        mismatch(&format!("{head}1. l 2: -\n"), None),
        (Some(0), Some("forfeit"))
    );
    // The result line claims a win the game has not had.
    assert_eq!(
        mismatch(&format!("{head}1. l 2: 0-2\n[result dark home]\n"), None),
        (Some(1), Some("result"))
    );
    // A parse error carries its line and no ply.
    let err = replay(&format!("{head}1. d 2: 0-2\n"), None).unwrap_err();
    assert_eq!(
        (err.code(), err.why(), err.line(), err.ply()),
        ("bad_record", Some("side"), Some(3), None)
    );
}

#[test]
fn replay_refuses_an_illegal_move_with_its_own_code() {
    let err = replay("[rules toy]\n[first light]\n1. l 2: 0-3\n", None).unwrap_err();
    assert_eq!(
        (err.code(), err.ply(), err.why()),
        ("wrong_distance", Some(0), None)
    );
}

#[test]
fn replay_refuses_turns_after_the_end_and_resigning_a_finished_game() {
    let game = finished("over");
    let mut record = game.to_record();
    let turns = record.turns.len();
    let loser = game.result().unwrap().loser().unwrap();
    record.result = None;
    // Without the seed the parser cannot know what would be thrown next.
    record.seed = None;
    record.opening = 0;
    let text = format!("{record}{}. {} 1: 0-1\n", turns + 1, loser.letter());
    let err = Record::<Toy>::parse(&text)
        .map(|r| Game::replay(&r, None).unwrap_err())
        .unwrap();
    assert_eq!((err.ply(), err.why()), (Some(turns), Some("over")));
    let mut resigned = game.to_record();
    resigned.result = Some(dice_core::RecordResult {
        winner: Some(loser.other()),
        how: dice_core::Ending::Resign,
    });
    assert_eq!(
        mismatch(&resigned.to_string(), None),
        (Some(turns), Some("result"))
    );
}

#[test]
fn a_resigned_game_replays_resigned() {
    let mut game: ToyGame =
        Game::seeded(Seed::new("resign").unwrap(), ToyVariant::default()).unwrap();
    let first = game.legal()[0];
    game.play(first).unwrap();
    game.resign(Some(Side::Dark)).unwrap();
    let text = game.to_record().to_string();
    assert!(text.ends_with("[result light resign]\n"));
    assert_eq!(replay(&text, None).unwrap(), game);
}

#[test]
fn the_opening_must_be_the_seeds() {
    let game = finished("opening");
    let text = game.to_record().to_string();
    let first = game.first();
    let header_end = text.find("\n1. ").unwrap() + 1;
    let swapped = text[..header_end].replace(
        &format!("[first {first}]"),
        &format!("[first {}]", first.other()),
    );
    assert_eq!(mismatch(&swapped, None), (Some(0), Some("opening")));
    // Told who moves first, the seed throws no opening, so a record claiming
    // one (with the same turns) parts from the game.
    let told: ToyGame = Game::new(
        Setup::new(
            Dice::Seeded(Seed::new("61").unwrap()),
            ToyVariant::default(),
        )
        .with_first(Side::Light),
    )
    .unwrap();
    assert!(told.opening().is_empty());
    let claimed = format!(
        "[rules toy]\n[first light]\n[seed {}]\n[opening 2]\n",
        told.seed().unwrap()
    );
    let err = replay(&claimed, None).unwrap_err();
    assert_eq!(err.why(), Some("opening"));
}

#[test]
fn other_rules_part_from_the_record_where_they_differ() {
    // goal 12 puts the bonus on 6: under goal 10 it is on 5, so a move to 5
    // keeps the turn where the record passed it.
    let text = "[rules toy]\n[first light]\n1. l 3: 0-3\n2. d 1: 0-1\n3. l 2: 3-5\n4. d 1: 1-2\n";
    assert!(replay(text, None).is_ok());
    let goal10 = ToyVariant { goal: 10, dice: 3 };
    assert_eq!(mismatch(text, Some(goal10)), (Some(3), Some("side")));
    // Four dice give other rolls from the same seed.
    let seeded = finished("other dice").to_record().to_string();
    let four = ToyVariant { goal: 12, dice: 4 };
    let err = replay(&seeded, Some(four)).unwrap_err();
    assert!(
        matches!(err.why(), Some("roll" | "opening" | "side")),
        "{err}"
    );
}

#[test]
fn replaying_the_rolls_of_a_script_with_faces_keeps_them() {
    let rolls = vec![
        ScriptRoll::with_faces(2, "110".parse().unwrap()),
        ScriptRoll::new(1),
    ];
    let game: ToyGame =
        Game::new(Setup::new(Dice::Script(rolls), ToyVariant::default()).with_first(Side::Light))
            .unwrap();
    let mut game = game;
    game.play_text("0-2").unwrap();
    let text = game.to_record().to_string();
    assert_eq!(text, "[rules toy]\n[first light]\n1. l 2 110: 0-2\n");
    assert_eq!(replay(&text, None).unwrap().log(), game.log());
}

#[test]
fn roll_mismatch_in_a_lost_turn_is_found() {
    // Under four dice the record's lost turn on 0 meets another roll.
    let text = "[rules toy]\n[first light]\n[seed 61]\n";
    let record: Record<Toy> = Record::parse(text).unwrap();
    assert_eq!(record.turns.len(), 0);
    let game = Game::replay(&record, None).unwrap();
    assert_eq!(game.first(), Side::Light);
    let mut err = None;
    for seed in 0u8..=255 {
        let Ok(seed) = Seed::new([seed]) else {
            continue;
        };
        let game: ToyGame = Game::new(
            Setup::new(Dice::Seeded(seed), ToyVariant::default()).with_first(Side::Light),
        )
        .unwrap();
        let Some(lost) = game.log().first() else {
            continue;
        };
        let mut record = game.to_record();
        record.turns.truncate(1);
        record.turns[0].roll = (lost.roll + 1) % 4;
        record.turns[0].faces = None;
        err = Some(Game::replay(&record, None).unwrap_err());
        break;
    }
    let err = err.expect("some one-byte seed loses the first turn");
    assert_eq!(
        (err.ply(), err.why()),
        (Some(0), Some(MismatchKind::Roll.as_str()))
    );
}

#[test]
fn parse_errors_say_what_was_found_and_how_to_put_it_right() {
    use RecordErrorKind::*;
    let head = "[rules toy]\n[first light]\n";
    let err = |text: &str| parse(text).unwrap_err();
    // Windows line endings: the reference's refusal (rules, line 1), and a
    // sentence that says what to do.
    let crlf = err("[rules toy]\r\n[first light]\r\n1. l 1: 0-1\r\n");
    assert_eq!((crlf.line, crlf.kind), (1, Rules));
    assert_eq!(
        crlf.message(),
        "line 1 ends with a carriage return (Windows line endings); \
         convert the file to LF line endings"
    );
    // A byte-order mark.
    let bom = err(&format!("\u{feff}{head}"));
    assert_eq!((bom.line, bom.kind), (1, Rules));
    assert!(bom.message().contains("byte-order mark"), "{bom}");
    // A trailing space on a turn line: what is wrong, and the line itself.
    let space = err(&format!("{head}1. l 1: 0-1 \n"));
    assert_eq!((space.line, space.kind), (3, Turn));
    assert_eq!(
        space.message(),
        "line 3 is not a turn line (N. S R[ FACES]: MOVE): it ends with a space: \"1. l 1: 0-1 \""
    );
    // A file cut short.
    let cut = err(&format!("{head}1. l 1: 0"));
    assert_eq!((cut.line, cut.kind), (0, NoNewline));
    assert!(
        cut.message()
            .starts_with("the last line has no newline (the file may be cut short)"),
        "{cut}"
    );
    assert_eq!(err("").message(), "the record is empty");
    // The wrong side: which side the line names, which throws, and why.
    let side = err(&format!("{head}1. l 1: 0-1\n2. l 1: 0-1\n"));
    assert_eq!((side.line, side.kind), (4, Side));
    assert_eq!(
        side.message(),
        "line 4 names light to throw, but dark throws here: line 3, \"1. l 1: 0-1\", passes the turn"
    );
    let opener = err(&format!("{head}1. d 1: 0-1\n"));
    assert_eq!(
        opener.message(),
        "line 3 names dark to throw, but light throws here: light moves first ([first light] on line 2)"
    );
    // The bonus square keeps the turn.
    let kept = err(&format!("{head}1. l 3 111: 0-6\n2. d 1 100: 0-1\n"));
    assert!(
        kept.message()
            .ends_with("\"1. l 3 111: 0-6\", keeps the turn"),
        "{kept}"
    );
    // Numbers, faces, rolls against the seed, and moves.
    assert_eq!(
        err(&format!("{head}2. l 1: 0-1\n")).message(),
        "line 3 is numbered 2, but it is turn 1"
    );
    assert_eq!(
        err(&format!("{head}1. l 2 100: 0-2\n")).message(),
        "line 3: the faces 100 make a roll of 1, not 2"
    );
    assert_eq!(
        err(&format!("{head}1. l 1 1000: 0-1\n")).message(),
        "line 3: the faces 1000 are 4 dice, but these rules throw 3"
    );
    assert_eq!(
        err("[rules toy]\n[first light]\n[seed 61]\n1. l 3: 0-3\n").message(),
        "line 4 says a roll of 3, but throw 0 of the seed is 100, a roll of 1"
    );
    assert!(
        err(&format!("{head}1. l 1: 00-1\n"))
            .message()
            .contains("write it 0-1"),
        "a non-canonical move names its canonical text"
    );
    assert!(
        err("[rules chess]\n[first light]\n")
            .message()
            .contains("chess")
    );
    assert!(
        err("[rules toy]\n[first Light]\n")
            .message()
            .contains("[first Light]")
    );
    assert!(
        err("[rules toy]\n[first light]\n[opening 2]\n")
            .message()
            .contains("[seed]")
    );
}

#[test]
fn the_rules_line_is_read_after_the_checks_of_the_whole_text() {
    use dice_core::record_rules;
    assert_eq!(
        record_rules("[rules anything_at=all 3]\n"),
        Ok("anything_at=all 3")
    );
    for (text, line, kind) in [
        ("", 0, RecordErrorKind::Empty),
        ("[rules toy]", 0, RecordErrorKind::NoNewline),
        ("[rules toy]\r\n", 1, RecordErrorKind::Rules),
        ("[rules Toy]\n", 1, RecordErrorKind::Rules),
        ("\n", 1, RecordErrorKind::Rules),
    ] {
        let err = record_rules(text).unwrap_err();
        assert_eq!((err.line, err.kind), (line, kind), "{text:?}");
    }
}

#[test]
fn replay_errors_name_the_line_the_ply_and_what_the_game_did() {
    let head = "[rules toy]\n[first light]\n";
    let refused = replay(&format!("{head}1. l 2: 0-3\n"), None).unwrap_err();
    assert_eq!(refused.record_line(), 3);
    assert_eq!(
        refused.line(),
        None,
        "only parse errors carry a line in the contract"
    );
    assert!(
        refused
            .message()
            .starts_with("line 3, ply 0: 0-3 on a roll of 2 is refused: "),
        "{refused}"
    );
    assert!(
        refused.to_string().ends_with(" (wrong_distance)"),
        "{refused}"
    );
    let forfeit = replay(&format!("{head}1. l 2: -\n"), None).unwrap_err();
    assert_eq!(
        forfeit.message(),
        "line 3, ply 0: the record has light lose the turn on a roll of 2, but the game has \
         moves for it: 0-2"
    );
    assert!(
        forfeit.to_string().ends_with(" (bad_record, forfeit)"),
        "{forfeit}"
    );
    let result = replay(&format!("{head}1. l 2: 0-2\n[result dark home]\n"), None).unwrap_err();
    assert_eq!(
        result.message(),
        "line 4, ply 1: the record's result is dark home, but the game has not ended"
    );
    let seeded = "[rules toy]\n[first light]\n[seed 61]\n[opening 2]\n";
    let lines = Record::<Toy>::parse(seeded).unwrap();
    assert_eq!(lines.line_of(0), 5);
}
