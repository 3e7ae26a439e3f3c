//! Headless Chromium driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`, through `fantoccini`), for the tests of the page.
//!
//! When the browser or its driver is missing, the first test to need them
//! installs both with apt-get (as CI does on a fresh machine), under a lock
//! file so that tests running at once install them once. When that cannot
//! be done the tests fail, saying why: they never pass without a browser.

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource, KeyAction, KeyActions, MouseActions, PointerAction};
use fantoccini::elements::Element;
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

use super::server::{PATIENCE, Scratch};

/// Debian's Chromium.
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// Debian's ChromeDriver.
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A phone's viewport (CSS pixels).
pub const PHONE: (u32, u32) = (390, 844);
/// A desktop's viewport.
pub const DESKTOP: (u32, u32) = (1280, 800);

fn installed() -> bool {
    Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists()
}

fn run(what: &str, cmd: &mut Command) {
    let out = cmd
        .env("DEBIAN_FRONTEND", "noninteractive")
        .output()
        .unwrap_or_else(|e| panic!("the browser tests need Chromium: `{what}` cannot run: {e}"));
    assert!(
        out.status.success(),
        "the browser tests need Chromium and ChromeDriver ({CHROMIUM}, {CHROMEDRIVER}); \
         `{what}` failed ({}); install them with \
         `apt-get install -y chromium chromium-driver` as root:\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Installs `chromium` and `chromium-driver` with apt-get when they are
/// missing, once, whatever number of tests ask at the same time.
///
/// # Panics
///
/// When they are missing and cannot be installed (not root, no network):
/// the message says what to install.
pub fn ensure_installed() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        if installed() {
            return;
        }
        let lock_path = std::env::temp_dir().join("race-browser-install.lock");
        let lock = File::create(&lock_path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", lock_path.display()));
        lock.lock()
            .unwrap_or_else(|e| panic!("cannot lock {}: {e}", lock_path.display()));
        if installed() {
            return;
        }
        let uid = Command::new("id").arg("-u").output().map(|o| o.stdout);
        assert!(
            uid.as_deref().is_ok_and(|u| u.trim_ascii() == b"0"),
            "the browser tests need Chromium and ChromeDriver ({CHROMIUM}, {CHROMEDRIVER}), \
             which are not installed, and only root can install them: run \
             `apt-get install -y chromium chromium-driver` as root"
        );
        run("apt-get update", Command::new("apt-get").arg("update"));
        run(
            "apt-get install -y chromium chromium-driver",
            Command::new("apt-get").args(["install", "-y", "chromium", "chromium-driver"]),
        );
        assert!(
            installed(),
            "apt-get installed chromium and chromium-driver, but {CHROMIUM} or {CHROMEDRIVER} is missing"
        );
    });
}

/// A ChromeDriver of this test's own; dropping it ends every browser it
/// started.
pub struct Driver {
    child: Child,
    url: String,
    scratch: Scratch,
}

impl Driver {
    /// Starts ChromeDriver on a free port and waits until it is ready.
    pub async fn start(name: &str) -> Driver {
        ensure_installed();
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let driver = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            scratch: Scratch::new(&format!("browser-{name}")),
        };
        let deadline = Instant::now() + PATIENCE;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        driver
    }

    /// A new browser, with a fresh profile, its viewport `size`, and its
    /// downloads saved in `downloads` (created).
    pub async fn browser(&self, size: (u32, u32)) -> Browser {
        self.browser_with(size, &[]).await
    }

    /// A new browser as [`Driver::browser`], with more command-line
    /// switches (`--force-dark-mode`, ...).
    pub async fn browser_with(&self, size: (u32, u32), extra: &[&str]) -> Browser {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile = self.scratch.path(&format!("profile-{n}"));
        let downloads = self.scratch.path(&format!("downloads-{n}"));
        std::fs::create_dir_all(&downloads).expect("downloads folder");
        let mut args = vec![
            "--headless".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-quic".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--hide-scrollbars".to_owned(),
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={},{}", size.0, size.1),
        ];
        args.extend(extra.iter().map(|&a| a.to_owned()));
        let caps = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": args,
                "prefs": {
                    "download.default_directory": downloads.display().to_string(),
                    "download.prompt_for_download": false,
                    "download.directory_upgrade": true,
                },
            },
        });
        let Value::Object(caps) = caps else {
            unreachable!("an object")
        };
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(caps)
            .connect(&self.url)
            .await
            .unwrap_or_else(|e| panic!("a Chromium session cannot start: {e}"));
        let browser = Browser { client, downloads };
        browser.fit(size).await;
        browser
    }
}

