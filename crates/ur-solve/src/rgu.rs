//! RoyalUr's lookup-table files (`.rgu`): written from a table, and read
//! into one.
//!
//! The layout is RoyalUr's (its Java library's `Lut` writer and its
//! Python library's reader), every number big-endian:
//!
//! | size | field |
//! |---|---|
//! | 3 | magic `RGU` |
//! | 1 | version, 0 |
//! | 4 | length of the metadata |
//! | n | the metadata, JSON in UTF-8: `value_type` (`percent16`, `f32` or `f64`), any other keys, and `game_settings` (`board_shape`, `paths`, `dice`, `start_pieces`, `safe_rosettes`, `rosettes_grant_rolls`, `captures_grant_rolls`) |
//! | 4 | count of maps |
//! | 4 each | entries of each map |
//! | 4 each | every map's keys in turn, each map's sorted (unsigned) |
//! | 2, 4 or 8 each | every map's values in the same order |
//!
//! A key is a position with light to move (a position with dark to move
//! is looked up colour-swapped), split in two: its upper 32 bits choose
//! the map, its lower 32 bits are the key in the map. Every position is
//! there but those dark has won. A value is light's chance to win in
//! percent: a `percent16` value `q` is `q × 100 / 65535` %, written as
//! `round(p / 100 × 65535)`, which is this crate's 2-byte value
//! ([`to_p16`](crate::to_p16)); `f32` and `f64` values are the percent.
//!
//! The key, from the least significant bit up: dark's squares that only
//! dark's path crosses, a bit each; the squares both paths cross; light's
//! own squares, a bit each; dark's pieces in hand (3 bits); light's (3
//! bits). Squares go in RoyalUr's board order (along the board, then
//! across: a1 a2 a3 b1 …, light's row first). The shared squares are cut
//! into segments of at most 8 (one segment of 8 on bell's path, two of 6
//! on masters' and aseb's), the first most significant; a segment's
//! squares, each 0 (empty), 1 (dark) or 2 (light), first square the most
//! significant digit, are numbered in that order among the arrangements
//! with at most as many pieces of a side as it has, and the number takes
//! the bits RoyalUr gives it (13 for 8 squares and 7 pieces, 10 for 6
//! squares). On bell's path the numbering counts 7 pieces a side whatever
//! the rule set's count, as RoyalUr's Finkel layout (its Python
//! library's encoder, and its published `finkel2p.rgu`) does: the start
//! of finkel with 2 pieces is key `0x2400_0000`; with 7 pieces it is
//! RoyalUr-Java's layout too. Other paths number by the rule set's
//! pieces, as RoyalUr-Java's layout for any rule set does.
//!
//! Rule sets RoyalUr has settings for are the ones here: the standard
//! board with bell's or masters' path, or the aseb board and path; four
//! dice whose 0 moves nothing or three whose 0 moves four; 1 to 7 pieces;
//! either switch.

use std::io::Write;
use std::path::Path as FilePath;

use dice_core::Side;
use royal_ur::{BoardShape, Path, Square, Variant};

use crate::error::RguError;
use crate::file::write_whole;
use crate::index::{Index, State};
use crate::solve::{Solution, WinChances};

/// The first three bytes of an `.rgu` file.
pub const RGU_MAGIC: [u8; 3] = *b"RGU";
/// The version of the layout.
const RGU_VERSION: u8 = 0;
/// Most squares a segment of the shared squares numbers.
const SEGMENT_MAX: usize = 8;

/// How RoyalUr numbers one rule set's positions.
struct Layout {
    pieces: u8,
    /// Light's steps on the squares only light's path crosses, in board
    /// order.
    light_own: Vec<u8>,
    /// Dark's steps on the squares only dark's path crosses.
    dark_own: Vec<u8>,
    /// The shared squares: light's step there and dark's.
    shared: Vec<(u8, u8)>,
    /// Squares a segment numbers.
    segment: usize,
    /// Bits a segment's number takes.
    segment_bits: u32,
    /// The number of each arrangement of a segment (two bits a square,
    /// the first square most significant), `u32::MAX` where none.
    numbers: Vec<u32>,
}

/// RoyalUr's name for a board shape.
const fn board_id(board: BoardShape) -> &'static str {
    match board {
        BoardShape::Aseb => "aseb",
        BoardShape::Standard => "standard",
    }
}

