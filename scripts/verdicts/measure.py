#!/usr/bin/env python3
"""Measures what the verdict checks (docs/verdicts.md, Sources/PlantLeafCore/Verdict/) see.

For every image: the model-size picture (PIL decode -> RGB -> bilinear resize to 224x224, as
../shared/tools/reference_classify.py does), its luminance mean and spread, its share of
green-tissue pixels (and of a broader plant colour, measured and rejected), the int8 model's top-1 class and score, and the same for the picture
mirrored left to right. Prints one table row per image, then how candidate thresholds fare
against the floors:
  - of the 76 sample leaves, at least 70 get `diagnosis` with the right class (the class is the
    folder name), and none gets `no-leaf` or `no-picture`;
  - of the non-leaf photos (skimage's sample photos and samples/imagenet), at least 90 % get
    anything but `diagnosis`;
  - the synthetic black, white, flat grey, low-light-noise and colour-bar frames all get `no-picture`.

The pixel rules here are the integer formulas of PictureStatistics.swift, so both count alike.

Needs PIL, numpy and ai_edge_litert (`scripts/setup.sh reference` makes .venv with them) and, for
the non-leaf photos, scikit-image in the same venv (`.venv/bin/pip install scikit-image`; its
package ships the photos in skimage/data). Run from the project root after `scripts/setup.sh data`:
  .venv/bin/python scripts/verdicts/measure.py [--skimage-data DIR]
"""
import argparse
import glob
import os
import sys

import numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIDE = 224

# --- the checks' pixel rules (keep in step with Sources/PlantLeafCore/Verdict/PictureStatistics.swift)


def luminance(rgb):
    """BT.601 luma in 8-bit fixed point, (77 R + 150 G + 29 B) / 256: JPEG's own Y weights."""
    r, g, b = (rgb[..., i].astype(np.int32) for i in range(3))
    return (77 * r + 150 * g + 29 * b) / 256.0


def flat_share(rgb):
    """Share of the mid-tone pixels (luma 32..224 in the fixed point above) exactly equal to the
    next pixel in their row: a drawn picture's flat areas. 0 without mid-tones."""
    r, g, b = (rgb[..., i].astype(np.int32) for i in range(3))
    scaled = 77 * r + 150 * g + 29 * b
    midtone = (scaled >= 32 * 256) & (scaled <= 224 * 256)
    flat = np.zeros(midtone.shape, bool)
    flat[:, :-1] = np.all(rgb[:, 1:] == rgb[:, :-1], axis=2)
    return (flat & midtone).sum() / midtone.sum() if midtone.any() else 0.0


def plant_masks(rgb):
    """Per-pixel masks (green tissue, broader plant colour) by the checks' integer rules.

    With s = R + G + B and chromatic coordinates r = R/s, g = G/s, b = B/s, a pixel is
      green tissue (the check's rule) when its excess green (Woebbecke et al. 1995)
        ExG = 2g - r - b > 0.05, i.e. 20 (2G - R - B) > s: green and yellow-green, and yellow
        (for R = G, ExG = g - b), not neutral grey, white, black, brown, red or blue;
    and only where it is bright enough for its chromaticity to mean something, s >= 90 (a mean
    level of 30, the picture check's darkest level: below it JPEG and sensor noise swing the ratios).
    The broader plant colour (measured, not used by the check) adds yellow-brown tissue: blue well
    below the mean of red and green, (R + G)/2 - B > 0.1 s, with green at least 0.55 of red.
    """
    r, g, b = (rgb[..., i].astype(np.int32) for i in range(3))
    s = r + g + b
    lit = s >= 90
    green = lit & (20 * (2 * g - r - b) > s)
    brown = lit & (10 * (r + g - 2 * b) > 2 * s) & (20 * g >= 11 * r)
    return green, green | brown


# --- images


def model_input(image):
    """The 224x224 RGB bytes the model sees, as the reference pipeline makes them."""
    return np.asarray(image.convert("RGB").resize((SIDE, SIDE), Image.BILINEAR), dtype=np.uint8)


