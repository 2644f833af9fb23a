#!/usr/bin/env python3
"""Fits the win/draw/loss model behind `info ... wdl W D L` (UCI_ShowWDL) to self-play data.

Input: files written by `jiangjun datagen` (32-byte records in chunks; layout in
src/tools/datagen/format.rs). Each record gives the search score s (cp, side to move) and
the game's result from the side to move. The model, as Stockfish's, is two logistic curves:

    P(win)  = 1 / (1 + exp(-(s - a) / b))
    P(loss) = 1 / (1 + exp(-(-s - a) / b))
    P(draw) = 1 - P(win) - P(loss)

a is the score at which a win is as likely as not, b how quickly it becomes likely. The fit
maximises the likelihood of the results (a coarse grid, then halving steps). Prints a and b
and a calibration table (predicted vs observed by score band) to check the fit by eye.

Usage: scripts/fit_wdl.py DATA.bin [DATA2.bin ...]
"""
import math
import struct
import sys

MAGIC = b"JJDATA\0\0"


def records(path):
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at + 32 <= len(data):
        if data[at:at + 8] != MAGIC:
            sys.exit(f"{path}: byte {at}: not a datagen chunk")
        count = struct.unpack_from("<I", data, at + 12)[0]
        at += 32
        for k in range(count):
            r = data[at + 32 * k: at + 32 * (k + 1)]
            if len(r) < 32:
                sys.exit(f"{path}: file ends inside a chunk")
            result = (r[28] >> 1) & 3  # 0 loss, 1 draw, 2 win, from the side to move
            score = struct.unpack_from("<h", r, 30)[0]
            yield score, result
        at += 32 * count


def probs(s, a, b):
    w = 1.0 / (1.0 + math.exp(-(s - a) / b))
    l = 1.0 / (1.0 + math.exp(-(-s - a) / b))
    return w, max(1.0 - w - l, 1e-9), l


def nll(data, a, b):
    total = 0.0
    for s, r in data:
        w, d, l = probs(s, a, b)
        total -= math.log(max((l, d, w)[r], 1e-12))
    return total / len(data)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data = [rec for p in sys.argv[1:] for rec in records(p)]
    if not data:
        sys.exit("no records")
    best = min(
        ((nll(data, a, b), a, b) for a in range(50, 801, 50) for b in range(25, 401, 25)),
    )
    _, a, b = best
    step = 25.0
    while step > 0.5:
        improved = True
        while improved:
            improved = False
            for da, db in ((step, 0), (-step, 0), (0, step), (0, -step)):
                na, nb = a + da, max(b + db, 1.0)
                v = nll(data, na, nb)
                if v < best[0]:
                    best, a, b, improved = (v, na, nb), na, nb, True
        step /= 2
    print(f"positions {len(data)}  a {a:.1f}  b {b:.1f}  mean log-loss {best[0]:.4f}")
    print("score band      n    win/draw/loss observed   predicted (per mille)")
    bands = [(-10000, -400), (-400, -200), (-200, -100), (-100, -30), (-30, 30), (30, 100),
             (100, 200), (200, 400), (400, 10000)]
    for lo, hi in bands:
        sel = [(s, r) for s, r in data if lo <= s < hi]
        if not sel:
            continue
        obs = [sum(1 for _, r in sel if r == k) * 1000 // len(sel) for k in (2, 1, 0)]
        pred = [0.0, 0.0, 0.0]
        for s, _ in sel:
            w, d, l = probs(s, a, b)
            pred[0] += w
            pred[1] += d
            pred[2] += l
        pred = [int(1000 * x / len(sel)) for x in pred]
        print(f"[{lo:6},{hi:6}) {len(sel):6}  {obs[0]:4} {obs[1]:4} {obs[2]:4}"
              f"          {pred[0]:4} {pred[1]:4} {pred[2]:4}")


if __name__ == "__main__":
    main()