/// The `game_settings` of a rule set, or why RoyalUr has none for it.
fn settings(variant: &Variant) -> Result<serde_json::Value, RguError> {
    let refuse = |why: &str| RguError::Rules {
        rules: variant.to_string(),
        reason: why.to_owned(),
    };
    let path = match variant.path() {
        Path::Bell => "bell",
        Path::Masters => "masters",
        Path::Aseb => "aseb",
        _ => {
            return Err(refuse(
                "RoyalUr's tables hold the bell, masters and aseb paths only",
            ));
        }
    };
    let dice = match (variant.dice(), variant.zero_rolls()) {
        (4, 0) => "four_binary",
        (3, 4) => "three_binary_0eq4",
        _ => {
            return Err(refuse(
                "RoyalUr's tables hold four dice whose 0 moves nothing or three whose 0 moves four",
            ));
        }
    };
    Ok(serde_json::json!({
        "board_shape": board_id(variant.board()),
        "paths": path,
        "dice": dice,
        "start_pieces": variant.pieces(),
        "safe_rosettes": variant.safe_rosettes(),
        "rosettes_grant_rolls": variant.rosette_again(),
        "captures_grant_rolls": variant.capture_again(),
    }))
}

/// The rule set of RoyalUr's `game_settings`.
fn variant_of(json: &serde_json::Value) -> Result<Variant, RguError> {
    let field = |name: &str| {
        json.get(name)
            .ok_or_else(|| RguError::Header(format!("game_settings has no {name:?}")))
    };
    let text = |name: &str| -> Result<String, RguError> {
        field(name)?
            .as_str()
            .map(str::to_ascii_lowercase)
            .ok_or_else(|| RguError::Header(format!("game_settings {name:?} is not text")))
    };
    let switch = |name: &str| -> Result<bool, RguError> {
        field(name)?
            .as_bool()
            .ok_or_else(|| RguError::Header(format!("game_settings {name:?} is not true or false")))
    };
    let unknown = |what: &str, value: &str| {
        RguError::Header(format!(
            "game_settings names {what} {value:?}, which this build does not play"
        ))
    };
    let path = match text("paths")?.as_str() {
        "bell" => Path::Bell,
        "masters" => Path::Masters,
        "aseb" => Path::Aseb,
        other => return Err(unknown("the path", other)),
    };
    let board = text("board_shape")?;
    if board != board_id(path.board()) {
        return Err(unknown("the board", &board));
    }
    let (dice, zero_rolls) = match text("dice")?.as_str() {
        "four_binary" | "fourbinary" => (4, 0),
        "three_binary_0eq4" | "threebinary0max" => (3, 4),
        other => return Err(unknown("the dice", other)),
    };
    let pieces = field("start_pieces")?
        .as_u64()
        .and_then(|p| u8::try_from(p).ok())
        .ok_or_else(|| {
            RguError::Header("game_settings \"start_pieces\" is not a count".to_owned())
        })?;
    let (safe, rosette_again, capture_again) = (
        switch("safe_rosettes")?,
        switch("rosettes_grant_rolls")?,
        switch("captures_grant_rolls")?,
    );
    Variant::FINKEL
        .with_path(path)
        .with_dice(dice, zero_rolls)
        .and_then(|v| v.with_pieces(pieces))
        .map(|v| {
            v.with_safe_rosettes(safe)
                .with_rosette_again(rosette_again)
                .with_capture_again(capture_again)
        })
        .map_err(|e| RguError::Header(format!("game_settings: {e}")))
}

/// RoyalUr's board order of a square: along the board, then across.
fn board_order(square: Square) -> (u8, u8) {
    (square.file(), square.row())
}

/// The squares of a side's path, each with its step.
fn steps(path: Path, side: Side) -> Vec<(Square, u8)> {
    (1..=path.len())
        .filter_map(|s| path.square(side, s).map(|sq| (sq, s)))
        .collect()
}

impl Layout {
    fn new(variant: &Variant) -> Result<Layout, RguError> {
        settings(variant)?;
        let path = variant.path();
        let light = steps(path, Side::Light);
        let dark = steps(path, Side::Dark);
        let step_on = |list: &[(Square, u8)], sq: Square| {
            list.iter().find(|&&(s, _)| s == sq).map(|&(_, step)| step)
        };
        let mut squares: Vec<Square> = light.iter().chain(&dark).map(|&(sq, _)| sq).collect();
        squares.sort_by_key(|&sq| board_order(sq));
        squares.dedup();
        let (mut light_own, mut dark_own, mut shared) = (Vec::new(), Vec::new(), Vec::new());
        for sq in squares {
            match (step_on(&light, sq), step_on(&dark, sq)) {
                (Some(l), Some(d)) => shared.push((l, d)),
                (Some(l), None) => light_own.push(l),
                (None, Some(d)) => dark_own.push(d),
                (None, None) => {}
            }
        }
        let segment = segment_size(shared.len());
        // Bell's path is numbered as RoyalUr's Finkel layout: 7 pieces a
        // side whatever the count.
        let limit = if path == Path::Bell {
            7
        } else {
            variant.pieces()
        };
        let numbers = numbering(segment, limit);
        let most = numbers
            .iter()
            .filter(|&&n| n != u32::MAX)
            .max()
            .copied()
            .unwrap_or(0);
        let mut segment_bits = 1;
        while most > 1 << segment_bits {
            segment_bits += 1;
        }
        if u64::from(most) >= 1 << segment_bits {
            return Err(RguError::Rules {
                rules: variant.to_string(),
                reason: format!(
                    "RoyalUr's layout gives its {most} arrangements of {segment} squares \
                     {segment_bits} bits, which cannot tell them apart"
                ),
            });
        }
        Ok(Layout {
            pieces: variant.pieces(),
            light_own,
            dark_own,
            shared,
            segment,
            segment_bits,
            numbers,
        })
    }

