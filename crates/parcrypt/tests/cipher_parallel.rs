//! Every parallel form byte-equal to its sequential form: PBlock (ECB, CTR, CBC decryption),
//! the round pipeline (encrypt layout = ECB; encrypt+decrypt = identity with the midpoint =
//! ECB), the folded pipeline (1 to 8 stage groups), PARC4 and PARC4-I — for sizes 0, 1, 7, 8,
//! 9, 4095, 4096, 4097, sizes around every thread split and chunk boundary, and 1 to 8
//! threads; then randomized (proptest), and the file streamer in tiny pieces against one
//! piece, and messages cut into parts at any unit boundary (the MPI ranks' parts) against the
//! whole.
use parcrypt::cipher::alg::CipherSpec;
use parcrypt::cipher::file::{transform_bytes_in_pieces, transform_part};
use parcrypt::cipher::modes::{self, Padding};
use parcrypt::cipher::parallel::bf_folded::{FoldedConfig, FoldedPipeline};
use parcrypt::cipher::parallel::bf_pipeline::{BfPipeline, Layout, PipelineConfig};
use parcrypt::cipher::parallel::parc4::Parc4;
use parcrypt::cipher::parallel::parc4i::Parc4i;
use parcrypt::cipher::parallel::pblock::PBlock;
use parcrypt::cipher::{Algorithm, Blowfish, Direction};
use parcrypt::parallel::split::pieces;
use proptest::prelude::*;

const SIZES: [usize; 8] = [0, 1, 7, 8, 9, 4095, 4096, 4097];
const IV: [u8; 8] = *b"\x01\x02\x03\x04\xfe\xfd\xfc\xfb";
const NONCE: [u8; 16] = *b"0123456789abcdef";

fn data(len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i.wrapping_mul(2654435761) >> 7) as u8)
        .collect()
}

