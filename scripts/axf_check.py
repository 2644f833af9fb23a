#!/usr/bin/env python3
"""Property check of `jiangjun judge --rules axf` against its reference, pyffish (Fairy-Stockfish).

Not in CI: it needs `pip install pyffish` (written against pyffish 0.0.90) and a release build
(`cargo build --release`).

Why: the AXF profile is meant to rule repetitions as Fairy-Stockfish's `is_optional_game_end`
does (issue 19, section 2). Hand-made cases cover the known mechanisms; random cycles find the
ones nobody thought of.

What it does, per cycle (seeded: cycle i uses seed `SEED * 1_000_003 + i`, so a run is
reproducible and any single cycle can be replayed with `--only I`):
1. A random middlegame: a line of tests/data/openings.txt (or none), then random moves
   (captures preferred half of the time) up to 10-60 plies in all; kept when both sides still
   have a rook, horse or cannon, the side to move is not in check, and the game is not over.
   Its FEN (plies-since-capture reset to 0) is the start of the cycle, so both judges see only
   the cycle and no natural limit.
2. Each side gets a closed tour of two to four non-capturing moves: one piece out and back
   (2), a rook or cannon round three points of a line (3), two pieces out and back, or one
   piece two steps out and back (4); tour lengths 2/2, 3/3, 4/4, 2/4 or 4/2. Tours are biased
   towards moves that give check or make a capture newly free (no legal recapture: new and
   discovered attacks, pins of a protector), so that checks, chases, pins and discovered
   attacks are common; a quarter of the tours are picked uniformly so that idle cycles stay.
3. The tours are played in turn until a position occurs for the third time (pyffish's
   n-fold rule for xiangqi is 3 and our referee rules at the third occurrence, 23.x); a
   cycle with an illegal or capturing move is dropped and another one generated.
4. Both judge the final position: pyffish `is_optional_game_end("xiangqi", fen, moves)`,
   whose value is from the side to move's view (> 0: it wins, < 0: it loses, 0: draw), and
   `jiangjun judge --fen F --moves M --rules axf --json` (verdict red_loses / black_loses /
   draw / none). Both are mapped to red_loses / black_loses / draw / none and compared.

Prints the agreement rate and writes every disagreement as one JSON line (FEN, ICCS moves,
both rulings, our clause, patterns and per-move natures) to `--out`.

Findings (pyffish 0.0.90, issue 19). Fixed in the AXF profile, with tests in src/rules:
the 图5 "result unchanged" filter (pyffish has none), a root undermined by a new pin, a new
discoverer against the king (its capture comes with check, so roots, x-ray ones included, do
not save the target), judging every move since the first counted occurrence (and the move
into it) rather than the last period, and a capture answered by mate in one still counting as
a threat (AXF defines a chase as a move that threatens to capture; 24.3's "得子后不致立即被将
死" is a 2011 clause with no AXF counterpart). Held to be pyffish's errors, not followed:
- `self_discovery` (tagged automatically): pyffish's discovered-attack test
  (`Position::chased`) takes the moved rook or cannon itself as a discovery candidate, with
  its own origin square as the blocker, so a rook or cannon going back along the line of an
  attack it already had "discovers" that attack. AXF counts a new threat only, and pyffish's
  own direct-attack test excludes attacks along the line of movement for that reason.
- A king root that cannot recapture because a piece behind the capturer x-rays the square:
  pyffish treats the king as a root unless the kings would face each other; the recapture is
  illegal, so the root is false (假根) and the piece is chased.
- A newly pinned root where the target keeps another root, or the attacker is worth more:
  pyffish's fake-root test chases every piece the pinned piece guards; AXF's chase must
  threaten to win material.
- An attacker freed from a pin (e.g. the kings' file blocked by the move): pyffish looks at
  pseudo-attacks and sees nothing new; the capture has become possible, a new threat.

Usage:
    scripts/axf_check.py [--cycles N] [--seed S] [--jobs J] [--out FILE] [--engine PATH]
                         [--first I] [--only I]
e.g. nice -n 10 scripts/axf_check.py --cycles 10000 --seed 1 --jobs 2 --out axf_dis.jsonl
"""
import argparse
import json
import os
import random
import subprocess
import sys
from collections import Counter
from multiprocessing import Pool

import pyffish as sf

