//! Any algorithm over a file or stream in bounded memory.
//!
//! The input is read in pieces of about [`PIECE_BYTES`] (rounded up to whole PARC4 blocks or
//! PARC4-I segments); each piece is transformed in place — in parallel where the algorithm is
//! — and written out before the next is processed. One piece of look-ahead tells which piece
//! is the last, so padding is added or checked only there. At most two pieces are in memory.
//!
//! [`transform_file`] writes to a temporary file beside the destination and renames it only
//! on success: an error (bad padding, a ciphertext that is not whole blocks, a full disk)
//! leaves no output file. It refuses to write over its input.
use super::alg::{CipherSpec, Direction};
use super::blowfish::{BLOCK, check_whole_blocks};
use super::dispatch::{Run, Stream};
use super::modes::{self, Padding};
use crate::error::{Error, Result};
use std::io::{Read, Write};
use std::path::Path;

/// Target piece size: 8 MiB.
pub const PIECE_BYTES: usize = 8 << 20;

/// What a transform read and wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Bytes read.
    pub bytes_in: u64,
    /// Bytes written.
    pub bytes_out: u64,
}

/// A validated spec turned into a running transform.
struct Engine {
    /// Whether the algorithm pads (ECB, CBC).
    pads: bool,
    direction: Direction,
    /// [`CipherSpec::unit_bytes`].
    unit: usize,
    padding: Padding,
    stream: Stream,
}

impl Engine {
    /// The transform of the message's part that starts at byte `offset`.
    fn new(spec: &CipherSpec, direction: Direction, offset: usize) -> Result<Self> {
        let mut stream = spec.cipher(direction)?.start(Run::new(direction))?;
        stream.seek(offset)?;
        Ok(Self {
            pads: spec.algorithm.pads(),
            direction,
            unit: spec.unit_bytes(),
            padding: spec.padding,
            stream,
        })
    }

    /// Transforms a piece that is not the last (whole blocks by construction).
    fn process(&mut self, piece: &mut [u8]) -> Result<()> {
        self.stream.apply(piece)
    }

    /// Transforms the last piece (possibly empty), adding or checking padding.
    fn finish(&mut self, last: &mut Vec<u8>) -> Result<()> {
        if !self.pads {
            return self.process(last);
        }
        match self.direction {
            Direction::Encrypt => {
                match self.padding {
                    Padding::Pkcs7 => modes::pkcs7_pad(last),
                    Padding::None => check_whole_blocks(last.len())?,
                }
                self.process(last)
            }
            Direction::Decrypt => {
                if last.len() % BLOCK != 0 {
                    return Err(Error::InvalidCiphertext(
                        "ciphertext is not a whole number of 8-byte blocks".into(),
                    ));
                }
                self.process(last)?;
                match self.padding {
                    Padding::Pkcs7 => modes::pkcs7_unpad(last),
                    Padding::None => Ok(()),
                }
            }
        }
    }
}

/// Reads until `buf` holds `want` bytes or the input ends.
fn fill(reader: &mut dyn Read, buf: &mut Vec<u8>, want: usize) -> std::io::Result<()> {
    buf.clear();
    buf.resize(want, 0);
    let mut got = 0;
    while got < want {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(got);
    Ok(())
}

/// Transforms everything `reader` yields into `writer`, in pieces of about `piece_target`
/// bytes. `io_error` names the file behind an I/O error.
pub fn transform_stream(
    spec: &CipherSpec,
    direction: Direction,
    reader: &mut dyn Read,
    writer: &mut dyn Write,
    piece_target: usize,
    io_error: &dyn Fn(std::io::Error) -> Error,
) -> Result<Outcome> {
    let pieces = Pieces {
        target: piece_target,
        io_error,
    };
    transform_part_stream(spec, direction, 0, true, reader, writer, pieces)
}

/// How [`transform_part_stream`] reads: pieces of about `target` bytes; `io_error` names the
/// file behind an I/O error.
#[derive(Clone, Copy)]
pub struct Pieces<'a> {
    /// Target piece size in bytes (rounded up to whole units).
    pub target: usize,
    /// Turns an I/O error into the library's error, naming the file.
    pub io_error: &'a dyn Fn(std::io::Error) -> Error,
}

