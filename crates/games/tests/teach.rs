//! What a page teaches agrees with what the rules do: each offered move's
//! route and landing with what playing it did, a ply said to each reader,
//! and the rules told from each rule set's own fields.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use dice_core::{Game, Seed, Side};
use race_games::{Landing, OfferView, RaceGame, Said, Voice, for_kind};
use royal_ur::Ur;
use senet::Senet;

/// Plays a seeded game under `variant`, choosing moves in turn, and checks
/// at every throw that each move offered leads to its `to` along its path
/// and that the one played did what its landing said.
fn offers_agree<G: RaceGame>(variant: G::Variant) -> Vec<Landing> {
    let mut game = Game::<G>::seeded(Seed::new("teach").unwrap(), variant.clone()).unwrap();
    let mut seen = Vec::new();
    while !game.is_over() && game.ply() < 400 {
        let roll = game.roll().unwrap();
        let side = game.side().unwrap();
        let legal = G::legal_moves(&variant, game.position(), roll);
        let offers: Vec<OfferView> = legal.iter().map(OfferView::of).collect();
        let names: Vec<String> = game.legal().iter().map(ToString::to_string).collect();
        let offered: Vec<&str> = offers.iter().map(|o| o.mv.as_str()).collect();
        assert_eq!(offered, names);
        for o in &offers {
            assert_eq!(o.path.last(), Some(&o.to), "{o:?}");
            assert!(!o.path.contains(&o.from), "{o:?}");
            if G::KIND == race_games::Kind::Ur {
                // Ur's pieces walk exactly the roll along their own route.
                assert_eq!(o.path.len(), usize::from(roll), "{o:?}");
                let route = &G::board(&variant, game.position()).routes.of(side).clone();
                let start = if o.from == "hand" {
                    Some(0)
                } else {
                    (0..route.len())
                        .find(|&i| {
                            route[i] == o.from
                                && route.get(i + 1..).is_some_and(|rest| {
                                    rest.iter().zip(&o.path).all(|(a, b)| a == b)
                                })
                        })
                        .map(|i| i + 1)
                };
                assert!(start.is_some(), "{o:?} is not on {route:?}");
            }
        }
        let pick = game.ply() as usize % offers.len();
        let o = offers[pick].clone();
        game.play(legal[pick].mv).unwrap();
        let did = G::did(
            &variant,
            &game.log()[game.log().len() - game_tail(&game, side)],
        );
        let has = |l| o.lands.contains(&l);
        assert_eq!(has(Landing::Capture), did.capture, "{o:?} {did:?}");
        assert_eq!(has(Landing::Rosette), did.rosette, "{o:?} {did:?}");
        assert_eq!(has(Landing::Swap), did.swap, "{o:?} {did:?}");
        assert_eq!(has(Landing::Home), did.home, "{o:?} {did:?}");
        assert_eq!(o.ends, did.ends, "{o:?} {did:?}");
        if did.water {
            assert!(has(Landing::Water), "{o:?} {did:?}");
        }
        seen.extend(o.lands);
    }
    seen
}

/// How far back from the log's end the ply just played lies: lost turns
/// settled after it follow it.
fn game_tail<G: RaceGame>(game: &Game<G>, side: Side) -> usize {
    let log = game.log();
    log.iter()
        .rev()
        .position(|e| e.side == side && e.mv.is_some())
        .map_or(1, |i| i + 1)
}

#[test]
fn every_offer_walks_its_route_and_lands_as_the_move_then_does() {
    let mut ur = Vec::new();
    for p in Ur::PRESETS {
        ur.extend(offers_agree::<Ur>(p.variant));
    }
    for l in [
        Landing::Enter,
        Landing::Capture,
        Landing::Rosette,
        Landing::Home,
        Landing::Again,
    ] {
        assert!(ur.contains(&l), "no Ur move landed {l:?}");
    }
    let mut senet = Vec::new();
    for p in Senet::PRESETS {
        senet.extend(offers_agree::<Senet>(p.variant));
    }
    for l in [Landing::Swap, Landing::Happiness, Landing::Home] {
        assert!(senet.contains(&l), "no Senet move landed {l:?}");
    }
}

