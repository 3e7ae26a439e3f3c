//! RoyalUr's `.rgu` lookup tables: written from a table and read back,
//! held to RoyalUr's published facts (its `finkel2p.rgu`: 12,990 entries
//! in one map, 33985 at the start's key 0x2400_0000, 65535 where light
//! has won), and a file laid out as RoyalUr's tools write it, made here
//! with the Finkel layout spelled out square by square, read and played.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

use std::path::PathBuf;

use dice_core::{Rules, Side, Status};
use royal_ur::{Position, Ur, Variant};
use ur_solve::{
    Index, PerfectBot, Solution, SolveOptions, Table, ValueType, WinChances, export_rgu,
    import_rgu, rgu_key, solve, to_p16, write_table,
};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ur-solve-rgu-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn solved(variant: &Variant) -> Solution {
    solve(variant, &SolveOptions::default(), |_| {}).unwrap()
}

/// An `.rgu` file as read by RoyalUr's Python reader: the metadata and
/// each map's (key, value) pairs.
struct Rgu {
    metadata: serde_json::Value,
    maps: Vec<Vec<(u32, u16)>>,
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

fn read_rgu(bytes: &[u8]) -> Rgu {
    assert_eq!(&bytes[..3], b"RGU");
    assert_eq!(bytes[3], 0);
    let meta_len = be32(bytes, 4) as usize;
    let metadata = serde_json::from_slice(&bytes[8..8 + meta_len]).unwrap();
    let mut at = 8 + meta_len;
    let maps = be32(bytes, at) as usize;
    at += 4;
    let counts: Vec<usize> = (0..maps)
        .map(|k| be32(bytes, at + 4 * k) as usize)
        .collect();
    at += 4 * maps;
    let total: usize = counts.iter().sum();
    let values_at = at + 4 * total;
    assert_eq!(bytes.len(), values_at + 2 * total);
    let mut out = Vec::new();
    let mut k = 0;
    for &c in &counts {
        let map: Vec<(u32, u16)> = (k..k + c)
            .map(|j| {
                let v = u16::from_be_bytes(
                    bytes[values_at + 2 * j..values_at + 2 * j + 2]
                        .try_into()
                        .unwrap(),
                );
                (be32(bytes, at + 4 * j), v)
            })
            .collect();
        k += c;
        out.push(map);
    }
    Rgu {
        metadata,
        maps: out,
    }
}

/// Our 2-piece finkel table as an `.rgu` file: RoyalUr's metadata and
/// layout, its golden values at its keys, keys sorted, and every position
/// within one Percent16 step of our table (the same step, in fact).
#[test]
fn finkel2p_exported_holds_royalur_s_golden_values() {
    let v = Variant::FINKEL2P;
    let sol = solved(&v);
    let table_path = temp("finkel2p.table");
    write_table(&sol, ValueType::P16, &table_path).unwrap();
    let table = Table::open(&table_path).unwrap();
    let path = temp("finkel2p.rgu");
    let written = export_rgu(&table, &path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(written.bytes, bytes.len() as u64);
    let rgu = read_rgu(&bytes);
    assert_eq!(rgu.metadata["value_type"], "percent16");
    let settings = &rgu.metadata["game_settings"];
    assert_eq!(settings["board_shape"], "standard");
    assert_eq!(settings["paths"], "bell");
    assert_eq!(settings["dice"], "four_binary");
    assert_eq!(settings["start_pieces"], 2);
    assert_eq!(settings["safe_rosettes"], true);
    assert_eq!(settings["rosettes_grant_rolls"], true);
    assert_eq!(settings["captures_grant_rolls"], false);
    assert_eq!(rgu.maps.len(), 1);
    let map = &rgu.maps[0];
    assert_eq!(map.len(), 12990);
    assert!(map.windows(2).all(|w| w[0].0 < w[1].0));
    let at = |key: u32| map[map.binary_search_by_key(&key, |&(k, _)| k).unwrap()].1;
    assert_eq!(at(603_979_776), 33985);
    assert_eq!(at(67_108_864), 65535);
    assert_eq!(at(33_554_432), 65535);
    let index = table.index();
    for i in 0..index.len() {
        let state = index.unrank(i).unwrap();
        if state.their_home == 2 {
            continue;
        }
        let key = rgu_key(&v, state).unwrap();
        let theirs = at(key as u32);
        let ours = to_p16(table.value_at(i));
        assert!(
            theirs.abs_diff(ours) <= 1,
            "state {i}: {theirs} against {ours}"
        );
    }
    std::fs::remove_file(&path).unwrap();
    std::fs::remove_file(&table_path).unwrap();
}

/// RoyalUr's Finkel layout of a position with light to move, written out
/// from its squares (a test's own encoder, not the crate's): light's
/// lane a1 b1 c1 d1 g1 h1 at bits 19..25, dark's a3 b3 c3 d3 g3 h3 at
/// bits 0..6, the middle lane a2..h2 numbered among the arrangements
/// with at most 7 pieces a side (a2 the most significant digit, 0 empty,
/// 1 dark, 2 light) at bits 6..19, then dark's and light's hands.
fn finkel_key(position: &Position, middle: &[u32]) -> u32 {
    let piece = |name: &str| {
        let square = position.shape().square_named(name).unwrap();
        position.at(square)
    };
    let lane = |row: char, side: Side| -> u32 {
        ["a", "b", "c", "d", "g", "h"]
            .iter()
            .enumerate()
            .map(|(k, file)| u32::from(piece(&format!("{file}{row}")) == Some(side)) << k)
            .sum()
    };
    let mut digits = 0usize;
    for file in ["a", "b", "c", "d", "e", "f", "g", "h"] {
        let occupant = match piece(&format!("{file}2")) {
            None => 0,
            Some(Side::Dark) => 1,
            Some(Side::Light) => 2,
        };
        digits = digits * 3 + occupant;
    }
    lane('3', Side::Dark)
        | middle[digits] << 6
        | lane('1', Side::Light) << 19
        | u32::from(position.hand(Side::Dark)) << 25
        | u32::from(position.hand(Side::Light)) << 28
}

/// The numbers of the middle lane's arrangements, by base-3 digits.
fn middle_numbers() -> Vec<u32> {
    let mut out = vec![u32::MAX; 6561];
    let mut next = 0;
    for (digits, slot) in out.iter_mut().enumerate() {
        let (mut d, mut light, mut dark) = (digits, 0, 0);
        for _ in 0..8 {
            match d % 3 {
                1 => dark += 1,
                2 => light += 1,
                _ => {}
            }
            d /= 3;
        }
        if light <= 7 && dark <= 7 {
            *slot = next;
            next += 1;
        }
    }
    out
}

/// A 2-piece finkel file laid out as RoyalUr's tools write it (Java's
/// metadata, with a key of its own, keys in order, Percent16 values),
/// made here from our solve: imported, it holds our values to within a
/// step, is written as a table, and the perfect bot plays games from it.
#[test]
fn a_royalur_laid_out_file_imports_and_plays() {
    let v = Variant::FINKEL2P;
    let sol = solved(&v);
    let index = Index::new(&v).unwrap();
    let middle = middle_numbers();
    let mut entries: Vec<(u32, u16)> = Vec::new();
    for i in 0..index.len() {
        let state = index.unrank(i).unwrap();
        if state.their_home == 2 {
            continue;
        }
        let position = index.position(state, Side::Light);
        entries.push((finkel_key(&position, &middle), to_p16(sol.value_at(i))));
    }
    entries.sort_unstable();
    let metadata = r#"{"value_type":"percent16","author":"a test","game_settings":{"board_shape":"standard","paths":"bell","dice":"four_binary","start_pieces":2,"safe_rosettes":true,"rosettes_grant_rolls":true,"captures_grant_rolls":false}}"#;
    let mut bytes = b"RGU\0".to_vec();
    bytes.extend_from_slice(&(metadata.len() as u32).to_be_bytes());
    bytes.extend_from_slice(metadata.as_bytes());
    bytes.extend_from_slice(&1u32.to_be_bytes());
    bytes.extend_from_slice(&(entries.len() as u32).to_be_bytes());
    for &(k, _) in &entries {
        bytes.extend_from_slice(&k.to_be_bytes());
    }
    for &(_, q) in &entries {
        bytes.extend_from_slice(&q.to_be_bytes());
    }
    let path = temp("theirs.rgu");
    std::fs::write(&path, &bytes).unwrap();
    let imported = import_rgu(&path).unwrap();
    assert_eq!(imported.variant(), &v);
    for i in 0..index.len() {
        let diff = (imported.value_at(i) - sol.value_at(i)).abs();
        assert!(
            diff <= 0.5 / 65535.0 + 1e-12,
            "state {i} {:?}: {diff}",
            index.unrank(i)
        );
    }
    let table_path = temp("imported.table");
    write_table(&imported, ValueType::P16, &table_path).unwrap();
    let bot = PerfectBot::new(Table::open_for(&table_path, &v).unwrap());
    let mut seed = 7u64;
    for first in [Side::Light, Side::Dark] {
        let mut position = Position::start(&v, first);
        let mut plies = 0;
        while position.status(&v) == Status::Ongoing && plies < 2000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let roll = (seed >> 60).count_ones() as u8;
            position = match bot.think(&position, roll).unwrap() {
                Some((mv, _)) => Ur::apply(&v, &position, roll, mv).0,
                None => position.forfeit(&v),
            };
            plies += 1;
        }
        assert_ne!(position.status(&v), Status::Ongoing, "a game of 2000 plies");
    }
    // The exported file of the imported table is the file read in.
    let again = temp("again.rgu");
    export_rgu(bot.table(), &again).unwrap();
    let ours = read_rgu(&std::fs::read(&again).unwrap());
    assert_eq!(ours.maps, vec![entries]);
    for p in [path, table_path, again] {
        std::fs::remove_file(p).unwrap();
    }
}

/// Masters' path with 2 pieces (RoyalUr-Java's layout: two segments of
/// six shared squares): exported and imported again, every value the
/// same; a rule set RoyalUr has no settings for is refused by name, and
/// a damaged file is refused with its code.
#[test]
fn masters_round_trip_and_refusals() {
    let v = Variant::MASTERS.with_pieces(2).unwrap();
    let sol = solved(&v);
    let path = temp("masters2.rgu");
    let written = export_rgu(&sol, &path).unwrap();
    assert_eq!(written.maps, 1);
    let back = import_rgu(&path).unwrap();
    assert_eq!(back.variant(), &v);
    for i in 0..sol.index().len() {
        let state = sol.index().unrank(i).unwrap();
        let want = if state.my_home == 2 {
            1.0
        } else if state.their_home == 2 {
            0.0
        } else {
            ur_solve::from_p16(to_p16(sol.value_at(i)))
        };
        assert_eq!(back.value_at(i), want, "state {i}");
    }
    let good = std::fs::read(&path).unwrap();
    let mut cut = good.clone();
    cut.pop();
    std::fs::write(&path, &cut).unwrap();
    assert_eq!(import_rgu(&path).unwrap_err().code(), "truncated");
    let mut magic = good.clone();
    magic[0] = b'X';
    std::fs::write(&path, &magic).unwrap();
    assert_eq!(import_rgu(&path).unwrap_err().code(), "not_rgu");
    let mut version = good.clone();
    version[3] = 1;
    std::fs::write(&path, &version).unwrap();
    assert_eq!(import_rgu(&path).unwrap_err().code(), "version");
    let mut murray = good.clone();
    let at = murray.windows(9).position(|w| w == b"\"masters\"").unwrap();
    murray[at..at + 9].copy_from_slice(b"\"murrays\"");
    std::fs::write(&path, &murray).unwrap();
    let err = import_rgu(&path).unwrap_err();
    assert_eq!(err.code(), "header", "{err}");
    assert!(err.to_string().contains("murray"), "{err}");
    std::fs::remove_file(&path).unwrap();
    let skiriuk = Variant::FINKEL
        .with_path(royal_ur::Path::Skiriuk)
        .with_pieces(1)
        .unwrap();
    let err = export_rgu(&solved(&skiriuk), &temp("never.rgu")).unwrap_err();
    assert_eq!(err.code(), "rules");
    assert!(err.to_string().contains("skiriuk"), "{err}");
    let five = Variant::FINKEL
        .with_pieces(1)
        .unwrap()
        .with_dice(5, 0)
        .unwrap();
    assert_eq!(
        export_rgu(&solved(&five), &temp("never.rgu"))
            .unwrap_err()
            .code(),
        "rules"
    );
    assert_eq!(
        import_rgu(&temp("nothing.rgu")).unwrap_err().code(),
        "missing"
    );
}