/// Transforms the part of a message that starts at byte `offset` (a unit boundary, as for
/// [`transform_part`]) as a stream: everything `reader` yields, into `writer`, in pieces, at
/// most two in memory. `last`: the part holds the message's end (padding is added or checked
/// there); otherwise the part must be whole units, and may be empty.
pub fn transform_part_stream(
    spec: &CipherSpec,
    direction: Direction,
    offset: usize,
    last: bool,
    reader: &mut dyn Read,
    writer: &mut dyn Write,
    pieces: Pieces<'_>,
) -> Result<Outcome> {
    let io_error = pieces.io_error;
    // A part that does not hold the end may be empty and start at the message's unaligned end:
    // its engine starts only once there is something to transform.
    let engine = last
        .then(|| Engine::new(spec, direction, offset))
        .transpose()?;
    // Piece sizes keep blocks, PARC4 blocks and PARC4-I segments whole.
    let unit = spec.unit_bytes();
    let piece = pieces.target.max(1).div_ceil(unit) * unit;
    let (mut cur, mut next) = (Vec::new(), Vec::new());
    let mut outcome = Outcome {
        bytes_in: 0,
        bytes_out: 0,
    };
    fill(reader, &mut cur, piece).map_err(io_error)?;
    let mut engine = match engine {
        Some(e) => e,
        None if cur.is_empty() => return Ok(outcome),
        None => Engine::new(spec, direction, offset)?,
    };
    loop {
        outcome.bytes_in += cur.len() as u64;
        let end = cur.len() < piece || {
            fill(reader, &mut next, piece).map_err(io_error)?;
            next.is_empty()
        };
        match (end, last) {
            (true, true) => engine.finish(&mut cur)?,
            (true, false) if cur.len() % unit != 0 => {
                return Err(Error::InvalidParameter(format!(
                    "a part that is not the last must be whole {unit}-byte units, not {} bytes",
                    outcome.bytes_in
                )));
            }
            _ => engine.process(&mut cur)?,
        }
        writer.write_all(&cur).map_err(io_error)?;
        outcome.bytes_out += cur.len() as u64;
        if end {
            return Ok(outcome);
        }
        std::mem::swap(&mut cur, &mut next);
    }
}

/// Transforms a whole message in memory (the same engine as for files).
pub fn transform_bytes(spec: &CipherSpec, direction: Direction, data: &[u8]) -> Result<Vec<u8>> {
    transform_bytes_in_pieces(spec, direction, data, PIECE_BYTES)
}

/// As [`transform_bytes`], with a chosen piece size (tests use tiny pieces to cross piece
/// boundaries).
pub fn transform_bytes_in_pieces(
    spec: &CipherSpec,
    direction: Direction,
    data: &[u8],
    piece_target: usize,
) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() + BLOCK);
    let io = |e: std::io::Error| Error::InvalidParameter(e.to_string());
    transform_stream(spec, direction, &mut &data[..], &mut out, piece_target, &io)?;
    Ok(out)
}

/// Transforms in place the part of a message that starts at byte `offset` (a unit boundary:
/// 8-byte block, PARC4 block, PARC4-I segment); `last`: the part holds the message's end, so
/// padding is added or checked there. Concatenated in order, the parts equal
/// [`transform_bytes`] of the whole. Errors: an offset the algorithm cannot start at (CBC and
/// the RC4 family start only at 0), a ciphertext that is not whole blocks, bad padding.
pub fn transform_part(
    spec: &CipherSpec,
    direction: Direction,
    offset: usize,
    last: bool,
    data: &mut Vec<u8>,
) -> Result<()> {
    if data.is_empty() && !last {
        // Nothing to transform, and the offset may be the message's unaligned end.
        return Ok(());
    }
    let mut engine = Engine::new(spec, direction, offset)?;
    if last {
        engine.finish(data)
    } else if data.len() % engine.unit != 0 {
        Err(Error::InvalidParameter(format!(
            "a part that is not the last must be whole {}-byte units, not {} bytes",
            engine.unit,
            data.len()
        )))
    } else {
        engine.process(data)
    }
}

/// Transforms the file `input` into `output`: streamed, written to a temporary file beside
/// `output` and renamed over it only when complete. `output` must not be `input`. A
/// ciphertext is left with mode 0644, a decrypted file with 0600 (Unix).
pub fn transform_file(
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
    output: &Path,
) -> Result<Outcome> {
    crate::io::check_not_input(("--out", output), &[("--in", input)])?;
    spec.validate(direction)?;
    let in_err = |source| Error::Io {
        path: input.to_path_buf(),
        source,
    };
    let out_err = |source| Error::Io {
        path: output.to_path_buf(),
        source,
    };
    let mut reader = std::fs::File::open(input).map_err(in_err)?;
    let dir = match output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".parcrypt-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(out_err)?;
    // Errors from the reader name the input; from the writer, the output.
    let mut writer = ErrorNaming {
        inner: std::io::BufWriter::with_capacity(1 << 20, tmp.as_file_mut()),
        failed: false,
    };
    let outcome = transform_stream(
        spec,
        direction,
        &mut reader,
        &mut writer,
        PIECE_BYTES,
        &|e| in_err(e),
    );
    let outcome = match outcome {
        Err(Error::Io { source, .. }) if writer.failed => return Err(out_err(source)),
        other => other?,
    };
    writer.inner.flush().map_err(out_err)?;
    drop(writer);
    // Ciphertext is as public as any other output (0644, as `write_atomic` gives); recovered
    // plaintext stays readable by its owner only (0600, the temporary file's own mode).
    #[cfg(unix)]
    if direction == Direction::Encrypt {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(crate::io::PUBLIC_MODE))
            .map_err(out_err)?;
    }
    tmp.as_file().sync_all().map_err(out_err)?;
    tmp.persist(output).map_err(|e| out_err(e.error))?;
    Ok(outcome)
}

/// A writer that remembers whether it failed, so the error can name the right file.
struct ErrorNaming<W: Write> {
    inner: W,
    failed: bool,
}

impl<W: Write> Write for ErrorNaming<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|_| self.failed = true)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|_| self.failed = true)
    }
}
