//! Small rule sets solved and checked against an independent brute force
//! over royal-ur's own positions and rules.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::collections::HashMap;

use dice_core::{MoveList, Rules, Side, Status};
use royal_ur::{Path, Position, Route, Square, Ur, Variant};
use ur_solve::{Index, Solution, SolveOptions, solve};

/// Per roll: its chance and the successors (and whether the same side
/// moves next).
type Rolls<T> = Vec<(f64, Vec<(T, bool)>)>;

/// Every position reachable from the start (either side first), valued by
/// plain value iteration over royal-ur's own positions and rules: no index,
/// no symmetry, successors found with `Ur::legal`/`apply`/`forfeit`.
fn brute_force(variant: &Variant) -> HashMap<Position, f64> {
    let mut id: HashMap<Position, usize> = HashMap::new();
    let mut positions: Vec<Position> = Vec::new();
    let mut stack: Vec<Position> = Side::ALL
        .into_iter()
        .map(|s| Ur::start(variant, s))
        .collect();
    let mut moves = MoveList::new();
    // For each position: per roll, its chance and the successors (index,
    // whether the same side moves next); empty for a finished game.
    let mut succ: Vec<Rolls<Position>> = Vec::new();
    while let Some(pos) = stack.pop() {
        if id.contains_key(&pos) {
            continue;
        }
        id.insert(pos, positions.len());
        positions.push(pos);
        let mut rolls = Vec::new();
        if Ur::status(variant, &pos) == Status::Ongoing {
            for c in variant.chances() {
                let p = f64::from(c.weight) / f64::from(c.denominator);
                Ur::legal(variant, &pos, c.roll, &mut moves);
                let nexts: Vec<Position> = if moves.is_empty() {
                    vec![Ur::forfeit(variant, &pos, c.roll).0]
                } else {
                    moves
                        .iter()
                        .map(|&mv| Ur::apply(variant, &pos, c.roll, mv).0)
                        .collect()
                };
                stack.extend(nexts.iter().copied());
                rolls.push((
                    p,
                    nexts.iter().map(|q| (*q, q.side() == pos.side())).collect(),
                ));
            }
        }
        succ.push(rolls);
    }
    let succ: Vec<Rolls<usize>> = succ
        .into_iter()
        .map(|rolls| {
            rolls
                .into_iter()
                .map(|(p, n)| (p, n.into_iter().map(|(q, same)| (id[&q], same)).collect()))
                .collect()
        })
        .collect();
    let mut value: Vec<f64> = positions
        .iter()
        .map(|pos| match Ur::status(variant, pos) {
            Status::Won(w) => f64::from(u8::from(w == pos.side())),
            _ => 0.5,
        })
        .collect();
    for _ in 0..100_000 {
        let mut change = 0.0f64;
        for (i, rolls) in succ.iter().enumerate() {
            if rolls.is_empty() {
                continue;
            }
            let v: f64 = rolls
                .iter()
                .map(|(p, nexts)| {
                    p * nexts
                        .iter()
                        .map(|&(j, same)| if same { value[j] } else { 1.0 - value[j] })
                        .fold(f64::MIN, f64::max)
                })
                .sum();
            change = change.max((v - value[i]).abs());
            value[i] = v;
        }
        if change < 1e-14 {
            return positions.into_iter().zip(value).collect();
        }
    }
    panic!("brute force did not converge for {variant}");
}

fn quick(variant: &Variant) -> Solution {
    let options = SolveOptions {
        threads: 2,
        ..SolveOptions::default()
    };
    solve(variant, &options, |_| {}).unwrap()
}

fn rule_sets(pieces: u8) -> Vec<Variant> {
    let mut out = Vec::new();
    for route in Route::ALL {
        for safe in [false, true] {
            for (dice, zero) in [(4, 0), (4, 4), (3, 0), (3, 4)] {
                out.push(Variant::new(route, dice, zero, safe, pieces).unwrap());
            }
        }
    }
    out
}

fn check_against_brute_force(variant: &Variant) {
    let sol = quick(variant);
    let brute = brute_force(variant);
    assert!(brute.len() > 10, "{variant}");
    for (pos, &want) in &brute {
        let got = sol.win_chance(pos).unwrap();
        assert!(
            (got - want).abs() < 1e-8,
            "{variant} {pos}: solver {got}, brute force {want}"
        );
    }
}

#[test]
fn one_piece_rule_sets_match_the_brute_force() {
    for v in rule_sets(1) {
        check_against_brute_force(&v);
    }
}

