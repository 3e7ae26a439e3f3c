//! Hand-worked positions for every rule of spec §3, under both rule sets.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{MoveList, Notation, Rules, Side, Status};
use senet::{Flags, House, Move, Place, Position, Senet, Variant};

const K: Variant = Variant::KENDALL;
const S: Variant = Variant::SKYRUK;
const L: Side = Side::Light;
const D: Side = Side::Dark;

/// House `n`, which the test knows is one.
fn h(n: u8) -> House {
    House::new(n).unwrap()
}

fn pos(light: &[u8], dark: &[u8], side: Side) -> Position {
    let mut p = Position::empty(side);
    for &n in light {
        p = p.with_piece(h(n), Some(L));
    }
    for &n in dark {
        p = p.with_piece(h(n), Some(D));
    }
    p
}

fn legal(v: &Variant, p: &Position, roll: u8) -> Vec<String> {
    let mut out = MoveList::new();
    Senet::legal(v, p, roll, &mut out);
    out.iter().map(ToString::to_string).collect()
}

/// The refusal code of a move that must not be legal.
fn refused(v: &Variant, p: &Position, roll: u8, text: &str) -> &'static str {
    let mv: Move = text.parse().unwrap();
    let mut out = MoveList::new();
    Senet::legal(v, p, roll, &mut out);
    assert!(
        !out.contains(&mv),
        "{text} on {roll} should not be legal in {p}"
    );
    Senet::refusal(v, p, roll, mv).code()
}

/// The position after a legal move, and its flags.
fn after(v: &Variant, p: &Position, roll: u8, text: &str) -> (String, Flags) {
    let mv: Move = text.parse().unwrap();
    let mut out = MoveList::new();
    Senet::legal(v, p, roll, &mut out);
    assert!(
        out.contains(&mv),
        "{text} on {roll} should be legal in {p}: {:?}",
        legal(v, p, roll)
    );
    let (q, flags) = Senet::apply(v, p, roll, mv);
    (q.to_string(), flags)
}

#[test]
fn the_start_and_every_swap_open() {
    let p = Position::start(&K, L);
    assert_eq!(legal(&K, &p, 1), ["2-3", "4-5", "6-7", "8-9", "10-11"]);
    assert_eq!(legal(&K, &p, 5), ["2-7", "4-9", "6-11", "8-13", "10-15"]);
    // a swap at the start: light 2 takes dark's 3, dark goes to 2
    let (q, f) = after(&K, &p, 1, "2-3");
    assert_eq!(q, "ddlldldldl/........../.......... l");
    assert!(f.swap && f.again);
    // after 2-3 light has a run 3-4: both protected under kendall
    let q = Position::parse(&q).unwrap();
    assert!(q.protected(h(3), &K) && q.protected(h(4), &K));
    assert!(!q.protected(h(5), &K));
}

#[test]
fn swap_forward_and_backward() {
    for v in [K, S] {
        let p = pos(&[5], &[8, 1], L);
        let (q, f) = after(&v, &p, 3, "5-8");
        assert_eq!(q, "d...d..l../........../.......... d");
        assert!(f.swap && !f.again);
        assert_eq!(f.ends, Some(Place::House(h(8))));
        // backward: 24 has no forward move on a 3 (27 is past 26), so it swaps back onto 21
        let p = pos(&[24], &[21, 2], L);
        assert_eq!(legal(&v, &p, 3), ["24-21"]);
        let (q, f) = after(&v, &p, 3, "24-21");
        assert_eq!(q, ".d......../........../l..d...... d");
        assert!(f.swap);
    }
}

#[test]
fn forward_first() {
    for v in [K, S] {
        // light 24 has no forward 3, light 5 has one: only forward moves
        let p = pos(&[5, 24], &[21, 2], L);
        assert_eq!(legal(&v, &p, 3), ["5-8"]);
        assert_eq!(refused(&v, &p, 3, "24-21"), "backward_not_allowed");
    }
}

