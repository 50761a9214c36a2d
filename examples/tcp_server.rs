//! A TCP game server for Godot clients: each client sends Variants with `StreamPeerTCP.put_var`
//! (`--framing store-var`) or through a `PacketPeerStream` (`--framing packet-stream`), and gets
//! each back inside a reply Dictionary.
//!
//! ```sh
//! cargo run --example tcp_server -- --godot 4 --framing store-var --port 4242
//! ```
//! Every client runs in its own task: one that sends garbage, a value over 1 MiB, an Object
//! (refused, as `get_var()` refuses them by default) or leaves in the middle of a value is
//! dropped with a line on stderr, and the others carry on.

#[path = "common/mod.rs"]
pub mod common;

use common::{reply, Log, Settings, MAX_VALUE};
use futures_util::{FutureExt, SinkExt, StreamExt};
use gdvariant::codec::{CodecError, VariantCodec};
use gdvariant::Variant;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{FramedRead, FramedWrite};

/// Serves every client that connects to `listener`, for ever.
pub async fn serve(listener: TcpListener, settings: Settings, log: Log) -> std::io::Result<()> {
    common::serve_each(listener, log, move |stream| client(stream, settings)).await
}

/// Answers one client until it leaves; how many values it sent.
async fn client(stream: TcpStream, settings: Settings) -> Result<i64, CodecError> {
    stream.set_nodelay(true)?;
    let (r, w) = stream.into_split();
    // The default decode options refuse full Objects: objects from the network are data a
    // client chose, and in the engine decoding one can run code.
    let codec =
        VariantCodec::new(&gdvariant::Format::new(settings.dialect).framing(settings.framing))
            .with_max_frame(MAX_VALUE);
    let mut values = FramedRead::new(r, codec.clone());
    let mut replies = FramedWrite::new(w, codec);
    let mut seq = 0;
    while let Some(value) = values.next().await {
        seq += 1;
        replies.feed(reply(value?, seq)).await?;
        // Answer every value that has already arrived before writing to the socket: a burst
        // costs one write, not one per value.
        while let Some(Some(value)) = values.next().now_or_never() {
            seq += 1;
            replies.feed(reply(value?, seq)).await?;
        }
        SinkExt::<Variant>::flush(&mut replies).await?;
    }
    Ok(seq)
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> std::io::Result<()> {
    let settings = Settings::from_args(4242).map_err(std::io::Error::other)?;
    let listener = TcpListener::bind(("0.0.0.0", settings.port)).await?;
    eprintln!(
        "listening on {} for {} clients ({})",
        listener.local_addr()?,
        settings.dialect,
        settings.framing
    );
    serve(listener, settings, common::stderr_log()).await
}
