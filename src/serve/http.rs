//! HTTP for the explorer: [hyper] 1.x reads requests and writes answers; this
//! module configures it, checks each request before anything is computed,
//! schedules its answer and turns every result into a JSON answer. A bad
//! request is a 400 with `{"error": "..."}`, an unknown path a 404, a damaged
//! table a 500.
//!
//! The limits (the `conn` module drives each connection):
//! - the request head (request line and headers) is at most [`MAX_HEAD`]
//!   bytes (hyper's `max_buf_size`) and [`MAX_HEADERS`] headers (hyper's
//!   `max_headers`), else hyper's own 431; it must arrive within
//!   [`HEAD_TIME`] of the connection, one deadline for the whole head (ours,
//!   not hyper's `header_read_timeout`, which closes without an answer), else
//!   408; a head hyper cannot parse gets hyper's own bare 400;
//! - a request that announces a body (`Content-Length` other than 0, or any
//!   `Transfer-Encoding`) is refused with 413 and none of the body is read:
//!   hyper reads a body only when the service asks for it, and ours never does;
//! - the `Host` header must name this machine by `localhost` or an IP literal,
//!   with the server's port (else 421): a web page that rebinds its own domain
//!   name to 127.0.0.1 sends its domain name as `Host` (DNS rebinding);
//! - the target is a path (`/...`), never an absolute URL or `*` (else 400);
//!   assets are four names compiled into the binary, so no path reads a file;
//! - each connection carries one request (hyper's `keep_alive(false)`); a
//!   client that closes its side before the answer has left (no half-close:
//!   its search is stopped), and an answer not taken within [`WRITE_TIME`]
//!   is dropped with its connection.
//!
//! # Scheduling
//! Assets are answered on the runtime's thread. Every other answer is first
//! tried on the blocking pool as far as it goes without a search, proof or
//! table analysis (presets, boards, positions the rules or the tables answer,
//! statistics already computed). What needs more is a search: it waits for
//! one of `--workers` permits (at most [`SEARCH_QUEUE`] wait; beyond that,
//! 503 at once), and when its client leaves, a waiting search is dropped and
//! a running one stopped. The pool has [`QUICK_WORKERS`] threads more than
//! searches may take, so the rest never waits behind a search.
//!
//! Why hyper: it is the HTTP implementation under most of the Rust ecosystem
//! (axum, reqwest, warp), maintained by the hyperium organisation with
//! frequent releases, and with `default-features = false` and only `http1` and
//! `server` it adds a handful of small crates (httparse, http, http-body,
//! bytes) to a minimal tokio (`rt`, `net`, `time`, `sync`, `io-util`: no
//! multi-threaded scheduler, no macros). Its low-level connection API lets the
//! server keep every limit above: `max_buf_size`, `max_headers`, bodies read
//! only on demand, and `into_parts` to take the socket back for a 408 when the
//! head is late. Rejected: axum and tower-http (routing for four fixed paths
//! and a tower stack add compile time and no limit hyper lacks; axum's
//! extractors would read bodies the API refuses); actix-web (its own runtime
//! and many more crates, and its header count is a fixed constant);
//! tiny_http 0.12 (used before the hand-written reader: it parsed on its own
//! threads and allocated an announced body in full, so `Content-Length:
//! 99999999999` aborted the process); the hand-written reader over
//! `std::net` (534 lines to maintain, a thread per connection).

use super::api::{ApiError, ApiResult, Params, State, Work};
use super::{assets, MAX_CONNECTIONS};
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use std::convert::Infallible;
use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// Longest request head (request line and headers) in bytes.
pub(crate) const MAX_HEAD: usize = 32 * 1024;
/// Most header lines in a request.
pub(crate) const MAX_HEADERS: usize = 64;
/// Time a client has to send the whole request head.
pub(crate) const HEAD_TIME: Duration = Duration::from_secs(5);
/// Time a client has to take the answer.
pub(super) const WRITE_TIME: Duration = Duration::from_secs(10);
/// The message of a 413.
const NO_BODIES: &str = "request bodies are not accepted (the API is GET only)";
/// Threads answering what needs no search (beside `--workers`).
pub(crate) const QUICK_WORKERS: usize = 2;
/// Most searches waiting for a worker; one more is answered 503.
pub(crate) const SEARCH_QUEUE: usize = 16;
/// Most 503 answers being sent at once (to connections beyond
/// [`MAX_CONNECTIONS`]); beyond them a connection is closed unanswered.
const BUSY_ANSWERS: usize = 32;

