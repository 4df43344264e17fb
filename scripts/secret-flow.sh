#!/usr/bin/env bash
# The secret-flow check, BoringSSL's way, under Valgrind memcheck: a key's secret bytes are
# marked undefined and memcheck reports every branch ("Conditional jump or move depends on
# uninitialised value(s)") and every memory index ("Use of uninitialised value of size N")
# that depends on them. It cannot pass blind: outside Valgrind every mode fails, every plant
# must be flagged, and the marker must have marked every secret byte it was told of.
#
# Two programs are checked:
# - the shipped `parcrypt rsa decrypt` (target/release/parcrypt, `cargo build --release`),
#   with scripts/secret-flow-mark.c preloaded (LD_PRELOAD): it wraps read(2) and marks the
#   key file's secret bytes undefined in the buffer they are read into, before parcrypt looks
#   at them (where they lie: `secret_flow --mark-spec KEY`, examples/secret_flow/spec.rs).
#   Nothing is compiled into parcrypt for this (docs/security.md says why). Keys made here:
#   OpenSSL's 2048-bit 2 primes (PKCS#8 PEM; PKCS#1 DER), 3 primes (PKCS#1 PEM), 4096-bit 4
#   primes (PKCS#8 DER) and 8192-bit 5 primes (PKCS#8 PEM), with and without --parallel, a
#   valid ciphertext, a failing OAEP check and a ciphertext >= n (both refused, exit 1);
# - crates/parcrypt/examples/secret_flow (the library path, phase by phase): DER loading,
#   every constant-time kernel Valgrind runs (portable, mulx), KeySecrets::derive, 34
#   decryptions with one key (the blinding pair drawn afresh after 32 uses), --parallel,
#   c = n, and the IFMA and multi-buffer kernels' source with its 512-bit operations
#   emulated (ifma-emulated, ifma-mb-emulated: Valgrind has no AVX-512; bignum/ct/simd.rs).
#
#   cargo build --release && cargo build --release -p parcrypt --example secret_flow
#   scripts/secret-flow.sh planted   # plants must be flagged: in the example, a branch on a
#                                    # key bit, a table read at key bits, the old loader's GMP
#                                    # calls; in the shipped binary, `--kernel gmp-sec` (GMP's
#                                    # limb-inverse tables are indexed by the prime's bits)
#   scripts/secret-flow.sh clean     # every phase above: no finding at all, or exit 1
#   scripts/secret-flow.sh report    # both, and gmp-sec in the example; never fails on
#                                    # findings (it still fails outside Valgrind)
#   scripts/secret-flow.sh summarize LOG   # the summary of a kept log ($SECRET_FLOW_LOGS)
#
# Each run prints the example's table (findings per phase, from Valgrind's error count) and,
# per phase or per shipped run, the reports memcheck printed (each distinct stack once),
# grouped by the instruction's function and the first frame in this repository (file:line;
# "-" when the stack does not reach it: GMP's assembly has no unwind tables, so below a GMP
# function only the phase is sure). Logs are kept in $SECRET_FLOW_LOGS (default: a temporary
# folder, removed). Valgrind (3.19 here) runs MULX/ADX although its CPUID hides ADX; the real
# AVX-512 kernels it cannot run (named as skipped). About 5 s planted, 40 s clean on the
# 2-core build machine.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$repo/target/release/examples/secret_flow"
shipped="$repo/target/release/parcrypt"
mode="${1:-clean}"
case "$mode" in planted | clean | report | summarize) ;; *)
  echo "usage: $0 planted|clean|report, or $0 summarize LOG" >&2
  exit 2
  ;;
esac
if [ "$mode" != summarize ]; then
  [ -x "$bin" ] && [ -x "$shipped" ] || {
    echo "error: build first: cargo build --release && cargo build --release -p parcrypt --example secret_flow" >&2
    exit 2
  }
  command -v valgrind >/dev/null || {
    echo "error: valgrind is missing (apt-get install valgrind)" >&2
    exit 2
  }
fi
logs="${SECRET_FLOW_LOGS:-}"
if [ -z "$logs" ]; then
  logs=$(mktemp -d /tmp/parcrypt-secret-flow.XXXXXX)
  trap 'rm -rf "$logs"' EXIT
fi
mkdir -p "$logs"
# --error-limit=no: memcheck otherwise stops counting after 1000 contexts (a later phase
# would read clean). --expensive-definedness-checks: exact definedness of comparisons and
# additions (no false finding where defined bits already decide). --log-fd=1: reports land
# between the harness's phase markers. The suppressions file holds code proven unrelated.
vg=(valgrind --tool=memcheck --error-limit=no --expensive-definedness-checks=yes
  --num-callers=40 --fullpath-after="$repo/" --log-fd=1
  --suppressions="$repo/scripts/secret-flow.supp")

