#!/usr/bin/env python3
"""make verdicts: the built plantleaf's verdicts on leaves, photos without plants and empty frames.

Runs the release binary's `classify --format json` (so the verdicts are the ones users get, crop
and all) under classify's default checks and under the camera's (`--checks all`) over
  - the 76 sample leaves in samples/plantvillage (the right class is the folder name);
  - photos without plants: scikit-image's sample photos (skimage/data, `scripts/setup.sh photos`)
    and samples/imagenet's cat and hot dog;
  - the synthetic empty frames of measure.py (black, white, flat grey and green, low-light
    noise, blown out), written here as PNG;
prints a table and exits 1 when a floor fails: at least 70 leaves `diagnosis` with the right
class and none `no-leaf`/`no-picture`; at least 90 % of the photos not `diagnosis`; every
synthetic frame `no-picture`. Run from the project root with .venv's Python.
"""
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import ROOT, synthetic_frames  # noqa: E402  (the frames the thresholds were measured on)

BINARY = os.path.join(ROOT, ".build", "release", "plantleaf")
CHECKS = [("classify default", []), ("camera default (all)", ["--checks", "all"])]


def classify(paths, extra):
    """{path: (verdict, top-1 label)} from the binary's JSON lines."""
    output = subprocess.run([BINARY, "classify", "--format", "json", "--top-k", "1", *extra, *paths],
                            check=True, capture_output=True, text=True).stdout
    results = {}
    for line in output.splitlines():
        record = json.loads(line)
        results[record["path"]] = (record["verdict"], record["top"][0]["label"])
    return results


def main():
    import skimage
    photo_folder = os.path.join(os.path.dirname(skimage.__file__), "data")
    photos = sorted(p for p in glob.glob(os.path.join(photo_folder, "*")) if p.lower().endswith((".png", ".jpg")))
    photos += sorted(glob.glob(os.path.join(ROOT, "samples", "imagenet", "*.jpg")))
    leaves = sorted(p for p in glob.glob(os.path.join(ROOT, "samples", "plantvillage", "*", "*"))
                    if p.lower().endswith((".jpg", ".jpeg", ".png")))
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        frames = []
        for name, pixels in synthetic_frames():
            frames.append(os.path.join(folder, name + ".png"))
            Image.fromarray(pixels).save(frames[-1])
        print(f"verdicts of {BINARY}: {len(leaves)} sample leaves, {len(photos)} photos without plants, "
              f"{len(frames)} synthetic frames")
        print(f"{'checks':<22} {'leaves right':>13} {'leaves no-leaf/pic':>19} {'photos not diagnosis':>21} "
              f"{'synthetic no-picture':>21}")
        for title, extra in CHECKS:
            leaf = classify(leaves, extra)
            right = sum(1 for p, (v, label) in leaf.items() if v == "diagnosis" and os.path.basename(os.path.dirname(p)) == label)
            lost = sum(1 for v, _ in leaf.values() if v in ("no-leaf", "no-picture"))
            photo = classify(photos, extra)
            caught = sum(1 for v, _ in photo.values() if v != "diagnosis")
            synthetic = classify(frames, extra)
            empty = sum(1 for v, _ in synthetic.values() if v == "no-picture")
            passes = (right >= 70 and lost == 0 and len(leaf) == len(leaves), caught >= 0.9 * len(photos),
                      empty == len(frames))
            print(f"{title:<22} {f'{right} / {len(leaf)}':>13} {lost:>19} "
                  f"{f'{caught} / {len(photos)} ({100 * caught // max(len(photos), 1)} %)':>21} {f'{empty} / {len(frames)}':>21}"
                  f"  {'PASS' if all(passes) else 'FAIL'}")
            for path, (verdict, label) in sorted(photo.items()):
                if verdict == "diagnosis":
                    print(f"    photo taken for a diagnosis: {os.path.basename(path)} -> {label}")
            counts = collections.Counter(v for v, _ in synthetic.values())
            if counts["no-picture"] != len(frames):
                print(f"    synthetic frames: {dict(counts)}")
            failed = failed or not all(passes)
    print("floors: leaves >= 70 right, none no-leaf/no-picture; photos >= 90 % not diagnosis; synthetic all no-picture")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
