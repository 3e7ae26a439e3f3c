//! Table files: round trip, lookups, and every kind of damage refused.

use std::path::PathBuf;

use royal_ur::{Path, Variant};
use ur_solve::{
    Index, Solution, SolveOptions, Table, TableError, ValueType, WinChances, solve, write_table,
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
