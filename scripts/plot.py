#!/usr/bin/env python3
"""plot.py FILE.csv -o FIG.png|FIG.svg [--stages a,b] [--kind stages|build-trace|mrays] [--title T]

Figures from strata's CSV files (matplotlib, Debian's python3-matplotlib):

  * a timing file (one row per frame: `strata --record`, `strata-cli bench
    --csv`, `render --timings`): each stage's time stacked over the frames,
    with a marker and a label at every frame where an option changed (the
    option columns, e.g. accel.builder, accel.kd_a); --stages picks the stages
    (default: the top-level ones, build, trace, shade, ...);
  * a kd-tree table (`strata-cli kdtable --csv`): Table 13.2-style bars per
    variant and scene: build (wall), the sum of kernel times where measured,
    and R.
  * a sweep (`strata-cli sweep --out FILE.csv`, shards merged), by --kind:
    stages (default): one bar per validated cell (scene and the varied
    options), its stages' medians stacked (--stages picks them; default the
    top-level ones), the frame's p95 marked; build-trace: each cell's build
    median against its trace median, one marker per builder (accel.builder),
    one colour per scene; mrays: Mrays/s per scene, a bar per option set.
    Failed and refused cells are left out and counted in the title.

The format of the figure follows the extension of -o (.png or .svg). The
figure is written to a temporary name and renamed: a failed run leaves no
file. Exit status: 0 done, 1 bad input (named with its line), 2 usage.
"""
import argparse
import csv
import os
import sys

FORMATS = (".png", ".svg")


class InputError(Exception):
    pass


def read_rows(path):
    try:
        with open(path, newline="") as f:
            first = 1  # a sweep's "# key: value" metadata lines come before the header
            while f.read(1) == "#":
                f.readline()
                first += 1
            f.seek(0)
            for _ in range(first - 1):
                f.readline()
            reader = csv.reader(f)
            header = next(reader, None)
            if not header:
                raise InputError(f"{path}: empty file (expected a CSV header)")
            rows = []
            for line, values in enumerate(reader, start=first + 1):
                if not values:
                    continue
                if len(values) != len(header):
                    raise InputError(f"{path}:{line}: {len(values)} fields, the header has {len(header)}")
                rows.append((line, dict(zip(header, values))))
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file") from None
    return header, rows


def number(path, line, key, text):
    try:
        return float(text)
    except ValueError:
        raise InputError(f"{path}:{line}: column {key}: '{text}' is not a number") from None


def top_level_stages(header):
    return [k[:-3] for k in header if k.endswith("_ms") and "/" not in k and k != "total_ms"]


def plot_timings(path, header, rows, stages, ax):
    known = [k[:-3] for k in header if k.endswith("_ms")]
    if stages:
        for s in stages:
            if s not in known:
                raise InputError(f"--stages: {path} has no stage '{s}' (it has {', '.join(known)})")
    else:
        stages = top_level_stages(header)
    frames = [number(path, line, "frame", r["frame"]) for line, r in rows]
    series = [[number(path, line, s + "_ms", r[s + "_ms"]) for line, r in rows] for s in stages]
    # Keep the stages that took time somewhere (a flat scene has no vd stage).
    kept = [(s, v) for s, v in zip(stages, series) if any(x > 0 for x in v)] or list(zip(stages, series))
    ax.stackplot(frames, [v for _, v in kept], labels=[s for s, _ in kept], alpha=0.85)
    ax.set_xlabel("frame")
    ax.set_ylabel("time per frame (ms)")
    ax.set_xlim(frames[0], frames[-1] if len(frames) > 1 else frames[0] + 1)
    ax.legend(loc="upper left", fontsize="small", ncol=min(len(kept), 4))
    # A marker where an option changed between two frames.
    options = [k for k in header if "." in k]
    for (_, prev), (_, cur) in zip(rows, rows[1:]):
        changed = [f"{k}={cur[k]}" for k in options if cur[k] != prev[k]]
        if changed:
            x = number(path, 0, "frame", cur["frame"])
            ax.axvline(x, color="black", linewidth=0.8, linestyle="--")
            label = ", ".join(changed[:2]) + (f" (+{len(changed) - 2})" if len(changed) > 2 else "")
            ax.annotate(label, (x, 1.0), xycoords=("data", "axes fraction"), rotation=90, fontsize="x-small",
                        va="top", ha="right")


