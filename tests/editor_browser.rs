//! The save editor in a real browser: runs tests/browser/editor.py (Playwright driving Debian's
//! Chromium), then has Godot 4 and Godot 3.2.3 read the saves it edited.
//!
//! Without Chromium or Playwright the test skips with a notice, and fails when `CI=true`
//! (`.ci/run` installs both: `apt-get install chromium`, `pip install playwright`).

use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";
const GODOT3: &str = "/usr/bin/godot3-server";

/// Skips (with a notice) or, on CI, fails.
fn missing(what: &str) {
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{what} is missing, and CI=true: install it (see .ci/run)"
    );
    eprintln!("note: skipping the editor's browser test: {what} is missing");
}

fn have_playwright() -> bool {
    Command::new("python3")
        .args(["-c", "import playwright.sync_api"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn editor_in_a_browser_and_engines_read_its_saves() {
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| CHROMIUM.into());
    if !Path::new(&chromium).exists() {
        return missing("Chromium (apt-get install chromium)");
    }
    if !have_playwright() {
        return missing("Playwright for Python (pip install playwright)");
    }
    let work = std::env::temp_dir().join(format!("gdvariant-editor-{}", std::process::id()));
    std::fs::create_dir_all(&work).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/editor.py");
    let mut run = Command::new("python3");
    run.arg(&script)
        .env("GDVARIANT", env!("CARGO_BIN_EXE_gdvariant"))
        .env("WORK", &work)
        .env("CHROMIUM", &chromium);
    // The picture in docs/editor.md is retaken on request only, so that tests leave the
    // checkout as it was.
    if std::env::var_os("GDVARIANT_SCREENSHOT").is_some() {
        let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/images/editor.png");
        run.env("SCREENSHOT", png);
    }
    let out = run.output().expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(
        out.status.success() && stdout.contains("RESULT ok 1"),
        "the browser test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The edited saves, as the engines read them with `get_var`.
    let godot4 = ["GODOT4_4", "GODOT4_3"]
        .iter()
        .find_map(std::env::var_os)
        .map(PathBuf::from);
    match godot4 {
        Some(bin) => {
            let printed = godot4_get_var(&bin, &work, &work.join("godot4.sav"));
            assert!(printed.contains("\"music\": 0.25"), "{printed}");
            // Nothing else changed: the other frames read as before.
            assert!(printed.contains("\"checksum\": 305419896"), "{printed}");
        }
        None => missing("Godot 4 (GODOT4_3 / GODOT4_4)"),
    }
    if Path::new(GODOT3).exists() {
        let printed = godot3_get_var(&work, &work.join("godot3.sav"));
        assert!(printed.contains("\"music\":0.25"), "{printed}");
    } else {
        missing("Godot 3.2.3 (apt-get install godot3-server)");
    }
    let _ = std::fs::remove_dir_all(&work);
}

/// Every frame of `file` as Godot 4's `FileAccess.get_var` reads it, one `var_to_str` each.
fn godot4_get_var(bin: &Path, work: &Path, file: &Path) -> String {
    let project = work.join("godot4");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("project.godot"), "config_version=5\n").unwrap();
    std::fs::write(
        project.join("read.gd"),
        "extends SceneTree\nfunc _init():\n\tvar f = FileAccess.open(OS.get_environment(\"SAVE\"), FileAccess.READ)\n\twhile f.get_position() < f.get_length():\n\t\tprint(\"@@ \" + var_to_str(f.get_var()).replace(\"\\n\", \" \"))\n\tquit()\n",
    )
    .unwrap();
    let out = Command::new("timeout")
        .arg("120")
        .arg(bin)
        .args(["--headless", "--path"])
        .arg(&project)
        .args(["--script", "res://read.gd"])
        .env("SAVE", file)
        .output()
        .expect("run Godot 4");
    engine_lines(&out.stdout)
}

/// The same with Godot 3.2.3's `File.get_var` and `var2str`.
fn godot3_get_var(work: &Path, file: &Path) -> String {
    let dir = work.join("godot3");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("read.gd");
    std::fs::write(
        &script,
        "extends SceneTree\nfunc _init():\n\tvar f = File.new()\n\tf.open(OS.get_environment(\"SAVE\"), File.READ)\n\twhile f.get_position() < f.get_len():\n\t\tprint(\"@@ \" + var2str(f.get_var()).replace(\"\\n\", \"\").replace(\" \", \"\"))\n\tquit()\n",
    )
    .unwrap();
    let out = Command::new("timeout")
        .arg("120")
        .arg(GODOT3)
        .arg("-s")
        .arg(&script)
        .current_dir(&dir)
        .env("LANG", "en")
        .env("SAVE", file)
        .output()
        .expect("run Godot 3");
    engine_lines(&out.stdout)
}

/// The lines the script printed (`@@ ` before each value).
fn engine_lines(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    let lines: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("@@ ")).collect();
    assert!(!lines.is_empty(), "the engine printed no value:\n{text}");
    lines.join("\n")
}