#[test]
fn protection_by_runs() {
    // a pair: both protected in both rule sets
    for v in [K, S] {
        let p = pos(&[5], &[8, 9], L);
        assert_eq!(refused(&v, &p, 3, "5-8"), "protected");
        assert_eq!(refused(&v, &p, 4, "5-9"), "protected");
        assert!(p.protected(h(8), &v) && p.protected(h(9), &v));
        assert!(!p.protected(h(5), &v));
        assert!(!p.protected(h(7), &v), "an empty house is not protected");
    }
    // a run of three: kendall protects all, skyruk only its ends
    let p = pos(&[6], &[8, 9, 10], L);
    assert_eq!(refused(&K, &p, 3, "6-9"), "protected");
    assert!(!p.protected(h(9), &S));
    assert!(p.protected(h(8), &S) && p.protected(h(10), &S));
    // a lone piece on 15 is not protected, nor does it block
    for v in [K, S] {
        let p = pos(&[12], &[15], L);
        assert_eq!(legal(&v, &p, 3), ["12-15"]);
        let p = pos(&[13], &[15, 1], L);
        assert_eq!(legal(&v, &p, 4), ["13-17"]);
    }
}

#[test]
fn runs_continue_across_the_row_turns() {
    for v in [K, S] {
        // 10|11
        let p = pos(&[7], &[10, 11], L);
        assert_eq!(refused(&v, &p, 3, "7-10"), "protected");
        assert_eq!(refused(&v, &p, 4, "7-11"), "protected");
        // 20|21: three in a row is a blockade in both sets
        let p = pos(&[18], &[20, 21, 22, 1], L);
        assert!(p.in_blockade(h(20), &v) && p.in_blockade(h(22), &v));
        assert_eq!(refused(&v, &p, 5, "18-23"), "blockade");
    }
    // 26|27 under skyruk form a run too, but 27|28 never: 28..30 are in no run
    let p = pos(&[27, 28], &[1], D);
    assert!(!p.protected(h(27), &S) && !p.protected(h(28), &S));
    let p = pos(&[26, 27], &[1], L);
    assert!(p.protected(h(26), &S) && p.in_blockade(h(27), &S));
}

#[test]
fn blockades_forward() {
    // three in a row block both sets
    for v in [K, S] {
        let p = pos(&[10], &[12, 13, 14], L);
        assert_eq!(refused(&v, &p, 5, "10-15"), "blockade");
        assert_eq!(
            refused(&v, &p, 2, "10-12"),
            "protected",
            "landing tests come before path tests"
        );
    }
    // a pair blocks skyruk only
    let p = pos(&[10], &[12, 13], L);
    assert_eq!(legal(&K, &p, 5), ["10-15"]);
    assert!(!p.in_blockade(h(12), &K) && p.in_blockade(h(12), &S));
    assert_eq!(refused(&S, &p, 5, "10-15"), "blockade");
    // landing just before the blockade is fine
    assert_eq!(legal(&S, &p, 1), ["10-11"]);
}

#[test]
fn blockades_backward() {
    // kendall: 24 cannot go forward on a 5 (29 is past 26), and backward it would pass 20-22
    let p = pos(&[24], &[20, 21, 22, 2], L);
    assert!(legal(&K, &p, 5).is_empty());
    assert_eq!(refused(&K, &p, 5, "24-19"), "blockade");
    // skyruk: a pair blocks backward too
    let p = pos(&[24], &[22, 23, 2], L);
    assert!(legal(&S, &p, 3).is_empty());
    assert_eq!(refused(&S, &p, 3, "24-21"), "blockade");
    // kendall lets that pair be passed backward
    assert_eq!(legal(&K, &p, 3), ["24-21"]);
}

#[test]
fn skyruk_breaking_a_run() {
    // forward: land on the inner piece of 8-9-10, passing its first piece 8
    let p = pos(&[6], &[8, 9, 10], L);
    let (q, f) = after(&S, &p, 3, "6-9");
    assert_eq!(q, ".....d.dld/........../.......... d");
    assert!(f.swap);
    // but not when another blockade is crossed on the way
    let p = pos(&[2], &[3, 4, 6, 7, 8], L);
    assert_eq!(refused(&S, &p, 5, "2-7"), "blockade");
    let p = pos(&[5], &[3, 4, 6, 7, 8], L);
    assert_eq!(legal(&S, &p, 2), ["5-7"]);
    // backward: 23 is stuck forward (25 is a protected end of 24-25), so it
    // goes back 2 onto the inner piece 21 of 20-21-22, passing its last piece 22
    let p = pos(&[23], &[20, 21, 22, 24, 25], L);
    assert_eq!(legal(&S, &p, 2), ["23-21"]);
    let (q, _) = after(&S, &p, 2, "23-21");
    assert_eq!(q, "........../.........d/ldddd..... d");
}

