//! A UDP game server for Godot clients: each datagram is one Variant, as
//! `PacketPeerUDP.put_var` sends it, and each gets a reply datagram.
//!
//! ```sh
//! cargo run --example udp_server -- --godot 4 --port 4243
//! ```
//! One task serves every client (UDP has no connections). A datagram that is not a value (or
//! holds an Object, refused by default) is dropped with a line on stderr, and its sender's count
//! starts again; the other clients do not notice.

#[path = "common/mod.rs"]
pub mod common;

use common::{reply, Log, Settings};
use gdvariant::{DecodeOptions, EncodeOptions};
use std::collections::HashMap;
use std::net::SocketAddr;
use tokio::net::UdpSocket;

/// Serves every client that sends to `socket`, for ever.
pub async fn serve(socket: UdpSocket, settings: Settings, log: Log) -> std::io::Result<()> {
    let mut seq: HashMap<SocketAddr, i64> = HashMap::new();
    // The largest UDP payload: a datagram is read whole or not at all.
    let mut buf = vec![0; 65536];
    loop {
        let (n, peer) = socket.recv_from(&mut buf).await?;
        let value = match gdvariant::decode(&buf[..n], settings.dialect, &DecodeOptions::default())
        {
            Ok((value, _)) => value,
            Err(e) => {
                log(format!("{peer}: datagram dropped: {e}"));
                seq.remove(&peer);
                continue;
            }
        };
        let n = seq.entry(peer).or_insert(0);
        *n += 1;
        match gdvariant::encode(
            &reply(value, *n),
            settings.dialect,
            &EncodeOptions::default(),
        ) {
            Ok(bytes) => {
                if let Err(e) = socket.send_to(&bytes, peer).await {
                    log(format!("{peer}: reply not sent: {e}"));
                }
            }
            Err(e) => log(format!("{peer}: reply not encoded: {e}")),
        }
    }
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> std::io::Result<()> {
    let settings = Settings::from_args(4243).map_err(std::io::Error::other)?;
    let socket = UdpSocket::bind(("0.0.0.0", settings.port)).await?;
    eprintln!(
        "listening on {} (UDP) for {} clients",
        socket.local_addr()?,
        settings.dialect
    );
    serve(socket, settings, common::stderr_log()).await
}