    /// Bits of the board part of a key.
    fn board_bits(&self) -> u32 {
        let segments = self.shared.len().div_ceil(self.segment.max(1));
        (self.light_own.len() + self.dark_own.len()) as u32 + segments as u32 * self.segment_bits
    }

    /// The key of a state, light (the side to move) being "mine"; `None`
    /// where a segment's arrangement has no number.
    fn key(&self, state: State) -> Option<u64> {
        let has = |mask: u32, step: u8| mask >> step & 1 == 1;
        let own = |steps: &[u8], mask: u32| -> u64 {
            steps
                .iter()
                .enumerate()
                .map(|(k, &s)| u64::from(has(mask, s)) << k)
                .sum()
        };
        let dark = own(&self.dark_own, state.theirs);
        let light = own(&self.light_own, state.mine);
        let mut shared = 0u64;
        for segment in self.shared.chunks(self.segment.max(1)) {
            let mut arrangement = 0usize;
            for &(l, d) in segment {
                let occupant = if has(state.mine, l) {
                    2
                } else {
                    usize::from(has(state.theirs, d))
                };
                arrangement = arrangement << 2 | occupant;
            }
            let number = *self.numbers.get(arrangement)?;
            if number == u32::MAX {
                return None;
            }
            shared = shared << self.segment_bits | u64::from(number);
        }
        let own_bits = self.dark_own.len() as u32;
        let shared_bits = self.board_bits() - own_bits - self.light_own.len() as u32;
        let board = dark | shared << own_bits | light << (own_bits + shared_bits);
        let hand = |home: u8, mask: u32| {
            u64::from(self.pieces.saturating_sub(home + mask.count_ones() as u8))
        };
        let bits = self.board_bits();
        Some(
            board
                | hand(state.their_home, state.theirs) << bits
                | hand(state.my_home, state.mine) << (bits + 3),
        )
    }
}

/// Squares a segment numbers for `shared` shared squares: all of them up
/// to 8, else the fewest equal segments of at most 8 (RoyalUr's rule: 12
/// squares make two of 6).
fn segment_size(shared: usize) -> usize {
    if shared <= SEGMENT_MAX {
        return shared;
    }
    let mut segments = 2;
    loop {
        let size = shared.div_ceil(segments);
        if size <= SEGMENT_MAX {
            return size;
        }
        segments += 1;
    }
}

/// The number of each arrangement of `squares` squares with at most
/// `limit` pieces of each side, in order (the first square most
/// significant, 0 before 1 (dark) before 2 (light)); two bits a square.
fn numbering(squares: usize, limit: u8) -> Vec<u32> {
    fn walk(left: usize, light: u8, dark: u8, at: usize, next: &mut u32, out: &mut [u32]) {
        if left == 0 {
            if let Some(slot) = out.get_mut(at) {
                *slot = *next;
            }
            *next += 1;
            return;
        }
        walk(left - 1, light, dark, at << 2, next, out);
        if dark > 0 {
            walk(left - 1, light, dark - 1, at << 2 | 1, next, out);
        }
        if light > 0 {
            walk(left - 1, light - 1, dark, at << 2 | 2, next, out);
        }
    }
    let mut out = vec![u32::MAX; 1 << (2 * squares)];
    let mut next = 0;
    walk(squares, limit, limit, 0, &mut next, &mut out);
    out
}

/// What [`export_rgu`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RguWritten {
    /// Positions written (every position with light to move but those
    /// dark has won).
    pub entries: u64,
    /// Maps (the keys' upper 32 bits).
    pub maps: usize,
    /// Bytes of the file.
    pub bytes: u64,
}

