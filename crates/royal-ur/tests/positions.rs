//! Positions on the aseb board and with second visits: their text, keys and
//! the whole-position check, against hand-worked answers.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::Side;
use royal_ur::{Inconsistency, Position, Square, Variant};

fn code(text: &str, variant: &Variant) -> &'static str {
    match Position::parse_for(text, variant) {
        Ok(_) => "POS_OK",
        Err(e) => e.code(),
    }
}

fn check(text: &str, variant: &Variant) -> Result<(), &'static str> {
    Position::parse_for(text, variant)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .check(variant)
        .map_err(|e| e.code())
}

#[test]
fn aseb_texts_and_keys() {
    let v = Variant::ASEB;
    let start = Position::start(&v, Side::Light);
    assert_eq!(start.to_string(), "4/12/4 l 5 0 5 0");
    assert_eq!(start.key_text(&v), "000000000000");
    for (text, key) in [
        // Light a1 (cell 0), dark d3 (cell 19).
        ("3d/12/l3 l 4 0 4 0", "008000000001"),
        // Light l2 (cell 15), dark to move, one home each.
        ("4/11l/4 d 3 1 4 1", "490040000000"),
        ("dddd/dddddddddddd/dddd d 0 0 0 0", "40aaaaaaaaaa"),
    ] {
        let p = Position::parse_for(text, &v).unwrap();
        assert_eq!(p.to_string(), text);
        assert_eq!(p.key_text(&v), key, "{text}");
    }
    // Malformed aseb texts are refused with the reference's codes.
    for (text, want) in [
        ("4/12/4 l 5 0 5 0", "POS_OK"),
        ("", "POS_NULL"),
        ("4/11/4 l 5 0 5 0", "POS_WIDTH"),
        ("4/13/4 l 5 0 5 0", "POS_WIDTH"),
        ("5/12/4 l 5 0 5 0", "POS_WIDTH"),
        ("4/12/4/4 l 5 0 5 0", "POS_ROWS"),
        ("4/12 l 5 0 5 0", "POS_ROWS"),
        ("x3/12/4 l 5 0 5 0", "POS_X"),
        ("4/012/4 l 5 0 5 0", "POS_LETTER"),
        ("4/6L5/4 l 5 0 5 0", "POS_LETTER"),
        ("4xx2/8/4xx2 l 5 0 5 0", "POS_WIDTH"),
        ("4/12/4 x 5 0 5 0", "POS_SIDE"),
        ("4/12/4 l 8 0 5 0", "POS_COUNT"),
        ("4/12/4 l 5 0 5", "POS_FIELD"),
    ] {
        assert_eq!(code(text, &v), want, "{text:?}");
    }
    // The standard board's text is not the aseb board's, nor the reverse.
    assert_eq!(code("4/12/4 l 5 0 5 0", &Variant::FINKEL), "POS_WIDTH");
    assert_eq!(
        Position::parse("4/12/4 l 5 0 5 0").unwrap_err().code(),
        "POS_WIDTH"
    );
}

