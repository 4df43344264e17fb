//! Build script of the crypto crate: sets `parcrypt_avx512` when the compiler has stable
//! AVX-512 intrinsics (Rust 1.89), which the IFMA kernel of `bignum::ct` needs (older compilers
//! build the crate without that kernel).
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
    println!("cargo:rustc-check-cfg=cfg(parcrypt_avx512)");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let minor = Command::new(rustc)
        .arg("-V")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|v| minor_version(&v));
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo:rustc-cfg=parcrypt_avx512");
    }
}

/// The minor version of a `rustc 1.MINOR.PATCH ...` line.
fn minor_version(version: &str) -> Option<u32> {
    let number = version.split_whitespace().nth(1)?;
    let mut parts = number.split('.');
    (parts.next()? == "1").then_some(())?;
    parts.next()?.parse().ok()
}
