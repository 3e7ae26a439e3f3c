//! Move details and traces: hand-worked positions, and every legal move of
//! many random positions against an account worked out from the public
//! route functions.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Xorshift, random_position, variants};
use dice_core::Side;
use royal_ur::{Move, MoveInfo, Place, Position, Variant};

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

fn sq(name: &str) -> royal_ur::Square {
    name.parse().unwrap()
}

fn info(variant: &Variant, position: &str, roll: u8, text: &str) -> MoveInfo {
    pos(position)
        .move_info(variant, roll, mv(text))
        .unwrap_or_else(|| panic!("{text} for {roll} in {position} should be legal"))
}

fn short_unsafe() -> Variant {
    Variant::custom([("safe_rosettes", "0")]).unwrap()
}

fn long_safe() -> Variant {
    Variant::custom([("route", "long")]).unwrap()
}

#[test]
fn hand_worked_traces() {
    // (rule set, position, roll, move, trace, display form)
    #[rustfmt::skip]
    let cases: &[(Variant, &str, u8, &str, &str, &str)] = &[
        // Entry from the hand, plain and onto the a1 rosette.
        (Variant::FINKEL, "4xx2/8/4xx2 l 7 0 7 0", 1, "hand-d1", "0>1", "1: hand-d1"),
        (Variant::FINKEL, "4xx2/8/4xx2 l 7 0 7 0", 4, "hand-a1", "0>4*", "4: hand-a1*"),
        (Variant::FINKEL, "4xx2/8/4xx2 d 7 0 7 0", 2, "hand-c3", "0>2", "2: hand-c3"),
        // Light: c1 (2), a1 (4), b2 (6); dark: c2 (light's 7), d2 (8).
        // A capture, and a plain move past both dark pieces.
        (Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 3, "a1-c2", "4>7x", "3: a1-c2x"),
        (Variant::FINKEL, "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 3, "b2-e2", "6>9", "3: b2-e2"),
        // Onto the empty d2 rosette.
        (Variant::FINKEL, "4xx2/l7/4xx2 l 6 0 7 0", 3, "a2-d2", "5>8*", "3: a2-d2*"),
        // The capture on d2 when rosettes are not safe.
        (short_unsafe(), "4xx2/l2d4/4xx2 l 6 0 6 0", 3, "a2-d2", "5>8x*", "3: a2-d2x*"),
        (short_unsafe(), "4xx2/1ldd4/l1l1xx2 l 4 0 5 0", 2, "b2-d2", "6>8x*", "2: b2-d2x*"),
        // Bearing off: exact rolls from h2 (12), h1 (13), g1 (14) to home (15),
        // never a rosette though g1 is one.
        (Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 3, "h2-home", "12>15", "3: h2-home"),
        (Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 2, "h1-home", "13>15", "2: h1-home"),
        (Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 1, "g1-home", "14>15", "1: g1-home"),
        // Dark's short route ends h3 (13), g3 (14).
        (Variant::FINKEL, "4xx1d/8/4xx2 d 7 0 6 0", 1, "h3-g3", "13>14*", "1: h3-g3*"),
        // Long route: light g2 (11) to the g3 rosette (12), and on.
        (Variant::MASTERS, "4xx2/6l1/4xx2 l 6 0 7 0", 1, "g2-g3", "11>12*", "1: g2-g3*"),
        (Variant::MASTERS, "4xxl1/8/4xx2 l 6 0 7 0", 4, "g3-g1", "12>16*", "4: g3-g1*"),
        (Variant::MASTERS, "4xxl1/8/4xx2 l 6 0 7 0", 2, "g3-h2", "12>14", "2: g3-h2"),
        (Variant::MASTERS, "4xx2/8/4xxl1 l 6 0 7 0", 1, "g1-home", "16>17", "1: g1-home"),
        // Dark on the long route: g2 (11) to g1 (its 12), g1 on to h3 (15).
        (Variant::MASTERS, "4xx2/6d1/4xx2 d 7 0 6 0", 1, "g2-g1", "11>12*", "1: g2-g1*"),
        (Variant::MASTERS, "4xx2/8/4xxd1 d 7 0 6 0", 3, "g1-h3", "12>15", "3: g1-h3"),
        // Masters captures on the shared end of the long route, rosette or not.
        (Variant::MASTERS, "4xxd1/6l1/4xx2 l 6 0 6 0", 1, "g2-g3", "11>12x*", "1: g2-g3x*"),
        (Variant::MASTERS, "4xx1d/6l1/4xx2 l 6 0 6 0", 2, "g2-h3", "11>13x", "2: g2-h3x"),
        // Long route from the hand (a1 is step 4 there too).
        (Variant::MASTERS, "4xx2/8/4xx2 l 7 0 7 0", 4, "hand-a1", "0>4*", "4: hand-a1*"),
    ];
    for &(variant, position, roll, text, trace, display) in cases {
        let i = info(&variant, position, roll, text);
        let what = format!("{text} for {roll} in {position} under {variant}");
        assert_eq!(i.trace(), trace, "{what}");
        assert_eq!(i.to_string(), display, "{what}");
        assert_eq!(i.mv(), mv(text), "{what}");
        assert_eq!(i.roll(), roll, "{what}");
        assert_eq!(i.side(), pos(position).side(), "{what}");
        assert_eq!(i.to_step(), i.from_step() + roll, "{what}");
        // The flags are the ones applying the move reports.
        let (_, flags) = pos(position)
            .apply_unchecked(&variant, roll, mv(text))
            .unwrap();
        assert_eq!(i.flags(), flags, "{what}");
    }
}

#[test]
fn every_field_of_an_entry_a_capture_and_a_move_home() {
    let i = info(&Variant::FINKEL, "4xx2/8/4xx2 l 7 0 7 0", 1, "hand-d1");
    assert_eq!(i.side(), Side::Light);
    assert_eq!((i.from(), i.to()), (Place::Hand, Place::Square(sq("d1"))));
    assert_eq!((i.from_step(), i.to_step()), (0, 1));
    assert_eq!((i.from_cell(), i.to_cell()), (None, Some(sq("d1"))));
    assert!(!i.captures() && !i.rosette() && !i.home());

    let i = info(&short_unsafe(), "4xx2/l2d4/4xx2 l 6 0 6 0", 3, "a2-d2");
    assert_eq!(
        (i.from_cell(), i.to_cell()),
        (Some(sq("a2")), Some(sq("d2")))
    );
    assert!(i.captures() && i.rosette() && !i.home());

    let i = info(&Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 1, "g1-home");
    assert_eq!((i.from(), i.to()), (Place::Square(sq("g1")), Place::Home));
    assert_eq!((i.from_cell(), i.to_cell()), (Some(sq("g1")), None));
    assert_eq!((i.from_step(), i.to_step()), (14, 15));
    assert!(!i.captures() && !i.rosette() && i.home());

    let i = info(&Variant::MASTERS, "4xx2/6d1/4xx2 d 7 0 6 0", 1, "g2-g1");
    assert_eq!(i.side(), Side::Dark);
    assert_eq!(
        (i.from_cell(), i.to_cell()),
        (Some(sq("g2")), Some(sq("g1")))
    );
}

#[test]
fn moves_the_position_would_not_list_have_no_details() {
    let mixed = "4xx2/1ldd4/l1l1xx2 l 4 0 5 0";
    let none = |variant: &Variant, position: &str, roll: u8, text: &str| {
        assert_eq!(
            pos(position).move_info(variant, roll, mv(text)),
            None,
            "{text} for {roll} in {position}"
        );
    };
    none(&Variant::FINKEL, mixed, 3, "a1-b2"); // wrong distance
    none(&Variant::FINKEL, mixed, 2, "c1-a1"); // own piece
    none(&Variant::FINKEL, mixed, 2, "b2-d2"); // safe rosette
    none(&Variant::FINKEL, mixed, 3, "c2-f2"); // not the mover's piece
    none(&Variant::FINKEL, mixed, 3, "d1-a1"); // no piece
    none(&Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 3, "g1-home"); // overshoot
    // The dark piece on g3 is safe on the long route with safe rosettes.
    none(&long_safe(), "4xxd1/6l1/4xx2 l 6 0 6 0", 1, "g2-g3");
    none(&Variant::FINKEL, "4xx2/8/4xx2 l 7 0 7 0", 0, "hand-d1"); // roll 0
    none(&Variant::FINKEL, "4xx2/8/4xx2 l 7 0 7 0", 5, "hand-a2"); // roll 5
    // Light has won: nothing is legal any more.
    none(&Variant::FINKEL, "4xx2/7d/4xx2 d 0 7 6 0", 1, "h2-h3");
    assert_eq!(
        pos("4xx2/7d/4xx2 d 0 7 6 0")
            .move_infos(&Variant::FINKEL, 1)
            .count(),
        0
    );
}

#[test]
fn move_infos_follow_the_legal_order() {
    let p = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    let traces: Vec<String> = p
        .move_infos(&Variant::FINKEL, 1)
        .map(|i| i.trace())
        .collect();
    assert_eq!(traces, ["0>1", "2>3", "4>5", "6>7x"]);
    let texts: Vec<String> = p
        .move_infos(&Variant::FINKEL, 1)
        .map(|i| i.mv().to_string())
        .collect();
    assert_eq!(texts, ["hand-d1", "c1-b1", "a1-a2", "b2-c2"]);
}

#[test]
fn serialized_with_the_reference_field_names() {
    let i = info(&short_unsafe(), "4xx2/l2d4/4xx2 l 6 0 6 0", 3, "a2-d2");
    assert_eq!(
        serde_json::to_string(&i).unwrap(),
        r#"{"side":"light","roll":3,"from":"a2","to":"d2","from_step":5,"to_step":8,"from_cell":6,"to_cell":9,"captures":true,"rosette":true,"home":false,"trace":"5>8x*"}"#
    );
    let i = info(&Variant::FINKEL, "4xx2/7l/4xxll l 0 4 7 0", 1, "g1-home");
    let json = serde_json::to_value(i).unwrap();
    assert_eq!(json["from_cell"], 4);
    assert!(json["to_cell"].is_null());
    assert_eq!(json["to"], "home");
    assert_eq!(json["home"], true);
}

/// The details of a legal move, worked out from the public path functions
/// and the position alone.
fn account(variant: &Variant, p: &Position, roll: u8, mv: Move) -> String {
    let side = p.side();
    let path = variant.path();
    let from_step = match mv.from() {
        Place::Hand => 0,
        Place::Square(s) if p.is_second_visit(s) => path.second_step_of(side, s).unwrap(),
        Place::Square(s) => path.step_of(side, s).unwrap(),
        Place::Home => unreachable!("no move starts at home"),
    };
    let to_step = from_step + roll;
    let (captures, rosette) = match mv.to() {
        Place::Square(s) => {
            assert_eq!(path.square(side, to_step), Some(s), "{mv}");
            (p.at(s) == Some(side.other()), variant.board().is_rosette(s))
        }
        _ => {
            assert_eq!(to_step, path.len() + 1, "{mv}");
            (false, false)
        }
    };
    let x = if captures { "x" } else { "" };
    let star = if rosette { "*" } else { "" };
    format!(
        "{side} {roll} {from_step}>{to_step}{x}{star} home={}",
        mv.is_home()
    )
}

#[test]
fn every_legal_move_of_random_positions_has_the_worked_out_details() {
    let mut rng = Xorshift::new(0x0bad_cafe);
    let mut seen = 0;
    for variant in variants() {
        for _ in 0..400 {
            let anywhere = rng.next_u64() & 3 == 0;
            let p = random_position(&mut rng, &variant, anywhere);
            for roll in 0..=variant.roll_limit() + 1 {
                let legal = p.legal(&variant, roll);
                let infos: Vec<MoveInfo> = p.move_infos(&variant, roll).collect();
                assert_eq!(infos.len(), legal.len(), "{p} {roll}");
                for (i, &m) in infos.iter().zip(legal.iter()) {
                    assert_eq!(i.mv(), m);
                    assert_eq!(p.move_info(&variant, roll, m), Some(*i));
                    let got = format!("{} {} {} home={}", i.side(), i.roll(), i.trace(), i.home());
                    assert_eq!(got, account(&variant, &p, roll, m), "{p} under {variant}");
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 1000, "only {seen} moves were checked");
}
