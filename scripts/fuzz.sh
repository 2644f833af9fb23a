#!/usr/bin/env bash
# Runs the cargo-fuzz targets one after another, each for a chosen time, starting from seed
# corpora made of real files, and prints one line per target: time, executions, coverage
# (libFuzzer's edge count "cov" and feature count "ft"), corpus size and crashes.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      default 60 seconds each, every target
#
# Needs a nightly toolchain and cargo-fuzz (`rustup toolchain install nightly`,
# `cargo install cargo-fuzz`). Environment: ELEEYE_BOOK=path/to/BOOK.DAT seeds the
# `eleeye_book` target with ElephantEye's real book (not in this repository); JOBS=N runs N
# fuzzing processes per target (default 1); REPORT=FILE appends the summary lines to FILE.
#
# The corpus grows in fuzz/corpus/TARGET (kept between runs, ignored by git); a crash is
# saved under fuzz/artifacts/TARGET/ and the script exits 1 after the other targets ran.
# Reproduce one with `cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-…`.
set -euo pipefail
trap 'echo "fuzz.sh: failed at line $LINENO" >&2' ERR
cd "$(dirname "$0")/.."
root=$(pwd)
secs=${1:-60}
shift || true
all=(command session records fen moves book eleeye_book network datagen train_state match_args openings
  tune game_walk tablebase)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all[@]}")
for t in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $t "* ]] || { echo "unknown target '$t' (targets: ${all[*]})" >&2; exit 2; }
done
[[ "$secs" =~ ^[0-9]+$ ]] && [ "$secs" -gt 0 ] || { echo "SECONDS must be a positive whole number" >&2; exit 2; }

# Each target's seeds in their own folder, so that two runs over different targets can go at once.
seeds=$root/target/fuzz-seeds

