//! The dice: throws derived from a seed, or a script of real rolls.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use sha2::block_api::compress256;

use crate::Seed;
use crate::lanes;

/// The most dice (or sticks) a throw can hold: the bits of one byte.
pub const MAX_DICE: u8 = 8;

/// The bits of throw number `n` of a game with this seed: the first byte of
/// `SHA-256(seed ++ "roll:" ++ decimal(n))`.
///
/// Die `i` is bit `i` (least significant first). This derivation is
/// value-stable: it is pinned by known-answer tests, because changing it would
/// change every game ever recorded.
///
/// ```
/// use dice_core::{throw_bits, Seed};
///
/// let seed = Seed::new("royalur pinned one")?;
/// // Throw 0 is 1100 in die order: dice 0 and 1 marked.
/// assert_eq!(throw_bits(&seed, 0) & 0b1111, 0b0011);
/// # Ok::<(), dice_core::SeedError>(())
/// ```
#[must_use]
pub fn throw_bits(seed: &Seed, n: u64) -> u8 {
    SeedHash::new(seed).first_byte(n)
}

/// SHA-256 with the seed and `roll:` already absorbed, so that a throw only
/// hashes its number: the state after the prefix's whole 64-byte blocks, and
/// the bytes left over.
#[derive(Clone, Debug)]
pub(crate) struct SeedHash {
    state: [u32; 8],
    /// The prefix's bytes after its last whole block (fewer than 64).
    tail: [u8; 64],
    tail_len: usize,
    /// Bytes of the prefix absorbed into `state`.
    absorbed: u64,
}

/// The SHA-256 initial state.
pub(crate) const SHA256_INIT: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

// SHA block assembly runs once per throw, so it keeps plain indexing. Every
// index is in bounds: `tail_len` is below 64 whenever `tail` is indexed (it is
// reset on reaching 64). In `first_byte`, `flat` has 128 bytes, so at least
// 65 follow the tail (room for the 20 digits a `u64` can take); `used` is at
// most 63 + 20 = 83, and `count` is 1 or 2, so `count * 64` is at most 128
// and `blocks[..count]` fits the two blocks. In `decade` the tail is at
// most 35 bytes, so 29 follow it in a block, `end` is at most 55 and the
// length fits in bytes 56..64; `end - 1` is at least the tail's length plus
// one digit minus one, so it is in `0..64`.
#[allow(
    clippy::indexing_slicing,
    reason = "hot path; every index is proved in bounds in the comment above"
)]
impl SeedHash {
    fn new(seed: &Seed) -> SeedHash {
        let mut hash = SeedHash {
            state: SHA256_INIT,
            tail: [0; 64],
            tail_len: 0,
            absorbed: 0,
        };
        for &b in seed.as_bytes().iter().chain(b"roll:") {
            hash.tail[hash.tail_len] = b;
            hash.tail_len += 1;
            if hash.tail_len == 64 {
                compress256(&mut hash.state, &[hash.tail]);
                hash.absorbed += 64;
                hash.tail_len = 0;
            }
        }
        // Zeros after the tail, so that a copy of it is a block's start.
        hash.tail[hash.tail_len..].fill(0);
        hash
    }

    /// The first byte of `SHA-256(prefix ++ decimal(n))`.
    fn first_byte(&self, n: u64) -> u8 {
        // The message's last bytes, the 0x80 marker, zeros, and the length
        // in bits: one block, or two when the tail is long.
        let mut blocks = [self.tail, [0; 64]];
        let flat = blocks.as_flattened_mut();
        let used = self.tail_len + write_decimal(n, &mut flat[self.tail_len..]);
        flat[used] = 0x80;
        let count = if used + 9 <= 64 { 1 } else { 2 };
        let bits = (self.absorbed + used as u64) * 8;
        flat[count * 64 - 8..count * 64].copy_from_slice(&bits.to_be_bytes());
        let mut state = self.state;
        compress256(&mut state, &blocks[..count]);
        (state[0] >> 24) as u8
    }

