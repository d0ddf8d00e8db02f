#!/usr/bin/env python3
"""Leaves on plain backgrounds, made from the sample leaves: what the advice asks a grower for (one
leaf on paper, a board or a cloth), and leaves that are brown, yellow, black or white-powdered.

Each sample leaf is cut from its PlantVillage background (the background is near-grey, by chroma, smoothed so the cloth's texture and the leaf's spots do not cut holes), its
colour changed for the variant, and pasted on a flat background with a little shading and noise,
at one of three sizes, in a 640x480 photo saved as JPEG quality 90 (a camera's or a phone's
saving flattens a smooth background the way these photos show it). The background, size and
shading go round with the leaf's index, so both halves hold all of them; the tuning half is made
from the tuning lab leaves and the holdout half from the holdout ones (run.py's split).

  .venv/bin/python scripts/verdicts/papers.py OUTDIR    writes the pictures, for looking at them
"""
import io
import os
import sys

import numpy as np
from PIL import Image, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# Background colours of plain things a leaf is laid on: white and pale blue paper, grey board,
# a light wooden board, a beige cloth (the cloth with a weave's texture).
BACKGROUNDS = [("white-paper", (246, 246, 242), 0), ("blue-paper", (206, 221, 238), 0), ("grey-board", (158, 160, 158), 0),
               ("wood-board", (200, 172, 132), 3), ("cloth", (226, 216, 196), 7)]
SIZES = [0.4, 0.6, 0.85]  # the leaf's longer side over the photo's height
VARIANTS = ["green", "brown", "yellow", "black", "powdery"]
WIDTH, HEIGHT = 640, 480


def leaf_mask(rgb):
    """The leaf's pixels: coloured ones (the lab's cloth and board are near grey, a leaf green,
    yellow or brown), smoothed so the cloth's specks go and spots and veins in the leaf stay."""
    pixels = rgb.astype(np.int32)
    chroma = pixels.max(axis=2) - pixels.min(axis=2)
    mask = Image.fromarray(((chroma > 32) * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(4))
    mask = Image.fromarray(((np.asarray(mask) > 110) * 255).astype(np.uint8))
    return mask.filter(ImageFilter.GaussianBlur(1))


def recolour(rgb, variant, rng):
    """The leaf's pixels in the variant's colour, keeping its texture (its luma)."""
    pixels = rgb.astype(np.float64)
    luma = (0.299 * pixels[..., 0] + 0.587 * pixels[..., 1] + 0.114 * pixels[..., 2])[..., None]
    if variant == "brown":
        pixels = luma * np.array([1.15, 0.78, 0.45])
    elif variant == "yellow":
        pixels = luma * np.array([1.25, 1.15, 0.42])
    elif variant == "black":
        pixels = luma * np.array([0.42, 0.36, 0.30])
    elif variant == "powdery":
        # Powdery mildew: white felt in blotches over the leaf.
        noise = Image.fromarray((rng.random(rgb.shape[:2]) * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(6))
        blotches = np.asarray(noise, np.float64)
        blotches = np.clip((blotches - np.median(blotches)) / 6 + 0.4, 0, 1)[..., None] * 0.8
        pixels = pixels * (1 - blotches) + np.array([236, 238, 232]) * blotches
    return np.clip(pixels, 0, 255)


def compose(path, index, variant, rng):
    """(name, JPEG bytes), or None where the cut-out failed: a mask of fragments or of the whole photo."""
    source = Image.open(path).convert("RGB")
    rgb = np.asarray(source)
    mask = leaf_mask(rgb)
    if not 0.12 <= np.asarray(mask).mean() / 255 <= 0.8:
        return None
    background_name, colour, weave = BACKGROUNDS[index % len(BACKGROUNDS)]
    size = SIZES[(index // len(BACKGROUNDS)) % len(SIZES)]
    leaf = Image.fromarray(recolour(rgb, variant, rng).astype(np.uint8))
    box = mask.getbbox() or (0, 0, source.width, source.height)
    leaf, mask = leaf.crop(box), mask.crop(box)
    scale = size * HEIGHT / max(leaf.size)
    target = (max(1, round(leaf.width * scale)), max(1, round(leaf.height * scale)))
    leaf, mask = leaf.resize(target, Image.BILINEAR), mask.resize(target, Image.BILINEAR)
    # Shading: light falling off across the sheet, in a direction that goes round with the index.
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH] / max(WIDTH, HEIGHT)
    angle = index * 2.4
    ramp = np.cos(angle) * x + np.sin(angle) * y
    shade = 1.0 - 0.10 * (ramp - ramp.min()) / (ramp.max() - ramp.min())
    background = np.array(colour, np.float64)[None, None] * shade[..., None]
    if weave:
        background += rng.normal(0, weave, (HEIGHT, WIDTH, 1))
    background += rng.normal(0, 1.2, (HEIGHT, WIDTH, 3))
    photo = Image.fromarray(np.clip(background, 0, 255).astype(np.uint8))
    photo.paste(leaf, ((WIDTH - target[0]) // 2, (HEIGHT - target[1]) // 2), mask)
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=90)
    return f"{variant}-{background_name}-{int(size * 100)}-{index:02}", buffer.getvalue()


def paper_leaves():
    """{'tune': [(name, jpeg bytes)], 'holdout': [...]}: every lab leaf of the half that cuts out
    cleanly, in every variant."""
    from run import lab_leaves
    rng = np.random.default_rng(37)
    halves = {}
    for half, paths in lab_leaves().items():
        made = (compose(path, index, variant, rng) for variant in VARIANTS for index, path in enumerate(paths))
        halves[half] = [picture for picture in made if picture]
    return halves


if __name__ == "__main__":
    folder = sys.argv[1]
    for half, pictures in paper_leaves().items():
        os.makedirs(os.path.join(folder, half), exist_ok=True)
        for name, data in pictures:
            with open(os.path.join(folder, half, name + ".jpg"), "wb") as file:
                file.write(data)
