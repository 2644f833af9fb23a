#!/usr/bin/env python3
"""Time to depth of the `threads` option: wall seconds from `go depth D` to `bestmove`, summed
over the bench positions, for 1 and for N search threads, in alternating rounds.

Usage: python3 scripts/time_to_depth.py [--bin target/release/jiangjun] [--depth 14]
                                        [--rounds 2] [--threads 2]
Not in CI (it times a search). Run it on an otherwise idle machine: a second thread only helps
when it has a core of its own.

Each round starts a fresh engine per thread count (64 MB table, book off), and for every
position of `BENCH_POSITIONS` (src/search/mod.rs, read from the source so the two cannot
differ) sends `position fen` and `go depth D`. The last line is the speed-up: the summed time
with 1 thread divided by the summed time with N.
"""
import argparse
import os
import re

from engine_pipe import Engine

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_fens():
    src = open(os.path.join(ROOT, "src/search/mod.rs"), encoding="utf-8").read()
    table = src.split("BENCH_POSITIONS")[1].split("];")[0]
    return re.findall(r'^\s*"([^"]+)",$', table, re.M)


def total_time(binary, threads, depth, fens):
    engine = Engine(binary, (f"threads {threads}", "usebook false", "hashsize 64"))
    total = sum(engine.answer_time(f"position fen {fen}", f"go depth {depth}") for fen in fens)
    engine.quit()
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/jiangjun"))
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    fens = bench_fens()
    one, many = [], []
    for _ in range(args.rounds):
        one.append(total_time(args.bin, 1, args.depth, fens))
        many.append(total_time(args.bin, args.threads, args.depth, fens))
        print(f"1 thread {one[-1]:.2f} s, {args.threads} threads {many[-1]:.2f} s", flush=True)
    print(f"speed-up at depth {args.depth}: {sum(one) / sum(many):.3f}")


if __name__ == "__main__":
    main()
