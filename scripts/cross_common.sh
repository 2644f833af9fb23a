# shellcheck shell=bash
# Shared by scripts/windows_check.sh and scripts/arm64_check.sh; sourced, not run.
#
# The caller sets ENGINE (an array: the command that starts the engine, emulator included)
# and SMOKE_DIR (an empty scratch folder), then calls `smoke_checks`: UCCI and UCI handshakes,
# a book move and a network search from the start position, `perft` against
# tests/data/perft.txt, a bad FEN answered with an `info string`, and `bench`. Every check that
# passes adds a line to SUMMARY; the first that fails stops the script with exit status 1.

SUMMARY=()

die() {
    echo "FAIL: $*" >&2
    exit 1
}

note() {
    echo "== $*"
}

passed() {
    SUMMARY+=("PASS  $*")
    echo "   ok: $*"
}

# apt_install PACKAGE...: installs those that are missing (with sudo unless root).
apt_install() {
    local missing=() p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get"
    local sudo=()
    [[ $(id -u) -eq 0 ]] || sudo=(sudo)
    note "installing ${missing[*]}"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# rust_target TRIPLE: the standard library for TRIPLE, through rustup.
rust_target() {
    command -v rustup >/dev/null || die "rustup not found: install it from https://rustup.rs"
    rustup target add "$1"
}

# engine_run NAME INPUT [ARG...]: runs the engine with ARGs and INPUT on stdin. Raw stdout goes
# to SMOKE_DIR/NAME.raw, the same without carriage returns to NAME.out, stderr to NAME.err.
engine_run() {
    local name=$1 input=$2
    shift 2
    local dir=$SMOKE_DIR
    printf '%s' "$input" >"$dir/$name.in"
    local status=0
    timeout "${SMOKE_TIMEOUT:-300}" "${ENGINE[@]}" "$@" <"$dir/$name.in" \
        >"$dir/$name.raw" 2>"$dir/$name.err" || status=$?
    tr -d '\r' <"$dir/$name.raw" >"$dir/$name.out"
    if ((status != 0)); then
        show "$name"
        ((status != 124)) || die "$name: no exit within ${SMOKE_TIMEOUT:-300} s"
        die "$name: the engine exited with status $status"
    fi
}

# show NAME: the input, output and stderr of a run, for a failure report.
show() {
    local f
    for f in in out err; do
        echo "--- $1.$f (last 40 lines)" >&2
        tail -n 40 "$SMOKE_DIR/$1.$f" >&2 || true
    done
}

# expect NAME REGEX WHAT: some whole line of NAME's output matches the extended REGEX.
expect() {
    grep -Eqx -- "$2" "$SMOKE_DIR/$1.out" || {
        show "$1"
        die "$1: no line matching /$2/ ($3)"
    }
}

# line_ending NAME: LF or CRLF, as the engine ended its lines in that run (or "mixed").
line_ending() {
    local raw=$SMOKE_DIR/$1.raw lines crs
    lines=$(grep -c '' "$raw" || true)
    crs=$(grep -c $'\r$' "$raw" || true)
    if ((crs == 0)); then
        echo LF
    elif ((crs == lines)); then
        echo CRLF
    else
        echo "mixed ($crs of $lines lines end in CRLF)"
    fi
}

# bench_nodes NAME: the node count of the last line of `jiangjun bench` ("N nodes M nps").
bench_nodes() {
    local last
    last=$(tail -n 1 "$SMOKE_DIR/$1.out")
    [[ $last =~ ^([0-9]+)\ nodes\ ([0-9]+)\ nps$ ]] || {
        show "$1"
        die "$1: the last line is not '<nodes> nodes <nps> nps': $last"
    }
    echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
}

MOVE='[a-i][0-9][a-i][0-9]'

smoke_checks() {
    note "protocol and command-line checks: ${ENGINE[*]}"

    engine_run version "" --version
    expect version 'jiangjun [0-9]+\.[0-9]+\.[0-9]+.*' "--version names the engine"
    expect version 'network built-in .*' "--version names the built-in network"
    passed "--version: $(head -n 1 "$SMOKE_DIR/version.out"), $(grep -c '' "$SMOKE_DIR/version.out") lines"

    engine_run ucci $'ucci\nisready\nquit\n'
    expect ucci 'id name Jiangjun .*' "UCCI identification"
    expect ucci 'ucciok' "UCCI handshake"
    expect ucci 'readyok' "isready after ucci"
    LINE_ENDING=$(line_ending ucci)
    passed "UCCI handshake: ucciok, readyok (engine output lines end in $LINE_ENDING)"

    engine_run uci $'uci\nisready\nquit\n'
    expect uci 'id name Jiangjun .*' "UCI identification"
    expect uci 'uciok' "UCI handshake"
    expect uci 'readyok' "isready after uci"
    passed "UCI handshake: uciok, readyok"

    # Lines ended by CR LF, as a Windows GUI may send them.
    engine_run ucci_crlf $'ucci\r\nisready\r\nquit\r\n'
    expect ucci_crlf 'ucciok' "UCCI handshake sent with CR LF"
    expect ucci_crlf 'readyok' "isready sent with CR LF"
    passed "commands ended by CR LF are understood"

    # The built-in book answers the start position.
    engine_run book $'ucci\nposition startpos\ngo depth 8\n'
    expect book "info string book: $MOVE .*" "a book move list for the start position"
    expect book "bestmove $MOVE( ponder $MOVE)?" "a bestmove from the book"
    local best
    best=$(sed -n 's/^bestmove \([a-i][0-9][a-i][0-9]\).*/\1/p' "$SMOKE_DIR/book.out")
    grep -q "^info string book:.*[ ,]$best weight" "$SMOKE_DIR/book.out" || {
        show book
        die "book: bestmove $best is not one of the book's moves"
    }
    passed "book: start position -> bestmove $best, a book move"

    # The network searches when the book is off.
    engine_run search $'ucci\nsetoption usebook false\nposition startpos\ngo depth 8\n'
    expect search "info depth 8 .* pv $MOVE( $MOVE)*" "a depth 8 search result"
    expect search "bestmove $MOVE( ponder $MOVE)?" "a bestmove after the search"
    local nodes
    nodes=$(sed -n 's/^info depth 8 .* nodes \([0-9]*\) .*/\1/p' "$SMOKE_DIR/search.out")
    passed "UCCI search, book off: depth 8, $nodes nodes, $(grep '^bestmove' "$SMOKE_DIR/search.out")"

    engine_run uci_search $'uci\nsetoption name OwnBook value false\nposition startpos moves h2e2 h9g7\ngo depth 6\n'
    expect uci_search "info depth 6 .*score cp -?[0-9]+.* pv $MOVE( $MOVE)*" "a UCI depth 6 result"
    expect uci_search "bestmove $MOVE( ponder $MOVE)?" "a UCI bestmove"
    passed "UCI search, OwnBook off: $(grep '^bestmove' "$SMOKE_DIR/uci_search.out")"

    # perft against the reference suite: its first two positions to depth 4.
    local data=tests/data/perft.txt i=0 line fen want
    while IFS= read -r line; do
        [[ -z $line || $line == \#* ]] && continue
        fen=${line%%;*}
        want=$(sed -n 's/.*;D4=\([0-9]*\).*/\1/p' <<<"$line")
        [[ -n $want ]] || die "$data: no D4 count on the line of $fen"
        engine_run "perft$i" "" perft 4 --fen "$fen"
        expect "perft$i" "nodes $want" "perft 4 of $fen = $want ($data)"
        passed "perft 4 --fen '$fen' = $want"
        ((++i < 2)) || break
    done <"$data"

    # A bad FEN is answered, not fatal.
    engine_run badfen $'ucci\nposition fen xyz\nisready\nposition startpos moves b2e2\ngo depth 4\n'
    expect badfen 'readyok' "isready answered after the bad FEN"
    expect badfen "bestmove $MOVE( ponder $MOVE)?" "a search after the bad FEN"
    local answer
    answer=$(sed -n '/^ucciok$/,/^readyok$/p' "$SMOKE_DIR/badfen.out" | grep -m1 '^info string ') || {
        show badfen
        die "badfen: no info string between ucciok and readyok (the answer to 'position fen xyz')"
    }
    passed "bad FEN: '$answer', then readyok and a bestmove"

    engine_run bench "" bench
    local result
    result=$(bench_nodes bench)
    read -r BENCH_NODES BENCH_NPS <<<"$result"
    passed "bench: $BENCH_NODES nodes, $BENCH_NPS nps"
}

summary() {
    echo
    echo "== summary: $1"
    printf '%s\n' "${SUMMARY[@]}"
}
