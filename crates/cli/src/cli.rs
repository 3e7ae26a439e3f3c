//! The command line, as clap reads it.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Play the Royal Game of Ur and Senet, replay records, and ask the engines
/// questions.
///
/// Exit codes: 0 success; 1 the input was refused (a bad record, position,
/// rules, roll, move, seed or file), with one line on stderr naming what and
/// where; 2 a usage error (an unknown option, or an option value out of
/// range).
#[derive(Debug, Parser)]
#[command(name = "race", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// The Royal Game of Ur.
    #[value(alias = "royal-ur")]
    Ur,
    /// Senet.
    Senet,
}

impl From<GameName> for race_games::Kind {
    fn from(name: GameName) -> race_games::Kind {
        match name {
            GameName::Ur => race_games::Kind::Ur,
            GameName::Senet => race_games::Kind::Senet,
        }
    }
}

/// A side, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SideArg {
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl From<SideArg> for dice_core::Side {
    fn from(s: SideArg) -> dice_core::Side {
        match s {
            SideArg::Light => dice_core::Side::Light,
            SideArg::Dark => dice_core::Side::Dark,
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a game in the terminal: against the bot, hotseat, or watch.
    Play(PlayArgs),
    /// Replay a record of either game and print the board and the result.
    Replay(ReplayArgs),
    /// The legal moves for a position and a roll, in engine order.
    Moves(MovesArgs),
    /// Check a position string and draw it.
    Position(PositionArgs),
    /// The faces (ur) or sticks (senet) and rolls of a seed's throws.
    Throws(ThrowsArgs),
    /// Count the game tree: every roll once, every move.
    Perft(PerftArgs),
    /// What the bot of a level plays in a position on a roll.
    Bot(BotArgs),
    /// Bot against bot, many games, with statistics.
    Selfplay(SelfplayArgs),
    /// Engine speed on this machine.
    Bench(BenchArgs),
    /// Many seeded games of random legal moves, every invariant checked after every step.
    Soak(SoakArgs),
    /// Solve a Royal Game of Ur rule set exactly and write the table file.
    Solve(SolveArgs),
    /// List the solved tables a data folder holds.
    Tables(TablesArgs),
    /// Write a solved table in RoyalUr's format, or read one of theirs.
    Table(TableArgs),
    /// Judge every move of a Royal Game of Ur record against a solved table.
    Analyse(AnalyseArgs),
    /// Serve both games over HTTP: play in the browser, against the bot or a friend.
    Serve(ServeArgs),
    /// Play many friend games against a running server, then check that
    /// every record holds exactly the moves seen accepted.
    Loadtest(LoadtestArgs),
}

/// A seed, as text or hex.
#[derive(Debug, Args)]
pub struct SeedArgs {
    /// The seed: these bytes of text.
    #[arg(long, value_name = "TEXT", conflicts_with = "seed_hex")]
    pub seed: Option<String>,
    /// The seed: the bytes this hexadecimal spells.
    #[arg(long, value_name = "HEX")]
    pub seed_hex: Option<String>,
}

/// `race play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Which game (any case); with --resume, the record's by default.
    #[arg(ignore_case = true, required_unless_present = "resume")]
    pub game: Option<GameName>,
    /// The rule set: a name, or the fields that differ from the game's
    /// default (see below).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// The bot's level: 1 to 99 (above the top of the ladder plays the
    /// top), or `top`; for ur also `perfect`, which needs --table.
    #[arg(long, value_name = "LEVEL", default_value = "top")]
    pub level: String,
    /// The solved table (from `race solve`) the `perfect` level plays from.
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// Two people at one keyboard.
    #[arg(long, conflicts_with = "watch")]
    pub hotseat: bool,
    /// Watch the bot play both sides.
    #[arg(long)]
    pub watch: bool,
    /// Your side against the bot, light unless told; with --resume, the
    /// side you go on as (a record does not say which side you played).
    /// Not with --hotseat or --watch, where nobody plays the bot.
    #[arg(long, value_enum, conflicts_with_all = ["hotseat", "watch"])]
    pub side: Option<SideArg>,
    /// Who moves first (thrown for, or the rules', by default).
    #[arg(long, value_enum)]
    pub first: Option<SideArg>,
    /// The seed (a fresh one from the clock when none is given).
    #[command(flatten)]
    pub seed: SeedArgs,
    /// Go on with the game in this record (from --record or save): its
    /// rules, seed and plies, the same throws following. You play the
    /// side --side gives, light unless told (a record does not say which
    /// side a person played: add --side dark to go on as dark). It goes
    /// on being written to FILE unless --record names another file. FILE
    /// is never shortened: an undo back past what it held goes on in the
    /// next numbered file (FILE-2 ...), and says so. A finished game is
    /// shown, and can be stepped through, its record kept as it is.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["rules", "seed", "seed_hex", "first"]
    )]
    pub resume: Option<PathBuf>,
    /// Write the record to FILE after every ply (its folder must exist; an
    /// existing file is kept unless --force). A new game in the same run
    /// goes to FILE-2, FILE-3 ... (game-2.txt for game.txt).
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Let --record replace an existing file.
    #[arg(long, requires = "record")]
    pub force: bool,
    /// Milliseconds between bot moves, up to an hour (default 400 on a
    /// terminal, 0 otherwise).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub pace: Option<u64>,
    /// Plain ASCII drawing.
    #[arg(long)]
    pub ascii: bool,
    /// No colour (as does a set NO_COLOR).
    #[arg(long)]
    pub no_color: bool,
    /// Line by line even on a terminal: a transcript instead of the fixed
    /// screen, one command a line (what is typed before a new roll is
    /// shown is flushed unread).
    #[arg(long, visible_alias = "lines")]
    pub plain: bool,
}

