#!/usr/bin/env bash
# The many-machine recipe of docs/training.md, run for real: a one-node Slurm cluster on this
# machine runs scripts/datagen_slurm.sbatch as an array job, and every shard it writes must be
# byte for byte the file `jiangjun datagen --shard I/N` writes here without Slurm, and the
# shards together must hold exactly the games of the unsharded run. Not in CI: it installs
# Debian packages and starts daemons, as root.
#
#   scripts/slurm_check.sh [OUT_DIR]        (default: a new folder under /tmp)
#
# Installs slurm-wlm and munge with apt-get when slurmctld, slurmd, sbatch or munged is
# missing (written for Debian 12, Slurm 22.05). Writes a slurm.conf for one node (this
# machine, as `slurmd -C` describes it) under OUT_DIR/cluster, starts munged (unless a
# working one is running), slurmctld and slurmd there, submits SHARDS array tasks of a
# GAMES-game run with `sbatch --wait`, then plays the same shards and the unsharded run
# locally and compares: each Slurm shard with its local twin (`cmp`), each game's chunk of the
# shards with that game's chunk of the unsharded file, and `cat` of the shards in shard order
# with the unsharded chunks put in that order. The daemons it started are stopped on exit.
# The last line is "slurm_check: PASS ..." or "slurm_check: FAIL ..." (exit status 1).
#
# Environment: GAMES (default 8), SHARDS (default 4), NODES per move (default 300), SEED
# (default 11); JIANGJUN=path uses that binary instead of `cargo build --release`; PORT: the
# controller's port, the node daemon's is PORT+1 (default 6817).
set -euo pipefail
trap 'echo "slurm_check: FAIL (the script stopped at line $LINENO)"' ERR
cd "$(dirname "$0")/.."
root=$(pwd)