def plot_kdtable(path, rows, ax):
    import numpy as np

    labels = [f"{r['variant']}\n{os.path.splitext(os.path.basename(r['scene']))[0]}" for _, r in rows]
    quantities = [("build_ms", "build (wall)"), ("kernel_ms", "kernel sum"), ("r_ms", "R")]
    x = np.arange(len(rows))
    width = 0.8 / len(quantities)
    for i, (key, name) in enumerate(quantities):
        values = [number(path, line, key, r[key]) for line, r in rows]
        values = [v if v >= 0 else 0.0 for v in values]  # kernel_ms -1: not measured
        ax.bar(x + (i - 1) * width, values, width, label=name)
    ax.set_xticks(x)
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize="x-small")
    ax.set_ylabel("ms")
    ax.legend(fontsize="small")


def plot_sweep(path, header, rows, stages, ax):
    import numpy as np

    varied, ok = sweep_cells(path, header, rows)
    known = [k[:-len("_median_ms")] for k in header if k.endswith("_median_ms") and k != "total_median_ms"]
    if stages:
        for st in stages:
            if st not in known:
                raise InputError(f"--stages: {path} has no stage '{st}' (it has {', '.join(known)})")
    else:
        stages = [k for k in known if "/" not in k]
    labels = [" ".join([os.path.splitext(os.path.basename(r["scene"]))[0]] + [r[k] for k in varied]) for _, r in ok]
    y = np.arange(len(ok))
    left = np.zeros(len(ok))
    for st in stages:
        v = np.array([number(path, line, st + "_median_ms", r[st + "_median_ms"]) for line, r in ok])
        if not v.any():
            continue  # a stage no cell ran (vd without patches)
        ax.barh(y, v, left=left, label=st)
        left += v
    p95 = [number(path, line, "total_p95_ms", r["total_p95_ms"]) for line, r in ok]
    ax.plot(p95, y, "k|", markersize=8, label="frame p95")
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize="x-small")
    ax.invert_yaxis()
    ax.set_xlabel("median time per frame (ms)")
    ax.legend(fontsize="small", loc="lower right")
    return len(rows) - len(ok)


def sweep_cells(path, header, rows):
    varied = header[header.index("scene") + 1:header.index("backend")]
    ok = [(line, r) for line, r in rows if r["status"] == "ok"]
    if not ok:
        raise InputError(f"{path}: no cell was validated and timed (status ok)")
    return varied, ok


def scene_name(r):
    return os.path.splitext(os.path.basename(r["scene"]))[0]


def plot_sweep_build_trace(path, header, rows, ax):
    varied, ok = sweep_cells(path, header, rows)
    builder = "accel.builder"
    scenes = sorted({scene_name(r) for _, r in ok})
    builders = sorted({r.get(builder, "") for _, r in ok})
    markers = "os^Dv<>pP*Xh"
    colours = [f"C{i % 10}" for i in range(len(scenes))]
    for bi, b in enumerate(builders):
        for si, sc in enumerate(scenes):
            pts = [(number(path, line, "build_median_ms", r["build_median_ms"]),
                    number(path, line, "trace_median_ms", r["trace_median_ms"]))
                   for line, r in ok if r.get(builder, "") == b and scene_name(r) == sc]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=markers[bi % len(markers)],
                           color=colours[si], label=f"{b or 'cells'} · {sc}", alpha=0.8)
    ax.set_xlabel("build, median per frame (ms)")
    ax.set_ylabel("trace, median per frame (ms)")
    ax.legend(fontsize="x-small", ncol=2)
    return len(rows) - len(ok)


