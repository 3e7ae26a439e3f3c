//! Typed errors, each with a stable `code()`.

use std::path::PathBuf;

/// Why a position could not be looked up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LookupError {
    /// The position does not hold the rule set's pieces a side (hand, board
    /// and home), or a piece stands off its side's route.
    #[error("the position {0:?} does not fit the rule set of the table")]
    Inconsistent(String),
}

impl LookupError {
    /// The contract word: `inconsistent`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            LookupError::Inconsistent(_) => "inconsistent",
        }
    }
}

/// Why a solve stopped without a table.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// A layer did not settle within the sweep limit.
    #[error(
        "layer (my home {my_home}, their home {their_home}) still changed by {change:e} after {sweeps} sweeps"
    )]
    NotConverged {
        /// My pieces home in the layer.
        my_home: u8,
        /// Their pieces home in the layer.
        their_home: u8,
        /// Sweeps made.
        sweeps: u32,
        /// The largest change in the last sweep.
        change: f64,
    },
    /// The options make no sense (a tolerance that is not a small positive
    /// number, no sweeps allowed).
    #[error("bad solve options: {0}")]
    Options(String),
    /// The solver does not handle these rules: a path that is not the same
    /// for both sides, or whose shared squares are not one run of steps
    /// (no path of `royal-ur` is either).
    #[error("the solver does not handle the rules {rules}: {reason}")]
    Rules {
        /// The rules.
        rules: String,
        /// What the solver cannot do with them.
        reason: String,
    },
    /// The rule set has more states than the solver can number and hold
    /// in memory.
    #[error(
        "{rules} has {states} states a side to move, more than the {limit} the solver can \
         number; their values alone would take {bytes} bytes ({gib:.1} GiB)",
        gib = *bytes as f64 / f64::from(1u32 << 30)
    )]
    TooBig {
        /// The rules.
        rules: String,
        /// Its states, one side to move.
        states: u64,
        /// The most states the solver numbers.
        limit: u64,
        /// The bytes its values would take.
        bytes: u64,
    },
}

impl SolveError {
    /// The contract word: `not_converged`, `options`, `rules` or
    /// `too_big`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            SolveError::NotConverged { .. } => "not_converged",
            SolveError::Options(_) => "options",
            SolveError::Rules { .. } => "rules",
            SolveError::TooBig { .. } => "too_big",
        }
    }
}

/// The most states (one side to move) the solver numbers: a successor's
/// code in the sweeps keeps 30 bits for its index.
pub(crate) const STATES_MAX: u64 = 1 << 30;

/// Refuses a rule set of `states` states (one side to move) that the
/// solver cannot number ([`STATES_MAX`]), naming the count and the bytes
/// its values would take. Both the solver and the index of the paths that
/// visit squares twice ask it, so it lives here, below both.
///
/// # Errors
///
/// [`SolveError::TooBig`].
pub(crate) fn check_size(variant: &royal_ur::Variant, states: u64) -> Result<(), SolveError> {
    if states <= STATES_MAX {
        return Ok(());
    }
    Err(SolveError::TooBig {
        rules: variant.to_string(),
        states,
        limit: STATES_MAX,
        bytes: states.saturating_mul(std::mem::size_of::<f64>() as u64),
    })
}

/// Why a table file could not be written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// There is no file at the path (solve one with `race solve`).
    #[error("there is no table file at {0}; solve one first")]
    Missing(PathBuf),
    /// The file could not be opened, read or written.
    #[error("table file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The path is a directory, not a file.
    #[error("{0} is a directory; give the table file `race solve --out FILE` wrote")]
    Directory(PathBuf),
    /// The file does not start with the table magic.
    #[error("{0} is not a solved-table file (wrong magic bytes)")]
    NotATable(PathBuf),
    /// A format version this build does not read.
    #[error(
        "table format version {found} is not supported (this build reads version {supported} \
         for this rule set and value type: 3 for 2-byte tables, 1 or 2 for 4- and 8-byte \
         ones); solve the table again"
    )]
    Version {
        /// The file's version.
        found: u32,
        /// The version this build reads for the file's rules (or the
        /// newest it reads, when the file's is above it).
        supported: u32,
    },
    /// The header is damaged: a field that cannot be read.
    #[error("the table header is damaged: {0}")]
    Header(String),
    /// The table was solved for other rules than the ones asked for.
    #[error("the table is for rules {found:?}, not {expected:?}")]
    WrongRules {
        /// The rules asked for.
        expected: String,
        /// The rules in the file.
        found: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("the table file is {found} bytes long but its header says {expected}")]
    Truncated {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes on disk.
        found: u64,
    },
    /// The contents do not match the checksum in the header.
    #[error("the table is corrupted: checksum {found:016x} does not match {expected:016x}")]
    Checksum {
        /// The checksum in the header.
        expected: u64,
        /// The checksum of the contents.
        found: u64,
    },
}

