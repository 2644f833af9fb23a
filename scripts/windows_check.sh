#!/usr/bin/env bash
# Windows check: cross-builds the release engine for x86_64-pc-windows-gnu (the Rust target and
# MinGW-w64 from the OS packages) and runs jiangjun.exe under Wine: --version, the UCCI and UCI
# handshakes (also with CR LF line ends), a book move and a network search from the start
# position, a UCI search, `perft 4` against tests/data/perft.txt, a bad FEN answered with an
# `info string` (the engine then still answers), and `bench`, whose node count (the bench
# signature) must equal that of the native Linux build of the same tree. It reports whether the
# .exe ends its output lines with LF or CR LF.
#
# Run from anywhere, on Debian or Ubuntu with rustup:  scripts/windows_check.sh
# It installs what is missing (gcc-mingw-w64-x86-64, wine, wine64; apt-get, with sudo unless
# root) and the rustup target. Builds go to $CARGO_TARGET_DIR (default target/); Wine runs in a
# temporary prefix that is removed at the end. Exit status 0 only if every check passed.
#
# Wine before 9 lacks bcryptprimitives.dll's ProcessPrng, which Rust's standard library imports
# (Windows 10 and later have it); for such a Wine the script builds a small stand-in DLL into
# the temporary prefix. The stand-in lives here only: the .exe itself is unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/cross_common.sh

TARGET=x86_64-pc-windows-gnu
TARGET_DIR=${CARGO_TARGET_DIR:-target}

note "tools"
apt_install gcc-mingw-w64-x86-64 wine wine64
rust_target "$TARGET"
WINE=$(command -v wine || command -v wine64) || die "no wine on PATH after installing it"
echo "   $("$WINE" --version 2>/dev/null), $(x86_64-w64-mingw32-gcc --version | head -n 1)"

note "building the native engine (the reference bench) and jiangjun.exe"
cargo build --release
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=${CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER:-x86_64-w64-mingw32-gcc}
cargo build --release --target "$TARGET"
EXE=$TARGET_DIR/$TARGET/release/jiangjun.exe
NATIVE=$TARGET_DIR/release/jiangjun
[[ -f $EXE ]] || die "no $EXE after the build"
file "$EXE" 2>/dev/null | sed 's/^/   /' || true

SMOKE_DIR=$(mktemp -d)
export WINEPREFIX=$SMOKE_DIR/wineprefix
# Errors only on stderr; no Mono or Gecko installers (nothing here needs them).
export WINEDEBUG=${WINEDEBUG:-fixme-all} WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
    wineserver -k >/dev/null 2>&1 || true
    rm -rf "$SMOKE_DIR"
}
trap cleanup EXIT

note "Wine prefix"
"$WINE" wineboot --init >"$SMOKE_DIR/wineboot.log" 2>&1 || {
    cat "$SMOKE_DIR/wineboot.log" >&2
    die "wineboot failed"
}
wineserver -w
wineserver -p # keep one server for all the runs below (killed by cleanup)
SYSTEM32=$WINEPREFIX/drive_c/windows/system32
[[ -d $SYSTEM32 ]] || die "no $SYSTEM32 after wineboot"
if [[ -e $SYSTEM32/bcryptprimitives.dll ]]; then
    SHIM="none (this Wine has bcryptprimitives.dll)"
else
    # ProcessPrng as Windows 10 defines it: fill the buffer with random bytes, always TRUE.
    cat >"$SMOKE_DIR/processprng.c" <<'EOF'
#include <windows.h>
#include <ntsecapi.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
EOF
    x86_64-w64-mingw32-gcc -O2 -shared -s -o "$SYSTEM32/bcryptprimitives.dll" \
        "$SMOKE_DIR/processprng.c" -ladvapi32
    SHIM="bcryptprimitives.dll stand-in (ProcessPrng over RtlGenRandom), in the temporary prefix only"
fi
passed "Wine prefix ready; ProcessPrng shim: $SHIM"

ENGINE=("$NATIVE")
engine_run native_bench "" bench
NATIVE_RESULT=$(bench_nodes native_bench)
read -r NATIVE_NODES NATIVE_NPS <<<"$NATIVE_RESULT"

ENGINE=("$WINE" "$EXE")
smoke_checks
((BENCH_NODES == NATIVE_NODES)) ||
    die "bench signature: $BENCH_NODES nodes under Wine, $NATIVE_NODES natively on Linux"
passed "bench signature $BENCH_NODES equals the native Linux build's ($NATIVE_NODES nodes, $NATIVE_NPS nps natively)"

summary "jiangjun.exe ($TARGET) under $("$WINE" --version 2>/dev/null): all checks passed; output line ends: $LINE_ENDING"
