//! Speed figures, printed (never asserted): complete random-move finkel
//! games through the seeded `Game` API, and raw legal-move generation on
//! (position, roll) pairs taken from real games.
//!
//! ```text
//! cargo bench -p royal-ur --bench speed
//! ```

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a benchmark stops at the first thing that goes wrong"
)]

use std::hint::black_box;
use std::time::Instant;

use dice_core::{MoveList, Seed, Xorshift};
use royal_ur::{Game, Move, Position, Variant};

/// Nanoseconds this thread has run on a CPU (Linux), so that figures on a
/// shared, loaded machine can be read per core; `None` elsewhere.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Wall-clock seconds and on-CPU seconds since the marks.
struct Clock {
    wall: Instant,
    cpu: Option<u64>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: cpu_ns(),
        }
    }

    /// (wall seconds, CPU seconds if known)
    fn read(&self) -> (f64, Option<f64>) {
        let wall = self.wall.elapsed().as_secs_f64();
        let cpu = self.cpu.zip(cpu_ns()).map(|(a, b)| (b - a) as f64 / 1e9);
        (wall, cpu)
    }
}

/// `rate` per wall second, and per CPU second when known.
fn rates(amount: f64, clock: &Clock, unit: f64) -> String {
    let (wall, cpu) = clock.read();
    let mut out = format!("{:.2} per wall second ({wall:.3} s)", amount / wall / unit);
    if let Some(cpu) = cpu {
        out += &format!(
            ", {:.2} per CPU second ({cpu:.3} s on CPU)",
            amount / cpu / unit
        );
    }
    out
}

fn games(count: u32, rng: &mut Xorshift, mut each: impl FnMut(&Game)) -> u64 {
    let mut plies = 0;
    for n in 0..count {
        let seed = Seed::new(n.to_le_bytes()).unwrap_or_else(|_| unreachable!());
        let mut game = Game::seeded(seed, Variant::FINKEL).unwrap_or_else(|e| panic!("{e}"));
        while !game.is_over() {
            each(&game);
            let legal = game.legal();
            let mv = legal[rng.below(legal.len())];
            if let Err(e) = game.play(mv) {
                panic!("{e}");
            }
        }
        plies += u64::from(game.ply());
    }
    plies
}

fn main() {
    // Complete games through the Game API.
    let mut rng = Xorshift::new(1);
    games(200, &mut rng, |_| {});
    let count = 20_000;
    let clock = Clock::start();
    let plies = games(count, &mut rng, |_| {});
    println!(
        "games: {count} random-move finkel games ({:.1} plies a game): thousand games {}",
        plies as f64 / f64::from(count),
        rates(f64::from(count), &clock, 1e3)
    );

    // The dice alone, for comparison: one SHA-256 per throw.
    let seed = Seed::new("speed").unwrap_or_else(|_| unreachable!());
    let throws = 2_000_000u64;
    let clock = Clock::start();
    let mut acc = 0u8;
    for n in 0..throws {
        acc ^= dice_core::throw_bits(black_box(&seed), n);
    }
    black_box(acc);
    println!(
        "dice: {throws} throws: million throws {}",
        rates(throws as f64, &clock, 1e6)
    );

    // (position, roll) pairs from real games.
    let mut pairs: Vec<(Position, u8)> = Vec::new();
    games(2_000, &mut Xorshift::new(2), |g| {
        if let Some(roll) = g.roll() {
            pairs.push((*g.position(), roll));
        }
    });
    // Add the rolls that forfeit as well, so that every roll is asked.
    let extra: Vec<(Position, u8)> = pairs.iter().map(|&(p, r)| (p, (r % 4) + 1)).collect();
    pairs.extend(extra);
    let variant = Variant::FINKEL;
    let mut out = MoveList::<Move>::new();
    let rounds = 40;
    let mut total = 0usize;
    let clock = Clock::start();
    for _ in 0..rounds {
        for (pos, roll) in &pairs {
            black_box(pos).legal_into(&variant, black_box(*roll), &mut out);
            total += out.len();
        }
    }
    let calls = pairs.len() * rounds;
    println!(
        "legal (finkel): {calls} calls on {} (position, roll) pairs, {:.2} moves a call: million calls {}",
        pairs.len(),
        total as f64 / calls as f64,
        rates(calls as f64, &clock, 1e6)
    );

    let masters = Variant::MASTERS;
    let clock = Clock::start();
    let mut total = 0usize;
    for _ in 0..rounds {
        for (pos, roll) in &pairs {
            black_box(pos).legal_into(&masters, black_box(*roll), &mut out);
            total += out.len();
        }
    }
    println!(
        "legal (same pairs under masters), {:.2} moves a call: million calls {}",
        total as f64 / calls as f64,
        rates(calls as f64, &clock, 1e6)
    );
}