#[test]
fn reaching_26() {
    // exact under kendall
    let p = pos(&[23], &[1], L);
    assert_eq!(legal(&K, &p, 3), ["23-26"]);
    assert_eq!(refused(&K, &p, 4, "23-27"), "overshoot");
    let p = pos(&[25], &[1], L);
    assert_eq!(refused(&K, &p, 2, "25-27"), "overshoot");
    assert_eq!(refused(&K, &p, 5, "25-30"), "overshoot");
    assert_eq!(refused(&K, &p, 5, "25-off"), "wrong_distance");
    // skyruk: from 25 on any roll, written 25-26; it earns a bound throw even on a 2
    for roll in 1..=5 {
        let p = pos(&[25], &[1], L);
        assert_eq!(legal(&S, &p, roll), ["25-26"]);
        let (q, f) = after(&S, &p, roll, "25-26");
        assert_eq!(q, "d........./........../.....l.... l");
        assert!(f.again);
        let q = Position::parse(&q).unwrap();
        assert_eq!(q.bound(&S), Some(House::HAPPINESS));
        assert_eq!(q.key(&S).bits() >> 61, 1);
    }
    // skyruk from 24 or below: no overshoot to 26
    let p = pos(&[24], &[1], L);
    assert_eq!(refused(&S, &p, 3, "24-27"), "overshoot");
    // kendall on a 2 reaching 26 passes the sticks
    let p = pos(&[24], &[1], L);
    let (q, f) = after(&K, &p, 2, "24-26");
    assert!(!f.again);
    assert!(q.ends_with(" d"));
    // an occupied 26 stops the move (no swap there)
    let p = pos(&[23], &[26, 1], L);
    assert_eq!(refused(&K, &p, 3, "23-26"), "occupied");
    let p = pos(&[23, 26], &[1], L);
    assert_eq!(refused(&K, &p, 3, "23-26"), "own_piece");
    // a blockade on the way to 26 stops it under the rule set's own length
    let p = pos(&[22], &[23, 24, 1], L);
    assert_eq!(legal(&K, &p, 4), ["22-26"]);
    assert_eq!(refused(&S, &p, 4, "22-26"), "blockade");
}

#[test]
fn kendall_water_and_rebirth() {
    // 15 free
    let p = pos(&[26], &[1], L);
    let (q, f) = after(&K, &p, 1, "26-27");
    assert_eq!(q, "d........./....l...../.......... l");
    assert_eq!(f.ends, Some(Place::House(h(15))));
    // 15 taken (either side): the first empty house below it
    let p = pos(&[26], &[15, 1], L);
    let (q, f) = after(&K, &p, 1, "26-27");
    assert_eq!(f.ends, Some(Place::House(h(14))));
    assert_eq!(q, "d........./...ld...../.......... l");
    let p = pos(&[26, 15], &[14, 13, 1], L);
    assert_eq!(after(&K, &p, 1, "26-27").1.ends, Some(Place::House(h(12))));
    // no piece ever stands on 27 under kendall
    assert_eq!(
        Position::parse("........../........../......l... l")
            .unwrap()
            .check(&K)
            .unwrap_err()
            .code(),
        "water"
    );
}

