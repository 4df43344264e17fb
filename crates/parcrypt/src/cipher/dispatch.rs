//! The one encryption dispatch: any [`Algorithm`] applied to a piece of a message, in place,
//! with the state that runs from piece to piece (CBC chain, CTR counter, RC4/RC4A keystream,
//! PARC4 block and PARC4-I segment index). The file streamer ([`file`](super::file)), the MPI
//! ranks' parts of a file ([`file::transform_part`](super::file::transform_part)) and the
//! throughput benchmark all call it, so what is measured is what encrypts files.
//!
//! A [`Cipher`] is one value per algorithm holding exactly the parameters it needs (the key
//! schedule, the IV, the nonce, the chunk, the threads): CBC without an IV or PARC4 without a
//! nonce cannot be built, so running one needs no check. [`CipherSpec::cipher`] builds it from
//! the command line's choices, with one clear error per mistake. A [`Stream`] is a cipher
//! started at a point of a message; a benchmark builds the cipher (the key schedule) once
//! outside its timed region and starts a stream per run.
use super::alg::{Algorithm, CipherSpec, Direction};
use super::blowfish::{BLOCK, Blowfish};
use super::modes;
use super::parallel::bf_folded::{FoldedConfig, FoldedPipeline};
use super::parallel::bf_pipeline::Layout;
use super::parallel::parc4::Parc4;
use super::parallel::parc4i::Parc4i;
use super::parallel::pblock::PBlock;
use super::{Rc4, Rc4a};
use crate::error::{Error, Result};
use zeroize::Zeroizing;

/// A key and a nonce for PARC4 or PARC4-I, with its block (segment) size and threads.
#[derive(Clone, Debug)]
pub struct Nonced {
    /// The key (1 to 256 bytes).
    pub key: Zeroizing<Vec<u8>>,
    /// The 16-byte nonce.
    pub nonce: Vec<u8>,
    /// PARC4 block or PARC4-I segment, in bytes.
    pub unit: usize,
    /// Threads.
    pub threads: usize,
}

/// One algorithm with its parameters, keyed: each variant holds what its algorithm needs and
/// nothing else.
#[derive(Clone)]
pub enum Cipher {
    /// Blowfish-ECB on one thread.
    BlowfishEcb(Box<Blowfish>),
    /// Blowfish-CBC: the IV, and the threads of its (parallel) decryption.
    BlowfishCbc(Box<Blowfish>, [u8; BLOCK], usize),
    /// Blowfish-CTR on one thread: the initial counter block.
    BlowfishCtr(Box<Blowfish>, [u8; BLOCK]),
    /// PBlock-ECB: ECB with its blocks split over threads.
    PblockEcb(Box<Blowfish>, usize),
    /// PBlock-CTR: CTR with its blocks split over threads.
    PblockCtr(Box<Blowfish>, [u8; BLOCK], usize),
    /// The round pipeline folded into stage groups: groups and chunk in bytes.
    BfPipeline(Box<Blowfish>, usize, usize),
    /// RC4 with its key.
    Rc4(Zeroizing<Vec<u8>>),
    /// RC4A with its key.
    Rc4a(Zeroizing<Vec<u8>>),
    /// PARC4: independent RC4 blocks keyed from key, nonce and index.
    Parc4(Nonced),
    /// PARC4-I: interleaved RC4 segments keyed from key, nonce and index.
    Parc4i(Nonced),
}

/// How a stream runs: everything but the key material and the position in the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Encrypt or decrypt.
    pub direction: Direction,
    /// Pin worker threads to CPUs (best effort).
    pub pin: bool,
    /// Run the sequential reference instead: PBlock and the pipeline as one-thread Blowfish,
    /// PARC4 and PARC4-I block after block on the calling thread (same bytes by design).
    pub reference: bool,
}

impl Run {
    /// `direction`, unpinned, the algorithm itself (not its reference).
    pub fn new(direction: Direction) -> Self {
        Self {
            direction,
            pin: false,
            reference: false,
        }
    }
}

