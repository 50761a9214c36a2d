//! `gdvariant debug`: a command-line debugger for running Godot games (listen, print every
//! message, take commands on stdin) and the replay of a recorded session.

use super::Failure;
use clap::{Args, Subcommand, ValueEnum};
use gdvariant::debugger::{
    Command, Message, MessageError, OutputKind, Protocol, RawMessage, SceneNode, Session, VarScope,
    DEFAULT_PORT,
};
use gdvariant::{Dialect, Variant};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::TcpListener;

/// `gdvariant debug …`
#[derive(Args, Debug)]
pub struct DebugArgs {
    #[command(subcommand)]
    action: DebugAction,
}

#[derive(Subcommand, Debug)]
enum DebugAction {
    /// Wait for a game started with `--remote-debug`, print its messages as they arrive and
    /// send the commands typed on stdin (`help` lists them).
    Listen(ListenArgs),
    /// Print the messages of a session recorded with `listen --record`.
    Replay(ReplayArgs),
}

#[derive(Args, Debug)]
struct ListenArgs {
    /// The address to listen on (the Godot 4 editor's default is 127.0.0.1).
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The port (the editors' default is 6007; 0 picks a free one and prints it).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    #[command(flatten)]
    show: ShowArgs,
    /// Save the raw session (both directions) to FILE for `gdvariant debug replay`.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct ReplayArgs {
    /// A capture file written by `listen --record`.
    file: PathBuf,
    #[command(flatten)]
    show: ShowArgs,
}

#[derive(Args, Debug, Clone, Copy)]
struct ShowArgs {
    /// How messages are printed: readable text, or JSON Lines (one object a message).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The game's engine generation; `auto` tells it from the game's first message.
    #[arg(long, value_enum, default_value = "auto")]
    protocol: ProtocolArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Readable text.
    Text,
    /// JSON Lines; values are in Godot's text form.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ProtocolArg {
    /// Tell from the first message.
    Auto,
    /// Godot 3.x.
    Godot3,
    /// Godot 4.x.
    Godot4,
}

impl ProtocolArg {
    fn get(self) -> Option<Protocol> {
        match self {
            ProtocolArg::Auto => None,
            ProtocolArg::Godot3 => Some(Protocol::Godot3),
            ProtocolArg::Godot4 => Some(Protocol::Godot4),
        }
    }
}

/// Runs `gdvariant debug`.
pub fn debug(args: DebugArgs) -> Result<(), Failure> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::data(format!("cannot start the async runtime: {e}")))?;
    let result = rt.block_on(async {
        match args.action {
            DebugAction::Listen(a) => listen(a).await,
            DebugAction::Replay(a) => replay(a).await,
        }
    });
    // tokio reads stdin on a blocking thread that only a new line would wake; waiting for it
    // would keep the command alive after the game has gone.
    rt.shutdown_background();
    result
}

const HELP: &str = "commands: tree | inspect ID | set ID PROPERTY VALUE (Godot text form) | break | continue | step | next | stack | vars [FRAME] | breakpoint PATH LINE [off] | quit";

