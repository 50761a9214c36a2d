//! The engines' class lists (`spec/classes/*.yaml`, generated from each engine's own class data by `codegen/classes.py`): read, checked, and emitted as sorted lookup tables for the engine-verdict checks.

use crate::emit::{ident, lit, Artifact};
use quote::quote;
use std::collections::BTreeMap;
use std::path::Path;

/// Where the class lists live, relative to the workspace root.
pub const CLASSES_DIR: &str = "spec/classes";

/// One file of `spec/classes/` as written (the raw serde shape).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClassList {
    /// `MAJOR.MINOR`: the engine versions the list stands for.
    versions: String,
    /// Class name → `parent flags` (`-` for none).
    classes: BTreeMap<String, String>,
}

/// One checked class list.
pub struct ClassList {
    /// The file it came from.
    pub file: String,
    /// Engine major and minor version.
    pub major: u8,
    /// See `major`.
    pub minor: u8,
    /// Sorted by name: (name, index of the parent or `u16::MAX`, instantiable, refcounted).
    pub classes: Vec<(String, u16, bool, bool)>,
}

/// Reads and checks every class list under `root`, in file-name order; every error at once.
pub fn load_classes(root: &Path) -> anyhow::Result<Vec<ClassList>> {
    let mut files: Vec<_> = std::fs::read_dir(root.join(CLASSES_DIR))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for path in files {
        let file = format!(
            "{CLASSES_DIR}/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let raw: RawClassList = match serde_yaml::from_str(&std::fs::read_to_string(&path)?) {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("error: {e}\n  --> {file}"));
                continue;
            }
        };
        let version = raw
            .versions
            .split_once('.')
            .and_then(|(a, b)| Some((a.parse::<u8>().ok()?, b.parse::<u8>().ok()?)));
        let Some((major, minor)) = version else {
            errors.push(format!(
                "error: `versions` must be MAJOR.MINOR, not `{}`\n  --> {file}: versions",
                raw.versions
            ));
            continue;
        };
        let index: BTreeMap<&str, u16> = raw
            .classes
            .keys()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i as u16))
            .collect();
        let mut classes = Vec::new();
        for (name, entry) in &raw.classes {
            let at = || format!("  --> {file}: classes.{name}");
            let (parent, flags) = entry.split_once(' ').unwrap_or((entry, ""));
            let parent = match parent {
                "-" => u16::MAX,
                p => match index.get(p) {
                    Some(&i) => i,
                    None => {
                        errors.push(format!("error: parent `{p}` is not in the list\n{}", at()));
                        continue;
                    }
                },
            };
            if !flags.chars().all(|c| matches!(c, 'i' | 'r' | '-')) {
                errors.push(format!(
                    "error: flags `{flags}` are not `i`, `r` or `-`\n{}",
                    at()
                ));
            }
            classes.push((
                name.clone(),
                parent,
                flags.contains('i'),
                flags.contains('r'),
            ));
        }
        out.push(ClassList {
            file,
            major,
            minor,
            classes,
        });
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        anyhow::bail!("{}", errors.join("\n"))
    }
}

/// `src/generated/classes.rs`: one sorted table per list, and the index of the lists.
pub fn emit_classes(lists: &[ClassList], out_dir: &str) -> Artifact {
    let tables = lists.iter().map(|l| {
        let name = ident(&format!("CLASSES_{}_{}", l.major, l.minor));
        let doc = format!(
            "The classes of {} (`{}`), sorted by name.",
            version_name(l),
            l.file
        );
        let rows = l.classes.iter().map(|(n, parent, inst, rc)| {
            let flags = lit(u64::from(*inst) | u64::from(*rc) << 1);
            let parent = lit(u64::from(*parent));
            quote! { (#n, #parent, #flags) }
        });
        quote! {
            #[doc = #doc]
            pub(crate) static #name: &[Class] = &[#(#rows),*];
        }
    });
    let index = lists.iter().map(|l| {
        let name = ident(&format!("CLASSES_{}_{}", l.major, l.minor));
        let (major, minor) = (lit(u64::from(l.major)), lit(u64::from(l.minor)));
        quote! { (#major, #minor, #name) }
    });
    let tokens = quote! {
        //! The engines' class lists, for the engine-verdict checks: per list, `(name, parent, flags)`
        //! sorted by name (binary search), the parent an index into the same list (`NO_PARENT`
        //! for none); flags are [`INSTANTIABLE`] and [`REFCOUNTED`].

        /// Flag: a game can instantiate the class (`ClassDB::can_instantiate`).
        pub(crate) const INSTANTIABLE: u8 = 1;
        /// Flag: the class is RefCounted (Reference in Godot 3).
        pub(crate) const REFCOUNTED: u8 = 2;
        /// The parent index of a class with none (`Object`).
        pub(crate) const NO_PARENT: u16 = u16::MAX;
        /// One class: name, parent index, flags.
        pub(crate) type Class = (&'static str, u16, u8);
        /// Every list: (major, minor, classes).
        pub(crate) static LISTS: &[(u8, u8, &[Class])] = &[#(#index),*];
        #(#tables)*
    };
    Artifact {
        path: format!("{out_dir}/classes.rs"),
        sources: lists.iter().map(|l| l.file.clone()).collect(),
        tokens,
    }
}

fn version_name(l: &ClassList) -> String {
    format!("Godot {}.{}", l.major, l.minor)
}
