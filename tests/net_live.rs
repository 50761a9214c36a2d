//! The game-server examples with real Godot clients (tests/live/net/client3.gd, client4.gd):
//! three engines at once per server send player states with `StreamPeerTCP.put_var`,
//! `PacketPeerStream`, `PacketPeerUDP.put_var` and (Godot 3 only: the headless Godot 4 builds
//! have no WebSocket module) `WebSocketClient`, check every reply and print the verdict, while a
//! hostile client sends garbage to the same server.

#[path = "live/examples.rs"]
mod examples;
#[path = "live/support.rs"]
mod live;

use examples::{tcp_server, udp_server, websocket_server};

use gdvariant::framing::Framing;
use gdvariant::Dialect;
use live::{Engine, Project};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream, UdpSocket};

/// Godot clients per server, all running at once.
const CLIENTS: usize = 3;
/// Values each client sends.
const COUNT: usize = 20;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    StoreVar,
    PacketStream,
    Udp,
    WebSocket,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::StoreVar => "store_var",
            Mode::PacketStream => "packet_stream",
            Mode::Udp => "udp",
            Mode::WebSocket => "ws",
        }
    }
}

type Lines = Arc<Mutex<Vec<String>>>;

/// Starts the example server for `mode` on a free port; its port and its log.
async fn start(mode: Mode, dialect: Dialect) -> (u16, Lines, tokio::task::JoinHandle<()>) {
    let lines: Lines = Arc::default();
    let sink = lines.clone();
    let log: Arc<dyn Fn(String) + Send + Sync> = Arc::new(move |l| sink.lock().unwrap().push(l));
    if mode == Mode::Udp {
        let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let port = socket.local_addr().unwrap().port();
        let settings = udp_server::common::Settings {
            dialect,
            framing: Framing::Bare,
            port,
        };
        let task = tokio::spawn(async move {
            udp_server::serve(socket, settings, log).await.unwrap();
        });
        return (port, lines, task);
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let task = match mode {
        Mode::WebSocket => {
            let settings = websocket_server::common::Settings {
                dialect,
                framing: Framing::Bare,
                port,
            };
            tokio::spawn(async move {
                websocket_server::serve(listener, settings, log)
                    .await
                    .unwrap();
            })
        }
        _ => {
            let framing = if mode == Mode::StoreVar {
                Framing::STORE_VAR
            } else {
                Framing::PacketStream
            };
            let settings = tcp_server::common::Settings {
                dialect,
                framing,
                port,
            };
            tokio::spawn(async move {
                tcp_server::serve(listener, settings, log).await.unwrap();
            })
        }
    };
    (port, lines, task)
}

async fn godot_clients(engine: Engine, mode: Mode) {
    let Some(bin) = engine.binary() else { return };
    let (dialect, name, script) = if engine.is_godot3() {
        (
            Dialect::Godot3,
            "client3.gd",
            include_str!("live/net/client3.gd"),
        )
    } else {
        (
            Dialect::Godot4,
            "client4.gd",
            include_str!("live/net/client4.gd"),
        )
    };
    let (port, lines, server) = start(mode, dialect).await;
    let project = Project::new(engine, &[(name, script)]);
    let mut games: Vec<_> = (1..=CLIENTS)
        .map(|c| {
            let env = [
                ("NET_CLIENT", c.to_string()),
                ("NET_PORT", port.to_string()),
                ("NET_MODE", mode.name().to_string()),
                ("NET_COUNT", COUNT.to_string()),
            ];
            project.run_with_env(engine, &bin, name, &[], &env)
        })
        .collect();
    // A hostile client on the same server while the engines talk to it.
    if mode == Mode::Udp {
        let bad = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        bad.send_to(&[99, 0, 0, 0], ("127.0.0.1", port))
            .await
            .unwrap();
    } else {
        let mut bad = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let garbage: &[u8] = if mode == Mode::WebSocket {
            b"GET / HTTP/1.1\r\nHost: nowhere\r\n\r\n"
        } else {
            &[8, 0, 0, 0, 99, 0, 0, 0, 1, 2, 3, 4]
        };
        bad.write_all(garbage).await.unwrap();
        let mut buf = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), bad.read_to_end(&mut buf)).await;
    }
    let games_done = tokio::task::spawn_blocking(move || {
        for g in &mut games {
            let code = g.wait(Duration::from_secs(40));
            assert_eq!(code, Some(0), "{}", g.output());
        }
        games
    });
    let games = games_done.await.unwrap();
    for (i, g) in games.iter().enumerate() {
        let want = format!("client {}: ok {COUNT}", i + 1);
        assert!(
            g.stdout().lines().any(|l| l == want),
            "{engine:?} {}: no {want:?}\n{}\nserver log: {:#?}",
            mode.name(),
            g.output(),
            lines.lock().unwrap()
        );
    }
    let log = lines.lock().unwrap().clone();
    let dropped = log.iter().filter(|l| l.contains("dropped")).count();
    assert_eq!(dropped, 1, "{log:#?}");
    server.abort();
}

macro_rules! live_tests {
    ($($test:ident: $engine:expr, $mode:expr;)*) => {$(
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $test() {
            godot_clients($engine, $mode).await;
        }
    )*};
}

live_tests! {
    godot3_tcp_store_var: Engine::Godot3, Mode::StoreVar;
    godot3_tcp_packet_stream: Engine::Godot3, Mode::PacketStream;
    godot3_udp: Engine::Godot3, Mode::Udp;
    godot3_websocket: Engine::Godot3, Mode::WebSocket;
    godot4_3_tcp_store_var: Engine::Godot4_3, Mode::StoreVar;
    godot4_3_tcp_packet_stream: Engine::Godot4_3, Mode::PacketStream;
    godot4_3_udp: Engine::Godot4_3, Mode::Udp;
    godot4_4_tcp_store_var: Engine::Godot4_4, Mode::StoreVar;
    godot4_4_tcp_packet_stream: Engine::Godot4_4, Mode::PacketStream;
    godot4_4_udp: Engine::Godot4_4, Mode::Udp;
}
