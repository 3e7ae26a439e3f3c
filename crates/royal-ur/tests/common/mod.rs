//! Helpers shared by the integration tests (included with `mod common`).
#![allow(dead_code)]

use dice_core::Side;
use royal_ur::{Move, Place, Position, Route, Square, Variant};

pub use dice_core::Xorshift;

/// Every place a move can name.
pub fn places() -> Vec<Place> {
    let mut all = vec![Place::Hand, Place::Home];
    all.extend(Square::ALL.map(Place::Square));
    all
}

/// The legal moves worked out from the rules text alone, with the public
/// route functions and no bit masks: the hand first if it holds a piece,
/// then the side's pieces by ascending step of its own route.
pub fn oracle(variant: &Variant, pos: &Position, roll: u8) -> Vec<String> {
    let side = pos.side();
    let route: Route = variant.route();
    let len = route.len();
    let mut out = Vec::new();
    let over =
        pos.home(Side::Light) >= variant.pieces() || pos.home(Side::Dark) >= variant.pieces();
    if roll == 0 || over {
        return out;
    }
    let mut from_steps: Vec<(u8, Place)> = Vec::new();
    if pos.hand(side) > 0 {
        from_steps.push((0, Place::Hand));
    }
    for step in 1..=len {
        let sq = route.square(side, step).unwrap();
        if pos.at(sq) == Some(side) {
            from_steps.push((step, Place::Square(sq)));
        }
    }
    for (step, from) in from_steps {
        let t = step + roll;
        if t == len + 1 {
            out.push(format!("{from}-home"));
        } else if t <= len {
            let sq = route.square(side, t).unwrap();
            match pos.at(sq) {
                Some(s) if s == side => {}
                Some(_) if sq.is_rosette() && variant.safe_rosettes() => {}
                _ => out.push(format!("{from}-{sq}")),
            }
        }
    }
    out
}

/// The moves `legal_into` lists, as text.
pub fn listed(variant: &Variant, pos: &Position, roll: u8) -> Vec<String> {
    pos.legal(variant, roll)
        .iter()
        .map(Move::to_string)
        .collect()
}

/// A random position consistent with `variant`: pieces on squares of their
/// own route (or anywhere, when `anywhere`), the rest split between hand and
/// home.
pub fn random_position(rng: &mut Xorshift, variant: &Variant, anywhere: bool) -> Position {
    let mut pos = Position::EMPTY;
    for side in Side::ALL {
        let on_board = rng.below(usize::from(variant.pieces()) + 1) as u8;
        let mut placed = 0;
        let mut tries = 0;
        while placed < on_board && tries < 200 {
            tries += 1;
            let sq = if anywhere {
                Square::ALL[rng.below(20)]
            } else {
                let len = variant.route().len();
                variant
                    .route()
                    .square(side, 1 + rng.below(usize::from(len)) as u8)
                    .unwrap()
            };
            if pos.at(sq).is_none() {
                pos = pos.with_piece(sq, Some(side));
                placed += 1;
            }
        }
        let rest = variant.pieces() - placed;
        let home = rng.below(usize::from(rest) + 1) as u8;
        pos = pos
            .with_home(side, home)
            .unwrap()
            .with_hand(side, rest - home)
            .unwrap();
    }
    pos.with_side(if rng.next_u64() & 1 == 0 {
        Side::Light
    } else {
        Side::Dark
    })
}

/// The rule sets the tests sweep: both named sets and custom ones.
pub fn variants() -> Vec<Variant> {
    vec![
        Variant::FINKEL,
        Variant::MASTERS,
        Variant::custom([("route", "long")]).unwrap(),
        Variant::custom([("safe_rosettes", "0"), ("pieces", "3")]).unwrap(),
        Variant::custom([("dice", "3"), ("zero_rolls", "4"), ("pieces", "5")]).unwrap(),
    ]
}