#[test]
fn two_piece_rule_sets_match_the_brute_force() {
    for v in [
        Variant::FINKEL.with_pieces(2).unwrap(),
        Variant::new(Route::Long, 3, 4, true, 2).unwrap(),
    ] {
        check_against_brute_force(&v);
    }
}

/// The presets the reference does not have, with one and two pieces:
/// blitz (a capture throws again, rosettes not safe), aseb (its own board
/// and path), finkel2p and masters with four dice.
#[test]
fn new_presets_with_one_and_two_pieces_match_the_brute_force() {
    for name in ["blitz", "aseb", "finkel2p", "masters4d"] {
        let preset = Variant::named(name).unwrap();
        for pieces in 1..=2 {
            check_against_brute_force(&preset.with_pieces(pieces).unwrap());
        }
    }
}

/// One piece over the paths the solver numbers, with dice from one to
/// eight, a 0 worth 0 or dice + 1, and either throw-again switch.
#[test]
fn one_piece_dice_and_switches_match_the_brute_force() {
    for path in [Path::Bell, Path::Masters, Path::Aseb] {
        for (dice, zero, rosette_again, capture_again) in [
            (1, 0, true, true),
            (2, 3, false, true),
            (5, 0, false, false),
            (8, 9, true, true),
        ] {
            let v = Variant::FINKEL
                .with_path(path)
                .with_pieces(1)
                .and_then(|v| v.with_dice(dice, zero))
                .unwrap()
                .with_safe_rosettes(dice % 2 == 0)
                .with_rosette_again(rosette_again)
                .with_capture_again(capture_again);
            check_against_brute_force(&v);
        }
    }
}

/// The paths that visit `a2..g2` twice, murray and skiriuk, with one and
/// two pieces: finkel's other fields, three dice with a 0 worth 4 and
/// unsafe rosettes, and a capture throwing again (with and without the
/// rosette's extra throw).
#[test]
fn revisiting_paths_with_one_and_two_pieces_match_the_brute_force() {
    for path in [Path::Murray, Path::Skiriuk] {
        for pieces in 1..=2 {
            let finkel = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
            let three_dice = finkel.with_dice(3, 4).unwrap().with_safe_rosettes(false);
            let captures = finkel.with_capture_again(true);
            let only_captures = captures.with_rosette_again(false);
            for v in [finkel, three_dice, captures, only_captures] {
                check_against_brute_force(&v);
            }
        }
    }
}

/// A rule set past what a successor code numbers (2^30 states) is refused
/// with its size: murray with five and seven pieces, skiriuk with six.
#[test]
fn huge_rule_sets_are_refused_with_their_size() {
    for (path, pieces, states) in [
        (Path::Murray, 7, "107967669800"),
        (Path::Murray, 5, "2868316800"),
        (Path::Skiriuk, 6, "2917843856"),
    ] {
        let v = Variant::FINKEL.with_path(path).with_pieces(pieces).unwrap();
        let err = solve(&v, &SolveOptions::default(), |_| {}).unwrap_err();
        assert_eq!(err.code(), "too_big", "{err}");
        let text = err.to_string();
        assert!(text.contains(states), "{text}");
        assert!(
            text.contains(&format!("{}", 8 * states.parse::<u64>().unwrap())),
            "{text}"
        );
    }
}

#[test]
fn two_piece_finkel_start_is_the_published_figure() {
    let sol = quick(&Variant::FINKEL.with_pieces(2).unwrap());
    let pct = 100.0 * sol.first_mover();
    assert!((pct - 51.858).abs() <= 0.0015, "{pct}");
}

/// Swapping the colours (rows 1 and 3) and the side to move changes
/// nothing: the brute force, which knows nothing of the symmetry, agrees.
#[test]
fn colour_swap_symmetry_holds_in_the_brute_force() {
    for v in [
        Variant::FINKEL.with_pieces(2).unwrap(),
        Variant::MASTERS.with_pieces(1).unwrap(),
    ] {
        let brute = brute_force(&v);
        let swap = |pos: &Position| -> Position {
            let mut out = Position::EMPTY.with_side(pos.side().other());
            for sq in Square::ALL {
                let file = sq.file();
                let row = 4 - sq.row();
                if let (Some(to), Some(who)) = (Square::at(file, row), pos.at(sq)) {
                    out = out.with_piece(to, Some(who.other()));
                }
            }
            for side in Side::ALL {
                out = out
                    .with_hand(side.other(), pos.hand(side))
                    .and_then(|q| q.with_home(side.other(), pos.home(side, &v)))
                    .unwrap();
            }
            out
        };
        let mut pairs = 0;
        for (pos, &v1) in &brute {
            if let Some(&v2) = brute.get(&swap(pos)) {
                assert!((v1 - v2).abs() < 1e-10, "{pos}");
                pairs += 1;
            }
        }
        assert!(pairs * 2 > brute.len());
    }
}