#[test]
fn second_visits_are_written_and_keyed() {
    let murray = Variant::parse_lenient("path=murray").unwrap();
    let skiriuk = Variant::parse_lenient("path=skiriuk").unwrap();
    // Light b3, e2 (second visit), g1; dark f2, c2 (second visit).
    let text = "1l2xx2/2D1Ld2/4xxl1 l 4 0 5 0";
    let p = Position::parse_for(text, &murray).unwrap();
    assert_eq!(p.to_string(), text);
    let sq = |n: &str| n.parse::<Square>().unwrap();
    assert!(p.is_second_visit(sq("e2")) && p.is_second_visit(sq("c2")));
    assert!(!p.is_second_visit(sq("f2")));
    assert_eq!(p.step_at(Side::Light, sq("e2"), murray.path()), Some(19));
    assert_eq!(p.step_at(Side::Dark, sq("c2"), murray.path()), Some(21));
    // Cells: b3 15, e2 10, g1 4 light; f2 11, c2 8 dark; second visits on
    // c2 (file 2, bit 49) and e2 (file 4, bit 51).
    assert_eq!(p.key_text(&murray), "0a000040920100");
    assert_eq!(p.key_text(&skiriuk), "0a000040920100");
    // The same pieces without second visits: the reference's 12 digits
    // under its paths, and no lap bits.
    let plain = Position::parse("1l2xx2/2d1ld2/4xxl1 l 4 0 5 0").unwrap();
    assert_eq!(plain.key_text(&Variant::FINKEL), "000040920100");
    // L and D exist only on a2..g2 and only on the paths that come back.
    assert_eq!(code("4xx2/7L/4xx2 l 6 0 7 0", &murray), "POS_LETTER");
    assert_eq!(code("4xx2/L7/4xx2 l 6 0 7 0", &murray), "POS_OK");
    assert_eq!(
        code("4xx2/L7/4xx2 l 6 0 7 0", &Variant::FINKEL),
        "POS_LETTER"
    );
    assert_eq!(
        code("4xx2/L7/4xx2 l 6 0 7 0", &Variant::MASTERS),
        "POS_LETTER"
    );
    assert_eq!(code("Lxx2/8/4xx2 l 6 0 7 0", &murray), "POS_LETTER");
}

#[test]
fn the_check_knows_the_boards_and_the_laps() {
    let murray = Variant::parse_lenient("path=murray").unwrap();
    let skiriuk = Variant::parse_lenient("path=skiriuk").unwrap();
    let v = Variant::ASEB;
    assert_eq!(check("4/12/4 l 5 0 5 0", &v), Ok(()));
    assert_eq!(check("3d/12/l3 l 4 0 4 0", &v), Ok(()));
    // A light piece on a3: only dark's path goes there.
    assert_eq!(check("l3/12/4 l 4 0 5 0", &v), Err("route"));
    assert_eq!(check("4/12/4 l 5 0 4 0", &v), Err("pieces"));
    assert_eq!(check("4/12/4 l 0 5 0 5", &v), Err("both_home"));
    // A position of the other board.
    let standard = Position::start(&Variant::FINKEL, Side::Light);
    assert_eq!(
        standard.check(&v),
        Err(Inconsistency::Board {
            position: royal_ur::BoardShape::Standard,
            rules: royal_ur::BoardShape::Aseb,
        })
    );
    let aseb_start = Position::start(&v, Side::Light);
    assert_eq!(
        aseb_start.check(&Variant::BLITZ).unwrap_err().code(),
        "board"
    );
    // murray: every square is on both paths, so a light piece on a3 is
    // fine (its step 24); skiriuk's a3 is dark's alone.
    assert_eq!(check("l3xx2/8/4xx2 l 6 0 7 0", &murray), Ok(()));
    assert_eq!(check("l3xx2/8/4xx2 l 6 0 7 0", &skiriuk), Err("route"));
    assert_eq!(check("4xx2/L7/4xx2 l 6 0 7 0", &murray), Ok(()));
    // A second-visit mark under a path without second visits is refused
    // as `lap`; the mark leaves with its piece.
    let p = Position::parse_for("4xx2/L7/4xx2 l 6 0 7 0", &murray).unwrap();
    assert_eq!(p.check(&Variant::FINKEL).unwrap_err().code(), "lap");
    assert_eq!(p.check(&Variant::MASTERS).unwrap_err().code(), "lap");
    let emptied = p
        .with_piece("a2".parse().unwrap(), None)
        .with_hand(Side::Light, 7)
        .unwrap();
    assert!(!emptied.is_second_visit("a2".parse().unwrap()));
    assert_eq!(emptied.check(&murray), Ok(()));
    // Marks only where the path makes a second visit.
    assert!(p.with_second_visit("h2".parse().unwrap(), true).is_none());
}
