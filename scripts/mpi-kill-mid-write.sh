#!/usr/bin/env bash
# Kills one rank of `parcrypt-mpi cipher` with SIGKILL while the output is being written, TRIES
# times, and counts the runs that left anything in the output folder (issue 22: a killed rank
# must leave no temporary file and no output).
#
#   scripts/mpi-kill-mid-write.sh [TRIES] [MIB] [RANK]
#
# TRIES (default 20) runs on a MIB-MiB input (default 1024), killing RANK (default 1) as soon as
# the temporary output has grown past its first MiB. Needs `cargo build --release -p
# parcrypt-mpi` first; as root, set OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
set -euo pipefail
tries=${1:-20}
mib=${2:-1024}
victim=${3:-1}
bin="$(cd "$(dirname "$0")/.." && pwd)/target/release/parcrypt-mpi"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/out"
head -c $((mib << 20)) /dev/urandom >"$work/in.bin"
left=0
for i in $(seq "$tries"); do
  # The victim rank starts a watcher that kills it once the temporary file holds a MiB.
  script='
    if [ "${OMPI_COMM_WORLD_RANK:-$SLURM_PROCID}" = "'"$victim"'" ]; then
      ( while :; do
          f=$(ls "'"$work"'/out"/.parcrypt-*.tmp 2>/dev/null | head -n 1)
          if [ -n "$f" ] && [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -gt 1048576 ]; then
            kill -9 $$; exit
          fi
          sleep 0.002
        done ) &
    fi
    exec "'"$bin"'" cipher --alg pblock-ecb --key 00112233445566778899 \
      --in "'"$work"'/in.bin" --out "'"$work"'/out/enc.bin"'
  set +e
  timeout 300 mpirun -n 2 bash -c "$script" >"$work/log" 2>&1
  status=$?
  set -e
  rest=$(ls -A "$work/out")
  [ -n "${VERBOSE:-}" ] && sed "s/^/  : /" "$work/log"
  if [ "$status" = 0 ] || [ -n "$rest" ]; then
    left=$((left + 1))
    echo "try $i: status $status, left: ${rest:-nothing}"
    sed 's/^/  | /' "$work/log"
    rm -f "$work/out"/* "$work/out"/.parcrypt-* 2>/dev/null || true
  else
    echo "try $i: status $status, folder empty"
  fi
done
echo "$((tries - left)) of $tries tries left nothing behind"
[ "$left" = 0 ]
