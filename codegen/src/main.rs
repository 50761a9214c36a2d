//! `cargo codegen`: regenerates `src/generated/` from `spec/`; `--check` fails when anything is stale.

use gdvariant_codegen::write::{stale_report, sync, workspace_root};
use std::process::ExitCode;

const USAGE: &str = "usage: cargo codegen [--check]\n\n  (no argument)  regenerate every file derived from spec/\n  --check        exit 1 naming each stale file, writing nothing\n";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = workspace_root();
    let check = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] => false,
        ["--check"] => true,
        ["-h" | "--help"] => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match sync(&root, !check) {
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