/// An independent residual: T(V) computed through royal-ur's moves and
/// positions for every state of both sides, against the table.
#[test]
fn residual_is_small_when_recomputed_through_royal_ur() {
    for v in [
        Variant::FINKEL.with_pieces(2).unwrap(),
        Variant::MASTERS.with_pieces(2).unwrap(),
    ] {
        let sol = quick(&v);
        assert!(sol.stats().residual < 1e-8);
        let ix = Index::new(&v).unwrap();
        let mut moves = MoveList::new();
        let mut worst = 0.0f64;
        for i in 0..ix.len() {
            let st = ix.unrank(i).unwrap();
            for side in Side::ALL {
                let pos = ix.position(st, side);
                if Ur::status(&v, &pos) != Status::Ongoing {
                    continue;
                }
                let mut t = 0.0;
                for c in v.chances() {
                    let p = f64::from(c.weight) / f64::from(c.denominator);
                    Ur::legal(&v, &pos, c.roll, &mut moves);
                    let value_of = |q: &Position| {
                        let x = sol.win_chance(q).unwrap();
                        if q.side() == side { x } else { 1.0 - x }
                    };
                    t += p * if moves.is_empty() {
                        value_of(&pos.forfeit(&v))
                    } else {
                        moves
                            .iter()
                            .map(|&mv| value_of(&Ur::apply(&v, &pos, c.roll, mv).0))
                            .fold(f64::MIN, f64::max)
                    };
                }
                worst = worst.max((t - sol.win_chance(&pos).unwrap()).abs());
            }
        }
        assert!(worst < 1e-8, "{v}: {worst}");
        assert!(worst > 0.0 || ix.len() < 10);
    }
}

/// A residual check that can fail: values that are not solved show a
/// large residual.
#[test]
fn a_loose_tolerance_leaves_a_visible_residual() {
    let v = Variant::FINKEL.with_pieces(2).unwrap();
    let options = SolveOptions {
        tolerance: 0.05,
        ..SolveOptions::default()
    };
    let loose = solve(&v, &options, |_| {}).unwrap();
    let tight = quick(&v);
    assert!(loose.stats().residual > 1e-6);
    assert!(tight.stats().residual < 1e-9);
}

#[test]
fn progress_reports_every_stage_and_bad_options_are_refused() {
    let v = Variant::FINKEL.with_pieces(1).unwrap();
    let mut stages = Vec::new();
    let sol = solve(&v, &SolveOptions::default(), |p| stages.push(p.stage)).unwrap();
    assert!(stages.contains(&ur_solve::Stage::Sweeping));
    assert!(stages.contains(&ur_solve::Stage::Residual));
    assert_eq!(stages.last(), Some(&ur_solve::Stage::Done));
    assert!(sol.first_mover() > 0.5);
    let bad = SolveOptions {
        tolerance: 0.0,
        ..SolveOptions::default()
    };
    assert_eq!(solve(&v, &bad, |_| {}).unwrap_err().code(), "options");
    let few = SolveOptions {
        max_sweeps: 1,
        ..SolveOptions::default()
    };
    let err = solve(&Variant::FINKEL.with_pieces(2).unwrap(), &few, |_| {}).unwrap_err();
    assert_eq!(err.code(), "not_converged");
}

/// Listing successors only saves work: with no room for lists, or room for
/// part of a layer pair, the sweeps generate the rest and reach the same
/// values (bit for bit on one thread, where the order of the arithmetic is
/// the same) and the brute force's.
#[test]
fn listing_successors_or_not_gives_the_same_values() {
    for v in [Variant::FINKEL.with_pieces(2).unwrap(), long_safe_2()] {
        let with = |list_bytes| {
            let options = SolveOptions {
                threads: 1,
                list_bytes,
                ..SolveOptions::default()
            };
            solve(&v, &options, |_| {}).unwrap()
        };
        let all = with(SolveOptions::default().list_bytes);
        for bytes in [0, 4 << 10] {
            let part = with(bytes);
            assert_eq!(
                part.values(),
                all.values(),
                "{v} with {bytes} bytes of lists"
            );
            assert!(part.stats().residual < 1e-8);
        }
    }
    check_against_brute_force(&long_safe_2());
}

fn long_safe_2() -> Variant {
    Variant::custom([("route", "long"), ("pieces", "2")]).unwrap()
}
