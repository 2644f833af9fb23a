#!/usr/bin/env bash
# Endgame tables on a Slurm cluster: the tables of MATERIAL... and of every smaller one they
# need (`jiangjun tb list`), one table a task. A table reads only tables with fewer pieces, so
# the tables of one piece count are one array job, and each count's job starts when the one
# before it has succeeded (--dependency=afterok).
#
#   DIR=/shared/tables scripts/tb_slurm.sh KRAABB-KAABB KNAABB-KAABB KCAABB-KAABB KPAABB-KAABB
#
# makes the one-attacker set with defenders on both sides (324 tables, 7.6 billion entries,
# levels of 3 to 11 pieces). Tables already in DIR are left out, so after a failed task the
# same command submits what is missing (each table is written whole under a temporary name
# and renamed when complete). With LOCAL=1 the tasks run here one after another, without
# Slurm: the same commands, for a check or a machine without a scheduler.
#
# Environment (sbatch passes the submitting shell's environment to every task):
#   JIANGJUN     the binary (default: `jiangjun` on PATH; every node must have the same build)
#   DIR          the tables' folder, one that every node reads and writes (default: tables)
#   MEMORY       MiB of finished tables a task holds in memory (`tb generate --memory`;
#                default 8192); the table being made takes its own beside it (about 16 bytes
#                an entry at its peak: 7 GB for the largest, KRAABB-KAABB)
#   CPUS         cores a task uses (default 4)
#   SBATCH_ARGS  more sbatch arguments for every job, split at spaces (partition, --mem, --time)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jiangjun=${JIANGJUN:-jiangjun}
dir=${DIR:-tables}
cpus=${CPUS:-4}
read -r -a extra <<<"${SBATCH_ARGS:-}"
[ $# -gt 0 ] || { echo "usage: DIR=FOLDER $0 MATERIAL..." >&2; exit 2; }

mkdir -p "$dir/slurm"
lists=$(mktemp -d)
trap 'rm -rf "$lists"' EXIT
# One list a piece count, of the tables not yet in the folder.
"$jiangjun" tb list "$@" | while read -r name pieces _; do
    [ "$name" = total: ] && continue
    [ -e "$dir/$name.jjtb" ] || echo "$name" >>"$lists/$(printf %02d "$pieces")"
done
previous=
for list in "$lists"/*; do
    [ -e "$list" ] || { echo "every table is in $dir already"; exit 0; }
    level=$(basename "$list")
    cp "$list" "$dir/slurm/level-$level.txt"
    n=$(wc -l <"$dir/slurm/level-$level.txt")
    export LIST=$dir/slurm/level-$level.txt DIR=$dir JIANGJUN=$jiangjun THREADS=$cpus
    if [ "${LOCAL:-0}" = 1 ]; then
        for ((i = 0; i < n; i++)); do
            SLURM_ARRAY_TASK_ID=$i bash "$here/tb_slurm.sbatch"
        done
        continue
    fi
    dependency=()
    [ -n "$previous" ] && dependency=(--dependency="afterok:$previous")
    previous=$(sbatch --parsable --array="0-$((n - 1))" --cpus-per-task="$cpus" \
        ${dependency[@]+"${dependency[@]}"} ${extra[@]+"${extra[@]}"} "$here/tb_slurm.sbatch")
    echo "$((10#$level)) pieces: $n tables, job $previous"
done
