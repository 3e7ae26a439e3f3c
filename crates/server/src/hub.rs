//! The game hub: every game in play, held in memory, one lock each.
//!
//! A change to a game (a move, a join, a resignation) runs under the game's
//! lock from the first check to the store's acknowledgement, so that two
//! requests for the same game are served one after the other and a reply
//! never runs ahead of the disk. Each change is written once to the store
//! and then published: the new state is serialised once, and that one
//! buffer is the reply, the answer to `GET`, and the event every watcher
//! is sent.
//!
//! Changes run in a task of their own, so a client that hangs up halfway
//! cannot leave a game changed in memory but not on disk.
//!
//! In a store that several servers share, the game's lock is one
//! server's: before judging a change the hub catches the game up with the
//! store (another server may have changed it), the change is stored only
//! at the version it was judged against, and a change refused for that
//! is judged again against the game as it now is. The store's notices of
//! other servers' changes catch up the games held, for their watchers.
//!
//! A game is loaded from the store when it is first asked for, and
//! forgotten again once nobody has asked for it or followed it for a
//! while; a game waiting for a friend who never comes expires.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use bytes::{BufMut, Bytes, BytesMut};
use dice_core::{Ending, Seed, Side};
use tokio::sync::{OwnedMutexGuard, Semaphore, watch};

use crate::feed::{Feed, Kind, Stage, Watcher};
use crate::metrics::Metrics;
use crate::presence::{Follow, Holds, Presence, SeatView, of_side, of_side_mut};
use crate::refusal::Refusal;
use crate::secret::{self, JoinSeal, Token, TokenHash};
use crate::sqlite::now;
use crate::store::{
    Change, Holder, Notice, OpenGame, Rematch, Status, Store, StoreError, StoredGame, StoredMove,
    Summary,
};
use crate::wire::{
    CreateRequest, Opponent, Pair, RematchView, ResultView, SeatsView, SideChoice, StateView,
};
use race_games::{
    AnyBot, AnyGame, AnyVariant, BotError, Level, ResultView as ResultOf, Tables, TablesError,
};

/// How long a game stays in memory once nobody asks for it or follows it;
/// it is loaded again from the store when asked for.
const IDLE_KEPT: Duration = Duration::from_secs(120);
/// How often the hub looks for games to forget, and for games waiting too
/// long for their friend (more often when they wait less than a minute).
const SWEEP_EVERY: Duration = Duration::from_secs(15);
/// The most expired games deleted in one sweep.
const EXPIRED_AT_ONCE: usize = 1000;
/// How long a presence change waits before its state is sent, so that a
/// burst of them (many watchers coming at once) is sent as one.
const PRESENCE_SETTLE: Duration = Duration::from_millis(100);

/// A seat as the hub holds it.
#[derive(Clone, Debug)]
enum Seat {
    Person(TokenHash),
    Open(TokenHash),
    /// Open to anyone (a game listed as open): the first to join takes it.
    Anyone,
    /// A bot; `None` for a finished game whose perfect bot's table is not
    /// loaded.
    Bot(Level, Option<AnyBot>),
}

impl Seat {
    fn word(&self) -> String {
        match self {
            Seat::Person(_) => "person".into(),
            Seat::Open(_) | Seat::Anyone => "open".into(),
            Seat::Bot(level, _) => format!("bot:{level}"),
        }
    }

    fn holder(&self) -> Holder {
        match self {
            Seat::Person(h) => Holder::Person(*h),
            Seat::Open(h) => Holder::Open(*h),
            Seat::Anyone => Holder::Anyone,
            Seat::Bot(level, _) => Holder::Bot(*level),
        }
    }
}

/// A game in memory.
struct Live {
    game: AnyGame,
    seats: [Seat; 2],
    /// The names the seats' players gave, light's then dark's.
    names: [Option<String>; 2],
    commitment: String,
    seed_hex: String,
    /// Moves stored (the index of the next one).
    moves: u32,
    /// The changes stored for the game (its version in a shared store).
    version: u64,
    /// The joined seat's token sealed under its invite and join key.
    join: Option<JoinSeal>,
    /// The rematch offered or started after the game.
    rematch: Option<Rematch>,
    /// A bot task is running for this game.
    bot_busy: bool,
    /// When the game was created, in Unix seconds.
    created: i64,
    /// When it last changed (see [`StoredGame::changed`]), in Unix
    /// seconds.
    changed: i64,
    /// This copy no longer stands for the game (forgotten or expired): a
    /// change asks the hub for the game again.
    gone: bool,
}

impl Live {
    fn status(&self) -> Status {
        if self.game.is_over() {
            Status::Over
        } else if self
            .seats
            .iter()
            .any(|s| matches!(s, Seat::Open(_) | Seat::Anyone))
        {
            Status::Waiting
        } else {
            Status::Playing
        }
    }

    /// Both seats held by people.
    fn is_friend_game(&self) -> bool {
        self.seats.iter().all(|s| matches!(s, Seat::Person(_)))
    }

    /// How far the game is for its streams: a finished friend game may
    /// still see a rematch offered or started.
    fn stage(&self) -> Stage {
        if !self.game.is_over() {
            Stage::On
        } else if self.is_friend_game() && self.rematch.as_ref().is_none_or(|r| r.game.is_none()) {
            Stage::Over
        } else {
            Stage::Done
        }
    }

    /// The check a rematch offer and its withdrawal share: 409
    /// `no_rematch` for a game against the bot, `not_over` while the game
    /// is on.
    fn rematchable(&self) -> Result<(), Refusal> {
        if !self.is_friend_game() {
            return Err(Refusal::conflict(
                "no_rematch",
                "only a game between two people has a rematch to offer; start a new game",
            ));
        }
        if !self.game.is_over() {
            return Err(Refusal::conflict(
                "not_over",
                "a rematch is offered once the game has ended",
            ));
        }
        Ok(())
    }

    fn summary(&self) -> Summary {
        Summary {
            status: self.status(),
            ply: self.game.ply(),
            position: self.game.position().to_string(),
            key: self.game.key(),
        }
    }

    /// The seat a token's hash holds: both seats are compared, in constant
    /// time each. An invite (an open seat) holds nothing yet.
    fn seat_of(&self, token: &TokenHash) -> Option<Side> {
        let holds = |seat: &Seat| matches!(seat, Seat::Person(h) if h.matches(token));
        let light = holds(&self.seats[0]);
        let dark = holds(&self.seats[1]);
        match (light, dark) {
            (true, _) => Some(Side::Light),
            (_, true) => Some(Side::Dark),
            _ => None,
        }
    }

    fn seat(&self, side: Side) -> &Seat {
        let [light, dark] = &self.seats;
        match side {
            Side::Light => light,
            Side::Dark => dark,
        }
    }

    fn seat_mut(&mut self, side: Side) -> &mut Seat {
        let [light, dark] = &mut self.seats;
        match side {
            Side::Light => light,
            Side::Dark => dark,
        }
    }

    fn name_mut(&mut self, side: Side) -> &mut Option<String> {
        of_side_mut(&mut self.names, side)
    }

    /// The name the state shows for a seat: its player's, or for a bot
    /// its level's name.
    fn name(&self, side: Side) -> Option<&str> {
        match self.seat(side) {
            Seat::Bot(level, _) => self.game.kind().level_name(*level),
            _ => of_side(&self.names, side).as_deref(),
        }
    }

    /// What each seat is, for its presence.
    fn holds(&self) -> [Holds; 2] {
        let [light, dark] = &self.seats;
        [light, dark].map(|seat| match seat {
            Seat::Person(h) => Holds::Person(*h),
            Seat::Open(_) | Seat::Anyone => Holds::Open,
            Seat::Bot(..) => Holds::Bot,
        })
    }

    /// The contract's turn check that a move and a resignation share: 409
    /// `not_started` while a seat is open, `game_over` once it has ended.
    fn in_play(&self) -> Result<(), Refusal> {
        match self.status() {
            Status::Waiting => Err(Refusal::conflict(
                "not_started",
                "the game waits for a friend to take the open seat",
            )),
            Status::Over => Err(Refusal::conflict("game_over", "the game has ended")),
            Status::Playing => Ok(()),
        }
    }

