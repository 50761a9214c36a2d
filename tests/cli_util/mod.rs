//! Running the built `gdvariant` binary from the end-to-end tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// What one run gave.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            // A signal (a crash) has no code: -1 fails every check below.
            code: o.status.code().unwrap_or(-1),
            stdout: o.stdout,
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

/// Runs `gdvariant ARGS` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: &[u8]) -> Run {
    run_with(args, stdin, &[])
}

/// Runs `gdvariant ARGS` with no input and `env` set (`RAYON_NUM_THREADS`).
pub fn run_env(args: &[&str], env: &[(&str, &str)]) -> Run {
    run_with(args, b"", env)
}

fn run_with(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gdvariant binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    // Write from a thread so a command that prints before reading cannot deadlock.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("gdvariant finishes");
    writer.join().expect("stdin writer");
    let r = Run::from(out);
    assert!(
        !r.stderr.contains("panicked"),
        "gdvariant {args:?} panicked:\n{}",
        r.stderr
    );
    r
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}
