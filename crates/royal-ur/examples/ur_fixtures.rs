//! Writes the record fixtures of `fixtures/royal-ur/`: games played by this
//! engine from fixed seeds, and broken records derived from them.
//!
//! ```text
//! cargo run -p royal-ur --example ur_fixtures [DIR]
//! ```
//!
//! The output is deterministic: running it again writes the same bytes.

#![allow(
    clippy::indexing_slicing,
    reason = "an example indexes what it has just made, such as a list of legal moves that is never empty while a game goes on"
)]

use std::error::Error;
use std::fs;
use std::path::PathBuf;

use dice_core::{Dice, Seed, Setup, Side};
use royal_ur::{Bot, Game, Ur, Variant, greedy};

/// How a fixture game picks its moves.
#[derive(Clone, Copy)]
enum Policy {
    First,
    Last,
    Greedy,
    Bot(u8),
}

fn play(game: &mut Game, policy: Policy, max_plies: Option<u32>) -> Result<(), Box<dyn Error>> {
    while !game.is_over() && max_plies.is_none_or(|m| game.ply() < m) {
        let legal = game.legal().to_vec();
        let mv = match policy {
            Policy::First => legal[0],
            Policy::Last => legal[legal.len() - 1],
            Policy::Greedy => legal[greedy(game.position(), &legal).ok_or("no move")?],
            Policy::Bot(level) => Bot::new(Some(level), Some(20_000))?
                .choose(game)
                .ok_or("no move")?,
        };
        game.play(mv)?;
    }
    Ok(())
}

