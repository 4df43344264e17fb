//! Records the version of gmp-mpfr-sys in Cargo.lock (the GMP build's source) and how its GMP
//! was configured (`GMP63_PEER_CONFIGURE`, set by `scripts/gmp63-peer.sh --host`; gmp-mpfr-sys's
//! own `configure --enable-fat` otherwise) for `build`.
fn main() {
    println!("cargo:rerun-if-changed=Cargo.lock");
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    let version = lock
        .split("[[package]]")
        .find(|p| p.contains("name = \"gmp-mpfr-sys\""))
        .and_then(|p| p.lines().find_map(|l| l.strip_prefix("version = \"")))
        .map_or("unknown", |v| v.trim_end_matches('"'));
    println!("cargo:rustc-env=GMP63_PEER_SYS_VERSION={version}");
    println!("cargo:rerun-if-env-changed=GMP63_PEER_CONFIGURE");
    let configure = std::env::var("GMP63_PEER_CONFIGURE")
        .unwrap_or_else(|_| "configure --enable-fat (gmp-mpfr-sys's build)".into());
    println!("cargo:rustc-env=GMP63_PEER_CONFIGURE={configure}");
}