/// `race replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The record file, or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub file: String,
    /// The game (recognised from the rules line when not given).
    #[arg(long, value_enum, ignore_case = true)]
    pub game: Option<GameName>,
    /// Replay under these rules instead of the record's.
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Plain ASCII drawing.
    #[arg(long)]
    pub ascii: bool,
}

/// A position and a roll under a rule set, as `race moves` and `race bot`
/// ask about them.
#[derive(Debug, Args)]
pub struct RollArgs {
    /// Which game (any case).
    #[arg(ignore_case = true)]
    pub game: GameName,
    /// The rule set: a name, or the fields that differ from the default in
    /// any order (its help names the presets, from the catalogue).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// The position (the start when not given).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// The roll.
    #[arg(long, value_name = "N")]
    pub roll: u8,
}

/// `race moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The game, rules, position and roll.
    #[command(flatten)]
    pub at: RollArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `race position`.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Which game (any case).
    #[arg(ignore_case = true)]
    pub game: GameName,
    /// The position string.
    #[arg(long, value_name = "POSITION")]
    pub position: String,
    /// The rule set: a name, or the fields that differ from the default in
    /// any order (its help names the presets, from the catalogue).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Plain ASCII drawing.
    #[arg(long)]
    pub ascii: bool,
}