/// What every connection shares: the API's state, hyper's configuration, the
/// connection slots and the answering threads.
pub(super) struct Shared {
    state: Arc<State>,
    port: u16,
    pub(super) http: hyper::server::conn::http1::Builder,
    panicked: AtomicBool,
    /// One permit per open connection, held by its task until it ends.
    pub(super) slots: Arc<Semaphore>,
    /// One permit per 503 being sent.
    pub(super) busy: Arc<Semaphore>,
    /// Searches running or waiting (`--workers` plus [`SEARCH_QUEUE`]).
    admitted: Arc<Semaphore>,
    /// Searches running (`--workers`).
    searching: Arc<Semaphore>,
    /// Time a client has to take the answer ([`WRITE_TIME`]).
    pub(super) write_time: Duration,
}

impl Shared {
    /// `workers`: searches at once. The runtime's blocking pool must have room
    /// for `workers + QUICK_WORKERS` threads: searches never take more than
    /// `workers`, so what needs no search always finds a thread.
    pub(super) fn new(state: Arc<State>, port: u16, workers: usize) -> Shared {
        let mut http = hyper::server::conn::http1::Builder::new();
        // No half_close: a client that closes its side has left.
        http.keep_alive(false)
            .max_buf_size(MAX_HEAD)
            .max_headers(MAX_HEADERS);
        Shared {
            state,
            port,
            http,
            panicked: AtomicBool::new(false),
            slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            busy: Arc::new(Semaphore::new(BUSY_ANSWERS)),
            admitted: Arc::new(Semaphore::new(workers + SEARCH_QUEUE)),
            searching: Arc::new(Semaphore::new(workers)),
            write_time: WRITE_TIME,
        }
    }

    /// Whether an answer panicked (the server answered 500 and went on).
    pub(super) fn panicked(&self) -> bool {
        self.panicked.load(Ordering::SeqCst)
    }

    /// The answer to a checked request (see the module doc's scheduling).
    async fn answer(self: Arc<Self>, path: String, query: String) -> Answer {
        if let Some((body, mime)) = assets::get(&path) {
            return Answer {
                status: 200,
                mime,
                body: Bytes::from_static(body),
            };
        }
        let params = match parse_query(&query) {
            Ok(p) => Arc::new(p),
            Err(e) => return json_error(400, &e),
        };
        let (s, p, q) = (self.clone(), path.clone(), params.clone());
        let quick = self.blocking(move || s.state.route(&p, &q, Work::Quick));
        match quick.await {
            Ok(Some(done)) => return done.into(),
            Ok(None) => {}
            Err(failed) => return failed,
        }
        let Ok(admitted) = self.admitted.clone().try_acquire_owned() else {
            return json_error(503, "the explorer has too many searches waiting; try again");
        };
        // Dropped (the client left) while waiting: the search never starts.
        let Ok(worker) = self.searching.clone().acquire_owned().await else {
            return busy();
        };
        let stop = StopOnDrop(Arc::new(AtomicBool::new(false)));
        let (s, flag) = (self.clone(), stop.0.clone());
        let searched = self.blocking(move || {
            // The thread counts as busy until the search has stopped.
            let _permits = (admitted, worker);
            s.state.route(&path, &params, Work::Full(&flag))
        });
        match searched.await {
            Ok(done) => done
                .unwrap_or_else(|| Err(ApiError::Internal("no answer".into())))
                .into(),
            Err(failed) => failed,
        }
    }

