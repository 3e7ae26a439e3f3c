//! Reading what the user hands over: files, standard input, seeds.

use std::io::Read;

use dice_core::Seed;

use crate::error::Refused;

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

/// A lowercase description of an I/O error, without the OS error number.
pub fn io_words(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        std::io::ErrorKind::IsADirectory => "is a directory".to_owned(),
        _ => {
            let text = e.to_string().to_lowercase();
            match text.find(" (os error") {
                Some(at) => text[..at].to_owned(),
                None => text,
            }
        }
    }
}

/// The seed from `--seed TEXT` (its bytes) or `--seed-hex HEX`.
///
/// # Errors
///
/// `seed` with the seed's own reason (`empty`, `odd_length`, `not_hex`).
pub fn seed(text: Option<&str>, hex: Option<&str>) -> Result<Option<Seed>, Refused> {
    let (input, made) = match (text, hex) {
        (Some(t), _) => ("--seed", Seed::new(t.as_bytes())),
        (None, Some(h)) => ("--seed-hex", Seed::from_hex(h)),
        (None, None) => return Ok(None),
    };
    made.map(Some)
        .map_err(|e| Refused::new(input, "seed", e.to_string()).why(e.code()))
}
