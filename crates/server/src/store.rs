//! What the server keeps of a game, and the small interface a store offers.
//!
//! A game is stored as what it is: the game, its rules, its two seats (token
//! hashes, or a bot level), its seed, its moves in order and a resignation
//! if there was one. The position, key, ply and status are stored beside
//! them only to be checked when the game is loaded again by replaying its
//! moves.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use dice_core::Side;
use tokio::sync::oneshot;

use crate::secret::{JoinSeal, TokenHash};
use race_games::{AnyVariant, Kind, Level};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A friend game whose second seat is still open.
    Waiting,
    /// Both seats held, the game on.
    Playing,
    /// Won, drawn or resigned.
    Over,
}

impl Status {
    /// Every status, in the order of [`Status::index`].
    pub const ALL: [Status; 3] = [Status::Waiting, Status::Playing, Status::Over];

    /// The contract word: `waiting`, `playing` or `over`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Over => "over",
        }
    }

    /// The status a contract word names.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == word)
    }

    /// 0, 1, 2 in the order of [`Status::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Who holds a seat.
#[derive(Clone, Copy, Debug)]
pub enum Holder {
    /// A person holding the token with this hash.
    Person(TokenHash),
    /// Nobody yet: whoever brings the invite with this hash takes it.
    Open(TokenHash),
    /// Nobody yet, and anyone may take it (a game listed as open).
    Anyone,
    /// The server's bot at this level.
    Bot(Level),
}

/// A rematch of a finished friend game: offered by one seat, and once the
/// other accepts, the game it started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rematch {
    /// The seat that offered it.
    pub offered_by: Side,
    /// The new game, once accepted.
    pub game: Option<String>,
}

/// A move as stored: the ply it was played at and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMove {
    /// The ply of the move (lost turns count as plies).
    pub ply: u32,
    /// The move text.
    pub text: String,
}

/// What can be checked of a game after a change: status, ply, position
/// and key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Where the game stands.
    pub status: Status,
    /// Plies played.
    pub ply: u32,
    /// The position text.
    pub position: String,
    /// The position key.
    pub key: String,
}

/// A whole game as stored. Its `Debug` form leaves out the seed.
#[derive(Clone)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// The rules (and so the game).
    pub rules: AnyVariant,
    /// The seed's bytes.
    pub seed: Vec<u8>,
    /// Light's seat, then dark's.
    pub seats: [Holder; 2],
    /// The names the seats' players gave (light's, then dark's).
    pub names: [Option<String>; 2],
    /// Every move, in order.
    pub moves: Vec<StoredMove>,
    /// The side that resigned, if one did.
    pub resigned: Option<Side>,
    /// For a friend game joined with a join key, the joined seat's token
    /// sealed under the invite and that key (to answer a retry).
    pub join: Option<JoinSeal>,
    /// The game as it stood after the last change.
    pub summary: Summary,
    /// When it was created, in Unix seconds.
    pub created: i64,
    /// When it last changed (created, a move, a join, a resignation, a
    /// rematch offered, withdrawn, declined or accepted), in Unix seconds.
    pub changed: i64,
    /// The rematch offered or started after it, if any.
    pub rematch: Option<Rematch>,
}

/// What the server checks of an unfinished game at start, without its
/// moves.
#[derive(Clone, Debug)]
pub struct Unfinished {
    /// The game's id.
    pub id: String,
    /// The rules.
    pub rules: AnyVariant,
    /// The bots' levels (none, one or two).
    pub bots: Vec<Level>,
}

impl std::fmt::Debug for StoredGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredGame")
            .field("id", &self.id)
            .field("rules", &self.rules)
            .field("seats", &self.seats)
            .field("names", &self.names)
            .field("moves", &self.moves)
            .field("resigned", &self.resigned)
            .field("join", &self.join)
            .field("summary", &self.summary)
            .field("created", &self.created)
            .field("changed", &self.changed)
            .field("rematch", &self.rematch)
            .finish_non_exhaustive()
    }
}

