#!/usr/bin/env bash
# Reference round robin through `jiangjun tournament`: ElephantEye, Fairy-Stockfish and a
# weakened ElephantEye (knowledge/pruning "small"), each pairing played with both colours.
#
#   scripts/robin_opponents.sh [TC] [extra jiangjun tournament options...]
#   scripts/robin_opponents.sh movetime=100 --pgn robin.pgn
#
# Paths as in scripts/match_opponents.sh (ELEEYE=..., FSF=..., OPENINGS=...).
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${1:-movetime=100}
shift $(( $# > 1 ? 1 : $# ))
eleeye=${ELEEYE:-eleeye}
fsf=${FSF:-fairy-stockfish}
openings=${OPENINGS:-tests/data/openings.txt}
cargo build --release --quiet
exec target/release/jiangjun tournament \
    --engine "cmd=$eleeye,name=eleeye,proto=ucci,option.usebook=false" \
    --engine "cmd=$fsf,name=fsf,proto=uci" \
    --engine "cmd=$eleeye,name=eleeye-small,proto=ucci,option.usebook=false,option.knowledge=small,option.pruning=small" \
    --double --tc "$tc" --openings "$openings" "$@"
