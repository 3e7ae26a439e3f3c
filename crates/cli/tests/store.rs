//! One suite for both stores: what each keeps of a game, what it refuses,
//! and that everything acknowledged is there when the store is opened
//! again. The SQLite store runs in a scratch folder, the PostgreSQL one in
//! a database made for the test (see `common/postgres.rs`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "a test fails by panicking"
)]

mod common;

use common::postgres::TestDb;
use common::server::Scratch;
use dice_core::Side;
use race_games::{AnyVariant, Kind, Level};
use race_server::secret::TokenHash;
use race_server::store::{Change, Holder, Rematch, Status, StoredGame, StoredMove, Summary};
use race_server::{Database, Postgres, Sqlite, Store};

fn game(id: &str) -> StoredGame {
    StoredGame {
        id: id.into(),
        rules: AnyVariant::read(Kind::Ur, None).unwrap(),
        seed: vec![1; 32],
        seats: [
            Holder::Person(TokenHash::of("a")),
            Holder::Bot(Level::Ladder(2)),
        ],
        names: [Some("Ann".into()), None],
        moves: Vec::new(),
        resigned: None,
        join: None,
        summary: Summary {
            status: Status::Playing,
            ply: 0,
            position: "p0".into(),
            key: "k0".into(),
        },
        created: 1000,
        changed: 1000,
        rematch: None,
    }
}

fn after(ply: u32) -> Summary {
    Summary {
        status: Status::Playing,
        ply,
        position: format!("p{ply}"),
        key: format!("k{ply}"),
    }
}

fn mv(ply: u32, text: &str) -> StoredMove {
    StoredMove {
        ply,
        text: text.into(),
    }
}