    /// The bot to move now, if a bot is.
    fn bot_to_move(&self) -> Option<AnyBot> {
        if self.status() != Status::Playing {
            return None;
        }
        match self.seat(self.game.side()?) {
            Seat::Bot(_, bot) => bot.clone(),
            _ => None,
        }
    }

    fn resigned(&self) -> Option<Side> {
        match self.game.result()? {
            ResultOf {
                winner: Some(winner),
                how: Ending::Resign,
            } => Some(winner.other()),
            _ => None,
        }
    }
}

/// One game: its lock and its feed.
pub struct Slot {
    id: String,
    live: Arc<tokio::sync::Mutex<Live>>,
    feed: Mutex<Feed>,
    metrics: Arc<Metrics>,
    /// Who has the game open.
    presence: Presence,
    /// When it was last asked for or changed: milliseconds since the hub
    /// started.
    touched: AtomicU64,
}

impl Slot {
    /// The current state's JSON.
    #[must_use]
    pub fn state(&self) -> Bytes {
        self.feed().state.clone()
    }

    fn feed(&self) -> std::sync::MutexGuard<'_, Feed> {
        self.feed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The current state as an event, and the queue of a new stream of
    /// `kind` that gets every later one, in order, and with `after_end`
    /// those after the game's end (a rematch offered or started); no
    /// queue when nothing follows.
    #[must_use]
    pub fn watch(&self, kind: Kind, after_end: bool) -> (Bytes, Option<Arc<Watcher>>) {
        self.feed().watch(kind, after_end, &self.metrics)
    }

    /// Forgets a stream that ended.
    pub fn unwatch(&self, watcher: &Arc<Watcher>) {
        self.feed().unwatch(watcher);
    }

    fn touch(&self, at: u64) {
        self.touched.fetch_max(at, Ordering::Relaxed);
    }

    /// The game as it stands (a copy).
    pub async fn game(&self) -> AnyGame {
        self.live.lock().await.game.clone()
    }

    /// The record: with the seed once the game is over, without it before.
    pub async fn record(&self) -> String {
        let live = self.live.lock().await;
        live.game.record(live.game.is_over())
    }
}

/// A create request checked: what [`Hub::create`] makes.
#[derive(Debug)]
pub struct Plan {
    rules: AnyVariant,
    level: Level,
    bot: Option<AnyBot>,
    /// A game open to anyone.
    open: bool,
    side: SideChoice,
    name: Option<String>,
}

/// The reply to a created or joined game: the seat, its token and the
/// state; for a friend game, the invite link.
#[derive(Debug)]
pub struct Seated {
    /// The game's id.
    pub id: String,
    /// The seat taken.
    pub seat: Side,
    /// The seat's token.
    pub token: Token,
    /// The state.
    pub state: Bytes,
    /// The invite link, for a friend game just created.
    pub invite: Option<String>,
}

impl Seated {
    /// The reply's JSON.
    #[must_use]
    pub fn body(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.state.len() + 160);
        out.extend_from_slice(b"{\"id\":");
        let _ = serde_json::to_writer(&mut out, &self.id);
        out.extend_from_slice(b",\"seat\":");
        let _ = serde_json::to_writer(&mut out, self.seat.as_str());
        out.extend_from_slice(b",\"token\":");
        let _ = serde_json::to_writer(&mut out, self.token.reveal());
        if let Some(invite) = &self.invite {
            out.extend_from_slice(b",\"invite\":");
            let _ = serde_json::to_writer(&mut out, invite);
        }
        out.extend_from_slice(b",\"state\":");
        out.extend_from_slice(&self.state);
        out.push(b'}');
        out
    }
}

/// Why the hub could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HubError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game does not replay to what was stored.
    #[error("stored game {id}: {why}")]
    Replay {
        /// The game.
        id: String,
        /// What disagreed.
        why: String,
    },
}

/// Every game in memory, the store behind them, and the bots.
pub struct Hub {
    store: Arc<dyn Store>,
    /// Other servers change the store's games too.
    shared: bool,
    games: RwLock<HashMap<String, Arc<Slot>>>,
    /// The tables held, swapped whole when one is added while serving.
    tables: RwLock<Arc<Tables>>,
    pace: Duration,
    metrics: Arc<Metrics>,
    bots: Semaphore,
    stop: watch::Sender<bool>,
    /// How long a game waits for its friend; `None`: for ever.
    expiry: Option<Duration>,
    /// How long a game nobody asks for stays in memory.
    idle: Duration,
    /// How long a request with a seat's token keeps it `connected`.
    window: Duration,
    /// Whether games open to anyone are offered, and how long they wait.
    open_games: Option<Duration>,
    started: Instant,
}

/// What the hub is told by `race serve`'s options.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The pause before each bot move.
    pub pace: Duration,
    /// How long a friend game waits for its friend; `None`: for ever.
    pub expiry: Option<Duration>,
    /// How long a request with a seat's token keeps the seat `connected`.
    pub presence: Duration,
    /// Whether games open to anyone may be created and are listed.
    pub open_games: bool,
    /// How long a game open to anyone stays listed, waiting; then it is
    /// deleted.
    pub open_expiry: Duration,
}

/// How long a game open to anyone waits, by default: an hour.
pub const OPEN_EXPIRY: Duration = Duration::from_secs(3600);
/// The most games `GET /api/open` lists.
pub const OPEN_LISTED: usize = 100;

impl Default for Options {
    /// No pause, no expiry of friend games, the default presence window,
    /// open games listed for an hour.
    fn default() -> Options {
        Options {
            pace: Duration::ZERO,
            expiry: None,
            presence: crate::presence::WINDOW,
            open_games: true,
            open_expiry: OPEN_EXPIRY,
        }
    }
}

impl Hub {
    /// A hub over `store`. No game is loaded yet: each is loaded (its
    /// moves replayed through the engine and checked against what was
    /// stored) when first asked for. What is checked at start is that
    /// every unfinished game's bot can play: a `perfect` bot needs its
    /// table. A friend game still waiting after `options.expiry` is
    /// deleted.
    ///
    /// # Errors
    ///
    /// [`HubError`] when the store fails, or an unfinished game's bot
    /// needs a table that was not given.
    pub fn start(
        store: Arc<dyn Store>,
        tables: Tables,
        metrics: Arc<Metrics>,
        options: Options,
    ) -> Result<Arc<Hub>, HubError> {
        for g in store.unfinished()? {
            for level in g.bots {
                AnyBot::with_tables(&g.rules, level, &tables).map_err(|e| HubError::Replay {
                    id: g.id.clone(),
                    why: bot_refusal(&e),
                })?;
            }
        }
        Ok(Hub::new(store, tables, metrics, options, IDLE_KEPT))
    }

    fn new(
        store: Arc<dyn Store>,
        tables: Tables,
        metrics: Arc<Metrics>,
        options: Options,
        idle: Duration,
    ) -> Arc<Hub> {
        let threads = std::thread::available_parallelism().map_or(2, usize::from);
        Arc::new(Hub {
            shared: store.shared(),
            store,
            games: RwLock::new(HashMap::new()),
            tables: RwLock::new(Arc::new(tables)),
            pace: options.pace,
            metrics,
            bots: Semaphore::new(threads),
            stop: watch::channel(false).0,
            expiry: options.expiry,
            idle,
            window: options.presence,
            open_games: options.open_games.then_some(options.open_expiry),
            started: Instant::now(),
        })
    }