/// The key RoyalUr's layout gives the position `state` (seen from the
/// side to move, which the layout calls light) of a rule set.
///
/// ```
/// use royal_ur::{Position, Variant};
/// use ur_solve::{Index, rgu_key};
///
/// // RoyalUr's key of the start of finkel with 2 pieces.
/// let v = Variant::FINKEL2P;
/// let index = Index::new(&v)?;
/// let start = index.state(&Position::start(&v, dice_core::Side::Light))?;
/// assert_eq!(rgu_key(&v, start)?, 0x2400_0000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`RguError::Rules`] for a rule set RoyalUr has no settings for, or
/// [`RguError::Header`] for a state its layout cannot number.
pub fn rgu_key(variant: &Variant, state: State) -> Result<u64, RguError> {
    Layout::new(variant)?
        .key(state)
        .ok_or_else(|| RguError::Header(format!("no key for {state:?}")))
}

/// Writes a table's values as a RoyalUr `.rgu` file with Percent16 values,
/// whole (with [`write_whole`](crate::write_whole)).
///
/// # Errors
///
/// [`RguError::Rules`] for a rule set RoyalUr has no settings for,
/// [`RguError::Io`] when the file cannot be written.
pub fn export_rgu<T: WinChances + ?Sized>(
    table: &T,
    path: &FilePath,
) -> Result<RguWritten, RguError> {
    let variant = *table.variant();
    let layout = Layout::new(&variant)?;
    let index = table.index();
    // (upper key, lower key, value) packed in one word, sorted.
    let mut entries: Vec<u64> = Vec::new();
    for i in 0..index.len() {
        let Some(state) = index.unrank(i) else {
            continue;
        };
        if state.their_home >= index.pieces() {
            continue;
        }
        let key = layout
            .key(state)
            .ok_or_else(|| RguError::Header(format!("no key for state {i}")))?;
        if key >> 32 >= 1 << 16 {
            return Err(RguError::Header(format!("key {key:#x} has too many bits")));
        }
        entries.push(key << 16 | u64::from(crate::to_p16(table.value_at(i))));
    }
    entries.sort_unstable();
    if entries
        .windows(2)
        .any(|w| matches!(w, [a, b] if a >> 16 == b >> 16))
    {
        return Err(RguError::Header("two positions share a key".to_owned()));
    }
    let maps = entries.last().map_or(1, |&e| (e >> 48) as usize + 1);
    let mut counts = vec![0u32; maps];
    for &e in &entries {
        if let Some(c) = counts.get_mut((e >> 48) as usize) {
            *c += 1;
        }
    }
    let metadata = serde_json::json!({
        "value_type": "percent16",
        "game_settings": settings(&variant)?,
    })
    .to_string();
    let io = |source| RguError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut head = Vec::new();
    head.extend_from_slice(&RGU_MAGIC);
    head.push(RGU_VERSION);
    head.extend_from_slice(&(metadata.len() as u32).to_be_bytes());
    head.extend_from_slice(metadata.as_bytes());
    head.extend_from_slice(&(maps as u32).to_be_bytes());
    for c in &counts {
        head.extend_from_slice(&c.to_be_bytes());
    }
    write_whole(path, |w| {
        w.write_all(&head)?;
        for &e in &entries {
            w.write_all(&((e >> 16) as u32).to_be_bytes())?;
        }
        for &e in &entries {
            w.write_all(&(e as u16).to_be_bytes())?;
        }
        Ok(())
    })
    .map_err(io)?;
    Ok(RguWritten {
        entries: entries.len() as u64,
        maps,
        bytes: head.len() as u64 + 6 * entries.len() as u64,
    })
}

/// Big-endian numbers from a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], RguError> {
        let found = self.bytes.len() as u64;
        let part =
            self.bytes
                .get(self.at..self.at.saturating_add(n))
                .ok_or(RguError::Truncated {
                    expected: self.at as u64 + n as u64,
                    found,
                })?;
        self.at += n;
        Ok(part)
    }

    fn u32(&mut self) -> Result<u32, RguError> {
        let mut w = [0u8; 4];
        w.copy_from_slice(self.take(4)?);
        Ok(u32::from_be_bytes(w))
    }
}