/// One change to the store, applied whole or not at all.
#[derive(Clone, Debug)]
pub enum Change {
    /// A new game (with no moves).
    Create(Box<StoredGame>),
    /// A move: the `n`-th (from 0) of the game.
    Move {
        /// The game.
        id: String,
        /// The move's index among the game's moves.
        n: u32,
        /// The move.
        mv: StoredMove,
        /// The game after it.
        after: Summary,
        /// When it was played, in Unix seconds.
        at: i64,
    },
    /// An open seat taken by the holder of its invite, with a fresh token.
    Join {
        /// The game.
        id: String,
        /// The seat.
        seat: Side,
        /// The hash of the seat's new token.
        token: TokenHash,
        /// The token sealed under the invite and the join key, when the
        /// join sent a key.
        seal: Option<JoinSeal>,
        /// The name the joining player gave.
        name: Option<String>,
        /// The game after it.
        after: Summary,
        /// When the seat was taken, in Unix seconds.
        at: i64,
    },
    /// A seat's player renamed (or unnamed).
    Rename {
        /// The game.
        id: String,
        /// The seat.
        seat: Side,
        /// The new name.
        name: Option<String>,
    },
    /// A resignation.
    Resign {
        /// The game.
        id: String,
        /// The side that resigned.
        side: Side,
        /// The game after it.
        after: Summary,
        /// When it resigned, in Unix seconds.
        at: i64,
    },
    /// A rematch offered, withdrawn or declined (`None`), or accepted:
    /// then `start` is the new game, stored with it.
    Rematch {
        /// The finished game.
        id: String,
        /// The rematch as it now stands.
        rematch: Option<Rematch>,
        /// The game an accepted rematch starts.
        start: Option<Box<StoredGame>>,
        /// When it was offered, withdrawn, declined or accepted, in Unix
        /// seconds.
        at: i64,
    },
    /// A game still waiting for its second player withdrawn by its
    /// creator: deleted; refused when the game is no longer waiting.
    Withdraw {
        /// The game.
        id: String,
    },
    /// A game that waited for its friend since before `before` (Unix
    /// seconds), deleted; refused when the game is no longer waiting.
    Expire {
        /// The game.
        id: String,
        /// The time it was to be created before.
        before: i64,
    },
}

/// The store failed (a disk error, a database that is not ours, a stored
/// game that does not read).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("store: {0}")]
pub struct StoreError(pub String);

/// How the error of a database out of reach begins.
const UNREACHABLE: &str = "the database is unreachable: ";

impl StoreError {
    /// The store's database could not be reached (`what` says which, and
    /// why, without a password).
    #[must_use]
    pub fn unreachable(what: &str) -> StoreError {
        StoreError(format!("{UNREACHABLE}{what}"))
    }

    /// Whether this is [`StoreError::unreachable`]'s: the database out of
    /// reach, not a failure of the store itself.
    #[must_use]
    pub fn is_unreachable(&self) -> bool {
        self.0.starts_with(UNREACHABLE)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError(e.to_string())
    }
}

/// A game's row as both stores keep it: text, bytes and integers, read
/// back into a [`StoredGame`] (without its moves) by [`GameRow::decode`].
pub(crate) struct GameRow {
    pub(crate) id: String,
    pub(crate) game: String,
    pub(crate) rules: String,
    pub(crate) seed: Vec<u8>,
    pub(crate) light: String,
    pub(crate) light_hash: Option<Vec<u8>>,
    pub(crate) dark: String,
    pub(crate) dark_hash: Option<Vec<u8>>,
    pub(crate) status: String,
    pub(crate) resigned: Option<String>,
    pub(crate) ply: i64,
    pub(crate) position: String,
    pub(crate) key: String,
    pub(crate) join_check: Option<Vec<u8>>,
    pub(crate) join_seal: Option<Vec<u8>>,
    pub(crate) created: i64,
    pub(crate) updated: i64,
    pub(crate) light_name: Option<String>,
    pub(crate) dark_name: Option<String>,
    pub(crate) rematch_by: Option<String>,
    pub(crate) rematch_game: Option<String>,
}

/// A rematch as stored: the side that offered it and the game it
/// started.
pub(crate) fn rematch_text(rematch: Option<&Rematch>) -> (Option<&'static str>, Option<&str>) {
    match rematch {
        None => (None, None),
        Some(r) => (Some(r.offered_by.as_str()), r.game.as_deref()),
    }
}

/// A stored game that does not read.
/// The most changes one transaction of a store's writer takes.
pub(crate) const BATCH_MAX: usize = 4096;

/// What a store's writer is asked: a change to store (acknowledged once
/// committed; with a version, only if the game is still at that version),
/// or to close.
#[expect(
    clippy::large_enum_variant,
    reason = "the close is sent once; boxing every change would allocate for each"
)]
pub(crate) enum Job {
    Write(Change, Option<u64>, oneshot::Sender<Result<(), StoreError>>),
    Close(std::sync::mpsc::Sender<Result<(), StoreError>>),
}

/// A change waiting in a writer's batch, with the version it expects and
/// its acknowledgement.
pub(crate) type Queued = (Change, Option<u64>, oneshot::Sender<Result<(), StoreError>>);

/// Fills `batch` from `first` and the jobs `next` has waiting, up to
/// [`BATCH_MAX`], and gives the close request if one came (the jobs after it
/// are never taken).
pub(crate) fn gather(
    first: Job,
    batch: &mut Vec<Queued>,
    mut next: impl FnMut() -> Option<Job>,
) -> Option<std::sync::mpsc::Sender<Result<(), StoreError>>> {
    let mut job = Some(first);
    while let Some(taken) = job {
        match taken {
            Job::Write(change, version, ack) => batch.push((change, version, ack)),
            Job::Close(done) => return Some(done),
        }
        job = if batch.len() < BATCH_MAX {
            next()
        } else {
            None
        };
    }
    None
}

