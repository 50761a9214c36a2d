//! The error of reading a resource file (`.res`, `.tres`): what was wrong and where.

/// Why a resource file could not be read or written. Binary files give the byte offset,
/// text files the line and column.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// The binary file is malformed at `offset`.
    #[error("{message} (at offset {offset:#x})")]
    Binary {
        /// Where the offending field starts.
        offset: usize,
        /// What was wrong.
        message: String,
    },
    /// The text file is malformed at `line`, `column` (from 1).
    #[error("{message} at line {line}, column {column}")]
    Text {
        /// Line, from 1.
        line: usize,
        /// Column in characters, from 1.
        column: usize,
        /// What was wrong.
        message: String,
    },
    /// The file holds something the requested form or engine cannot hold.
    #[error("{0}")]
    Unsupported(String),
}
