#!/usr/bin/env python3
"""compare_registers.py BEFORE.txt AFTER.txt: registers (and stack, shared
memory) per kernel from two `cuobjdump --dump-resource-usage` listings; prints
every kernel whose usage differs, kernels in one listing only, and a count of
the unchanged."""
import re
import sys

FUNC = re.compile(r"Function (\S+):")
# A kernel in an anonymous namespace carries a hash of its translation unit's
# build (_GLOBAL__N__7a458258_9_kd_gpu_cu_78394668): the same kernel, two names.
ANON = re.compile(r"\d+_GLOBAL__N__[0-9a-f]+_\d+_\w+?_[0-9a-f]{8}")
RES = re.compile(r"REG:(\d+) STACK:(\d+) SHARED:(\d+)")


def kernels(path):
    out, name = {}, None
    for line in open(path, errors="replace"):
        m = FUNC.search(line)
        if m:
            name = ANON.sub("ANON", m.group(1))
            continue
        r = RES.search(line)
        if r and name:
            out[name] = tuple(int(x) for x in r.groups())
            name = None
    return out


def main():
    a, b = kernels(sys.argv[1]), kernels(sys.argv[2])
    same = 0
    for k in sorted(set(a) & set(b)):
        if a[k] == b[k]:
            same += 1
        else:
            print(f"  changed {k}: REG/STACK/SHARED {a[k]} -> {b[k]}")
    for k in sorted(set(a) - set(b)):
        print(f"  before only {k}: {a[k]}")
    for k in sorted(set(b) - set(a)):
        print(f"  after only {k}: {b[k]}")
    print(f"  {same} kernels unchanged, {len(a)} before, {len(b)} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
