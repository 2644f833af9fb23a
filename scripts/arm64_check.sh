#!/usr/bin/env bash
# ARM64 check: cross-builds the release engine for aarch64-unknown-linux-gnu and runs it under
# qemu-user: --version, the UCCI and UCI handshakes (also with CR LF line ends), a book move and
# a network search from the start position, a UCI search, `perft 4` against
# tests/data/perft.txt, a bad FEN answered with an `info string` (the engine then still
# answers), and `bench`, whose node count (the bench signature) must equal that of the native
# x86-64 build of the same tree: the network's portable loops, the only ones on ARM64, must
# compute exactly what the x86-64 build computes. The binary's disassembly must show those
# loops vectorised for NEON (the accumulator rows as `add`/`sub` on eight i16 lanes, the SCReLU
# dot product as `smlal`/`smlal2` into i32 lanes). Then the library's network unit tests
# (`cargo test --lib nnue`), built for ARM64, run under qemu too (skip them with --no-unit-tests).
#
# Run from anywhere, on Debian or Ubuntu (x86-64) with rustup:  scripts/arm64_check.sh
# It installs what is missing (gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user; apt-get,
# with sudo unless root) and the rustup target. Builds go to $CARGO_TARGET_DIR (default
# target/). Exit status 0 only if every check passed. Speeds under qemu are emulation speeds,
# not those of ARM64 hardware.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/cross_common.sh

UNIT_TESTS=1
for arg in "$@"; do
    case $arg in
    --no-unit-tests) UNIT_TESTS=0 ;;
    *) die "unknown argument $arg (the only one is --no-unit-tests)" ;;
    esac
done

TARGET=aarch64-unknown-linux-gnu
TARGET_DIR=${CARGO_TARGET_DIR:-target}
SYSROOT=/usr/aarch64-linux-gnu

note "tools"
apt_install gcc-aarch64-linux-gnu libc6-dev-arm64-cross
command -v qemu-aarch64 >/dev/null || command -v qemu-aarch64-static >/dev/null ||
    apt_install qemu-user
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
rust_target "$TARGET"
echo "   $("$QEMU" --version | head -n 1), $(aarch64-linux-gnu-gcc --version | head -n 1)"

note "building the native engine (the reference bench) and the ARM64 one"
cargo build --release
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-aarch64-linux-gnu-gcc}
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$QEMU -L $SYSROOT"
cargo build --release --target "$TARGET"
BIN=$TARGET_DIR/$TARGET/release/jiangjun
NATIVE=$TARGET_DIR/release/jiangjun
[[ -f $BIN ]] || die "no $BIN after the build"
file "$BIN" 2>/dev/null | sed 's/^/   /' || true

SMOKE_DIR=$(mktemp -d)
trap 'rm -rf "$SMOKE_DIR"' EXIT

ENGINE=("$NATIVE")
engine_run native_bench "" bench
NATIVE_RESULT=$(bench_nodes native_bench)
read -r NATIVE_NODES NATIVE_NPS <<<"$NATIVE_RESULT"

ENGINE=("$QEMU" -L "$SYSROOT" "$BIN")
smoke_checks
((BENCH_NODES == NATIVE_NODES)) ||
    die "bench signature: $BENCH_NODES nodes on ARM64, $NATIVE_NODES on x86-64"
passed "bench signature $BENCH_NODES equals the x86-64 build's ($NATIVE_NODES nodes;" \
    "$NATIVE_NPS nps natively, $BENCH_NPS nps under qemu: $((NATIVE_NPS / (BENCH_NPS > 0 ? BENCH_NPS : 1)))x slower)"

note "NEON in the network's loops (the ARM64 binary disassembled)"
aarch64-linux-gnu-objdump -d --no-show-raw-insn -C "$BIN" >"$SMOKE_DIR/jiangjun.s"
# neon_in PREFIX REGEX: "count function" for each function named PREFIX... with instructions
# matching REGEX, most first.
neon_in() {
    awk -v prefix="$1" -v re="$2" '
        /^[0-9a-f]+ <.*>:$/ { f = $0; sub(/^[0-9a-f]+ </, "", f); sub(/>:$/, "", f); next }
        index(f, prefix) == 1 && $0 ~ re { n[f]++ }
        END { for (f in n) print n[f], f }' "$SMOKE_DIR/jiangjun.s" | sort -rn
}
# The accumulator rows: i16 lanes added and subtracted eight at a time.
rows=$(neon_in jiangjun::eval::nnue:: '\t(add|sub)\tv[0-9]+[.]8h, v[0-9]+[.]8h, v[0-9]+[.]8h')
[[ -n $rows ]] || die "no NEON add/sub on .8h in the network's functions: the accumulator loops are not vectorised"
# The SCReLU dot product: clamped i16 lanes multiplied into i32 sums (smlal, smlal2).
dots=$(neon_in jiangjun::search:: '\tsmlal2?\tv[0-9]+[.]4s, v[0-9]+[.][48]h, v[0-9]+[.][48]h')
[[ -n $dots ]] || die "no NEON smlal in the search's functions: the SCReLU dot product is not vectorised"
while read -r line; do echo "   accumulator add/sub .8h: $line"; done <<<"$rows"
while read -r line; do echo "   dot product smlal .4s: $line"; done <<<"$dots"
passed "NEON: accumulator rows in $(wc -l <<<"$rows") functions, SCReLU dot product in $(wc -l <<<"$dots")"

if ((UNIT_TESTS)); then
    note "the network's unit tests, built for ARM64, under qemu"
    cargo test --release --target "$TARGET" --lib nnue 2>&1 | tee "$SMOKE_DIR/unit.log" ||
        die "cargo test --release --target $TARGET --lib nnue failed (its output is above)"
    line=$(grep -E '^test result: ok\. [0-9]+ passed' "$SMOKE_DIR/unit.log" | tail -n 1) ||
        die "no passing 'test result' line from cargo test"
    passed "cargo test --lib nnue on ARM64: ${line#test result: }"
fi

summary "jiangjun ($TARGET) under $("$QEMU" --version | head -n 1): all checks passed"