    /// Starts the task that forgets the games nobody asked for lately and
    /// deletes those that waited too long for their friend. Call inside
    /// the runtime.
    pub fn sweep_in_background(self: &Arc<Hub>) {
        let shortest = [self.expiry, self.open_games].into_iter().flatten().min();
        let every = shortest.map_or(SWEEP_EVERY, |e| {
            (e / 4).clamp(Duration::from_millis(50), SWEEP_EVERY)
        });
        let hub = Arc::downgrade(self);
        let mut stop = self.stop.subscribe();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = stop.wait_for(|s| *s) => return,
                }
                let Some(hub) = hub.upgrade() else { return };
                hub.forget_idle();
                if let Err(e) = hub.expire().await {
                    tracing::warn!("expiring the games that waited too long: {}", e.message);
                }
            }
        });
    }

    /// Milliseconds since the hub started.
    fn clock(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Forgets the games nobody asked for, changed or followed for
    /// [`IDLE_KEPT`]; the store has all of each.
    fn forget_idle(&self) {
        let now = self.clock();
        let idle = u64::try_from(self.idle.as_millis()).unwrap_or(u64::MAX);
        let candidates: Vec<Arc<Slot>> = self
            .read_games()
            .values()
            .filter(|slot| now.saturating_sub(slot.touched.load(Ordering::Relaxed)) >= idle)
            .cloned()
            .collect();
        for slot in candidates {
            // A game whose change is under way, whose bot plays, or that
            // someone follows stays.
            let Ok(mut live) = Arc::clone(&slot.live).try_lock_owned() else {
                continue;
            };
            if live.bot_busy || slot.feed().watchers() > 0 {
                continue;
            }
            self.drop_slot(&slot, &mut live);
        }
    }

    /// Takes a game out of memory, under its lock.
    fn drop_slot(&self, slot: &Arc<Slot>, live: &mut Live) {
        live.gone = true;
        let mut games = self.games.write().unwrap_or_else(PoisonError::into_inner);
        if games.get(&slot.id).is_some_and(|s| Arc::ptr_eq(s, slot)) {
            games.remove(&slot.id);
        }
        drop(games);
        slot.feed().close();
    }

    /// Deletes the friend games that waited longer than the expiry, and
    /// the games open to anyone that waited longer than theirs, each under
    /// its lock (a player who comes at that moment either joins first or
    /// finds no game).
    async fn expire(self: &Arc<Hub>) -> Result<(), Refusal> {
        let ago =
            |d: Duration| now().saturating_sub(i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let friend = self.expiry.map(ago);
        let open = self.open_games.map(ago);
        if friend.is_none() && open.is_none() {
            return Ok(());
        }
        let hub = Arc::clone(self);
        let due = tokio::task::spawn_blocking(move || -> Result<Vec<(String, i64)>, StoreError> {
            let mut due = Vec::new();
            if let Some(before) = friend {
                let ids = hub.store.waiting_since(before, EXPIRED_AT_ONCE)?;
                due.extend(ids.into_iter().map(|id| (id, before)));
            }
            if let Some(before) = open {
                let games = hub.store.open_games(before, EXPIRED_AT_ONCE)?;
                due.extend(games.into_iter().map(|g| (g.id, before)));
            }
            Ok(due)
        })
        .await
        .map_err(Refusal::internal)?
        .map_err(|e| self.store_failed(e))?;
        for (id, before) in due {
            let slot = match self.slot(&id).await {
                Ok(slot) => slot,
                Err(e) if e.code == "no_game" => continue,
                Err(e) => return Err(e),
            };
            let (slot, mut live) = self.lock(slot).await?;
            if live.status() != Status::Waiting || live.created >= before {
                continue;
            }
            let change = Change::Expire {
                id: slot.id.clone(),
                before,
            };
            if !self.store_change(&slot.id, &mut live, change).await? {
                // Another server changed it: the next sweep looks again.
                continue;
            }
            self.metrics.game_expired();
            self.drop_slot(&slot, &mut live);
        }
        Ok(())
    }

    /// The game's lock, taken; when the slot no longer stands for the
    /// game (it was forgotten meanwhile), the game is asked for again.
    ///
    /// # Errors
    ///
    /// As [`Hub::slot`]: 404 `no_game` for a game that expired meanwhile.
    async fn lock(
        self: &Arc<Hub>,
        mut slot: Arc<Slot>,
    ) -> Result<(Arc<Slot>, OwnedMutexGuard<Live>), Refusal> {
        loop {
            let mut live = Arc::clone(&slot.live).lock_owned().await;
            if !live.gone {
                self.catch_up(&slot, &mut live).await?;
            }
            if !live.gone {
                slot.touch(self.clock());
                return Ok((slot, live));
            }
            drop(live);
            slot = self.slot(&slot.id).await?;
        }
    }

    /// Runs a read of the store on a blocking thread.
    async fn read_store<T: Send + 'static>(
        self: &Arc<Hub>,
        read: impl FnOnce(&dyn Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, Refusal> {
        let hub = Arc::clone(self);
        tokio::task::spawn_blocking(move || read(hub.store.as_ref()))
            .await
            .map_err(|e| Refusal::internal(format!("reading the store failed: {e}")))?
            .map_err(|e| self.store_failed(e))
    }

    /// In a shared store, brings the game in memory up to the stored one
    /// when another server changed it, publishing each state it missed
    /// in order (each once: the states up to its version were published
    /// already); a game deleted meanwhile is dropped (`gone`).
    ///
    /// # Errors
    ///
    /// 500 when the store fails or the stored game does not replay.
    async fn catch_up(self: &Arc<Hub>, slot: &Arc<Slot>, live: &mut Live) -> Result<(), Refusal> {
        if !self.shared {
            return Ok(());
        }
        let id = slot.id.clone();
        let stored = self.read_store(move |s| s.version(&id)).await?;
        if stored.is_some_and(|v| v <= live.version) {
            return Ok(());
        }
        let id = slot.id.clone();
        let Some((stored, version)) = self.read_store(move |s| s.load_versioned(&id)).await? else {
            self.drop_slot(slot, live);
            return Ok(());
        };
        if version > live.version {
            self.catch_up_to(slot, live, stored, version)?;
        }
        Ok(())
    }

    /// Brings `live` to `stored`, at `version`: the seats and names first
    /// (a join comes before any move), then each move, then the rest (a
    /// resignation, a rematch); a state is published for each step that
    /// changed something, and one more when the changes were more than
    /// the steps shown.
    fn catch_up_to(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        live: &mut Live,
        stored: StoredGame,
        version: u64,
    ) -> Result<(), Refusal> {
        let before = live.status();
        let missed: Vec<StoredMove> = stored
            .moves
            .get(usize::try_from(live.moves).unwrap_or(usize::MAX)..)
            .map(<[StoredMove]>::to_vec)
            .unwrap_or_default();
        let mut fresh = self.revive(stored).map_err(Refusal::internal)?;
        let mut shown = 0;
        let reseated = live
            .seats
            .iter()
            .zip(&fresh.seats)
            .any(|(a, b)| a.word() != b.word())
            || live.names != fresh.names;
        if reseated {
            live.seats.clone_from(&fresh.seats);
            live.names.clone_from(&fresh.names);
            live.join = fresh.join;
            self.publish(slot, live);
            shown += 1;
        }
        for mv in &missed {
            if live.game.play_text(&mv.text).is_err() {
                break;
            }
            live.moves += 1;
            self.publish(slot, live);
            shown += 1;
        }
        fresh.bot_busy = live.bot_busy;
        fresh.version = version;
        let steps = version - live.version;
        *live = fresh;
        if shown < steps {
            self.publish(slot, live);
        }
        self.metrics.game_moved(before, live.status());
        self.wake_bot(slot, live);
        Ok(())
    }

    /// Stores `change` as the game's next version: `Ok(true)` once it is
    /// stored; `Ok(false)` when another server changed the game first
    /// (the change is then to be judged again against the game as it now
    /// is).
    ///
    /// # Errors
    ///
    /// 500 when the store fails.
    async fn store_change(
        self: &Arc<Hub>,
        id: &str,
        live: &mut Live,
        change: Change,
    ) -> Result<bool, Refusal> {
        match self.store.write_at(change, live.version).await {
            Ok(()) => {
                live.version += 1;
                Ok(true)
            }
            Err(e) => {
                if self.shared {
                    let asked = id.to_owned();
                    let version = self.read_store(move |s| s.version(&asked)).await?;
                    if version != Some(live.version) {
                        tracing::debug!(game = %id, "another server changed the game first: {}", e.0);
                        return Ok(false);
                    }
                }
                Err(self.store_failed(e))
            }
        }
    }

    /// The refusal for a store that failed: 503 `unavailable` when its
    /// database is out of reach, else 500 `internal`.
    fn store_failed(&self, e: StoreError) -> Refusal {
        if e.is_unreachable() {
            Refusal::unavailable(e)
        } else {
            Refusal::internal(e)
        }
    }

    /// How many games are in memory.
    #[must_use]
    pub fn len(&self) -> usize {
        self.read_games().len()
    }

    /// Whether no game is in memory.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn read_games(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Arc<Slot>>> {
        self.games.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// A stored game rebuilt: its moves replayed through the engine, its
    /// stored summary checked.
    fn revive(&self, g: StoredGame) -> Result<Live, HubError> {
        let fail = |why: String| HubError::Replay {
            id: g.id.clone(),
            why,
        };
        let seed = Seed::new(&g.seed).map_err(|e| fail(e.to_string()))?;
        let mut game = AnyGame::new(&g.rules, seed).map_err(|e| fail(e.to_string()))?;
        for (n, mv) in g.moves.iter().enumerate() {
            if game.ply() != mv.ply {
                return Err(fail(format!(
                    "move {n} is stored for ply {} but the game is at ply {}",
                    mv.ply,
                    game.ply()
                )));
            }
            game.play_text(&mv.text)
                .map_err(|r| fail(format!("move {n} ({}) is refused: {}", mv.text, r.message)))?;
        }
        if let Some(side) = g.resigned
            && !game.resign(side)
        {
            return Err(fail("a resignation after the end".into()));
        }
        let over = game.is_over();
        let seats = g.seats.map(|h| match h {
            Holder::Person(h) => Ok(Seat::Person(h)),
            Holder::Open(h) => Ok(Seat::Open(h)),
            Holder::Anyone => Ok(Seat::Anyone),
            Holder::Bot(level) => match AnyBot::with_tables(&g.rules, level, &self.tables()) {
                Ok(bot) => Ok(Seat::Bot(level, Some(bot))),
                Err(_) if over => Ok(Seat::Bot(level, None)),
                Err(e) => Err(fail(bot_refusal(&e))),
            },
        });
        let [light, dark] = seats;
        let live = Live {
            commitment: secret::commitment(&g.seed),
            seed_hex: Seed::new(&g.seed).map(|s| s.to_hex()).unwrap_or_default(),
            // A new game reserves room for hundreds of plies; its clone
            // holds only what it uses, which matters with many games
            // loaded at once.
            game: game.clone(),
            seats: [light?, dark?],
            names: g.names,
            moves: u32::try_from(g.moves.len()).unwrap_or(u32::MAX),
            version: 0,
            join: g.join,
            rematch: g.rematch,
            bot_busy: false,
            created: g.created,
            changed: g.changed,
            gone: false,
        };
        let now = live.summary();
        if now != g.summary {
            return Err(fail(format!(
                "the moves replay to ply {} {} (key {}, {}), but ply {} {} (key {}, {}) was stored",
                now.ply,
                now.position,
                now.key,
                now.status.as_str(),
                g.summary.ply,
                g.summary.position,
                g.summary.key,
                g.summary.status.as_str()
            )));
        }
        Ok(live)
    }

    fn slot_for(&self, id: String, live: Live) -> Arc<Slot> {
        let presence = Presence::new(self.window);
        let seen = presence.view(live.holds());
        let (state, event) = self.render(&id, &live, None, &seen);
        let feed = Feed::new(state, event, live.stage(), live.game.log_len());
        Arc::new(Slot {
            presence,
            feed: Mutex::new(feed),
            live: Arc::new(tokio::sync::Mutex::new(live)),
            metrics: Arc::clone(&self.metrics),
            touched: AtomicU64::new(self.clock()),
            id,
        })
    }

    /// The game with this id: in memory, or loaded from the store.
    ///
    /// # Errors
    ///
    /// 404 `no_game`, or 500 when the store fails.
    pub async fn slot(self: &Arc<Hub>, id: &str) -> Result<Arc<Slot>, Refusal> {
        if let Some(slot) = self.read_games().get(id) {
            slot.touch(self.clock());
            return Ok(Arc::clone(slot));
        }
        if !secret::is_id(id) {
            return Err(Refusal::no_game());
        }
        let hub = Arc::clone(self);
        let id = id.to_owned();
        let slot = tokio::task::spawn_blocking(move || hub.load(&id))
            .await
            .map_err(|e| Refusal::internal(format!("loading the game failed: {e}")))??;
        // A game loaded while its bot was to move (the server stopped
        // meanwhile) goes on.
        let mut live = slot.live.lock().await;
        self.wake_bot(&slot, &mut live);
        drop(live);
        Ok(slot)
    }

    fn load(self: &Arc<Hub>, id: &str) -> Result<Arc<Slot>, Refusal> {
        let (stored, version) = self
            .store
            .load_versioned(id)
            .map_err(|e| self.store_failed(e))?
            .ok_or_else(Refusal::no_game)?;
        let mut live = self.revive(stored).map_err(Refusal::internal)?;
        live.version = version;
        let slot = self.slot_for(id.to_owned(), live);
        Ok(Arc::clone(
            self.games
                .write()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(id.to_owned())
                .or_insert(slot),
        ))
    }

    /// The state's JSON for a game as it stands, and the same bytes as a
    /// server-sent event (the JSON is a slice of the event: one buffer).
    /// With `log_from`, a `delta` event instead: the state with only the
    /// log's entries from that index on, and `log_from` saying so.
    fn render(
        &self,
        id: &str,
        live: &Live,
        log_from: Option<usize>,
        seen: &([SeatView; 2], u32),
    ) -> (Bytes, Bytes) {
        let ([light_seen, dark_seen], watchers) = *seen;
        let game = &live.game;
        let over = game.is_over();
        let result = game.result().map(|r| ResultView {
            winner: r.winner.map(Side::as_str),
            how: r.how.as_str(),
        });
        let view = StateView {
            id,
            game: game.kind().as_str(),
            rules: game.rules().to_string(),
            status: live.status().as_str(),
            seats: SeatsView {
                light: live.seats[0].word(),
                dark: live.seats[1].word(),
            },
            names: Pair {
                light: live.name(Side::Light),
                dark: live.name(Side::Dark),
            },
            presence: Pair {
                light: light_seen.word,
                dark: dark_seen.word,
            },
            presence_since: Pair {
                light: light_seen.since,
                dark: dark_seen.since,
            },
            watchers,
            rematch: live.rematch.as_ref().map(|r| RematchView {
                offered_by: r.offered_by.as_str(),
                game: r.game.as_deref(),
            }),
            changed: live.changed,
            ply: game.ply(),
            side: game.side().map(Side::as_str),
            roll: game.roll(),
            faces: game.faces(),
            position: game.position().to_string(),
            key: game.key(),
            legal: game.legal().iter().map(ToString::to_string).collect(),
            moves: game.offers(),
            log_from,
            log: game.lines_from(log_from.unwrap_or(0)),
            board: game.board(),
            result,
            commitment: &live.commitment,
            seed: over.then_some(live.seed_hex.as_str()),
            record_url: format!("/api/games/{id}/record"),
            light_chance: game.light_chance(&self.tables()),
        };
        let head = if log_from.is_some() {
            DELTA_HEAD
        } else {
            EVENT_HEAD
        };
        let logged = game.log_len() - log_from.unwrap_or(0).min(game.log_len());
        let mut out = BytesMut::with_capacity(1024 + 64 * logged);
        out.extend_from_slice(head);
        let mut writer = out.writer();
        // Strings, numbers and lists of them always serialize.
        let _ = serde_json::to_writer(&mut writer, &view);
        let mut out = writer.into_inner();
        let end = out.len();
        out.extend_from_slice(b"\n\n");
        let event = out.freeze();
        (event.slice(head.len()..end), event)
    }

    /// Serialises the state once and queues it for every watcher (and,
    /// when some watcher wants them, a delta since the last state).
    fn publish(&self, slot: &Slot, live: &Live) -> Bytes {
        slot.touch(self.clock());
        let seen = slot.presence.view(live.holds());
        let (state, event) = self.render(&slot.id, live, None, &seen);
        let (delta, since) = {
            let feed = slot.feed();
            (feed.wants_delta(), feed.log_len)
        };
        let delta = delta.then(|| self.render(&slot.id, live, Some(since), &seen).1);
        let mut feed = slot.feed();
        feed.log_len = live.game.log_len();
        feed.publish(state.clone(), event, delta, live.stage());
        state
    }

    /// Creates a game for `req`, the creator taking a seat.
    ///
    /// # Errors
    ///
    /// 400 for rules or a level the server cannot offer, 500 when the
    /// random source or the store fails.
    pub async fn create(self: &Arc<Hub>, plan: Plan) -> Result<Seated, Refusal> {
        let hub = Arc::clone(self);
        spawn(async move { hub.create_now(plan).await }).await
    }

    /// Checks a create request: the rules, and the bot's level under them.
    ///
    /// # Errors
    ///
    /// 400 `bad_request` for rules or a level the server cannot offer.
    pub fn plan(&self, req: CreateRequest) -> Result<Plan, Refusal> {
        let rules = AnyVariant::read(req.game, req.rules.as_deref())
            .map_err(|e| Refusal::bad_request(e.to_string()))?;
        let bot = match req.opponent {
            Opponent::Bot => Some(
                AnyBot::with_tables(&rules, req.level, &self.tables())
                    .map_err(|e| Refusal::bad_request(bot_refusal(&e)))?,
            ),
            Opponent::Open if self.open_games.is_none() => {
                return Err(Refusal::bad_request(
                    "this server lists no open games; invite a friend instead",
                ));
            }
            Opponent::Friend | Opponent::Open => None,
        };
        Ok(Plan {
            rules,
            level: req.level,
            bot,
            open: req.opponent == Opponent::Open,
            side: req.side,
            name: req.name,
        })
    }

    async fn create_now(self: Arc<Hub>, plan: Plan) -> Result<Seated, Refusal> {
        let Plan {
            rules,
            level,
            bot,
            open,
            side,
            name,
        } = plan;
        let other = match bot {
            Some(bot) => (Seat::Bot(level, Some(bot)), None),
            None if open => (Seat::Anyone, None),
            None => {
                let (invite, hash) = secret::new_token().map_err(Refusal::internal)?;
                (Seat::Open(hash), Some(invite))
            }
        };
        let side = match side {
            SideChoice::Light => Side::Light,
            SideChoice::Dark => Side::Dark,
            SideChoice::Random => {
                if secret::random::<1>().map_err(Refusal::internal)?[0] & 1 == 0 {
                    Side::Light
                } else {
                    Side::Dark
                }
            }
        };
        let (token, hash) = secret::new_token().map_err(Refusal::internal)?;
        let (other_seat, invite) = other;
        let mut seats = [Seat::Person(hash), other_seat];
        let mut names = [name, None];
        if side == Side::Dark {
            seats.swap(0, 1);
            names.swap(0, 1);
        }
        let (id, live, stored) = fresh(rules, seats, names)?;
        self.store
            .write(Change::Create(Box::new(stored)))
            .await
            .map_err(|e| self.store_failed(e))?;
        self.metrics.game_created(live.status());
        let slot = self.slot_for(id.clone(), live);
        self.games
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone(), Arc::clone(&slot));
        let state = {
            let mut live = slot.live.lock().await;
            self.arrived(&slot, side);
            let state = self.publish(&slot, &live);
            self.wake_bot(&slot, &mut live);
            state
        };
        Ok(Seated {
            invite: invite
                .as_ref()
                .map(|t| format!("/g/{id}#join={}", t.reveal())),
            id,
            seat: side,
            token,
            state,
        })
    }

    /// Plays `text` for the holder of `token` at `ply`.
    ///
    /// # Errors
    ///
    /// In the contract's order: 403 `not_your_seat`; 409 `not_started`,
    /// `game_over` (a retry of the move at `ply` answers 200 instead),
    /// `not_your_turn`, `stale_ply`; 422 `illegal_move`; 500 when the store
    /// fails.
    pub async fn play(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        token: TokenHash,
        ply: u32,
        text: String,
    ) -> Result<Bytes, Refusal> {
        let hub = Arc::clone(self);
        let result = spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                let side = live.seat_of(&token).ok_or_else(Refusal::not_your_seat)?;
                if ply < live.game.ply() && live.game.played(ply, side, &text) {
                    return Ok(slot.state());
                }
                let state = || slot.state();
                live.in_play().map_err(|e| e.with_state(state()))?;
                if live.game.side() != Some(side) {
                    return Err(Refusal::conflict(
                        "not_your_turn",
                        format!("it is {}'s turn, not {side}'s", side.other()),
                    )
                    .with_state(state()));
                }
                if ply != live.game.ply() {
                    return Err(Refusal::conflict(
                        "stale_ply",
                        format!(
                            "the move is for ply {ply}, but the game is at ply {}",
                            live.game.ply()
                        ),
                    )
                    .with_state(state()));
                }
                if let Some(state) = hub.commit_move(&slot, &mut live, &text).await? {
                    return Ok(state);
                }
            }
        })
        .await;
        match &result {
            Ok(_) => {}
            Err(e) => self.metrics.move_refused(e.code),
        }
        result
    }

    /// Plays a move already checked to be this seat's, at the current ply:
    /// in memory, then in the store, then to the watchers; `None` when
    /// another server changed the game first (nothing is played: the move
    /// is to be judged again).
    async fn commit_move(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        live: &mut Live,
        text: &str,
    ) -> Result<Option<Bytes>, Refusal> {
        let ply = live.game.ply();
        let before = live.status();
        let canonical = match live.game.play_text(text) {
            Ok(mv) => mv.to_string(),
            Err(refusal) => {
                return Err(
                    Refusal::illegal_move(refusal.code, refusal.message).with_state(slot.state())
                );
            }
        };
        let at = now();
        let change = Change::Move {
            id: slot.id.clone(),
            n: live.moves,
            mv: StoredMove {
                ply,
                text: canonical,
            },
            after: live.summary(),
            at,
        };
        match self.store_change(&slot.id, live, change).await {
            Ok(true) => {}
            stale_or_failed => {
                live.game.undo();
                return stale_or_failed.map(|_| None);
            }
        }
        live.moves += 1;
        live.changed = at;
        self.metrics.move_accepted();
        self.metrics.game_moved(before, live.status());
        let state = self.publish(slot, live);
        self.wake_bot(slot, live);
        Ok(Some(state))
    }

    /// Takes the open seat for the holder of its invite, with a fresh
    /// token; the invite is spent. With a join key, the token is also kept
    /// sealed under the invite and the key, and a later join with the same
    /// invite and key (a retry whose reply was lost) is answered as the
    /// first was, with the same token.
    ///
    /// # Errors
    ///
    /// 409 `seat_taken` when no seat is open (and the join is no retry),
    /// 403 `not_your_seat` for an invite that is not the open seat's, 500
    /// when the random source or the store fails.
    pub async fn join(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        invite: Option<String>,
        key: Option<String>,
        name: Option<String>,
    ) -> Result<Seated, Refusal> {
        let hub = Arc::clone(self);
        // A game open to anyone is joined without an invite; a retry's
        // token is then sealed under the join key alone.
        let invite = invite.unwrap_or_default();
        spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                let seated = |seat: Side, token: Token, state: Bytes| Seated {
                    id: slot.id.clone(),
                    seat,
                    token,
                    state,
                    invite: None,
                };
                if let (Some(key), Some(seal)) = (&key, &live.join)
                    && let Some(token) = seal.open(&invite, key)
                    && let Some(side) = live.seat_of(&TokenHash::of(token.reveal()))
                {
                    return Ok(seated(side, token, slot.state()));
                }
                let open = Side::ALL.into_iter().find_map(|s| match live.seat(s) {
                    seat @ (Seat::Open(_) | Seat::Anyone) => Some((s, seat.clone())),
                    _ => None,
                });
                let Some((side, expected)) = open else {
                    return Err(Refusal::conflict("seat_taken", "both seats are taken"));
                };
                if let Seat::Open(hash) = &expected
                    && !hash.matches(&TokenHash::of(&invite))
                {
                    return Err(Refusal::not_your_seat());
                }
                let (token, hash, seal) = match &key {
                    Some(key) => {
                        let (token, hash, seal) =
                            secret::new_sealed_token(&invite, key).map_err(Refusal::internal)?;
                        (token, hash, Some(seal))
                    }
                    None => {
                        let (token, hash) = secret::new_token().map_err(Refusal::internal)?;
                        (token, hash, None)
                    }
                };
                let before = live.status();
                *live.seat_mut(side) = Seat::Person(hash);
                live.join = seal;
                live.name_mut(side).clone_from(&name);
                let at = now();
                let change = Change::Join {
                    id: slot.id.clone(),
                    seat: side,
                    token: hash,
                    seal,
                    name: name.clone(),
                    after: live.summary(),
                    at,
                };
                match hub.store_change(&slot.id, &mut live, change).await {
                    Ok(true) => {}
                    stale_or_failed => {
                        *live.seat_mut(side) = expected;
                        live.join = None;
                        *live.name_mut(side) = None;
                        stale_or_failed?;
                        continue;
                    }
                }
                live.changed = at;
                hub.metrics.game_moved(before, live.status());
                hub.arrived(&slot, side);
                let state = hub.publish(&slot, &live);
                return Ok(seated(side, token, state));
            }
        })
        .await
    }

    /// A request came with `token`: when it holds a seat of the game, the
    /// seat is shown `connected` for the presence window from now.
    pub fn seen(self: &Arc<Hub>, slot: &Arc<Slot>, token: &TokenHash) {
        if let Some(side) = slot.presence.seat_of(token) {
            let follow = slot.presence.seen(side, Instant::now());
            self.follow(slot, Some(side), follow);
        }
    }

    /// The player of `side` just took the seat: shown `connected` from
    /// the next state on, for the presence window.
    fn arrived(self: &Arc<Hub>, slot: &Arc<Slot>, side: Side) {
        let follow = slot.presence.seen(side, Instant::now());
        let timer = Follow {
            publish: false,
            ..follow
        };
        self.follow(slot, Some(side), timer);
    }

    /// An event stream opened, with `token` or none: the seat it holds
    /// (shown `connected` while the stream is open), or none (a watcher).
    pub fn stream_opened(
        self: &Arc<Hub>,
        slot: &Arc<Slot>,
        token: Option<&TokenHash>,
    ) -> Option<Side> {
        let seat = token.and_then(|t| slot.presence.seat_of(t));
        let follow = slot.presence.opened(seat, Instant::now());
        self.follow(slot, seat, follow);
        seat
    }

    /// An event stream opened by [`Hub::stream_opened`] ended.
    pub fn stream_closed(self: &Arc<Hub>, slot: &Arc<Slot>, seat: Option<Side>) {
        let follow = slot.presence.closed(seat, Instant::now());
        self.follow(slot, seat, follow);
    }

    /// Sends a new state for a presence change (one for a burst of them),
    /// and starts the timer that turns `side` away after the window.
    fn follow(self: &Arc<Hub>, slot: &Arc<Slot>, side: Option<Side>, follow: Follow) {
        // A stream dropped as the runtime stops has nobody to tell.
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        if follow.publish && slot.presence.queue() {
            let hub = Arc::clone(self);
            let slot = Arc::clone(slot);
            runtime.spawn(async move {
                tokio::time::sleep(PRESENCE_SETTLE).await;
                let live = slot.live.lock().await;
                if !live.gone {
                    hub.publish(&slot, &live);
                }
            });
        }
        if let (true, Some(side)) = (follow.timer, side) {
            let hub = Arc::downgrade(self);
            let slot = Arc::clone(slot);
            let mut wait = slot.presence.window();
            runtime.spawn(async move {
                loop {
                    tokio::time::sleep(wait).await;
                    let Some(hub) = hub.upgrade() else { return };
                    let (changed, again) = slot.presence.recheck(side, Instant::now());
                    if changed {
                        let publish = Follow {
                            publish: true,
                            timer: false,
                        };
                        hub.follow(&slot, None, publish);
                    }
                    match again {
                        Some(left) => wait = left.max(Duration::from_millis(10)),
                        None => return,
                    }
                }
            });
        }
    }

    /// Renames the seat `token` holds (`None`: no name), at any time.
    ///
    /// # Errors
    ///
    /// 403 `not_your_seat`; 500 when the store fails.
    pub async fn rename(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        token: TokenHash,
        name: Option<String>,
    ) -> Result<Bytes, Refusal> {
        let hub = Arc::clone(self);
        spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                let side = live.seat_of(&token).ok_or_else(Refusal::not_your_seat)?;
                if *live.name_mut(side) == name {
                    return Ok(slot.state());
                }
                let change = Change::Rename {
                    id: slot.id.clone(),
                    seat: side,
                    name: name.clone(),
                };
                if !hub.store_change(&slot.id, &mut live, change).await? {
                    continue;
                }
                *live.name_mut(side) = name;
                return Ok(hub.publish(&slot, &live));
            }
        })
        .await
    }

    /// The games open to anyone that wait now, the longest waiting first
    /// (at most [`OPEN_LISTED`]); `None` when the server lists none.
    ///
    /// # Errors
    ///
    /// 500 when the store fails.
    pub async fn open_games(self: &Arc<Hub>) -> Result<Option<Vec<OpenGame>>, Refusal> {
        let Some(expiry) = self.open_games else {
            return Ok(None);
        };
        let since = now().saturating_sub(i64::try_from(expiry.as_secs()).unwrap_or(i64::MAX));
        let hub = Arc::clone(self);
        let games =
            tokio::task::spawn_blocking(move || hub.store.open_games(i64::MAX, OPEN_LISTED))
                .await
                .map_err(Refusal::internal)?
                .map_err(|e| self.store_failed(e))?;
        Ok(Some(
            games.into_iter().filter(|g| g.created >= since).collect(),
        ))
    }

    /// Withdraws a game that still waits for its second player, for the
    /// holder of its one seat: the game is deleted.
    ///
    /// # Errors
    ///
    /// 403 `not_your_seat`; 409 `not_waiting` once both seats are held;
    /// 500 when the store fails.
    pub async fn withdraw(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        token: TokenHash,
    ) -> Result<(), Refusal> {
        let hub = Arc::clone(self);
        spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                live.seat_of(&token).ok_or_else(Refusal::not_your_seat)?;
                if live.status() != Status::Waiting {
                    return Err(Refusal::conflict(
                        "not_waiting",
                        "both seats are taken: the game can no longer be withdrawn",
                    ));
                }
                let change = Change::Withdraw {
                    id: slot.id.clone(),
                };
                if !hub.store_change(&slot.id, &mut live, change).await? {
                    continue;
                }
                hub.metrics.game_expired();
                hub.drop_slot(&slot, &mut live);
                return Ok(());
            }
        })
        .await
    }

    /// Offers a rematch for the holder of `token`, or accepts the other
    /// seat's offer: a new game of the same rules with the sides
    /// swapped, each seat held by the token that held the other side here,
    /// with the same names. The state's `rematch` then names the new game.
    ///
    /// # Errors
    ///
    /// 403 `not_your_seat`; 409 `no_rematch` (a game against the bot) or
    /// `not_over`; 500 when the random source or the store fails.
    pub async fn rematch(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        token: TokenHash,
    ) -> Result<Bytes, Refusal> {
        let hub = Arc::clone(self);
        spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                let side = live.seat_of(&token).ok_or_else(Refusal::not_your_seat)?;
                live.rematchable()?;
                let start = match &live.rematch {
                    // Started, or offered by this seat already: a retry.
                    Some(r) if r.game.is_some() || r.offered_by == side => return Ok(slot.state()),
                    Some(_) => {
                        let [light, dark] = live.seats.clone();
                        let [light_name, dark_name] = live.names.clone();
                        Some(fresh(
                            live.game.rules(),
                            [dark, light],
                            [dark_name, light_name],
                        )?)
                    }
                    None => None,
                };
                let rematch = Rematch {
                    offered_by: live.rematch.as_ref().map_or(side, |r| r.offered_by),
                    game: start.as_ref().map(|(id, ..)| id.clone()),
                };
                // An accepted rematch changes this game as its new one is
                // created: at the same second.
                let at = start.as_ref().map_or_else(now, |(_, new, _)| new.created);
                let (new, stored) = match start {
                    Some((id, new, stored)) => (Some((id, new)), Some(Box::new(stored))),
                    None => (None, None),
                };
                let change = Change::Rematch {
                    id: slot.id.clone(),
                    rematch: Some(rematch.clone()),
                    start: stored,
                    at,
                };
                if !hub.store_change(&slot.id, &mut live, change).await? {
                    continue;
                }
                live.rematch = Some(rematch);
                live.changed = at;
                if let Some((id, new)) = new {
                    hub.metrics.game_created(new.status());
                    let started = hub.slot_for(id.clone(), new);
                    hub.games
                        .write()
                        .unwrap_or_else(PoisonError::into_inner)
                        .insert(id, started);
                }
                return Ok(hub.publish(&slot, &live));
            }
        })
        .await
    }

    /// Withdraws this seat's rematch offer, or declines the other's.
    ///
    /// # Errors
    ///
    /// 403 `not_your_seat`; 409 `no_rematch`, `not_over`, `no_offer` (none
    /// is offered) or `rematch_started`; 500 when the store fails.
    pub async fn unrematch(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        token: TokenHash,
    ) -> Result<Bytes, Refusal> {
        let hub = Arc::clone(self);
        spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                live.seat_of(&token).ok_or_else(Refusal::not_your_seat)?;
                live.rematchable()?;
                match &live.rematch {
                    None => {
                        return Err(Refusal::conflict("no_offer", "no rematch is offered"));
                    }
                    Some(r) if r.game.is_some() => {
                        return Err(Refusal::conflict(
                            "rematch_started",
                            "the rematch has started",
                        ));
                    }
                    Some(_) => {}
                }
                let at = now();
                let change = Change::Rematch {
                    id: slot.id.clone(),
                    rematch: None,
                    start: None,
                    at,
                };
                if !hub.store_change(&slot.id, &mut live, change).await? {
                    continue;
                }
                live.rematch = None;
                live.changed = at;
                return Ok(hub.publish(&slot, &live));
            }
        })
        .await
    }

    /// Resigns for the holder of `token`.
    ///
    /// # Errors
    ///
    /// 403 `not_your_seat`; 409 `not_started` or `game_over` (a repeated
    /// resignation of the same seat answers 200 instead); 500 when the
    /// store fails.
    pub async fn resign(
        self: &Arc<Hub>,
        slot: Arc<Slot>,
        token: TokenHash,
    ) -> Result<Bytes, Refusal> {
        let hub = Arc::clone(self);
        spawn(async move {
            let asked = slot;
            loop {
                let (slot, mut live) = hub.lock(Arc::clone(&asked)).await?;
                let side = live.seat_of(&token).ok_or_else(Refusal::not_your_seat)?;
                if live.resigned() == Some(side) {
                    return Ok(slot.state());
                }
                live.in_play().map_err(|e| e.with_state(slot.state()))?;
                let before = live.status();
                live.game.resign(side);
                let at = now();
                let change = Change::Resign {
                    id: slot.id.clone(),
                    side,
                    after: live.summary(),
                    at,
                };
                match hub.store_change(&slot.id, &mut live, change).await {
                    Ok(true) => {}
                    stale_or_failed => {
                        live.game.undo();
                        stale_or_failed?;
                        continue;
                    }
                }
                live.changed = at;
                hub.metrics.game_moved(before, live.status());
                return Ok(hub.publish(&slot, &live));
            }
        })
        .await
    }

    /// Starts the bot's task if a bot is to move and none runs.
    fn wake_bot(self: &Arc<Hub>, slot: &Arc<Slot>, live: &mut Live) {
        if live.bot_busy || live.bot_to_move().is_none() || *self.stop.borrow() {
            return;
        }
        live.bot_busy = true;
        let hub = Arc::clone(self);
        let slot = Arc::clone(slot);
        tokio::spawn(async move { hub.run_bot(slot).await });
    }

    /// The bot's turns: pause, think on a blocking thread, play, while it
    /// is the bot's turn and the server is not stopping.
    async fn run_bot(self: Arc<Hub>, slot: Arc<Slot>) {
        let mut stop = self.stop.subscribe();
        loop {
            if !self.pace.is_zero() {
                tokio::select! {
                    () = tokio::time::sleep(self.pace) => {}
                    _ = stop.wait_for(|s| *s) => {}
                }
            }
            let (snapshot, bot, ply) = {
                let mut live = slot.live.lock().await;
                if !self.bot_caught_up(&slot, &mut live).await {
                    return;
                }
                match live.bot_to_move() {
                    Some(bot) if !*self.stop.borrow() => (live.game.clone(), bot, live.game.ply()),
                    _ => {
                        live.bot_busy = false;
                        return;
                    }
                }
            };
            let choice = match self.bots.acquire().await {
                Ok(_permit) => tokio::task::spawn_blocking(move || snapshot.choose(&bot))
                    .await
                    .ok()
                    .flatten(),
                Err(_) => None,
            };
            let mut live = slot.live.lock().await;
            if !self.bot_caught_up(&slot, &mut live).await {
                return;
            }
            if live.game.ply() != ply || *self.stop.borrow() {
                // The game moved on while the bot thought (a resignation,
                // or another server's move); the top of the loop looks
                // again.
                drop(live);
                continue;
            }
            let Some(text) = choice else {
                live.bot_busy = false;
                return;
            };
            // `None`: another server played first; the top looks again.
            if let Err(e) = self.commit_move(&slot, &mut live, &text.to_string()).await {
                tracing::error!(game = %slot.id, "the bot's move failed: {}", e.message);
                live.bot_busy = false;
                return;
            }
        }
    }

    /// Catches the bot's game up ([`Hub::catch_up`]); false (the bot's
    /// task is to end) when that fails.
    async fn bot_caught_up(self: &Arc<Hub>, slot: &Arc<Slot>, live: &mut Live) -> bool {
        match self.catch_up(slot, live).await {
            Ok(()) if !live.gone => true,
            Ok(()) => {
                live.bot_busy = false;
                false
            }
            Err(e) => {
                tracing::error!(game = %slot.id, "the bot's game cannot be read: {}", e.message);
                live.bot_busy = false;
                false
            }
        }
    }

    /// Starts the task that follows the store's notices of changes (a
    /// shared store): each game in memory that another server changed is
    /// caught up, its watchers sent each state they missed; after a gap in
    /// the notices, every game in memory is. Call inside the runtime.
    pub fn follow_store_in_background(self: &Arc<Hub>) {
        let Some(mut notices) = self.store.notices() else {
            return;
        };
        let hub = Arc::downgrade(self);
        let mut stop = self.stop.subscribe();
        tokio::spawn(async move {
            loop {
                let notice = tokio::select! {
                    notice = notices.recv() => notice,
                    _ = stop.wait_for(|s| *s) => return,
                };
                let (Some(notice), Some(hub)) = (notice, hub.upgrade()) else {
                    return;
                };
                let due: Vec<(Arc<Slot>, Option<u64>)> = match notice {
                    Notice::Changed(id, version) => hub
                        .read_games()
                        .get(&id)
                        .map(|slot| (Arc::clone(slot), Some(version)))
                        .into_iter()
                        .collect(),
                    Notice::Gap => hub
                        .read_games()
                        .values()
                        .map(|slot| (Arc::clone(slot), None))
                        .collect(),
                };
                for (slot, version) in due {
                    let hub = Arc::clone(&hub);
                    tokio::spawn(async move {
                        let mut live = slot.live.lock().await;
                        if live.gone || version.is_some_and(|v| v <= live.version) {
                            return;
                        }
                        if let Err(e) = hub.catch_up(&slot, &mut live).await {
                            tracing::warn!(game = %slot.id, "catching up with the store: {}", e.message);
                        }
                    });
                }
            }
        });
    }

    /// Stops the bots and closes every event stream (the server is
    /// stopping).
    pub fn stop(&self) {
        self.stop.send_replace(true);
    }

    /// A receiver that turns true when the server stops.
    #[must_use]
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }

    /// The store.
    #[must_use]
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The counters.
    #[must_use]
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// The tables held now (a table solved while serving joins them).
    #[must_use]
    pub fn tables(&self) -> Arc<Tables> {
        Arc::clone(&self.tables.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Adds the table file at `path` to the tables held, so that its rules
    /// offer the bot level `perfect` and the review graph from now on.
    ///
    /// # Errors
    ///
    /// [`TablesError`] for a file that is not a table or a second table
    /// for rules already held; the tables held are then unchanged.
    pub fn add_table(&self, path: &std::path::Path) -> Result<(), TablesError> {
        let mut held = self.tables.write().unwrap_or_else(PoisonError::into_inner);
        let mut tables = Tables::clone(&held);
        tables.add(path)?;
        *held = Arc::new(tables);
        Ok(())
    }
}

/// A new game of `rules` with these seats and names: its id, the game in
/// memory and as the store is to keep it.
fn fresh(
    rules: AnyVariant,
    seats: [Seat; 2],
    names: [Option<String>; 2],
) -> Result<(String, Live, StoredGame), Refusal> {
    let seed = secret::random::<{ secret::SEED_BYTES }>().map_err(Refusal::internal)?;
    let id = secret::new_id().map_err(Refusal::internal)?;
    let game = AnyGame::new(&rules, Seed::new(seed).map_err(Refusal::internal)?)
        .map_err(Refusal::internal)?;
    let at = now();
    let live = Live {
        commitment: secret::commitment(&seed),
        seed_hex: Seed::new(seed).map(|s| s.to_hex()).unwrap_or_default(),
        game,
        seats,
        names,
        moves: 0,
        version: 0,
        join: None,
        rematch: None,
        bot_busy: false,
        created: at,
        changed: at,
        gone: false,
    };
    let stored = StoredGame {
        id: id.clone(),
        rules,
        seed: seed.to_vec(),
        seats: [live.seats[0].holder(), live.seats[1].holder()],
        names: live.names.clone(),
        moves: Vec::new(),
        resigned: None,
        join: None,
        summary: live.summary(),
        created: live.created,
        changed: live.changed,
        rematch: None,
    };
    Ok((id, live, stored))
}

/// Runs a change in a task of its own, so that it completes even when
/// the request that asked for it is dropped.
async fn spawn<T: Send + 'static>(
    task: impl Future<Output = Result<T, Refusal>> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::spawn(task)
        .await
        .unwrap_or_else(|e| Err(Refusal::internal(format!("the change failed: {e}"))))
}