VARIANT = "xiangqi"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPENINGS = os.path.join(ROOT, "tests", "data", "openings.txt")
START = sf.start_fen(VARIANT)
MAX_PLIES = 40
ENGINE = os.path.join(ROOT, "target", "release", "jiangjun")


# ---- coordinates: ICCS ranks 0-9 (ours), pyffish ranks 1-10 ----

def to_sf(m):
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def from_sf(m):
    # "a10b10", "a1a2": file letter, then digits, twice.
    i = 1
    while m[i].isdigit():
        i += 1
    return f"{m[0]}{int(m[1:i]) - 1}{m[i]}{int(m[i + 1:]) - 1}"


def sq(m, k):
    """Square (file, rank 0-9) of an ICCS move's from (k=0) or to (k=1)."""
    return (ord(m[2 * k]) - ord("a"), int(m[2 * k + 1]))


# ---- a minimal board from the FEN: piece lookup and a FEN writer ----

def parse(fen):
    rows, side = fen.split()[:2]
    board = {}
    for i, row in enumerate(rows.split("/")):
        rank = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
    return board, side


def write(board, side):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, rank))
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else "") + p
                empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def apply(board, m):
    b = dict(board)
    b[sq(m, 1)] = b.pop(sq(m, 0))
    return b


def red(p):
    return p.isupper()


# ---- legal moves (pyffish costs ~7 ms a call, so cycles are built with this and pyffish
# only judges) ----

ORTHO = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
HORSE = ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1))


PALACE_RED = [(f, r) for f in (3, 4, 5) for r in (0, 1, 2)]
PALACE_BLACK = [(f, r) for f in (3, 4, 5) for r in (7, 8, 9)]


def on_board(f, r):
    return 0 <= f < 9 and 0 <= r < 10


def in_palace(f, r, is_red):
    return 3 <= f <= 5 and (0 <= r <= 2 if is_red else 7 <= r <= 9)


def own_half(r, is_red):
    return r <= 4 if is_red else r >= 5


