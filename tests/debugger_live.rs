//! Live debugger sessions with real engines (Godot 3.2.3, 4.3, 4.4.1): a game started with
//! `--remote-debug` connects to our listener; we see its output, its error with the script
//! line, its scene tree; inspect its Probe node, set a property and see the game print it; break
//! and continue; and a recording of the session replays to the same messages.

#[path = "live/support.rs"]
mod live;

use gdvariant::debugger::{Command, Message, OutputKind, Protocol, Session, VarScope};
use gdvariant::Variant;
use live::{line_of, remote_debug_args, Engine, Project};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::time::{timeout_at, Instant};

/// How long any one expected message may take to come.
const PATIENCE: Duration = Duration::from_secs(20);

/// A session and every message it has produced so far.
struct Watch {
    session: Session,
    log: Vec<Message>,
}

impl Watch {
    /// Reads messages until `found` finds what it wants in the log (from `from` on).
    async fn wait<T>(
        &mut self,
        what: &str,
        from: usize,
        mut found: impl FnMut(&Message) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = from;
        loop {
            while seen < self.log.len() {
                if let Some(t) = found(&self.log[seen]) {
                    return t;
                }
                seen += 1;
            }
            match timeout_at(deadline, self.session.next()).await {
                Err(_) => panic!("timed out waiting for {what}; messages: {:#?}", self.log),
                Ok(None) => panic!("the game left while we waited for {what}: {:#?}", self.log),
                // A real engine sends nothing we cannot read.
                Ok(Some(Err(e))) => panic!("unreadable message from a real engine: {e}"),
                Ok(Some(Ok(m))) => self.log.push(m),
            }
        }
    }

    async fn send(&mut self, c: Command) -> usize {
        self.session.send(&c).await.expect("send a command");
        self.log.len()
    }
}

fn output_has(m: &Message, text: &str) -> bool {
    matches!(m, Message::Output(lines) if lines.iter().any(|l| l.kind == OutputKind::Log && l.text.contains(text)))
}

