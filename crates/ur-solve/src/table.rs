//! The table file: a versioned header and every state's value.
//!
//! Layout (all numbers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `URSOLVE` and 0x1a |
//! | 8 | 4 | format version ([`format_version`]): 3 for 2-byte tables; for 4- and 8-byte tables 1, or 2 on the murray and skiriuk paths |
//! | 12 | 4 | bytes per value: 2 (p16), 4 (f32) or 8 (f64) |
//! | 16 | 8 | count of values (states with one side to move) |
//! | 24 | 8 | checksum of the header (this field as zero) and the values |
//! | 32 | 4 | length of the rules text |
//! | 36 | n | the rules text, [`Variant::spelled_out`]: `route=… dice=… zero_rolls=… safe_rosettes=… pieces=…` for the reference's rule sets, `board=… path=… dice=… zero_rolls=… safe_rosettes=… rosette_again=… capture_again=… pieces=…` for the others |
//! | … | | zero bytes up to a multiple of 8 |
//! | … | count × size | the values in index order ([`Index`]) |
//!
//! A 2-byte (p16) table goes on after its values:
//!
//! | size | field |
//! |---|---|
//! | | zero bytes up to a multiple of 8 |
//! | 8 | count of choices |
//! | count × 8 | the choices, sorted: where the rounded values would choose another move than the exact ones, the exact values' move (see below) |
//!
//! The checksum covers every byte after the header. The value at index
//! `i` is the chance that the side to move wins the state
//! [`Index::unrank`]`(i)`, before it throws.
//!
//! A 2-byte value `q` stands for the chance `q / 65535`: the solved
//! chance `v` is stored as `round(v × 65535)` (halves away from zero),
//! as RoyalUr's Percent16 values are, so a stored value is within half a
//! step, 1/131,070 ≈ 7.63e-6, of the exact one. Moves whose exact values
//! lie closer than a step can round to the same value, or the wrong way
//! round; a choice names such a (state, roll) and the move the exact
//! values choose, and [`best_move`](crate::best_move) plays it: a choice
//! is the state's index shifted left by 8, the roll in bits 4 to 7 and
//! the move's place among the roll's legal moves (in the rules' order)
//! in bits 0 to 3.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use royal_ur::Variant;

use crate::error::TableError;
use crate::file::write_whole;
use crate::index::Index;
use crate::solve::{Solution, WinChances};

/// The first eight bytes of a table file.
pub const MAGIC: [u8; 8] = *b"URSOLVE\x1a";
/// The newest format version this build writes and reads (see
/// [`format_version`]).
pub const VERSION: u32 = 3;

/// The format version of a rule set's table with values of `value_type`.
/// 2-byte tables are version 3 on every path. 4- and 8-byte tables are
/// version 1 on the bell, masters and aseb paths, as the first tables
/// were, and 2 on the murray and skiriuk paths, whose states are
/// numbered by regions of squares since version 2 (version 1 listed them
/// in another order). A table is read only at its own version, so an
/// older table on those paths is refused, never misread.
///
/// ```
/// use royal_ur::{Path, Variant};
/// use ur_solve::{ValueType, format_version};
///
/// assert_eq!(format_version(&Variant::FINKEL, ValueType::F32), 1);
/// assert_eq!(format_version(&Variant::FINKEL.with_path(Path::Murray), ValueType::F64), 2);
/// assert_eq!(format_version(&Variant::FINKEL, ValueType::P16), 3);
/// ```
#[must_use]
pub const fn format_version(variant: &Variant, value_type: ValueType) -> u32 {
    match value_type {
        ValueType::P16 => 3,
        ValueType::F32 | ValueType::F64 => {
            if variant.path().revisits() {
                2
            } else {
                1
            }
        }
    }
}

/// Steps of a 2-byte value: `q` stands for `q / 65535`.
pub const P16_STEPS: u16 = u16::MAX;

/// A chance (0 to 1) as a 2-byte value: `round(v × 65535)`, halves away
/// from zero, clamped to 0..=65535 (RoyalUr's Percent16 rounding; a NaN
/// is 0).
///
/// ```
/// assert_eq!(ur_solve::to_p16(0.5185729), 33985);
/// assert_eq!(ur_solve::to_p16(1.0), 65535);
/// assert_eq!(ur_solve::from_p16(65535), 1.0);
/// ```
#[must_use]
pub fn to_p16(chance: f64) -> u16 {
    let q = (chance.clamp(0.0, 1.0) * f64::from(P16_STEPS)).round();
    if q.is_nan() { 0 } else { q as u16 }
}

/// The chance a 2-byte value stands for, `q / 65535`.
#[must_use]
pub fn from_p16(q: u16) -> f64 {
    f64::from(q) / f64::from(P16_STEPS)
}

