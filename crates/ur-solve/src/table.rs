//! The table file: a versioned header and every state's value.
//!
//! Layout (all numbers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `URSOLVE` and 0x1a |
//! | 8 | 4 | format version: 1, or 2 on the murray and skiriuk paths ([`format_version`]) |
//! | 12 | 4 | bytes per value: 4 (f32) or 8 (f64) |
//! | 16 | 8 | count of values (states with one side to move) |
//! | 24 | 8 | checksum of the header (this field as zero) and the values |
//! | 32 | 4 | length of the rules text |
//! | 36 | n | the rules text, [`Variant::spelled_out`]: `route=… dice=… zero_rolls=… safe_rosettes=… pieces=…` for the reference's rule sets, `board=… path=… dice=… zero_rolls=… safe_rosettes=… rosette_again=… capture_again=… pieces=…` for the others |
//! | … | | zero bytes up to a multiple of 8 |
//! | … | count × size | the values in index order ([`Index`]) |
//!
//! The value at index `i` is the chance that the side to move wins the
//! state [`Index::unrank`]`(i)`, before it throws.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use royal_ur::Variant;

use crate::error::TableError;
use crate::index::Index;
use crate::solve::{Solution, WinChances};

/// The first eight bytes of a table file.
pub const MAGIC: [u8; 8] = *b"URSOLVE\x1a";
/// The newest format version this build writes and reads (see
/// [`format_version`]).
pub const VERSION: u32 = 2;

/// The format version of a rule set's table: 1 on the bell, masters and
/// aseb paths, whose tables are as the first ones were; 2 on the murray
/// and skiriuk paths, whose states are numbered by regions of squares
/// since version 2 (version 1 listed them in another order). A table is
/// read only at its rule set's version, so an older table on those paths
/// is refused, never misread.
///
/// ```
/// use royal_ur::{Path, Variant};
///
/// assert_eq!(ur_solve::format_version(&Variant::FINKEL), 1);
/// assert_eq!(ur_solve::format_version(&Variant::FINKEL.with_path(Path::Murray)), 2);
/// ```
#[must_use]
pub const fn format_version(variant: &Variant) -> u32 {
    if variant.path().revisits() { 2 } else { 1 }
}
const FIXED: usize = 36;
const RULES_MAX: usize = 256;

/// How values are stored in a table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueType {
    /// 4 bytes a value (about 7 significant digits; enough to play).
    F32,
    /// 8 bytes a value (what the solver computes).
    F64,
}

impl ValueType {
    /// Bytes a value.
    #[must_use]
    pub const fn size(self) -> usize {
        match self {
            ValueType::F32 => 4,
            ValueType::F64 => 8,
        }
    }

    /// `f32` or `f64`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ValueType::F32 => "f32",
            ValueType::F64 => "f64",
        }
    }
}

/// A 64-bit checksum, word by word (a bijective mix per word, so any
/// change to a single word is always caught).
#[derive(Clone, Copy, Debug)]
struct Checksum(u64);

impl Checksum {
    const fn new() -> Checksum {
        Checksum(0x243f_6a88_85a3_08d3)
    }

