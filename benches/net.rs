//! Throughput of the TCP game-server example (examples/tcp_server.rs) on loopback: N clients at
//! once, each sending a burst of Godot-shaped messages (a player state Dictionary, Godot 4,
//! `StreamPeer.put_var` framing) and reading every reply.
//!
//! `cargo bench --bench net`: `messages/N` reports messages per second (one message = one value
//! sent and its reply read), `bytes/N` the bytes per second both ways.
#[allow(dead_code)]
#[path = "../examples/tcp_server.rs"]
mod tcp_server;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use futures_util::{SinkExt, StreamExt};
use gdvariant::codec::VariantCodec;
use gdvariant::framing::Framing;
use gdvariant::math::Vector2;
use gdvariant::{Array, Dialect, Dictionary, EncodeOptions, Variant};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

/// Messages each client sends per round before reading the replies (they fit the socket
/// buffers, so a client never waits on its own unread replies).
const BURST: usize = 64;

/// The state a game client sends every tick.
fn player_state() -> Variant {
    let mut d = Dictionary::new();
    d.insert("id".into(), 7.into());
    d.insert("name".into(), "player7".into());
    d.insert(
        "pos".into(),
        Vector2 {
            x: 120.5,
            y: -33.25,
        }
        .into(),
    );
    d.insert("vel".into(), Vector2 { x: 1.5, y: 0.0 }.into());
    d.insert("hp".into(), 87.into());
    d.insert("alive".into(), true.into());
    d.insert(
        "inventory".into(),
        Variant::Array(Array::new(vec![
            "sword".into(),
            "shield".into(),
            "potion".into(),
        ])),
    );
    Variant::Dictionary(d)
}

type Client = Framed<TcpStream, VariantCodec>;

/// One round: every client sends a burst and reads its replies, all at once.
async fn round(clients: &mut [Client], msg: &Variant) {
    let each = clients.iter_mut().map(|c| async move {
        for _ in 0..BURST {
            c.feed(msg).await.unwrap();
        }
        SinkExt::<&Variant>::flush(c).await.unwrap();
        for _ in 0..BURST {
            c.next().await.unwrap().unwrap();
        }
    });
    futures_util::future::join_all(each).await;
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let settings = tcp_server::common::Settings {
        dialect: Dialect::Godot4,
        framing: Framing::STORE_VAR,
        port: 0,
    };
    let listener = rt.block_on(TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    rt.spawn(tcp_server::serve(
        listener,
        settings,
        std::sync::Arc::new(|_| {}),
    ));

    let msg = player_state();
    let encode = |v: &Variant| gdvariant::encode(v, Dialect::Godot4, &EncodeOptions::default());
    let sent = 4 + encode(&msg).unwrap().len();
    let replied = 4 + encode(&tcp_server::common::reply(msg.clone(), 1))
        .unwrap()
        .len();
    eprintln!("one message: {sent} bytes sent, {replied} bytes in its reply");

    for unit in ["messages", "bytes"] {
        let mut group = c.benchmark_group(unit);
        group.measurement_time(Duration::from_secs(4));
        group.warm_up_time(Duration::from_secs(1));
        for n in [1usize, 4, 16] {
            let per_round = (n * BURST) as u64;
            group.throughput(match unit {
                "messages" => Throughput::Elements(per_round),
                _ => Throughput::Bytes(per_round * (sent + replied) as u64),
            });
            let mut clients: Vec<Client> = rt.block_on(async {
                let mut v = Vec::new();
                for _ in 0..n {
                    let s = TcpStream::connect(addr).await.unwrap();
                    s.set_nodelay(true).unwrap();
                    v.push(Framed::new(
                        s,
                        VariantCodec::new(
                            &gdvariant::Format::new(Dialect::Godot4).framing(Framing::STORE_VAR),
                        ),
                    ));
                }
                v
            });
            group.bench_function(BenchmarkId::from_parameter(format!("{n}_clients")), |b| {
                b.iter_custom(|rounds| {
                    rt.block_on(async {
                        let start = Instant::now();
                        for _ in 0..rounds {
                            round(&mut clients, &msg).await;
                        }
                        start.elapsed()
                    })
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
