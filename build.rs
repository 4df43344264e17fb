//! Build script of the lab: records the compiler version for benchmark reports
//! (`PARCRYPT_RUSTC_VERSION`, read by `bench::MachineInfo`), so a report says which rustc
//! produced the measured code. (The crypto crate's own build script sets `parcrypt_avx512`.)
//! With the `flint` feature it also records whether the FLINT that `flint3-sys` compiled has
//! its `fft_small` module (`PARCRYPT_FLINT_FFT_SMALL`, from FLINT's `flint-config.h`).
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=PARCRYPT_RUSTC_VERSION={version}");
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
