//! Move generation, refusals, counts and walks against hand-worked answers
//! and against an oracle written from the rules text.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Xorshift, listed, oracle, places_on, random_position, variants};
use dice_core::{MoveList, Notation, Rules, Side};
use royal_ur::{BoardShape, Move, Path, Position, Refusal, Route, Ur, Variant, count_positions};

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap()
}

fn long_safe() -> Variant {
    Variant::custom([("route", "long")]).unwrap()
}

fn short_unsafe() -> Variant {
    Variant::custom([("safe_rosettes", "0")]).unwrap()
}

#[test]
fn hand_worked_move_lists_in_order() {
    // Light: c1 (2), a1 (4), b2 (6), four in hand; dark: c2, d2 (rosette).
    let mixed = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    // Light: h2 (12), h1 (13), g1 (14), none in hand, four home.
    let bearing = pos("4xx2/7l/4xxll l 0 4 7 0");
    // Long route: light g3 (12), d2 (8); dark h2 (14), g1 (12).
    let long = pos("4xxl1/3l3d/4xxd1 l 5 0 5 0");
    let long_dark = long.with_side(Side::Dark);
    let cases: Vec<(Variant, Position, u8, Vec<&str>)> = vec![
        (
            Variant::FINKEL,
            Position::start(&Variant::FINKEL, Side::Light),
            4,
            vec!["hand-a1"],
        ),
        (
            Variant::FINKEL,
            Position::start(&Variant::FINKEL, Side::Light),
            0,
            vec![],
        ),
        (
            Variant::MASTERS,
            Position::start(&Variant::FINKEL, Side::Light),
            1,
            vec!["hand-d1"],
        ),
        (
            Variant::MASTERS,
            Position::start(&Variant::FINKEL, Side::Light).with_side(Side::Dark),
            3,
            vec!["hand-b3"],
        ),
        // Everything is blocked, by own pieces or a safe rosette.
        (Variant::FINKEL, mixed, 2, vec![]),
        // The same rosette is open when rosettes are not safe.
        (short_unsafe(), mixed, 2, vec!["b2-d2"]),
        // An entry, a plain move, a capture, a move past both dark pieces.
        (
            Variant::FINKEL,
            mixed,
            3,
            vec!["hand-b1", "c1-a2", "a1-c2", "b2-e2"],
        ),
        (
            Variant::FINKEL,
            mixed,
            1,
            vec!["hand-d1", "c1-b1", "a1-a2", "b2-c2"],
        ),
        // The hand, c1 and a1 are blocked; only b2 moves.
        (Variant::FINKEL, mixed, 4, vec!["b2-f2"]),
        // Exact bearing off, no bounce.
        (Variant::FINKEL, bearing, 1, vec!["g1-home"]),
        (Variant::FINKEL, bearing, 2, vec!["h1-home"]),
        (Variant::FINKEL, bearing, 3, vec!["h2-home"]),
        (Variant::FINKEL, bearing, 4, vec![]),
        // Long route: capture on an unsafe rosette, and not on a safe one.
        (Variant::MASTERS, long, 4, vec!["hand-a1", "g3-g1"]),
        (long_safe(), long, 4, vec!["hand-a1"]),
        (Variant::MASTERS, long, 2, vec!["hand-c1", "d2-f2", "g3-h2"]),
        // Dark on the long route: g1 is dark's step 12, h2 its 14, g3 its 16.
        (Variant::MASTERS, long_dark, 2, vec!["hand-c3", "h2-g3"]),
        (
            Variant::MASTERS,
            long_dark,
            3,
            vec!["hand-b3", "g1-h3", "h2-home"],
        ),
    ];
    for (variant, position, roll, want) in cases {
        assert_eq!(
            listed(&variant, &position, roll),
            want,
            "{variant} {position} roll {roll}"
        );
        assert_eq!(
            oracle(&variant, &position, roll),
            want,
            "oracle: {variant} {position} roll {roll}"
        );
    }
}

