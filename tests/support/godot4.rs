//! The live Godot 4 oracle: runs inputs through `tests/oracle/godot4_b2v.gd` in a headless
//! Godot 4 engine (`GODOT4_3`, `GODOT4_4`). Include it with
//! `#[path = "support/godot4.rs"] mod godot4;` (std only).
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// What the engine made of one input: `bytes_to_var` succeeded (bytes used, when told, and
/// `var_to_bytes` of the result), or failed with the engine's error (`"?"` when it printed none).
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Ok { used: Option<usize>, bytes: Vec<u8> },
    Err(String),
}

/// Runs `inputs` through the engine `bin` in one process, with objects allowed or not
/// (`bytes_to_var_with_objects`), in a fresh project directory that is deleted afterwards.
pub fn run(bin: &Path, inputs: &[Vec<u8>], objects: bool) -> Vec<Reply> {
    let dir = std::env::temp_dir().join(format!(
        "gdvariant-godot4-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(
        dir.join("project.godot"),
        "config_version=5\n\n[debug]\n\nfile_logging/enable_file_logging=false\n",
    )
    .expect("project.godot");
    let harness = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/godot4_b2v.gd");
    std::fs::copy(&harness, dir.join("godot4_b2v.gd")).expect("copy harness");
    let lines: String = inputs
        .iter()
        .map(|b| {
            if b.is_empty() {
                "-\n".to_string()
            } else {
                hex(b) + "\n"
            }
        })
        .collect();
    std::fs::write(dir.join("in.txt"), lines).expect("write inputs");
    // A script error would leave the engine running for ever: always under a timeout.
    let mut cmd = Command::new("timeout");
    cmd.arg("600")
        .arg(bin)
        .args(["--headless", "--path"])
        .arg(&dir)
        .args(["--script", "res://godot4_b2v.gd"])
        .env("ORACLE4_IN", dir.join("in.txt"))
        .env("ORACLE4_OUT", dir.join("out.txt"));
    if objects {
        cmd.env("ORACLE4_OBJECTS", "1");
    }
    let out = cmd.output().expect("run the Godot 4 engine");
    let text = std::fs::read_to_string(dir.join("out.txt")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let replies: Vec<&str> = text.lines().collect();
    assert_eq!(
        replies.len(),
        inputs.len(),
        "{}: {} answers for {} inputs (exit {:?})\n{}",
        bin.display(),
        replies.len(),
        inputs.len(),
        out.status.code(),
        stderr.chars().take(4000).collect::<String>()
    );
    // The first `Returning: ERR_*` after "@@case N" is input N's innermost error.
    let mut errors = vec![String::from("?"); inputs.len()];
    let mut case: Option<usize> = None;
    for line in stderr.lines() {
        if let Some(n) = line.strip_prefix("@@case ") {
            case = n.trim().parse().ok();
        } else if let (Some(i), Some(at)) = (case, line.find("Returning: ERR_")) {
            if errors[i] == "?" {
                errors[i] = line[at + 11..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                    .collect();
            }
        }
    }
    replies
        .iter()
        .zip(errors)
        .map(
            |(r, e)| match r.split('\t').collect::<Vec<_>>().as_slice() {
                ["ok", used, h] => Reply::Ok {
                    used: used.parse().ok(),
                    bytes: unhex(h),
                },
                ["err"] => Reply::Err(e),
                _ => panic!("Godot 4 oracle: unexpected line {r:?}"),
            },
        )
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}
