#!/usr/bin/env bash
# Reference match through `jiangjun match`: ElephantEye (UCCI, book off) against
# Fairy-Stockfish (UCI, UCI_Variant xiangqi, ranks 1-10) from the opening suite.
#
#   scripts/match_opponents.sh [GAMES] [TC] [extra jiangjun match options...]
#   scripts/match_opponents.sh 6 movetime=100 --pgn ref.pgn
#
# The opponents are not part of the repository: build ElephantEye 3.31 and Fairy-Stockfish from
# their sources and name them with ELEEYE=... FSF=... (default: `eleeye` and `fairy-stockfish`
# found on PATH); the suite with OPENINGS=... (default tests/data/openings.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-6}
tc=${2:-movetime=100}
shift $(( $# > 2 ? 2 : $# ))
eleeye=${ELEEYE:-eleeye}
fsf=${FSF:-fairy-stockfish}
openings=${OPENINGS:-tests/data/openings.txt}
cargo build --release --quiet
exec target/release/jiangjun match \
    --engine "cmd=$eleeye,name=eleeye,proto=ucci,option.usebook=false" \
    --engine "cmd=$fsf,name=fsf,proto=uci" \
    --games "$games" --tc "$tc" --openings "$openings" "$@"
