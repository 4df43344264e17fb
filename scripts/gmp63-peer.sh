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
# A fat GMP picks its kernels by CPUID at run time, and GMP 6.3's tables end at family 25
# (Zen 3/4): on a newer CPU it runs its generic x86-64 code. `--host HOST` builds the same
# GMP 6.3 source for one CPU instead (`configure --host=HOST`, e.g. zen3-pc-linux-gnu for a
# family 26 Zen 5, whose mulx/adx kernels it runs), with `make check`, into
# target/gmp63-HOST/, handed to gmp-mpfr-sys through its cache so the helper links it.
#
#   scripts/gmp63-peer.sh                          # build, print the path
#   scripts/gmp63-peer.sh --test                   # also the helper's own tests (its protocol parser)
#   scripts/gmp63-peer.sh --host zen3-pc-linux-gnu # GMP 6.3 for one CPU family
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=tools/gmp63-peer/Cargo.toml
test=0 host=""
while [ $# -gt 0 ]; do
    case "$1" in
        --test) test=1 ;;
        --host) host="${2:?--host needs a GMP host triple, e.g. zen3-pc-linux-gnu}"; shift ;;
        *) echo "error: unknown argument '$1' (--test, --host HOST)" >&2; exit 2 ;;
    esac
    shift
done
if [ -z "$host" ]; then
    export CARGO_TARGET_DIR="$PWD/target/gmp63"
else
    case "$host" in
        *[!A-Za-z0-9_.-]*) echo "error: '$host' is not a host triple" >&2; exit 2 ;;
    esac
    export CARGO_TARGET_DIR="$PWD/target/gmp63-$host"
    # The GMP source gmp-mpfr-sys bundles (the version its lock file pins).
    cargo fetch --locked --manifest-path "$manifest" >&2
    sys=$(cargo metadata --locked --format-version 1 --manifest-path "$manifest" |
        python3 -c 'import json,sys,os; d=json.load(sys.stdin); p=[p for p in d["packages"] if p["name"]=="gmp-mpfr-sys"][0]; print(os.path.dirname(p["manifest_path"]), p["version"])')
    dir=${sys% *} version=${sys#* }
    src=$(ls -d "$dir"/gmp-*-c | head -n 1)
    build="$CARGO_TARGET_DIR/gmp-build"
    rm -rf "$build" && mkdir -p "$build"
    cp -r "$src" "$build/src"
    (cd "$build" && mkdir obj && cd obj &&
        ../src/configure --host="$host" --disable-shared --with-pic >configure.log &&
        make -j"$(nproc)" >make.log && make -j"$(nproc)" check >check.log) >&2
    # gmp-mpfr-sys loads <cache>/<major.minor>/<target>/<version>/{libgmp.a,gmp.h} instead
    # of building its own.
    cache="$CARGO_TARGET_DIR/gmp-cache"
    lib="$cache/${version%.*}/$(rustc -vV | sed -n 's/^host: //p')/$version"
    rm -rf "$cache" && mkdir -p "$lib"
    cp "$build/obj/.libs/libgmp.a" "$build/obj/gmp.h" "$lib/"
    export GMP_MPFR_SYS_CACHE="$cache"
    export GMP63_PEER_CONFIGURE="configure --host=$host (scripts/gmp63-peer.sh --host)"
fi
cargo build --release --locked --manifest-path "$manifest" >&2
if [ "$test" = 1 ]; then
    cargo test --release --locked --manifest-path "$manifest" >&2
fi
bin="$CARGO_TARGET_DIR/release/gmp63-peer"
echo version | "$bin" >&2
echo "$bin"
