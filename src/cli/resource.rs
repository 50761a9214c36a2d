//! `gdvariant resource`: read, edit and convert the engine's resource files (`.tres`,
//! `.res`), a thin skin over [`gdvariant::resource`].

use super::Failure;
use clap::{Args, Subcommand};
use gdvariant::resource::{ResourceError, ResourceFile};
use gdvariant::{from_text, Dialect};
use std::path::{Path, PathBuf};

/// Arguments of `gdvariant resource`.
#[derive(Args, Debug)]
pub struct ResourceArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Print a resource file as the engine's `.tres` text (a `.res` is shown converted).
    Show {
        /// A `.tres` or `.res` file.
        file: PathBuf,
    },
    /// Set one property of the main resource (or of sub-resource `--sub ID`) to a value in
    /// the text form, and write the file as the engine would.
    Set {
        /// A `.tres` or `.res` file.
        file: PathBuf,
        /// The property name.
        property: String,
        /// The value in the text form (`100`, `"bob"`, `Vector2(1, 2)`).
        value: String,
        /// The sub-resource's id (its `id=` in a `.tres`); the main resource when absent.
        #[arg(long)]
        sub: Option<String>,
        /// Where to write (the input file when absent).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write the file as `.res` or `.tres` (by the output's extension), migrating a
    /// Godot 3 file to Godot 4 with `--godot4`.
    Convert {
        /// A `.tres` or `.res` file.
        file: PathBuf,
        /// The output file: `.res` for binary, anything else for text.
        #[arg(short, long)]
        output: PathBuf,
        /// Migrate a Godot 3 file to Godot 4 (format 3 text, format 6 binary).
        #[arg(long)]
        godot4: bool,
    },
}

fn read(path: &Path) -> Result<ResourceFile, Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure::io(path, e))?;
    ResourceFile::read(&bytes).map_err(|e| Failure::data(format!("{}: {e}", path.display())))
}

fn write(path: &Path, file: &ResourceFile) -> Result<(), Failure> {
    let bytes = file
        .write()
        .map_err(|e: ResourceError| Failure::data(format!("{}: {e}", path.display())))?;
    std::fs::write(path, bytes).map_err(|e| Failure::io(path, e))
}

/// Runs `gdvariant resource`.
pub fn resource(a: ResourceArgs) -> Result<(), Failure> {
    match a.action {
        Action::Show { file } => {
            let text = read(&file)?.to_text().write().map_err(Failure::data)?;
            print!("{}", String::from_utf8_lossy(&text));
            Ok(())
        }
        Action::Set {
            file,
            property,
            value,
            sub,
            output,
        } => {
            let mut res = read(&file)?;
            let dialect = if res.is_godot3() {
                Dialect::Godot3
            } else {
                Dialect::Godot4
            };
            let value = from_text(&value, dialect).map_err(Failure::usage)?;
            let target = match &sub {
                None => &mut res.main,
                Some(id) => res
                    .sub_resources
                    .iter_mut()
                    .find(|r| match &r.id {
                        gdvariant::Variant::String(s) => s.as_str() == id,
                        other => other.to_string() == *id,
                    })
                    .ok_or_else(|| Failure::usage(format!("no sub-resource with id {id}")))?,
            };
            target.set(&property, value);
            write(output.as_deref().unwrap_or(&file), &res)
        }
        Action::Convert {
            file,
            output,
            godot4,
        } => {
            let mut res = read(&file)?;
            if godot4 {
                let (migrated, report) = res.migrate_to_godot4();
                for r in &report.renamed {
                    eprintln!("renamed class {} → {}", r.from, r.to);
                }
                for loss in &report.values.losses {
                    eprintln!("lost: {loss}");
                }
                res = migrated;
            }
            let binary = output.extension().is_some_and(|e| e == "res" || e == "scn");
            let (major, minor) = if res.is_godot3() { (3, 2) } else { (4, 3) };
            let res = if binary {
                res.to_binary(major, minor)
            } else {
                res.to_text()
            };
            write(&output, &res)
        }
    }
}
