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
//! [hyper] 1.x (HTTP/1.1 only) on a single-threaded [tokio] runtime: one
//! thread accepts and drives every connection without blocking (a slow or
//! silent client is a pending future, not a held thread), and answers are
//! computed on tokio's blocking pool: a few threads for answers that need no
//! search, at most `--workers` searches at once, so neither a running search
//! nor a queue of them stalls the page, and a search whose client left stops.
//! The `http` module gives the limits (head size, header count, one deadline
//! for the whole head, bodies refused unread, the `Host` check, the queue of
//! searches) and says why hyper was chosen. At most `MAX_CONNECTIONS`
//! connections are open at once; beyond that, a connection gets 503 at once.
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
//! See `api` for the shapes.

pub(crate) mod api;
mod assets;
mod conn;
mod http;
#[cfg(test)]
mod tests;

use crate::error::{Error, Result};
use crate::progress::stop_requested;
use api::State;
use std::future::poll_fn;
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tokio::task::JoinSet;

/// How often the server checks for a stop request (Ctrl-C or [`StopHandle`]).
const POLL: Duration = Duration::from_millis(100);
/// Most workers (`--workers`).
pub(crate) const MAX_WORKERS: usize = 64;
/// Most connections open at once; more get 503.
pub(crate) const MAX_CONNECTIONS: usize = 256;
/// After a stop, how long open connections may take to finish (a head
/// deadline, the longest answer and its write fit in it); then they are dropped.
const GRACE: Duration = Duration::from_secs(20);

/// What to serve and where.
#[derive(Clone, Debug)]
pub struct Config {
    /// Table directories: each holds one table set, or sub-directories that do.
    pub tables: Vec<PathBuf>,
    /// Address to bind (`127.0.0.1` unless told otherwise).
    pub bind: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Searches computed at once, each on its own thread (1 to `MAX_WORKERS`).
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
    stop: Arc<AtomicBool>,
}

impl StopHandle {
    /// Asks the server to stop accepting, let open connections finish and return.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

impl Explorer {
    /// Opens the table sets and binds the listener (nothing is answered before
    /// [`Explorer::run`]).
    pub fn bind(cfg: &Config) -> Result<Explorer> {
        if !(1..=MAX_WORKERS).contains(&cfg.workers) {
            return Err(Error::Usage(format!(
                "--workers {}: expected 1 to {MAX_WORKERS}",
                cfg.workers
            )));
        }
        let state = State::new(&cfg.tables, cfg.search_time)?;
        let wanted = format!("{}:{}", cfg.bind, cfg.port);
        let listener = TcpListener::bind(&wanted)
            .map_err(|e| Error::io(format!("cannot listen on {wanted}"), e))?;
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
            stop: self.stop.clone(),
        }
    }

    /// Answers requests until [`StopHandle::stop`] (returns `Ok`) or a Ctrl-C
    /// stop request (returns [`Error::Interrupted`]).
    pub fn run(self) -> Result<()> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .max_blocking_threads(self.workers + http::QUICK_WORKERS)
            .thread_name("serve")
            .build()
            .map_err(|e| Error::io("starting the server's runtime", e))?;
        self.listener
            .set_nonblocking(true)
            .map_err(|e| Error::io("setting up the listener", e))?;
        let shared = Arc::new(http::Shared::new(
            self.state,
            self.addr.port(),
            self.workers,
        ));
        let stop = self.stop;
        let panicked = rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)
                .map_err(|e| Error::io("setting up the listener", e))?;
            Ok::<bool, Error>(serve(listener, shared, &stop).await)
        })?;
        rt.shutdown_timeout(Duration::from_secs(1));
        if panicked {
            return Err(Error::Internal("a server task panicked".into()));
        }
        if stop_requested() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

/// What the accepting loop waits for.
enum Event {
    Connection(std::io::Result<tokio::net::TcpStream>),
    Stop,
}

/// Accepts connections until a stop request, then lets the open ones finish
/// (for at most [`GRACE`]). Returns whether a connection's task or an answer
/// panicked.
async fn serve(
    listener: tokio::net::TcpListener,
    shared: Arc<http::Shared>,
    stop: &AtomicBool,
) -> bool {
    let mut open = JoinSet::new();
    let mut tick = tokio::time::interval(POLL);
    let mut panicked = false;
    loop {
        while let Some(done) = open.try_join_next() {
            panicked |= done.is_err_and(|e| e.is_panic());
        }
        let event = poll_fn(|cx| {
            if let Poll::Ready(r) = listener.poll_accept(cx) {
                return Poll::Ready(Event::Connection(r.map(|(s, _)| s)));
            }
            while tick.poll_tick(cx).is_ready() {
                if stop_requested() || stop.load(Ordering::SeqCst) {
                    return Poll::Ready(Event::Stop);
                }
            }
            Poll::Pending
        })
        .await;
        match event {
            Event::Stop => break,
            // A slot is held by its connection's task until the task ends
            // (however it ends).
            Event::Connection(Ok(stream)) => {
                let shared = shared.clone();
                if let Ok(slot) = shared.slots.clone().try_acquire_owned() {
                    open.spawn(async move {
                        let _slot = slot;
                        conn::serve_connection(stream, shared).await;
                    });
                } else if let Ok(permit) = shared.busy.clone().try_acquire_owned() {
                    open.spawn(async move {
                        let _permit = permit;
                        conn::refuse(stream).await;
                    });
                }
            }
            // Out of file descriptors and the like: wait instead of spinning.
            Event::Connection(Err(_)) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    drop(listener);
    let finish = async {
        while let Some(done) = open.join_next().await {
            panicked |= done.is_err_and(|e| e.is_panic());
        }
    };
    let _ = tokio::time::timeout(GRACE, finish).await;
    open.shutdown().await;
    panicked | shared.panicked()
}
