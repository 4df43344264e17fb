//! PBlock (ECB, CTR) and PARC4 over a file split among ranks (cipher-energy): every rank reads its
//! own part and writes it into the output at its own offset, in pieces, and the output
//! appears atomically.
//!
//! Rank 0 learns the file's length and broadcasts it; the file is cut into R contiguous parts
//! on cipher-unit boundaries (8-byte blocks, or PARC4 blocks), `schedule(static)` over ranks.
//! Each rank streams its part (the file must be at the same path on every host) through the
//! cipher in pieces of [`PIECE_BYTES`], with threads inside the rank, into one temporary output
//! file at the same offset ([`super::shared_file`]); the rank holding the end pads or unpads
//! (ECB). Memory per rank is two pieces, whatever the file's size, and no rank holds another's
//! data. Every rank's outcome is agreed before rank 0 renames the file: any failure on any rank
//! leaves no output file.
//!
//! Verification ([`Verify`]) is done by each rank on its own part: its part of the output is
//! read back and compared with the sequential reference computed on its own slice of the input
//! (Blowfish ECB or CTR for PBlock, PARC4 on one thread), again in pieces. `full` has rank 0
//! compare the whole output with the sequential reference of the whole input instead (for
//! tests: one rank redoes all the work).
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use super::shared_file::{SharedOutput, io_error};
use parcrypt::cipher::alg::{Algorithm, CipherSpec, Direction};
use parcrypt::cipher::file::{Pieces, transform_part_stream};
use parcrypt::parallel::schedule::static_block;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The algorithms that run over ranks.
pub const ALGORITHMS: [Algorithm; 3] =
    [Algorithm::PblockEcb, Algorithm::PblockCtr, Algorithm::Parc4];

/// Bytes a rank reads, transforms and writes at a time (two are in memory at once).
pub const PIECE_BYTES: usize = 8 << 20;

/// How the output is checked before it is renamed into place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verify {
    /// Not checked (timed runs after a checked one).
    None,
    /// Each rank checks its own part against the sequential reference of its own slice.
    Part,
    /// Rank 0 checks the whole output against the sequential reference of the whole input.
    Full,
}

/// How an output is finished before it appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// How it is checked.
    pub verify: Verify,
    /// Whether it reaches the disk before it is renamed (`fsync`): always for a user's output;
    /// timed runs whose output is thrown away leave it out, since a slow disk would time the
    /// disk (110 MB/s on the build machine: 2.4 s for 256 MiB, whatever the cipher).
    pub sync: bool,
}

impl Finish {
    /// A user's output, checked as `verify` says and synced.
    pub fn output(verify: Verify) -> Self {
        Self { verify, sync: true }
    }
}

/// Checks the spec (identically on every rank).
pub fn validate(spec: &CipherSpec, direction: Direction) -> MpiResult<()> {
    if !ALGORITHMS.contains(&spec.algorithm) {
        return Err(MpiError::Usage(format!(
            "over ranks: pblock-ecb, pblock-ctr or parc4, not {}",
            spec.algorithm
        )));
    }
    spec.validate(direction)
        .map_err(|e| MpiError::Usage(e.to_string()))
}

/// Rank `r`'s byte range of a `len`-byte input over `ranks` ranks.
pub fn part(spec: &CipherSpec, len: usize, ranks: usize, r: usize) -> Range<usize> {
    let u = spec.unit_bytes();
    let units = static_block(len.div_ceil(u), ranks, r);
    (units.start * u).min(len)..(units.end * u).min(len)
}

/// Whether rank `r` holds the end of the input and so pads (encrypting) or unpads
/// (decrypting): the highest rank with a non-empty part, or rank 0 for an empty input. With
/// fewer whole units than ranks the last ranks get nothing, and the end is not theirs (a 7-byte
/// input on 2 ranks: rank 0 holds all of it).
pub fn holds_end(spec: &CipherSpec, len: usize, ranks: usize, r: usize) -> bool {
    let owner = (0..ranks)
        .rev()
        .find(|&q| !part(spec, len, ranks, q).is_empty())
        .unwrap_or(0);
    r == owner
}

/// The sequential reference's spec: Blowfish ECB / CTR for PBlock, PARC4 on one thread.
pub fn reference_spec(spec: &CipherSpec) -> CipherSpec {
    let mut seq = spec.clone();
    match spec.algorithm {
        Algorithm::Parc4 => seq.threads = Some(1),
        a => {
            seq.algorithm = a.sequential_form();
            seq.threads = None;
        }
    }
    seq
}

/// The sequential reference of a whole message in memory.
pub fn reference(
    spec: &CipherSpec,
    direction: Direction,
    data: &[u8],
) -> parcrypt::Result<Vec<u8>> {
    parcrypt::cipher::file::transform_bytes(&reference_spec(spec), direction, data)
}