impl CipherSpec {
    /// The keyed cipher this spec describes for `direction`, after checking every parameter
    /// ([`CipherSpec::validate`]).
    pub fn cipher(&self, direction: Direction) -> Result<Cipher> {
        self.validate(direction)?;
        let threads = self.threads(direction);
        let bf = || Blowfish::new(&self.key).map(Box::new);
        let iv = || {
            self.iv.ok_or_else(|| {
                Error::InvalidParameter(format!("{} needs --iv (8 bytes)", self.algorithm))
            })
        };
        let chunk = || {
            self.chunk()
                .ok_or_else(|| Error::InvalidParameter(format!("{} needs a chunk", self.algorithm)))
        };
        let nonced = || -> Result<Nonced> {
            Ok(Nonced {
                key: self.key.clone(),
                nonce: self.nonce.clone().ok_or_else(|| {
                    Error::InvalidParameter(format!("{} needs --nonce (16 bytes)", self.algorithm))
                })?,
                unit: chunk()?,
                threads,
            })
        };
        Ok(match self.algorithm {
            Algorithm::BlowfishEcb => Cipher::BlowfishEcb(bf()?),
            Algorithm::BlowfishCbc => Cipher::BlowfishCbc(bf()?, iv()?, threads),
            Algorithm::BlowfishCtr => Cipher::BlowfishCtr(bf()?, iv()?),
            Algorithm::PblockEcb => Cipher::PblockEcb(bf()?, threads),
            Algorithm::PblockCtr => Cipher::PblockCtr(bf()?, iv()?, threads),
            Algorithm::BfPipeline => Cipher::BfPipeline(bf()?, threads, chunk()?),
            Algorithm::Rc4 => Cipher::Rc4(self.key.clone()),
            Algorithm::Rc4a => Cipher::Rc4a(self.key.clone()),
            Algorithm::Parc4 => Cipher::Parc4(nonced()?),
            Algorithm::Parc4i => Cipher::Parc4i(nonced()?),
        })
    }
}

impl Cipher {
    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            Cipher::BlowfishEcb(..) => Algorithm::BlowfishEcb,
            Cipher::BlowfishCbc(..) => Algorithm::BlowfishCbc,
            Cipher::BlowfishCtr(..) => Algorithm::BlowfishCtr,
            Cipher::PblockEcb(..) => Algorithm::PblockEcb,
            Cipher::PblockCtr(..) => Algorithm::PblockCtr,
            Cipher::BfPipeline(..) => Algorithm::BfPipeline,
            Cipher::Rc4(_) => Algorithm::Rc4,
            Cipher::Rc4a(_) => Algorithm::Rc4a,
            Cipher::Parc4(_) => Algorithm::Parc4,
            Cipher::Parc4i(_) => Algorithm::Parc4i,
        }
    }

    /// The cipher started at the beginning of a message (the RC4 family keyed here, PARC4 and
    /// PARC4-I at block 0).
    pub fn start(&self, run: Run) -> Result<Stream> {
        let state = match self {
            Cipher::BlowfishEcb(bf) => State::Ecb(bf.clone(), 1),
            Cipher::PblockEcb(bf, threads) => State::Ecb(bf.clone(), *threads),
            Cipher::BfPipeline(bf, groups, chunk) => State::Pipeline(bf.clone(), *groups, *chunk),
            Cipher::BlowfishCbc(bf, iv, threads) => State::Cbc(bf.clone(), *iv, *threads),
            Cipher::BlowfishCtr(bf, iv) => State::Ctr(bf.clone(), *iv, 0, 1),
            Cipher::PblockCtr(bf, iv, threads) => State::Ctr(bf.clone(), *iv, 0, *threads),
            Cipher::Rc4(key) => State::Rc4(Box::new(Rc4::new(key)?)),
            Cipher::Rc4a(key) => State::Rc4a(Box::new(Rc4a::new(key)?)),
            Cipher::Parc4(n) => State::Parc4(
                Parc4::new(&n.key, &n.nonce, n.unit, n.threads)?.pinned(run.pin),
                0,
            ),
            Cipher::Parc4i(n) => State::Parc4i(
                Parc4i::new(&n.key, &n.nonce, n.unit, n.threads)?.pinned(run.pin),
                0,
            ),
        };
        Ok(Stream { run, state })
    }
}

/// A cipher running through a message: its parameters and the state carried from one piece
/// to the next.
pub struct Stream {
    run: Run,
    state: State,
}

/// The state of each kind of stream, with the parameters it runs on.
enum State {
    /// ECB and PBlock-ECB: the key schedule and threads; no state between pieces.
    Ecb(Box<Blowfish>, usize),
    /// The folded pipeline: key schedule, stage groups, chunk.
    Pipeline(Box<Blowfish>, usize, usize),
    /// CBC: the key schedule, the chaining block, the threads of decryption.
    Cbc(Box<Blowfish>, [u8; BLOCK], usize),
    /// CTR and PBlock-CTR: key schedule, IV, next block index, threads.
    Ctr(Box<Blowfish>, [u8; BLOCK], u64, usize),
    /// RC4's running state.
    Rc4(Box<Rc4>),
    /// RC4A's running state.
    Rc4a(Box<Rc4a>),
    /// PARC4: the keyed form and the next block index.
    Parc4(Parc4, u64),
    /// PARC4-I: the keyed form and the next segment index.
    Parc4i(Parc4i, u64),
}

