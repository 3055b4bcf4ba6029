//! One connection: hyper reads the request head and writes the answer; this
//! module keeps the deadlines. The head must arrive within [`HEAD_TIME`] of
//! the connection, else 408, written here on the socket taken back from hyper
//! (`into_parts`). The answer must be taken within the write deadline
//! ([`Shared::write_time`]), else the connection is reset. Hyper answers a head
//! it cannot parse itself (a bare 400 or 431).

use super::http::{busy, json_error, Handler, Phase, Shared, HEAD_TIME};
use std::future::{poll_fn, Future};
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// Bytes read from the socket at once.
const CHUNK: usize = 8 * 1024;
/// After answering, how long unread input is drained before closing (closing
/// with unread input resets the connection, and the client may lose the answer).
const LINGER: Duration = Duration::from_millis(200);
/// Most bytes drained after answering.
const LINGER_BYTES: usize = 64 * 1024;
/// Time a client beyond the connection limit has to take its 503.
const BUSY_WRITE: Duration = Duration::from_secs(1);

/// The socket as hyper's traits see it.
struct Io(TcpStream);

impl hyper::rt::Read for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        mut buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        // Through a buffer of our own: filling hyper's in place takes `unsafe`.
        let mut chunk = [0u8; CHUNK];
        let n = buf.remaining().min(CHUNK);
        let mut rb = ReadBuf::new(&mut chunk[..n]);
        ready!(Pin::new(&mut self.get_mut().0).poll_read(cx, &mut rb))?;
        buf.put_slice(rb.filled());
        Poll::Ready(Ok(()))
    }
}

impl hyper::rt::Write for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().0).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().0).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.0.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().0).poll_shutdown(cx)
    }
}

/// Serves one connection (one request) to its end.
pub(super) async fn serve_connection(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let phase = Arc::new(Phase::default());
    let mut conn = shared
        .http
        .serve_connection(Io(stream), Handler::new(shared.clone(), phase.clone()));
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
    // Taking the socket back drops hyper's state, and with it an answer still
    // being computed (a search stops).
    let stream = conn.into_parts().io.0;
    match end {
        // Answered, refused by hyper, or the client left.
        Some(_) => linger(stream).await,
        None if !phase.head_done() => {
            let message = format!(
                "the request head did not arrive within {} s",
                HEAD_TIME.as_secs()
            );
            reply(stream, &json_error(408, &message).to_bytes(), HEAD_TIME).await;
        }
        // The answer was not taken in time: a reset, so that the kernel does
        // not go on holding it either.
        None => {
            let _ = stream.set_zero_linger();
        }
    }
}

/// Writes an answer without hyper (within `time`), then closes as [`linger`] does.
async fn reply(mut stream: TcpStream, bytes: &[u8], time: Duration) {
    if tokio::time::timeout(time, stream.write_all(bytes))
        .await
        .is_ok_and(|r| r.is_ok())
    {
        linger(stream).await;
    }
}

/// Closes after draining what the client still sends, for at most [`LINGER`]:
/// the client reads the whole answer and the end of the stream, not a reset.
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

/// Tells a connection beyond the limit that the server is busy: the whole
/// 503, then a close that does not reset what the client sent meanwhile.
pub(super) async fn refuse(stream: TcpStream) {
    reply(stream, &busy().to_bytes(), BUSY_WRITE).await;
}