/// Rank 0 reads the input's length; every rank gets it. Agreed.
pub fn input_len(ranks: &Ranks, input: &Path) -> MpiResult<usize> {
    let len = if ranks.is_root() {
        std::fs::metadata(input)
            .map_err(|e| io_error(input, e))
            .and_then(|m| {
                usize::try_from(m.len()).map_err(|_| MpiError::Runtime("input too large".into()))
            })
    } else {
        Ok(0)
    };
    let len = ranks.agree(len)? as u64;
    let bytes = ranks.broadcast(Some(&len.to_le_bytes()));
    let b: [u8; 8] = bytes
        .try_into()
        .map_err(|_| MpiError::Protocol("malformed length".into()))?;
    Ok(u64::from_le_bytes(b) as usize)
}

/// One rank's part of a file transform: `range` of `input` through `spec`, in pieces of
/// `piece` bytes; `last`: the part holds the end (pads or unpads).
#[derive(Clone, Debug)]
struct Part<'a> {
    spec: &'a CipherSpec,
    direction: Direction,
    input: &'a Path,
    range: Range<usize>,
    last: bool,
    piece: usize,
}

impl Part<'_> {
    /// The part of `input` as a reader.
    fn open(&self) -> MpiResult<std::io::Take<File>> {
        let input = self.input;
        let mut f = File::open(input).map_err(|e| io_error(input, e))?;
        f.seek(SeekFrom::Start(self.range.start as u64))
            .map_err(|e| io_error(input, e))?;
        Ok(f.take(self.range.len() as u64))
    }

    /// Streams the part into `out` (every byte must arrive: a file that shrank is an error);
    /// `out_error` names the output in a write error. Returns the bytes written.
    fn stream(
        &self,
        out: &mut dyn Write,
        out_error: &dyn Fn(std::io::Error) -> parcrypt::Error,
    ) -> MpiResult<u64> {
        let mut reader = self.open()?;
        let failed = std::cell::Cell::new(false);
        let mut out = Flagging {
            inner: out,
            failed: &failed,
        };
        let io_error = |e| {
            if failed.get() {
                out_error(e)
            } else {
                parcrypt::Error::Io {
                    path: self.input.to_path_buf(),
                    source: e,
                }
            }
        };
        let pieces = Pieces {
            target: self.piece,
            io_error: &io_error,
        };
        let (spec, direction, start) = (self.spec, self.direction, self.range.start);
        let done = transform_part_stream(
            spec,
            direction,
            start,
            self.last,
            &mut reader,
            &mut out,
            pieces,
        )?;
        if done.bytes_in != self.range.len() as u64 {
            return Err(MpiError::Runtime(format!(
                "{}: the file changed while it was read",
                self.input.display()
            )));
        }
        Ok(done.bytes_out)
    }

    /// Compares `file` (the output, named `output`) from the part's offset on with the
    /// sequential reference of the part.
    fn check(&self, file: &File, output: &Path) -> MpiResult<()> {
        let mut cmp = Compare {
            file,
            at: self.range.start as u64,
            buf: Vec::new(),
            first_difference: None,
        };
        let out_err = |e| parcrypt::Error::Io {
            path: output.to_path_buf(),
            source: e,
        };
        let seq = reference_spec(self.spec);
        let reference = Part {
            spec: &seq,
            ..self.clone()
        };
        let res = reference.stream(&mut cmp, &out_err);
        if let Some(at) = cmp.first_difference {
            return Err(MpiError::Mismatch(format!(
                "{} over ranks differs from the sequential reference at byte {at} of {}",
                self.spec.algorithm,
                output.display()
            )));
        }
        res.map(drop)
    }
}

/// A writer that remembers whether it failed (so an error names the right file).
struct Flagging<'a> {
    inner: &'a mut dyn Write,
    failed: &'a std::cell::Cell<bool>,
}

impl Write for Flagging<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|_| self.failed.set(true))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|_| self.failed.set(true))
    }
}

/// A writer that compares what it is given with a file's bytes from an offset on.
struct Compare<'a> {
    file: &'a File,
    at: u64,
    buf: Vec<u8>,
    first_difference: Option<u64>,
}

