//! Text forms: positions, keys, moves, rule sets; junk never panics.

use dice_core::{Notation, Side};
use proptest::prelude::*;
use senet::{Game, House, Move, Pieces, Position, Senet, Variant};

const K: Variant = Variant::KENDALL;
const S: Variant = Variant::SKYRUK;

#[test]
fn position_errors_name_the_first_problem() {
    for (text, code) in [
        ("", "shape"),
        ("dldldldldl/........../..........", "shape"),
        ("dldldldldl/........../.......... ", "shape"),
        ("dldldldldl/........../......... l", "shape"),
        ("dldldldldl/........../........../.......... l", "shape"),
        ("dldldldldx/........../.......... l", "character"),
        ("dldldldldx/........../.......... x", "character"),
        ("dldldldldl/........../.......... x", "side"),
        ("dldldldldl/........../.......... light", "side"),
    ] {
        assert_eq!(Position::parse(text).unwrap_err().code(), code, "{text:?}");
        assert_eq!(text.parse::<Position>().unwrap_err().code(), code);
        let json = serde_json::to_string(text).unwrap();
        assert!(serde_json::from_str::<Position>(&json).is_err(), "{text:?}");
    }
    // too many pieces and the water are the rules' question: the text
    // reads, and check gives spec §6's text refusal
    for (text, code) in [
        ("dldldldldl/l........./.......... l", "pieces"),
        ("dldldldld./........../......l... l", "water"),
    ] {
        let p = Position::parse(text).unwrap();
        let why = p.check(&K).unwrap_err();
        assert_eq!(why.code(), code, "{text:?}");
        assert_eq!(why.text_refusal().map(|k| k.code()), Some(code));
    }
    // seven pieces fit the seven-piece rules only
    let p7 = Position::start(&K.with_pieces(Pieces::Seven), Side::Light).to_string();
    assert_eq!(p7, "dldldldldl/dldl....../.......... l");
    let p7 = Position::parse(&p7).unwrap();
    assert_eq!(p7.check(&K).unwrap_err().code(), "pieces");
    assert_eq!(p7.check(&K.with_pieces(Pieces::Seven)), Ok(()));
    // skyruk allows the water
    let wet = Position::parse("dldldldld./........../......l... l").unwrap();
    assert_eq!(wet.check(&S), Ok(()));
    // other inconsistencies have no text refusal
    let both_home = Position::empty(Side::Light).check(&K).unwrap_err();
    assert_eq!(both_home.text_refusal(), None);
    // a message carries the offending text
    let err = Position::parse("nonsense").unwrap_err();
    assert!(err.to_string().contains("nonsense"));
}

#[test]
fn keys() {
    let start = Position::start(&K, Side::Light);
    // houses 1..10 alternate dark (2), light (1): each pair of houses is hex 6
    assert_eq!(start.key(&K).to_string(), "0000000000066666");
    assert_eq!(
        start.with_side(Side::Dark).key(&K).to_string(),
        "1000000000066666"
    );
    // house 30 light: bits 58..59 = 1; bound on 26 under skyruk sets bit 61
    let p = Position::parse("d........./........../.....l...l l").unwrap();
    assert_eq!(p.key(&S).bits(), (1 << 61) | (1 << 58) | (1 << 50) | 2);
    assert_eq!(p.key(&K).bits(), (1 << 58) | (1 << 50) | 2);
    // the side not to move on 26 is not bound
    let p = Position::parse("d........./........../.....d...l l").unwrap();
    assert_eq!(p.key(&S).bits() >> 61, 0);
    assert_eq!(p.check(&S).unwrap_err().code(), "on26");
    assert_eq!(p.check(&K), Ok(()));
    assert_eq!(
        p.check(&S),
        Err(senet::Inconsistency::On26 { side: Side::Dark })
    );
    assert_eq!(p.check(&S).unwrap_err().code(), "on26");
}

#[test]
fn positions_that_cannot_occur_are_named() {
    let empty = Position::empty(Side::Light);
    assert_eq!(empty.check(&K), Err(senet::Inconsistency::BothHome));
    // Built piece by piece, a position can hold more than the rules give,
    // or stand in the water under kendall: the checks the parser makes.
    let mut six = Position::empty(Side::Light);
    for house in &House::ALL[..6] {
        six = six.with_piece(*house, Some(Side::Dark));
    }
    assert_eq!(
        six.check(&K),
        Err(senet::Inconsistency::Pieces {
            side: Side::Dark,
            count: 6,
            pieces: 5
        })
    );
    let wet = Position::empty(Side::Light).with_piece(House::WATER, Some(Side::Light));
    assert_eq!(wet.check(&K).unwrap_err().code(), "water");
    assert_eq!(wet.check(&S), Ok(()));
}

