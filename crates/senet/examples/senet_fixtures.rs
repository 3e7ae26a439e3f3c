//! Writes the recorded games of fixtures/senet/ (deterministically: bots
//! and seeded dice). The broken records beside them are written by hand.
//!
//! `cargo run -p senet --example senet_fixtures -- fixtures/senet`

use std::path::Path;

use dice_core::{Dice, Seed, Setup, Side};
use senet::{Bot, Game, Pieces, Seat, Variant};

struct Spec {
    name: &'static str,
    variant: Variant,
    first: Option<Side>,
    seat: Seat,
    /// Stop after this many plies (no result), or play to the end.
    stop: Option<u32>,
    resign: bool,
    seedless: bool,
    levels: (u8, u8),
}

fn spec(name: &'static str, variant: Variant) -> Spec {
    Spec {
        name,
        variant,
        first: None,
        seat: Seat::P1,
        stop: None,
        resign: false,
        seedless: false,
        levels: (2, 3),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "fixtures/senet".to_owned());
    let k = Variant::KENDALL;
    let s = Variant::SKYRUK;
    let k7 = k.with_pieces(Pieces::Seven);
    let s7 = s.with_pieces(Pieces::Seven);
    let stand = k.with_field("water", "stand")?;
    let ends = k
        .with_field("protect", "ends")?
        .with_field("blockade", "2")?;
    let reborn26 = s.with_field("water", "reborn")?;
    let mut specs = Vec::new();
    for (i, name) in [
        "kendall-01",
        "kendall-02",
        "kendall-03",
        "kendall-04",
        "kendall-05",
        "kendall-06",
        "kendall-07",
        "kendall-08",
    ]
    .into_iter()
    .enumerate()
    {
        specs.push(Spec {
            levels: (1 + (i % 4) as u8, 1 + ((i + 1) % 4) as u8),
            ..spec(name, k)
        });
    }
    for (i, name) in [
        "skyruk-01",
        "skyruk-02",
        "skyruk-03",
        "skyruk-04",
        "skyruk-05",
        "skyruk-06",
        "skyruk-07",
        "skyruk-08",
    ]
    .into_iter()
    .enumerate()
    {
        specs.push(Spec {
            levels: (1 + (i % 4) as u8, 1 + ((i + 2) % 4) as u8),
            ..spec(name, s)
        });
    }
    for name in ["kendall7-01", "kendall7-02", "kendall7-03", "kendall7-04"] {
        specs.push(spec(name, k7));
    }
    for name in ["skyruk7-01", "skyruk7-02", "skyruk7-03", "skyruk7-04"] {
        specs.push(spec(name, s7));
    }
    specs.push(spec("custom-water-stand", stand));
    specs.push(spec("custom-ends-2", ends));
    specs.push(spec("custom-on26-reborn", reborn26));
    for (name, v) in [
        ("dark-first-kendall", k),
        ("dark-first-skyruk", s),
        ("dark-first-kendall7", k7),
    ] {
        specs.push(Spec {
            first: Some(Side::Dark),
            ..spec(name, v)
        });
    }
    for (name, v) in [
        ("light-p2-kendall", k),
        ("light-p2-skyruk", s),
        ("light-p2-skyruk7", s7),
    ] {
        specs.push(Spec {
            seat: Seat::P2,
            ..spec(name, v)
        });
    }
    for (name, v, stop) in [
        ("resigned-kendall", k, 40),
        ("resigned-skyruk", s, 25),
        ("resigned-kendall7", k7, 60),
    ] {
        specs.push(Spec {
            stop: Some(stop),
            resign: true,
            ..spec(name, v)
        });
    }
    for (name, v, stop) in [
        ("halfway-kendall", k, 50),
        ("halfway-skyruk", s, 70),
        ("halfway-skyruk7", s7, 30),
    ] {
        specs.push(Spec {
            stop: Some(stop),
            ..spec(name, v)
        });
    }
    for (name, v) in [
        ("seedless-kendall", k),
        ("seedless-skyruk", s),
        ("seedless-kendall7", k7),
        ("seedless-custom", stand),
    ] {
        specs.push(Spec {
            seedless: true,
            ..spec(name, v)
        });
    }
    specs.push(Spec {
        seedless: true,
        stop: Some(33),
        ..spec("seedless-halfway", s)
    });
    specs.push(Spec {
        first: Some(Side::Dark),
        seat: Seat::P2,
        ..spec("dark-first-light-p2", s)
    });

    for sp in &specs {
        let mut setup = Setup::new(
            Dice::Seeded(Seed::new(format!("fixture {}", sp.name))?),
            sp.variant,
        )
        .with_extra(sp.seat);
        if let Some(first) = sp.first {
            setup = setup.with_first(first);
        }
        let mut game = Game::new(setup)?;
        let (a, b) = (
            Bot::new(Some(sp.levels.0), None)?,
            Bot::new(Some(sp.levels.1), None)?,
        );
        while let Some(side) = game.side() {
            if sp.stop.is_some_and(|n| game.ply() >= n) {
                break;
            }
            let bot = if side == Side::Light { a } else { b };
            let Some(mv) = bot.choose(&game) else { break };
            game.play(mv)?;
        }
        if sp.resign {
            game.resign(None)?;
        }
        let mut record = game.to_record();
        if sp.seedless {
            record.seed = None;
        }
        std::fs::write(
            Path::new(&dir).join(format!("{}.txt", sp.name)),
            record.to_string(),
        )?;
    }
    println!("wrote {} records to {dir}", specs.len());
    Ok(())
}