/// The chance `v` as a 2-byte table holds it.
fn rounded_p16(v: f64) -> f64 {
    from_p16(to_p16(v))
}
const FIXED: usize = 36;
const RULES_MAX: usize = 256;

/// How values are stored in a table file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueType {
    /// 2 bytes a value, steps of 1/65,535 ([`to_p16`]), with the choices
    /// that keep the perfect move exact (see the module documentation):
    /// a quarter of f64's size.
    P16,
    /// 4 bytes a value (about 7 significant digits).
    F32,
    /// 8 bytes a value (what the solver computes).
    F64,
}

impl ValueType {
    /// Bytes a value.
    #[must_use]
    pub const fn size(self) -> usize {
        match self {
            ValueType::P16 => 2,
            ValueType::F32 => 4,
            ValueType::F64 => 8,
        }
    }

    /// `p16`, `f32` or `f64`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ValueType::P16 => "p16",
            ValueType::F32 => "f32",
            ValueType::F64 => "f64",
        }
    }

    /// The value type named `p16`, `f32` or `f64`.
    ///
    /// ```
    /// use ur_solve::ValueType;
    ///
    /// assert_eq!(ValueType::from_name("p16"), Some(ValueType::P16));
    /// assert_eq!(ValueType::from_name("f16"), None);
    /// ```
    #[must_use]
    pub fn from_name(name: &str) -> Option<ValueType> {
        [ValueType::P16, ValueType::F32, ValueType::F64]
            .into_iter()
            .find(|v| v.as_str() == name)
    }

    /// The value as this type stores it, read back.
    fn stored(self, v: f64) -> f64 {
        match self {
            ValueType::P16 => rounded_p16(v),
            ValueType::F32 => f64::from(v as f32),
            ValueType::F64 => v,
        }
    }
}

/// The file name a rule set's table takes in a data folder's `tables/`:
/// the preset's name, or the fields that differ from finkel's, then the
/// value type.
///
/// ```
/// use royal_ur::{Path, Variant};
/// use ur_solve::{ValueType, table_file_name};
///
/// assert_eq!(table_file_name(&Variant::FINKEL, ValueType::P16), "finkel.p16.table");
/// let murray = Variant::FINKEL.with_path(Path::Murray).with_pieces(4)?;
/// assert_eq!(table_file_name(&murray, ValueType::F64), "path-murray_pieces-4.f64.table");
/// # Ok::<(), royal_ur::VariantError>(())
/// ```
#[must_use]
pub fn table_file_name(variant: &Variant, value_type: ValueType) -> String {
    let name = match variant.preset() {
        Some(name) => name.to_owned(),
        None => variant
            .fields()
            .iter()
            .zip(Variant::FINKEL.fields())
            .filter(|((_, value), (_, finkel))| value != finkel)
            .map(|((field, value), _)| format!("{field}-{value}"))
            .collect::<Vec<_>>()
            .join("_"),
    };
    format!("{name}.{}.table", value_type.as_str())
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
    h.extend_from_slice(&format_version(variant, value_type).to_le_bytes());
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
        ValueType::P16 => {
            for &v in values {
                out.extend_from_slice(&to_p16(v).to_le_bytes());
            }
        }
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

/// Values per chunk while writing (a multiple of 4, so every chunk but
/// the last is whole words).
const CHUNK: usize = 1 << 16;

/// What [`write_table`] wrote.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Written {
    /// How the values are stored.
    pub value_type: ValueType,
    /// Values written (states with one side to move).
    pub states: u64,
    /// Bytes of the file.
    pub bytes: u64,
    /// Choices a 2-byte table lists (0 for the other types).
    pub choices: u64,
    /// The largest difference between a stored value and the solved
    /// (f64) one.
    pub worst_error: f64,
}

/// Zero bytes that bring `len` to a multiple of 8.
const fn padding(len: usize) -> usize {
    len.next_multiple_of(8) - len
}

