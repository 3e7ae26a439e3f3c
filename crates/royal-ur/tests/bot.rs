//! The bot ladder: greedy, the evaluation and the search against hand-worked
//! values and a plain recursive expectiminimax written here.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Xorshift, random_position};
use dice_core::{Side, Status};
use royal_ur::{
    Bot, BotError, Move, Path, Position, Rung, Variant, Weights, evaluate, greedy, rung, search,
};

fn pos(text: &str) -> Position {
    Position::parse(text).unwrap()
}

const SHORT: Weights = Weights {
    exposed: 16,
    rosette: 16,
    entry: 8,
    home: 0,
};
const LONG: Weights = Weights {
    exposed: 16,
    rosette: 0,
    entry: 0,
    home: 0,
};

#[test]
fn greedy_prefers_the_last_capture_then_the_last_rosette_then_the_last_move() {
    let v = Variant::FINKEL;
    let mixed = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    let pick = |p: &Position, roll| {
        let moves = p.legal(&v, roll);
        greedy(p, &moves).map(|i| moves[i].to_string())
    };
    assert_eq!(pick(&mixed, 3).as_deref(), Some("a1-c2"));
    assert_eq!(pick(&mixed, 1).as_deref(), Some("b2-c2"));
    let rosette = pos("4xx2/4l3/1l2xx2 l 5 0 7 0");
    assert_eq!(
        rosette
            .legal(&v, 1)
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>(),
        ["hand-d1", "b1-a1", "e2-f2"]
    );
    assert_eq!(pick(&rosette, 1).as_deref(), Some("b1-a1"));
    assert_eq!(pick(&rosette, 2).as_deref(), Some("e2-g2"));
    assert_eq!(greedy(&mixed, &[]), None);
}

#[test]
fn evaluation_by_hand() {
    let v = Variant::FINKEL;
    for w in [SHORT, LONG, Weights::default()] {
        assert_eq!(
            evaluate(
                &v,
                &Position::start(&Variant::FINKEL, Side::Light),
                Side::Light,
                &w
            ),
            0
        );
    }
    // Light b1 (3) and e2 (9), five in hand; dark all in hand.
    // 16 × 12 progress, nothing exposed, entry 8 × (5 − 7) = −16 taken off.
    let p = pos("4xx2/4l3/1l2xx2 l 5 0 7 0");
    assert_eq!(evaluate(&v, &p, Side::Light, &SHORT), 208);
    assert_eq!(evaluate(&v, &p, Side::Dark, &SHORT), -208);
    // Light a2 (5), dark c3 (dark's 2): dark hits a2 with a 3 (4/16), so
    // light's exposure is 4 × 5 = 20, and 16 × 20 / 16 = 20 is taken off
    // 16 × (5 − 2) = 48.
    let p = pos("2d1xx2/l7/4xx2 l 6 0 6 0");
    assert_eq!(evaluate(&v, &p, Side::Light, &SHORT), 28);
    assert_eq!(evaluate(&v, &p, Side::Dark, &SHORT), -28);
    // Masters: a 3 is 2/16 of the throws, so the exposure is 2 × 5 = 10,
    // and 16 × 10 / 16 = 10.
    assert_eq!(evaluate(&Variant::MASTERS, &p, Side::Light, &LONG), 38);
    // A piece held on d2, the shared rosette: +16 (it is safe, so not exposed).
    let p = pos("4xx2/3l4/4xx2 l 6 0 7 0");
    assert_eq!(
        evaluate(&v, &p, Side::Light, &SHORT),
        16 * 8 + 16 - 8 * (6 - 7)
    );
    // Home counts len + 1 = 15 steps.
    let p = pos("4xx2/8/4xx2 l 6 1 7 0");
    assert_eq!(evaluate(&v, &p, Side::Light, &Weights::default()), 16 * 15);
}

/// A plain expectiminimax with no budget, for comparison.
fn plain(p: &Position, root: Side, d: i64, v: &Variant, w: &Weights) -> i64 {
    match p.status(v) {
        Status::Won(s) => {
            return if s == root {
                1_000_000 + d
            } else {
                -(1_000_000 + d)
            };
        }
        Status::Drawn => return 0,
        Status::Ongoing => {}
    }
    if d <= 0 {
        return evaluate(v, p, root, w);
    }
    let mut sum = 0;
    let mut den = 1;
    for c in v.chances() {
        let moves = p.legal(v, c.roll);
        let best = if moves.is_empty() {
            plain(&p.forfeit(v), root, d - 1, v, w)
        } else {
            let vals = moves
                .iter()
                .map(|&m| plain(&p.play(v, c.roll, m).unwrap().0, root, d - 1, v, w));
            if p.side() == root {
                vals.max().unwrap()
            } else {
                vals.min().unwrap()
            }
        };
        sum += i64::from(c.weight) * best;
        den = i64::from(c.denominator);
    }
    sum / den
}

