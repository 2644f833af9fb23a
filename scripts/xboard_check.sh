#!/usr/bin/env bash
# One short game of Jiangjun against itself inside a real XBoard, on a virtual display (Xvfb):
# the check that XBoard takes the engine's CECP (features, moves both ways, clocks, the result)
# as the protocol tests assume it does. Not in CI: it installs Debian packages and runs a GUI.
#
#   scripts/xboard_check.sh [OUT_DIR]        (default: a new folder under /tmp)
#
# Leaves in OUT_DIR: game.pgn (the game as XBoard saved it), xboard.debug (XBoard's log of
# every line between it and the engines), screen.png (the board during the game) and
# pgn_check.txt (what `jiangjun pgn check` says of game.pgn). Installs xboard, xvfb, x11-apps
# (xwd) and netpbm (xwdtopnm, pnmtopng) with apt-get when they are missing (needs root).
# Environment: TC (XBoard's -tc, default 0:20: twenty seconds a side), INC (XBoard's -inc in
# seconds: 0 makes TC sudden death; unset, XBoard gives TC for every 40 moves), NICE (the
# engines' niceness, default 0: 19 runs them at low priority, as on a loaded machine),
# SHOT_AFTER (seconds into the game for the screenshot, default 12).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d -t xboard_check.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tc=${TC:-0:20}
inc_args=()
[ -n "${INC:-}" ] && inc_args=(-inc "$INC")
shot_after=${SHOT_AFTER:-12}

# Debian installs XBoard in /usr/games, which a root shell's PATH often lacks.
export PATH="$PATH:/usr/games"
need=()
command -v xboard >/dev/null || need+=(xboard)
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xwd >/dev/null || need+=(x11-apps)
command -v pnmtopng >/dev/null || need+=(netpbm)
if ((${#need[@]})); then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}"
fi

cargo build --release
engine=${CARGO_TARGET_DIR:-$(pwd)/target}/release/jiangjun
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")
"$engine" --version
command=$engine
[ "${NICE:-0}" != 0 ] && command="nice -n $NICE $engine"

# A display number nobody uses.
display=99
while [ -e "/tmp/.X11-unix/X$display" ] || [ -e "/tmp/.X$display-lock" ]; do
    display=$((display + 1))
done
Xvfb ":$display" -screen 0 1280x1024x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    [ -e "/tmp/.X11-unix/X$display" ] && break
    sleep 0.1
done
export DISPLAY=":$display"

# The screenshot, taken while the game runs (XBoard closes when the match is over).
(
    sleep "$shot_after"
    xwd -root -silent >"$out/screen.xwd" && xwdtopnm "$out/screen.xwd" 2>/dev/null |
        pnmtopng >"$out/screen.png" && rm -f "$out/screen.xwd"
) &
shooter=$!

# -mg 1: a match of one game, after which XBoard exits; -debug: XBoard logs the engines'
# conversation. Both engines start in OUT_DIR, so nothing is written into the repository.
status=0
timeout 600 xboard -variant xiangqi \
    -fcp "$command" -fd "$out" -scp "$command" -sd "$out" \
    -mg 1 -tc "$tc" "${inc_args[@]}" -sgf "$out/game.pgn" \
    -debug -nameOfDebugFile "$out/xboard.debug" \
    -popupExitMessage false -autoCallFlag true >"$out/xboard.out" 2>&1 || status=$?
wait "$shooter" || true
echo "xboard exit status: $status"

if [ -s "$out/game.pgn" ]; then
    "$engine" pgn check "$out/game.pgn" >"$out/pgn_check.txt" 2>&1 || true
    echo "jiangjun pgn check:"
    cat "$out/pgn_check.txt"
else
    echo "no game.pgn: see $out/xboard.debug and $out/xboard.out"
fi
echo "output in $out"
