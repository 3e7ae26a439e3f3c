//! Records under every rule set: the rules line each writes, round trips of
//! whole games, and who throws next after a line under the capture bonus,
//! the rosette switch and the aseb board.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Xorshift, variants};
use dice_core::{Notation, Record, Rules, Seed, Side};
use royal_ur::{Game, GameExt, Move, Ur, Variant};

#[test]
fn rules_lines_name_the_presets_records_use_and_spell_out_the_rest() {
    let lenient = |text: &str| Variant::parse_lenient(text).unwrap();
    let cases = [
        (Variant::FINKEL, "finkel"),
        (Variant::MASTERS, "masters"),
        (Variant::BLITZ, "blitz"),
        (Variant::ASEB, "aseb"),
        // Two presets the reference plays as custom rule sets keep its
        // five fields.
        (
            Variant::FINKEL2P,
            "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=2",
        ),
        (
            Variant::MASTERS4D,
            "route=long dice=4 zero_rolls=0 safe_rosettes=0 pieces=7",
        ),
        // Outside the reference's space: all eight fields, in order.
        (
            lenient("path=murray dice=3"),
            "board=standard path=murray dice=3 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=7",
        ),
        (
            lenient("path=skiriuk capture_again=1"),
            "board=standard path=skiriuk dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=1 pieces=7",
        ),
        (
            lenient("rosette_again=0"),
            "board=standard path=bell dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=0 \
             capture_again=0 pieces=7",
        ),
        (
            lenient("board=aseb pieces=7"),
            "board=aseb path=aseb dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=7",
        ),
        (
            lenient("dice=4 zero_rolls=5"),
            "board=standard path=bell dice=4 zero_rolls=5 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=7",
        ),
    ];
    for (variant, text) in cases {
        assert_eq!(variant.to_string(), text);
        assert_eq!(Variant::from_rules_line(text), Ok(variant), "{text}");
        assert_eq!(text.parse::<Variant>(), Ok(variant), "{text}");
        let record = format!("[rules {text}]\n[first light]\n");
        let parsed = Record::<Ur>::parse(&record).unwrap();
        assert_eq!(parsed.variant, variant);
        assert_eq!(parsed.to_string(), record);
    }
    // A preset spelled out in its fields reads as the preset, and a record
    // that spells it so keeps the spelling.
    let blitz = "board=standard path=masters dice=4 zero_rolls=0 safe_rosettes=0 \
                 rosette_again=1 capture_again=1 pieces=5";
    assert_eq!(Variant::from_rules_line(blitz), Ok(Variant::BLITZ));
    let record = format!("[rules {blitz}]\n[first light]\n");
    let parsed = Record::<Ur>::parse(&record).unwrap();
    assert!(parsed.spelled_out);
    assert_eq!(parsed.to_string(), record);
    // One spelling each: a rule set written in the other form, a preset
    // records do not name, a path's name, and eight fields for a rule set
    // the reference plays are all refused.
    for (text, code) in [
        ("finkel2p", "unknown_name"),
        ("masters4d", "unknown_name"),
        ("bell", "unknown_name"),
        ("murray", "unknown_name"),
        (
            "board=standard path=bell dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=7",
            "rules",
        ),
        (
            "path=standard board=murray dice=3 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=7",
            "rules",
        ),
        (
            "board=aseb path=masters dice=4 zero_rolls=0 safe_rosettes=1 rosette_again=1 \
             capture_again=0 pieces=5",
            "clash",
        ),
        (
            "route=short dice=4 zero_rolls=5 safe_rosettes=1 pieces=7",
            "rules",
        ),
    ] {
        let err = Variant::from_rules_line(text).unwrap_err();
        assert_eq!(err.code(), code, "{text}");
        let record = format!("[rules {text}]\n[first light]\n");
        let err = Record::<Ur>::parse(&record).unwrap_err();
        assert_eq!(err.kind.as_str(), "rules", "{text}");
    }
}

/// Plays a seeded game with random moves to its end.
fn random_game(variant: Variant, n: u32, rng: &mut Xorshift) -> Game {
    let seed = Seed::new(format!("records {variant} {n}")).unwrap();
    let mut game = Game::seeded(seed, variant).unwrap();
    while !game.is_over() {
        let legal = game.legal();
        let mv = legal[rng.below(legal.len())];
        game.play(mv).unwrap();
    }
    game
}

