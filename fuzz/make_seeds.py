#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into fuzz/corpus/<target>/.

Seeds come from the project's own files (assets/scenes, tests/data, and the
fuzzing findings kept in tests/data/fuzz as regressions) and small
files written here with the standard library: scene files that cover every
block of docs/scene-format.md, OBJ/MTL files with every statement the loader
reads, and images in every format the loader reads (PNG, HDR, and JPEG from
libjpeg-turbo through a small C program compiled on the fly). The real files of
../shared/testdata are not copied (their README asks not to); scripts/fuzz.sh
adds them as extra seeds at run time when they are present.

Run from anywhere: python3 fuzz/make_seeds.py. Deterministic output.
"""
import json
import os
import re
import struct
import subprocess
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")


def write(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


# --- scenes -----------------------------------------------------------------
# The fuzz target's folder holds cube.obj (+ cube.mtl, tex.png), f0.obj,
# f1.obj, tex.png and env.hdr (see scene_fuzz.cpp).
CHEAP = {"box": {"size": [1, 2, 0.5]}, "sphere": {"radius": 0.5, "segments": 8},
         "plane": {"size": 4, "subdivisions": 2}, "cornell": {"boxes": True}}


def cheapen(scene):
    """The asset scenes with their large generators swapped for small ones
    (the fuzz target skips atrium, kitchen, runner and forest: too slow)."""
    names = list(CHEAP)
    for i, m in enumerate(scene.get("meshes", [])):
        if m.get("generator") not in CHEAP:
            g = names[i % len(names)]
            m["generator"], m["params"] = g, CHEAP[g]
    return scene


def scenes():
    write("scene", "cube_scene.json", read("tests/data/cube_scene.json"))
    for name in sorted(os.listdir(os.path.join(ROOT, "assets/scenes"))):
        if name in ("atrium-1.json", "kitchen-1.json", "cornell.json", "forest.json"):
            s = cheapen(json.loads(read("assets/scenes/" + name)))
            # Compact, and only the first two keys of each animation.
            for inst in s.get("instances", []):
                if "animation" in inst:
                    inst["animation"]["keys"] = inst["animation"]["keys"][:3]
            write("scene", name, json.dumps(s, separators=(",", ":")))
    write("scene", "everything.jsonc", """{
  // every block and field of docs/scene-format.md
  "camera": {"position": [0, 1.5, 6], "target": [0, 0.8, 0], "up": [0, 1, 0], "fov": 45, "loop": false,
             "path": [{"time": 0, "position": [0, 1.5, 6], "target": [0, 0.8, 0]},
                      {"time": 4, "position": [6, 1.5, 0], "target": [0, 0.8, 0]}]},
  "materials": {
    "marble": {"type": "diffuse", "albedo": [0.8, 0.8, 0.8], "texture": "tex.png"},
    "gold": {"type": "conductor", "albedo": [1.0, 0.78, 0.34], "roughness": 0.2},
    "glass": {"type": "dielectric", "albedo": [1, 1, 1], "ior": 1.5, "texture": "env.hdr"},
    "lamp": {"type": "emissive", "emission": [10, 9, 8]}
  },
  "meshes": [
    {"name": "cube", "obj": "cube.obj"},
    {"name": "gold cube", "obj": "./cube.obj", "material": "gold"},
    {"name": "flag", "obj_sequence": {"files": ["f0.obj", "f1.obj"], "fps": 24, "loop": true}},
    {"name": "flag2", "obj_sequence": {"files": {"pattern": "f%d.obj", "first": 0, "count": 2}, "fps": 12}},
    {"name": "flag3", "obj_sequence": {"files": {"pattern": "f%01d.obj", "count": 1}}},
    {"name": "ball", "generator": "sphere", "params": {"radius": 0.5, "segments": 12}, "material": "glass"},
    {"name": "floor", "generator": "plane", "params": {"size": 10, "subdivisions": 3}, "material": "marble"},
    {"name": "light", "generator": "box", "params": {"size": [1, 0.1, 1]}, "material": "lamp"}
  ],
  "instances": [
    {"mesh": "cube", "name": "c1", "translate": [1, 0, 0], "rotate": {"axis": [0, 1, 0], "degrees": 30}, "scale": 0.5},
    {"mesh": "gold cube", "scale": [1, 2, 1],
     "animation": {"loop": true, "keys": [{"time": 0, "translate": [0, 0, 0]},
                                          {"time": 1, "rotate": {"axis": [1, 0, 0], "degrees": 90}, "scale": 2},
                                          {"time": 2.5, "translate": [0, 1, 0], "scale": [1, 1, 3]}]}},
    {"mesh": "flag"}, {"mesh": "flag2"}, {"mesh": "flag3"}, {"mesh": "ball"}, {"mesh": "floor"},
    {"mesh": "light", "translate": [0, 3, 0]}
  ],
  "lights": {"environment": {"hdr": "env.hdr", "scale": 2, "rotation": 90},
             "sun": {"direction": [0.3, 1, 0.2], "radiance": [5, 5, 5]}},
  "render": {"width": 64, "height": 48, "spp": 2, "bounces": 4, "nee": false, "rr_start": 2, "exposure": -1.5,
             "tonemap": "reinhard", "seed": 7, "backend": "cpu", "threads": 2},
  "accel": {"builder": "lbvh-skip", "traversal": "stackless", "morton_bits": 30, "mode": "flat",
            "rebuild": "animated", "kd_a": true, "kd_b": false, "kd_c": true, "kd_d": false, "kd_e": true},
  "animation": {"fps": 24, "start_time": 0.5, "play": false}
}
""")
    write("scene", "minimal.json", '{"meshes":[{"name":"b","generator":"box"}]}')
    write("scene", "env_color.json",
          '{"meshes":[{"name":"c","generator":"cornell","params":{"boxes":false}}],'
          '"lights":{"environment":{"color":[0.1,0.2,0.3],"rotation":-45}},"instances":[{"mesh":"c"}]}')


# --- OBJ / MTL ---------------------------------------------------------------
SEP = "#---mtl---\n"


def objs():
    cube = read("tests/data/cube.obj").decode().replace("mtllib cube.mtl", "mtllib m.mtl")
    write("obj", "cube.obj", cube + SEP + read("tests/data/cube.mtl").decode())
    write("obj", "cube_no_mtl.obj", read("tests/data/cube.obj"))
    write("obj", "statements.obj", """# every statement the loader reads, and some it ignores
