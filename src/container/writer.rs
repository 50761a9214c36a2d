//! [`Writer`]: a `std::io::Write` that puts what is written into a save-file container and
//! seals it on [`Writer::finish`], so that the value writers make encrypted or compressed saves.

use super::compressed::{self, Mode};
use super::layout::{EncryptedLayout, COMPRESSED_MAGIC, DEFAULT_BLOCK_SIZE};
use super::{encrypted, ContainerError, Key};
use std::io::{self, Write};

/// Which container a [`Writer`] makes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Container {
    /// No container: the bytes as written.
    Plain,
    /// `FileAccess.open_encrypted*`: `iv` `None` draws a random one (Godot 4 layout only).
    Encrypted {
        /// The key or password.
        key: Key,
        /// The generation's layout.
        layout: EncryptedLayout,
        /// The IV of a Godot 4 file.
        iv: Option<[u8; 16]>,
    },
    /// `FileAccess.open_compressed`.
    Compressed {
        /// The compression mode.
        mode: Mode,
        /// The plain block size (the engine's is 4,096).
        block_size: u32,
    },
}

impl Container {
    /// `open_encrypted_with_pass(path, WRITE, password)` of the generation `layout`.
    pub fn password(password: impl Into<String>, layout: EncryptedLayout) -> Container {
        Container::Encrypted {
            key: Key::password(password),
            layout,
            iv: None,
        }
    }

    /// `open_compressed(path, WRITE, mode)`, with the engine's block size.
    pub fn compressed(mode: Mode) -> Container {
        Container::Compressed {
            mode,
            block_size: DEFAULT_BLOCK_SIZE,
        }
    }
}

/// Writes a save file's plain data into a container, sealing it on [`finish`](Writer::finish):
/// hand it to [`to_writer`](crate::to_writer) or
/// [`write_frame`](crate::framing::write_frame) as any writer.
///
/// Both headers state the whole data before it (a compressed file its block table, an
/// encrypted one its length and MD5), so nothing reaches the inner writer before `finish`,
/// as in the engine, which writes on `close`. A compressed file is compressed block by block
/// as the bytes come, keeping the compressed blocks and one plain block; an encrypted file
/// keeps the plain data. Dropping the writer without `finish` writes nothing.
///
/// ```
/// use gdvariant::container::{Container, EncryptedLayout, OpenOptions, Key, Reader, Writer};
/// use gdvariant::{framing::Framing, from_reader, to_writer, Format};
/// let format = Format::godot4().framing(Framing::STORE_VAR);
/// let mut writer = Writer::new(Vec::new(), Container::password("secret", EncryptedLayout::Godot4))?;
/// to_writer(&mut writer, &42i64, &format)?;
/// let file = writer.finish()?;
/// let options = OpenOptions { key: Some(Key::password("secret")), ..OpenOptions::default() };
/// let n: i64 = from_reader(Reader::new(&file[..], &options)?, &format)?;
/// assert_eq!(n, 42);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Writer<W: Write> {
    inner: W,
    container: Container,
    /// Plain bytes not yet compressed (compressed), or all of them (encrypted).
    pending: Vec<u8>,
    /// The compressed blocks so far, and their sizes.
    packed: Vec<u8>,
    sizes: Vec<u32>,
    total: u64,
}

fn to_io(e: ContainerError) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

impl<W: Write> Writer<W> {
    /// A writer into `container`; a compression mode the engines do not write, or a block
    /// size of 0, is refused here.
    pub fn new(inner: W, container: Container) -> Result<Writer<W>, ContainerError> {
        if let Container::Compressed { mode, block_size } = container {
            compressed::check_writable(mode, block_size)?;
        }
        Ok(Writer {
            inner,
            container,
            pending: Vec::new(),
            packed: Vec::new(),
            sizes: Vec::new(),
            total: 0,
        })
    }

    /// Seals the container, writes it to the inner writer and gives that back.
    pub fn finish(mut self) -> io::Result<W> {
        match &self.container {
            Container::Plain => {}
            Container::Encrypted { key, layout, iv } => {
                let file = encrypted::write(&self.pending, key, *layout, *iv).map_err(to_io)?;
                self.inner.write_all(&file)?;
            }
            Container::Compressed { mode, block_size } => {
                let (mode, block_size) = (*mode, *block_size);
                // The engine always ends with one more block, empty when the length is a
                // multiple of the block size.
                self.seal_block(mode, self.pending.len())?;
                let total = u32::try_from(self.total).map_err(|_| {
                    to_io(ContainerError::Write {
                        why: "the data is over 4 GiB, the length field's limit".into(),
                    })
                })?;
                let head = compressed::header_bytes(mode, block_size, total, &self.sizes);
                self.inner.write_all(&head)?;
                self.inner.write_all(&self.packed)?;
                self.inner.write_all(COMPRESSED_MAGIC)?;
            }
        }
        self.inner.flush()?;
        Ok(self.inner)
    }

    /// Compresses the first `len` pending bytes as one block.
    fn seal_block(&mut self, mode: Mode, len: usize) -> io::Result<()> {
        let block = compressed::compress_block(mode, &self.pending[..len]).map_err(to_io)?;
        self.sizes.push(block.len() as u32);
        self.packed.extend_from_slice(&block);
        self.pending.drain(..len);
        Ok(())
    }
}

impl<W: Write> Write for Writer<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.container {
            Container::Plain => return self.inner.write(buf),
            Container::Encrypted { .. } => self.pending.extend_from_slice(buf),
            Container::Compressed { mode, block_size } => {
                let block = block_size as usize;
                let mut rest = buf;
                while !rest.is_empty() {
                    let take = (block - self.pending.len()).min(rest.len());
                    self.pending.extend_from_slice(&rest[..take]);
                    rest = &rest[take..];
                    if self.pending.len() == block {
                        self.seal_block(mode, block)?;
                    }
                }
            }
        }
        self.total += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.container {
            Container::Plain => self.inner.flush(),
            _ => Ok(()),
        }
    }
}

impl<W: Write> std::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Writer")
            .field("container", &self.container)
            .field("total", &self.total)
            .finish_non_exhaustive()
    }
}