#[test]
fn kendall_leaving_26_and_the_last_houses() {
    let p = pos(&[26], &[1], L);
    assert_eq!(legal(&K, &p, 2), ["26-28"]);
    assert_eq!(legal(&K, &p, 3), ["26-29"]);
    assert_eq!(legal(&K, &p, 4), ["26-30"]);
    assert_eq!(legal(&K, &p, 5), ["26-off"]);
    // an occupied target stops the move
    let p = pos(&[26], &[28, 1], L);
    assert_eq!(refused(&K, &p, 2, "26-28"), "occupied");
    let p = pos(&[26, 29], &[1], L);
    assert_eq!(refused(&K, &p, 3, "26-29"), "own_piece");
    // 28 off on exactly 3, 29 on 2, 30 on 1
    let p = pos(&[28, 29, 30], &[1], L);
    assert_eq!(legal(&K, &p, 3), ["28-off"]);
    assert_eq!(legal(&K, &p, 2), ["29-off"]);
    assert_eq!(legal(&K, &p, 1), ["30-off"]);
    assert!(legal(&K, &p, 4).is_empty());
    assert!(legal(&K, &p, 5).is_empty());
    assert_eq!(refused(&K, &p, 1, "28-29"), "overshoot");
    assert_eq!(refused(&K, &p, 4, "30-off"), "overshoot");
    assert_eq!(refused(&K, &p, 4, "28-off"), "overshoot");
    assert_eq!(refused(&K, &p, 1, "28-off"), "wrong_distance");
    // never backward from 26..30
    assert_eq!(refused(&K, &p, 5, "30-25"), "backward_not_allowed");
}

#[test]
fn skyruk_water() {
    // into the water from 26 on a 1: it stands there
    let p = pos(&[26], &[1], L);
    let (q, f) = after(&S, &p, 1, "26-27");
    assert_eq!(q, "d........./........../......l... l");
    assert_eq!(f.ends, Some(Place::House(h(27))));
    let p = pos(&[27], &[1], L);
    // leave on 1..3 for rebirth, written with the nominal destination
    for (roll, text) in [(1, "27-28"), (2, "27-29"), (3, "27-30")] {
        assert_eq!(legal(&S, &p, roll), [text]);
        let (q, f) = after(&S, &p, roll, text);
        assert_eq!(
            q.split(' ').next().unwrap(),
            "d........./....l...../.........."
        );
        assert_eq!(f.ends, Some(Place::House(h(15))));
    }
    // off on 4
    assert_eq!(legal(&S, &p, 4), ["27-off"]);
    // stay on 5: no move; another piece may move, and leaving is not compulsory
    assert!(legal(&S, &p, 5).is_empty());
    assert_eq!(refused(&S, &p, 5, "27-off"), "overshoot");
    let p = pos(&[27, 10], &[1], L);
    assert_eq!(legal(&S, &p, 5), ["10-15"]);
    assert_eq!(legal(&S, &p, 1), ["10-11", "27-28"]);
    // rebirth below an occupied 15
    let p = pos(&[27], &[15, 1], L);
    assert_eq!(after(&S, &p, 2, "27-29").1.ends, Some(Place::House(h(14))));
    // a lost turn on 5 keeps the throw for the same side
    let (q, f) = Senet::forfeit(&S, &pos(&[27], &[1], L), 5);
    assert!(f.again && f.ends.is_none());
    assert_eq!(q.side(), L);
    let (q, f) = Senet::forfeit(&S, &pos(&[27], &[1], L), 2);
    assert!(!f.again);
    assert_eq!(q.side(), D);
}

#[test]
fn skyruk_diversions_from_26() {
    // an occupied 28 (either side) diverts into the water
    for (light, dark) in [(vec![26], vec![28, 1]), (vec![26, 28], vec![1])] {
        let p = pos(&light, &dark, L);
        assert_eq!(legal(&S, &p, 2), ["26-28"]);
        let (_, f) = after(&S, &p, 2, "26-28");
        assert_eq!(f.ends, Some(Place::House(h(27))));
    }
    // an occupied 29 and 27: rebirth
    let p = pos(&[26], &[27, 29, 1], L);
    let (q, f) = after(&S, &p, 3, "26-29");
    assert_eq!(f.ends, Some(Place::House(h(15))));
    assert_eq!(q, "d........./....l...../......d.d. d");
    // a 1 with 27 occupied: rebirth
    let p = pos(&[26], &[27, 15, 1], L);
    assert_eq!(after(&S, &p, 1, "26-27").1.ends, Some(Place::House(h(14))));
    // 30 free: straight there; 5: off
    let p = pos(&[26], &[1], L);
    assert_eq!(after(&S, &p, 4, "26-30").1.ends, Some(Place::House(h(30))));
    assert_eq!(after(&S, &p, 5, "26-off").1.ends, Some(Place::Off));
    // exits: 28 on 3, 29 on 2, 30 on any roll
    let p = pos(&[28, 29, 30], &[1], L);
    assert_eq!(legal(&S, &p, 3), ["28-off", "30-off"]);
    assert_eq!(legal(&S, &p, 2), ["29-off", "30-off"]);
    assert_eq!(legal(&S, &p, 5), ["30-off"]);
    assert_eq!(legal(&S, &p, 4), ["30-off"]);
}

