#!/usr/bin/env python3
"""Measures the Elo of the strength levels (`UCI_LimitStrength` / `UCI_Elo`).

Every level plays the reference engine, ElephantEye 3.31 with its book off searching to a
fixed depth, at the two depths nearest its strength, and the next level up; the references
play each other at neighbouring depths. One maximum-likelihood fit of the games against the
references (level against level is printed beside it: one engine's levels exaggerate their
differences against each other) (the logistic Elo model,
draws as half points, one virtual draw per pairing so that a clean sweep still has a finite
rating) gives every level and every reference a rating, with a 95% interval from the
curvature of the likelihood. The scale is fixed by a convention: ElephantEye at depth 1 is
1000 (it knows the rules and looks one move ahead, as a beginner does).

Usage: python3 scripts/strength_levels.py --eleeye PATH [--bin target/release/jiangjun]
           [--games 100] [--depths 1,2,3,4,5,6,7,8] [--tc movetime=5000] [--openings FILE]
           [--concurrency 2] [--seed 1] [--state target/strength_levels.json]
The levels are the ones `jiangjun params --levels` lists. Each level plays the two depths
whose pilot score (20 games against each depth, skipping depths a weaker level scored 85%
against and stopping after a score of 15%) was nearest 50%. Not in CI: it plays about
two thousand games (about half an hour on two cores). The state file keeps every finished
pairing, so a stopped run resumes (with the same build only: the file records the build's
bench signature and network). The table printed at the end is the one in docs/strength.md;
its measured column becomes the `elo` column of src/search/strength.rs, and the record printed
under it `MEASURED_WITH` there (a test fails while that record is not this build's).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT = re.compile(r"^Result (\S+) vs (\S+): W (\d+) D (\d+) L (\d+)", re.M)
ANCHOR = ("ee1", 1000.0)
PILOT_GAMES = 20


def read_levels(binary):
    out = subprocess.run([binary, "params", "--levels"], check=True, capture_output=True,
                         text=True).stdout
    levels = []
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        elo, nodes, temperature = line.split()
        levels.append(dict(elo=int(elo), nodes=int(nodes), temperature=int(temperature)))
    return levels


def build_record(binary):
    """(bench signature, built-in network checksum) of `binary`: what the levels are measured
    with, recorded as `MEASURED_WITH` in src/search/strength.rs."""
    out = subprocess.run([binary, "bench"], check=True, capture_output=True, text=True).stdout
    bench = int(out.strip().splitlines()[-1].split()[0])
    levels = subprocess.run([binary, "params", "--levels"], check=True, capture_output=True,
                            text=True).stdout
    m = re.search(r"^# this build's network ([0-9a-f]{16})$", levels, re.M)
    if not m:
        sys.exit("`params --levels` names no network: a build older than the record")
    return bench, m.group(1)


def spec(args, name):
    if name.startswith("ee"):
        return (f"cmd={args.eleeye},name={name},proto=ucci,option.usebook=false,"
                f"tc=depth={int(name[2:])}")
    return (f"cmd={args.bin},name={name},option.usebook=false,option.limitstrength=true,"
            f"option.elo={int(name[1:])}")


def play(args, a, b, games, seed):
    cmd = [args.bin, "match", "--engine", spec(args, a), "--engine", spec(args, b),
           "--games", str(games), "--tc", args.tc, "--openings", args.openings, "--shuffle",
           "--seed", str(seed), "--concurrency", str(args.concurrency)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    m = RESULT.search(out)
    if not m:
        sys.exit(f"no result line from: {' '.join(cmd)}\n{out[-2000:]}")
    return [int(m.group(3)), int(m.group(4)), int(m.group(5))]


def fit(names, results):
    """Maximum-likelihood ratings (anchor fixed) and their standard errors."""
    free = [n for n in names if n != ANCHOR[0]]
    idx = {n: i for i, n in enumerate(free)}
    r = {n: ANCHOR[1] for n in names}
    k = math.log(10) / 400

    def expect(a, b):
        return 1 / (1 + math.exp(-k * (r[a] - r[b])))

    games = []
    for key, (w, d, l) in results.items():
        a, b = key.split(" ")
        games.append((a, b, w + d / 2 + 0.5, w + d + l + 1))  # one virtual draw
    hessian = None
    for _ in range(100):
        n = len(free)
        grad = [0.0] * n
        hessian = [[0.0] * n for _ in range(n)]
        for a, b, score, count in games:
            p = expect(a, b)
            g = k * (score - count * p)
            h = k * k * count * p * (1 - p)
            for x, sign in ((a, 1), (b, -1)):
                if x in idx:
                    grad[idx[x]] += sign * g
            for x in (a, b):
                for y in (a, b):
                    if x in idx and y in idx:
                        hessian[idx[x]][idx[y]] += h if x == y else -h
        # Newton's step (the log-likelihood is concave), at most 200 Elo at a time.
        step = [max(-200.0, min(200.0, x)) for x in solve(hessian, grad)]
        for n_, i in idx.items():
            r[n_] += step[i]
        if max(abs(s) for s in step) < 1e-6:
            break
    inverse = invert(hessian)
    se = {n: math.sqrt(max(inverse[i][i], 0.0)) for n, i in idx.items()}
    se[ANCHOR[0]] = 0.0
    return r, se


def solve(m, v):
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[p] = a[p], a[c]
        for i in range(n):
            if i != c and a[c][c] != 0:
                f = a[i][c] / a[c][c]
                a[i] = [x - f * y for x, y in zip(a[i], a[c])]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def invert(m):
    n = len(m)
    cols = [solve(m, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--eleeye", required=True, help="ElephantEye 3.31 binary (UCCI)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/jiangjun"))
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--depths", default="1,2,3,4,5,6,7,8")
    ap.add_argument("--tc", default="movetime=5000",
                    help="the levels' clock; their node budgets end their searches first")
    ap.add_argument("--openings", default=None)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", default=os.path.join(ROOT, "target/strength_levels.json"))
    args = ap.parse_args()
    if args.openings is None:
        args.openings = os.path.join(ROOT, "target/strength_levels_openings.txt")
        with open(args.openings, "w") as f:
            subprocess.run([args.bin, "book", "lines", "--plies", "10", "--min-plies", "10"],
                           check=True, stdout=f)
    bench, network = build_record(args.bin)
    state = {"build": [bench, network], "pilot": {}, "results": {}}
    if os.path.exists(args.state):
        with open(args.state) as f:
            saved = json.load(f)
        if saved.get("build") != [bench, network]:
            sys.exit(f"{args.state} holds games of another build ({saved.get('build')}; this "
                     f"one: Bench {bench}, network {network}): remove it or name another --state")
        state = saved

    def save():
        os.makedirs(os.path.dirname(args.state) or ".", exist_ok=True)
        with open(args.state, "w") as f:
            json.dump(state, f, indent=1)

    levels = read_levels(args.bin)
    depths = [int(d) for d in args.depths.split(",")]
    refs = [f"ee{d}" for d in depths]
    seed = args.seed
    pairings = []
    for a, b in zip(refs, refs[1:]):
        pairings.append((a, b))
    swept = set()  # depths a weaker level already beat: every stronger level would too
    for lv in levels:
        name = f"L{lv['elo']}"
        for ref in refs:
            key = f"{name} {ref}"
            if ref in swept:
                continue
            if key not in state["pilot"]:
                state["pilot"][key] = play(args, name, ref, PILOT_GAMES, seed)
                save()
                print(f"pilot {key}: {state['pilot'][key]}", flush=True)
            seed += 1
            s = score(state["pilot"][key])
            if s >= 0.85:
                swept.add(ref)
            if s <= 0.15:
                break  # deeper references would win as clearly
        tried = [ref for ref in refs if f"{name} {ref}" in state["pilot"]]
        near = sorted(tried, key=lambda ref: abs(score(state["pilot"][f"{name} {ref}"]) - 0.5))
        pairings += [(name, ref) for ref in near[:2]]
    # Neighbouring levels too: they tie the levels to each other where a reference is far.
    pairings += [(f"L{a['elo']}", f"L{b['elo']}") for a, b in zip(levels, levels[1:])]
    for a, b in pairings:
        key = f"{a} {b}"
        if key not in state["results"]:
            state["results"][key] = play(args, a, b, args.games, seed)
            save()
            print(f"{key}: {state['results'][key]}", flush=True)
        seed += 1
    # The ratings come from games against the reference only: levels of one engine exaggerate
    # their differences against each other (each level's mistakes are the kind the next one
    # punishes), so the level-against-level games are shown beside the fit, not in it.
    rated = {k: v for k, v in state["results"].items() if any(n.startswith("ee") for n in k.split(" "))}
    names = sorted({n for key in rated for n in key.split(" ")})
    ratings, se = fit(names, rated)
    print("\n| level (`UCI_Elo`) | nodes | temperature (cp) | games | measured Elo (95%) |")
    print("| --- | --- | --- | --- | --- |")
    for lv in levels:
        name = f"L{lv['elo']}"
        n = sum(sum(v) for k, v in rated.items() if name in k.split(" "))
        print(f"| {lv['elo']} | {lv['nodes']} | {lv['temperature']} | {n} | "
              f"{ratings[name]:.0f} ± {1.96 * se[name]:.0f} |")
    print("\n| reference | games | Elo (95%) |")
    print("| --- | --- | --- |")
    for ref in refs:
        if ref in ratings:
            n = sum(sum(v) for k, v in rated.items() if ref in k.split(" "))
            print(f"| ElephantEye depth {ref[2:]} | {n} | {ratings[ref]:.0f} ± {1.96 * se[ref]:.0f} |")
    print(f"\nMeasured with Bench: {bench}, network {network}. In src/search/strength.rs:")
    print(f"    MEASURED_WITH: bench: {bench:_}, network_fnv1a64: 0x{network[:4]}_{network[4:8]}_"
          f"{network[8:12]}_{network[12:]}")
    print("\nresults (W D L of the first named; level against level: not in the fit):")
    for key, v in state["results"].items():
        a, b = key.split(" ")
        gap = f"  (fit: {ratings[a] - ratings[b]:+.0f})" if a in ratings and b in ratings else ""
        print(f"  {key}: {v}{gap}")


def score(wdl):
    w, d, l = wdl
    return (w + d / 2) / max(w + d + l, 1)


if __name__ == "__main__":
    main()
