#!/usr/bin/env python3
"""Tunes the search parameters by SPSA through `jiangjun match`.

Each iteration perturbs every tuned parameter by +-c_k at random (the same signs for all of
them, drawn anew each iteration), plays game pairs (both colours of one opening) between the
engine at theta + c_k*delta and at theta - c_k*delta, and moves theta along delta by the
score difference. The parameters, their defaults, ranges and steps come from
`jiangjun params`; the engines get them as the hidden options `tune_<name>`.

Usage: python3 scripts/spsa.py [--bin target/release/jiangjun] [--iterations 2000]
           [--pairs 2] [--tc 2+0.02] [--rate 0.02] [--openings FILE] [--params a,b,...] [--seed 1]
           [--concurrency 2] [--state target/spsa/state.json]
           [--match-args "--resign-adjudication 3,1000 --draw-adjudication 40,8,15"]
Not in CI: it plays thousands of games. The state file is rewritten after every iteration, so
a stopped run resumes where it was. The last lines printed are the tuned values as
`option.tune_<name>=<value>` (for `jiangjun match --engine`); measure them with an SPRT
against the defaults before changing the defaults in src/search/parameters.rs.

Gains follow the usual SPSA schedule (Spall): c_k = c / k^0.101 with c the parameter's
step, a_k = a / (A + k)^0.602 with A a tenth of the iterations, and a chosen so that the
first iteration moves a parameter by --rate of its step when the plus side won every pair by
one game more than the minus side. A pair's result is mostly noise (its standard deviation is
about 0.8 game against a few hundredths for a parameter a step off its best), so the rate must
be small. Simulated with 27% wins and 27% losses a game: with the default 0.02, a thousand
iterations of two pairs walk a parameter of no effect by 0.35 of a step (standard deviation),
while one whose value is worth 5 Elo a step drifts 0.46 of a step the right way; the ratio of
drift to walk grows only as the square root of the games, whatever the rate. A rate near 1
walks the parameters at random by many steps.
"""
import argparse
import json
import os
import random
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULT = re.compile(r"\| plus \+(\d+) =(\d+) -(\d+)")


def read_specs(binary):
    out = subprocess.run([binary, "params"], check=True, capture_output=True, text=True).stdout
    specs = {}
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, default, lo, hi, step = line.split()
        specs[name] = dict(default=int(default), min=int(lo), max=int(hi), step=int(step))
    return specs


def tuned_by_default(specs):
    """The parameters tuned when none are named: SPSA tunes how a rule is set, not whether it
    is used, so a switch (range 0..1), a rule that is off (default 0 at the bottom of its
    range, as `singular_depth`) and the settings of a rule off by its `X_depth` or `X_margin`
    (the `X_` names, as `probcut_depth` beside `probcut_margin` 0) are left out; name them
    with --params to tune them anyway."""
    off = [n for n, s in specs.items()
           if s["max"] - s["min"] <= 1 or s["default"] == 0 == s["min"]]
    prefixes = [n[: n.rindex("_") + 1] for n in off if n.endswith(("_depth", "_margin"))]
    return [n for n in specs if n not in off and not any(n.startswith(p) for p in prefixes)]


def engine_spec(binary, name, values):
    opts = "".join(f",option.tune_{k}={v}" for k, v in sorted(values.items()))
    return f"cmd={binary},name={name},option.usebook=false{opts}"


def play(args, plus, minus, seed):
    """Games of `plus` against `minus`: (wins, draws, losses) of plus."""
    cmd = [
        args.bin, "match",
        "--engine", engine_spec(args.bin, "plus", plus),
        "--engine", engine_spec(args.bin, "minus", minus),
        "--games", str(2 * args.pairs), "--tc", args.tc,
        "--openings", args.openings, "--shuffle", "--seed", str(seed),
        "--concurrency", str(args.concurrency),
    ] + shlex.split(args.match_args)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    found = RESULT.findall(out)
    if not found:
        sys.exit("spsa: no result line in the match output:\n" + out[-2000:])
    return tuple(int(x) for x in found[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/jiangjun"))
    ap.add_argument("--iterations", type=int, default=2000)
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--tc", default="2+0.02")
    ap.add_argument("--rate", type=float, default=0.02,
                    help="steps a parameter moves at the first iteration per pair won")
    ap.add_argument("--openings", default=os.path.join(ROOT, "tests/data/openings.txt"))
    ap.add_argument("--params", help="comma-separated names (default: every value of a rule "
                    "in use; see tuned_by_default)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--match-args", default="",
                    help="more `jiangjun match` options, as one string (adjudication, margin)")
    ap.add_argument("--state", default=os.path.join(ROOT, "target/spsa/state.json"))
    args = ap.parse_args()

    specs = read_specs(args.bin)
    names = args.params.split(",") if args.params else tuned_by_default(specs)
    unknown = [n for n in names if n not in specs]
    if unknown:
        sys.exit(f"spsa: unknown parameters {unknown}; see `jiangjun params`")

    state = {"k": 0, "theta": {n: float(specs[n]["default"]) for n in names}}
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if set(state["theta"]) != set(names):
            sys.exit(f"spsa: {args.state} tunes other parameters; remove it or pass them")
    os.makedirs(os.path.dirname(args.state) or ".", exist_ok=True)

    big_a = args.iterations / 10
    alpha, gamma = 0.602, 0.101
    rng = random.Random(args.seed)
    # Replay the random draws of the iterations already done, so a resumed run continues
    # the same sequence.
    for _ in range(state["k"]):
        for _ in names:
            rng.choice((-1, 1))
    while state["k"] < args.iterations:
        k = state["k"] + 1
        delta = {n: rng.choice((-1, 1)) for n in names}
        theta = state["theta"]
        plus, minus, c_k = {}, {}, {}
        for n in names:
            s = specs[n]
            c_k[n] = s["step"] / k**gamma
            plus[n] = round(min(s["max"], max(s["min"], theta[n] + c_k[n] * delta[n])))
            minus[n] = round(min(s["max"], max(s["min"], theta[n] - c_k[n] * delta[n])))
        w, d, l = play(args, plus, minus, args.seed * 1_000_003 + k)
        result = (w - l) / args.pairs  # in [-2, 2] per pair
        for n in names:
            s = specs[n]
            # a such that a_1 * result / (2 c_1) moves by rate steps when result is 1.
            a = args.rate * 2 * s["step"] ** 2 * (big_a + 1) ** alpha
            a_k = a / (big_a + k) ** alpha
            theta[n] += a_k * result / (2 * c_k[n]) * delta[n]
            theta[n] = min(s["max"], max(s["min"], theta[n]))
        state["k"] = k
        with open(args.state + ".tmp", "w") as f:
            json.dump(state, f, indent=1)
        os.replace(args.state + ".tmp", args.state)
        print(f"iteration {k}: plus +{w} ={d} -{l}; "
              + " ".join(f"{n}={theta[n]:.1f}" for n in names), flush=True)
    for n in names:
        print(f"option.tune_{n}={round(state['theta'][n])}")


if __name__ == "__main__":
    main()
