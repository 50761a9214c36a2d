//! `cargo codegen`: regenerates `src/generated/` and `docs/format/` from `spec/`; `--check` fails
//! when anything is stale; `docs` renders the format pages only; `diff` compares spec revisions.

use gdvariant_codegen::diff::{diff, load_common, render, resolve, Format};
use gdvariant_codegen::write::{stale_report, sync_scope, workspace_root, Scope};
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo codegen [--check]                 regenerate src/generated/ and docs/format/ (or check them)
       cargo codegen docs [--check]            regenerate docs/format/ only
       cargo codegen diff OLD NEW [--format text|markdown|json]
                                               list the changes from OLD to NEW; exit 0 same, 1 different, 2 error

OLD and NEW are each a dialect (godot3, godot4, pandemonium), a dialect at a version (godot4@4.2),
a documentation revision (docs-godot3, docs-transitional, docs-godot4), a spec file
(spec/godot4.yaml), or a spec file at a git revision (spec/godot4.yaml@HEAD~3).
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => regenerate(Scope::All, false),
        ["--check"] => regenerate(Scope::All, true),
        ["docs"] => regenerate(Scope::Docs, false),
        ["docs", "--check"] => regenerate(Scope::Docs, true),
        ["diff", rest @ ..] => run_diff(rest),
        ["-h" | "--help" | "help"] => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprint!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn regenerate(scope: Scope, check: bool) -> ExitCode {
    match sync_scope(&workspace_root(), scope, !check) {
        Ok(stale) if check && !stale.is_empty() => {
            eprint!("{}", stale_report(&stale));
            ExitCode::FAILURE
        }
        Ok(stale) => {
            for f in &stale {
                println!("wrote {} (was {})", f.path, f.why);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e:#}");
            ExitCode::from(2)
        }
    }
}

fn run_diff(args: &[&str]) -> ExitCode {
    let mut format = Format::Text;
    let mut sides = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if let Some(f) = a.strip_prefix("--format=") {
            match Format::parse(f) {
                Some(f) => format = f,
                None => return usage_error(&format!("unknown format `{f}`")),
            }
        } else if *a == "--format" {
            match it.next().and_then(|f| Format::parse(f)) {
                Some(f) => format = f,
                None => return usage_error("--format takes text, markdown or json"),
            }
        } else {
            sides.push(*a);
        }
    }
    let [old, new] = sides.as_slice() else {
        return usage_error("diff takes exactly two sides");
    };
    let root = workspace_root();
    let result = (|| -> anyhow::Result<String> {
        let (kinds, features) = load_common(&root)?;
        let a = resolve(&root, old, &kinds, &features)?;
        let b = resolve(&root, new, &kinds, &features)?;
        let changes = diff(&a, &b, &kinds);
        let same = changes.is_empty();
        Ok(format!(
            "{}{}",
            if same { "=" } else { "!" },
            render(&changes, old, new, format)
        ))
    })();
    match result {
        Ok(out) => {
            print!("{}", &out[1..]);
            if out.starts_with('=') {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            let msg = format!("{e:#}");
            if msg.starts_with("error:") {
                eprintln!("{msg}");
            } else {
                eprintln!("error: {msg}");
            }
            ExitCode::from(2)
        }
    }
}

fn usage_error(msg: &str) -> ExitCode {
    eprintln!("error: {msg}\n\n{USAGE}");
    ExitCode::from(2)
}
