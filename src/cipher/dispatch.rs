//! The one encryption dispatch: any [`Algorithm`] applied to a piece of a message, in place,
//! with the state that runs from piece to piece (CBC chain, CTR counter, RC4/RC4A keystream,
//! PARC4 block and PARC4-I segment index). The file streamer ([`file`](super::file)), the MPI
//! ranks' parts of a file ([`file::transform_part`](super::file::transform_part)) and the
//! throughput benchmark all call it, so what is measured is what encrypts files.
//!
//! Blowfish-based algorithms take the key schedule from the caller ([`Runner::apply`]'s `bf`),
//! so a benchmark can build it once outside its timed region.
use super::alg::{Algorithm, Direction};
use super::blowfish::{BLOCK, Blowfish};
use super::modes;
use super::parallel::bf_folded::{FoldedConfig, FoldedPipeline};
use super::parallel::bf_pipeline::Layout;
use super::parallel::parc4::Parc4;
use super::parallel::parc4i::Parc4i;
use super::parallel::pblock::PBlock;
use super::{Rc4, Rc4a};
use crate::error::{Error, Result};

/// The state carried from one piece of a message to the next.
pub enum Position {
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
    /// PARC4: the keyed form and the next block index.
    Parc4(Parc4, u64),
    /// PARC4-I: the keyed form and the next segment index.
    Parc4i(Parc4i, u64),
}

impl Position {
    /// Moves a position fresh from [`Runner::start`] to byte `offset` of the message, for a
    /// part that starts there (the MPI ranks' parts). ECB, CTR, PARC4 and PARC4-I can start
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
        match self {
            Position::Ecb => whole(BLOCK).map(drop),
            Position::Ctr(_, next) => whole(BLOCK).map(|n| *next = n),
            Position::Parc4(p, next) => whole(p.block_bytes()).map(|n| *next = n),
            Position::Parc4i(p, next) => whole(p.segment_bytes()).map(|n| *next = n),
            Position::Cbc(_) | Position::Rc4(_) | Position::Rc4a(_) if offset == 0 => Ok(()),
            Position::Cbc(_) | Position::Rc4(_) | Position::Rc4a(_) => {
                Err(Error::InvalidParameter(format!(
                    "a chained or stream cipher starts only at byte 0, not at byte {offset}"
                )))
            }
        }
    }
}

/// How one algorithm runs: everything but the key material and the position in the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runner {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Encrypt or decrypt.
    pub direction: Direction,
    /// Threads (pipeline: stage groups).
    pub threads: usize,
    /// Pipeline chunk, PARC4 block or PARC4-I segment in bytes, where the algorithm has one.
    pub chunk: Option<usize>,
    /// Pin worker threads to CPUs (best effort).
    pub pin: bool,
    /// Run the sequential reference instead: PBlock and the pipeline as one-thread Blowfish,
    /// PARC4 and PARC4-I block after block on the calling thread (same bytes by design).
    pub reference: bool,
}

impl Runner {
    /// The state at the start of a message: `iv` for CBC and CTR, `nonce` for PARC4 and
    /// PARC4-I, `key` for the RC4 family (keyed here).
    pub fn start(&self, key: &[u8], iv: Option<[u8; BLOCK]>, nonce: &[u8]) -> Result<Position> {
        let chunk = || self.chunk.expect("an algorithm with a chunk");
        let iv = || iv.expect("validated: CBC and CTR have an IV");
        Ok(match self.algorithm {
            Algorithm::BlowfishEcb | Algorithm::PblockEcb | Algorithm::BfPipeline => Position::Ecb,
            Algorithm::BlowfishCbc => Position::Cbc(iv()),
            Algorithm::BlowfishCtr | Algorithm::PblockCtr => Position::Ctr(iv(), 0),
            Algorithm::Rc4 => Position::Rc4(Box::new(Rc4::new(key)?)),
            Algorithm::Rc4a => Position::Rc4a(Box::new(Rc4a::new(key)?)),
            Algorithm::Parc4 => Position::Parc4(
                Parc4::new(key, nonce, chunk(), self.threads)?.pinned(self.pin),
                0,
            ),
            Algorithm::Parc4i => Position::Parc4i(
                Parc4i::new(key, nonce, chunk(), self.threads)?.pinned(self.pin),
                0,
            ),
        })
    }

    /// Transforms `piece` in place and moves `pos` past it. Blowfish-based algorithms need
    /// `bf`; a piece that is not the message's last must be whole blocks, PARC4 blocks or
    /// PARC4-I segments.
    pub fn apply(&self, bf: Option<&Blowfish>, pos: &mut Position, piece: &mut [u8]) -> Result<()> {
        let enc = self.direction == Direction::Encrypt;
        let threads = if self.reference { 1 } else { self.threads };
        let pblock =
            || PBlock::new(bf.expect("a Blowfish algorithm"), threads).map(|p| p.pinned(self.pin));
        match pos {
            Position::Ecb if self.algorithm == Algorithm::BfPipeline && !self.reference => {
                let layout = if enc {
                    Layout::Encrypt
                } else {
                    Layout::Decrypt
                };
                let config = FoldedConfig {
                    chunk_bytes: self.chunk.expect("the pipeline has a chunk"),
                    ..FoldedConfig::new(layout, self.threads)
                };
                FoldedPipeline::new(bf.expect("a Blowfish algorithm"), config)?.run(piece)?;
            }
            Position::Ecb if enc => pblock()?.encrypt_ecb(piece)?,
            Position::Ecb => pblock()?.decrypt_ecb(piece)?,
            Position::Cbc(chain) if enc => {
                modes::cbc_encrypt_in_place(bf.expect("a Blowfish algorithm"), chain, piece)?
            }
            Position::Cbc(chain) => pblock()?.decrypt_cbc(chain, piece)?,
            Position::Ctr(iv, next) => {
                pblock()?.apply_ctr(iv, *next, piece);
                *next = next.wrapping_add((piece.len() / BLOCK) as u64);
            }
            Position::Rc4(rc4) => rc4.apply_keystream(piece),
            Position::Rc4a(rc4a) => rc4a.apply_keystream(piece),
            Position::Parc4(p, next) => {
                if self.reference {
                    p.apply_sequential(*next, piece)
                } else {
                    p.apply(*next, piece)
                }
                *next += piece.len().div_ceil(p.block_bytes()) as u64;
            }
            Position::Parc4i(p, next) => {
                if self.reference {
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
