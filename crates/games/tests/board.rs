//! The board as data agrees with the rules' own view of the board and
//! with the position it holds, for every preset of both games.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{Game, Rules as _, Seed, Side};
use race_games::{Board, MarkKind, RaceGame, RulesBoard, SquareKind, for_kind};
use royal_ur::Ur;
use senet::Senet;

/// Every square once, on a grid place of its own; the pieces on squares
/// of the board, as many as the counts say.
fn whole<G: RaceGame>(board: &Board, pieces: u8) {
    let mut places: Vec<(u8, u8)> = board.squares.iter().map(|s| (s.column, s.row)).collect();
    places.sort_unstable();
    places.dedup();
    assert_eq!(places.len(), board.squares.len());
    for s in &board.squares {
        assert!(s.column < board.columns && usize::from(s.row) < board.rows.len());
        assert_eq!(board.at(s.column, s.row), Some(s));
    }
    for side in Side::ALL {
        let c = board.counts.of(side);
        let on = board.pieces.iter().filter(|p| p.side == side).count();
        assert_eq!(on, usize::from(c.on_board));
        assert_eq!(
            c.hand.unwrap_or(0) + c.on_board + c.home,
            pieces,
            "{}",
            G::KIND
        );
        for name in board.routes.of(side) {
            assert!(board.squares.iter().any(|s| &s.name == name), "{name}");
        }
    }
    for p in &board.pieces {
        assert_eq!(board.piece(p.number), Some(p.side));
        assert!(
            board
                .squares
                .iter()
                .any(|s| s.name == p.square && s.number == p.number)
        );
    }
}

/// Plays a seeded game, checking the board after every ply and the marks
/// each ply leaves on it.
fn played<G: RaceGame>(variant: G::Variant, pieces: u8) {
    let mut game = Game::<G>::seeded(Seed::new("board").unwrap(), variant.clone()).unwrap();
    whole::<G>(&G::board(&variant, game.position()), pieces);
    while !game.is_over() && game.ply() < 300 {
        let mv = game.legal()[game.ply() as usize % game.legal().len()];
        game.play(mv).unwrap();
        let board = G::board(&variant, game.position());
        whole::<G>(&board, pieces);
        for ply in game.plies_from(game.ply().saturating_sub(3) as usize) {
            let after = G::board(&variant, &ply.after);
            for mark in G::marks(ply.entry) {
                assert!(board.squares.iter().any(|s| s.number == mark.number));
                // A piece that landed stands there right after the ply.
                if mark.kind == MarkKind::Landed {
                    assert_eq!(after.piece(mark.number), Some(mark.side), "{:?}", ply.entry);
                }
            }
        }
    }
}

#[test]
fn every_preset_s_board_is_whole_through_a_game() {
    for p in Ur::PRESETS {
        played::<Ur>(p.variant, p.variant.pieces());
    }
    for p in Senet::PRESETS {
        played::<Senet>(p.variant, p.variant.piece_count());
    }
}

#[test]
fn the_board_is_the_rules_board() {
    for p in Ur::PRESETS {
        let board = Ur::board(&p.variant, &Ur::start(&p.variant, Side::Light));
        let RulesBoard::Ur {
            squares,
            routes,
            rosettes,
            files,
            ..
        } = Ur::rules_board(&p.variant)
        else {
            panic!("{}", p.name);
        };
        let mut names: Vec<&str> = board.squares.iter().map(|s| s.name.as_str()).collect();
        let mut theirs = squares.clone();
        names.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(names, theirs, "{}", p.name);
        assert_eq!(board.routes.light, routes["light"], "{}", p.name);
        assert_eq!(board.routes.dark, routes["dark"], "{}", p.name);
        let marked: Vec<&str> = board
            .squares
            .iter()
            .filter(|s| s.kind == SquareKind::Rosette)
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(marked.len(), rosettes.len(), "{}", p.name);
        assert!(marked.iter().all(|r| rosettes.contains(r)));
        assert_eq!(
            (board.columns, board.files.len()),
            (files, usize::from(files))
        );
        assert!(!board.is_shared_track());
        // Light enters on the bottom row, dark on the top.
        assert_eq!(board.rows[2].near, Some(Side::Light));
        assert_eq!(board.rows[0].near, Some(Side::Dark));
        assert_eq!(board.counts.light.hand, Some(p.variant.pieces()));
    }
    let kendall = senet::Variant::KENDALL;
    let board = Senet::board(&kendall, &Senet::start(&kendall, Side::Light));
    assert!(board.is_shared_track() && board.files.is_empty());
    assert_eq!(board.routes.light.len(), 30);
    let RulesBoard::Senet { special, .. } = Senet::rules_board(&kendall) else {
        panic!("senet");
    };
    for s in &board.squares {
        assert_eq!(
            special.get(&s.number).copied(),
            s.kind.name(),
            "{}",
            s.number
        );
    }
    // The track runs along the rows: 1..10, 20..11, 21..30.
    assert_eq!(board.at(0, 1).map(|s| s.number), Some(20));
    assert_eq!(board.at(9, 2).map(|s| s.number), Some(30));
    let pieces: Vec<(u8, Side)> = board.pieces.iter().map(|p| (p.number, p.side)).collect();
    assert_eq!(pieces.len(), 10);
    assert_eq!(pieces[0], (1, Side::Dark));
    assert_eq!(pieces[1], (2, Side::Light));
    assert_eq!(board.counts.dark.hand, None);
}

#[test]
fn the_start_of_a_race_is_the_whole_route_for_every_piece() {
    for kind in race_games::Kind::ALL {
        for_kind!(kind, G => {
            for p in G::PRESETS {
                let start = G::start(&p.variant, Side::Light);
                let race = G::race(&p.variant, &start);
                let board = G::board(&p.variant, &start);
                let pieces = board.counts.light.hand.unwrap_or(0) + board.counts.light.on_board;
                assert!(race.light >= u32::from(pieces), "{}", p.name);
                if board.counts.light.hand.is_some() {
                    // Every Ur piece in hand has the route and one step home to go.
                    let steps = board.routes.light.len() as u32 + 1;
                    assert_eq!(race.light, u32::from(pieces) * steps, "{}", p.name);
                    assert_eq!(race.dark, race.light, "{}", p.name);
                }
            }
        });
    }
}
