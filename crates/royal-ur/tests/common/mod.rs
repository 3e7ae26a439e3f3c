//! Helpers shared by the integration tests (included with `mod common`).
#![allow(dead_code)]

use dice_core::Side;
use royal_ur::{BoardShape, Move, Place, Position, Square, Variant};

pub use dice_core::Xorshift;

/// Every place a move can name on the standard board.
pub fn places() -> Vec<Place> {
    places_on(BoardShape::Standard)
}

/// Every place a move can name on a board.
pub fn places_on(shape: BoardShape) -> Vec<Place> {
    let mut all = vec![Place::Hand, Place::Home];
    all.extend(shape.squares().map(Place::Square));
    all
}

/// The legal moves worked out from the rules text alone, with the public
/// path functions and no bit masks: the hand first if it holds a piece,
/// then the side's pieces by ascending step of their own path (a piece on
/// its second visit at its later step); a piece moves the roll along its
/// path, home on the exact roll, never onto its own side nor onto an enemy
/// on a rosette of the board when rosettes are safe.
pub fn oracle(variant: &Variant, pos: &Position, roll: u8) -> Vec<String> {
    let side = pos.side();
    let path = variant.path();
    let board = variant.board();
    let len = path.len();
    let mut out = Vec::new();
    let over = pos.home(Side::Light, variant) >= variant.pieces()
        || pos.home(Side::Dark, variant) >= variant.pieces();
    if roll == 0 || roll > variant.max_roll().max(4) || over {
        return out;
    }
    let mut from_steps: Vec<(u8, Place)> = Vec::new();
    if pos.hand(side) > 0 {
        from_steps.push((0, Place::Hand));
    }
    for step in 1..=len {
        let sq = path.square(side, step).unwrap();
        let second = path.second_step_of(side, sq) == Some(step);
        if pos.at(sq) == Some(side) && pos.is_second_visit(sq) == second {
            from_steps.push((step, Place::Square(sq)));
        }
    }
    for (step, from) in from_steps {
        let t = step + roll;
        if t == len + 1 {
            out.push(format!("{from}-home"));
        } else if t <= len {
            let sq = path.square(side, t).unwrap();
            match pos.at(sq) {
                Some(s) if s == side => {}
                Some(_) if board.is_rosette(sq) && variant.safe_rosettes() => {}
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
/// own path at one of its visits there (or anywhere on the board, when
/// `anywhere`), the rest split between hand and home.
pub fn random_position(rng: &mut Xorshift, variant: &Variant, anywhere: bool) -> Position {
    let path = variant.path();
    let squares = variant.board().squares();
    let mut pos = Position::start(variant, Side::Light);
    for side in Side::ALL {
        let on_board = rng.below(usize::from(variant.pieces()) + 1) as u8;
        let mut placed = 0;
        let mut tries = 0;
        while placed < on_board && tries < 200 {
            tries += 1;
            let (sq, second) = if anywhere {
                (squares[rng.below(squares.len())], false)
            } else {
                let step = 1 + rng.below(usize::from(path.len())) as u8;
                let sq = path.square(side, step).unwrap();
                (sq, path.second_step_of(side, sq) == Some(step))
            };
            if pos.at(sq).is_none() {
                pos = pos.with_piece(sq, Some(side));
                if second {
                    pos = pos.with_second_visit(sq, true).unwrap();
                }
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

/// The reference's rule sets the tests sweep: both named sets and custom
/// ones.
pub fn reference_variants() -> Vec<Variant> {
    vec![
        Variant::FINKEL,
        Variant::MASTERS,
        Variant::custom([("route", "long")]).unwrap(),
        Variant::custom([("safe_rosettes", "0"), ("pieces", "3")]).unwrap(),
        Variant::custom([("dice", "3"), ("zero_rolls", "4"), ("pieces", "5")]).unwrap(),
    ]
}

/// Every rule set the tests sweep: the reference's, every preset, and
/// custom ones on every path with each switch and the widest dice.
pub fn variants() -> Vec<Variant> {
    let mut all = reference_variants();
    all.extend([
        Variant::BLITZ,
        Variant::ASEB,
        Variant::FINKEL2P,
        Variant::MASTERS4D,
    ]);
    for text in [
        "path=murray dice=3",
        "path=skiriuk capture_again=1 safe_rosettes=0",
        "path=murray rosette_again=0 capture_again=1 pieces=5",
        "path=skiriuk dice=8 zero_rolls=9",
        "board=aseb capture_again=1 safe_rosettes=0 dice=2 zero_rolls=3",
        "path=bell dice=1",
        "path=masters dice=6 rosette_again=0 capture_again=1",
    ] {
        all.push(Variant::parse_lenient(text).unwrap());
    }
    all
}

/// A square by name on the standard board.
pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Why `mv` is not legal for `roll`, worked out from the rules text with the
/// public path functions: the refusal's code, checked in the reference's
/// order (the piece to move, then the distance, then the square it lands
/// on), or `bad_move` for a move that breaks none of them.
pub fn oracle_refusal(variant: &Variant, pos: &Position, roll: u8, mv: Move) -> &'static str {
    let side = pos.side();
    let path = variant.path();
    let from = match mv.from() {
        Place::Hand if pos.hand(side) == 0 => return "no_piece",
        Place::Hand => 0,
        Place::Home => return "no_piece",
        Place::Square(sq) => match pos.at(sq) {
            None => return "no_piece",
            Some(s) if s != side => return "not_your_piece",
            Some(_) => {
                let step = if pos.is_second_visit(sq) {
                    path.second_step_of(side, sq)
                } else {
                    path.step_of(side, sq)
                };
                match step {
                    Some(step) => step,
                    None => return "no_piece",
                }
            }
        },
    };
    let lands = from + roll;
    let home = path.len() + 1;
    match mv.to() {
        Place::Home if lands > home => "overshoot",
        Place::Home if lands < home => "wrong_distance",
        Place::Home | Place::Hand => "bad_move",
        Place::Square(sq) => {
            if lands == 0 || lands > path.len() || path.square(side, lands) != Some(sq) {
                "wrong_distance"
            } else {
                match pos.at(sq) {
                    Some(s) if s == side => "own_piece",
                    Some(_) if variant.board().is_rosette(sq) && variant.safe_rosettes() => {
                        "safe_rosette"
                    }
                    _ => "bad_move",
                }
            }
        }
    }
}
