//! Build script of the lab: with the `flint` feature it records whether the FLINT that
//! `flint3-sys` compiled has its `fft_small` module (`PARCRYPT_FLINT_FFT_SMALL`, from FLINT's
//! `flint-config.h`). (The harness crate's build script records the compiler version; the
//! crypto crate's sets `parcrypt_avx512`.)
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if let Ok(dir) = std::env::var("DEP_FLINT_INCLUDE_DIR") {
        let config = std::path::Path::new(&dir).join("flint/flint-config.h");
        let text = std::fs::read_to_string(&config).unwrap_or_default();
        let on = text
            .lines()
            .any(|l| l.trim_start().starts_with("#define FLINT_HAVE_FFT_SMALL"));
        println!("cargo:rerun-if-changed={}", config.display());
        println!(
            "cargo:rustc-env=PARCRYPT_FLINT_FFT_SMALL={}",
            if on { "yes" } else { "no" }
        );
    }
}
