#!/usr/bin/env bash
# Builds parcrypt with FLINT 3 as a `bench peers` peer and runs FLINT's rows.
#
# flint3-sys compiles FLINT 3.6 from source against the system GMP and MPFR (libmpfr-dev; the
# script installs it and the autotools FLINT's build runs, libtool among them, when missing):
# about 15 minutes on 2 cores, once (cargo keeps it in target/flint/, apart from the ordinary
# build). Compiling with gcc -march=x86-64-v3 (through CC) lets FLINT's configure see AVX2 and build fft_small, its
# small-prime NTT for large products (gcc 12 does not know Zen 4/5 by name, so configure passes
# no -march and leaves fft_small out; -march=native makes gcc 12 fail on FLINT's 8-word add
# on Zen 5, and CFLAGS would replace FLINT's own flags); the bench record says whether
# fft_small is on. Needs a CPU with AVX2 and FMA (x86-64-v3). Not part
# of CI: the build alone would take half its time.
#
# It also builds the GMP 6.3 helper (scripts/gmp63-peer.sh, a minute or so) and runs its product
# rows beside FLINT's, so one run sets FLINT on 1 and N threads and GMP 6.3 against parcrypt at
# 64 Kbit, 1 Mbit and 16 Mbit.
#
#   scripts/flint-peer.sh                 # FLINT's seven rows and GMP 6.3's three, 2 threads
#   scripts/flint-peer.sh --runs 15 ...   # any `bench peers` option
set -euo pipefail
cd "$(dirname "$0")/.."
# What FLINT's build needs beyond a C compiler: MPFR's headers, and the autotools its
# bootstrap runs (a fresh machine failed with "libtool is not installed"). Only the missing
# packages are installed.
missing=()
for pkg in libmpfr-dev libtool autoconf automake m4 make; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]} (FLINT's build needs them)" >&2
    sudo_or_not=""; [ "$(id -u)" = 0 ] || sudo_or_not="sudo"
    $sudo_or_not apt-get update -qq && $sudo_or_not apt-get install -y -qq "${missing[@]}"
fi
scripts/gmp63-peer.sh >&2
gmp63="$PWD/target/gmp63/release/gmp63-peer"
export CARGO_TARGET_DIR=target/flint
mkdir -p target/flint
# A compiler command with the flag in it: CC itself must be one path for the other build scripts.
printf '#!/bin/sh\nexec gcc -march=x86-64-v3 "$@"\n' > target/flint/cc-x86-64-v3
chmod +x target/flint/cc-x86-64-v3
export CC="$PWD/target/flint/cc-x86-64-v3"
cargo build --release --features flint --bin parcrypt
exec target/flint/release/parcrypt bench peers --gmp63 "$gmp63" \
    --rows flint1-product-64k,flint-product-64k,flint1-product-1m,flint-product-1m,flint1-product-16m,flint-product-16m,flint-modexp-8192,gmp63-product-64k,gmp63-product-1m,gmp63-product-16m "$@"
