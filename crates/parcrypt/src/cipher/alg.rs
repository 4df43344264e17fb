//! The algorithms by their command-line names, what each one needs (IV, nonce, padding, chunk,
//! threads), and [`CipherSpec`]: a complete, checked choice of algorithm and parameters.
use super::Padding;
use super::blowfish::{BLOCK, MAX_KEY, MIN_KEY};
use crate::cipher::parallel::{parc4, parc4i};
use crate::error::{Error, Result};
use crate::parallel::split::check_threads;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use zeroize::Zeroizing;

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// Plaintext to ciphertext.
    Encrypt,
    /// Ciphertext to plaintext.
    Decrypt,
}

/// Every algorithm the `cipher` and `bench cipher` commands know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Blowfish ECB, sequential.
    BlowfishEcb,
    /// Blowfish CBC: encryption sequential; decryption uses PBlock when threads > 1.
    BlowfishCbc,
    /// Blowfish CTR, sequential.
    BlowfishCtr,
    /// PBlock ECB: blocks statically split over threads.
    PblockEcb,
    /// PBlock CTR.
    PblockCtr,
    /// Round-pipelined Blowfish ECB (SCC Blowfish), folded: threads = stage groups (1..=17).
    BfPipeline,
    /// RC4, sequential.
    Rc4,
    /// RC4A, sequential.
    Rc4a,
    /// PARC4: RC4 over blocks with derived keys, in parallel.
    Parc4,
    /// PARC4-I: RC4A over 256-byte blocks, unrolled generator, in parallel.
    Parc4i,
}

impl Algorithm {
    /// Every algorithm, in the order shown to users.
    pub const ALL: [Algorithm; 10] = [
        Algorithm::BlowfishEcb,
        Algorithm::BlowfishCbc,
        Algorithm::BlowfishCtr,
        Algorithm::PblockEcb,
        Algorithm::PblockCtr,
        Algorithm::BfPipeline,
        Algorithm::Rc4,
        Algorithm::Rc4a,
        Algorithm::Parc4,
        Algorithm::Parc4i,
    ];

    /// The command-line name (`blowfish-ecb`, `parc4i`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::BlowfishEcb => "blowfish-ecb",
            Algorithm::BlowfishCbc => "blowfish-cbc",
            Algorithm::BlowfishCtr => "blowfish-ctr",
            Algorithm::PblockEcb => "pblock-ecb",
            Algorithm::PblockCtr => "pblock-ctr",
            Algorithm::BfPipeline => "bf-pipeline",
            Algorithm::Rc4 => "rc4",
            Algorithm::Rc4a => "rc4a",
            Algorithm::Parc4 => "parc4",
            Algorithm::Parc4i => "parc4i",
        }
    }

    /// Blowfish-based (key of 4 to 56 bytes) rather than RC4-based (1 to 256 bytes).
    pub fn is_blowfish(self) -> bool {
        matches!(
            self,
            Algorithm::BlowfishEcb
                | Algorithm::BlowfishCbc
                | Algorithm::BlowfishCtr
                | Algorithm::PblockEcb
                | Algorithm::PblockCtr
                | Algorithm::BfPipeline
        )
    }

    /// A block mode that pads (ECB or CBC): `--no-pad` applies.
    pub fn pads(self) -> bool {
        matches!(
            self,
            Algorithm::BlowfishEcb
                | Algorithm::BlowfishCbc
                | Algorithm::PblockEcb
                | Algorithm::BfPipeline
        )
    }

    /// Needs an 8-byte IV (CBC) or initial counter (CTR).
    pub fn needs_iv(self) -> bool {
        matches!(
            self,
            Algorithm::BlowfishCbc | Algorithm::BlowfishCtr | Algorithm::PblockCtr
        )
    }

    /// Needs a nonce (PARC4, PARC4-I).
    pub fn needs_nonce(self) -> bool {
        matches!(self, Algorithm::Parc4 | Algorithm::Parc4i)
    }

    /// Has a chunk size: pipeline chunk, PARC4 block or PARC4-I segment.
    pub fn default_chunk(self) -> Option<usize> {
        match self {
            Algorithm::BfPipeline => Some(crate::cipher::parallel::bf_folded::DEFAULT_CHUNK),
            Algorithm::Parc4 => Some(parc4::DEFAULT_BLOCK),
            Algorithm::Parc4i => Some(parc4i::DEFAULT_SEGMENT),
            _ => None,
        }
    }

    /// Runs on more than one thread (CBC only when decrypting).
    pub fn is_parallel(self, direction: Direction) -> bool {
        match self {
            Algorithm::BlowfishCbc => direction == Direction::Decrypt,
            _ => self != self.sequential_form(),
        }
    }

    /// The sequential algorithm this one must equal or is measured against: PBlock and the
    /// pipeline against Blowfish, PARC4 against RC4, PARC4-I against RC4A; itself otherwise.
    pub fn sequential_form(self) -> Algorithm {
        match self {
            Algorithm::PblockEcb | Algorithm::BfPipeline => Algorithm::BlowfishEcb,
            Algorithm::PblockCtr => Algorithm::BlowfishCtr,
            Algorithm::Parc4 => Algorithm::Rc4,
            Algorithm::Parc4i => Algorithm::Rc4a,
            other => other,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        let s = s.trim().to_ascii_lowercase();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                Error::InvalidParameter(format!(
                    "unknown algorithm '{s}' (expected one of {})",
                    names.join(", ")
                ))
            })
    }
}

