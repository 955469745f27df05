#!/usr/bin/env python3
"""agg.py VMLINUX A.out [B.out]: guest instructions per kernel function
(from insnprof), or B minus A per function, largest first."""
import bisect, subprocess, sys, collections
def syms(vmlinux):
    out = subprocess.run(['arm-linux-gnueabihf-nm', '-n', vmlinux], capture_output=True, text=True).stdout
    a, n = [], []
    for l in out.splitlines():
        p = l.split()
        if len(p) == 3 and p[1] in 'tTwW':
            a.append(int(p[0], 16)); n.append(p[2])
    return a, n
def load(path, a, n):
    c = collections.Counter()
    for l in open(path):
        va, ni, cnt = l.split()
        va = int(va, 16)
        i = bisect.bisect_right(a, va) - 1
        name = n[i] if i >= 0 and va - a[i] < 0x10000 else hex(va & ~0xfff)
        c[name] += int(ni) * int(cnt)
    return c
a, n = syms(sys.argv[1])
A = load(sys.argv[2], a, n)
if len(sys.argv) > 3:
    B = load(sys.argv[3], a, n)
    d = collections.Counter({k: B[k] - A[k] for k in set(A) | set(B)})
    print('total A %d B %d diff %d' % (sum(A.values()), sum(B.values()), sum(B.values()) - sum(A.values())))
    for k, v in sorted(d.items(), key=lambda kv: -abs(kv[1]))[:int(sys.argv[4]) if len(sys.argv) > 4 else 40]:
        print('%14d %14d %14d  %s' % (v, A[k], B[k], k))
else:
    print('total %d' % sum(A.values()))
    for k, v in A.most_common(40):
        print('%14d  %s' % (v, k))
