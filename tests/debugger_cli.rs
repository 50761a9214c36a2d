//! `gdvariant debug listen` as a user runs it: with a real Godot 3.2.3 game (output, error,
//! tree, inspect, set, break, continue, all typed on stdin), and with a hostile "game" whose
//! garbage costs one message each, never the session.

#[path = "live/support.rs"]
mod live;

use gdvariant::framing::{frame_into, Framing};
use gdvariant::{Array, Dialect, EncodeOptions, Variant};
use live::{remote_debug_args, Engine, Project};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(20);

/// The CLI, its stdin, and its stdout and stderr lines as they come.
struct Cli {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(bool, String)>,
    seen: Vec<(bool, String)>,
}

impl Cli {
    fn listen(extra: &[&str]) -> Cli {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
            .args(["debug", "listen", "--port", "0"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start gdvariant");
        let (tx, lines) = channel();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        for (is_err, pipe) in [
            (false, Box::new(out) as Box<dyn std::io::Read + Send>),
            (true, Box::new(err)),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    let _ = tx.send((is_err, line));
                }
            });
        }
        let stdin = child.stdin.take();
        Cli {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a line (stdout, or stderr with `on_stderr`) that satisfies `want`.
    fn wait(&mut self, on_stderr: bool, want: impl Fn(&str) -> bool) -> String {
        let end = Instant::now() + PATIENCE;
        if let Some((_, l)) = self.seen.iter().find(|(e, l)| *e == on_stderr && want(l)) {
            return l.clone();
        }
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok((e, l)) => {
                    self.seen.push((e, l.clone()));
                    if e == on_stderr && want(&l) {
                        return l;
                    }
                }
                Err(_) => panic!("no such line; seen: {:#?}", self.seen),
            }
        }
    }

    fn port(&mut self) -> u16 {
        let l = self.wait(true, |l| l.contains("listening on "));
        let addr = l.split("listening on ").nth(1).unwrap();
        let addr = addr.split(';').next().unwrap();
        addr.rsplit(':').next().unwrap().parse().unwrap()
    }

    fn type_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Waits for the command to exit, then for the rest of its output (stdout and stderr are
    /// read by two threads, so their lines may arrive in any order).
    fn exit_code(&mut self) -> Option<i32> {
        let end = Instant::now() + PATIENCE;
        while Instant::now() < end {
            if let Ok(Some(s)) = self.child.try_wait() {
                // Both pipes closed: the readers end and the channel disconnects.
                while let Ok(line) = self.lines.recv_timeout(PATIENCE) {
                    self.seen.push(line);
                }
                return s.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Cli {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn godot3_game_driven_from_the_command_line() {
    let engine = Engine::Godot3;
    let Some(bin) = engine.binary() else { return };
    let script = include_str!("live/debugger/game3.gd");
    let project = Project::new(engine, &[("game.gd", script)]);
    let mut cli = Cli::listen(&[]);
    let port = cli.port();
    let mut game = project.run(engine, &bin, "game.gd", &remote_debug_args(engine, port));

    cli.wait(false, |l| l == "[output] game: ready");
    cli.wait(false, |l| {
        l.starts_with("[error] game: something went wrong")
    });
    cli.type_line("tree");
    let probe = cli.wait(false, |l| l.trim_start().starts_with("Probe (Node) #"));
    let id = probe.rsplit('#').next().unwrap().to_string();
    cli.type_line(&format!("inspect {id}"));
    cli.wait(false, |l| l.trim() == "Members/value = 0");
    cli.type_line(&format!("set {id} value 42"));
    cli.wait(false, |l| l == "[output] game: value=42");
    cli.type_line("break");
    cli.wait(false, |l| l == "[break] paused");
    cli.type_line("continue");
    cli.wait(false, |l| l == "[continue]");
    // A mistyped command is an error on stderr, and the session goes on.
    cli.type_line("set 1 value Vector2(");
    cli.wait(true, |l| {
        l.starts_with("gdvariant: error: the value `Vector2(`")
    });
    cli.type_line(&format!("set {id} value 1000"));
    cli.wait(false, |l| l == "[output] game: value=1000");
    cli.wait(true, |l| l.contains("the game disconnected"));
    assert_eq!(cli.exit_code(), Some(0));
    assert_eq!(game.wait(PATIENCE), Some(0), "{}", game.output());
}

fn frame(v: &Variant, out: &mut Vec<u8>) {
    frame_into(
        out,
        v,
        &gdvariant::Format {
            dialect: Dialect::Godot4,
            framing: Framing::PacketStream,
            decode: Default::default(),
            encode: EncodeOptions::default().clone(),
        },
    )
    .unwrap();
}

fn message(name: &str, args: Vec<Variant>) -> Variant {
    Variant::Array(Array::new(vec![
        name.into(),
        1.into(),
        Variant::Array(Array::new(args)),
    ]))
}

#[test]
fn hostile_frames_cost_one_message_each() {
    let mut cli = Cli::listen(&["--format", "json"]);
    let port = cli.port();
    let mut wire = Vec::new();
    frame(&message("set_pid", vec![42.into()]), &mut wire);
    // An undecodable frame (type id 99), a frame that is not an Array, a known message with
    // the wrong shape, a full object (refused), then a good message after each.
    wire.extend_from_slice(&[4, 0, 0, 0, 99, 0, 0, 0]);
    frame(&message("debug_exit", vec![]), &mut wire);
    frame(&Variant::Int(7), &mut wire);
    frame(&message("stack_dump", vec![5.into()]), &mut wire);
    wire.extend_from_slice(&[12, 0, 0, 0, 24, 0, 0, 0, 4, 0, 0, 0, b'N', b'o', b'd', b'e']);
    frame(&message("unheard_of:thing", vec!["kept".into()]), &mut wire);
    // A length prefix over the 8 MiB limit, then the game leaves in the middle of a frame.
    wire.extend_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
    frame(&message("debug_exit", vec![]), &mut wire);
    wire.extend_from_slice(&[64, 0, 0, 0, 28, 0]);
    let mut game = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    game.write_all(&wire).unwrap();
    drop(game);

    cli.wait(true, |l| l.contains("the game disconnected"));
    assert_eq!(cli.exit_code(), Some(0));
    let out: Vec<&str> = cli
        .seen
        .iter()
        .filter(|(e, _)| !e)
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(
        out,
        [
            r#"{"pid":42,"type":"set_pid"}"#,
            r#"{"type":"debug_exit"}"#,
            r#"{"args":["\"kept\""],"name":"unheard_of:thing","thread":1,"type":"custom"}"#,
            r#"{"type":"debug_exit"}"#,
        ]
    );
    let errors: Vec<&str> = cli
        .seen
        .iter()
        .filter(|(e, l)| *e && l.contains("bad message"))
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(errors.len(), 6, "{errors:#?}");
    for (e, want) in errors.iter().zip([
        "does not decode",
        "expected an Array, got int 7",
        "`stack_dump`",
        "does not decode",
        "over the 8388608-byte limit",
        "closed inside a frame",
    ]) {
        assert!(e.contains(want), "{e:?} lacks {want:?}");
        assert!(e.contains("(at offset 0x"), "{e:?} has no offset");
    }
}
