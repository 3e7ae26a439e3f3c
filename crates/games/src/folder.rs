//! The tables of a data folder: the files its `tables/` holds, and a
//! missing one solved into it.

use std::path::{Path, PathBuf};

use royal_ur::{Ur, Variant};
use ur_solve::{SolveError, SolveOptions, Stage, TableError, ValueType};

use crate::{RulesError, Tables, read_rules};

/// The folder of a data folder that holds its tables: `DATA/tables`.
#[must_use]
pub fn tables_folder(data: &Path) -> PathBuf {
    data.join("tables")
}

/// The files of a data folder's `tables/`, sorted by name, leaving out
/// hidden ones (a table being written is a hidden file beside the name it
/// gets); none when the folder does not exist.
///
/// # Errors
///
/// The I/O error when the folder exists but cannot be listed.
pub fn table_files(data: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(tables_folder(data)) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if path.is_file() && !hidden {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Removes the temporary files that writes killed before their end left
/// in a data folder's `tables/` (those [`ur_solve::is_stale_temp`] takes
/// for stale: a write still running keeps its own), and returns them;
/// none when the folder does not exist.
///
/// # Errors
///
/// The I/O error when the folder exists but cannot be listed, or a stale
/// file cannot be removed.
pub fn remove_stale_temps(data: &Path) -> std::io::Result<Vec<PathBuf>> {
    let entries = match std::fs::read_dir(tables_folder(data)) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let path = entry?.path();
        if path.is_file() && ur_solve::is_stale_temp(&path) {
            std::fs::remove_file(&path)?;
            removed.push(path);
        }
    }
    removed.sort();
    Ok(removed)
}

/// A Royal Game of Ur rule set the solver takes, to be solved into a data
/// folder's `tables/` as a 2-byte table.
#[derive(Clone, Copy, Debug)]
pub struct TableSolve {
    variant: Variant,
}

/// Why a table could not be solved into a data folder.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableSolveError {
    /// The text is no rule set of the Royal Game of Ur.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The solver refuses the rule set, or did not finish it.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The table could not be written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The data folder's `tables/` could not be made.
    #[error("cannot make the folder {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl TableSolveError {
    /// The contract word: the rules reader's, the solver's or the table's
    /// own code, or `file` for the folder.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            TableSolveError::Rules(e) => e.code(),
            TableSolveError::Solve(e) => e.code(),
            TableSolveError::Table(e) => e.code(),
            TableSolveError::Folder { .. } => "file",
        }
    }
}

/// How far a solve has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveProgress {
    /// `sweeping` (the layer pairs), `residual` (the check over the whole
    /// table) or `writing` (the table file).
    pub phase: &'static str,
    /// States whose layer pair is solved.
    pub states_done: u64,
    /// States of the rule set (one side to move).
    pub states: u64,
}

impl TableSolve {
    /// The rule set `rules` names, if the solver takes it (decided from
    /// its counts and path, before any work).
    ///
    /// # Errors
    ///
    /// [`TableSolveError::Rules`] for text that is no rule set,
    /// [`TableSolveError::Solve`] for a rule set the solver refuses
    /// (`too_big`, `rules`).
    ///
    /// ```
    /// use race_games::TableSolve;
    ///
    /// assert_eq!(TableSolve::new("finkel")?.rules(), "finkel");
    /// assert_eq!(TableSolve::new("path=murray pieces=6").unwrap_err().code(), "too_big");
    /// assert_eq!(TableSolve::new("nosuchrules").unwrap_err().code(), "unknown_name");
    /// # Ok::<(), race_games::TableSolveError>(())
    /// ```
    pub fn new(rules: &str) -> Result<TableSolve, TableSolveError> {
        let variant = read_rules::<Ur>(Some(rules))?;
        ur_solve::check_rules(&variant)?;
        Ok(TableSolve { variant })
    }

    /// The rule set's record text (its name for a preset).
    #[must_use]
    pub fn rules(&self) -> String {
        self.variant.to_string()
    }

    /// Whether `tables` already holds a table of these rules.
    #[must_use]
    pub fn is_in(&self, tables: &Tables) -> bool {
        tables.for_rules::<Ur>(&self.variant).is_some()
    }

    /// Solves the rule set (on threads that take the calling thread's
    /// priority) and writes its 2-byte table to the data folder's
    /// `tables/` (made if missing), whole or not at all; returns the
    /// file's path. `progress` hears after every sweep and before the
    /// file is written.
    ///
    /// # Errors
    ///
    /// [`TableSolveError`] when the solve fails or the file cannot be
    /// written.
    pub fn run(
        &self,
        data: &Path,
        mut progress: impl FnMut(SolveProgress),
    ) -> Result<PathBuf, TableSolveError> {
        let solution = ur_solve::solve(&self.variant, &SolveOptions::default(), |p| {
            progress(SolveProgress {
                phase: match p.stage {
                    Stage::Sweeping => "sweeping",
                    Stage::Residual => "residual",
                    _ => "writing",
                },
                states_done: p.states_done,
                states: p.states,
            });
        })?;
        let states = solution.values().len() as u64;
        progress(SolveProgress {
            phase: "writing",
            states_done: states,
            states,
        });
        let folder = tables_folder(data);
        make_folder(&folder).map_err(|source| TableSolveError::Folder {
            path: folder.clone(),
            source,
        })?;
        let path = folder.join(ur_solve::table_file_name(&self.variant, ValueType::P16));
        ur_solve::write_table(&solution, ValueType::P16, &path)?;
        Ok(path)
    }
}

/// Makes `folder` and its missing parents, each its owner's alone.
fn make_folder(folder: &Path) -> std::io::Result<()> {
    if folder.is_dir() {
        return Ok(());
    }
    if let Some(parent) = folder.parent().filter(|p| !p.as_os_str().is_empty()) {
        make_folder(parent)?;
    }
    match ur_solve::make_private_folder(folder) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && folder.is_dir() => Ok(()),
        made => made,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_solved_into_a_data_folder_is_found_there_and_opens() {
        let data = std::env::temp_dir().join(format!("race-games-folder-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&data);
        assert!(table_files(&data).unwrap().is_empty());
        let rules = "route=short dice=4 zero_rolls=0 safe_rosettes=1 pieces=1";
        let solve = TableSolve::new(rules).unwrap();
        let mut seen = Vec::new();
        let path = solve.run(&data, |p| seen.push(p)).unwrap();
        let last = seen.last().copied().unwrap();
        assert_eq!(last.phase, "writing");
        assert_eq!(last.states_done, last.states);
        assert!(seen.iter().any(|p| p.phase == "sweeping"), "{seen:?}");
        // A hidden file (a table being written) is passed over; one a
        // killed write left is removed, one being written kept.
        let tables = tables_folder(&data);
        let stale = tables.join(".rules.p16.table.4999999.0.tmp");
        let ours = ur_solve::temp_path(&path);
        for half in [&stale, &ours] {
            std::fs::write(half, b"half").unwrap();
        }
        assert_eq!(table_files(&data).unwrap(), vec![path.clone()]);
        if Path::new("/proc/self").exists() {
            assert_eq!(remove_stale_temps(&data).unwrap(), vec![stale.clone()]);
            assert!(!stale.exists() && ours.exists());
        }
        assert_eq!(table_files(&data).unwrap(), vec![path.clone()]);
        let mut tables = Tables::default();
        assert!(!solve.is_in(&tables));
        tables.add(&path).unwrap();
        assert!(solve.is_in(&tables));
        std::fs::remove_dir_all(&data).unwrap();
    }
}
