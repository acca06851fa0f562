#!/usr/bin/env python3
"""csv_medians.py FILE [SKIP]: medians of every *_ms column of a strata
timing CSV (strata --record, strata-cli --timings/--csv), skipping the first
SKIP rows (warm-up, default 20)."""
import csv
import statistics
import sys


def main():
    path = sys.argv[1]
    skip = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rows = list(csv.DictReader(open(path)))[skip:]
    if not rows:
        print(f"{path}: no rows after {skip} warm-up rows")
        return 1
    print(f"{path}: {len(rows)} frames (medians)")
    for key in rows[0]:
        if key.endswith("_ms"):
            print(f"  {key:24s} {statistics.median(float(r[key]) for r in rows):9.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