pub(crate) fn bad(id: &str, what: &str) -> StoreError {
    StoreError(format!("stored game {id}: {what}"))
}

/// A seat's holder as stored: `person`, `open`, `anyone` or `bot:LEVEL`,
/// and the token hash of the first two.
pub(crate) fn holder_text(holder: &Holder) -> (String, Option<&[u8]>) {
    match holder {
        Holder::Person(h) => ("person".into(), Some(&h.0[..])),
        Holder::Open(h) => ("open".into(), Some(&h.0[..])),
        Holder::Anyone => ("anyone".into(), None),
        Holder::Bot(level) => (format!("bot:{level}"), None),
    }
}

/// The holder stored as `text` with `hash` (see [`holder_text`]).
pub(crate) fn holder(id: &str, text: &str, hash: Option<Vec<u8>>) -> Result<Holder, StoreError> {
    let hash = || {
        hash.as_deref()
            .and_then(|h| <[u8; 32]>::try_from(h).ok())
            .map(TokenHash)
            .ok_or_else(|| bad(id, "a seat's token hash is not 32 bytes"))
    };
    match text {
        "person" => Ok(Holder::Person(hash()?)),
        "open" => Ok(Holder::Open(hash()?)),
        "anyone" => Ok(Holder::Anyone),
        _ => text
            .strip_prefix("bot:")
            .and_then(|word| word.parse::<Level>().ok())
            .map(Holder::Bot)
            .ok_or_else(|| bad(id, &format!("a seat is held by {text:?}"))),
    }
}

/// The rules stored as the game's word and the rules' text.
pub(crate) fn rules_of(id: &str, game: &str, rules: &str) -> Result<AnyVariant, StoreError> {
    let kind = Kind::from_exact_word(game).ok_or_else(|| bad(id, "an unknown game"))?;
    AnyVariant::read(kind, Some(rules)).map_err(|e| bad(id, &e.to_string()))
}

/// The bots among two stored holders.
pub(crate) fn bots_of(id: &str, holders: [&str; 2]) -> Result<Vec<Level>, StoreError> {
    let mut bots = Vec::new();
    for holder in holders {
        if let Some(word) = holder.strip_prefix("bot:") {
            bots.push(
                word.parse::<Level>()
                    .map_err(|_| bad(id, &format!("a seat is held by {holder:?}")))?,
            );
        }
    }
    Ok(bots)
}

/// A move's ply or index as stored.
pub(crate) fn stored_u32(id: &str, n: i64) -> Result<u32, StoreError> {
    u32::try_from(n).map_err(|_| bad(id, &format!("{n} is no ply")))
}

impl GameRow {
    /// The game this row holds, without its moves.
    pub(crate) fn decode(self) -> Result<StoredGame, StoreError> {
        let id = self.id;
        let rules = rules_of(&id, &self.game, &self.rules)?;
        let light = holder(&id, &self.light, self.light_hash)?;
        let dark = holder(&id, &self.dark, self.dark_hash)?;
        let resigned = match self.resigned.as_deref() {
            None => None,
            Some(word) => Some(
                word.parse::<Side>()
                    .map_err(|_| bad(&id, "resigned names no side"))?,
            ),
        };
        let join = match (self.join_check, self.join_seal) {
            (None, None) => None,
            (Some(check), Some(sealed)) => Some(JoinSeal {
                check: check
                    .try_into()
                    .map_err(|_| bad(&id, "a join check is not 32 bytes"))?,
                sealed: sealed
                    .try_into()
                    .map_err(|_| bad(&id, "a sealed token is not 24 bytes"))?,
            }),
            _ => return Err(bad(&id, "a join check without its sealed token")),
        };
        Ok(StoredGame {
            rules,
            seed: self.seed,
            seats: [light, dark],
            names: [self.light_name, self.dark_name],
            moves: Vec::new(),
            resigned,
            join,
            summary: Summary {
                status: Status::from_word(&self.status)
                    .ok_or_else(|| bad(&id, "an unknown status"))?,
                ply: stored_u32(&id, self.ply)?,
                position: self.position,
                key: self.key,
            },
            created: self.created,
            changed: self.updated,
            rematch: match (self.rematch_by, self.rematch_game) {
                (None, None) => None,
                (Some(by), game) => Some(Rematch {
                    offered_by: by
                        .parse::<Side>()
                        .map_err(|_| bad(&id, "a rematch offered by no side"))?,
                    game,
                }),
                (None, Some(_)) => return Err(bad(&id, "a rematch nobody offered")),
            },
            id,
        })
    }
}

