//! Many files at once (`decode|encode|convert --out-dir DIR FILE|DIR…`): one file per core,
//! a progress bar on a terminal, and a failing file reported without stopping the others.

use super::{partial_path, shown, Failure, EXIT_IO, EXIT_USAGE};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// One input and where its output goes.
#[derive(Debug)]
pub struct Job {
    pub input: PathBuf,
    pub output: PathBuf,
}

/// What a command writes to standard error about one file (the dialect it guessed, a
/// conversion report). One file alone prints at once; a batch keeps each file's notes and
/// prints those of the failed files in path order, so the report does not depend on which
/// thread finished first.
pub struct Notes(Option<String>);

impl Notes {
    /// Notes printed as they come.
    pub fn stderr() -> Notes {
        Notes(None)
    }
    fn kept() -> Notes {
        Notes(Some(String::new()))
    }
    /// Whether the notes are kept for a batch's report of failed files (not printed).
    pub fn is_kept(&self) -> bool {
        self.0.is_some()
    }
    /// Adds `text` as it is (end lines with `\n`).
    pub fn add(&mut self, text: fmt::Arguments<'_>) {
        match &mut self.0 {
            None => eprint!("{text}"),
            Some(s) => {
                let _ = fmt::Write::write_fmt(s, text);
            }
        }
    }
}

/// The files to work on: each file given, and every file under each directory given (with
/// its path below that directory), sorted by input path. The output of `input` is
/// `out_dir/<its path below the directory given, or its name>` renamed by `name` (which
/// sets the extension). Two inputs that would write one output are a usage error.
pub fn plan(
    inputs: &[PathBuf],
    out_dir: &Path,
    name: impl Fn(&Path) -> PathBuf,
) -> Result<Vec<Job>, Failure> {
    // Outputs written into an input directory are not inputs of the next run.
    let skip = out_dir.canonicalize().ok();
    let mut found = Vec::new();
    for input in inputs {
        if input == Path::new("-") {
            return Err(Failure::usage(
                "standard input (-) cannot be one of several inputs: name files or directories",
            ));
        }
        let meta = std::fs::metadata(input).map_err(|e| Failure::io(input, e))?;
        if meta.is_dir() {
            walk(input, input, skip.as_deref(), &mut found)?;
        } else {
            let file = input.file_name().map(PathBuf::from).unwrap_or_default();
            found.push((input.clone(), file));
        }
    }
    // In `Path` order, each path's components taken apart once (comparing two paths parses
    // both again, and sorting thousands of them was most of planning a batch).
    found.sort_by_cached_key(|(input, _)| path_key(input));
    found.dedup_by(|a, b| a.0 == b.0);
    let mut seen: HashMap<PathBuf, &Path> = HashMap::with_capacity(found.len());
    let mut jobs = Vec::with_capacity(found.len());
    for (input, rel) in &found {
        let output = out_dir.join(name(rel));
        if let Some(other) = seen.insert(output.clone(), input) {
            return Err(Failure::usage(format!(
                "{} and {} would both be written to {}",
                shown(other),
                shown(input),
                shown(&output)
            )));
        }
        jobs.push(Job {
            input: input.clone(),
            output,
        });
    }
    Ok(jobs)
}

/// A path's components as owned values that sort as `Path` sorts them (`Component` order:
/// the kind of component, then its text).
fn path_key(path: &Path) -> Vec<(u8, std::ffi::OsString)> {
    use std::path::Component;
    path.components()
        .map(|c| {
            let kind = match c {
                Component::Prefix(_) => 0,
                Component::RootDir => 1,
                Component::CurDir => 2,
                Component::ParentDir => 3,
                Component::Normal(_) => 4,
            };
            (kind, c.as_os_str().to_os_string())
        })
        .collect()
}

