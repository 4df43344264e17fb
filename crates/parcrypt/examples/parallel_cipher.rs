//! A parallel cipher over a file against its sequential form: PBlock (Blowfish-CTR over
//! blocks on threads) and PARC4 (RC4 keystreams per block, each keyed by SHA-256 of key, nonce
//! and index) on a 4 MiB file, each compared byte for byte with the one-thread run and
//! decrypted back. RC4 and Blowfish are broken or dated ciphers, here because the papers study
//! them: not for protecting data.
//!
//! `cargo run --release -p parcrypt --example parallel_cipher [threads]`
use parcrypt::cipher::alg::CipherSpec;
use parcrypt::cipher::file::transform_bytes;
use parcrypt::cipher::{Algorithm, Direction};
use std::time::Instant;

fn main() -> parcrypt::Result<()> {
    let threads: usize = std::env::args()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    let dir = tempfile::tempdir().map_err(|e| parcrypt::Error::internal(e.to_string()))?;
    let path = dir.path().join("plain.bin");
    let data: Vec<u8> = (0..4u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(&path, &data).map_err(|e| parcrypt::Error::internal(e.to_string()))?;
    let plain = std::fs::read(&path).map_err(|e| parcrypt::Error::internal(e.to_string()))?;
    println!("{} bytes in {}", plain.len(), path.display());
    for algorithm in [Algorithm::PblockCtr, Algorithm::Parc4] {
        let spec = |t: usize| {
            let mut s = CipherSpec::new(algorithm, b"an example key!!");
            match algorithm {
                Algorithm::Parc4 => s.nonce = Some(vec![9; 16]),
                _ => s.iv = Some([7; 8]),
            }
            s.threads = Some(t);
            s
        };
        let start = Instant::now();
        let one = transform_bytes(&spec(1), Direction::Encrypt, &plain)?;
        let t1 = start.elapsed().as_secs_f64() * 1e3;
        let start = Instant::now();
        let many = transform_bytes(&spec(threads), Direction::Encrypt, &plain)?;
        let tn = start.elapsed().as_secs_f64() * 1e3;
        let back = transform_bytes(&spec(threads), Direction::Decrypt, &many)?;
        println!(
            "{algorithm:?}: 1 thread {t1:.1} ms, {threads} threads {tn:.1} ms; same bytes: {}; decrypts back: {}",
            one == many,
            back == plain
        );
        assert!(one == many && back == plain);
    }
    Ok(())
}
