//! Capture files: the raw bytes of a debugger session, both directions in the order they
//! passed, so a session can be replayed through the same reader (`gdvariant debug replay`).
//!
//! Layout: the 8 bytes `GDVDBG01`, then records of one direction byte (0 from the game, 1 to
//! the game), a little-endian `u32` length and that many bytes, exactly as read from or written
//! to the socket (so a replay meets the same garbage and the same split frames).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

/// The first bytes of every capture file.
pub const MAGIC: &[u8; 8] = b"GDVDBG01";

/// Which way a record's bytes went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the game to the debugger.
    FromGame,
    /// From the debugger to the game.
    ToGame,
}

/// One read or write of a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Which way.
    pub direction: Direction,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// Reads every record of a capture file held in memory.
pub fn parse(data: &[u8]) -> io::Result<Vec<Record>> {
    let bad = |offset: usize, what: &str| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("not a gdvariant debugger capture: {what} (at offset {offset:#x})"),
        )
    };
    if !data.starts_with(MAGIC) {
        return Err(bad(0, "it does not start with `GDVDBG01`"));
    }
    let mut records = Vec::new();
    let mut at = MAGIC.len();
    while at < data.len() {
        let head = data
            .get(at..at + 5)
            .ok_or_else(|| bad(at, "a record header is cut short"))?;
        let direction = match head[0] {
            0 => Direction::FromGame,
            1 => Direction::ToGame,
            d => return Err(bad(at, &format!("direction byte {d}"))),
        };
        let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let bytes = data
            .get(at + 5..)
            .and_then(|rest| rest.get(..len))
            .ok_or_else(|| bad(at, &format!("a record of {len} bytes is cut short")))?;
        records.push(Record {
            direction,
            bytes: bytes.to_vec(),
        });
        at += 5 + len;
    }
    Ok(records)
}

/// Reads a capture file.
pub fn read(path: &Path) -> io::Result<Vec<Record>> {
    parse(&std::fs::read(path)?)
}

/// Appends records to a capture file, flushing each so that a session cut short leaves a
/// readable file.
pub(crate) struct Recorder {
    out: BufWriter<File>,
}

impl Recorder {
    pub(crate) fn create(path: &Path) -> io::Result<Recorder> {
        let mut out = BufWriter::new(File::create(path)?);
        out.write_all(MAGIC)?;
        out.flush()?;
        Ok(Recorder { out })
    }

    pub(crate) fn write(&mut self, direction: Direction, bytes: &[u8]) -> io::Result<()> {
        let len = u32::try_from(bytes.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "record over 4 GiB"))?;
        self.out.write_all(&[direction as u8])?;
        self.out.write_all(&len.to_le_bytes())?;
        self.out.write_all(bytes)?;
        self.out.flush()
    }
}
