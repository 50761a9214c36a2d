//! Running real Godot engines for the live debugger and game-server tests: finding them (skip
//! with a notice locally, fail under CI=true), a throw-away project folder, and a game process
//! that is killed when the test ends. Include with `#[path = "live/support.rs"] mod live;`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// An engine the live tests run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Debian's `godot3-server` (3.2.3), or `GODOT3_BIN`.
    Godot3,
    /// The headless 4.3 build, `GODOT4_3`.
    Godot4_3,
    /// The headless 4.4.1 build, `GODOT4_4`.
    Godot4_4,
}

impl Engine {
    pub fn is_godot3(self) -> bool {
        self == Engine::Godot3
    }

    /// The engine's binary, or `None` after a notice when it is missing outside CI.
    /// Panics when it is missing and `CI` is `true`: CI must run every live test.
    pub fn binary(self) -> Option<PathBuf> {
        let found = match self {
            Engine::Godot3 => match std::env::var_os("GODOT3_BIN") {
                Some(p) => Some(PathBuf::from(p)),
                None => std::env::var_os("PATH").and_then(|path| {
                    std::env::split_paths(&path)
                        .map(|d| d.join("godot3-server"))
                        .find(|p| p.is_file())
                }),
            },
            Engine::Godot4_3 => std::env::var_os("GODOT4_3").map(PathBuf::from),
            Engine::Godot4_4 => std::env::var_os("GODOT4_4").map(PathBuf::from),
        }
        .filter(|p| p.is_file());
        if found.is_none() {
            let how = match self {
                Engine::Godot3 => "apt-get install -y godot3-server, or set GODOT3_BIN",
                _ => "eval \"$(../shared/engines/install.sh --env)\" sets GODOT4_3 and GODOT4_4",
            };
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{self:?} not found but CI=true: {how}");
            }
            println!("notice: {self:?} not found ({how}); skipping live test");
        }
        found
    }
}

/// A project folder under the temp dir, removed on drop.
pub struct Project {
    pub dir: PathBuf,
}

impl Project {
    /// A project for `engine` holding `files` (name, text).
    pub fn new(engine: Engine, files: &[(&str, &str)]) -> Project {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "gdvariant-live-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create a project dir");
        // A template build needs a project.godot; file logging off so it writes nothing else.
        let config = if engine.is_godot3() {
            "config_version=4\n[logging]\nfile_logging/enable_file_logging=false\n"
        } else {
            "config_version=5\n[debug]\nfile_logging/enable_file_logging=false\n"
        };
        std::fs::write(dir.join("project.godot"), config).expect("write project.godot");
        for (name, text) in files {
            std::fs::write(dir.join(name), text).expect("write a project file");
        }
        Project { dir }
    }

    /// Starts `script` (a file of the project) with extra engine arguments.
    pub fn run(&self, engine: Engine, bin: &Path, script: &str, args: &[String]) -> Game {
        self.run_with_env(engine, bin, script, args, &[])
    }

    /// Like [`Project::run`], with environment variables for the script; its output goes to
    /// files named after the first variable's value, so several games can share a project.
    pub fn run_with_env(
        &self,
        engine: Engine,
        bin: &Path,
        script: &str,
        args: &[String],
        env: &[(&str, String)],
    ) -> Game {
        let mut cmd = Command::new(bin);
        cmd.envs(env.iter().map(|(k, v)| (k, v)));
        let tag = env.first().map(|(_, v)| v.as_str()).unwrap_or("game");
        if engine.is_godot3() {
            cmd.arg("--no-window");
        } else {
            cmd.arg("--headless");
        }
        cmd.arg("--path").arg(&self.dir).args(args);
        cmd.arg(if engine.is_godot3() { "-s" } else { "--script" });
        cmd.arg(format!("res://{script}"));
        let out =
            std::fs::File::create(self.dir.join(format!("{tag}.stdout.txt"))).expect("stdout file");
        let err =
            std::fs::File::create(self.dir.join(format!("{tag}.stderr.txt"))).expect("stderr file");
        let child = cmd
            .env("LANG", "en")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        Game {
            child,
            dir: self.dir.clone(),
            tag: tag.to_string(),
        }
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A running engine, killed on drop (a game stopped at a break never exits by itself).
pub struct Game {
    child: Child,
    dir: PathBuf,
    tag: String,
}

impl Game {
    /// Waits up to `limit` for the game to exit; its exit code, or `None` if it is still running.
    pub fn wait(&mut self, limit: Duration) -> Option<i32> {
        let end = Instant::now() + limit;
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status.code().unwrap_or(-1));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }

    /// What the engine printed on stdout so far.
    pub fn stdout(&self) -> String {
        std::fs::read_to_string(self.dir.join(format!("{}.stdout.txt", self.tag)))
            .unwrap_or_default()
    }

    /// What the engine printed so far, for failure messages.
    pub fn output(&self) -> String {
        let err = std::fs::read_to_string(self.dir.join(format!("{}.stderr.txt", self.tag)))
            .unwrap_or_default();
        format!("--- stdout ---\n{}\n--- stderr ---\n{err}", self.stdout())
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The 1-based line of the first line of `text` that contains `marker`.
pub fn line_of(text: &str, marker: &str) -> i64 {
    text.lines()
        .position(|l| l.contains(marker))
        .map(|i| i as i64 + 1)
        .unwrap_or_else(|| panic!("no line holds {marker:?}"))
}

/// The address argument of `--remote-debug` for a debugger on `port`.
pub fn remote_debug_args(engine: Engine, port: u16) -> Vec<String> {
    let addr = if engine.is_godot3() {
        format!("127.0.0.1:{port}")
    } else {
        format!("tcp://127.0.0.1:{port}")
    };
    vec!["--remote-debug".into(), addr]
}