#[test]
fn search_agrees_with_a_plain_expectiminimax_and_breaks_ties_high() {
    let mut rng = Xorshift::new(3);
    for (v, w) in [(Variant::FINKEL, SHORT), (Variant::MASTERS, LONG)] {
        for _ in 0..60 {
            let p = random_position(&mut rng, &v, false);
            if p.status(&v) != Status::Ongoing {
                continue;
            }
            for roll in 1..=4 {
                let moves = p.legal(&v, roll);
                let info = search(&v, &p, roll, 2, u64::MAX, &w);
                if moves.is_empty() {
                    assert_eq!(info.index, None);
                    continue;
                }
                let depth = if moves.len() == 1 { 1 } else { 2 };
                let values: Vec<i64> = moves
                    .iter()
                    .map(|&m| plain(&p.play(&v, roll, m).unwrap().0, p.side(), depth - 1, &v, &w))
                    .collect();
                let best = *values.iter().max().unwrap();
                let want = values.iter().rposition(|&x| x == best);
                assert_eq!(info.index, want, "{p} roll {roll}: {values:?}");
                assert_eq!(info.value, best);
                assert_eq!(info.depth, depth as u32);
                assert!(!info.stopped);
            }
        }
    }
}

#[test]
fn budget_rules() {
    let v = Variant::FINKEL;
    let p = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    let moves = p.legal(&v, 3).len() as u64;
    assert_eq!(moves, 4);
    // Level 1 is never cut, and a budget already spent ends the search
    // after it, unstopped.
    let info = search(&v, &p, 3, 4, 1, &SHORT);
    assert_eq!((info.depth, info.nodes, info.stopped), (1, moves, false));
    assert!(info.index.is_some());
    // One node more than level 1 needs: level 2 starts, is cut after that
    // node, and is thrown away.
    let info = search(&v, &p, 3, 4, moves + 1, &SHORT);
    assert_eq!((info.depth, info.nodes, info.stopped), (1, moves + 1, true));
    // A budget met exactly by level 1 ends the search there, unstopped.
    let info = search(&v, &p, 3, 4, moves, &SHORT);
    assert_eq!((info.depth, info.nodes, info.stopped), (1, moves, false));
    // One move: level 1 only.
    let start = Position::start(&Variant::FINKEL, Side::Light);
    let info = search(&v, &start, 2, 4, 1_000_000, &SHORT);
    assert_eq!((info.index, info.depth, info.nodes), (Some(0), 1, 1));
    // Nodes add up over levels and never pass the budget after level 1.
    let info = search(&v, &p, 3, 0, 5_000, &SHORT);
    assert!(info.nodes <= 5_000 && info.depth >= 2, "{info:?}");
}

#[test]
fn a_win_is_worth_a_million_and_the_depth_left() {
    let v = Variant::FINKEL;
    // Light: g1 (14), six home. A 1 bears the last piece off.
    let p = pos("4xx2/8/4xxl1 l 0 6 7 0");
    let info = search(&v, &p, 1, 3, 1_000_000, &SHORT);
    assert_eq!(
        (info.index, info.value, info.depth, info.nodes),
        (Some(0), 1_000_000, 1, 1)
    );
    // Light g1 and h1 (13), five home, roll 1: h1-g1 is blocked, so
    // g1-home is the only move; with a 2 h1 goes home (not yet a win).
    let p = pos("4xx2/8/4xxll l 0 5 7 0");
    let moves: Vec<String> = p.legal(&v, 2).iter().map(Move::to_string).collect();
    assert_eq!(moves, ["h1-home"]);
    // Dark to move after light's g1-home with the h1 piece left: the value
    // at depth 2 is the chance-weighted win next turn or later.
    let after = p.play(&v, 1, "g1-home".parse().unwrap()).unwrap().0;
    assert_eq!(after.side(), Side::Dark);
    let d2 = plain(&after, Side::Light, 2, &v, &SHORT);
    // Dark throws: a 0 (1/16) loses the turn, 1-3 (14/16) enter, and only
    // a 4 (1/16) lands on a3 and throws again. Then light wins with a 2
    // (6/16): 15 × 6 / 256 of a million, plus small evaluation terms.
    assert!(d2 > 15 * 6 * 1_000_000 / 256 && d2 < 360_000, "{d2}");
}