/// A complete choice of algorithm and parameters; the key is wiped on drop.
#[derive(Clone, Debug)]
pub struct CipherSpec {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The key (Blowfish: 4 to 56 bytes; RC4 family: 1 to 256 bytes).
    pub key: Zeroizing<Vec<u8>>,
    /// CBC IV or CTR initial counter: exactly 8 bytes, only where needed.
    pub iv: Option<[u8; BLOCK]>,
    /// PARC4 / PARC4-I nonce: exactly 16 bytes, only where needed.
    pub nonce: Option<Vec<u8>>,
    /// Padding of ECB/CBC.
    pub padding: Padding,
    /// Threads (pipeline: stage groups); `None` is the default ([`CipherSpec::threads`]).
    pub threads: Option<usize>,
    /// Pipeline chunk, PARC4 block or PARC4-I segment in bytes; `None` is the default.
    pub chunk: Option<usize>,
}

impl CipherSpec {
    /// A spec with defaults: no IV, no nonce, PKCS#7, default threads and chunk.
    pub fn new(algorithm: Algorithm, key: &[u8]) -> Self {
        Self {
            algorithm,
            key: Zeroizing::new(key.to_vec()),
            iv: None,
            nonce: None,
            padding: Padding::Pkcs7,
            threads: None,
            chunk: None,
        }
    }

    /// Threads in use: as given, else the logical core count for parallel algorithms (for
    /// the pipeline: stage groups of the folded pipeline), and 1 for sequential ones.
    pub fn threads(&self, direction: Direction) -> usize {
        match (self.threads, self.algorithm) {
            (Some(t), _) => t,
            (None, Algorithm::BfPipeline) => crate::parallel::logical_cores().clamp(1, 17),
            (None, a) if a.is_parallel(direction) => crate::parallel::logical_cores().max(1),
            (None, _) => 1,
        }
    }

    /// The chunk in use (`None` for algorithms without one).
    pub fn chunk(&self) -> Option<usize> {
        self.algorithm
            .default_chunk()
            .map(|d| self.chunk.unwrap_or(d))
    }

    /// The unit a message is cut on without changing its bytes: the PARC4 block or PARC4-I
    /// segment, else the 8-byte Blowfish block (pieces of a file, ranks' parts).
    pub fn unit_bytes(&self) -> usize {
        match self.algorithm {
            Algorithm::Parc4 | Algorithm::Parc4i => self.chunk().unwrap_or(BLOCK),
            _ => BLOCK,
        }
    }

