//! An echo server for Godot 4 clients: every value a `StreamPeerTCP.put_var` sends comes back.
//!
//! `cargo run --example echo_server`, then from Godot: `peer.connect_to_host("127.0.0.1", 4242)`,
//! `peer.put_var({"hello": 1})`, and `peer.get_var()` gives it back.
use futures_util::{SinkExt, StreamExt};
use gdvariant::codec::VariantCodec;
use gdvariant::framing::Framing;
use gdvariant::Format;
use tokio::net::TcpListener;
use tokio_util::codec::Framed;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let listener = TcpListener::bind("127.0.0.1:4242").await?;
    // `put_var` writes a length, then the value.
    let format = Format::godot4().framing(Framing::STORE_VAR);
    loop {
        let (socket, peer) = listener.accept().await?;
        let mut framed = Framed::new(socket, VariantCodec::new(&format));
        tokio::spawn(async move {
            while let Some(message) = framed.next().await {
                match message {
                    Ok(value) => {
                        if framed.send(value).await.is_err() {
                            break;
                        }
                    }
                    // Hostile or broken bytes: say where, and drop the client.
                    Err(e) => return eprintln!("{peer}: {e}"),
                }
            }
        });
    }
}