#[test]
fn the_ladder_and_the_bot() {
    assert_eq!(rung(1, Path::Bell), Ok(Rung::Greedy));
    assert_eq!(
        rung(3, Path::Bell),
        Ok(Rung::Search {
            depth: 3,
            weights: SHORT
        })
    );
    assert_eq!(
        rung(4, Path::Masters),
        Ok(Rung::Search {
            depth: 4,
            weights: LONG
        })
    );
    for path in [Path::Murray, Path::Skiriuk] {
        assert_eq!(
            rung(4, path),
            Ok(Rung::Search {
                depth: 4,
                weights: Weights {
                    entry: -96,
                    home: 512,
                    ..LONG
                }
            })
        );
    }
    assert_eq!(
        rung(5, Path::Masters),
        Err(BotError::Level { level: 5, top: 4 })
    );
    assert_eq!(rung(0, Path::Masters).unwrap_err().code(), "level");
    assert_eq!(
        Bot::new(Some(0), None),
        Err(BotError::Level { level: 0, top: 4 })
    );
    assert_eq!(
        Bot::new(Some(100), None),
        Err(BotError::Level { level: 100, top: 4 })
    );
    assert_eq!(Bot::new(None, Some(0)), Err(BotError::Budget(0)));
    assert_eq!(
        Bot::new(None, Some(2_000_000_001)).unwrap_err().code(),
        "budget"
    );
    assert_eq!(Bot::new(Some(9), None).unwrap().level(), 4);
    assert_eq!(Bot::default().budget(), 1_000_000);

    let p = pos("4xx2/1ldd4/l1l1xx2 l 4 0 5 0");
    let greedy_bot = Bot::new(Some(1), None).unwrap();
    let t = greedy_bot.think(&Variant::FINKEL, &p, 3).unwrap();
    assert_eq!(
        (
            t.mv.to_string().as_str(),
            t.index,
            t.depth,
            t.value,
            t.nodes
        ),
        ("a1-c2", 2, 0, None, 0)
    );
    let bot = Bot::new(Some(3), Some(50_000)).unwrap();
    let a = bot.think(&Variant::FINKEL, &p, 3).unwrap();
    let b = bot.think(&Variant::FINKEL, &p, 3).unwrap();
    assert_eq!(a, b, "the same question gets the same answer");
    assert_eq!(a.level, 3);
    assert!(a.depth >= 1 && a.depth <= 3 && a.nodes > 0);
    assert_eq!(
        bot.think(&Variant::FINKEL, &p, 2),
        None,
        "a 2 allows no move here"
    );
}

/// Plies of a seeded game between two bots at `level`.
fn selfplay_plies(variant: Variant, level: u8, seed: &str) -> u32 {
    let bot = Bot::new(Some(level), None).unwrap();
    let mut game = royal_ur::Game::seeded(dice_core::Seed::new(seed).unwrap(), variant).unwrap();
    while let Some(mv) = bot.choose(&game) {
        game.play(mv).unwrap();
    }
    assert!(game.is_over(), "{seed}: the game ends");
    game.ply()
}

/// On the paths that visit squares twice the ladder's searches make
/// progress: with masters' weights, which these paths once took, level 2
/// against itself parked its leading pieces on the safe rosettes and its
/// games on the first eight self-play seeds averaged 2,056 plies under
/// murray's path and 1,189 under skiriuk's (greedy play: about 870 and
/// 350); with the paths' own weights they average under 600 and 400.
#[test]
fn the_searches_make_progress_on_the_paths_that_visit_squares_twice() {
    for (rules, bound) in [("path=murray", 800), ("path=skiriuk", 600)] {
        let v = Variant::parse_lenient(rules).unwrap();
        let plies: u32 = (0..8)
            .map(|n| selfplay_plies(v, 2, &format!("selfplay:{n}")))
            .sum();
        assert!(plies / 8 < bound, "{rules}: {} plies a game", plies / 8);
    }
}
