//! Whole-file writes and private folders: every table, export and record
//! is written to a hidden temporary file beside its name, flushed to the
//! disk and renamed over the name, so that the name holds the whole new
//! file or what it held before, whatever stops the writer.

use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The mode of a folder made for data: its owner's alone.
pub const PRIVATE_FOLDER_MODE: u32 = 0o700;
/// The mode of a new file written in a folder that is its owner's alone.
pub const PRIVATE_FILE_MODE: u32 = 0o600;

/// The ending of a temporary file's name.
const TEMP_END: &str = ".tmp";

/// The hidden temporary name beside `path` that [`write_whole`] writes
/// to: `.NAME.PID.N.tmp`, with this process's id and a number no other
/// write of this process uses.
#[must_use]
pub fn temp_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let temp = format!(".{name}.{}.{n}{TEMP_END}", std::process::id());
    path.with_file_name(temp)
}

/// Whether `path` is a temporary file of [`write_whole`] whose writer is
/// no longer running (a run that was killed): its name is `.NAME.PID.N.tmp`
/// and no process `PID` is running. Where running processes cannot be
/// seen (no `/proc`), none is taken for stale.
#[must_use]
pub fn is_stale_temp(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(inner) = name
        .strip_prefix('.')
        .and_then(|n| n.strip_suffix(TEMP_END))
    else {
        return false;
    };
    let mut fields = inner.rsplit('.');
    let (Some(n), Some(pid)) = (fields.next(), fields.next()) else {
        return false;
    };
    let (Ok(_), Ok(pid)) = (n.parse::<u64>(), pid.parse::<u32>()) else {
        return false;
    };
    let proc = Path::new("/proc");
    pid != std::process::id() && proc.join("self").exists() && !proc.join(pid.to_string()).exists()
}

/// Makes the folder `dir` (not its parents) with mode
/// [`PRIVATE_FOLDER_MODE`], set rather than left to the umask.
///
/// # Errors
///
/// The I/O error when the folder cannot be made (one that exists is an
/// error of kind `AlreadyExists`).
pub fn make_private_folder(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt as _, PermissionsExt as _};
        builder.mode(PRIVATE_FOLDER_MODE);
        builder.create(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(PRIVATE_FOLDER_MODE))
    }
    #[cfg(not(unix))]
    builder.create(dir)
}

/// Writes a file whole: `fill` writes its bytes to a temporary file
/// beside `path` (see [`temp_path`]), which is then flushed, synced to
/// the disk and renamed to `path`, and the folder synced where the file
/// system allows; the temporary file is removed when any step before the
/// rename fails, and `path` then holds what it held before. A file that is replaced keeps its mode; a new one in a
/// folder that is its owner's alone gets [`PRIVATE_FILE_MODE`], elsewhere
/// the usual mode the umask leaves.
///
/// # Errors
///
/// The I/O error of whichever step failed.
pub fn write_whole<T>(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let temp = temp_path(path);
    let written = write_then_rename(path, &temp, fill);
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

fn write_then_rename<T>(
    path: &Path,
    temp: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    let kept = {
        use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
        let kept = std::fs::metadata(path).ok().map(|m| m.permissions());
        let private = std::fs::metadata(folder).is_ok_and(|m| m.permissions().mode() & 0o077 == 0);
        if kept.is_none() && private {
            options.mode(PRIVATE_FILE_MODE);
        }
        kept
    };
    let file = options.open(temp)?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let value = fill(&mut w)?;
    w.flush()?;
    let file = w
        .into_inner()
        .map_err(std::io::IntoInnerError::into_error)?;
    #[cfg(unix)]
    if let Some(permissions) = kept {
        file.set_permissions(permissions)?;
    }
    file.sync_all()?;
    drop(file);
    std::fs::rename(temp, path)?;
    // The rename is done: a folder that cannot be synced (some file
    // systems refuse it) leaves only the rename's durability to the
    // system, and the new file stands.
    #[cfg(unix)]
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ur-solve-file-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let dir = scratch("fail");
        let path = dir.join("t.table");
        write_whole(&path, |w| w.write_all(b"old")).unwrap();
        let failed = write_whole(&path, |w| {
            w.write_all(b"half")?;
            Err::<(), _>(std::io::Error::other("stopped"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "stopped");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec!["t.table"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn modes_follow_the_folder_and_a_replaced_file_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let dir = scratch("modes");
        let private = dir.join("private");
        make_private_folder(&private).unwrap();
        assert_eq!(mode(&private), PRIVATE_FOLDER_MODE);
        let kind = make_private_folder(&private).unwrap_err().kind();
        assert_eq!(kind, std::io::ErrorKind::AlreadyExists);
        let table = private.join("t.table");
        write_whole(&table, |w| w.write_all(b"x")).unwrap();
        assert_eq!(mode(&table), PRIVATE_FILE_MODE);
        std::fs::set_permissions(&table, std::fs::Permissions::from_mode(0o640)).unwrap();
        write_whole(&table, |w| w.write_all(b"y")).unwrap();
        assert_eq!(mode(&table), 0o640);
        assert_eq!(std::fs::read(&table).unwrap(), b"y");
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let shared = dir.join("record.txt");
        write_whole(&shared, |w| w.write_all(b"z")).unwrap();
        assert_ne!(mode(&shared), PRIVATE_FILE_MODE, "the umask's mode");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_temporary_file_is_stale_only_once_its_writer_is_gone() {
        let path = Path::new("/data/tables/finkel.p16.table");
        let ours = temp_path(path);
        let name = ours.file_name().unwrap().to_str().unwrap().to_owned();
        assert!(name.starts_with(".finkel.p16.table."), "{name}");
        assert_ne!(temp_path(path), ours, "each write its own name");
        assert!(!is_stale_temp(&ours), "this process runs");
        if Path::new("/proc/self").exists() {
            // Above the largest process id Linux hands out (2^22).
            let gone = path.with_file_name(".finkel.p16.table.4999999.0.tmp");
            assert!(is_stale_temp(&gone));
            let running = path.with_file_name(".finkel.p16.table.1.0.tmp");
            assert!(!is_stale_temp(&running), "process 1 runs");
        }
        for other in [
            "finkel.p16.table",
            ".finkel.p16.table",
            ".x.4999999.tmp",
            ".x.abc.0.tmp",
        ] {
            assert!(!is_stale_temp(&path.with_file_name(other)), "{other}");
        }
    }
}