fn new_game(seed: &str, variant: Variant, first: Option<Side>) -> Result<Game, Box<dyn Error>> {
    let mut setup = Setup::<Ur>::new(Dice::Seeded(Seed::new(seed)?), variant);
    if let Some(side) = first {
        setup = setup.with_first(side);
    }
    Ok(Game::new(setup)?)
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/royal-ur"),
        PathBuf::from,
    );
    let broken_dir = dir.join("broken");
    fs::create_dir_all(&broken_dir)?;
    let mut written = 0;
    let mut write = |name: &str, text: &str| -> Result<(), Box<dyn Error>> {
        fs::write(dir.join(format!("{name}.txt")), text)?;
        written += 1;
        Ok(())
    };

    let policies = [
        ("first", Policy::First),
        ("last", Policy::Last),
        ("greedy", Policy::Greedy),
        ("bot2", Policy::Bot(2)),
    ];
    let long_safe = Variant::custom([("route", "long")])?;
    let three = Variant::custom([("pieces", "3")])?;
    let dice3 = Variant::custom([("dice", "3")])?;
    let five_unsafe = Variant::custom([("pieces", "5"), ("safe_rosettes", "0")])?;
    let long_three_zero4 =
        Variant::custom([("route", "long"), ("pieces", "3"), ("zero_rolls", "4")])?;
    let murray_three_dice = Variant::parse_lenient("path=murray dice=3 pieces=4")?;
    let skiriuk_capture = Variant::parse_lenient("path=skiriuk capture_again=1")?;
    let sets = [
        ("finkel", Variant::FINKEL, 4),
        ("masters", Variant::MASTERS, 4),
        ("long-safe", long_safe, 2),
        ("three-pieces", three, 2),
        ("three-dice", dice3, 1),
        ("five-unsafe", five_unsafe, 1),
        ("long-three-zero4", long_three_zero4, 1),
        ("blitz", Variant::BLITZ, 1),
        ("aseb", Variant::ASEB, 1),
        ("finkel2p", Variant::FINKEL2P, 1),
        ("masters4d", Variant::MASTERS4D, 1),
        ("murray-three-dice", murray_three_dice, 1),
        ("skiriuk-capture", skiriuk_capture, 1),
    ];
    let mut finished = Vec::new();
    for (set, variant, rounds) in sets {
        for round in 0..rounds {
            for (pname, policy) in policies {
                // Always entering a new piece makes games on the paths that
                // come back down the middle lane run to thousands of plies
                // of pieces sent back (murray's with four pieces: 13,000);
                // the other three policies show those paths well enough.
                if matches!(policy, Policy::First) && variant.path().revisits() {
                    continue;
                }
                // Every other game names its first side; the rest throw for it.
                let named = (round + pname.len()) % 2 == 0;
                let first = named.then_some(if round % 2 == 0 {
                    Side::Light
                } else {
                    Side::Dark
                });
                let seed = format!("fixture {set} {round} {pname}");
                let mut game = new_game(&seed, variant, first)?;
                play(&mut game, policy, None)?;
                let text = game.to_record().to_string();
                let tag = if named { "first" } else { "opening" };
                write(&format!("{set}-{round}-{pname}-{tag}"), &text)?;
                finished.push(text);
            }
        }
    }

    // A resigned game, by each side.
    for (i, side) in Side::ALL.into_iter().enumerate() {
        let mut game = new_game(&format!("fixture resign {i}"), Variant::FINKEL, None)?;
        play(&mut game, Policy::Greedy, Some(30 + 10 * i as u32))?;
        game.resign(Some(side))?;
        write(
            &format!("resigned-by-{side}"),
            &game.to_record().to_string(),
        )?;
    }
    // Games stopped halfway, with no result.
    for (i, variant) in [Variant::FINKEL, Variant::MASTERS].into_iter().enumerate() {
        let mut game = new_game(&format!("fixture halfway {i}"), variant, None)?;
        play(&mut game, Policy::Last, Some(60))?;
        write(
            &format!("halfway-{}", variant.name().unwrap_or("custom")),
            &game.to_record().to_string(),
        )?;
    }
    // Real-dice records (no seed): one with faces, one with rolls only, and
    // one cut halfway.
    for (name, keep_faces, cut) in [
        ("with-faces", true, None),
        ("rolls-only", false, None),
        ("halfway", true, Some(40)),
    ] {
        let mut game = new_game(
            &format!("fixture real {name}"),
            Variant::FINKEL,
            Some(Side::Dark),
        )?;
        play(&mut game, Policy::Greedy, cut)?;
        let mut record = game.to_record();
        record.seed = None;
        record.opening = 0;
        if !keep_faces {
            for turn in &mut record.turns {
                turn.faces = None;
            }
        }
        write(&format!("seedless-{name}"), &record.to_string())?;
    }
    // A named rule set spelled out in full keeps its spelling.
    let mut game = new_game("fixture spelled out", Variant::FINKEL, None)?;
    play(&mut game, Policy::First, None)?;
    let mut record = game.to_record();
    record.spelled_out = true;
    write("finkel-spelled-out", &record.to_string())?;

    // Broken records, each derived from a good one by one change.
    let base = finished.first().ok_or("no finished game")?.clone();
    let seedless = fs::read_to_string(dir.join("seedless-rolls-only.txt"))?;
    let line_of = |text: &str, n: usize| text.lines().nth(n).unwrap_or_default().to_owned();
    // The first turn line from the fifth on that has a move.
    let turn_line = |text: &str| {
        text.lines()
            .position(|l| {
                l.split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok_and(|n| n >= 5))
                    && !l.ends_with(": -")
            })
            .unwrap_or(4)
    };
    let replace_line = |text: &str, n: usize, new: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        if let Some(l) = lines.get_mut(n) {
            *l = new.to_owned();
        }
        lines.join("\n") + "\n"
    };
    let t = turn_line(&base);
    let fifth = line_of(&base, t);
    let mut broken: Vec<(String, String)> = Vec::new();
    // Wrong roll (the seed says otherwise), with faces that agree with it.
    let wrong_roll = {
        let (number, rest) = fifth.split_once(". ").unwrap_or_default();
        let side = rest.split(' ').next().unwrap_or("l");
        let roll = rest.split(' ').nth(1).unwrap_or("0");
        let mv = rest.split_once(": ").map_or("-", |(_, m)| m);
        let (new_roll, new_faces) = if roll == "1" {
            ("2", "1100")
        } else {
            ("1", "1000")
        };
        format!("{number}. {side} {new_roll} {new_faces}: {mv}")
    };
    broken.push(("wrong-roll".into(), replace_line(&base, t, &wrong_roll)));
    // Wrong side.
    let wrong_side = if fifth.contains(" l ") {
        fifth.replacen(" l ", " d ", 1)
    } else {
        fifth.replacen(" d ", " l ", 1)
    };
    broken.push(("wrong-side".into(), replace_line(&base, t, &wrong_side)));
    // Three faces in a four-dice game.
    let short_faces = match fifth.split_once(": ") {
        Some((a, b)) => format!("{}: {b}", &a[..a.len() - 1]),
        None => fifth.clone(),
    };
    broken.push(("bad-faces".into(), replace_line(&base, t, &short_faces)));
    // Turn numbers that skip.
    let skipped = match fifth.split_once(". ") {
        Some((n, rest)) => format!("{}. {rest}", n.parse::<u32>().unwrap_or(0) + 1),
        None => fifth.clone(),
    };
    broken.push(("bad-number".into(), replace_line(&base, t, &skipped)));
    // An uppercase move.
    let upper = match fifth.split_once(": ") {
        Some((a, b)) => format!("{a}: {}", b.to_uppercase()),
        None => fifth.clone(),
    };
    broken.push(("uppercase-move".into(), replace_line(&base, t, &upper)));
    // Truncated in the middle of a line.
    broken.push(("truncated".into(), base[..base.len() / 2].to_owned()));
    // A result line that does not match (the last turn dropped).
    let mut lines: Vec<&str> = base.lines().collect();
    let result = lines.pop().unwrap_or_default();
    lines.pop();
    lines.push(result);
    broken.push(("result-early".into(), lines.join("\n") + "\n"));
    // A turn after the result.
    broken.push((
        "after-result".into(),
        format!("{base}{}. l 1 1000: hand-d1\n", base.lines().count()),
    ));
    // Bad headers.
    broken.push((
        "bad-rules".into(),
        base.replacen("[rules finkel]", "[rules bell]", 1),
    ));
    broken.push(("bad-first".into(), replace_line(&base, 1, "[first grey]")));
    broken.push(("uppercase-seed".into(), {
        let seed_line = line_of(&base, 2);
        replace_line(
            &base,
            2,
            &seed_line.to_uppercase().replace("[SEED", "[seed"),
        )
    }));
    broken.push(("odd-opening".into(), {
        let mut lines: Vec<String> = base.lines().map(str::to_owned).collect();
        match lines.iter().position(|l| l.starts_with("[opening ")) {
            Some(i) => lines[i] = "[opening 3]".into(),
            None => lines.insert(3, "[opening 3]".into()),
        }
        lines.join("\n") + "\n"
    }));
    // An illegal move in a real-dice record: the first move sent one step too far.
    let st = turn_line(&seedless);
    let mut illegal = seedless.clone();
    for i in 0..st + 20 {
        let l = line_of(&seedless, i);
        if l.contains(": hand-") {
            let (head, _) = l.split_once(": ").unwrap_or_default();
            let bumped = format!("{head}: hand-a2");
            illegal = replace_line(&seedless, i, &bumped);
            break;
        }
    }
    broken.push(("illegal-move".into(), illegal));
    // A real-dice record that loses a turn where there was a move to make.
    let mut forfeit = seedless.clone();
    for i in 0..seedless.lines().count() {
        let l = line_of(&seedless, i);
        if l.contains(": hand-") {
            let cut = l.split(": ").next().unwrap_or_default();
            forfeit = replace_line(&seedless, i, &format!("{cut}: -"));
            break;
        }
    }
    broken.push(("needless-forfeit".into(), forfeit));
    // A good finkel record that is replayed under masters (see the test).
    broken.push(("as-masters".into(), base.clone()));
    for (name, text) in &broken {
        fs::write(broken_dir.join(format!("{name}.txt")), text)?;
    }
    println!(
        "wrote {written} records and {} broken ones to {}",
        broken.len(),
        dir.display()
    );
    Ok(())
}