    /// The first bytes of the hashes of the ten throws `10 * decade` to
    /// `10 * decade + 9` (numbers past `u64::MAX` give bytes nobody asks for).
    ///
    /// When a throw's message ends in a single block (a tail of at most 35
    /// bytes, so that even a 20-digit number, the marker and the length
    /// fit), the ten blocks differ only in their last digit: each is the
    /// first one with the digit raised, and [`lanes::decade`] hashes them
    /// side by side for little more than the cost of one.
    fn decade(&self, decade: u64) -> [u8; 10] {
        // At most u64::MAX / 10 * 10: no overflow.
        let from = decade * 10;
        if self.tail_len + 20 + 9 > 64 {
            return std::array::from_fn(|k| self.first_byte(from.wrapping_add(k as u64)));
        }
        let mut block = self.tail;
        let end = self.tail_len + write_decimal(from, &mut block[self.tail_len..]);
        block[end] = 0x80;
        let bits = (self.absorbed + end as u64) * 8;
        block[56..].copy_from_slice(&bits.to_be_bytes());
        // Throw `from + k` is this block with `k` added to its last digit.
        let mut step = [0; 64];
        step[end - 1] = 1;
        lanes::decade(&self.state, &lanes::words(&block), &lanes::words(&step))
            .map(|word| (word >> 24) as u8)
    }
}

/// Writes `n` in decimal at the start of `out` and returns how many digits
/// that took (at most 20).
#[allow(
    clippy::indexing_slicing,
    reason = "callers leave at least 20 bytes in `out`, and a u64 has at most 20 digits"
)]
fn write_decimal(n: u64, out: &mut [u8]) -> usize {
    let len = n.checked_ilog10().map_or(1, |log| log as usize + 1);
    let mut rest = n;
    for digit in out[..len].iter_mut().rev() {
        *digit = b'0' + (rest % 10) as u8;
        rest /= 10;
    }
    len
}

/// The bits of the ten throws that share all but the last digit of their
/// number, hashed together when the first of them is asked for.
#[derive(Clone, Debug)]
pub(crate) struct Decade {
    /// Which ten: throws `10 * decade ..= 10 * decade + 9`.
    decade: u64,
    /// Whether `bits` holds them (false until a throw is made).
    held: bool,
    bits: [u8; 10],
}

impl Decade {
    const EMPTY: Decade = Decade {
        decade: 0,
        held: false,
        bits: [0; 10],
    };

    /// The bits of throw `n`, hashing its ten when they are not held.
    fn get(&mut self, hash: &SeedHash, n: u64) -> u8 {
        let (decade, digit) = (n / 10, (n % 10) as usize);
        if !self.held || self.decade != decade {
            self.bits = hash.decade(decade);
            self.decade = decade;
            self.held = true;
        }
        self.bits.get(digit).copied().unwrap_or_default()
    }
}

/// The faces of one throw: which dice (or sticks) came up marked, in die order.
///
/// Faces are written as a string of `0`/`1`, die 0 first, e.g. `1011`. That
/// text is also the serde form.
///
/// ```
/// use dice_core::Faces;
///
/// let faces: Faces = "1011".parse()?;
/// assert_eq!(faces.len(), 4);
/// assert_eq!(faces.marked(), 3);
/// assert!(faces.die(0) && !faces.die(1));
/// assert_eq!(faces.to_string(), "1011");
/// # Ok::<(), dice_core::ParseFacesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Faces {
    bits: u8,
    len: u8,
}

impl Faces {
    /// The first `len` dice of `bits` (die `i` is bit `i`); bits above them
    /// are dropped, and `len` is capped at [`MAX_DICE`].
    #[must_use]
    pub const fn new(bits: u8, len: u8) -> Faces {
        let len = if len > MAX_DICE { MAX_DICE } else { len };
        let mask = if len >= 8 { 0xff } else { (1u8 << len) - 1 };
        Faces {
            bits: bits & mask,
            len,
        }
    }

