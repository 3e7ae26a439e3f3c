//! Seeds: the bytes that decide every throw of a game.

use std::fmt;
use std::str::FromStr;

/// A seed: a non-empty sequence of bytes, used exactly as given.
///
/// Bytes are not decoded, trimmed or converted; NUL and 0xFF are ordinary
/// bytes. The text form (used by records and by serde) is the lowercase
/// hexadecimal of the bytes.
///
/// ```
/// use dice_core::Seed;
///
/// let seed = Seed::new("royalur pinned one")?;
/// assert_eq!(seed.as_bytes(), b"royalur pinned one");
///
/// let raw = Seed::from_hex("00ff5f")?;
/// assert_eq!(raw.as_bytes(), &[0x00, 0xff, 0x5f]);
/// assert_eq!(raw.to_hex(), "00ff5f");
/// assert!(Seed::new("").is_err());
/// # Ok::<(), dice_core::SeedError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Seed(Box<[u8]>);

crate::coded_error! {
    /// Why some bytes or some text could not become a [`Seed`].
    #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
    #[non_exhaustive]
    pub enum SeedError {
        /// A seed needs at least one byte.
        #[error("a seed needs at least one byte")]
        Empty => "empty",
        /// The hexadecimal text has an odd number of digits.
        #[error("seed hex {text:?} has an odd number of digits ({len})")]
        OddLength {
            /// The text given.
            text: String,
            /// Its length in bytes.
            len: usize,
        } => "odd_length",
        /// The hexadecimal text holds something that is not a hex digit.
        #[error("seed hex {text:?} has {found:?} at byte {at}, which is not a hex digit")]
        NotHex {
            /// The text given.
            text: String,
            /// The offending character.
            found: char,
            /// Its byte offset in the text.
            at: usize,
        } => "not_hex",
    }
}

impl Seed {
    /// A seed of these bytes.
    ///
    /// # Errors
    ///
    /// [`SeedError::Empty`] when there are no bytes.
    pub fn new(bytes: impl AsRef<[u8]>) -> Result<Seed, SeedError> {
        let bytes = bytes.as_ref();
        if bytes.is_empty() {
            return Err(SeedError::Empty);
        }
        Ok(Seed(bytes.into()))
    }

    /// The seed whose bytes the hexadecimal text spells. Upper- and lowercase
    /// digits are both read; [`Seed::to_hex`] writes lowercase.
    ///
    /// # Errors
    ///
    /// [`SeedError::Empty`], [`SeedError::OddLength`] or [`SeedError::NotHex`].
    pub fn from_hex(text: &str) -> Result<Seed, SeedError> {
        if let Some((at, found)) = text.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
            return Err(SeedError::NotHex {
                text: text.to_owned(),
                found,
                at,
            });
        }
        if !text.len().is_multiple_of(2) {
            return Err(SeedError::OddLength {
                text: text.to_owned(),
                len: text.len(),
            });
        }
        // The length is even, so the pairs cover the whole text.
        let (pairs, _) = text.as_bytes().as_chunks::<2>();
        let bytes: Vec<u8> = pairs
            .iter()
            .map(|&[high, low]| (hex_value(high) << 4) | hex_value(low))
            .collect();
        Seed::new(bytes)
    }

    /// The bytes, exactly as given.
    #[must_use]
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// The lowercase hexadecimal text of the bytes.
    #[must_use]
    pub fn to_hex(&self) -> String {
        let mut out = String::with_capacity(self.0.len() * 2);
        for &b in self.0.iter() {
            for nibble in [b >> 4, b & 15] {
                // A nibble is below 16, so it is always a hex digit.
                out.extend(char::from_digit(u32::from(nibble), 16));
            }
        }
        out
    }
}

/// The value of one ASCII hex digit (the caller has checked it is one).
fn hex_value(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        _ => digit.wrapping_sub(b'A').wrapping_add(10) & 15,
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed({})", self.to_hex())
    }
}

/// The lowercase hex form.
impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// Reads the hex form (see [`Seed::from_hex`]).
impl FromStr for Seed {
    type Err = SeedError;

    fn from_str(s: &str) -> Result<Seed, SeedError> {
        Seed::from_hex(s)
    }
}

crate::serde_via_text!(Seed);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_keeps_nul_and_ff() {
        let seed = Seed::new([0u8, 255, 16, 1]).unwrap();
        assert_eq!(seed.to_hex(), "00ff1001");
        assert_eq!(Seed::from_hex("00FF1001").unwrap(), seed);
        assert_eq!(seed.to_string().parse::<Seed>().unwrap(), seed);
    }

    #[test]
    fn bad_hex_is_refused_with_what_was_wrong() {
        assert_eq!(Seed::from_hex(""), Err(SeedError::Empty));
        assert_eq!(
            Seed::from_hex("abc"),
            Err(SeedError::OddLength {
                text: "abc".into(),
                len: 3
            })
        );
        assert_eq!(
            Seed::from_hex("0g"),
            Err(SeedError::NotHex {
                text: "0g".into(),
                found: 'g',
                at: 1
            })
        );
        assert_eq!(Seed::from_hex("é").unwrap_err().code(), "not_hex");
    }

    #[test]
    fn serde_uses_the_hex_form() {
        let seed = Seed::new("ab").unwrap();
        let json = serde_json::to_string(&seed).unwrap();
        assert_eq!(json, "\"6162\"");
        assert_eq!(serde_json::from_str::<Seed>(&json).unwrap(), seed);
        assert!(serde_json::from_str::<Seed>("\"\"").is_err());
    }
}
