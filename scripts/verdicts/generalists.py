#!/usr/bin/env python3
"""Chooses the generalist (the ImageNet second opinion) by measurement: each candidate model's
leaf-likeness of every picture in the verdict sets, the cuts swept on the tuning half, the chosen
cuts read on the holdout half.

For each picture: PIL decode -> RGB -> centred square -> bilinear 224x224 (the picture the leaf
model and the checks see), then bilinear to the candidate's own input side, the bytes passed
through as the uint8 input (every candidate's quantisation maps a byte to itself), the uint8
output as probabilities. The leaf reference is the mean over the tuning lab leaves; a picture's
likeness is the Bhattacharyya coefficient against it (LeafReference.swift). The verdict is
simulated from the green share, the leaf model's score and the likeness (the picture checks left
out; run.py then runs the binary).

Sets (run.py's): lab leaves, everyday photos, field photos of plants (.photos/, from
`scripts/setup.sh photos`), and leaves on plain backgrounds (papers.py). Prints, per candidate,
the likeness quantiles per set and half, and for each pair of cuts the counts the floors read,
on the tuning half and then the holdout half.
Run from the project root: .venv/bin/python scripts/verdicts/generalists.py
"""
import io
import os
import sys
import time

import numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import ROOT, Model, plant_masks  # noqa: E402
from run import lab_leaves, photo_sets  # noqa: E402
from papers import paper_leaves  # noqa: E402

MODELS = os.environ.get("PLANTLEAF_SHARED_MODELS", os.path.join(ROOT, "..", "shared", "models"))
CANDIDATES = ["mobilenet_v1_0.25_128_quant", "mobilenet_v1_0.5_160_quant", "mobilenet_v1_0.75_192_quant",
              "tf2_mobilenet_v2_1.0_224_ptq", "mobilenet_v2_1.0_224_quant"]


def model_picture(image):
    """The 224x224 picture classify reads: the centred square, bilinear."""
    image = image.convert("RGB")
    side = min(image.size)
    left, top = (image.width - side) // 2, (image.height - side) // 2
    return image.crop((left, top, left + side, top + side)).resize((224, 224), Image.BILINEAR)


class Generalist:
    def __init__(self, name):
        self.name = name
        self.interpreter = Interpreter(model_path=os.path.join(MODELS, name + ".tflite"), num_threads=1)
        self.interpreter.allocate_tensors()
        self.input = self.interpreter.get_input_details()[0]
        self.output = self.interpreter.get_output_details()[0]
        self.side = int(self.input["shape"][1])
        self.seconds = []

    def distribution(self, picture):
        resized = picture if picture.width == self.side else picture.resize((self.side, self.side), Image.BILINEAR)
        self.interpreter.set_tensor(self.input["index"], np.asarray(resized, np.uint8)[None])
        start = time.perf_counter()
        self.interpreter.invoke()
        self.seconds.append(time.perf_counter() - start)
        scale, zero = self.output["quantization"]
        values = np.maximum((self.interpreter.get_tensor(self.output["index"])[0].astype(np.float64) - zero) * scale, 0)
        return values / values.sum() if values.sum() > 0 else values


def likeness(distributions, reference):
    return np.minimum(np.sqrt(distributions * reference[None]).sum(axis=1), 1)


def picture_sets():
    """{(set, half): [(name, 224x224 picture)]}."""
    sets = {}
    for half, paths in lab_leaves().items():
        sets[("lab", half)] = [(p, model_picture(Image.open(p))) for p in paths]
    for (kind, half), paths in photo_sets().items():
        sets[(kind, half)] = [(p, model_picture(Image.open(p))) for p in paths]
    for half, pictures in paper_leaves().items():
        sets[("paper", half)] = [(name, model_picture(Image.open(io.BytesIO(data)))) for name, data in pictures]
    return sets