impl Write for Compare<'_> {
    fn write(&mut self, want: &[u8]) -> std::io::Result<usize> {
        self.buf.resize(want.len(), 0);
        self.file.read_exact_at(&mut self.buf, self.at)?;
        if let Some(i) = self.buf.iter().zip(want).position(|(a, b)| a != b) {
            self.first_difference = Some(self.at + i as u64);
            return Err(std::io::Error::other(
                "differs from the sequential reference",
            ));
        }
        self.at += want.len() as u64;
        Ok(want.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Transforms `input` into `output` over all ranks, finished as `finish` says; rank 0 gets the
/// bytes read and written. Decrypted output gets mode 0600, encrypted 0644.
pub fn transform_file(
    ranks: &Ranks,
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
    output: &Path,
    finish: Finish,
) -> MpiResult<Option<(u64, u64)>> {
    let verify = finish.verify;
    validate(spec, direction)?;
    let len = input_len(ranks, input)?;
    let out = SharedOutput::create(ranks, output)?;
    let mine = Part {
        spec,
        direction,
        input,
        range: part(spec, len, ranks.size(), ranks.rank()),
        last: holds_end(spec, len, ranks.size(), ranks.rank()),
        piece: PIECE_BYTES,
    };
    let mut writer = out.writer_at(mine.range.start as u64);
    let out_err = |e| parcrypt::Error::Io {
        path: output.to_path_buf(),
        source: e,
    };
    let local = mine.stream(&mut writer, &out_err).and_then(|written| {
        if verify == Verify::Part {
            mine.check(out.file(), output)?;
        }
        Ok(written)
    });
    let mode = match direction {
        Direction::Encrypt => parcrypt::io::PUBLIC_MODE,
        Direction::Decrypt => 0o600,
    };
    let whole = Part {
        range: 0..len,
        last: true,
        ..mine.clone()
    };
    let full = |file: &File| {
        if verify != Verify::Full {
            return Ok(());
        }
        whole.check(file, output)
    };
    let total = out.commit(ranks, local, finish.sync, mode, &full)?;
    Ok(ranks.is_root().then_some((len as u64, total)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use parcrypt::cipher::file::transform_part;

    fn spec(a: Algorithm) -> CipherSpec {
        let mut s = CipherSpec::new(a, b"bulk-key");
        match a {
            Algorithm::PblockCtr => s.iv = Some(*b"counter0"),
            Algorithm::Parc4 => {
                s.nonce = Some(b"nonce-0123456789".to_vec());
                s.chunk = Some(64);
            }
            _ => {}
        }
        s.threads = Some(2);
        s
    }

    #[test]
    fn parts_put_together_equal_the_sequential_reference() {
        for a in ALGORITHMS {
            for len in [0usize, 7, 8, 100, 1000] {
                let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
                let s = spec(a);
                for ranks in [1, 2, 3, 5] {
                    let mut whole = Vec::new();
                    for r in 0..ranks {
                        let range = part(&s, len, ranks, r);
                        let mut piece = data[range.clone()].to_vec();
                        transform_part(
                            &s,
                            Direction::Encrypt,
                            range.start,
                            holds_end(&s, len, ranks, r),
                            &mut piece,
                        )
                        .unwrap();
                        whole.extend(piece);
                    }
                    let want = reference(&s, Direction::Encrypt, &data).unwrap();
                    assert_eq!(whole, want, "{a} len {len} ranks {ranks}");
                }
            }
        }
    }

    /// The per-rank path without MPI: each "rank" streams its part into one file at its
    /// offset, and checks it against the reference of its slice; a corrupted byte is found.
    #[test]
    fn streamed_parts_at_their_offsets_make_the_reference_and_a_flipped_byte_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("in");
        let output = dir.path().join("out");
        for a in ALGORITHMS {
            // Pieces of 24 bytes (rounded up to whole units): many pieces per part.
            let piece = 24;
            for (len, ranks) in [(0usize, 2), (7, 2), (1000, 3), (4099, 4)] {
                let data: Vec<u8> = (0..len).map(|i| (i * 13 + 5) as u8).collect();
                std::fs::write(&input, &data).unwrap();
                let file = File::options()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(&output)
                    .unwrap();
                let s = spec(a);
                let err = |e| parcrypt::Error::Io {
                    path: output.clone(),
                    source: e,
                };
                // Rank r's part.
                let of = |r: usize| Part {
                    spec: &s,
                    direction: Direction::Encrypt,
                    input: &input,
                    range: part(&s, len, ranks, r),
                    last: holds_end(&s, len, ranks, r),
                    piece,
                };
                for r in 0..ranks {
                    let mut w = FileAt(&file, of(r).range.start as u64);
                    of(r).stream(&mut w, &err).unwrap();
                }
                let want = reference(&s, Direction::Encrypt, &data).unwrap();
                assert_eq!(std::fs::read(&output).unwrap(), want, "{a} {len} {ranks}");
                for r in 0..ranks {
                    of(r).check(&file, &output).unwrap();
                }
                if len > 100 {
                    file.write_all_at(&[want[100] ^ 1], 100).unwrap();
                    let holder = (0..ranks)
                        .find(|&r| part(&s, len, ranks, r).contains(&100))
                        .unwrap();
                    let e = of(holder).check(&file, &output).unwrap_err();
                    assert!(matches!(e, MpiError::Mismatch(_)), "{e}");
                    assert!(e.to_string().contains("at byte 100"), "{e}");
                }
            }
        }
    }

    struct FileAt<'a>(&'a File, u64);

    impl Write for FileAt<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.write_all_at(buf, self.1)?;
            self.1 += buf.len() as u64;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn only_the_bulk_algorithms_are_taken() {
        assert!(validate(&spec(Algorithm::PblockEcb), Direction::Encrypt).is_ok());
        let rc4 = CipherSpec::new(Algorithm::Rc4, b"k");
        assert!(matches!(
            validate(&rc4, Direction::Encrypt),
            Err(MpiError::Usage(_))
        ));
    }
}
