#!/usr/bin/env bash
# make bench, second-opinion part: a photo with both models (the leaf model, then the ImageNet
# generalist on the same decoded and resized picture) against the leaf model's invoke, with the
# generalist at its own input (224, what classify runs) and resized to 160 and 128
# (PLANTLEAF_GENERALIST_SIDE, each with a leaf reference calibrated at that side from the sample
# leaves). Floor, at the side classify runs: end to end ≤ 1.6× the leaf model's invoke (medians).
# `make verdicts` with the same variable says whether the smaller sides keep the verdict floors.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=${PLANTLEAF_BINARY:-.build/release/plantleaf}
runs=${PLANTLEAF_GENERALIST_RUNS:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for side in 224 160 128; do
    mkdir -p "$work/$side/plantleaf"
    PLANTLEAF_GENERALIST_SIDE=$side "$binary" calibrate --output "$work/$side/plantleaf/leaf-reference.txt" samples/plantvillage >/dev/null
    XDG_DATA_HOME=$work/$side PLANTLEAF_GENERALIST_SIDE=$side "$binary" bench --runs "$runs" --json "$work/$side.json" >/dev/null 2>&1
done
echo "== second opinion: both models on one photo ($(uname -m), $(nproc) cores, 1 thread, median of $runs runs)"
.venv/bin/python - "$work" <<'PY'
import json, sys
work = sys.argv[1]
print(f"  {'generalist input':<18} {'leaf invoke':>12} {'generalist':>11} {'end to end':>11} {'÷ leaf invoke':>14}  floor 1.6× (224, classify's)")
missed = False
for side in (224, 160, 128):
    stages = json.load(open(f"{work}/{side}.json"))["results"][0]["stages"]
    invoke, generalist, whole = (stages[name]["median_ms"] for name in ("invoke", "generalist", "end_to_end"))
    ratio = whole / invoke
    mark = ("  met" if ratio <= 1.6 else "  MISSED") if side == 224 else ""
    missed = missed or (side == 224 and ratio > 1.6)
    print(f"  {side}×{side:<14} {invoke:9.2f} ms {generalist:8.2f} ms {whole:8.2f} ms {ratio:13.2f}×{mark}")
sys.exit(1 if missed else 0)
PY
