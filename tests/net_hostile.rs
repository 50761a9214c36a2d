//! The game-server examples under hostile clients: garbage, an Object, an over-limit length, a
//! truncated value and a disconnect in the middle of a frame each get that client dropped with a
//! log line, while a well-behaved client connected all along keeps getting its replies.

#[path = "live/examples.rs"]
mod examples;

use examples::{tcp_server, udp_server, websocket_server};

use futures_util::{SinkExt, StreamExt};
use gdvariant::codec::VariantCodec;
use gdvariant::framing::Framing;
use gdvariant::math::Vector2;
use gdvariant::{DecodeOptions, Dialect, Dictionary, EncodeOptions, Variant};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};
use tokio::time::timeout;
use tokio_util::codec::Framed;

const PATIENCE: Duration = Duration::from_secs(10);

/// A player state, the shape of value a game sends.
fn state(i: i64) -> Variant {
    let mut d = Dictionary::new();
    d.insert("id".into(), 7.into());
    d.insert(
        "pos".into(),
        Vector2 {
            x: i as f64,
            y: 2.5,
        }
        .into(),
    );
    d.insert("hp".into(), (100 - i).into());
    Variant::Dictionary(d)
}

/// What a server replies to the `seq`-th value.
fn expected(i: i64, seq: i64) -> Variant {
    tcp_server::common::reply(state(i), seq)
}