async fn debug_a_game(engine: Engine) {
    let Some(bin) = engine.binary() else { return };
    let (name, script) = if engine.is_godot3() {
        ("game3.gd", include_str!("live/debugger/game3.gd"))
    } else {
        ("game4.gd", include_str!("live/debugger/game4.gd"))
    };
    let error_line = line_of(script, "# ERROR_LINE");
    let runtime_error_line = line_of(script, "RUNTIME_ERROR_LINE");
    let break_line = line_of(script, "BREAK_LINE");
    let project = Project::new(engine, &[(name, script)]);
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let mut game = project.run(engine, &bin, name, &remote_debug_args(engine, port));
    let capture = project.dir.join("session.gdvdbg");

    let mut session = tokio::time::timeout(PATIENCE, Session::accept(&listener, None))
        .await
        .unwrap_or_else(|_| panic!("the game did not connect\n{}", game.output()))
        .unwrap();
    session.record(&capture).unwrap();
    let mut w = Watch {
        session,
        log: Vec::new(),
    };

    // Its print() output and its push_error with the script line in the stack.
    w.wait("the game's first print", 0, |m| {
        output_has(m, "game: ready").then_some(())
    })
    .await;
    let want = if engine.is_godot3() {
        Protocol::Godot3
    } else {
        Protocol::Godot4
    };
    assert_eq!(w.session.protocol(), Some(want));
    let report = w
        .wait("the push_error report", 0, |m| match m {
            Message::Error(e) if e.error.contains("something went wrong") => Some(e.clone()),
            _ => None,
        })
        .await;
    assert!(!report.warning);
    if !engine.is_godot3() {
        // EngineDebugger.send_message to a capture nobody registered: kept whole.
        let custom = w
            .wait("the game's own message", 0, |m| match m {
                Message::Custom(raw) if raw.name == "gdvariant:hello" => Some(raw.clone()),
                _ => None,
            })
            .await;
        assert_eq!(
            custom.args,
            [Variant::from("from the game"), Variant::Int(42)]
        );
        assert_eq!(custom.thread, Some(1));
    }
    let top = report.stack.first().expect("a script call stack");
    assert_eq!(
        (top.file.as_str(), top.function.as_str(), top.line),
        (
            format!("res://{name}").as_str(),
            "report_problem",
            error_line
        ),
        "{report:#?}"
    );

    // The scene tree, and the Probe node in it.
    let at = w.send(Command::RequestSceneTree).await;
    let roots = w
        .wait("the scene tree", at, |m| match m {
            Message::SceneTree(roots) => Some(roots.clone()),
            _ => None,
        })
        .await;
    assert_eq!(roots.len(), 1, "{roots:#?}");
    let probe = roots[0]
        .walk()
        .into_iter()
        .find(|n| n.name == "Probe")
        .unwrap_or_else(|| panic!("no Probe node in {roots:#?}"))
        .clone();
    assert_eq!(probe.class, "Node");

    // Inspect it: the script member `value` is 0.
    let at = w.send(Command::Inspect(probe.id)).await;
    let object = w
        .wait("the inspected Probe", at, |m| match m {
            Message::InspectObject(o) if o.id == probe.id => Some(o.clone()),
            _ => None,
        })
        .await;
    assert_eq!(object.class, "Node");
    let value = object.property("value").expect("a `value` property");
    assert_eq!(value.value, Variant::Int(0), "{object:#?}");

    // Set it: the game prints the new value.
    let at = w
        .send(Command::SetProperty {
            id: probe.id,
            property: "value".into(),
            value: Variant::Int(42),
        })
        .await;
    w.wait("the game to print value=42", at, |m| {
        output_has(m, "game: value=42").then_some(())
    })
    .await;

    // Break, look at the stack, continue.
    let at = w.send(Command::Break).await;
    let enter = w
        .wait("debug_enter", at, |m| match m {
            Message::DebugEnter(d) => Some(d.clone()),
            _ => None,
        })
        .await;
    assert!(enter.can_continue);
    assert_eq!(enter.reason, "");
    let at = w.send(Command::GetStackDump).await;
    w.wait("the stack dump", at, |m| {
        matches!(m, Message::StackDump(_)).then_some(())
    })
    .await;
    let at = w.send(Command::Continue).await;
    w.wait("debug_exit", at, |m| {
        (*m == Message::DebugExit).then_some(())
    })
    .await;

    // A breakpoint set from here stops the game at its line; `next` steps to a later line.
    let path = format!("res://{name}");
    let at = w
        .send(Command::Breakpoint {
            path: path.clone(),
            line: break_line,
            set: true,
        })
        .await;
    let enter = w
        .wait("the breakpoint's debug_enter", at, |m| match m {
            Message::DebugEnter(d) => Some(d.clone()),
            _ => None,
        })
        .await;
    assert_eq!(enter.reason, "Breakpoint");
    let stack_top = |m: &Message| match m {
        Message::StackDump(f) if !f.is_empty() => Some(f[0].clone()),
        _ => None,
    };
    let at = w.send(Command::GetStackDump).await;
    let top = w.wait("the breakpoint's stack", at, stack_top).await;
    assert_eq!((top.file.as_str(), top.line), (path.as_str(), break_line));
    w.send(Command::Breakpoint {
        path: path.clone(),
        line: break_line,
        set: false,
    })
    .await;
    let at = w.send(Command::Next).await;
    w.wait("debug_exit after next", at, |m| {
        (*m == Message::DebugExit).then_some(())
    })
    .await;
    w.wait("debug_enter after next", at, |m| {
        matches!(m, Message::DebugEnter(_)).then_some(())
    })
    .await;
    let at = w.send(Command::GetStackDump).await;
    let top = w.wait("the stack after next", at, stack_top).await;
    assert!(top.line > break_line, "{top:?}");
    let at = w.send(Command::Continue).await;
    w.wait("debug_exit", at, |m| {
        (*m == Message::DebugExit).then_some(())
    })
    .await;

    // A value the script cannot add 1 to: a runtime error stops the game at its line. Fixing
    // the value while it is stopped and continuing lets it run on.
    let at = w
        .send(Command::SetProperty {
            id: probe.id,
            property: "value".into(),
            value: gdvariant::from_text("Vector2(1, 2)", w.session.protocol().unwrap().dialect())
                .unwrap(),
        })
        .await;
    let enter = w
        .wait("the runtime error's debug_enter", at, |m| match m {
            Message::DebugEnter(d) => Some(d.clone()),
            _ => None,
        })
        .await;
    assert!(enter.reason.contains("Invalid operands"), "{enter:?}");
    let at = w.send(Command::GetStackDump).await;
    let frames = w
        .wait("the runtime error's stack", at, |m| match m {
            Message::StackDump(f) => Some(f.clone()),
            _ => None,
        })
        .await;
    let main = if engine.is_godot3() {
        "_idle"
    } else {
        "_process"
    };
    assert_eq!(
        (
            frames[0].file.as_str(),
            frames[0].function.as_str(),
            frames[0].line
        ),
        (format!("res://{name}").as_str(), main, runtime_error_line),
        "{frames:#?}"
    );
    // The variables of that frame: the script's members, `frames` among them.
    let at = w.send(Command::GetStackFrameVars(0)).await;
    let frames_var = if engine.is_godot3() {
        w.wait("the frame's variables", at, |m| match m {
            Message::StackFrameVars(vars) => vars.iter().find(|v| v.name == "frames").cloned(),
            _ => None,
        })
        .await
    } else {
        // Godot 4 announces a count, then sends one message per variable.
        let count = w
            .wait("the frame's variable count", at, |m| match m {
                Message::StackFrameVarCount(n) => Some(*n),
                _ => None,
            })
            .await;
        assert!(count > 0);
        w.wait("the `frames` variable", at, |m| match m {
            Message::StackFrameVar(v) if v.name == "frames" => Some(v.clone()),
            _ => None,
        })
        .await
    };
    assert_eq!(frames_var.scope, VarScope::Member);
    assert!(
        matches!(frames_var.value, Variant::Int(n) if n >= 5),
        "{frames_var:?}"
    );
    w.send(Command::SetProperty {
        id: probe.id,
        property: "value".into(),
        value: Variant::Int(7),
    })
    .await;
    let at = w.send(Command::Continue).await;
    w.wait("the game to print value=7", at, |m| {
        output_has(m, "game: value=7").then_some(())
    })
    .await;

    // 1000 makes the game quit: the session ends and the game exits cleanly.
    let at = w
        .send(Command::SetProperty {
            id: probe.id,
            property: "Members/value".into(),
            value: Variant::Int(1000),
        })
        .await;
    w.wait("the game to print value=1000", at, |m| {
        output_has(m, "game: value=1000").then_some(())
    })
    .await;
    let deadline = Instant::now() + PATIENCE;
    loop {
        match timeout_at(deadline, w.session.next()).await {
            Err(_) => panic!("the game did not close the connection"),
            Ok(None) => break,
            Ok(Some(Err(e))) => panic!("unreadable message from a real engine: {e}"),
            Ok(Some(Ok(m))) => w.log.push(m),
        }
    }
    let code = game.wait(PATIENCE);
    assert_eq!(code, Some(0), "{}", game.output());

    // The recording replays to the same messages.
    let mut replay = Session::replay(&capture, None).unwrap();
    let mut replayed = Vec::new();
    while let Some(m) = replay.next().await {
        replayed.push(m.expect("the replay reads as the session did"));
    }
    assert_eq!(replayed, w.log);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn godot3_game_under_the_debugger() {
    debug_a_game(Engine::Godot3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn godot4_3_game_under_the_debugger() {
    debug_a_game(Engine::Godot4_3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn godot4_4_game_under_the_debugger() {
    debug_a_game(Engine::Godot4_4).await;
}
