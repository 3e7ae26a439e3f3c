//! Table files: round trip, lookups, and every kind of damage refused.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::path::PathBuf;

use royal_ur::{Path, Variant};
use ur_solve::{
    Index, Solution, SolveOptions, Table, TableError, ValueType, WinChances, best_move,
    move_values, solve, write_table,
};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ur-solve-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn solved(pieces: u8) -> Solution {
    let v = Variant::FINKEL.with_pieces(pieces).unwrap();
    solve(&v, &SolveOptions::default(), |_| {}).unwrap()
}

#[test]
fn round_trip_in_both_value_types() {
    let sol = solved(2);
    for (vt, tol) in [(ValueType::F64, 0.0), (ValueType::F32, 1e-7)] {
        let path = temp(&format!("two.{}", vt.as_str()));
        write_table(&sol, vt, &path).unwrap();
        let table = Table::open(&path).unwrap();
        assert_eq!(table.value_type(), vt);
        assert_eq!(table.count(), sol.index().len());
        assert_eq!(table.variant(), sol.variant());
        for i in 0..sol.index().len() {
            assert!((table.value_at(i) - sol.value_at(i)).abs() <= tol, "{i}");
        }
        let ix = Index::new(sol.variant()).unwrap();
        let pos = ix.position(ix.unrank(1234).unwrap(), dice_core::Side::Dark);
        assert!((table.win_chance(&pos).unwrap() - sol.win_chance(&pos).unwrap()).abs() <= tol);
        assert_eq!(table.value_at(table.count()), 0.0);
        std::fs::remove_file(&path).unwrap();
    }
}

fn damaged(name: &str, damage: impl FnOnce(&mut Vec<u8>)) -> TableError {
    let path = temp(name);
    write_table(&solved(1), ValueType::F64, &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    damage(&mut bytes);
    std::fs::write(&path, &bytes).unwrap();
    let err = Table::open(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    err
}

#[test]
fn a_flipped_value_bit_is_a_checksum_error() {
    let err = damaged("flip", |b| {
        let last = b.len() - 3;
        b[last] ^= 0x10;
    });
    assert_eq!(err.code(), "checksum", "{err}");
}

#[test]
fn a_cut_file_is_truncated() {
    let err = damaged("cut", |b| b.truncate(b.len() - 8));
    assert_eq!(err.code(), "truncated", "{err}");
    let err = damaged("long", |b| b.push(0));
    assert_eq!(err.code(), "truncated", "{err}");
    let err = damaged("stub", |b| b.truncate(20));
    assert_eq!(err.code(), "header", "{err}");
}

#[test]
fn header_damage_is_named() {
    assert_eq!(damaged("magic", |b| b[0] = b'X').code(), "not_a_table");
    assert_eq!(damaged("version", |b| b[8] = 9).code(), "version");
    assert_eq!(damaged("vtype", |b| b[12] = 5).code(), "header");
    assert_eq!(damaged("count", |b| b[16] ^= 1).code(), "header");
    // pieces=1 → pieces=2 in the rules text: the count no longer fits.
    let err = damaged("rules", |b| {
        let at = b.windows(8).position(|w| w == b"pieces=1").unwrap();
        b[at + 7] = b'2';
    });
    assert_eq!(err.code(), "header", "{err}");
    // safe_rosettes=1 → 0 keeps the count: the checksum catches it.
    let err = damaged("safe", |b| {
        let at = b.windows(15).position(|w| w == b"safe_rosettes=1").unwrap();
        b[at + 14] = b'0';
    });
    assert_eq!(err.code(), "checksum", "{err}");
}

/// Each rule set's table is read at its own format version only: a table
/// of the murray or skiriuk path at version 1 (whose states were numbered
/// in another order) is refused, and so is a finkel table claiming
/// version 2.
#[test]
fn a_table_is_read_at_its_rule_set_s_version_only() {
    let skiriuk = Variant::FINKEL
        .with_path(Path::Skiriuk)
        .with_pieces(1)
        .unwrap();
    let sol = solve(&skiriuk, &SolveOptions::default(), |_| {}).unwrap();
    let path = temp("skiriuk-version");
    write_table(&sol, ValueType::F64, &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(bytes[8..12], 2u32.to_le_bytes());
    assert!(Table::open(&path).is_ok());
    bytes[8] = 1;
    std::fs::write(&path, &bytes).unwrap();
    let err = Table::open(&path).unwrap_err();
    assert_eq!(err.code(), "version", "{err}");
    assert!(err.to_string().contains("version 1"), "{err}");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(damaged("finkel-at-two", |b| b[8] = 2).code(), "version");
    assert_eq!(damaged("version-zero", |b| b[8] = 0).code(), "version");
}

#[test]
fn wrong_rules_and_missing_files_are_clear() {
    let path = temp("one");
    write_table(&solved(1), ValueType::F32, &path).unwrap();
    let err = Table::open_for(&path, &Variant::FINKEL).unwrap_err();
    assert_eq!(err.code(), "wrong_rules");
    assert!(err.to_string().contains("pieces=1"));
    assert!(Table::open_for(&path, &Variant::FINKEL.with_pieces(1).unwrap()).is_ok());
    std::fs::remove_file(&path).unwrap();
    let err = Table::open(&temp("nothing-here")).unwrap_err();
    assert_eq!(err.code(), "missing");
    assert!(matches!(err, TableError::Missing(_)));
}

/// A 2-byte table: every value within half a step (1/131,070) of the
/// f64 solve, the start's value RoyalUr's 33985 for 2-piece finkel, the
/// size a quarter of f64's (and the choices), a flipped bit refused.
#[test]
fn two_byte_round_trip() {
    let sol = solved(2);
    let path = temp("two.p16");
    let written = write_table(&sol, ValueType::P16, &path).unwrap();
    let table = Table::open(&path).unwrap();
    assert_eq!(table.value_type(), ValueType::P16);
    assert_eq!(table.count(), sol.index().len());
    assert_eq!(written.bytes, std::fs::metadata(&path).unwrap().len());
    assert_eq!(written.choices, table.choice_count() as u64);
    let half_step = 0.5 / 65535.0 + 1e-12;
    let mut worst = 0.0f64;
    for i in 0..sol.index().len() {
        let (p16, f64) = (table.value_at(i), sol.value_at(i));
        assert_eq!(ur_solve::to_p16(p16), ur_solve::to_p16(f64), "{i}");
        worst = worst.max((p16 - f64).abs());
    }
    assert!(worst <= half_step, "{worst}");
    assert!(worst > half_step / 2.0, "{worst}");
    assert_eq!(worst, written.worst_error);
    let start = royal_ur::Position::start(sol.variant(), dice_core::Side::Light);
    let start_value = table.win_chance(&start).unwrap();
    assert_eq!(ur_solve::to_p16(start_value), 33985);
    assert!(written.bytes <= 2 * table.count() + 136 + 8 * written.choices + 8);
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Table::open(&path).unwrap_err().code(), "checksum");
    std::fs::remove_file(&path).unwrap();
}

/// A 2-byte table is refused at another format version (an f32 table's
/// version 1, or a newer one), under other rules (named), and when a
/// choice is out of order or past the last state; an f32 table claiming
/// the 2-byte version is refused too.
#[test]
fn two_byte_tables_refuse_other_versions_and_rules() {
    for pieces in [2, 3] {
        let sol = solved(pieces);
        let path = temp(&format!("refuse{pieces}.p16"));
        write_table(&sol, ValueType::P16, &path).unwrap();
        let good = std::fs::read(&path).unwrap();
        assert_eq!(good[8..12], 3u32.to_le_bytes());
        for version in [1u8, 2, 4] {
            let mut bytes = good.clone();
            bytes[8] = version;
            std::fs::write(&path, &bytes).unwrap();
            let err = Table::open(&path).unwrap_err();
            assert_eq!(err.code(), "version", "{err}");
            assert!(
                err.to_string().contains(&format!("version {version}")),
                "{err}"
            );
        }
        std::fs::write(&path, &good).unwrap();
        let other = Variant::FINKEL.with_pieces(pieces + 1).unwrap();
        let err = Table::open_for(&path, &other).unwrap_err();
        assert_eq!(err.code(), "wrong_rules");
        let text = err.to_string();
        assert!(text.contains(&format!("pieces={pieces}")), "{text}");
        assert!(text.contains(&format!("pieces={}", pieces + 1)), "{text}");
        assert!(Table::open_for(&path, sol.variant()).is_ok());
        std::fs::remove_file(&path).unwrap();
    }
    // f32 at version 3, p16 cut inside the choices.
    assert_eq!(damaged("f32-at-three", |b| b[8] = 3).code(), "version");
    let sol = solved(3);
    let path = temp("cut.p16");
    write_table(&sol, ValueType::P16, &path).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 8);
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Table::open(&path).unwrap_err().code(), "truncated");
    std::fs::remove_file(&path).unwrap();
}

