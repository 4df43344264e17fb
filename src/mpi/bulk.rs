//! PBlock (ECB, CTR) and PARC4 over a file split among ranks (seed 004), written once and
//! atomically.
//!
//! Rank 0 learns the file's length and tells the others; the file is cut into R contiguous
//! parts on cipher-unit boundaries (8-byte blocks, or PARC4 blocks), `schedule(static)` over
//! ranks; each rank reads its own part (the file must be readable at the same path on every
//! host) and transforms it, with threads inside the rank. The last rank pads or unpads (ECB).
//! Every rank's outcome is agreed before rank 0 gathers the parts, compares the whole with the
//! sequential reference and writes it through [`crate::io::write_atomic`]: any failure on any
//! rank leaves no output file.
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use super::wire::{Reader, put_u64};
use crate::cipher::alg::{Algorithm, CipherSpec, Direction};
use crate::cipher::file::transform_part;
use crate::parallel::schedule::static_block;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;

/// The algorithms that run over ranks.
pub const ALGORITHMS: [Algorithm; 3] =
    [Algorithm::PblockEcb, Algorithm::PblockCtr, Algorithm::Parc4];

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

/// The sequential reference of the whole input: Blowfish ECB / CTR for PBlock, PARC4 on one
/// thread.
pub fn reference(spec: &CipherSpec, direction: Direction, data: &[u8]) -> crate::Result<Vec<u8>> {
    let mut seq = spec.clone();
    match spec.algorithm {
        Algorithm::Parc4 => seq.threads = Some(1),
        a => {
            seq.algorithm = a.sequential_form();
            seq.threads = None;
        }
    }
    crate::cipher::file::transform_bytes(&seq, direction, data)
}

fn read_part(path: &Path, range: &Range<usize>) -> std::io::Result<Vec<u8>> {
    let mut f = std::fs::File::open(path)?;
    f.seek(SeekFrom::Start(range.start as u64))?;
    let mut buf = vec![0u8; range.len()];
    f.read_exact(&mut buf)?;
    Ok(buf)
}

/// This rank's part, read and transformed; the file's length comes from rank 0.
pub fn local_part(
    ranks: &Ranks,
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
) -> MpiResult<(usize, Vec<u8>)> {
    let len = if ranks.is_root() {
        std::fs::metadata(input)
            .map(|m| m.len() as usize)
            .map_err(|e| io_error(input, e))
    } else {
        Ok(0)
    };
    let len = ranks.agree(len)?;
    let mut m = Vec::new();
    put_u64(&mut m, len as u64);
    let len = Reader::new(&ranks.broadcast(Some(&m))?).usize()?;
    let range = part(spec, len, ranks.size(), ranks.rank());
    let last = holds_end(spec, len, ranks.size(), ranks.rank());
    let local = read_part(input, &range)
        .map_err(|e| io_error(input, e))
        .and_then(|mut data| {
            transform_part(spec, direction, range.start, last, &mut data)?;
            Ok(data)
        });
    Ok((len, ranks.agree(local)?))
}

fn io_error(path: &Path, e: std::io::Error) -> MpiError {
    MpiError::Lib(crate::Error::Io {
        path: path.to_path_buf(),
        source: e,
    })
}

/// Transforms `input` into `output` over all ranks. Rank 0 checks the result against the
/// sequential reference and writes it atomically; returns the bytes read and written there.
pub fn transform_file(
    ranks: &Ranks,
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
    output: &Path,
) -> MpiResult<Option<(usize, usize)>> {
    validate(spec, direction)?;
    let (len, part) = local_part(ranks, spec, direction, input)?;
    let Some(parts) = ranks.gather(&part)? else {
        return ranks.agree(Ok(None));
    };
    let written = (|| {
        let whole: Vec<u8> = parts.concat();
        let data = crate::io::read_file(input)?;
        if reference(spec, direction, &data)? != whole {
            return Err(MpiError::Protocol(format!(
                "{} over {} ranks differs from the sequential reference",
                spec.algorithm,
                ranks.size()
            )));
        }
        crate::io::write_atomic(output, &whole, None)?;
        Ok(Some((len, whole.len())))
    })();
    ranks.agree(written)
}

#[cfg(test)]
mod tests {
    use super::*;

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