/// Reads a RoyalUr `.rgu` file into values for this crate's index of its
/// rule set (the chance that the side to move wins; 0 where the other
/// side has won, 1 where both sides' pieces are home, as the solver
/// stores them): a [`Solution`] with no solve figures, to write as a
/// table with [`write_table`](crate::write_table).
///
/// # Errors
///
/// An [`RguError`] naming what is wrong: `missing`, `io`, `not_rgu`,
/// `version`, `header` (metadata that is not RoyalUr's, settings this
/// build does not play), `rules`, `truncated`, `missing_key` (a position
/// the file does not hold).
pub fn import_rgu(path: &FilePath) -> Result<Solution, RguError> {
    let bytes = std::fs::read(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            RguError::Missing(path.to_path_buf())
        } else {
            RguError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    let mut r = Reader {
        bytes: &bytes,
        at: 0,
    };
    if r.take(3).ok() != Some(&RGU_MAGIC[..]) {
        return Err(RguError::NotRgu(path.to_path_buf()));
    }
    let version = r.take(1)?.first().copied().unwrap_or(0);
    if version != RGU_VERSION {
        return Err(RguError::Version(version));
    }
    let meta_len = r.u32()? as usize;
    let meta = std::str::from_utf8(r.take(meta_len)?)
        .map_err(|_| RguError::Header("the metadata is not UTF-8".to_owned()))?;
    let meta: serde_json::Value = serde_json::from_str(meta)
        .map_err(|e| RguError::Header(format!("the metadata is not JSON: {e}")))?;
    let value_size = match meta.get("value_type").and_then(|v| v.as_str()) {
        None | Some("percent16") => 2,
        Some("f32") => 4,
        Some("f64") => 8,
        Some(other) => {
            return Err(RguError::Header(format!(
                "value type {other:?} is not a chance (percent16, f32 or f64)"
            )));
        }
    };
    let settings = meta
        .get("game_settings")
        .ok_or_else(|| RguError::Header("the metadata has no game_settings".to_owned()))?;
    let variant = variant_of(settings)?;
    let layout = Layout::new(&variant)?;
    let maps = r.u32()? as usize;
    if maps > 1 << 16 {
        return Err(RguError::Header(format!("{maps} maps")));
    }
    let mut counts = Vec::with_capacity(maps);
    for _ in 0..maps {
        counts.push(r.u32()? as usize);
    }
    let total: usize = counts.iter().sum();
    let keys_at = r.at;
    let values_at = keys_at + 4 * total;
    let expected = (values_at + value_size * total) as u64;
    if bytes.len() as u64 != expected {
        return Err(RguError::Truncated {
            expected,
            found: bytes.len() as u64,
        });
    }
    let index = Index::new(&variant).map_err(|e| RguError::Rules {
        rules: variant.to_string(),
        reason: e.to_string(),
    })?;
    // Where each map's keys start.
    let mut starts = Vec::with_capacity(maps);
    let mut at = 0;
    for &c in &counts {
        starts.push(at);
        at += c;
    }
    let key_at = |k: usize| -> u32 {
        let mut w = [0u8; 4];
        if let Some(b) = bytes.get(keys_at + 4 * k..keys_at + 4 * k + 4) {
            w.copy_from_slice(b);
        }
        u32::from_be_bytes(w)
    };
    let value_at = |k: usize| -> f64 {
        let at = values_at + value_size * k;
        let part = bytes.get(at..at + value_size).unwrap_or(&[]);
        match value_size {
            2 => <[u8; 2]>::try_from(part).map_or(0.0, |w| crate::from_p16(u16::from_be_bytes(w))),
            4 => {
                <[u8; 4]>::try_from(part).map_or(0.0, |w| f64::from(f32::from_be_bytes(w)) / 100.0)
            }
            _ => <[u8; 8]>::try_from(part).map_or(0.0, |w| f64::from_be_bytes(w) / 100.0),
        }
    };
    let mut values = Vec::with_capacity(usize::try_from(index.len()).unwrap_or(0));
    for i in 0..index.len() {
        let Some(state) = index.unrank(i) else {
            values.push(0.0);
            continue;
        };
        // The finished games RoyalUr leaves out: the solver's values.
        if state.my_home >= index.pieces() {
            values.push(1.0);
            continue;
        }
        if state.their_home >= index.pieces() {
            values.push(0.0);
            continue;
        }
        let missing = || RguError::MissingKey {
            position: index.position(state, Side::Light).to_string(),
        };
        let key = layout.key(state).ok_or_else(missing)?;
        let map = (key >> 32) as usize;
        let (Some(&start), Some(&count)) = (starts.get(map), counts.get(map)) else {
            return Err(missing());
        };
        let lower = key as u32;
        let (mut lo, mut hi) = (start, start + count);
        let mut found = None;
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match key_at(mid).cmp(&lower) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    found = Some(mid);
                    break;
                }
            }
        }
        let k = found.ok_or_else(missing)?;
        values.push(value_at(k).clamp(0.0, 1.0));
    }
    Ok(Solution::from_values(index, values))
}
