//! Claims the code holds by construction, checked against the code: the SCC Blowfish paper's
//! key size, subkey bytes and pipeline stages (the claims registry's constants).
use parcrypt::cipher::Blowfish;
use parcrypt::cipher::parallel::bf_pipeline::Layout;
use parcrypt_lab::claims::scc_blowfish::{MAX_KEY_BITS, ROUND_STAGES, STAGES, SUBKEY_BYTES};

#[test]
fn scc_blowfish_by_construction_claims_are_what_the_code_does() {
    // 448 bits at most, 4168 bytes of subkeys.
    assert!(Blowfish::new(&[7; 56]).is_ok());
    assert!(Blowfish::new(&[7; 57]).is_err());
    assert_eq!(std::mem::size_of::<Blowfish>() as f64, SUBKEY_BYTES);
    assert_eq!(MAX_KEY_BITS as usize, 56 * 8);
    // 17 + 17 operations, two more stages for input and output.
    assert_eq!(Layout::EncryptDecrypt.operations(), ROUND_STAGES);
    assert_eq!(ROUND_STAGES + 2, STAGES);
}