#[test]
fn the_bound_throw() {
    let p = pos(&[26, 10], &[1], L);
    assert_eq!(p.bound(&S), Some(House::HAPPINESS));
    assert_eq!(p.bound(&K), None);
    assert_eq!(legal(&S, &p, 3), ["26-29"]);
    assert_eq!(refused(&S, &p, 3, "10-13"), "bound");
    // kendall has no bound throw
    assert_eq!(legal(&K, &p, 3), ["10-13", "26-29"]);
    // the bound throw's roll decides who throws next: 2/3 pass, 1/4/5 again
    assert!(!after(&S, &p, 3, "26-29").1.again);
    assert!(after(&S, &p, 4, "26-30").1.again);
    // custom on26=again with water=reborn: an occupied target stops the
    // bound move, the turn is lost, and the piece stays bound
    let v = S.with_field("water", "reborn").unwrap();
    let p = pos(&[26, 10], &[28, 1], L);
    assert!(legal(&v, &p, 2).is_empty());
    assert_eq!(refused(&v, &p, 2, "26-28"), "occupied");
    let (q, _) = Senet::forfeit(&v, &p, 4);
    assert_eq!(q.bound(&v), Some(House::HAPPINESS));
    // lost on a 2, the turn passes with the piece still on 26: a position
    // of play, so a consistent one
    let (q, flags) = Senet::forfeit(&v, &p, 2);
    assert!(!flags.again);
    assert_eq!(q.side(), D);
    assert_eq!(q.at(House::HAPPINESS), Some(L));
    assert_eq!(q.check(&v), Ok(()));
    assert_eq!(q.with_side(L).bound(&v), Some(House::HAPPINESS));
}

#[test]
fn refusal_order() {
    let p = pos(&[5, 6], &[8], L);
    assert_eq!(refused(&K, &p, 2, "4-6"), "no_piece");
    assert_eq!(refused(&K, &p, 2, "8-10"), "not_your_piece");
    assert_eq!(refused(&K, &p, 2, "5-8"), "wrong_distance");
    assert_eq!(refused(&K, &p, 1, "5-6"), "own_piece");
    assert_eq!(refused(&K, &p, 2, "6-4"), "backward_not_allowed");
    assert_eq!(refused(&K, &p, 3, "5-off"), "wrong_distance");
}

#[test]
fn winning_and_status() {
    let p = pos(&[30], &[1], L);
    let (q, f) = after(&K, &p, 1, "30-off");
    assert_eq!(q, "d........./........../.......... l");
    assert!(f.again);
    let q = Position::parse(&q).unwrap();
    assert_eq!(Senet::status(&K, &q), Status::Won(L));
    assert_eq!(q.status(&S), Status::Won(L));
    assert_eq!(p.status(&K), Status::Ongoing);
    // no moves once won
    assert!(legal(&K, &q, 1).is_empty());
}

#[test]
fn next_in_record() {
    let mv: Move = "25-26".parse().unwrap();
    assert_eq!(Senet::next_in_record(&S, L, 2, Some(mv)), Some(L));
    assert_eq!(
        Senet::next_in_record(&K, L, 2, Some("24-26".parse().unwrap())),
        Some(D)
    );
    assert_eq!(Senet::next_in_record(&K, L, 5, None), Some(L));
    assert_eq!(Senet::next_in_record(&K, D, 3, None), Some(L));
}
