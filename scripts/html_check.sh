#!/usr/bin/env bash
# The analysis page of `jiangjun analyse --html` as a browser shows it: renders the page in
# headless Chromium and fails on a blank or broken one. Not in CI: it needs Debian's
# `chromium` package (`apt-get install chromium`, and a CJK font such as fonts-noto-cjk or
# fonts-wqy-microhei for the characters to show in the screenshot) and python3.
#
#   scripts/html_check.sh [--out DIR] [PAGE.html]
#
# Without PAGE it analyses a short game (depth 3) with the jiangjun of $JIANGJUN, or one
# `cargo build --release` makes, and checks that page. DIR (default: a new folder under
# /tmp) gets the screenshot page.png, the DOM after the page's script ran (dom.html), the same
# for a copy of the page driven by key presses and clicks (driven.html) and Chromium's log.
#
# Checks:
# - the screenshot is not blank: not one colour (no colour covers 97% of it, dozens of
#   colours), the board's wood and red pieces among them;
# - the DOM has a board per position, exactly one of them shown, the position the address
#   (#plyN) names, a detail panel per position, the pieces' characters, the graph and its
#   cursor;
# - driven: →, →, ←, End, →, Home, ←, a click on the second move and one on the graph's
#   first ply show the positions they should.
#
# Exit status: 0 when every check passes, 1 when one fails, 2 when chromium or python3 is
# missing or the arguments are wrong. Environment: CHROMIUM (the browser's command, default
# chromium), JIANGJUN (the engine, when no PAGE is given).
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
    echo "usage: scripts/html_check.sh [--out DIR] [PAGE.html]" >&2
    exit 2
}
out=
page=
while [ $# -gt 0 ]; do
    case "$1" in
    --out)
        [ $# -ge 2 ] || usage
        out=$2
        shift 2
        ;;
    -*) usage ;;
    *)
        [ -z "$page" ] || usage
        page=$1
        shift
        ;;
    esac
done

browser=${CHROMIUM:-chromium}
if ! command -v "$browser" >/dev/null; then
    echo "html_check: needs Chromium: '$browser' is not on PATH." >&2
    echo "html_check: install Debian's chromium package (apt-get install chromium) or set CHROMIUM to the browser's command." >&2
    exit 2
fi
if ! command -v python3 >/dev/null; then
    echo "html_check: needs python3 to read the screenshot and the DOM." >&2
    exit 2
fi

out=${out:-$(mktemp -d -t html_check.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if [ -n "$page" ]; then
    [ -f "$page" ] || {
        echo "html_check: no such file: $page" >&2
        exit 2
    }
    page=$(cd "$(dirname "$page")" && pwd)/$(basename "$page")
else
    if [ -n "${JIANGJUN:-}" ]; then
        engine=$JIANGJUN
    else
        cargo build --release
        engine=${CARGO_TARGET_DIR:-$(pwd)/target}/release/jiangjun
    fi
    # Red's third move hangs the rook (a blunder, marked ??); the tags need escaping.
    cat >"$out/game.pgn" <<'PGN'
[Event "html_check"]
[Red "<Red> & 'Co'"]
[Black "Black"]
[Result "0-1"]

1. b0c2 b9c7 2. a0a1 a9a8 3. a1b1 b7b1 4. h2e2 h9g7 0-1
PGN
    "$engine" analyse "$out/game.pgn" --depth 3 -o "$out/annotated.pgn" --html "$out/report.html"
    page=$out/report.html
fi
echo "html_check: checking $page; results in $out"

# As root (a container) Chromium runs only without its sandbox.
flags=(--headless --disable-gpu --hide-scrollbars --no-first-run --disable-extensions)
[ "$(id -u)" -ne 0 ] || flags+=(--no-sandbox)
log=$out/chromium.log
: >"$log"
browse() {
    timeout 120 "$browser" "${flags[@]}" "$@" 2>>"$log"
}

# The page's script reads the position to show from the address.
shown=3
url="file://$page#ply$shown"
rm -f "$out/page.png"
browse --window-size=1100,1000 --screenshot="$out/page.png" "$url" >/dev/null || true
[ -s "$out/page.png" ] || {
    echo "html_check: FAIL: Chromium wrote no screenshot (see $log)" >&2
    exit 1
}
browse --dump-dom "$url" >"$out/dom.html" || true

# A copy of the page with a driver after its script: key presses and clicks, and after each
# the position shown, written into the DOM for --dump-dom.
driver='<script>
(function () {
  function shown() {
    var on = document.querySelectorAll("svg.board.on");
    return on.length === 1 ? on[0].getAttribute("data-ply") : "shown:" + on.length;
  }
  function key(k) {
    document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true }));
    return shown();
  }
  function click(selector) {
    var el = document.querySelector(selector);
    if (!el) return "missing";
    el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    return shown();
  }
  var steps = [shown(), key("ArrowRight"), key("ArrowRight"), key("ArrowLeft"), key("End"),
    key("ArrowRight"), key("Home"), key("ArrowLeft"), click(".moves [data-go=\"2\"]"),
    click("svg.graph rect[data-go=\"1\"]")];
  document.body.setAttribute("data-steps", steps.join(" "));
})();
</script>
</body>'
python3 - "$page" "$out/drive.html" "$driver" <<'PY'
import sys
page, copy, driver = sys.argv[1:4]
with open(page, encoding="utf-8") as f:
    text = f.read()