    /// Runs `f` on the blocking pool; a panic is a 500.
    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Answer> {
        tokio::task::spawn_blocking(f).await.map_err(|e| {
            if e.is_panic() {
                self.panicked.store(true, Ordering::SeqCst);
            }
            json_error(500, "the answer failed (a bug; please report it)")
        })
    }
}

/// Sets its flag when dropped: the search of a request whose client left
/// (hyper drops the answer's future) stops.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The 503 of a busy server.
pub(super) fn busy() -> Answer {
    json_error(503, "the explorer is busy; try again")
}

/// The hyper service of one connection.
pub(super) struct Handler {
    shared: Arc<Shared>,
    phase: Arc<Phase>,
}

impl Handler {
    pub(super) fn new(shared: Arc<Shared>, phase: Arc<Phase>) -> Handler {
        Handler { shared, phase }
    }
}

type Reply = Response<Full<Bytes>>;

impl hyper::service::Service<Request<Incoming>> for Handler {
    type Response = Reply;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Reply, Infallible>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        self.phase.head_read();
        let (shared, phase) = (self.shared.clone(), self.phase.clone());
        // The body is dropped unread with the request.
        let checked = check(&req, shared.port);
        Box::pin(async move {
            let write_time = shared.write_time;
            let answer = match checked {
                Err(refused) => refused,
                Ok((path, query)) => shared.answer(path, query).await,
            };
            phase.answered(write_time);
            Ok(answer.into_response())
        })
    }
}

/// Checks a request before anything is computed: its path and query, or the
/// refusal.
fn check<B>(req: &Request<B>, port: u16) -> Result<(String, String), Answer> {
    let h = req.headers();
    let announces = h
        .get_all(header::CONTENT_LENGTH)
        .iter()
        .any(|v| !is_zero(v.as_bytes()))
        || h.contains_key(header::TRANSFER_ENCODING);
    if announces {
        return Err(json_error(413, NO_BODIES));
    }
    let uri = req.uri();
    if uri.scheme().is_some() || uri.authority().is_some() || !uri.path().starts_with('/') {
        return Err(json_error(
            400,
            "the request target must be a path starting with /",
        ));
    }
    let mut hosts = h.get_all(header::HOST).iter();
    let host = hosts.next();
    if hosts.next().is_some() {
        return Err(json_error(400, "Host header given twice"));
    }
    match host.map(HeaderValue::to_str) {
        None => return Err(json_error(400, "a Host header is required")),
        Some(Err(_)) => return Err(json_error(400, "the Host header is not text")),
        Some(Ok(host)) if !host_allowed(host, port) => {
            return Err(json_error(
                421,
                &format!(
                    "Host {} is not this server: use http://127.0.0.1:{port}/ or http://localhost:{port}/",
                    crate::error::quote(host)
                ),
            ))
        }
        Some(Ok(_)) => {}
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return Err(json_error(405, "only GET is served"));
    }
    Ok((
        uri.path().to_string(),
        uri.query().unwrap_or_default().to_string(),
    ))
}

/// Whether a `Content-Length` value is 0 (any other value announces a body).
fn is_zero(v: &[u8]) -> bool {
    !v.is_empty() && v.iter().all(|&b| b == b'0')
}

/// Whether a `Host` header value names this server: `localhost` or an IP
/// literal (a page cannot get a browser to send either for its own origin),
/// with `port` (omitted only for port 80).
pub(super) fn host_allowed(host: &str, port: u16) -> bool {
    let (name, port_text) = if let Some(rest) = host.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else {
            return false;
        };
        let port_text = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(p) => Some(p),
                None => return false,
            },
        };
        if inside.parse::<std::net::Ipv6Addr>().is_err() {
            return false;
        }
        (inside, port_text)
    } else {
        match host.rsplit_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (host, None),
        }
    };
    let port_ok = match port_text {
        None => port == 80,
        Some(p) => p.parse::<u16>().is_ok_and(|p| p == port),
    };
    let name_ok = name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok();
    port_ok && name_ok
}