/// Sends the states numbered `range` through `conn` and checks each reply (`seq` = number + 1).
async fn round_trips<C, T, E>(
    conn: &mut C,
    range: std::ops::Range<i64>,
    to: impl Fn(Variant) -> T,
    from: impl Fn(T) -> Variant,
) where
    C: futures_util::Sink<T> + futures_util::Stream<Item = Result<T, E>> + Unpin,
    <C as futures_util::Sink<T>>::Error: std::fmt::Debug,
    E: std::fmt::Debug,
{
    for i in range {
        conn.send(to(state(i))).await.unwrap();
        let got = timeout(PATIENCE, conn.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        assert_eq!(from(got), expected(i, i + 1));
    }
}

/// A log that tests can read.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<String>>>);

impl Lines {
    fn log(&self) -> Arc<dyn Fn(String) + Send + Sync> {
        let me = self.0.clone();
        Arc::new(move |l| me.lock().unwrap().push(l))
    }

    /// Waits until `n` lines contain `text`.
    async fn wait_for(&self, text: &str, n: usize) {
        let end = tokio::time::Instant::now() + PATIENCE;
        while self.count(text) < n {
            assert!(
                tokio::time::Instant::now() < end,
                "wanted {n} log lines with {text:?}: {:#?}",
                self.0.lock().unwrap()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn count(&self, text: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(text))
            .count()
    }
}

/// The settings of one example (each example has its own copy of the type).
macro_rules! settings {
    ($example:ident, $dialect:expr, $framing:expr) => {
        $example::common::Settings {
            dialect: $dialect,
            framing: $framing,
            port: 0,
        }
    };
}

fn frame(v: &Variant, dialect: Dialect, framing: Framing) -> Vec<u8> {
    let mut out = Vec::new();
    gdvariant::framing::frame_into(
        &mut out,
        v,
        &gdvariant::Format {
            dialect,
            framing,
            decode: Default::default(),
            encode: EncodeOptions::default().clone(),
        },
    )
    .unwrap();
    out
}

/// A full Object (`Node` with no properties), which a server must refuse: header, class name,
/// property count 0.
fn object(dialect: Dialect) -> Vec<u8> {
    let ty: u8 = if dialect == Dialect::Godot3 { 17 } else { 24 };
    vec![ty, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e', 0, 0, 0, 0]
}

/// A client that sends `bytes` and expects the server to close the connection.
async fn hostile_tcp(port: u16, bytes: &[u8], close_after: bool) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    s.write_all(bytes).await.unwrap();
    if close_after {
        return; // dropped: the server sees the end in the middle of a frame
    }
    let mut buf = [0u8; 64];
    let n = timeout(PATIENCE, s.read(&mut buf))
        .await
        .expect("the server should close a hostile client")
        .unwrap_or(0);
    assert_eq!(n, 0, "a hostile client got a reply");
}

async fn tcp_case(dialect: Dialect, framing: Framing) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let lines = Lines::default();
    let server = tokio::spawn(tcp_server::serve(
        listener,
        settings!(tcp_server, dialect, framing),
        lines.log(),
    ));
    let codec = VariantCodec::new(&gdvariant::Format::new(dialect).framing(framing));
    let mut good = Framed::new(
        TcpStream::connect(("127.0.0.1", port)).await.unwrap(),
        codec,
    );
    round_trips(&mut good, 0..3, |v| v, |v| v).await;
    hostile_tcp(port, &[8, 0, 0, 0, 99, 0, 0, 0, 1, 2, 3, 4], false).await;
    let mut obj = (object(dialect).len() as u32).to_le_bytes().to_vec();
    obj.extend(object(dialect));
    hostile_tcp(port, &obj, false).await;
    hostile_tcp(port, &[0xff, 0xff, 0xff, 0x7f, 1, 2], false).await;
    let whole = frame(&state(9), dialect, framing);
    hostile_tcp(port, &whole[..whole.len() - 3], true).await;
    lines.wait_for("dropped", 4).await;
    assert_eq!(lines.count("exceeds the limit"), 1);
    assert_eq!(lines.count("inside a frame"), 1);
    // The good client carries on.
    round_trips(&mut good, 3..6, |v| v, |v| v).await;
    drop(good);
    lines.wait_for("left after 6 values", 1).await;
    server.abort();
}

#[tokio::test]
async fn tcp_store_var_godot4() {
    tcp_case(Dialect::Godot4, Framing::STORE_VAR).await;
}

#[tokio::test]
async fn tcp_store_var_godot3() {
    tcp_case(Dialect::Godot3, Framing::STORE_VAR).await;
}

#[tokio::test]
async fn tcp_packet_stream_godot4() {
    tcp_case(Dialect::Godot4, Framing::PacketStream).await;
}

#[tokio::test]
async fn tcp_packet_stream_godot3() {
    tcp_case(Dialect::Godot3, Framing::PacketStream).await;
}

async fn udp_exchange(sock: &UdpSocket, dialect: Dialect, i: i64, seq: i64) {
    let bytes = gdvariant::encode(&state(i), dialect, &EncodeOptions::default()).unwrap();
    sock.send(&bytes).await.unwrap();
    let mut buf = vec![0; 65536];
    let n = timeout(PATIENCE, sock.recv(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let (got, _) = gdvariant::decode(&buf[..n], dialect, &DecodeOptions::default()).unwrap();
    assert_eq!(got, expected(i, seq));
}

async fn udp_case(dialect: Dialect) {
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = socket.local_addr().unwrap();
    let lines = Lines::default();
    let server = tokio::spawn(udp_server::serve(
        socket,
        settings!(udp_server, dialect, Framing::Bare),
        lines.log(),
    ));
    let good = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    good.connect(addr).await.unwrap();
    let bad = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    bad.connect(addr).await.unwrap();
    udp_exchange(&good, dialect, 0, 1).await;
    udp_exchange(&bad, dialect, 0, 1).await;
    udp_exchange(&bad, dialect, 1, 2).await;
    let whole = gdvariant::encode(&state(5), dialect, &EncodeOptions::default()).unwrap();
    for datagram in [
        vec![99, 0, 0, 0],
        object(dialect),
        whole[..whole.len() - 3].to_vec(),
        Vec::new(),
    ] {
        bad.send(&datagram).await.unwrap();
    }
    lines.wait_for("datagram dropped", 4).await;
    // The hostile sender's count started again; the good one's did not.
    udp_exchange(&bad, dialect, 2, 1).await;
    udp_exchange(&good, dialect, 1, 2).await;
    server.abort();
}

#[tokio::test]
async fn udp_godot4() {
    udp_case(Dialect::Godot4).await;
}

#[tokio::test]
async fn udp_godot3() {
    udp_case(Dialect::Godot3).await;
}

async fn ws_case(dialect: Dialect) {
    use tokio_tungstenite::tungstenite::Message;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let lines = Lines::default();
    let server = tokio::spawn(websocket_server::serve(
        listener,
        settings!(websocket_server, dialect, Framing::Bare),
        lines.log(),
    ));
    let url = format!("ws://127.0.0.1:{port}");
    let (mut good, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let to = |v: Variant| {
        Message::binary(gdvariant::encode(&v, dialect, &EncodeOptions::default()).unwrap())
    };
    let from = |m: Message| {
        let Message::Binary(b) = m else {
            panic!("not binary: {m:?}")
        };
        gdvariant::decode(&b, dialect, &DecodeOptions::default())
            .unwrap()
            .0
    };
    round_trips(&mut good, 0..3, to, from).await;
    // Text, garbage and an Object: each such client is closed.
    for m in [
        Message::text("hello"),
        Message::binary(vec![99, 0, 0, 0]),
        Message::binary(object(dialect)),
    ] {
        let (mut bad, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        bad.send(m).await.unwrap();
        let end = timeout(PATIENCE, bad.next()).await.expect("closed");
        assert!(!matches!(end, Some(Ok(Message::Binary(_)))), "{end:?}");
    }
    // A broken handshake, and a client that leaves inside a frame (a masked binary frame that
    // announces 256 bytes and brings 10).
    let mut half = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    drop(half);
    let mut raw = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    raw.write_all(
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
          Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
    )
    .await
    .unwrap();
    let mut buf = [0u8; 512];
    let n = timeout(PATIENCE, raw.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 101"));
    raw.write_all(&[0x82, 0xfe, 1, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        .await
        .unwrap();
    drop(raw);
    lines.wait_for("dropped", 5).await;
    assert_eq!(lines.count("a text message"), 1);
    assert_eq!(lines.count("dropped: handshake"), 1);
    round_trips(&mut good, 3..6, to, from).await;
    server.abort();
}

#[tokio::test]
async fn websocket_godot4() {
    ws_case(Dialect::Godot4).await;
}

#[tokio::test]
async fn websocket_godot3() {
    ws_case(Dialect::Godot3).await;
}
