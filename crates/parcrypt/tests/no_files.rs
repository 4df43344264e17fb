//! The library writes no file of its own unless asked: the first decryption times the kernels
//! and keeps the choice in the process; only after `keep_choices_on_disk(true)` does a new
//! size's choice reach the cache file. One test in its own process, since it sets the cache
//! variable.
use parcrypt::RsaPrivateKey;
use parcrypt::hazmat::bignum::ct::Backend;
use parcrypt::{hazmat::limits::DEFAULT_E, rsa::oaep};
use rand::SeedableRng;

#[test]
fn kernel_choices_reach_the_disk_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY: the only test of this binary, run before any other thread reads the environment.
    unsafe { std::env::set_var("PARCRYPT_CACHE_DIR", dir.path()) };
    let file = dir.path().join("kernels.json");
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(43);
    let round_trip = |bits: u32, rng: &mut rand_chacha::ChaCha20Rng| {
        let e = rug::Integer::from(DEFAULT_E);
        let key = RsaPrivateKey::generate_vartime(bits, &e, rng).unwrap();
        let c = oaep::encrypt(key.public(), b"no files", b"", rng).unwrap();
        let m = oaep::decrypt(&key, &c, b"").unwrap();
        assert_eq!(&m[..], b"no files");
    };
    round_trip(1024, &mut rng);
    assert!(
        !file.exists(),
        "the library wrote {} unasked",
        file.display()
    );
    parcrypt::keep_choices_on_disk(true);
    // A new size class: its choice is timed now, and kept on disk where there is a choice.
    round_trip(1536, &mut rng);
    let offered = Backend::ALL.into_iter().filter(|b| b.available()).count();
    if offered > 1 {
        assert!(
            file.exists(),
            "asked to, the library kept no choice on disk"
        );
    } else {
        eprintln!(
            "one kernel on this CPU: nothing to choose, so nothing to keep (the write was not checked)"
        );
    }
}
