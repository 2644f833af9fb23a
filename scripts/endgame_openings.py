#!/usr/bin/env python3
"""Endgame openings from recorded games, for matches that test the endgame tables.

    scripts/endgame_openings.py [--max-pieces 6,8,10] [--delay 2] GAMES.pgn... > endings.txt

Reads PGN games with ICCS moves (`H2-E2` or `h2e2`, as `jiangjun match --pgn` and `jiangjun
pgn convert --to iccs` write them) and prints, one FEN a line, the position of each game
`--delay` plies after the first moment its pieces besides the two generals number at most N
(for each N of `--max-pieces`), if the game goes on that long and some rook, horse, cannon or
pawn is still on the board and the game went on from there (so no position is already
decided). The delay lets a pending recapture happen. Duplicates are
printed once, in the order found. The games are trusted to be legal: pieces are moved, not
checked.
"""
import argparse
import re
import sys

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
MOVE = re.compile(r"\b([a-iA-I])(\d)-?([a-iA-I])(\d)\b")


def read_fen(fen):
    """The board as {(file, rank): letter} (rank 0 is Red's back rank) and the side to move."""
    fields = fen.split()
    board = {}
    for r, row in enumerate(fields[0].split("/")):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            else:
                board[(x, 9 - r)] = ch
                x += 1
    return board, fields[1] if len(fields) > 1 else "w"


def write_fen(board, side):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for x in range(9):
            p = board.get((x, rank))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {side} - - 0 1"


def ending(board, side, moves, max_pieces, delay):
    """The position `delay` plies after the pieces first number at most `max_pieces`."""
    left = None
    for i, (f1, r1, f2, r2) in enumerate(moves):
        src = (ord(f1.lower()) - 97, int(r1))
        if src not in board:
            return None  # not a game this reader can follow
        board[(ord(f2.lower()) - 97, int(r2))] = board.pop(src)
        side = "b" if side == "w" else "w"
        others = [p for p in board.values() if p not in "kK"]
        if left is None and len(others) <= max_pieces:
            left = delay
        if left is not None:
            if left == 0:
                # A position the game went on from: not mate, stalemate or the end.
                going_on = i + 1 < len(moves)
                attackers = any(p.lower() in "rnchp" for p in others)
                return write_fen(board, side) if attackers and going_on else None
            left -= 1
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-pieces", default="6,8,10")
    ap.add_argument("--delay", type=int, default=2)
    ap.add_argument("games", nargs="+")
    a = ap.parse_args()
    limits = [int(x) for x in a.max_pieces.split(",")]
    seen = set()
    for path in a.games:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for game in re.split(r"(?m)^\[Event ", text)[1:]:
            fen = re.search(r'\[FEN "([^"]+)"\]', game)
            body = re.sub(r"(?m)^\[.*\]\s*$", "", game.split("\n", 1)[-1])
            body = re.sub(r"\{[^}]*\}", "", body)
            moves = MOVE.findall(body)
            for n in limits:
                board, side = read_fen(fen.group(1) if fen else START)
                found = ending(board, side, moves, n, a.delay)
                if found and found not in seen:
                    seen.add(found)
                    print(found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