    /// The faces of throw `n` of a game with this seed, with `len` dice.
    ///
    /// ```
    /// use dice_core::{Faces, Seed};
    ///
    /// let seed = Seed::from_hex("5f1c9a")?;
    /// assert_eq!(Faces::thrown(&seed, 0, 4).to_string(), "1001");
    /// assert_eq!(Faces::thrown(&seed, 0, 3).to_string(), "100");
    /// # Ok::<(), dice_core::SeedError>(())
    /// ```
    #[must_use]
    pub fn thrown(seed: &Seed, n: u64, len: u8) -> Faces {
        Faces::new(throw_bits(seed, n), len)
    }

    /// The dice as bits, die `i` at bit `i`.
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.bits
    }

    /// How many dice were thrown.
    #[must_use]
    pub const fn len(self) -> u8 {
        self.len
    }

    /// Whether no dice were thrown at all.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.len == 0
    }

    /// How many dice came up marked (the 1s).
    #[must_use]
    pub const fn marked(self) -> u8 {
        self.bits.count_ones() as u8
    }

    /// Whether die `i` came up marked (false past the last die).
    #[must_use]
    pub const fn die(self, i: u8) -> bool {
        i < self.len && (self.bits >> i) & 1 == 1
    }
}

impl fmt::Display for Faces {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.len {
            f.write_str(if self.die(i) { "1" } else { "0" })?;
        }
        Ok(())
    }
}

/// Text that is not 1 to 8 characters of `0` and `1`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("faces are 1 to 8 digits 0 or 1, not {0:?}")]
pub struct ParseFacesError(pub String);

impl FromStr for Faces {
    type Err = ParseFacesError;

    fn from_str(s: &str) -> Result<Faces, ParseFacesError> {
        let err = || ParseFacesError(s.to_owned());
        let len = u8::try_from(s.len()).map_err(|_| err())?;
        if len == 0 || len > MAX_DICE {
            return Err(err());
        }
        let mut bits = 0u8;
        for (i, c) in s.bytes().enumerate() {
            match c {
                b'0' => {}
                b'1' => bits |= 1 << i,
                _ => return Err(err()),
            }
        }
        Ok(Faces::new(bits, len))
    }
}

crate::serde_via_text!(Faces);

/// The side whose throw has more dice marked, or `None` for a tie: the
/// usual throw-off for the first move (see [`Rules::throw_off`](crate::Rules::throw_off)).
///
/// ```
/// use dice_core::{Faces, Side, more_marked};
///
/// let light: Faces = "1100".parse()?;
/// let dark: Faces = "1101".parse()?;
/// assert_eq!(more_marked(light, dark), Some(Side::Dark));
/// assert_eq!(more_marked(light, light), None);
/// # Ok::<(), dice_core::ParseFacesError>(())
/// ```
#[must_use]
pub fn more_marked(light: Faces, dark: Faces) -> Option<crate::Side> {
    match light.marked().cmp(&dark.marked()) {
        std::cmp::Ordering::Greater => Some(crate::Side::Light),
        std::cmp::Ordering::Less => Some(crate::Side::Dark),
        std::cmp::Ordering::Equal => None,
    }
}

/// One roll of a game played with real dice: what it was worth, and the
/// faces if they were written down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScriptRoll {
    /// The roll: what the throw was worth.
    pub roll: u8,
    /// The faces behind the roll, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faces: Option<Faces>,
}

impl ScriptRoll {
    /// A roll with no faces.
    #[must_use]
    pub const fn new(roll: u8) -> ScriptRoll {
        ScriptRoll { roll, faces: None }
    }

    /// A roll with the faces behind it.
    #[must_use]
    pub const fn with_faces(roll: u8, faces: Faces) -> ScriptRoll {
        ScriptRoll {
            roll,
            faces: Some(faces),
        }
    }
}