def simulated_verdict(green, like, score, unlike_below, clearly_from, minimum_green=0.10, minimum_score=0.6):
    """The verdict policy's order for these readings (the picture check aside): too little green is
    no leaf unless the generalist finds the picture clearly leaf-like; then the generalist's cuts;
    then the score."""
    if green < minimum_green and like < clearly_from:
        return "no-leaf"
    if like < unlike_below:
        return "no-leaf"
    if like < clearly_from or score < minimum_score:
        return "uncertain"
    return "diagnosis"


def outcome(readings, leaf, key, cuts):
    """(right diagnoses, refused, diagnosed) of one set under the cuts."""
    green, score, right = leaf[key]
    verdicts = [simulated_verdict(g, l, s, *cuts) for g, l, s in zip(green, readings[key], score)]
    return (sum(1 for v, r in zip(verdicts, right) if v == "diagnosis" and r), sum(1 for v in verdicts if v == "no-leaf"),
            sum(1 for v in verdicts if v == "diagnosis"))


def sweep(readings, leaf, half):
    """For each pair of cuts, what the floors read on the half: lab leaves right and refused,
    everyday photos diagnosed, field photos and leaves on plain backgrounds refused."""
    rows = []
    for unlike in (0.005, 0.01, 0.02, 0.03, 0.05):
        for clearly in np.arange(0.10, 0.42, 0.02):
            cuts = (unlike, float(clearly))
            lab, lab_refused, _ = outcome(readings, leaf, ("lab", half), cuts)
            everyday = outcome(readings, leaf, ("everyday", half), cuts)[2]
            field = outcome(readings, leaf, ("field-leaf", half), cuts)[1]
            paper = outcome(readings, leaf, ("paper", half), cuts)[1]
            rows.append((cuts, lab, lab_refused, everyday, field, paper))
    return rows


def main():
    sets = picture_sets()
    model = Model(os.path.join(ROOT, "Models", "plantvillage_int8.tflite"), os.path.join(ROOT, "labels.txt"))
    leaf = {}
    for key, pictures in sets.items():
        green, score, right = [], [], []
        for name, picture in pictures:
            pixels = np.asarray(picture, np.uint8)
            label, top = model.top1(pixels)
            green.append(plant_masks(pixels)[0].mean())
            score.append(top)
            right.append(key[0] == "lab" and os.path.basename(os.path.dirname(name)) == label)
        leaf[key] = (green, score, right)
    readings = {}
    for name in CANDIDATES:
        generalist = Generalist(name)
        distributions = {key: np.array([generalist.distribution(p) for _, p in pictures]) for key, pictures in sets.items()}
        reference = distributions[("lab", "tune")].mean(axis=0)
        readings[name] = {key: likeness(d, reference) for key, d in distributions.items()}
        print(f"== {name}: input {generalist.side}, invoke median {1000 * np.median(generalist.seconds):.2f} ms")
        for key in sorted(sets):
            values = readings[name][key]
            quantiles = " ".join(f"{q:.3f}" for q in np.quantile(values, [0, 0.05, 0.1, 0.25, 0.5, 0.9, 1]))
            print(f"  {key[0]:<11} {key[1]:<8} {len(values):>4}  min/5/10/25/50/90%/max {quantiles}")
        print("  cuts (no-leaf below, clearly leaf from): tune half lab right / lab refused / everyday diagnosed /"
              " field refused / paper refused -> holdout half the same")
        for cuts, *tune in sweep(readings[name], leaf, "tune"):
            holdout = [outcome(readings[name], leaf, ("lab", "holdout"), cuts)[0], outcome(readings[name], leaf, ("lab", "holdout"), cuts)[1],
                       outcome(readings[name], leaf, ("everyday", "holdout"), cuts)[2], outcome(readings[name], leaf, ("field-leaf", "holdout"), cuts)[1],
                       outcome(readings[name], leaf, ("paper", "holdout"), cuts)[1]]
            print(f"    {cuts[0]:.3f} {cuts[1]:.2f}: " + " ".join(f"{v:>3}" for v in tune) + "  -> " + " ".join(f"{v:>3}" for v in holdout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
