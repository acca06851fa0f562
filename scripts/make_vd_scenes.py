#!/usr/bin/env python3
"""Writes assets/scenes/vd-party.json: a "party" of VD assets (Harada's test
scene, in spirit): a ring of bark trunks, a field of mushrooms, hooks and
spikes with random sizes and headings, a floor and a turning sphere;
with --large OUT, only the same at the paper's scale (over 10^5 patches:
Harada's party needs 52 GB pre-tessellated), 400 KB of generated JSON that
the build writes to build/scenes/vd-party-large.json instead of git; and
assets/scenes/vd-mushroom.json: one mushroom of 4 patches filling the view
(few patches, many rays per patch); and generated stand-ins for the other
rows of Harada's Table 1.1, sized so that pre-tessellation at level 5 takes
about his memory: vd-bark.json (one trunk of 5,120 patches: 1.7 GB),
vd-barks.json (seven such trunks: 12 GB) and vd-pumpkin.json (one
round-capped asset of 1,024 patches: 380 MB; there is no pumpkin model)."""
import json, math, os, random, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "scenes")


def party(trunks=12, around=12, up=12, field=7, spacing=1.1, patches=4, camera=(0, 4.5, 12.5), ring=9, floor=40):
    """trunks bark trunks (around x up patches each) on a ring outside a
    field of assets (patches x patches per side each) on a grid of the given
    spacing within radius field (in cells), ring the trunks' radius."""
    random.seed(7)
    assets = ["vd-mushroom", "vd-hook", "vd-spike"]
    meshes = [{"name": "floor", "generator": "plane", "params": {"size": floor, "subdivisions": 8}}]
    meshes += [{"name": a, "generator": a, "params": {"patches": patches}} for a in assets]
    meshes.append({"name": "vd-bark", "generator": "vd-bark", "params": {"around": around, "up": up}})
    meshes.append({"name": "pillar", "generator": "sphere", "params": {"radius": 0.8, "segments": 64}})
    inst = [{"mesh": "floor"}]
    for i in range(trunks):
        ang = 2 * math.pi * i / trunks
        inst.append({"mesh": "vd-bark", "name": "trunk%d" % i,
                     "translate": [ring * math.cos(ang), 0, ring * math.sin(ang)], "scale": 1.5})
    for gx in range(-field, field + 1):
        for gz in range(-field, field + 1):
            if gx * gx + gz * gz > field * field + 1 or (gx == 0 and gz == 0):
                continue
            a = assets[(gx * 7 + gz * 3) % 3]
            s = random.uniform(0.7, 1.4)
            inst.append({"mesh": a, "name": "%s_%d_%d" % (a, gx, gz),
                         "translate": [gx * spacing + random.uniform(-.2, .2), 0,
                                       gz * spacing + random.uniform(-.2, .2)],
                         "rotate": {"axis": [0, 1, 0], "degrees": random.uniform(0, 360)}, "scale": s})
    keys = [{"time": t, "rotate": {"axis": [0, 1, 0], "degrees": d}} for t, d in ((0, 0), (4, 180), (8, 359))]
    inst.append({"mesh": "pillar", "name": "disco", "translate": [0, 3.2, 0],
                 "animation": {"loop": True, "keys": keys}})
    return {"camera": {"position": list(camera), "target": [0, 0.6, 0], "up": [0, 1, 0], "fov": 50},
            "meshes": meshes, "instances": inst,
            "lights": {"environment": {"color": [0.35, 0.4, 0.5]},
                       "sun": {"direction": [0.4, 1.0, 0.3], "radiance": [3.5, 3.2, 2.8]}},
            "render": {"spp": 1, "bounces": 2},
            "vd": {"mode": "direct", "max_level": 5}}


def mushroom():
    return {"camera": {"position": [0, 0.55, 1.6], "target": [0, 0.3, 0], "up": [0, 1, 0], "fov": 45},
            "meshes": [{"name": "floor", "generator": "plane", "params": {"size": 6}},
                       {"name": "mushroom", "generator": "vd-mushroom", "params": {"patches": 2}}],
            "instances": [{"mesh": "floor"}, {"mesh": "mushroom"}],
            "lights": {"environment": {"color": [0.4, 0.45, 0.55]},
                       "sun": {"direction": [0.5, 1.0, 0.4], "radiance": [4, 3.8, 3.5]}},
            "render": {"spp": 1, "bounces": 2},
            "vd": {"mode": "direct", "max_level": 6}}


def lit(camera, target, meshes, inst, max_level=5):
    return {"camera": {"position": camera, "target": target, "up": [0, 1, 0], "fov": 45},
            "meshes": [{"name": "floor", "generator": "plane", "params": {"size": 30}}] + meshes,
            "instances": [{"mesh": "floor"}] + inst,
            "lights": {"environment": {"color": [0.4, 0.45, 0.55]},
                       "sun": {"direction": [0.5, 1.0, 0.4], "radiance": [4, 3.8, 3.5]}},
            "render": {"spp": 1, "bounces": 2},
            "vd": {"mode": "direct", "max_level": max_level}}


def bark():  # Harada's "Bark": 1.7 GB pre-tessellated
    trunk = {"name": "bark", "generator": "vd-bark",
             "params": {"around": 56, "up": 80, "radius": 0.6, "height": 6, "ridges": 24}}
    return lit([0, 3, 5.5], [0, 2.8, 0], [trunk], [{"mesh": "bark"}])


def barks():  # Harada's "Barks": 12 GB pre-tessellated
    trunk = bark()["meshes"][1]
    inst = [{"mesh": "bark", "name": "bark%d" % i, "translate": [x, 0, z]}
            for i, (x, z) in enumerate([(0, 0), (-2.2, -1.5), (2.2, -1.5), (-4, -4), (0, -4.5), (4, -4), (0, -8)])]
    return lit([0, 3.5, 8], [0, 2.5, -2], [trunk], inst)


def pumpkin():  # Harada's "Pumpkin": 380 MB pre-tessellated
    cap = {"name": "pumpkin", "generator": "vd-mushroom",
           "params": {"patches": 32, "size": 2, "height": 0.35, "cap": 0.5}}
    return lit([0, 1.6, 3.2], [0, 0.5, 0], [cap], [{"mesh": "pumpkin"}])


def write(path, scene):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


if len(sys.argv) == 3 and sys.argv[1] == "--large":
    write(sys.argv[2], party(trunks=24, around=16, up=24, field=22, spacing=0.9, patches=8, camera=(0, 14, 32),
                             ring=21, floor=90))
elif len(sys.argv) == 1:
    for name, scene in (("vd-party.json", party()), ("vd-mushroom.json", mushroom()), ("vd-bark.json", bark()),
                        ("vd-barks.json", barks()), ("vd-pumpkin.json", pumpkin())):
        write(os.path.join(ROOT, name), scene)
else:
    sys.exit("usage: scripts/make_vd_scenes.py [--large OUT.json]")