# Seed corpora: real inputs of each kind, in the shape each target reads (see the `//!` of
# fuzz/fuzz_targets/TARGET.rs: several targets take a leading flags byte).
make_seeds() {
  local t=$1 d=$seeds/$1 i=0
  rm -rf "$d"
  mkdir -p "$d"
  case $t in
    command) cp fuzz/seeds/* "$d"/ ;;
    session)
      # The command cases, and bursts as the reliability report found them (flags byte 0:
      # UCCI, 2: CECP).
      cp fuzz/seeds/* "$d"/
      { printf '\0position startpos moves h2e2\n'; for _ in $(seq 300); do printf 'go depth 1\nstop\n'; done; printf 'isready\n'; } > "$d/go_stop_burst"
      printf '\2setboard 3ak4/4a4/9/9/9/9/9/9/9/4K2R1 w - - 0 1\nanalyze\nh2f2\nusermove f2g6\nusermove a9e5\nusermove i3i4\nping 7\n' > "$d/cecp_burst"
      printf '\2new\nhard\nlevel 40 1 0\ngo\nusermove h7e7\nusermove h9g7\n?\nping 1\nundo\nremove\nanalyze\n.\nexit\nping 2\n' > "$d/cecp_game" ;;
    records) cp tests/data/*.pgn "$d"/ ;;
    fen)
      grep -v '^#' tests/data/fens.txt | cut -f2 | while IFS= read -r fen; do
        i=$((i + 1)); printf '%s' "$fen" > "$d/fen_$i"
      done ;;
    moves)
      grep -v '^#' tests/data/openings.txt | grep . | sed -n '1,200p' | while IFS= read -r line; do
        i=$((i + 1)); printf '%s' "$line" > "$d/line_$i"
      done
      grep -v '^#' tests/data/fens.txt | grep '^accept' | cut -f2 | sed -n '1,40p' | while IFS= read -r fen; do
        i=$((i + 1)); printf '%s\nh2e2 h9g7 a0a1\n' "$fen" > "$d/fen_$i"
      done ;;
    book)
      for f in book/*.jjb; do
        { printf '\0'; head -c 16384 "$f"; } > "$d/$(basename "$f").head"
        { printf '\1'; dd if="$f" bs=1 skip=16 count=4096 2>/dev/null; } > "$d/$(basename "$f").entries"
      done ;;
    eleeye_book)
      if [ -n "${ELEEYE_BOOK:-}" ] && [ -f "$ELEEYE_BOOK" ]; then
        head -c 65536 "$ELEEYE_BOOK" > "$d/BOOK.DAT.head"
      else
        echo "fuzz.sh: ELEEYE_BOOK not set; eleeye_book starts from an empty corpus" >&2
      fi ;;
    network)
      { printf '\0'; cat src/eval/nnue/net/default.jjnn; } > "$d/default.jjnn"
      printf '\1\0\0\0\0\0\0\0\0JJNN' > "$d/overlay_head" ;;
    datagen)
      cargo build --release --quiet
      target/release/jiangjun datagen --out "$d/selfplay.bin" --games 2 --nodes 300 --seed 1 >/dev/null 2>&1
      head -c 4096 "$d/selfplay.bin" > "$d/selfplay.head" && rm "$d/selfplay.bin" ;;
    train_state)
      # Overlays (flags 1: anywhere, 2: the header): NaN and infinite floats, a huge bias,
      # other epoch and step counts. The state itself (3.9 MB) is built by the target.
      printf '\1\0\0\0\0\0\0\0\0JJSTATE\0' > "$d/magic"
      printf '\2\024\0\0\0\0\0\0\0\377\377\377\377\0\0\0\200' > "$d/counts"
      printf '\1\040\0\0\0\0\0\0\0\0\0\300\177\0\0\200\177\0\0\200\377' > "$d/nan_inf"
      printf '\1\000\030\074\0\0\0\0\0\377\377\177\177' > "$d/huge" ;;
    match_args)
      # Flags byte (modulo 7): 0 --engine, 1 --tc, 2 --draw-adjudication,
      # 3 --resign-adjudication, 4 --sprt, 5 --scoring, 6 a timeout in seconds; the values
      # as the documentation and the tests give them.
      for spec in 'cmd=J,name=threads2,option.threads=2' 'cmd=jiangjun,ponder=on,option.usebook=false' \
        'cmd=J,name=corr,proto=uci,option.usebook=false,option.tune_corr_pawn=W,option.tune_corr_material=W' \
        'cmd=/opt/eleeye,name=ee,proto=ucci,option.usebook=false,arg=-x,option.Move Overhead=30' \
        'cmd=x,option.bookfiles=a\,b' 'cmd=eleeye,tc=40/60:20/30+1,name=x,ranks=1,dir=/opt' '/usr/bin/fsf'; do
        i=$((i + 1)); { printf '\0'; printf '%s' "$spec"; } > "$d/engine_$i"
      done
      for tc in 10+0.1 2+0.02 1+0.01 300 movetime=200 nodes=25000 depth=3 40/60 30/3600:10/600 \
        40/60:20/30+1; do
        i=$((i + 1)); { printf '\1'; printf '%s' "$tc"; } > "$d/tc_$i"
      done
      printf '\2%s' 40,8,15 > "$d/draw_1"; printf '\2%s' 40,8,10 > "$d/draw_2"
      printf '\3%s' 3,1000 > "$d/resign_1"; printf '\3%s' 3,600 > "$d/resign_2"
      printf '\4%s' 0,5 > "$d/sprt_1"; printf '\4%s' -5,5,0.05,0.1 > "$d/sprt_2"
      printf '\5%s' 2,1,0 > "$d/scoring_1"; printf '\5%s' 3,1/2,0 > "$d/scoring_2"
      printf '\6%s' 10 > "$d/seconds_1"; printf '\6%s' 0.5 > "$d/seconds_2"
      printf '\6%s' 1e-12 > "$d/seconds_under_a_nanosecond" ;;
    openings)
      # Flags byte 0: an opening suite, in pieces of 40 lines; 1: the book builder's seed list.
      split -l 40 tests/data/openings.txt "$d/suite_part_"
      for f in "$d"/suite_part_*; do { printf '\0'; cat "$f"; } > "$f.in" && rm "$f"; done
      grep '^accept' tests/data/fens.txt | cut -f2 | sed 's/$/ moves/' | { printf '\0'; cat; } > "$d/fens"
      { printf '\1'; cat book/seeds.txt; } > "$d/seeds" ;;
    tune)
      # Flags byte 0: `FEN | result` samples; 1: the weights file; 2: an overlay on it (two
      # bytes of offset, then the bytes laid over).
      grep '^accept' tests/data/fens.txt | cut -f2 | awk '{ print $0 " | " (NR % 3) / 2 }' |
        { printf '\0'; cat; printf 'not a sample\n'; } > "$d/samples"
      { printf '\1'; cat src/eval/weights.json; } > "$d/weights"
      printf '\2\020\0"tempo": 2147483648' > "$d/overlay" ;;
    tablebase)
      # Flags byte 0: a material signature; 1: a table file (KR-K and KC-K, made here).
      for m in KR-KAABB kaabb-kr KNP-KAABB KC-K KP-K KR-KNAABB KRR-KAB K-K; do
        i=$((i + 1)); { printf '\0'; printf '%s' "$m"; } > "$d/material_$i"
      done
      cargo build --release --quiet
      target/release/jiangjun tb generate KR-K KC-K --dir "$d/tables" >/dev/null
      for f in "$d"/tables/*.jjtb; do { printf '\1'; cat "$f"; } > "$f.in"; mv "$f.in" "$d/"; done
      rm -rf "$d/tables" ;;
    game_walk)
      # Two bytes a step: (folder << 2 | 0 folder, 1 file, 2-3 link), (target << 3 | name); the
      # first byte asks for extra paths. The tree of the walk's unit test, in these names:
      # a/, g.pgn, a/x.xqf, b -> ., a/up -> .., d.pgn -> g.pgn, H.PGN -> missing.pgn.
      printf '\77\0\0\1\2\5\4\2\1\6\17\2\46\2\63' > "$d/links"
      printf '\0\0\0\0\1\4\1\0\3\10' > "$d/loops" ;;
  esac
}

max_len() {
  case $1 in
    network) echo 700000 ;;
    eleeye_book) echo 65536 ;;
    book) echo 16385 ;;
    records) echo 65536 ;;
    train_state) echo 4096 ;;
    session) echo 16384 ;;
    game_walk) echo 64 ;;
    match_args) echo 1024 ;;
    *) echo 8192 ;;
  esac
}

cargo +nightly fuzz build >/dev/null
status=0
printf '%-12s %6s %12s %8s %8s %8s %8s\n' target seconds executions cov ft corpus crashes
for t in "${targets[@]}"; do
  make_seeds "$t"
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  before=$(find "fuzz/artifacts/$t" -type f ! -name 'slow-unit-*' | wc -l)
  log=$root/target/fuzz-$t.log
  set +e
  # -jobs makes libFuzzer restart its workers (each writing fuzz-N.log here): only for N > 1.
  jobs=()
  [ "${JOBS:-1}" -gt 1 ] && jobs=(-jobs="$JOBS" -workers="$JOBS")
  # The session target starts threads that outlive an input by a moment and asks for large
  # tables: no leak checks between inputs, and a failed large allocation returns null (the
  # engine's fallbacks are what is tested) instead of stopping the sanitizer. Its own
  # deadline (30 s) reports a hang before libFuzzer's timeout.
  # The process also ends (at -max_total_time) while the last session's threads still hold
  # their tables: the sanitizer's leak check at exit would call that a crash, so it is off too.
  extra=()
  asan=allocator_may_return_null=1
  [ "$t" = session ] && extra=(-detect_leaks=0 -timeout=60 -rss_limit_mb=8192) && asan=$asan:detect_leaks=0
  ASAN_OPTIONS=${ASAN_OPTIONS:-$asan} \
  cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "$seeds/$t" -- \
    -max_total_time="$secs" -timeout=20 -max_len="$(max_len "$t")" -print_final_stats=1 \
    "${extra[@]}" "${jobs[@]}" > "$log" 2>&1
  rc=$?
  set -e
  # With -jobs, libFuzzer prints each worker's log (fuzz-N.log) into its own when the worker
  # ends: the copies are not needed.
  [ "${JOBS:-1}" -gt 1 ] && rm -f fuzz-*.log
  # One "Done N runs" line per process that ran to its end (a crash report repeats the stat
  # lines, so they would count a process twice).
  execs=$(grep -hE '^Done [0-9]+ runs' "$log" | awk '{s += $2} END {print s + 0}')
  cov=$(grep -hoE 'cov: [0-9]+' "$log" | tail -1 | awk '{print $2}')
  ft=$(grep -hoE 'ft: [0-9]+' "$log" | tail -1 | awk '{print $2}')
  corpus=$(find "fuzz/corpus/$t" -type f | wc -l)
  # libFuzzer also saves inputs that were merely slow (slow-unit-*): not failures.
  crashes=$(( $(find "fuzz/artifacts/$t" -type f ! -name 'slow-unit-*' | wc -l) - before ))
  line=$(printf '%-12s %6s %12s %8s %8s %8s %8s' "$t" "$secs" "$execs" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes")
  echo "$line"
  [ -n "${REPORT:-}" ] && echo "$(date -u +%FT%TZ) $(git rev-parse --short HEAD) $line" >> "$REPORT"
  if [ $rc -ne 0 ] || [ $crashes -gt 0 ]; then
    status=1
    echo "  $t: libFuzzer exited $rc; log $log; new artifacts in fuzz/artifacts/$t" >&2
  fi
done
exit $status
