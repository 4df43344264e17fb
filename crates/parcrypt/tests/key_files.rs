//! The crate-root key-file API: a key written with `to_pem` reads back with `from_key_file`
//! (private and public), a private key file gives its public half, and what is not a key is a
//! clear error, never a panic.
use parcrypt::rand::SeedableRng;
use parcrypt::{Error, RsaPrivateKey, RsaPublicKey};

#[test]
fn keys_written_as_pem_read_back_and_garbage_is_an_error() {
    let mut rng = parcrypt::rand::rngs::StdRng::seed_from_u64(43);
    let key = RsaPrivateKey::new_vartime(&mut rng, 1024).unwrap();
    let pem = key.to_pem().unwrap();
    assert!(
        pem.starts_with("-----BEGIN PRIVATE KEY-----"),
        "{}",
        &pem[..40]
    );
    let back = RsaPrivateKey::from_key_file(pem.as_bytes()).unwrap();
    assert_eq!(back.public().n(), key.public().n());
    assert_eq!(back.d(), key.d());

    let public_pem = key.public().to_pem().unwrap();
    assert!(public_pem.starts_with("-----BEGIN PUBLIC KEY-----"));
    let public = RsaPublicKey::from_key_file(public_pem.as_bytes()).unwrap();
    assert_eq!(public.n(), key.public().n());
    assert_eq!(public.e(), key.public().e());
    // A private key file gives its public half; a public one is no private key.
    let half = RsaPublicKey::from_key_file(pem.as_bytes()).unwrap();
    assert_eq!(half.n(), key.public().n());
    assert!(RsaPrivateKey::from_key_file(public_pem.as_bytes()).is_err());

    for bad in [
        &b""[..],
        b"not a key",
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    ] {
        let e = RsaPrivateKey::from_key_file(bad).unwrap_err();
        assert!(matches!(e, Error::InvalidKey(_)), "{e:?}");
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}
