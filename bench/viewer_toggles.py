#!/usr/bin/env python3
"""Live toggles in the viewer (issue 3): the --at list for one recorded run,
and the analysis of its CSV.

  bench/viewer_toggles.py args SEGMENT        print the viewer's --at arguments
  bench/viewer_toggles.py check FILE.csv SEGMENT [WARMUP]

Every SEGMENT frames one more option changes, live, the way the panel changes
it. `check` takes the medians of each segment (after WARMUP frames) and says
for each change what it did to the recorded structure (launches) or timings
(build, trace, frame, and each build and trace sub-stage); a change that
moves none of them by more than 3% (and 5 microseconds) is listed as
"below 3%" and makes the check exit 1.
"""
import csv
import statistics
import sys

# (label, assignments applied at the segment's first frame)
TOGGLES = [
    ("start: lbvh-karras, stack, flat", ["accel.builder=lbvh-karras"]),
    ("builder lbvh-apetrei", ["accel.builder=lbvh-apetrei"]),
    ("builder lbvh-skip", ["accel.builder=lbvh-skip"]),
    ("traversal stackless", ["accel.traversal=stackless"]),
    ("mode instanced", ["accel.mode=instanced"]),
    ("mode flat, traversal stack", ["accel.mode=flat", "accel.traversal=stack"]),
    ("builder kdtree, Original", ["accel.kd_opts=none", "accel.builder=kdtree"]),
    ("[A] on", ["accel.kd_a=true"]),
    ("[B] on", ["accel.kd_b=true"]),
    # [D] before [C]: [D]'s shuffle reductions replace the shared-memory ones
    # in the chunk boxes and in Original's six segmented reductions, which
    # [C]'s atomics remove.
    ("[D] on", ["accel.kd_d=true"]),
    ("[C] on", ["accel.kd_c=true"]),
    ("[E] on", ["accel.kd_e=true"]),
    ("kd_lookahead on (strata's)", ["accel.kd_lookahead=true"]),
    ("kd_sns_compact on (strata's)", ["accel.kd_sns_compact=true"]),
    ("builder lbvh-karras", ["accel.builder=lbvh-karras"]),
    ("morton bits 30", ["accel.morton_bits=30"]),
    ("spp 2", ["render.spp=2"]),
    ("bounces 1", ["render.bounces=1"]),
    ("NEE off", ["render.nee=false"]),
]


def at_args(segment):
    out = []
    for i, (_, sets) in enumerate(TOGGLES):
        for s in sets:
            out += ["--at", f"{i * segment}:{s}"]
    return out


def check(path, segment, warmup):
    rows = list(csv.DictReader(open(path)))
    cols = ["launches", "build_ms", "trace_ms", "total_ms"]
    cols += [c for c in rows[0] if c.endswith("_ms") and "/" in c and c.split("/")[0] in ("build", "trace")]
    print(f"| change (frame) | launches | build ms | trace ms | frame ms | what moved |")
    print(f"| --- | ---: | ---: | ---: | ---: | --- |")
    prev, failures = None, 0
    for i, (label, _) in enumerate(TOGGLES):
        seg = [r for r in rows if i * segment + warmup <= int(r["frame"]) < (i + 1) * segment]
        if not seg:
            print(f"| {label} | (no rows) |")
            failures += 1
            continue
        med = {c: statistics.median(float(r[c]) for r in seg) for c in cols}
        moved = []
        if prev:
            if med["launches"] != prev["launches"]:
                moved.append(f"launches {prev['launches']:.0f}→{med['launches']:.0f}")
            for c in cols[1:]:
                if prev[c] > 0 and abs(med[c] - prev[c]) > max(0.03 * prev[c], 0.005):
                    moved.append(f"{c[:-3]} {100 * (med[c] / prev[c] - 1):+.0f}%")
            if not moved:
                failures += 1
                near = max(cols[1:], key=lambda c: abs(med[c] - prev[c]) / prev[c] if prev[c] > 0 else 0)
                moved = [f"below 3% (largest: {near[:-3]} {100 * (med[near] / prev[near] - 1):+.1f}%)"]
        print(f"| {label} ({i * segment}) | {med['launches']:.0f} | {med['build_ms']:.3f} | {med['trace_ms']:.3f} | "
              f"{med['total_ms']:.3f} | {', '.join(moved) if prev else '—'} |")
        prev = med
    print(f"{len(TOGGLES) - 1} live changes, {failures} without a visible effect")
    return failures == 0


if __name__ == "__main__":
    if sys.argv[1] == "args":
        print(" ".join(at_args(int(sys.argv[2]))))
    elif sys.argv[1] == "check":
        ok = check(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) > 4 else 10)
        sys.exit(0 if ok else 1)
    else:
        sys.exit(__doc__)