/// What comes before a state's JSON in its server-sent event.
const EVENT_HEAD: &[u8] = b"event: state\ndata: ";
/// What comes before a delta's JSON in its server-sent event.
const DELTA_HEAD: &[u8] = b"event: delta\ndata: ";

/// Why there is no bot for a level, in the server's words.
fn bot_refusal(e: &BotError) -> String {
    match e {
        BotError::NoPerfect(kind) => format!(
            "{kind} has no perfect level; the levels are 1 to {}",
            kind.level_top()
        ),
        BotError::NoTable(rules) => format!(
            "the perfect level needs a solved table for {rules}, and the server was given none"
        ),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refusal::Fault;
    use crate::sqlite::Sqlite;
    use crate::store::Pending;

    #[tokio::test(flavor = "multi_thread")]
    async fn a_game_nobody_asks_for_is_forgotten_and_found_again_as_it_was() {
        let dir = std::env::temp_dir().join(format!("race-hub-idle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store: Arc<dyn Store> = Arc::new(Sqlite::open(&dir).unwrap());
        let none: &[std::path::PathBuf] = &[];
        let tables = Tables::open(none).unwrap();
        let metrics = Arc::new(Metrics::new([0; 3]));
        let hub = Hub::new(store, tables, metrics, Options::default(), Duration::ZERO);
        let request = crate::wire::parse_create(br#"{"game": "ur", "opponent": "friend"}"#);
        let plan = hub.plan(request.unwrap()).unwrap();
        let created = hub.create(plan).await.unwrap();
        let slot = hub.slot(&created.id).await.unwrap();
        let (_, watcher) = slot.watch(Kind::Full, false);
        let watcher = watcher.unwrap();
        hub.forget_idle();
        assert_eq!(hub.len(), 1, "a game someone follows stays");
        slot.unwatch(&watcher);
        hub.forget_idle();
        assert!(hub.is_empty(), "forgotten");
        // A change through the forgotten copy finds the game again.
        let invite = created.invite.unwrap();
        let (_, invite) = invite.split_once("#join=").unwrap();
        let joined = hub
            .join(Arc::clone(&slot), Some(invite.to_owned()), None, None)
            .await
            .unwrap();
        assert_eq!(hub.len(), 1);
        let found = hub.slot(&created.id).await.unwrap();
        assert!(!Arc::ptr_eq(&found, &slot));
        assert_eq!(found.state(), joined.state);
        hub.store().close().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A store that fails every call, saying where its files are, as a
    /// database's error does.
    struct Broken;

    const WHERE: &str = "disk I/O error at /srv/secret/race.sqlite3";

    impl Store for Broken {
        fn write(&self, _: Change) -> Pending {
            Pending::settled(Err(StoreError(WHERE.into())))
        }
        fn load(&self, _: &str) -> Result<Option<StoredGame>, StoreError> {
            Err(StoreError(WHERE.into()))
        }
        fn unfinished(&self) -> Result<Vec<crate::store::Unfinished>, StoreError> {
            Err(StoreError(WHERE.into()))
        }
        fn waiting_since(&self, _: i64, _: usize) -> Result<Vec<String>, StoreError> {
            Err(StoreError(WHERE.into()))
        }
        fn open_games(&self, _: i64, _: usize) -> Result<Vec<OpenGame>, StoreError> {
            Err(StoreError(WHERE.into()))
        }
        fn counts(&self) -> Result<crate::store::Counts, StoreError> {
            Err(StoreError(WHERE.into()))
        }
        fn close(&self) -> Result<(), StoreError> {
            Err(StoreError(WHERE.into()))
        }
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn a_failing_store_is_answered_internal_without_its_words() {
        let none: &[std::path::PathBuf] = &[];
        let tables = Tables::open(none).unwrap();
        let metrics = Arc::new(Metrics::new([0; 3]));
        let hub = Hub::new(
            Arc::new(Broken),
            tables,
            metrics,
            Options::default(),
            Duration::ZERO,
        );
        let request = crate::wire::parse_create(br#"{"game": "ur", "opponent": "friend"}"#);
        let plan = hub.plan(request.unwrap()).unwrap();
        let Err(refused) = hub.create(plan).await else {
            panic!("nothing stored, nothing created");
        };
        assert_eq!((refused.fault, refused.code), (Fault::Internal, "internal"));
        assert_eq!(refused.message, crate::refusal::INTERNAL_MESSAGE);
        let Err(asked) = hub.slot(&secret::new_id().unwrap()).await else {
            panic!("the store cannot be read");
        };
        assert_eq!(asked.code, "internal", "{}", asked.message);
        assert!(!asked.message.contains("secret"), "{}", asked.message);
    }
}