async fn listen(a: ListenArgs) -> Result<(), Failure> {
    let listener = TcpListener::bind((a.host.as_str(), a.port))
        .await
        .map_err(|e| Failure::usage(format!("cannot listen on {}:{}: {e}", a.host, a.port)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::data(e.to_string()))?;
    eprintln!(
        "gdvariant: listening on {addr}; start the game with --remote-debug {addr} (Godot 3) or --remote-debug tcp://{addr} (Godot 4)"
    );
    let mut session = Session::accept(&listener, a.show.protocol.get())
        .await
        .map_err(|e| Failure::data(format!("accepting the game's connection: {e}")))?;
    if let Some(path) = &a.record {
        session.record(path).map_err(|e| Failure::io(path, e))?;
    }
    match session.peer() {
        Some(peer) => eprintln!("gdvariant: game connected from {peer}; {HELP}"),
        None => eprintln!("gdvariant: game connected; {HELP}"),
    }
    let mut stdin = BufReader::new(tokio::io::stdin()).lines();
    let mut stdin_open = true;
    loop {
        tokio::select! {
            event = session.next() => match event {
                Some(event) => show(&event, session.protocol(), a.show.format)?,
                None => {
                    eprintln!("gdvariant: the game disconnected");
                    return Ok(());
                }
            },
            line = stdin.next_line(), if stdin_open => match line {
                Ok(Some(line)) => {
                    let line = line.trim();
                    if line == "quit" {
                        return Ok(());
                    }
                    if line.is_empty() {
                        continue;
                    }
                    match parse_command(line, session.protocol()) {
                        Ok(None) => eprintln!("gdvariant: {HELP}"),
                        Ok(Some(c)) => {
                            if let Err(e) = session.send(&c).await {
                                eprintln!("gdvariant: error: `{line}` not sent: {e}");
                            }
                        }
                        Err(e) => eprintln!("gdvariant: error: {e}"),
                    }
                }
                // The input ended: go on showing the game's messages until it leaves.
                Ok(None) | Err(_) => stdin_open = false,
            },
        }
    }
}

async fn replay(a: ReplayArgs) -> Result<(), Failure> {
    let mut session =
        Session::replay(&a.file, a.show.protocol.get()).map_err(|e| Failure::io(&a.file, e))?;
    while let Some(event) = session.next().await {
        show(&event, session.protocol(), a.show.format)?;
    }
    Ok(())
}

/// One line typed by the user as a command; `None` for `help` (or anything unknown).
fn parse_command(line: &str, protocol: Option<Protocol>) -> Result<Option<Command>, String> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let id = |s: &str| {
        s.parse::<u64>()
            .map_err(|_| format!("`{s}` is not an object id (a number from `tree`)"))
    };
    Ok(Some(match word {
        "tree" => Command::RequestSceneTree,
        "inspect" => Command::Inspect(id(rest)?),
        "set" => {
            let mut parts = rest.splitn(3, char::is_whitespace);
            let (Some(obj), Some(property), Some(value)) =
                (parts.next(), parts.next(), parts.next())
            else {
                return Err("usage: set ID PROPERTY VALUE".into());
            };
            let protocol = protocol.ok_or("the game's engine is not known yet")?;
            let value = gdvariant::from_text(value.trim(), protocol.dialect())
                .map_err(|e| format!("the value `{}`: {e}", value.trim()))?;
            Command::SetProperty {
                id: id(obj)?,
                property: property.to_string(),
                value,
            }
        }
        "break" => Command::Break,
        "continue" | "c" => Command::Continue,
        "step" | "s" => Command::Step,
        "next" | "n" => Command::Next,
        "stack" => Command::GetStackDump,
        "vars" => Command::GetStackFrameVars(if rest.is_empty() {
            0
        } else {
            rest.parse()
                .map_err(|_| format!("`{rest}` is not a frame number"))?
        }),
        "breakpoint" => {
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let (path, line, set) = match parts.as_slice() {
                [p, l] => (p, l, true),
                [p, l, "off"] => (p, l, false),
                _ => return Err("usage: breakpoint PATH LINE [off]".into()),
            };
            Command::Breakpoint {
                path: path.to_string(),
                line: line
                    .parse()
                    .map_err(|_| format!("`{line}` is not a line number"))?,
                set,
            }
        }
        _ => return Ok(None),
    }))
}