/// `race throws`.
#[derive(Debug, Args)]
pub struct ThrowsArgs {
    /// Which game (any case).
    #[arg(ignore_case = true)]
    pub game: GameName,
    /// The seed.
    #[command(flatten)]
    pub seed: SeedArgs,
    /// The first throw number (0 to 18446744073709551615).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub from: u64,
    /// How many throws (at most 1,000,000).
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub count: u64,
    /// The rule set: a name, or the fields that differ from the default in
    /// any order (its help names the presets, from the catalogue).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `race perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Which game (any case).
    #[arg(ignore_case = true)]
    pub game: GameName,
    /// The rule set: a name, or the fields that differ from the default in
    /// any order (its help names the presets, from the catalogue).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// How many plies deep (0 to 64).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,
    /// The position (the start when not given).
    #[arg(long, value_name = "POSITION")]
    pub position: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `race bot`.
#[derive(Debug, Args)]
pub struct BotArgs {
    /// The game, rules, position and roll.
    #[command(flatten)]
    pub at: RollArgs,
    /// The bot's level: 1 to 99 (above the top of the ladder plays the
    /// top), or `top`; for ur also `perfect`, which needs --table.
    #[arg(long, value_name = "LEVEL", default_value = "top")]
    pub level: String,
    /// The solved table (from `race solve`) the `perfect` level plays from.
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// Print JSON: the move and what the bot found.
    #[arg(long)]
    pub json: bool,
}

/// `race selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// Which game (any case).
    #[arg(ignore_case = true)]
    pub game: GameName,
    /// The rule set: a name, or the fields that differ from the default in
    /// any order (its help names the presets, from the catalogue).
    #[arg(long, value_name = "RULES")]
    pub rules: Option<String>,
    /// How many games.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// Light's level: 1 to 99 (above the top plays the top), `top`, or
    /// for ur `perfect` with --table.
    #[arg(long, value_name = "LEVEL", default_value = "top")]
    pub light: String,
    /// Dark's level, as light's.
    #[arg(long, value_name = "LEVEL", default_value = "top")]
    pub dark: String,
    /// The solved table (from `race solve`) a `perfect` side plays from
    /// (ur only; senet has no perfect level).
    #[arg(long, value_name = "PATH")]
    pub table: Option<PathBuf>,
    /// The seed each game's seed is made from (`SEED:index`).
    #[arg(long, value_name = "TEXT", default_value = "selfplay")]
    pub seed: String,
    /// Write every record into this folder, as ur-0001.txt ... (checked
    /// before the games; made if missing, when the folder it is in exists).
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Let --records replace records of those names already in DIR.
    #[arg(long, requires = "records")]
    pub force: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `race bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which game (both when not given).
    #[arg(ignore_case = true)]
    pub game: Option<GameName>,
    /// Seconds to spend on each measurement.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    pub seconds: f64,
}

/// `race soak`.
#[derive(Debug, Args)]
pub struct SoakArgs {
    /// Which game (any case).
    #[arg(ignore_case = true)]
    pub game: GameName,
    /// A rule set to soak (repeat for several; the named ones when not given).
    #[arg(long, value_name = "RULES")]
    pub rules: Vec<String>,
    /// How many games under each rule set.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// The index of the first game (to split a long run into pieces that
    /// together play exactly the games of one run).
    #[arg(long, value_name = "INDEX", default_value_t = 0)]
    pub from: u64,
    /// The seed each game's seed is made from (`SEED:index`).
    #[arg(long, value_name = "TEXT", default_value = "soak")]
    pub seed: String,
}

/// `race solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The Royal Game of Ur rule set: a name or the fields that differ from
    /// the default (its help names the presets, from the catalogue).
    #[arg(value_name = "RULES")]
    pub rules: String,
    /// Play with this many pieces a side (1 to 7) instead of the rule set's.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=7))]
    pub pieces: Option<u8>,
    /// Write the table to this file (its folder must exist; an existing
    /// file is kept unless --force). Checked before the solve starts.
    /// Without it the table goes to DIR/tables/ under a name made from
    /// the rules.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// The data folder whose tables/ takes the table when --out is not
    /// given (made if missing, as is its tables/).
    #[arg(
        long,
        value_name = "DIR",
        default_value = "./race-data",
        conflicts_with = "out"
    )]
    pub data: PathBuf,
    /// Let --out replace an existing file (once the new table is whole).
    #[arg(long)]
    pub force: bool,
    /// Threads to sweep with (the machine's cores by default).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Memory in MiB for lists of successors that speed up the sweeps
    /// (4096 by default; less lowers the peak memory and costs time).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(0..=1_048_576))]
    pub list_mib: Option<u32>,
    /// Store the values as 32-bit floats (the default is 2 bytes a value,
    /// steps of 1/65535, with the perfect move kept exact).
    #[arg(long, conflicts_with = "f64")]
    pub f32: bool,
    /// Store the values as 64-bit floats, as solved.
    #[arg(long)]
    pub f64: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `race tables`.
#[derive(Debug, Args)]
pub struct TablesArgs {
    /// The data folder whose tables/ to list.
    #[arg(long, value_name = "DIR", default_value = "./race-data")]
    pub data: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `race table`.
#[derive(Debug, Args)]
pub struct TableArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: TableAction,
}

/// `race table export` and `race table import`.
#[derive(Debug, Subcommand)]
pub enum TableAction {
    /// Write a solved table as another program's file.
    Export(TableExportArgs),
    /// Read another program's file into a solved table.
    Import(TableImportArgs),
}

/// The formats of other programs' tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    /// RoyalUr's lookup tables (`.rgu`, Percent16 values).
    Rgu,
}