/// Writes a solution to a table file, whole (with [`write_whole`]): the
/// file named holds the whole table or what it held before. A 2-byte
/// table also lists the choices that keep its perfect move the f64
/// values' (found on the machine's threads).
///
/// # Errors
///
/// [`TableError::Io`] when the file cannot be created or written.
pub fn write_table(
    solution: &Solution,
    value_type: ValueType,
    path: &Path,
) -> Result<Written, TableError> {
    let io = |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    };
    let variant = solution.variant();
    let values = solution.values();
    let count = values.len() as u64;
    let choices = if value_type == ValueType::P16 {
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        crate::choice::choices(solution.index(), values, rounded_p16, threads)
    } else {
        Vec::new()
    };
    let mut tail = Vec::new();
    if value_type == ValueType::P16 {
        tail.resize(padding(values.len() * 2), 0);
        tail.extend_from_slice(&(choices.len() as u64).to_le_bytes());
        for c in &choices {
            tail.extend_from_slice(&c.to_le_bytes());
        }
    }
    // The checksum reads whole words: every chunk but the last is a
    // multiple of 8 bytes, and the tail comes with the last.
    let mut sum = Checksum::new();
    sum.bytes(&header(variant, value_type, count, 0));
    let mut buf = Vec::with_capacity(CHUNK * 8);
    let chunks = values.chunks(CHUNK).count();
    for (k, chunk) in values.chunks(CHUNK).enumerate() {
        encode(chunk, value_type, &mut buf);
        if k + 1 == chunks {
            buf.extend_from_slice(&tail);
        }
        sum.bytes(&buf);
    }
    if chunks == 0 {
        sum.bytes(&tail);
    }
    let head = header(variant, value_type, count, sum.0);
    let worst = write_whole(path, |w| {
        w.write_all(&head)?;
        let mut worst = 0.0f64;
        for chunk in values.chunks(CHUNK) {
            encode(chunk, value_type, &mut buf);
            w.write_all(&buf)?;
            for &v in chunk {
                worst = worst.max((value_type.stored(v) - v).abs());
            }
        }
        w.write_all(&tail)?;
        Ok(worst)
    })
    .map_err(io)?;
    Ok(Written {
        value_type,
        states: count,
        bytes: (head.len() + values.len() * value_type.size() + tail.len()) as u64,
        choices: choices.len() as u64,
        worst_error: worst,
    })
}

/// A table file, memory-mapped and checked, answering lookups in O(1).
#[derive(Debug)]
pub struct Table {
    index: Index,
    value_type: ValueType,
    map: memmap2::Mmap,
    offset: usize,
    count: u64,
    /// Where the choices start, and how many there are.
    choices: (usize, usize),
    path: PathBuf,
}

fn read_u16(b: &[u8], at: usize) -> Option<u16> {
    let mut w = [0u8; 2];
    w.copy_from_slice(b.get(at..at + 2)?);
    Some(u16::from_le_bytes(w))
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
        #[allow(
            unsafe_code,
            reason = "a memory map is the table's way to read a file of gigabytes"
        )]
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
            2 => ValueType::P16,
            4 => ValueType::F32,
            8 => ValueType::F64,
            _ => {
                return Err(TableError::Header(format!(
                    "{size} bytes a value is none of p16, f32 and f64"
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
        let own = format_version(&variant, value_type);
        if version != own {
            return Err(TableError::Version {
                found: version,
                supported: own,
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
        let values_end = count
            .checked_mul(u64::from(size))
            .and_then(|n| n.checked_add(offset as u64))
            .ok_or_else(|| TableError::Header(format!("{count} values do not fit a file")))?;
        let (expected, choices) = if value_type == ValueType::P16 {
            let at = values_end.next_multiple_of(8);
            let n = usize::try_from(at)
                .ok()
                .and_then(|at| read_u64(bytes, at))
                .ok_or(TableError::Truncated {
                    expected: at + 8,
                    found,
                })?;
            let expected = n
                .checked_mul(8)
                .and_then(|b| b.checked_add(at + 8))
                .ok_or_else(|| TableError::Header(format!("{n} choices do not fit a file")))?;
            (expected, (at as usize + 8, n as usize))
        } else {
            (values_end, (0, 0))
        };
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
        let table = Table {
            index,
            value_type,
            map,
            offset,
            count,
            choices,
            path: path.to_path_buf(),
        };
        let mut last = None;
        for k in 0..choices.1 {
            let word = table.choice(k);
            if last.is_some_and(|l| l >= word) || crate::choice::state_index(word) >= count {
                return Err(TableError::Header(format!(
                    "choice {k} is out of order or past the last state"
                )));
            }
            last = Some(word);
        }
        Ok(table)
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

    /// How many choices a 2-byte table lists (0 for the other types).
    #[must_use]
    pub const fn choice_count(&self) -> usize {
        self.choices.1
    }

    /// Choice `k` (0 past the end).
    fn choice(&self, k: usize) -> u64 {
        read_u64(&self.map, self.choices.0 + 8 * k).unwrap_or(0)
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
            ValueType::P16 => read_u16(bytes, at).map_or(0.0, from_p16),
            ValueType::F32 => read_u32(bytes, at).map_or(0.0, |w| f64::from(f32::from_bits(w))),
            ValueType::F64 => read_u64(bytes, at).map_or(0.0, f64::from_bits),
        }
    }

    fn chosen_move(&self, index: u64, roll: u8) -> Option<usize> {
        let key = crate::choice::key_of(index, roll);
        let (mut lo, mut hi) = (0, self.choices.1);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let word = self.choice(mid);
            match crate::choice::key(word).cmp(&key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(crate::choice::ordinal(word)),
            }
        }
        None
    }
}