def pseudo(board, is_red, only=None):
    out = []
    items = board.items() if only is None else [(only, board[only])] if only in board else []
    for (f, r), p in items:
        if red(p) != is_red:
            continue
        k = p.lower()

        def add(t):
            q = board.get(t)
            if q is None or red(q) != is_red:
                out.append(((f, r), t))

        if k == "r" or k == "c":
            for df, dr in ORTHO:
                t, screen = (f + df, r + dr), False
                while on_board(*t):
                    q = board.get(t)
                    if not screen:
                        if q is None:
                            out.append(((f, r), t))
                        elif k == "r":
                            add(t)
                            break
                        else:
                            screen = True
                    elif q is not None:
                        add(t)
                        break
                    t = (t[0] + df, t[1] + dr)
        elif k == "n":
            for df, dr in HORSE:
                leg = (f + (df // 2 if abs(df) == 2 else 0), r + (dr // 2 if abs(dr) == 2 else 0))
                t = (f + df, r + dr)
                if on_board(*t) and leg not in board:
                    add(t)
        elif k == "b":
            for df, dr in DIAG:
                t = (f + 2 * df, r + 2 * dr)
                if on_board(*t) and own_half(t[1], is_red) and (f + df, r + dr) not in board:
                    add(t)
        elif k == "a":
            for df, dr in DIAG:
                if in_palace(f + df, r + dr, is_red):
                    add((f + df, r + dr))
        elif k == "k":
            for df, dr in ORTHO:
                if in_palace(f + df, r + dr, is_red):
                    add((f + df, r + dr))
        elif k == "p":
            fwd = 1 if is_red else -1
            if on_board(f, r + fwd):
                add((f, r + fwd))
            if not own_half(r, is_red):
                for df in (1, -1):
                    if on_board(f + df, r):
                        add((f + df, r))
    return out


def king_exposed(board, is_red):
    """Is `is_red`'s king attacked (or facing the other king)?"""
    king = "K" if is_red else "k"
    ks = [s for s in (PALACE_RED if is_red else PALACE_BLACK) if board.get(s) == king]
    if not ks:
        return True
    kf, kr = ks[0]
    # 2011 rules 3.2: the kings may not face each other on an open file.
    step = 1 if is_red else -1
    s = (kf, kr + step)
    while on_board(*s) and s not in board:
        s = (s[0], s[1] + step)
    if board.get(s) == ("k" if is_red else "K"):
        return True
    return bool(raw_attackers(board, (kf, kr), not is_red))


def iccs(fr, to):
    return f"{chr(97 + fr[0])}{fr[1]}{chr(97 + to[0])}{to[1]}"


def legal_on(board, side):
    is_red = side == "w"
    out = []
    for fr, to in pseudo(board, is_red):
        b = dict(board)
        b[to] = b.pop(fr)
        if not king_exposed(b, is_red):
            out.append(iccs(fr, to))
    return out


def is_legal(board, side, m):
    """Is the ICCS move `m` legal for `side` on `board`?"""
    fr, to = sq(m, 0), sq(m, 1)
    if (fr, to) not in pseudo(board, side == "w", fr):
        return False
    return not king_exposed(apply(board, m), side == "w")


def replay(fen, moves):
    board, side = parse(fen)
    for m in moves:
        board = apply(board, m)
        side = "b" if side == "w" else "w"
    return board, side


def legal(fen, moves=()):
    return legal_on(*replay(fen, moves))


def gives_check(board, side, m):
    return king_exposed(apply(board, m), side != "w")


# ---- step 1: a random middlegame ----

def openings():
    with open(OPENINGS) as f:
        return [l.split() for l in f if l.strip() and not l.startswith("#")]


def middlegame(rng, lines):
    while True:
        moves = list(rng.choice(lines)) if rng.random() < 0.7 else []
        target = rng.randint(10, 60)
        board, side = replay(START, moves)
        while len(moves) < target:
            ps = pseudo(board, side == "w")
            caps = [mv for mv in ps if mv[1] in board]
            m = None
            for _ in range(30):
                fr, to = rng.choice(caps) if caps and rng.random() < 0.5 else rng.choice(ps)
                nb = dict(board)
                nb[to] = nb.pop(fr)
                if not king_exposed(nb, side == "w"):
                    m = iccs(fr, to)
                    break
            if m is None:
                break
            moves.append(m)
            board = apply(board, m)
            side = "b" if side == "w" else "w"
        if len(moves) < target or not any(p.lower() == "k" for p in board.values()):
            continue
        fen = write(board, side)
        strong = lambda up: sum(1 for p in board.values() if p.isupper() == up and p.lower() in "rnc")
        if strong(True) == 0 or strong(False) == 0:
            continue
        if king_exposed(board, side == "w") or not legal(fen):
            continue
        return fen


# ---- step 2: tours ----

VALUE = {"r": 10, "n": 5, "c": 5, "a": 2, "b": 2, "p": 1, "k": 100}


def value(p, at):
    if p.lower() == "p" and not own_half(at[1], red(p)):
        return 5
    return VALUE[p.lower()]


def attackers(board, t, by_red):
    """Squares of `by_red`'s pieces that can legally capture on `t`."""
    legal_ = []
    for s in raw_attackers(board, t, by_red):
        nb = dict(board)
        nb[t] = nb.pop(s)
        if not king_exposed(nb, by_red):
            legal_.append(s)
    return legal_


def raw_attackers(board, t, by_red):
    """Squares of `by_red`'s pieces that attack `t`, legal or not."""
    tf, tr = t
    found = []
    for df, dr in ORTHO:
        s, seen = (tf + df, tr + dr), 0
        while on_board(*s):
            q = board.get(s)
            if q is not None:
                if red(q) == by_red:
                    k = q.lower()
                    if seen == 0 and (k == "r" or k == "k" and abs(s[0] - tf) + abs(s[1] - tr) == 1
                                      and in_palace(tf, tr, by_red)):
                        found.append(s)
                    elif seen == 1 and k == "c":
                        found.append(s)
                seen += 1
                if seen == 2:
                    break
            s = (s[0] + df, s[1] + dr)
    for df, dr in HORSE:
        h = (tf + df, tr + dr)
        q = board.get(h)
        if q is not None and q.lower() == "n" and red(q) == by_red:
            leg = (h[0] - df // 2, h[1]) if abs(df) == 2 else (h[0], h[1] - dr // 2)
            if leg not in board:
                found.append(h)
    back = -1 if by_red else 1
    for s in ((tf, tr + back), (tf + 1, tr), (tf - 1, tr)):
        q = board.get(s)
        if q is not None and q.lower() == "p" and red(q) == by_red:
            if s[0] == tf or not own_half(s[1], by_red):
                found.append(s)
    for df, dr in DIAG:
        q = board.get((tf + df, tr + dr))
        if q is not None and q.lower() == "a" and red(q) == by_red and in_palace(tf, tr, by_red):
            found.append((tf + df, tr + dr))
        q = board.get((tf + 2 * df, tr + 2 * dr))
        if (q is not None and q.lower() == "b" and red(q) == by_red and own_half(tr, by_red)
                and (tf + df, tr + dr) not in board):
            found.append((tf + 2 * df, tr + 2 * dr))
    return found


_MEMO = {}


def winnable(board, side):
    key = (write(board, side))
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) > 20000:
            _MEMO.clear()
        hit = _MEMO[key] = _winnable(board, side)
    return hit


def _winnable(board, side):
    """Enemy pieces (pawns once crossed) the side to move can take with a gain: no legal
    recapture, or a capturer worth less (1.2 values)."""
    is_red = side == "w"
    out = set()
    for t, p in board.items():
        if red(p) == is_red or p.lower() == "k" or (p.lower() == "p" and own_half(t[1], red(p))):
            continue
        for s in attackers(board, t, is_red):
            if value(board[s], s) < value(p, t):
                out.add(t)
                break
            nb = dict(board)
            nb[t] = nb.pop(s)
            if not attackers(nb, t, not is_red):
                out.add(t)
                break
    return out


def newly(board, side, m):
    if sq(m, 0) not in board or sq(m, 1) in board or not is_legal(board, side, m):
        return set()
    return _newly(board, side, m)


def _newly(board, side, m):
    """The enemy pieces (squares) `m` makes newly winnable, the opponent passing, or
    {"check"}. New and discovered attacks, pins of a protector and cut roots all show up."""
    b2 = apply(board, m)
    if king_exposed(b2, side != "w"):
        return {"check"}
    return winnable(b2, side) - winnable(board, side)


def tours(board, side, k, rng):
    """Candidate closed tours of k non-capturing moves for `side` (geometry only; legality
    is checked when the cycle is played)."""
    fen = write(board, side)
    quiet = [m for m in legal(fen) if sq(m, 1) not in board]
    out = []
    if k == 2:
        out = [[m, m[2:] + m[:2]] for m in quiet]
    elif k == 3:
        for m in quiet:
            p = board[sq(m, 0)].lower()
            if p not in "rc":
                continue
            b2 = apply(board, m)
            for m2 in [iccs(f, t) for f, t in pseudo(b2, side == "w", sq(m, 1))]:
                a, c = sq(m, 0), sq(m2, 1)
                same_line = (a[0] == c[0] == sq(m, 1)[0]) or (a[1] == c[1] == sq(m, 1)[1])
                if m2[:2] == m[2:] and same_line and c not in b2 and c != a:
                    out.append([m, m2, m2[2:] + m[:2]])
    else:
        for m in quiet:
            # one piece two steps out and back
            b2 = apply(board, m)
            for m2 in [iccs(f, t) for f, t in pseudo(b2, side == "w", sq(m, 1))]:
                if m2[:2] == m[2:] and sq(m2, 1) not in b2 and m2[2:] != m[:2]:
                    out.append([m, m2, m2[2:] + m2[:2], m[2:] + m[:2]])
        for _ in range(min(40, len(quiet) ** 2)):
            m1, m2 = rng.choice(quiet), rng.choice(quiet)
            if m1[:2] != m2[:2] and m1[2:] != m2[2:]:
                out.append([m1, m2, m1[2:] + m1[:2], m2[2:] + m2[:2]])
    return out


def interleave(board, side, tours_, chaser, plies):
    """Plays the tours (by side, "w"/"b") in turn for `plies` plies from `board`, `side` to
    move. Returns the moves, how many of the chaser's moves were active, and whether one
    piece (or the king, by check) was hit on every one of them (AXF's 长捉 needs the same
    piece); None when a move is illegal or captures."""
    idx = {"w": 0, "b": 0}
    ids = {s_: n for n, s_ in enumerate(board)}
    moves, n, common = [], 0, None
    for _ in range(plies):
        tour = tours_[side]
        m = tour[idx[side] % len(tour)]
        idx[side] += 1
        if sq(m, 1) in board or not is_legal(board, side, m):
            return None
        if side == chaser:
            hit = {x if x == "check" else ids[x] for x in newly(board, side, m)}
            n += bool(hit)
            common = hit if common is None else common & hit
        moves.append(m)
        board = apply(board, m)
        ids[sq(m, 1)] = ids.pop(sq(m, 0))
        side = "b" if side == "w" else "w"
    return moves, n, bool(common)


def pick_cycle(board, side, rng):
    """Tours for both sides, biased: one side (the chaser) gets, against a tour of the other,
    a tour whose every move is active in the real sequence (长将 / 长捉 material) three times
    in four when one exists, else one with some active move."""
    kr, kb = rng.choice([(2, 2), (3, 3), (4, 4), (2, 4), (4, 2), (2, 2), (4, 4)])
    k = {"w": kr, "b": kb}
    chaser = side if rng.random() < 0.7 else ("b" if side == "w" else "w")
    other = "b" if chaser == "w" else "w"
    theirs = tours(board, other, k[other], rng)
    ours = tours(board, chaser, k[chaser], rng)
    if not theirs or not ours:
        return None
    rng.shuffle(theirs)
    rng.shuffle(ours)
    if rng.random() < 0.15:
        return {chaser: ours[0], other: theirs[0]}
    plies = 2 * max(kr, kb)
    # Tours whose first move is active in the start position are the likely chases.
    lively = []
    for o in ours[:20]:
        hit = newly(board, chaser, o[0])
        if hit:
            lively.append((o, hit))
    full, some, any_ = [], [], []
    for o, hit in lively[:6] + [(o, set()) for o in ours[:2]]:
        # The chased piece running away and back is how a chase repeats.
        runs = [t for t in theirs if sq(t[0], 0) in hit]
        for t in runs[:6] + theirs[:3]:
            r = interleave(board, side, {chaser: o, other: t}, chaser, plies)
            if r is None:
                continue
            pair = {chaser: o, other: t}
            any_.append(pair)
            if r[2]:
                full.append(pair)
            elif r[1] > 0:
                some.append(pair)
        if full:
            break
    for group, p in ((full, 0.8), (some, 0.7), (any_, 1.0)):
        if group and rng.random() < p:
            return rng.choice(group)
    return None


def play_cycle(fen, tr, tb):
    """Plays the tours in turn until a position occurs a third time; None if a move is
    illegal or captures."""
    board, side = parse(fen)
    seen = Counter([write(board, side)])
    moves = []
    idx = {"w": 0, "b": 0}
    while len(moves) < MAX_PLIES:
        tour = tr if side == "w" else tb
        m = tour[idx[side] % len(tour)]
        idx[side] += 1
        if sq(m, 1) in board or not is_legal(board, side, m):
            return None
        moves.append(m)
        board = apply(board, m)
        side = "b" if side == "w" else "w"
        key = write(board, side)
        seen[key] += 1
        if seen[key] == 3:
            return moves
    return None


def make_cycle(i, seed, lines):
    rng = random.Random(seed * 1_000_003 + i)
    for _ in range(50):
        fen = middlegame(rng, lines)
        board, side = parse(fen)
        pair = pick_cycle(board, side, rng)
        if pair is None:
            continue
        moves = play_cycle(fen, pair["w"], pair["b"])
        if moves is None:
            continue
        return fen, moves
    return None


# ---- step 4: both judges ----

def pyffish_ruling(fen, moves):
    end, value = sf.is_optional_game_end(VARIANT, fen, [to_sf(m) for m in moves])
    if not end:
        return "none"
    if value == 0:
        return "draw"
    stm_red = (fen.split()[1] == "w") == (len(moves) % 2 == 0)
    stm_wins = value > 0
    return "black_loses" if stm_wins == stm_red else "red_loses"


def our_ruling(engine, fen, moves):
    p = subprocess.run(
        [engine, "judge", "--fen", fen, "--moves", " ".join(moves), "--rules", "axf", "--json"],
        capture_output=True, text=True, timeout=60,
    )
    if p.returncode != 0:
        return "error", {"stderr": p.stderr.strip()}
    j = json.loads(p.stdout)
    if j.get("ruled_at") not in (None, len(moves)):
        # Ruled earlier than the end: not the position pyffish judges.
        return "early", j
    v = j["verdict"]
    return (v if v in ("red_loses", "black_loses", "draw") else "none"), j


def line_beyond(board, fr, to, hurdles):
    """The piece a rook (hurdles=0) or cannon (hurdles=1) on `to`, having come along a line
    from `fr`, sees beyond `fr` (the square it left), if any."""
    df = (fr[0] > to[0]) - (fr[0] < to[0])
    dr = (fr[1] > to[1]) - (fr[1] < to[1])
    s, seen = (fr[0] + df, fr[1] + dr), 0
    while on_board(*s):
        if s in board:
            if seen == hurdles:
                return s
            seen += 1
        s = (s[0] + df, s[1] + dr)
    return None


def tags(fen, moves, theirs):
    """Known classes of a disagreement (see the findings above). `self_discovery`: the side
    pyffish rules against moves a rook or cannon back along a line while an enemy piece
    stands on that line beyond the square it left (the piece was attacked before the move
    too)."""
    out = []
    loser = {"red_loses": "w", "black_loses": "b"}.get(theirs)
    board, side = parse(fen)
    for m in moves:
        fr, to = sq(m, 0), sq(m, 1)
        p = board.get(fr, "")
        if side == loser and p.lower() in ("r", "c") and (fr[0] == to[0] or fr[1] == to[1]):
            seen = line_beyond(board, fr, to, 0 if p.lower() == "r" else 1)
            if seen is not None and red(board[seen]) != red(p) and board[seen].lower() != "k":
                out.append("self_discovery")
                break
        board = apply(board, m)
        side = "b" if side == "w" else "w"
    return out


def natures(j):
    out = []
    for m in j.get("moves", []):
        if m.get("in_cycle"):
            out.append(f"{m['move']}={m['class']}:" + json.dumps(m["natures"], ensure_ascii=False,
                                                                  separators=(",", ":")))
    return out


def work(task):
    i, seed, engine = task
    c = make_cycle(i, seed, LINES)
    if c is None:
        return i, None
    fen, moves = c
    theirs = pyffish_ruling(fen, moves)
    ours, j = our_ruling(engine, fen, moves)
    rec = {"i": i, "fen": fen, "moves": " ".join(moves), "pyffish": theirs, "ours": ours}
    if ours != theirs:
        rec.update(clause=j.get("clause"), patterns=j.get("patterns"), natures=natures(j),
                   stderr=j.get("stderr"), tags=tags(fen, moves, theirs))
    return i, rec


LINES = openings()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="index of the first cycle (to split a run)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", default="axf_disagreements.jsonl")
    ap.add_argument("--engine", default=ENGINE)
    ap.add_argument("--only", type=int, help="judge only cycle I (prints it)")
    a = ap.parse_args()
    if a.cycles < 1 or a.jobs < 1 or a.first < 0:
        print("--cycles and --jobs must be positive, --first not negative", file=sys.stderr)
        return 2
    if not os.access(a.engine, os.X_OK):
        print(f"no engine at {a.engine} (cargo build --release)", file=sys.stderr)
        return 2
    if a.only is not None:
        _, rec = work((a.only, a.seed, a.engine))
        print(json.dumps(rec, ensure_ascii=False, indent=1))
        return 0
    tasks = [(i, a.seed, a.engine) for i in range(a.first, a.first + a.cycles)]
    agree = judged = decided = decided_agree = 0
    kinds = Counter()
    classes = Counter()
    rulings = Counter()
    with open(a.out, "w") as out, Pool(a.jobs) as pool:
        for n, (i, rec) in enumerate(pool.imap(work, tasks, chunksize=8), 1):
            if rec is None:
                kinds["no cycle"] += 1
                continue
            judged += 1
            rulings[rec["pyffish"]] += 1
            decisive = rec["pyffish"] != "draw" or rec["ours"] != "draw"
            decided += decisive
            if rec["ours"] == rec["pyffish"]:
                agree += 1
                decided_agree += decisive
            else:
                kinds[f"pyffish {rec['pyffish']} / ours {rec['ours']}"] += 1
                for t in rec["tags"] or ["untagged"]:
                    classes[t] += 1
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                out.flush()
            if n % 1000 == 0:
                print(f"{n} cycles: {agree}/{judged} agree", file=sys.stderr)
    print(f"cycles judged: {judged} (seed {a.seed}, cycles {a.first}..{a.first + a.cycles - 1})")
    print("pyffish rulings: " + ", ".join(f"{k} {v}" for k, v in sorted(rulings.items())))
    print(f"agreement: {agree}/{judged} = {100.0 * agree / max(judged, 1):.2f}%")
    print(f"where either rules a loss: {decided_agree}/{decided} agree")
    for k, v in kinds.most_common():
        print(f"  {k}: {v}")
    for k, v in classes.most_common():
        print(f"  class {k}: {v}")
    print(f"disagreements written to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