#[test]
fn generation_matches_the_oracle_over_many_positions() {
    let mut rng = Xorshift::new(7);
    for variant in variants() {
        for i in 0..3000 {
            let p = random_position(&mut rng, &variant, i % 3 == 0);
            for roll in 0..=variant.roll_limit() + 1 {
                assert_eq!(
                    listed(&variant, &p, roll),
                    oracle(&variant, &p, roll),
                    "{variant} {p} {roll}"
                );
            }
        }
    }
}

fn refusal_code(variant: &Variant, p: &Position, roll: u8, text: &str) -> &'static str {
    let mv: Move = text.parse().unwrap();
    match p.play(variant, roll, mv) {
        Ok(_) => "ok",
        Err(r) => r.code(),
    }
}

#[test]
fn every_refusal_reason_is_reached() {
    let mixed = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    let bearing = pos("4xx2/7l/4xxll l 0 4 7 0");
    let f = Variant::FINKEL;
    assert_eq!(refusal_code(&f, &bearing, 1, "hand-d1"), "no_piece");
    assert_eq!(refusal_code(&f, &mixed, 1, "d1-c1"), "no_piece");
    assert_eq!(refusal_code(&f, &mixed, 1, "c2-d2"), "not_your_piece");
    assert_eq!(refusal_code(&f, &mixed, 1, "c1-a1"), "wrong_distance");
    assert_eq!(refusal_code(&f, &bearing, 1, "h2-home"), "wrong_distance");
    assert_eq!(refusal_code(&f, &mixed, 2, "c1-a1"), "own_piece");
    assert_eq!(refusal_code(&f, &mixed, 2, "b2-d2"), "safe_rosette");
    assert_eq!(refusal_code(&f, &bearing, 4, "g1-home"), "overshoot");
    assert_eq!(refusal_code(&f, &mixed, 3, "a1-c2"), "ok");
    // A light piece on g3, which light's short route does not visit.
    let stray = pos("4xxl1/8/4xx2 l 6 0 7 0");
    assert_eq!(refusal_code(&f, &stray, 1, "g3-h3"), "no_piece");
    // Under safe_rosettes=0 the same capture is allowed.
    assert_eq!(refusal_code(&short_unsafe(), &mixed, 2, "b2-d2"), "ok");
}

