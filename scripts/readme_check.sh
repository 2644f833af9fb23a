#!/usr/bin/env bash
# Runs every command of README.md's ```sh blocks as written, in order, and stops at the first
# one that fails. Blocks of any other kind (```text: a GUI launch, a Windows build) are listed,
# not run.
#
#   scripts/readme_check.sh [--with-tests]
#
# Commands that start with `cargo` run in the repository; all others run in one scratch
# folder, empty at the start, so that later examples read the files earlier ones wrote.
# `cargo install` installs into the scratch folder (CARGO_INSTALL_ROOT), not into ~/.cargo,
# and that `jiangjun` is the one on the PATH. Builds share CARGO_TARGET_DIR (default: the
# repository's target/), so the install reuses the release build.
#
# The test command (`cargo test --profile ci`) must be the one `.ci/run` runs; since CI runs it
# anyway it is run here only with --with-tests. Every command reads /dev/null as its input
# and gets a time limit: TIMEOUT seconds (default 300), CARGO_TIMEOUT for cargo (default 3600).
# The scratch folder is removed on success and kept, with each command's output, on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

with_tests=0
case "${1:-}" in
    --with-tests) with_tests=1 ;;
    "") ;;
    *) echo "usage: scripts/readme_check.sh [--with-tests]" >&2; exit 2 ;;
esac
timeout_s=${TIMEOUT:-300}
cargo_timeout_s=${CARGO_TIMEOUT:-3600}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/readme_check.XXXXXX")
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$repo/target}
export CARGO_INSTALL_ROOT=$scratch/install
export PATH="$CARGO_INSTALL_ROOT/bin:$PATH"
mkdir -p "$scratch/work"

# The commands: one per line of each ```sh block, with `\` continuations joined, comments and
# blank lines left out; each line is prefixed with the block's kind ("run" or "skip").
commands=$(awk '
    /^[[:space:]]*```/ {
        if (in_block) { in_block = 0; next }
        kind = $0; sub(/^[[:space:]]*```/, "", kind)
        in_block = 1; run = (kind == "sh"); next
    }
    in_block {
        line = $0; sub(/^[[:space:]]+/, "", line)
        if (pending != "") { line = pending " " line; pending = "" }
        if (line ~ /\\$/) { sub(/\\$/, "", line); pending = line; next }
        if (line == "" || line ~ /^#/) next
        print (run ? "run" : "skip") "\t" line
    }
' README.md)

fail() {
    echo "readme_check: FAILED: $1" >&2
    if [ -n "${2:-}" ] && [ -s "$2" ]; then
        echo "--- last lines of its output ($2):" >&2
        tail -n 40 "$2" >&2
    fi
    echo "readme_check: scratch folder kept: $scratch" >&2
    exit 1
}

ci_test_line=$(grep -E '^cargo test' .ci/run || true)
n=0
ran=0
while IFS=$'\t' read -r kind cmd; do
    n=$((n + 1))
    if [ "$kind" = skip ]; then
        echo "[$n] not run (not an sh block): $cmd"
        continue
    fi
    log="$scratch/$n.log"
    case "$cmd" in
        "cargo test"*)
            [ "$cmd" = "$ci_test_line" ] ||
                fail "README's test command '$cmd' is not the one .ci/run runs ('$ci_test_line')"
            if [ "$with_tests" = 0 ]; then
                echo "[$n] same as .ci/run, not run (--with-tests runs it): $cmd"
                continue
            fi
            dir=$repo limit=$cargo_timeout_s
            ;;
        cargo*) dir=$repo limit=$cargo_timeout_s ;;
        *)
            # Examples must run the jiangjun this script installed, not another on the PATH.
            case "$cmd" in
                *jiangjun*)
                    found=$(command -v jiangjun || true)
                    [ "$found" = "$CARGO_INSTALL_ROOT/bin/jiangjun" ] ||
                        fail "'$cmd' needs the jiangjun of 'cargo install' (found: ${found:-none}); the README must install it first"
                    ;;
            esac
            dir=$scratch/work limit=$timeout_s
            ;;
    esac
    echo "[$n] $cmd"
    status=0
    (cd "$dir" && timeout "$limit" bash -o pipefail -c "$cmd") </dev/null >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        [ "$status" -eq 124 ] && fail "timed out after ${limit} s: $cmd" "$log"
        fail "exit status $status: $cmd" "$log"
    fi
    ran=$((ran + 1))
done <<<"$commands"

[ "$ran" -gt 0 ] || fail "no sh commands found in README.md"
rm -rf "$scratch"
echo "readme_check: all $ran commands of README.md's sh blocks ran"