    /// Checks every parameter against the algorithm, with one clear message per mistake.
    /// Key lengths give [`Error::InvalidKey`], everything else [`Error::InvalidParameter`].
    pub fn validate(&self, direction: Direction) -> Result<()> {
        let a = self.algorithm;
        let bad = |m: String| Err(Error::InvalidParameter(m));
        let n = self.key.len();
        if a.is_blowfish() && !(MIN_KEY..=MAX_KEY).contains(&n) {
            return Err(Error::InvalidKey(format!(
                "{a} key must be {MIN_KEY} to {MAX_KEY} bytes (32 to 448 bits), got {n} bytes"
            )));
        }
        if !a.is_blowfish() {
            crate::cipher::rc4::check_key(&self.key, a.name())?;
        }
        match (a.needs_iv(), self.iv.is_some()) {
            (true, false) => return bad(format!("{a} needs --iv (8 bytes, 16 hex digits)")),
            (false, true) => return bad(format!("--iv does not apply to {a}")),
            _ => {}
        }
        match (a.needs_nonce(), &self.nonce) {
            (true, None) => return bad(format!("{a} needs --nonce (16 bytes, 32 hex digits)")),
            (true, Some(nonce)) => drop(parc4::check_nonce(nonce)?),
            (false, Some(_)) => return bad(format!("--nonce does not apply to {a}")),
            (false, None) => {}
        }
        if self.padding == Padding::None && !a.pads() {
            return bad(format!(
                "--no-pad applies only to ECB and CBC modes, not {a}"
            ));
        }
        let threads = self.threads(direction);
        check_threads(threads)?;
        if threads > 1 && !a.is_parallel(direction) && a != Algorithm::BfPipeline {
            return bad(match a {
                Algorithm::BlowfishCbc => {
                    "CBC encryption is sequential; --threads above 1 applies to CBC decryption"
                        .to_string()
                }
                _ => format!(
                    "{a} is sequential; use its parallel form ({}) for --threads above 1",
                    parallel_forms(a)
                ),
            });
        }
        if a == Algorithm::BfPipeline && threads > 17 {
            return bad(format!(
                "bf-pipeline on files has 17 operations; --threads (stage groups) must be 1 to 17, got {threads}"
            ));
        }
        match (self.chunk, a.default_chunk()) {
            (Some(_), None) => return bad(format!("--chunk does not apply to {a}")),
            (Some(0), _) => return bad("chunk must be at least 1 byte".into()),
            (Some(c), _) if a == Algorithm::BfPipeline && c % BLOCK != 0 => {
                return bad(format!(
                    "bf-pipeline chunk must be a multiple of 8 bytes, got {c}"
                ));
            }
            (Some(c), _) if a == Algorithm::Parc4i && c % parc4i::BLOCK != 0 => {
                return bad(format!(
                    "parc4i chunk (segment) must be a multiple of 256 bytes, got {c}"
                ));
            }
            _ => {}
        }
        Ok(())
    }
}

/// The parallel algorithms built on a sequential one, for error messages.
fn parallel_forms(a: Algorithm) -> String {
    let forms: Vec<&str> = Algorithm::ALL
        .iter()
        .filter(|p| p.sequential_form() == a && **p != a)
        .map(|p| p.name())
        .collect();
    forms.join(" or ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_the_choices() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>().unwrap(), a);
        }
        let err = "des".parse::<Algorithm>().unwrap_err().to_string();
        assert!(
            err.contains("unknown algorithm 'des'") && err.contains("parc4i"),
            "{err}"
        );
    }

    #[test]
    fn every_rule_has_its_message() {
        let spec = |a, key: &[u8]| CipherSpec::new(a, key);
        let msg = |s: CipherSpec| s.validate(Direction::Encrypt).unwrap_err().to_string();
        assert!(msg(spec(Algorithm::BlowfishEcb, b"abc")).contains("4 to 56 bytes"));
        assert!(msg(spec(Algorithm::Rc4, b"")).contains("1 to 256 bytes"));
        assert!(msg(spec(Algorithm::BlowfishCbc, b"abcd")).contains("needs --iv"));
        assert!(msg(spec(Algorithm::Parc4, b"abcd")).contains("needs --nonce"));
        let mut s = spec(Algorithm::Rc4, b"abcd");
        s.padding = Padding::None;
        assert!(msg(s).contains("--no-pad applies only"));
        let mut s = spec(Algorithm::Rc4, b"abcd");
        s.threads = Some(2);
        assert!(msg(s).contains("parc4"));
        let mut s = spec(Algorithm::BlowfishCbc, b"abcd");
        s.iv = Some([0; 8]);
        s.threads = Some(2);
        assert!(msg(s.clone()).contains("CBC encryption is sequential"));
        assert!(s.validate(Direction::Decrypt).is_ok());
        let mut s = spec(Algorithm::PblockEcb, b"abcd");
        s.threads = Some(0);
        assert!(msg(s).contains("threads must be"));
        let mut s = spec(Algorithm::Parc4i, b"abcd");
        s.nonce = Some(vec![0; 16]);
        s.chunk = Some(300);
        assert!(msg(s).contains("multiple of 256"));
        let mut s = spec(Algorithm::BlowfishEcb, b"abcd");
        s.chunk = Some(64);
        assert!(msg(s).contains("--chunk does not apply"));
    }

    #[test]
    fn sequential_forms_and_defaults() {
        assert_eq!(Algorithm::Parc4i.sequential_form(), Algorithm::Rc4a);
        assert!(Algorithm::BlowfishCbc.is_parallel(Direction::Decrypt));
        assert!(!Algorithm::BlowfishCbc.is_parallel(Direction::Encrypt));
        let s = CipherSpec::new(Algorithm::BfPipeline, b"abcd");
        let cores = crate::parallel::logical_cores().clamp(1, 17);
        assert_eq!(
            (s.threads(Direction::Encrypt), s.chunk()),
            (cores, Some(65536))
        );
        assert_eq!(CipherSpec::new(Algorithm::Rc4, b"k").chunk(), None);
    }
}
