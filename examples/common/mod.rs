//! What the game-server examples share: their command line, the reply they send for each value
//! (the transformation a Godot client checks), and their log.
#![allow(dead_code)]

use gdvariant::framing::Framing;
use gdvariant::{Dialect, Dictionary, Variant};
use std::fmt::Display;
use std::future::Future;
use std::sync::Arc;
use tokio::net::{TcpListener, TcpStream};

/// The largest value a server accepts from a client. The engines allow far more (8 MiB for the
/// debugger, 2^31 for `put_var`), but a game server should bound what one client can make it
/// buffer.
pub const MAX_VALUE: usize = 1 << 20;

/// How a server is started.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The clients' engine: Godot 3 and Godot 4 write most types differently.
    pub dialect: Dialect,
    /// TCP only: `store-var` (`StreamPeer.put_var`) or `packet-stream` (`PacketPeerStream`).
    pub framing: Framing,
    /// The port to listen on.
    pub port: u16,
}

impl Settings {
    /// `--godot 3|4`, `--port N` and (TCP) `--framing store-var|packet-stream` from the command
    /// line.
    pub fn from_args(default_port: u16) -> Result<Settings, String> {
        let mut s = Settings {
            dialect: Dialect::Godot4,
            framing: Framing::STORE_VAR,
            port: default_port,
        };
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--godot" => {
                    s.dialect = match value.as_str() {
                        "3" => Dialect::Godot3,
                        "4" => Dialect::Godot4,
                        _ => return Err(format!("--godot {value}: expected 3 or 4")),
                    }
                }
                "--port" => s.port = value.parse().map_err(|e| format!("--port {value}: {e}"))?,
                "--framing" => s.framing = value.parse()?,
                _ => {
                    return Err(format!(
                        "unknown flag {flag}: expected --godot, --port, --framing"
                    ))
                }
            }
        }
        Ok(s)
    }
}

/// The reply to a client's `seq`-th value (from 1): `{"echo": value, "seq": seq, "server":
/// "gdvariant"}`. The Godot clients check all three.
pub fn reply(value: Variant, seq: i64) -> Variant {
    let mut d = Dictionary::new();
    d.insert("echo".into(), value);
    d.insert("seq".into(), seq.into());
    d.insert("server".into(), "gdvariant".into());
    Variant::Dictionary(d)
}

/// Where a server reports clients coming, going and being dropped.
pub type Log = Arc<dyn Fn(String) + Send + Sync>;

/// A log to stderr.
pub fn stderr_log() -> Log {
    Arc::new(|line| eprintln!("{line}"))
}

/// Runs `client` in a task of its own for every connection to `listener`, for ever, and logs
/// how each ended: a client that misbehaves ends only its own task.
pub async fn serve_each<F, Fut, E>(
    listener: TcpListener,
    log: Log,
    client: F,
) -> std::io::Result<()>
where
    F: Fn(TcpStream) -> Fut,
    Fut: Future<Output = Result<i64, E>> + Send + 'static,
    E: Display,
{
    loop {
        let (stream, peer) = listener.accept().await?;
        let log = log.clone();
        let task = client(stream);
        tokio::spawn(async move {
            match task.await {
                Ok(n) => log(format!("{peer}: left after {n} values")),
                Err(e) => log(format!("{peer}: dropped: {e}")),
            }
        });
    }
}
