//! The local browser explorer behind `huntsolve serve`: a small HTTP server
//! answering a JSON API from solved tables (with a time-limited search where
//! they do not reach) and serving one page, every asset embedded in the binary.
//!
//! This is a *face* of the crate, like the command line: it sits above every
//! other layer and only calls their public functions (values come from
//! [`crate::answer::answer_position`], the function `huntsolve query` answers
//! with, under the explorer's policy: it always tries the prover before a
//! search). It serves; it does not print: the caller
//! ([`Explorer::addr`]) says where it listens.
//!
//! # HTTP
//! A strict request reader over [`std::net`] (see the `http` module for its
//! limits and why it is not an HTTP crate). One thread accepts connections;
//! each connection gets a small thread of its own (at most
//! `MAX_CONNECTIONS` at once; beyond that, a connection gets 503 at once)
//! that reads the request head within its deadline, so a slow or silent
//! client holds only its own thread. A parsed request goes to a fixed pool of
//! workers that compute answers; the connection's thread writes the answer and
//! closes. A local single-user explorer needs no async runtime; a table answer
//! costs microseconds to a few milliseconds of CPU, and a search is bounded by
//! its time limit, so a handful of workers keeps the page responsive while a
//! search runs.
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
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the server checks for a Ctrl-C stop request.
const POLL: Duration = Duration::from_millis(100);
/// Most workers (`--workers`).
pub(crate) const MAX_WORKERS: usize = 64;
/// Most connections open at once (each has its own thread); more get 503.
pub(crate) const MAX_CONNECTIONS: usize = 256;
/// Stack of a connection's thread (it reads and writes; workers compute).
const CONNECTION_STACK: usize = 256 * 1024;

/// What to serve and where.
#[derive(Clone, Debug)]
pub struct Config {
    /// Table directories: each holds one table set, or sub-directories that do.
    pub tables: Vec<PathBuf>,
    /// Address to bind (`127.0.0.1` unless told otherwise).
    pub bind: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Worker threads answering requests (1 to `MAX_WORKERS`).
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
    listener: TcpListener,
    state: Arc<State>,
    addr: SocketAddr,
    workers: usize,
    stop: Arc<AtomicBool>,
}

/// Stops a running [`Explorer`] from another thread.
#[derive(Clone)]
pub struct StopHandle {
    wake: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl StopHandle {
    /// Asks the workers to finish the requests they hold and return.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        wake(self.wake);
    }
}

/// Unblocks the accepting thread with a connection of our own.
fn wake(addr: SocketAddr) {
    let _ = TcpStream::connect_timeout(&addr, Duration::from_secs(1));
}

impl Explorer {
    /// Opens the table sets and binds the listener (nothing is answered before
    /// [`Explorer::run`]).
    pub fn bind(cfg: &Config) -> Result<Explorer> {
        if !(1..=MAX_WORKERS).contains(&cfg.workers) {
            return Err(Error::Input(format!(
                "--workers {}: expected 1 to {MAX_WORKERS}",
                cfg.workers
            )));
        }
        let state = State::new(&cfg.tables, cfg.search_time)?;
        let wanted = format!("{}:{}", cfg.bind, cfg.port);
        let listener = TcpListener::bind(&wanted)
            .map_err(|e| Error::Input(format!("cannot listen on {wanted}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::io(format!("the address of {wanted}"), e))?;
        Ok(Explorer {
            listener,
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

    /// The names of the table sets served, with their rules.
    pub fn table_sets(&self) -> Vec<(String, String)> {
        self.state.set_names()
    }

    /// A handle that stops [`Explorer::run`].
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle {
            wake: wake_addr(self.addr),
            stop: self.stop.clone(),
        }
    }

    /// Answers requests on the worker threads until [`StopHandle::stop`]
    /// (returns `Ok`) or a Ctrl-C stop request (returns [`Error::Interrupted`]).
    pub fn run(self) -> Result<()> {
        let (jobs, rx) = sync_channel::<http::Job>(MAX_CONNECTIONS);
        let rx = Arc::new(Mutex::new(rx));
        let port = self.addr.port();
        let mut handles = Vec::with_capacity(self.workers);
        for i in 0..self.workers {
            let rx = rx.clone();
            let state = self.state.clone();
            let h = std::thread::Builder::new()
                .name(format!("serve-{i}"))
                .spawn(move || worker(&rx, &state, port))
                .map_err(|e| Error::io("starting a server thread", e))?;
            handles.push(h);
        }
        // Ctrl-C sets a flag; this thread turns it into a wake-up of `accept`.
        let done = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (stop, done, addr) = (self.stop.clone(), done.clone(), wake_addr(self.addr));
            std::thread::Builder::new()
                .name("serve-stop".into())
                .spawn(move || {
                    while !done.load(Ordering::SeqCst) {
                        if stop_requested() || stop.load(Ordering::SeqCst) {
                            stop.store(true, Ordering::SeqCst);
                            wake(addr);
                            break;
                        }
                        std::thread::sleep(POLL);
                    }
                })
                .map_err(|e| Error::io("starting a server thread", e))?
        };
        let open = Arc::new(AtomicUsize::new(0));
        for conn in self.listener.incoming() {
            if self.stop.load(Ordering::SeqCst) {
                break;
            }
            match conn {
                Ok(stream) => {
                    if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                        open.fetch_sub(1, Ordering::SeqCst);
                        http::busy(stream);
                        continue;
                    }
                    let (jobs, count) = (jobs.clone(), open.clone());
                    let spawned = std::thread::Builder::new()
                        .name("serve-connection".into())
                        .stack_size(CONNECTION_STACK)
                        .spawn(move || {
                            http::serve_connection(stream, &jobs);
                            count.fetch_sub(1, Ordering::SeqCst);
                        });
                    if spawned.is_err() {
                        open.fetch_sub(1, Ordering::SeqCst);
                    }
                }
                // Out of file descriptors and the like: wait instead of spinning.
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        done.store(true, Ordering::SeqCst);
        // The workers end once every connection's thread has let go of `jobs`.
        drop(jobs);
        let mut panicked = watcher.join().is_err();
        for h in handles {
            panicked |= h.join().is_err();
        }
        if panicked {
            return Err(Error::Internal("a server thread panicked".into()));
        }
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

/// Where to connect to reach the listener at `addr` (an unspecified address
/// is reached through the loopback address of its family).
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut a = addr;
    if a.ip().is_unspecified() {
        a.set_ip(match a {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    a
}

fn worker(rx: &Mutex<Receiver<http::Job>>, state: &State, port: u16) {
    loop {
        let next = rx.lock().unwrap_or_else(|p| p.into_inner()).recv();
        match next {
            Ok(job) => http::work(state, job, port),
            // The accepting thread and every connection are gone.
            Err(_) => break,
        }
    }
}
