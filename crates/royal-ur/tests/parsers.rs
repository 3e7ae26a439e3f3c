//! Parsers never panic on any input, and their canonical forms read back.

use dice_core::Record;
use proptest::prelude::*;
use royal_ur::{Move, Position, Square, Ur, Variant};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn position_reader_never_panics_and_round_trips(text in "[lxd0-9/ LDX]{0,50}") {
        if let Ok(p) = Position::parse(&text) {
            let written = p.to_string();
            prop_assert!(written.len() <= 36);
            prop_assert_eq!(Position::parse(&written), Ok(p));
        }
    }

    #[test]
    fn position_reader_takes_any_text(text in "\\PC{0,60}") {
        let _ = Position::parse(&text);
    }

    #[test]
    fn move_parser_never_panics_and_writes_lowercase(text in "(?i)(hand|home|[a-i][0-4]|x|-){0,4}") {
        if let Ok(mv) = text.parse::<Move>() {
            let canonical = mv.to_string();
            prop_assert_eq!(canonical.to_lowercase(), text.to_lowercase());
            prop_assert_eq!(canonical.parse::<Move>(), Ok(mv));
        }
    }

    #[test]
    fn other_parsers_take_any_text(text in "\\PC{0,80}") {
        let _ = text.parse::<Move>();
        let _ = text.parse::<Square>();
        let _ = text.parse::<Variant>();
        let _ = Variant::from_rules_line(&text);
        let _ = Record::<Ur>::parse(&text);
    }

    #[test]
    fn records_with_noise_never_panic(cut in 0usize..400, junk in "[ -~\\n]{0,8}") {
        let text = "[rules finkel]\n[first light]\n[seed 5f1c9a]\n1. l 2 1100: hand-c1\n2. d 1 1000: hand-d3\n";
        let cut = cut.min(text.len());
        let noisy = format!("{}{junk}{}", &text[..cut], &text[cut..]);
        let _ = royal_ur::Game::replay_text(&noisy, None);
    }
}