/// The boundary sizes plus, for `unit`-byte units over `threads`, one unit either side of
/// every split point and of the chunk multiples near them.
fn sizes_around(unit: usize, threads: usize) -> Vec<usize> {
    let mut out: Vec<usize> = SIZES.to_vec();
    for units in [threads, 2 * threads, 3 * threads + 1, 7 * threads - 1] {
        let len = units * unit;
        for p in pieces(len, unit, threads) {
            out.extend([
                p.start.saturating_sub(1),
                p.start,
                p.start + 1,
                p.end - 1,
                p.end + 1,
            ]);
        }
        out.extend([len - 1, len, len + 1]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn whole_blocks(len: usize) -> usize {
    len / 8 * 8
}

#[test]
fn pblock_equals_blowfish_in_every_mode() {
    let bf = Blowfish::new(b"PBlock equality").unwrap();
    for threads in 1..=8 {
        let pb = PBlock::new(&bf, threads).unwrap();
        for len in sizes_around(8, threads) {
            let plain = data(len);
            // CTR takes any length.
            let mut par = plain.clone();
            pb.apply_ctr(&IV, 5, &mut par);
            let mut seq = plain.clone();
            modes::ctr_apply_in_place(&bf, &IV, 5, &mut seq);
            assert_eq!(par, seq, "ctr len {len} threads {threads}");
            // ECB and CBC need whole blocks.
            let plain = &plain[..whole_blocks(len)];
            let mut par = plain.to_vec();
            pb.encrypt_ecb(&mut par).unwrap();
            assert_eq!(par, modes::ecb_encrypt(&bf, plain, Padding::None).unwrap());
            pb.decrypt_ecb(&mut par).unwrap();
            assert_eq!(par, plain);
            let cbc = modes::cbc_encrypt(&bf, &IV, plain, Padding::None).unwrap();
            let mut par = cbc.clone();
            pb.decrypt_cbc(&mut IV.clone(), &mut par).unwrap();
            assert_eq!(par, plain, "cbc len {len} threads {threads}");
        }
    }
}

#[test]
fn pipeline_equals_blowfish_around_chunks_for_every_folding() {
    let bf = Blowfish::new(b"pipeline equality").unwrap();
    let chunk = 64;
    let mut lens: Vec<usize> = SIZES.iter().map(|&l| whole_blocks(l)).collect();
    for k in [1, 2, 3, 17] {
        lens.extend([k * chunk - 8, k * chunk, k * chunk + 8]);
    }
    for len in lens {
        let plain = data(len);
        let ecb = modes::ecb_encrypt(&bf, &plain, Padding::None).unwrap();
        for stages in [3, 4, 5, 10, 19] {
            let cfg = |layout| PipelineConfig {
                layout,
                chunk_bytes: chunk,
                stages,
                capacity: 1,
            };
            let mut out = plain.clone();
            BfPipeline::new(&bf, cfg(Layout::Encrypt))
                .unwrap()
                .run(&mut out)
                .unwrap();
            assert_eq!(out, ecb, "len {len} stages {stages}");
            BfPipeline::new(&bf, cfg(Layout::Decrypt))
                .unwrap()
                .run(&mut out)
                .unwrap();
            assert_eq!(out, plain);
        }
        for stages in [3, 4, 12, 36] {
            let cfg = PipelineConfig {
                layout: Layout::EncryptDecrypt,
                chunk_bytes: chunk,
                stages,
                capacity: 0,
            };
            let (mut out, mut mid) = (plain.clone(), vec![0u8; len]);
            BfPipeline::new(&bf, cfg)
                .unwrap()
                .run_tapped(&mut out, &mut mid)
                .unwrap();
            assert_eq!(
                (out == plain, mid == ecb),
                (true, true),
                "len {len} stages {stages}"
            );
        }
    }
}

#[test]
fn folded_pipeline_equals_blowfish_around_chunks_for_1_to_8_groups() {
    let bf = Blowfish::new(b"folded equality").unwrap();
    for chunk in [8usize, 64, 72, 4096] {
        let mut lens: Vec<usize> = SIZES.iter().map(|&l| whole_blocks(l)).collect();
        for k in [1, 2, 3, 9] {
            lens.extend([(k * chunk).saturating_sub(8), k * chunk, k * chunk + 8]);
        }
        lens.sort_unstable();
        lens.dedup();
        for len in lens {
            let plain = data(len);
            let ecb = modes::ecb_encrypt(&bf, &plain, Padding::None).unwrap();
            for groups in 1..=8 {
                let cfg = |layout| FoldedConfig {
                    chunk_bytes: chunk,
                    capacity: 1 + groups % 3,
                    ..FoldedConfig::new(layout, groups)
                };
                let mut out = plain.clone();
                let st = FoldedPipeline::new(&bf, cfg(Layout::Encrypt))
                    .unwrap()
                    .run(&mut out)
                    .unwrap();
                assert_eq!(out, ecb, "len {len} chunk {chunk} groups {groups}");
                assert!(st.stages.iter().all(|s| s.chunks == len.div_ceil(chunk)));
                FoldedPipeline::new(&bf, cfg(Layout::Decrypt))
                    .unwrap()
                    .run(&mut out)
                    .unwrap();
                assert_eq!(out, plain);
                FoldedPipeline::new(&bf, cfg(Layout::EncryptDecrypt))
                    .unwrap()
                    .run(&mut out)
                    .unwrap();
                assert_eq!(out, plain);
            }
        }
    }
}

#[test]
fn parc4_and_parc4i_equal_their_sequential_forms() {
    for threads in 1..=8 {
        for block in [64, 100, 4096] {
            let p = Parc4::new(b"PARC4 key", &NONCE, block, threads).unwrap();
            for len in sizes_around(block, threads) {
                let (mut a, mut b) = (data(len), data(len));
                p.apply(3, &mut a);
                p.apply_sequential(3, &mut b);
                assert_eq!(a, b, "parc4 block {block} len {len} threads {threads}");
            }
        }
        for segment in [256, 768] {
            let p = Parc4i::new(b"PARC4-I key", &NONCE, segment, threads).unwrap();
            for len in sizes_around(segment, threads) {
                let (mut a, mut b) = (data(len), data(len));
                p.apply(1, &mut a);
                p.apply_sequential(1, &mut b);
                assert_eq!(a, b, "parc4i segment {segment} len {len} threads {threads}");
            }
        }
    }
}

fn spec(a: Algorithm, threads: usize, chunk: Option<usize>) -> CipherSpec {
    let mut s = CipherSpec::new(
        a,
        if a.is_blowfish() {
            b"sixteen byte key"
        } else {
            b"a stream key"
        },
    );
    s.threads = Some(threads);
    s.chunk = chunk;
    if a.needs_iv() {
        s.iv = Some(IV);
    }
    if a.needs_nonce() {
        s.nonce = Some(NONCE.to_vec());
    }
    s
}

/// The file engine: parallel algorithms equal their sequential forms through padding, and any
/// piece size gives the same bytes as one piece; decryption inverts encryption.
#[test]
fn file_engine_pieces_and_parallel_forms_agree() {
    let pairs = [
        (Algorithm::PblockEcb, Algorithm::BlowfishEcb, None),
        (Algorithm::PblockCtr, Algorithm::BlowfishCtr, None),
        (Algorithm::BfPipeline, Algorithm::BlowfishEcb, Some(24)),
    ];
    for len in [0, 1, 7, 8, 9, 100, 4097] {
        let plain = data(len);
        for (par, seq, chunk) in pairs {
            let expect =
                transform_bytes_in_pieces(&spec(seq, 1, None), Direction::Encrypt, &plain, 1 << 20)
                    .unwrap();
            for threads in [1, 2, 3, 8] {
                let got = transform_bytes_in_pieces(
                    &spec(par, threads, chunk),
                    Direction::Encrypt,
                    &plain,
                    40,
                )
                .unwrap();
                assert_eq!(got, expect, "{par} len {len} threads {threads}");
            }
        }
        for a in Algorithm::ALL {
            let chunk = match a {
                Algorithm::Parc4 => Some(50),
                Algorithm::Parc4i => Some(256),
                _ => None,
            };
            let threads = if a.is_parallel(Direction::Encrypt) || a == Algorithm::BfPipeline {
                3
            } else {
                1
            };
            let s = spec(a, threads, chunk);
            let one = transform_bytes_in_pieces(&s, Direction::Encrypt, &plain, 1 << 20).unwrap();
            let tiny = transform_bytes_in_pieces(&s, Direction::Encrypt, &plain, 8).unwrap();
            assert_eq!(one, tiny, "{a} len {len}");
            let dec = spec(
                a,
                if a == Algorithm::BlowfishCbc {
                    3
                } else {
                    threads
                },
                chunk,
            );
            let back = transform_bytes_in_pieces(&dec, Direction::Decrypt, &one, 16).unwrap();
            assert_eq!(back, plain, "{a} len {len}");
        }
    }
}

/// `data` cut at `cuts` (byte offsets), each part transformed on its own from its offset, the
/// last one padding or unpadding.
fn by_parts(
    s: &CipherSpec,
    d: Direction,
    data: &[u8],
    cuts: &[usize],
) -> parcrypt::Result<Vec<u8>> {
    let mut bounds = vec![0];
    bounds.extend(cuts.iter().copied().filter(|&c| c < data.len()));
    bounds.push(data.len());
    let mut out = Vec::new();
    for (i, w) in bounds.windows(2).enumerate() {
        let mut part = data[w[0]..w[1]].to_vec();
        transform_part(s, d, w[0], i + 2 == bounds.len(), &mut part)?;
        out.extend(part);
    }
    Ok(out)
}

#[test]
fn parts_from_an_offset_equal_the_whole_and_chained_ciphers_refuse_one() {
    let plain = data(1000);
    for (a, unit) in [
        (Algorithm::PblockEcb, 8),
        (Algorithm::PblockCtr, 8),
        (Algorithm::Parc4, 64),
        (Algorithm::Parc4i, 256),
    ] {
        let chunk = matches!(a, Algorithm::Parc4 | Algorithm::Parc4i).then_some(unit);
        let s = spec(a, 2, chunk);
        let whole = transform_bytes_in_pieces(&s, Direction::Encrypt, &plain, 1 << 20).unwrap();
        let cuts = [unit, 3 * unit, 7 * unit];
        assert_eq!(
            by_parts(&s, Direction::Encrypt, &plain, &cuts).unwrap(),
            whole,
            "{a}"
        );
        assert_eq!(
            by_parts(&s, Direction::Decrypt, &whole, &cuts).unwrap(),
            plain,
            "{a}"
        );
        let e = by_parts(&s, Direction::Encrypt, &plain, &[unit + 1]).unwrap_err();
        assert!(e.to_string().contains("whole"), "{a}: {e}");
        let e = transform_part(&s, Direction::Encrypt, unit + 1, true, &mut vec![0; 9]);
        assert!(e.unwrap_err().to_string().contains("boundary"), "{a}");
    }
    for a in [Algorithm::BlowfishCbc, Algorithm::Rc4, Algorithm::Rc4a] {
        let e = by_parts(&spec(a, 1, None), Direction::Encrypt, &plain, &[64]).unwrap_err();
        assert!(e.to_string().contains("only at byte 0"), "{a}: {e}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn random_sizes_threads_and_blocks(len in 0usize..6000, threads in 1usize..=8,
                                       block in 1usize..700, seg in 1usize..6, seed in any::<u8>()) {
        let plain: Vec<u8> = data(len).iter().map(|b| b ^ seed).collect();
        let bf = Blowfish::new(&[seed, 1, 2, 3, 4]).unwrap();
        let pb = PBlock::new(&bf, threads).unwrap();
        let mut a = plain[..whole_blocks(len)].to_vec();
        pb.encrypt_ecb(&mut a).unwrap();
        prop_assert_eq!(&a, &modes::ecb_encrypt(&bf, &plain[..whole_blocks(len)], Padding::None).unwrap());
        let (mut a, mut b) = (plain.clone(), plain.clone());
        pb.apply_ctr(&IV, 0, &mut a);
        modes::ctr_apply_in_place(&bf, &IV, 0, &mut b);
        prop_assert_eq!(&a, &b);
        let p = Parc4::new(&[seed], &NONCE, block, threads).unwrap();
        let (mut a, mut b) = (plain.clone(), plain.clone());
        p.apply(0, &mut a);
        p.apply_sequential(0, &mut b);
        prop_assert_eq!(&a, &b);
        let p = Parc4i::new(&[seed], &NONCE, seg * 256, threads).unwrap();
        let (mut a, mut b) = (plain.clone(), plain.clone());
        p.apply(0, &mut a);
        p.apply_sequential(0, &mut b);
        prop_assert_eq!(&a, &b);
        let cfg = PipelineConfig { layout: Layout::Encrypt, chunk_bytes: 8 * (block % 40 + 1), stages: 2 + threads, capacity: 1 };
        let mut a = plain[..whole_blocks(len)].to_vec();
        BfPipeline::new(&bf, cfg).unwrap().run(&mut a).unwrap();
        let ecb = modes::ecb_encrypt(&bf, &plain[..whole_blocks(len)], Padding::None).unwrap();
        prop_assert_eq!(&a, &ecb);
        let cfg = FoldedConfig { chunk_bytes: 8 * (block % 40 + 1), ..FoldedConfig::new(Layout::Encrypt, threads) };
        let mut a = plain[..whole_blocks(len)].to_vec();
        FoldedPipeline::new(&bf, cfg).unwrap().run(&mut a).unwrap();
        prop_assert_eq!(a, ecb);
    }
}