mtllib m.mtl
o thing
g group1 group2
s 1
v 0 0 0
v 1.5e0 0 0 1.0
v 1 1 0 0.5 0.5 0.5
v 0 1 0
v -1 -1 -1
vt 0 0
vt 1 0 0
vt 1 1
vt 0.5
vn 0 0 1
vn 0 0 0
vn 1 0 0
usemtl emit
f 1 2 3
f 1/1 3/3 4/4
usemtl glass
f 1//1 2//2 3//3
f -5/-4/-3 -4/-3/-2 -3/-2/-1
usemtl metal
f 1/1/1 2/2/1 3/3/1 4/4/1 5/1/1
usemtl unknown
f 2 3 5
l 1 2
p 3
""" + SEP + """newmtl emit
Ke 3 3 3
Kd 0.5 0.5 0.5
newmtl glass
Kd 1 1 1
Tf 0.9 1 0.9
Ni 1.33
d 0.5
illum 7
newmtl metal
Ka 0 0 0
Kd 0.1 0.1 0.1
Ks 0.9 0.8 0.7
Ns 400
Pm 0.9
Pr 0.2
illum 3
map_Kd t.png
newmtl plain
Kd 0.2 0.3 0.4
Tr 0.1
map_Kd -s 1 1 1 sub\\\\t.png
""")
    write("obj", "degenerate.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 3\nf 1 1 4\nf 1 2 4\n")
    write("obj", "crlf.obj", "v 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nvn 0 0 1\r\nf 1//1 2//1 3//1\r\n")


# --- images ------------------------------------------------------------------
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def png(w, h, color_type, depth, rows, palette=None, interlace=0):
    """rows: bytes per row; interlace needs whole bytes per pixel (depth 8/16)."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    if interlace:
        bpp = len(rows[0]) // w
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            for y in range(y0, h, dy):
                line = b"".join(rows[y][x * bpp:(x + 1) * bpp] for x in range(x0, w, dx))
                if line:
                    raw += b"\x00" + line
    else:
        raw = b"".join(b"\x00" + r for r in rows)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, interlace))
    if palette:
        out += chunk(b"PLTE", palette)
    return out + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def hdr_rle(w, h):
    out = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (h, w)
    for y in range(h):
        out += bytes([2, 2, w >> 8, w & 255])
        for c in range(4):
            vals = [(x * 16 + y * 8 + c * 40) % 256 if c < 3 else 128 for x in range(w)]
            half = w // 2
            out += bytes([128 + half, vals[0]])          # a run
            out += bytes([w - half]) + bytes(vals[half:])  # literals
    return out


