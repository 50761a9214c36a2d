//! A WebSocket game server for Godot clients: each binary message is one Variant, as
//! `WebSocketClient.get_peer(1).put_var` (Godot 3) or `WebSocketPeer.put_var` (Godot 4) sends
//! it, and each gets a reply message.
//!
//! ```sh
//! cargo run --example websocket_server -- --godot 3 --port 4244
//! ```
//! Every client runs in its own task: one that sends a text message, garbage, an Object
//! (refused by default) or leaves in the middle of a message is dropped with a line on stderr,
//! and the others carry on.

#[path = "common/mod.rs"]
pub mod common;

use common::{reply, Log, Settings, MAX_VALUE};
use futures_util::{SinkExt, StreamExt};
use gdvariant::{DecodeOptions, EncodeOptions};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

/// Serves every client that connects to `listener`, for ever.
pub async fn serve(listener: TcpListener, settings: Settings, log: Log) -> std::io::Result<()> {
    common::serve_each(listener, log, move |stream| client(stream, settings)).await
}

/// Answers one client until it leaves; how many values it sent.
async fn client(stream: TcpStream, settings: Settings) -> Result<i64, String> {
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut config = WebSocketConfig::default();
    config.max_message_size = Some(MAX_VALUE);
    config.max_frame_size = Some(MAX_VALUE);
    let mut ws = tokio_tungstenite::accept_async_with_config(stream, Some(config))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    let mut seq = 0;
    while let Some(message) = ws.next().await {
        let bytes = match message.map_err(|e| e.to_string())? {
            Message::Binary(bytes) => bytes,
            Message::Text(_) => {
                return Err("a text message: expected one Variant per binary message".into())
            }
            Message::Close(_) => break,
            // Pings are answered by tungstenite itself.
            _ => continue,
        };
        // The default decode options refuse full Objects.
        let (value, _) = gdvariant::decode(&bytes, settings.dialect, &DecodeOptions::default())
            .map_err(|e| format!("message {}: {e}", seq + 1))?;
        seq += 1;
        let out = gdvariant::encode(
            &reply(value, seq),
            settings.dialect,
            &EncodeOptions::default(),
        )
        .map_err(|e| e.to_string())?;
        ws.send(Message::binary(out))
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(seq)
}

#[allow(dead_code)]
#[tokio::main]
async fn main() -> std::io::Result<()> {
    let settings = Settings::from_args(4244).map_err(std::io::Error::other)?;
    let listener = TcpListener::bind(("0.0.0.0", settings.port)).await?;
    eprintln!(
        "listening on ws://{} for {} clients",
        listener.local_addr()?,
        settings.dialect
    );
    serve(listener, settings, common::stderr_log()).await
}