#[test]
fn moves() {
    for text in [
        "1-2", "12-15", "15-12", "26-27", "28-off", "30-off", "25-26",
    ] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    for (text, code) in [
        ("", "empty"),
        ("12", "shape"),
        ("1-2-3", "shape"),
        ("12-15x", "house"),
        ("0-3", "house"),
        ("31-off", "house"),
        ("05-8", "house"),
        ("off-3", "house"),
        ("12-OFF", "house"),
        (" 1-2", "house"),
        ("4-4", "still"),
    ] {
        assert_eq!(text.parse::<Move>().unwrap_err().code(), code, "{text:?}");
    }
    let json = serde_json::to_string(&"26-28".parse::<Move>().unwrap()).unwrap();
    assert_eq!(json, "\"26-28\"");
}

#[test]
fn rule_sets() {
    assert_eq!(
        K.spelled_out(),
        "protect=all blockade=3 reach26=exact on26=none water=reborn off30=one pieces=5"
    );
    assert_eq!(
        S.spelled_out(),
        "protect=ends blockade=2 reach26=from25 on26=again water=stand off30=any pieces=5"
    );
    assert_eq!(Senet::spelled_out(&S), S.spelled_out());
    // spelled out, a named set reads back as the named set
    assert_eq!(Variant::from_rules_line(&S.spelled_out()).unwrap(), S);
    assert_eq!(
        Variant::from_rules_line(&S.spelled_out())
            .unwrap()
            .to_string(),
        "skyruk"
    );
    assert_eq!(S.with_pieces(Pieces::Seven).name(), None);
    for (text, code) in [
        ("Kendall", "unknown_name"),
        ("", "unknown_name"),
        ("protect=all", "rules"),
        (
            "blockade=3 protect=all reach26=exact on26=none water=reborn off30=one pieces=5",
            "rules",
        ),
        (
            "protect=all blockade=4 reach26=exact on26=none water=reborn off30=one pieces=5",
            "bad_value",
        ),
        (
            "protect=all blockade=3 reach26=exact on26=none water=reborn off30=one pieces=6",
            "bad_value",
        ),
        (
            "protect=all blockade=3 reach26=exact on26=none water=reborn off30=one pieces=5 colour=red",
            "unknown_field",
        ),
        (
            "protect=all blockade=3 reach26=exact on26=none water=reborn off30=one pieces=5 pieces=5",
            "rules",
        ),
        (
            "protect=all  blockade=3 reach26=exact on26=none water=reborn off30=one pieces=5",
            "rules",
        ),
    ] {
        assert_eq!(
            Variant::from_rules_line(text).unwrap_err().code(),
            code,
            "{text:?}"
        );
    }
    // What a person writes is read by FromStr, as the command line reads
    // it, where the record's reader refuses it.
    for (text, v) in [
        ("pieces=7", K.with_pieces(Pieces::Seven)),
        (
            "off30=any water=stand on26=again reach26=from25 blockade=2 protect=ends",
            S,
        ),
    ] {
        assert!(Variant::from_rules_line(text).is_err(), "{text}");
        assert_eq!(text.parse::<Variant>(), Ok(v), "{text}");
        assert_eq!(Variant::parse_lenient(text), Ok(v), "{text}");
    }
    assert!(
        Variant::KENDALL
            .with_field("pieces", "9")
            .unwrap_err()
            .to_string()
            .contains("\"9\"")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn junk_never_panics(text in "\\PC{0,40}") {
        let _ = text.parse::<Move>();
        let _ = text.parse::<Variant>();
        let _ = Variant::from_rules_line(&text);
        let _ = Position::parse(&text);
        let _ = Game::replay_text(&text, None);
    }

    #[test]
    fn near_positions_never_panic(text in "[ld./ ]{30,36}") {
        if let Ok(p) = Position::parse(&text) {
            prop_assert_eq!(Position::parse(&p.to_string()).unwrap(), p);
        }
    }

    #[test]
    fn near_records_never_panic(lines in proptest::collection::vec("[0-9]{1,2}\\. [ld] [0-5]( [01]{4})?: ([0-9]{1,2}-([0-9]{1,2}|off)|-)", 0..12)) {
        let text = format!("[rules skyruk]\n[first light]\n{}\n", lines.join("\n"));
        let _ = Game::replay_text(&text, None);
    }
}
