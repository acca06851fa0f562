#!/usr/bin/env python3
"""Writes the benchmark scene files in assets/scenes/ (scene JSON format v1).

The meshes are procedural (src/scene/generators/); what this script computes
is the runners' keyframed paths: laps around the atrium's nave and around the
kitchen table, keyed by arc length at a steady running speed, each runner
turned (about +Y) to face along its path (the runner mesh faces +Z); and
rigid-160's 160 props, each tumbling round its own loop through the atrium's
nave (issue 21's "scene of 160 moving rigid instances").

assets/scenes/real/ has the scenes on real models, found in the data folder
("data:FILE", see docs/scene-format.md): the Dabrovic Sponza alone and with
1-3 runners (the kd-tree chapter's SR1-SR3), and the Conference room.

    python3 scripts/make_scenes.py          # rewrite every file
"""
import json
import math
import os
import random

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "scenes")
RENDER = {"width": 1280, "height": 720, "spp": 1, "bounces": 3}
SKY = [0.5, 0.6, 0.8]
RUN_SPEED = 3.2  # m/s: a 0.7 s run cycle covers a 2.24 m stride pair


def r4(v):
    return round(v, 4)


def yaw_degrees(dx, dz):
    """Rotation about +Y that turns +Z into the direction (dx, 0, dz)."""
    return math.degrees(math.atan2(dx, dz))


def unwrap(angles):
    out = [angles[0]]
    for a in angles[1:]:
        while a - out[-1] > 180:
            a -= 360
        while a - out[-1] < -180:
            a += 360
        out.append(a)
    return out


def keys_from_samples(samples, speed, y=0.0):
    """samples: [(x, z, dx, dz)] around a closed loop (not repeating the first).
    Returns looping keys: time from chord lengths at `speed`, closing on the first;
    the runner's feet at height y."""
    pts = samples + [samples[0]]
    yaws = unwrap([yaw_degrees(dx, dz) for (_, _, dx, dz) in pts])
    keys, t = [], 0.0
    for i, (x, z, _, _) in enumerate(pts):
        if i > 0:
            px, pz = pts[i - 1][0], pts[i - 1][1]
            t += math.hypot(x - px, z - pz) / speed
        keys.append({"time": r4(t), "translate": [r4(x), y, r4(z)],
                     "rotate": {"axis": [0, 1, 0], "degrees": r4(yaws[i])}})
    return keys


def stadium_point(s, half, r):
    """Point and heading at arc length s on a stadium lap (straights along X
    from -half to half at z = +r and z = -r, semicircles around (+-half, 0)),
    run counter-clockwise seen from above."""
    straight, arc = 2 * half, math.pi * r
    s %= 2 * (straight + arc)
    if s < straight:
        return (-half + s, r, 1.0, 0.0)
    s -= straight
    if s < arc:
        a = s / r  # from z = +r round through x = half + r to z = -r
        return (half + r * math.sin(a), r * math.cos(a), math.cos(a), -math.sin(a))
    s -= arc
    if s < straight:
        return (half - s, -r, -1.0, 0.0)
    a = (s - straight) / r
    return (-half - r * math.sin(a), -r * math.cos(a), -math.cos(a), math.sin(a))


def stadium_keys(half, r, start_fraction, clockwise, speed, y=0.0):
    """One lap from `start_fraction` of the way round: a key at the start, at
    both ends of each straight and every 30 degrees round each bend."""
    straight, arc = 2 * half, math.pi * r
    lap = 2 * (straight + arc)
    marks = [0.0, straight] + [straight + arc * k / 6 for k in range(1, 6)]
    marks += [straight + arc, 2 * straight + arc] + [2 * straight + arc + arc * k / 6 for k in range(1, 6)]
    if clockwise:  # the same corners, reached running the other way round
        marks = [(-m) % lap for m in marks]
    s0 = start_fraction * lap
    ss = [s0] + sorted(((m - s0) % lap) + s0 for m in marks if abs(((m - s0) % lap)) > 1e-6)
    samples = []
    for s in ss:
        if clockwise:
            x, z, dx, dz = stadium_point(-s, half, r)
            samples.append((x, z, -dx, -dz))
        else:
            samples.append(stadium_point(s, half, r))
    return keys_from_samples(samples, speed, y)


