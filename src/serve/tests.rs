//! The write deadline, through the accepting loop on a listener whose
//! connections have a small send buffer, as over a slow link (on loopback the
//! kernel takes any answer of the explorer at once, so no client could hold
//! a write).

use super::api::State;
use super::http::Shared;
use super::{serve, MAX_CONNECTIONS};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[test]
fn an_answer_not_taken_in_time_is_dropped_while_others_are_served() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(4)
        .build()
        .unwrap();
    rt.block_on(async {
        let state = Arc::new(State::new(&[], Duration::from_millis(100)).unwrap());
        let socket = TcpSocket::new_v4().unwrap();
        socket.set_send_buffer_size(4096).unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let listener = socket.listen(16).unwrap();
        let addr = listener.local_addr().unwrap();
        let mut shared = Shared::new(state, addr.port(), 1);
        shared.write_time = Duration::from_secs(1);
        let shared = Arc::new(shared);
        let stop = Arc::new(AtomicBool::new(false));
        let server = {
            let (shared, stop) = (shared.clone(), stop.clone());
            tokio::spawn(async move { serve(listener, shared, &stop).await })
        };
        let request = |path: &str| {
            format!(
                "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
                addr.port()
            )
        };
        // A client that asks for the script (54 KB) and never reads it.
        let client = TcpSocket::new_v4().unwrap();
        client.set_recv_buffer_size(1024).unwrap();
        let mut stalled = client.connect(addr).await.unwrap();
        stalled
            .write_all(request("/app.js").as_bytes())
            .await
            .unwrap();
        let t = Instant::now();
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            shared.slots.available_permits(),
            MAX_CONNECTIONS - 1,
            "the answer is being written"
        );
        // Meanwhile another client is answered.
        let mut other = TcpStream::connect(addr).await.unwrap();
        other
            .write_all(request("/api/presets").as_bytes())
            .await
            .unwrap();
        let mut answer = Vec::new();
        tokio::time::timeout(Duration::from_secs(2), other.read_to_end(&mut answer))
            .await
            .expect("answered meanwhile")
            .unwrap();
        assert!(answer.starts_with(b"HTTP/1.1 200"));
        drop(other);
        // At the deadline the stalled connection is dropped: every slot is free.
        while shared.slots.available_permits() < MAX_CONNECTIONS {
            assert!(
                t.elapsed() < Duration::from_secs(5),
                "a connection is still held after {:?}",
                t.elapsed()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(
            t.elapsed() >= Duration::from_millis(900),
            "{:?}",
            t.elapsed()
        );
        // With a reset: the client never gets the rest of the script.
        let mut got = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(5), stalled.read_to_end(&mut got))
            .await
            .expect("the connection is closed");
        assert!(
            read.is_err() || got.len() < 54_000,
            "{read:?}: {}",
            got.len()
        );
        stop.store(true, Ordering::SeqCst);
        assert!(!server.await.unwrap(), "nothing panicked");
    });
}
