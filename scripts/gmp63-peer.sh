#!/usr/bin/env bash
# Builds the GMP 6.3 helper of `bench peers`' gmp63-* rows (tools/gmp63-peer) and prints its path.
#
# gmp-mpfr-sys compiles the GMP 6.3 it bundles from source (configure --enable-fat, then GMP's
# own `make check`) into target/gmp63/, apart from parcrypt's build: the helper cannot share a
# process with the system GMP 6.2 that parcrypt links. gmp-mpfr-sys keeps the compiled GMP in
# ~/.cache/gmp-mpfr-sys (GMP_MPFR_SYS_CACHE overrides; `_` turns the cache off), so only the
# first build pays for GMP (docs/commands/bench.md, bench peers, gives what it cost).
# `bench peers` finds the helper at target/gmp63/release/gmp63-peer by itself (or by
# --gmp63 PATH / PARCRYPT_GMP63).
#
#   scripts/gmp63-peer.sh                 # build, print the path
#   scripts/gmp63-peer.sh --test          # also the helper's own tests (its protocol parser)
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=tools/gmp63-peer/Cargo.toml
export CARGO_TARGET_DIR="$PWD/target/gmp63"
cargo build --release --locked --manifest-path "$manifest" >&2
if [ "${1:-}" = "--test" ]; then
    cargo test --release --locked --manifest-path "$manifest" >&2
fi
bin="$CARGO_TARGET_DIR/release/gmp63-peer"
echo version | "$bin" >&2
echo "$bin"
