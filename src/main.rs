//! The `gdvariant` command: decode, encode, explain, convert and guess Godot Variant bytes.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
