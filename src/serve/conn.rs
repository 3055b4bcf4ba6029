//! One connection: hyper reads the request head and writes the answer; this
//! module keeps the deadlines (the head within [`HEAD_TIME`] of the
//! connection, else 408; the answer taken within [`WRITE_TIME`], else the
//! connection is dropped) and puts hyper's own refusals into JSON.
//!
//! Until the head is parsed, the connection's [`Io`] keeps a copy of the bytes
//! hyper reads (at most [`SEEN`]) and holds back what hyper writes: hyper
//! answers a head it cannot parse with a bare status, which is replaced by
//! `{"error": ...}` with the status the hand-written reader gave (413 when the
//! head announced a body, 505 for another HTTP version). A late head is
//! answered 408 on the socket taken back from hyper (`into_parts`).

use super::http::{
    is_zero, json_error, Handler, Phase, Shared, HEAD_TIME, MAX_HEAD, MAX_HEADERS, NO_BODIES,
    WRITE_TIME,
};
use std::future::{poll_fn, Future};
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// Most bytes of a head kept to word hyper's refusal (hyper reads at most
/// [`MAX_HEAD`] bytes of a head, in reads of at most [`CHUNK`]).
const SEEN: usize = MAX_HEAD + CHUNK;
/// Bytes read from the socket at once.
const CHUNK: usize = 8 * 1024;
/// After answering, how long unread input is drained before closing (closing
/// with unread input resets the connection, and the client may lose the answer).
const LINGER: Duration = Duration::from_millis(200);
/// Most bytes drained after answering.
const LINGER_BYTES: usize = 64 * 1024;

/// The socket as hyper sees it (see the module doc).
struct Io {
    stream: TcpStream,
    phase: Arc<Phase>,
    /// The bytes hyper read before the head was parsed (at most [`SEEN`]).
    seen: Vec<u8>,
    /// What hyper wrote before the head was parsed: its refusal, held back.
    held: Vec<u8>,
}

impl Io {
    fn hold(&mut self, bytes: &[u8]) {
        let room = 1024usize.saturating_sub(self.held.len());
        self.held.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
}

impl hyper::rt::Read for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let mut chunk = [0u8; CHUNK];
        let n = buf.remaining().min(CHUNK);
        let mut rb = ReadBuf::new(&mut chunk[..n]);
        ready!(Pin::new(&mut this.stream).poll_read(cx, &mut rb))?;
        let got = rb.filled();
        if !this.phase.head_done() {
            let room = SEEN.saturating_sub(this.seen.len());
            this.seen.extend_from_slice(&got[..got.len().min(room)]);
        }
        buf.put_slice(got);
        Poll::Ready(Ok(()))
    }
}

impl hyper::rt::Write for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if !this.phase.head_done() {
            this.hold(buf);
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if !this.phase.head_done() {
            let mut n = 0;
            for b in bufs {
                this.hold(b);
                n += b.len();
            }
            return Poll::Ready(Ok(n));
        }
        Pin::new(&mut this.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if !this.phase.head_done() {
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// Serves one connection (one request) to its end.
pub(super) async fn serve_connection(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let phase = Arc::new(Phase::default());
    let io = Io {
        stream,
        phase: phase.clone(),
        seen: Vec::new(),
        held: Vec::new(),
    };
    let mut conn = shared
        .http
        .serve_connection(io, Handler::new(shared.clone(), phase.clone()));
    let head_by = Instant::now() + HEAD_TIME;
    let mut timer = Box::pin(tokio::time::sleep_until(head_by));
    // `Some`: hyper is done; `None`: a deadline passed first.
    let end = poll_fn(|cx| {
        if let Poll::Ready(r) = conn.poll_without_shutdown(cx) {
            return Poll::Ready(Some(r));
        }
        // While the answer is computed, no deadline: `time` bounds it.
        let by = match phase.head_done() {
            false => Some(head_by),
            true => phase.write_by.get().copied(),
        };
        if let Some(by) = by {
            if timer.deadline() != by {
                timer.as_mut().reset(by);
            }
            if timer.as_mut().poll(cx).is_ready() {
                return Poll::Ready(None);
            }
        }
        Poll::Pending
    })
    .await;
    match end {
        // Answered (or closed by the client before it sent anything).
        Some(Ok(())) => linger(conn.into_parts().io.stream).await,
        Some(Err(_)) if !phase.head_done() => {
            let io = conn.into_parts().io;
            // Hyper answers only heads it refuses; a client that closed or
            // reset mid-head gets nothing.
            if let Some((status, message)) = refusal(&io.seen, &io.held) {
                reply(io.stream, status, &message).await;
            }
        }
        None if !phase.head_done() => {
            let stream = conn.into_parts().io.stream;
            let message = format!(
                "the request head did not arrive within {} s",
                HEAD_TIME.as_secs()
            );
            reply(stream, 408, &message).await;
        }
        // The client went away during the answer, or did not take it in time.
        Some(Err(_)) | None => {}
    }
}

/// The status and message for a head hyper refused with `held` (its bare
/// answer), from the bytes `seen` of the head; `None` if hyper did not answer.
fn refusal(seen: &[u8], held: &[u8]) -> Option<(u16, String)> {
    let status: u16 = std::str::from_utf8(held.get(9..12)?).ok()?.parse().ok()?;
    let end = seen.windows(4).position(|w| w == b"\r\n\r\n");
    let head = &seen[..end.unwrap_or(seen.len())];
    let mut lines = head.split(|&b| b == b'\n');
    let request_line = lines.next().unwrap_or_default().trim_ascii();
    let announces = lines.any(|line| {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return false;
        };
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        name.eq_ignore_ascii_case(b"transfer-encoding")
            || name.eq_ignore_ascii_case(b"content-length") && !is_zero(value)
    });
    if announces {
        return Some((413, NO_BODIES.into()));
    }
    let version = request_line
        .rsplit(|&b| b == b' ')
        .next()
        .unwrap_or_default();
    if version.starts_with(b"HTTP/") && version != b"HTTP/1.1" && version != b"HTTP/1.0" {
        return Some((505, "only HTTP/1.1 and HTTP/1.0 are served".into()));
    }
    let message = match (status, end) {
        (431, None) => format!("the request head is longer than {MAX_HEAD} bytes"),
        (431, Some(_)) => format!("more than {MAX_HEADERS} header lines"),
        _ => "malformed request head".into(),
    };
    Some((status, message))
}

/// Writes a JSON error answer without hyper, then closes.
async fn reply(mut stream: TcpStream, status: u16, message: &str) {
    let bytes = json_error(status, message).to_bytes();
    if tokio::time::timeout(WRITE_TIME, stream.write_all(&bytes))
        .await
        .is_ok_and(|r| r.is_ok())
    {
        linger(stream).await;
    }
}

/// Closes after draining what the client still sends, for at most [`LINGER`].
async fn linger(mut stream: TcpStream) {
    let _ = stream.shutdown().await;
    let drain = async {
        let mut chunk = [0u8; 4096];
        let mut drained = 0;
        while drained < LINGER_BYTES {
            match stream.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => drained += n,
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}

/// Tells a connection the server is busy (too many connections open), without
/// waiting for it.
pub(super) fn busy(stream: &TcpStream) {
    let _ = stream.try_write(&json_error(503, "the explorer is busy; try again").to_bytes());
}