/// A game open to anyone, as the list of open games shows it.
#[derive(Clone, Debug)]
pub struct OpenGame {
    /// The game's id.
    pub id: String,
    /// The rules (and so the game).
    pub rules: AnyVariant,
    /// The creator's name.
    pub name: Option<String>,
    /// When it was created, in Unix seconds.
    pub created: i64,
}

impl OpenGame {
    /// The listing in a stored row: its id, game and rules words, its
    /// seats' holders and names, and when it was created.
    pub(crate) fn decode(
        id: String,
        game: &str,
        rules: &str,
        holders: [&str; 2],
        names: [Option<String>; 2],
        created: i64,
    ) -> Result<OpenGame, StoreError> {
        let rules = rules_of(&id, game, rules)?;
        let [light, _] = holders;
        let [light_name, dark_name] = names;
        let name = if light == "anyone" {
            dark_name
        } else {
            light_name
        };
        Ok(OpenGame {
            id,
            rules,
            name,
            created,
        })
    }
}

/// What a shared store tells of the changes committed (by any server).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The game with this id reached this version.
    Changed(String, u64),
    /// Notices may have been lost (the store's listening connection was
    /// opened again): every game may have changed.
    Gap,
}

/// How many games there are of each status, in the order of
/// [`Status::ALL`].
pub type Counts = [u64; 3];

/// A change on its way to the store: resolves once it is durable (or has
/// failed).
pub struct Pending(oneshot::Receiver<Result<(), StoreError>>);

impl Pending {
    /// A pending change and the sender that settles it.
    #[must_use]
    pub fn new() -> (oneshot::Sender<Result<(), StoreError>>, Pending) {
        let (tx, rx) = oneshot::channel();
        (tx, Pending(rx))
    }

    /// A change already settled.
    #[must_use]
    pub fn settled(result: Result<(), StoreError>) -> Pending {
        let (tx, pending) = Pending::new();
        let _ = tx.send(result);
        pending
    }
}

impl Future for Pending {
    type Output = Result<(), StoreError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|r| {
            r.unwrap_or_else(|_| Err(StoreError("the store stopped before the change".into())))
        })
    }
}

/// Where games are kept. The server holds the games asked for lately in
/// memory and writes every change here before it answers; it reads a game
/// when it is first asked for, and at start only what it checks of the
/// unfinished games (their rules and bots, no moves).
///
/// The SQLite store ([`crate::Sqlite`]) serves one server; the PostgreSQL
/// store ([`crate::Postgres`]) may be shared by several, and then says so
/// ([`Store::shared`]): each game then has a version, the count of changes
/// stored for it, that a change may be made to depend on
/// ([`Store::write_at`]), and the store tells of every change committed
/// ([`Store::notices`]).
pub trait Store: Send + Sync + 'static {
    /// Queues a change; the returned [`Pending`] resolves once the change
    /// is durable. Changes are applied in the order they are queued.
    fn write(&self, change: Change) -> Pending;

    /// Whether other servers may change the games in this store.
    fn shared(&self) -> bool {
        false
    }

    /// As [`Store::write`], but in a shared store the change is refused
    /// unless the game is still at `version` (no other server changed it
    /// since); the game is then at `version + 1`. A store only one server
    /// writes ignores the version.
    fn write_at(&self, change: Change, version: u64) -> Pending {
        let _ = version;
        self.write(change)
    }

    /// The version of the game with this id (0 in a store that keeps
    /// none); `None` when there is no such game.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.load(id)?.map(|_| 0))
    }

    /// The game with this id and its version, read together.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn load_versioned(&self, id: &str) -> Result<Option<(StoredGame, u64)>, StoreError> {
        Ok(self.load(id)?.map(|g| (g, 0)))
    }

    /// The notices of changes committed by any server, once: taken by the
    /// first call; `None` from a store only one server writes.
    fn notices(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Notice>> {
        None
    }

    /// The game with this id, moves and all.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError>;

    /// Every game not over: its id, rules and bots, not its moves.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn unfinished(&self) -> Result<Vec<Unfinished>, StoreError>;

    /// Up to `most` games waiting for their friend since before `before`
    /// (Unix seconds).
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn waiting_since(&self, before: i64, most: usize) -> Result<Vec<String>, StoreError>;

    /// Up to `most` games open to anyone and still waiting, created
    /// before `before` (Unix seconds), the longest waiting first.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn open_games(&self, before: i64, most: usize) -> Result<Vec<OpenGame>, StoreError>;

    /// How many games there are of each status.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the store cannot be read.
    fn counts(&self) -> Result<Counts, StoreError>;

    /// Writes every queued change and closes the store.
    ///
    /// # Errors
    ///
    /// [`StoreError`] when the last writes or the close fail.
    fn close(&self) -> Result<(), StoreError>;
}