/// The suite: `open` opens the same store each time it is called (the one
/// before closed and dropped).
async fn suite<S: Store>(open: impl Fn() -> S) {
    let store = open();
    assert!(store.load("g1").unwrap().is_none());
    assert_eq!(store.counts().unwrap(), [0, 0, 0]);
    store
        .write(Change::Create(Box::new(game("g1"))))
        .await
        .unwrap();
    assert!(
        store
            .write(Change::Create(Box::new(game("g1"))))
            .await
            .is_err(),
        "an id is taken once"
    );
    let a = store.write(Change::Move {
        id: "g1".into(),
        n: 0,
        mv: mv(0, "hand-a1"),
        after: after(1),
        at: 1100,
    });
    // The same index twice: the second is refused, the others stand.
    let b = store.write(Change::Move {
        id: "g1".into(),
        n: 0,
        mv: mv(1, "x"),
        after: after(2),
        at: 1150,
    });
    let c = store.write(Change::Move {
        id: "g1".into(),
        n: 1,
        mv: mv(2, "a1-b1"),
        after: after(3),
        at: 1200,
    });
    assert!(a.await.is_ok());
    assert!(b.await.is_err());
    assert!(c.await.is_ok());
    assert!(
        store
            .write(Change::Move {
                id: "nope".into(),
                n: 0,
                mv: mv(0, "hand-a1"),
                after: after(1),
                at: 1300,
            })
            .await
            .is_err(),
        "a move of no game"
    );
    assert!(
        store
            .write(Change::Join {
                id: "g1".into(),
                seat: Side::Dark,
                token: TokenHash::of("b"),
                seal: None,
                name: None,
                after: after(3),
                at: 1300,
            })
            .await
            .is_err(),
        "a bot seat is not open"
    );
    store.close().unwrap();
    drop(store);

    let store = open();
    let g = store.load("g1").unwrap().unwrap();
    assert_eq!(g.moves, vec![mv(0, "hand-a1"), mv(2, "a1-b1")]);
    assert_eq!(g.summary, after(3));
    assert_eq!(g.seed, vec![1; 32]);
    assert_eq!(g.created, 1000);
    assert_eq!(g.changed, 1200, "the last move stored is the last change");
    assert_eq!(g.rules.to_string(), game("g1").rules.to_string());
    assert!(matches!(g.seats[0], Holder::Person(h) if h.matches(&TokenHash::of("a"))));
    assert!(matches!(g.seats[1], Holder::Bot(Level::Ladder(2))));
    assert_eq!(g.names, [Some("Ann".into()), None]);
    let unfinished = store.unfinished().unwrap();
    assert_eq!(unfinished.len(), 1);
    assert_eq!(unfinished[0].bots, vec![Level::Ladder(2)]);
    assert_eq!(store.counts().unwrap(), [0, 1, 0]);
    assert!(store.load("nope").unwrap().is_none());

    // A friend game: joined with a sealed token, then resigned.
    let mut friend = game("f1");
    friend.seats[1] = Holder::Open(TokenHash::of("invite"));
    friend.summary.status = Status::Waiting;
    friend.created = 1500;
    store.write(Change::Create(Box::new(friend))).await.unwrap();
    assert_eq!(store.counts().unwrap(), [1, 1, 0]);
    let key = "k".repeat(24);
    let (token, hash, seal) = race_server::secret::new_sealed_token("invite", &key).unwrap();
    store
        .write(Change::Join {
            id: "f1".into(),
            seat: Side::Dark,
            token: hash,
            seal: Some(seal),
            name: Some("Bea ✓".into()),
            after: after(0),
            at: 1600,
        })
        .await
        .unwrap();
    assert!(
        store
            .write(Change::Join {
                id: "f1".into(),
                seat: Side::Dark,
                token: TokenHash::of("late"),
                seal: None,
                name: None,
                after: after(0),
                at: 1650,
            })
            .await
            .is_err(),
        "a seat is joined once"
    );
    let over = Summary {
        status: Status::Over,
        ..after(0)
    };
    store
        .write(Change::Resign {
            id: "f1".into(),
            side: Side::Light,
            after: over.clone(),
            at: 1700,
        })
        .await
        .unwrap();
    let rename = |id: &str, seat, name: Option<&str>| Change::Rename {
        id: id.into(),
        seat,
        name: name.map(Into::into),
    };
    store.write(rename("g1", Side::Light, None)).await.unwrap();
    store
        .write(rename("g1", Side::Dark, Some("Cy")))
        .await
        .unwrap();
    assert!(
        store
            .write(rename("nope", Side::Light, None))
            .await
            .is_err(),
        "a rename of no game"
    );
    store.close().unwrap();
    drop(store);

    let store = open();
    let f = store.load("f1").unwrap().unwrap();
    assert!(matches!(f.seats[1], Holder::Person(h) if h.matches(&TokenHash::of(token.reveal()))));
    assert_eq!(f.join.and_then(|s| s.open("invite", &key)), Some(token));
    assert_eq!(f.names, [Some("Ann".into()), Some("Bea ✓".into())]);
    assert_eq!(f.resigned, Some(Side::Light));
    assert_eq!(f.summary, over);
    assert_eq!(f.changed, 1700, "the resignation is the last change");
    assert_eq!(store.counts().unwrap(), [0, 1, 1]);
    let g1 = store.load("g1").unwrap().unwrap();
    assert_eq!(g1.names, [None, Some("Cy".into())]);
    assert_eq!(g1.changed, 1200, "a rename is no change of the game");
    assert_eq!(
        store.unfinished().unwrap().len(),
        1,
        "a game over is finished"
    );

    // A game waiting for its friend expires; one being played does not.
    let mut waiting = game("g2");
    waiting.summary.status = Status::Waiting;
    store
        .write(Change::Create(Box::new(waiting)))
        .await
        .unwrap();
    assert_eq!(
        store.waiting_since(2000, 10).unwrap(),
        vec!["g2".to_owned()]
    );
    assert!(store.waiting_since(1000, 10).unwrap().is_empty());
    assert!(store.waiting_since(2000, 0).unwrap().is_empty());
    let expire = |id: &str, before| Change::Expire {
        id: id.into(),
        before,
    };
    assert!(store.write(expire("g2", 1000)).await.is_err(), "too young");
    assert!(store.write(expire("g1", 2000)).await.is_err(), "playing");
    store.write(expire("g2", 2000)).await.unwrap();
    assert!(store.load("g2").unwrap().is_none());
    assert_eq!(store.counts().unwrap(), [0, 1, 1]);
    // A rematch of f1: offered, withdrawn, offered again, then accepted
    // with its new game, stored with it.
    let offer = |by, game: Option<&str>, start: Option<StoredGame>, at| Change::Rematch {
        id: "f1".into(),
        rematch: Some(Rematch {
            offered_by: by,
            game: game.map(Into::into),
        }),
        start: start.map(Box::new),
        at,
    };
    store
        .write(offer(Side::Dark, None, None, 2100))
        .await
        .unwrap();
    let withdrawn = Change::Rematch {
        id: "f1".into(),
        rematch: None,
        start: None,
        at: 2200,
    };
    store.write(withdrawn).await.unwrap();
    let f1 = store.load("f1").unwrap().unwrap();
    assert!(f1.rematch.is_none());
    assert_eq!(f1.changed, 2200, "a withdrawn offer is a change");
    store
        .write(offer(Side::Light, None, None, 2300))
        .await
        .unwrap();
    store.close().unwrap();
    drop(store);
    let store = open();
    let pending = Rematch {
        offered_by: Side::Light,
        game: None,
    };
    let f1 = store.load("f1").unwrap().unwrap();
    assert_eq!(f1.rematch, Some(pending));
    assert_eq!(f1.changed, 2300, "an offer is a change");
    let mut next = game("f2");
    next.seats = [
        Holder::Person(TokenHash::of("b")),
        Holder::Person(TokenHash::of("a")),
    ];
    next.names = [Some("Bea".into()), Some("Ann".into())];
    next.created = 2400;
    next.changed = 2400;
    assert!(
        store
            .write(offer(Side::Light, Some("f2"), Some(game("g1")), 2400))
            .await
            .is_err(),
        "an accepted rematch whose game cannot be stored is not stored"
    );
    assert!(
        store
            .load("f1")
            .unwrap()
            .unwrap()
            .rematch
            .unwrap()
            .game
            .is_none()
    );
    store
        .write(offer(Side::Light, Some("f2"), Some(next), 2400))
        .await
        .unwrap();
    let f2 = store.load("f2").unwrap().unwrap();
    assert_eq!(f2.names, [Some("Bea".into()), Some("Ann".into())]);
    assert_eq!((f2.created, f2.changed), (2400, 2400));
    assert!(matches!(f2.seats[0], Holder::Person(h) if h.matches(&TokenHash::of("b"))));
    assert_eq!(
        store
            .load("f1")
            .unwrap()
            .unwrap()
            .rematch
            .unwrap()
            .game
            .as_deref(),
        Some("f2")
    );

    // A game open to anyone: listed while it waits, taken by a join, or
    // withdrawn by its creator.
    let mut open_game = game("o1");
    open_game.seats[1] = Holder::Anyone;
    open_game.summary.status = Status::Waiting;
    open_game.created = 3000;
    store
        .write(Change::Create(Box::new(open_game.clone())))
        .await
        .unwrap();
    let mut second = open_game.clone();
    second.id = "o2".into();
    second.created = 3001;
    second.seats = [Holder::Anyone, Holder::Person(TokenHash::of("c"))];
    second.names = [None, Some("Cy".into())];
    store.write(Change::Create(Box::new(second))).await.unwrap();
    let listed = store.open_games(i64::MAX, 10).unwrap();
    let ids: Vec<(&str, Option<&str>, i64)> = listed
        .iter()
        .map(|g| (g.id.as_str(), g.name.as_deref(), g.created))
        .collect();
    assert_eq!(ids, [("o1", Some("Ann"), 3000), ("o2", Some("Cy"), 3001)]);
    assert_eq!(listed[0].rules.to_string(), open_game.rules.to_string());
    assert_eq!(store.open_games(3001, 10).unwrap().len(), 1);
    assert_eq!(store.open_games(i64::MAX, 1).unwrap().len(), 1);
    store
        .write(Change::Join {
            id: "o1".into(),
            seat: Side::Dark,
            token: TokenHash::of("d"),
            seal: None,
            name: Some("Di".into()),
            after: after(0),
            at: 3100,
        })
        .await
        .unwrap();
    let o1 = store.load("o1").unwrap().unwrap();
    assert!(matches!(o1.seats[1], Holder::Person(h) if h.matches(&TokenHash::of("d"))));
    assert_eq!(o1.names[1].as_deref(), Some("Di"));
    assert_eq!(o1.changed, 3100, "a join is a change");
    let withdraw = |id: &str| Change::Withdraw { id: id.into() };
    assert!(store.write(withdraw("o1")).await.is_err(), "taken: playing");
    store.close().unwrap();
    drop(store);
    let store = open();
    assert_eq!(store.open_games(i64::MAX, 10).unwrap()[0].id, "o2");
    store.write(withdraw("o2")).await.unwrap();
    assert!(store.load("o2").unwrap().is_none());
    assert!(store.open_games(i64::MAX, 10).unwrap().is_empty());
    store.close().unwrap();
    assert!(
        store
            .write(Change::Create(Box::new(game("g3"))))
            .await
            .is_err(),
        "a closed store takes nothing"
    );
}

