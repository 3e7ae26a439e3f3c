//! Reading what the user hands over: files, standard input, seeds.

use std::io::Read;

use dice_core::Seed;

use crate::error::{Refused, io_words};

/// The most a record file may hold; more is refused rather than read.
pub const INPUT_MAX: u64 = 64 * 1024 * 1024;

/// The text of a file, or of standard input for `-`, with the name to use
/// in messages.
///
/// # Errors
///
/// `file` when it cannot be read (missing, a directory, too large) and
/// `not_text` when it is not UTF-8, naming the line of the first bad byte.
pub fn read_text(path: &str) -> Result<(String, String), Refused> {
    let (name, bytes) = if path == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .take(INPUT_MAX + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Refused::new("standard input", "file", format!("cannot be read: {e}")))?;
        ("standard input".to_owned(), bytes)
    } else {
        let name = path.to_owned();
        let file = std::fs::File::open(path).map_err(|e| {
            Refused::new(&name, "file", format!("cannot be opened: {}", io_words(&e)))
                .detail("path", path)
        })?;
        let meta = file.metadata().map_err(|e| {
            Refused::new(&name, "file", format!("cannot be read: {}", io_words(&e)))
        })?;
        if meta.is_dir() {
            return Err(
                Refused::new(&name, "file", "is a directory, not a record").detail("path", path)
            );
        }
        let mut bytes = Vec::new();
        file.take(INPUT_MAX + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| {
                Refused::new(&name, "file", format!("cannot be read: {}", io_words(&e)))
            })?;
        (name, bytes)
    };
    if bytes.len() as u64 > INPUT_MAX {
        return Err(Refused::new(
            &name,
            "file",
            format!(
                "is larger than {} MiB, which no record is",
                INPUT_MAX / (1024 * 1024)
            ),
        ));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let line = e
                .as_bytes()
                .iter()
                .take(at)
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            Err(
                Refused::new(&name, "not_text", format!("is not UTF-8 text (byte {at})"))
                    .line(line)
                    .detail("byte", at),
            )
        }
    }
}

/// A seed, and how it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenSeed {
    /// The seed.
    pub seed: Seed,
    /// The seed as every output shows it ([`shown`]).
    pub shown: String,
}

impl GivenSeed {
    /// A seed, however it was given or made (from the clock, or the next
    /// game's).
    pub fn made(seed: Seed) -> GivenSeed {
        let shown = shown(&seed);
        GivenSeed { seed, shown }
    }
}

/// How every output shows a seed, whether given as text, as hex or made
/// by the program: `"TEXT"` when its bytes are printable UTF-8, else `hex
/// HEX` in lowercase (the record's `[seed HEX]`).
pub fn shown(seed: &Seed) -> String {
    match std::str::from_utf8(seed.as_bytes()) {
        Ok(text) if !text.chars().any(char::is_control) => format!("{text:?}"),
        _ => format!("hex {}", seed.to_hex()),
    }
}

/// The seed from `--seed TEXT` (its bytes) or `--seed-hex HEX`.
///
/// # Errors
///
/// `seed` with the seed's own reason (`empty`, `odd_length`, `not_hex`).
pub fn seed(text: Option<&str>, hex: Option<&str>) -> Result<Option<GivenSeed>, Refused> {
    let (input, made) = match (text, hex) {
        (Some(t), _) => ("--seed", Seed::new(t.as_bytes())),
        (None, Some(h)) => ("--seed-hex", Seed::from_hex(h)),
        (None, None) => return Ok(None),
    };
    match made {
        Ok(seed) => Ok(Some(GivenSeed::made(seed))),
        Err(e) => Err(Refused::new(input, "seed", e.to_string()).why(e.code())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_shown_one_way_however_given() {
        let text = seed(Some("my seed"), None).unwrap().unwrap();
        assert_eq!(text.shown, "\"my seed\"");
        let hex = seed(None, Some("5F1c")).unwrap().unwrap();
        assert_eq!(
            (hex.shown.as_str(), hex.seed.to_hex()),
            ("hex 5f1c", "5f1c".to_owned())
        );
        // Text given as hex is shown as the text it is.
        let spelled = seed(None, Some("6d79")).unwrap().unwrap();
        assert_eq!(spelled.shown, "\"my\"");
        assert_eq!(
            seed(Some("a\u{1}"), None).unwrap().unwrap().shown,
            "hex 6101"
        );
        assert_eq!(shown(&Seed::new([0xff, 0x00]).unwrap()), "hex ff00");
        assert_eq!(shown(&Seed::new("soak:12").unwrap()), "\"soak:12\"");
        assert!(seed(Some(""), None).is_err());
        assert_eq!(seed(None, None), Ok(None));
    }
}