impl Drop for Driver {
    /// Asks ChromeDriver to quit, which closes every browser it started,
    /// then makes sure it is gone.
    fn drop(&mut self) {
        use std::io::{Read as _, Write as _};
        let port = self.url.rsplit(':').next().unwrap_or_default();
        if let Ok(mut stream) = std::net::TcpStream::connect(format!("127.0.0.1:{port}")) {
            let _ = stream.set_read_timeout(Some(Duration::from_secs(20)));
            let _ = stream.write_all(
                format!(
                    "GET /shutdown HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
                )
                .as_bytes(),
            );
            let _ = stream.read_to_end(&mut Vec::new());
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One browser: a WebDriver session.
pub struct Browser {
    /// The session.
    pub client: Client,
    /// Where its downloads go.
    pub downloads: PathBuf,
}

/// The mouse moved to the page's top left corner, away from the board.
const TO_CORNER: PointerAction = PointerAction::MoveTo {
    duration: None,
    x: 0.0,
    y: 0.0,
};

impl Browser {
    /// Sizes the window so that the viewport is `size`.
    pub async fn fit(&self, size: (u32, u32)) {
        self.client
            .set_window_size(size.0, size.1)
            .await
            .expect("window size");
        let inner = self.js("return [innerWidth, innerHeight]").await;
        let (w, h) = (
            inner[0].as_u64().unwrap_or(0),
            inner[1].as_u64().unwrap_or(0),
        );
        let (dw, dh) = (
            u64::from(size.0) - w.min(u64::from(size.0)),
            u64::from(size.1) - h.min(u64::from(size.1)),
        );
        if dw > 0 || dh > 0 {
            self.client
                .set_window_size(size.0 + dw as u32, size.1 + dh as u32)
                .await
                .expect("window size");
        }
        let inner = self.js("return [innerWidth, innerHeight]").await;
        assert_eq!(
            inner,
            json!([size.0, size.1]),
            "the viewport could not be sized"
        );
    }

    /// Runs a script in the page and returns its value.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("the script failed: {e}\n{script}"))
    }

    /// Waits until `script` returns something truthy (not null, false, 0,
    /// "" or undefined) and returns it; fails after [`PATIENCE`], saying
    /// what it waited for.
    pub async fn wait(&self, what: &str, script: &str) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let v = self.client.execute(script, Vec::new()).await;
            if let Ok(v) = &v {
                let truthy = match v {
                    Value::Null => false,
                    Value::Bool(b) => *b,
                    Value::Number(n) => n.as_f64() != Some(0.0),
                    Value::String(s) => !s.is_empty(),
                    _ => true,
                };
                if truthy {
                    return v.clone();
                }
            }
            if Instant::now() > deadline {
                let text = self.js("return document.body.innerText").await;
                panic!("gave up waiting for {what} (last: {v:?}); the page says:\n{text}");
            }
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Opens a path of the server at `addr`.
    pub async fn open(&self, addr: &str, path: &str) {
        self.client
            .goto(&format!("http://{addr}{path}"))
            .await
            .unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    }

    /// The element `css` selects, waiting for it to appear.
    pub async fn find(&self, css: &str) -> Element {
        self.client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no element {css}: {e}"))
    }

    /// Clicks the element `css` selects. The page redraws parts of itself
    /// as news arrives, so an element found a moment ago may be gone (stale)
    /// or covered when the click lands: the click is tried again on the
    /// element found anew until [`PATIENCE`] runs out.
    pub async fn click(&self, css: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match self.find(css).await.click().await {
                Ok(()) => return,
                Err(e) if Instant::now() >= deadline => panic!("cannot click {css}: {e}"),
                Err(_) => tokio::time::sleep(Duration::from_millis(40)).await,
            }
        }
    }

    /// Moves the mouse over the element `css` selects, to its centre,
    /// coming from the page's top left corner: an element drawn anew under
    /// a mouse that rests there gets no `mouseenter` until the mouse moves,
    /// as with a person's mouse, so the mouse always arrives.
    pub async fn hover(&self, css: &str) {
        let element = self.find(css).await;
        let actions =
            MouseActions::new("mouse".into())
                .then(TO_CORNER)
                .then(PointerAction::MoveToElement {
                    element,
                    duration: None,
                    x: 0.0,
                    y: 0.0,
                });
        self.client
            .perform_actions(actions)
            .await
            .unwrap_or_else(|e| panic!("cannot move the mouse over {css}: {e}"));
    }

    /// Moves the mouse to the page's top left corner, out of the way, as
    /// a person at the keyboard leaves it: a page drawn anew under a
    /// resting mouse tells the element there that the mouse entered it.
    pub async fn mouse_away(&self) {
        let actions = MouseActions::new("mouse".into()).then(TO_CORNER);
        self.client
            .perform_actions(actions)
            .await
            .unwrap_or_else(|e| panic!("cannot move the mouse away: {e}"));
    }

    /// Presses keys one after the other, as a person at a keyboard does.
    pub async fn keys(&self, keys: &[Key]) {
        let mut actions = KeyActions::new("keyboard".into());
        for &key in keys {
            let value = char::from(key);
            actions = actions
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.client
            .perform_actions(actions)
            .await
            .expect("keys pressed");
    }

    /// Saves a screenshot of the viewport as `target/screenshots/NAME.png`,
    /// once no piece is sliding.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        self.wait(
            "the pieces to stop moving",
            "return document.querySelectorAll('.sliding').length === 0",
        )
        .await;
        let png = self.client.screenshot().await.expect("a screenshot");
        let dir = screenshots_dir();
        std::fs::create_dir_all(&dir).expect("the screenshots folder");
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).expect("the screenshot is written");
        path
    }

    /// Ends the session (and its browser).
    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}

/// `target/screenshots/` of this workspace.
pub fn screenshots_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    target.join("screenshots")
}
