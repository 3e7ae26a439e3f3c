//! `race bench`: engine speed on this machine. It prints figures and
//! asserts nothing.

use std::time::{Duration, Instant};

use dice_core::{Game, MoveList, Seed};

use race_games::RaceGame;

/// One rule set's figures.
pub struct Figures {
    /// Complete games played.
    pub games: u64,
    /// Plies in them.
    pub plies: u64,
    /// Seconds spent on games.
    pub game_secs: f64,
    /// Move generations made.
    pub gens: u64,
    /// Seconds spent on move generation.
    pub gen_secs: f64,
}

/// Plays seeded games for about `budget` (a cheap, fixed choice of move,
/// so the figure is the engine's and not a bot's), then generates moves for
/// the positions those games met for about as long.
pub fn measure<G: RaceGame>(variant: &G::Variant, budget: Duration) -> Figures {
    let mut samples: Vec<(G::Position, u8)> = Vec::new();
    let (mut games, mut plies) = (0u64, 0u64);
    let start = Instant::now();
    while games == 0 || start.elapsed() < budget {
        let Ok(seed) = Seed::new(games.to_le_bytes()) else {
            break;
        };
        let Ok(mut game) = Game::<G>::seeded(seed, variant.clone()) else {
            break;
        };
        while !game.is_over() {
            let legal = game.legal();
            if legal.is_empty() {
                break;
            }
            let pick = (game.ply() as usize * 7 + game.throws() as usize) % legal.len();
            let mv = legal[pick];
            if samples.len() < 50_000
                && let Some(roll) = game.roll()
            {
                samples.push((*game.position(), roll));
            }
            if game.play(mv).is_err() {
                break;
            }
        }
        plies += u64::from(game.ply());
        games += 1;
    }
    let game_secs = start.elapsed().as_secs_f64();
    let mut list = MoveList::new();
    let mut gens = 0u64;
    let mut sink = 0usize;
    let start = Instant::now();
    while !samples.is_empty() && (gens == 0 || start.elapsed() < budget) {
        for (position, roll) in &samples {
            G::legal(variant, position, *roll, &mut list);
            sink = sink.wrapping_add(list.len());
        }
        gens += samples.len() as u64;
    }
    std::hint::black_box(sink);
    Figures {
        games,
        plies,
        game_secs,
        gens,
        gen_secs: start.elapsed().as_secs_f64(),
    }
}

/// The report for each of a game's reference rule sets.
pub fn report<G: RaceGame>(budget: Duration) -> String {
    let mut out = String::new();
    for preset in G::PRESETS.iter().filter(|p| p.reference) {
        let variant = &preset.variant;
        let f = measure::<G>(variant, budget);
        let per = |n: u64, s: f64| if s > 0.0 { n as f64 / s } else { 0.0 };
        out.push_str(&format!(
            "{} {variant}: {:.0} games/s ({} games, {:.1} plies a game), {:.0} move generations/s\n",
            G::GAME,
            per(f.games, f.game_secs),
            f.games,
            if f.games > 0 { f.plies as f64 / f.games as f64 } else { 0.0 },
            per(f.gens, f.gen_secs),
        ));
    }
    out
}