/// The perfect bot reading a 2-byte table plays the f64 solve's move in
/// every state of 3-piece finkel and for every roll; the table's choices
/// are exactly the (state, roll)s where its rounded values alone would
/// choose another move, and there are some, so without them the bot
/// would differ.
#[test]
fn two_byte_bot_plays_the_f64_bot_s_move_in_every_state_of_three_piece_finkel() {
    let sol = solved(3);
    let path = temp("three.p16");
    write_table(&sol, ValueType::P16, &path).unwrap();
    let table = Table::open(&path).unwrap();
    let index = sol.index();
    let (mut choices, mut needed) = (0u64, 0u64);
    for i in 0..index.len() {
        let state = index.unrank(i).unwrap();
        if index.is_over(state) {
            continue;
        }
        let position = index.position(state, dice_core::Side::Light);
        for roll in 1..=4 {
            let exact = best_move(&sol, &position, roll).unwrap().map(|m| m.mv);
            let stored = best_move(&table, &position, roll).unwrap().map(|m| m.mv);
            assert_eq!(exact, stored, "state {i} roll {roll}");
            let values = move_values(&table, &position, roll).unwrap();
            if values.len() > 1 {
                choices += 1;
                let rounded = values
                    .iter()
                    .fold(None, |best: Option<&ur_solve::MoveValue>, mv| match best {
                        Some(b) if b.win_chance >= mv.win_chance => Some(b),
                        _ => Some(mv),
                    })
                    .map(|m| m.mv);
                if rounded != exact {
                    needed += 1;
                }
            }
        }
    }
    assert!(needed > 0, "no near tie in {choices} choices");
    assert_eq!(needed, table.choice_count() as u64);
    std::fs::remove_file(&path).unwrap();
}