    #[inline(always)]
    fn word(&mut self, w: u64) {
        let h = (self.0 ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = h ^ (h >> 29);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.word(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            for (d, &s) in w.iter_mut().zip(rest) {
                *d = s;
            }
            self.word(u64::from_le_bytes(w) ^ (rest.len() as u64) << 56);
        }
    }
}

fn header(variant: &Variant, value_type: ValueType, count: u64, checksum: u64) -> Vec<u8> {
    let rules = variant.spelled_out();
    let mut h = Vec::with_capacity(FIXED + rules.len() + 8);
    h.extend_from_slice(&MAGIC);
    h.extend_from_slice(&format_version(variant).to_le_bytes());
    h.extend_from_slice(&(value_type.size() as u32).to_le_bytes());
    h.extend_from_slice(&count.to_le_bytes());
    h.extend_from_slice(&checksum.to_le_bytes());
    h.extend_from_slice(&(rules.len() as u32).to_le_bytes());
    h.extend_from_slice(rules.as_bytes());
    while h.len() % 8 != 0 {
        h.push(0);
    }
    h
}

fn encode(values: &[f64], value_type: ValueType, out: &mut Vec<u8>) {
    out.clear();
    match value_type {
        ValueType::F32 => {
            for &v in values {
                out.extend_from_slice(&(v as f32).to_le_bytes());
            }
        }
        ValueType::F64 => {
            for &v in values {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
    }
}

/// Values per chunk while writing (a multiple of 2, so f32 chunks are
/// whole words).
const CHUNK: usize = 1 << 16;

/// Writes a solution to a table file.
///
/// # Errors
///
/// [`TableError::Io`] when the file cannot be created or written.
pub fn write_table(
    solution: &Solution,
    value_type: ValueType,
    path: &Path,
) -> Result<(), TableError> {
    let io = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let variant = solution.variant();
    let values = solution.values();
    let count = values.len() as u64;
    let mut sum = Checksum::new();
    sum.bytes(&header(variant, value_type, count, 0));
    let mut buf = Vec::with_capacity(CHUNK * 8);
    for chunk in values.chunks(CHUNK) {
        encode(chunk, value_type, &mut buf);
        sum.bytes(&buf);
    }
    let file = File::create(path).map_err(io)?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    w.write_all(&header(variant, value_type, count, sum.0))
        .map_err(io)?;
    for chunk in values.chunks(CHUNK) {
        encode(chunk, value_type, &mut buf);
        w.write_all(&buf).map_err(io)?;
    }
    w.flush().map_err(io)?;
    Ok(())
}

/// A table file, memory-mapped and checked, answering lookups in O(1).
#[derive(Debug)]
pub struct Table {
    index: Index,
    value_type: ValueType,
    map: memmap2::Mmap,
    offset: usize,
    count: u64,
    path: PathBuf,
}

fn read_u32(b: &[u8], at: usize) -> Option<u32> {
    let mut w = [0u8; 4];
    w.copy_from_slice(b.get(at..at + 4)?);
    Some(u32::from_le_bytes(w))
}

fn read_u64(b: &[u8], at: usize) -> Option<u64> {
    let mut w = [0u8; 8];
    w.copy_from_slice(b.get(at..at + 8)?);
    Some(u64::from_le_bytes(w))
}

impl Table {
    /// Opens a table file and checks it whole: magic, version, header,
    /// length and checksum (reading every byte once).
    ///
    /// # Errors
    ///
    /// A [`TableError`] saying what is wrong with the file.
    pub fn open(path: &Path) -> Result<Table, TableError> {
        let io = |source| TableError::Io {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                TableError::Missing(path.to_path_buf())
            } else {
                io(e)
            }
        })?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(TableError::Directory(path.to_path_buf()));
        }
        // SAFETY: the map is read-only and lives in the Table; as with any
        // memory map, the file must not be truncated or rewritten by
        // another process while it is open (the checksum below only
        // vouches for the contents at opening time).
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        let bytes: &[u8] = &map;
        let found = bytes.len() as u64;
        if bytes.get(..8) != Some(&MAGIC[..]) {
            return Err(TableError::NotATable(path.to_path_buf()));
        }
        let truncated_header = || TableError::Header("the header is cut short".to_owned());
        let version = read_u32(bytes, 8).ok_or_else(truncated_header)?;
        if version == 0 || version > VERSION {
            return Err(TableError::Version {
                found: version,
                supported: VERSION,
            });
        }
        let size = read_u32(bytes, 12).ok_or_else(truncated_header)?;
        let value_type = match size {
            4 => ValueType::F32,
            8 => ValueType::F64,
            _ => {
                return Err(TableError::Header(format!(
                    "{size} bytes a value is neither f32 nor f64"
                )));
            }
        };
        let count = read_u64(bytes, 16).ok_or_else(truncated_header)?;
        let expected_sum = read_u64(bytes, 24).ok_or_else(truncated_header)?;
        let rules_len = read_u32(bytes, 32).ok_or_else(truncated_header)? as usize;
        if rules_len > RULES_MAX {
            return Err(TableError::Header(format!(
                "a rules text of {rules_len} bytes"
            )));
        }
        let rules_bytes = bytes
            .get(FIXED..FIXED + rules_len)
            .ok_or_else(truncated_header)?;
        let rules = std::str::from_utf8(rules_bytes)
            .map_err(|_| TableError::Header("the rules text is not UTF-8".to_owned()))?;
        let variant: Variant = rules
            .parse()
            .map_err(|e| TableError::Header(format!("the rules text {rules:?}: {e}")))?;
        if version != format_version(&variant) {
            return Err(TableError::Version {
                found: version,
                supported: format_version(&variant),
            });
        }
        let index = Index::new(&variant)
            .map_err(|e| TableError::Header(format!("the rules text {rules:?}: {e}")))?;
        if count != index.len() {
            return Err(TableError::Header(format!(
                "{count} values, but {} has {} states",
                variant.spelled_out(),
                index.len()
            )));
        }
        let offset = (FIXED + rules_len).div_ceil(8) * 8;
        let expected = offset as u64 + count * u64::from(size);
        if found != expected {
            return Err(TableError::Truncated { expected, found });
        }
        let mut sum = Checksum::new();
        sum.bytes(&header(&variant, value_type, count, 0));
        if bytes.get(..offset) != Some(&header(&variant, value_type, count, expected_sum)[..]) {
            return Err(TableError::Header(
                "the header is not as this build writes it".to_owned(),
            ));
        }
        let payload = bytes.get(offset..).unwrap_or(&[]);
        for chunk in payload.chunks(CHUNK * 8) {
            sum.bytes(chunk);
        }
        if sum.0 != expected_sum {
            return Err(TableError::Checksum {
                expected: expected_sum,
                found: sum.0,
            });
        }
        Ok(Table {
            index,
            value_type,
            map,
            offset,
            count,
            path: path.to_path_buf(),
        })
    }

    /// Opens a table file (as [`Table::open`]) that must hold `variant`.
    ///
    /// # Errors
    ///
    /// [`TableError::WrongRules`] when it holds other rules, otherwise as
    /// [`Table::open`].
    pub fn open_for(path: &Path, variant: &Variant) -> Result<Table, TableError> {
        let table = Table::open(path)?;
        if table.index.variant() != variant {
            return Err(TableError::WrongRules {
                expected: variant.spelled_out(),
                found: table.index.variant().spelled_out(),
            });
        }
        Ok(table)
    }

    /// How values are stored.
    #[must_use]
    pub const fn value_type(&self) -> ValueType {
        self.value_type
    }

    /// How many values the table holds.
    #[must_use]
    pub const fn count(&self) -> u64 {
        self.count
    }

    /// The file it was read from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl WinChances for Table {
    fn index(&self) -> &Index {
        &self.index
    }

    #[inline]
    fn value_at(&self, index: u64) -> f64 {
        if index >= self.count {
            return 0.0;
        }
        let bytes: &[u8] = &self.map;
        let at = self.offset + index as usize * self.value_type.size();
        match self.value_type {
            ValueType::F32 => read_u32(bytes, at).map_or(0.0, |w| f64::from(f32::from_bits(w))),
            ValueType::F64 => read_u64(bytes, at).map_or(0.0, f64::from_bits),
        }
    }
}
