#![doc = include_str!("../README.md")]

mod analysis;
mod choice;
mod error;
mod file;
mod index;
mod moves;
mod rgu;
mod solve;
mod table;
mod twice;

pub use analysis::{
    BEST_AT_MOST, GOOD_BELOW, GameAnalysis, Grade, GradeCounts, INACCURACY_BELOW, KEY_MOMENTS,
    MISTAKE_BELOW, MoveValue, PerfectBot, SideTotals, TurnAnalysis, analyse_game, analyse_log,
    best_move, move_values, roll_value,
};
pub use error::{AnalysisError, LookupError, RguError, SolveError, TableError};
pub use file::{
    PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE, is_stale_temp, make_private_folder, temp_path,
    write_whole,
};
pub use index::{Index, State};
pub use moves::Successor;
pub use rgu::{RGU_MAGIC, RguWritten, export_rgu, import_rgu, rgu_key};
pub use solve::{
    Progress, Solution, SolveOptions, SolveStats, Stage, WinChances, check_rules, solve,
};
pub use table::{
    MAGIC, P16_STEPS, Table, VERSION, ValueType, Written, format_version, from_p16,
    table_file_name, to_p16, write_table,
};
