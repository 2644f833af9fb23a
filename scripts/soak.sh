#!/usr/bin/env bash
# Soak: many games on the clocks GUIs use, in both protocols, with the engine's memory sampled
# throughout. Any crash, hang, illegal move or time loss of Jiangjun is a failure.
#
#   scripts/soak.sh [GAMES_PER_MATCH] [OUT_DIR]
#   ELEEYE=path/to/ELEEYE FSF=path/to/fairy-stockfish scripts/soak.sh 40 target/soak
#
# For each clock (5 s + 0, 3 s + 0.5 s, 40 moves in 10 s, 200 ms a move, 30 s + 0) it plays
# GAMES_PER_MATCH games of Jiangjun over UCCI against each opponent, two games at once, from
# the book's 10-ply lines: Jiangjun over UCI; ElephantEye 3.31 (book off; found as ELEEYE or
# `eleeye` on PATH); Fairy-Stockfish (UCI, classical evaluation; found as FSF or
# `fairy-stockfish` on PATH). Opponents built outside this repository are left out when absent.
# Jiangjun over UCCI thinks on its opponent's time (`ponder=on`: `go ponder`, then `ponderhit`
# or `stop` as a GUI sends them); its opponents do not. A sampler writes the summed and the
# largest resident memory of the Jiangjun processes every 5 s to OUT_DIR/rss.csv. The last
# lines printed are the totals.
#
# Environment: CLOCKS="5+0 movetime=200" plays only those clocks; CONCURRENCY=N games at once
# (default 2); LOAD=N keeps N busy loops running beside the games for the whole run, the
# "busy machine" check (a GUI user's build or video encoder): a time loss under load is a
# failure as any other. BURSTS=N runs scripts/bursts.py for N rounds beside the games (whole
# command scripts piped at once in each protocol, every answer counted; OUT_DIR/bursts.txt),
# repeated until the games end (the engine under its own name, which the sampler leaves out);
# its failures are counted in the totals.
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-40}
out=${2:-target/soak}
mkdir -p "$out"
cargo build --release --quiet
# A copy under its own name, so that the sampler sees only the soak's engines (the runner is
# target/release/jiangjun).
jj="$out/jiangjun-soak"
cp target/release/jiangjun "$jj"
"$jj" book lines --plies 10 --min-plies 10 > "$out/openings.txt"
eleeye=${ELEEYE:-$(command -v eleeye || true)}
fsf=${FSF:-$(command -v fairy-stockfish || true)}
clocks=${CLOCKS:-5+0 3+0.5 40/10 movetime=200 30+0}
concurrency=${CONCURRENCY:-2}
load=${LOAD:-0}

echo "seconds,processes,rss_sum_kb,rss_max_kb" > "$out/rss.csv"
start=$(date +%s)
(
    # `ps` fails when no engine runs (between matches): that must not end the sampler, which
    # runs under the script's `set -e` and `pipefail`.
    while true; do
        { ps -C jiangjun-soak -o rss= || true; } | awk -v t=$(( $(date +%s) - start )) \
            '{ n++; s += $1; if ($1 > m) m = $1 } END { printf "%d,%d,%d,%d\n", t, n, s, m }' \
            >> "$out/rss.csv"
        sleep 5
    done
) &
sampler=$!
busy=()
for _ in $(seq 1 "$load"); do
    ( while :; do :; done ) &
    busy+=($!)
done
bursts_rounds=${BURSTS:-0}
if [ "$bursts_rounds" -gt 0 ]; then
    (
        seed=1
        while :; do
            python3 scripts/bursts.py target/release/jiangjun --rounds "$bursts_rounds" --seed $((seed++)) || true
        done
    ) > "$out/bursts.txt" 2>&1 &
    busy+=($!)
fi
trap 'kill $sampler ${busy[@]+"${busy[@]}"} 2>/dev/null || true' EXIT

us_ucci="cmd=$jj,name=jiangjun,proto=ucci,ponder=on,option.usebook=false"
us_uci="cmd=$jj,name=jiangjun-uci,proto=uci,option.OwnBook=false"
seed=1
for tc in $clocks; do
    n=$games
    # The long clock plays a quarter as many games.
    [ "$tc" = 30+0 ] && n=$(( (games + 3) / 4 ))
    opponents=("$us_uci")
    [ -n "$eleeye" ] && opponents+=("cmd=$eleeye,name=eleeye,proto=ucci,option.usebook=false")
    [ -n "$fsf" ] && opponents+=("cmd=$fsf,name=fsf,proto=uci")
    for opp in "${opponents[@]}"; do
        name=${opp#*name=}; name=${name%%,*}
        log="$out/match_${name}_${tc//\//-}.txt"
        echo "== $tc: jiangjun vs $name, $n games" >&2
        target/release/jiangjun match --engine "$us_ucci" --engine "$opp" --games "$n" --tc "$tc" \
            --openings "$out/openings.txt" --shuffle --seed $((seed++)) --concurrency "$concurrency" \
            --pgn "$out/games.pgn" > "$log" 2>&1 || true
        grep -E "^Result|^Terminations|losses by" "$log" >&2
    done
done
kill $sampler ${busy[@]+"${busy[@]}"} 2>/dev/null || true

# Totals: Jiangjun's failures (both names) and the memory curve's ends.
if [ "$bursts_rounds" -gt 0 ]; then
    awk '/^Bursts:/ { s += $2; f += $4 } END { printf "bursts: %d scripts, %d failed\n", s, f }' \
        "$out/bursts.txt"
fi
grep -ho "([0-9]* games" "$out"/match_*.txt | tr -d '(' | awk '{ g += $1 } END { print "games: " g }'
awk '/losses by crash\/hang\/illegal\/time/ && $1 ~ /^jiangjun/ { f += $NF }
     END { printf "jiangjun losses by crash/hang/illegal/time, all matches: %d\n", f }' "$out"/match_*.txt
awk -F, 'NR == 2 { first = $3 } NR > 1 && $2 > 0 { last = $3; if ($4 > max) max = $4 }
         END { printf "rss: first sample %d KB, last %d KB, largest process %d KB\n", first, last, max }' \
    "$out/rss.csv"
# The curve: the largest Jiangjun process in each ten minutes of the run (flat when no
# memory is lost from game to game).
awk -F, 'NR > 1 && $2 > 0 { b = int($1 / 600); if ($4 > m[b]) m[b] = $4; if (b > last) last = b }
         END { printf "rss, largest process per 10 min (KB):"
               for (i = 0; i <= last; i++) printf " %s", (i in m) ? m[i] : "-"; print "" }' \
    "$out/rss.csv"