#[test]
fn every_rule_set_s_games_round_trip_through_their_records() {
    let mut rng = Xorshift::new(16);
    for variant in variants() {
        for n in 0..12 {
            let game = random_game(variant, n, &mut rng);
            let text = game.to_record().to_string();
            assert!(text.starts_with(&format!("[rules {variant}]\n")), "{text}");
            let record = Record::<Ur>::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(record.to_string(), text);
            let again = Game::replay_text(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert!(again == game, "{variant} game {n}");
            assert_eq!(again.key_text(), game.key_text());
            assert_eq!(again.to_record().to_string(), text);
            // The same record without its seed replays from its lines.
            let scripted: String = text
                .lines()
                .filter(|l| !l.starts_with("[seed") && !l.starts_with("[opening"))
                .map(|l| format!("{l}\n"))
                .collect();
            let again =
                Game::replay_text(&scripted, None).unwrap_or_else(|e| panic!("{e}\n{scripted}"));
            assert_eq!(again.position(), game.position());
            assert_eq!(again.log_display(), game.log_display());
        }
    }
}

fn after(variant: &Variant, side: Side, mv: &str) -> Option<Side> {
    let mv = Ur::parse_move(variant, mv).unwrap();
    Ur::next_in_record(variant, side, 2, Some(mv))
}

#[test]
fn who_throws_after_a_line_under_each_switch() {
    let (l, d) = (Some(Side::Light), Some(Side::Dark));
    let lenient = |text: &str| Variant::parse_lenient(text).unwrap();
    let no_rosette_again = lenient("rosette_again=0");
    let murray_captures = lenient("path=murray capture_again=1");
    let cases: Vec<(Variant, Side, &str, Option<Side>)> = vec![
        // The reference: rosettes by name, whatever the route.
        (Variant::FINKEL, Side::Light, "c1-a1", l),
        (Variant::FINKEL, Side::Light, "c2-e2", d),
        (Variant::FINKEL, Side::Light, "h1-g1", l),
        // aseb: its own rosettes (h2 and l2 are, g1 is not on the board).
        (Variant::ASEB, Side::Light, "e2-h2", l),
        (Variant::ASEB, Side::Dark, "i2-l2", d),
        (Variant::ASEB, Side::Light, "f2-g2", d),
        (Variant::ASEB, Side::Light, "l2-home", d),
        (Variant::ASEB, Side::Dark, "hand-a3", d),
        // A rosette passes the turn when it does not throw again.
        (no_rosette_again, Side::Light, "hand-a1", d),
        (no_rosette_again, Side::Dark, "b2-d2", l),
        // Blitz: a move onto a square the enemy visits may have captured,
        // so either side may throw next; a rosette keeps the turn; the
        // entry row, the home move and a lost turn pass it.
        (Variant::BLITZ, Side::Light, "c2-e2", None),
        (Variant::BLITZ, Side::Light, "f2-g3", l),
        (Variant::BLITZ, Side::Dark, "f2-h1", None),
        (Variant::BLITZ, Side::Light, "hand-c1", d),
        (Variant::BLITZ, Side::Dark, "hand-c3", l),
        (Variant::BLITZ, Side::Light, "h1-home", d),
        // Murray: the enemy passes every square, its entry row included;
        // safe rosettes cannot be captured on.
        (murray_captures, Side::Light, "hand-c1", None),
        (murray_captures, Side::Light, "d2-e2", None),
        (murray_captures, Side::Light, "c2-d2", l),
        (murray_captures, Side::Dark, "b2-a2", None),
    ];
    for (variant, side, mv, want) in cases {
        assert_eq!(after(&variant, side, mv), want, "{variant} {side} {mv}");
    }
    assert_eq!(Ur::next_in_record(&Variant::BLITZ, Side::Light, 0, None), d);
}

const BLITZ_CAPTURE: &str = "[rules blitz]
[first light]
1. l 4: hand-a1
2. l 1: a1-a2
3. d 4: hand-a3
4. d 1: a3-a2
5. d 2: a2-c2
6. l 2: hand-c1
";

#[test]
fn a_capture_throws_again_in_the_game_the_log_and_the_record() {
    let game = Game::replay_text(BLITZ_CAPTURE, None).unwrap();
    let log = game.log_display();
    assert_eq!(
        log,
        [
            "4: hand-a1*",
            "1: a1-a2",
            "4: hand-a3*",
            "1: a3-a2x",
            "2: a2-c2",
            "2: hand-c1"
        ]
    );
    let sides: Vec<Side> = game.log().iter().map(|e| e.side).collect();
    use Side::{Dark, Light};
    assert_eq!(sides, [Light, Light, Dark, Dark, Dark, Light]);
    assert_eq!(game.to_record().to_string(), BLITZ_CAPTURE);
    assert_eq!(game.position().to_string(), "4xx2/2d5/2l1xx2 d 4 0 4 0");

    // The parser cannot tell a capture from the line, so it lets either
    // side follow a move onto a shared square; replaying names the error.
    let no_capture =
        "[rules blitz]\n[first light]\n1. l 4: hand-a1\n2. l 1: a1-a2\n3. l 1: a2-b2\n";
    for (wrong, ply) in [
        (
            BLITZ_CAPTURE.replacen("5. d 2: a2-c2", "5. l 2: a2-c2", 1),
            4,
        ),
        (no_capture.to_owned(), 2),
    ] {
        assert!(Record::<Ur>::parse(&wrong).is_ok(), "{wrong}");
        let err = Game::replay_text(&wrong, None).unwrap_err();
        assert_eq!(
            (err.code(), err.why(), err.ply()),
            ("bad_record", Some("side"), Some(ply))
        );
    }
    // Under masters (no capture bonus) the parser itself refuses the same
    // record: after a3-a2 the turn passes.
    let masters = BLITZ_CAPTURE.replace("[rules blitz]", "[rules masters]");
    let err = Record::<Ur>::parse(&masters).unwrap_err();
    assert_eq!((err.kind.as_str(), err.line), ("side", 7));
    // A move on the mover's own entry row cannot capture: the parser
    // refuses the same side again.
    let private = "[rules blitz]\n[first light]\n1. l 2: hand-c1\n2. l 1: c1-b1\n";
    let err = Record::<Ur>::parse(private).unwrap_err();
    assert_eq!((err.kind.as_str(), err.line), ("side", 4));
}

#[test]
fn aseb_records_name_the_aseb_squares() {
    let text = "[rules aseb]
[first dark]
1. d 4: hand-a3
2. d 4: a3-d2
3. d 4: d2-h2
4. d 4: h2-l2
5. d 1: l2-home
6. l 3: hand-b1
";
    let game = Game::replay_text(text, None).unwrap();
    assert_eq!(game.position().to_string(), "4/12/1l2 d 4 0 4 1");
    assert_eq!(game.to_record().to_string(), text);
    // i2..l2 are not squares of the standard board, and e1 is not one of
    // the aseb board.
    let finkel = "[rules finkel]\n[first light]\n1. l 4: hand-a1\n2. l 4: h2-l2\n";
    assert_eq!(
        Record::<Ur>::parse(finkel).unwrap_err().kind.as_str(),
        "move"
    );
    let e1 = text.replace("6. l 3: hand-b1", "6. l 3: hand-e1");
    assert_eq!(Record::<Ur>::parse(&e1).unwrap_err().kind.as_str(), "move");
    assert!(Move::parse_on("h2-l2", Variant::ASEB.board()).is_ok());
}

/// Replays `text`, which must be refused with the parse error `side` at
/// `line`, and gives the sentence.
fn side_refusal(text: &str, line: usize) -> String {
    let err = Game::replay_text(text, None).unwrap_err();
    assert_eq!(
        (err.code(), err.why(), err.line(), err.ply()),
        ("bad_record", Some("side"), Some(line), None),
        "{err}"
    );
    err.message()
}

#[test]
fn an_illegal_move_onto_a_rosette_is_refused_as_the_reference_does_and_said_for_what_it_is() {
    // Light's b1-a3 on line 5: a3 is not on light's route, but it is named
    // as a rosette, so the record's grammar has light throw again, and the
    // reference refuses line 6 as `side`. The sentence says why.
    let head = "[rules finkel]\n[first light]\n1. l 3: hand-b1\n2. d 2: hand-c3\n";
    let text = format!("{head}3. l 1: b1-a3\n4. d 2: c3-a3\n");
    let said = side_refusal(&text, 6);
    assert!(
        said.starts_with(
            "line 6 names dark to throw, but light throws here: line 5, \"3. l 1: b1-a3\", lands \
             on a rosette, so the same side throws again; "
        ),
        "{said}"
    );
    assert!(
        said.contains(
            "but light cannot make that move (b1-a3 on a roll of 1 is refused: that is not the \
             roll away along the route), so line 5 is what is wrong, and line 6's side only \
             looks wrong because of it"
        ),
        "{said}"
    );
    // On the route but the wrong distance: hand-a1 on a 3 (a1 is 4 away).
    let text = "[rules finkel]\n[first light]\n1. l 3: hand-a1\n2. d 2: hand-c3\n";
    let said = side_refusal(text, 4);
    assert!(
        said.contains("but light cannot make that move (hand-a1 on a roll of 3 is refused"),
        "{said}"
    );
    // Where the record goes wrong before the line the side is judged from,
    // that is said too.
    let text = format!(
        "{head}3. l 2: hand-b1\n4. d 1: c3-b3\n5. l 4: b1-a2\n6. d 1: b3-a3\n7. d 2: a3-a2\n8. d 1: a2-b2\n"
    );
    let said = side_refusal(&text, 10);
    assert!(
        said.contains(
            "; but the record goes wrong earlier: line 5, ply 2: hand-b1 on a roll of 2 is refused"
        ),
        "{said}"
    );
    // A side that is wrong by itself is told as before.
    let text = format!("{head}3. l 2: b1-a2\n4. l 2: hand-c1\n");
    let said = side_refusal(&text, 6);
    assert!(
        !said.contains("cannot make") && !said.contains("goes wrong"),
        "{said}"
    );
}
