#!/usr/bin/env python3
"""compare_csv.py NAME BEFORE.csv AFTER.csv: per-stage medians of two strata
timing CSVs (strata-cli bench --csv) side by side, with the ratio; stages
whose median moved by more than 2% (and 0.01 ms) are marked, and launch
counts that differ are listed."""
import csv
import statistics
import sys


def columns(path):
    with open(path) as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    cols = {}
    for k, name in enumerate(head):
        if name in cols:  # a repeated header keeps its first column
            continue
        try:
            cols[name] = [float(r[k]) for r in body]
        except ValueError:
            pass
    return cols


def main():
    name, a_path, b_path = sys.argv[1:4]
    a, b = columns(a_path), columns(b_path)
    print(f"{name}: {len(next(iter(a.values())))} / {len(next(iter(b.values())))} frames")
    moved = 0
    for key in a:
        if not key.endswith("_ms") or key not in b:
            continue
        ma, mb = statistics.median(a[key]), statistics.median(b[key])
        if ma == 0 and mb == 0:
            continue
        ratio = mb / ma if ma > 0 else float("inf")
        mark = " *" if abs(ratio - 1) > 0.02 and abs(mb - ma) > 0.01 else ""
        moved += bool(mark)
        print(f"  {key:26s} {ma:9.3f} {mb:9.3f}  {ratio:6.3f}{mark}")
    for key in a:
        if key.endswith("launches") and key in b:
            la, lb = statistics.median(a[key]), statistics.median(b[key])
            if la != lb:
                print(f"  {key:26s} launches {la:.0f} -> {lb:.0f}")
    missing = sorted(set(a) ^ set(b))
    if missing:
        print(f"  columns in one file only: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
