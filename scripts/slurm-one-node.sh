#!/usr/bin/env bash
# Starts a throw-away one-node Slurm cluster on this machine (munged, slurmctld and slurmd, all
# state, sockets and logs in a temporary folder, on ports 16817-16818) and runs every
# parcrypt-mpi program under `srun --mpi=pmix` (or pmi2 where the Slurm build lacks PMIx),
# checking each result. Then it cancels a job while it writes its output and checks that
# nothing is left in the folder. Daemons are stopped and the folder removed on exit.
#
#   cargo build --release -p parcrypt-mpi
#   sudo scripts/slurm-one-node.sh            # root: slurmd launches the job steps
#
# Needs Debian's slurm-wlm and munge (installed here when missing and run as root). On a real
# cluster, skip this script: run the same `srun` lines inside an allocation
# (`salloc -n 4`, or an sbatch script), with the binary and the files on a shared folder.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$repo/target/release/parcrypt-mpi"
par="$repo/target/release/parcrypt"
[ -x "$bin" ] && [ -x "$par" ] || {
  echo "build first: cargo build --release -p parcrypt-mpi" >&2
  exit 2
}
[ "$(id -u)" = 0 ] || {
  echo "run as root: slurmd starts the job steps as their user" >&2
  exit 2
}
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge
fi
started=$(date +%s)
dir=$(mktemp -d /tmp/parcrypt-slurm.XXXXXX)
chmod 755 "$dir"
stop() {
  for p in slurmd slurmctld munge/munged; do
    [ -f "$dir/$p.pid" ] && kill "$(cat "$dir/$p.pid")" 2>/dev/null || true
  done
  sleep 1
  rm -rf "$dir"
}
trap stop EXIT
fail() {
  echo "FAILED: $*" >&2
  for log in slurmctld.log slurmd.log; do
    echo "--- $log" >&2
    tail -n 20 "$dir/$log" >&2 || true
  done
  exit 1
}

# munge with its own key and socket (the system's munged, if any, is left alone).
mkdir -m 700 "$dir/munge"
mungekey --create --keyfile="$dir/munge/munge.key" --force
munged --force -S "$dir/munge/sock" --key-file="$dir/munge/munge.key" \
  --log-file="$dir/munge/log" --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed"

node=$(hostname -s)
mkdir "$dir/spool" "$dir/state"
cat >"$dir/slurm.conf" <<EOF
ClusterName=parcrypt
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
SlurmctldPort=16817
SlurmdPort=16818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
KillWait=5
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmdSpoolDir=$dir/spool
StateSaveLocation=$dir/state
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=one Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -i
slurmd
for _ in $(seq 60); do
  [ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
  sleep 0.5
done
[ "$(sinfo -h -o %T)" = idle ] || fail "the node did not come up"
mpi=pmix
srun --mpi=list 2>&1 | grep -qw pmix || mpi=pmi2
echo "slurm: one node ($node, $(nproc) CPUs) up after $(($(date +%s) - started)) s; srun --mpi=$mpi"

run() { # ranks, then the program's arguments; stdout to $dir/out
  local n=$1
  shift
  timeout 300 srun --mpi="$mpi" -n "$n" --overcommit "$bin" "$@" >"$dir/out" 2>"$dir/err" ||
    { cat "$dir/err" >&2; fail "srun -n $n parcrypt-mpi $*"; }
  grep -q "$expect" "$dir/out" || { cat "$dir/out" >&2; fail "'$expect' not in the output of $*"; }
  echo "ok: srun --mpi=$mpi -n $n parcrypt-mpi $1 ($(head -n 1 "$dir/out" | cut -c1-90)...)"
}
C=(--runs 1 --warmup 0)
expect="every output equalled SeRSA's"
run 2 rsa --bits 512 --messages 16 "${C[@]}"
run 4 rsa --bits 512 --messages 16 --master waits "${C[@]}"
expect="output equal to the input"
run 2 pipeline --size 100000 --hops 20 "${C[@]}"
run 4 pipeline --size 100000 --hops 20 "${C[@]}"
expect="link counts equal the thread engine's"
run 4 crsa --cubes 1 --blocks 3 --bits 256 "${C[@]}"
run 8 crsa --cubes 1 --blocks 3 --bits 256 "${C[@]}"
head -c 3000001 /dev/urandom >"$dir/in.bin"
key=00112233445566778899
expect="checked whole on rank 0"
run 2 cipher --alg pblock-ecb --key $key --in "$dir/in.bin" --out "$dir/enc.bin" --verify full
"$par" cipher encrypt --alg blowfish-ecb --key $key --in "$dir/in.bin" --out "$dir/ref.bin" 2>/dev/null
cmp -s "$dir/enc.bin" "$dir/ref.bin" || fail "PBlock over ranks differs from parcrypt's Blowfish ECB"
expect="each rank's part"
run 3 cipher --alg pblock-ecb --decrypt --key $key --in "$dir/enc.bin" --out "$dir/dec.bin"
cmp -s "$dir/dec.bin" "$dir/in.bin" || fail "decryption over ranks did not give the input back"

# scancel while the output is written: the ranks' SIGTERM handlers remove the temporary file.
mkdir "$dir/cancel"
head -c $((512 << 20)) /dev/zero >"$dir/big.bin"
srun --mpi="$mpi" -n 2 -J cancel-me "$bin" cipher --alg pblock-ecb --key $key \
  --in "$dir/big.bin" --out "$dir/cancel/enc.bin" >/dev/null 2>"$dir/cancel.err" &
for _ in $(seq 2000); do
  f=$(ls "$dir/cancel"/.parcrypt-*.tmp 2>/dev/null | head -n 1 || true)
  [ -n "$f" ] && [ "$(stat -c %s "$f" 2>/dev/null || echo 0)" -gt 1048576 ] && break
  sleep 0.01
done
[ -n "$f" ] || fail "the cancelled job never started writing"
scancel -n cancel-me
wait || true
left=$(ls -A "$dir/cancel")
[ -z "$left" ] || fail "scancel left $left"
echo "ok: scancel during the write left nothing; the job said:"
sed 's/^/  | /' "$dir/cancel.err"
echo "slurm: all passed in $(($(date +%s) - started)) s"
