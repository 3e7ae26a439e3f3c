//! The record file of a game being played: claimed when the game starts,
//! written whole after every ply (a temporary file in the same folder,
//! then a rename, so that the file always holds a whole record), and
//! numbered for each new game so that none replaces another.

use std::ffi::OsString;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::Refused;
use crate::input::io_words;

/// Held while a record is being written: whoever ends the process on a
/// signal takes it first, so that no write is cut in half.
static WRITING: Mutex<()> = Mutex::new(());

/// Waits for a write in progress to finish and keeps others from starting
/// (until the guard is dropped, or the process ends).
pub fn hold_writes() -> MutexGuard<'static, ()> {
    WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The file a game's record goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    path: PathBuf,
}

impl RecordFile {
    /// Claims `path` for a new game's record: its folder must exist and
    /// take new files, and the file must not exist unless `force`.
    ///
    /// # Errors
    ///
    /// `file` when the folder is missing or cannot be written in, or the
    /// path is a folder; `exists` for an existing file without `force`.
    pub fn claim(path: &Path, force: bool, input: &str) -> Result<RecordFile, Refused> {
        let shown = path.display().to_string();
        let refuse = |code, message: String| {
            Refused::new(input, code, format!("{shown}: {message}")).detail("path", shown.as_str())
        };
        if path.is_dir() {
            return Err(refuse("file", "is a folder, not a file".to_owned()));
        }
        let folder = folder_of(path);
        if !folder.is_dir() {
            return Err(refuse(
                "file",
                format!("the folder {} does not exist", folder.display()),
            ));
        }
        if path.exists() && !force {
            return Err(refuse(
                "exists",
                "already exists: give --force to replace it, --resume it to go on with its \
                 game, or another name"
                    .to_owned(),
            ));
        }
        let probe = temp_path(path);
        File::create_new(&probe)
            .and_then(|_| std::fs::remove_file(&probe))
            .map_err(|e| {
                refuse(
                    "file",
                    format!(
                        "cannot write in the folder {}: {}",
                        folder.display(),
                        io_words(&e)
                    ),
                )
            })?;
        Ok(RecordFile {
            path: path.to_owned(),
        })
    }

    /// The file a game was resumed from, which it goes on being written to.
    pub fn resumed(path: &Path) -> RecordFile {
        RecordFile {
            path: path.to_owned(),
        }
    }

    /// Where the record goes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the record whole, replacing the file in one step.
    ///
    /// # Errors
    ///
    /// `file` when it cannot be written; the file is then as it was.
    pub fn write(&self, text: &str) -> Result<(), Refused> {
        write_whole(&self.path, text).map_err(|e| {
            Refused::new(
                self.path.display().to_string(),
                "file",
                format!("the record cannot be written: {}", io_words(&e)),
            )
        })
    }

    /// The file for the next game: `game.txt`, then `game-2.txt`,
    /// `game-3.txt` and so on, the first of those that does not exist.
    pub fn next(&self) -> RecordFile {
        let stem = self
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let ext = self
            .path
            .extension()
            .map(|e| format!(".{}", e.to_string_lossy()))
            .unwrap_or_default();
        let (base, number) = match stem.rsplit_once('-') {
            Some((base, n)) if !base.is_empty() => match n.parse::<u32>() {
                Ok(n) if n >= 2 && !n.to_string().starts_with('0') => (base.to_owned(), n),
                _ => (stem.clone(), 1),
            },
            _ => (stem.clone(), 1),
        };
        let folder = self.path.parent().unwrap_or(Path::new(""));
        let path = (number.saturating_add(1)..=u32::MAX)
            .map(|n| folder.join(format!("{base}-{n}{ext}")))
            .find(|p| !p.exists())
            .unwrap_or_else(|| self.path.clone());
        RecordFile { path }
    }
}

/// The folder a file is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// The temporary file beside `path`: `.NAME.PID.tmp`.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(".{}.tmp", std::process::id()));
    folder_of(path).join(name)
}

/// Writes `text` to a temporary file beside `path` and renames it over
/// `path`, so that `path` holds the old text or the new, never a part.
///
/// # Errors
///
/// The I/O error; the temporary file is then removed.
pub fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let _held = hold_writes();
    let temp = temp_path(path);
    let written = File::create(&temp)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_data()
        })
        .and_then(|()| std::fs::rename(&temp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("race-record-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_claim_checks_the_folder_and_keeps_existing_files() {
        let dir = scratch("claim");
        let file = dir.join("game.txt");
        assert!(RecordFile::claim(&file, false, "--record").is_ok());
        let missing = RecordFile::claim(&dir.join("no/such/game.txt"), false, "--record");
        assert!(missing.unwrap_err().message.contains("does not exist"));
        assert_eq!(
            RecordFile::claim(&dir, false, "--record").unwrap_err().code,
            "file"
        );
        std::fs::write(&file, "kept\n").unwrap();
        assert_eq!(
            RecordFile::claim(&file, false, "--record")
                .unwrap_err()
                .code,
            "exists"
        );
        assert!(RecordFile::claim(&file, true, "--record").is_ok());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept\n");
        // The probe leaves nothing behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn writes_replace_the_file_whole() {
        let dir = scratch("write");
        let record = RecordFile::resumed(&dir.join("game.txt"));
        record.write("one\n").unwrap();
        record.write("two\n").unwrap();
        assert_eq!(std::fs::read_to_string(record.path()).unwrap(), "two\n");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn new_games_get_the_next_free_number() {
        let dir = scratch("next");
        let first = RecordFile::resumed(&dir.join("game.txt"));
        let second = first.next();
        assert_eq!(second.path(), dir.join("game-2.txt"));
        std::fs::write(second.path(), "x").unwrap();
        std::fs::write(dir.join("game-3.txt"), "x").unwrap();
        assert_eq!(first.next().path(), dir.join("game-4.txt"));
        assert_eq!(second.next().path(), dir.join("game-4.txt"));
        let plain = RecordFile::resumed(&dir.join("notes"));
        assert_eq!(plain.next().path(), dir.join("notes-2"));
        let dashed = RecordFile::resumed(&dir.join("my-game.txt"));
        assert_eq!(dashed.next().path(), dir.join("my-game-2.txt"));
    }
}