/// Where a game's throws come from.
///
/// A seeded source never runs out; a script ends with its last roll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dice {
    /// Throws derived from a seed (see [`throw_bits`]).
    Seeded(Seed),
    /// The rolls of a game played with real dice, in order.
    Script(Vec<ScriptRoll>),
}

impl Dice {
    /// The seed, for a seeded source.
    #[must_use]
    pub fn seed(&self) -> Option<&Seed> {
        match self {
            Dice::Seeded(seed) => Some(seed),
            Dice::Script(_) => None,
        }
    }

    /// The script, for a scripted source.
    #[must_use]
    pub fn script(&self) -> Option<&[ScriptRoll]> {
        match self {
            Dice::Seeded(_) => None,
            Dice::Script(rolls) => Some(rolls),
        }
    }
}

/// A [`Dice`] ready to throw quickly: a seeded source keeps the hash state of
/// its seed so that a throw only hashes its number, and hashes the ten
/// throws of a decade together.
#[derive(Clone, Debug)]
pub(crate) enum Thrower {
    Seeded {
        seed: Seed,
        hash: SeedHash,
        decade: Decade,
    },
    Script(Vec<ScriptRoll>),
}

/// One throw as the game sees it: the faces when known, and for a script the
/// roll it states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Thrown {
    Faces(Faces),
    Scripted(ScriptRoll),
}

impl Thrower {
    pub(crate) fn new(dice: Dice) -> Thrower {
        match dice {
            Dice::Seeded(seed) => {
                let hash = SeedHash::new(&seed);
                Thrower::Seeded {
                    seed,
                    hash,
                    decade: Decade::EMPTY,
                }
            }
            Dice::Script(rolls) => Thrower::Script(rolls),
        }
    }

    pub(crate) fn dice(&self) -> Dice {
        match self {
            Thrower::Seeded { seed, .. } => Dice::Seeded(seed.clone()),
            Thrower::Script(rolls) => Dice::Script(rolls.clone()),
        }
    }

    pub(crate) fn seed(&self) -> Option<&Seed> {
        match self {
            Thrower::Seeded { seed, .. } => Some(seed),
            Thrower::Script(_) => None,
        }
    }