def plot_sweep_mrays(path, header, rows, ax):
    import numpy as np

    varied, ok = sweep_cells(path, header, rows)
    scenes = list(dict.fromkeys(scene_name(r) for _, r in ok))
    sets = list(dict.fromkeys(" ".join(r[k] for k in varied) for _, r in ok))
    value = {(scene_name(r), " ".join(r[k] for k in varied)): number(path, line, "mrays_per_s", r["mrays_per_s"])
             for line, r in ok}
    x = np.arange(len(scenes))
    width = 0.8 / max(1, len(sets))
    for i, label in enumerate(sets):
        ax.bar(x + (i - (len(sets) - 1) / 2) * width, [value.get((sc, label), 0.0) for sc in scenes], width,
               label=label or "cells")
    ax.set_xticks(x)
    ax.set_xticklabels(scenes, fontsize="small")
    ax.set_ylabel("Mrays/s (closest-hit and shadow rays over the frame's GPU time)")
    ax.legend(fontsize="x-small", ncol=2)
    return len(rows) - len(ok)


def main(argv):
    p = argparse.ArgumentParser(description="Figures from strata's CSV files (timings, sweep, kdtable).")
    p.add_argument("csv", help="a timing CSV (strata --record, strata-cli bench --csv), a sweep CSV or a kdtable CSV")
    p.add_argument("-o", "--out", required=True, help="the figure: .png or .svg")
    p.add_argument("--stages", help="comma-separated stages of a timing or sweep file (default: the top-level ones)")
    p.add_argument("--title", help="figure title (default: the CSV's name)")
    p.add_argument("--kind", choices=("stages", "build-trace", "mrays"), default="stages",
                   help="a sweep's figure: stages per cell (default), build against trace, Mrays/s per scene")
    a = p.parse_args(argv)
    ext = os.path.splitext(a.out)[1].lower()
    if ext not in FORMATS:
        p.error(f"-o {a.out}: the extension names the format: {' or '.join(FORMATS)}")
    try:
        header, rows = read_rows(a.csv)
        if not rows:
            raise InputError(f"{a.csv}: no rows after the header")
        if "frame" in header and any(k.endswith("_ms") for k in header):
            kind = "timings"
        elif {"cell", "scene", "status", "backend", "total_median_ms"} <= set(header):
            kind = "sweep"
        elif {"variant", "build_ms", "r_ms"} <= set(header):
            kind = "kdtable"
        else:
            raise InputError(f"{a.csv}:1: neither a timing file (frame and *_ms columns), a sweep file (cell, "
                             "scene, status, *_median_ms) nor a kdtable file (variant, build_ms, r_ms)")
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        title = a.title or os.path.basename(a.csv)
        stages = a.stages.split(",") if a.stages else None
        if kind != "sweep" and a.kind != "stages":
            raise InputError(f"--kind {a.kind}: for sweep files ({a.csv} is a {kind} file)")
        if kind == "sweep" and a.kind != "stages":
            fig, ax = plt.subplots(figsize=(10, 6))
            draw = plot_sweep_build_trace if a.kind == "build-trace" else plot_sweep_mrays
            left_out = draw(a.csv, header, rows, ax)
            if left_out and not a.title:
                title += f" ({left_out} failed or refused cells left out)"
        elif kind == "sweep":  # one bar per cell: the height grows with them
            ok = sum(r["status"] == "ok" for _, r in rows)
            fig, ax = plt.subplots(figsize=(10, max(5.5, 0.16 * ok + 1.5)))
            left_out = plot_sweep(a.csv, header, rows, stages, ax)
            if left_out and not a.title:
                title += f" ({left_out} failed or refused cells left out)"
        else:
            fig, ax = plt.subplots(figsize=(10, 5.5))
            if kind == "timings":
                plot_timings(a.csv, header, rows, stages, ax)
            else:
                plot_kdtable(a.csv, rows, ax)
        ax.set_title(title)
        fig.tight_layout()
        tmp = f"{a.out}.tmp-{os.getpid()}{ext}"
        try:
            fig.savefig(tmp, format=ext[1:])
            os.replace(tmp, a.out)
        except OSError as e:
            if os.path.exists(tmp):
                os.remove(tmp)
            raise InputError(f"{a.out}: cannot write: {e.strerror}") from None
    except InputError as e:
        print(f"plot.py: error: {e}", file=sys.stderr)
        return 1
    print(f"plot.py: wrote {a.out} ({kind}, {len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