/// Prints one message (stdout) or one error (stderr).
fn show(
    event: &Result<Message, MessageError>,
    protocol: Option<Protocol>,
    format: Format,
) -> Result<(), Failure> {
    let dialect = protocol.map_or(Dialect::Godot4, Protocol::dialect);
    let text = match event {
        Err(e) => {
            eprintln!("gdvariant: bad message from the game: {e}");
            return Ok(());
        }
        Ok(m) => match format {
            Format::Text => as_text(m, dialect),
            Format::Json => as_json(m, dialect).to_string(),
        },
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(super::out_err)
}

fn value_text(v: &Variant, dialect: Dialect) -> String {
    gdvariant::to_text(v, dialect)
}

fn raw_text(r: &RawMessage, dialect: Dialect) -> String {
    let args: Vec<String> = r.args.iter().map(|v| value_text(v, dialect)).collect();
    format!("[{}] {}", r.name, args.join(", "))
}

fn scope_name(s: VarScope) -> String {
    match s {
        VarScope::Local => "local".into(),
        VarScope::Member => "member".into(),
        VarScope::Global => "global".into(),
        VarScope::Other(n) => format!("scope {n}"),
    }
}

fn kind_name(k: OutputKind) -> String {
    match k {
        OutputKind::Log => "log".into(),
        OutputKind::Error => "error".into(),
        OutputKind::Rich => "rich".into(),
        OutputKind::Other(n) => format!("type {n}"),
    }
}

fn tree_lines(node: &SceneNode, depth: usize, out: &mut Vec<String>) {
    // An explicit stack: a hostile tree may be deeper than our own stack.
    let mut stack = vec![(node, depth)];
    while let Some((n, d)) = stack.pop() {
        out.push(format!(
            "{}{} ({}) #{}",
            "  ".repeat(d + 1),
            n.name,
            n.class,
            n.id
        ));
        stack.extend(n.children.iter().rev().map(|c| (c, d + 1)));
    }
}

fn as_text(m: &Message, dialect: Dialect) -> String {
    match m {
        Message::SetPid(pid) => format!("[pid] {pid}"),
        Message::Output(lines) => lines
            .iter()
            .map(|l| match l.kind {
                OutputKind::Log => format!("[output] {}", l.text),
                k => format!("[output {}] {}", kind_name(k), l.text),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Message::Error(e) => {
            let mut s = format!(
                "[{}] {}{} ({}:{} in {})",
                if e.warning { "warning" } else { "error" },
                e.error,
                if e.description.is_empty() {
                    String::new()
                } else {
                    format!(": {}", e.description)
                },
                e.source_file,
                e.source_line,
                e.source_function
            );
            for f in &e.stack {
                s.push_str(&format!(
                    "\n    at {}:{} in {}()",
                    f.file, f.line, f.function
                ));
            }
            s
        }
        Message::DebugEnter(d) => format!(
            "[break] {}{}",
            if d.reason.is_empty() {
                "paused"
            } else {
                &d.reason
            },
            if d.can_continue {
                ""
            } else {
                " (cannot continue)"
            }
        ),
        Message::DebugExit => "[continue]".into(),
        Message::StackDump(frames) => {
            let mut s = format!("[stack] {} frame(s)", frames.len());
            for (i, f) in frames.iter().enumerate() {
                s.push_str(&format!(
                    "\n  {i}: {}:{} in {}()",
                    f.file, f.line, f.function
                ));
            }
            s
        }
        Message::StackFrameVars(vars) => {
            let mut s = format!("[vars] {} variable(s)", vars.len());
            for v in vars {
                s.push_str(&format!(
                    "\n  {} {} = {}",
                    scope_name(v.scope),
                    v.name,
                    value_text(&v.value, dialect)
                ));
            }
            s
        }
        Message::StackFrameVarCount(n) => format!("[vars] {n} variable(s)"),
        Message::StackFrameVar(v) => format!(
            "[var] {} {} = {}",
            scope_name(v.scope),
            v.name,
            value_text(&v.value, dialect)
        ),
        Message::SceneTree(roots) => {
            let mut lines = vec!["[tree]".to_string()];
            for r in roots {
                tree_lines(r, 0, &mut lines);
            }
            lines.join("\n")
        }
        Message::InspectObject(o) => {
            let mut s = format!("[inspect] #{} {}", o.id, o.class);
            for p in &o.properties {
                s.push_str(&format!(
                    "\n  {} = {}",
                    p.name,
                    value_text(&p.value, dialect)
                ));
            }
            s
        }
        Message::Performance(values) => format!(
            "[performance] {}",
            values
                .iter()
                .map(f64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Message::QuitRequest => "[quit request]".into(),
        Message::Profiler(r) | Message::Custom(r) | Message::Unknown(r) => raw_text(r, dialect),
        other => format!("{other:?}"),
    }
}

fn raw_json(kind: &str, r: &RawMessage, dialect: Dialect) -> Value {
    json!({
        "type": kind,
        "name": r.name,
        "thread": r.thread,
        "args": r.args.iter().map(|v| value_text(v, dialect)).collect::<Vec<_>>(),
    })
}

fn node_json(n: &SceneNode) -> Value {
    json!({
        "name": n.name,
        "class": n.class,
        "id": n.id,
        "scene_file": n.scene_file,
        "view_flags": n.view_flags,
        "children": n.children.iter().map(node_json).collect::<Vec<_>>(),
    })
}

fn frames_json(frames: &[gdvariant::debugger::StackFrame]) -> Value {
    frames
        .iter()
        .map(|f| json!({"file": f.file, "line": f.line, "function": f.function}))
        .collect()
}

fn as_json(m: &Message, dialect: Dialect) -> Value {
    let var = |v: &gdvariant::debugger::StackVariable| json!({"name": v.name, "scope": scope_name(v.scope), "value": value_text(&v.value, dialect)});
    match m {
        Message::SetPid(pid) => json!({"type": "set_pid", "pid": pid}),
        Message::Output(lines) => json!({
            "type": "output",
            "lines": lines.iter().map(|l| json!({"text": l.text, "kind": kind_name(l.kind)})).collect::<Vec<_>>(),
        }),
        Message::Error(e) => json!({
            "type": "error",
            "time": e.time,
            "source_file": e.source_file,
            "source_function": e.source_function,
            "source_line": e.source_line,
            "error": e.error,
            "description": e.description,
            "warning": e.warning,
            "stack": frames_json(&e.stack),
        }),
        Message::DebugEnter(d) => json!({
            "type": "debug_enter",
            "can_continue": d.can_continue,
            "reason": d.reason,
            "has_stack_dump": d.has_stack_dump,
            "thread": d.thread.as_ref().map(|t| value_text(t, dialect)),
        }),
        Message::DebugExit => json!({"type": "debug_exit"}),
        Message::StackDump(frames) => json!({"type": "stack_dump", "frames": frames_json(frames)}),
        Message::StackFrameVars(vars) => {
            json!({"type": "stack_frame_vars", "vars": vars.iter().map(var).collect::<Vec<_>>()})
        }
        Message::StackFrameVarCount(n) => json!({"type": "stack_frame_var_count", "count": n}),
        Message::StackFrameVar(v) => json!({"type": "stack_frame_var", "var": var(v)}),
        Message::SceneTree(roots) => json!({
            "type": "scene_tree",
            "roots": roots.iter().map(node_json).collect::<Vec<_>>(),
        }),
        Message::InspectObject(o) => json!({
            "type": "inspect_object",
            "id": o.id,
            "class": o.class,
            "properties": o.properties.iter().map(|p| json!({
                "name": p.name,
                "type": p.type_id,
                "hint": p.hint,
                "hint_string": p.hint_string,
                "usage": p.usage,
                "value": value_text(&p.value, dialect),
            })).collect::<Vec<_>>(),
        }),
        Message::Performance(values) => json!({"type": "performance", "values": values}),
        Message::QuitRequest => json!({"type": "quit_request"}),
        Message::Profiler(r) => raw_json("profiler", r, dialect),
        Message::Custom(r) => raw_json("custom", r, dialect),
        Message::Unknown(r) => raw_json("unknown", r, dialect),
        other => json!({"type": "other", "debug": format!("{other:?}")}),
    }
}