out=${1:-$(mktemp -d -t slurm_check.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
games=${GAMES:-8}
shards=${SHARDS:-4}
nodes=${NODES:-300}
seed=${SEED:-11}
port=${PORT:-6817}
began=$(date +%s)

need=0
for c in slurmctld slurmd sbatch munged; do
    command -v "$c" >/dev/null || need=1
done
if [ "$need" = 1 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge
fi
echo "slurm $(dpkg-query -W -f '${Version}' slurmctld 2>/dev/null || sbatch --version)," \
    "munge $(dpkg-query -W -f '${Version}' munge 2>/dev/null || munged --version)"

if [ -n "${JIANGJUN:-}" ]; then
    engine=$JIANGJUN
else
    cargo build --release
    engine=${CARGO_TARGET_DIR:-$root/target}/release/jiangjun
fi
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")
"$engine" --version

# Everything of the cluster lives in OUT_DIR/cluster; the daemons run in the foreground as
# children of this script, so that the trap below can stop exactly them.
cluster=$out/cluster
rm -rf "$cluster" "$out/slurm" "$out/local" "$out/chunks"
mkdir -p "$cluster/state" "$cluster/spool" "$out/slurm" "$out/local"
pids=()
jobid=
stop() {
    [ -n "$jobid" ] && scancel "$jobid" 2>/dev/null || true
    local p
    for p in ${pids[@]+"${pids[@]}"}; do
        kill "$p" 2>/dev/null || true
    done
    for p in ${pids[@]+"${pids[@]}"}; do
        wait "$p" 2>/dev/null || true
    done
}
trap stop EXIT

# Munge authenticates every Slurm message. Debian's package makes the key; a munged already
# running with it (the package's service) is used as it is.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
    [ -f /etc/munge/munge.key ] || mungekey --create
    mkdir -p /run/munge
    if id munge >/dev/null 2>&1; then
        chown munge:munge /run/munge
        setpriv --reuid=munge --regid=munge --init-groups munged --foreground >"$cluster/munged.log" 2>&1 &
    else
        munged --foreground --force >"$cluster/munged.log" 2>&1 &
    fi
    pids+=($!)
    for _ in $(seq 50); do
        munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break
        sleep 0.2
    done
    munge -n </dev/null | unmunge >/dev/null || { cat "$cluster/munged.log" >&2; exit 1; }
fi

# One node, this machine, with the CPUs and memory slurmd finds; one partition. No cgroups
# (processes are tracked through /proc, tasks are not bound), no accounting.
host=$(hostname -s)
node_line=$(slurmd -C | head -n 1)
[[ "$node_line" == NodeName=* ]] || { echo "slurmd -C printed: $node_line" >&2; exit 1; }
conf=$cluster/slurm.conf
cat >"$conf" <<EOF
ClusterName=jjcheck
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
echo "slurm.conf: $conf"
echo "node: $node_line"

slurmctld -D -f "$conf" >"$cluster/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$conf" >"$cluster/slurmd.out" 2>&1 &
pids+=($!)
state=
for _ in $(seq 120); do
    state=$(sinfo -h -N -o %T 2>/dev/null | head -n 1 || true)
    [ "$state" = idle ] && break
    sleep 0.5
done
if [ "$state" != idle ]; then
    echo "the node did not come up (state '$state'); logs in $cluster" >&2
    tail -n 20 "$cluster/slurmctld.log" "$cluster/slurmd.log" >&2 || true
    echo "slurm_check: FAIL (no Slurm node)"
    exit 1
fi
sinfo

# The array job, as a user would submit it, from OUT_DIR.
failures=()
echo "== sbatch: $shards shards of a $games-game run, $nodes nodes per move, seed $seed"
job_began=$(date +%s)
status=0
jobid=$(cd "$out" && JIANGJUN=$engine GAMES=$games NODES=$nodes SEED=$seed SHARDS=$shards \
    OUT_DIR=$out/slurm timeout 1800 sbatch --parsable --wait --array=0-$((shards - 1)) \
    --cpus-per-task=1 --output="$out/slurm/datagen-%A_%a.out" \
    "$root/scripts/datagen_slurm.sbatch") || status=$?
jobid=${jobid%%;*}
echo "array job $jobid: sbatch --wait exit status $status, $(($(date +%s) - job_began)) s"
for i in $(seq 0 $((shards - 1))); do
    echo "-- task $i:"
    sed 's/.*\r//' "$out/slurm/datagen-${jobid}_$i.out" 2>/dev/null || echo "(no output file)"
done
[ "$status" = 0 ] || failures+=("sbatch exit status $status")

# The same shards and the whole run here, two threads each (the tasks ran one thread each).
for i in $(seq 0 $((shards - 1))); do
    "$engine" datagen --games "$games" --nodes "$nodes" --seed "$seed" --shard "$i/$shards" \
        --threads 2 --out "$out/local/data.$i.bin" 2>>"$out/local/datagen.err"
done
"$engine" datagen --games "$games" --nodes "$nodes" --seed "$seed" --threads 2 \
    --out "$out/local/whole.bin" 2>>"$out/local/datagen.err"

echo "== each shard against the same shard without Slurm"
for i in $(seq 0 $((shards - 1))); do
    f=$out/slurm/data.$i.bin
    if [ ! -f "$f" ]; then
        echo "shard $i: missing"
        failures+=("shard $i missing")
    elif cmp "$f" "$out/local/data.$i.bin"; then
        echo "shard $i: $(stat -c %s "$f") bytes, cmp: identical"
    else
        failures+=("shard $i differs")
    fi
done

# Splits a data file into its chunks (32-byte header: record count at bytes 12..16, game
# index at 24..28; then count * 32 bytes of records): DIR/game.INDEX, and the indices in file
# order on stdout.
split_chunks() {
    local f=$1 d=$2 off=0 size count game len
    size=$(stat -c %s "$f")
    mkdir -p "$d"
    while [ "$off" -lt "$size" ]; do
        [ "$(dd if="$f" iflag=skip_bytes,count_bytes skip="$off" count=6 status=none)" = JJDATA ] ||
            { echo "$f: no chunk header at byte $off" >&2; return 1; }
        read -r count game < <(od -An -tu4 -j $((off + 12)) -N 16 "$f" | awk '{ print $1, $4 }')
        len=$((32 + 32 * count))
        dd if="$f" iflag=skip_bytes,count_bytes skip="$off" count="$len" status=none >>"$d/game.$game"
        echo "$game"
        off=$((off + len))
    done
}

echo "== the shards against the unsharded run ($(stat -c %s "$out/local/whole.bin") bytes)"
whole_order=$(split_chunks "$out/local/whole.bin" "$out/chunks/whole" | tr '\n' ' ')
echo "unsharded file, games in order: $whole_order"
merged=$out/slurm/merged.bin
: >"$merged"
expected=$out/chunks/expected.bin
: >"$expected"
for i in $(seq 0 $((shards - 1))); do
    f=$out/slurm/data.$i.bin
    if [ -f "$f" ]; then
        cat "$f" >>"$merged"
        order=$(split_chunks "$f" "$out/chunks/shard" | tr '\n' ' ')
        echo "shard $i, games in order: $order"
    fi
    for g in $(seq "$i" "$shards" $((games - 1))); do
        cat "$out/chunks/whole/game.$g" >>"$expected" 2>/dev/null || true
    done
done
n=0
for g in $(seq 0 $((games - 1))); do
    if [ ! -f "$out/chunks/shard/game.$g" ]; then
        failures+=("game $g in no shard")
    elif cmp -s "$out/chunks/shard/game.$g" "$out/chunks/whole/game.$g"; then
        n=$((n + 1))
    else
        failures+=("game $g differs from the unsharded run")
    fi
done
extra=$(find "$out/chunks/shard" "$out/chunks/whole" -name 'game.*' | sed 's/.*game\.//' |
    awk -v g="$games" '$1 >= g' | sort -un | tr '\n' ' ')
[ -z "$extra" ] || failures+=("games beyond the run: $extra")
echo "games whose chunk in the shards is byte-equal to the unsharded run's: $n of $games"
if cmp "$merged" "$expected"; then
    echo "cat data.{0..$((shards - 1))}.bin ($(stat -c %s "$merged") bytes) = the unsharded chunks in shard order: identical"
else
    failures+=("cat of the shards is not the unsharded chunks in shard order")
fi

secs=$(($(date +%s) - began))
if [ ${#failures[@]} -eq 0 ]; then
    echo "slurm_check: PASS (array job $jobid, $shards shards of $games games, $secs s; output in $out)"
else
    echo "slurm_check: FAIL: $(printf '%s; ' "${failures[@]}")output in $out"
    exit 1
fi
