//! `gdvariant edit`: serves the save editor (the library's `editor` module) on loopback and
//! opens it in the browser.

use super::Failure;
use clap::Args;
use gdvariant::editor::Editor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `gdvariant edit`.
#[derive(Args, Debug)]
pub struct EditArgs {
    /// The files to open (saves, `store_var` files, bare values); only these can be read or
    /// written through the page.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The port to listen on (127.0.0.1 only); a free one by default.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Print the address without opening a browser.
    #[arg(long)]
    no_browser: bool,
}

pub fn edit(args: EditArgs) -> Result<(), Failure> {
    let editor = Arc::new(Editor::open(&args.files).map_err(Failure::editor)?);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::io(Path::new("(runtime)"), e))?;
    let result = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port)).await?;
        let url = format!(
            "http://{}/?token={}",
            listener.local_addr()?,
            editor.token()
        );
        println!("{url}");
        if !args.no_browser {
            open_browser(&url);
        }
        editor.serve(listener).await
    });
    result.map_err(|e| Failure::io(Path::new("127.0.0.1"), e))
}

/// Starts the desktop's browser on `url` if there is an opener; without one the printed
/// address is enough, so nothing fails.
fn open_browser(url: &str) {
    for opener in ["xdg-open", "open"] {
        let started = std::process::Command::new(opener)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        if started.is_ok() {
            return;
        }
    }
}