# The findings of a log, per phase: count, kind, the function of the instruction, the first
# frame in this repository. $2: the name for findings outside any phase.
summarize() {
  awk -v none="${2:-(before the first phase)}" '
    /^secret-flow: phase / { phase = substr($0, 20); next }
    /^==[0-9]+== (Conditional jump|Use of uninitialised|Syscall param)/ {
      kind = $0; sub(/^==[0-9]+== /, "", kind)
      sub(/ depends on uninitialised value\(s\)/, "", kind)
      top = ""; ours = ""; inerr = 1; next
    }
    inerr && /^==[0-9]+==    (at|by) / {
      line = $0; sub(/^==[0-9]+==    (at|by) 0x[0-9A-F]+: /, "", line)
      fn = line; sub(/ \(.*$/, "", fn)
      # GMP'"'"'s assembly has no unwind tables: below it, only a frame in rug (or our own
      # mpn wrappers) shows the stack was followed; anything else is stale stack.
      if (top == "") { top = fn; ingmp = (fn ~ /^__gmp/); lost = 0 }
      else if (ingmp && fn !~ /^__gmp/ && fn != "???") {
        ingmp = 0
        if (line !~ /rug-|gmp-mpfr-sys|src\/bignum\/mpn\.rs/) lost = 1
      }
      if (!lost && ours == "" && match(line, /\((src|examples)\/[^):]+:[0-9]+\)/))
        ours = substr(line, RSTART + 1, RLENGTH - 2) " " fn
      next
    }
    inerr {
      where = (phase == "" ? none : phase)
      here = (ours != "" ? ours : lost ? "(stack lost in GMP assembly)" : "-")
      key = where "\t" kind "\t" top "\t" here
      n[key]++; total[phase]++; inerr = 0
    }
    END { for (k in n) print n[k] "\t" k }
  ' "$1" | sort -t$'\t' -k2,2 -k1,1nr | awk -F'\t' '
    $2 != last { print "  " $2 ":"; last = $2; shown = 0 }
    shown < 12 { printf "    %7d  %-40s in %-28s  first frame here: %s\n", $1, $3, $4, $5; shown++ }
  '
}

if [ "$mode" = summarize ]; then
  summarize "${2:?usage: $0 summarize LOG}"
  exit 0
fi
started=$(date +%s)
status=0
# Outside Valgrind nothing is seen: fail rather than pass blind (memcheck's client requests
# answer 0 there; the example checks it too).
valgrind --tool=none -q true || {
  echo "secret-flow: valgrind does not run here: nothing checked" >&2
  exit 1
}

# The marker for the shipped binary, built here (cc and Valgrind's headers).
mark_so="$logs/secret-flow-mark.so"
cc -shared -fPIC -O1 -Wall -o "$mark_so" "$repo/scripts/secret-flow-mark.c" -ldl
keys="$logs/keys"
mkdir -p "$keys" "$logs/cache"
printf 'the secret-flow check message' >"$keys/msg"

# Keys made by OpenSSL for each run (`all`: every shape; else the two-prime ones only).
make_keys() {
  gen() {
    openssl genpkey -algorithm RSA -pkeyopt "rsa_keygen_bits:$1" \
      -pkeyopt "rsa_keygen_primes:$2" -out "$3" 2>/dev/null
  }
  gen 2048 2 "$keys/p2-pkcs8.pem"
  openssl rsa -in "$keys/p2-pkcs8.pem" -traditional -outform DER -out "$keys/p2-pkcs1.der" \
    2>/dev/null
  [ "$1" = all ] || return 0
  gen 2048 3 "$keys/p3.tmp"
  openssl rsa -in "$keys/p3.tmp" -traditional -out "$keys/p3-pkcs1.pem" 2>/dev/null
  gen 4096 4 "$keys/p4.tmp"
  openssl pkey -in "$keys/p4.tmp" -outform DER -out "$keys/p4-pkcs8.der"
  gen 8192 5 "$keys/p5-pkcs8.pem"
}