/// A response: status, content type, body.
pub(super) struct Answer {
    status: u16,
    mime: &'static str,
    body: Bytes,
}

impl Answer {
    /// The answer for hyper to write (it adds `Content-Length`, `Date` and
    /// `Connection: close`, and leaves the body out for a `HEAD` request).
    fn into_response(self) -> Reply {
        let mut r = Response::new(Full::new(self.body));
        *r.status_mut() = StatusCode::from_u16(self.status).unwrap_or(StatusCode::OK);
        let h = r.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(self.mime));
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        r
    }

    /// The bytes on the wire, for an answer written without hyper (a late
    /// head, a busy server).
    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let reason = StatusCode::from_u16(self.status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("Error");
        let mut out = format!(
            "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
            self.status,
            self.mime,
            self.body.len()
        )
        .into_bytes();
        out.extend_from_slice(&self.body);
        out
    }
}

impl From<ApiResult<String>> for Answer {
    fn from(r: ApiResult<String>) -> Answer {
        match r {
            Ok(body) => Answer {
                status: 200,
                mime: "application/json",
                body: Bytes::from(body),
            },
            Err(e) => json_error(e.status(), &e.message()),
        }
    }
}

pub(super) fn json_error(status: u16, message: &str) -> Answer {
    Answer {
        status,
        mime: "application/json",
        body: Bytes::from(serde_json::json!({ "error": message }).to_string()),
    }
}

/// Splits `a=1&b=x%20y` into decoded pairs (`+` is a space, as in HTML forms).
pub(super) fn parse_query(query: &str) -> Result<Params, String> {
    let mut params = Params::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode(k)?;
        let value = decode(v)?;
        if params.insert(key.clone(), value).is_some() {
            return Err(format!(
                "parameter {} given twice",
                crate::error::quote(&key)
            ));
        }
    }
    Ok(params)
}

/// Percent-decoding of one query component.
fn decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bad percent escape in {}", crate::error::quote(s)))?;
                out.push(hex);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out)
        .map_err(|_| format!("{} is not UTF-8 once decoded", crate::error::quote(s)))
}

/// Where a connection is: reading the head, computing, writing the answer.
#[derive(Default)]
pub(super) struct Phase {
    /// The head is parsed (hyper called the service).
    head: AtomicBool,
    /// When the answer must have been taken.
    pub(super) write_by: OnceLock<Instant>,
}

impl Phase {
    /// Hyper parsed the head and calls the service.
    pub(super) fn head_read(&self) {
        self.head.store(true, Ordering::SeqCst);
    }

    /// The answer is ready: the client has `write_time` to take it.
    pub(super) fn answered(&self, write_time: Duration) {
        let _ = self.write_by.set(Instant::now() + write_time);
    }

    pub(super) fn head_done(&self) -> bool {
        self.head.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_strings_decode() {
        let p = parse_query("rules=kaooa&position=..P%2F..+a&moves=t0%20i1").unwrap();
        assert_eq!(p["rules"], "kaooa");
        assert_eq!(p["position"], "..P/.. a");
        assert_eq!(p["moves"], "t0 i1");
        assert!(parse_query("a=%zz").is_err());
        assert!(parse_query("a=%4").is_err());
        assert!(parse_query("a=1&a=2").is_err());
        assert!(parse_query("a=%FF").is_err());
    }

    #[test]
    fn only_this_machine_by_ip_or_localhost_is_a_host() {
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
            "192.168.1.5:8080",
        ] {
            assert!(host_allowed(ok, 8080), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1.nip.io:8080",
            "localhost",
            "127.0.0.1:8081",
            "127.0.0.1:",
            "[::1]",
            "[::1]8080",
            "[evil]:8080",
            "",
        ] {
            assert!(!host_allowed(bad, 8080), "{bad}");
        }
        assert!(host_allowed("localhost", 80));
    }
}