    /// Throw number `n` of the game with `len` dice; for a script, entry
    /// `n - skip` (a script holds no opening throws). `None` when a script
    /// has run out.
    pub(crate) fn throw(&mut self, n: u64, skip: u64, len: u8) -> Option<Thrown> {
        match self {
            Thrower::Seeded { hash, decade, .. } => {
                Some(Thrown::Faces(Faces::new(decade.get(hash, n), len)))
            }
            Thrower::Script(rolls) => {
                let index = usize::try_from(n.checked_sub(skip)?).ok()?;
                rolls.get(index).copied().map(Thrown::Scripted)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn faces_of(seed: &Seed, count: u64) -> String {
        (0..count)
            .map(|n| Faces::thrown(seed, n, 4).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn known_answers_of_the_dice_spec() {
        let pinned = Seed::new("royalur pinned one").unwrap();
        assert_eq!(
            faces_of(&pinned, 8),
            "1100 1101 0010 1010 0100 1010 0110 1001"
        );
        let hex = Seed::from_hex("5f1c9a").unwrap();
        assert_eq!(faces_of(&hex, 6), "1001 0000 1100 1111 1100 0111");
        let senet = Seed::new("senet example").unwrap();
        assert_eq!(
            faces_of(&senet, 8),
            "1111 1011 0001 0111 0000 1101 0010 0101"
        );
    }

    #[test]
    fn sixty_four_throws_of_a_plain_seed_are_pinned() {
        let seed = Seed::new("dice-core pin").unwrap();
        let bits: Vec<String> = (0..64)
            .map(|n| format!("{:02x}", throw_bits(&seed, n)))
            .collect();
        insta::assert_snapshot!(bits.join(" "));
    }

    #[test]
    fn sixty_four_throws_of_a_seed_with_nul_and_ff_are_pinned() {
        let seed = Seed::new([0x00, 0xff, b'r', 0x00, 0xff]).unwrap();
        let bits: Vec<String> = (0..64)
            .map(|n| format!("{:02x}", throw_bits(&seed, n)))
            .collect();
        insta::assert_snapshot!(bits.join(" "));
    }

    /// The first byte of SHA-256 of the whole message, by the plain hasher.
    fn direct(seed: &[u8], n: u64) -> u8 {
        use sha2::{Digest, Sha256};
        let mut message = seed.to_vec();
        message.extend_from_slice(format!("roll:{n}").as_bytes());
        Sha256::digest(&message)[0]
    }

    #[test]
    fn large_throw_numbers_are_plain_decimal() {
        let seed = Seed::new("x").unwrap();
        for n in [0, 9, 10, 10_000, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(throw_bits(&seed, n), direct(b"x", n), "{n}");
        }
    }

    #[test]
    fn seeds_of_every_length_across_block_boundaries_agree_with_plain_sha256() {
        for len in 1..=140usize {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
            let seed = Seed::new(&bytes).unwrap();
            for n in [0, 7, 12, 345, 99_999, 1 << 40, u64::MAX] {
                assert_eq!(
                    throw_bits(&seed, n),
                    direct(&bytes, n),
                    "seed length {len}, throw {n}"
                );
            }
        }
    }

    #[test]
    fn three_dice_are_the_first_three_of_four() {
        let seed = Seed::new("senet example").unwrap();
        for n in 0..32 {
            let four = Faces::thrown(&seed, n, 4).to_string();
            assert_eq!(Faces::thrown(&seed, n, 3).to_string(), four[..3]);
        }
    }

    #[test]
    fn faces_text_round_trips_and_refuses_junk() {
        for text in ["0", "1", "101", "0000", "11111111"] {
            assert_eq!(text.parse::<Faces>().unwrap().to_string(), text);
        }
        for text in ["", "2", "10a", "111111111", " 1"] {
            assert!(text.parse::<Faces>().is_err(), "{text:?}");
        }
    }

    /// A seeded thrower hashes ten throws at a time (side by side where it
    /// can); every throw must still be the one `throw_bits` makes alone, for
    /// every length of tail (one block or two), on both sides of a decade,
    /// where the number gains a digit, and at the very end of `u64`.
    #[test]
    fn batched_throws_are_the_single_throws() {
        let numbers: Vec<u64> = (0..25)
            .chain(95..=105)
            .chain([9_999, 10_000, 123_456_789])
            .chain(u64::MAX - 12..=u64::MAX)
            .collect();
        for len in 1..=130 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + len) as u8).collect();
            let seed = Seed::new(bytes).unwrap();
            let mut thrower = Thrower::new(Dice::Seeded(seed.clone()));
            // In order, as a game throws, then backwards, as undo goes.
            for &n in numbers.iter().chain(numbers.iter().rev()) {
                let expected = Faces::new(throw_bits(&seed, n), 8);
                assert_eq!(
                    thrower.throw(n, 0, 8),
                    Some(Thrown::Faces(expected)),
                    "seed of {len} bytes, throw {n}"
                );
            }
        }
    }

    #[test]
    fn a_script_runs_out() {
        let mut thrower = Thrower::new(Dice::Script(vec![ScriptRoll::new(3)]));
        assert_eq!(
            thrower.throw(0, 0, 4),
            Some(Thrown::Scripted(ScriptRoll::new(3)))
        );
        assert_eq!(thrower.throw(1, 0, 4), None);
        assert_eq!(
            thrower.throw(2, 2, 4),
            Some(Thrown::Scripted(ScriptRoll::new(3)))
        );
        assert_eq!(thrower.throw(0, 2, 4), None);
    }
}
