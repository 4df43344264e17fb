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
use super::alg::{Algorithm, CipherSpec, Direction};
use super::blowfish::{BLOCK, Blowfish, check_whole_blocks};
use super::modes::{self, Padding};
use super::{Rc4, Rc4a};
use crate::cipher::parallel::bf_folded::{FoldedConfig, FoldedPipeline};
use crate::cipher::parallel::bf_pipeline::Layout;
use crate::cipher::parallel::parc4::Parc4;
use crate::cipher::parallel::parc4i::Parc4i;
use crate::cipher::parallel::pblock::PBlock;
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

/// The per-algorithm state carried from piece to piece.
enum State {
    /// ECB, PBlock-ECB or the pipeline: no state between pieces.
    Ecb,
    /// CBC: the chaining block.
    Cbc([u8; BLOCK]),
    /// CTR and PBlock-CTR: the IV and the next block index.
    Ctr([u8; BLOCK], u64),
    /// RC4's running state (boxed: 258 bytes).
    Rc4(Box<Rc4>),
    /// RC4A's running state (boxed: 520 bytes).
    Rc4a(Box<Rc4a>),
    /// PARC4 / PARC4-I: the next block or segment index.
    Parc4(Parc4, u64),
    Parc4i(Parc4i, u64),
}

/// A validated spec turned into a running transform.
struct Engine {
    algorithm: Algorithm,
    direction: Direction,
    padding: Padding,
    threads: usize,
    chunk: Option<usize>,
    bf: Option<Blowfish>,
    state: State,
}

impl Engine {
    fn new(spec: &CipherSpec, direction: Direction) -> Result<Self> {
        spec.validate(direction)?;
        let a = spec.algorithm;
        let threads = spec.threads(direction);
        let bf = a
            .is_blowfish()
            .then(|| Blowfish::new(&spec.key))
            .transpose()?;
        let nonce = spec.nonce.as_deref().unwrap_or_default();
        let chunk = spec.chunk();
        let state = match a {
            Algorithm::BlowfishEcb | Algorithm::PblockEcb | Algorithm::BfPipeline => State::Ecb,
            Algorithm::BlowfishCbc => State::Cbc(spec.iv.expect("validated")),
            Algorithm::BlowfishCtr | Algorithm::PblockCtr => {
                State::Ctr(spec.iv.expect("validated"), 0)
            }
            Algorithm::Rc4 => State::Rc4(Box::new(Rc4::new(&spec.key)?)),
            Algorithm::Rc4a => State::Rc4a(Box::new(Rc4a::new(&spec.key)?)),
            Algorithm::Parc4 => State::Parc4(
                Parc4::new(&spec.key, nonce, chunk.expect("has chunk"), threads)?,
                0,
            ),
            Algorithm::Parc4i => State::Parc4i(
                Parc4i::new(&spec.key, nonce, chunk.expect("has chunk"), threads)?,
                0,
            ),
        };
        Ok(Self {
            algorithm: a,
            direction,
            padding: spec.padding,
            threads,
            chunk,
            bf,
            state,
        })
    }

    /// Piece sizes must keep blocks, PARC4 blocks and PARC4-I segments whole.
    fn piece_bytes(&self, target: usize) -> usize {
        let unit = match self.state {
            State::Parc4(..) | State::Parc4i(..) => self.chunk.expect("has chunk"),
            _ => BLOCK,
        };
        target.max(1).div_ceil(unit) * unit
    }

    /// Transforms a piece that is not the last (whole blocks by construction).
    fn process(&mut self, piece: &mut [u8]) -> Result<()> {
        let enc = self.direction == Direction::Encrypt;
        let bf = self.bf.as_ref();
        match &mut self.state {
            State::Ecb => {
                let bf = bf.expect("blowfish");
                match self.algorithm {
                    Algorithm::BfPipeline => {
                        let layout = if enc {
                            Layout::Encrypt
                        } else {
                            Layout::Decrypt
                        };
                        let config = FoldedConfig {
                            chunk_bytes: self.chunk.expect("has chunk"),
                            ..FoldedConfig::new(layout, self.threads)
                        };
                        FoldedPipeline::new(bf, config)?.run(piece)?;
                    }
                    _ => {
                        let pb = PBlock::new(bf, self.threads)?;
                        if enc {
                            pb.encrypt_ecb(piece)?
                        } else {
                            pb.decrypt_ecb(piece)?
                        }
                    }
                }
            }
            State::Cbc(chain) => {
                let bf = bf.expect("blowfish");
                if enc {
                    modes::cbc_encrypt_in_place(bf, chain, piece)?;
                } else {
                    PBlock::new(bf, self.threads)?.decrypt_cbc(chain, piece)?;
                }
            }
            State::Ctr(iv, next) => {
                PBlock::new(bf.expect("blowfish"), self.threads)?.apply_ctr(iv, *next, piece);
                *next = next.wrapping_add((piece.len() / BLOCK) as u64);
            }
            State::Rc4(rc4) => rc4.apply_keystream(piece),
            State::Rc4a(rc4a) => rc4a.apply_keystream(piece),
            State::Parc4(p, next) => {
                p.apply(*next, piece);
                *next += piece.len().div_ceil(p.block_bytes()) as u64;
            }
            State::Parc4i(p, next) => {
                p.apply(*next, piece);
                *next += piece.len().div_ceil(p.segment_bytes()) as u64;
            }
        }
        Ok(())
    }

    /// Transforms the last piece (possibly empty), adding or checking padding.
    fn finish(&mut self, last: &mut Vec<u8>) -> Result<()> {
        if !self.algorithm.pads() {
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
    let mut engine = Engine::new(spec, direction)?;
    let piece = engine.piece_bytes(piece_target);
    let (mut cur, mut next) = (Vec::new(), Vec::new());
    let mut outcome = Outcome {
        bytes_in: 0,
        bytes_out: 0,
    };
    fill(reader, &mut cur, piece).map_err(io_error)?;
    loop {
        outcome.bytes_in += cur.len() as u64;
        let last = cur.len() < piece || {
            fill(reader, &mut next, piece).map_err(io_error)?;
            next.is_empty()
        };
        if last {
            engine.finish(&mut cur)?;
        } else {
            engine.process(&mut cur)?;
        }
        writer.write_all(&cur).map_err(io_error)?;
        outcome.bytes_out += cur.len() as u64;
        if last {
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

/// Whether two paths name the same existing file (after symlinks, or the same inode).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) if x == y => return true,
        _ => {}
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    a == b
}

/// Transforms the file `input` into `output`: streamed, written to a temporary file beside
/// `output` and renamed over it only when complete. `output` must not be `input`.
pub fn transform_file(
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
    output: &Path,
) -> Result<Outcome> {
    if same_file(input, output) {
        return Err(Error::InvalidParameter(
            "--out must differ from --in (parcrypt never overwrites its input)".into(),
        ));
    }
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
