//! For every rule set, presets and random custom ones: the moves listed are
//! exactly the moves `play` accepts, every other FROM-TO is refused with the
//! code the rules text gives, and an accepted move hands the turn on as the
//! switches say.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::{Xorshift, oracle, oracle_refusal, places_on, random_position};
use dice_core::{Side, Status};
use proptest::prelude::*;
use royal_ur::{Move, Path, Refusal, Variant};

/// A rule set: one of the presets, or any custom combination of path, dice,
/// what a throw of nothing is worth, the three switches and the pieces.
fn any_variant() -> impl Strategy<Value = Variant> {
    let preset = (0..Variant::PRESETS.len()).prop_map(|i| Variant::PRESETS[i].1);
    let custom = (
        0..Path::ALL.len(),
        1u8..=8,
        0u8..3,
        any::<[bool; 3]>(),
        1u8..=7,
    )
        .prop_map(|(path, dice, zero, [safe, rosette, capture], pieces)| {
            let zero = match zero {
                0 => 0,
                1 => dice + 1,
                _ if dice == 4 => 4,
                _ => 0,
            };
            Variant::FINKEL
                .with_path(Path::ALL[path])
                .with_dice(dice, zero)
                .and_then(|v| v.with_pieces(pieces))
                .unwrap()
                .with_safe_rosettes(safe)
                .with_rosette_again(rosette)
                .with_capture_again(capture)
        });
    prop_oneof![preset, custom]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn the_moves_listed_are_the_moves_played(
        variant in any_variant(),
        seed in any::<u64>(),
        anywhere in any::<bool>(),
    ) {
        let mut rng = Xorshift::new(seed | 1);
        let p = random_position(&mut rng, &variant, anywhere);
        prop_assume!(p.status(&variant) == Status::Ongoing);
        let places = places_on(variant.board());
        for roll in 0..=variant.roll_limit() {
            let legal = p.legal(&variant, roll);
            let texts: Vec<String> = legal.iter().map(Move::to_string).collect();
            prop_assert_eq!(&texts, &oracle(&variant, &p, roll), "{} {} roll {}", variant, p, roll);
            for &from in &places {
                for &to in &places {
                    // Moves to the hand are not moves at all.
                    let Ok(mv) = Move::new(from, to) else { continue };
                    match p.play(&variant, roll, mv) {
                        Ok((next, flags)) => {
                            prop_assert!(legal.contains(&mv), "{} {} {} {}", variant, p, roll, mv);
                            let again = (flags.rosette && variant.rosette_again())
                                || (flags.captures && variant.capture_again());
                            let side = if again { p.side() } else { p.side().other() };
                            prop_assert_eq!(next.side(), side, "{} {} {} {}", variant, p, roll, mv);
                            prop_assert_eq!(flags.home, to == royal_ur::Place::Home);
                            prop_assert!(next.check(&variant).is_ok() || p.check(&variant).is_err());
                        }
                        Err(refusal) => {
                            prop_assert!(!legal.contains(&mv), "{} {} {} {}", variant, p, roll, mv);
                            prop_assert_eq!(
                                refusal.code(),
                                oracle_refusal(&variant, &p, roll, mv),
                                "{} {} roll {} {}", variant, p, roll, mv
                            );
                            if roll >= 1 {
                                prop_assert_ne!(refusal, Refusal::BadMove, "{} {} {} {}", variant, p, roll, mv);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_lost_turn_passes_under_every_switch() {
    let mut rng = Xorshift::new(5);
    for (_, variant) in Variant::PRESETS {
        let p = random_position(&mut rng, &variant, false);
        assert_eq!(p.forfeit(&variant).side(), p.side().other());
        assert_eq!(
            p.with_side(Side::Dark).forfeit(&variant).side(),
            Side::Light
        );
    }
}
