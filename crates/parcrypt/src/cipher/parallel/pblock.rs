//! PBlock (cipher-energy): data-parallel Blowfish. The blocks of a message are statically assigned
//! to `n` threads — contiguous runs of whole 8-byte blocks, sizes differing by at most one
//! block — and every thread does the same work on its own data.
//!
//! Modes that allow it: ECB encryption and decryption, CTR (each thread starts its counter at
//! its first block) and CBC *decryption* (each thread's first block is chained to the
//! ciphertext block before its run, saved before any thread writes). CBC encryption is
//! inherently sequential and stays in [`modes`]. Inside each thread the
//! interleaved single-thread paths run, so PBlock on one thread is exactly sequential Blowfish.
use crate::cipher::blowfish::{BLOCK, Blowfish, check_whole_blocks};
use crate::cipher::modes;
use crate::error::Result;
use crate::parallel::split::{check_threads, for_each_piece, pieces};

/// PBlock over a Blowfish key schedule shared by all threads (read-only).
#[derive(Debug, Clone, Copy)]
pub struct PBlock<'a> {
    bf: &'a Blowfish,
    threads: usize,
    pin: bool,
}

impl<'a> PBlock<'a> {
    /// PBlock with `threads` threads (1 to 1024; above the core count is allowed).
    pub fn new(bf: &'a Blowfish, threads: usize) -> Result<Self> {
        check_threads(threads)?;
        Ok(Self {
            bf,
            threads,
            pin: false,
        })
    }

    /// Pins spawned thread `t` to logical CPU `t` (best effort).
    pub fn pinned(self, pin: bool) -> Self {
        Self { pin, ..self }
    }

    /// The thread count.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// ECB-encrypts whole blocks in place, in parallel.
    pub fn encrypt_ecb(&self, data: &mut [u8]) -> Result<()> {
        check_whole_blocks(data.len())?;
        for_each_piece(data, BLOCK, self.threads, self.pin, |_, piece| {
            self.bf.ecb_in_place::<true>(piece)
        });
        Ok(())
    }

    /// ECB-decrypts whole blocks in place, in parallel.
    pub fn decrypt_ecb(&self, data: &mut [u8]) -> Result<()> {
        check_whole_blocks(data.len())?;
        for_each_piece(data, BLOCK, self.threads, self.pin, |_, piece| {
            self.bf.ecb_in_place::<false>(piece)
        });
        Ok(())
    }

    /// XORs the CTR keystream (see [`modes`] for the counter) into `data`, which starts at
    /// block `first_block` of the stream; any length.
    pub fn apply_ctr(&self, iv: &[u8; BLOCK], first_block: u64, data: &mut [u8]) {
        for_each_piece(data, BLOCK, self.threads, self.pin, |unit, piece| {
            modes::ctr_apply_in_place(self.bf, iv, first_block.wrapping_add(unit as u64), piece)
        });
    }

    /// CBC-decrypts whole blocks in place, in parallel; `chain` is the IV (or the ciphertext
    /// block before `data`) and is left holding `data`'s last ciphertext block, as
    /// [`modes::cbc_decrypt_in_place`] does.
    pub fn decrypt_cbc(&self, chain: &mut [u8; BLOCK], data: &mut [u8]) -> Result<()> {
        check_whole_blocks(data.len())?;
        if data.is_empty() {
            return Ok(());
        }
        // Each piece's chaining block is the ciphertext just before it: save them all before
        // any thread overwrites its last block with plaintext.
        let starts: Vec<usize> = pieces(data.len(), BLOCK, self.threads)
            .iter()
            .map(|r| r.start)
            .collect();
        let chains: Vec<[u8; BLOCK]> = starts
            .iter()
            .map(|&s| match s {
                0 => *chain,
                _ => data[s - BLOCK..s].try_into().expect("one block"),
            })
            .collect();
        let last: [u8; BLOCK] = data[data.len() - BLOCK..].try_into().expect("one block");
        for_each_piece(data, BLOCK, self.threads, self.pin, |unit, piece| {
            let k = starts
                .binary_search(&(unit * BLOCK))
                .expect("the same split");
            let mut c = chains[k];
            modes::cbc_decrypt_in_place(self.bf, &mut c, piece).expect("whole blocks");
        });
        *chain = last;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_equals_the_sequential_one() {
        let bf = Blowfish::new(b"pblock unit test").unwrap();
        let iv = *b"IV-block";
        for blocks in [0usize, 1, 2, 3, 7, 8, 9, 64, 65] {
            let data: Vec<u8> = (0..blocks * 8).map(|i| (i * 31 + 1) as u8).collect();
            for threads in 1..=5 {
                let pb = PBlock::new(&bf, threads).unwrap();
                let mut par = data.clone();
                pb.encrypt_ecb(&mut par).unwrap();
                let mut seq = data.clone();
                bf.encrypt_blocks(&mut seq).unwrap();
                assert_eq!(par, seq);
                pb.decrypt_ecb(&mut par).unwrap();
                assert_eq!(par, data);

                let cbc = modes::cbc_encrypt(&bf, &iv, &data, modes::Padding::None).unwrap();
                let mut par = cbc.clone();
                let mut chain = iv;
                pb.decrypt_cbc(&mut chain, &mut par).unwrap();
                assert_eq!(par, data, "{blocks} blocks, {threads} threads");
                let expect_chain = if blocks == 0 {
                    iv
                } else {
                    cbc[cbc.len() - 8..].try_into().unwrap()
                };
                assert_eq!(chain, expect_chain);

                let mut par = data.clone();
                par.push(0x5a);
                pb.apply_ctr(&iv, 3, &mut par);
                let mut seq = data.clone();
                seq.push(0x5a);
                modes::ctr_apply_in_place(&bf, &iv, 3, &mut seq);
                assert_eq!(par, seq);
            }
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        let bf = Blowfish::new(b"pblock").unwrap();
        assert!(PBlock::new(&bf, 0).is_err());
        let pb = PBlock::new(&bf, 2).unwrap().pinned(true);
        assert_eq!(pb.threads(), 2);
        assert!(pb.encrypt_ecb(&mut [0; 12]).is_err());
        assert!(pb.decrypt_cbc(&mut [0; 8], &mut [0; 3]).is_err());
    }
}