impl Stream {
    /// Moves a stream fresh from [`Cipher::start`] to byte `offset` of the message, for a part
    /// that starts there (the MPI ranks' parts). ECB, CTR, PARC4 and PARC4-I can start
    /// anywhere on a unit boundary; CBC and the RC4 family carry state from every byte before,
    /// so they start only at 0. Errors ([`Error::InvalidParameter`]): another offset.
    pub fn seek(&mut self, offset: usize) -> Result<()> {
        let whole = |unit: usize| {
            if offset % unit == 0 {
                Ok((offset / unit) as u64)
            } else {
                Err(Error::InvalidParameter(format!(
                    "a part must start on a {unit}-byte boundary, not at byte {offset}"
                )))
            }
        };
        match &mut self.state {
            State::Ecb(..) | State::Pipeline(..) => whole(BLOCK).map(drop),
            State::Ctr(_, _, next, _) => whole(BLOCK).map(|n| *next = n),
            State::Parc4(p, next) => whole(p.block_bytes()).map(|n| *next = n),
            State::Parc4i(p, next) => whole(p.segment_bytes()).map(|n| *next = n),
            State::Cbc(..) | State::Rc4(_) | State::Rc4a(_) if offset == 0 => Ok(()),
            State::Cbc(..) | State::Rc4(_) | State::Rc4a(_) => Err(Error::InvalidParameter(
                format!("a chained or stream cipher starts only at byte 0, not at byte {offset}"),
            )),
        }
    }

    /// Transforms `piece` in place and moves the stream past it. A piece that is not the
    /// message's last must be whole blocks, PARC4 blocks or PARC4-I segments.
    pub fn apply(&mut self, piece: &mut [u8]) -> Result<()> {
        let run = self.run;
        let enc = run.direction == Direction::Encrypt;
        // PBlock over `t` threads, or one (the sequential reference).
        fn pblock(bf: &Blowfish, t: usize, run: Run) -> Result<PBlock<'_>> {
            let t = if run.reference { 1 } else { t };
            PBlock::new(bf, t).map(|p| p.pinned(run.pin))
        }
        match &mut self.state {
            State::Pipeline(bf, groups, chunk) if !run.reference => {
                let layout = if enc {
                    Layout::Encrypt
                } else {
                    Layout::Decrypt
                };
                let config = FoldedConfig {
                    chunk_bytes: *chunk,
                    ..FoldedConfig::new(layout, *groups)
                };
                FoldedPipeline::new(bf, config)?.run(piece)?;
            }
            // The pipeline's sequential reference: one-thread Blowfish-ECB.
            State::Pipeline(bf, ..) if enc => pblock(bf, 1, run)?.encrypt_ecb(piece)?,
            State::Pipeline(bf, ..) => pblock(bf, 1, run)?.decrypt_ecb(piece)?,
            State::Ecb(bf, t) if enc => pblock(bf, *t, run)?.encrypt_ecb(piece)?,
            State::Ecb(bf, t) => pblock(bf, *t, run)?.decrypt_ecb(piece)?,
            State::Cbc(bf, chain, _) if enc => modes::cbc_encrypt_in_place(bf, chain, piece)?,
            State::Cbc(bf, chain, t) => pblock(bf, *t, run)?.decrypt_cbc(chain, piece)?,
            State::Ctr(bf, iv, next, t) => {
                pblock(bf, *t, run)?.apply_ctr(iv, *next, piece);
                *next = next.wrapping_add((piece.len() / BLOCK) as u64);
            }
            State::Rc4(rc4) => rc4.apply_keystream(piece),
            State::Rc4a(rc4a) => rc4a.apply_keystream(piece),
            State::Parc4(p, next) => {
                if run.reference {
                    p.apply_sequential(*next, piece)
                } else {
                    p.apply(*next, piece)
                }
                *next += piece.len().div_ceil(p.block_bytes()) as u64;
            }
            State::Parc4i(p, next) => {
                if run.reference {
                    p.apply_sequential(*next, piece)
                } else {
                    p.apply(*next, piece)
                }
                *next += piece.len().div_ceil(p.segment_bytes()) as u64;
            }
        }
        Ok(())
    }
}
