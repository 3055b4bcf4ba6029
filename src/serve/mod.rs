//! The local browser explorer behind `huntsolve serve`: a small HTTP server
//! answering a JSON API from solved tables (with a time-limited search where
//! they do not reach) and serving one page, every asset embedded in the binary.
//!
//! This is a *face* of the crate, like the command line: it sits above every
//! other layer and only calls their public functions (values come from
//! [`crate::table::query_with`], [`crate::answer::answer`], exactly as
//! `huntsolve query` computes them). It serves; it does not print: the caller
//! ([`Explorer::url`]) says where it listens.
//!
//! # HTTP
//! [`tiny_http`] on a fixed pool of worker threads, each taking the next
//! request from the shared listener. A local single-user explorer needs no
//! async runtime; a table answer costs microseconds to a few milliseconds of
//! CPU, and a search is bounded by its time limit, so a handful of workers
//! keeps the page responsive while a search runs.
//!
//! # API (every answer is JSON; a bad request is a 400 with `{"error": ...}`)
//! - `GET /api/presets`: the presets of both families and the table sets served.
//! - `GET /api/board?rules=R`: the board geometry (points with coordinates and
//!   lines for hunt boards; the grid with throne and corners for tafl).
//! - `GET /api/position?rules=R&position=P[&moves=M][&tables=NAME][&time=S]`:
//!   the keys of `query --json` plus `source` (`table`, `proof`, `search` or
//!   `rules`), `exact`, each move's resulting `position`, and the pieces.
//! - `GET /api/stats?tables=NAME`: outcome counts, distance histogram and
//!   longest wins of a table set (the report of `huntsolve analyze --json`).
//!
//! See [`api`] for the shapes.

pub mod api;
mod assets;
mod http;

use crate::error::{Error, Result};
use crate::progress::stop_requested;
use api::State;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long a worker waits for a request before checking whether to stop.
const POLL: Duration = Duration::from_millis(100);

/// What to serve and where.
#[derive(Clone, Debug)]
pub struct Config {
    /// Table directories: each holds one table set, or sub-directories that do.
    pub tables: Vec<PathBuf>,
    /// Address to bind (`127.0.0.1` unless told otherwise).
    pub bind: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Worker threads answering requests (at least 1).
    pub workers: usize,
    /// Default search time for positions no table covers.
    pub search_time: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            tables: Vec::new(),
            bind: "127.0.0.1".into(),
            port: 8080,
            workers: 8,
            search_time: api::DEFAULT_SEARCH_TIME,
        }
    }
}

/// A bound explorer server; [`Explorer::run`] answers requests until stopped.
pub struct Explorer {
    server: Arc<tiny_http::Server>,
    state: Arc<State>,
    addr: SocketAddr,
    workers: usize,
    stop: Arc<AtomicBool>,
}

/// Stops a running [`Explorer`] from another thread.
#[derive(Clone)]
pub struct StopHandle {
    server: Arc<tiny_http::Server>,
    stop: Arc<AtomicBool>,
}

impl StopHandle {
    /// Asks the workers to finish the requests they hold and return.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.server.unblock();
    }
}

impl Explorer {
    /// Opens the table sets and binds the listener (nothing is answered before
    /// [`Explorer::run`]).
    pub fn bind(cfg: &Config) -> Result<Explorer> {
        if cfg.workers == 0 {
            return Err(Error::Input("--workers must be at least 1".into()));
        }
        let state = State::new(&cfg.tables, cfg.search_time)?;
        let wanted = format!("{}:{}", cfg.bind, cfg.port);
        let listener =
            listen(&wanted).map_err(|e| Error::Input(format!("cannot listen on {wanted}: {e}")))?;
        let server = tiny_http::Server::from_listener(listener, None)
            .map_err(|e| Error::Input(format!("cannot listen on {wanted}: {e}")))?;
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| Error::Internal(format!("{wanted} is not an IP address")))?;
        Ok(Explorer {
            server: Arc::new(server),
            state: Arc::new(state),
            addr,
            workers: cfg.workers,
            stop: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The address the server listens on (with the real port when 0 was asked).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The names of the table sets served, with their rules.
    pub fn table_sets(&self) -> Vec<(String, String)> {
        self.state.set_names()
    }

    /// A handle that stops [`Explorer::run`].
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle {
            server: self.server.clone(),
            stop: self.stop.clone(),
        }
    }

    /// Answers requests on the worker threads until [`StopHandle::stop`]
    /// (returns `Ok`) or a Ctrl-C stop request (returns [`Error::Interrupted`]).
    pub fn run(self) -> Result<()> {
        let mut handles = Vec::with_capacity(self.workers);
        for i in 0..self.workers {
            let server = self.server.clone();
            let state = self.state.clone();
            let stop = self.stop.clone();
            let h = std::thread::Builder::new()
                .name(format!("serve-{i}"))
                .spawn(move || worker(&server, &state, &stop))
                .map_err(|e| Error::io("starting a server thread", e))?;
            handles.push(h);
        }
        for h in handles {
            if h.join().is_err() {
                return Err(Error::Internal("a server thread panicked".into()));
            }
        }
        if stop_requested() && !self.stop.load(Ordering::SeqCst) {
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

/// A listening socket with `TCP_NODELAY`, which accepted connections inherit
/// (Linux): tiny_http writes a response's head and body separately, and with
/// Nagle's algorithm the body would wait for the client's delayed ACK (40 ms).
fn listen(wanted: &str) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Protocol, Socket, Type};
    use std::net::ToSocketAddrs;
    let addr = wanted
        .to_socket_addrs()?
        .next()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address"))?;
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
    socket.set_reuse_address(true)?;
    socket.set_tcp_nodelay(true)?;
    socket.bind(&addr.into())?;
    socket.listen(128)?;
    Ok(socket.into())
}

fn worker(server: &tiny_http::Server, state: &State, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) && !stop_requested() {
        match server.recv_timeout(POLL) {
            Ok(Some(rq)) => http::handle(state, rq),
            Ok(None) => {}
            // The listener is gone (unblocked or closed): nothing more to answer.
            Err(_) => break,
        }
    }
}