/// Every file below `dir`, with its path relative to `root`.
fn walk(
    root: &Path,
    dir: &Path,
    skip: Option<&Path>,
    found: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<(), Failure> {
    if skip.is_some() && dir.canonicalize().ok().as_deref() == skip {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir).map_err(|e| Failure::io(dir, e))? {
        let path = entry.map_err(|e| Failure::io(dir, e))?.path();
        // Follows links, as opening the file does.
        let meta = std::fs::metadata(&path).map_err(|e| Failure::io(&path, e))?;
        if meta.is_dir() {
            walk(root, &path, skip, found)?;
        } else {
            let rel = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            found.push((path, rel));
        }
    }
    Ok(())
}

/// `name` with `.ext` added (`save.sav` → `save.sav.json`, so that `encode` can drop it
/// again).
pub fn add_extension(name: &Path, ext: &str) -> PathBuf {
    let mut s = name.as_os_str().to_os_string();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Runs `work` on every job, files in parallel (as many at once as there are cores), each
/// with its own notes; then prints, in path order, each failed file's notes and error, and a
/// summary: `gdvariant: 998 files converted, 2 failed`. The exit code is that of the first
/// failed file in path order, 0 if none failed.
pub fn run(
    jobs: &[Job],
    verb: &str,
    work: impl Fn(&Job, &mut Notes) -> Result<(), Failure> + Sync,
) -> Result<(), Failure> {
    // The JSON form and the walkers recurse once per nesting level, as on the main thread:
    // the same roomy stacks (reserved, not committed).
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(256 << 20)
        .build()
        .map_err(|e| Failure {
            code: EXIT_IO,
            message: format!("cannot start worker threads: {e}"),
        })?;
    let bar = if io::stderr().is_terminal() {
        let bar =
            ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} files, {per_sec}, {eta} left")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let results: Vec<(Result<(), Failure>, Notes)> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let mut notes = Notes::kept();
                let r = work(job, &mut notes);
                bar.inc(1);
                (r, notes)
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut failed = 0usize;
    let mut code = 0u8;
    for (r, notes) in results {
        if let Err(f) = r {
            failed += 1;
            if code == 0 {
                code = f.code;
            }
            eprint!("{}", notes.0.unwrap_or_default());
            if !f.message.is_empty() {
                eprintln!("gdvariant: error: {}", f.message);
            }
        }
    }
    let done = jobs.len() - failed;
    let files = if done == 1 { "file" } else { "files" };
    if failed == 0 {
        eprintln!("gdvariant: {done} {files} {verb}");
        Ok(())
    } else {
        eprintln!("gdvariant: {done} {files} {verb}, {failed} failed");
        Err(Failure::quiet(code))
    }
}

/// An output file written beside its final name (`OUT.partial`, parent directories made as
/// needed) and renamed into place only once the file succeeded: a failed file leaves no
/// output behind, and an interrupted run no half-written file under the final name.
pub fn staged<T>(
    output: &Path,
    work: impl FnOnce(&mut BufWriter<File>, &Path) -> Result<T, Failure>,
) -> Result<T, Failure> {
    if let Some(parent) = output.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Failure::io(parent, e))?;
    }
    let partial = partial_path(output);
    let file = File::create(&partial).map_err(|e| Failure::io(&partial, e))?;
    let mut w = BufWriter::with_capacity(1 << 16, file);
    let r = work(&mut w, &partial).and_then(|t| {
        w.flush().map_err(|e| Failure::io(&partial, e))?;
        Ok(t)
    });
    drop(w);
    match r {
        Ok(t) => {
            std::fs::rename(&partial, output).map_err(|e| Failure::io(output, e))?;
            Ok(t)
        }
        Err(f) => {
            let _ = std::fs::remove_file(&partial);
            Err(f)
        }
    }
}

/// The one input of a single-file run: several inputs or a directory need `--out-dir`.
pub fn single(inputs: &[PathBuf]) -> Result<&Path, Failure> {
    match inputs {
        [one] if one == Path::new("-") || !one.is_dir() => Ok(one),
        [one] => Err(Failure {
            code: EXIT_USAGE,
            message: format!(
                "{} is a directory: pass --out-dir DIR to write one output per file",
                shown(one)
            ),
        }),
        _ => Err(Failure {
            code: EXIT_USAGE,
            message: format!(
                "{} inputs: pass --out-dir DIR to write one output per file",
                inputs.len()
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::path_key;
    use std::path::Path;

    /// The batch's order is `Path`'s, also where it is not the order of the bytes (`a/b`
    /// before `a-b`; `..` and `-x` as components).
    #[test]
    fn path_keys_sort_as_paths_do() {
        let paths = [
            "a/b",
            "a-b",
            "a",
            "a/b/c",
            "./x",
            "../x",
            "-x",
            "/abs/x",
            "/abs",
            "x/..",
            "x/.",
            "b",
            "a.b",
            "a/.hidden",
            "A",
        ];
        let mut by_path: Vec<&Path> = paths.iter().map(Path::new).collect();
        let mut by_key = by_path.clone();
        by_path.sort();
        by_key.sort_by_cached_key(|p| path_key(p));
        assert_eq!(by_key, by_path);
    }
}
