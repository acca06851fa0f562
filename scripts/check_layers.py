#!/usr/bin/env python3
"""check_layers.py [SRC]: fails when a file in src/ includes a layer above
its own (issue 19). The layers, lowest first; a layer may include its own
files and those of lower layers only (gpu and scene are siblings: neither
includes the other):

    core            plain types, options, I/O helpers
    gpu, scene      CUDA plumbing; scene loading and generators
    accel           acceleration structures, built from plain inputs
    render          backends, integrator, frame schedule
    check           validation shared by the CLI's commands and the tests
    cli, app        front ends

Prints each upward include as FILE:LINE and exits 1, or prints the count of
includes checked and exits 0."""
import os
import re
import sys

RANK = {"core": 0, "gpu": 1, "scene": 1, "accel": 2, "render": 3, "check": 4, "cli": 5, "app": 5}
INCLUDE = re.compile(r'\s*#\s*include\s+"([a-z_]+)/')


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "src")
    bad, checked = [], 0
    for root, _, files in os.walk(src):
        for name in sorted(files):
            path = os.path.join(root, name)
            layer = os.path.relpath(path, src).split(os.sep)[0]
            if layer not in RANK:
                continue
            with open(path, errors="replace") as f:
                for number, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m or m.group(1) not in RANK:
                        continue
                    checked += 1
                    other = m.group(1)
                    if other != layer and RANK[other] >= RANK[layer]:
                        bad.append(f"{os.path.relpath(path, src)}:{number}: {layer}/ includes {other}/ "
                                   f"(a layer may include only lower layers)")
    for b in bad:
        print(b)
    if bad:
        print(f"check_layers: {len(bad)} upward include(s)")
        return 1
    print(f"check_layers: {checked} strata includes checked, none upward")
    return 0


if __name__ == "__main__":
    sys.exit(main())