def ellipse_keys(cx, cz, a, b, start_fraction, count, speed):
    samples = []
    for k in range(count):
        th = 2 * math.pi * (k / count + start_fraction)
        samples.append((cx + a * math.cos(th), cz + b * math.sin(th), -a * math.sin(th), b * math.cos(th)))
    return keys_from_samples(samples, speed)


def runner_meshes(n):
    # Different phases so the runners are out of step.
    phases = [0.0, 0.37, 0.71]
    return [{"name": f"runner{i + 1}", "generator": "runner", "params": {"phase": phases[i]}} for i in range(n)]


def atrium(n):
    # Lanes in the nave, clear of the columns at |z| = 3.5 and of each other:
    # runners 1 and 3 share the outer lane half a lap apart, runner 2 runs the
    # other way round an inner lane.
    lanes = [(2.3, 0.0, False), (1.4, 0.5, True), (2.3, 0.5, False)]
    instances = [{"mesh": "atrium", "name": "hall"}]
    for i in range(n):
        r, start, cw = lanes[i]
        instances.append({"mesh": f"runner{i + 1}", "name": f"runner{i + 1}",
                          "animation": {"loop": True, "keys": stadium_keys(8.0, r, start, cw, RUN_SPEED)}})
    return {
        "camera": {"position": [-13.0, 2.6, 0.0], "target": [0.0, 2.0, -0.6], "up": [0, 1, 0], "fov": 60},
        "meshes": [{"name": "atrium", "generator": "atrium", "params": {}}] + runner_meshes(n),
        "instances": instances,
        "lights": {"environment": {"color": SKY},
                   "sun": {"direction": [0.3, 1.0, 0.15], "radiance": [7.0, 6.5, 5.8]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


def kitchen(n):
    # An ellipse round the table (centre (0.4, 0.5)), clear of chairs and counters.
    instances = [{"mesh": "kitchen", "name": "room"}]
    for i in range(n):
        instances.append({"mesh": f"runner{i + 1}", "name": f"runner{i + 1}",
                          "animation": {"loop": True,
                                        "keys": ellipse_keys(0.4, 0.5, 1.75, 1.45, i / max(n, 1), 16, 2.6)}})
    return {
        "camera": {"position": [2.6, 1.75, 2.2], "target": [-0.6, 0.9, -0.6], "up": [0, 1, 0], "fov": 65},
        "meshes": [{"name": "kitchen", "generator": "kitchen", "params": {}}] + runner_meshes(n),
        "instances": instances,
        "lights": {"environment": {"color": SKY},
                   "sun": {"direction": [1.0, 0.55, 0.25], "radiance": [8.0, 7.4, 6.5]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


# rigid-160: four rigid meshes (three spheres of 24, 32 and 64 segments and a
# box), 40 instances of each, flying round loops in the atrium's nave (inside
# the colonnades: |x| < 12, |z| < 2.6, 0.4 < y < 10). Every instance moves
# every frame; no mesh deforms, so instanced mode builds its BLASes once and
# only the top level per frame, while flat mode rebuilds every posed triangle.
RIGID_MESHES = [
    ("ball-24", {"generator": "sphere", "params": {"segments": 24}, "material": "prop-red"}, (0.15, 0.35)),
    ("ball-32", {"generator": "sphere", "params": {"segments": 32}, "material": "prop-blue"}, (0.2, 0.4)),
    ("ball-64", {"generator": "sphere", "params": {"segments": 64}, "material": "prop-metal"}, (0.25, 0.5)),
    ("crate", {"generator": "box", "params": {"size": 1}, "material": "prop-crate"}, (0.25, 0.6)),
]
RIGID_KEYS = 12  # keys per loop: 30 degrees of its path and of its tumble apart


def rigid_instance(rng, name, mesh, size_range):
    size = rng.uniform(*size_range)
    reach = size * (math.sqrt(3) / 2 if mesh == "crate" else 1.0)  # the prop's radius
    ax, ay = rng.uniform(0.5, 3.0), rng.uniform(0.2, 1.5)
    az = rng.uniform(0.1, 0.8)
    cx = rng.uniform(-12.0 + ax + reach, 12.0 - ax - reach)
    cy = rng.uniform(0.4 + ay + reach, 10.0 - ay - reach)
    cz = rng.uniform(-2.6 + az + reach, 2.6 - az - reach)
    phase, twist = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
    period = rng.uniform(6.0, 14.0) * (1 if rng.random() < 0.5 else -1)
    axis = [rng.gauss(0, 1) for _ in range(3)]
    norm = math.sqrt(sum(a * a for a in axis)) or 1.0
    axis = [r4(a / norm) for a in axis]
    turns = rng.choice([-2, -1, 1, 2])  # whole turns per loop, so the loop closes
    keys = []
    for k in range(RIGID_KEYS + 1):
        f = k / RIGID_KEYS
        th = phase + 2 * math.pi * f
        keys.append({"time": r4(abs(period) * f),
                     "translate": [r4(cx + ax * math.cos(th)), r4(cy + ay * math.sin(th)),
                                   r4(cz + az * math.sin(th + twist))],
                     "rotate": {"axis": axis, "degrees": r4(360.0 * turns * f)}})
    return {"mesh": mesh, "name": name, "scale": r4(size), "animation": {"loop": True, "keys": keys}}


def rigid(count=160, seed=21):
    rng = random.Random(seed)
    instances = [{"mesh": "atrium", "name": "hall"}]
    for i in range(count):
        mesh, _, size_range = RIGID_MESHES[i % len(RIGID_MESHES)]
        instances.append(rigid_instance(rng, f"{mesh}-{i // len(RIGID_MESHES) + 1}", mesh, size_range))
    meshes = [{"name": "atrium", "generator": "atrium", "params": {}}]
    meshes += [dict({"name": name}, **desc) for name, desc, _ in RIGID_MESHES]
    return {
        "camera": {"position": [-13.0, 2.6, 0.0], "target": [0.0, 2.0, -0.6], "up": [0, 1, 0], "fov": 60},
        "materials": {"prop-red": {"type": "diffuse", "albedo": [0.7, 0.12, 0.08]},
                      "prop-blue": {"type": "diffuse", "albedo": [0.1, 0.2, 0.65]},
                      "prop-metal": {"type": "conductor", "albedo": [0.9, 0.75, 0.45], "roughness": 0.25},
                      "prop-crate": {"type": "diffuse", "albedo": [0.55, 0.4, 0.22]}},
        "meshes": meshes,
        "instances": instances,
        "lights": {"environment": {"color": SKY},
                   "sun": {"direction": [0.3, 1.0, 0.15], "radiance": [7.0, 6.5, 5.8]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


def forest():
    return {
        "camera": {"position": [-19.0, 2.5, 17.0], "target": [0.0, 4.0, 0.0], "up": [0, 1, 0], "fov": 55},
        "meshes": [{"name": "forest", "generator": "forest", "params": {"trees": 24, "seed": 1}}],
        "instances": [{"mesh": "forest", "name": "forest"}],
        "lights": {"environment": {"color": [0.45, 0.55, 0.75]},
                   "sun": {"direction": [0.4, 0.8, 0.3], "radiance": [6.0, 5.7, 5.2]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


def cornell():
    return {
        "camera": {"position": [0.0, 1.0, 4.2], "target": [0.0, 1.0, 0.0], "up": [0, 1, 0], "fov": 38},
        "meshes": [{"name": "cornell", "generator": "cornell", "params": {"boxes": True}}],
        "instances": [{"mesh": "cornell", "name": "box"}],
        "lights": {"environment": {"color": [0.0, 0.0, 0.0]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


def sponza(n):
    # The chapter's SR1-SR3: the Dabrovic Sponza (floor at y = 0.09, columns
    # at |z| >= 2.3) with n runners on lanes down the courtyard, laid out as
    # in the atrium.
    lanes = [(1.4, 0.0, False), (0.6, 0.5, True), (1.4, 0.5, False)]
    instances = [{"mesh": "sponza", "name": "sponza"}]
    for i in range(n):
        r, start, cw = lanes[i]
        instances.append({"mesh": f"runner{i + 1}", "name": f"runner{i + 1}",
                          "animation": {"loop": True, "keys": stadium_keys(8.0, r, start, cw, RUN_SPEED, 0.09)}})
    return {
        "camera": {"position": [-10.5, 2.5, 0.0], "target": [10.0, 5.5, 0.0], "up": [0, 1, 0], "fov": 60},
        "meshes": [{"name": "sponza", "obj": "data:sponza.obj"}] + runner_meshes(n),
        "instances": instances,
        "lights": {"environment": {"color": SKY},
                   "sun": {"direction": [0.3, 1.0, 0.15], "radiance": [7.0, 6.5, 5.8]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


def conference():
    # Greg Ward's Conference room in its own units (x 0.003 = metres); closed,
    # so lit by four ceiling panels (assets/models/conference-lights.obj).
    return {
        "camera": {"position": [1450.0, 420.0, 450.0], "target": [-300.0, 150.0, -500.0], "up": [0, 1, 0],
                   "fov": 60},
        "materials": {"ceiling-light": {"type": "emissive", "emission": [12.0, 11.5, 10.5]}},
        "meshes": [{"name": "conference", "obj": "data:conference.obj"},
                   {"name": "lights", "obj": "../../models/conference-lights.obj", "material": "ceiling-light"}],
        "instances": [{"mesh": "conference", "name": "room"}, {"mesh": "lights", "name": "lights"}],
        "lights": {"environment": {"color": [0.0, 0.0, 0.0]}},
        "render": RENDER,
        "animation": {"fps": 30},
    }


def dump_rows(scene, f):
    """As json.dump with indent 2, but an instance or mesh a line each (rigid-160's 161)."""
    f.write("{\n")
    for i, (key, value) in enumerate(scene.items()):
        f.write(f'  "{key}": ')
        if key in ("instances", "meshes"):
            f.write("[\n" + ",\n".join("    " + json.dumps(v) for v in value) + "\n  ]")
        else:
            f.write(json.dumps(value, indent=2).replace("\n", "\n  "))
        f.write(",\n" if i + 1 < len(scene) else "\n")
    f.write("}\n")


def write(folder, scenes, rows=()):
    os.makedirs(folder, exist_ok=True)
    for name, scene in scenes.items():
        with open(os.path.join(folder, name), "w") as f:
            if name in rows:
                dump_rows(scene, f)
            else:
                json.dump(scene, f, indent=2)
                f.write("\n")
        print(os.path.relpath(os.path.join(folder, name), os.path.join(OUT, "..", "..")))


def main():
    scenes = {f"atrium-{n}.json": atrium(n) for n in (1, 2, 3)}
    scenes.update({f"kitchen-{n}.json": kitchen(n) for n in (1, 2, 3)})
    scenes["forest.json"] = forest()
    scenes["rigid-160.json"] = rigid()
    scenes["cornell.json"] = cornell()
    scenes["default.json"] = atrium(2)
    write(OUT, scenes, rows=("rigid-160.json",))
    real = {"sponza.json": sponza(0), "conference.json": conference()}
    real.update({f"sr-{n}.json": sponza(n) for n in (1, 2, 3)})
    write(os.path.join(OUT, "real"), real)


if __name__ == "__main__":
    main()