def images():
    w, h = 5, 3
    rgb = [bytes((x * 50 + y * 30 + c * 70) % 256 for x in range(w) for c in range(3)) for y in range(h)]
    write("image", "rgb8.png", png(w, h, 2, 8, rgb))
    write("image", "rgba8_interlaced.png",
          png(w, h, 6, 8, [bytes((x * 9 + c) % 256 for x in range(w) for c in range(4)) for _ in range(h)],
              interlace=1))
    write("image", "gray16.png", png(w, h, 0, 16, [struct.pack(">%dH" % w, *[x * 9000 + y for x in range(w)])
                                                   for y in range(h)]))
    write("image", "palette4.png", png(4, 2, 3, 4, [bytes([0x01, 0x23]), bytes([0x32, 0x10])],
                                       palette=bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9])))
    write("image", "flat.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 3\n" +
          bytes([128, 64, 32, 129, 10, 20, 30, 128, 255, 255, 255, 120, 1, 2, 3, 140, 0, 0, 0, 0, 50, 60, 70, 130]))
    write("image", "rle.hdr", hdr_rle(12, 3))
    jpeg()


def jpeg():
    """Tiny baseline and progressive JPEGs from libjpeg-turbo (libjpeg62-turbo-dev)."""
    src = r"""
#include <stdio.h>
#include <jpeglib.h>
int main(int argc, char** argv) {
    for (int progressive = 0; progressive < 2; ++progressive) {
        struct jpeg_compress_struct c;
        struct jpeg_error_mgr err;
        c.err = jpeg_std_error(&err);
        jpeg_create_compress(&c);
        FILE* f = fopen(argv[1 + progressive], "wb");
        jpeg_stdio_dest(&c, f);
        c.image_width = 8;
        c.image_height = 6;
        c.input_components = 3;
        c.in_color_space = JCS_RGB;
        jpeg_set_defaults(&c);
        if (progressive) jpeg_simple_progression(&c);
        jpeg_start_compress(&c, TRUE);
        unsigned char row[8 * 3];
        while (c.next_scanline < c.image_height) {
            for (int i = 0; i < 24; ++i) row[i] = (unsigned char)(i * 37 + c.next_scanline * 50);
            JSAMPROW r = row;
            jpeg_write_scanlines(&c, &r, 1);
        }
        jpeg_finish_compress(&c);
        jpeg_destroy_compress(&c);
        fclose(f);
    }
    return 0;
}
"""
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "j.c"), os.path.join(d, "j")
        outs = [os.path.join(d, "baseline.jpg"), os.path.join(d, "progressive.jpg")]
        with open(c, "w") as f:
            f.write(src)
        try:
            subprocess.run(["cc", c, "-o", exe, "-ljpeg"], check=True, capture_output=True)
            subprocess.run([exe] + outs, check=True)
        except (OSError, subprocess.CalledProcessError) as e:
            print("no JPEG seeds:", e)
            return
        for out in outs:
            with open(out, "rb") as f:
                write("image", os.path.basename(out), f.read())


def gltf_doc(bin_parts):
    """A glTF document whose buffer views are bin_parts (bytes each, 4-aligned)."""
    data, views = b"", []
    for part in bin_parts:
        data += b"\0" * (-len(data) % 4)
        views.append({"buffer": 0, "byteOffset": len(data), "byteLength": len(part)})
        data += part
    return {"asset": {"version": "2.0"}, "bufferViews": views}, data