#[tokio::test]
async fn the_sqlite_store_passes_the_store_suite() {
    let dir = Scratch::new("store-suite");
    let data = dir.path("data");
    suite(|| Sqlite::open(&data).unwrap()).await;
}

#[tokio::test]
async fn the_postgres_store_passes_the_store_suite() {
    let db = TestDb::new();
    let database = Database::parse(&db.url).unwrap();
    suite(|| Postgres::open(&database).unwrap()).await;
}

#[test]
fn servers_starting_at_once_on_a_new_database_migrate_it_once() {
    let db = TestDb::new();
    let database = Database::parse(&db.url).unwrap();
    let opened: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| Postgres::open(&database)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for store in opened {
        let store = store.unwrap();
        assert_eq!(store.counts().unwrap(), [0, 0, 0]);
        store.close().unwrap();
    }
}

#[test]
fn a_database_of_a_newer_schema_is_refused() {
    let db = TestDb::new();
    let database = Database::parse(&db.url).unwrap();
    Postgres::open(&database).unwrap().close().unwrap();
    db.execute("UPDATE race_schema SET version = 999");
    let e = Postgres::open(&database).unwrap_err();
    assert!(e.0.contains("schema version 999"), "{e}");
}

#[test]
fn an_unreachable_database_is_refused_without_its_password() {
    // A port nobody listens on: the one of a listener just closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let url = format!("postgres://race:hunter2secret@127.0.0.1:{port}/race");
    let database = Database::parse(&url).unwrap();
    assert_eq!(
        database.to_string(),
        format!("postgres://race@127.0.0.1:{port}/race")
    );
    assert!(!format!("{database:?}").contains("hunter2secret"));
    let e = Postgres::open(&database).unwrap_err();
    assert!(e.0.contains("unreachable"), "{e}");
    assert!(!e.0.contains("hunter2secret"), "{e}");
    assert!(Database::parse("postgres://[oops").is_err());
}