def synthetic_frames():
    """Frames with no content, made here: the picture checks must call them all `no-picture`."""
    rng = np.random.default_rng(2024)
    full = (SIDE, SIDE, 3)
    # A covered or unlit sensor at high gain: a dark level with per-channel noise.
    noise = np.clip(rng.normal(14, 8, full), 0, 255).astype(np.uint8)
    # The same with coloured, blotchy noise (chroma noise is what high-gain sensors show).
    blotches = np.kron(rng.normal(0, 10, (SIDE // 8, SIDE // 8, 3)), np.ones((8, 8, 1)))
    colour_noise = np.clip(20 + blotches + rng.normal(0, 6, full), 0, 255).astype(np.uint8)
    # Colour bars at 75 %, as a driver's test pattern shows them (white, yellow, cyan, green,
    # magenta, red, blue, black), each 28 pixels wide.
    bar_colours = [(191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0), (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0)]
    bars = np.repeat(np.array(bar_colours, np.uint8)[np.arange(SIDE) * len(bar_colours) // SIDE][None, :, :], SIDE, axis=0)
    return [
        ("black", np.zeros(full, np.uint8)),
        ("white", np.full(full, 255, np.uint8)),
        ("flat-grey", np.full(full, 128, np.uint8)),
        ("flat-green", np.dstack([np.full((SIDE, SIDE), v, np.uint8) for v in (60, 140, 50)])),
        ("low-light-noise", noise),
        ("low-light-colour-noise", colour_noise),
        ("blown-out", np.clip(rng.normal(250, 4, full), 0, 255).astype(np.uint8)),
        ("colour-bars", bars),
    ]


def image_sets(skimage_data):
    """(group, name, expected class or None, 224x224 RGB array) for every image measured."""
    leaves = glob.glob(os.path.join(ROOT, "samples", "plantvillage", "*", "*"))
    for path in sorted(p for p in leaves if p.lower().endswith((".jpg", ".jpeg", ".png"))):
        label = os.path.basename(os.path.dirname(path))
        yield "leaf", os.path.relpath(path, os.path.join(ROOT, "samples", "plantvillage")), label, model_input(Image.open(path))
    photos = sorted(glob.glob(os.path.join(ROOT, "samples", "imagenet", "*.jpg")))
    if skimage_data:
        photos += sorted(p for p in glob.glob(os.path.join(skimage_data, "*")) if p.lower().endswith((".png", ".jpg")))
    for path in photos:
        yield "non-leaf", os.path.basename(path), None, model_input(Image.open(path))
    for name, pixels in synthetic_frames():
        yield "synthetic", name, None, pixels


# --- measurement


class Model:
    def __init__(self, model_path, labels_path):
        self.labels = [line.strip() for line in open(labels_path) if line.strip() and not line.startswith("#")]
        self.interpreter = Interpreter(model_path=model_path, num_threads=1)
        self.interpreter.allocate_tensors()
        self.input = self.interpreter.get_input_details()[0]
        self.output = self.interpreter.get_output_details()[0]

    def top1(self, pixels):
        """(label, score): the int8 input is exactly pixel - 128 (scale 1/255, zero point -128)."""
        self.interpreter.set_tensor(self.input["index"], (pixels.astype(np.int16) - 128).astype(np.int8)[None])
        self.interpreter.invoke()
        raw = self.interpreter.get_tensor(self.output["index"])[0]
        scale, zero_point = self.output["quantization"]
        scores = (raw.astype(np.float32) - zero_point) * scale
        best = int(np.argmax(scores))  # the first of equal scores, as Scores.topK keeps class order
        return self.labels[best], float(scores[best])


def measure(model, skimage_data):
    rows = []
    for group, name, expected, pixels in image_sets(skimage_data):
        y = luminance(pixels)
        green, broad = plant_masks(pixels)
        label, score = model.top1(pixels)
        mirrored_label, mirrored_score = model.top1(pixels[:, ::-1])
        rows.append(dict(group=group, name=name, expected=expected, mean=y.mean(), spread=y.std(),
                         flat=flat_share(pixels), plant=green.mean(), broad=broad.mean(),
                         label=label, score=score, mirrored_label=mirrored_label, mirrored_score=mirrored_score))
    return rows


# --- the decision (keep in step with VerdictPolicy.verdict in Sources/PlantLeafCore/Verdict/)


def verdict(row, t, checks):
    if "picture" in checks and (row["mean"] < t["darkest"] or row["mean"] > t["brightest"] or row["spread"] < t["flattest"]
                                or row["flat"] > t["largest_flat"]):
        return "no-picture"
    if "vegetation" in checks and row["plant"] < t["plant_share"]:
        return "no-leaf"
    if "score" in checks and row["score"] < t["min_score"]:
        return "uncertain"
    if "mirror" in checks and (row["mirrored_label"] != row["label"] or row["mirrored_score"] < t["min_score"]):
        return "uncertain"
    return "diagnosis"


def outcome(rows, t, checks):
    leaves = [r for r in rows if r["group"] == "leaf"]
    others = [r for r in rows if r["group"] == "non-leaf"]
    synthetic = [r for r in rows if r["group"] == "synthetic"]
    right = sum(verdict(r, t, checks) == "diagnosis" and r["label"] == r["expected"] for r in leaves)
    lost = sum(verdict(r, t, checks) in ("no-leaf", "no-picture") for r in leaves)
    caught = sum(verdict(r, t, checks) != "diagnosis" for r in others)
    blank = sum(verdict(r, t, checks) == "no-picture" for r in synthetic)
    meets = right >= 70 and lost == 0 and caught >= 0.9 * len(others) and blank == len(synthetic)
    return right, len(leaves), lost, caught, len(others), blank, len(synthetic), meets


CHOSEN = dict(darkest=30, brightest=235, flattest=8, largest_flat=0.5, plant_share=0.10, min_score=0.60)
CHECK_SETS = {"classify default (picture,vegetation,score)": {"picture", "vegetation", "score"},
              "camera default / all (+mirror)": {"picture", "vegetation", "score", "mirror"},
              "picture,vegetation": {"picture", "vegetation"},
              "picture,score": {"picture", "score"}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default=os.path.join(ROOT, "Models", "plantvillage_int8.tflite"))
    parser.add_argument("--labels", default=os.path.join(ROOT, "labels.txt"))
    parser.add_argument("--skimage-data", help="folder of skimage's sample photos (default: from the installed scikit-image)")
    args = parser.parse_args()
    skimage_data = args.skimage_data
    if skimage_data is None:
        try:
            import skimage
            skimage_data = os.path.join(os.path.dirname(skimage.__file__), "data")
        except ImportError:
            print("measure: scikit-image not installed: only samples/imagenet as non-leaf photos", file=sys.stderr)

    rows = measure(Model(args.model, args.labels), skimage_data)
    print(f"{'group':9} {'image':58} {'lum':>5} {'sprd':>5} {'flat':>5} {'green':>5} {'broad':>5}  "
          f"{'top-1 (score)':44} {'mirrored (score)':44} verdict (classify, camera)")
    for r in rows:
        short = lambda label: label if len(label) <= 36 else label[:35] + "~"
        mark = "" if r["expected"] is None else (" ok" if r["label"] == r["expected"] else " WRONG")
        print(f"{r['group']:9} {r['name'][:58]:58} {r['mean']:5.1f} {r['spread']:5.1f} {r['flat']:5.2f} {r['plant']:5.2f} {r['broad']:5.2f}  "
              f"{short(r['label']):36} ({r['score']:.3f}) {short(r['mirrored_label']):36} ({r['mirrored_score']:.3f})  "
              f"{verdict(r, CHOSEN, CHECK_SETS['classify default (picture,vegetation,score)'])}, "
              f"{verdict(r, CHOSEN, CHECK_SETS['camera default / all (+mirror)'])}{mark}")

    def report(title, t, checks, measured=rows):
        right, leaves, lost, caught, others, blank, synthetic, meets = outcome(measured, t, checks)
        print(f"  {title:58} leaves right {right:2}/{leaves}, lost {lost:2}; non-leaf caught {caught:2}/{others} "
              f"({100 * caught / max(1, others):3.0f} %); synthetic no-picture {blank}/{synthetic}  {'MEETS' if meets else 'misses'}")

    print("\nChosen thresholds:", ", ".join(f"{k} {v}" for k, v in CHOSEN.items()))
    for title, checks in CHECK_SETS.items():
        report(title, CHOSEN, checks)
    print("\nCandidates, one threshold varied from the chosen ones (all checks but mirror, then all):")
    candidates = [("plant_share", v) for v in (0.02, 0.05, 0.10, 0.15, 0.20, 0.25)] + \
                 [("min_score", v) for v in (0.30, 0.40, 0.50, 0.55, 0.60, 0.65, 0.70, 0.75, 0.80, 0.90)] + \
                 [("darkest", v) for v in (20, 30, 40)] + [("brightest", v) for v in (225, 235, 245)] + \
                 [("flattest", v) for v in (4, 8, 12)] + [("largest_flat", v) for v in (0.3, 0.5, 0.7)]
    for key, value in candidates:
        t = dict(CHOSEN, **{key: value})
        for title, checks in list(CHECK_SETS.items())[:2]:
            report(f"{key} {value} [{title.split(' (')[0]}]", t, checks)
    print("\nThe broader plant colour (green or yellow-brown tissue) instead of green tissue alone:")
    broad_rows = [dict(r, plant=r["broad"]) for r in rows]
    for value in (0.05, 0.10, 0.20, 0.30):
        for title, checks in list(CHECK_SETS.items())[:2]:
            report(f"broad share {value:.2f} [{title.split(' (')[0]}]", dict(CHOSEN, plant_share=value), checks, broad_rows)
    print("\nRanges: ", end="")
    for group in ("leaf", "non-leaf", "synthetic"):
        g = [r for r in rows if r["group"] == group]
        print(f"{group}: lum {min(r['mean'] for r in g):.1f}-{max(r['mean'] for r in g):.1f}, spread {min(r['spread'] for r in g):.1f}-"
              f"{max(r['spread'] for r in g):.1f}, flat {min(r['flat'] for r in g):.2f}-{max(r['flat'] for r in g):.2f}, plant {min(r['plant'] for r in g):.2f}-{max(r['plant'] for r in g):.2f}, "
              f"score {min(r['score'] for r in g):.3f}-{max(r['score'] for r in g):.3f}", end="; " if group != "synthetic" else "\n")


if __name__ == "__main__":
    main()
