//! The files commands write: each output is checked before the work that
//! fills it starts (so that no game, run or solve ends on a folder that is
//! missing or a file it may not replace), and each file is written whole
//! (a temporary file in the same folder, then a rename).

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use crate::error::{Refused, io_words};

/// Held while a file is being written: whoever ends the process on a
/// signal takes it first, so that no write is cut in half.
static WRITING: Mutex<()> = Mutex::new(());

/// Waits for a write in progress to finish and keeps others from starting
/// (until the guard is dropped, or the process ends).
pub fn hold_writes() -> MutexGuard<'static, ()> {
    WRITING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A refusal of the output `path` given as `input` (`--out`, `--record`
/// ...), naming the path once: `INPUT: PATH: MESSAGE`.
fn refusal(input: &str, path: &Path, code: &'static str, message: &str) -> Refused {
    let shown = path.display().to_string();
    Refused::new(input, code, format!("{shown}: {message}")).detail("path", shown.as_str())
}

/// Checks that `path` can take a new file, before the work that fills it:
/// its folder exists and takes new files, it is not a folder, and it does
/// not exist unless `force` (the command's `--force`). `or` is what else
/// the person may do with an existing file, in words after `--force`
/// (`, --resume it to go on with its game`), or empty.
///
/// # Errors
///
/// `file` when the folder is missing or cannot be written in, or the path
/// is a folder; `exists` for an existing file without `force`.
pub fn claim(path: &Path, force: bool, input: &str, or: &str) -> Result<(), Refused> {
    if path.is_dir() {
        return Err(refusal(input, path, "file", "is a folder, not a file"));
    }
    let folder = folder_of(path);
    if !folder.is_dir() {
        let missing = format!("the folder {} does not exist", folder.display());
        return Err(refusal(input, path, "file", &missing));
    }
    if path.exists() && !force {
        let message = format!("already exists: give --force to replace it{or}, or another name");
        return Err(refusal(input, path, "exists", &message));
    }
    probe(folder).map_err(|e| {
        let message = format!(
            "cannot write in the folder {}: {}",
            folder.display(),
            io_words(&e)
        );
        refusal(input, path, "file", &message)
    })
}

/// Checks that the folder `dir` can take new files, before the work that
/// fills it, and makes it if it is missing and its own folder exists (one
/// folder, never a chain of them up to the root). Returns whether it was
/// made.
///
/// # Errors
///
/// `file` when `dir` is a file, its folder is missing, or it cannot be
/// made or written in.
pub fn claim_folder(dir: &Path, input: &str) -> Result<bool, Refused> {
    claim_folder_as(dir, input, false)
}

/// As [`claim_folder`] for a data folder (or one in it): one that is made
/// is its owner's alone ([`ur_solve::make_private_folder`]), as the
/// server asks of the data folder it serves.
///
/// # Errors
///
/// As [`claim_folder`].
pub fn claim_data_folder(dir: &Path, input: &str) -> Result<bool, Refused> {
    claim_folder_as(dir, input, true)
}

fn claim_folder_as(dir: &Path, input: &str, private: bool) -> Result<bool, Refused> {
    let made = if dir.is_dir() {
        false
    } else if dir.exists() {
        return Err(refusal(input, dir, "file", "is a file, not a folder"));
    } else {
        let parent = folder_of(dir);
        if !parent.is_dir() {
            let missing = format!(
                "the folder {} does not exist (only the last folder of the path is made)",
                parent.display()
            );
            return Err(refusal(input, dir, "file", &missing));
        }
        let made = if private {
            ur_solve::make_private_folder(dir)
        } else {
            std::fs::create_dir(dir)
        };
        made.map_err(|e| {
            refusal(
                input,
                dir,
                "file",
                &format!("cannot be made: {}", io_words(&e)),
            )
        })?;
        true
    };
    probe(dir).map_err(|e| {
        refusal(
            input,
            dir,
            "file",
            &format!("cannot be written in: {}", io_words(&e)),
        )
    })?;
    Ok(made)
}

/// Makes and removes a file in `folder`, to see that it takes new ones.
fn probe(folder: &Path) -> std::io::Result<()> {
    let probe = folder.join(format!(".race-probe.{}.tmp", std::process::id()));
    File::create_new(&probe).and_then(|_| std::fs::remove_file(&probe))
}

/// The folder a file is in (`.` for a bare name).
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `text` whole to `path` (with [`ur_solve::write_whole`]: a
/// temporary file beside it, synced and renamed over it), so that `path`
/// holds the old text or the new, never a part.
///
/// # Errors
///
/// The I/O error; the temporary file is then removed.
pub fn write_whole(path: &Path, text: &str) -> std::io::Result<()> {
    let _held = hold_writes();
    ur_solve::write_whole(path, |w| w.write_all(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("race-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_claim_checks_the_folder_and_keeps_existing_files() {
        let dir = scratch("claim");
        let file = dir.join("game.txt");
        assert!(claim(&file, false, "--record", "").is_ok());
        let missing = claim(&dir.join("no/such/game.txt"), false, "--record", "").unwrap_err();
        assert!(missing.message.contains("does not exist"), "{missing}");
        assert_eq!(claim(&dir, false, "--record", "").unwrap_err().code, "file");
        std::fs::write(&file, "kept\n").unwrap();
        let exists = claim(&file, false, "--out", "").unwrap_err();
        assert_eq!(exists.code, "exists");
        // The path once, after the option.
        let line = exists.to_string();
        assert_eq!(
            line.matches(&file.display().to_string()).count(),
            1,
            "{line}"
        );
        assert!(line.starts_with("--out: "), "{line}");
        assert!(claim(&file, true, "--record", "").is_ok());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept\n");
        // The probe leaves nothing behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }

    #[test]
    fn a_folder_is_made_one_level_only() {
        let dir = scratch("folder");
        let new = dir.join("records");
        assert_eq!(claim_folder(&new, "--records"), Ok(true));
        assert_eq!(claim_folder(&new, "--records"), Ok(false));
        let deep = dir.join("a/b/c");
        let refused = claim_folder(&deep, "--records").unwrap_err();
        assert!(refused.message.contains("does not exist"), "{refused}");
        assert!(!dir.join("a").exists(), "no folder made on the way");
        std::fs::write(dir.join("file"), "x").unwrap();
        assert_eq!(
            claim_folder(&dir.join("file"), "--records")
                .unwrap_err()
                .code,
            "file"
        );
        assert_eq!(std::fs::read_dir(&new).unwrap().count(), 0);
    }

    #[test]
    fn a_data_folder_is_made_its_owners_alone() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = scratch("data");
        let data = dir.join("race-data");
        assert_eq!(claim_data_folder(&data, "--data"), Ok(true));
        let mode = std::fs::metadata(&data).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o700);
        assert_eq!(claim_data_folder(&data, "--data"), Ok(false));
    }

    #[test]
    fn writes_replace_the_file_whole() {
        let dir = scratch("write");
        let path = dir.join("game.txt");
        write_whole(&path, "one\n").unwrap();
        write_whole(&path, "two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two\n");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
