//! The record file of a game being played: claimed when the game starts,
//! written whole after every ply (a temporary file in the same folder,
//! then a rename, so that the file always holds a whole record), and
//! numbered for each new game so that none replaces another.

use std::path::{Path, PathBuf};

use crate::error::{Refused, io_words};
use crate::output;

/// The file a game's record goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordFile {
    path: PathBuf,
    /// For a record this run did not make (one `--resume` opened): what it
    /// held, which is never taken back from it.
    kept: Option<Kept>,
}

/// What a record this run did not make held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kept {
    /// Its plies.
    plies: usize,
    /// Whether its game was over (it had a result line).
    over: bool,
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
        output::claim(path, force, input, ", --resume it to go on with its game")?;
        Ok(RecordFile {
            path: path.to_owned(),
            kept: None,
        })
    }

    /// The file a game was resumed from, holding `plies` plies of a game
    /// over or not: the game goes on being written to it as long as it
    /// goes on from all of that ([`RecordFile::holds`]).
    pub fn resumed(path: &Path, plies: usize, over: bool) -> RecordFile {
        RecordFile {
            path: path.to_owned(),
            kept: Some(Kept { plies, over }),
        }
    }

    /// Whether a game of `plies` plies, `over` or not, may be written to
    /// this file: always to a file this run made; to a resumed record only
    /// when the game holds every ply it held and, if it was over, is over
    /// still (so a finished record is never written, and no record is
    /// shortened).
    pub fn holds(&self, plies: usize, over: bool) -> bool {
        self.kept
            .is_none_or(|kept| plies >= kept.plies && (over || !kept.over))
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
        output::write_whole(&self.path, text).map_err(|e| {
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
        RecordFile { path, kept: None }
    }
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
    fn a_resumed_record_is_never_taken_back() {
        let path = Path::new("game.txt");
        let on = RecordFile::resumed(path, 10, false);
        assert!(on.holds(10, false) && on.holds(12, false) && on.holds(11, true));
        assert!(!on.holds(9, false) && !on.holds(9, true));
        let finished = RecordFile::resumed(path, 10, true);
        assert!(finished.holds(10, true));
        assert!(!finished.holds(10, false) && !finished.holds(8, false));
        let made = finished.next();
        assert!(made.holds(0, false), "a file this run made is its own");
        let claimed = RecordFile {
            path: path.to_owned(),
            kept: None,
        };
        assert!(claimed.holds(0, false));
    }

    #[test]
    fn new_games_get_the_next_free_number() {
        let dir = scratch("next");
        let first = RecordFile::resumed(&dir.join("game.txt"), 0, false);
        let second = first.next();
        assert_eq!(second.path(), dir.join("game-2.txt"));
        std::fs::write(second.path(), "x").unwrap();
        std::fs::write(dir.join("game-3.txt"), "x").unwrap();
        assert_eq!(first.next().path(), dir.join("game-4.txt"));
        assert_eq!(second.next().path(), dir.join("game-4.txt"));
        let plain = RecordFile::resumed(&dir.join("notes"), 0, false);
        assert_eq!(plain.next().path(), dir.join("notes-2"));
        let dashed = RecordFile::resumed(&dir.join("my-game.txt"), 0, false);
        assert_eq!(dashed.next().path(), dir.join("my-game-2.txt"));
    }
}
