#!/usr/bin/env bash
# make bench, second-opinion part: what both models cost a photo in batch classify, the leaf model
# and then the ImageNet generalist on the same decoded and resized picture. Each photo's record
# gives its stages (timing_ms: read, prepare, invoke, postprocess, generalist); per photo the sum of
# them over the leaf model's invoke, and the median of that over the 76 sample leaves, read
# PLANTLEAF_GENERALIST_ROUNDS times (the first round warms the page cache and is left out).
# Side by side, alternated round by round: the generalist classify runs (MobileNetV1 0.25/128)
# and the uint8 MobileNetV2 it replaced, run by the same binary from a copy of the checkout's
# layout whose generalist file is that model (with a reference calibrated for it).
# Floor, for the generalist classify runs: ≤ 1.6× the leaf model's invoke.
set -euo pipefail
cd "$(dirname "$0")/../.."

binary=${PLANTLEAF_BINARY:-.build/release/plantleaf}
rounds=${PLANTLEAF_GENERALIST_ROUNDS:-6}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

previous=$work/previous
mkdir -p "$previous/.build/release" "$previous/Models" "$work/chosen" "$work/replaced"
cp "$binary" "$previous/.build/release/plantleaf"
cp labels.txt "$previous/"
ln -s "$PWD/Models/plantvillage_int8.tflite" "$previous/Models/plantvillage_int8.tflite"
ln -s "$PWD/Models/mobilenet_v2_1.0_224_quant.tflite" "$previous/Models/mobilenet_v1_0.25_128_quant.tflite"
export PLANTLEAF_LITERT_LIB=$PWD/.runtime/lib/libLiteRt.so XDG_DATA_HOME=$work/data
"$previous/.build/release/plantleaf" calibrate --output "$previous/Models/leaf-reference.txt" samples/plantvillage >/dev/null
for round in $(seq 0 "$rounds"); do
    "$binary" classify --format json --top-k 1 --threads 1 --jobs 1 samples/plantvillage >"$work/chosen/$round.jsonl"
    "$previous/.build/release/plantleaf" classify --format json --top-k 1 --threads 1 --jobs 1 samples/plantvillage >"$work/replaced/$round.jsonl"
done
rm "$work/chosen/0.jsonl" "$work/replaced/0.jsonl"
echo "== second opinion: both models on a photo in batch classify ($(uname -m), $(nproc) cores, 1 thread, 1 job, 76 photos x $rounds)"
.venv/bin/python - "$work" <<'PY'
import glob, json, statistics, sys
print(f"  {'generalist':<41} {'leaf invoke':>11} {'generalist':>10} {'end to end':>10} {'÷ leaf invoke':>14}")
missed = False
for folder, title in (("chosen", "mobilenet_v1_0.25_128_quant (classify's)"), ("replaced", "mobilenet_v2_1.0_224_quant (before)")):
    ratios, invokes, generalists, wholes = [], [], [], []
    for name in glob.glob(f"{sys.argv[1]}/{folder}/*.jsonl"):
        for line in open(name):
            stages = json.loads(line)["timing_ms"]
            whole = sum(stages.values())
            ratios.append(whole / stages["invoke"])
            invokes.append(stages["invoke"])
            generalists.append(stages.get("generalist", 0))
            wholes.append(whole)
    ratio = statistics.median(ratios)
    mark = ("  floor 1.6×: " + ("met" if ratio <= 1.6 else "MISSED")) if folder == "chosen" else ""
    missed = missed or (folder == "chosen" and ratio > 1.6)
    print(f"  {title:<41} {statistics.median(invokes):8.2f} ms {statistics.median(generalists):7.2f} ms"
          f" {statistics.median(wholes):7.2f} ms {ratio:13.2f}×{mark}")
print("  (medians over photos; the ratio is each photo's stages summed over its leaf invoke)")
sys.exit(1 if missed else 0)
PY