/// Every ply of a seeded game said three ways: "You" to its own side only,
/// a capture or swap of "your piece" to the other side only.
fn said_to_each<G: RaceGame>(variant: G::Variant) -> usize {
    let mut game = Game::<G>::seeded(Seed::new("said").unwrap(), variant.clone()).unwrap();
    while !game.is_over() && game.ply() < 400 {
        let mv = game.legal()[game.ply() as usize % game.legal().len()];
        game.play(mv).unwrap();
    }
    let mut taken = 0;
    for e in game.log() {
        let said = Said::of(e.side, |voice: Voice| G::say(&variant, e, voice));
        let (own, other) = match e.side {
            Side::Light => (&said.light, &said.dark),
            Side::Dark => (&said.dark, &said.light),
        };
        let name = if e.side == Side::Light {
            "Light"
        } else {
            "Dark"
        };
        assert!(own.starts_with("You threw"), "{own}");
        assert!(other.starts_with(&format!("{name} threw")), "{other}");
        assert!(
            said.watcher.starts_with(&format!("{name} threw")),
            "{}",
            said.watcher
        );
        assert!(!said.watcher.contains("you"), "{}", said.watcher);
        for text in [own, other, &said.watcher] {
            assert!(text.ends_with('.'), "{text}");
        }
        let did = G::did(&variant, e);
        if did.capture || did.swap {
            taken += 1;
            assert!(other.contains("your piece"), "{other}");
            assert!(!own.contains("your piece"), "{own}");
            assert!(
                said.watcher
                    .contains(&format!("the {} piece", e.side.other())),
                "{}",
                said.watcher
            );
        }
        if did.capture {
            assert!(other.contains("it goes back to your hand"), "{other}");
        }
        if did.again {
            assert!(own.contains("you throw again"), "{own}");
        }
    }
    taken
}

#[test]
fn a_ply_is_said_to_its_player_to_the_other_and_to_a_watcher() {
    assert!(said_to_each::<Ur>(royal_ur::Variant::FINKEL) > 0);
    assert!(said_to_each::<Senet>(senet::Variant::KENDALL) > 0);
    assert!(said_to_each::<Ur>(royal_ur::Variant::MASTERS) > 0);
}

#[test]
fn the_rules_are_told_from_each_rule_sets_own_fields() {
    for kind in race_games::Kind::ALL {
        for_kind!(kind, G => {
            assert!(!G::ABOUT.is_empty());
            for p in G::PRESETS {
                let lines = G::how_to(&p.variant);
                let mut topics: Vec<&str> = lines.iter().map(|l| l.topic).collect();
                topics.sort_unstable();
                topics.dedup();
                assert_eq!(topics.len(), lines.len(), "{}", p.name);
                assert!(lines.iter().all(|l| l.text.ends_with('.')), "{lines:?}");
                let board = G::board(&p.variant, &<G as dice_core::Rules>::start(&p.variant, Side::Light));
                for entry in G::legend(&p.variant) {
                    for sq in &entry.squares {
                        let on = board.squares.iter().find(|s| &s.name == sq);
                        assert_eq!(on.map(|s| s.kind), Some(entry.kind), "{}: {sq}", p.name);
                    }
                }
            }
        });
    }
    let text = |lines: Vec<race_games::RuleLine>, topic: &str| {
        lines
            .into_iter()
            .find(|l| l.topic == topic)
            .map(|l| l.text)
            .unwrap_or_default()
    };
    assert!(text(Ur::how_to(&royal_ur::Variant::MASTERS), "Dice").contains("3 four-sided dice"));
    assert!(text(Ur::how_to(&royal_ur::Variant::MASTERS), "Dice").contains("counts 4"));
    assert!(text(Ur::how_to(&royal_ur::Variant::FINKEL), "Dice").contains("loses the turn"));
    assert!(text(Ur::how_to(&royal_ur::Variant::MASTERS), "Rosettes").contains("not safe"));
    assert!(text(Senet::how_to(&senet::Variant::SKYRUK), "The water").contains("stands"));
    assert!(text(Senet::how_to(&senet::Variant::KENDALL), "The water").contains("reborn"));
    assert_eq!(Senet::legend(&senet::Variant::KENDALL).len(), 6);
}