/// `race table export`.
#[derive(Debug, Args)]
pub struct TableExportArgs {
    /// The solved table (from `race solve`).
    #[arg(value_name = "TABLE")]
    pub table: PathBuf,
    /// The format to write.
    #[arg(long, value_enum, default_value = "rgu")]
    pub format: TableFormat,
    /// The file to write (its folder must exist; an existing file is kept
    /// unless --force).
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// Let --out replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `race table import`.
#[derive(Debug, Args)]
pub struct TableImportArgs {
    /// The file to read (a RoyalUr `.rgu` lookup table).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Write the table to this file; without it, to DIR/tables/ under a
    /// name made from the rules.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// The data folder whose tables/ takes the table when --out is not
    /// given.
    #[arg(
        long,
        value_name = "DIR",
        default_value = "./race-data",
        conflicts_with = "out"
    )]
    pub data: PathBuf,
    /// Let the table replace an existing file.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `race analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The Royal Game of Ur record, or `-` for standard input.
    #[arg(value_name = "RECORD|-")]
    pub file: String,
    /// The solved table for the record's rules (from `race solve`).
    #[arg(long, value_name = "PATH")]
    pub table: PathBuf,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// `race serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Where to listen; port 0 picks a free port.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: std::net::SocketAddr,
    /// The data folder: the database, and the tables in its `tables/`
    /// (each opened at start; created if missing).
    #[arg(long, value_name = "DIR", default_value = "./race-data")]
    pub data: PathBuf,
    /// Keep the games in this PostgreSQL database instead of the SQLite
    /// one in --data (several servers may share it), e.g.
    /// postgres://race@127.0.0.1/race.
    #[arg(
        long,
        value_name = "URL",
        env = "RACE_DATABASE",
        hide_env_values = true
    )]
    pub database: Option<String>,
    /// A solved Royal Game of Ur table (from `race solve`); repeat for
    /// several rule sets. Offers the bot level `perfect` for its rules.
    #[arg(long, value_name = "PATH")]
    pub table: Vec<PathBuf>,
    /// A Royal Game of Ur rule set whose table is solved in the background
    /// at the lowest priority when the data folder holds none, written to
    /// DIR/tables/ and offered as soon as it is done; repeat for several.
    #[arg(long, value_name = "RULES")]
    pub solve: Vec<String>,
    /// Milliseconds the bot waits before each move.
    #[arg(long, value_name = "MS", default_value_t = 600)]
    pub bot_pace: u64,
    /// Games one address may create a minute; 0 for no limit.
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub create_limit: u32,
    /// Connections held open at once; never more than the open-file
    /// limit allows (0: that limit alone).
    #[arg(long, value_name = "N", default_value_t = race_server::CONNECTIONS)]
    pub max_connections: usize,
    /// Connections one address may hold open at once; 0 for no cap.
    #[arg(long, value_name = "N", default_value_t = race_server::CONNECTIONS_PER_ADDRESS)]
    pub max_connections_per_address: usize,
    /// Event streams held open at once; 0 for no cap.
    #[arg(long, value_name = "N", default_value_t = race_server::STREAMS)]
    pub max_streams: usize,
    /// Event streams one address may hold open at once; 0 for no cap.
    #[arg(long, value_name = "N", default_value_t = race_server::STREAMS_PER_ADDRESS)]
    pub max_streams_per_address: usize,
    /// Seconds a reply or an event stream may wait for its client to read
    /// before the connection is cut.
    #[arg(long, value_name = "SECS", default_value_t = race_server::STALL.as_secs_f64())]
    pub stall: f64,
    /// Seconds a friend game waits for the friend before it is deleted
    /// (a day by default); 0: for ever.
    #[arg(long, value_name = "SECS", default_value_t = race_server::WAITING_EXPIRY.as_secs_f64())]
    pub waiting_expiry: f64,
    /// Seconds a request sent with a seat's token keeps that seat shown
    /// as connected (an event stream with the token keeps it so while it
    /// is open).
    #[arg(long, value_name = "SECS", default_value_t = race_server::PRESENCE_WINDOW.as_secs_f64())]
    pub presence_window: f64,
    /// Offer no games open to anyone, and list none (a private server).
    #[arg(long)]
    pub no_open_games: bool,
    /// Seconds a game open to anyone stays listed, waiting, before it is
    /// deleted (an hour by default).
    #[arg(long, value_name = "SECS", default_value_t = race_server::OPEN_EXPIRY.as_secs_f64())]
    pub open_expiry: f64,
    /// Serve a data folder its group or others can read or enter, or a
    /// database they can read (refused otherwise: it holds the seeds).
    #[arg(long)]
    pub allow_shared_data: bool,
}

/// `race loadtest`.
#[derive(Debug, Args)]
pub struct LoadtestArgs {
    /// The server, e.g. http://127.0.0.1:8080; several servers sharing
    /// one database share the games (each game created on one, joined on
    /// the next), and a request one fails is sent to the next.
    #[arg(value_name = "URL", required = true, num_args = 1..)]
    pub urls: Vec<String>,
    /// Friend games played at once (the tool holds both seats).
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub games: usize,
    /// How long to play.
    #[arg(long, value_name = "S", default_value_t = 30.0)]
    pub seconds: f64,
    /// Event streams to hold open, following the games being played.
    #[arg(long, value_name = "W", default_value_t = 0)]
    pub watchers: usize,
    /// The game to play (both in turn when not given).
    #[arg(long, value_enum, ignore_case = true)]
    pub game: Option<GameName>,
    /// Moves a second to aim for, spread evenly over the games (0: each
    /// game moves as soon as its last move is answered).
    #[arg(long, value_name = "R", default_value_t = 0.0)]
    pub rate: f64,
    /// Watchers ask for delta events (the whole state once, then what each
    /// move changed) instead of the whole state at every move.
    #[arg(long)]
    pub delta: bool,
    /// Write every move acknowledged to this file, a line each: the
    /// game's id, the ply and the move, separated by spaces.
    #[arg(long, value_name = "FILE")]
    pub acks: Option<PathBuf>,
}