at = text.rfind("</body>")
if at < 0:
    sys.exit("html_check: FAIL: the page has no </body>")
with open(copy, "w", encoding="utf-8") as f:
    f.write(text[:at] + driver + text[at + len("</body>"):])
PY
browse --dump-dom "file://$out/drive.html" >"$out/driven.html" || true

python3 - "$out/page.png" "$out/dom.html" "$out/driven.html" "$shown" <<'PY'
import re
import struct
import sys
import zlib
from collections import Counter

shot, dom_path, driven_path, shown = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
failures = []


def fail(what):
    failures.append(what)
    print("html_check: FAIL:", what, file=sys.stderr)


def pixels(path):
    """The RGB pixels of an 8-bit RGB or RGBA PNG, read with zlib alone (no PIL)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, idat, header = 8, [], None
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        at += 12 + length
    if header is None:
        raise ValueError("no IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind = raw[start]
        line = bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        elif kind != 0:
            raise ValueError(f"bad filter {kind} in row {y}")
        rows.append(bytes(line))
        prev = line
    return width, height, [
        tuple(row[i:i + 3]) for row in rows for i in range(0, stride, bpp)
    ]


try:
    width, height, px = pixels(shot)
except (OSError, ValueError, zlib.error) as e:
    fail(f"the screenshot does not read: {e}")
else:
    counts = Counter(px)
    top, top_n = counts.most_common(1)[0]
    share = top_n / len(px)
    near = lambda c, t, tol: all(abs(x - y) <= tol for x, y in zip(c, t))
    wood = sum(n for c, n in counts.items() if near(c, (0xEC, 0xD0, 0x9C), 8))
    red = sum(n for c, n in counts.items() if c[0] > 150 and c[1] < 90 and c[2] < 90)
    print(f"html_check: screenshot {width}x{height}, {len(counts)} colours, "
          f"the commonest {top} on {share:.0%}, wood {wood} px, red {red} px")
    if share > 0.97 or len(counts) < 30:
        fail("the screenshot is (nearly) one colour: a blank page")
    if wood < 0.02 * len(px):
        fail("no board in the screenshot (too little of the wood colour)")
    if red < 200:
        fail("no red pieces in the screenshot")


def read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        fail(f"{path}: {e}")
        return ""


dom = read(dom_path)
boards = re.findall(r'<svg class="board( on)?" data-ply="(\d+)"', dom)
plies = [int(p) for _, p in boards]
on = [int(p) for o, p in boards if o]
print(f"html_check: {len(boards)} boards, shown: {on}")
if not boards or plies != list(range(len(boards))):
    fail(f"the boards are not one per position in order: {plies[:20]}")
last = len(boards) - 1
if on != [min(shown, last)]:
    fail(f"the address asked for position {shown}, shown: {on}")
if len(re.findall(r'<div class="detail( on)?" data-ply="\d+"', dom)) != len(boards):
    fail("not one detail panel per position")
for piece in "帅将车马炮":
    if f"<text>{piece}</text>" not in dom:
        fail(f"no {piece} on the boards")
if '<svg class="graph"' not in dom or 'class="cursor"' not in dom:
    fail("no evaluation graph with its cursor")
if re.search(r"<script[^>]*\ssrc=|<link\b|https?://", dom):
    fail("the page refers to something outside")

driven = read(driven_path)
steps = re.search(r'data-steps="([^"]*)"', driven)
if last < 2:
    print("html_check: fewer than two moves: the driven steps are not checked")
elif not steps:
    fail("the driver recorded nothing: the page's script did not run or broke")
else:
    # The driver's steps: key presses (a step back or forward, the end, the start), then
    # clicks that go to a position.
    want, cur = ["0"], 0
    for kind, n in (("step", 1), ("step", 1), ("step", -1), ("go", last), ("step", 1),
                    ("go", 0), ("step", -1), ("go", 2), ("go", 1)):
        cur = max(0, min(last, cur + n)) if kind == "step" else n
        want.append(str(cur))
    got = steps.group(1).split()
    print(f"html_check: driven steps {' '.join(got)} (wanted {' '.join(want)})")
    if got != want:
        fail("the keys or clicks did not show the positions they should")

if failures:
    sys.exit(1)
print("html_check: all checks passed")
PY
