#!/usr/bin/env bash
# The secret-flow check, BoringSSL's way: crates/parcrypt/examples/secret_flow.rs loads a fixed key
# with its secret values marked undefined for Valgrind memcheck and runs `rsa decrypt`'s
# private-key path; memcheck reports every branch ("Conditional jump or move depends on
# uninitialised value(s)") and every memory index ("Use of uninitialised value of size N")
# that depends on them. See crates/parcrypt/src/bignum/ct/secret_flow.rs.
#
#   cargo build --release -p parcrypt --example secret_flow      # (cargo test --release builds it too)
#   scripts/secret-flow.sh planted   # plants (a branch on a key bit, a table read at key bits,
#                                    # the old loader's GMP calls) must be flagged: the check
#                                    # cannot pass by seeing nothing
#   scripts/secret-flow.sh clean     # key loading and every constant-time backend Valgrind
#                                    # runs (portable, mulx), two- and three-prime keys: no
#                                    # finding at all, or exit 1
#   scripts/secret-flow.sh report    # both, and gmp-sec (flagged: GMP's limb-inverse tables
#                                    # are indexed by the prime's bits); never fails
#   scripts/secret-flow.sh summarize LOG   # the summary of a kept log ($SECRET_FLOW_LOGS)
#
# Each run prints the harness's table (findings per phase, from Valgrind's error count) and,
# per phase, the reports memcheck printed (each distinct stack once, in the phase where it
# first occurred), grouped by the instruction's function and the first frame in this
# repository (file:line; CI builds without line tables, so there only functions show; "-" when
# the stack does not reach it: GMP's assembly has no unwind tables, so below a GMP function
# only the phase is sure). Logs
# are kept in $SECRET_FLOW_LOGS (default: a temporary folder, removed). Valgrind cannot run
# the IFMA backends (ifma, and the multi-buffer ifma-mb phase, both named as skipped): it has
# no AVX-512 (3.19 here; its CPUID hides AVX-512 and it cannot decode the instructions); it
# runs MULX/ADX although its CPUID hides ADX. About 3 s planted,
# 30 s clean on the 2-core build machine.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$repo/target/release/examples/secret_flow"
mode="${1:-clean}"
case "$mode" in planted | clean | report | summarize) ;; *)
  echo "usage: $0 planted|clean|report, or $0 summarize LOG" >&2
  exit 2
  ;;
esac
if [ "$mode" != summarize ]; then
  [ -x "$bin" ] || {
    echo "error: build first: cargo build --release -p parcrypt --example secret_flow" >&2
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
# frame in this repository.
summarize() {
  awk '
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
      where = (phase == "" ? "(before the first phase)" : phase)
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
if [ "$mode" != clean ]; then
  # Plants only (no backend): load, then the three plants; only the plants are judged.
  rc=0
  "${vg[@]}" "$bin" --kernel none --plant key-bit --plant key-index --plant gmp-loader \
    --judge plants >"$logs/planted.log" 2>&1 || rc=$?
  grep -E '^(secret-flow|  )' "$logs/planted.log" | grep -v '^secret-flow: phase' || true
  echo "secret-flow: planted run's findings:"
  summarize "$logs/planted.log"
  if [ "$rc" != 0 ] || ! grep -q '^secret-flow: as expected' "$logs/planted.log"; then
    echo "secret-flow: a plant was not flagged (exit $rc)"
    [ "$mode" = report ] || status=1
  fi
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
fi
if [ "$mode" = report ]; then
  # gmp-sec, for the record: variable time in the prime, so never judged clean.
  "${vg[@]}" "$bin" --key two-primes --kernel gmp-sec >"$logs/gmp-sec.log" 2>&1 || true
  echo "secret-flow: gmp-sec's findings (expected; not judged):"
  summarize "$logs/gmp-sec.log"
fi
echo "secret-flow: $mode done in $(($(date +%s) - started)) s"
exit "$status"
