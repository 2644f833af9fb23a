#!/usr/bin/env python3
# Usage: python3 scripts/ccpd_replay.py FILE.pgn ... (Big5 CCPD files; needs pyffish).
"""Replays a CCPD game with pyffish as the only judge of legality: each Chinese move is
matched against pyffish's legal moves, described in the same notation by this script, to
judge independently whether the file or our move generator is wrong."""
import re, sys, pyffish as sf
PIECE = {'車':'R','俥':'R','馬':'H','傌':'H','炮':'C','砲':'C','包':'C','相':'E','象':'E',
         '仕':'A','士':'A','帥':'K','將':'K','将':'K','兵':'P','卒':'P'}
NUM = {c:i+1 for i,c in enumerate('一二三四五六七八九')}
NUM.update({c:i+1 for i,c in enumerate('１２３４５６７８９')})
NUM.update({c:i+1 for i,c in enumerate('123456789')})
ACT = {'進':'+','退':'-','平':'='}
def tokens(text):
    body = re.sub(r'\[[^\]]*\]', '', text)
    body = re.sub(r'\{[^}]*\}', '', body)
    return [t for t in body.split() if not re.match(r'^\d+\.$', t) and t not in ('*','1-0','0-1','1/2-1/2')]
def sq(s):
    return ord(s[0]) - 97, int(s[1:]) - 1   # file 0..8 from a, rank 0..9 from red's side
def board(fen):
    rows = fen.split()[0].split('/')
    b = {}
    for r, row in enumerate(rows):
        f = 0
        for c in row:
            if c.isdigit(): f += int(c)
            else: b[(f, 9 - r)] = c; f += 1
    return b
def describe(fen, m):
    """(piece, origin file number, action, number) as Chinese notation counts for the mover."""
    b = board(fen); red = fen.split()[1] == 'w'
    a, b2 = re.match(r'([a-i]\d+)([a-i]\d+)', m).groups()
    (f0, r0), (f1, r1) = sq(a), sq(b2)
    p = b[(f0, r0)].upper(); p = {'N':'H','B':'E'}.get(p, p)
    num = (lambda f: 9 - f) if red else (lambda f: f + 1)
    fwd = (r1 - r0) if red else (r0 - r1)
    act = '=' if r1 == r0 else ('+' if fwd > 0 else '-')
    n = num(f1) if act == '=' or p in 'HEA' else abs(r1 - r0)
    return p, num(f0), act, n, r0
def replay(path):
    text = open(path, 'rb').read().decode('big5', errors='replace')
    start = re.search(r'\[FEN "([^"]*)"\]', text).group(1)
    moves = []
    for ply, t in enumerate(tokens(text), 1):
        fen = sf.get_fen('xiangqi', start, moves)
        red = fen.split()[1] == 'w'
        legal = {m: describe(fen, m) for m in sf.legal_moves('xiangqi', start, moves)}
        if t[0] in '前後中':
            p, act, n = PIECE[t[1]], ACT[t[2]], NUM[t[3]]
            c = sorted([m for m, d in legal.items() if (d[0], d[2], d[3]) == (p, act, n)],
                       key=lambda m: legal[m][4], reverse=red)
            found = c[:1] if t[0] == '前' else c[-1:]
        else:
            want = (PIECE[t[0]], NUM[t[1]], ACT[t[2]], NUM[t[3]])
            found = [m for m, d in legal.items() if d[:4] == want]
        if len(found) != 1:
            print(f'{path}: ply {ply} {t}: pyffish has {len(found)} legal move(s) for it')
            print('  position:', fen)
            print('  pyffish legal moves:', ' '.join(sorted(legal)))
            return
        moves.append(found[0])
    print(f'{path}: all {len(moves)} plies legal for pyffish')
for p in sys.argv[1:]:
    replay(p)