impl TableError {
    /// The contract word: `missing`, `io`, `directory`, `not_a_table`,
    /// `version`, `header`, `wrong_rules`, `truncated` or `checksum`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            TableError::Missing(_) => "missing",
            TableError::Io { .. } => "io",
            TableError::Directory(_) => "directory",
            TableError::NotATable(_) => "not_a_table",
            TableError::Version { .. } => "version",
            TableError::Header(_) => "header",
            TableError::WrongRules { .. } => "wrong_rules",
            TableError::Truncated { .. } => "truncated",
            TableError::Checksum { .. } => "checksum",
        }
    }
}

/// Why a game could not be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The game is played under other rules than the table's.
    #[error("the game is played under {game:?} but the table holds {table:?}")]
    WrongRules {
        /// The game's rules.
        game: String,
        /// The table's rules.
        table: String,
    },
    /// A position of the game is not in the table.
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// A logged move is not legal where it was played (the game did not
    /// start from the rules' start position).
    #[error("ply {ply}: {mv} is not legal in {position} with a roll of {roll}")]
    Illegal {
        /// The ply of the move.
        ply: u32,
        /// The move text.
        mv: String,
        /// The roll.
        roll: u8,
        /// The position string.
        position: String,
    },
}

impl AnalysisError {
    /// The contract word: `wrong_rules`, `inconsistent` or `illegal`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            AnalysisError::WrongRules { .. } => "wrong_rules",
            AnalysisError::Lookup(e) => e.code(),
            AnalysisError::Illegal { .. } => "illegal",
        }
    }
}

/// Why a RoyalUr `.rgu` file could not be written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RguError {
    /// There is no file at the path.
    #[error("there is no file at {0}")]
    Missing(PathBuf),
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The file does not start with `RGU`.
    #[error("{0} is not a RoyalUr lookup table (its first bytes are not RGU)")]
    NotRgu(PathBuf),
    /// A layout version other than RoyalUr's 0.
    #[error("RoyalUr lookup-table version {0} is not supported (this build reads version 0)")]
    Version(u8),
    /// The metadata is not RoyalUr's, or names settings this build does
    /// not play.
    #[error("the lookup table's header: {0}")]
    Header(String),
    /// A rule set RoyalUr's tables do not hold.
    #[error("{rules} cannot be a RoyalUr lookup table: {reason}")]
    Rules {
        /// The rules.
        rules: String,
        /// Why not.
        reason: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("the lookup table is {found} bytes long but its header says {expected}")]
    Truncated {
        /// Bytes the header implies.
        expected: u64,
        /// Bytes on disk.
        found: u64,
    },
    /// A position of the rule set is not in the file.
    #[error("the lookup table holds no value for the position {position:?}")]
    MissingKey {
        /// The position, light to move.
        position: String,
    },
}

impl RguError {
    /// The contract word: `missing`, `io`, `not_rgu`, `version`, `header`,
    /// `rules`, `truncated` or `missing_key`.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            RguError::Missing(_) => "missing",
            RguError::Io { .. } => "io",
            RguError::NotRgu(_) => "not_rgu",
            RguError::Version(_) => "version",
            RguError::Header(_) => "header",
            RguError::Rules { .. } => "rules",
            RguError::Truncated { .. } => "truncated",
            RguError::MissingKey { .. } => "missing_key",
        }
    }
}