#[test]
fn every_pair_of_places_is_played_iff_legal_and_never_refused_as_bad_move() {
    let mut rng = Xorshift::new(11);
    for variant in variants() {
        let places = places_on(variant.board());
        let pairs: Vec<Move> = places
            .iter()
            .flat_map(|&a| places.iter().filter_map(move |&b| Move::new(a, b).ok()))
            .collect();
        assert_eq!(pairs.len(), 21 * 21);
        for i in 0..150 {
            let p = random_position(&mut rng, &variant, i % 4 == 0);
            if p.status(&variant) != dice_core::Status::Ongoing {
                // A finished game refuses everything as game_over first.
                continue;
            }
            for roll in 1..=variant.roll_limit() {
                let legal = p.legal(&variant, roll);
                for &mv in &pairs {
                    match p.play(&variant, roll, mv) {
                        Ok((next, _)) => {
                            assert!(legal.contains(&mv), "{p} {roll} {mv}");
                            assert!(next.check(&variant).is_ok() || p.check(&variant).is_err());
                        }
                        Err(r) => {
                            assert!(!legal.contains(&mv), "{p} {roll} {mv}");
                            assert_ne!(r, Refusal::BadMove, "{variant} {p} roll {roll} {mv}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn applying_captures_sends_the_enemy_home_to_hand_and_rosettes_keep_the_turn() {
    let mixed = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    let (next, flags) = mixed
        .play(&Variant::FINKEL, 3, "a1-c2".parse().unwrap())
        .unwrap();
    assert_eq!(next.to_string(), "4xx2/1lld4/2l1xx2 d 4 0 6 0");
    assert!(flags.captures && !flags.rosette && !flags.home);
    let (next, flags) = mixed
        .play(&short_unsafe(), 2, "b2-d2".parse().unwrap())
        .unwrap();
    assert_eq!(next.to_string(), "4xx2/2dl4/l1l1xx2 l 4 0 6 0");
    assert!(flags.captures && flags.rosette);
    let bearing = pos("4xx2/7l/4xxll l 0 4 7 0");
    let (next, flags) = bearing
        .play(&Variant::FINKEL, 1, "g1-home".parse().unwrap())
        .unwrap();
    assert_eq!(next.to_string(), "4xx2/7l/4xx1l d 0 5 7 0");
    assert!(flags.home && !flags.rosette);
    assert_eq!(bearing.forfeit(&Variant::FINKEL).side(), Side::Dark);
}

#[test]
fn the_rules_trait_speaks_for_the_same_functions() {
    let v = Variant::FINKEL;
    let start = Ur::start(&v, Side::Dark);
    assert_eq!(start.to_string(), "4xx2/8/4xx2 d 7 0 7 0");
    let mut out = MoveList::new();
    Ur::legal(&v, &start, 2, &mut out);
    assert_eq!(
        out.iter().map(Move::to_string).collect::<Vec<_>>(),
        ["hand-c3"]
    );
    let faces = |t: &str| t.parse::<dice_core::Faces>().unwrap();
    assert_eq!(Ur::roll(&v, faces("0000")), 0);
    assert_eq!(Ur::roll(&Variant::MASTERS, faces("000")), 4);
    assert_eq!(Ur::roll(&v, faces("1011")), 3);
    // Marked counts, not roll values: masters' 000 (worth 4) loses to 100.
    assert_eq!(
        Ur::throw_off(&Variant::MASTERS, faces("000"), faces("100")),
        Some(Side::Dark)
    );
    assert_eq!(Ur::throw_off(&v, faces("1100"), faces("0011")), None);
    let on = |t: &str| Some(t.parse::<Move>().unwrap());
    for (mv, same) in [
        ("a2-d2", true),
        ("hand-a1", true),
        ("f2-g1", true),
        ("b3-a3", true),
        ("h3-g3", true),
        ("c2-e2", false),
        ("g1-home", false),
    ] {
        let next = Ur::next_in_record(&Variant::MASTERS, Side::Light, 3, on(mv));
        assert_eq!(next == Some(Side::Light), same, "{mv}");
    }
    assert_eq!(
        Ur::next_in_record(&v, Side::Light, 0, None),
        Some(Side::Dark)
    );
    assert_eq!(
        Ur::spelled_out(&v),
        "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=7"
    );
}

/// The walk counted independently: children from the oracle, positions
/// moved by the public `play`.
fn slow_walk(depth: u32, variant: &Variant, p: &Position) -> u64 {
    if depth == 0 || p.status(variant) != dice_core::Status::Ongoing {
        return 1;
    }
    let mut total = 0;
    for chance in variant.chances() {
        let moves = oracle(variant, p, chance.roll);
        if moves.is_empty() {
            total += slow_walk(depth - 1, variant, &p.forfeit(variant));
        }
        for text in moves {
            let (next, _) = p.play(variant, chance.roll, text.parse().unwrap()).unwrap();
            total += slow_walk(depth - 1, variant, &next);
        }
    }
    total
}

#[test]
fn walk_counts_from_the_start() {
    let mut lines = Vec::new();
    for (name, v) in [("finkel", Variant::FINKEL), ("masters", Variant::MASTERS)] {
        let start = Position::start(&v, Side::Light);
        let counts: Vec<u64> = (1..=5)
            .map(|d| dice_core::walk::<Ur>(&v, &start, d))
            .collect();
        for d in 1..=3 {
            assert_eq!(
                counts[d as usize - 1],
                slow_walk(d, &v, &start),
                "{name} depth {d}"
            );
        }
        lines.push(format!("{name}: {counts:?}"));
    }
    // Depth 1 by hand: finkel rolls 0..4 give a lost turn and one entry
    // each; masters rolls 1..4 give one entry each.
    assert!(lines[0].starts_with("finkel: [5, "));
    assert!(lines[1].starts_with("masters: [4, "));
    insta::assert_snapshot!(lines.join("\n"));
}

/// Counts positions by enumerating them, for small piece counts: a side's
/// pieces stand at distinct steps of its path, on distinct squares (so on
/// the murray and skiriuk paths a square is held at its first or its
/// second visit), and the two sides on distinct squares.
fn brute_count(variant: &Variant) -> u64 {
    /// Every set of at most `left` steps from `from` on, as their squares.
    fn sets(
        squares: &[usize],
        from: usize,
        left: u32,
        chosen: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        out.push(chosen.clone());
        if left == 0 {
            return;
        }
        for i in from..squares.len() {
            if !chosen.contains(&squares[i]) {
                chosen.push(squares[i]);
                sets(squares, i + 1, left - 1, chosen, out);
                chosen.pop();
            }
        }
    }
    let path = variant.path();
    let p = u32::from(variant.pieces());
    let placements = |side| {
        let squares: Vec<usize> = path.squares(side).iter().map(|s| s.cell()).collect();
        let mut out = Vec::new();
        sets(&squares, 0, p, &mut Vec::new(), &mut out);
        out
    };
    let (light, dark) = (placements(Side::Light), placements(Side::Dark));
    let mut total = 0u64;
    for l in &light {
        for d in &dark {
            if !d.iter().any(|c| l.contains(c)) {
                total += u64::from(p - l.len() as u32 + 1) * u64::from(p - d.len() as u32 + 1);
            }
        }
    }
    2 * total
}

#[test]
fn count_positions_for_every_piece_count_and_route() {
    let mut lines = Vec::new();
    for route in Route::ALL {
        for pieces in 1..=7u8 {
            let v = Variant::FINKEL
                .with_route(route)
                .with_pieces(pieces)
                .unwrap();
            let n = count_positions(&v);
            if pieces <= 2 {
                assert_eq!(n, brute_count(&v), "{route} {pieces}");
            }
            // Dice and safety do not change the count.
            assert_eq!(
                n,
                count_positions(&v.with_dice(3, 4).unwrap().with_safe_rosettes(false))
            );
            lines.push(format!("{route} {pieces}: {n}"));
        }
    }
    assert_eq!(count_positions(&Variant::FINKEL), 275_827_872);
    insta::assert_snapshot!(lines.join("\n"));
    // The other paths, by enumeration for one piece a side.
    for path in [Path::Murray, Path::Skiriuk, Path::Aseb] {
        for pieces in 1..=2 {
            let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
            assert_eq!(count_positions(&v), brute_count(&v), "{path} {pieces}");
        }
    }
}

#[test]
fn positions_that_cannot_occur_are_named() {
    use royal_ur::{Inconsistency, Position, Square, Variant};
    let check = |text: &str, v: &Variant| Position::parse(text).unwrap().check(v);
    assert_eq!(check("4xx2/8/4xx2 l 7 0 7 0", &Variant::FINKEL), Ok(()));
    let eight = check("4xx2/8/4xx2 l 7 0 7 1", &Variant::FINKEL).unwrap_err();
    assert_eq!(eight.code(), "pieces");
    assert_eq!(
        eight,
        Inconsistency::Pieces {
            side: Side::Dark,
            hand: 7,
            board: 0,
            home: 1,
            pieces: 7
        }
    );
    // A light piece on a3, which only dark's route visits, on either route.
    for v in [Variant::FINKEL, Variant::MASTERS] {
        let astray = check("l3xx2/8/4xx2 l 6 0 7 0", &v).unwrap_err();
        assert_eq!(
            astray,
            Inconsistency::Route {
                side: Side::Light,
                square: "a3".parse::<Square>().unwrap()
            }
        );
    }
    // h1 is on dark's long route but not on its short one.
    let h1 = "4xx2/8/4xxd1 l 7 0 6 0";
    assert_eq!(check(h1, &Variant::MASTERS), Ok(()));
    assert_eq!(check(h1, &Variant::FINKEL).unwrap_err().code(), "route");
    assert_eq!(
        check("4xx2/8/4xx2 l 0 7 0 7", &Variant::FINKEL),
        Err(Inconsistency::BothHome)
    );
    // The rules' consistency is this check; the reference's count is not.
    let p = Position::parse("l3xx2/8/4xx2 l 6 0 7 0").unwrap();
    assert!(royal_ur::Board::new(Variant::FINKEL, p, None, 0).is_ok());
    assert_eq!(
        <royal_ur::Ur as dice_core::Rules>::check_position(&Variant::FINKEL, &p)
            .unwrap_err()
            .code(),
        "route"
    );
}

/// A position in `variant`'s text.
fn pos_for(text: &str, variant: &Variant) -> Position {
    Position::parse_for(text, variant).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn hand_worked_move_lists_on_the_new_paths() {
    let murray = Variant::parse_lenient("path=murray").unwrap();
    let skiriuk = Variant::parse_lenient("path=skiriuk capture_again=1").unwrap();
    // aseb: light d1 (step 1), d2 (8, a rosette), j2 (14), two in hand;
    // dark f2 (10) and h2 (12, a safe rosette), three in hand.
    let aseb = "4/3l1d1d1l2/3l l 2 0 3 0";
    // murray: light b3 (25, its way out through dark's entry row), e2 on
    // its second visit (19), g1 (16); dark f2 (10) and c2 on its second
    // visit (21).
    let murray_text = "1l2xx2/2D1Ld2/4xxl1 l 4 0 5 0";
    // skiriuk: light c2 (7), h3 (13), a2 on its second visit (23, one step
    // from home); dark d2 (8, a safe rosette) and b2 on its second visit
    // (22).
    let skiriuk_text = "4xx1l/LDld4/4xx2 l 4 0 5 0";
    // blitz: light d2 (8), f2 (10), h2 (14); dark e2 (9), g2 (11) and g3
    // (its 16, an unsafe rosette).
    let blitz = "4xxd1/3ldldl/4xx2 l 2 0 2 0";
    let dark = |v: &Variant, text: &str| pos_for(text, v).with_side(Side::Dark);
    let cases: Vec<(Variant, Position, u8, Vec<&str>)> = vec![
        (Variant::ASEB, pos_for(aseb, &Variant::ASEB), 0, vec![]),
        (
            Variant::ASEB,
            pos_for(aseb, &Variant::ASEB),
            1,
            vec!["d1-c1", "d2-e2", "j2-k2"],
        ),
        (
            Variant::ASEB,
            pos_for(aseb, &Variant::ASEB),
            2,
            vec!["hand-c1", "d1-b1", "d2-f2", "j2-l2"],
        ),
        (
            Variant::ASEB,
            pos_for(aseb, &Variant::ASEB),
            3,
            vec!["hand-b1", "d1-a1", "d2-g2", "j2-home"],
        ),
        // d2-h2 would take a safe rosette; j2 overshoots.
        (
            Variant::ASEB,
            pos_for(aseb, &Variant::ASEB),
            4,
            vec!["hand-a1", "d1-a2"],
        ),
        (
            Variant::ASEB,
            dark(&Variant::ASEB, aseb),
            1,
            vec!["hand-d3", "f2-g2", "h2-i2"],
        ),
        (
            Variant::ASEB,
            dark(&Variant::ASEB, aseb),
            4,
            vec!["hand-a3", "f2-j2", "h2-l2"],
        ),
        (
            murray,
            pos_for(murray_text, &murray),
            1,
            vec!["hand-d1", "g1-g2", "e2-d2", "b3-c3"],
        ),
        // g1 (16) and e2 (19) both capture on their second visits' squares.
        (
            murray,
            pos_for(murray_text, &murray),
            2,
            vec!["hand-c1", "g1-f2", "e2-c2", "b3-d3"],
        ),
        // g1 would land on light's own e2.
        (
            murray,
            pos_for(murray_text, &murray),
            3,
            vec!["hand-b1", "e2-b2", "b3-home"],
        ),
        (
            murray,
            pos_for(murray_text, &murray),
            4,
            vec!["hand-a1", "g1-d2", "e2-a2"],
        ),
        // Dark: f2 (10) to g1 (12) is light's safe rosette; c2 (21) runs on
        // down the middle lane and out along light's entry row.
        (
            murray,
            dark(&murray, murray_text),
            2,
            vec!["hand-c3", "c2-a2"],
        ),
        (
            murray,
            dark(&murray, murray_text),
            3,
            vec!["hand-b3", "f2-h1", "c2-a1"],
        ),
        (
            skiriuk,
            pos_for(skiriuk_text, &skiriuk),
            1,
            vec!["hand-d1", "h3-h2", "a2-home"],
        ),
        (
            skiriuk,
            pos_for(skiriuk_text, &skiriuk),
            2,
            vec!["hand-c1", "c2-e2", "h3-h1"],
        ),
        (
            skiriuk,
            pos_for(skiriuk_text, &skiriuk),
            3,
            vec!["hand-b1", "c2-f2", "h3-g1"],
        ),
        // Two moves onto g2: c2 at its first visit (11), h3 at its second
        // (17).
        (
            skiriuk,
            pos_for(skiriuk_text, &skiriuk),
            4,
            vec!["hand-a1", "c2-g2", "h3-g2"],
        ),
        (
            skiriuk,
            dark(&skiriuk, skiriuk_text),
            1,
            vec!["hand-d3", "d2-e2", "b2-a2"],
        ),
        (
            skiriuk,
            dark(&skiriuk, skiriuk_text),
            2,
            vec!["hand-c3", "d2-f2", "b2-home"],
        ),
        (
            Variant::BLITZ,
            pos_for(blitz, &Variant::BLITZ),
            1,
            vec!["hand-d1", "d2-e2", "f2-g2", "h2-h1"],
        ),
        // f2-g3 captures on a rosette that is not safe under blitz.
        (
            Variant::BLITZ,
            pos_for(blitz, &Variant::BLITZ),
            2,
            vec!["hand-c1", "f2-g3", "h2-g1"],
        ),
        (
            Variant::BLITZ,
            pos_for(blitz, &Variant::BLITZ),
            3,
            vec!["hand-b1", "d2-g2", "f2-h3", "h2-home"],
        ),
        (
            Variant::BLITZ,
            pos_for(blitz, &Variant::BLITZ),
            4,
            vec!["hand-a1", "d2-g3"],
        ),
    ];
    for (variant, position, roll, want) in cases {
        assert_eq!(
            listed(&variant, &position, roll),
            want,
            "{variant} {position} roll {roll}"
        );
        assert_eq!(
            oracle(&variant, &position, roll),
            want,
            "oracle: {variant} {position} roll {roll}"
        );
    }
}

#[test]
fn hand_worked_moves_applied_on_the_new_paths() {
    let murray = Variant::parse_lenient("path=murray").unwrap();
    let skiriuk = Variant::parse_lenient("path=skiriuk capture_again=1").unwrap();
    let no_rosette_again =
        Variant::parse_lenient("path=masters capture_again=1 rosette_again=0 safe_rosettes=0")
            .unwrap();
    let blitz = "4xxd1/3ldldl/4xx2 l 2 0 2 0";
    // (rules, position, roll, move, position after, captures, rosette)
    let cases = [
        // A capture on an unsafe rosette throws again once.
        (
            Variant::BLITZ,
            blitz,
            2,
            "f2-g3",
            "4xxl1/3ld1dl/4xx2 l 2 0 3 0",
            true,
            true,
        ),
        // A capture throws again under blitz; a plain move passes.
        (
            Variant::BLITZ,
            blitz,
            1,
            "d2-e2",
            "4xxd1/4lldl/4xx2 l 2 0 3 0",
            true,
            false,
        ),
        (
            Variant::BLITZ,
            blitz,
            1,
            "h2-h1",
            "4xxd1/3ldld1/4xx1l d 2 0 2 0",
            false,
            false,
        ),
        // Without the rosette switch a rosette passes the turn, but the
        // capture on it still throws again.
        (
            no_rosette_again,
            "4xxd1/3ldldl/4xx2 l 4 0 4 0",
            4,
            "hand-a1",
            "4xxd1/3ldldl/l3xx2 d 3 0 4 0",
            false,
            true,
        ),
        (
            no_rosette_again,
            "4xxd1/3ldldl/4xx2 l 4 0 4 0",
            2,
            "f2-g3",
            "4xxl1/3ld1dl/4xx2 l 4 0 5 0",
            true,
            true,
        ),
        // murray: g1 (16) to f2 is light's second visit there (18), and the
        // dark piece on its first visit goes back to hand.
        (
            murray,
            "1l2xx2/2D1Ld2/4xxl1 l 4 0 5 0",
            2,
            "g1-f2",
            "1l2xx2/2D1LL2/4xx2 d 4 0 6 0",
            true,
            false,
        ),
        // ...and c2's second visit (21) plus 3 leaves the lane for a1 (24),
        // a rosette of light's entry row.
        (
            murray,
            "1l2xx2/2D1Ld2/4xxl1 d 4 0 5 0",
            3,
            "c2-a1",
            "1l2xx2/4Ld2/d3xxl1 d 4 0 5 0",
            false,
            true,
        ),
        // skiriuk, capture_again: dark's b2 (22) takes light's a2 (23) and
        // throws again, and the piece on a2 is now dark's second visit.
        (
            skiriuk,
            "4xx1l/LDld4/4xx2 d 4 0 5 0",
            1,
            "b2-a2",
            "4xx1l/D1ld4/4xx2 d 5 0 5 0",
            true,
            false,
        ),
        (
            skiriuk,
            "4xx1l/LDld4/4xx2 l 4 0 5 0",
            1,
            "a2-home",
            "4xx1l/1Dld4/4xx2 d 4 1 5 0",
            false,
            false,
        ),
        // aseb: h2 is a rosette of that board.
        (
            Variant::ASEB,
            "4/3l1d1d1l2/3l l 2 0 3 0",
            3,
            "e2-h2",
            "",
            false,
            false,
        ),
    ];
    for (variant, before, roll, mv, after, captures, rosette) in cases {
        let p = pos_for(before, &variant);
        let m = Move::parse_on(mv, variant.board()).unwrap();
        if after.is_empty() {
            // Not legal: no piece on e2.
            assert_eq!(p.play(&variant, roll, m).unwrap_err().code(), "no_piece");
            continue;
        }
        let (next, flags) = p
            .play(&variant, roll, m)
            .unwrap_or_else(|r| panic!("{variant} {before} {roll} {mv}: {r}"));
        assert_eq!(next.to_string(), after, "{variant} {before} {roll} {mv}");
        assert_eq!((flags.captures, flags.rosette), (captures, rosette), "{mv}");
        assert_eq!(Position::parse_for(after, &variant), Ok(next));
        assert_eq!(next.check(&variant), Ok(()), "{after}");
    }
    // d2 to h2 under aseb lands on a rosette and throws again.
    let p = pos_for("4/3l1d1d1l2/3l l 2 0 3 0", &Variant::ASEB);
    let (next, flags) = p
        .play(
            &Variant::ASEB,
            3,
            Move::parse_on("d1-a1", BoardShape::Aseb).unwrap(),
        )
        .unwrap();
    assert!(flags.rosette && next.side() == Side::Light);
}
