//! A real browser for the end-to-end tests: Debian's Chromium, headless, driven through
//! the DevTools protocol over its WebSocket. Every host name resolves to nothing, so a
//! page that tried to fetch anything would fail visibly. Chromium that is not installed
//! skips its test with a message naming the package, except in CI, where `.ci/run`
//! installs it and its absence fails.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// How long any one step may take before the test fails rather than hangs.
const STEP: Duration = Duration::from_secs(30);

/// Whether Chromium is here: see [`crate::common::present`].
pub fn installed() -> bool {
    crate::common::present("chromium", "--version", "chromium")
}

/// One page in a headless Chromium of its own, closed when dropped.
pub struct Page {
    socket: WebSocket<TcpStream>,
    session: String,
    next_id: u64,
    /// Every console error, uncaught exception and browser-logged error (a refused
    /// fetch, a blocked script) seen so far.
    pub errors: Vec<String>,
    child: Child,
    _profile: tempfile::TempDir,
}

impl Page {
    /// Opens `url` and waits for its load event and its script to finish.
    pub fn open(url: &str) -> Page {
        Page::start(url, true)
    }

    /// Opens `url` as a reader with scripting off sees it.
    pub fn open_without_scripts(url: &str) -> Page {
        Page::start(url, false)
    }

    fn start(url: &str, scripts: bool) -> Page {
        let profile = tempfile::tempdir().unwrap();
        let mut child = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--remote-debugging-port=0",
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--window-size=1300,1000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("chromium starts");
        let address = devtools_address(&mut child);
        let host = address
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_string();
        let stream = TcpStream::connect(host).expect("DevTools listens");
        stream.set_read_timeout(Some(STEP)).unwrap();
        let (socket, _) = tungstenite::client(address.as_str(), stream).expect("DevTools answers");
        let mut page = Page {
            socket,
            session: String::new(),
            next_id: 0,
            errors: Vec::new(),
            child,
            _profile: profile,
        };
        let target = page.call("Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().unwrap().to_string();
        let attached = page.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        page.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Runtime.enable", "Log.enable", "Page.enable"] {
            page.call(domain, json!({}));
        }
        if !scripts {
            page.call(
                "Emulation.setScriptExecutionDisabled",
                json!({"value": true}),
            );
        }
        page.call("Page.navigate", json!({"url": url}));
        page.wait_for("Page.loadEventFired");
        page
    }

    /// The value of `expression` in the page, awaited if it is a promise.
    pub fn eval(&mut self, expression: &str) -> Value {
        let reply = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(exception) = reply.get("exceptionDetails") {
            panic!("{expression} threw: {exception}");
        }
        reply["result"]["value"].clone()
    }

    /// Lays the page out as a screen `width` CSS pixels wide would, as a phone does.
    pub fn set_width(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// Emulates a media type (`print`, or empty for the screen) and media features
    /// such as `prefers-color-scheme`.
    pub fn emulate_media(&mut self, media: &str, features: &[(&str, &str)]) {
        let features: Vec<Value> = features
            .iter()
            .map(|(name, value)| json!({"name": name, "value": value}))
            .collect();
        self.call(
            "Emulation.setEmulatedMedia",
            json!({"media": media, "features": features}),
        );
    }

    /// The viewport as a PNG, for a reader to look at when a layout test fails.
    pub fn screenshot(&mut self) -> Vec<u8> {
        use base64::Engine as _;
        let reply = self.call("Page.captureScreenshot", json!({"format": "png"}));
        base64::engine::general_purpose::STANDARD
            .decode(reply["data"].as_str().unwrap())
            .unwrap()
    }

    /// The page printed as PDF, decoded: what a reader's printer gets.
    pub fn print_to_pdf(&mut self) -> Vec<u8> {
        use base64::Engine as _;
        let reply = self.call("Page.printToPDF", json!({}));
        base64::engine::general_purpose::STANDARD
            .decode(reply["data"].as_str().unwrap())
            .unwrap()
    }

    /// Sends `method` to the page (or to the browser before it is attached) and returns
    /// its result, noting the events that come first.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .expect("DevTools takes the command");
        loop {
            let reply = self.next_message();
            if reply["id"] == json!(id) {
                if let Some(error) = reply.get("error") {
                    panic!("{method}: {error}");
                }
                return reply["result"].clone();
            }
        }
    }

    /// Reads messages until the event `method` comes.
    fn wait_for(&mut self, method: &str) {
        let deadline = Instant::now() + STEP;
        while Instant::now() < deadline {
            if self.next_message()["method"] == json!(method) {
                return;
            }
        }
        panic!("no {method} within {STEP:?}");
    }

    /// The next message, with any error it reports noted.
    fn next_message(&mut self) -> Value {
        let message = self
            .socket
            .read()
            .expect("DevTools message within the step");
        let Message::Text(text) = message else {
            return Value::Null;
        };
        let value: Value = serde_json::from_str(text.as_str()).unwrap();
        let params = &value["params"];
        match value["method"].as_str() {
            Some("Runtime.consoleAPICalled") if params["type"] == json!("error") => {
                self.errors.push(params["args"].to_string())
            }
            Some("Runtime.exceptionThrown") => self.errors.push(params.to_string()),
            Some("Log.entryAdded") if params["entry"]["level"] == json!("error") => {
                self.errors.push(params["entry"]["text"].to_string())
            }
            _ => {}
        }
        value
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The browser's DevTools WebSocket address, from the line Chromium prints at start.
fn devtools_address(child: &mut Child) -> String {
    let stderr = child.stderr.take().unwrap();
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(address) = line.strip_prefix("DevTools listening on ") {
                let _ = send.send(address.trim().to_string());
            }
        }
    });
    receive
        .recv_timeout(STEP)
        .expect("chromium prints its DevTools address")
}
