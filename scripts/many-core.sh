#!/usr/bin/env bash
# The claims that need more than 2 threads, in one command, on all CPUs of the machine, into the
# results archive by CPU (results/machines/<cpu-key>/many-core/, beside the quick run; issue 40).
#
#   scripts/many-core.sh            # real run: at most 10 minutes (MANY_CORE_BUDGET_S, 600)
#   scripts/many-core.sh --dry-run  # (or MANY_CORE_DRY=1) 2 CPUs, the smallest threaded paper
#                                   # (crsa, a few seconds), into a temporary archive; checks
#                                   # that its outputs exist. CI runs this so the script cannot rot.
#
# What runs: `parcrypt study --quick --only parsa,scc-blowfish,crsa,mary-karatsuba` (the papers
# whose claims say `needs-N-threads` on 2 CPUs, and the parallel pipelines) with every logical CPU
# of the machine (the study uses all it finds and judges `needs-N-threads` against them); then, if
# time remains in the budget, the rest of the quick study into the same folder (the study reuses
# what the folder holds finished, so only the missing papers are measured). The `--full` profile
# takes hours and is not run here.
#
# MANY_CORE_ARCHIVE: the archive root (default results/machines in the repository; the dry run
# uses a temporary folder unless it is set). MANY_CORE_OUT: the output folder itself (default
# <archive>/<cpu-key>/many-core). An existing output folder is refused unless MANY_CORE_REPLACE=1.
# PARCRYPT_BIN: a parcrypt binary to use instead of building target/release/parcrypt.
set -euo pipefail
cd "$(dirname "$0")/.."

dry="${MANY_CORE_DRY:-0}"
for arg in "$@"; do
  case "$arg" in
    --dry-run) dry=1 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "many-core.sh: unknown argument '$arg' (expected --dry-run)" >&2; exit 2 ;;
  esac
done
budget="${MANY_CORE_BUDGET_S:-600}"
case "$budget" in
  ''|*[!0-9]*) echo "many-core.sh: MANY_CORE_BUDGET_S must be a number of seconds, not '$budget'" >&2; exit 2 ;;
esac

# The CPU key, vendor-family-model, from /proc/cpuinfo (as results/machines/README.md names them).
cpu_field() { awk -F': *' -v k="$1" '$1 ~ "^"k"[ \t]*$" {print $2; exit}' /proc/cpuinfo; }
if [ ! -r /proc/cpuinfo ]; then
  echo "many-core.sh: /proc/cpuinfo is not readable: cannot name the CPU" >&2; exit 1
fi
case "$(cpu_field vendor_id)" in
  AuthenticAMD) vendor=amd ;;
  GenuineIntel) vendor=intel ;;
  *) vendor=$(cpu_field vendor_id | tr 'A-Z' 'a-z' | tr -cd 'a-z0-9'); vendor=${vendor:-unknown} ;;
esac
key="$vendor-f$(cpu_field 'cpu family')-m$(cpu_field model)"

if [ "$dry" = 1 ]; then
  cpus=2
  papers=crsa
  archive="${MANY_CORE_ARCHIVE:-$(mktemp -d)}"
else
  cpus=$(nproc --all)
  papers=parsa,scc-blowfish,crsa,mary-karatsuba
  archive="${MANY_CORE_ARCHIVE:-results/machines}"
fi
out="${MANY_CORE_OUT:-$archive/$key/many-core}"
if [ -e "$out" ] && [ "${MANY_CORE_REPLACE:-0}" != 1 ]; then
  echo "many-core.sh: $out exists; set MANY_CORE_REPLACE=1 to measure into it again" >&2; exit 1
fi
# On the CPUs 0..cpus-1 only (the dry run's 2; all of them otherwise).
pin=(taskset -c "0-$((cpus - 1))")
command -v taskset >/dev/null 2>&1 || pin=()

# The release binary, built if needed (PARCRYPT_BIN: one already built, used as it is).
if [ -n "${PARCRYPT_BIN:-}" ]; then
  bin="$PARCRYPT_BIN"
else
  cargo build --release -q --bin parcrypt
  bin="${CARGO_TARGET_DIR:-target}/release/parcrypt"
fi
[ -x "$bin" ] || { echo "many-core.sh: no parcrypt binary at $bin" >&2; exit 1; }

started=$(date +%s)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "many-core: $key, $cpus CPU(s), papers $papers -> $out"
mkdir -p "$out"
timeout "$budget" "${pin[@]}" "$bin" study --quick --quiet --only "$papers" --out "$out" --fresh
left=$((budget - ($(date +%s) - started)))
whole=no
# The rest of the quick study (cipher-energy: about 20 s on 2 CPUs) when at least 2 minutes remain.
if [ "$dry" != 1 ] && [ "$left" -ge 120 ]; then
  timeout "$left" "${pin[@]}" "$bin" study --quick --quiet --out "$out"
  whole=yes
fi
took=$(($(date +%s) - started))

# Provenance beside the results: commit, date, time taken, load, CPUs, and the CPU's own words.
{
  echo "# many-core run, $key"
  echo
  echo "- commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)'), $(date -u +%Y-%m-%dT%H:%M:%SZ), ${took} s"
  echo "- $cpus logical CPU(s) used of $(nproc --all); papers $papers; whole quick study after them: $whole"
  echo "- load average before: $load_before; after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- CPU: $(cpu_field 'model name'), family $(cpu_field 'cpu family') model $(cpu_field model) stepping $(cpu_field stepping), siblings $(cpu_field siblings), cpu cores $(cpu_field 'cpu cores')"
  echo "- SIMD: $(cpu_field flags | tr ' ' '\n' | grep -E '^(sse4_2|avx|avx2|avx512f|avx512bw|avx512vl|avx512ifma|avx512vbmi2|bmi2|adx|amx_tile)$' | tr '\n' ' ')"
  [ "$dry" = 1 ] && echo "- dry run (--dry-run): 2 CPUs, crsa only; not a measurement to keep"
} > "$out/README.md"

missing=0
for f in results.json report.md report.html README.md; do
  [ -s "$out/$f" ] || { echo "many-core.sh: $out/$f is missing or empty" >&2; missing=1; }
done
[ "$missing" = 0 ] || exit 1
echo "many-core: wrote, in ${took} s:"
ls -1 "$out" | grep -E '^(results\.json|report\.md|report\.html|README\.md)$' | sed "s|^|  $out/|"
