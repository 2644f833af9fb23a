#!/usr/bin/env bash
# Reproducible evaluation tuning: self-play data in chunks of 400 games (one seed each), then
# Texel tuning on all chunks but the last, which is held out to check the fit generalises.
# Usage: scripts/tune.sh [chunks] [nodes] [first-seed]
# Defaults: 10 chunks, 10000 nodes per move, seeds 101..110, openings = every 8-ply line of the
# shipped book (`jiangjun book lines`); the data is `jiangjun datagen` records.
# The data depends on the engine that plays it: set GEN to another build's binary to generate
# with it. The landed weights were fitted on games of the engine at commit 4ce7988 (the last
# with the hand-set weights), written by the `selfplay` subcommand this script ran then; it has
# since been folded into `datagen`, so to reproduce that data exactly run this script as it was
# at that commit. The fit runs in parallel, so its last digits may differ.
# Writes target/tune/data_<seed>.bin and target/tune/weights.json (the tuned weights, in the
# format of src/eval/weights.json), then copies that file over the engine's:
# `git diff` shows the change; measure it with games before keeping it. Set INIT to a weights
# file to start from it instead of the engine's own (`jiangjun tune --init`).
set -euo pipefail
cd "$(dirname "$0")/.."
chunks=${1:-10}
nodes=${2:-10000}
first=${3:-101}
[ "$chunks" -ge 2 ] || { echo "need at least 2 chunks (the last is held out)" >&2; exit 2; }
mkdir -p target/tune
cargo build --release
jj=./target/release/jiangjun
$jj book lines > target/tune/openings.txt
files=()
for seed in $(seq "$first" $((first + chunks - 1))); do
    out=target/tune/data_$seed.bin
    [ -s "$out" ] || ${GEN:-$jj} datagen --out "$out" --games 400 --nodes "$nodes" --seed "$seed" \
        --openings target/tune/openings.txt
    files+=("$out")
done
held_out=${files[-1]}
unset 'files[-1]'
train=$(IFS=,; echo "${files[*]}")
$jj tune --data "$train" --validate "$held_out" --out target/tune/weights.json --all \
    --rounds 4 ${INIT:+--init "$INIT"}
cp target/tune/weights.json src/eval/weights.json
