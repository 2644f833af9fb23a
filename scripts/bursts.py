#!/usr/bin/env python3
"""Bursts: whole scripts of commands piped into the engine at once, in each protocol, faster
than it can answer; every command must still get its answer. A failure is an engine that does
not end within the timeout after the end of its input, a non-zero exit, a missing or extra
answer, or anything on stderr.

    scripts/bursts.py ENGINE [--rounds N] [--commands K] [--seed S] [--timeout SECONDS]

Each round pipes one random script per protocol (UCCI with the book, UCCI without, UCI, CECP)
of about K commands, each script written in one go and then closed (the end of input, which
waits for the work in hand). Checked:
- UCCI and UCI: one `bestmove` for every `go` (the positions all have moves; `stop` in the
  idle state may add a `nobestmove`, which is not counted), one `readyok` for every `isready`.
- CECP: one `pong N` for every `ping N`, in order.
The openings come from tests/data/openings.txt. scripts/soak.sh runs this beside its games
(BURSTS=N rounds). Prints one line per script and a summary; exits 1 on any failure.
"""
import argparse
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def openings():
    path = os.path.join(ROOT, "tests", "data", "openings.txt")
    with open(path, encoding="utf-8") as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def uci_script(rng, lines, k, first, book):
    """A UCCI/UCI script; returns (lines, gos, isreadys)."""
    out = [first]
    if first == "ucci":
        out.append("setoption usebook " + ("true" if book else "false"))
    else:
        out.append("setoption name OwnBook value " + ("true" if book else "false"))
    gos = readys = 0
    out.append("position startpos")
    while len(out) < k:
        r = rng.random()
        if r < 0.25:
            line = rng.choice(lines)
            out.append("position startpos moves " + " ".join(line[: rng.randint(0, len(line))]))
        elif r < 0.55:
            out.append(rng.choice(["go depth 1", "go depth 3", "go nodes 2000", "go movetime 5",
                                   "go depth 2 nodes 500"]))
            gos += 1
            if rng.random() < 0.5:
                out.append("stop")
        elif r < 0.62:
            out.append("go infinite")
            out.append("isready")
            out.append("stop")
            gos += 1
            readys += 1
        elif r < 0.75:
            out.append("isready")
            readys += 1
        elif r < 0.82:
            out.append("stop")
        elif r < 0.88:
            if first == "ucci":
                out.append("setoption hashsize " + str(rng.choice([1, 4, 16])))
            else:
                out.append("setoption name Hash value " + str(rng.choice([1, 4, 16])))
        elif r < 0.94:
            out.append(rng.choice(["probe startpos", "ponderhit", "garbage line", ""]))
        else:
            out.append("ucinewgame" if first == "uci" else "setoption newgame")
    return out, gos, readys


def cecp_script(rng, lines, k):
    """A CECP script; returns (lines, pings)."""
    out = ["xboard", "protover 2", "new", "sd 2"]
    pings = 0
    while len(out) < k:
        r = rng.random()
        if r < 0.2:
            line = rng.choice(lines)
            out += ["new", "sd 2", "force"] + line[: rng.randint(0, len(line))]
        elif r < 0.35:
            out.append("go")
        elif r < 0.45:
            out += ["analyze", ".", "exit"]
        elif r < 0.6:
            pings += 1
            out.append("ping %d" % pings)
        elif r < 0.7:
            out.append(rng.choice(["undo", "remove", "force", "?", "post", "nopost", "hard",
                                   "easy"]))
        elif r < 0.8:
            out.append(rng.choice(["st 1", "level 40 1 0", "time 500", "otim 500", "sd 1"]))
        else:
            out.append(rng.choice(["usermove h2e2", "h9g7", "b0c2", "result 1-0 {x}", "draw"]))
    pings += 1
    out.append("ping %d" % pings)
    return out, pings


def run(engine, script, timeout):
    """(stdout lines, stderr, exit status or None if it did not end in time, seconds)."""
    start = time.monotonic()
    p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(("\n".join(script) + "\n").encode(), timeout=timeout)
        status = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        status = None
    lines = out.decode("utf-8", "replace").splitlines()
    return lines, err.decode("utf-8", "replace"), status, time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("engine")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--commands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    lines = openings()
    failures = scripts = 0
    for rnd in range(a.rounds):
        for kind in ["ucci+book", "ucci", "uci", "cecp"]:
            scripts += 1
            if kind == "cecp":
                script, pings = cecp_script(rng, lines, a.commands)
            else:
                first = kind.split("+")[0]
                script, gos, readys = uci_script(rng, lines, a.commands, first, "+book" in kind)
            out, err, status, secs = run(a.engine, script, a.timeout)
            problems = []
            if status is None:
                problems.append("no exit within %gs" % a.timeout)
            elif status != 0:
                problems.append("exit status %d" % status)
            if err.strip():
                problems.append("stderr: " + err.strip().splitlines()[0][:200])
            if kind == "cecp":
                pongs = [l for l in out if l.startswith("pong")]
                want = ["pong %d" % i for i in range(1, pings + 1)]
                if pongs != want:
                    problems.append("%d of %d pongs in order" % (
                        sum(1 for x, y in zip(pongs, want) if x == y), len(want)))
                counted = "%d pings" % pings
            else:
                got = sum(1 for l in out if l.startswith("bestmove"))
                ready = sum(1 for l in out if l == "readyok")
                if got != gos:
                    problems.append("%d bestmoves for %d go" % (got, gos))
                if ready != readys:
                    problems.append("%d readyok for %d isready" % (ready, readys))
                counted = "%d go, %d isready" % (gos, readys)
            ok = not problems
            failures += not ok
            print("round %d %-9s %4d lines, %s: %s (%.1fs)" % (
                rnd + 1, kind, len(script), counted, "ok" if ok else "; ".join(problems), secs),
                flush=True)
            if not ok:
                name = "bursts-failed-%d-%s.txt" % (rnd + 1, kind.replace("+", "-"))
                with open(name, "w", encoding="utf-8") as f:
                    f.write("\n".join(script) + "\n")
                print("  script saved to " + name, flush=True)
    print("Bursts: %d scripts, %d failed" % (scripts, failures), flush=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