# One run of the shipped `parcrypt rsa decrypt` under memcheck with the key file's secret
# bytes marked: shipped_run KEY INPUT EXPECT [ARGS...]. KEY: a file in $keys; INPUT: valid (a
# ciphertext of msg), bad-oaep (its last bit flipped: below n, the OAEP check fails), high
# (all bytes 0xff: at least n); both refused with exit 1 and no output. EXPECT: clean or
# flagged. Fails (status 1) on a wrong exit or output, on a marker that marked fewer bytes
# than the key's secret bytes, and on findings where clean is expected or none where flagged.
shipped_run() {
  local key="$1" input="$2" expect="$3"
  shift 3
  local name
  name="$key-$input${*:+ $*}"
  local tag="${name// /_}" k="$keys/$key"
  "$shipped" rsa encrypt --key "$k" --in "$keys/msg" --out "$keys/$tag.valid"
  local size
  size=$(wc -c <"$keys/$tag.valid")
  case "$input" in
  valid) cp "$keys/$tag.valid" "$keys/$tag.in" ;;
  bad-oaep)
    local last
    last=$(tail -c 1 "$keys/$tag.valid" | od -An -tu1 | tr -d ' ')
    { head -c $((size - 1)) "$keys/$tag.valid"; printf "\\$(printf %o $((last ^ 1)))"; } \
      >"$keys/$tag.in"
    ;;
  high) head -c "$size" /dev/zero | tr '\0' '\377' >"$keys/$tag.in" ;;
  esac
  "$bin" --mark-spec "$k" >"$keys/$tag.spec"
  local want marked rc=0 log="$logs/shipped-$tag.log"
  want=$(awk '{ s += $2 } END { print s + 0 }' "$keys/$tag.spec")
  rm -f "$keys/$tag.out"
  SECRET_FLOW_KEY="$k" SECRET_FLOW_SPEC="$keys/$tag.spec" PARCRYPT_CACHE_DIR="$logs/cache" \
    LD_PRELOAD="$mark_so" "${vg[@]}" "$shipped" rsa decrypt --key "$k" \
    --in "$keys/$tag.in" --out "$keys/$tag.out" "$@" >"$log" 2>&1 || rc=$?
  marked=$(sed -n 's/^secret-flow-mark: \([0-9]*\) bytes marked$/\1/p' "$log" | tail -1)
  local found
  found=$(sed -n 's/^==[0-9]*== ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' "$log" | tail -1)
  local verdict=ok
  if [ "$input" = valid ]; then
    [ "$rc" = 0 ] && cmp -s "$keys/$tag.out" "$keys/msg" || verdict="WRONG (exit $rc or output)"
  else
    [ "$rc" = 1 ] && [ ! -e "$keys/$tag.out" ] || verdict="WRONG (exit $rc or output written)"
  fi
  [ "${marked:-0}" = "$want" ] && [ "$want" -gt 0 ] ||
    verdict="NOT MARKED (marker: ${marked:-nothing} of $want secret bytes)"
  if [ "$verdict" = ok ]; then
    case "$expect,$((${found:-0} > 0))" in
    clean,0) verdict="clean" ;;
    flagged,1) verdict="flagged, as planted" ;;
    clean,1) verdict="FLAGGED" ;;
    *) verdict="NOT FLAGGED" ;;
    esac
  fi
  printf '  shipped %-44s marked %5s  findings %6s  %s\n' "$name" "$marked" "${found:-?}" "$verdict"
  summarize "$log" "(the whole run)"
  case "$verdict" in clean | "flagged, as planted") ;; *)
    [ "$mode" = report ] && [ "${verdict%% *}" = FLAGGED ] || status=1
    ;;
  esac
}
if [ "$mode" != clean ]; then
  # Plants only (no backend): load, then the three plants; only the plants are judged.
  rc=0
  "${vg[@]}" "$bin" --kernel none --plant key-bit --plant key-index --plant gmp-loader \
    --judge plants >"$logs/planted.log" 2>&1 || rc=$?
  grep -E '^(secret-flow|  )' "$logs/planted.log" | grep -v '^secret-flow: phase' || true
  echo "secret-flow: planted run's findings:"
  summarize "$logs/planted.log"
  if [ "$rc" != 0 ] || ! grep -q '^secret-flow: as expected' "$logs/planted.log"; then
    echo "secret-flow: a plant was not flagged, or not under Valgrind (exit $rc)"
    status=1
  fi
  # The shipped binary's plant: gmp-sec reads GMP's limb-inverse tables at the prime's bits,
  # so the marker's secret must reach a finding through `parcrypt rsa decrypt` itself.
  make_keys two
  echo "secret-flow: the shipped parcrypt rsa decrypt, planted:"
  shipped_run p2-pkcs1.der valid flagged --kernel gmp-sec
fi
if [ "$mode" != planted ]; then
  # The whole path on every backend, for a two-prime and a three-prime key: any finding
  # fails (Valgrind's exit code 97 too).
  for key in two-primes three-primes; do
    rc=0
    "${vg[@]}" --error-exitcode=97 "$bin" --key "$key" >"$logs/clean-$key.log" 2>&1 || rc=$?
    grep -E '^(secret-flow|  )' "$logs/clean-$key.log" | grep -v '^secret-flow: phase' || true
    echo "secret-flow: findings on the decrypt path ($key):"
    summarize "$logs/clean-$key.log"
    if [ "$rc" != 0 ]; then
      echo "secret-flow: the decrypt path has secret-dependent branches or indexes ($key, exit $rc)"
      [ "$mode" = report ] || status=1
    fi
  done
  # The shipped binary, on every key shape and form (auto kernel: what Valgrind's CPU runs).
  make_keys all
  echo "secret-flow: the shipped parcrypt rsa decrypt, key secret from the file:"
  shipped_run p2-pkcs8.pem valid clean
  shipped_run p2-pkcs1.der valid clean --parallel
  shipped_run p3-pkcs1.pem valid clean
  shipped_run p3-pkcs1.pem bad-oaep clean
  shipped_run p4-pkcs8.der high clean --parallel
  shipped_run p5-pkcs8.pem valid clean --parallel
fi
if [ "$mode" = report ]; then
  # gmp-sec, for the record: variable time in the prime, so never judged clean.
  "${vg[@]}" "$bin" --key two-primes --kernel gmp-sec >"$logs/gmp-sec.log" 2>&1 || true
  echo "secret-flow: gmp-sec's findings (expected; not judged):"
  summarize "$logs/gmp-sec.log"
fi
echo "secret-flow: $mode done in $(($(date +%s) - started)) s"
exit "$status"
