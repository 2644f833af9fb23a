#!/usr/bin/env python3
"""Write the weights of a `jiangjun tune` output (a Rust `Debug` dump of `Weights`) into
src/search/eval/weights.rs, keeping that file's layout and comments: the piece-square
constants are rewritten row by row and each number of `Weights::DEFAULT` in place.

Usage: scripts/apply_weights.py TUNED.txt src/search/eval/weights.rs   (then `cargo fmt`)
"""
import json, re, sys
if len(sys.argv) != 3:
    sys.exit(__doc__)
dump, rs = sys.argv[1], sys.argv[2]
t = open(dump).read()
t = t[t.index('Weights'):]
t = re.sub(r'\b(Weights|Pair)\s*\{', '{', t)
t = re.sub(r'(\w+):', r'"\1":', t)
t = re.sub(r',(\s*[\]}])', r'\1', t)
w = json.loads(t)
s = open(rs).read()
kinds = ['KING', 'ADVISOR', 'ELEPHANT', 'HORSE', 'ROOK', 'CANNON', 'PAWN']
for phase, key in (('MG', 'pst_mg'), ('EG', 'pst_eg')):
    for k, name in enumerate(kinds):
        table = w[key][k]
        # A row of zeros (points the piece never stands on) is written `[0; 5]`, as by hand.
        body = '\n'.join('    [0; 5],' if not any(row) else
                         '    [' + ', '.join(str(v) for v in row) + '],' for row in table)
        s, n = re.subn(r'(const %s_%s: HalfTable = \[\n)(.*?)(\n\];)' % (name, phase),
                       lambda m: m.group(1) + body + m.group(3), s, flags=re.S)
        assert n == 1, name
start = s.index('pub const DEFAULT: Weights = Weights {')
end = s.index('\n    };', start)
d = s[start:end]
def pair(p): return 'p(%d, %d)' % (p['mg'], p['eg'])
# material lines in order
mat = iter(w['material'])
d = re.sub(r'p\(-?\d+, -?\d+\)(,\s*// (king|advisor|elephant|horse|rook|cannon|pawn))',
           lambda m: pair(next(mat)) + m.group(1), d)
hm = iter(w['horse_mobility'])
hs = d.index('horse_mobility: ['); he = d.index('],', hs)
d = d[:hs] + re.sub(r'p\(-?\d+, -?\d+\)', lambda m: pair(next(hm)), d[hs:he]) + d[he:]
d = re.sub(r'ks_attackers: \[[^\]]*\]', 'ks_attackers: [' + ', '.join(map(str, w['ks_attackers'])) + ']', d)
for key, val in w.items():
    if isinstance(val, dict):
        d, n = re.subn(r'(\n\s*%s: )p\(-?\d+, -?\d+\)' % key, lambda m: m.group(1) + pair(val), d)
        assert n == 1, key
    elif isinstance(val, int):
        d, n = re.subn(r'(\n\s*%s: )-?\d+,' % key, lambda m: m.group(1) + str(val) + ',', d)
        assert n == 1, key
s = s[:start] + d + s[end:]
open(rs, 'w').write(s)
