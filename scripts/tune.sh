#!/usr/bin/env bash
# Reproducible evaluation tuning: self-play data (fixed seed), then Texel tuning.
# Usage: scripts/tune.sh [games] [nodes] [seed]
# Writes target/tune/data.txt and target/tune/weights.txt; paste the weights into
# src/search/eval/weights.rs (Weights::DEFAULT) and measure the result with games.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
nodes=${2:-20000}
seed=${3:-1}
mkdir -p target/tune
cargo build --release
./target/release/jiangjun selfplay --out target/tune/data.txt --games "$games" --nodes "$nodes" \
    --seed "$seed" --openings tests/data/openings.txt
./target/release/jiangjun tune --data target/tune/data.txt --out target/tune/weights.txt --passes 3