def gltf_files(name, doc, data):
    """NAME.gltf with the buffer as a data URI, and NAME.glb."""
    import base64
    d = dict(doc, buffers=[{"byteLength": len(data),
                            "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}])
    write("gltf", name + ".gltf", json.dumps(d))
    g = json.dumps(dict(doc, buffers=[{"byteLength": len(data)}])).encode()
    g += b" " * (-len(g) % 4)
    b = data + b"\0" * (-len(data) % 4)
    total = 12 + 8 + len(g) + 8 + len(b)
    write("gltf", name + ".glb", struct.pack("<4sII", b"glTF", 2, total) + struct.pack("<I4s", len(g), b"JSON") + g
          + struct.pack("<I4s", len(b), b"BIN\0") + b)


def gltfs():
    """glTF seeds: a hierarchy with TRS, a matrix and a strip; a skinned,
    morphing, animated triangle (LINEAR, STEP, CUBICSPLINE channels); a sparse
    accessor; a material with an embedded PNG texture."""
    f = lambda *v: struct.pack("<%df" % len(v), *v)
    tri = f(0, 0, 0, 1, 0, 0, 0, 1, 0)
    doc, data = gltf_doc([tri, struct.pack("<4H", 0, 1, 2, 0), f(0, 0, 1) * 3, f(0, 0, 1, 0, 0, 1)])
    doc["accessors"] = [
        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5123, "count": 4, "type": "SCALAR"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC3"},
        {"bufferView": 3, "componentType": 5126, "count": 3, "type": "VEC2"}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 2}, "indices": 1, "mode": 5},
                                     {"attributes": {"POSITION": 0, "TEXCOORD_0": 3}, "mode": 4, "material": 0}]}]
    doc["materials"] = [{"name": "m", "pbrMetallicRoughness": {"baseColorFactor": [1, 0.5, 0.2, 1],
                                                                "metallicFactor": 0.2}}]
    doc["nodes"] = [{"children": [1, 2], "translation": [1, 2, 3], "scale": [2, 2, 2]},
                    {"mesh": 0, "rotation": [0, 0, 0.7071068, 0.7071068]},
                    {"mesh": 0, "matrix": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]}]
    doc["scenes"] = [{"nodes": [0]}]
    doc["scene"] = 0
    gltf_files("hierarchy", doc, data)

    joints = struct.pack("<12B", 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0)
    weights = f(1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0.5, 0, 0)
    ibm = f(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1) + f(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1)
    doc, data = gltf_doc([tri, joints, weights, ibm, f(0, 1), f(0, 0, 0, 1, 0, 0, 0.7071068, 0.7071068),
                          f(1, 0, 0, 0, 0, 0, 0, 0, 0), f(0, 0, 1, 0.5), f(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0,
                                                                            0, 0, 0)])
    doc["accessors"] = [
        {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
        {"bufferView": 1, "componentType": 5121, "count": 3, "type": "VEC4"},
        {"bufferView": 2, "componentType": 5126, "count": 3, "type": "VEC4"},
        {"bufferView": 3, "componentType": 5126, "count": 2, "type": "MAT4"},
        {"bufferView": 4, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
        {"bufferView": 5, "componentType": 5126, "count": 2, "type": "VEC4"},
        {"bufferView": 6, "componentType": 5126, "count": 3, "type": "VEC3"},
        {"bufferView": 7, "componentType": 5126, "count": 4, "type": "SCALAR"},
        {"bufferView": 8, "componentType": 5126, "count": 6, "type": "VEC3"}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0, "JOINTS_0": 1, "WEIGHTS_0": 2},
                                      "targets": [{"POSITION": 6}, {"POSITION": 6}]}], "weights": [0, 0]}]
    doc["skins"] = [{"joints": [1, 2], "inverseBindMatrices": 3}]
    doc["nodes"] = [{"mesh": 0, "skin": 0}, {"children": [2]}, {"translation": [0, 1, 0]}]
    doc["scenes"] = [{"nodes": [0, 1]}]
    doc["animations"] = [{"name": "bend", "samplers": [
        {"input": 4, "output": 5, "interpolation": "LINEAR"},
        {"input": 4, "output": 7, "interpolation": "STEP"},
        {"input": 4, "output": 8, "interpolation": "CUBICSPLINE"}], "channels": [
        {"sampler": 0, "target": {"node": 2, "path": "rotation"}},
        {"sampler": 1, "target": {"node": 0, "path": "weights"}},
        {"sampler": 2, "target": {"node": 1, "path": "translation"}}]}]
    gltf_files("skin_morph", doc, data)

    doc, data = gltf_doc([tri, struct.pack("<H", 2), f(0, 5, 0),
                          png(1, 1, 2, 8, [b"\x00\xff\x00"])])
    doc["accessors"] = [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                         "sparse": {"count": 1, "indices": {"bufferView": 1, "componentType": 5123},
                                    "values": {"bufferView": 2}}}]
    doc["images"] = [{"bufferView": 3, "mimeType": "image/png"}]
    doc["textures"] = [{"source": 0}]
    doc["materials"] = [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0},
                                                  "metallicRoughnessTexture": {"index": 0}},
                         "emissiveFactor": [0, 0, 0]}]
    doc["meshes"] = [{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}]
    doc["nodes"] = [{"mesh": 0}]
    gltf_files("sparse_texture", doc, data)


def regressions():
    """Every input kept in tests/data/fuzz/TARGET (a crash, hang or contract
    breach found by fuzzing and fixed) is a seed too."""
    base = os.path.join(ROOT, "tests/data/fuzz")
    for target in sorted(os.listdir(base)):
        for name in sorted(os.listdir(os.path.join(base, target))):
            write(target, "regress-" + name, read(os.path.join("tests/data/fuzz", target, name)))


if __name__ == "__main__":
    scenes()
    objs()
    images()
    gltfs()
    regressions()
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(CORPUS) for f in fs)
    print("seed corpora in %s: %d bytes" % (CORPUS, total))
